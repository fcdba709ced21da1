#include "timelinewidget.h"

#include "categorycolors.h"
#include "net/retrylog.h"
#include "retry/classifier.h"
#include "retry/constants.h"

#include <QCoreApplication>
#include <QEvent>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QStyle>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace capwatch::ui {

using namespace Qt::StringLiterals;
using net::RetryRecord;

namespace {

constexpr double kBudgetS = double(retry::kRetryBudget.count()) / 1000.0;
constexpr double kCapS = double(retry::kWaitCap.count()) / 1000.0;
constexpr double kTickS = 20.0;

/// Up to three decimals, nothing when whole: "7", "2.5", "0.084".
QString number(double value)
{
    return QLocale().toString(
        std::round(value * 1000.0) / 1000.0, 'f', QLocale::FloatingPointShortest);
}

QString secondsText(double s)
{
    return TimelineWidget::tr("%1 s").arg(number(s));
}

/// Where a cancel cut a wait, to a tenth of a second as the panel's countdown showed it: the
/// millisecond the click came is noise.
double tenths(double s)
{
    return std::round(s * 10.0) / 10.0;
}

/// A duration the way a person says it: "644 ms", "7 s", "18 min", "1 min 30 s", "2 h".
QString durationWords(double s)
{
    if (s > 0 && s < 1)
        return TimelineWidget::tr("%1 ms").arg(number(s * 1000.0));
    if (s < 60)
        return secondsText(s);
    const qint64 total = qint64(std::llround(s));
    const qint64 hours = total / 3600;
    const qint64 minutes = (total % 3600) / 60;
    const qint64 secs = total % 60;
    QStringList parts;
    if (hours)
        parts << TimelineWidget::tr("%1 h").arg(QLocale().toString(hours));
    if (minutes)
        parts << TimelineWidget::tr("%1 min").arg(QLocale().toString(minutes));
    if (secs)
        parts << TimelineWidget::tr("%1 s").arg(QLocale().toString(secs));
    return parts.join(u' ');
}

QString statusWords(int status)
{
    const std::string_view phrase = retry::statusText(status);
    if (phrase.empty())
        return QString::number(status);
    return QString(QString::number(status) + u' '
        + QString::fromLatin1(phrase.data(), qsizetype(phrase.size())));
}

bool isRunningAttempt(const TimelineSegment &s)
{
    return s.kind == TimelineSegment::Kind::Attempt && s.category.isEmpty();
}

TimelineSegment *findAttempt(TimelineLane &lane, int attempt)
{
    for (auto it = lane.segments.rbegin(); it != lane.segments.rend(); ++it) {
        if (it->kind == TimelineSegment::Kind::Attempt && it->attempt == attempt)
            return &*it;
    }
    return nullptr;
}

/// The attempt a final record finishes: the one still running, else the one it names.
TimelineSegment *finishedAttempt(TimelineLane &lane, int attempt)
{
    if (!lane.segments.isEmpty() && isRunningAttempt(lane.segments.last()))
        return &lane.segments.last();
    return findAttempt(lane, attempt);
}

void applyRecord(QList<TimelineLane> &lanes, const RetryRecord &r, int row)
{
    TimelineLane *lane = nullptr;
    for (auto it = lanes.rbegin(); it != lanes.rend(); ++it) {
        if (it->request == r.request) {
            lane = &*it;
            break;
        }
    }
    if (!lane) {
        lanes.append(TimelineLane { r.request, {}, {}, r.time });
        lane = &lanes.last();
    }

    switch (r.event) {
    case RetryRecord::Event::AttemptStarted: {
        TimelineSegment s;
        s.kind = TimelineSegment::Kind::Attempt;
        s.attempt = r.attempt;
        s.startS = s.endS = lane->endS();
        s.label = TimelineWidget::tr("attempt %1").arg(r.attempt);
        lane->segments.append(s);
        break;
    }
    case RetryRecord::Event::RetryScheduled: {
        if (TimelineSegment *a = findAttempt(*lane, r.attempt)) {
            a->category = r.category.isEmpty() ? u"fatal"_s : r.category;
            a->status = r.status;
            a->row = row;
        }
        TimelineSegment s;
        s.kind = TimelineSegment::Kind::Wait;
        s.attempt = r.attempt;
        s.startS = lane->endS();
        const double waitS = double(r.waitMs.value_or(0)) / 1000.0;
        s.endS = s.startS + waitS;
        s.category = r.category;
        s.waitSource = r.waitSource;
        s.rawWaitS = r.rawWaitMs ? double(*r.rawWaitMs) / 1000.0 : waitS;
        s.scheduledS = waitS;
        s.label = waitLabel(s.waitSource, waitS, s.rawWaitS);
        s.status = r.status;
        s.row = row;
        lane->segments.append(s);
        break;
    }
    case RetryRecord::Event::Succeeded:
        if (TimelineSegment *a = finishedAttempt(*lane, r.attempt)) {
            a->category = r.category.isEmpty() ? u"success"_s : r.category;
            a->status = r.status;
            a->row = row;
        }
        lane->outcome = u"succeeded"_s;
        break;
    case RetryRecord::Event::GaveUp:
        if (!lane->segments.isEmpty() && isRunningAttempt(lane->segments.last())) {
            TimelineSegment &a = lane->segments.last();
            if (r.reason == u"timeout") {
                // The record carries the previous attempt's failure; this one never answered.
                a.category = u"transient"_s;
                a.status.reset();
            } else {
                a.category = r.category.isEmpty() ? u"fatal"_s : r.category;
                a.status = r.status;
            }
            a.row = row;
        }
        lane->outcome = r.reason.isEmpty() ? u"gave_up"_s : QString(u"gave_up: "_s + r.reason);
        break;
    case RetryRecord::Event::Cancelled:
        if (!lane->segments.isEmpty() && isRunningAttempt(lane->segments.last())) {
            lane->segments.last().category = u"cancelled"_s;
            lane->segments.last().row = row;
        } else if (!lane->segments.isEmpty()
            && lane->segments.last().kind == TimelineSegment::Kind::Wait && r.waitMs) {
            // Cancelled during the wait: the record says how much of it ran; that is what the
            // lane shows (and what "waited" adds up).
            TimelineSegment &w = lane->segments.last();
            const double ranS = std::clamp(double(*r.waitMs) / 1000.0, 0.0, w.scheduledS);
            if (ranS < w.scheduledS) {
                w.endS = w.startS + ranS;
                w.label = waitLabel(w.waitSource, w.scheduledS, w.rawWaitS, ranS);
            }
        }
        lane->outcome = u"cancelled"_s;
        break;
    }
}

QFont scaled(QFont font, double factor)
{
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else
        font.setPixelSize(std::max(1, int(std::lround(font.pixelSize() * factor))));
    return font;
}

/// Crisp one-pixel lines: the middle of the pixel column.
double crisp(double x)
{
    return std::floor(x) + 0.5;
}

} // namespace

