#pragma once

// What a provider reports about its window (the `x-ratelimit-*` headers and an answer's `usage`),
// and what capwatch does with it before a send: estimate the request's tokens, pace the send
// until the window resets when it cannot hold it, and plan which oldest turns a conversation
// that outgrew the model's context leaves out (docs/retry-policy.md, section 8). Pure: no Qt,
// no clock; the caller passes the time left and persists what it learns.

#include "classifier.h"
#include "constants.h"

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capwatch::retry {

/// A reset duration as providers send it: Go durations (`1s`, `6m0s`, `20ms`, `1h2m3.5s`,
/// `0.5s`, `2us`, `300ns`; each number `\d+(\.\d+)?` directly followed by a lower-case unit h, m,
/// s, ms, us (µs, μs), ns, each unit at most once, largest first) or a plain non-negative number
/// of seconds (`12`, `0.25`). Surrounding blanks are allowed, none inside. Anything else (empty,
/// negative, signs, unknown units, a unit twice, out of order, more than 24 h, not a finite
/// number, `.5s`) yields nullopt. Computed exactly and rounded up to whole milliseconds.
std::optional<Millis> parseResetDuration(std::string_view text);

/// The `x-ratelimit-*` headers of one response. Each field is set only from a valid value:
/// a count is a whole non-negative number (at most 2^53), a reset a parseResetDuration().
/// Counts may have blanks around them (` 42 `), nothing else (`12.5`, `1e3`, `-3`: unset).
/// Header names are matched case-insensitively; a header that appears twice is taken the first
/// time, even when that value is invalid and a later one is not. `x-ratelimit-limit-requests`,
/// `x-ratelimit-limit-tokens`, `x-ratelimit-remaining-requests`, `x-ratelimit-remaining-tokens`,
/// `x-ratelimit-reset-requests`, `x-ratelimit-reset-tokens`.
struct WindowReport
{
    std::optional<std::int64_t> limitRequests;
    std::optional<std::int64_t> limitTokens;
    std::optional<std::int64_t> remainingRequests;
    std::optional<std::int64_t> remainingTokens;
    std::optional<Millis> resetRequests;
    std::optional<Millis> resetTokens;

    bool empty() const
    {
        return !limitRequests && !limitTokens && !remainingRequests && !remainingTokens
            && !resetRequests && !resetTokens;
    }
    bool operator==(const WindowReport &) const = default;
};
WindowReport windowReportFrom(const Headers &headers);

/// The `usage` object of an answer: `prompt_tokens`, `completion_tokens`, `total_tokens`,
/// `prompt_tokens_details.cached_tokens` and `completion_tokens_details.reasoning_tokens`, each
/// set only when it is a whole non-negative JSON number (not a string, not fractional, not
/// negative, at most 2^53); and `cost` (OpenRouter's usage accounting: what the answer was
/// billed, in the account's credits), set when it is a finite non-negative JSON number, whole or
/// not.
struct UsageReport
{
    std::optional<std::int64_t> promptTokens;
    std::optional<std::int64_t> completionTokens;
    std::optional<std::int64_t> totalTokens;
    std::optional<std::int64_t> cachedTokens;
    std::optional<std::int64_t> reasoningTokens;
    std::optional<double> cost;

    bool empty() const
    {
        return !promptTokens && !completionTokens && !totalTokens && !cachedTokens
            && !reasoningTokens && !cost;
    }
    bool operator==(const UsageReport &) const = default;
};
/// `json` is a whole response body or one stream event's data: a JSON object whose top-level
/// `usage` member is an object. Anything else (not JSON, no usage, `usage: null`, over the
/// classifier's size limit) gives an empty report.
UsageReport usageFromJson(std::string_view json);
/// The same on a parsed value (the stream reader's chunk, the client's answer).
UsageReport usageFrom(const nlohmann::json &object);
/// A JSON number literal (valid JSON, read up to its end) as `usage.cost`: its value when finite
/// and not negative (a value too small for a double reads as 0, as nlohmann::json reads it).
std::optional<double> usageCost(std::string_view literal);

/// True when a 400 body names the stream usage option (`stream_options` or `include_usage`,
/// case-insensitively, in its error texts (retry-policy 6.2), or anywhere in a body that is not
/// JSON or is JSON without any error text, such as FastAPI's `detail` list): the provider refuses
/// `stream_options`, and the request is sent again without it. Bodies over the size limit: false.
bool refusesStreamUsage(int status, std::string_view body);

// --- estimating a request ---

/// Characters a token before anything was learned.
inline constexpr double kDefaultCharsPerToken = 4.0;
/// A learned ratio stays within these bounds (a report outside them is ignored).
inline constexpr double kMinCharsPerToken = 0.5;
inline constexpr double kMaxCharsPerToken = 16.0;
/// The completion a request without max_tokens is counted with (the demo provider's figure and
/// a common provider default).
inline constexpr std::int64_t kDefaultCompletionReserve = 1000;

/// ceil(chars / charsPerToken) + (maxTokens, or kDefaultCompletionReserve when unset or <= 0).
/// A charsPerToken outside the bounds is taken as kDefaultCharsPerToken.
std::int64_t estimateTokens(
    std::int64_t chars, double charsPerToken, std::optional<std::int64_t> maxTokens);
/// The prompt part alone: ceil(chars / charsPerToken).
std::int64_t estimatePromptTokens(std::int64_t chars, double charsPerToken);

/// The ratio after one more `usage` answer: `chars` sent, `promptTokens` reported. An
/// exponential moving average that weighs the first samples fully (the average of the samples
/// so far while `samples` < 8, then 1/8 the new one), so it converges on a provider's true ratio.
/// A sample with no chars, no tokens, or a ratio outside the bounds leaves `current` unchanged.
struct LearnedRatio
{
    double charsPerToken = kDefaultCharsPerToken;
    int samples = 0;
    bool operator==(const LearnedRatio &) const = default;
};
LearnedRatio learnRatio(LearnedRatio current, std::int64_t chars, std::int64_t promptTokens);

// --- pacing (section 8.1) ---

/// The longest pacing wait; a longer one is not waited (the send goes, and the retry cycle
/// handles a refusal).
inline constexpr Millis kMaxPaceWait { 60'000 };

/// Why a send is not paced. Names: disabled, no_report, fits, reset_passed, no_reset, too_long
/// (empty for None).
enum class PaceSkip
{
    None, ///< paced
    Disabled,
    NoReport, ///< nothing reported of the window's tokens or requests
    Fits, ///< the window can hold it
    ResetPassed, ///< the report is older than its reset: the window has been renewed
    NoReset, ///< full, but no reset was reported: nothing to wait for
    TooLong, ///< the reset is more than kMaxPaceWait away
};

struct PaceInput
{
    bool enabled = true;
    /// The last report of this endpoint and model; empty when there is none.
    WindowReport report;
    /// Policy time left until each reset of that report (its reset less its age), nullopt when
    /// the report has no such reset. Zero or less: passed.
    std::optional<Millis> tokensResetLeft;
    std::optional<Millis> requestsResetLeft;
    std::int64_t estimatedTokens = 0;
};

struct PaceDecision
{
    bool pace = false;
    PaceSkip skip = PaceSkip::NoReport;
    Millis wait { 0 }; ///< the wait when paced; when TooLong, the reset that was too far
    /// RateLimitReset when paced (the reset header's time), else None.
    WaitSource source = WaitSource::None;
    /// Which part of the window is full: true for tokens, false for requests.
    bool tokensFull = false;
    std::string reason; ///< one English sentence for logs
};

/// Paced when enabled and (remainingTokens < estimatedTokens with a tokens reset still to come,
/// or remainingRequests == 0 with a requests reset still to come); the wait is the later of the
/// resets that apply. Over kMaxPaceWait: TooLong, not paced (exactly kMaxPaceWait is paced).
/// Full with no reset still to come: NoReset when a full part reported no reset, else
/// ResetPassed. The limits are not needed.
PaceDecision decidePacing(const PaceInput &input);

std::string_view nameOf(PaceSkip skip);

// --- trimming (section 8.2) ---

/// Which oldest turns a request leaves out so that it fits the model's context window.
struct TrimInput
{
    std::int64_t contextWindow = 0; ///< tokens; <= 0: unknown, nothing is planned
    /// What is always sent: the system prompt, the new prompt and the completion reserve.
    std::int64_t fixedTokens = 0;
    /// The estimated tokens of each earlier turn (a user message with its answer), oldest first.
    std::vector<std::int64_t> turnTokens;
    /// Turns already left out at the start (a trim in force); the plan never leaves out fewer.
    int alreadyLeftOut = 0;
};

struct TrimPlan
{
    bool needed = false; ///< the request as it stands does not fit
    /// After leaving out `leftOut` turns it fits (true when the window is unknown).
    bool fits = false;
    /// The oldest turns left out, counted from the first. Never the last turn: when the request
    /// fits only without it, fits is false and leftOut leaves out all but the last.
    int leftOut = 0;
    std::int64_t leftOutTokens = 0;
    std::int64_t tokensBefore = 0; ///< fixed + every turn from alreadyLeftOut on
    std::int64_t tokensAfter = 0; ///< fixed + the turns sent after the plan
};
TrimPlan planTrim(const TrimInput &input);

/// The context window a too_large answer names: its `limit` (at least 1, rounded down) when its
/// error text or the code in its reason speaks of the model's context (the rules' `words.context`:
/// `context`, `prompt is too long`, `input token count`, ...) and the text not of a rate window
/// (`words.rate_window`: `per min`, `tpm`, ...); nullopt for any other too_large (a
/// request over a rate window, a body too large, one without a limit).
std::optional<std::int64_t> contextWindowFrom(const Classification &classification);

} // namespace capwatch::retry
