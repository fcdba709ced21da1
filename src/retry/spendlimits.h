#pragma once

// The user's own caps on what a profile spends (docs/interfaces.md "Spending limits"): tokens
// and money per calendar day and month, checked before each send against the worst case the
// send can cost, and the thresholds a warning is given at. Pure: the caller sums the ledger
// for the periods and says when they reset. ("Budget" stays the retry budget's word.)

#include <cstdint>
#include <optional>
#include <string_view>

namespace capwatch::retry {

/// Any of four limits; none set: nothing is checked.
struct SpendLimits
{
    std::optional<std::int64_t> tokensDay;
    std::optional<std::int64_t> tokensMonth;
    std::optional<double> costDay; ///< in the price table's currency
    std::optional<double> costMonth;

    bool empty() const { return !tokensDay && !tokensMonth && !costDay && !costMonth; }
    bool operator==(const SpendLimits &) const = default;
};

/// What the ledger says was spent in the periods that hold now.
struct SpendUsed
{
    std::int64_t tokensDay = 0;
    std::int64_t tokensMonth = 0;
    double costDay = 0;
    double costMonth = 0;
};

/// Which limit. Names: tokens_day, tokens_month, cost_day, cost_month (empty for None).
enum class SpendLimitKind
{
    None,
    TokensDay,
    TokensMonth,
    CostDay,
    CostMonth,
};
std::string_view nameOf(SpendLimitKind kind);
inline bool isDaily(SpendLimitKind kind)
{
    return kind == SpendLimitKind::TokensDay || kind == SpendLimitKind::CostDay;
}
inline bool isMoney(SpendLimitKind kind)
{
    return kind == SpendLimitKind::CostDay || kind == SpendLimitKind::CostMonth;
}

/// The worst a send can cost: its estimated prompt plus its max_tokens (or the completion
/// reserve), and that priced; no cost when the model's price is unknown.
struct SpendWorstCase
{
    std::int64_t tokens = 0;
    std::optional<double> cost;
};

struct SpendCheck
{
    /// The send would take a limit past what it allows (or one is already used up). A money
    /// limit is not crossed by a send whose price is unknown unless it is already used up.
    bool crosses = false;
    /// The limit crossed (the first of day tokens, month tokens, day money, month money), or,
    /// when none is, the one used the most (None when no limit is set).
    SpendLimitKind limit = SpendLimitKind::None;
    double used = 0; ///< of that limit, before the send
    double allowed = 0; ///< that limit
    double worst = 0; ///< the send's worst case in its unit (0 for an unknown price)
    /// The largest part of a limit used before the send: 0.5 is 50 %; can pass 1.
    double fraction = 0;
};

/// Checks `worst` against what `limits` leave after `used`. A send crosses a limit when used +
/// worst > limit, or when used >= limit already (also for a worst case of 0).
SpendCheck checkSpend(
    const SpendLimits &limits, const SpendUsed &used, const SpendWorstCase &worst);

/// The warning thresholds, in percent: 50, 80 and 100.
inline constexpr int kSpendThresholds[] = { 50, 80, 100 };
/// The highest threshold `fraction` has reached (0 below 50 %).
int spendThreshold(double fraction);

/// The shortest span a rate of use is taken over (15 minutes): the first send of a day is not
/// a rate to project the rest of the day from.
inline constexpr std::int64_t kProjectionMinSpanMs = 15 * 60 * 1000;

/// When a limit of `allowed` is reached if use goes on at its rate so far: `used` since
/// `firstUseMs` (the period's first attempt), measured at `nowMs` (UTC ms; the span is at least
/// kProjectionMinSpanMs). `nowMs` when it is already reached; nothing when it is not reached
/// before `periodEndMs` (the limit resets first) or nothing was used.
std::optional<std::int64_t> projectLimitReached(double used, double allowed,
    std::int64_t firstUseMs, std::int64_t nowMs, std::int64_t periodEndMs);

} // namespace capwatch::retry
