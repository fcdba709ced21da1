#pragma once

// Every send of the session on the retry budget's axis: attempts as dots at the policy time they
// went out (the sum of the waits scheduled before them), waits as bars between them, with the
// 60 s per-wait cap and the 120 s budget drawn as lines, so a glance shows why a send gave up.

#include <QDateTime>
#include <QList>
#include <QPointer>
#include <QString>
#include <QWidget>

#include <optional>

class QPainter;

namespace capwatch::net {
class RetryLog;
struct RetryRecord;
} // namespace capwatch::net

namespace capwatch::ui {

struct TimelineSegment
{
    enum class Kind { Attempt, Wait };
    Kind kind = Kind::Attempt;
    /// Attempts: their number. Waits: the attempt that failed before the wait.
    int attempt = 0;
    /// Policy seconds of scheduled waiting; for attempts startS == endS.
    double startS = 0;
    double endS = 0;
    /// Attempts: the outcome category (`success`, `token_limit`, ..., `cancelled` when the send
    /// was cancelled while it ran), "" while it runs. Waits: the category of the failure.
    QString category;
    /// Waits: `retry-after`, `retry-after-ms`, `message`, `backoff`, `credential-refresh`.
    QString waitSource;
    /// Waits: what the provider asked for, before the per-wait cap.
    double rawWaitS = 0;
    /// Waits: in words, "message 18 min → 60 s". Attempts: "attempt 2".
    QString label;
    /// The HTTP status of a finished attempt (waits: of the attempt before them).
    std::optional<int> status;
    /// The record that finished the segment (RetryLog::records() row), -1 while it runs.
    int row = -1;
};

struct TimelineLane
{
    int request = 0;
    QList<TimelineSegment> segments;
    /// "succeeded", "gave_up: <reason>", "cancelled", or "" while the send runs.
    QString outcome;
    /// When the send's first record was written (UTC).
    QDateTime started;
    /// Policy seconds waited (the end of the last segment).
    double endS() const { return segments.isEmpty() ? 0.0 : segments.constLast().endS; }
};

/// Lanes of all sends in `records`, in the order the sends started. Pure: no widget needed.
QList<TimelineLane> layoutTimeline(const QList<net::RetryRecord> &records);

/// A wait's label in words: "retry-after 7 s", "message 18 min → 60 s", "backoff 10 s", "new key".
QString waitLabel(const QString &source, double waitS, double rawWaitS);

class TimelineWidget final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TimelineWidget)

public:
    /// Sends drawn at most; older ones are summarised as a count.
    static constexpr int kMaxVisibleLanes = 12;

    explicit TimelineWidget(QWidget *parent = nullptr);
    ~TimelineWidget() override;

    /// The log drawn; null draws an empty axis. Repaints as records arrive or the log clears.
    void setLog(net::RetryLog *log);
    net::RetryLog *log() const;

    /// How far the running wait of `request` has got, in policy seconds: drawn filled up to
    /// there and outlined beyond. `setLiveWait(-1, 0)` stops it.
    void setLiveWait(int request, double elapsedS);

    /// The lanes currently laid out (all sends, not only the visible ones).
    const QList<TimelineLane> &lanes() const { return m_lanes; }

    /// The x of a policy time in widget coordinates, for the current size.
    double xForSeconds(double seconds) const;
    /// Where the lanes are drawn, in widget coordinates.
    QRect lanesArea() const;
    /// What the tooltip at `pos` says (rich text), or empty when nothing is there; `area` gets
    /// the rectangle the text is about.
    QString toolTipAt(const QPoint &pos, QRect *area = nullptr) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent *event) override;
    void changeEvent(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;

private:
    struct Fonts;
    struct LaneGeometry;
    struct Geometry;

    void onRecordAppended(int row);
    void relayout();
    void updateAccessibleDescription();
    Fonts fonts() const;
    Geometry plotGeometry() const;
    void paintLane(QPainter &p, const Geometry &g, const Fonts &f, const LaneGeometry &lane) const;
    QString describeSegment(const TimelineLane &lane, const TimelineSegment &segment) const;
    QString describeLane(const TimelineLane &lane) const;
    const net::RetryRecord *recordAt(int row) const;

    QPointer<net::RetryLog> m_log;
    QList<TimelineLane> m_lanes;
    /// Records of the log already in m_lanes: appends are applied one by one.
    int m_appliedRows = 0;
    int m_liveRequest = -1;
    double m_liveElapsedS = 0;
};

} // namespace capwatch::ui
