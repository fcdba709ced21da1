#include "textscan.h"

#include "textscan_p.h"

#include <algorithm>
#include <array>

// Lower-casing, numbers and the fixed phrases. The wait patterns are in waitscan.cpp, the figures
// (used, limit, requested) in figurescan.cpp.

namespace capwatch::retry {

using namespace detail;

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
    lowerInPlace(out);
    return out;
}

namespace {

/// Whether the 16 bytes at i hold nothing lowerInPlace() changes (no `A`-`Z`, and no 0xD0, the
/// lead byte of `А`-`Я` and `Ё`). False without SSE2, and for fewer than 16 bytes.
bool nothingToLower(std::string_view s, std::size_t i)
{
#if defined(__SSE2__)
    if (i + 16 > s.size())
        return false;
    const __m128i v = load16(s.data() + i);
    const __m128i upper = _mm_and_si128(
        _mm_cmpgt_epi8(v, _mm_set1_epi8('A' - 1)), _mm_cmplt_epi8(v, _mm_set1_epi8('Z' + 1)));
    const __m128i cyrillicLead = _mm_cmpeq_epi8(v, _mm_set1_epi8(static_cast<char>(0xD0)));
    return maskOf(_mm_or_si128(upper, cyrillicLead)) == 0;
#else
    (void)s;
    (void)i;
    return false;
#endif
}

} // namespace

