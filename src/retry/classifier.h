#pragma once

// Sections 1 to 3 of the retry policy: what kind of failure an attempt ended in, the token
// figures of a token-limit 422, and how long to wait before the next attempt.

#include "constants.h"
#include "rules.h"
#include "statustext.h" // statusText(), which the texts of a classification name

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capwatch::retry {

/// Section 1. Names: success, token_limit, rate_limit, transient, auth, too_large, billing, fatal.
enum class Category
{
    Success,
    TokenLimit,
    RateLimit,
    Transient,
    Auth,
    TooLarge,
    Billing,
    Fatal
};

/// Sections 3 and 6.5. Names: retry-after, retry-after-ms, retry-delay, message,
/// ratelimit-reset, backoff, credential-refresh (empty for None).
enum class WaitSource
{
    None,
    RetryAfter,
    RetryAfterMs,
    RetryDelay,
    Message,
    RateLimitReset,
    Backoff,
    CredentialRefresh,
    /// A limit the profile declares for its provider (pacing only: "2 requests a minute").
    DeclaredLimit
};

/// Section 6.6: an error carried by a 2xx response before any answer content.
struct EmbeddedError
{
    int status = 0; ///< the effective status, 400 to 599
    std::string body; ///< the JSON to classify with that status
};

/// A whole non-stream 2xx body: a JSON object without `choices` that has an `error` member
/// (not null or false) or an integer `status` from 400 to 599. Bodies over the size limit and
/// anything else yield nullopt.
std::optional<EmbeddedError> errorInSuccessBody(std::string_view body);
/// The data of the FIRST event of a 2xx event stream: a JSON object with an `error` member.
std::optional<EmbeddedError> errorInStreamEvent(std::string_view data);

/// How an attempt failed below HTTP, when it produced no status.
enum class NetworkFailure
{
    None, ///< a response with a status arrived
    BrokenBeforeHeaders, ///< connection reset or closed before any response header
    TimedOut, ///< no response headers in time
    Refused,
    HostNotFound,
    Tls,
    InvalidUrl,
    Other, ///< anything else the network layer reports; not retried
};

using Headers = std::vector<std::pair<std::string, std::string>>;

/// What one attempt produced, as far as classification cares.
struct Response
{
    int status = 0; ///< 0 when the attempt produced no HTTP status
    Headers headers;
    std::string_view body;
    NetworkFailure network = NetworkFailure::None;
    std::string networkError; ///< the network layer's message, for the user
    /// The endpoint the request went to (its URL): rules scoped to an endpoint apply only to
    /// its responses (docs/rules.md). Empty: only unscoped rules apply.
    std::string endpoint;
};

struct Classification
{
    Category category = Category::Fatal;
    bool retryable = false;
    /// token_limit: section 2. too_large: `used` is what the request needs, `limit` what fits
    /// (6.3). rate_limit: both or neither, only for a text about tokens (6.5). Else unset.
    std::optional<double> used;
    std::optional<double> limit;
    std::optional<Millis> wait; ///< capped, for retryable categories
    std::optional<Millis> rawWait;
    WaitSource waitSource = WaitSource::None;
    /// The provider's error text in its own case: the first error text of section 6.2 (for a
    /// JSON object with `error` or `error.message`, that one: section 2, step 3), or the
    /// network error. Empty when there is none.
    std::string errorText;
    std::string reason; ///< one human sentence
    /// The rule that decided the category, as `explain` prints it and the window shows it:
    /// `builtin:too_large.phrase "prompt is too long"`, `builtin:auth.status 401`,
    /// `rules.d/acme.json:7` (a user's file and line), `builtin:fatal` when no rule matched.
    std::string rule;
};

/// Classifies one attempt. `retryIndex` (1-based) is the retry the backoff is computed for;
/// `now` turns an HTTP-date `retry-after` (and a reset time in the text) into seconds.
/// A 2xx is `success` unless it carries an error (section 6.6): with a `content-type` of
/// `text/event-stream` the body is read as an event stream and its first data event is checked,
/// otherwise the whole body; such an error is classified with its effective status.
/// The rules are Rules::active() (the built-in ones plus what the program installed at start);
/// the second form takes them.
Classification classify(
    const Response &response, int retryIndex, std::chrono::system_clock::time_point now);
Classification classify(const Response &response, int retryIndex,
    std::chrono::system_clock::time_point now, const Rules &rules);

/// Backoff of the k-th retry: 5, 10, 20, 40, then capped at 60 s.
Millis backoffFor(int retryIndex);

/// The error text of section 2, step 3 (for 429 also a top-level `message`), or nullopt when the
/// body is not a JSON object with such a member. Bodies over the size limit yield nullopt.
std::optional<std::string> extractErrorText(std::string_view body, bool alsoTopLevelMessage);

std::string_view nameOf(Category category);
std::string_view nameOf(WaitSource source);
/// The category of an interfaces.md name (`token_limit`); empty for any other text.
std::optional<Category> categoryNamed(std::string_view name);
/// The wait source of a name (`retry-after`); empty for any other text, an empty one included.
std::optional<WaitSource> waitSourceNamed(std::string_view name);
bool isRetryable(Category category);

} // namespace capwatch::retry
