#!/usr/bin/env bash
# Two builds of bench_classifier side by side: runs them alternately, ROUNDS times each, and
# prints per kind of body the median (and the spread) of its 1 MiB time and of its cost per byte
# at 64 KiB, 256 KiB and 1 MiB. Alternating keeps a machine that gets busier or quieter from
# favouring one of them.
#
#   tests/bench/classifier-compare.sh BEFORE_BUILD_DIR AFTER_BUILD_DIR [ROUNDS]   (default 7)
#
# The before-build of docs/performance.md, "Classification": an older commit's code with this
# bench (which prints every kind):
#   git archive 87e6d7c | tar -x -C /tmp/before
#   cp tests/retry/bench_classifier.cpp /tmp/before/tests/retry/
#   (cd /tmp/before && cmake --preset ci && cmake --build build/ci --target bench_classifier)
#   tests/bench/classifier-compare.sh /tmp/before/build/ci build/ci
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,14p' "$0" >&2; exit 2; }
before=$1/tests/bench_classifier
after=$2/tests/bench_classifier
rounds=${3:-7}
export QT_QPA_PLATFORM=offscreen
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# One line per figure: build, kind, what, value.
for ((r = 1; r <= rounds; ++r)); do
    for side in before after; do
        bin=$before
        [ "$side" = after ] && bin=$after
        "$bin" oneMiBEachKind costGrowsLinearly 2>&1 | awk -v side="$side" '
            /classify 1 MiB \(/ {
                match($0, /classify 1 MiB \([^)]*\)/)
                kind = substr($0, RSTART + 16, RLENGTH - 17)
                n = split($0, f, " "); print side "\t" kind "\t1 MiB ms\t" f[n - 1]
            }
            /classify ns\/byte at/ {
                match($0, /MiB \([^)]*\):/)
                kind = substr($0, RSTART + 5, RLENGTH - 7)
                n = split($0, f, " ")
                print side "\t" kind "\tns/byte 64 KiB\t" f[n - 2]
                print side "\t" kind "\tns/byte 256 KiB\t" f[n - 1]
                print side "\t" kind "\tns/byte 1 MiB\t" f[n]
            }' >>"$out/figures"
    done
done

# Median, min and max of each figure, before and after.
sort -t$'\t' -k2,2 -k3,3 -k1,1 -k4,4g "$out/figures" | awk -F'\t' -v rounds="$rounds" '
    function flush() {
        if (key == "") return
        line[key, side] = sprintf("%.3f (%.3f-%.3f)", v[int((n + 1) / 2)], v[1], v[n])
        if (!(key in seen)) { seen[key] = 1; order[++keys] = key }
    }
    { k = $2 "\t" $3
      if (k != key || $1 != side) { flush(); key = k; side = $1; n = 0 }
      v[++n] = $4 }
    END {
        flush()
        printf "%d rounds each, alternating; median (min-max)\n", rounds
        printf "%-32s %-16s %-26s %-26s\n", "kind", "figure", "before", "after"
        for (i = 1; i <= keys; ++i) {
            split(order[i], p, "\t")
            printf "%-32s %-16s %-26s %-26s\n", p[1], p[2], line[order[i], "before"], line[order[i], "after"]
        }
    }'
