#pragma once

// Limits a provider publishes but never states in a header ("2 requests a minute, 50 a day"),
// declared on a profile (docs/retry-policy.md section 8.3): requests and tokens per minute and
// per day. Counted from the usage ledger, which every capwatch process appends to, so the window
// and each capwatch-cli share one count. A minute is the last 60 s (a sliding window, as
// providers count it); a day is the calendar day in local time. Pure: the caller hands in the
// ledger's figures and the time left until the day ends.

#include "classifier.h"
#include "constants.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace capwatch::retry {

struct DeclaredLimits
{
    std::optional<std::int64_t> requestsPerMinute;
    std::optional<std::int64_t> tokensPerMinute;
    std::optional<std::int64_t> requestsPerDay;
    std::optional<std::int64_t> tokensPerDay;
    /// Requests the provider takes at once (counted within one capwatch process).
    std::optional<std::int64_t> inFlight;

    bool empty() const
    {
        return !requestsPerMinute && !tokensPerMinute && !requestsPerDay && !tokensPerDay
            && !inFlight;
    }
    bool operator==(const DeclaredLimits &) const = default;
};

/// The sliding minute.
inline constexpr Millis kDeclaredMinute { 60'000 };

/// What the ledger holds of a profile.
struct DeclaredUse
{
    /// The requests of the last minute: when each was made (ms, any epoch, oldest first) and the
    /// tokens it counted.
    struct Request
    {
        std::int64_t atMs = 0;
        std::int64_t tokens = 0;
    };
    std::vector<Request> lastMinute;
    std::int64_t requestsToday = 0;
    std::int64_t tokensToday = 0;
    Millis dayLeft { 0 }; ///< until the local day ends (00:00)
    std::int64_t inFlight = 0; ///< the profile's requests out now
};

/// Which declared limit holds a send. Names: rpm, tpm, rpd, tpd, in_flight (empty for None).
enum class DeclaredKind
{
    None,
    RequestsPerMinute,
    TokensPerMinute,
    RequestsPerDay,
    TokensPerDay,
    InFlight, ///< as many requests out as it takes at once: held until one ends
};
std::string_view nameOf(DeclaredKind kind);
inline bool isPerDay(DeclaredKind kind)
{
    return kind == DeclaredKind::RequestsPerDay || kind == DeclaredKind::TokensPerDay;
}

struct DeclaredDecision
{
    DeclaredKind holds = DeclaredKind::None; ///< None: the send may go now
    Millis wait { 0 }; ///< until the limit has room (for a day: until 00:00)
    std::int64_t used = 0; ///< requests or tokens of that limit's period so far
    std::int64_t limit = 0;
};

/// The longest of the waits the declared limits impose on a request of `estimatedTokens` made
/// at `nowMs` (the wait of a day's limit wins over a minute's):
///  - requests per minute: full when the last minute holds that many requests; the wait ends
///    when enough of them are a minute old;
///  - tokens per minute: full when the last minute's tokens plus the estimate pass it; the wait
///    ends when enough are a minute old (a request larger than the whole limit is not held: it
///    can never fit, and the provider says so);
///  - requests per day: full when today holds that many; tokens per day: when today's tokens
///    plus the estimate pass it (again not for a request larger than the limit); both until
///    00:00;
///  - requests in flight: full when that many are out; the wait is kDeclaredMinute at most,
///    and ends early when one of them ends (the caller sends then).
/// A limit of 0 or less is not applied.
DeclaredDecision decideDeclared(const DeclaredLimits &limits, const DeclaredUse &use,
    std::int64_t nowMs, std::int64_t estimatedTokens);

// --- suggesting a declared limit after a refusal ---

/// What a profile with no declared limits could declare after a rate-limit refusal.
struct DeclaredSuggestion
{
    DeclaredKind kind = DeclaredKind::None;
    std::int64_t value = 0;
    bool fromText = false; ///< the provider's text named the figure (else the ledger's count)
};

/// What the ledger held of the profile just before the refusal.
struct RefusalFacts
{
    std::int64_t requestsLastMinute = 0; ///< answered before it (the refused one not counted)
    std::int64_t requestsToday = 0;
    std::int64_t tokensLastMinute = 0;
    std::int64_t tokensToday = 0;
};

/// The limit a rate-limit refusal implies: its period from the error text ("per day", "daily",
/// "RPD", "per minute", "RPM", "TPM", ...) or else from the wait it asked (a day for a wait of
/// an hour or more, a minute for one of at most 60 s); requests or tokens from the text (tokens
/// when it speaks of tokens or names a token figure); the figure from the text ("limit: 3",
/// "Limit 50", the classification's `limit` of a text about tokens), else what the ledger
/// counted in that period. None for another category, an unknown period, or no figure (a count
/// of 0).
DeclaredSuggestion suggestDeclared(const Classification &refusal, const RefusalFacts &facts);

} // namespace capwatch::retry