void lowerInPlace(std::string &out)
{
    std::size_t i = 0;
    while (i < out.size()) {
        // 16 bytes with nothing to change are passed over at once (most of an English text);
        // the others byte by byte (a Russian text has a 0xD0 in almost every 16 bytes).
        if (nothingToLower(out, i)) {
            i += 16;
            continue;
        }
        for (const std::size_t stop = std::min(out.size(), i + 16); i < stop; ++i) {
            const auto c = static_cast<unsigned char>(out[i]);
            if (c >= 'A' && c <= 'Z') {
                out[i] = static_cast<char>(c - 'A' + 'a');
            } else if (c == 0xD0 && i + 1 < out.size()) {
                // U+0410..U+042F (D0 90..D0 AF) become U+0430..U+044F; U+0401 Ё becomes
                // U+0451 ё. Both stay two bytes long.
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
    }
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
    static constexpr std::array<std::string_view, 3> kGroupSeparators { ",", "\xC2\xA0",
        "\xE2\x80\xAF" };
    std::vector<NumberToken> out;
    // Room for the most numbers a text can hold (one digit and one separator each), reserved
    // untouched: a text dense with numbers then never copies the list as it grows.
    if (s.size() > 4096)
        out.reserve(s.size() / 2 + 1);
    for (std::size_t i = nextDigit(s, 0); i < s.size(); i = nextDigit(s, i)) {
        if (!numberMayStartAt(s, i)) {
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

PhraseHits scanPhrases(std::string_view text, const Rules &rules)
{
    const PhraseTable &t = rules.table();
    PhraseHits out;
    out.rules = &rules;
    const std::size_t n = text.size();
    const char *const data = text.data();
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const unsigned key = (unsigned(static_cast<unsigned char>(data[i])) << 8)
            | static_cast<unsigned char>(data[i + 1]);
        const std::uint16_t bucket = t.bucketOf[key];
        if (bucket == 0)
            continue;
        const PhraseProbe *probe = t.probes.data() + t.bucketBegin[bucket - 1u];
        const PhraseProbe *const end = t.probes.data() + t.bucketBegin[bucket];
        for (; probe != end; ++probe) {
            const std::uint16_t first = probe->firstBit;
            if ((out.bits[first / 64] >> (first % 64)) & 1u)
                continue; // found before: its bits are all set
            const std::string_view phrase = probe->text;
            // The first two bytes are the bucket's.
            if (phrase.size() > n - i)
                continue;
            std::size_t k = 2;
            while (k < phrase.size() && data[i + k] == phrase[k])
                ++k;
            if (k != phrase.size())
                continue;
            // A family word stands alone: `max` is not in `max_tokens`, `request` not in
            // `requested`.
            if (probe->wholeWord
                && (wordCharBefore(text, i) || wordCharAt(text, i + phrase.size())))
                continue;
            for (const std::uint16_t bit : probe->bits)
                out.bits[bit / 64] |= std::uint64_t(1) << (bit % 64);
        }
    }
    return out;
}

std::vector<std::string_view> keywordsIn(const PhraseHits &hits)
{
    std::vector<std::string_view> out;
    const auto &keywords = rulesOf(&hits).set().category(RuleCategory::TokenLimit).keywords;
    for (std::size_t k = 0; k < keywords.size(); ++k) {
        if (hit(hits, PhraseGroup::Keywords, k))
            out.push_back(keywords[k].text);
    }
    return out;
}

const RuleText *firstKeywordIn(const PhraseHits &hits)
{
    const auto &keywords = rulesOf(&hits).set().category(RuleCategory::TokenLimit).keywords;
    for (std::size_t k = 0; k < keywords.size(); ++k) {
        if (hit(hits, PhraseGroup::Keywords, k))
            return &keywords[k];
    }
    return nullptr;
}

const RuleText *phraseIn(const PhraseHits &hits, RuleCategory category, std::string_view endpoint)
{
    const auto &list = rulesOf(&hits).set().category(category).phrases;
    const PhraseGroup group = phraseGroupOf(category);
    for (std::size_t k = 0; k < list.size(); ++k) {
        if (hit(hits, group, k) && endpointMatches(list[k].endpoint, endpoint))
            return &list[k];
    }
    return nullptr;
}

const RuleFamily *familyIn(
    const PhraseHits &hits, RuleCategory category, int status, std::string_view endpoint)
{
    const Rules &rules = rulesOf(&hits);
    const auto &families = rules.set().category(category).families;
    const auto has = [](const std::vector<int> &list, int s) {
        return std::find(list.begin(), list.end(), s) != list.end();
    };
    for (std::size_t f = 0; f < families.size(); ++f) {
        const RuleFamily &family = families[f];
        if (family.statuses.empty() ? (status < 400 || status > 599)
                                    : !has(family.statuses, status))
            continue;
        if (has(family.notStatuses, status) || !endpointMatches(family.endpoint, endpoint))
            continue;
        const auto &groups = rules.familyWords(category, f);
        const bool all = std::all_of(groups.begin(), groups.end(), [&](const auto &words) {
            return std::any_of(words.begin(), words.end(),
                [&](std::uint16_t index) { return hitIndex(hits, index); });
        });
        if (all)
            return &family;
    }
    return nullptr;
}

bool speaksOfTokens(const PhraseHits &hits)
{
    const std::size_t n = rulesOf(&hits).set().wordList(WordList::Token).size();
    for (std::size_t k = 0; k < n; ++k) {
        if (hit(hits, PhraseGroup::TokenWords, k))
            return true;
    }
    return false;
}

bool saysOverloaded(const PhraseHits &hits)
{
    const std::size_t n = rulesOf(&hits).set().wordList(WordList::Overloaded).size();
    for (std::size_t k = 0; k < n; ++k) {
        if (hit(hits, PhraseGroup::Overloaded, k))
            return true;
    }
    return false;
}

bool mayNameRequested(const PhraseHits &hits)
{
    const std::size_t n = rulesOf(&hits).set().wordList(WordList::Requested).size();
    for (std::size_t k = 0; k < n; ++k) {
        if (hit(hits, PhraseGroup::Requested, k))
            return true;
    }
    return false;
}

std::vector<std::string_view> findKeywords(std::string_view text)
{
    return keywordsIn(scanPhrases(text));
}

bool speaksOfTokens(std::string_view text)
{
    return speaksOfTokens(scanPhrases(text));
}

} // namespace capwatch::retry
