#include "spendlimits.h"

#include <algorithm>
#include <cmath>

namespace capwatch::retry {

std::string_view nameOf(SpendLimitKind kind)
{
    switch (kind) {
    case SpendLimitKind::None:
        return {};
    case SpendLimitKind::TokensDay:
        return "tokens_day";
    case SpendLimitKind::TokensMonth:
        return "tokens_month";
    case SpendLimitKind::CostDay:
        return "cost_day";
    case SpendLimitKind::CostMonth:
        return "cost_month";
    }
    return {};
}

SpendCheck checkSpend(const SpendLimits &limits, const SpendUsed &used, const SpendWorstCase &worst)
{
    struct Candidate
    {
        SpendLimitKind kind;
        std::optional<double> limit;
        double used;
        std::optional<double> worst;
    };
    const Candidate candidates[] = {
        { SpendLimitKind::TokensDay,
            limits.tokensDay ? std::optional<double>(double(*limits.tokensDay)) : std::nullopt,
            double(used.tokensDay), double(worst.tokens) },
        { SpendLimitKind::TokensMonth,
            limits.tokensMonth ? std::optional<double>(double(*limits.tokensMonth)) : std::nullopt,
            double(used.tokensMonth), double(worst.tokens) },
        { SpendLimitKind::CostDay, limits.costDay, used.costDay, worst.cost },
        { SpendLimitKind::CostMonth, limits.costMonth, used.costMonth, worst.cost },
    };
    SpendCheck check;
    const Candidate *most = nullptr;
    for (const Candidate &c : candidates) {
        if (!c.limit)
            continue;
        const double limit = std::max(0.0, *c.limit);
        const double fraction = limit > 0 ? c.used / limit : (c.used > 0 ? 1.0 : 0.0);
        if (!most || fraction > check.fraction) {
            most = &c;
            check.fraction = fraction;
        }
        // An unknown price crosses a money limit only when nothing is left of it.
        const bool crosses
            = c.used >= limit || (c.worst && c.used + std::max(0.0, *c.worst) > limit);
        if (crosses && !check.crosses) {
            check.crosses = true;
            check.limit = c.kind;
            check.used = c.used;
            check.allowed = limit;
            check.worst = c.worst.value_or(0);
        }
    }
    if (!check.crosses && most) {
        check.limit = most->kind;
        check.used = most->used;
        check.allowed = std::max(0.0, *most->limit);
        check.worst = most->worst.value_or(0);
    }
    return check;
}

int spendThreshold(double fraction)
{
    int reached = 0;
    for (const int threshold : kSpendThresholds)
        if (fraction * 100.0 >= double(threshold) - 1e-9)
            reached = threshold;
    return reached;
}

std::optional<std::int64_t> projectLimitReached(double used, double allowed,
    std::int64_t firstUseMs, std::int64_t nowMs, std::int64_t periodEndMs)
{
    if (allowed <= 0 || used >= allowed)
        return nowMs;
    if (used <= 0 || nowMs >= periodEndMs)
        return std::nullopt;
    const double span = double(std::max(nowMs - firstUseMs, kProjectionMinSpanMs));
    const double rate = used / span; // per millisecond
    const double left = (allowed - used) / rate;
    if (double(nowMs) + left >= double(periodEndMs))
        return std::nullopt;
    return nowMs + std::int64_t(std::ceil(left));
}

} // namespace capwatch::retry