QString waitLabel(const QString &source, double waitS, double rawWaitS, double ranS)
{
    const QString name = waitSourceDisplayName(source);
    if (source == u"credential-refresh")
        return name;
    if (ranS >= 0 && ranS < waitS - 0.0005)
        return TimelineWidget::tr("%1 %2 of %3")
            .arg(name, secondsText(tenths(ranS)), secondsText(waitS));
    if (rawWaitS > waitS + 0.0005)
        return TimelineWidget::tr("%1 %2 → %3")
            .arg(name, durationWords(rawWaitS), secondsText(waitS));
    return TimelineWidget::tr("%1 %2").arg(name, secondsText(waitS));
}

QList<TimelineLane> layoutTimeline(const QList<RetryRecord> &records)
{
    QList<TimelineLane> lanes;
    for (qsizetype i = 0; i < records.size(); ++i)
        applyRecord(lanes, records.at(i), int(i));
    return lanes;
}

// --- geometry ---------------------------------------------------------------------------------

struct TimelineWidget::Fonts
{
    Fonts(const QFont &base, const QPaintDevice *device)
        : normal(base)
        , strong(weighted(base, QFont::DemiBold))
        , small(scaled(base, 0.86))
        , tiny(weighted(scaled(base, 0.74), QFont::Bold))
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
    double outcomeX = 0;
    double laneH = 0;
    double contentH = 0; ///< all lanes, in view or not
    double scroll = 0; ///< pixels of lanes scrolled above the lanes area
    bool scrolling = false;
    double scrollBarW = 0;
    bool compactTitles = false;
    bool compactOutcomes = false;
    QList<LaneGeometry> lanes; ///< the lanes in view, in order

    double x(double s) const { return x0 + (x1 - x0) * std::clamp(s, 0.0, kBudgetS) / kBudgetS; }
};

namespace {

QString laneTitle(int request, bool compact = false)
{
    return compact ? TimelineWidget::tr("#%1").arg(request)
                   : TimelineWidget::tr("Send %1").arg(request);
}

/// "gave up: budget exhausted"; compact, for narrow widgets, without the reason.
QString outcomeText(const TimelineLane &lane, bool compact = false)
{
    if (lane.outcome == u"succeeded")
        return TimelineWidget::tr("succeeded");
    if (lane.outcome == u"cancelled")
        return TimelineWidget::tr("cancelled");
    if (lane.outcome.startsWith(u"gave_up")) {
        const qsizetype colon = lane.outcome.indexOf(u':');
        const QString reason = colon < 0 ? QString() : lane.outcome.mid(colon + 1).trimmed();
        return reason.isEmpty() || compact
            ? TimelineWidget::tr("gave up")
            : TimelineWidget::tr("gave up: %1").arg(reasonDisplayName(reason));
    }
    if (!lane.segments.isEmpty() && lane.segments.constLast().kind == TimelineSegment::Kind::Wait)
        return TimelineWidget::tr("waiting…");
    return TimelineWidget::tr("sending…");
}

int attemptCount(const TimelineLane &lane)
{
    return int(std::count_if(lane.segments.cbegin(), lane.segments.cend(),
        [](const TimelineSegment &s) { return s.kind == TimelineSegment::Kind::Attempt; }));
}

/// The line under the outcome. `liveElapsedS` >= 0: how far the running wait has got.
QString laneDetails(const TimelineLane &lane, double liveElapsedS = -1)
{
    const QString attempts = TimelineWidget::tr("attempts: %1").arg(attemptCount(lane));
    if (lane.outcome.isEmpty() && !lane.segments.isEmpty()
        && lane.segments.constLast().kind == TimelineSegment::Kind::Wait) {
        const TimelineSegment &wait = lane.segments.constLast();
        const double span = wait.endS - wait.startS;
        if (liveElapsedS >= 0)
            return TimelineWidget::tr("%1 · %2 of %3")
                .arg(attempts, secondsText(std::floor(std::min(liveElapsedS, span))),
                    secondsText(span));
        return TimelineWidget::tr("%1 · wait %2").arg(attempts, secondsText(span));
    }
    const bool cut = !lane.segments.isEmpty() && lane.segments.constLast().isCut();
    return TimelineWidget::tr("%1 · waited %2")
        .arg(attempts, secondsText(cut ? tenths(lane.endS()) : lane.endS()));
}

QColor outcomeColor(const TimelineLane &lane, const QPalette &palette)
{
    if (lane.outcome == u"succeeded")
        return categoryColor(u"success"_s, palette);
    if (lane.outcome.startsWith(u"gave_up"))
        return categoryColor(u"fatal"_s, palette);
    if (lane.outcome == u"cancelled")
        return categoryColor(u"cancelled"_s, palette);
    return palette.color(QPalette::WindowText);
}

} // namespace

TimelineWidget::Fonts TimelineWidget::fonts() const
{
    return Fonts(font(), this);
}

