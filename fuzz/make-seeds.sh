#!/usr/bin/env bash
# Writes the fuzzers' seed corpora into DIR/classifier, DIR/sse, DIR/explain_args and
# DIR/pricetable:
#   classifier    every case of tests/data/responses.jsonl in fuzz_classifier's input layout
#                 (see fuzz/fuzz_classifier.cpp), plus each body on its own under a few statuses
#   sse           fuzz/seeds/sse/* as they are, plus every response body
#   explain_args  each case as a NUL-separated `capwatch-cli explain` argument list
#   pricetable    fuzz/seeds/pricetable/* (a model name, a newline, a price file; see
#                 fuzz/fuzz_pricetable.cpp), tests/data/prices/*, and a name with the first 40
#                 models of resources/prices.json (the whole is larger than its -max_len)
# Usage: fuzz/make-seeds.sh DIR (needs jq)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: make-seeds.sh DIR}
corpus="$root/tests/data/responses.jsonl"
command -v jq >/dev/null || { echo "make-seeds: jq is needed (apt-get install jq)" >&2; exit 1; }

rm -rf "$out/classifier" "$out/sse" "$out/explain_args" "$out/pricetable"
mkdir -p "$out/classifier" "$out/sse" "$out/explain_args" "$out/pricetable"
cp "$root"/fuzz/seeds/sse/* "$out/sse/"
cp "$root"/fuzz/seeds/pricetable/* "$root"/tests/data/prices/* "$out/pricetable/"
{ echo OpenAI/GPT-4o-Mini-2024-07-18; jq -c '.models |= .[0:40]' "$root/resources/prices.json"; } \
    >"$out/pricetable/builtin-head.json"

# VALUE as N little-endian bytes: FuzzedDataProvider reads integers from the end of the input,
# most significant byte last.
le() {
    local n=$1 v=$2 i hex
    for ((i = 0; i < n; i++)); do
        printf -v hex '%02x' $(((v >> (8 * i)) & 255))
        printf "\\x$hex"
    done
}

# A string as ConsumeRandomLengthString() reads it: backslashes doubled, then `\` and a
# terminating character.
fdp_string() {
    printf '%s' "$1" | sed 's/\\/\\\\/g'
    printf '\\E'
}

# The index of a header name in kHeaderNames of fuzz_classifier.cpp, or 17 (read from the
# front).
from_front=17
name_index() {
    case "$1" in
        retry-after) echo 0 ;;
        Retry-After) echo 1 ;;
        retry-after-ms) echo 3 ;;
        Retry-After-Ms) echo 4 ;;
        x-ratelimit-reset-tokens) echo 6 ;;
        x-ratelimit-reset-requests) echo 7 ;;
        x-rate-limit-reset-tokens) echo 8 ;;
        X-Rate-Limit-Reset-Requests) echo 9 ;;
        content-type) echo 10 ;;
        Content-Type) echo 11 ;;
        x-ratelimit-limit-requests) echo 12 ;;
        x-ratelimit-limit-tokens) echo 13 ;;
        x-ratelimit-remaining-requests) echo 14 ;;
        X-RateLimit-Remaining-Tokens) echo 15 ;;
        x-ratelimit-remaining-tokens) echo 16 ;;
        *) echo $from_front ;;
    esac
}

# One fuzz_classifier input: the front strings, the body, then the trailer read from the back.
classifier_seed() { # STATUS RETRY_INDEX BODY_FILE NAME VALUE [NAME VALUE]...
    local status=$1 retry=$2 body=$3
    shift 3
    local names=() values=()
    while [ $# -gt 0 ]; do
        names+=("$1")
        values+=("$2")
        shift 2
    done
    local count=${#names[@]} i
    {
        for ((i = 0; i < count; i++)); do
            [ "$(name_index "${names[$i]}")" = $from_front ] && fdp_string "${names[$i]}"
            fdp_string "${values[$i]}"
        done
        cat "$body"
        for ((i = count - 1; i >= 0; i--)); do
            le 1 "$(name_index "${names[$i]}")"
        done
        le 1 "$count"
        le 4 1795988429 # the clock: a day in 2026
        le 2 "$retry"
        le 1 0 # no network failure
        le 2 "$status"
    }
}

n=0
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# One jq pass: per case, NUL-separated: status, retry index, header count, the headers' names
# and values, the body in base64 (bytes as they are, NULs included).
while IFS= read -r -d '' status && IFS= read -r -d '' retry && IFS= read -r -d '' count; do
    headers=()
    for ((i = 0; i < 2 * count; i++)); do
        IFS= read -r -d '' item
        headers+=("$item")
    done
    IFS= read -r -d '' body64
    printf '%s' "$body64" | base64 -d >"$tmp"
    n=$((n + 1))

    classifier_seed "$status" "$retry" "$tmp" "${headers[@]}" >"$out/classifier/case-$n"
    cp "$tmp" "$out/sse/body-$n"
    {
        printf -- '--status\0%s\0--retry-index\0%s' "$status" "$retry"
        for ((i = 0; i < ${#headers[@]}; i += 2)); do
            printf -- '\0--header\0%s: %s' "${headers[$i]}" "${headers[$((i + 1))]}"
        done
        printf -- '\0--body\0'
        cat "$tmp"
    } >"$out/explain_args/case-$n"
done < <(jq -j '(.status | tostring), "\u0000", (.retry_index // 1 | tostring), "\u0000",
                (.headers | length | tostring), "\u0000",
                (.headers | to_entries[] | .key, "\u0000", .value, "\u0000"),
                (if has("body_b64") then .body_b64 else (.body | @base64) end), "\u0000"' "$corpus")

# Revision 2's extra bodies (fuzz/seeds/classifier: Russian and Chinese texts, double-encoded
# errors, metadata.raw, retryDelay, reset times, errors inside a 2xx) join the corpus bodies.
for body in "$root"/fuzz/seeds/classifier/*; do
    cp "$body" "$out/sse/body-extra-$(basename "$body")"
done

# The bodies under the other statuses that read them, as errors inside a 200 (a body and an
# event stream), with the reset headers, and the network failures.
i=0
for body in "$out"/sse/body-*; do
    i=$((i + 1))
    for status in 422 429 503 401 404 400 402 413; do
        classifier_seed "$status" 2 "$body" >"$out/classifier/status-$status-$i"
    done
    classifier_seed 200 1 "$body" >"$out/classifier/status-200-$i"
    classifier_seed 200 1 "$body" content-type text/event-stream >"$out/classifier/stream-$i"
    classifier_seed 429 1 "$body" x-ratelimit-reset-tokens 6m0s x-rate-limit-reset-requests 1.5 \
        >"$out/classifier/reset-$i"
done
# Section 8: a full window report (Go durations, plain seconds, garbage), answers with usage, the
# stream-usage refusals of real providers, and the demo's context error.
window() { # STATUS BODY_FILE RESET_TOKENS REMAINING_TOKENS
    classifier_seed "$1" 1 "$2" x-ratelimit-limit-requests 10000 x-ratelimit-remaining-requests 0 \
        x-ratelimit-reset-tokens "$3" X-RateLimit-Remaining-Tokens "$4"
}
w=0
for body in '{"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":30,"total_tokens":42}}' \
    '{"usage":{"prompt_tokens":9.5,"completion_tokens":-3,"total_tokens":"7"}}' \
    '{"usage":{"prompt_tokens":1},"usage":{"completion_tokens":9007199254740993}}' \
    '{"error":{"message":"Unrecognized request argument supplied: stream_options","type":"invalid_request_error","param":null,"code":null}}' \
    '{"detail":"stream_options is not supported"}' \
    '{"error":"Extra inputs are not permitted: include_usage"}' \
    '{"detail":[{"type":"extra_forbidden","loc":["body","stream_options"],"msg":"Extra inputs are not permitted"}]}' \
    "{\"error\":{\"message\":\"This model's maximum context length is 2000 tokens. However, you requested 2400 tokens (1400 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.\",\"type\":\"invalid_request_error\",\"param\":\"messages\",\"code\":\"context_length_exceeded\"}}" \
    $'x-ratelimit-reset-tokens: 1h2m3.5s\nx-ratelimit-remaining-tokens: 42\nx-ratelimit-reset-requests: 2\xc2\xb5s'; do
    w=$((w + 1))
    printf '%s' "$body" >"$tmp"
    for reset in 1s 6m0s 20ms 1h2m3.5s 0.25 ' 7 ' 300ns 1m1h 99999999999999999999 1e3; do
        w=$((w + 1))
        window 400 "$tmp" "$reset" 100 >"$out/classifier/window-$w"
    done
    window 200 "$tmp" 12s ' 42 ' >"$out/classifier/window-200-$w"
done
: >"$tmp"
for failure in 1 2 3 7; do
    { printf 'connection reset\\E'; le 1 0; le 4 1795988429; le 2 1; le 1 "$failure"; le 2 0; } \
        >"$out/classifier/network-$failure"
done

# Argument errors and help.
printf -- '--help' >"$out/explain_args/help"
printf -- '--status\0abc' >"$out/explain_args/bad-status"
printf -- '--status\0422\0--header\0Retry-After 5\0--body\0{}' >"$out/explain_args/bad-header"
printf -- '--status=429\0--header=retry-after-ms: 1500\0--body={}\0extra' >"$out/explain_args/stray"
printf -- '--status\0422\0--body-file\0/nonexistent/x' >"$out/explain_args/bad-file"

echo "make-seeds: $(ls "$out/classifier" | wc -l) classifier, $(ls "$out/sse" | wc -l) sse, $(ls "$out/explain_args" | wc -l) explain_args, $(ls "$out/pricetable" | wc -l) pricetable seeds in $out"
