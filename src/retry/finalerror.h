#pragma once

// Section 5 of the retry policy: the text a user sees when a send ends without an answer.

#include "constants.h"
#include "sendpolicy.h"

#include <optional>
#include <string>
#include <string_view>

namespace capwatch::retry {

struct FailureReport
{
    std::string endpoint;
    std::string model;
    std::string authSource; ///< where the key came from, never the key
    int status = 0; ///< 0: no HTTP response
    std::string networkError; ///< when status is 0
    std::string responseBody;
    int attempts = 0;
    Millis waited { 0 };
    EndReason reason = EndReason::None;
    /// The category of the last error (SendPolicy::lastError()): too_large and billing add the
    /// `hint:` line of section 6.7.
    Category category = Category::Fatal;
    /// The last error's figures; for too_large `used` is what the request needs, `limit` what
    /// the model accepts. Unknown ones are left out of the hint.
    std::optional<double> used;
    std::optional<double> limit;
    /// The profile's numbers the send ran under (section 9): "attempts: 3 of 3, waited 10.0 s
    /// of the 12 s budget".
    int maxAttempts = kMaxAttempts;
    Millis budget = kRetryBudget;
};

/// The multi-line final error text, without a trailing newline.
std::string finalErrorText(const FailureReport &report);

/// Section 6.7: the hint of a too_large or billing failure (the text after `hint: `), or nullopt
/// for every other category.
std::optional<std::string> failureHint(
    Category category, std::optional<double> used, std::optional<double> limit);

/// Cuts UTF-8 text to at most `maxChars` code points, ending a cut text with `…`.
std::string cutText(std::string_view text, std::size_t maxChars);

/// Seconds with up to three decimals and no trailing zeros: 60, 2.5, 0.084.
std::string formatSeconds(Millis ms);

} // namespace capwatch::retry