TimelineWidget::Geometry TimelineWidget::plotGeometry() const
{
    const Fonts f = fonts();
    const double h = f.fm.height();
    const double hs = f.fmSmall.height();
    const QRectF all(rect());
    const int total = int(m_lanes.size());

    Geometry g;
    g.margin = std::round(h * 0.6);
    g.lineW = std::max(1.0, std::round(hs / 14.0));
    g.markerD = std::round(hs * 1.35);
    g.barH = std::round(hs * 1.2);
    const double tick = std::round(hs * 0.35);

    // The left gutter (send titles) is measured over every send, not only the rows in view, so
    // that scrolling never moves the axis. When the titles would take too much, their short form
    // ("#3") is used in every row.
    const double room = all.width() - 2 * g.margin;
    const double leftMax = room * 0.2;
    const auto leftWidth = [&](bool compact) {
        double w = f.fmStrong.horizontalAdvance(laneTitle(std::max(1, total), compact));
        for (const TimelineLane &lane : m_lanes)
            w = std::max(w, f.fmStrong.horizontalAdvance(laneTitle(lane.request, compact)));
        return std::ceil(w) + g.margin;
    };
    double leftW = leftWidth(false);
    if (leftW > leftMax) {
        g.compactTitles = true;
        leftW = leftWidth(true);
    }
    leftW = std::min(leftW, leftMax);
    g.x0 = std::round(all.left() + g.margin + leftW + g.markerD / 2);

    // The legend, under the plot, wrapped into as many rows as the width needs: every category
    // stays named, none is cut off.
    const double dot = std::round(hs * 0.7);
    const double legendLeft = g.x0 - g.markerD / 2;
    const double legendRight = all.right() - g.margin;
    const double legendRowH = std::round(hs * 1.3);
    int legendRows = 1;
    {
        double x = legendLeft;
        for (const QString &category : legendCategories()) {
            QString name = categoryDisplayName(category);
            double w = dot + hs * 0.35 + f.fmSmall.horizontalAdvance(name);
            if (x > legendLeft && x + w > legendRight) {
                ++legendRows;
                x = legendLeft;
            }
            if (x + w > legendRight) { // alone in its row and still too wide
                name = f.fmSmall.elidedText(
                    name, Qt::ElideRight, std::max(0.0, legendRight - x - dot - hs * 0.35));
                w = std::max(dot, legendRight - x);
            }
            g.legendItems.append(
                { QRectF(x, (legendRows - 1) * legendRowH, w, hs), name, category });
            x += w + hs * 1.2;
        }
    }
    const double legendH = (legendRows - 1) * legendRowH + hs;

    // Rows from the top: labels of the cap and budget lines, the lanes, the axis right under
    // them, the legend; what is left over stays empty at the bottom.
    g.header = QRectF(
        all.left() + g.margin, all.top() + g.margin * 0.6, all.width() - 2 * g.margin, hs * 1.3);
    const double lanesTop
        = std::round(g.header.bottom() + hs * 0.25); // whole pixels: rows meet exactly
    const double below = hs * 0.25 + tick + hs + g.margin * 0.7 + legendH + g.margin * 0.6;
    const double available = std::max(0.0, all.bottom() - below - lanesTop);

    // Each row at its ideal height when all fit; squeezed down to a single line when that makes
    // them fit; else at the ideal height, scrolled.
    const double idealLaneH = std::round(std::max(h + hs + hs * 0.9, g.barH * 1.9));
    const double minLaneH = std::round(std::max(h * 1.45, g.barH * 1.35));
    double laneH = idealLaneH;
    if (total > 0 && total * idealLaneH > available) {
        if (total * minLaneH <= available)
            laneH = std::floor(available / total);
        else
            laneH = available >= idealLaneH * 2
                ? idealLaneH
                : std::max(minLaneH, std::min(idealLaneH, available));
    }
    g.laneH = laneH;
    g.contentH = total * laneH;
    // Without sends, room for the "No sends yet" note.
    double viewH
        = total == 0 ? std::min(available, idealLaneH * 2) : std::min(g.contentH, available);
    g.scrolling = total > 0 && g.contentH > viewH + 0.5;
    // Scrolled, the view holds whole rows, so a row is never cut at the top or the bottom.
    if (g.scrolling && available >= laneH)
        viewH = std::floor(available / laneH) * laneH;
    g.lanesArea = QRectF(all.left(), lanesTop, all.width(), viewH);
    g.axisY = std::round(g.lanesArea.bottom() + hs * 0.25);
    g.legend = QRectF(all.left() + g.margin, g.axisY + tick + hs + g.margin * 0.7,
        all.width() - 2 * g.margin, legendH);
    for (LegendItem &item : g.legendItems)
        item.rect.translate(0, g.legend.top());
    if (g.scrolling) {
        g.scrollBarW = style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
        g.scroll = std::clamp(double(m_scrollBar->value()), 0.0, g.contentH - viewH);
    }
    const double rowRight = all.right() - g.scrollBarW;
    const bool twoLines = laneH >= h + hs * 1.2;

    // Rows squeezed below their ideal height get slimmer bars and dots, so rows stay apart.
    g.barH = std::round(std::min(g.barH, laneH * 0.7));
    g.markerD = std::round(std::min(g.markerD, laneH * 0.62));

    // The right gutter (outcomes), measured over every send too; the plot gets the rest.
    const double rightMax = (rowRight - all.left() - 2 * g.margin) * 0.35;
    const double outcomeGap = g.markerD / 2 + g.margin * 0.6;
    const double budgetHalf
        = f.fmSmall.horizontalAdvance(tr("budget %1").arg(secondsText(kBudgetS))) / 2;
    const auto rightWidth = [&](bool compact) {
        // Room for a typical outcome even before there is one, so the axis stays put when the
        // first send arrives.
        double w = std::max(budgetHalf, f.fmStrong.horizontalAdvance(tr("succeeded")) + outcomeGap);
        if (twoLines && !compact)
            w = std::max(w,
                f.fmSmall.horizontalAdvance(
                    tr("%1 · waited %2").arg(tr("attempts: %1").arg(5), secondsText(kBudgetS)))
                    + outcomeGap);
        for (const TimelineLane &lane : m_lanes) {
            w = std::max(w, f.fmStrong.horizontalAdvance(outcomeText(lane, compact)) + outcomeGap);
            // Measured at its longest, so a running countdown never moves the axis; the short
            // form lets it be elided.
            if (twoLines && !compact)
                w = std::max(w,
                    f.fmSmall.horizontalAdvance(
                        laneDetails(lane, lane.request == m_liveRequest ? 1e9 : -1))
                        + outcomeGap);
        }
        return std::ceil(w) + 2;
    };
    double rightW = rightWidth(false);
    if (rightW > rightMax) {
        g.compactOutcomes = true;
        rightW = rightWidth(true);
    }
    rightW = std::min(rightW, rightMax);
    g.x1 = std::floor(rowRight - g.margin - rightW);
    if (g.x1 < g.x0 + 1)
        g.x1 = g.x0 + 1;
    g.outcomeX = g.x1 + g.markerD / 2 + g.margin * 0.6;

    for (int index = 0; index < total; ++index) {
        const double top = g.lanesArea.top() + index * laneH - g.scroll;
        if (top + laneH <= g.lanesArea.top() || top >= g.lanesArea.bottom())
            continue; // scrolled out of view
        const TimelineLane &lane = m_lanes.at(index);
        LaneGeometry gl;
        gl.index = index;
        gl.rect = QRectF(all.left(), top, rowRight - all.left(), laneH);
        gl.cy = std::round(gl.rect.center().y()) + 0.5;

        // Attempts closer than a marker (a key refresh waits 0 s) are nudged apart so each stays
        // visible; the nudge carries over to everything after it.
        double shift = 0;
        double lastAttemptX = -1e9;
        for (const TimelineSegment &s : lane.segments) {
            if (s.kind == TimelineSegment::Kind::Attempt) {
                double cx = g.x(s.startS) + shift;
                const double minX = lastAttemptX + g.markerD * 1.2;
                if (cx < minX) {
                    shift += minX - cx;
                    cx = minX;
                }
                lastAttemptX = cx;
                gl.segments.append(
                    QRectF(cx - g.markerD / 2, gl.cy - g.markerD / 2, g.markerD, g.markerD));
            } else {
                const double left = g.x(s.startS) + shift;
                const double right = g.x(s.endS) + shift;
                gl.segments.append(
                    QRectF(left, gl.cy - g.barH / 2, std::max(0.0, right - left), g.barH));
            }
        }
        // A wait reaches the marker of the attempt it leads to, nudged or not.
        for (qsizetype i = 0; i + 1 < lane.segments.size(); ++i) {
            if (lane.segments.at(i).kind == TimelineSegment::Kind::Wait
                && lane.segments.at(i + 1).kind == TimelineSegment::Kind::Attempt)
                gl.segments[i].setRight(
                    std::max(gl.segments.at(i).right(), gl.segments.at(i + 1).center().x()));
        }
        g.lanes.append(gl);
    }
    return g;
}

