#include "session/retrytexts.h"
#include "ui/panel/categorycolors.h"
#include "ui/timeline/timelinewidget_p.h"

#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <cmath>

// The painting of the timeline: the policy lines, the lanes, the axis and the legend, where
// plotGeometry() put them.

namespace capwatch::ui {

namespace {

/// A break of the axis at `x`: two slanted strokes `gap` either side, `half` high above and
/// below `cy`, leaning `slant`.
void drawBreak(
    QPainter &p, const QPen &pen, double x, double gap, double cy, double half, double slant)
{
    p.setPen(pen);
    for (const double at : { x - gap, x + gap })
        p.drawLine(QPointF(at - slant, cy + half), QPointF(at + slant, cy - half));
}

} // namespace

using namespace Qt::StringLiterals;
using namespace timeline;

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
    for (double s = tickS(); s < budgetS(); s += tickS()) {
        if (qFuzzyCompare(s, capS()))
            continue;
        const double x = crisp(g.x(s));
        p.drawLine(QPointF(x, gridTop), QPointF(x, g.axisY));
    }
    const QColor capColor = quiet;
    const QColor budgetColor = categoryColor(retry::Category::Fatal, pal);
    auto dashed = [&](double x, const QColor &c, double width) {
        QPen pen(c, width);
        pen.setDashPattern({ 4.0, 3.0 });
        pen.setCapStyle(Qt::FlatCap);
        p.setPen(pen);
        p.drawLine(QPointF(crisp(x), g.header.bottom() - hs * 0.1),
            QPointF(crisp(x), g.axisY + std::round(hs * 0.35)));
    };
    dashed(g.x(capS()), capColor, g.lineW);
    dashed(g.x(budgetS()), budgetColor, g.lineW);

    // Their labels above the lanes, centred on the line when there is room, else pulled inside.
    p.setFont(f.small);
    const QString budgetLabel = tr("budget %1").arg(session::RetryTexts::seconds(budgetS()));
    const QString capLabel = tr("per-wait cap");
    const double budgetW = f.fmSmall.horizontalAdvance(budgetLabel);
    const double capW = f.fmSmall.horizontalAdvance(capLabel);
    QRectF budgetRect(g.x(budgetS()) - budgetW / 2, g.header.top(), budgetW, g.header.height());
    if (budgetRect.right() > g.header.right())
        budgetRect.moveRight(g.header.right());
    QRectF capRect(g.x(capS()) - capW / 2, g.header.top(), capW, g.header.height());
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
    const double labelW = f.fmSmall.horizontalAdvance(session::RetryTexts::seconds(budgetS()));
    const int step = (g.x(tickS()) - g.x0) > labelW * 1.4 ? 1 : 3;
    for (int i = 0; i * tickS() <= budgetS() + 0.001; ++i) {
        const double s = i * tickS();
        const double x = crisp(g.x(s));
        p.setPen(QPen(quiet, g.lineW));
        p.drawLine(QPointF(x, crisp(g.axisY)), QPointF(x, g.axisY + tick));
        if (i % step != 0)
            continue;
        const QString label = s >= budgetS() ? session::RetryTexts::seconds(s) : number(s);
        const double w = f.fmSmall.horizontalAdvance(label);
        p.setPen(s >= budgetS() ? budgetColor : quiet);
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
    const double titleW = g.gutterRight() - g.margin - leftX;
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
        const QColor c = segmentColor(s, pal);
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
        const bool running
            = lane.outcome == TimelineLane::Outcome::Running && i == lane.segments.size() - 1;
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
            const QString figures = s.waitSource == retry::WaitSource::CredentialRefresh
                ? s.label
                : session::RetryTexts::seconds(s.endS - s.startS);
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
        if (s.isRunning()) {
            p.setPen(QPen(text, std::max(1.5, g.lineW * 1.5)));
            p.setBrush(window);
            p.drawEllipse(m.adjusted(0.75, 0.75, -0.75, -0.75));
            p.setPen(text);
        } else {
            const QColor c = segmentColor(s, pal);
            p.setPen(QPen(window, g.lineW));
            p.setBrush(c);
            p.drawEllipse(m);
            // Category colours are dark on light themes and light on dark ones.
            p.setPen(dark ? QColor(Qt::black) : QColor(Qt::white));
        }
        p.drawText(m, Qt::AlignCenter, n);
    }

    // Interrupted: its answer began on the last attempt and stopped. A short stroke out of that
    // attempt's marker (the answer that came), cut by a slanted one.
    if (const TimelineSegment *last = lastAttempt(lane); last && lane.interrupted) {
        const QRectF m = gl.segments.at(qsizetype(last - lane.segments.constData()));
        const QColor c = outcomeColor(lane, pal);
        const double from = m.right() + g.lineW;
        const double to = from + std::max(4.0, std::round(m.width() * 0.7));
        const double half = m.height() * 0.42;
        const double slant = std::max(2.0, std::round(m.height() * 0.18));
        p.setPen(QPen(c, std::max(1.5, g.lineW * 1.5), Qt::SolidLine, Qt::FlatCap));
        p.drawLine(QPointF(from, gl.cy), QPointF(to, gl.cy));
        p.drawLine(QPointF(to - slant, gl.cy + half), QPointF(to + slant, gl.cy - half));
    }

