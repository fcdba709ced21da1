#include "session/retrytexts.h"
#include "ui/panel/categorycolors.h"
#include "ui/timeline/timelinewidget_p.h"

#include <QLocale>
#include <QScrollBar>
#include <QStyle>
#include <cmath>

// The geometry of the timeline: where the gutters, lanes, axis and legend go for the widget's
// size, font and sends.

namespace capwatch::ui {

using namespace Qt::StringLiterals;
using namespace timeline;

QString timeline::number(double value)
{
    return QLocale().toString(
        std::round(value * 1000.0) / 1000.0, 'f', QLocale::FloatingPointShortest);
}

QFont timeline::scaled(QFont font, double factor)
{
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else
        font.setPixelSize(std::max(1, int(std::lround(font.pixelSize() * factor))));
    return font;
}

double timeline::crisp(double x)
{
    return std::floor(x) + 0.5;
}

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
    g.budgetS = budgetS();
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
    // A paced send is drawn in a column of its own before the axis' 0 (its wait is not the
    // budget's), as wide as its longest label, at most a sixth of the row.
    double paceLabelW = 0;
    bool anyPaced = false;
    for (const TimelineLane &lane : m_lanes) {
        if (const TimelineSegment *paced = lane.paced()) {
            anyPaced = true;
            paceLabelW = std::max(paceLabelW, f.fmSmall.horizontalAdvance(paced->label));
        }
    }
    if (anyPaced) {
        const double paceW = std::min(std::ceil(paceLabelW + hs * 1.2), room / 6);
        const double paceBreakW = std::round(g.markerD * 1.6);
        g.paceX0 = std::round(all.left() + g.margin + leftW);
        g.paceX1 = g.paceX0 + paceW;
        g.paceBreakX = g.paceX1 + paceBreakW / 2;
        g.x0 = std::round(g.paceX1 + paceBreakW + g.markerD / 2);
    } else {
        g.x0 = std::round(all.left() + g.margin + leftW + g.markerD / 2);
    }

    // A parked send is drawn in a column of its own beyond the axis; its labels are measured
    // over every send, like the gutters.
    double parkLabelW = 0;
    bool anyParked = false;
    for (const TimelineLane &lane : m_lanes) {
        if (const TimelineSegment *parked = lane.parked()) {
            anyParked = true;
            parkLabelW = std::max(parkLabelW, f.fmSmall.horizontalAdvance(parked->label));
        }
    }

    // The legend, under the plot, wrapped into as many rows as the width needs: every category
    // stays named, none is cut off. `parked` joins it while a send was parked.
    QStringList legend = legendCategories();
    if (anyParked)
        legend.insert(legend.size() - 1, u"parked"_s);
    if (anyPaced)
        legend.insert(legend.size() - 1, u"paced"_s);
    const double dot = std::round(hs * 0.7);
    const double legendLeft = anyPaced ? g.paceX0 : g.x0 - g.markerD / 2;
    const double legendRight = all.right() - g.margin;
    const double legendRowH = std::round(hs * 1.3);
    int legendRows = 1;
    {
        double x = legendLeft;
        for (const QString &category : std::as_const(legend)) {
            QString name = session::RetryTexts::category(category);
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
        = f.fmSmall.horizontalAdvance(tr("budget %1").arg(session::RetryTexts::seconds(budgetS())))
        / 2;
    const auto rightWidth = [&](bool compact) {
        // Room for a typical outcome even before there is one, so the axis stays put when the
        // first send arrives.
        double w = std::max(budgetHalf, f.fmStrong.horizontalAdvance(tr("succeeded")) + outcomeGap);
        if (twoLines && !compact)
            w = std::max(w,
                f.fmSmall.horizontalAdvance(tr("%1 · waited %2")
                                                .arg(tr("attempts: %1").arg(m_limits.maxAttempts),
                                                    session::RetryTexts::seconds(budgetS())))
                    + outcomeGap);
        for (const TimelineLane &lane : m_lanes) {
            w = std::max(w,
                f.fmStrong.horizontalAdvance(
                    outcomeText(lane, compact ? OutcomeWords::Compact : OutcomeWords::Short))
                    + outcomeGap);
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
    // The parked column: a break mark right after the budget's last marker, then the bar, as
    // wide as its longest label, or a fifth of the row when that is less (the label then
    // shortens, see paintLane()).
    const double breakW = anyParked ? std::round(g.markerD * 1.6) : 0;
    const double parkW = anyParked
        ? std::min(std::ceil(parkLabelW + hs * 1.2), (rowRight - all.left() - 2 * g.margin) * 0.2)
        : 0;
    g.x1 = std::floor(rowRight - g.margin - rightW - (anyParked ? breakW + parkW : 0));
    if (g.x1 < g.x0 + 1)
        g.x1 = g.x0 + 1;
    g.breakX = g.x1 + g.markerD / 2 + breakW / 2;
    g.parkX0 = std::round(g.x1 + g.markerD / 2 + breakW);
    g.parkX1 = g.parkX0 + parkW;
    g.outcomeX = (anyParked ? g.parkX1 : g.x1 + g.markerD / 2) + g.margin * 0.6;

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
            } else if (s.kind == TimelineSegment::Kind::Parked) {
                gl.segments.append(
                    QRectF(g.parkX0, gl.cy - g.barH / 2, g.parkX1 - g.parkX0, g.barH));
            } else if (s.kind == TimelineSegment::Kind::Paced) {
                gl.segments.append(
                    QRectF(g.paceX0, gl.cy - g.barH / 2, g.paceX1 - g.paceX0, g.barH));
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

} // namespace capwatch::ui