// --- widget -----------------------------------------------------------------------------------

TimelineWidget::TimelineWidget(QWidget *parent)
    : QWidget(parent)
    , m_scrollBar(new QScrollBar(Qt::Vertical, this))
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    // Every send of the conversation stays reachable: the lanes scroll under a fixed header,
    // axis and legend once they no longer fit.
    m_scrollBar->hide();
    m_scrollBar->setRange(0, 0);
    connect(m_scrollBar, &QScrollBar::valueChanged, this, [this] { update(); });
    setAccessibleName(tr("Retry timeline"));
    m_scrollBar->setAccessibleName(tr("Scroll the sends"));
    updateAccessibleDescription();
}

TimelineWidget::~TimelineWidget() = default;

void TimelineWidget::setLog(net::RetryLog *log)
{
    if (log == m_log)
        return;
    if (m_log)
        m_log->disconnect(this);
    m_log = log;
    if (log) {
        connect(log, &net::RetryLog::recordAppended, this, &TimelineWidget::onRecordAppended);
        connect(log, &net::RetryLog::cleared, this, &TimelineWidget::relayout);
        connect(log, &QObject::destroyed, this, &TimelineWidget::relayout);
    }
    m_liveRequest = -1;
    relayout();
}

net::RetryLog *TimelineWidget::log() const
{
    return m_log;
}

void TimelineWidget::setLiveWait(int request, double elapsedS)
{
    if (request == m_liveRequest && qFuzzyCompare(elapsedS + 1.0, m_liveElapsedS + 1.0))
        return;
    m_liveRequest = request;
    m_liveElapsedS = request < 0 ? 0.0 : std::max(0.0, elapsedS);
    update();
}

void TimelineWidget::onRecordAppended(int row)
{
    if (!m_log || row < m_appliedRows || m_log->records().size() < m_appliedRows) {
        relayout();
        return;
    }
    const QList<RetryRecord> &records = m_log->records();
    const qsizetype lanesBefore = m_lanes.size();
    for (; m_appliedRows < records.size(); ++m_appliedRows)
        applyRecord(m_lanes, records.at(m_appliedRows), m_appliedRows);
    if (m_lanes.size() != lanesBefore) {
        updateGeometry(); // the size hint grows with the sends
        updateScrollBar();
    }
    updateAccessibleDescription();
    update();
}

void TimelineWidget::relayout()
{
    m_lanes = m_log ? layoutTimeline(m_log->records()) : QList<TimelineLane>();
    m_appliedRows = m_log ? int(m_log->records().size()) : 0;
    updateGeometry();
    updateScrollBar();
    updateAccessibleDescription();
    update();
}

