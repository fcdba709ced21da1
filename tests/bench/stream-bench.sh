#!/usr/bin/env bash
# Streaming benchmark: how fast, and in how much memory, clients take in one very long streamed
# answer from capwatch-cli's embedded demo provider (scenario `firehose`: 20,000,000 bytes of
# answer text in 90,000 SSE chunks, sent as fast as the socket takes it).
#
#   tests/bench/stream-bench.sh [CAPWATCH_CLI [RUNS [BASELINE_CLI]]]
#
# CAPWATCH_CLI defaults to build/release/src/app/capwatch-cli under the repository root; RUNS
# defaults to 3. Clients: capwatch-cli chat with history on (a copy of a small database each
# run) and with --private, curl (raw SSE bytes, a floor), bench_barestream (the same bytes read
# by a bare QNetworkAccessManager with capwatch's read bound: the floor of a Qt program, built
# beside CAPWATCH_CLI in tests/bench/, or STREAM_BENCH_QT=PATH), and the official `openai` npm
# package v6 when node and npm exist (installed once into tests/bench/.node/). BASELINE_CLI, another build, is run
# the same two ways in the same rounds, for a before/after side by side. Prints a markdown table
# of medians and spreads, and the ratios. STREAM_BENCH_SDK=0 leaves the SDK out. Not part of the
# test suite.
set -euo pipefail

readonly ANSWER_BYTES=20000000
readonly CLIENT_TIMEOUT_S=300

# shellcheck source=tests/bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # bench_dir, repo_root, resolve
node_dir="$bench_dir/.node"

die() {
    echo "stream-bench: $*" >&2
    exit 1
}

# --- arguments -------------------------------------------------------------------------------
cli_arg=${1:-build/release/src/app/capwatch-cli}
runs=${2:-3}
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, got '$runs'"
base_arg=${3:-}

cli=$(resolve "$cli_arg")
[[ -x $cli ]] || die "no executable capwatch-cli at '$cli'; build it first, e.g.
  cmake --preset release && cmake --build --preset release --target capwatch-cli"
base=""
if [[ -n $base_arg ]]; then
    base=$(resolve "$base_arg")
    [[ -x $base ]] || die "no executable baseline capwatch-cli at '$base'"
fi

if [[ ! -x /usr/bin/time ]]; then
    echo "stream-bench: /usr/bin/time (GNU time) is missing; install it with:" >&2
    echo "  apt-get install -y time" >&2
    exit 1
fi
command -v curl > /dev/null || die "curl is missing (apt-get install -y curl)"

