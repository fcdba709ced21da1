#pragma once

#include "constants.h"

#include <chrono>

namespace capwatch::retry {

/// Time source of the policy. Durations come from the monotonic clock; the wall clock is only
/// used to turn an HTTP-date `retry-after` into seconds.
class Clock
{
public:
    virtual ~Clock() = default;
    /// Monotonic time in milliseconds since an arbitrary epoch.
    virtual Millis now() const = 0;
    virtual std::chrono::system_clock::time_point wallNow() const = 0;
};

class SteadyClock final : public Clock
{
public:
    Millis now() const override
    {
        return std::chrono::duration_cast<Millis>(
            std::chrono::steady_clock::now().time_since_epoch());
    }
    std::chrono::system_clock::time_point wallNow() const override
    {
        return std::chrono::system_clock::now();
    }
};

/// A clock that only moves when told to: for tests and simulations.
class ManualClock final : public Clock
{
public:
    explicit ManualClock(std::chrono::system_clock::time_point wall = {})
        : m_wall(wall)
    { }
    Millis now() const override { return m_now; }
    std::chrono::system_clock::time_point wallNow() const override { return m_wall + m_now; }
    void advance(Millis by) { m_now += by; }

private:
    Millis m_now { 0 };
    std::chrono::system_clock::time_point m_wall;
};

} // namespace capwatch::retry