void TimelineWidget::updateScrollBar()
{
    // Following the newest send unless the user scrolled away from it.
    const bool atEnd = m_scrollBar->value() >= m_scrollBar->maximum();
    const Geometry g = plotGeometry();
    if (!g.scrolling) {
        m_scrollBar->hide();
        m_scrollBar->setRange(0, 0);
        return;
    }
    const int maximum = int(std::ceil(g.contentH - g.lanesArea.height()));
    m_scrollBar->setRange(0, maximum);
    m_scrollBar->setPageStep(std::max(1, int(g.lanesArea.height())));
    m_scrollBar->setSingleStep(std::max(1, int(g.laneH)));
    if (atEnd)
        m_scrollBar->setValue(maximum);
    m_scrollBar->setGeometry(
        QRectF(width() - g.scrollBarW, g.lanesArea.top(), g.scrollBarW, g.lanesArea.height())
            .toAlignedRect());
    m_scrollBar->show();
}

QScrollBar *TimelineWidget::verticalScrollBar() const
{
    return m_scrollBar;
}

QRect TimelineWidget::laneRect(int index) const
{
    if (index < 0 || index >= m_lanes.size())
        return {};
    const Geometry g = plotGeometry();
    return QRectF(g.lanesArea.left(), g.lanesArea.top() + index * g.laneH - g.scroll,
        g.lanesArea.width() - g.scrollBarW, g.laneH)
        .toAlignedRect();
}

QList<QRect> TimelineWidget::legendItemRects() const
{
    QList<QRect> out;
    for (const LegendItem &item : plotGeometry().legendItems)
        out << item.rect.toAlignedRect();
    return out;
}

void TimelineWidget::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    updateScrollBar();
}

void TimelineWidget::wheelEvent(QWheelEvent *event)
{
    if (m_scrollBar->isVisible())
        QCoreApplication::sendEvent(m_scrollBar, event);
    else
        QWidget::wheelEvent(event);
}

void TimelineWidget::updateAccessibleDescription()
{
    if (m_lanes.isEmpty()) {
        setAccessibleDescription(
            tr("Attempts and waits of each send against the %1 retry budget. No sends yet.")
                .arg(secondsText(kBudgetS)));
        return;
    }
    const TimelineLane &last = m_lanes.constLast();
    setAccessibleDescription(tr(
        "Sends in this session: %1. Latest, send %2: attempts: %3, waited %4 of the %5 budget, %6.")
                                 .arg(m_lanes.size())
                                 .arg(last.request)
                                 .arg(attemptCount(last))
                                 .arg(secondsText(last.endS()), secondsText(kBudgetS),
                                     outcomeText(last)));
}

double TimelineWidget::xForSeconds(double seconds) const
{
    return plotGeometry().x(seconds);
}

QRect TimelineWidget::lanesArea() const
{
    return plotGeometry().lanesArea.toAlignedRect();
}

const RetryRecord *TimelineWidget::recordAt(int row) const
{
    if (!m_log || row < 0 || row >= m_log->records().size())
        return nullptr;
    return &m_log->records().at(row);
}

QSize TimelineWidget::sizeHint() const
{
    const Fonts f = fonts();
    const double h = f.fm.height();
    const double hs = f.fmSmall.height();
    const double lanes = std::clamp(int(m_lanes.size()), 3, 6) * (h + hs * 1.9);
    return QSize(int(f.fm.averageCharWidth() * 90), int(std::ceil(h * 1.2 + hs * 5 + lanes)));
}

QSize TimelineWidget::minimumSizeHint() const
{
    const Fonts f = fonts();
    const double h = f.fm.height();
    const double hs = f.fmSmall.height();
    return QSize(int(f.fm.averageCharWidth() * 40), int(std::ceil(h * 1.2 + hs * 5 + h * 1.6)));
}

void TimelineWidget::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        updateGeometry();
        updateScrollBar();
    }
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange
        || event->type() == QEvent::PaletteChange || event->type() == QEvent::LanguageChange) {
        if (event->type() == QEvent::LanguageChange) {
            setAccessibleName(tr("Retry timeline"));
            relayout(); // segment labels are translated when laid out
        }
        update();
    }
    QWidget::changeEvent(event);
}

bool TimelineWidget::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        QRect area;
        const QString text = toolTipAt(help->pos(), &area);
        if (text.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, this, area);
        }
        return true;
    }
    return QWidget::event(event);
}

// --- tooltips ---------------------------------------------------------------------------------

QString TimelineWidget::toolTipAt(const QPoint &pos, QRect *area) const
{
    const Geometry g = plotGeometry();
    const QPointF p(pos);
    if (!g.lanesArea.contains(p))
        return {};
    for (const LaneGeometry &gl : g.lanes) {
        if (!gl.rect.contains(p))
            continue;
        const TimelineLane &lane = m_lanes.at(gl.index);
        const double slop = std::max(2.0, g.markerD * 0.2);
        // Markers sit on top of bars, so they win.
        for (int pass = 0; pass < 2; ++pass) {
            for (qsizetype i = 0; i < lane.segments.size(); ++i) {
                const TimelineSegment &s = lane.segments.at(i);
                const bool attempt = s.kind == TimelineSegment::Kind::Attempt;
                if (attempt != (pass == 0))
                    continue;
                const QRectF r = gl.segments.at(i).adjusted(-slop, -slop, slop, slop);
                if (r.contains(p)) {
                    if (area)
                        *area = r.toAlignedRect();
                    return describeSegment(lane, s);
                }
            }
        }
        if (area)
            *area = gl.rect.toAlignedRect();
        return describeLane(lane);
    }
    return {};
}

