#pragma once

// Every send of the session on the retry budget's axis: attempts as dots at the policy time they
// went out (the sum of the waits scheduled before them), waits as bars between them, with the
// 60 s per-wait cap and the 120 s budget drawn as lines, so a glance shows why a send gave up. A
// send parked until its provider's reset gets a bar beyond the axis' end, after a break mark:
// "parked until 06:14".
// The lanes come from timelinelayout.h; the geometry is in timelinewidget_geometry.cpp, the
// painting in timelinewidget_painting.cpp.

#include "retry/policylimits.h"
#include "session/sendstate.h"
#include "ui/timeline/timelinelayout.h"

#include <QList>
#include <QPointer>
#include <QString>
#include <QWidget>

class QPainter;
class QScrollBar;

namespace capwatch::ui {

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
    /// The live wait of `state`'s send while it waits to retry (stopped otherwise).
    void showSend(const session::SendState &state);
    /// The running wait drawn: its request (-1: none) and how far it has got, in policy seconds.
    int liveRequest() const { return m_liveRequest; }
    double liveElapsedS() const { return m_liveElapsedS; }

    /// The numbers of the policy the axis is drawn for (issue 17): its end is `limits.budget`,
    /// the dashed cap line `limits.waitCap`, "attempt 2 of 3" in the tooltips. The profile's of
    /// the conversation shown (the window sets them); a lane that waited longer (a fallback's
    /// larger budget) is drawn up to the axis' end.
    void setLimits(const retry::PolicyLimits &limits);
    const retry::PolicyLimits &limits() const { return m_limits; }
    /// The axis' end, in seconds: the budget (at least 1 s: a budget of 0 has no waits).
    double budgetS() const;
    double capS() const;
    double tickS() const;

    /// The lanes currently laid out (all sends, not only the ones in view).
    const QList<TimelineLane> &lanes() const { return m_lanes; }
    /// The row of lane `index` in widget coordinates, where it is drawn when inside lanesArea()
    /// (scrolled out of view it lies above or below). Empty for a lane that does not exist.
    QRect laneRect(int index) const;
    /// Scrolls the lanes when they do not all fit; hidden otherwise.
    QScrollBar *verticalScrollBar() const;
    /// Where each legend entry (dot and name) is drawn, in the order of legendCategories(), with
    /// `parked` before `running` while a lane has a parked send.
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
    retry::PolicyLimits m_limits;
    double m_liveElapsedS = 0;
};

} // namespace capwatch::ui
