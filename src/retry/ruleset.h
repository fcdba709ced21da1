#pragma once

// The classifier's words as data (docs/rules.md): what one rules file holds, the built-in
// resources/rules/builtin.json or a user's rules.d/*.json, once read. Texts are lower-cased
// (lowerCase()) when read, so every entry here is lower case.

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace capwatch::retry {

/// Whether a word must stand alone (not inside a longer word) where it is looked for. Chinese has
/// no spaces between words, so its entries are found anywhere.
enum class Boundary
{
    Word,
    None
};

/// The categories a rules file speaks of, in the order the classifier decides them.
enum class RuleCategory
{
    TooLarge,
    Billing,
    Auth,
    TokenLimit,
    RateLimit,
    Transient,
};
inline constexpr std::size_t kRuleCategoryCount = 6;

/// The lists of words of a rules file (`words.<name>`), in the order of kWordListNames.
enum class WordList
{
    Used,
    Limit,
    LimitTails,
    FigureSeparators,
    Slash,
    SlashSeparators,
    Token,
    Requested,
    RequestedSeparators,
    AtMost,
    Context,
    RateWindow,
    Overloaded,
    Retry,
    RetryIn,
    RetryAfter,
    CompactLeads,
    ResetAt,
    Excess, ///< a number right after these is an amount over a limit, not a figure (`by`)
    UsedMembers, ///< integer members of `error` that hold a too_large request's size
    LimitMembers, ///< ... and the window's
};
inline constexpr std::size_t kWordListCount = 21;

/// The lists of wait units (`units.<name>`): the unit patterns of sections 3 and 6.1.
enum class UnitList
{
    RetryIn, ///< pattern 1, after `retry in`
    RetryAfter, ///< pattern 2, after `retry after`
    Minute, ///< pattern 3
    Second, ///< pattern 4
    Min, ///< pattern 5
    Sec, ///< pattern 6
    Hour, ///< pattern 7
    Compact, ///< pattern 8 and compact durations (`1m30s`); longer units first
    Russian, ///< pattern 9
    Chinese, ///< pattern 10
};
inline constexpr std::size_t kUnitListCount = 10;

/// One word, phrase or code. `origin` names it as `explain` prints the deciding rule:
/// `builtin:too_large.phrase "prompt is too long"` or `rules.d/acme.json:7`.
struct RuleText
{
    std::string text;
    Boundary boundary = Boundary::Word;
    std::string endpoint; ///< only responses of this endpoint (a URL prefix); empty: all
    std::string origin;
};

struct RuleUnit
{
    std::string word;
    double seconds = 0;
    std::string origin;
};

struct RuleStatus
{
    int status = 0;
    std::string origin;
};

/// A family of phrasings: a text matches when it holds, as whole words, one word of every group
/// (an input word, a size word, a maximum word...).
struct RuleFamily
{
    std::string name;
    std::vector<std::vector<std::string>> groups;
    std::vector<int> statuses; ///< only at these statuses; empty: 400 to 599
    std::vector<int> notStatuses; ///< never at these
    std::string endpoint;
    std::string origin;
};

struct CategoryRules
{
    std::vector<RuleStatus> statuses; ///< built-in only
    std::vector<RuleText> codes;
    std::vector<RuleText> phrases;
    std::vector<RuleFamily> families;
    std::vector<RuleText> keywords; ///< token_limit: section 2, step 6
};

/// The whole of one rules file.
struct RuleSet
{
    std::array<CategoryRules, kRuleCategoryCount> categories;
    std::array<std::vector<RuleText>, kWordListCount> words;
    std::array<std::vector<RuleUnit>, kUnitListCount> units;

    // Built-in only.
    std::string retryAfterHeader;
    std::string retryAfterMsHeader;
    std::vector<std::string> rateLimitResetHeaders;
    std::string contentTypeHeader;
    std::string eventStreamType;
    double tooLargeMinFigure = 0;
    int embeddedOverloadedStatus = 0;
    int embeddedDefaultStatus = 0;

    CategoryRules &category(RuleCategory c) { return categories[std::size_t(c)]; }
    const CategoryRules &category(RuleCategory c) const { return categories[std::size_t(c)]; }
    std::vector<RuleText> &wordList(WordList w) { return words[std::size_t(w)]; }
    const std::vector<RuleText> &wordList(WordList w) const { return words[std::size_t(w)]; }
    std::vector<RuleUnit> &unitList(UnitList u) { return units[std::size_t(u)]; }
    const std::vector<RuleUnit> &unitList(UnitList u) const { return units[std::size_t(u)]; }
};

/// The names a rules file uses: `too_large`, `used`, `russian`...
const char *nameOf(RuleCategory category);
const char *nameOf(WordList list);
const char *nameOf(UnitList list);

} // namespace capwatch::retry
