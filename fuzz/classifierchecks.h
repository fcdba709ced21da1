#pragma once

// The invariants fuzz_classifier checks, shared with tests/tst_fuzzregressions.cpp so every CI
// run holds the seeds and the regressions to them. Standard C++ and the policy library only.

#include "retry/classifier.h"
#include "retry/httpdate.h"
#include "retry/textscan.h"

#include <chrono>
#include <cmath>
#include <string>

namespace capwatch::fuzz {

/// Classifies `r` and runs the text scanners on its body; returns an empty string when every
/// invariant holds, else which one broke.
inline std::string classificationViolation(
    const retry::Response &r, int retryIndex, std::chrono::system_clock::time_point now)
{
    using namespace capwatch::retry;
    const Classification c = classify(r, retryIndex, now);

    if (c.wait) {
        if (*c.wait < Millis(0))
            return "negative wait " + std::to_string(c.wait->count()) + " ms";
        if (*c.wait > kWaitCap)
            return "wait over the 60 s cap: " + std::to_string(c.wait->count()) + " ms";
        if (!c.rawWait)
            return "a wait without a raw wait";
        if (*c.rawWait < *c.wait)
            return "raw wait " + std::to_string(c.rawWait->count()) + " ms below the wait "
                + std::to_string(c.wait->count()) + " ms";
    } else if (c.rawWait) {
        return "a raw wait without a wait";
    }
    if ((c.waitSource == WaitSource::None) != !c.wait)
        return "wait source and wait disagree";
    if (c.retryable != isRetryable(c.category))
        return "retryable flag disagrees with the category";
    if (c.retryable && !c.wait)
        return "retryable category " + std::string(nameOf(c.category)) + " without a wait";
    if (c.category == Category::TokenLimit && r.status != 422)
        return "token_limit for status " + std::to_string(r.status);
    if ((c.used || c.limit) && c.category != Category::TokenLimit)
        return "used/limit outside token_limit";
    if ((c.used && !(*c.used >= 0)) || (c.limit && !(*c.limit >= 0)))
        return "negative or NaN used/limit";
    if (c.category == Category::Success && (r.status < 200 || r.status > 299))
        return "success for status " + std::to_string(r.status);
    if (c.reason.empty())
        return "no reason";

    // The helpers, on what classify() gives them.
    const auto text = extractErrorText(r.body, r.status == 429);
    if (text && r.body.size() > kMaxClassifiedBodyBytes)
        return "an error text from a body over the size limit";
    if (c.category == Category::TokenLimit) {
        const auto text422 = extractErrorText(r.body, false);
        if (!text422 || *text422 != c.errorText)
            return "token_limit error text differs from extractErrorText()";
    }
    // The scanners take any lower-cased text: the error text, else the raw body.
    const std::string lower = asciiLower(text ? std::string_view(*text) : r.body);
    const auto numbers = findNumbers(lower);
    std::size_t previousEnd = 0;
    for (const NumberToken &n : numbers) {
        if (n.begin < previousEnd || n.begin >= n.end || n.end > lower.size())
            return "number token out of order or out of range";
        if (lower[n.begin] < '0' || lower[n.begin] > '9')
            return "number token not starting with a digit";
        if (!(n.value >= 0))
            return "negative or NaN number";
        previousEnd = n.end;
    }
    const auto hint = findWaitHint(lower);
    if (hint) {
        if (hint->begin >= hint->end || hint->end > lower.size())
            return "wait hint span out of range";
        if (hint->pattern < 1 || hint->pattern > 8)
            return "wait hint pattern " + std::to_string(hint->pattern);
        if (hint->raw < Millis(0))
            return "negative wait hint " + std::to_string(hint->raw.count()) + " ms (pattern "
                + std::to_string(hint->pattern) + ")";
    }
    const UsedLimit ul = hint ? extractUsedLimit(lower, numbers, hint->begin, hint->end)
                              : extractUsedLimit(lower, numbers);
    const auto isNumberValue = [&numbers](double v) {
        for (const NumberToken &n : numbers) {
            if (n.value == v || (std::isinf(n.value) && std::isinf(v)))
                return true;
        }
        return false;
    };
    if ((ul.used && !isNumberValue(*ul.used)) || (ul.limit && !isNumberValue(*ul.limit)))
        return "used/limit not taken from a number of the text";
    (void)findKeywords(lower);

    for (const auto &header : r.headers)
        (void)parseHttpDate(header.second);
    (void)parseHttpDate(r.body);
    return {};
}

} // namespace capwatch::fuzz
