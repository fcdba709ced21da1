#!/usr/bin/env bash
# Fills a fresh capwatch profile with real traffic of the embedded demo provider, for the Insights
# view (docs/insights.md): four demo servers as four profiles (a capped window, the headline 422,
# OpenRouter's daily 429, a cap that resets and parks), priced and billed, and a run of sends to
# each with capwatch-cli, time-scaled. Everything in the ledger comes from real attempts.
#   tools/insights-demo-data.sh BUILD_DIR XDG_DIR [SENDS]
# Then: XDG_CONFIG_HOME=XDG_DIR/c XDG_DATA_HOME=XDG_DIR/d BUILD_DIR/src/app/capwatch (Ctrl+I).
set -euo pipefail
build=${1:?build dir}
xdg=${2:?xdg dir}
sends=${3:-6}
cli="$build/src/app/capwatch-cli"
export XDG_CONFIG_HOME="$xdg/c" XDG_DATA_HOME="$xdg/d"
mkdir -p "$XDG_CONFIG_HOME/capwatch" "$XDG_DATA_HOME"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT

serve() { # NAME ARGS...: starts a demo server, prints its URL
    local log="$xdg/demo-$1.log"
    shift
    "$cli" demo "$@" >"$log" 2>&1 &
    pids+=($!)
    for _ in $(seq 50); do
        grep -q '^listening on' "$log" 2>/dev/null && break
        sleep 0.1
    done
    sed -n 's/^listening on //p' "$log" | head -1
}

capped=$(serve capped --scenario capped --limit 1500 --window 20 --time-scale 0.05 --cost-per-mtok 2.5)
headline=$(serve headline --scenario headline --time-scale 0.05)
daily=$(serve daily --scenario daily --requests-per-day 4 --cost-per-mtok 0.8)
reset=$(serve reset --scenario reset --reset-after 40 --time-scale 0.05)

cat >"$XDG_CONFIG_HOME/capwatch/capwatch.conf" <<CONF
[profiles]
default=work
order=demo, work, free, strict, nightly

[profile.work]
name=Work
endpoint=$capped
model=gpt-4o-mini
key=none
spend_tokens_day=20000
price.gpt-4o-mini=0.15, 0.60

[profile.free]
name=Free tier
endpoint=$daily
model=llama-3.1-70b
key=none
spend_cost_day=0.01

[profile.strict]
name=Strict
endpoint=$headline
model=gpt-4o
key=none
max_attempts=3
price.gpt-4o=2.50, 10.00

[profile.nightly]
name=Nightly
endpoint=$reset
model=claude-3-5-haiku
key=none
price.claude-3-5-haiku=0.80, 4.00
CONF

send() { # PROFILE ARGS...
    local profile=$1
    shift
    "$cli" chat --profile "$profile" --time-scale 0.05 "$@" >/dev/null 2>>"$xdg/sends.log" || true
}
for i in $(seq "$sends"); do
    send work --prompt "Summarise chapter $i of the report in three paragraphs" --max-tokens 600
    send free --prompt "Translate sentence $i"
    send demo --prompt "Hello $i"
done
send strict --prompt "Explain the headline error"
send work --model gpt-4o-mini-2024-07-18 --prompt "One more, dated model" --max-tokens 400
send nightly --prompt "Write the nightly digest" --wait-for-reset
"$cli" usage --since 1d
