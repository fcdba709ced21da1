#include "classifier.h"

#include "errortexts.h"
#include "httpdate.h"
#include "textinfo.h"
#include "textscan.h"

#include <algorithm>
#include <cmath>

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

struct SourcedWait
{
    Millis raw;
    WaitSource source;
};

/// Sources 1 and 2: `retry-after` (seconds or an HTTP-date), then `retry-after-ms`.
std::optional<SourcedWait> waitFromHeaders(
    const Headers &headers, std::chrono::system_clock::time_point now, const RuleSet &rules)
{
    if (const std::string *value = findHeader(headers, rules.retryAfterHeader)) {
        const std::string_view v = trimmed(*value);
        if (const auto seconds = parseDecimal(v))
            return SourcedWait { saturatedMillis(*seconds * 1000.0), WaitSource::RetryAfter };
        if (const auto when = parseHttpDate(v)) {
            // In milliseconds since the epoch: `*when - now` overflows for a date at the
            // clock's ends (parseHttpDate() saturates years before 1678 and after 2261).
            const Millis delta = std::chrono::duration_cast<Millis>(when->time_since_epoch())
                - std::chrono::duration_cast<Millis>(now.time_since_epoch());
            return SourcedWait { std::max(delta, Millis(0)), WaitSource::RetryAfter };
        }
    }
    if (const std::string *value = findHeader(headers, rules.retryAfterMsHeader)) {
        if (const auto ms = parseDecimal(trimmed(*value)))
            return SourcedWait { saturatedMillis(*ms), WaitSource::RetryAfterMs };
    }
    return std::nullopt;
}

/// Source 3: the first `error.details[].retryDelay` that is a compact duration.
std::optional<SourcedWait> waitFromRetryDelay(const ErrorTexts &et, const Rules &rules)
{
    for (const std::string &d : et.retryDelays) {
        if (const auto seconds = parseCompactDuration(asciiLower(trimmed(d)), rules))
            return SourcedWait { saturatedMillis(*seconds * 1000.0), WaitSource::RetryDelay };
    }
    return std::nullopt;
}

/// Source 5: the largest valid value of the reset headers, seconds or a compact duration.
std::optional<SourcedWait> waitFromResetHeaders(const Headers &headers, const Rules &rules)
{
    std::optional<double> largest;
    for (const std::string &name : rules.set().rateLimitResetHeaders) {
        const std::string *value = findHeader(headers, name);
        if (!value)
            continue;
        const std::string v = asciiLower(trimmed(*value));
        auto seconds = parseDecimal(v);
        if (!seconds)
            seconds = parseCompactDuration(v, rules);
        if (seconds && (!largest || *seconds > *largest))
            largest = seconds;
    }
    if (!largest)
        return std::nullopt;
    return SourcedWait { saturatedMillis(*largest * 1000.0), WaitSource::RateLimitReset };
}

/// The response as the text rules see it: its error texts and codes (6.2).
struct Texts
{
    const Rules &rules;
    std::string_view endpoint;
    ErrorTexts et;
    std::vector<TextInfo> info; ///< one per et.texts; the strict 422 text, when any, is the first

    /// Whether text `i` is read by the rules: not a JSON object whose own texts follow it.
    bool readable(std::size_t i) const
    {
        return i >= et.encodesObject.size() || !et.encodesObject[i];
    }
};

/// Source 4: patterns 1-11 over the error texts, the first text that yields a wait winning.
std::optional<SourcedWait> waitFromMessage(
    const Texts &t, std::chrono::system_clock::time_point now)
{
    for (const TextInfo &text : t.info) {
        if (const auto &hint = text.waitHint(now))
            return SourcedWait { hint->raw, WaitSource::Message };
    }
    return std::nullopt;
}

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

