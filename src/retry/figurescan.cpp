#include "textscan.h"
#include "textscan_p.h"

#include <algorithm>
#include <array>
#include <span>

// The figures of a text: `used` and `limit` (section 2 and 6.1), `requested` and `limit` of a
// too_large text (6.3).

namespace capwatch::retry {

using namespace detail;

namespace {

// --- used / limit -----------------------------------------------------------------------------

/// Skips any run of the separators.
std::size_t skipSeparators(std::string_view s, std::size_t i, const std::vector<RuleText> &seps)
{
    for (bool more = true; more;) {
        more = false;
        for (const RuleText &sep : seps) {
            if (startsWith(s, i, sep.text)) {
                i += sep.text.size();
                more = true;
            }
        }
    }
    return i;
}

/// The index of the number token that starts exactly at i, or SIZE_MAX. `cursor` (an index into
/// the numbers, 0 at first) keeps its place between the calls of one search, which asks at
/// growing offsets: the next number is then a step or two on. A binary search of the whole list
/// per call was 45% of numberAfterWords() on a text with a number after every `limit`
/// (17,000 of them in 1 MiB). A call far ahead or behind the cursor still searches.
std::size_t numberStartingAt(
    std::string_view s, const std::vector<NumberToken> &numbers, std::size_t i, std::size_t &cursor)
{
    // Most words are followed by no digit at all: no search then.
    if (i >= s.size() || !isDigit(s[i]))
        return SIZE_MAX;
    const auto before = [](const NumberToken &t, std::size_t at) { return t.begin < at; };
    if (cursor > numbers.size() || (cursor > 0 && numbers[cursor - 1].begin >= i))
        cursor = 0; // behind: search from the start
    for (int step = 0; cursor < numbers.size() && numbers[cursor].begin < i; ++step, ++cursor) {
        if (step == 8) {
            cursor = static_cast<std::size_t>(
                std::lower_bound(numbers.begin() + std::ptrdiff_t(cursor), numbers.end(), i, before)
                - numbers.begin());
            break;
        }
    }
    if (cursor == numbers.size() || numbers[cursor].begin != i)
        return SIZE_MAX;
    return cursor;
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
    const std::vector<RuleText> &words, const std::vector<RuleText> &seps,
    const std::vector<RuleText> &tails, const PhraseHits *hits, PhraseGroup group)
{
    WordNumber best;
    for (std::size_t k = 0; k < words.size(); ++k) {
        if (!mayHave(hits, group, k))
            continue;
        const RuleText &w = words[k];
        std::size_t cursor = 0;
        for (std::size_t at = findFrom(s, w.text); at != npos && at < best.wordAt;
             at = findFrom(s, w.text, at + 1)) {
            if (!wordAt(s, at, w.text.size(), w.boundary))
                continue;
            std::size_t i = at + w.text.size();
            for (const RuleText &tailWord : tails) {
                const std::string_view tail = tailWord.text;
                if (startsWith(s, i, tail) && !wordCharAt(s, i + tail.size())) {
                    i += tail.size();
                    break;
                }
            }
            const std::size_t n = numberStartingAt(s, numbers, skipSeparators(s, i, seps), cursor);
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
    std::string_view s, const std::vector<NumberToken> &numbers, const PhraseHits *hits)
{
    std::optional<std::pair<std::size_t, std::size_t>> best;
    std::size_t bestAt = npos;
    const RuleSet &set = rulesOf(hits).set();
    const auto &slashWords = set.wordList(WordList::Slash);
    for (std::size_t k = 0; k < slashWords.size(); ++k) {
        if (!mayHave(hits, PhraseGroup::SlashWords, k))
            continue;
        const std::string_view w = slashWords[k].text;
        std::size_t cursor = 0;
        for (std::size_t at = findFrom(s, w); at != npos && at < bestAt;
             at = findFrom(s, w, at + 1)) {
            if (!wordAt(s, at, w.size(), Boundary::Word))
                continue;
            const std::size_t n = numberStartingAt(s, numbers,
                skipSeparators(s, at + w.size(), set.wordList(WordList::SlashSeparators)), cursor);
            if (n == SIZE_MAX || !startsWith(s, numbers[n].end, "/"))
                continue;
            const std::size_t m = numberStartingAt(s, numbers, numbers[n].end + 1, cursor);
            if (m == SIZE_MAX)
                continue;
            best = { n, m };
            bestAt = at;
            break;
        }
    }
    return best;
}

} // namespace

UsedLimit usedLimitByWords(
    std::string_view s, const std::vector<NumberToken> &numbers, const PhraseHits *hits)
{
    UsedLimit out;
    const RuleSet &set = rulesOf(hits).set();
    if (const auto slash = slashForm(s, numbers, hits)) {
        out.usedIndex = slash->first;
        out.limitIndex = slash->second;
    } else {
        const auto &separators = set.wordList(WordList::FigureSeparators);
        out.usedIndex = numberAfterWords(
            s, numbers, set.wordList(WordList::Used), separators, {}, hits, PhraseGroup::UsedWords)
                            .number;
        out.limitIndex = numberAfterWords(s, numbers, set.wordList(WordList::Limit), separators,
            set.wordList(WordList::LimitTails), hits, PhraseGroup::LimitWords)
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
    std::size_t skipBegin, std::size_t skipEnd, const PhraseHits *hits)
{
    UsedLimit out = usedLimitByWords(s, numbers, hits);
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

RequestedLimit findRequestedLimit(
    std::string_view s, const std::vector<NumberToken> &numbers, const PhraseHits *hits)
{
    RequestedLimit out;
    const RuleSet &set = rulesOf(hits).set();
    const auto &separators = set.wordList(WordList::FigureSeparators);
    out.requestedIndex = numberAfterWords(s, numbers, set.wordList(WordList::Requested),
        set.wordList(WordList::RequestedSeparators), {}, hits, PhraseGroup::Requested)
                             .number;
    const WordNumber byWord = numberAfterWords(s, numbers, set.wordList(WordList::Limit),
        separators, set.wordList(WordList::LimitTails), hits, PhraseGroup::LimitWords);
    const WordNumber mustBe = numberAfterWords(
        s, numbers, set.wordList(WordList::AtMost), separators, {}, hits, PhraseGroup::AtMost);
    out.limitIndex = (mustBe.wordAt < byWord.wordAt ? mustBe : byWord).number;
    if (out.requestedIndex != SIZE_MAX)
        out.requested = numbers[out.requestedIndex].value;
    if (out.limitIndex != SIZE_MAX)
        out.limit = numbers[out.limitIndex].value;
    return out;
}

UsedLimit tooLargeFigures(
    std::string_view s, const std::vector<NumberToken> &numbers, const PhraseHits *hits, int status)
{
    const RequestedLimit rl = findRequestedLimit(s, numbers, hits);
    UsedLimit out;
    out.used = rl.requested;
    out.usedIndex = rl.requestedIndex;
    out.limit = rl.limit;
    out.limitIndex = rl.limitIndex;
    out.usedByWord = rl.requested.has_value();
    out.limitByWord = rl.limit.has_value();
    const RuleSet &set = rulesOf(hits).set();
    const double minFigure = set.tooLargeMinFigure;
    // Revision 3: not a figure either, a number inside an identifier (`fea0-4639`) or right
    // after an excess word (`exceeded by 19296 tokens`).
    const auto inIdentifier = [&](std::size_t begin) {
        return begin >= 2 && s[begin - 1] == '-' && isAsciiWordChar(s[begin - 2]);
    };
    const auto afterExcessWord = [&](std::size_t begin) {
        std::size_t i = begin;
        while (i > 0 && isSpace(s[i - 1]))
            --i;
        if (i == begin)
            return false;
        for (const RuleText &w : set.wordList(WordList::Excess)) {
            const std::size_t len = w.text.size();
            if (i >= len && s.compare(i - len, len, w.text) == 0 && !wordCharBefore(s, i - len))
                return true;
        }
        return false;
    };
    const auto candidate = [&](std::size_t n) {
        return n != out.usedIndex && n != out.limitIndex && numbers[n].value >= minFigure
            && numbers[n].value != status && !inIdentifier(numbers[n].begin)
            && !afterExcessWord(numbers[n].begin);
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
