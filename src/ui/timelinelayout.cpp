#include "timelinelayout.h"

#include "retrytexts.h"

#include <QCoreApplication>
#include <algorithm>

namespace capwatch::ui {

using namespace Qt::StringLiterals;
using net::RetryRecord;

namespace {

TimelineSegment *findAttempt(TimelineLane &lane, int attempt)
{
    for (auto it = lane.segments.rbegin(); it != lane.segments.rend(); ++it) {
        if (it->kind == TimelineSegment::Kind::Attempt && it->attempt == attempt)
            return &*it;
    }
    return nullptr;
}

TimelineSegment *runningAttempt(TimelineLane &lane)
{
    if (!lane.segments.isEmpty() && lane.segments.last().isRunning())
        return &lane.segments.last();
    return nullptr;
}

/// The attempt a final record finishes: the one still running, else the one it names.
TimelineSegment *finishedAttempt(TimelineLane &lane, int attempt)
{
    if (TimelineSegment *running = runningAttempt(lane))
        return running;
    return findAttempt(lane, attempt);
}

double seconds(qint64 ms)
{
    return double(ms) / 1000.0;
}

} // namespace

QString TimelineSegment::categoryName() const
{
    if (category) {
        const std::string_view name = retry::nameOf(*category);
        return QString::fromLatin1(name.data(), qsizetype(name.size()));
    }
    return cancelled ? u"cancelled"_s : QString();
}

int TimelineLane::attemptCount() const
{
    return int(std::count_if(segments.cbegin(), segments.cend(),
        [](const TimelineSegment &s) { return s.kind == TimelineSegment::Kind::Attempt; }));
}

void applyTimelineRecord(QList<TimelineLane> &lanes, const RetryRecord &r, int row)
{
    TimelineLane *lane = nullptr;
    for (auto it = lanes.rbegin(); it != lanes.rend(); ++it) {
        if (it->request == r.request) {
            lane = &*it;
            break;
        }
    }
    if (!lane) {
        TimelineLane added;
        added.request = r.request;
        added.started = r.time;
        lanes.append(added);
        lane = &lanes.last();
    }

    switch (r.event) {
    case RetryRecord::Event::AttemptStarted: {
        TimelineSegment s;
        s.kind = TimelineSegment::Kind::Attempt;
        s.attempt = r.attempt;
        s.startS = s.endS = lane->endS();
        // The context of the widget that shows the label (translations/capwatch_*.ts).
        s.label = QCoreApplication::translate("capwatch::ui::TimelineWidget", "attempt %1")
                      .arg(r.attempt);
        lane->segments.append(s);
        break;
    }
    case RetryRecord::Event::RetryScheduled: {
        if (TimelineSegment *a = findAttempt(*lane, r.attempt)) {
            a->category = r.category.value_or(retry::Category::Fatal);
            a->status = r.status;
            a->row = row;
        }
        TimelineSegment s;
        s.kind = TimelineSegment::Kind::Wait;
        s.attempt = r.attempt;
        s.startS = lane->endS();
        const double waitS = seconds(r.waitMs.value_or(0));
        s.endS = s.startS + waitS;
        s.category = r.category;
        s.waitSource = r.waitSource;
        s.rawWaitS = r.rawWaitMs ? seconds(*r.rawWaitMs) : waitS;
        s.scheduledS = waitS;
        s.label = RetryTexts::waitLabel(s.waitSource, waitS, s.rawWaitS);
        s.status = r.status;
        s.row = row;
        lane->segments.append(s);
        break;
    }
    case RetryRecord::Event::Succeeded:
        if (TimelineSegment *a = finishedAttempt(*lane, r.attempt)) {
            a->category = r.category.value_or(retry::Category::Success);
            a->status = r.status;
            a->row = row;
        }
        lane->outcome = TimelineLane::Outcome::Succeeded;
        break;
    case RetryRecord::Event::GaveUp:
        if (TimelineSegment *a = runningAttempt(*lane)) {
            if (r.reason == retry::EndReason::Timeout) {
                // The record carries the previous attempt's failure; this one never answered.
                a->category = retry::Category::Transient;
                a->status.reset();
            } else {
                a->category = r.category.value_or(retry::Category::Fatal);
                a->status = r.status;
            }
            a->row = row;
        }
        lane->outcome = TimelineLane::Outcome::GaveUp;
        lane->reason = r.reason;
        break;
    case RetryRecord::Event::Cancelled:
        if (TimelineSegment *a = runningAttempt(*lane)) {
            a->cancelled = true;
            a->row = row;
        } else if (!lane->segments.isEmpty()
            && lane->segments.last().kind == TimelineSegment::Kind::Wait && r.waitMs) {
            // Cancelled during the wait: the record says how much of it ran; that is what the
            // lane shows (and what "waited" adds up).
            TimelineSegment &w = lane->segments.last();
            const double ranS = std::clamp(seconds(*r.waitMs), 0.0, w.scheduledS);
            if (ranS < w.scheduledS) {
                w.endS = w.startS + ranS;
                w.label = RetryTexts::waitLabel(w.waitSource, w.scheduledS, w.rawWaitS, ranS);
            }
        }
        lane->outcome = TimelineLane::Outcome::Cancelled;
        lane->reason = r.reason;
        break;
    case RetryRecord::Event::Parked:
    case RetryRecord::Event::Unparked:
        break; // drawn by the parking segment (issue 15)
    }
}

QList<TimelineLane> layoutTimeline(const QList<RetryRecord> &records)
{
    QList<TimelineLane> lanes;
    for (qsizetype i = 0; i < records.size(); ++i)
        applyTimelineRecord(lanes, records.at(i), int(i));
    return lanes;
}

} // namespace capwatch::ui
