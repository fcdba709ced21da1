// capwatch-prices-check FILE: reads a price table (resources/prices.json) as capwatch will, at
// build time. Prints `FILE: what is wrong` and exits 1 when it is malformed or empty, so that the
// build stops there.

#include "checkedfile.h"
#include "retry/pricetable.h"
#include "retry/rules.h"

#include <cstdio>
#include <string>

namespace capwatch::retry {

// capwatch_retry_core, which this program links, reads the built-in rules from a file compiled
// into capwatch_retry: this program does not use them.
std::string_view builtinRulesJson()
{
    return {};
}

} // namespace capwatch::retry

int main(int argc, char *argv[])
{
    using namespace capwatch::retry;
    int exitCode = 0;
    const std::optional<std::string> text
        = buildcheck::readCheckedFile(argc, argv, "capwatch-prices-check PRICES_JSON", &exitCode);
    if (!text)
        return exitCode;
    const PriceTable table = PriceTable::parse(*text, argv[1]);
    if (!table.error().empty()) {
        std::fprintf(stderr, "%s\n", table.error().c_str());
        return 1;
    }
    if (table.isEmpty()) {
        std::fprintf(stderr, "%s: has no models\n", argv[1]);
        return 1;
    }
    return 0;
}
