#pragma once

// The retry timeline's lanes: every send of the retry log on the retry budget's axis, attempts at
// the policy time they went out (the sum of the waits scheduled before them), waits between them,
// and a send parked until its provider's reset (docs/parking.md) as a last segment outside the
// axis: the reset is hours away, not seconds; and a send paced before its first attempt (docs/
// retry-policy.md section 8.1) as a first segment before the axis' 0: that wait is not the
// budget's. Pure: built from the log's records alone, no widget
// needed; TimelineWidget draws them.

#include "net/retrylog.h"
#include "retry/classifier.h"
#include "retry/sendpolicy.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <optional>

namespace capwatch::ui {

struct TimelineSegment
{
    enum class Kind
    {
        Attempt,
        Wait,
        /// The send gave up capped and waits for its provider's reset: drawn beyond the axis'
        /// end. startS == endS: where the lane's policy time ended.
        Parked,
        /// Before attempt 1: the send waited for the provider's window to reset (pacing). Drawn
        /// before the axis' 0, never on it: startS == endS == 0; scheduledS is the pacing wait.
        Paced
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
    /// Paced: the part of the pacing wait that ran, once known (attempt 1 began, or a cancel
    /// ended it); -1 before. Less than scheduledS after Send now.
    double ranS = -1;
    bool isCut() const { return kind == Kind::Wait && endS - startS < scheduledS - 0.0005; }
    /// Attempts: the outcome category; none while the attempt runs or when the send was
    /// cancelled during it (`cancelled`). Waits: the category of the failure before them.
    /// Parked: none (categoryName() is `parked`). Paced: none (`paced`).
    std::optional<retry::Category> category;
    /// Attempts: the send was cancelled while this attempt ran.
    bool cancelled = false;
    /// An attempt still without a result.
    bool isRunning() const { return kind == Kind::Attempt && !category && !cancelled; }
    /// The category's interfaces.md name, `cancelled`, `parked`, or "" without any: the key of
    /// its colour (categoryColor()) and of its legend entry.
    QString categoryName() const;
    /// Waits: where the wait came from.
    retry::WaitSource waitSource = retry::WaitSource::None;
    /// Waits: what the provider asked for, before the per-wait cap.
    double rawWaitS = 0;
    /// Waits: in words, "message 18 min → 60 s", "retry-after 14.7 s of 42 s" (cut short by a
    /// cancel), see session::RetryTexts::waitLabel(). Attempts: "attempt 2". Parked: "parked until
    /// 06:14", once it left the queue "parked · reset reached", see
    /// session::RetryTexts::parkedLabel(). Paced: "paced 12 s", cut short by a cancel "paced 4.2 s
    /// of 12 s" (session::RetryTexts::pacedLabel()).
    QString label;
    /// The HTTP status of a finished attempt (waits: of the attempt before them).
    std::optional<int> status;
    /// The record that finished the segment (RetryLog::records() row), -1 while it runs. Parked:
    /// the `parked` record, then the `unparked` one.
    int row = -1;

    /// Parked: when the send goes out (UTC; invalid when the record named none), when it was
    /// parked, and once it left the queue, when and why.
    QDateTime resetAt;
    QDateTime parkedAt;
    QDateTime unparkedAt;
    net::RetryRecord::Unpark unpark = net::RetryRecord::Unpark::None;
    /// Parked, gone out (sent now, reset reached): the request number it went out as, the next
    /// send of the log; 0 before that send's first record.
    int resentAs = 0;
    /// Parked and still waiting for its reset.
    bool isParkedNow() const
    {
        return kind == Kind::Parked && unpark == net::RetryRecord::Unpark::None;
    }
};

struct TimelineLane
{
    enum class Outcome
    {
        Running,
        Succeeded,
        GaveUp,
        Cancelled,
        /// Gave up capped and waits for its provider's reset; back to GaveUp once unparked (the
        /// send that then goes out has a lane of its own: a new request number).
        Parked
    };

    int request = 0;
    QList<TimelineSegment> segments;
    Outcome outcome = Outcome::Running;
    /// Why the send gave up (or `Cancelled`); None while it runs, when it succeeded, or when the
    /// record named no reason.
    retry::EndReason reason = retry::EndReason::None;
    /// When the send's first record was written (UTC).
    QDateTime started;
    /// A parked send gone out again: the request it was parked as (its lane's parked segment
    /// has resentAs); 0 for any other send.
    int resendOf = 0;
    /// The name of the profile the send went to (the records' `profile`); empty: none named.
    QString profile;
    /// The send ended capped and its prompt went to this profile instead (the `fallback`
    /// record, issue 17): the timeline draws the switch, "→ Paid key", after the lane.
    QString fallbackTo;
    /// Its answer began and stopped before its end: an `interrupted` record (issue 29).
    bool interrupted = false;
    /// The retry budget the send ran under, in seconds, when its records tell it (a wait's
    /// `waited_total_ms` + `budget_left_ms`); nullopt before its first wait.
    std::optional<double> budgetS;
    /// Policy seconds waited (the end of the last segment).
    double endS() const { return segments.isEmpty() ? 0.0 : segments.constLast().endS; }
    /// Attempts made so far.
    int attemptCount() const;
    /// Its parked segment (the last one), or null when it was never parked.
    const TimelineSegment *parked() const;
    /// Its paced segment (the first one), or null when it was sent without pacing.
    const TimelineSegment *paced() const;
};

/// Lanes of all sends in `records`, in the order the sends started.
QList<TimelineLane> layoutTimeline(const QList<net::RetryRecord> &records);

/// Adds record `row` of the log to `lanes`: what layoutTimeline() does for each record, for a log
/// that grows one record at a time.
void applyTimelineRecord(QList<TimelineLane> &lanes, const net::RetryRecord &record, int row);

} // namespace capwatch::ui
