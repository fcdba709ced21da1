#include "classifier.h"

#include "errortexts.h"
#include "httpdate.h"
#include "phrases.h"
#include "textscan.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace capwatch::retry {

namespace {

constexpr char lowerAscii(char c)
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool iequals(std::string_view a, std::string_view b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
        [](char x, char y) { return lowerAscii(x) == lowerAscii(y); });
}

std::string_view trimmed(std::string_view s)
{
    const auto isWs = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!s.empty() && isWs(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isWs(s.back()))
        s.remove_suffix(1);
    return s;
}

const std::string *findHeader(const Headers &headers, std::string_view name)
{
    for (const auto &[key, value] : headers) {
        if (iequals(trimmed(key), name))
            return &value;
    }
    return nullptr;
}

/// Milliseconds of a non-negative count, saturating at Millis::max(): llround() past long long
/// is unspecified (LLONG_MIN on x86-64), which made `retry-after: 99999999999999999999` a
/// negative wait.
Millis saturatedMillis(double ms)
{
    if (!(ms < 0x1p63))
        return Millis::max();
    return Millis(std::llround(ms));
}

struct HeaderWait
{
    Millis raw;
    WaitSource source;
};

std::optional<HeaderWait> waitFromHeaders(
    const Headers &headers, std::chrono::system_clock::time_point now)
{
    if (const std::string *value = findHeader(headers, "retry-after")) {
        const std::string_view v = trimmed(*value);
        if (const auto seconds = parseDecimal(v))
            return HeaderWait { saturatedMillis(*seconds * 1000.0), WaitSource::RetryAfter };
        if (const auto when = parseHttpDate(v)) {
            // In milliseconds since the epoch: `*when - now` overflows for a date at the
            // clock's ends (parseHttpDate() saturates years before 1678 and after 2261).
            const Millis delta = std::chrono::duration_cast<Millis>(when->time_since_epoch())
                - std::chrono::duration_cast<Millis>(now.time_since_epoch());
            return HeaderWait { std::max(delta, Millis(0)), WaitSource::RetryAfter };
        }
    }
    if (const std::string *value = findHeader(headers, "retry-after-ms")) {
        if (const auto ms = parseDecimal(trimmed(*value)))
            return HeaderWait { saturatedMillis(*ms), WaitSource::RetryAfterMs };
    }
    return std::nullopt;
}

/// SAX handler that keeps only the top-level `error` (string, or object's `message`) and the
/// top-level `message`, without building a document: fast and flat on any nesting depth.
class ErrorTextSax final : public nlohmann::json_sax<nlohmann::json>
{
public:
    bool null() override { return scalar(); }
    bool boolean(bool) override { return scalar(); }
    bool number_integer(number_integer_t) override { return scalar(); }
    bool number_unsigned(number_unsigned_t) override { return scalar(); }
    bool number_float(number_float_t, const string_t &) override { return scalar(); }
    bool binary(binary_t &) override { return scalar(); }
    bool string(string_t &val) override
    {
        if (m_depth == 1 && m_key == "error") {
            m_error = Member::String;
            m_errorText = val;
        } else if (m_depth == 1 && m_key == "message") {
            m_message = val;
            m_hasMessage = true;
        } else if (m_depth == 2 && m_inErrorObject && m_key == "message") {
            m_errorMessage = val;
            m_hasErrorMessage = true;
        }
        return true;
    }
    bool start_object(std::size_t) override
    {
        if (m_depth == 0)
            m_topIsObject = true;
        if (m_depth == 1 && m_key == "error") {
            m_error = Member::Object;
            m_inErrorObject = true;
            m_hasErrorMessage = false;
            m_errorMessage.clear();
        } else {
            valueAtTop();
        }
        ++m_depth;
        m_key.clear();
        return true;
    }
    bool key(string_t &val) override
    {
        m_key = val;
        return true;
    }
    bool end_object() override
    {
        --m_depth;
        if (m_depth == 1)
            m_inErrorObject = false;
        m_key.clear();
        return true;
    }
    bool start_array(std::size_t) override
    {
        valueAtTop();
        ++m_depth;
        m_key.clear();
        return true;
    }
    bool end_array() override
    {
        --m_depth;
        m_key.clear();
        return true;
    }
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &) override
    {
        return false;
    }

    std::optional<std::string> errorText(bool alsoTopLevelMessage) const
    {
        if (!m_topIsObject)
            return std::nullopt;
        std::optional<std::string> text;
        if (m_error == Member::String)
            text = m_errorText;
        else if (m_error == Member::Object && m_hasErrorMessage)
            text = m_errorMessage;
        if (alsoTopLevelMessage && m_hasMessage)
            text = text ? *text + "\n" + m_message : m_message;
        return text;
    }

