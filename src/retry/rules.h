#pragma once

// The rules in force (docs/rules.md): the built-in ones of resources/rules/builtin.json, plus
// what the user's rules files add, with the one-pass phrase table the scanners use. Immutable
// once made, shared by every classification that runs under it.

#include "ruleset.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace capwatch::retry {

/// The groups of the phrase table: what scanPhrases() finds in one pass.
enum class PhraseGroup
{
    Keywords, ///< token_limit keywords
    TooLarge, ///< the phrases of each category, in RuleCategory order
    Billing,
    Auth,
    TokenLimit, ///< (token_limit has keywords, no phrases)
    RateLimit,
    Transient,
    TokenWords,
    Overloaded,
    Requested,
    // Only to skip searches for words a text does not have:
    UsedWords,
    LimitWords,
    SlashWords,
    ResetLeads,
    RetryWord,
    AtMost,
    FamilyWords, ///< every word of every family, matched as a whole word
    Count
};

inline PhraseGroup phraseGroupOf(RuleCategory category)
{
    return PhraseGroup(std::size_t(PhraseGroup::TooLarge) + std::size_t(category));
}

/// At most this many phrases, words and keywords are looked for (one bit each per text).
inline constexpr std::size_t kMaxPhrases = 1024;

/// One text the one-pass scan looks for; every table entry with this text (and boundary) gets
/// its bit when it is found (`token` is a keyword, a token word and a family word).
struct PhraseProbe
{
    std::string_view text;
    std::uint16_t firstBit = 0; ///< bits.front(), kept here: the scan's first look
    bool wholeWord = false; ///< found only where it stands alone (family words)
    std::vector<std::uint16_t> bits;
};

/// Every phrase by its first two bytes, so that a text is scanned once for all of them.
struct PhraseTable
{
    std::vector<std::string_view> phrases; ///< by bit
    std::array<std::size_t, std::size_t(PhraseGroup::Count) + 1> groupBegin {};
    /// The probes of each first-two-bytes key: `probes[bucketBegin[k] .. bucketBegin[k + 1])`
    /// where k = bucketOf[key] - 1; bucketOf is 0 for a key no phrase starts with.
    std::vector<std::uint16_t> bucketOf;
    std::vector<std::uint32_t> bucketBegin;
    std::vector<PhraseProbe> probes;
};

class Rules final
{
public:
    /// `set` must be a complete set (the built-in one, perhaps with additions).
    explicit Rules(RuleSet set);
    Rules(const Rules &) = delete;
    Rules &operator=(const Rules &) = delete;

    /// The built-in rules, read once from the text compiled in (checked when capwatch is built).
    static std::shared_ptr<const Rules> builtin();
    /// The same, for the scanners' default arguments (it lives as long as the program).
    static const Rules &builtinRules();
    /// The built-in rules plus `additions` (user files, already read), in order.
    static std::shared_ptr<const Rules> withAdditions(
        const std::vector<const RuleSet *> &additions);
    /// How many phrase-table entries a set adds (kMaxPhrases bounds the total).
    static std::size_t phraseCount(const RuleSet &set);

    /// The rules classify() uses when it is not given any: the built-in ones until a program
    /// installs others (both programs do, once, at start; see app/common/userrules.h).
    static std::shared_ptr<const Rules> active();
    static void install(std::shared_ptr<const Rules> rules);

    const RuleSet &set() const { return m_set; }
    const PhraseTable &table() const { return m_table; }
    /// The phrase-table indices of the words of each group of family `f` of `category`.
    const std::vector<std::vector<std::uint16_t>> &familyWords(
        RuleCategory category, std::size_t f) const
    {
        return m_familyWords[std::size_t(category)][f];
    }

private:
    void buildTable();

    RuleSet m_set;
    PhraseTable m_table;
    std::array<std::vector<std::vector<std::vector<std::uint16_t>>>, kRuleCategoryCount>
        m_familyWords;
};

/// The text of resources/rules/builtin.json (generated at build time).
std::string_view builtinRulesJson();

/// Whether a rule scoped to `ruleEndpoint` (lower case, no trailing slash) applies to a response
/// of `endpoint`: an empty scope applies everywhere; else the endpoint must start with it.
bool endpointMatches(std::string_view ruleEndpoint, std::string_view endpoint);

} // namespace capwatch::retry