# --- scratch space and the server, both removed on exit --------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/stream-bench.XXXXXX")
server_pid=""
cleanup() {
    if [[ -n $server_pid ]] && kill -0 "$server_pid" 2> /dev/null; then
        kill -TERM "$server_pid" 2> /dev/null || true
        wait "$server_pid" 2> /dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the openai SDK (optional) ---------------------------------------------------------------
sdk=0
sdk_note=""
if [[ ${STREAM_BENCH_SDK:-1} == 0 ]]; then
    sdk_note="STREAM_BENCH_SDK=0; SDK column skipped"
elif command -v node > /dev/null && command -v npm > /dev/null; then
    sdk_version=""
    if [[ -f $node_dir/node_modules/openai/package.json ]]; then
        sdk_version=$(node -p "require('$node_dir/node_modules/openai/package.json').version" 2> /dev/null || true)
    fi
    if [[ $sdk_version != 6.* ]]; then
        echo "stream-bench: installing openai@6 into $node_dir ..." >&2
        mkdir -p "$node_dir"
        [[ -f $node_dir/package.json ]] || echo '{ "private": true }' > "$node_dir/package.json"
        if npm install --prefix "$node_dir" --no-audit --no-fund openai@6 > "$work/npm.log" 2>&1; then
            sdk_version=$(node -p "require('$node_dir/node_modules/openai/package.json').version")
        else
            sed 's/^/  npm: /' "$work/npm.log" | tail -n 15 >&2
            sdk_note="npm install openai@6 failed; SDK column skipped"
            echo "stream-bench: $sdk_note" >&2
        fi
    fi
    if [[ $sdk_version == 6.* ]]; then
        # Run the client from beside node_modules so that `import 'openai'` resolves there.
        cp "$bench_dir/openai-sdk-stream.mjs" "$node_dir/openai-sdk-stream.mjs"
        sdk=1
    fi
else
    sdk_note="node or npm not found; SDK column skipped"
    echo "stream-bench: $sdk_note" >&2
fi

# --- start the demo provider -----------------------------------------------------------------
"$cli" demo --port 0 --scenario firehose > "$work/demo.out" 2> "$work/demo.err" &
server_pid=$!
url=""
for _ in $(seq 1 100); do
    if [[ -s $work/demo.out ]]; then
        line=$(head -n 1 "$work/demo.out")
        if [[ $line =~ listening\ on\ (http://[^[:space:]]+/v1) ]]; then
            url=${BASH_REMATCH[1]}
            break
        fi
    fi
    kill -0 "$server_pid" 2> /dev/null || break
    sleep 0.1
done
if [[ -z $url ]]; then
    cat "$work/demo.out" "$work/demo.err" >&2
    die "the demo provider did not start (is the 'firehose' scenario in this build? see '$cli demo --help')"
fi

# --- measuring -------------------------------------------------------------------------------
# measure NAME OUTFILE CMD...: runs CMD under /usr/bin/time with stdout to OUTFILE and appends
# "wall_s rss_kib" to $work/NAME.times. Returns CMD's status.
measure() {
    local name=$1 out=$2
    shift 2
    local status=0
    timeout --kill-after=5 "$CLIENT_TIMEOUT_S" \
        /usr/bin/time -f '%e %M' -o "$work/time.txt" "$@" > "$out" 2> "$work/$name.err" || status=$?
    if ((status != 0)); then
        echo "stream-bench: $name exited with status $status:" >&2
        tail -n 5 "$work/$name.err" >&2
        return "$status"
    fi
    tail -n 1 "$work/time.txt" >> "$work/$name.times"
}

failed=0
check_bytes() { # NAME GOT: record GOT and flag it if it is not the expected answer size
    echo "$2" >> "$work/$1.bytes"
    if [[ $2 != "$ANSWER_BYTES" ]]; then
        echo "stream-bench: $1 got $2 answer bytes, expected $ANSWER_BYTES" >&2
        failed=1
    fi
}

body='{"model":"capwatch-demo","stream":true,"messages":[{"role":"user","content":"bench"}]}'
clients=(capwatch private)
[[ -n $base ]] && clients+=(base base-private)
clients+=(curl)
qt_reader=${STREAM_BENCH_QT:-$(dirname "$cli")/../../tests/bench/bench_barestream}
if [[ -x $qt_reader ]]; then
    clients+=(qt)
else
    echo "stream-bench: no bench_barestream at '$qt_reader'; the Qt floor is skipped" >&2
fi
((sdk)) && clients+=(sdk)

# seed BINARY DB: a small database as that build makes it, for the history runs to start from:
# one conversation whose one send failed at once (nothing listens on port 9), no long answer and
# no window report (which would make a run wait for pacing).
seed() {
    "$1" chat --endpoint http://127.0.0.1:9/v1 --prompt seed --max-attempts 1 \
        --history-database "$2" > /dev/null 2>&1 || true
    [[ -s $2 ]] || die "could not make the seed database $2 with $1"
}
seed "$cli" "$work/seed.sqlite"
[[ -n $base ]] && seed "$base" "$work/seed-base.sqlite"

# chat NAME BINARY [SEED]: one capwatch-cli chat run, its answer checked. With a SEED it stores
# into a copy of it, made before each run, so every run stores its answer into the same small
# database: the figure is the cost of storing this answer, not of a database grown by earlier
# runs (opening one reads it whole, PRAGMA quick_check, about 1 s per 100 MB). Without, --private.
chat() {
    local name=$1 binary=$2 seed=${3:-}
    local flags=(--private)
    rm -f "$work/history.sqlite"*
    if [[ -n $seed ]]; then
        cp "$seed" "$work/history.sqlite"
        # capwatch-cli leaves its writes in the write-ahead log: it is part of the database.
        [[ -e $seed-wal ]] && cp "$seed-wal" "$work/history.sqlite-wal"
        flags=(--history-database "$work/history.sqlite")
    fi
    if measure "$name" "$work/capwatch.out" "$binary" chat --endpoint "$url" --prompt bench "${flags[@]}"; then
        check_bytes "$name" "$(stat -c %s "$work/capwatch.out")"
    else
        failed=1
    fi
    rm -f "$work/capwatch.out" "$work/history.sqlite"*
}

echo "stream-bench: $cli${base:+ and $base} against $url, $runs run(s) per client" >&2
for ((run = 1; run <= runs; run++)); do
    for client in "${clients[@]}"; do
        case $client in
        capwatch) chat capwatch "$cli" "$work/seed.sqlite" ;;
        private) chat private "$cli" ;;
        base) chat base "$base" "$work/seed-base.sqlite" ;;
        base-private) chat base-private "$base" ;;
        curl)
            # Raw SSE bytes as received (-w prints them); a floor for any client, not an answer size.
            if measure curl "$work/curl.out" curl -sSN --fail -X POST "$url/chat/completions" \
                -H 'Content-Type: application/json' -d "$body" -o /dev/null -w '%{size_download}'; then
                echo "$(< "$work/curl.out")" >> "$work/curl.bytes"
            else
                failed=1
            fi
            ;;
        qt)
            # The same raw bytes as curl, read by a bare Qt program (its byte count on stdout).
            if measure qt "$work/qt.out" "$qt_reader" "$url/chat/completions" 262144; then
                echo "$(< "$work/qt.out")" >> "$work/qt.bytes"
            else
                failed=1
            fi
            ;;
        sdk)
            if measure sdk "$work/sdk.out" node "$node_dir/openai-sdk-stream.mjs" "$url"; then
                check_bytes sdk "$(tr -d '[:space:]' < "$work/sdk.out")"
            else
                failed=1
            fi
            ;;
        esac
        if [[ -f $work/$client.times ]]; then
            echo "  run $run/$runs $client: $(tail -n 1 "$work/$client.times") (wall s, peak RSS KiB)" >&2
        fi
    done
