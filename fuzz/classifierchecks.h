#pragma once

// The invariants fuzz_classifier checks, shared with tests/net/tst_fuzzregressions.cpp so every CI
// run holds the seeds and the regressions to them. Standard C++ and the policy library only.

#include "retry/classifier.h"
#include "retry/declaredlimits.h"
#include "retry/errortexts.h"
#include "retry/httpdate.h"
#include "retry/providerwindow.h"
#include "retry/textscan.h"

#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace capwatch::fuzz {

namespace detail {

inline bool isNumberValue(const std::vector<retry::NumberToken> &numbers, double v)
{
    for (const retry::NumberToken &n : numbers) {
        if (n.value == v || (std::isinf(n.value) && std::isinf(v)))
            return true;
    }
    return false;
}

/// The scanners on one lower-cased text; empty when they hold.
inline std::string scannerViolation(
    const std::string &lower, std::chrono::system_clock::time_point now)
{
    using namespace capwatch::retry;
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
    const auto hint = findWaitHint(lower, now);
    if (hint) {
        if (hint->begin >= hint->end || hint->end > lower.size())
            return "wait hint span out of range";
        if (hint->pattern < 1 || hint->pattern > 11)
            return "wait hint pattern " + std::to_string(hint->pattern);
        if (hint->raw < Millis(0))
            return "negative wait hint " + std::to_string(hint->raw.count()) + " ms (pattern "
                + std::to_string(hint->pattern) + ")";
    }
    const UsedLimit ul = hint ? extractUsedLimit(lower, numbers, hint->begin, hint->end)
                              : extractUsedLimit(lower, numbers);
    if ((ul.used && !isNumberValue(numbers, *ul.used))
        || (ul.limit && !isNumberValue(numbers, *ul.limit)))
        return "used/limit not taken from a number of the text";
    if (ul.used && ul.limit && ul.usedIndex == ul.limitIndex)
        return "used and limit are the same number";
    const UsedLimit tl = tooLargeFigures(lower, numbers);
    if ((tl.used && !isNumberValue(numbers, *tl.used))
        || (tl.limit && !isNumberValue(numbers, *tl.limit)))
        return "too_large figures not taken from a number of the text";
    if (tl.used && tl.limit && !tl.usedByWord && !tl.limitByWord && *tl.used < *tl.limit)
        return "too_large figures filled in with used below limit";
    (void)findKeywords(lower);
    (void)speaksOfTokens(lower);
    return {};
}

/// Headers made from a body: each of its first lines `name: value` (as a provider would send
/// them, when the body is a header dump).
inline retry::Headers headersFromLines(std::string_view body)
{
    retry::Headers headers;
    while (!body.empty() && headers.size() < 16) {
        const std::size_t eol = body.find('\n');
        const std::string_view line = body.substr(0, eol);
        if (const std::size_t colon = line.find(':'); colon != std::string_view::npos)
            headers.emplace_back(
                std::string(line.substr(0, colon)), std::string(line.substr(colon + 1)));
        if (eol == std::string_view::npos)
            break;
        body.remove_prefix(eol + 1);
    }
    return headers;
}

inline bool validCount(const std::optional<std::int64_t> &n)
{
    return !n || (*n >= 0 && *n <= (std::int64_t(1) << 53));
}

inline bool validReset(const std::optional<retry::Millis> &d)
{
    return !d || (*d >= retry::Millis(0) && *d <= retry::Millis(24 * 60 * 60 * 1000));
}

/// Section 8.1 on one set of headers; empty when it holds.
inline std::string windowReportViolation(const retry::Headers &headers)
{
    using namespace capwatch::retry;
    const WindowReport w = windowReportFrom(headers);
    if (!validCount(w.limitRequests) || !validCount(w.limitTokens)
        || !validCount(w.remainingRequests) || !validCount(w.remainingTokens))
        return "a window count out of range";
    if (!validReset(w.resetRequests) || !validReset(w.resetTokens))
        return "a window reset out of range";
    retry::Headers twice = headers;
    twice.insert(twice.end(), headers.begin(), headers.end());
    if (!(windowReportFrom(twice) == w))
        return "a repeated header changed the window report";
    for (const auto &header : headers) {
        const auto d = parseResetDuration(header.second);
        if (!validReset(d))
            return "a reset duration out of range";
        if (parseResetDuration(" " + header.second + "\t") != d)
            return "blanks around a reset duration changed it";
    }
    // Pacing on that report, as a send would see it.
    PaceInput in;
    in.report = w;
    in.tokensResetLeft = w.resetTokens;
    in.requestsResetLeft = w.resetRequests;
    in.estimatedTokens = estimateTokens(4000, kDefaultCharsPerToken, std::nullopt);
    const PaceDecision d = decidePacing(in);
    if (d.pace != (d.skip == PaceSkip::None))
        return "paced and skipped, or neither";
    if (d.pace
        && (d.wait <= Millis(0) || d.wait > kMaxPaceWait || d.source != WaitSource::RateLimitReset))
        return "a pacing wait out of range or without its source";
    if (d.skip == PaceSkip::TooLong && d.wait <= kMaxPaceWait)
        return "too_long for a wait within the cap";
    return {};
}

/// Section 8 on a response and its classification; empty when it holds.
inline std::string providerWindowViolation(const retry::Response &r, const retry::Classification &c)
{
    using namespace capwatch::retry;
    if (std::string v = windowReportViolation(r.headers); !v.empty())
        return v;
    if (std::string v = windowReportViolation(headersFromLines(r.body)); !v.empty())
        return v + " (headers from the body)";
    if (!validReset(parseResetDuration(r.body)))
        return "a reset duration out of range (the body)";

    const UsageReport u = usageFromJson(r.body);
    if (!validCount(u.promptTokens) || !validCount(u.completionTokens)
        || !validCount(u.totalTokens))
        return "a usage count out of range";
    if (r.body.size() > kMaxClassifiedBodyBytes && !u.empty())
        return "usage from a body over the size limit";
    // The streaming reader and the parsed form agree (small bodies: nlohmann builds a document).
    if (r.body.size() <= 65536 && r.body.find('\0') == std::string_view::npos) {
        const nlohmann::json parsed = nlohmann::json::parse(r.body, nullptr, false);
        if (!parsed.is_discarded() && !(usageFrom(parsed) == u))
            return "usageFromJson() and usageFrom() disagree";
        if (parsed.is_discarded() && !u.empty())
            return "usage from a body that is not JSON";
    }

    if (refusesStreamUsage(r.status, r.body) && r.status != 400)
        return "a stream-usage refusal for status " + std::to_string(r.status);
    if (refusesStreamUsage(400, r.body)) {
        const auto names = [](std::string_view t) {
            const std::string lower = asciiLower(t);
            return lower.find("stream_options") != std::string::npos
                || lower.find("include_usage") != std::string::npos;
        };
        bool named = names(r.body);
        for (const std::string &t : collectErrorTexts(r.body).texts)
            named = named || names(t);
        if (!named)
            return "a stream-usage refusal whose body names neither option";
    }

    if (const auto window = contextWindowFrom(c)) {
        if (c.category != Category::TooLarge || !c.limit || *window < 1
            || double(*window) != std::floor(*c.limit))
            return "a context window that is not the limit of a too_large";
    }

    // A declared limit suggested after a refusal: only for a rate limit, always a positive
    // figure, from the text when there is no count to fall back on.
    const DeclaredSuggestion suggested = suggestDeclared(c, RefusalFacts {});
    if (suggested.kind != DeclaredKind::None
        && (c.category != Category::RateLimit || suggested.value <= 0 || !suggested.fromText))
        return "a declared limit suggested without a rate limit or a figure in its text";
    return {};
}

} // namespace detail