private:
    enum class Member
    {
        Absent,
        String,
        Object,
        Other
    };

    bool scalar()
    {
        valueAtTop();
        return true;
    }
    /// A later duplicate key replaces the earlier value, as a JSON document would.
    void valueAtTop()
    {
        if (m_depth == 1 && m_key == "error")
            m_error = Member::Other;
        else if (m_depth == 1 && m_key == "message")
            m_hasMessage = false;
        else if (m_depth == 2 && m_inErrorObject && m_key == "message")
            m_hasErrorMessage = false;
    }

    int m_depth = 0;
    std::string m_key;
    bool m_topIsObject = false;
    Member m_error = Member::Absent;
    bool m_inErrorObject = false;
    std::string m_errorText;
    std::string m_errorMessage;
    bool m_hasErrorMessage = false;
    std::string m_message;
    bool m_hasMessage = false;
};

std::string formatCount(std::size_t n, std::string_view singular, std::string_view plural)
{
    return std::to_string(n) + " " + std::string(n == 1 ? singular : plural);
}

std::string joinKeywords(const std::vector<std::string_view> &keywords)
{
    std::string out;
    for (const auto kw : keywords) {
        if (!out.empty())
            out += ", ";
        out += kw;
    }
    return out;
}

void setWait(Classification &c, Millis raw, WaitSource source)
{
    c.rawWait = raw;
    c.wait = std::min(raw, kWaitCap);
    c.waitSource = source;
}

} // namespace

std::optional<std::string> extractErrorText(std::string_view body, bool alsoTopLevelMessage)
{
    if (body.size() > kMaxClassifiedBodyBytes)
        return std::nullopt;
    ErrorTextSax sax;
    if (!nlohmann::json::sax_parse(body, &sax, nlohmann::json::input_format_t::json, true))
        return std::nullopt;
    return sax.errorText(alsoTopLevelMessage);
}

Millis backoffFor(int retryIndex)
{
    const int k = std::clamp(retryIndex, 1, 30);
    // 5 * 2^(k-1) s without overflow: past 60 s everything is the cap anyway.
    const Millis raw = k > 5 ? kWaitCap : Millis(kBackoffBase.count() << (k - 1));
    return std::min(raw, kWaitCap);
}

std::optional<EmbeddedError> errorInSuccessBody(std::string_view body)
{
    if (body.size() > kMaxClassifiedBodyBytes)
        return std::nullopt;
    const ErrorFields f = readErrorFields(body);
    if (f.shape != ErrorFields::Shape::Object || f.hasChoices)
        return std::nullopt;
    const bool errorStatus = f.status && f.status->kind == JsonScalar::Kind::Integer
        && f.status->text.size() == 3 && f.status->text >= "400" && f.status->text <= "599";
    if (!f.hasError && !errorStatus)
        return std::nullopt;
    return EmbeddedError { effectiveStatus(f, collectErrorTexts(body).texts), std::string(body) };
}

std::optional<EmbeddedError> errorInStreamEvent(std::string_view data)
{
    if (data.size() > kMaxClassifiedBodyBytes)
        return std::nullopt;
    const ErrorFields f = readErrorFields(data);
    if (f.shape != ErrorFields::Shape::Object || !f.hasError)
        return std::nullopt;
    return EmbeddedError { effectiveStatus(f, collectErrorTexts(data).texts), std::string(data) };
}

