#!/usr/bin/env bash
# Every measurement of docs/performance.md, one after the other, on one build:
#
#   tests/bench/run-all.sh [BUILD_DIR]          default: build/ci (RelWithDebInfo, -O2)
#
# Build first:  cmake --preset ci && cmake --build --preset ci
# Needs hyperfine, GNU time, curl, xvfb (apt-get install -y hyperfine time curl xvfb xauth) and, for
# the SDK column of the streaming table, node and npm. Run it on an otherwise idle machine.
set -euo pipefail
bench_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(cd "$bench_dir/../.." && pwd)
build=${1:-build/ci}
[[ $build == /* ]] || build="$repo_root/$build"
export QT_QPA_PLATFORM=offscreen

echo "## startup"
"$bench_dir/startup-bench.sh" "$build" 30
echo

echo "## streaming"
"$bench_dir/stream-bench.sh" "$build/src/app/capwatch-cli" 5
echo

echo "## GUI under load (longest GUI-thread stall, 5 runs)"
for i in 1 2 3 4 5; do
    "$build/tests/tst_responsiveness" 2>&1 | sed -n 's/.*longest GUI-thread stall \([0-9]*\) ms.*/\1/p'
done | sort -n | awk '{ v[NR] = $1 } END { printf "runs %d, longest stall: median %d ms, max %d ms\n", NR, v[int((NR + 1) / 2)], v[NR] }'
echo

echo "## retry timing"
"$build/tests/bench/bench_retrytiming" 400 100
echo

echo "## classification"
"$build/tests/bench_classifier" 2>&1 | grep -E "RESULT|msecs per iteration|classify"