done

# --- report ----------------------------------------------------------------------------------
median() { # FILE COLUMN: median of a column of numbers
    cut -d ' ' -f "$2" "$1" | sort -g | awk '{ v[NR] = $1 }
        END { if (NR == 0) exit 1; if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

spread() { # FILE COLUMN SCALE: "min-max" of a column, divided by SCALE
    cut -d ' ' -f "$2" "$1" | sort -g | awk -v s="$3" 'NR == 1 { lo = $1 } { hi = $1 }
        END { printf (s == 1 ? "%.2f-%.2f" : "%.1f-%.1f"), lo / s, hi / s }'
}

declare -A wall rss
echo
echo "| client | runs | median wall s (min-max) | median peak RSS MiB (min-max) | answer bytes |"
echo "| --- | --: | --: | --: | --: |"
for client in "${clients[@]}"; do
    case $client in
    capwatch) label="capwatch-cli chat, history on" ;;
    private) label="capwatch-cli chat --private" ;;
    base) label="baseline capwatch-cli chat, history on" ;;
    base-private) label="baseline capwatch-cli chat --private" ;;
    curl) label="curl -N (raw SSE bytes)" ;;
    qt) label="bare Qt reader, bench_barestream (raw SSE bytes)" ;;
    sdk) label="openai SDK $sdk_version (node $(node --version))" ;;
    esac
    times="$work/$client.times"
    if [[ ! -s $times ]]; then
        echo "| $label | 0 | - | - | - |"
        continue
    fi
    n=$(wc -l < "$times")
    wall[$client]=$(median "$times" 1)
    rss[$client]=$(awk -v k="$(median "$times" 2)" 'BEGIN { printf "%.1f", k / 1024 }')
    if [[ $client == curl || $client == qt ]]; then
        # The SSE size varies by a few bytes per chunk with the request number in the chunk id.
        bytes=$(median "$work/curl.bytes" 1 2> /dev/null || true)
    else
        bytes=$(sort -u "$work/$client.bytes" 2> /dev/null | paste -sd / -)
    fi
    printf '| %s | %d | %.2f (%s) | %s (%s) | %s |\n' "$label" "$n" "${wall[$client]}" \
        "$(spread "$times" 1 1)" "${rss[$client]}" "$(spread "$times" 2 1024)" "${bytes:--}"
done
echo

# ratio LABEL A B: the medians of client A over client B, wall and peak RSS
ratio() {
    [[ -n ${wall[$2]:-} && -n ${wall[$3]:-} ]] || return 0
    awk -v l="$1" -v aw="${wall[$2]}" -v bw="${wall[$3]}" -v ar="${rss[$2]}" -v br="${rss[$3]}" \
        'BEGIN { printf "%-34s wall %s, peak RSS %.2f\n", l ":", (bw > 0 ? sprintf("%.2f", aw / bw) : "n/a"), ar / br }'
}
ratio "capwatch (history on)/curl" capwatch curl
ratio "capwatch (history on)/--private" capwatch private
ratio "capwatch --private/curl" private curl
ratio "bare Qt reader/curl" qt curl
ratio "capwatch (history on)/bare Qt" capwatch qt
ratio "capwatch --private/bare Qt" private qt
ratio "baseline (history on)/curl" base curl
ratio "baseline (history on)/--private" base base-private

if [[ -n ${wall[capwatch]:-} && -n ${wall[sdk]:-} ]]; then
    awk -v cw="${wall[capwatch]}" -v sw="${wall[sdk]}" -v cr="${rss[capwatch]}" -v sr="${rss[sdk]}" 'BEGIN {
        if (sw > 0) printf "capwatch/SDK wall time: %.2f\n", cw / sw; else print "capwatch/SDK wall time: n/a (SDK wall 0 s)"
        printf "capwatch/SDK peak RSS:  %.2f\n", cr / sr }'
else
    echo "capwatch/SDK ratios: n/a${sdk_note:+ ($sdk_note)}"
fi

if ((failed)); then
    echo "stream-bench: some runs failed or returned the wrong answer size (see above)" >&2
    exit 1
fi