/// Classifies `r` and runs the text scanners on its body; returns an empty string when every
/// invariant holds, else which one broke.
inline std::string classificationViolation(
    const retry::Response &r, int retryIndex, std::chrono::system_clock::time_point now)
{
    using namespace capwatch::retry;
    const Classification c = classify(r, retryIndex, now);
    const bool is2xx = r.status >= 200 && r.status <= 299;

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
    if ((c.category == Category::TooLarge || c.category == Category::Billing)
        && (c.retryable || c.wait))
        return std::string(nameOf(c.category)) + " retried or given a wait";
    if (c.category == Category::Transient && c.waitSource != WaitSource::RetryAfter
        && c.waitSource != WaitSource::RetryAfterMs && c.waitSource != WaitSource::Backoff)
        return "transient wait from " + std::string(nameOf(c.waitSource));
    if (c.category == Category::TokenLimit && r.status != 422 && !is2xx)
        return "token_limit for status " + std::to_string(r.status);
    if (c.category == Category::TooLarge && r.status != 413 && !is2xx
        && (r.status < 400 || r.status > 599))
        return "too_large for status " + std::to_string(r.status);
    if (c.category == Category::Billing && !is2xx && (r.status < 400 || r.status > 599))
        return "billing for status " + std::to_string(r.status);
    if ((c.used || c.limit) && c.category != Category::TokenLimit
        && c.category != Category::RateLimit && c.category != Category::TooLarge)
        return "used/limit outside token_limit, rate_limit and too_large";
    if (c.category == Category::RateLimit && c.used.has_value() != c.limit.has_value())
        return "a rate limit with only one of used and limit";
    if ((c.used && !(*c.used >= 0)) || (c.limit && !(*c.limit >= 0)))
        return "negative or NaN used/limit";
    if (c.category == Category::Success && !is2xx)
        return "success for status " + std::to_string(r.status);
    if (c.reason.empty())
        return "no reason";

    // Section 6.6: an error inside a 2xx has an effective status from 400 to 599 and keeps
    // the bytes it was given; a non-stream 2xx is a success exactly when it carries none.
    const auto embedded = errorInSuccessBody(r.body);
    if (embedded) {
        if (embedded->status < 400 || embedded->status > 599)
            return "effective status " + std::to_string(embedded->status);
        if (embedded->body != r.body)
            return "the embedded error's body differs from the body";
    }
    if (const auto data = firstStreamEventData(r.body)) {
        if (data->size() > r.body.size())
            return "a stream event longer than the stream";
        const auto event = errorInStreamEvent(*data);
        if (event && (event->status < 400 || event->status > 599))
            return "effective status of a stream event " + std::to_string(event->status);
    }
    bool stream = false;
    for (const auto &[name, value] : r.headers) {
        std::string n = asciiLower(name);
        const auto ws = [](char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n'; };
        while (!n.empty() && ws(n.front()))
            n.erase(0, 1);
        while (!n.empty() && ws(n.back()))
            n.pop_back();
        if (n == "content-type") {
            stream = asciiLower(value).find("event-stream") != std::string::npos;
            break; // the first one counts
        }
    }
    if (is2xx && !stream && (c.category == Category::Success) == embedded.has_value())
        return "a 2xx is success though it carries an error, or the other way round";

    // The helpers, on what classify() gives them.
    const auto text = extractErrorText(r.body, r.status == 429);
    if (text && r.body.size() > kMaxClassifiedBodyBytes)
        return "an error text from a body over the size limit";
    if (c.category == Category::TokenLimit && !is2xx) {
        const auto text422 = extractErrorText(r.body, false);
        if (!text422 || *text422 != c.errorText)
            return "token_limit error text differs from extractErrorText()";
    }
    if (r.body.size() <= kMaxClassifiedBodyBytes) {
        // The policy's own JSON reader accepts exactly what nlohmann::json does, but for one
        // quirk of nlohmann's: a NUL byte between tokens ends its input (`{}\0junk` passes).
        // JSON has no NUL outside strings, so the reader rejects those; they are left out.
        const bool isJson = readErrorFields(r.body).shape != ErrorFields::Shape::NotJson;
        if (r.body.find('\0') == std::string_view::npos && isJson != nlohmann::json::accept(r.body))
            return isJson ? "the JSON reader accepts what nlohmann::json rejects"
                          : "the JSON reader rejects what nlohmann::json accepts";
        const ErrorTexts texts = collectErrorTexts(r.body);
        for (const std::string &t : texts.texts) {
            if (!isValidUtf8(t))
                return "an error text that is not UTF-8";
            const std::string lower = lowerCase(t);
            if (lower.size() != t.size())
                return "lower-casing changed the length";
            if (const std::string v = detail::scannerViolation(lower, now); !v.empty())
                return v;
        }
        if (texts.hasStrictText && (!texts.jsonObject || texts.texts.empty()))
            return "a strict 422 text outside a JSON object";
    }
    // The scanners take any bytes: the raw body too.
    const std::string lowerBody = lowerCase(r.body);
    if (lowerBody.size() != r.body.size())
        return "lower-casing changed the length";
    if (const std::string v = detail::scannerViolation(lowerBody, now); !v.empty())
        return v;

    for (const auto &header : r.headers) {
        (void)parseHttpDate(header.second);
        if (const auto d = parseCompactDuration(header.second); d && !(*d >= 0))
            return "negative compact duration";
    }
    (void)parseHttpDate(r.body);
    (void)parseRfc3339(r.body);
    return detail::providerWindowViolation(r, c);
}

} // namespace capwatch::fuzz
