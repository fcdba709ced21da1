#include "retry/price.h"

#include <algorithm>
#include <cmath>

namespace capwatch::retry {

namespace {

bool isValidFigure(double value)
{
    return std::isfinite(value) && value >= 0 && value <= kMaxPricePerMTok;
}

} // namespace

bool isValidPrice(const Price &price)
{
    if (!isValidFigure(price.inputPerMTok) || !isValidFigure(price.outputPerMTok))
        return false;
    if (price.cachedInputPerMTok && !isValidFigure(*price.cachedInputPerMTok))
        return false;
    if (price.currency.empty())
        return true;
    return price.currency.size() == 3
        && std::all_of(price.currency.begin(), price.currency.end(),
            [](char c) { return c >= 'A' && c <= 'Z'; });
}

Cost costOf(const Price &price, const TokenCounts &tokens)
{
    const std::int64_t prompt = std::max<std::int64_t>(tokens.prompt, 0);
    const std::int64_t completion = std::max<std::int64_t>(tokens.completion, 0);
    const std::int64_t cached = std::clamp<std::int64_t>(tokens.cached, 0, prompt);
    const double cachedPrice = price.cachedInputPerMTok.value_or(price.inputPerMTok);
    const double millionths = double(prompt - cached) * price.inputPerMTok
        + double(cached) * cachedPrice + double(completion) * price.outputPerMTok;
    return { millionths / 1e6, price.currency };
}

} // namespace capwatch::retry
