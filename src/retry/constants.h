#pragma once

// Every number of the retry policy (docs/retry-policy.md) lives here and nowhere else.

#include <chrono>
#include <cstddef>

namespace capwatch::retry {

using Millis = std::chrono::milliseconds;

/// Attempts per send, the first request included.
inline constexpr int kMaxAttempts = 5;
/// Longest single wait; a longer raw wait is capped to this.
inline constexpr Millis kWaitCap { 60'000 };
/// Total scheduled waiting allowed per send.
inline constexpr Millis kRetryBudget { 120'000 };
/// A retry attempt without response headers after this long is abandoned.
inline constexpr Millis kRetryHeaderTimeout { 60'000 };
/// Backoff of the k-th retry: kBackoffBase * 2^(k-1), capped by kWaitCap.
inline constexpr Millis kBackoffBase { 5'000 };
/// Error bodies larger than this are never parsed or classified beyond their status.
inline constexpr std::size_t kMaxClassifiedBodyBytes = 1024 * 1024;
/// Error text kept in a retry log record.
inline constexpr std::size_t kMaxLoggedErrorChars = 500;
/// Response body shown in the final error text.
inline constexpr std::size_t kMaxShownResponseChars = 2000;
/// Parking (docs/parking.md): a provider's reset further away than this is not waited for.
inline constexpr Millis kMaxParkWait { 24 * 60 * 60 * 1000 };
/// Parking: a send parked this many times in a row, each ending capped again, gives up.
inline constexpr int kMaxParksInARow = 3;

} // namespace capwatch::retry
