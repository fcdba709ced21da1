#pragma once

// Internal to capwatch_retry (not for other layers): the byte-level helpers and the phrase table
// that textscan.cpp, waitscan.cpp and figurescan.cpp share. The helpers are inline here, so
// that the scanner being spread over three files adds no call on its hot paths.

#include "rules.h"
#include "textscan.h"

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h> // every x86-64 has SSE2; elsewhere the scalar loops below run
#endif

namespace capwatch::retry::detail {

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
inline bool cyrillicAt(std::string_view s, std::size_t i)
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
inline bool cyrillicBefore(std::string_view s, std::size_t i)
{
    return i >= 2 && cyrillicAt(s, i - 2);
}

/// Letters are ASCII and Cyrillic (6.1); Chinese characters are not letters here.
inline bool letterAt(std::string_view s, std::size_t i)
{
    return i < s.size() && (isAsciiLetter(s[i]) || cyrillicAt(s, i));
}
inline bool wordCharAt(std::string_view s, std::size_t i)
{
    return i < s.size() && (isAsciiWordChar(s[i]) || cyrillicAt(s, i));
}
inline bool wordCharBefore(std::string_view s, std::size_t i)
{
    return i > 0 && (isAsciiWordChar(s[i - 1]) || cyrillicBefore(s, i));
}

/// Numbers and wait values may not stand right after a letter, digit, underscore or dot.
inline bool numberMayStartAt(std::string_view s, std::size_t i)
{
    return !wordCharBefore(s, i) && !(i > 0 && s[i - 1] == '.');
}

/// `what` at `at`; the first byte is compared before anything else (most calls end there).
inline bool startsWith(std::string_view s, std::size_t at, std::string_view what)
{
    if (what.empty())
        return at <= s.size();
    if (at >= s.size() || s[at] != what[0] || s.size() - at < what.size())
        return false;
    for (std::size_t k = 1; k < what.size(); ++k) {
        if (s[at + k] != what[k])
            return false;
    }
    return true;
}

#if defined(__SSE2__)
/// The 16 bytes at `p`.
inline __m128i load16(const char *p)
{
    return _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
}
/// Bit k set where byte k of a compare's result is set.
inline unsigned maskOf(__m128i bytes)
{
    return static_cast<unsigned>(_mm_movemask_epi8(bytes));
}
#endif

/// The next occurrence of `what` from `from`. With SSE2 the places where the first and the last
/// byte of `what` both match are found 16 at a time, and only those are compared in full: a
/// first byte as common as the `r` of `retry` or the `i` of `in` then costs nothing per
/// occurrence (memchr for it made one call per `r`: 10% of classifying a 1 MiB stream).
/// The rest of the text, and everything without SSE2: memchr for the first byte.
inline std::size_t findFrom(std::string_view s, std::string_view what, std::size_t from = 0)
{
    if (what.empty() || what.size() > s.size())
        return npos;
    const std::size_t last = s.size() - what.size();
#if defined(__SSE2__)
    if (what.size() >= 2) {
        const std::size_t tail = what.size() - 1;
        const __m128i first = _mm_set1_epi8(what.front());
        const __m128i lastByte = _mm_set1_epi8(what.back());
        // Both loads stay inside the text: from + tail + 16 <= s.size().
        for (; from <= last && last - from >= 15; from += 16) {
            const char *p = s.data() + from;
            unsigned candidates = maskOf(_mm_and_si128(
                _mm_cmpeq_epi8(load16(p), first), _mm_cmpeq_epi8(load16(p + tail), lastByte)));
            for (; candidates != 0; candidates &= candidates - 1) {
                const std::size_t at = from + std::size_t(std::countr_zero(candidates));
                if (startsWith(s, at, what))
                    return at;
            }
        }
    }
#endif
    while (from <= last) {
        const void *hit = std::memchr(s.data() + from, what[0], last - from + 1);
        if (!hit)
            return npos;
        const auto at = static_cast<std::size_t>(static_cast<const char *>(hit) - s.data());
        if (startsWith(s, at, what))
            return at;
        from = at + 1;
    }
    return npos;
}

/// The first ASCII digit at or after i, or s.size(). Most of a text is no digit: 16 bytes are
/// tested at once with SSE2.
inline std::size_t nextDigit(std::string_view s, std::size_t i)
{
#if defined(__SSE2__)
    // Signed compares: bytes from 0x80 up are negative, below '0'.
    const __m128i belowZero = _mm_set1_epi8('0' - 1);
    const __m128i aboveNine = _mm_set1_epi8('9' + 1);
    for (; i + 16 <= s.size(); i += 16) {
        const __m128i v = load16(s.data() + i);
        const unsigned digits
            = maskOf(_mm_and_si128(_mm_cmpgt_epi8(v, belowZero), _mm_cmplt_epi8(v, aboveNine)));
        if (digits != 0)
            return i + std::size_t(std::countr_zero(digits));
    }
#endif
    while (i < s.size() && !isDigit(s[i]))
        ++i;
    return i;
}

/// Digits then an optional `.digits`; returns the end offset (== i when no digit at i).
inline std::size_t scanDecimal(std::string_view s, std::size_t i)
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
inline double valueOf(std::string_view s)
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

// --- the phrases of the rules, all found in one pass (scanPhrases()) ---------------------------

/// The rules a scan runs under: those of `hits`, else the built-in ones.
inline const Rules &rulesOf(const PhraseHits *hits)
{
    return hits && hits->rules ? *hits->rules : Rules::builtinRules();
}

inline bool hit(const PhraseHits &hits, PhraseGroup group, std::size_t k)
{
    const std::size_t bit = rulesOf(&hits).table().groupBegin[std::size_t(group)] + k;
    return (hits.bits[bit / 64] >> (bit % 64)) & 1u;
}

inline bool hitIndex(const PhraseHits &hits, std::size_t bit)
{
    return (hits.bits[bit / 64] >> (bit % 64)) & 1u;
}

/// Without hits every word may be there.
inline bool mayHave(const PhraseHits *hits, PhraseGroup group, std::size_t k)
{
    return !hits || hit(*hits, group, k);
}

} // namespace capwatch::retry::detail