namespace {

Classification classifyStatus(
    const Response &r, int retryIndex, std::chrono::system_clock::time_point now);

bool isEventStream(const Headers &headers)
{
    const std::string *type = findHeader(headers, phrases::kContentTypeHeader);
    if (!type)
        return false;
    const std::string_view t = trimmed(*type);
    const std::string_view want = phrases::kEventStreamType;
    return t.size() >= want.size() && iequals(t.substr(0, want.size()), want)
        && (t.size() == want.size() || t[want.size()] == ';' || t[want.size()] == ' ');
}

} // namespace

Classification classify(
    const Response &r, int retryIndex, std::chrono::system_clock::time_point now)
{
    if (r.status >= 200 && r.status <= 299) {
        std::optional<EmbeddedError> embedded;
        const bool stream = isEventStream(r.headers);
        if (stream) {
            if (const auto data = firstStreamEventData(r.body))
                embedded = errorInStreamEvent(*data);
        } else {
            embedded = errorInSuccessBody(r.body);
        }
        if (embedded) {
            Response inner;
            inner.status = embedded->status;
            inner.headers = r.headers;
            inner.body = embedded->body;
            Classification c = classifyStatus(inner, retryIndex, now);
            c.reason = std::to_string(r.status)
                + (stream ? " stream whose first event is an error" : " whose body is an error")
                + " (status " + std::to_string(embedded->status) + "): " + c.reason;
            return c;
        }
    }
    return classifyStatus(r, retryIndex, now);
}

namespace {

Classification classifyStatus(
    const Response &r, int retryIndex, std::chrono::system_clock::time_point now)
{
    Classification c;
    const int s = r.status;

    if (s == 0) {
        c.errorText = r.networkError;
        switch (r.network) {
        case NetworkFailure::BrokenBeforeHeaders:
        case NetworkFailure::TimedOut:
            c.category = Category::Transient;
            c.reason = "the connection broke before any response header arrived";
            break;
        case NetworkFailure::Refused:
            c.reason = "connection refused: nothing is listening there";
            break;
        case NetworkFailure::HostNotFound:
            c.reason = "the host name could not be resolved";
            break;
        case NetworkFailure::Tls:
            c.reason = "the TLS handshake failed";
            break;
        case NetworkFailure::InvalidUrl:
            c.reason = "the endpoint URL is not valid";
            break;
        case NetworkFailure::None:
        case NetworkFailure::Other:
            c.reason = "the request failed without a response";
            break;
        }
    } else if (s >= 200 && s <= 299) {
        c.category = Category::Success;
        c.reason = std::to_string(s) + " is a success";
    } else if (s == 422) {
        if (r.body.size() > kMaxClassifiedBodyBytes) {
            c.reason = "422 with a body over 1 MiB is not classified";
            return c;
        }
        const auto text = extractErrorText(r.body, false);
        if (!text) {
            c.reason = "422 whose body is not a JSON object with an error text";
            return c;
        }
        c.errorText = *text;
        const std::string lower = asciiLower(*text);
        const auto numbers = findNumbers(lower);
        const auto keywords = findKeywords(lower);
        if (numbers.size() < 2) {
            c.reason = "422 whose error text has "
                + formatCount(numbers.size(), "number", "numbers")
                + ", fewer than the two of a token-limit error";
            return c;
        }
        if (keywords.empty()) {
            c.reason = "422 whose error text has "
                + formatCount(numbers.size(), "number", "numbers")
                + " but none of the keywords exceeded, limit, token";
            return c;
        }
        c.category = Category::TokenLimit;
        c.reason = "422 with " + std::to_string(numbers.size()) + " numbers and "
            + (keywords.size() == 1 ? "keyword " : "keywords ") + joinKeywords(keywords);
        const auto hint = findWaitHint(lower);
        const UsedLimit ul = hint ? extractUsedLimit(lower, numbers, hint->begin, hint->end)
                                  : extractUsedLimit(lower, numbers);
        c.used = ul.used;
        c.limit = ul.limit;
        if (const auto h = waitFromHeaders(r.headers, now))
            setWait(c, h->raw, h->source);
        else if (hint)
            setWait(c, hint->raw, WaitSource::Message);
        else
            setWait(c, backoffFor(retryIndex), WaitSource::Backoff);
    } else if (s == 429) {
        c.category = Category::RateLimit;
        c.reason = "429 rate limit";
        const auto text = r.body.size() <= kMaxClassifiedBodyBytes ? extractErrorText(r.body, true)
                                                                   : std::nullopt;
        if (text)
            c.errorText = *text;
        std::optional<WaitHint> hint;
        if (const auto h = waitFromHeaders(r.headers, now))
            setWait(c, h->raw, h->source);
        else if (text && (hint = findWaitHint(asciiLower(*text))))
            setWait(c, hint->raw, WaitSource::Message);
        else
            setWait(c, backoffFor(retryIndex), WaitSource::Backoff);
    } else if (s == 408 || s == 500 || s == 502 || s == 503 || s == 504 || s == 529) {
        c.category = Category::Transient;
        c.reason = std::to_string(s) + " is a transient server error";
        if (const auto text = extractErrorText(r.body, false))
            c.errorText = *text;
    } else if (s == 401 || s == 403) {
        c.category = Category::Auth;
        c.reason = std::to_string(s) + " rejects the credential; it is reloaded once";
        if (const auto text = extractErrorText(r.body, false))
            c.errorText = *text;
        c.wait = Millis(0);
        c.rawWait = Millis(0);
        c.waitSource = WaitSource::CredentialRefresh;
    } else {
        c.reason = std::to_string(s) + " is not retried";
        if (const auto text = extractErrorText(r.body, false))
            c.errorText = *text;
    }

    if (c.category == Category::Transient) {
        if (const auto h = waitFromHeaders(r.headers, now))
            setWait(c, h->raw, h->source);
        else
            setWait(c, backoffFor(retryIndex), WaitSource::Backoff);
    }
    c.retryable = isRetryable(c.category);
    return c;
}

} // namespace

