// builtinPrices(): in capwatch_retry, beside the generated builtinprices_data.cpp, not in
// capwatch_retry_core, which the build's checkers link before that file exists.

#include "retry/pricetable.h"

#include <cstdio>
#include <cstdlib>

namespace capwatch::retry {

const PriceTable &builtinPrices()
{
    static const PriceTable table = [] {
        PriceTable t = PriceTable::parse(builtinPricesJson(), "resources/prices.json");
        if (!t.error().empty()) {
            // The build checks this file (src/retry/CMakeLists.txt): only a broken build can get
            // here.
            std::fprintf(stderr, "capwatch: %s\n", t.error().c_str());
            std::abort();
        }
        return t;
    }();
    return table;
}

} // namespace capwatch::retry
