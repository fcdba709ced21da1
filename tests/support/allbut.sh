#!/usr/bin/env bash
# Runs the test functions of a QtTest executable but the ones named, which another CTest entry
# runs (capwatch_add_test(... SPLIT_FUNCTIONS f...) in tests/CMakeLists.txt): a long test runs as
# two entries side by side, every function in exactly one of them, none skipped.
# Usage: allbut.sh EXECUTABLE FUNCTION...
set -euo pipefail
executable=${1:?usage: allbut.sh EXECUTABLE FUNCTION...}
shift
functions=$("$executable" -functions)
rest=()
while IFS= read -r line; do
    name=${line%"()"}
    [ -n "$name" ] || continue
    other=0
    for f in "$@"; do
        [ "$name" = "$f" ] && other=1
    done
    [ "$other" = 1 ] || rest+=("$name")
done <<<"$functions"
for f in "$@"; do
    grep -qx -- "$f()" <<<"$functions" || { echo "allbut.sh: $executable has no test function $f" >&2; exit 2; }
done
[ "${#rest[@]}" -gt 0 ] || { echo "allbut.sh: no test function left to run" >&2; exit 2; }
exec "$executable" "${rest[@]}"
