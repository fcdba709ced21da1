#pragma once

// The capped scenario's accountant: tokens counted per rolling window, in policy milliseconds.
// Pure (no clock, no socket): the provider passes the time in, the tests pass any time they like.

#include <QtGlobal>
#include <deque>

namespace capwatch::demo {

class TokenWindow final
{
public:
    /// `limit` tokens per rolling `windowMs`; both must be positive.
    TokenWindow(qint64 limit, double windowMs);

    /// What the window would hold at `nowMs` with `tokens` more (entries that expired by then
    /// are dropped first). Call it for a request; admit() when it fits.
    qint64 usedWith(double nowMs, qint64 tokens);
    bool fits(double nowMs, qint64 tokens) { return usedWith(nowMs, tokens) <= m_limit; }
    /// Counts `tokens` at `nowMs`.
    void admit(double nowMs, qint64 tokens);
    /// Policy ms from `nowMs` until `tokens` more fit. A request larger than the whole cap never
    /// fits: a full window is named, as a real cap would.
    double msUntilFits(double nowMs, qint64 tokens);
    /// Policy ms from `nowMs` until every counted entry has left (the window is back to its
    /// initial state, as OpenAI's `x-ratelimit-reset-*` mean); 0 when it is empty.
    double msUntilEmpty(double nowMs);
    /// What is left of the limit at `nowMs`, floored at 0 (a window that went over by new,
    /// lower limits leaves nothing, never less).
    qint64 remaining(double nowMs);

    /// New limits apply from the next call; what was counted stays counted.
    void setLimits(qint64 limit, double windowMs)
    {
        m_limit = limit;
        m_windowMs = windowMs;
    }
    qint64 limit() const { return m_limit; }
    double windowMs() const { return m_windowMs; }
    qint64 used() const { return m_used; } ///< as of the last call
    void clear();

private:
    struct Entry
    {
        double atMs;
        qint64 tokens;
    };
    void expire(double nowMs);

    qint64 m_limit;
    double m_windowMs;
    std::deque<Entry> m_entries;
    qint64 m_used = 0;
};

} // namespace capwatch::demo
