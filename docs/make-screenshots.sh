#!/usr/bin/env bash
# Regenerates docs/screenshots/*.png: the real window, offscreen, driven against the embedded
# demo provider (a full retry cycle takes a few seconds at --time-scale 0.05).
# Usage: docs/make-screenshots.sh [build-dir]   (default: build/dev, configured by the dev preset)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/dev}
[ -f "$build/build.ninja" ] || cmake --preset dev -S "$root"
cmake --build "$build" --target capwatch_screenshots
export QT_QPA_PLATFORM=offscreen
"$build/tests/tools/capwatch_screenshots" "$root/docs/screenshots"
for lang in de zh_CN; do
    "$build/tests/tools/capwatch_screenshots" "$root/docs/screenshots" "$lang"
done
# The Insights view, on real traffic of the demo provider (tools/insights-demo-data.sh), light and
# dark, in the three languages, at 1440x900 and at its smallest size.
cmake --build "$build" --target capwatch_insightsshots capwatch-cli
demo=$(mktemp -d)
"$root/tools/insights-demo-data.sh" "$build" "$demo" >/dev/null
for lang in "" de zh_CN; do
    "$build/tests/tools/capwatch_insightsshots" "$demo/d/capwatch/history.sqlite" \
        "$root/docs/screenshots" $lang
done
"$build/tests/tools/capwatch_insightsshots" "$demo/d/capwatch/history.sqlite" \
    "$root/docs/screenshots" --dark
rm -rf "$demo"
