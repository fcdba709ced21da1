#include "ui/timeline/timelinewidget.h"

#include "session/retrytexts.h"
#include "ui/panel/categorycolors.h"
#include "ui/timeline/timelinewidget_p.h"

#include <QCoreApplication>
#include <QEvent>
#include <QHelpEvent>
#include <QLocale>
#include <QPalette>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>

namespace capwatch::ui {

using namespace Qt::StringLiterals;
using namespace timeline;
using net::RetryRecord;

// --- words of a lane --------------------------------------------------------------------------

QString timeline::laneTitle(int request, bool compact)
{
    return compact ? TimelineWidget::tr("#%1").arg(request)
                   : TimelineWidget::tr("Send %1").arg(request);
}

retry::PolicyLimits timeline::laneLimits(const TimelineLane &lane)
{
    retry::PolicyLimits limits;
    // "all 3 attempts failed": a send that ran out of attempts made all it had.
    if (lane.reason == retry::EndReason::AttemptsExhausted && lane.attemptCount() > 0)
        limits.maxAttempts = lane.attemptCount();
    if (lane.budgetS)
        limits.budget = retry::Millis(qint64(std::llround(*lane.budgetS * 1000.0)));
    return limits;
}

QString timeline::outcomeText(const TimelineLane &lane, OutcomeWords words)
{
    // Its answer began and stopped before its end: what came is kept, Continue goes on with it.
    if (lane.interrupted
        && (lane.outcome == TimelineLane::Outcome::GaveUp
            || lane.outcome == TimelineLane::Outcome::Cancelled)) {
        if (words != OutcomeWords::Sentence)
            return TimelineWidget::tr("interrupted");
        TimelineLane ended = lane;
        ended.interrupted = false;
        return TimelineWidget::tr("interrupted: its answer stopped part-way and what came is "
                                  "kept; %1")
            .arg(outcomeText(ended, words));
    }
    switch (lane.outcome) {
    case TimelineLane::Outcome::Succeeded:
        return TimelineWidget::tr("succeeded");
    case TimelineLane::Outcome::Cancelled:
        return TimelineWidget::tr("cancelled");
    case TimelineLane::Outcome::Parked: {
        const TimelineSegment *parked = lane.parked();
        if (words != OutcomeWords::Sentence || !parked || !parked->resetAt.isValid())
            return TimelineWidget::tr("parked");
        return TimelineWidget::tr("parked until %1: it goes out again at the provider's reset")
            .arg(session::RetryTexts::clockTime(parked->resetAt));
    }
    case TimelineLane::Outcome::GaveUp:
        if (lane.reason == retry::EndReason::None || words == OutcomeWords::Compact)
            return TimelineWidget::tr("gave up");
        return TimelineWidget::tr("gave up: %1")
            .arg(words == OutcomeWords::Sentence
                    ? session::RetryTexts::reasonSentence(lane.reason, laneLimits(lane))
                    : session::RetryTexts::reason(lane.reason));
    case TimelineLane::Outcome::Running:
        break;
    }
    if (!lane.segments.isEmpty() && lane.segments.constLast().kind == TimelineSegment::Kind::Wait)
        return TimelineWidget::tr("waiting…");
    return TimelineWidget::tr("sending…");
}

QString timeline::laneDetails(const TimelineLane &lane, double liveElapsedS)
{
    const QString attempts = TimelineWidget::tr("attempts: %1").arg(lane.attemptCount());
    if (lane.outcome == TimelineLane::Outcome::Running && !lane.segments.isEmpty()
        && lane.segments.constLast().kind == TimelineSegment::Kind::Wait) {
        const TimelineSegment &wait = lane.segments.constLast();
        const double span = wait.endS - wait.startS;
        if (liveElapsedS >= 0)
            return TimelineWidget::tr("%1 · %2 of %3")
                .arg(attempts,
                    session::RetryTexts::seconds(std::floor(std::min(liveElapsedS, span))),
                    session::RetryTexts::seconds(span));
        return TimelineWidget::tr("%1 · wait %2").arg(attempts, session::RetryTexts::seconds(span));
    }
    const bool cut = !lane.segments.isEmpty() && lane.segments.constLast().isCut();
    const QString details
        = TimelineWidget::tr("%1 · waited %2")
              .arg(attempts,
                  session::RetryTexts::seconds(
                      cut ? session::RetryTexts::tenths(lane.endS()) : lane.endS()));
    if (lane.fallbackTo.isEmpty())
        return details;
    // The switch to the fallback profile (issue 17): the next lane is its send.
    return TimelineWidget::tr("%1 · → %2").arg(details, lane.fallbackTo);
}

const TimelineSegment *timeline::lastAttempt(const TimelineLane &lane)
{
    for (auto it = lane.segments.crbegin(); it != lane.segments.crend(); ++it) {
        if (it->kind == TimelineSegment::Kind::Attempt)
            return &*it;
    }
    return nullptr;
}

QColor timeline::outcomeColor(const TimelineLane &lane, const QPalette &palette)
{
    switch (lane.outcome) {
    case TimelineLane::Outcome::Succeeded:
        return categoryColor(retry::Category::Success, palette);
    case TimelineLane::Outcome::GaveUp:
        return categoryColor(retry::Category::Fatal, palette);
    case TimelineLane::Outcome::Cancelled:
        return neutralCategoryColor(palette);
    case TimelineLane::Outcome::Parked:
        return parkedColor(palette);
    case TimelineLane::Outcome::Running:
        break;
    }
    return palette.color(QPalette::WindowText);
}

QColor timeline::segmentColor(const TimelineSegment &segment, const QPalette &palette)
{
    if (segment.kind == TimelineSegment::Kind::Parked)
        return parkedColor(palette);
    if (segment.kind == TimelineSegment::Kind::Paced)
        return pacedColor(palette);
    return segment.category ? categoryColor(*segment.category, palette)
                            : neutralCategoryColor(palette);
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

double timeline::tickStep(double budgetS)
{
    for (const double step : { 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0, 600.0 }) {
        if (budgetS / step <= 6.0 + 0.001)
            return step;
    }
    return 600.0;
}

void TimelineWidget::setLimits(const retry::PolicyLimits &limits)
{
    if (m_limits == limits)
        return;
    m_limits = limits;
    updateAccessibleDescription();
    update();
}

double TimelineWidget::budgetS() const
{
    return std::max(1.0, double(m_limits.budget.count()) / 1000.0);
}

double TimelineWidget::capS() const
{
    return std::min(budgetS(), double(m_limits.waitCap.count()) / 1000.0);
}

double TimelineWidget::tickS() const
{
    return tickStep(budgetS());
}

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

void TimelineWidget::showSend(const session::SendState &state)
{
    if (state.waiting())
        setLiveWait(int(state.send), double(state.waitElapsed().count()) / 1000.0);
    else
        setLiveWait(-1, 0);
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
        applyTimelineRecord(m_lanes, records.at(m_appliedRows), m_appliedRows);
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
                .arg(session::RetryTexts::seconds(budgetS())));
        return;
    }
    const TimelineLane &last = m_lanes.constLast();
    QString description = tr(
        "Sends in this session: %1. Latest, send %2: attempts: %3, waited %4 of the %5 budget, %6.")
                              .arg(m_lanes.size())
                              .arg(last.request)
                              .arg(last.attemptCount())
                              .arg(session::RetryTexts::seconds(last.endS()),
                                  session::RetryTexts::seconds(budgetS()),
                                  outcomeText(last, OutcomeWords::Sentence));
    if (last.resendOf > 0)
        description += u' ' + tr("It is send %1 again, after it was parked.").arg(last.resendOf);
    // The latest switch to a fallback profile (issue 17).
    for (auto it = m_lanes.crbegin(); it != m_lanes.crend(); ++it) {
        if (!it->fallbackTo.isEmpty()) {
            description += u' '
                + tr("Send %1 was capped and went to %2 instead.")
                      .arg(it->request)
                      .arg(it->fallbackTo);
            break;
        }
    }
    if (const TimelineSegment *paced = last.paced())
        description += u' '
            + tr("Before its first attempt it waited %1 for the provider's window, outside the "
                 "budget.")
                  .arg(session::RetryTexts::seconds(
                      paced->ranS >= 0 ? paced->ranS : paced->scheduledS));
    // A parked send is news however far up its lane is.
    for (const TimelineLane &lane : std::as_const(m_lanes)) {
        if (&lane != &last && lane.outcome == TimelineLane::Outcome::Parked)
            description += u' ' + tr("Send %1 is %2.").arg(lane.request).arg(lane.parked()->label);
    }
    setAccessibleDescription(description);
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
    if (s.kind == TimelineSegment::Kind::Parked) {
        lines << QString(
            u"<b>"_s + tr("Send %1 · parked").arg(lane.request).toHtmlEscaped() + u"</b>"_s);
        const auto when = [](const QDateTime &utc) {
            return QLocale().toString(utc.toLocalTime(), QLocale::ShortFormat);
        };
        if (s.parkedAt.isValid())
            line(tr("Parked:"), when(s.parkedAt));
        line(tr("Until:"),
            s.resetAt.isValid() ? tr("%1, the provider's reset").arg(when(s.resetAt))
                                : tr("the provider's reset"));
        if (s.isParkedNow()) {
            line(tr("Then:"), tr("it goes out again with a fresh retry cycle"));
        } else {
            line(tr("Left the queue:"),
                s.unparkedAt.isValid()
                    ? tr("%1, %2").arg(session::RetryTexts::unpark(s.unpark), when(s.unparkedAt))
                    : session::RetryTexts::unpark(s.unpark));
            if (s.resentAs > 0)
                line(tr("Sent again:"), tr("as send %1").arg(s.resentAs));
        }
        line(tr("Outside the budget:"),
            tr("after %1 of waiting, %2")
                .arg(session::RetryTexts::seconds(s.startS),
                    session::RetryTexts::reason(lane.reason).isEmpty()
                        ? tr("capped")
                        : session::RetryTexts::reason(lane.reason)));
    } else if (s.kind == TimelineSegment::Kind::Paced) {
        lines << QString(
            u"<b>"_s + tr("Send %1 · paced").arg(lane.request).toHtmlEscaped() + u"</b>"_s);
        line(tr("Waited for:"), tr("the provider's window to reset, before attempt 1"));
        line(tr("Wait:"), session::RetryTexts::seconds(s.scheduledS));
        if (r && r->estimatedTokens)
            line(tr("Estimated tokens:"), QLocale().toString(*r->estimatedTokens));
        if (r && r->windowTokensLeft)
            line(tr("Tokens left in the window:"), QLocale().toString(*r->windowTokensLeft));
        line(tr("Outside the budget:"),
            tr("pacing does not spend the %1 of retry waiting")
                .arg(session::RetryTexts::seconds(budgetS())));
    } else if (s.kind == TimelineSegment::Kind::Attempt) {
        lines << QString(u"<b>"_s
            + tr("Send %1 · attempt %2 of %3")
                  .arg(lane.request)
                  .arg(s.attempt)
                  .arg(m_limits.maxAttempts)
                  .toHtmlEscaped()
            + u"</b>"_s);
        line(tr("Sent after:"),
            tr("%1 of scheduled waiting").arg(session::RetryTexts::seconds(s.startS)));
        if (lane.interrupted && lastAttempt(lane) == &s)
            line(tr("Answer:"), tr("interrupted after it began; what came is kept"));
        if (s.isRunning()) {
            line(tr("Status:"), tr("waiting for the response"));
        } else {
            line(tr("Status:"),
                s.status ? session::RetryTexts::status(*s.status) : tr("no HTTP status"));
            line(tr("Category:"), session::RetryTexts::category(s.categoryName()));
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
        line(tr("Source:"), session::RetryTexts::waitSource(s.waitSource));
        if (s.waitSource != retry::WaitSource::CredentialRefresh) {
            line(tr("Asked for:"), session::RetryTexts::duration(s.rawWaitS));
            line(tr("Wait:"),
                s.rawWaitS > waitS + 0.0005 ? tr("%1 (capped at %2 per wait)")
                                                  .arg(session::RetryTexts::seconds(waitS),
                                                      session::RetryTexts::seconds(capS()))
                                            : session::RetryTexts::seconds(waitS));
            if (s.isCut())
                line(tr("Cancelled:"),
                    tr("after %1 of the wait")
                        .arg(session::RetryTexts::seconds(
                            session::RetryTexts::tenths(s.endS - s.startS))));
        }
        if (r && r->waitedTotalMs && r->budgetLeftMs)
            line(tr("Budget:"),
                tr("%1 waited, %2 left of %3")
                    .arg(session::RetryTexts::seconds(double(*r->waitedTotalMs) / 1000.0),
                        session::RetryTexts::seconds(double(*r->budgetLeftMs) / 1000.0),
                        session::RetryTexts::seconds(budgetS())));
        if (lane.outcome == TimelineLane::Outcome::Running && lane.request == m_liveRequest
            && &s == &lane.segments.constLast())
            line(tr("Elapsed:"), session::RetryTexts::seconds(std::min(m_liveElapsedS, waitS)));
        line(tr("After:"),
            tr("%1 failed with %2")
                .arg(tr("attempt %1").arg(s.attempt),
                    s.status ? session::RetryTexts::status(*s.status)
                             : session::RetryTexts::category(s.categoryName())));
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
    if (lane.resendOf > 0)
        lines << tr("Send %1 again, after it was parked").arg(lane.resendOf).toHtmlEscaped();
    lines << QString(outcomeText(lane, OutcomeWords::Sentence) + u" · "_s + laneDetails(lane))
                 .toHtmlEscaped();
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

} // namespace capwatch::ui
