#include "textscan.h"
#include "textscan_p.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <span>

// The wait patterns of section 3 and 6.1 (findWaitHint()), and the durations and date-times they
// read.

namespace capwatch::retry {

using namespace detail;

namespace {

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

/// How a unit of a pattern is matched: English (optional plural `s`, no letter after),
/// Russian (no Cyrillic letter after) or Chinese (anything after).
enum class UnitMatcher
{
    English,
    Russian,
    Chinese
};

inline std::size_t matchUnit(
    UnitMatcher m, std::string_view s, std::size_t at, std::string_view word)
{
    switch (m) {
    case UnitMatcher::English:
        return matchEnglishUnit(s, at, word);
    case UnitMatcher::Russian:
        return matchRussianUnit(s, at, word);
    case UnitMatcher::Chinese:
        return matchChineseUnit(s, at, word);
    }
    return npos;
}

struct UnitPattern
{
    int pattern;
    std::span<const RuleUnit> units;
    UnitMatcher match;
};

/// The first unit of `units` at `at`; returns the end of the unit, or npos.
std::size_t matchUnits(
    std::string_view s, std::size_t at, const UnitPattern &p, double *unitSeconds)
{
    for (const RuleUnit &unit : p.units) {
        // Most units are not here: their first byte says so without a call.
        if (at >= s.size() || unit.word.empty() || s[at] != unit.word[0])
            continue;
        const std::size_t end = matchUnit(p.match, s, at, unit.word);
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
std::size_t scanCompact(std::string_view s, std::size_t i, double *seconds, const Rules &rules)
{
    const std::vector<RuleUnit> &units = rules.set().unitList(UnitList::Compact);
    std::size_t j = i;
    double total = 0;
    int parts = 0;
    while (j < s.size() && isDigit(s[j])) {
        const std::size_t numEnd = scanDecimal(s, j);
        const double value = valueOf(s.substr(j, numEnd - j));
        std::size_t unitEnd = npos;
        for (const RuleUnit &unit : units) {
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

UnitPattern unitPattern(int pattern, const Rules &rules, UnitList list, UnitMatcher match)
{
    return UnitPattern { pattern, rules.set().unitList(list), match };
}

/// Patterns 3 to 7, then 9 and 10: plain `X unit` forms, found in one pass over the text.
constexpr std::size_t kValueUnitPatternCount = 7;
std::array<UnitPattern, kValueUnitPatternCount> valueUnitPatterns(const Rules &r)
{
    return {
        unitPattern(3, r, UnitList::Minute, UnitMatcher::English),
        unitPattern(4, r, UnitList::Second, UnitMatcher::English),
        unitPattern(5, r, UnitList::Min, UnitMatcher::English),
        unitPattern(6, r, UnitList::Sec, UnitMatcher::English),
        unitPattern(7, r, UnitList::Hour, UnitMatcher::English),
        unitPattern(9, r, UnitList::Russian, UnitMatcher::Russian),
        unitPattern(10, r, UnitList::Chinese, UnitMatcher::Chinese),
    };
}

/// Whether one of the pattern's units occurs anywhere in the text: without one it cannot match,
/// and the text is not searched for its lead words. Looking for a unit that is not there takes
/// 0.03 ms on 1 MiB; just finding the 17,000 `retry` of a 1 MiB text with one every 60 bytes
/// takes 0.11 ms, before any of them is tested.
bool mayHaveUnit(std::string_view s, const UnitPattern &p)
{
    return std::any_of(p.units.begin(), p.units.end(),
        [&](const RuleUnit &unit) { return findFrom(s, unit.word) != npos; });
}

/// Patterns 1 and 2, `retry in X minute(s)` and `retry after X second(s)`: a lead word
/// (`retry`), a second word (`in`, `after`) and X with the unit, each after white space. Both
/// are looked for in one pass over the lead words; pattern 1 wins wherever it is, so pattern 2
/// is no longer looked for once it is found. Each returns its leftmost match, the earlier lead
/// word winning a tie.
std::optional<WaitHint> findLeadPhrases(
    std::string_view s, const Rules &rules, const PhraseHits *hits)
{
    struct Lead
    {
        const std::vector<RuleText> &seconds;
        UnitPattern pattern;
        bool possible; ///< a unit of the pattern occurs in the text
        std::optional<WaitHint> best;
    };
    const RuleSet &set = rules.set();
    const UnitPattern in = unitPattern(1, rules, UnitList::RetryIn, UnitMatcher::English);
    const UnitPattern after = unitPattern(2, rules, UnitList::RetryAfter, UnitMatcher::English);
    std::array<Lead, 2> leads {
        Lead { set.wordList(WordList::RetryIn), in, mayHaveUnit(s, in), std::nullopt },
        Lead { set.wordList(WordList::RetryAfter), after, mayHaveUnit(s, after), std::nullopt },
    };
    const auto &firsts = set.wordList(WordList::Retry);
    for (std::size_t k = 0; k < firsts.size(); ++k) {
        if (!mayHave(hits, PhraseGroup::RetryWord, k))
            continue;
        const std::string_view first = firsts[k].text;
        // Whether a lead still looks at this word's occurrences: not once it matched one, nor
        // at an occurrence no earlier than its match so far (an earlier word's).
        const auto looks = [&](const Lead &lead, std::size_t at) {
            return lead.possible && (!lead.best || at < lead.best->begin);
        };
        std::array<bool, 2> matched {};
        for (std::size_t at = findFrom(s, first); at != npos; at = findFrom(s, first, at + 1)) {
            if (leads[0].best) // pattern 1 wins over pattern 2 anywhere
                leads[1].possible = false;
            if (!(looks(leads[0], at) && !matched[0]) && !(looks(leads[1], at) && !matched[1]))
                break;
            const std::size_t i = at + first.size();
            const std::size_t afterFirst = skipSpaces(s, i);
            if (afterFirst == i)
                continue;
            for (std::size_t l = 0; l < leads.size(); ++l) {
                Lead &lead = leads[l];
                if (matched[l] || !looks(lead, at))
                    continue;
                for (const RuleText &second : lead.seconds) {
                    if (!startsWith(s, afterFirst, second.text))
                        continue;
                    const std::size_t j = afterFirst + second.text.size();
                    const std::size_t valueAt = skipSpaces(s, j);
                    if (valueAt == j)
                        continue;
                    double sec = 0;
                    const std::size_t end = matchValueUnit(s, valueAt, lead.pattern, &sec);
                    if (end != npos) {
                        lead.best = WaitHint { toMillis(sec), lead.pattern.pattern, at, end };
                        matched[l] = true;
                        break;
                    }
                }
            }
        }
    }
    if (leads[0].best)
        return leads[0].best;
    return leads[1].best;
}

/// Every `X unit` pattern in one pass: each value is read once and checked against every
/// unit. A 1 MiB text is scanned once, not seven times. Returns the leftmost match of each.
std::array<std::optional<WaitHint>, kValueUnitPatternCount> findValueUnitPatterns(
    std::string_view s, const Rules &rules)
{
    const auto kValueUnitPatterns = valueUnitPatterns(rules);
    std::array<std::optional<WaitHint>, kValueUnitPatternCount> found;
    // The patterns with a unit that starts with each byte (bit p for pattern p of the list):
    // most values are followed by no unit at all, and then no pattern is tried.
    std::array<std::uint8_t, 256> patternsByFirstByte {};
    static_assert(kValueUnitPatternCount <= 8);
    for (std::size_t p = 0; p < kValueUnitPatterns.size(); ++p) {
        for (const RuleUnit &unit : kValueUnitPatterns[p].units) {
            if (!unit.word.empty())
                patternsByFirstByte[static_cast<unsigned char>(unit.word[0])] |= 1u << p;
        }
    }
    for (std::size_t i = nextDigit(s, 0); i < s.size(); i = nextDigit(s, i)) {
        if (!numberMayStartAt(s, i)) {
            ++i;
            continue;
        }
        const std::size_t numEnd = scanDecimal(s, i);
        const std::size_t unitAt = skipWaitSpace(s, numEnd);
        if (unitAt < s.size() && patternsByFirstByte[static_cast<unsigned char>(s[unitAt])] != 0) {
            // Only the patterns whose units can start with this byte: English units with an
            // ASCII letter, Russian ones with D0/D1, Chinese ones with a three-byte lead.
            const auto lead = static_cast<unsigned char>(s[unitAt]);
            const bool english = lead >= 'a' && lead <= 'z';
            const bool russian = lead == 0xD0 || lead == 0xD1;
            const bool chinese = lead >= 0xE0 && lead <= 0xEF;
            for (std::size_t p = 0; p < kValueUnitPatterns.size(); ++p) {
                const int pattern = kValueUnitPatterns[p].pattern;
                if (found[p] || !((patternsByFirstByte[lead] >> p) & 1u)
                    || (pattern == 9 && !russian) || (pattern == 10 && !chinese)
                    || (pattern < 8 && !english))
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
std::optional<WaitHint> findCompact(std::string_view s, const Rules &rules)
{
    std::optional<WaitHint> best;
    for (const RuleText &leadWord : rules.set().wordList(WordList::CompactLeads)) {
        const std::string_view lead = leadWord.text;
        for (std::size_t at = findFrom(s, lead); at != npos && (!best || at < best->begin);
             at = findFrom(s, lead, at + 1)) {
            if (wordCharBefore(s, at))
                continue;
            const std::size_t kwEnd = at + lead.size();
            const std::size_t start = skipSpaces(s, kwEnd);
            if (start == kwEnd)
                continue;
            double seconds = 0;
            const std::size_t end = scanCompact(s, start, &seconds, rules);
            if (end == npos || letterAt(s, end))
                continue;
            best = WaitHint { toMillis(seconds), 8, at, end };
            break;
        }
    }
    return best;
}

/// Pattern 11: a lead word, white space, an RFC 3339 date-time with a zone.
std::optional<WaitHint> findResetTime(
    std::string_view s, std::chrono::system_clock::time_point now, const PhraseHits *hits)
{
    std::optional<WaitHint> best;
    std::int64_t whenMs = 0;
    const auto &leads = rulesOf(hits).set().wordList(WordList::ResetAt);
    for (std::size_t k = 0; k < leads.size(); ++k) {
        if (!mayHave(hits, PhraseGroup::ResetLeads, k))
            continue;
        const std::string_view lead = leads[k].text;
        for (std::size_t at = findFrom(s, lead); at != npos && (!best || at < best->begin);
             at = findFrom(s, lead, at + 1)) {
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

} // namespace

std::optional<double> parseCompactDuration(std::string_view text, const Rules &rules)
{
    double seconds = 0;
    if (scanCompact(text, 0, &seconds, rules) != text.size())
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

std::optional<WaitHint> findWaitHint(std::string_view s,
    std::optional<std::chrono::system_clock::time_point> now, const PhraseHits *hits)
{
    const Rules &rules = rulesOf(hits);
    if (auto h = findLeadPhrases(s, rules, hits))
        return h;
    const auto valueUnits = findValueUnitPatterns(s, rules);
    for (const auto &h : valueUnits) {
        if (h && h->pattern < 8)
            return h;
    }
    if (auto h = findCompact(s, rules))
        return h;
    for (const auto &h : valueUnits) {
        if (h)
            return h; // 9, then 10
    }
    if (now)
        return findResetTime(s, *now, hits);
    return std::nullopt;
}

} // namespace capwatch::retry
