#include "textscan.h"

#include "phrases.h"
#include "textscan_p.h"

#include <array>
#include <tuple>
#include <type_traits>

// Lower-casing, numbers and the fixed phrases. The wait patterns are in waitscan.cpp, the figures
// (used, limit, requested) in figurescan.cpp.

namespace capwatch::retry {

using namespace detail;

const PhraseTable &detail::phraseTable()
{
    static const PhraseTable table = [] {
        PhraseTable t;
        const auto words = [](const auto &list) {
            std::array<std::string_view, std::tuple_size_v<std::decay_t<decltype(list)>>> out {};
            for (std::size_t i = 0; i < out.size(); ++i)
                out[i] = list[i].text;
            return out;
        };
        const auto add = [&t](PhraseGroup g, const auto &list) {
            t.groupBegin[std::size_t(g)] = t.phrases.size();
            for (const std::string_view p : list)
                t.phrases.push_back(p);
        };
        add(PhraseGroup::Keywords, phrases::kTokenLimitKeywords);
        add(PhraseGroup::TooLarge, phrases::kTooLargePhrases);
        add(PhraseGroup::Billing, phrases::kBillingPhrases);
        add(PhraseGroup::TokenWords, phrases::kTokenWords);
        add(PhraseGroup::Overloaded, std::array { phrases::kOverloadedWord });
        add(PhraseGroup::Requested, phrases::kRequestedWords);
        add(PhraseGroup::UsedWords, words(phrases::kUsedWords));
        add(PhraseGroup::LimitWords, words(phrases::kLimitWords));
        add(PhraseGroup::SlashWords, phrases::kSlashWords);
        add(PhraseGroup::ResetLeads, phrases::kResetAtWords);
        add(PhraseGroup::RetryWord, std::array { phrases::kRetryWord });
        add(PhraseGroup::MustBe, std::array { phrases::kMustBeAtMost });
        for (std::size_t i = 0; i < t.phrases.size(); ++i) {
            const std::string_view p = t.phrases[i];
            const unsigned key = (unsigned(static_cast<unsigned char>(p[0])) << 8)
                | static_cast<unsigned char>(p[1]);
            if (t.bucketOf[key] == 0) {
                t.buckets.emplace_back();
                t.bucketOf[key] = static_cast<std::uint8_t>(t.buckets.size());
            }
            t.buckets[t.bucketOf[key] - 1].push_back(static_cast<std::uint8_t>(i));
        }
        return t;
    }();
    return table;
}

// One bit per phrase.
static_assert(phrases::kTokenLimitKeywords.size() + phrases::kTooLargePhrases.size()
        + phrases::kBillingPhrases.size() + phrases::kTokenWords.size() + 1
        + phrases::kRequestedWords.size() + phrases::kUsedWords.size() + phrases::kLimitWords.size()
        + phrases::kSlashWords.size() + phrases::kResetAtWords.size() + 2
    <= 128);

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

void lowerInPlace(std::string &out)
{
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

PhraseHits scanPhrases(std::string_view text)
{
    const PhraseTable &t = phraseTable();
    PhraseHits out;
    const std::size_t n = text.size();
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const unsigned key = (unsigned(static_cast<unsigned char>(text[i])) << 8)
            | static_cast<unsigned char>(text[i + 1]);
        const std::uint8_t bucket = t.bucketOf[key];
        if (bucket == 0)
            continue;
        for (const std::uint8_t index : t.buckets[bucket - 1]) {
            std::uint64_t &word = out.bits[index / 64];
            const std::uint64_t bit = std::uint64_t(1) << (index % 64);
            if (!(word & bit) && startsWith(text, i, t.phrases[index]))
                word |= bit;
        }
    }
    return out;
}

std::vector<std::string_view> keywordsIn(const PhraseHits &hits)
{
    std::vector<std::string_view> out;
    for (std::size_t k = 0; k < phrases::kTokenLimitKeywords.size(); ++k) {
        if (hit(hits, PhraseGroup::Keywords, k))
            out.push_back(phrases::kTokenLimitKeywords[k]);
    }
    return out;
}

std::optional<std::string_view> tooLargePhraseIn(const PhraseHits &hits)
{
    for (std::size_t k = 0; k < phrases::kTooLargePhrases.size(); ++k) {
        if (hit(hits, PhraseGroup::TooLarge, k))
            return phrases::kTooLargePhrases[k];
    }
    return std::nullopt;
}

std::optional<std::string_view> billingPhraseIn(const PhraseHits &hits)
{
    for (std::size_t k = 0; k < phrases::kBillingPhrases.size(); ++k) {
        if (hit(hits, PhraseGroup::Billing, k))
            return phrases::kBillingPhrases[k];
    }
    return std::nullopt;
}

bool speaksOfTokens(const PhraseHits &hits)
{
    for (std::size_t k = 0; k < phrases::kTokenWords.size(); ++k) {
        if (hit(hits, PhraseGroup::TokenWords, k))
            return true;
    }
    return false;
}

bool saysOverloaded(const PhraseHits &hits)
{
    return hit(hits, PhraseGroup::Overloaded, 0);
}

bool mayNameRequested(const PhraseHits &hits)
{
    for (std::size_t k = 0; k < phrases::kRequestedWords.size(); ++k) {
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
