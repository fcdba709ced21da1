#pragma once

// Section 5 of the retry policy: the text a user sees when a send ends without an answer.

#include "constants.h"
#include "sendpolicy.h"

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
};

/// The multi-line final error text, without a trailing newline.
std::string finalErrorText(const FailureReport &report);

/// Cuts UTF-8 text to at most `maxChars` code points, ending a cut text with `…`.
std::string cutText(std::string_view text, std::size_t maxChars);

/// Seconds with up to three decimals and no trailing zeros: 60, 2.5, 0.084.
std::string formatSeconds(Millis ms);

} // namespace capwatch::retry
