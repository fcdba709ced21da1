// libFuzzer target: the price table's reader (PriceTable::parse, src/retry/pricetable.h) on any
// bytes, and its lookup on any name. The input's first line is a model name, looked up in the
// table the rest makes and in the built-in one (fuzz/seeds/pricetable: a name, then a price
// file); without a newline the whole input is both. Invariants (a violation traps): a refused file
// leaves an empty table with an error, a read one has no error; every id and alias of a read table
// finds its own model; every price found is valid and costs a finite, non-negative amount; an
// override wins.

#include "retry/price.h"
#include "retry/pricetable.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace {

using namespace capwatch::retry;

[[noreturn]] void broken(const char *what, std::string_view name = {})
{
    std::fprintf(stderr, "fuzz_pricetable: invariant broken: %s (%.*s)\n", what,
        static_cast<int>(std::min<std::size_t>(name.size(), 200)), name.data());
    __builtin_trap();
}

void checkFound(const std::optional<Price> &price, std::string_view name)
{
    if (!price)
        return;
    if (!isValidPrice(*price) || price->currency.empty())
        broken("a price found is not valid", name);
    const Cost cost = costOf(*price, { 123456789, 98765, 4321 });
    if (!std::isfinite(cost.amount) || cost.amount < 0)
        broken("a cost is not finite and positive", name);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view input(reinterpret_cast<const char *>(data), size);
    const std::size_t newline = input.find('\n');
    const std::string_view name = input.substr(0, newline);
    const std::string_view text
        = newline == std::string_view::npos ? input : input.substr(newline + 1);
    PriceTable table = PriceTable::parse(text, "fuzz.json");
    if (!table.error().empty() && (!table.isEmpty() || !table.models().empty()))
        broken("a refused file left models");
    for (const PricedModel &m : table.models()) {
        if (table.find(m.id) != m.price)
            broken("an id does not find its model", m.id);
        for (const std::string &alias : m.aliases) {
            if (table.find(alias) != m.price)
                broken("an alias does not find its model", alias);
        }
        checkFound(m.price, m.id);
    }

    checkFound(table.find(name), name);
    checkFound(builtinPrices().find(name), name);

    const Price mine { 1.5, 2.5, std::nullopt, {} };
    const bool set = table.setOverride(name, mine);
    const std::optional<Price> found = table.find(name);
    if (set && (!found || found->inputPerMTok != 1.5 || found->outputPerMTok != 2.5))
        broken("an override does not win", name);
    checkFound(found, name);
    return 0;
}