QString TimelineWidget::describeSegment(const TimelineLane &lane, const TimelineSegment &s) const
{
    const RetryRecord *r = recordAt(s.row);
    QStringList lines;
    auto line = [&lines](const QString &label, const QString &value) {
        lines << QString(u"<b>"_s + label.toHtmlEscaped() + u"</b> "_s + value.toHtmlEscaped());
    };
    if (s.kind == TimelineSegment::Kind::Attempt) {
        lines << QString(u"<b>"_s
            + tr("Send %1 · attempt %2 of %3")
                  .arg(lane.request)
                  .arg(s.attempt)
                  .arg(retry::kMaxAttempts)
                  .toHtmlEscaped()
            + u"</b>"_s);
        line(tr("Sent after:"), tr("%1 of scheduled waiting").arg(secondsText(s.startS)));
        if (s.category.isEmpty()) {
            line(tr("Status:"), tr("waiting for the response"));
        } else {
            line(tr("Status:"), s.status ? statusWords(*s.status) : tr("no HTTP status"));
            line(tr("Category:"), categoryDisplayName(s.category));
        }
        if (r && (r->used || r->limit)) {
            const QString used
                = r->used ? QLocale().toString(qlonglong(std::llround(*r->used))) : tr("?");
            const QString limit
                = r->limit ? QLocale().toString(qlonglong(std::llround(*r->limit))) : tr("?");
            line(tr("Tokens:"), tr("%1 used, limit %2").arg(used, limit));
        }
        if (r && !r->error.isEmpty()) {
            QString error = r->error;
            if (error.size() > 300)
                error = error.left(300) + u'…';
            line(tr("Error:"), error);
        }
    } else {
        lines << QString(u"<b>"_s
            + tr("Send %1 · wait after attempt %2").arg(lane.request).arg(s.attempt).toHtmlEscaped()
            + u"</b>"_s);
        const double waitS = s.scheduledS;
        line(tr("Source:"), waitSourceDisplayName(s.waitSource));
        if (s.waitSource != u"credential-refresh") {
            line(tr("Asked for:"), durationWords(s.rawWaitS));
            line(tr("Wait:"),
                s.rawWaitS > waitS + 0.0005
                    ? tr("%1 (capped at %2 per wait)").arg(secondsText(waitS), secondsText(kCapS))
                    : secondsText(waitS));
            if (s.isCut())
                line(tr("Cancelled:"),
                    tr("after %1 of the wait").arg(secondsText(tenths(s.endS - s.startS))));
        }
        if (r && r->waitedTotalMs && r->budgetLeftMs)
            line(tr("Budget:"),
                tr("%1 waited, %2 left of %3")
                    .arg(secondsText(double(*r->waitedTotalMs) / 1000.0),
                        secondsText(double(*r->budgetLeftMs) / 1000.0), secondsText(kBudgetS)));
        if (lane.outcome.isEmpty() && lane.request == m_liveRequest
            && &s == &lane.segments.constLast())
            line(tr("Elapsed:"), secondsText(std::min(m_liveElapsedS, waitS)));
        line(tr("After:"),
            tr("%1 failed with %2")
                .arg(tr("attempt %1").arg(s.attempt),
                    s.status ? statusWords(*s.status) : categoryDisplayName(s.category)));
    }
    return lines.join(u"<br>"_s);
}

QString TimelineWidget::describeLane(const TimelineLane &lane) const
{
    QStringList lines;
    lines << QString(u"<b>"_s + laneTitle(lane.request).toHtmlEscaped() + u"</b>"_s);
    if (lane.started.isValid())
        lines << tr("Started %1")
                     .arg(QLocale().toString(lane.started.toLocalTime().time(), u"HH:mm:ss"_s))
                     .toHtmlEscaped();
    lines << QString(outcomeText(lane) + u" · "_s + laneDetails(lane)).toHtmlEscaped();
    if (!lane.segments.isEmpty()) {
        if (const RetryRecord *r = recordAt(lane.segments.constLast().row);
            r && !r->error.isEmpty()) {
            QString error = r->error;
            if (error.size() > 300)
                error = error.left(300) + u'…';
            lines << error.toHtmlEscaped();
        }
    }
    return lines.join(u"<br>"_s);
}

// --- painting ---------------------------------------------------------------------------------