bool isRetryable(Category category)
{
    return category == Category::TokenLimit || category == Category::RateLimit
        || category == Category::Transient || category == Category::Auth;
}

std::string_view nameOf(Category category)
{
    switch (category) {
    case Category::Success:
        return "success";
    case Category::TokenLimit:
        return "token_limit";
    case Category::RateLimit:
        return "rate_limit";
    case Category::Transient:
        return "transient";
    case Category::Auth:
        return "auth";
    case Category::TooLarge:
        return "too_large";
    case Category::Billing:
        return "billing";
    case Category::Fatal:
        return "fatal";
    }
    return "fatal";
}

std::string_view nameOf(WaitSource source)
{
    switch (source) {
    case WaitSource::None:
        return "";
    case WaitSource::RetryAfter:
        return "retry-after";
    case WaitSource::RetryAfterMs:
        return "retry-after-ms";
    case WaitSource::RetryDelay:
        return "retry-delay";
    case WaitSource::Message:
        return "message";
    case WaitSource::RateLimitReset:
        return "ratelimit-reset";
    case WaitSource::Backoff:
        return "backoff";
    case WaitSource::CredentialRefresh:
        return "credential-refresh";
    }
    return "";
}

std::string_view statusText(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 202:
        return "Accepted";
    case 204:
        return "No Content";
    case 301:
        return "Moved Permanently";
    case 302:
        return "Found";
    case 304:
        return "Not Modified";
    case 307:
        return "Temporary Redirect";
    case 308:
        return "Permanent Redirect";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 402:
        return "Payment Required";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 406:
        return "Not Acceptable";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 410:
        return "Gone";
    case 411:
        return "Length Required";
    case 413:
        return "Content Too Large";
    case 414:
        return "URI Too Long";
    case 415:
        return "Unsupported Media Type";
    case 418:
        return "I'm a teapot";
    case 421:
        return "Misdirected Request";
    case 422:
        return "Unprocessable Entity";
    case 425:
        return "Too Early";
    case 426:
        return "Upgrade Required";
    case 428:
        return "Precondition Required";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 451:
        return "Unavailable For Legal Reasons";
    case 500:
        return "Internal Server Error";
    case 501:
        return "Not Implemented";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    case 505:
        return "HTTP Version Not Supported";
    case 529:
        return "Site Overloaded";
    default:
        return "";
    }
}

} // namespace capwatch::retry