    // Parked: beyond the axis, where its hours would not fit, after a break mark; a quiet
    // dotted line leads there from where the send gave up.
    for (qsizetype i = 0; i < lane.segments.size(); ++i) {
        const TimelineSegment &s = lane.segments.at(i);
        if (s.kind != TimelineSegment::Kind::Parked)
            continue;
        const QRectF bar = gl.segments.at(i);
        const QColor c = segmentColor(s, pal);
        const bool now = s.isParkedNow();
        const double from = i > 0 ? gl.segments.at(i - 1).right() : g.x0;
        const double gap = std::max(3.0, std::round(hs * 0.3));
        const double slant = std::max(2.0, std::round(bar.height() * 0.18));
        QPen dots(quiet, g.lineW, Qt::DotLine, Qt::FlatCap);
        p.setPen(dots);
        if (from < g.breakX - gap)
            p.drawLine(QPointF(from + g.lineW, gl.cy), QPointF(g.breakX - gap, gl.cy));
        p.drawLine(QPointF(g.breakX + gap, gl.cy), QPointF(bar.left(), gl.cy));
        // The break: two slanted strokes, the axis' time stops counting here.
        drawBreak(p, QPen(quiet, g.lineW * 1.5, Qt::SolidLine, Qt::FlatCap), g.breakX, gap, gl.cy,
            bar.height() * 0.42, slant);

        // Waiting: filled, solid; gone out or cancelled: fainter, dashed.
        const double radius = std::min(bar.height() / 2, hs * 0.4);
        QPainterPath path;
        path.addRoundedRect(bar, radius, radius);
        p.fillPath(path, blend(window, c, now ? (dark ? 0.30 : 0.22) : 0.10));
        QPen border(now ? c : blend(window, c, 0.6), g.lineW);
        if (!now)
            border.setDashPattern({ 3.0, 3.0 });
        p.setPen(border);
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);

        // The label: whole, else the reset time or the reason alone, else elided.
        const double room = bar.width() - hs * 0.7;
        if (room <= f.fmSmall.horizontalAdvance(u"…"_s) * 2)
            continue;
        QString label = s.label;
        if (f.fmSmall.horizontalAdvance(label) > room) {
            const QString shorter = now
                ? (s.resetAt.isValid() ? session::RetryTexts::clockTime(s.resetAt) : s.label)
                : session::RetryTexts::unpark(s.unpark);
            label = f.fmSmall.horizontalAdvance(shorter) <= room
                ? shorter
                : f.fmSmall.elidedText(s.label, Qt::ElideRight, room);
        }
        p.setFont(f.small);
        p.setPen(now ? text : quiet);
        p.drawText(bar, Qt::AlignCenter, label);
    }

    // Paced: before the axis' 0, where its wait is not the budget's, then a break mark and a
    // quiet dotted line to attempt 1.
    if (const TimelineSegment *s = lane.paced()) {
        const QRectF bar = gl.segments.constFirst();
        const QColor c = segmentColor(*s, pal);
        const double gap = std::max(3.0, std::round(hs * 0.3));
        const double slant = std::max(2.0, std::round(bar.height() * 0.18));
        const double to = gl.segments.size() > 1 ? gl.segments.at(1).left() : g.x0;
        p.setPen(QPen(quiet, g.lineW, Qt::DotLine, Qt::FlatCap));
        p.drawLine(QPointF(bar.right(), gl.cy), QPointF(g.paceBreakX - gap, gl.cy));
        if (to > g.paceBreakX + gap)
            p.drawLine(QPointF(g.paceBreakX + gap, gl.cy), QPointF(to, gl.cy));
        drawBreak(p, QPen(quiet, g.lineW * 1.5, Qt::SolidLine, Qt::FlatCap), g.paceBreakX, gap,
            gl.cy, bar.height() * 0.42, slant);
        const double radius = std::min(bar.height() / 2, hs * 0.4);
        QPainterPath path;
        path.addRoundedRect(bar, radius, radius);
        p.fillPath(path, blend(window, c, dark ? 0.30 : 0.22));
        p.setPen(QPen(c, g.lineW));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        const double room = bar.width() - hs * 0.7;
        if (room > f.fmSmall.horizontalAdvance(u"…"_s) * 2) {
            QString label = s->label;
            if (f.fmSmall.horizontalAdvance(label) > room) {
                // The time it really paced: what ran before Send now, else the plan.
                const QString figures
                    = session::RetryTexts::seconds(s->ranS >= 0 ? s->ranS : s->scheduledS);
                label = f.fmSmall.horizontalAdvance(figures) <= room
                    ? figures
                    : f.fmSmall.elidedText(s->label, Qt::ElideRight, room);
            }
            p.setFont(f.small);
            p.setPen(text);
            p.drawText(bar, Qt::AlignCenter, label);
        }
    }

    // Outcome at the right, past the budget line.
    const double outW = gl.rect.right() - g.margin - g.outcomeX;
    if (outW <= 0)
        return;
    const QString outcome = f.fmStrong.elidedText(
        outcomeText(lane, g.compactOutcomes ? OutcomeWords::Compact : OutcomeWords::Short),
        Qt::ElideRight, outW);
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
