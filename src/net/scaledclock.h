#pragma once

#include "retry/clock.h"

#include <chrono>

namespace capwatch::net {

/// The policy's clock under `--time-scale F`: policy time runs 1/F times as fast as the wall
/// clock, so a 60 s wait takes 60*F s of real time while every figure stays in policy seconds.
class ScaledClock final : public retry::Clock
{
public:
    explicit ScaledClock(double scale = 1.0)
        : m_scale(scale)
    { }
    retry::Millis now() const override
    {
        const auto ns = std::chrono::steady_clock::now().time_since_epoch();
        return retry::Millis(static_cast<long long>(
            std::chrono::duration<double, std::milli>(ns).count() / m_scale));
    }
    std::chrono::system_clock::time_point wallNow() const override
    {
        return std::chrono::system_clock::now();
    }
    double scale() const { return m_scale; }
    /// Wall-clock milliseconds for a policy duration, rounded up so nothing fires early.
    qint64 toWall(retry::Millis policy) const
    {
        const double wall = double(policy.count()) * m_scale;
        const auto whole = static_cast<qint64>(wall);
        return wall > double(whole) ? whole + 1 : whole;
    }

private:
    double m_scale;
};

} // namespace capwatch::net