void TimelineWidget::paintEvent(QPaintEvent *)
{
    const Geometry g = plotGeometry();
    const Fonts f = fonts();
    const QPalette &pal = palette();
    const QColor window = pal.color(QPalette::Window);
    const QColor text = pal.color(QPalette::WindowText);
    const QColor quiet = blend(text, window, 0.42); // secondary text
    const QColor faint = blend(text, window, 0.86); // grid, tracks
    const double hs = f.fmSmall.height();

    QPainter p(this);
    p.fillRect(rect(), window);
    p.setRenderHint(QPainter::Antialiasing);

    // Alternate rows, so a send's dots, bars and outcome read as one line. Odd sends are striped,
    // so a row keeps its look as it scrolls.
    const QColor stripe = blend(window, text, 0.045);
    p.save();
    p.setClipRect(g.lanesArea);
    for (const LaneGeometry &gl : g.lanes) {
        if (gl.index % 2 == 1)
            p.fillRect(gl.rect, stripe);
    }
    p.restore();

    // Grid every 20 s, then the two policy lines over it.
    const double gridTop = g.lanesArea.top();
    p.setPen(QPen(faint, g.lineW));
    for (double s = kTickS; s < kBudgetS; s += kTickS) {
        if (qFuzzyCompare(s, kCapS))
            continue;
        const double x = crisp(g.x(s));
        p.drawLine(QPointF(x, gridTop), QPointF(x, g.axisY));
    }
    const QColor capColor = quiet;
    const QColor budgetColor = categoryColor(u"fatal"_s, pal);
    auto dashed = [&](double x, const QColor &c, double width) {
        QPen pen(c, width);
        pen.setDashPattern({ 4.0, 3.0 });
        pen.setCapStyle(Qt::FlatCap);
        p.setPen(pen);
        p.drawLine(QPointF(crisp(x), g.header.bottom() - hs * 0.1),
            QPointF(crisp(x), g.axisY + std::round(hs * 0.35)));
    };
    dashed(g.x(kCapS), capColor, g.lineW);
    dashed(g.x(kBudgetS), budgetColor, g.lineW);

    // Their labels above the lanes, centred on the line when there is room, else pulled inside.
    p.setFont(f.small);
    const QString budgetLabel = tr("budget %1").arg(secondsText(kBudgetS));
    const QString capLabel = tr("per-wait cap");
    const double budgetW = f.fmSmall.horizontalAdvance(budgetLabel);
    const double capW = f.fmSmall.horizontalAdvance(capLabel);
    QRectF budgetRect(g.x(kBudgetS) - budgetW / 2, g.header.top(), budgetW, g.header.height());
    if (budgetRect.right() > g.header.right())
        budgetRect.moveRight(g.header.right());
    QRectF capRect(g.x(kCapS) - capW / 2, g.header.top(), capW, g.header.height());
    p.setPen(budgetColor);
    p.drawText(budgetRect, Qt::AlignCenter, budgetLabel);
    if (capRect.right() + g.margin / 2 < budgetRect.left() && capRect.left() > g.header.left()) {
        p.setPen(capColor);
        p.drawText(capRect, Qt::AlignCenter, capLabel);
    }

    if (g.lanes.isEmpty()) {
        p.setFont(f.normal);
        p.setPen(quiet);
        const QString empty = tr("No sends yet");
        const QRectF plot(g.x0, g.lanesArea.top(), g.x1 - g.x0, g.lanesArea.height());
        QRectF box = f.fm.boundingRect(plot, Qt::AlignCenter, empty);
        box.adjust(-g.margin, -g.margin / 3, g.margin, g.margin / 3);
        // On a patch of window colour: the grid and the cap line would cross the text.
        p.setPen(Qt::NoPen);
        p.setBrush(window);
        p.drawRoundedRect(box, hs * 0.4, hs * 0.4);
        p.setPen(quiet);
        p.drawText(plot, Qt::AlignCenter, empty);
    }

    p.save();
    p.setClipRect(g.lanesArea.adjusted(0, 0, -g.scrollBarW, 0));
    for (const LaneGeometry &gl : g.lanes)
        paintLane(p, g, f, gl);
    p.restore();

    // Axis: policy seconds of scheduled waiting.
    const double tick = std::round(hs * 0.35);
    p.setPen(QPen(quiet, g.lineW));
    p.drawLine(QPointF(g.x0, crisp(g.axisY)), QPointF(g.x1, crisp(g.axisY)));
    p.setFont(f.small);
    const double labelW = f.fmSmall.horizontalAdvance(secondsText(kBudgetS));
    const int step = (g.x(kTickS) - g.x0) > labelW * 1.4 ? 1 : 3;
    for (int i = 0; i * kTickS <= kBudgetS + 0.001; ++i) {
        const double s = i * kTickS;
        const double x = crisp(g.x(s));
        p.setPen(QPen(quiet, g.lineW));
        p.drawLine(QPointF(x, crisp(g.axisY)), QPointF(x, g.axisY + tick));
        if (i % step != 0)
            continue;
        const QString label = s >= kBudgetS ? secondsText(s) : number(s);
        const double w = f.fmSmall.horizontalAdvance(label);
        p.setPen(s >= kBudgetS ? budgetColor : quiet);
        p.drawText(QRectF(x - w / 2, g.axisY + tick, w, hs), Qt::AlignCenter, label);
    }

    // Legend: one dot per category, in as many rows as it took.
    p.setFont(f.small);
    const double dot = std::round(hs * 0.7);
    for (const LegendItem &item : g.legendItems) {
        const QString &category = item.category;
        const QRectF d(item.rect.left(), item.rect.center().y() - dot / 2, dot, dot);
        if (category == u"running") {
            p.setPen(QPen(text, std::max(1.0, g.lineW * 1.5)));
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(d.adjusted(0.75, 0.75, -0.75, -0.75));
        } else {
            p.setPen(Qt::NoPen);
            p.setBrush(categoryColor(category, pal));
            p.drawEllipse(d);
        }
        p.setPen(quiet);
        p.drawText(QRectF(d.right() + hs * 0.35, item.rect.top(),
                       item.rect.right() - d.right() - hs * 0.35 + 1, item.rect.height()),
            Qt::AlignLeft | Qt::AlignVCenter, item.name);
    }
}

