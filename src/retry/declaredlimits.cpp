#include "declaredlimits.h"

#include <algorithm>

namespace capwatch::retry {

std::string_view nameOf(DeclaredKind kind)
{
    switch (kind) {
    case DeclaredKind::None:
        return {};
    case DeclaredKind::RequestsPerMinute:
        return "rpm";
    case DeclaredKind::TokensPerMinute:
        return "tpm";
    case DeclaredKind::RequestsPerDay:
        return "rpd";
    case DeclaredKind::TokensPerDay:
        return "tpd";
    }
    return {};
}

DeclaredDecision decideDeclared(const DeclaredLimits &limits, const DeclaredUse &use,
    std::int64_t nowMs, std::int64_t estimatedTokens)
{
    DeclaredDecision best;
    const auto consider
        = [&best](DeclaredKind kind, Millis wait, std::int64_t used, std::int64_t limit) {
              if (wait.count() <= 0)
                  return;
              if (best.holds == DeclaredKind::None || wait > best.wait)
                  best = { kind, wait, used, limit };
          };
    const std::int64_t since = nowMs - kDeclaredMinute.count();
    std::vector<DeclaredUse::Request> minute;
    for (const DeclaredUse::Request &r : use.lastMinute)
        if (r.atMs > since && r.atMs <= nowMs)
            minute.push_back(r);
    std::sort(minute.begin(), minute.end(),
        [](const DeclaredUse::Request &a, const DeclaredUse::Request &b) {
            return a.atMs < b.atMs;
        });
    // The wait until request `i` of the minute (and all before it) is a minute old.
    const auto ageOut
        = [&](std::size_t i) { return Millis(minute[i].atMs + kDeclaredMinute.count() - nowMs); };
    const std::int64_t estimate = std::max<std::int64_t>(0, estimatedTokens);

    if (limits.requestsPerMinute && *limits.requestsPerMinute > 0) {
        const auto n = std::int64_t(minute.size());
        const std::int64_t limit = *limits.requestsPerMinute;
        if (n >= limit) // room for one more once n - limit + 1 of them aged out
            consider(DeclaredKind::RequestsPerMinute, ageOut(std::size_t(n - limit)), n, limit);
    }
    if (limits.tokensPerMinute && *limits.tokensPerMinute > 0
        && estimate <= *limits.tokensPerMinute) {
        const std::int64_t limit = *limits.tokensPerMinute;
        std::int64_t tokens = 0;
        for (const DeclaredUse::Request &r : minute)
            tokens += std::max<std::int64_t>(0, r.tokens);
        if (tokens + estimate > limit) {
            std::int64_t left = tokens;
            for (std::size_t i = 0; i < minute.size(); ++i) {
                left -= std::max<std::int64_t>(0, minute[i].tokens);
                if (left + estimate <= limit) {
                    consider(DeclaredKind::TokensPerMinute, ageOut(i), tokens, limit);
                    break;
                }
            }
        }
    }
    const Millis dayLeft = std::max(Millis(1), use.dayLeft);
    if (limits.requestsPerDay && *limits.requestsPerDay > 0
        && use.requestsToday >= *limits.requestsPerDay)
        consider(DeclaredKind::RequestsPerDay, dayLeft, use.requestsToday, *limits.requestsPerDay);
    if (limits.tokensPerDay && *limits.tokensPerDay > 0 && estimate <= *limits.tokensPerDay
        && use.tokensToday + estimate > *limits.tokensPerDay)
        consider(DeclaredKind::TokensPerDay, dayLeft, use.tokensToday, *limits.tokensPerDay);
    return best;
}

} // namespace capwatch::retry
