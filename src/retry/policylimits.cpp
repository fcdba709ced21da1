#include "policylimits.h"

#include <algorithm>

namespace capwatch::retry {

bool PolicyLimits::retries(Category category) const
{
    switch (category) {
    case Category::TokenLimit:
        return retryTokenLimit;
    case Category::RateLimit:
        return retryRateLimit;
    case Category::Transient:
        return retryTransient;
    default:
        return true;
    }
}

namespace {

Millis clampMillis(Millis value, const Bounds &bounds)
{
    return std::clamp(value, Millis(bounds.min * 1000), Millis(bounds.max * 1000));
}

} // namespace

PolicyLimits clampedToBounds(const PolicyLimits &limits)
{
    PolicyLimits l = limits;
    l.maxAttempts = int(kAttemptsBounds.clamp(l.maxAttempts));
    l.waitCap = clampMillis(l.waitCap, kWaitCapBounds);
    l.budget = clampMillis(l.budget, kBudgetBounds);
    l.backoffBase = clampMillis(l.backoffBase, kBackoffBaseBounds);
    l.headerTimeout = clampMillis(l.headerTimeout, kHeaderTimeoutBounds);
    return l;
}

Millis backoffFor(int retryIndex, const PolicyLimits &limits)
{
    const int k = std::clamp(retryIndex, 1, 30);
    const auto base = limits.backoffBase.count();
    const auto cap = limits.waitCap.count();
    std::int64_t raw = base;
    for (int i = 1; i < k && raw < cap; ++i)
        raw *= 2;
    return Millis(std::min<std::int64_t>(raw, cap));
}

Classification withLimits(Classification c, int retryIndex, const PolicyLimits &limits)
{
    if (!c.wait)
        return c;
    if (c.waitSource == WaitSource::Backoff) {
        const Millis b = backoffFor(retryIndex, limits);
        c.rawWait = b;
        c.wait = b;
    } else if (c.rawWait) {
        c.wait = std::min(*c.rawWait, limits.waitCap);
    }
    return c;
}

} // namespace capwatch::retry