void TimelineWidget::paintLane(
    QPainter &p, const Geometry &g, const Fonts &f, const LaneGeometry &gl) const
{
    const TimelineLane &lane = m_lanes.at(gl.index);
    const QPalette &pal = palette();
    const QColor window = pal.color(QPalette::Window);
    const QColor text = pal.color(QPalette::WindowText);
    const QColor quiet = blend(text, window, 0.42);
    const bool dark = isDarkPalette(pal);
    const double h = f.fm.height();
    const double hs = f.fmSmall.height();
    const bool twoLines = gl.rect.height() >= h + hs * 1.2;

    // Title (and start time when there is room) in the left gutter.
    const double leftX = g.margin;
    const double titleW = g.x0 - g.markerD / 2 - g.margin - leftX;
    p.setFont(f.strong);
    p.setPen(text);
    const QString title
        = f.fmStrong.elidedText(laneTitle(lane.request, g.compactTitles), Qt::ElideRight, titleW);
    if (twoLines && lane.started.isValid()) {
        const double top = gl.cy - (h + hs) / 2;
        p.drawText(QRectF(leftX, top, titleW, h), Qt::AlignLeft | Qt::AlignVCenter, title);
        p.setFont(f.small);
        p.setPen(quiet);
        p.drawText(QRectF(leftX, top + h, titleW, hs), Qt::AlignLeft | Qt::AlignVCenter,
            QLocale().toString(lane.started.toLocalTime().time(), u"HH:mm:ss"_s));
    } else {
        p.drawText(
            QRectF(leftX, gl.cy - h / 2, titleW, h), Qt::AlignLeft | Qt::AlignVCenter, title);
    }

    // Waits first, attempts on top.
    for (qsizetype i = 0; i < lane.segments.size(); ++i) {
        const TimelineSegment &s = lane.segments.at(i);
        if (s.kind != TimelineSegment::Kind::Wait)
            continue;
        QRectF bar = gl.segments.at(i);
        const QColor c = categoryColor(s.category, pal);
        const double radius = std::min(bar.height() / 2, hs * 0.4);
        // A wait a cancel cut short: the part that ran drawn as any wait, what was still to come
        // only outlined with dashes.
        QRectF planned = bar;
        if (s.isCut()) {
            planned.setRight(bar.left() + g.x(s.startS + s.scheduledS) - g.x(s.startS));
            QPen dashes(blend(window, c, 0.45), g.lineW);
            dashes.setDashPattern({ 3.0, 3.0 });
            p.setPen(dashes);
            p.setBrush(Qt::NoBrush);
            p.drawRoundedRect(planned, radius, radius);
        }
        if (bar.width() < 1 && !s.isCut())
            continue;
        QPainterPath path;
        path.addRoundedRect(bar, radius, radius);
        const bool running = lane.outcome.isEmpty() && i == lane.segments.size() - 1;
        if (running) {
            // The elapsed part filled, the rest hatched: the wait still to come.
            const double elapsed = lane.request == m_liveRequest ? m_liveElapsedS : 0.0;
            const double span = std::max(1e-9, s.endS - s.startS);
            const double split = bar.left() + bar.width() * std::clamp(elapsed / span, 0.0, 1.0);
            p.save();
            p.setClipPath(path);
            p.fillRect(bar, window);
            p.fillRect(QRectF(bar.left(), bar.top(), split - bar.left(), bar.height()),
                blend(window, c, dark ? 0.45 : 0.34));
            p.setClipRect(
                QRectF(split, bar.top(), bar.right() - split, bar.height()), Qt::IntersectClip);
            p.setPen(QPen(blend(window, c, 0.5), g.lineW));
            const double gap = std::max(4.0, std::round(hs * 0.4));
            for (double hx = split - bar.height(); hx < bar.right(); hx += gap)
                p.drawLine(QPointF(hx, bar.bottom()), QPointF(hx + bar.height(), bar.top()));
            p.restore();
        } else {
            // Opaque, so grid lines do not run through the label.
            p.fillPath(path, blend(window, c, dark ? 0.30 : 0.22));
        }
        p.setPen(QPen(c, g.lineW));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        if (running && lane.request == m_liveRequest && m_liveElapsedS > 0) {
            // "Now": notches at the edges that stay clear of the label.
            const double span = std::max(1e-9, s.endS - s.startS);
            const double x = bar.left() + bar.width() * std::clamp(m_liveElapsedS / span, 0.0, 1.0);
            const double notch = std::max(2.0, std::round(bar.height() * 0.22));
            p.setPen(QPen(c, g.lineW * 2, Qt::SolidLine, Qt::FlatCap));
            p.drawLine(QPointF(x, bar.top() - notch / 2), QPointF(x, bar.top() + notch));
            p.drawLine(QPointF(x, bar.bottom() - notch), QPointF(x, bar.bottom() + notch / 2));
        }

        // The label between the markers at its ends: full, else just the figures, else elided.
        const bool attemptAfter = i + 1 < lane.segments.size();
        const double pad = hs * 0.35;
        const double left = planned.left() + g.markerD / 2 + pad;
        const double right = planned.right() - (attemptAfter ? g.markerD / 2 : 0) - pad;
        const double room = right - left;
        if (room <= f.fmSmall.horizontalAdvance(u"…"_s) * 2)
            continue;
        QString label = s.label;
        if (f.fmSmall.horizontalAdvance(label) > room) {
            const QString figures
                = s.waitSource == u"credential-refresh" ? s.label : secondsText(s.endS - s.startS);
            label = f.fmSmall.horizontalAdvance(figures) <= room
                ? figures
                : f.fmSmall.elidedText(s.label, Qt::ElideRight, room);
        }
        p.setFont(f.small);
        p.setPen(text);
        p.drawText(QRectF(left, bar.top(), room, bar.height()), Qt::AlignCenter, label);
    }

    for (qsizetype i = 0; i < lane.segments.size(); ++i) {
        const TimelineSegment &s = lane.segments.at(i);
        if (s.kind != TimelineSegment::Kind::Attempt)
            continue;
        const QRectF m = gl.segments.at(i);
        const QString n = QLocale().toString(s.attempt);
        p.setFont(f.tiny);
        if (s.category.isEmpty()) {
            p.setPen(QPen(text, std::max(1.5, g.lineW * 1.5)));
            p.setBrush(window);
            p.drawEllipse(m.adjusted(0.75, 0.75, -0.75, -0.75));
            p.setPen(text);
        } else {
            const QColor c = categoryColor(s.category, pal);
            p.setPen(QPen(window, g.lineW));
            p.setBrush(c);
            p.drawEllipse(m);
            // Category colours are dark on light themes and light on dark ones.
            p.setPen(dark ? QColor(Qt::black) : QColor(Qt::white));
        }
        p.drawText(m, Qt::AlignCenter, n);
    }

    // Outcome at the right, past the budget line.
    const double outW = gl.rect.right() - g.margin - g.outcomeX;
    if (outW <= 0)
        return;
    const QString outcome
        = f.fmStrong.elidedText(outcomeText(lane, g.compactOutcomes), Qt::ElideRight, outW);
    p.setFont(f.strong);
    p.setPen(outcomeColor(lane, pal));
    if (twoLines) {
        const double top = gl.cy - (h + hs) / 2;
        p.drawText(QRectF(g.outcomeX, top, outW, h), Qt::AlignLeft | Qt::AlignVCenter, outcome);
        p.setFont(f.small);
        p.setPen(quiet);
        p.drawText(QRectF(g.outcomeX, top + h, outW, hs), Qt::AlignLeft | Qt::AlignVCenter,
            f.fmSmall.elidedText(
                laneDetails(lane, lane.request == m_liveRequest ? m_liveElapsedS : -1),
                Qt::ElideRight, outW));
    } else {
        p.drawText(
            QRectF(g.outcomeX, gl.cy - h / 2, outW, h), Qt::AlignLeft | Qt::AlignVCenter, outcome);
    }
}

} // namespace capwatch::ui
