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
    case DeclaredKind::InFlight:
        return "in_flight";
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
    if (limits.inFlight && *limits.inFlight > 0 && use.inFlight >= *limits.inFlight)
        consider(DeclaredKind::InFlight, kDeclaredMinute, use.inFlight, *limits.inFlight);
    const Millis dayLeft = std::max(Millis(1), use.dayLeft);
    if (limits.requestsPerDay && *limits.requestsPerDay > 0
        && use.requestsToday >= *limits.requestsPerDay)
        consider(DeclaredKind::RequestsPerDay, dayLeft, use.requestsToday, *limits.requestsPerDay);
    if (limits.tokensPerDay && *limits.tokensPerDay > 0 && estimate <= *limits.tokensPerDay
        && use.tokensToday + estimate > *limits.tokensPerDay)
        consider(DeclaredKind::TokensPerDay, dayLeft, use.tokensToday, *limits.tokensPerDay);
    return best;
}

namespace {

std::string lower(std::string_view text)
{
    std::string out(text);
    for (char &c : out)
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    return out;
}

bool containsAny(const std::string &text, std::initializer_list<std::string_view> words)
{
    for (const std::string_view w : words)
        if (text.find(w) != std::string::npos)
            return true;
    return false;
}

/// The whole number after "limit" (", limit: 3", "limit 50", "limit=10"), when one follows it
/// within a few separators.
std::optional<std::int64_t> limitFigure(const std::string &text)
{
    for (std::size_t at = text.find("limit"); at != std::string::npos;
         at = text.find("limit", at + 1)) {
        std::size_t i = at + 5;
        if (i < text.size() && text[i] == 's')
            ++i; // "limits"
        const auto skipSeparators = [&text, &i] {
            for (std::size_t skipped = 0; i < text.size() && skipped < 3
                 && (text[i] == ' ' || text[i] == ':' || text[i] == '=' || text[i] == '"');
                 ++skipped)
                ++i;
        };
        skipSeparators();
        if (text.compare(i, 3, "of ") == 0) { // "the limit of 1,000 requests"
            i += 3;
            skipSeparators();
        }
        const auto digit = [&text](std::size_t k) {
            return k < text.size() && text[k] >= '0' && text[k] <= '9';
        };
        std::int64_t v = 0;
        std::size_t digits = 0;
        while (digit(i) && digits < 13) {
            v = v * 10 + (text[i] - '0');
            ++i;
            ++digits;
            // A thousands separator: a comma with exactly three digits after it ("1,000").
            if (i < text.size() && text[i] == ',' && digit(i + 1) && digit(i + 2) && digit(i + 3)
                && !digit(i + 4))
                ++i;
        }
        if (digits > 0 && v > 0)
            return v;
    }
    return std::nullopt;
}

} // namespace

DeclaredSuggestion suggestDeclared(const Classification &refusal, const RefusalFacts &facts)
{
    if (refusal.category != Category::RateLimit)
        return {};
    const std::string text = lower(refusal.errorText);
    const bool day = containsAny(
        text, { "per day", "per-day", "/day", "daily", "rpd", "tpd", "requests per day", "a day" });
    const bool minute = containsAny(
        text, { "per min", "per-min", "/min", "rpm", "tpm", "a minute", "per 60", "1m" });
    const bool tokens = containsAny(text, { "token", "tpm", "tpd" }) || refusal.limit.has_value();
    bool perDay = day && !minute;
    if (!day && !minute) {
        if (!refusal.rawWait)
            return {};
        if (*refusal.rawWait >= Millis(3'600'000))
            perDay = true;
        else if (*refusal.rawWait > kDeclaredMinute)
            return {}; // an hour's window or so: neither a minute nor a day
    }
    DeclaredSuggestion s;
    s.kind = perDay ? (tokens ? DeclaredKind::TokensPerDay : DeclaredKind::RequestsPerDay)
                    : (tokens ? DeclaredKind::TokensPerMinute : DeclaredKind::RequestsPerMinute);
    std::optional<std::int64_t> figure;
    if (tokens && refusal.limit && *refusal.limit >= 1)
        figure = std::int64_t(*refusal.limit);
    else if (!tokens)
        figure = limitFigure(text);
    if (figure) {
        s.value = *figure;
        s.fromText = true;
    } else {
        s.value = perDay ? (tokens ? facts.tokensToday : facts.requestsToday)
                         : (tokens ? facts.tokensLastMinute : facts.requestsLastMinute);
    }
    if (s.value <= 0)
        return {};
    return s;
}

} // namespace capwatch::retry
