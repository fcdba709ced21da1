#!/usr/bin/env bash
# Startup benchmark: time from exec to a visible main window, and the resident set then, for
# `capwatch --demo` against a bare Qt Widgets window (bench_barewindow: a text view, a line edit
# and a button, the same Qt). Both exit at their first paint (CAPWATCH_STARTUP_PROBE), so
# hyperfine times exec -> visible, without the teardown. Runs under Xvfb when xvfb-run exists
# (the xcb platform, as on a desktop), else on the offscreen platform.
#
#   tests/bench/startup-bench.sh [BUILD_DIR [RUNS]]     defaults: build/ci, 30
#
# BEFORE=DIR adds the capwatch of another build (an earlier commit's) to the same run, so the two
# are measured side by side. HISTORY=FILE adds a run of each capwatch with FILE as its history
# database (copied before every run; bench_history --full --keep DIR makes one of 10,000
# conversations).
#
# Needs hyperfine (apt-get install -y hyperfine). Prints a markdown table and the ratios.
set -euo pipefail

bench_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(cd "$bench_dir/../.." && pwd)
build=${1:-build/ci}
runs=${2:-30}
[[ $build == /* ]] || build="$repo_root/$build"
capwatch="$build/src/app/capwatch"
bare="$build/tests/bench/bench_barewindow"
for b in "$capwatch" "$bare"; do
    [[ -x $b ]] || { echo "startup-bench: no $b; build it: cmake --build $build --target capwatch bench_barewindow" >&2; exit 1; }
done
command -v hyperfine > /dev/null || { echo "startup-bench: hyperfine is missing (apt-get install -y hyperfine)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/startup-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
# A fresh configuration for every run of capwatch: a first start, as a new user sees it.
export XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_CACHE_HOME="$work/cache"
export CAPWATCH_STARTUP_PROBE=1 LANG=C.UTF-8

if command -v xvfb-run > /dev/null && [[ -z ${FORCE_OFFSCREEN:-} ]]; then
    platform="xcb (Xvfb)"
    # One X server for the whole run, so its start is not part of any figure.
    Xvfb :97 -screen 0 1600x1000x24 -nolisten tcp > /dev/null 2>&1 &
    xvfb_pid=$!
    trap 'kill $xvfb_pid 2> /dev/null; rm -rf "$work"' EXIT
    export DISPLAY=:97 QT_QPA_PLATFORM=xcb
    for _ in $(seq 50); do [[ -e /tmp/.X11-unix/X97 ]] && break; sleep 0.1; done
else
    platform="offscreen"
    export QT_QPA_PLATFORM=offscreen
fi

# name -> command line; a run with a history gets a copy of it, fresh, before every run.
names=(bare capwatch)
commands=("$bare" "$capwatch --demo")
if [[ -n ${BEFORE:-} ]]; then
    [[ -x $BEFORE/src/app/capwatch ]] || { echo "startup-bench: no $BEFORE/src/app/capwatch" >&2; exit 1; }
    names+=(before)
    commands+=("$BEFORE/src/app/capwatch --demo")
fi
if [[ -n ${HISTORY:-} ]]; then
    [[ -f $HISTORY ]] || { echo "startup-bench: no history database $HISTORY" >&2; exit 1; }
    # Copying the database before a run speeds the run after it up (by 30 ms for the bare
    # window, measured on this VM), so the history runs have their own bare window, copy and all.
    names+=(bare-history capwatch-history)
    commands+=("$bare")
    commands+=("$capwatch --demo")
    if [[ -n ${BEFORE:-} ]]; then
        names+=(before-history)
        commands+=("$BEFORE/src/app/capwatch --demo")
    fi
fi
prepare_for() { # the name of a run -> its --prepare command (hyperfine -N runs it without a shell)
    local fresh="rm -rf $work/config $work/data $work/cache"
    if [[ $1 == *-history ]]; then
        echo "bash -c '$fresh && mkdir -p $work/data/capwatch && cp $HISTORY $work/data/capwatch/history.sqlite'"
    else
        echo "$fresh"
    fi
}

echo "startup-bench: $runs runs each on $platform" >&2
args=()
for i in "${!names[@]}"; do
    args+=(--prepare "$(prepare_for "${names[$i]}")" -n "${names[$i]}" "${commands[$i]}")
done
hyperfine -N --warmup 3 --runs "$runs" --style basic --export-json "$work/times.json" "${args[@]}" >&2

rss_median() { # name, command...
    local name=$1 i values=()
    shift
    for i in $(seq 9); do
        bash -c "$(prepare_for "$name")"
        values+=("$("$@" 2>&1 | sed -n 's/^startup-probe: shown rss_kib=//p')")
    done
    printf '%s\n' "${values[@]}" | sort -n | sed -n 5p
}
rss_args=()
for i in "${!names[@]}"; do
    # shellcheck disable=SC2086 # the command's words
    rss_args+=("${names[$i]}=$(rss_median "${names[$i]}" ${commands[$i]})")
done

python3 - "$work/times.json" "$platform" "${rss_args[@]}" <<'PY'
import json, statistics, sys
times = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
rss = dict(a.split("=", 1) for a in sys.argv[3:])
label = {"bare": "bare Qt Widgets window", "capwatch": "capwatch --demo, first run",
         "bare-history": "bare Qt Widgets window, after the copy of HISTORY",
         "before": "capwatch --demo, first run (BEFORE)",
         "capwatch-history": "capwatch --demo, with HISTORY",
         "before-history": "capwatch --demo, with HISTORY (BEFORE)"}
med = {k: statistics.median(v["times"]) * 1000 for k, v in times.items()}
print(f"| startup ({sys.argv[2]}) | median exec to first paint ms | ratio | RSS at first paint MiB | ratio |")
print("| --- | --: | --: | --: | --: |")
for name in times:
    r = int(rss[name]) / 1024
    base = "bare-history" if name.endswith("-history") else "bare"
    print(f"| {label[name]} | {med[name]:.1f} | {med[name] / med[base]:.2f} | {r:.1f} | "
          f"{int(rss[name]) / int(rss[base]):.2f} |")
PY
