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
            }
        }
        m_last = now;
    }

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
