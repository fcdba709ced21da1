#pragma once

// The words of the retry cycle, in the UI language, in one place: durations, attempt categories,
// wait sources, the reasons a send ended, the events of the retry log. The live panel, the
// timeline, the retry log table, their tooltips and the main window all take their words from
// here, so the same thing reads the same everywhere. The exported log keeps the names of
// interfaces.md (net::toJsonLine, net::toCsvRow), never these words.

#include "net/chatclient.h"
#include "net/retrylog.h"
#include "retry/classifier.h"
#include "retry/constants.h"
#include "retry/policylimits.h"
#include "retry/sendpolicy.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QString>

namespace capwatch::session {

class RetryTexts final
{
    Q_DECLARE_TR_FUNCTIONS(capwatch::session::RetryTexts)

public:
    RetryTexts() = delete;

    /// A policy duration the way a person says it: "2.5 s", "60 s", "1 min 30 s", "18 min",
    /// "2 h". Up to 60 s, and whenever it has a fraction of a second, in seconds with the
    /// fraction a header or message gave (0.084 s); beyond, in hours, minutes and seconds.
    static QString duration(retry::Millis ms);
    /// The same for policy seconds (to the millisecond).
    static QString duration(double seconds);
    /// A figure in seconds, up to three decimals, nothing when whole: "7 s", "14.7 s", "120 s".
    static QString seconds(double seconds);
    /// Seconds as a countdown shows them, to a tenth: where a cancel cut a wait (the millisecond
    /// the click came is noise). Used by the panel and the timeline alike.
    static double tenths(double seconds);

    /// A short name for a category: "token limit", "request too large", "out of credit".
    static QString category(retry::Category category);
    /// The same by interfaces.md name, also for the pseudo-categories of the legend: `running`
    /// (and empty) and `cancelled`. An unknown name is returned as it is.
    static QString category(const QString &name);

    /// A short name for a wait source: "retry-after", "message", "backoff", "new key".
    static QString waitSource(retry::WaitSource source);
    /// Where a wait came from, in a sentence for the live panel: "retry-after header: 7 s",
    /// "provider asked 18 min; capped to 60 s", "backoff 10 s".
    static QString waitSourceSentence(
        retry::WaitSource source, retry::Millis wait, retry::Millis rawWait);
    static QString waitSourceSentence(const net::RetryInfo &info);
    /// A wait's label on the timeline: "retry-after 7 s", "message 18 min → 60 s", "backoff 10 s",
    /// "new key"; with `ranS` >= 0 and less than `waitS`, a wait a cancel cut short:
    /// "retry-after 14.7 s of 42 s".
    static QString waitLabel(
        retry::WaitSource source, double waitS, double rawWaitS, double ranS = -1);

    /// Where a pacing wait came from, for the live panel: "x-ratelimit-reset-tokens header:
    /// 12 s (pacing, outside the retry budget)"; `tokensFull` false names the requests' header.
    static QString paceSentence(retry::Millis wait, bool tokensFull);
    /// A pacing wait's label on the timeline: "paced 12 s"; with `ranS` >= 0 and less than
    /// `waitS` (Send now, or a cancel, cut it short): "paced 4.2 s of 12 s".
    static QString pacedLabel(double waitS, double ranS = -1);

    /// A short name for the reason a send ended, for the log table and the timeline's lanes:
    /// "budget exhausted", "attempts exhausted", "not retryable".
    static QString reason(retry::EndReason reason);
    /// The same reason in a sentence, for the panel, the main window and tooltips:
    /// "budget exhausted (the 120 s of waiting are used up)", "all 5 attempts failed".
    /// With the numbers of the policy the send ran under (issue 17): "all 3 attempts failed",
    /// "the 12 s of waiting".
    /// `category`: the last failure's (interfaces.md name); a token or rate limit the profile
    /// does not retry says so rather than "not one that waiting can fix".
    static QString reasonSentence(retry::EndReason reason,
        const retry::PolicyLimits &limits = retry::PolicyLimits {}, const QString &category = {});

    /// A wall time as a clock shows it, in local time: "06:14" (a parked send's reset).
    static QString clockTime(const QDateTime &utc);
    /// Why a parked send left the queue: "sent now", "reset reached", "cancelled".
    static QString unpark(net::RetryRecord::Unpark unpark);
    /// A parked send's label on the timeline: "parked until 06:14" while it waits ("parked"
    /// without a reset time), "parked · reset reached" once it left the queue.
    static QString parkedLabel(
        const QDateTime &resetAt, net::RetryRecord::Unpark unpark = net::RetryRecord::Unpark::None);

    /// An event of the retry log: "Attempt started", "Retry scheduled", "Gave up".
    static QString event(net::RetryRecord::Event event);
    /// An HTTP status with its reason phrase when known: "422 Unprocessable Entity".
    static QString status(int status);
};

} // namespace capwatch::session
