#pragma once

// The GUI thread's longest stall, as a user feels it: a precise 1 ms timer on the thread, and the
// gaps between its ticks (tst_responsiveness, bench_insights). Each gap of half a frame or more
// is printed with the last event delivered before it.

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QObject>
#include <QString>
#include <QTimer>
#include <algorithm>
#include <array>
#include <chrono>
#include <functional>

namespace capwatch::testing {

using namespace Qt::StringLiterals;

/// What is printed: a gap of half a frame or more.
inline constexpr qint64 kReportedGapMs = 8;

/// The GUI thread's gaps, seen by a precise 1 ms timer on it. With each gap it names the last
/// event delivered before the tick that ended it (its receiver's class and the event's type): where
/// to look first. An event delivered inside another one's handler (a paint inside a layout, say)
/// is named instead of the outer one.
class StallMeter final : public QObject
{
public:
    explicit StallMeter(std::function<QString()> state = {})
        : m_state(std::move(state))
    {
        m_tick.setTimerType(Qt::PreciseTimer);
        m_tick.setInterval(1);
        QObject::connect(&m_tick, &QTimer::timeout, &m_tick, [this] { onTick(); });
    }
    void start()
    {
        m_clock.start();
        m_last = -1;
        qApp->installEventFilter(this);
        m_tick.start();
    }
    void stop()
    {
        m_tick.stop();
        qApp->removeEventFilter(this);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched != &m_tick) { // kept as two plain values: this runs for every event
            m_lastClass = watched->metaObject()->className();
            m_lastType = int(event->type());
            if (m_trace) {
                Entry &e = m_ring[m_next++ % m_ring.size()];
                e = { m_clock.nsecsElapsed(), m_lastClass, m_lastType };
            }
        }
        return false;
    }

public:
    qint64 longestMs() const { return m_longest; }
    qint64 elapsedMs() const { return m_clock.elapsed(); }
    int reported() const { return m_reported; }

private:
    void onTick()
    {
        const qint64 now = m_clock.elapsed();
        if (m_last >= 0) {
            const qint64 gap = now - m_last;
            m_longest = std::max(m_longest, gap);
            if (gap >= kReportedGapMs) {
                ++m_reported;
                qInfo("gap of %lld ms ending at %lld ms, after a %s event %d%s", qlonglong(gap),
                    qlonglong(now), m_lastClass, m_lastType,
                    m_state ? qPrintable(u", "_s + m_state()) : "");
                if (m_trace) {
                    const double mono
                        = double(std::chrono::duration_cast<std::chrono::microseconds>(
                              std::chrono::steady_clock::now().time_since_epoch())
                                     .count())
                        / 1e6;
                    qInfo("    (CLOCK_MONOTONIC %.6f to %.6f s)", mono - double(gap) / 1e3, mono);
                    printTrace(m_last);
                }
            }
        }
        m_last = now;
    }

    // CAPWATCH_STALL_TRACE=1: each gap is followed by the events that began in it, each with
    // the time until the next one began (a nested event's time is inside its parent's).
    struct Entry
    {
        qint64 ns = -1;
        const char *cls = nullptr;
        int type = 0;
    };
    void printTrace(qint64 fromMs)
    {
        const size_t n = m_ring.size();
        const size_t first = m_next > n ? m_next - n : 0;
        for (size_t i = first; i < m_next; ++i) {
            const Entry &e = m_ring[i % n];
            if (e.ns < fromMs * 1'000'000)
                continue;
            const qint64 until = i + 1 < m_next ? m_ring[(i + 1) % n].ns : m_clock.nsecsElapsed();
            if (until - e.ns >= 500'000)
                qInfo("    +%.1f ms %s event %d, %.1f ms until the next",
                    double(e.ns) / 1e6 - double(fromMs), e.cls, e.type, double(until - e.ns) / 1e6);
        }
    }
    const bool m_trace = qEnvironmentVariableIntValue("CAPWATCH_STALL_TRACE") != 0;
    std::array<Entry, 512> m_ring {};
    size_t m_next = 0;
    std::function<QString()> m_state;
    QTimer m_tick;
    QElapsedTimer m_clock;
    qint64 m_last = -1;
    qint64 m_longest = 0;
    int m_reported = 0;
    const char *m_lastClass = "(none)";
    int m_lastType = 0;
};

} // namespace capwatch::testing
