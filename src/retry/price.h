#pragma once

// A model's price per million tokens, and what a number of tokens costs at it (issue 30). The
// prices come from the table capwatch ships (resources/prices.json, read by PriceTable) or from a
// provider profile's own price; a cost worked out from either is an estimate: what a provider
// bills, when it says so, is another figure.

#include <cstdint>
#include <optional>
#include <string>

namespace capwatch::retry {

struct Price
{
    double inputPerMTok = 0; ///< per million prompt tokens (those not read from a cache)
    double outputPerMTok = 0; ///< per million completion tokens
    /// Per million prompt tokens read from the provider's cache; none: they cost as input.
    std::optional<double> cachedInputPerMTok;
    std::string currency; ///< ISO 4217, "USD"

    bool operator==(const Price &) const = default;
};

/// Prices are finite, not negative and at most this much per million tokens.
inline constexpr double kMaxPricePerMTok = 1'000'000;

/// Whether every figure of `price` is a number from 0 to kMaxPricePerMTok (not NaN, not
/// infinite) and its currency is empty or three letters A-Z.
bool isValidPrice(const Price &price);

/// The tokens of one answer as a provider's `usage` gives them. `cached` is the part of `prompt`
/// that was read from the cache (OpenAI's prompt_tokens_details.cached_tokens): it is counted in
/// `prompt` too, and costs the cached-input price instead of the input price.
struct TokenCounts
{
    std::int64_t prompt = 0;
    std::int64_t completion = 0;
    std::int64_t cached = 0;
};

struct Cost
{
    double amount = 0; ///< in `currency`
    std::string currency;
};

/// (prompt - cached) x input + cached x cached input (the input price when there is none) +
/// completion x output, per million tokens. A negative count is taken as 0 and `cached` as at
/// most `prompt`. The sum is made in millionths and divided once, so whole prices and counts
/// give the nearest double to the exact amount (1,000 + 500 tokens at 0.15 / 0.6 give 0.00045).
Cost costOf(const Price &price, const TokenCounts &tokens);

} // namespace capwatch::retry
