#include "ui/timeline/timelinelayout.h"

#include "session/retrytexts.h"

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

double toSeconds(qint64 ms)
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
    if (kind == Kind::Parked)
        return u"parked"_s;
    if (kind == Kind::Paced)
        return u"paced"_s;
    return cancelled ? u"cancelled"_s : QString();
}

int TimelineLane::attemptCount() const
{
    return int(std::count_if(segments.cbegin(), segments.cend(),
        [](const TimelineSegment &s) { return s.kind == TimelineSegment::Kind::Attempt; }));
}

const TimelineSegment *TimelineLane::parked() const
{
    if (!segments.isEmpty() && segments.constLast().kind == TimelineSegment::Kind::Parked)
        return &segments.constLast();
    return nullptr;
}

const TimelineSegment *TimelineLane::paced() const
{
    if (!segments.isEmpty() && segments.constFirst().kind == TimelineSegment::Kind::Paced)
        return &segments.constFirst();
    return nullptr;
}

namespace {

TimelineSegment *parkedSegment(TimelineLane &lane)
{
    if (!lane.segments.isEmpty() && lane.segments.last().kind == TimelineSegment::Kind::Parked)
        return &lane.segments.last();
    return nullptr;
}

/// The lane an `unparked` record closes: its send's, else the latest one still parked (a log
/// that numbered the record as the send that went out after it). Null: nothing is parked.
TimelineLane *unparkedLane(QList<TimelineLane> &lanes, int request)
{
    for (auto it = lanes.rbegin(); it != lanes.rend(); ++it) {
        if (it->request == request && it->parked() && it->parked()->isParkedNow())
            return &*it;
    }
    for (auto it = lanes.rbegin(); it != lanes.rend(); ++it) {
        if (it->parked() && it->parked()->isParkedNow())
            return &*it;
    }
    return nullptr;
}

} // namespace

void applyTimelineRecord(QList<TimelineLane> &lanes, const RetryRecord &r, int row)
{
    if (r.event == RetryRecord::Event::Unparked) {
        // Never a lane of its own: it ends a park, and the send that goes out is a new request.
        TimelineLane *lane = unparkedLane(lanes, r.request);
        if (!lane)
            return;
        TimelineSegment *s = parkedSegment(*lane);
        s->unpark
            = r.unpark == RetryRecord::Unpark::None ? RetryRecord::Unpark::Cancelled : r.unpark;
        s->unparkedAt = r.time;
        s->label = session::RetryTexts::parkedLabel(s->resetAt, s->unpark);
        s->row = row;
        lane->outcome = TimelineLane::Outcome::GaveUp;
        return;
    }

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
        // The first send after a parked one went out is that send again (a new request number).
        if (r.event == RetryRecord::Event::AttemptStarted || r.event == RetryRecord::Event::Paced) {
            for (auto it = lanes.rbegin(); it != lanes.rend(); ++it) {
                TimelineSegment *parked = parkedSegment(*it);
                if (parked && parked->resentAs == 0
                    && (parked->unpark == RetryRecord::Unpark::SentNow
                        || parked->unpark == RetryRecord::Unpark::ResetReached)) {
                    parked->resentAs = r.request;
                    added.resendOf = it->request;
                    break;
                }
            }
        }
        lanes.append(added);
        lane = &lanes.last();
    }

    if (lane->profile.isEmpty() && !r.profile.isEmpty())
        lane->profile = r.profile;
    if (r.waitedTotalMs && r.budgetLeftMs)
        lane->budgetS = double(*r.waitedTotalMs + *r.budgetLeftMs) / 1000.0;
    switch (r.event) {
    case RetryRecord::Event::AttemptStarted: {
        if (r.attempt == 1 && r.waitMs && lane->segments.size() == 1
            && lane->segments.first().kind == TimelineSegment::Kind::Paced) {
            // After pacing: what it actually waited ("paced 4.2 s of 58 s" after Send now).
            TimelineSegment &pace = lane->segments.first();
            pace.ranS = std::clamp(toSeconds(*r.waitMs), 0.0, pace.scheduledS);
            pace.label = session::RetryTexts::pacedLabel(pace.scheduledS, pace.ranS);
        }
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
        const double waitS = toSeconds(r.waitMs.value_or(0));
        s.endS = s.startS + waitS;
        s.category = r.category;
        s.waitSource = r.waitSource;
        s.rawWaitS = r.rawWaitMs ? toSeconds(*r.rawWaitMs) : waitS;
        s.scheduledS = waitS;
        s.label = session::RetryTexts::waitLabel(s.waitSource, waitS, s.rawWaitS);
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
            const double ranS = std::clamp(toSeconds(*r.waitMs), 0.0, w.scheduledS);
            if (ranS < w.scheduledS) {
                w.endS = w.startS + ranS;
                w.label
                    = session::RetryTexts::waitLabel(w.waitSource, w.scheduledS, w.rawWaitS, ranS);
            }
        } else if (lane->segments.size() == 1
            && lane->segments.first().kind == TimelineSegment::Kind::Paced && r.waitMs) {
            // Cancelled while it paced: as far as the pacing wait ran.
            TimelineSegment &pace = lane->segments.first();
            pace.ranS = std::clamp(toSeconds(*r.waitMs), 0.0, pace.scheduledS);
            pace.label = session::RetryTexts::pacedLabel(pace.scheduledS, pace.ranS);
        }
        lane->outcome = TimelineLane::Outcome::Cancelled;
        lane->reason = r.reason;
        break;
    case RetryRecord::Event::Parked: {
        // Parked again after a cancelled park: the one segment shows the latest.
        TimelineSegment *s = parkedSegment(*lane);
        if (!s) {
            TimelineSegment added;
            added.kind = TimelineSegment::Kind::Parked;
            added.startS = added.endS = lane->endS();
            lane->segments.append(added);
            s = &lane->segments.last();
        }
        s->attempt = r.attempt;
        s->resetAt = r.resetAt;
        s->parkedAt = r.time;
        s->unparkedAt = {};
        s->unpark = RetryRecord::Unpark::None;
        s->resentAs = 0;
        s->label = session::RetryTexts::parkedLabel(r.resetAt);
        s->row = row;
        lane->outcome = TimelineLane::Outcome::Parked;
        if (r.reason != retry::EndReason::None)
            lane->reason = r.reason;
        break;
    }
    case RetryRecord::Event::Unparked:
        break; // above
    case RetryRecord::Event::Paced: {
        // The first record of its send: the segment goes before attempt 1, at no policy time.
        if (!lane->segments.isEmpty())
            break;
        TimelineSegment s;
        s.kind = TimelineSegment::Kind::Paced;
        s.scheduledS = toSeconds(r.waitMs.value_or(0));
        s.waitSource = r.waitSource;
        s.label = session::RetryTexts::pacedLabel(s.scheduledS);
        s.row = row;
        lane->segments.append(s);
        break;
    }
    case RetryRecord::Event::Interrupted:
        // The answer of its last attempt began and stopped before its end (issue 29).
        lane->interrupted = true;
        if (TimelineSegment *a = finishedAttempt(*lane, r.attempt)) {
            a->status = r.status;
            a->row = row;
        }
        break;
    case RetryRecord::Event::Fallback:
        // Closes the capped send: the switch is drawn after its lane, the fallback's send gets
        // a lane of its own.
        lane->fallbackTo = r.fallbackTo;
        if (lane->outcome == TimelineLane::Outcome::Running)
            lane->outcome = TimelineLane::Outcome::GaveUp;
        if (lane->reason == retry::EndReason::None)
            lane->reason = r.reason;
        break;
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
