#include "textscan.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <span>

namespace capwatch::retry {

namespace {

constexpr bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}
constexpr bool isLower(char c)
{
    return c >= 'a' && c <= 'z';
}
constexpr bool isAsciiLetter(char c)
{
    return isLower(c) || (c >= 'A' && c <= 'Z');
}
constexpr bool isWordChar(char c)
{
    return isAsciiLetter(c) || isDigit(c) || c == '_';
}
constexpr bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/// Numbers and wait values may not stand right after a letter, digit, underscore or dot.
bool numberMayStartAt(std::string_view s, std::size_t i)
{
    if (i == 0)
        return true;
    const char p = s[i - 1];
    return !(isWordChar(p) || p == '.');
}

bool wordBoundaryBefore(std::string_view s, std::size_t i)
{
    return i == 0 || !isWordChar(s[i - 1]);
}

bool wordBoundaryAfter(std::string_view s, std::size_t i)
{
    return i >= s.size() || !isWordChar(s[i]);
}

/// Digits then an optional `.digits`; returns the end offset (== i when no digit at i).
std::size_t scanDecimal(std::string_view s, std::size_t i)
{
    std::size_t j = i;
    while (j < s.size() && isDigit(s[j]))
        ++j;
    if (j == i)
        return i;
    if (j + 1 < s.size() && s[j] == '.' && isDigit(s[j + 1])) {
        j += 2;
        while (j < s.size() && isDigit(s[j]))
            ++j;
    }
    return j;
}

/// Value of digits with optional `,ddd` groups and `.fraction`; commas are skipped.
double valueOf(std::string_view s)
{
    double intPart = 0;
    double frac = 0;
    double scale = 0.1;
    bool inFraction = false;
    for (const char c : s) {
        if (c == '.') {
            inFraction = true;
        } else if (isDigit(c)) {
            if (inFraction) {
                frac += (c - '0') * scale;
                scale /= 10;
            } else {
                intPart = intPart * 10 + (c - '0');
            }
        }
    }
    return intPart + frac;
}

bool startsWith(std::string_view s, std::size_t at, std::string_view what)
{
    return s.size() >= at && s.substr(at).starts_with(what);
}

std::size_t skipSpaces(std::string_view s, std::size_t i)
{
    while (i < s.size() && isSpace(s[i]))
        ++i;
    return i;
}

/// Saturates at Millis::max(): llround() of a value past long long is unspecified (LLONG_MIN on
/// x86-64), which made "retry in 99999999999999999999 seconds" a negative wait.
Millis toMillis(double seconds)
{
    const double ms = seconds * 1000.0;
    if (!(ms < 0x1p63))
        return Millis::max();
    return Millis(std::llround(ms));
}

struct Unit
{
    std::string_view word;
    double seconds;
};

/// The unit word at `at`, an optional plural `s`, and no letter after it. Returns the end of
/// the unit, or npos.
std::size_t matchUnit(std::string_view s, std::size_t at, std::string_view word)
{
    if (!startsWith(s, at, word))
        return std::string_view::npos;
    std::size_t end = at + word.size();
    if (end < s.size() && s[end] == 's' && (end + 1 >= s.size() || !isLower(s[end + 1])))
        ++end;
    if (end < s.size() && isLower(s[end]))
        return std::string_view::npos;
    return end;
}

/// Tries `X <unit>` at i: X, optional white space, then one of the units. Returns the end of
/// the phrase, or npos.
std::size_t matchValueUnit(
    std::string_view s, std::size_t i, std::span<const Unit> units, double *seconds)
{
    if (i >= s.size() || !isDigit(s[i]) || !numberMayStartAt(s, i))
        return std::string_view::npos;
    const std::size_t numEnd = scanDecimal(s, i);
    const std::size_t unitAt = skipSpaces(s, numEnd);
    for (const Unit &unit : units) {
        const std::size_t end = matchUnit(s, unitAt, unit.word);
        if (end == std::string_view::npos)
            continue;
        *seconds = valueOf(s.substr(i, numEnd - i)) * unit.seconds;
        return end;
    }
    return std::string_view::npos;
}

/// `in` or `after` then a compact duration (`2.5s`, `644ms`, `1m30s`, `2h`), starting at the
/// keyword's end. Returns the end of the duration, or npos.
std::size_t matchCompactDuration(
    std::string_view s, std::size_t i, std::size_t *valueBegin, double *seconds)
{
    const std::size_t start = skipSpaces(s, i);
    if (start == i)
        return std::string_view::npos;
    std::size_t j = start;
    double total = 0;
    int parts = 0;
    while (j < s.size() && isDigit(s[j])) {
        if (parts == 0 && !numberMayStartAt(s, j))
            return std::string_view::npos;
        const std::size_t numEnd = scanDecimal(s, j);
        const double value = valueOf(s.substr(j, numEnd - j));
        double unitSeconds = 0;
        std::size_t unitEnd = numEnd;
        if (startsWith(s, numEnd, "ms")) {
            unitSeconds = 0.001;
            unitEnd += 2;
        } else if (startsWith(s, numEnd, "h")) {
            unitSeconds = 3600;
            unitEnd += 1;
        } else if (startsWith(s, numEnd, "m")) {
            unitSeconds = 60;
            unitEnd += 1;
        } else if (startsWith(s, numEnd, "s")) {
            unitSeconds = 1;
            unitEnd += 1;
        } else {
            return std::string_view::npos;
        }
        total += value * unitSeconds;
        ++parts;
        j = unitEnd;
    }
    if (parts == 0 || (j < s.size() && isLower(s[j])))
        return std::string_view::npos;
    *valueBegin = start;
    *seconds = total;
    return j;
}

constexpr std::array kMinute { Unit { "minute", 60 } };
constexpr std::array kSecond { Unit { "second", 1 } };
constexpr std::array kMin { Unit { "min", 60 } };
constexpr std::array kSec { Unit { "sec", 1 } };
constexpr std::array kHour { Unit { "hour", 3600 }, Unit { "hr", 3600 } };

/// `retry in X minute(s)` / `retry after X second(s)`: the lead words, then X and the unit.
std::optional<WaitHint> findLeadPhrase(std::string_view s, std::string_view first,
    std::string_view second, std::span<const Unit> units, int pattern)
{
    for (std::size_t at = s.find(first); at != std::string_view::npos; at = s.find(first, at + 1)) {
        std::size_t i = at + first.size();
        const std::size_t afterFirst = skipSpaces(s, i);
        if (afterFirst == i || !startsWith(s, afterFirst, second))
            continue;
        i = afterFirst + second.size();
        const std::size_t valueAt = skipSpaces(s, i);
        if (valueAt == i)
            continue;
        double seconds = 0;
        const std::size_t end = matchValueUnit(s, valueAt, units, &seconds);
        if (end != std::string_view::npos)
            return WaitHint { toMillis(seconds), pattern, at, end };
    }
    return std::nullopt;
}

/// Patterns 3 to 7 in one pass over the text: each value is read once and checked against every
/// unit, and the leftmost match of the lowest pattern wins. A 1 MiB text is scanned once, not five
/// times.
std::optional<WaitHint> findValueUnitPatterns(std::string_view s)
{
    struct PatternUnits
    {
        int pattern;
        std::span<const Unit> units;
    };
    const std::array<PatternUnits, 5> patterns { PatternUnits { 3, kMinute }, { 4, kSecond },
        { 5, kMin }, { 6, kSec }, { 7, kHour } };
    std::array<std::optional<WaitHint>, 5> found;
    std::size_t i = 0;
    while (i < s.size()) {
        if (!isDigit(s[i]) || !numberMayStartAt(s, i)) {
            ++i;
            continue;
        }
        const std::size_t numEnd = scanDecimal(s, i);
        const std::size_t unitAt = skipSpaces(s, numEnd);
        if (unitAt < s.size() && isLower(s[unitAt])) {
            for (std::size_t p = 0; p < patterns.size(); ++p) {
                if (found[p])
                    continue;
                for (const Unit &unit : patterns[p].units) {
                    const std::size_t end = matchUnit(s, unitAt, unit.word);
                    if (end == std::string_view::npos)
                        continue;
                    const double value = valueOf(s.substr(i, numEnd - i));
                    found[p]
                        = WaitHint { toMillis(value * unit.seconds), patterns[p].pattern, i, end };
                    break;
                }
                if (p == 0 && found[0])
                    return found[0]; // nothing in 3..7 beats pattern 3
            }
        }
        // Digits inside a value are preceded by a digit or a dot: none can start another one.
        i = numEnd;
    }
    for (const auto &hint : found) {
        if (hint)
            return hint;
    }
    return std::nullopt;
}

std::optional<WaitHint> findCompact(std::string_view s)
{
    // "after" ends in neither 'i' nor 'n', so "in" and "after" never overlap: visit both in
    // order of position.
    std::size_t nextIn = s.find("in");
    std::size_t nextAfter = s.find("after");
    while (nextIn != std::string_view::npos || nextAfter != std::string_view::npos) {
        std::size_t i = 0;
        std::size_t kwEnd = 0;
        if (nextIn < nextAfter) {
            i = nextIn;
            kwEnd = i + 2;
            nextIn = s.find("in", i + 1);
        } else {
            i = nextAfter;
            kwEnd = i + 5;
            nextAfter = s.find("after", i + 1);
        }
        if (!wordBoundaryBefore(s, i))
            continue;
        std::size_t valueBegin = 0;
        double seconds = 0;
        const std::size_t end = matchCompactDuration(s, kwEnd, &valueBegin, &seconds);
        if (end != std::string_view::npos)
            return WaitHint { toMillis(seconds), 8, i, end };
    }
    return std::nullopt;
}

/// After a keyword: spaces, `:` or `=`, then a number token starting exactly there.
std::optional<double> numberAfter(
    std::string_view s, std::size_t i, const std::vector<NumberToken> &numbers, std::size_t *index)
{
    while (i < s.size() && (s[i] == ' ' || s[i] == ':' || s[i] == '='))
        ++i;
    // Binary search keeps a body full of keywords and numbers linear-logarithmic.
    const auto it = std::lower_bound(numbers.begin(), numbers.end(), i,
        [](const NumberToken &t, std::size_t at) { return t.begin < at; });
    if (it == numbers.end() || it->begin != i)
        return std::nullopt;
    *index = static_cast<std::size_t>(it - numbers.begin());
    return it->value;
}

} // namespace

