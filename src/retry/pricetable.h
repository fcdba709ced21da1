#pragma once

// The price table (issue 30): each model's price per million tokens by its id and aliases, read
// from resources/prices.json (made by tools/make-prices.py; compiled in, and checked when capwatch
// is built), plus the prices a provider profile sets for itself, which win over the table's.
//
// The file: {"version": 1, "currency": "USD", "source": ..., "source_commit": ..., "taken":
// "YYYY-MM-DD", "models": [{"id": "gpt-4o-mini", "aliases": ["openai/gpt-4o-mini", ...],
// "input_per_mtok": 0.15, "output_per_mtok": 0.6, "cached_input_per_mtok": 0.075}, ...]}.
// A model may have a "currency" of its own; other keys are ignored. A file is taken whole or not
// at all: anything wrong (not JSON, a wrong type, a negative, infinite or huge price, a name
// given twice, nesting deeper than 8 levels, more than kMaxPriceFileBytes) leaves the table
// empty and says why in error().
//
// Looking a model up (find()), every name compared case-insensitively (ASCII):
//  1. The name is trimmed of white space; an empty one, or one longer than kMaxModelNameBytes,
//     has no price.
//  2. Tried in turn, the first known one wins: the name; the name without a date suffix; then the
//     same two for the name without its first "prefix/" part, and so on while there is a "/":
//     "openrouter/openai/gpt-4o-mini-2024-07-18" tries that, "openrouter/openai/gpt-4o-mini",
//     "openai/gpt-4o-mini-2024-07-18", "openai/gpt-4o-mini", "gpt-4o-mini-2024-07-18",
//     "gpt-4o-mini". So a name the table knows always wins over a shorter one.
//  3. A date suffix is one of, at the very end: "-YYYY-MM-DD", "-YYYYMMDD" or "@YYYYMMDD" (Vertex
//     AI's "claude-3-5-sonnet-v2@20241022"), or "-MMDD" ("gpt-4-0613"), with a month 01-12 and a
//     day 01-31; only one is removed, and never the whole name.
//  4. The overrides (setOverride()) are searched first, by the same rule, then the table: a
//     profile's price for "gpt-4o-mini" is also the price of "openai/gpt-4o-mini-2024-07-18",
//     even where the table has a price of its own for "azure/gpt-4o-mini".

#include "retry/price.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace capwatch::retry {

/// Larger files are refused unread (the built-in table is about 200 KB).
inline constexpr std::size_t kMaxPriceFileBytes = 16 * 1024 * 1024;
/// A model name (an id, an alias or a name looked up) is at most this long.
inline constexpr std::size_t kMaxModelNameBytes = 256;

/// One entry of the table: its names as the file gives them, and its price.
struct PricedModel
{
    std::string id;
    std::vector<std::string> aliases;
    Price price;
};

/// Where a table's prices come from, as its file says (empty when it does not).
struct PriceSource
{
    std::string source; ///< "pydantic genai-prices prices/data.json"
    std::string url;
    std::string commit;
    std::string taken; ///< YYYY-MM-DD: the prices in force that day
    std::string license;
};

class PriceTable final
{
public:
    /// An empty table: every price unknown until overrides are set.
    PriceTable() = default;

    /// Reads a price file; never throws. On any problem the table is empty and error() says
    /// `FILE: what is wrong` (with the line for JSON that cannot be read).
    static PriceTable parse(std::string_view json, std::string_view fileName = "prices.json");

    /// Empty when the file was read (or the table was made empty on purpose).
    const std::string &error() const { return m_error; }
    bool isEmpty() const { return m_models.empty(); }
    std::size_t size() const { return m_models.size(); }
    const std::vector<PricedModel> &models() const { return m_models; }
    const PriceSource &source() const { return m_source; }

    /// The price of `model` by the rule above (overrides first), or none: then a cost is not
    /// known and only tokens are shown.
    std::optional<Price> find(std::string_view model) const;

    /// A profile's own price for `model` (any case; looked up by the rule above), which wins over
    /// the table's. An empty currency means the table's. Returns false, and changes nothing, for
    /// an invalid price (see isValidPrice()) or an empty or too long name.
    bool setOverride(std::string_view model, Price price);
    void removeOverride(std::string_view model);
    void clearOverrides() { m_overrides.clear(); }

private:
    std::vector<PricedModel> m_models;
    std::unordered_map<std::string, std::size_t> m_byName; ///< every id and alias, lower case
    std::unordered_map<std::string, Price> m_overrides; ///< by trimmed lower-case name
    PriceSource m_source;
    std::string m_currency = "USD"; ///< the file's
    std::string m_error;
};

/// The table compiled in from resources/prices.json, read once (checked when capwatch is built).
const PriceTable &builtinPrices();

/// The text of resources/prices.json (generated at build time).
std::string_view builtinPricesJson();

} // namespace capwatch::retry
