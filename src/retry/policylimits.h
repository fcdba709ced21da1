#pragma once

// The numbers of the retry policy one provider profile sends with (docs/retry-policy.md section
// 9). The defaults are section 4's constants; a profile may override each within its bounds.

#include "classifier.h"
#include "constants.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace capwatch::retry {

/// The inclusive range a profile's override must lie in, in whole seconds (attempts: a count).
struct Bounds
{
    std::int64_t min = 0;
    std::int64_t max = 0;
    constexpr bool contains(std::int64_t v) const { return v >= min && v <= max; }
    constexpr std::int64_t clamp(std::int64_t v) const
    {
        return v < min ? min : (v > max ? max : v);
    }
};

inline constexpr Bounds kWaitCapBounds { 1, 600 }; ///< seconds
inline constexpr Bounds kBudgetBounds { 0, 3600 }; ///< seconds; 0: no retries at all
inline constexpr Bounds kAttemptsBounds { 1, 10 };
inline constexpr Bounds kBackoffBaseBounds { 1, 60 }; ///< seconds
inline constexpr Bounds kHeaderTimeoutBounds { 10, 300 }; ///< seconds

struct PolicyLimits
{
    int maxAttempts = kMaxAttempts; ///< the first request included
    Millis waitCap = kWaitCap; ///< longest single wait
    Millis budget = kRetryBudget; ///< all scheduled waits of one send; 0: one attempt only
    Millis backoffBase = kBackoffBase; ///< the k-th backoff is base * 2^(k-1), capped
    Millis headerTimeout = kRetryHeaderTimeout; ///< of a retry attempt
    bool retryTokenLimit = true;
    bool retryRateLimit = true; ///< rate_limit (429 and its kin)
    bool retryTransient = true; ///< transient (5xx, network)

    /// Whether a failure of `category` is retried under these limits (auth and the categories
    /// the policy never retries are decided by the policy itself: true for them here).
    bool retries(Category category) const;
    /// True when every value is the policy's default.
    bool isDefault() const { return *this == PolicyLimits {}; }
    bool operator==(const PolicyLimits &) const = default;
};

/// `limits` with every number inside its bounds (whole seconds kept as they are): what
/// SendPolicy runs with, so that no caller's mistake can mean 0 attempts or a negative wait.
PolicyLimits clampedToBounds(const PolicyLimits &limits);

/// The k-th backoff (k >= 1) under `limits`: backoffBase * 2^(k-1), capped by waitCap.
Millis backoffFor(int retryIndex, const PolicyLimits &limits);

/// A classification re-waited for `limits`: its wait capped by limits.waitCap instead of
/// kWaitCap, and a backoff wait recomputed with limits.backoffBase. The default limits leave it
/// unchanged.
Classification withLimits(
    Classification classification, int retryIndex, const PolicyLimits &limits);

} // namespace capwatch::retry
