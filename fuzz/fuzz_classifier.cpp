// libFuzzer target: capwatch::retry::classify() and the text scanners on any status, headers,
// body and retry index (rev. 2: errors inside a 2xx and event streams, the reset headers, the
// Russian and Chinese texts), and section 8 (providerwindow.h) on the same input: the reset
// durations, the window report of the headers (and of headers made from the body's lines), the
// usage of the body, the stream-usage refusal and the context window of the classification.
// The invariants are in classifierchecks.h; a violation traps.
//
// Input layout (FuzzedDataProvider; fuzz/make-seeds.sh writes it): from the back, the status
// (0..999, 2 bytes), the network failure (1), the retry index (0..1000, 2), the clock in seconds
// since 1970 (4), the header count (0..4, 1) and one name byte per header (an index into
// kHeaderNames, or past it for a name read from the front); from the front, each header's name
// (when not from the list) and value, the network error for status 0; the rest is the body.

#include "classifierchecks.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <fuzzer/FuzzedDataProvider.h>
#include <string>
#include <string_view>

namespace {

using capwatch::retry::NetworkFailure;
using capwatch::retry::Response;

// fuzz/make-seeds.sh (name_index) knows these indices; a new name goes at the end.
constexpr std::array kHeaderNames { "retry-after", "Retry-After", " RETRY-AFTER ", "retry-after-ms",
    "Retry-After-Ms", "x-other", "x-ratelimit-reset-tokens", "x-ratelimit-reset-requests",
    "x-rate-limit-reset-tokens", "X-Rate-Limit-Reset-Requests", "content-type", "Content-Type",
    // The window report of section 8.1.
    "x-ratelimit-limit-requests", "x-ratelimit-limit-tokens", "x-ratelimit-remaining-requests",
    "X-RateLimit-Remaining-Tokens", "x-ratelimit-remaining-tokens" };

/// C-style escaped, so a report can be pasted into a regression row.
std::string escaped(std::string_view bytes, std::size_t max = 400)
{
    std::string out;
    for (std::size_t i = 0; i < bytes.size() && i < max; ++i) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        if (c == '\\' || c == '"') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c >= 0x20 && c < 0x7f) {
            out += static_cast<char>(c);
        } else {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\%03o", c); // octal: never runs on into a digit
            out += hex;
        }
    }
    if (bytes.size() > max)
        out += "...";
    return out;
}

void report(const Response &r, int retryIndex, std::int64_t nowS, const std::string &what)
{
    std::fprintf(stderr,
        "fuzz_classifier: invariant broken: %s\n  status %d, retry index %d, "
        "now %lld s, body (%zu bytes) \"%s\"\n",
        what.c_str(), r.status, retryIndex, static_cast<long long>(nowS), r.body.size(),
        escaped(r.body).c_str());
    for (const auto &[name, value] : r.headers)
        std::fprintf(
            stderr, "  header \"%s\": \"%s\"\n", escaped(name).c_str(), escaped(value).c_str());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    FuzzedDataProvider in(data, size);
    Response r;
    r.status = in.ConsumeIntegralInRange<int>(0, 999);
    r.network = static_cast<NetworkFailure>(
        in.ConsumeIntegralInRange<int>(0, static_cast<int>(NetworkFailure::Other)));
    const int retryIndex = in.ConsumeIntegralInRange<int>(0, 1000);
    // A wall clock between 1970 and 2106: the real one is never outside it.
    const auto nowS = in.ConsumeIntegralInRange<std::int64_t>(0, 0xFFFF'FFFFLL);
    const auto headerCount = in.ConsumeIntegralInRange<std::size_t>(0, 4);
    std::array<std::size_t, 4> nameIndex {};
    for (std::size_t i = 0; i < headerCount; ++i)
        nameIndex[i] = in.ConsumeIntegralInRange<std::size_t>(0, kHeaderNames.size());
    for (std::size_t i = 0; i < headerCount; ++i) {
        std::string name = nameIndex[i] < kHeaderNames.size()
            ? std::string(kHeaderNames[nameIndex[i]])
            : in.ConsumeRandomLengthString(24);
        r.headers.emplace_back(std::move(name), in.ConsumeRandomLengthString(64));
    }
    if (r.status == 0)
        r.networkError = in.ConsumeRandomLengthString(32);
    const std::string body = in.ConsumeRemainingBytesAsString();
    r.body = body;

    const auto now = std::chrono::system_clock::time_point(std::chrono::seconds(nowS));
    const std::string violation = capwatch::fuzz::classificationViolation(r, retryIndex, now);
    if (!violation.empty()) {
        report(r, retryIndex, nowS, violation);
        __builtin_trap();
    }
    return 0;
}
