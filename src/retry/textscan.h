#pragma once

// Scanning of provider error texts (policy sections 2, 3 and 6). Hand-written, linear in the
// text length, no regular-expression engine. The words and units looked for are the tables of
// phrases.h. Every function expects text that is already lower-cased (lowerCase()); texts are
// UTF-8, and any bytes are safe.

#include "constants.h"
#include "rules.h"

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capwatch::retry {

struct NumberToken
{
    std::size_t begin = 0; ///< offset of the first digit
    std::size_t end = 0; ///< one past the last character
    double value = 0;
};

/// Every number of section 2, rule 5 (and 6.1: Cyrillic letters block a number, Chinese
/// characters do not; thousands grouped with `,`, U+00A0 or U+202F), in order of appearance.
std::vector<NumberToken> findNumbers(std::string_view text);

/// Which of the phrases of the rules occur in a text: the token-limit keywords, the phrases and
/// family words of each category, the token words of 6.5, `overloaded`, the words `requested`
/// and `given` of 6.3 rule 4, and the words the figure and wait scans look for. All of them are
/// found in one pass over the text.
struct PhraseHits
{
    std::array<std::uint64_t, kMaxPhrases / 64> bits {};
    const Rules *rules = nullptr; ///< whose phrase table the bits index; null: the built-in rules
};
PhraseHits scanPhrases(std::string_view text, const Rules &rules = Rules::builtinRules());

/// Which token-limit keywords (section 2 step 6 and 6.1) occur, in table order.
std::vector<std::string_view> keywordsIn(const PhraseHits &hits);
/// The first keyword rule that occurs (what decided a token_limit).
const RuleText *firstKeywordIn(const PhraseHits &hits);
/// The first phrase of `category` (in table order) that occurs and applies to `endpoint`.
const RuleText *phraseIn(const PhraseHits &hits, RuleCategory category, std::string_view endpoint);
/// The first family of `category` that applies at `status` and `endpoint` and whose every group
/// has a word in the text.
const RuleFamily *familyIn(
    const PhraseHits &hits, RuleCategory category, int status, std::string_view endpoint);
/// 6.5: the text speaks of tokens (`token`, `tpm`, `tpd`, `токен`, `令牌`).
bool speaksOfTokens(const PhraseHits &hits);
/// 6.6: the text says `overloaded`.
bool saysOverloaded(const PhraseHits &hits);
/// The text has a word that may introduce a requested size (6.3 rule 4).
bool mayNameRequested(const PhraseHits &hits);

/// Which token-limit keywords (section 2 step 6 and 6.1) occur as substrings, in table order.
std::vector<std::string_view> findKeywords(std::string_view text);

struct WaitHint
{
    Millis raw { 0 };
    int pattern = 0; ///< 1..11: the pattern of section 3 or 6.1 that matched
    std::size_t begin = 0; ///< span of the matched phrase
    std::size_t end = 0;
};

/// The first of the wait patterns 1 to 11 (in pattern order) that matches anywhere in the text.
/// Pattern 11 (a reset time) needs `now`; without it, it is not tried.
///
/// The functions that take `hits` (scanPhrases() of the same text) skip the words it says are
/// absent; without it they search for all of them. The result is the same.
std::optional<WaitHint> findWaitHint(std::string_view text,
    std::optional<std::chrono::system_clock::time_point> now = std::nullopt,
    const PhraseHits *hits = nullptr);

struct UsedLimit
{
    std::optional<double> used;
    std::optional<double> limit;
    bool usedByWord = false; ///< `used` came after a used word or the slash form
    bool limitByWord = false;
    std::size_t usedIndex = SIZE_MAX; ///< index into the numbers, SIZE_MAX when unknown
    std::size_t limitIndex = SIZE_MAX;
};

/// `used` and `limit` after their words only (6.1): the slash form `actual/limit: N/M` first,
/// then the first number directly after a used word and after a limit word.
UsedLimit usedLimitByWords(std::string_view text, const std::vector<NumberToken> &numbers,
    const PhraseHits *hits = nullptr);

/// `used` and `limit` of section 2: after their words, then whichever is unknown from the
/// remaining numbers in order. Numbers inside `skipBegin..skipEnd` (the wait phrase) are not
/// used to fill in unknown figures.
UsedLimit extractUsedLimit(std::string_view text, const std::vector<NumberToken> &numbers,
    std::size_t skipBegin = 0, std::size_t skipEnd = 0, const PhraseHits *hits = nullptr);

/// 6.3 rule 4 and its figures: `requested` after `requested`/`given`, `limit` after a limit
/// word or `must be <=`.
struct RequestedLimit
{
    std::optional<double> requested;
    std::optional<double> limit;
    std::size_t requestedIndex = SIZE_MAX; ///< index into the numbers
    std::size_t limitIndex = SIZE_MAX;
};
RequestedLimit findRequestedLimit(std::string_view text, const std::vector<NumberToken> &numbers,
    const PhraseHits *hits = nullptr);

/// 6.3: the figures of a too_large text: requested and limit after their words, the rest from
/// the numbers of at least 100.
/// Revision 3: numbers inside an identifier, after an excess word (`by`) or equal to `status`
/// (the response's own status, echoed as `<400>`) are no figures either.
UsedLimit tooLargeFigures(std::string_view text, const std::vector<NumberToken> &numbers,
    const PhraseHits *hits = nullptr, int status = 0);

/// 6.5: the text speaks of tokens (`token`, `tpm`, `tpd`, `токен`, `令牌`).
bool speaksOfTokens(std::string_view text);

/// ASCII lower-casing; other bytes are left as they are.
std::string asciiLower(std::string_view text);

/// Section 2, step 4: lower-cases ASCII letters and the Cyrillic `А`-`Я` and `Ё` (UTF-8); every
/// other byte is left as it is, so offsets into the result are offsets into the input.
std::string lowerCase(std::string_view text);
/// lowerCase() in place.
void lowerInPlace(std::string &text);

/// `\d+(\.\d+)?` in full, as a non-negative value; nullopt for anything else.
std::optional<double> parseDecimal(std::string_view text);

/// A compact duration in full (`21s`, `0.5s`, `1m30s`, `644ms`, `2h`, `6m0s`), in seconds;
/// nullopt for anything else. Lower-case units only.
std::optional<double> parseCompactDuration(
    std::string_view text, const Rules &rules = Rules::builtinRules());

/// An RFC 3339 date-time with `Z` or an offset at the start of `text` (lower-cased: `t`/`z`
/// accepted, a space for the `T` too). Returns the instant and the length matched.
struct DateTimeMatch
{
    std::int64_t epochMillis = 0; ///< milliseconds since 1970 (years 0000..9999 fit)
    std::size_t length = 0;
};
std::optional<DateTimeMatch> parseRfc3339(std::string_view text);

} // namespace capwatch::retry
