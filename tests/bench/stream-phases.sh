#!/usr/bin/env bash
# Where a streaming run's wall time goes: capwatch-cli chat against the demo `firehose` scenario
# (as stream-bench.sh), with history on and with --private, each run split in three by system
# call tracepoints (perf, which needs root or perf_event_paranoid <= -1):
#
#   startup  exec to the first connect() (with history: opening the database, reading the window
#            reports the send is paced by)
#   stream   that connect() to the "capwatch: answered ..." line on stderr
#   tail     that line to exit_group() (with history: storing the answer, closing the database)
#
#   tests/bench/stream-phases.sh [CAPWATCH_CLI [RUNS [BASELINE_CLI]]]
#
# Prints the median of each phase in ms. The tracepoints cost little; the stream phase varies by
# tens of ms from run to run on a busy machine, startup and tail far less. Not part of the suite.
set -euo pipefail

# shellcheck source=tests/bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # bench_dir, repo_root, resolve
die() {
    echo "stream-phases: $*" >&2
    exit 1
}

cli=$(resolve "${1:-build/release/src/app/capwatch-cli}")
runs=${2:-5}
base=${3:+$(resolve "$3")}
[[ -x $cli ]] || die "no executable capwatch-cli at '$cli'"
[[ -z $base || -x $base ]] || die "no executable baseline capwatch-cli at '$base'"
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, got '$runs'"
command -v perf > /dev/null || die "perf is missing (apt-get install -y linux-perf)"

work=$(mktemp -d "${TMPDIR:-/tmp}/stream-phases.XXXXXX")
server_pid=""
cleanup() {
    [[ -n $server_pid ]] && kill -TERM "$server_pid" 2> /dev/null && wait "$server_pid" 2> /dev/null
    rm -rf "$work"
}
trap cleanup EXIT

"$cli" demo --port 0 --scenario firehose > "$work/demo.out" 2> /dev/null &
server_pid=$!
url=""
for _ in $(seq 1 100); do
    if [[ $(head -n 1 "$work/demo.out" 2> /dev/null) =~ listening\ on\ (http://[^[:space:]]+/v1) ]]; then
        url=${BASH_REMATCH[1]}
        break
    fi
    sleep 0.1
done
[[ -n $url ]] || die "the demo provider did not start"

# A small database per build, as stream-bench.sh makes it, copied before each history run.
builds=("$cli")
[[ -n $base ]] && builds+=("$base")
for i in "${!builds[@]}"; do
    "${builds[$i]}" chat --endpoint http://127.0.0.1:9/v1 --prompt seed --max-attempts 1 \
        --history-database "$work/seed-$i.sqlite" > /dev/null 2>&1 || true
    [[ -s $work/seed-$i.sqlite ]] || die "could not make a seed database with ${builds[$i]}"
done

for ((run = 1; run <= runs; run++)); do
    for i in "${!builds[@]}"; do
        for mode in history private; do
            rm -f "$work/history.sqlite"*
            flags=(--private)
            if [[ $mode == history ]]; then
                cp "$work/seed-$i.sqlite" "$work/history.sqlite"
                # capwatch-cli leaves its writes in the write-ahead log: part of the database.
                if [[ -e $work/seed-$i.sqlite-wal ]]; then
                    cp "$work/seed-$i.sqlite-wal" "$work/history.sqlite-wal"
                fi
                flags=(--history-database "$work/history.sqlite")
            fi
            perf record -q -o "$work/run.perf" -e syscalls:sys_exit_execve \
                -e syscalls:sys_enter_connect -e syscalls:sys_enter_write --filter 'fd == 2' \
                -e syscalls:sys_enter_exit_group \
                "${builds[$i]}" chat --endpoint "$url" --prompt bench "${flags[@]}" \
                > /dev/null 2> "$work/run.err" || die "run failed: $(tail -n 2 "$work/run.err")"
            perf script -i "$work/run.perf" -F time,event 2> /dev/null | awk -v k="$i $mode" '
                { t = $1 + 0 } $2 ~ /execve/ && !x { x = t } $2 ~ /connect/ && !c { c = t }
                $2 ~ /sys_enter_write/ { w = t } $2 ~ /exit_group/ { g = t }
                END { printf "%s %.1f %.1f %.1f %.1f\n", k, (c - x) * 1000, (w - c) * 1000, (g - w) * 1000, (g - x) * 1000 }' \
                >> "$work/phases"
        done
    done
    echo "stream-phases: round $run/$runs done" >&2
done

echo "| build | mode | runs | startup ms | stream ms | tail ms | total ms |"
echo "| --- | --- | --: | --: | --: | --: | --: |"
for i in "${!builds[@]}"; do
    for mode in history private; do
        label=$([[ $i == 0 ]] && echo "$cli" || echo "baseline $base")
        median() { grep "^$i $mode " "$work/phases" | cut -d ' ' -f "$1" | sort -g |
            awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
        echo "| $label | $mode | $runs | $(median 3) | $(median 4) | $(median 5) | $(median 6) |"
    done
done
