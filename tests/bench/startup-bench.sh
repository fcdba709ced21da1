#!/usr/bin/env bash
# Startup benchmark: time from exec to a visible main window, and the resident set then, for
# `capwatch --demo` against a bare Qt Widgets window (bench_barewindow: a text view, a line edit
# and a button, the same Qt). Both exit at their first paint (CAPWATCH_STARTUP_PROBE), so
# hyperfine times exec -> visible, without the teardown. Runs under Xvfb when xvfb-run exists
# (the xcb platform, as on a desktop), else on the offscreen platform.
#
#   tests/bench/startup-bench.sh [BUILD_DIR [RUNS]]     defaults: build/ci, 30
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

echo "startup-bench: $runs runs each on $platform" >&2
hyperfine -N --warmup 3 --runs "$runs" --style basic --export-json "$work/times.json" \
    --prepare "rm -rf $work/config $work/data $work/cache" \
    -n bare "$bare" -n capwatch "$capwatch --demo" >&2

# Resident set at the first paint, as each printed it: median over RSS_RUNS runs.
rss_median() {
    local i values=()
    for i in $(seq 9); do
        rm -rf "$work/config" "$work/data" "$work/cache"
        values+=("$("$@" 2>&1 | sed -n 's/^startup-probe: shown rss_kib=//p')")
    done
    printf '%s\n' "${values[@]}" | sort -n | sed -n 5p
}
rss_bare=$(rss_median "$bare")
rss_capwatch=$(rss_median "$capwatch" --demo)

python3 - "$work/times.json" "$rss_bare" "$rss_capwatch" "$platform" <<'PY'
import json, statistics, sys
times = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
rss = {"bare": int(sys.argv[2]), "capwatch": int(sys.argv[3])}
med = {k: statistics.median(v["times"]) * 1000 for k, v in times.items()}
print(f"| startup ({sys.argv[4]}) | median exec to first paint ms | RSS at first paint MiB |")
print("| --- | --: | --: |")
print(f"| bare Qt Widgets window | {med['bare']:.1f} | {rss['bare'] / 1024:.1f} |")
print(f"| capwatch --demo | {med['capwatch']:.1f} | {rss['capwatch'] / 1024:.1f} |")
print(f"| ratio capwatch / bare | {med['capwatch'] / med['bare']:.2f} | {rss['capwatch'] / rss['bare']:.2f} |")
PY
