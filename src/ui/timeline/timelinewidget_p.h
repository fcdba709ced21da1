#pragma once

// Internal to TimelineWidget (timelinewidget.cpp, timelinewidget_geometry.cpp,
// timelinewidget_painting.cpp): the geometry of one paint, and the words of a lane that the
// geometry measures, the painting draws and the tooltips repeat.

#include "retry/constants.h"
#include "ui/timeline/timelinewidget.h"

#include <QFont>
#include <QFontMetricsF>
#include <QList>
#include <QRectF>
#include <algorithm>

class QPalette;

namespace capwatch::ui {

namespace timeline {

/// A step of the axis' ticks for a budget of `budgetS`: 1, 2, 5, 10, 20, 30, 60 ... seconds,
/// about six ticks along it (20 s for the default 120 s).
double tickStep(double budgetS);

/// Up to three decimals, nothing when whole: "7", "2.5", "0.084" (the axis' figures).
QString number(double value);
QFont scaled(QFont font, double factor);
/// Crisp one-pixel lines: the middle of the pixel column.
double crisp(double x);

/// "Send 3"; compact, for narrow widgets: "#3".
QString laneTitle(int request, bool compact = false);

enum class OutcomeWords
{
    Compact, ///< "gave up", for narrow widgets
    Short, ///< "gave up: budget exhausted", as drawn
    Sentence, ///< the reason as the retry panel says it, for tooltips and screen readers
};
/// The numbers of the policy a lane ran under, as far as its records tell (else the defaults).
retry::PolicyLimits laneLimits(const TimelineLane &lane);
QString outcomeText(const TimelineLane &lane, OutcomeWords words = OutcomeWords::Short);
/// The line under the outcome. `liveElapsedS` >= 0: how far the running wait has got.
QString laneDetails(const TimelineLane &lane, double liveElapsedS = -1);
QColor outcomeColor(const TimelineLane &lane, const QPalette &palette);
/// The lane's last attempt, or null before its first.
const TimelineSegment *lastAttempt(const TimelineLane &lane);
/// The colour of a segment: its category's, or the neutral one while it runs or when cancelled.
QColor segmentColor(const TimelineSegment &segment, const QPalette &palette);

} // namespace timeline

struct TimelineWidget::Fonts
{
    Fonts(const QFont &base, const QPaintDevice *device)
        : normal(base)
        , strong(weighted(base, QFont::DemiBold))
        , small(timeline::scaled(base, 0.86))
        , tiny(weighted(timeline::scaled(base, 0.74), QFont::Bold))
        , fm(normal, device)
        , fmStrong(strong, device)
        , fmSmall(small, device)
    { }

    static QFont weighted(QFont font, QFont::Weight weight)
    {
        font.setWeight(weight);
        return font;
    }

    QFont normal;
    QFont strong; ///< lane titles and outcomes
    QFont small; ///< secondary text, labels, axis
    QFont tiny; ///< attempt numbers inside the markers
    QFontMetricsF fm;
    QFontMetricsF fmStrong;
    QFontMetricsF fmSmall;
};

struct TimelineWidget::LaneGeometry
{
    int index = 0; ///< into m_lanes
    QRectF rect; ///< the whole row, gutters included
    double cy = 0;
    QList<QRectF> segments; ///< marker or bar of each segment, in segment order
};

struct TimelineWidget::LegendItem
{
    QRectF rect; ///< the dot and the name
    QString name; ///< as drawn, elided when it could not fit a row
    QString category;
};

struct TimelineWidget::Geometry
{
    double margin = 0;
    double markerD = 0;
    double barH = 0;
    double lineW = 1;
    double x0 = 0; ///< x of 0 s
    double x1 = 0; ///< x of the budget
    QRectF header;
    QRectF lanesArea;
    double axisY = 0;
    QRectF legend;
    QList<LegendItem> legendItems;
    /// The column of parked sends, beyond the axis' end, after a break mark; only while a lane
    /// has a parked segment (parkX1 == parkX0 otherwise).
    double breakX = 0; ///< the middle of the break mark
    double parkX0 = 0;
    double parkX1 = 0;
    bool hasParked() const { return parkX1 > parkX0; }
    /// The column of paced sends, before the axis' 0, before a break mark: the pacing wait is
    /// not the budget's. Only while a lane has a paced segment (paceX1 == paceX0 otherwise).
    double paceX0 = 0;
    double paceX1 = 0;
    double paceBreakX = 0; ///< the middle of its break mark
    bool hasPaced() const { return paceX1 > paceX0; }
    /// Where the left gutter (the send titles) ends.
    double gutterRight() const { return hasPaced() ? paceX0 : x0 - markerD / 2; }
    double outcomeX = 0;
    double laneH = 0;
    double contentH = 0; ///< all lanes, in view or not
    double scroll = 0; ///< pixels of lanes scrolled above the lanes area
    bool scrolling = false;
    double scrollBarW = 0;
    bool compactTitles = false;
    bool compactOutcomes = false;
    QList<LaneGeometry> lanes; ///< the lanes in view, in order

    double budgetS = 120; ///< the axis' end: the budget of the limits shown
    double x(double s) const
    {
        const double whole = std::max(budgetS, 0.001);
        return x0 + (x1 - x0) * std::clamp(s, 0.0, whole) / whole;
    }
};

} // namespace capwatch::ui
