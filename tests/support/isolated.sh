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
exec "$@"
