#include "providerwindow.h"

#include "errortexts.h"
#include "jsonscan.h"
#include "rules.h"
#include "textscan.h"
#include "textscan_p.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <utility>

namespace capwatch::retry {

namespace {

/// The largest count taken from a header or a usage member: 2^53, the largest integer a double
/// (and so JSON everywhere) holds exactly.
constexpr std::int64_t kMaxCount = std::int64_t(1) << 53;

constexpr std::int64_t kPicosPerMilli = 1'000'000'000;
/// The longest reset, in picoseconds (24 h).
constexpr std::int64_t kMaxResetPicos = 24LL * 60 * 60 * 1000 * kPicosPerMilli;

std::string_view trimmedBlanks(std::string_view s)
{
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!s.empty() && blank(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && blank(s.back()))
        s.remove_suffix(1);
    return s;
}

/// A duration being added up exactly: whole picoseconds, and whether a fraction of one is left.
struct Picos
{
    std::int64_t whole = 0;
    bool fraction = false;
    bool tooLong = false;
};

/// The units of a Go duration, largest first, in picoseconds (24 h of them fit 64 bits).
struct DurationUnit
{
    std::string_view name;
    std::int64_t picos;
};
constexpr std::array kDurationUnits {
    DurationUnit { "h", 3'600'000'000'000'000 },
    DurationUnit { "m", 60'000'000'000'000 },
    DurationUnit { "s", 1'000'000'000'000 },
    DurationUnit { "ms", 1'000'000'000 },
    DurationUnit { "us", 1'000'000 },
    DurationUnit { "\xC2\xB5s", 1'000'000 }, // µs, U+00B5 MICRO SIGN
    DurationUnit { "\xCE\xBCs", 1'000'000 }, // μs, U+03BC GREEK SMALL LETTER MU
    DurationUnit { "ns", 1'000 },
};
/// The rank of each unit above (both micro signs are one unit).
constexpr std::array kUnitRank { 0, 1, 2, 3, 4, 4, 4, 5 };

/// Adds `whole`.`fraction` (decimal digits) times `unitPicos` to `sum`, exactly: the fraction
/// is multiplied digit by digit from its last one, carrying, so no digit is rounded.
void addScaled(
    Picos &sum, std::string_view whole, std::string_view fraction, std::int64_t unitPicos)
{
    const std::int64_t maxWhole = kMaxResetPicos / unitPicos + 1;
    std::int64_t n = 0;
    for (const char c : whole) {
        n = n * 10 + (c - '0');
        if (n > maxWhole) {
            sum.tooLong = true;
            return;
        }
    }
    std::int64_t carry = 0;
    for (auto it = fraction.rbegin(); it != fraction.rend(); ++it) {
        const std::int64_t t = (*it - '0') * unitPicos + carry;
        sum.fraction = sum.fraction || t % 10 != 0;
        carry = t / 10;
    }
    sum.whole += n * unitPicos + carry;
    sum.tooLong = sum.tooLong || sum.whole > kMaxResetPicos;
}

/// `\d+(\.\d+)?` at the start of `s`: the whole and fraction digits, and the length read.
struct DecimalParts
{
    std::string_view whole;
    std::string_view fraction;
    std::size_t length = 0;
};
std::optional<DecimalParts> decimalAt(std::string_view s)
{
    std::size_t i = 0;
    while (i < s.size() && detail::isDigit(s[i]))
        ++i;
    if (i == 0)
        return std::nullopt;
    DecimalParts p { s.substr(0, i), {}, i };
    if (i < s.size() && s[i] == '.') {
        std::size_t j = i + 1;
        while (j < s.size() && detail::isDigit(s[j]))
            ++j;
        if (j == i + 1)
            return std::nullopt;
        p.fraction = s.substr(i + 1, j - i - 1);
        p.length = j;
    }
    return p;
}

/// The unit at the start of `s` (the longest that matches), as an index into kDurationUnits.
std::optional<std::size_t> unitAt(std::string_view s)
{
    std::optional<std::size_t> best;
    for (std::size_t u = 0; u < kDurationUnits.size(); ++u) {
        const std::string_view name = kDurationUnits[u].name;
        if (s.substr(0, name.size()) == name
            && (!best || name.size() > kDurationUnits[*best].name.size()))
            best = u;
    }
    return best;
}

std::optional<Millis> toMillis(const Picos &p)
{
    if (p.tooLong || p.whole > kMaxResetPicos || (p.whole == kMaxResetPicos && p.fraction))
        return std::nullopt;
    const bool roundUp = p.whole % kPicosPerMilli != 0 || p.fraction;
    return Millis(p.whole / kPicosPerMilli + (roundUp ? 1 : 0));
}

/// A count as the headers send it: whole digits, blanks around allowed, at most 2^53.
std::optional<std::int64_t> parseCount(std::string_view text)
{
    const std::string_view t = trimmedBlanks(text);
    if (t.empty())
        return std::nullopt;
    std::int64_t n = 0;
    for (const char c : t) {
        if (!detail::isDigit(c))
            return std::nullopt;
        n = n * 10 + (c - '0');
        if (n > kMaxCount)
            return std::nullopt;
    }
    return n;
}

/// An integer of the JSON reader (canonical decimal, `-` when negative) as a count.
std::optional<std::int64_t> countFromDecimal(std::string_view decimal)
{
    if (decimal.empty() || decimal.front() == '-')
        return std::nullopt;
    return parseCount(decimal);
}

/// The members of `usage` that the report reads, by name.
constexpr std::array<std::string_view, 3> kUsageMembers { "prompt_tokens", "completion_tokens",
    "total_tokens" };
/// The objects in `usage` that hold a figure the report reads, and the figure's name in them.
constexpr std::string_view kPromptDetails = "prompt_tokens_details";
constexpr std::string_view kCompletionDetails = "completion_tokens_details";
constexpr std::string_view kCachedTokens = "cached_tokens";
constexpr std::string_view kReasoningTokens = "reasoning_tokens";

std::optional<std::int64_t> *usageSlot(UsageReport &u, std::string_view member)
{
    if (member == kUsageMembers[0])
        return &u.promptTokens;
    if (member == kUsageMembers[1])
        return &u.completionTokens;
    if (member == kUsageMembers[2])
        return &u.totalTokens;
    return nullptr;
}

/// The figure a details object of `usage` holds: cached tokens in the prompt's, reasoning tokens
/// in the completion's.
std::optional<std::int64_t> *detailsSlot(UsageReport &u, std::string_view details)
{
    if (details == kPromptDetails)
        return &u.cachedTokens;
    if (details == kCompletionDetails)
        return &u.reasoningTokens;
    return nullptr;
}

std::string_view detailsMember(std::string_view details)
{
    return details == kPromptDetails ? kCachedTokens : kReasoningTokens;
}

/// Reads `usage` of a top-level object in one streaming pass. Later duplicate keys replace
/// earlier ones, as nlohmann::json (and so usageFrom()) reads them.
class UsageSax final : public JsonHandler
{
public:
    UsageSax(UsageReport &out, std::string_view json)
        : m_out(out)
        , m_json(json)
    { }

    void null() override { value(); }
    void boolean(bool) override { value(); }
    void number() override
    {
        // A fraction or an exponent: only the cost takes one. The literal starts at the token.
        if (std::optional<double> *cost = costSlot())
            *cost = usageCost(m_json.substr(tokenOffset()));
        else
            value();
    }
    void string(std::string &) override { value(); }
    void integer(std::string_view decimal) override
    {
        if (std::optional<double> *cost = costSlot())
            *cost = usageCost(decimal);
        else if (std::optional<std::int64_t> *slot = value())
            *slot = countFromDecimal(decimal);
    }
    void key(std::string &name) override
    {
        if (m_depth <= 2)
            m_key.swap(name);
        else if (m_depth == 3)
            m_innerKey.swap(name);
    }
    void startObject() override
    {
        value();
        if (m_depth == 1 && m_key == "usage")
            m_inUsage = true;
        else if (m_depth == 2 && m_inUsage && detailsSlot(m_out, m_key))
            m_details = m_key;
        ++m_depth;
    }
    void endObject() override { end(); }
    void startArray() override
    {
        value();
        ++m_depth;
    }
    void endArray() override { end(); }

private:
    /// The cost slot when the value at hand is usage's `cost` (emptied: a duplicate replaces).
    std::optional<double> *costSlot()
    {
        if (m_depth != 2 || !m_inUsage || m_key != "cost")
            return nullptr;
        m_out.cost.reset();
        return &m_out.cost;
    }
    /// A value starts at the current key: what an earlier duplicate left is dropped. Returns
    /// the usage member it fills, if any.
    std::optional<std::int64_t> *value()
    {
        if (m_depth == 1 && m_key == "usage") {
            m_out = {};
            m_inUsage = false;
        } else if (m_depth == 2 && m_inUsage) {
            if (m_key == "cost") {
                m_out.cost.reset();
            } else if (std::optional<std::int64_t> *slot = usageSlot(m_out, m_key)) {
                slot->reset();
                return slot;
            } else if (std::optional<std::int64_t> *details = detailsSlot(m_out, m_key)) {
                details->reset(); // a later details object (or not an object) replaces it
            }
        } else if (m_depth == 3 && !m_details.empty() && m_innerKey == detailsMember(m_details)) {
            std::optional<std::int64_t> *slot = detailsSlot(m_out, m_details);
            slot->reset();
            return slot;
        }
        return nullptr;
    }
    void end()
    {
        --m_depth;
        if (m_depth == 1)
            m_inUsage = false;
        if (m_depth == 2)
            m_details.clear();
        if (m_depth == 2)
            m_innerKey.clear();
        else
            m_key.clear();
    }

    UsageReport &m_out;
    std::string_view m_json;
    std::string m_key;
    std::string m_innerKey;
    std::string m_details; ///< the details object of usage being read (its key), else empty
    int m_depth = 0;
    bool m_inUsage = false;
};

bool namesStreamUsage(std::string_view text)
{
    const std::string lower = asciiLower(text);
    return lower.find("stream_options") != std::string::npos
        || lower.find("include_usage") != std::string::npos;
}

bool containsAny(std::string_view lower, const std::vector<RuleText> &phrases)
{
    return std::any_of(phrases.begin(), phrases.end(),
        [lower](const RuleText &p) { return lower.find(p.text) != std::string_view::npos; });
}

std::int64_t saturatedAdd(std::int64_t a, std::int64_t b)
{
    if (b > 0 && a > std::numeric_limits<std::int64_t>::max() - b)
        return std::numeric_limits<std::int64_t>::max();
    return a + b;
}

std::string seconds(Millis ms)
{
    return std::to_string((ms.count() + 999) / 1000) + " s";
}

} // namespace

std::optional<Millis> parseResetDuration(std::string_view text)
{
    const std::string_view t = trimmedBlanks(text);
    const auto first = decimalAt(t);
    if (!first)
        return std::nullopt;
    Picos sum;
    if (first->length == t.size()) { // plain seconds
        addScaled(sum, first->whole, first->fraction, kDurationUnits[2].picos);
        return toMillis(sum);
    }
    int lastRank = -1;
    std::string_view rest = t;
    while (!rest.empty()) {
        const auto number = decimalAt(rest);
        if (!number)
            return std::nullopt;
        rest.remove_prefix(number->length);
        const auto unit = unitAt(rest);
        if (!unit || kUnitRank[*unit] <= lastRank)
            return std::nullopt;
        lastRank = kUnitRank[*unit];
        rest.remove_prefix(kDurationUnits[*unit].name.size());
        addScaled(sum, number->whole, number->fraction, kDurationUnits[*unit].picos);
        if (sum.tooLong)
            return std::nullopt;
    }
    return toMillis(sum);
}

WindowReport windowReportFrom(const Headers &headers)
{
    WindowReport r;
    // The first occurrence of a name decides, valid or not.
    std::array<bool, 6> seen {};
    const auto first = [&seen](std::size_t index) { return !std::exchange(seen[index], true); };
    for (const auto &[name, value] : headers) {
        const std::string n = asciiLower(trimmedBlanks(name));
        if (n == "x-ratelimit-limit-requests" && first(0))
            r.limitRequests = parseCount(value);
        else if (n == "x-ratelimit-limit-tokens" && first(1))
            r.limitTokens = parseCount(value);
        else if (n == "x-ratelimit-remaining-requests" && first(2))
            r.remainingRequests = parseCount(value);
        else if (n == "x-ratelimit-remaining-tokens" && first(3))
            r.remainingTokens = parseCount(value);
        else if (n == "x-ratelimit-reset-requests" && first(4))
            r.resetRequests = parseResetDuration(value);
        else if (n == "x-ratelimit-reset-tokens" && first(5))
            r.resetTokens = parseResetDuration(value);
    }
    return r;
}

UsageReport usageFromJson(std::string_view json)
{
    if (json.size() > kMaxClassifiedBodyBytes)
        return {};
    UsageReport out;
    UsageSax sax(out, json);
    if (!scanJson(json, sax))
        return {};
    return out;
}

UsageReport usageFrom(const nlohmann::json &object)
{
    UsageReport out;
    if (!object.is_object())
        return out;
    const auto usage = object.find("usage");
    if (usage == object.end() || !usage->is_object())
        return out;
    const auto count = [](const nlohmann::json &v) -> std::optional<std::int64_t> {
        if (v.is_number_unsigned()) {
            const auto n = v.get<std::uint64_t>();
            if (n <= static_cast<std::uint64_t>(kMaxCount))
                return static_cast<std::int64_t>(n);
        } else if (v.is_number_integer()) {
            const auto n = v.get<std::int64_t>();
            if (n >= 0 && n <= kMaxCount)
                return n;
        }
        return std::nullopt;
    };
    for (const std::string_view member : kUsageMembers) {
        const auto it = usage->find(member);
        if (it != usage->end())
            *usageSlot(out, member) = count(*it);
    }
    for (const std::string_view details : { kPromptDetails, kCompletionDetails }) {
        const auto it = usage->find(details);
        if (it == usage->end() || !it->is_object())
            continue;
        const auto figure = it->find(detailsMember(details));
        if (figure != it->end())
            *detailsSlot(out, details) = count(*figure);
    }
    if (const auto cost = usage->find("cost"); cost != usage->end() && cost->is_number()) {
        const double value = cost->get<double>();
        if (std::isfinite(value) && value >= 0)
            out.cost = value;
    }
    return out;
}

std::optional<double> usageCost(std::string_view literal)
{
    double value = 0;
    const auto [end, ec] = std::from_chars(literal.data(), literal.data() + literal.size(), value);
    (void)end;
    // Valid JSON never overflows here (the readers reject a number too large for a double, as
    // nlohmann::json does); out of range is an underflow, which reads as 0 there too.
    if (ec == std::errc::result_out_of_range)
        value = 0;
    else if (ec != std::errc())
        return std::nullopt;
    if (!std::isfinite(value) || value < 0)
        return std::nullopt;
    return value;
}

bool refusesStreamUsage(int status, std::string_view body)
{
    if (status != 400 || body.size() > kMaxClassifiedBodyBytes)
        return false;
    ErrorFields fields = readErrorFields(body);
    if (fields.shape == ErrorFields::Shape::NotJson)
        return namesStreamUsage(body);
    const ErrorTexts texts = textsFromFields(std::move(fields), body);
    // A JSON body without an error text (FastAPI's `detail` list of the fields it refuses)
    // is read whole.
    if (texts.texts.empty())
        return namesStreamUsage(body);
    return std::any_of(texts.texts.begin(), texts.texts.end(),
        [](const std::string &t) { return namesStreamUsage(t); });
}

std::int64_t estimatePromptTokens(std::int64_t chars, double charsPerToken)
{
    if (chars <= 0)
        return 0;
    if (!(charsPerToken >= kMinCharsPerToken && charsPerToken <= kMaxCharsPerToken))
        charsPerToken = kDefaultCharsPerToken;
    const double tokens = std::ceil(static_cast<double>(chars) / charsPerToken);
    if (!(tokens < 0x1p62))
        return std::int64_t(1) << 62;
    return static_cast<std::int64_t>(tokens);
}

std::int64_t estimateTokens(
    std::int64_t chars, double charsPerToken, std::optional<std::int64_t> maxTokens)
{
    const std::int64_t completion
        = maxTokens && *maxTokens > 0 ? *maxTokens : kDefaultCompletionReserve;
    return saturatedAdd(estimatePromptTokens(chars, charsPerToken), completion);
}

LearnedRatio learnRatio(LearnedRatio current, std::int64_t chars, std::int64_t promptTokens)
{
    if (!(current.charsPerToken >= kMinCharsPerToken && current.charsPerToken <= kMaxCharsPerToken)
        || current.samples < 0)
        current = {};
    if (chars <= 0 || promptTokens <= 0)
        return current;
    const double sample = static_cast<double>(chars) / static_cast<double>(promptTokens);
    if (!(sample >= kMinCharsPerToken && sample <= kMaxCharsPerToken))
        return current;
    constexpr int kAveraged = 8;
    const int n = current.samples;
    LearnedRatio next;
    next.charsPerToken = n < kAveraged
        ? (current.charsPerToken * n + sample) / (n + 1)
        : current.charsPerToken + (sample - current.charsPerToken) / kAveraged;
    next.charsPerToken = std::clamp(next.charsPerToken, kMinCharsPerToken, kMaxCharsPerToken);
    next.samples = n == std::numeric_limits<int>::max() ? n : n + 1;
    return next;
}

PaceDecision decidePacing(const PaceInput &input)
{
    PaceDecision d;
    const WindowReport &r = input.report;
    if (!input.enabled) {
        d.skip = PaceSkip::Disabled;
        d.reason = "pacing is off";
        return d;
    }
    if (!r.remainingTokens && !r.remainingRequests) {
        d.skip = PaceSkip::NoReport;
        d.reason = "the provider reported nothing of its window";
        return d;
    }
    const bool tokensFull = r.remainingTokens && *r.remainingTokens < input.estimatedTokens;
    const bool requestsFull = r.remainingRequests && *r.remainingRequests <= 0;
    d.tokensFull = tokensFull;
    if (!tokensFull && !requestsFull) {
        d.skip = PaceSkip::Fits;
        d.reason = "the provider's window can hold the request";
        return d;
    }
    // The later of the resets still to come of the full parts; a full part without a reset
    // has nothing to wait for, one whose reset passed has been renewed.
    std::optional<Millis> wait;
    bool waitForTokens = false;
    bool missingReset = false;
    const auto consider = [&](bool full, const std::optional<Millis> &left, bool tokens) {
        if (!full)
            return;
        if (!left)
            missingReset = true;
        else if (*left > Millis(0) && (!wait || *left > *wait)) {
            wait = *left;
            waitForTokens = tokens;
        }
    };
    consider(tokensFull, input.tokensResetLeft, true);
    consider(requestsFull, input.requestsResetLeft, false);
    if (!wait) {
        d.skip = missingReset ? PaceSkip::NoReset : PaceSkip::ResetPassed;
        d.reason = missingReset ? "the provider's window is full but it reported no reset"
                                : "the provider's window has been renewed since its report";
        return d;
    }
    d.wait = *wait;
    d.tokensFull = waitForTokens;
    const std::string full = waitForTokens
        ? "the provider's window has " + std::to_string(*r.remainingTokens) + " tokens left of the "
            + std::to_string(input.estimatedTokens) + " the request needs"
        : std::string("the provider's window has no requests left");
    if (*wait > kMaxPaceWait) {
        d.skip = PaceSkip::TooLong;
        d.reason = full + " and resets in " + seconds(*wait) + ", longer than pacing waits";
        return d;
    }
    d.pace = true;
    d.skip = PaceSkip::None;
    d.source = WaitSource::RateLimitReset;
    d.reason = full + "; sending when it resets in " + seconds(*wait);
    return d;
}

std::string_view nameOf(PaceSkip skip)
{
    switch (skip) {
    case PaceSkip::None:
        return {};
    case PaceSkip::Disabled:
        return "disabled";
    case PaceSkip::NoReport:
        return "no_report";
    case PaceSkip::Fits:
        return "fits";
    case PaceSkip::ResetPassed:
        return "reset_passed";
    case PaceSkip::NoReset:
        return "no_reset";
    case PaceSkip::TooLong:
        return "too_long";
    }
    return {};
}

TrimPlan planTrim(const TrimInput &input)
{
    const auto turns = static_cast<int>(
        std::min<std::size_t>(input.turnTokens.size(), std::numeric_limits<int>::max()));
    const auto tokensOf = [&](int i) { return std::max<std::int64_t>(input.turnTokens[i], 0); };
    // The last turn is always sent.
    const int maxLeftOut = std::max(turns - 1, 0);
    TrimPlan plan;
    plan.leftOut = std::clamp(input.alreadyLeftOut, 0, maxLeftOut);
    std::int64_t sent = std::max<std::int64_t>(input.fixedTokens, 0);
    for (int i = 0; i < turns; ++i) {
        if (i < plan.leftOut)
            plan.leftOutTokens = saturatedAdd(plan.leftOutTokens, tokensOf(i));
        else
            sent = saturatedAdd(sent, tokensOf(i));
    }
    plan.tokensBefore = sent;
    if (input.contextWindow <= 0) {
        plan.fits = true; // nothing known says otherwise
        plan.tokensAfter = sent;
        return plan;
    }
    plan.needed = sent > input.contextWindow;
    while (sent > input.contextWindow && plan.leftOut < maxLeftOut) {
        sent -= tokensOf(plan.leftOut);
        plan.leftOutTokens = saturatedAdd(plan.leftOutTokens, tokensOf(plan.leftOut));
        ++plan.leftOut;
    }
    plan.fits = sent <= input.contextWindow;
    plan.tokensAfter = sent;
    return plan;
}

std::optional<std::int64_t> contextWindowFrom(const Classification &classification)
{
    const Classification &c = classification;
    if (c.category != Category::TooLarge || !c.limit || !(*c.limit >= 1)
        || !(*c.limit <= static_cast<double>(kMaxCount)))
        return std::nullopt;
    // The reason names the error code (`context_length_exceeded`) when that decided it.
    const std::string text = lowerCase(c.errorText);
    const std::shared_ptr<const Rules> rules = Rules::active();
    const auto &contextWords = rules->set().wordList(WordList::Context);
    const bool context
        = containsAny(text, contextWords) || containsAny(lowerCase(c.reason), contextWords);
    if (!context || containsAny(text, rules->set().wordList(WordList::RateWindow)))
        return std::nullopt;
    return static_cast<std::int64_t>(std::floor(*c.limit));
}

} // namespace capwatch::retry
