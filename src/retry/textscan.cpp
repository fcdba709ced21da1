#include "textscan.h"

#include "phrases.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <span>

namespace capwatch::retry {

namespace {

using phrases::Boundary;
using phrases::Unit;
using phrases::Word;

constexpr std::size_t npos = std::string_view::npos;

constexpr bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}
constexpr bool isAsciiLetter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
constexpr bool isAsciiWordChar(char c)
{
    return isAsciiLetter(c) || isDigit(c) || c == '_';
}
constexpr bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
constexpr bool isContinuation(char c)
{
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

/// A Cyrillic letter (U+0400..U+052F, without the signs U+0482..U+0489) starts at i.
bool cyrillicAt(std::string_view s, std::size_t i)
{
    if (i + 1 >= s.size() || !isContinuation(s[i + 1]))
        return false;
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0xD0 || b0 > 0xD4)
        return false;
    const unsigned cp = ((b0 & 0x1Fu) << 6) | (static_cast<unsigned char>(s[i + 1]) & 0x3Fu);
    return cp <= 0x52F && !(cp >= 0x482 && cp <= 0x489);
}

/// A Cyrillic letter ends right before i.
bool cyrillicBefore(std::string_view s, std::size_t i)
{
    return i >= 2 && cyrillicAt(s, i - 2);
}

/// Letters are ASCII and Cyrillic (6.1); Chinese characters are not letters here.
bool letterAt(std::string_view s, std::size_t i)
{
    return i < s.size() && (isAsciiLetter(s[i]) || cyrillicAt(s, i));
}
bool wordCharAt(std::string_view s, std::size_t i)
{
    return i < s.size() && (isAsciiWordChar(s[i]) || cyrillicAt(s, i));
}
bool wordCharBefore(std::string_view s, std::size_t i)
{
    return i > 0 && (isAsciiWordChar(s[i - 1]) || cyrillicBefore(s, i));
}

/// Numbers and wait values may not stand right after a letter, digit, underscore or dot.
bool numberMayStartAt(std::string_view s, std::size_t i)
{
    return !wordCharBefore(s, i) && !(i > 0 && s[i - 1] == '.');
}

bool startsWith(std::string_view s, std::size_t at, std::string_view what)
{
    return at <= s.size() && s.substr(at).starts_with(what);
}

/// The optional space between a wait value and its unit: white space, U+00A0 and U+202F.
std::size_t skipWaitSpace(std::string_view s, std::size_t i)
{
    for (;;) {
        if (i < s.size() && isSpace(s[i]))
            ++i;
        else if (startsWith(s, i, "\xC2\xA0"))
            i += 2;
        else if (startsWith(s, i, "\xE2\x80\xAF"))
            i += 3;
        else
            return i;
    }
}

std::size_t skipSpaces(std::string_view s, std::size_t i)
{
    while (i < s.size() && isSpace(s[i]))
        ++i;
    return i;
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

/// Value of digits with optional thousands groups and `.fraction`; separators are skipped.
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

/// Saturates at Millis::max(): llround() of a value past long long is unspecified (LLONG_MIN on
/// x86-64), which made "retry in 99999999999999999999 seconds" a negative wait.
Millis toMillis(double seconds)
{
    const double ms = seconds * 1000.0;
    if (!(ms < 0x1p63))
        return Millis::max();
    return Millis(std::llround(ms));
}

// --- wait units -------------------------------------------------------------------------------

/// An English unit at `at`: the word, an optional plural `s`, and no letter after it.
std::size_t matchEnglishUnit(std::string_view s, std::size_t at, std::string_view word)
{
    if (!startsWith(s, at, word))
        return npos;
    std::size_t end = at + word.size();
    if (end < s.size() && s[end] == 's' && !letterAt(s, end + 1))
        ++end;
    if (letterAt(s, end))
        return npos;
    return end;
}

/// A Russian unit at `at`, not followed by a Cyrillic letter.
std::size_t matchRussianUnit(std::string_view s, std::size_t at, std::string_view word)
{
    if (!startsWith(s, at, word) || cyrillicAt(s, at + word.size()))
        return npos;
    return at + word.size();
}

/// A Chinese unit at `at`; anything may follow.
std::size_t matchChineseUnit(std::string_view s, std::size_t at, std::string_view word)
{
    return startsWith(s, at, word) ? at + word.size() : npos;
}

using UnitMatcher = std::size_t (*)(std::string_view, std::size_t, std::string_view);

struct UnitPattern
{
    int pattern;
    std::span<const Unit> units;
    UnitMatcher match;
};

/// The first unit of `units` at `at`; returns the end of the unit, or npos.
std::size_t matchUnits(
    std::string_view s, std::size_t at, const UnitPattern &p, double *unitSeconds)
{
    for (const Unit &unit : p.units) {
        const std::size_t end = p.match(s, at, unit.word);
        if (end != npos) {
            *unitSeconds = unit.seconds;
            return end;
        }
    }
    return npos;
}

/// `X unit` at i: X (not after a letter, digit, underscore or dot), optional space, the unit.
std::size_t matchValueUnit(std::string_view s, std::size_t i, const UnitPattern &p, double *seconds)
{
    if (i >= s.size() || !isDigit(s[i]) || !numberMayStartAt(s, i))
        return npos;
    const std::size_t numEnd = scanDecimal(s, i);
    double unitSeconds = 0;
    const std::size_t end = matchUnits(s, skipWaitSpace(s, numEnd), p, &unitSeconds);
    if (end == npos)
        return npos;
    *seconds = valueOf(s.substr(i, numEnd - i)) * unitSeconds;
    return end;
}

/// Compact duration parts (`1m30s`, `644ms`) from i; returns the end, or npos when there is no
/// part or a number without its unit.
std::size_t scanCompact(std::string_view s, std::size_t i, double *seconds)
{
    std::size_t j = i;
    double total = 0;
    int parts = 0;
    while (j < s.size() && isDigit(s[j])) {
        const std::size_t numEnd = scanDecimal(s, j);
        const double value = valueOf(s.substr(j, numEnd - j));
        std::size_t unitEnd = npos;
        for (const Unit &unit : phrases::kCompactUnits) {
            if (startsWith(s, numEnd, unit.word)) {
                total += value * unit.seconds;
                unitEnd = numEnd + unit.word.size();
                break;
            }
        }
        if (unitEnd == npos)
            return npos;
        ++parts;
        j = unitEnd;
    }
    if (parts == 0)
        return npos;
    *seconds = total;
    return j;
}

// --- wait patterns ----------------------------------------------------------------------------

constexpr UnitPattern kRetryIn { 1, phrases::kRetryInUnits, matchEnglishUnit };
constexpr UnitPattern kRetryAfter { 2, phrases::kRetryAfterUnits, matchEnglishUnit };

/// Patterns 3 to 7, then 9 and 10: plain `X unit` forms, found in one pass over the text.
constexpr std::array kValueUnitPatterns {
    UnitPattern { 3, phrases::kMinuteUnits, matchEnglishUnit },
    UnitPattern { 4, phrases::kSecondUnits, matchEnglishUnit },
    UnitPattern { 5, phrases::kMinUnits, matchEnglishUnit },
    UnitPattern { 6, phrases::kSecUnits, matchEnglishUnit },
    UnitPattern { 7, phrases::kHourUnits, matchEnglishUnit },
    UnitPattern { 9, phrases::kRussianUnits, matchRussianUnit },
    UnitPattern { 10, phrases::kChineseUnits, matchChineseUnit },
};

/// `retry in X minute(s)` / `retry after X second(s)`: the lead words, then X and the unit.
std::optional<WaitHint> findLeadPhrase(
    std::string_view s, std::string_view second, const UnitPattern &p)
{
    const std::string_view first = phrases::kRetryWord;
    for (std::size_t at = s.find(first); at != npos; at = s.find(first, at + 1)) {
        std::size_t i = at + first.size();
        const std::size_t afterFirst = skipSpaces(s, i);
        if (afterFirst == i || !startsWith(s, afterFirst, second))
            continue;
        i = afterFirst + second.size();
        const std::size_t valueAt = skipSpaces(s, i);
        if (valueAt == i)
            continue;
        double seconds = 0;
        const std::size_t end = matchValueUnit(s, valueAt, p, &seconds);
        if (end != npos)
            return WaitHint { toMillis(seconds), p.pattern, at, end };
    }
    return std::nullopt;
}

/// Every `X unit` pattern in one pass: each value is read once and checked against every
/// unit. A 1 MiB text is scanned once, not seven times. Returns the leftmost match of each.
std::array<std::optional<WaitHint>, kValueUnitPatterns.size()> findValueUnitPatterns(
    std::string_view s)
{
    std::array<std::optional<WaitHint>, kValueUnitPatterns.size()> found;
    std::size_t i = 0;
    while (i < s.size()) {
        if (!isDigit(s[i]) || !numberMayStartAt(s, i)) {
            ++i;
            continue;
        }
        const std::size_t numEnd = scanDecimal(s, i);
        const std::size_t unitAt = skipWaitSpace(s, numEnd);
        if (unitAt < s.size() && !isDigit(s[unitAt])) {
            for (std::size_t p = 0; p < kValueUnitPatterns.size(); ++p) {
                if (found[p])
                    continue;
                double unitSeconds = 0;
                const std::size_t end = matchUnits(s, unitAt, kValueUnitPatterns[p], &unitSeconds);
                if (end == npos)
                    continue;
                found[p] = WaitHint { toMillis(valueOf(s.substr(i, numEnd - i)) * unitSeconds),
                    kValueUnitPatterns[p].pattern, i, end };
                if (p == 0)
                    return found; // nothing of 4..10 beats pattern 3
            }
        }
        // Digits inside a value are preceded by a digit or a dot: none can start another one.
        i = numEnd;
    }
    return found;
}

/// Pattern 8: `in` or `after`, white space, then a compact duration not followed by a letter.
std::optional<WaitHint> findCompact(std::string_view s)
{
    std::optional<WaitHint> best;
    for (const std::string_view lead : phrases::kCompactLeadWords) {
        for (std::size_t at = s.find(lead); at != npos && (!best || at < best->begin);
             at = s.find(lead, at + 1)) {
            if (wordCharBefore(s, at))
                continue;
            const std::size_t kwEnd = at + lead.size();
            const std::size_t start = skipSpaces(s, kwEnd);
            if (start == kwEnd)
                continue;
            double seconds = 0;
            const std::size_t end = scanCompact(s, start, &seconds);
            if (end == npos || letterAt(s, end))
                continue;
            best = WaitHint { toMillis(seconds), 8, at, end };
            break;
        }
    }
    return best;
}

/// Pattern 11: a lead word, white space, an RFC 3339 date-time with a zone.
std::optional<WaitHint> findResetTime(std::string_view s, std::chrono::system_clock::time_point now)
{
    std::optional<WaitHint> best;
    std::int64_t whenMs = 0;
    for (const std::string_view lead : phrases::kResetAtWords) {
        for (std::size_t at = s.find(lead); at != npos && (!best || at < best->begin);
             at = s.find(lead, at + 1)) {
            if (wordCharBefore(s, at))
                continue;
            const std::size_t kwEnd = at + lead.size();
            const std::size_t start = skipSpaces(s, kwEnd);
            if (start == kwEnd)
                continue;
            const auto dt = parseRfc3339(s.substr(start));
            if (!dt)
                continue;
            best = WaitHint { Millis(0), 11, at, start + dt->length };
            whenMs = dt->epochMillis;
            break;
        }
    }
    if (best) {
        const std::int64_t nowMs
            = std::chrono::duration_cast<Millis>(now.time_since_epoch()).count();
        // Both within about ±300,000 years of 1970: the difference cannot overflow.
        best->raw = Millis(std::max<std::int64_t>(whenMs - nowMs, 0));
    }
    return best;
}

// --- used / limit -----------------------------------------------------------------------------

/// Skips any run of the separators.
std::size_t skipSeparators(
    std::string_view s, std::size_t i, std::span<const std::string_view> seps)
{
    for (bool more = true; more;) {
        more = false;
        for (const std::string_view sep : seps) {
            if (startsWith(s, i, sep)) {
                i += sep.size();
                more = true;
            }
        }
    }
    return i;
}

/// The index of the number token that starts exactly at i, or SIZE_MAX.
std::size_t numberStartingAt(const std::vector<NumberToken> &numbers, std::size_t i)
{
    // Binary search keeps a body full of keywords and numbers linear-logarithmic.
    const auto it = std::lower_bound(numbers.begin(), numbers.end(), i,
        [](const NumberToken &t, std::size_t at) { return t.begin < at; });
    if (it == numbers.end() || it->begin != i)
        return SIZE_MAX;
    return static_cast<std::size_t>(it - numbers.begin());
}

bool wordAt(std::string_view s, std::size_t at, std::size_t len, Boundary boundary)
{
    return boundary == Boundary::None || (!wordCharBefore(s, at) && !wordCharAt(s, at + len));
}

struct WordNumber
{
    std::size_t wordAt = npos;
    std::size_t number = SIZE_MAX;
};

/// The number that directly follows one of `words` (after an optional tail such as ` of`, then
/// any run of `seps`), at the earliest word in the text.
WordNumber numberAfterWords(std::string_view s, const std::vector<NumberToken> &numbers,
    std::span<const Word> words, std::span<const std::string_view> seps,
    std::span<const std::string_view> tails = {})
{
    WordNumber best;
    for (const Word &w : words) {
        for (std::size_t at = s.find(w.text); at != npos && at < best.wordAt;
             at = s.find(w.text, at + 1)) {
            if (!wordAt(s, at, w.text.size(), w.boundary))
                continue;
            std::size_t i = at + w.text.size();
            for (const std::string_view tail : tails) {
                if (startsWith(s, i, tail) && !wordCharAt(s, i + tail.size())) {
                    i += tail.size();
                    break;
                }
            }
            const std::size_t n = numberStartingAt(numbers, skipSeparators(s, i, seps));
            if (n != SIZE_MAX) {
                best = { at, n };
                break;
            }
        }
    }
    return best;
}

/// `actual/limit: N/M`.
std::optional<std::pair<std::size_t, std::size_t>> slashForm(
    std::string_view s, const std::vector<NumberToken> &numbers)
{
    std::optional<std::pair<std::size_t, std::size_t>> best;
    std::size_t bestAt = npos;
    for (const std::string_view w : phrases::kSlashWords) {
        for (std::size_t at = s.find(w); at != npos && at < bestAt; at = s.find(w, at + 1)) {
            if (!wordAt(s, at, w.size(), Boundary::Word))
                continue;
            const std::size_t n = numberStartingAt(
                numbers, skipSeparators(s, at + w.size(), phrases::kSlashSeparators));
            if (n == SIZE_MAX || !startsWith(s, numbers[n].end, "/"))
                continue;
            const std::size_t m = numberStartingAt(numbers, numbers[n].end + 1);
            if (m == SIZE_MAX)
                continue;
            best = { n, m };
            bestAt = at;
            break;
        }
    }
    return best;
}

constexpr std::array<Word, phrases::kRequestedWords.size()> requestedWords()
{
    std::array<Word, phrases::kRequestedWords.size()> out {};
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = Word { phrases::kRequestedWords[i] };
    return out;
}
constexpr auto kRequestedWordList = requestedWords();
constexpr std::array kMustBeWord { Word { phrases::kMustBeAtMost } };

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

std::optional<double> parseCompactDuration(std::string_view text)
{
    double seconds = 0;
    if (scanCompact(text, 0, &seconds) != text.size())
        return std::nullopt;
    return seconds;
}

std::optional<DateTimeMatch> parseRfc3339(std::string_view s)
{
    std::size_t i = 0;
    const auto digits = [&](std::size_t n) -> std::optional<int> {
        if (i + n > s.size())
            return std::nullopt;
        int v = 0;
        for (std::size_t k = 0; k < n; ++k) {
            if (!isDigit(s[i + k]))
                return std::nullopt;
            v = v * 10 + (s[i + k] - '0');
        }
        i += n;
        return v;
    };
    const auto literal = [&](std::string_view options) {
        if (i < s.size() && options.find(s[i]) != npos) {
            ++i;
            return true;
        }
        return false;
    };
    const auto year = digits(4);
    if (!year || !literal("-"))
        return std::nullopt;
    const auto month = digits(2);
    if (!month || !literal("-"))
        return std::nullopt;
    const auto day = digits(2);
    if (!day || !literal("tT "))
        return std::nullopt;
    const auto hour = digits(2);
    if (!hour || !literal(":"))
        return std::nullopt;
    const auto minute = digits(2);
    if (!minute || !literal(":"))
        return std::nullopt;
    const auto second = digits(2);
    if (!second)
        return std::nullopt;
    double fraction = 0;
    if (i + 1 < s.size() && s[i] == '.' && isDigit(s[i + 1])) {
        const std::size_t begin = i;
        ++i;
        while (i < s.size() && isDigit(s[i]))
            ++i;
        fraction = valueOf(s.substr(begin, i - begin));
    }
    int offsetMinutes = 0;
    if (!literal("zZ")) {
        if (i >= s.size() || (s[i] != '+' && s[i] != '-'))
            return std::nullopt; // no zone: not a wait (6.1)
        const int sign = s[i] == '-' ? -1 : 1;
        ++i;
        const auto oh = digits(2);
        if (!oh || !literal(":"))
            return std::nullopt;
        const auto om = digits(2);
        if (!om || *oh > 23 || *om > 59)
            return std::nullopt;
        offsetMinutes = sign * (*oh * 60 + *om);
    }
    static constexpr std::array<int, 12> kDays { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    const bool leap = (*year % 4 == 0 && *year % 100 != 0) || *year % 400 == 0;
    if (*month < 1 || *month > 12 || *day < 1
        || *day > kDays[std::size_t(*month - 1)] + (*month == 2 && leap ? 1 : 0) || *hour > 23
        || *minute > 59 || *second > 60)
        return std::nullopt;
    // Days from civil (H. Hinnant), valid for the whole proleptic Gregorian calendar.
    const int y = *year - (*month <= 2 ? 1 : 0);
    const int era = (y >= 0 ? y : y - 399) / 400;
    const int yoe = y - era * 400;
    const int mp = (*month + 9) % 12;
    const int doy = (153 * mp + 2) / 5 + *day - 1;
    const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    const std::int64_t days = std::int64_t(era) * 146097 + doe - 719468;
    const std::int64_t seconds
        = days * 86400 + *hour * 3600 + *minute * 60 + *second - std::int64_t(offsetMinutes) * 60;
    return DateTimeMatch { seconds * 1000 + std::llround(fraction * 1000), i };
}

std::vector<NumberToken> findNumbers(std::string_view s)
{
    static constexpr std::array<std::string_view, 3> kGroupSeparators { ",", "\xC2\xA0",
        "\xE2\x80\xAF" };
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
        // Thousands groups: one separator kind per number.
        std::string_view separator;
        for (bool more = true; more;) {
            more = false;
            for (const std::string_view sep : kGroupSeparators) {
                if (!separator.empty() && sep != separator)
                    continue;
                const std::size_t g = j + sep.size();
                if (startsWith(s, j, sep) && g + 3 <= s.size() && isDigit(s[g]) && isDigit(s[g + 1])
                    && isDigit(s[g + 2])) {
                    j = g + 3;
                    separator = sep;
                    more = true;
                    break;
                }
            }
        }
        if (j + 1 < s.size() && s[j] == '.' && isDigit(s[j + 1])) {
            j += 2;
            while (j < s.size() && isDigit(s[j]))
                ++j;
        }
        if (!wordCharAt(s, j)) {
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
    for (const std::string_view kw : phrases::kTokenLimitKeywords) {
        if (text.find(kw) != npos)
            out.push_back(kw);
    }
    return out;
}

bool speaksOfTokens(std::string_view text)
{
    return std::any_of(phrases::kTokenWords.begin(), phrases::kTokenWords.end(),
        [text](std::string_view w) { return text.find(w) != npos; });
}

std::optional<WaitHint> findWaitHint(
    std::string_view s, std::optional<std::chrono::system_clock::time_point> now)
{
    if (auto h = findLeadPhrase(s, phrases::kRetryInWord, kRetryIn))
        return h;
    if (auto h = findLeadPhrase(s, phrases::kRetryAfterWord, kRetryAfter))
        return h;
    const auto valueUnits = findValueUnitPatterns(s);
    for (const auto &h : valueUnits) {
        if (h && h->pattern < 8)
            return h;
    }
    if (auto h = findCompact(s))
        return h;
    for (const auto &h : valueUnits) {
        if (h)
            return h; // 9, then 10
    }
    if (now)
        return findResetTime(s, *now);
    return std::nullopt;
}

UsedLimit usedLimitByWords(std::string_view s, const std::vector<NumberToken> &numbers)
{
    UsedLimit out;
    if (const auto slash = slashForm(s, numbers)) {
        out.usedIndex = slash->first;
        out.limitIndex = slash->second;
    } else {
        out.usedIndex
            = numberAfterWords(s, numbers, phrases::kUsedWords, phrases::kFigureSeparators).number;
        out.limitIndex = numberAfterWords(
            s, numbers, phrases::kLimitWords, phrases::kFigureSeparators, phrases::kLimitWordTails)
                             .number;
    }
    if (out.usedIndex != SIZE_MAX) {
        out.used = numbers[out.usedIndex].value;
        out.usedByWord = true;
    }
    if (out.limitIndex != SIZE_MAX) {
        out.limit = numbers[out.limitIndex].value;
        out.limitByWord = true;
    }
    return out;
}

UsedLimit extractUsedLimit(std::string_view s, const std::vector<NumberToken> &numbers,
    std::size_t skipBegin, std::size_t skipEnd)
{
    UsedLimit out = usedLimitByWords(s, numbers);
    for (std::size_t n = 0; n < numbers.size() && (!out.used || !out.limit); ++n) {
        if (n == out.usedIndex || n == out.limitIndex)
            continue;
        if (numbers[n].begin >= skipBegin && numbers[n].begin < skipEnd)
            continue;
        if (!out.used) {
            out.used = numbers[n].value;
            out.usedIndex = n;
        } else {
            out.limit = numbers[n].value;
            out.limitIndex = n;
        }
    }
    return out;
}

RequestedLimit findRequestedLimit(std::string_view s, const std::vector<NumberToken> &numbers)
{
    RequestedLimit out;
    out.requestedIndex
        = numberAfterWords(s, numbers, kRequestedWordList, phrases::kRequestedSeparators).number;
    const WordNumber byWord = numberAfterWords(
        s, numbers, phrases::kLimitWords, phrases::kFigureSeparators, phrases::kLimitWordTails);
    const WordNumber mustBe = numberAfterWords(s, numbers, kMustBeWord, phrases::kFigureSeparators);
    out.limitIndex = (mustBe.wordAt < byWord.wordAt ? mustBe : byWord).number;
    if (out.requestedIndex != SIZE_MAX)
        out.requested = numbers[out.requestedIndex].value;
    if (out.limitIndex != SIZE_MAX)
        out.limit = numbers[out.limitIndex].value;
    return out;
}

UsedLimit tooLargeFigures(std::string_view s, const std::vector<NumberToken> &numbers)
{
    const RequestedLimit rl = findRequestedLimit(s, numbers);
    UsedLimit out;
    out.used = rl.requested;
    out.usedIndex = rl.requestedIndex;
    out.limit = rl.limit;
    out.limitIndex = rl.limitIndex;
    out.usedByWord = rl.requested.has_value();
    out.limitByWord = rl.limit.has_value();
    const auto candidate = [&](std::size_t n) {
        return n != out.usedIndex && n != out.limitIndex
            && numbers[n].value >= phrases::kTooLargeMinFigure;
    };
    if (!out.used && !out.limit) {
        std::size_t first = SIZE_MAX;
        for (std::size_t n = 0; n < numbers.size(); ++n) {
            if (!candidate(n))
                continue;
            if (first == SIZE_MAX) {
                first = n;
                continue;
            }
            const bool firstLarger = numbers[first].value >= numbers[n].value;
            out.usedIndex = firstLarger ? first : n;
            out.limitIndex = firstLarger ? n : first;
            out.used = numbers[out.usedIndex].value;
            out.limit = numbers[out.limitIndex].value;
            break;
        }
    } else if (!out.limit) {
        for (std::size_t n = 0; n < numbers.size(); ++n) {
            if (candidate(n) && numbers[n].value < *out.used) {
                out.limitIndex = n;
                out.limit = numbers[n].value;
                break;
            }
        }
    } else if (!out.used) {
        for (std::size_t n = 0; n < numbers.size(); ++n) {
            if (candidate(n) && numbers[n].value > *out.limit) {
                out.usedIndex = n;
                out.used = numbers[n].value;
                break;
            }
        }
    }
    return out;
}

} // namespace capwatch::retry