std::string asciiLower(std::string_view text)
{
    std::string out(text);
    for (char &c : out) {
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

std::string lowerCase(std::string_view text)
{
    std::string out(text);
    for (std::size_t i = 0; i < out.size(); ++i) {
        const auto c = static_cast<unsigned char>(out[i]);
        if (c >= 'A' && c <= 'Z') {
            out[i] = static_cast<char>(c - 'A' + 'a');
        } else if (c == 0xD0 && i + 1 < out.size()) {
            // U+0410..U+042F (D0 90..D0 AF) become U+0430..U+044F; U+0401 Ё becomes U+0451 ё.
            // Both stay two bytes long.
            const auto n = static_cast<unsigned char>(out[i + 1]);
            if (n >= 0x90 && n <= 0x9F) {
                out[i + 1] = static_cast<char>(n + 0x20);
            } else if (n >= 0xA0 && n <= 0xAF) {
                out[i] = static_cast<char>(0xD1);
                out[i + 1] = static_cast<char>(n - 0x20);
            } else if (n == 0x81) {
                out[i] = static_cast<char>(0xD1);
                out[i + 1] = static_cast<char>(0x91);
            }
            if ((n & 0xC0) == 0x80)
                ++i;
        }
    }
    return out;
}

std::optional<double> parseDecimal(std::string_view text)
{
    if (text.empty() || !isDigit(text.front()))
        return std::nullopt;
    if (scanDecimal(text, 0) != text.size())
        return std::nullopt;
    return valueOf(text);
}

std::vector<NumberToken> findNumbers(std::string_view s)
{
    std::vector<NumberToken> out;
    std::size_t i = 0;
    while (i < s.size()) {
        if (!isDigit(s[i]) || !numberMayStartAt(s, i)) {
            ++i;
            continue;
        }
        // Greedy and without backtracking: `2.5s` is not a number, and neither is its `2`.
        std::size_t j = i;
        while (j < s.size() && isDigit(s[j]))
            ++j;
        while (j + 3 < s.size() && s[j] == ',' && isDigit(s[j + 1]) && isDigit(s[j + 2])
            && isDigit(s[j + 3]))
            j += 4;
        if (j + 1 < s.size() && s[j] == '.' && isDigit(s[j + 1])) {
            j += 2;
            while (j < s.size() && isDigit(s[j]))
                ++j;
        }
        if (wordBoundaryAfter(s, j)) {
            out.push_back({ i, j, valueOf(s.substr(i, j - i)) });
            i = j;
        } else {
            ++i;
        }
    }
    return out;
}

std::vector<std::string_view> findKeywords(std::string_view text)
{
    std::vector<std::string_view> out;
    for (const std::string_view kw :
        { std::string_view("limit"), std::string_view("token"), std::string_view("exceeded") }) {
        if (text.find(kw) != std::string_view::npos)
            out.push_back(kw);
    }
    return out;
}

std::optional<WaitHint> findWaitHint(std::string_view s)
{
    if (auto h = findLeadPhrase(s, "retry", "in", kMinute, 1))
        return h;
    if (auto h = findLeadPhrase(s, "retry", "after", kSecond, 2))
        return h;
    if (auto h = findValueUnitPatterns(s))
        return h;
    return findCompact(s);
}

UsedLimit extractUsedLimit(std::string_view s, const std::vector<NumberToken> &numbers,
    std::size_t skipBegin, std::size_t skipEnd)
{
    UsedLimit out;
    std::size_t usedIndex = numbers.size();
    std::size_t limitIndex = numbers.size();

    for (std::size_t at = s.find("used"); at != std::string_view::npos && !out.used;
         at = s.find("used", at + 1)) {
        if (wordBoundaryBefore(s, at) && wordBoundaryAfter(s, at + 4))
            out.used = numberAfter(s, at + 4, numbers, &usedIndex);
    }
    for (std::size_t at = s.find("limit"); at != std::string_view::npos && !out.limit;
         at = s.find("limit", at + 1)) {
        if (!wordBoundaryBefore(s, at) || !wordBoundaryAfter(s, at + 5))
            continue;
        std::size_t i = at + 5;
        if ((startsWith(s, i, " of") || startsWith(s, i, " is")) && wordBoundaryAfter(s, i + 3))
            i += 3;
        out.limit = numberAfter(s, i, numbers, &limitIndex);
    }

    for (std::size_t n = 0; n < numbers.size() && (!out.used || !out.limit); ++n) {
        if (n == usedIndex || n == limitIndex)
            continue;
        if (numbers[n].begin >= skipBegin && numbers[n].begin < skipEnd)
            continue;
        if (!out.used) {
            out.used = numbers[n].value;
            usedIndex = n;
        } else {
            out.limit = numbers[n].value;
            limitIndex = n;
        }
    }
    return out;
}

} // namespace capwatch::retry