/// A figure as the reason prints it: 4097, 2.5.
std::string figure(double v)
{
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        return std::to_string(static_cast<long long>(v));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

void setWait(Classification &c, Millis raw, WaitSource source)
{
    c.rawWait = raw;
    c.wait = std::min(raw, kWaitCap);
    c.waitSource = source;
}

/// Section 6.5 for token_limit and rate_limit (`full`), and its sources 1, 2 and 6 for
/// transient.
void chooseWait(Classification &c, const Response &r, const Texts &t, int retryIndex,
    std::chrono::system_clock::time_point now, bool full)
{
    std::optional<SourcedWait> w = waitFromHeaders(r.headers, now, t.rules.set());
    if (full && !w)
        w = waitFromRetryDelay(t.et, t.rules);
    if (full && !w)
        w = waitFromMessage(t, now);
    if (full && !w)
        w = waitFromResetHeaders(r.headers, t.rules);
    if (w)
        setWait(c, w->raw, w->source);
    else
        setWait(c, backoffFor(retryIndex), WaitSource::Backoff);
}

bool hasCode(const ErrorTexts &et, std::string_view code)
{
    return std::find(et.codes.begin(), et.codes.end(), code) != et.codes.end();
}

const RuleStatus *statusRule(const CategoryRules &rules, int status)
{
    for (const RuleStatus &s : rules.statuses) {
        if (s.status == status)
            return &s;
    }
    return nullptr;
}

/// What a category's text rules found: the first error code, then the first phrase, then the
/// first family (each in rules order), over the texts the rules read.
struct TextMatch
{
    std::string because; ///< the start of the reason: `400 with error code ...`
    std::string rule; ///< its origin
    const TextInfo *text = nullptr; ///< the text a phrase or family matched in
    bool family = false;
};

std::optional<TextMatch> codeMatch(RuleCategory category, int status, const Texts &t)
{
    for (const RuleText &code : t.rules.set().category(category).codes) {
        if (hasCode(t.et, code.text) && endpointMatches(code.endpoint, t.endpoint))
            return TextMatch { std::to_string(status) + " with error code " + code.text,
                code.origin, nullptr, false };
    }
    return std::nullopt;
}

std::optional<TextMatch> phraseMatch(RuleCategory category, int status, const Texts &t)
{
    for (std::size_t i = 0; i < t.info.size(); ++i) {
        if (!t.readable(i))
            continue;
        if (const RuleText *phrase = phraseIn(t.info[i].hits(), category, t.endpoint))
            return TextMatch { std::to_string(status) + " whose error text says \"" + phrase->text
                    + "\"",
                phrase->origin, &t.info[i], false };
    }
    return std::nullopt;
}

std::optional<TextMatch> familyMatch(RuleCategory category, int status, const Texts &t)
{
    for (std::size_t i = 0; i < t.info.size(); ++i) {
        if (!t.readable(i))
            continue;
        if (const RuleFamily *f = familyIn(t.info[i].hits(), category, status, t.endpoint))
            return TextMatch { std::to_string(status)
                    + " whose error text has the words of the family " + f->name,
                f->origin, &t.info[i], true };
    }
    return std::nullopt;
}

/// Section 2's strict test, without its figures: a 422 whose strict text has two numbers and a
/// keyword. The families of 6.3 never take such a 422 (revision 3).
bool passesStrictTokenLimit(int status, const Response &r, const Texts &t)
{
    if (status != 422 || r.body.size() > kMaxClassifiedBodyBytes || !t.et.hasStrictText
        || t.info.empty())
        return false;
    const TextInfo &strict = t.info.front();
    return strict.numbers().size() >= 2 && !keywordsIn(strict.hits()).empty();
}

/// Revision 3: a too_large whose texts give no figures takes them from integer members of
/// `error` the rules name (llama.cpp's `n_prompt_tokens` and `n_ctx`), both or neither.
void figuresFromMembers(Classification &c, const Texts &t)
{
    const auto find = [&](WordList list) -> std::optional<double> {
        for (const RuleText &name : t.rules.set().wordList(list)) {
            for (const auto &[key, decimal] : t.et.errorIntegers) {
                if (key == name.text) {
                    if (const auto v = parseDecimal(decimal))
                        return v;
                }
            }
        }
        return std::nullopt;
    };
    const auto used = find(WordList::UsedMembers);
    const auto limit = find(WordList::LimitMembers);
    if (used && limit) {
        c.used = used;
        c.limit = limit;
    }
}

/// Section 6.3 (and revision 3's families). Sets the category, figures, reason and rule when the
/// attempt is too_large.
bool decideTooLarge(Classification &c, int status, const Response &r, const Texts &t)
{
    // The first error text that matches a phrase or rule 4 also gives the figures.
    std::optional<TextMatch> matched;
    for (std::size_t i = 0; i < t.info.size() && !matched; ++i) {
        const TextInfo &text = t.info[i];
        if (!t.readable(i))
            continue;
        if (const RuleText *phrase = phraseIn(text.hits(), RuleCategory::TooLarge, t.endpoint)) {
            matched = TextMatch { std::to_string(status) + " whose error text says \""
                    + phrase->text + "\"",
                phrase->origin, &text, false };
            break;
        }
        if (!mayNameRequested(text.hits()))
            continue;
        const RequestedLimit rl = findRequestedLimit(text.lower(), text.numbers(), &text.hits());
        if (rl.requested && rl.limit && *rl.requested > *rl.limit)
            matched = TextMatch { std::to_string(status) + " whose error text asks for "
                    + figure(*rl.requested) + " where the limit is " + figure(*rl.limit),
                "builtin:too_large.requested-over-limit", &text, false };
    }
    std::optional<TextMatch> because;
    const CategoryRules &rules = t.rules.set().category(RuleCategory::TooLarge);
    if (const RuleStatus *s = statusRule(rules, status))
        because = TextMatch { std::to_string(status), s->origin, nullptr, false };
    if (!because)
        because = codeMatch(RuleCategory::TooLarge, status, t);
    if (!because && matched)
        because = matched;
    // A family never takes a 422 that is a token limit by section 2 (revision 3); it may give
    // the figures of a too_large decided by its status or code.
    if (!matched && !passesStrictTokenLimit(status, r, t))
        matched = familyMatch(RuleCategory::TooLarge, status, t);
    if (!because)
        because = matched;
    if (!because)
        return false;

    c.category = Category::TooLarge;
    c.reason = because->because + ": the request is larger than the model or the window accepts";
    c.rule = because->rule;
    if (matched && matched->text) {
        const TextInfo &text = *matched->text;
        const UsedLimit ul = tooLargeFigures(text.lower(), text.numbers(), &text.hits(), status);
        c.used = ul.used;
        c.limit = ul.limit;
    }
    if (!c.used && !c.limit)
        figuresFromMembers(c, t);
    return true;
}

/// The status, code, phrase and family rules of a category other than too_large and
/// token_limit, in that order. Sets the category, reason and rule when one matches.
bool decideByRules(Classification &c, RuleCategory category, Category as, int status,
    const Texts &t, std::string_view statusMeaning, std::string_view textMeaning)
{
    std::optional<TextMatch> because;
    std::string_view meaning = textMeaning;
    if (const RuleStatus *s = statusRule(t.rules.set().category(category), status)) {
        because = TextMatch { std::to_string(status), s->origin, nullptr, false };
        meaning = statusMeaning;
    }
    if (!because && status >= 400 && status <= 599)
        because = codeMatch(category, status, t);
    if (!because && status >= 400 && status <= 599)
        because = phraseMatch(category, status, t);
    if (!because)
        because = familyMatch(category, status, t);
    if (!because)
        return false;
    c.category = as;
    c.reason = because->because + std::string(meaning);
    c.rule = because->rule;
    return true;
}

/// Section 2, on a 422.
void decideTokenLimit(Classification &c, const Response &r, const Texts &t, int retryIndex,
    std::chrono::system_clock::time_point now)
{
    if (r.body.size() > kMaxClassifiedBodyBytes) {
        c.reason = "422 with a body over 1 MiB is not classified";
        return;
    }
    if (!t.et.hasStrictText) {
        c.reason = "422 whose body is not a JSON object with an error text";
        return;
    }
    const TextInfo &strict = t.info.front(); // error or error.message always comes first
    const auto &numbers = strict.numbers();
    const auto keywords = keywordsIn(strict.hits());
    if (numbers.size() < 2) {
        c.reason = "422 whose error text has " + formatCount(numbers.size(), "number", "numbers")
            + ", fewer than the two of a token-limit error";
        return;
    }
    if (keywords.empty()) {
        c.reason = "422 whose error text has " + formatCount(numbers.size(), "number", "numbers")
            + " but none of the keywords exceeded, limit, token (or their Russian and "
              "Chinese equivalents)";
        return;
    }
    c.category = Category::TokenLimit;
    c.reason = std::to_string(r.status) + " with " + std::to_string(numbers.size())
        + " numbers and " + (keywords.size() == 1 ? "keyword " : "keywords ")
        + joinKeywords(keywords);
    if (const RuleText *keyword = firstKeywordIn(strict.hits()))
        c.rule = keyword->origin;
    const auto &hint = strict.waitHint(now);
    const UsedLimit ul = extractUsedLimit(
        strict.lower(), numbers, hint ? hint->begin : 0, hint ? hint->end : 0, &strict.hits());
    c.used = ul.used;
    c.limit = ul.limit;
    chooseWait(c, r, t, retryIndex, now, true);
}

/// 6.5: a rate limit shows used/limit only when both follow their words in a text that speaks
/// of tokens; the first such text wins.
void rateLimitFigures(Classification &c, const Texts &t)
{
    for (const TextInfo &text : t.info) {
        if (!speaksOfTokens(text.hits()))
            continue;
        const UsedLimit ul = usedLimitByWords(text.lower(), text.numbers(), &text.hits());
        if (ul.usedByWord && ul.limitByWord) {
            c.used = ul.used;
            c.limit = ul.limit;
            return;
        }
    }
}

/// Every status but a 2xx. `collected` are the body's error texts when the caller has them
/// already (an error inside a 2xx), else they are read here.
Classification classifyStatus(const Response &r, int retryIndex,
    std::chrono::system_clock::time_point now, const Rules &rules,
    std::optional<ErrorTexts> collected = std::nullopt)
{
    Classification c;
    c.rule = "builtin:fatal";
    const int s = r.status;
    Texts t { rules, r.endpoint, {}, {} };

    if (s == 0) {
        c.errorText = r.networkError;
        switch (r.network) {
        case NetworkFailure::BrokenBeforeHeaders:
        case NetworkFailure::TimedOut:
            c.category = Category::Transient;
            c.reason = "the connection broke before any response header arrived";
            c.rule = "builtin:transient.network";
            chooseWait(c, r, t, retryIndex, now, false);
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
        c.retryable = isRetryable(c.category);
        return c;
    }
    if (s >= 200 && s <= 299) {
        c.category = Category::Success;
        c.reason = std::to_string(s) + " is a success";
        c.rule = "builtin:success";
        return c;
    }

    // Bodies over the limit are not read: only status rules (and headers) decide.
    if (collected)
        t.et = std::move(*collected);
    else if (r.body.size() <= kMaxClassifiedBodyBytes)
        t.et = collectErrorTexts(r.body);
    // The first text, in its own case, is the one shown (for a 422 it is section 2's text).
    if (!t.et.texts.empty())
        c.errorText = t.et.texts.front();
    t.info.reserve(t.et.texts.size());
    for (std::string &text : t.et.texts)
        t.info.emplace_back(std::move(text), rules);
    t.et.texts.clear();

    // Section 1, rev. 2 and 3: too_large, billing, auth, token_limit, rate_limit, transient,
    // fatal; each by its statuses, then its codes, phrases and families (docs/rules.md).
    const auto decide = [&](RuleCategory category, Category as, const char *statusMeaning,
                            const char *textMeaning) {
        return decideByRules(c, category, as, s, t, statusMeaning, textMeaning);
    };
    const bool tokenLimitStatus
        = statusRule(rules.set().category(RuleCategory::TokenLimit), s) != nullptr;
    if (s >= 400 && s <= 599
        && (decideTooLarge(c, s, r, t)
            || decide(RuleCategory::Billing, Category::Billing, ": the account is out of credit",
                ": the account is out of credit"))) {
        // decided
    } else if (decide(RuleCategory::Auth, Category::Auth,
                   " rejects the credential; it is reloaded once",
                   ": the credential is rejected; it is reloaded once")) {
        c.wait = Millis(0);
        c.rawWait = Millis(0);
        c.waitSource = WaitSource::CredentialRefresh;
    } else if (tokenLimitStatus) {
        decideTokenLimit(c, r, t, retryIndex, now);
    } else if (decide(
                   RuleCategory::RateLimit, Category::RateLimit, " rate limit", ": a rate limit")) {
        rateLimitFigures(c, t);
        chooseWait(c, r, t, retryIndex, now, true);
    } else if (decide(RuleCategory::Transient, Category::Transient, " is a transient server error",
                   ": a transient server error")) {
        chooseWait(c, r, t, retryIndex, now, false);
    } else {
        c.reason = std::to_string(s) + " is not retried";
    }
    c.retryable = isRetryable(c.category);
    return c;
}

bool isEventStream(const Headers &headers, const RuleSet &rules)
{
    const std::string *type = findHeader(headers, rules.contentTypeHeader);
    if (!type)
        return false;
    const std::string_view t = trimmed(*type);
    const std::string_view want = rules.eventStreamType;
    return t.size() >= want.size() && iequals(t.substr(0, want.size()), want)
        && (t.size() == want.size() || t[want.size()] == ';' || t[want.size()] == ' ');
}

/// Section 6.6 on a 2xx body (`stream` false) or the data of a stream's first event: the
/// effective status, and the error texts read on the way (so the body is parsed once).
struct Embedded
{
    int status = 0;
    ErrorTexts texts;
};

std::optional<Embedded> embeddedError(
    std::string_view json, bool stream, const Rules &rules = Rules::builtinRules())
{
    if (json.size() > kMaxClassifiedBodyBytes)
        return std::nullopt;
    ErrorFields f = readErrorFields(json);
    if (f.shape != ErrorFields::Shape::Object || f.inArray)
        return std::nullopt;
    if (stream) {
        if (!f.hasError)
            return std::nullopt;
    } else {
        const bool errorStatus = f.status && f.status->kind == JsonScalar::Kind::Integer
            && f.status->text.size() == 3 && f.status->text >= "400" && f.status->text <= "599";
        if (f.hasChoices || (!f.hasError && !errorStatus))
            return std::nullopt;
    }
    const std::optional<int> status = statusInFields(f);
    Embedded out;
    out.texts = textsFromFields(std::move(f), json);
    out.status = status ? *status : statusWithoutField(out.texts.texts, rules);
    return out;
}

} // namespace

std::optional<std::string> extractErrorText(std::string_view body, bool alsoTopLevelMessage)
{
    if (body.size() > kMaxClassifiedBodyBytes)
        return std::nullopt;
    const ErrorFields f = readErrorFields(body);
    if (f.shape != ErrorFields::Shape::Object)
        return std::nullopt;
    std::optional<std::string> text = f.error ? f.error : f.errorMessage;
    if (alsoTopLevelMessage && f.message)
        text = text ? *text + "\n" + *f.message : *f.message;
    return text;
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
    auto found = embeddedError(body, false);
    if (!found)
        return std::nullopt;
    return EmbeddedError { found->status, std::string(body) };
}

std::optional<EmbeddedError> errorInStreamEvent(std::string_view data)
{
    auto found = embeddedError(data, true);
    if (!found)
        return std::nullopt;
    return EmbeddedError { found->status, std::string(data) };
}

Classification classify(
    const Response &r, int retryIndex, std::chrono::system_clock::time_point now)
{
    const std::shared_ptr<const Rules> rules = Rules::active();
    return classify(r, retryIndex, now, *rules);
}

Classification classify(const Response &r, int retryIndex,
    std::chrono::system_clock::time_point now, const Rules &rules)
{
    if (r.status < 200 || r.status > 299)
        return classifyStatus(r, retryIndex, now, rules);
    const bool stream = isEventStream(r.headers, rules.set());
    std::optional<std::string> event;
    std::optional<Embedded> embedded;
    if (stream) {
        event = firstStreamEventData(r.body);
        if (event)
            embedded = embeddedError(*event, true, rules);
    } else {
        embedded = embeddedError(r.body, false, rules);
    }
    if (!embedded)
        return classifyStatus(r, retryIndex, now, rules);
    Response inner;
    inner.status = embedded->status;
    inner.headers = r.headers;
    inner.body = stream ? std::string_view(*event) : r.body;
    inner.endpoint = r.endpoint;
    Classification c = classifyStatus(inner, retryIndex, now, rules, std::move(embedded->texts));
    c.reason = std::to_string(r.status)
        + (stream ? " stream whose first event is an error" : " whose body is an error")
        + " (status " + std::to_string(embedded->status) + "): " + c.reason;
    return c;
}

} // namespace capwatch::retry
