#pragma once

// The retry timeline's lanes: every send of the retry log on the retry budget's axis, attempts at
// the policy time they went out (the sum of the waits scheduled before them), waits between them.
// Pure: built from the log's records alone, no widget needed; TimelineWidget draws them.

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
    /// Attempts: the outcome category; none while the attempt runs or when the send was
    /// cancelled during it (`cancelled`). Waits: the category of the failure before them.
    std::optional<retry::Category> category;
    /// Attempts: the send was cancelled while this attempt ran.
    bool cancelled = false;
    /// An attempt still without a result.
    bool isRunning() const { return kind == Kind::Attempt && !category && !cancelled; }
    /// The category's interfaces.md name, `cancelled`, or "" without either: the key of its
    /// colour (categoryColor()) and of its legend entry.
    QString categoryName() const;
    /// Waits: where the wait came from.
    retry::WaitSource waitSource = retry::WaitSource::None;
    /// Waits: what the provider asked for, before the per-wait cap.
    double rawWaitS = 0;
    /// Waits: in words, "message 18 min → 60 s", "retry-after 14.7 s of 42 s" (cut short by a
    /// cancel), see RetryTexts::waitLabel(). Attempts: "attempt 2".
    QString label;
    /// The HTTP status of a finished attempt (waits: of the attempt before them).
    std::optional<int> status;
    /// The record that finished the segment (RetryLog::records() row), -1 while it runs.
    int row = -1;
};

struct TimelineLane
{
    enum class Outcome
    {
        Running,
        Succeeded,
        GaveUp,
        Cancelled
    };

    int request = 0;
    QList<TimelineSegment> segments;
    Outcome outcome = Outcome::Running;
    /// Why the send gave up (or `Cancelled`); None while it runs, when it succeeded, or when the
    /// record named no reason.
    retry::EndReason reason = retry::EndReason::None;
    /// When the send's first record was written (UTC).
    QDateTime started;
    /// Policy seconds waited (the end of the last segment).
    double endS() const { return segments.isEmpty() ? 0.0 : segments.constLast().endS; }
    /// Attempts made so far.
    int attemptCount() const;
};

/// Lanes of all sends in `records`, in the order the sends started.
QList<TimelineLane> layoutTimeline(const QList<net::RetryRecord> &records);

/// Adds record `row` of the log to `lanes`: what layoutTimeline() does for each record, for a log
/// that grows one record at a time.
void applyTimelineRecord(QList<TimelineLane> &lanes, const net::RetryRecord &record, int row);

} // namespace capwatch::ui
