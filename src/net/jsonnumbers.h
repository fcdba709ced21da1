#pragma once

// Numbers as the JSON outputs (the retry log, `capwatch-cli explain`) write them: whole values as
// integers, so a wait of 60 s reads `60`, not `60.0`.

#include "retry/constants.h"

#include <QtGlobal>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>

namespace capwatch::net {

/// Seconds as a JSON number: an integer when whole, else up to three decimals.
inline nlohmann::ordered_json secondsJson(retry::Millis ms)
{
    if (ms.count() % 1000 == 0)
        return ms.count() / 1000;
    return static_cast<double>(ms.count()) / 1000.0;
}

/// Milliseconds that may be absent, as seconds; null when absent.
inline nlohmann::ordered_json secondsJson(std::optional<qint64> ms)
{
    if (!ms)
        return nullptr;
    return secondsJson(retry::Millis(*ms));
}

/// A token figure as a JSON number: an integer when whole; null when absent.
inline nlohmann::ordered_json figureJson(std::optional<double> value)
{
    if (!value)
        return nullptr;
    double whole = 0;
    if (std::modf(*value, &whole) == 0.0 && std::fabs(whole) < 9.0e15)
        return static_cast<long long>(whole);
    return *value;
}

} // namespace capwatch::net
