#include "ruleset.h"

#include <array>

namespace capwatch::retry {

const char *nameOf(RuleCategory category)
{
    switch (category) {
    case RuleCategory::TooLarge:
        return "too_large";
    case RuleCategory::Billing:
        return "billing";
    case RuleCategory::Auth:
        return "auth";
    case RuleCategory::TokenLimit:
        return "token_limit";
    case RuleCategory::RateLimit:
        return "rate_limit";
    case RuleCategory::Transient:
        return "transient";
    }
    return "";
}

const char *nameOf(WordList list)
{
    static constexpr std::array<const char *, kWordListCount> kNames { "used", "limit",
        "limit_tails", "figure_separators", "slash", "slash_separators", "token", "requested",
        "requested_separators", "at_most", "context", "rate_window", "overloaded", "retry",
        "retry_in", "retry_after", "compact_leads", "reset_at", "excess", "used_members",
        "limit_members" };
    return kNames[std::size_t(list)];
}

const char *nameOf(UnitList list)
{
    static constexpr std::array<const char *, kUnitListCount> kNames { "retry_in", "retry_after",
        "minute", "second", "min", "sec", "hour", "compact", "russian", "chinese" };
    return kNames[std::size_t(list)];
}

} // namespace capwatch::retry
