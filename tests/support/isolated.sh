#!/usr/bin/env bash
# Runs one test in a home of its own: CTest starts every test through this (tests/CMakeLists.txt),
# so tests that run at the same time (ctest -j) never share a settings file, a history database, a
# provider's stored window or a learned context window, and each run starts from nothing.
# Usage: isolated.sh DIR COMMAND [ARG...]   (DIR is wiped and made again first)
set -euo pipefail
dir=${1:?usage: isolated.sh DIR COMMAND [ARG...]}
shift
rm -rf -- "$dir"
mkdir -p -- "$dir/home" "$dir/config" "$dir/data" "$dir/cache"
# XDG_RUNTIME_DIR must belong to the user and be 0700, or Qt warns on every start.
mkdir -m 700 -- "$dir/runtime"
export HOME=$dir/home XDG_CONFIG_HOME=$dir/config XDG_DATA_HOME=$dir/data \
    XDG_CACHE_HOME=$dir/cache XDG_RUNTIME_DIR=$dir/runtime
# The tests assert capwatch's English texts, so its messages are English (LC_MESSAGES; LANGUAGE
# and LC_ALL would override that), whatever the desktop's language. Everything else stays the
# user's: number and date formats (LANG, LC_*) and the time zone (TZ), which the suite must hold
# in any setting. A test of the translations asks for its language itself.
if [ -n "${LC_ALL:-}" ]; then
    export LANG=$LC_ALL
    unset LC_ALL
fi
unset LANGUAGE
export LC_MESSAGES=C.UTF-8
exec "$@"
