#pragma once

// Scanning of provider error texts (policy sections 2 and 3). Hand-written, linear in the text
// length, no regular-expression engine. Every function expects text that is already lower-cased
// (ASCII).

#include "constants.h"

#include <cstddef>
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

/// Every number of section 2, rule 5, in order of appearance.
std::vector<NumberToken> findNumbers(std::string_view text);

/// Which of the keywords `limit`, `token`, `exceeded` occur (as substrings), in that order.
std::vector<std::string_view> findKeywords(std::string_view text);

struct WaitHint
{
    Millis raw { 0 };
    int pattern = 0; ///< 1..8, the pattern of section 3 that matched
    std::size_t begin = 0; ///< span of the matched phrase
    std::size_t end = 0;
};

/// The first of the eight wait patterns (in pattern order) that matches anywhere in the text.
std::optional<WaitHint> findWaitHint(std::string_view text);

struct UsedLimit
{
    std::optional<double> used;
    std::optional<double> limit;
};

/// `used` and `limit` of section 2. Numbers inside `skipBegin..skipEnd` (the wait phrase) are
/// not used to fill in unknown figures.
UsedLimit extractUsedLimit(std::string_view text, const std::vector<NumberToken> &numbers,
    std::size_t skipBegin = 0, std::size_t skipEnd = 0);

/// ASCII lower-casing; other bytes are left as they are.
std::string asciiLower(std::string_view text);

/// Section 2, step 4: lower-cases ASCII letters and the Cyrillic `А`-`Я` and `Ё` (UTF-8); every
/// other byte is left as it is, so offsets into the result are offsets into the input.
std::string lowerCase(std::string_view text);

/// `\d+(\.\d+)?` in full, as a non-negative value; nullopt for anything else.
std::optional<double> parseDecimal(std::string_view text);

} // namespace capwatch::retry
