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
class QScrollBar;

namespace capwatch::net {
class RetryLog;
struct RetryRecord;
} // namespace capwatch::net

namespace capwatch::ui {

struct TimelineSegment
{
    enum class Kind
    {
        Attempt,
        Wait
    };
    Kind kind = Kind::Attempt;
    /// Attempts: their number. Waits: the attempt that failed before the wait.
    int attempt = 0;
    /// Policy seconds of waiting; for attempts startS == endS. A wait cut short by a cancel ends
    /// where the cancel came.
    double startS = 0;
    double endS = 0;
    /// Waits: the wait scheduled (capped); more than endS - startS when a cancel cut it short.
    double scheduledS = 0;
    bool isCut() const { return kind == Kind::Wait && endS - startS < scheduledS - 0.0005; }
    /// Attempts: the outcome category (`success`, `token_limit`, ..., `cancelled` when the send
    /// was cancelled while it ran), "" while it runs. Waits: the category of the failure.
    QString category;
    /// Waits: `retry-after`, `retry-after-ms`, `retry-delay`, `message`, `ratelimit-reset`,
    /// `backoff`, `credential-refresh`.
    QString waitSource;
    /// Waits: what the provider asked for, before the per-wait cap.
    double rawWaitS = 0;
    /// Waits: in words, "message 18 min → 60 s", "retry-after 14.7 s of 42 s" (cut short by a
    /// cancel). Attempts: "attempt 2".
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

/// A wait's label in words: "retry-after 7 s", "message 18 min → 60 s", "backoff 10 s", "new key";
/// with `ranS` >= 0 and less than `waitS`, a wait a cancel cut short: "retry-after 14.7 s of 42 s".
QString waitLabel(const QString &source, double waitS, double rawWaitS, double ranS = -1);

class TimelineWidget final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TimelineWidget)

public:
    explicit TimelineWidget(QWidget *parent = nullptr);
    ~TimelineWidget() override;

    /// The log drawn; null draws an empty axis. Repaints as records arrive or the log clears.
    void setLog(net::RetryLog *log);
    net::RetryLog *log() const;

    /// How far the running wait of `request` has got, in policy seconds: drawn filled up to
    /// there and outlined beyond. `setLiveWait(-1, 0)` stops it.
    void setLiveWait(int request, double elapsedS);

    /// The lanes currently laid out (all sends, not only the ones in view).
    const QList<TimelineLane> &lanes() const { return m_lanes; }
    /// The row of lane `index` in widget coordinates, where it is drawn when inside lanesArea()
    /// (scrolled out of view it lies above or below). Empty for a lane that does not exist.
    QRect laneRect(int index) const;
    /// Scrolls the lanes when they do not all fit; hidden otherwise.
    QScrollBar *verticalScrollBar() const;
    /// Where each legend entry (dot and name) is drawn, in the order of legendCategories().
    QList<QRect> legendItemRects() const;

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
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;

private:
    struct Fonts;
    struct LaneGeometry;
    struct LegendItem;
    struct Geometry;

    void updateScrollBar();

    void onRecordAppended(int row);
    void relayout();
    void updateAccessibleDescription();
    Fonts fonts() const;
    Geometry plotGeometry() const;
    void paintLane(QPainter &p, const Geometry &g, const Fonts &f, const LaneGeometry &lane) const;
    QString describeSegment(const TimelineLane &lane, const TimelineSegment &segment) const;
    QString describeLane(const TimelineLane &lane) const;
    const net::RetryRecord *recordAt(int row) const;

    QScrollBar *m_scrollBar;
    QPointer<net::RetryLog> m_log;
    QList<TimelineLane> m_lanes;
    /// Records of the log already in m_lanes: appends are applied one by one.
    int m_appliedRows = 0;
    int m_liveRequest = -1;
    double m_liveElapsedS = 0;
};

} // namespace capwatch::ui
