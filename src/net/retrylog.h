#pragma once

// The retry log (interfaces.md): one record per event of every send, in memory for the GUI and
// appended, record by record, to JSON Lines or CSV files. It never holds the API key, an
// Authorization header or the prompt.

#include "retry/answerend.h"
#include "retry/classifier.h"
#include "retry/sendpolicy.h"

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QString>
#include <memory>
#include <optional>
#include <utility>

class QFile;
class QIODevice;

namespace capwatch::net {

struct RetryRecord
{
    enum class Event
    {
        AttemptStarted,
        RetryScheduled,
        Succeeded,
        GaveUp,
        Cancelled,
        /// The send gave up capped and waits for the provider's reset (docs/parking.md).
        Parked,
        /// A parked send left the queue; `unpark` says why.
        Unparked,
        /// Before attempt 1: the send waits for the provider's window to reset (pacing,
        /// docs/retry-policy.md section 8.1). wait_ms is the pacing wait, wait_source
        /// `ratelimit-reset`; it does not spend the retry budget.
        Paced,
        /// A send that ended capped goes to the profile's fallback (issue 17): the record closes
        /// the capped send (its `reason` is that send's end reason, `profile` its profile) and
        /// `fallback_to` names the profile the prompt goes to next. One hop per send.
        Fallback,
        /// An answer had begun and stopped before its end (issue 29): the stream dropped, timed
        /// out or carried an error, or the user stopped it. `error` says what; the answer's
        /// text so far is kept and never sent again by itself. Comes before the send's
        /// `gave_up` or `cancelled`.
        Interrupted
    };
    /// Why a parked send left the queue (the `reason` of an `unparked` record).
    enum class Unpark
    {
        None,
        SentNow, ///< the user sent it before the reset
        ResetReached, ///< its reset came
        Cancelled ///< the user cancelled it (or edited its prompt)
    };

    QDateTime time; ///< UTC
    int request = 0; ///< send number within the run, from 1
    Event event = Event::AttemptStarted;
    int attempt = 0;
    std::optional<int> status;
    std::optional<retry::Category> category;
    std::optional<double> used;
    std::optional<double> limit;
    std::optional<qint64> waitMs;
    std::optional<qint64> rawWaitMs;
    retry::WaitSource waitSource = retry::WaitSource::None; ///< None: null
    std::optional<qint64> waitedTotalMs;
    std::optional<qint64> budgetLeftMs;
    retry::EndReason reason = retry::EndReason::None; ///< None: null
    QString error; ///< at most 500 characters
    /// For `parked` and `unparked`: when the send goes out (UTC wall time), the `reset_at`
    /// column; invalid otherwise (null).
    QDateTime resetAt;
    /// For `unparked`, written in the `reason` column in place of `reason` (which a parked
    /// record's end reason fills).
    Unpark unpark = Unpark::None;
    /// The provider window columns (docs/interfaces.md): tokens left in the provider's window
    /// and seconds until it resets, as last reported (for `paced` and `attempt_started`: the
    /// report the decision read; for the records after an attempt: that attempt's response);
    /// null when not reported.
    std::optional<qint64> windowTokensLeft;
    std::optional<double> windowResetS;
    /// `paced` and `attempt_started`: the request's estimated tokens (prompt + completion).
    std::optional<qint64> estimatedTokens;
    /// The `profile` column: the name of the provider profile the record's send went to (empty:
    /// null, as in logs written before profiles).
    QString profile;
    /// The `fallback_to` column, for `fallback`: the profile the prompt is sent to instead.
    QString fallbackTo;
    /// The `answer_end` column (issue 29), on the records that end a send with an answer
    /// (`succeeded`, `interrupted`, `gave_up`, `cancelled`): complete, cut_off, interrupted or
    /// empty; None (null) when no answer began.
    retry::AnswerEnd answerEnd = retry::AnswerEnd::None;

    static QString eventName(Event event);
    /// The reverse of eventName(); empty for a name this build does not know (a later event).
    static std::optional<Event> eventFromName(QStringView name);
    static QString unparkName(Unpark unpark); ///< sent_now, reset_reached, cancelled; empty: None
    static Unpark unparkFromName(QStringView name); ///< None for an unknown name
};

/// The column names, in order.
QStringList retryLogColumns();
/// One record as a JSON object on one line (no newline), every key present.
QByteArray toJsonLine(const RetryRecord &record);
/// One record as a CSV row (no line end), RFC 4180 quoting; cells that a spreadsheet would
/// run as a formula (leading =, +, -, @) are prefixed with an apostrophe.
QByteArray toCsvRow(const RetryRecord &record);
QByteArray csvHeader();

/// Columns after the retry log's own, as name and text (the history export's `conversation`):
/// a JSON string, or null when the text is empty; a CSV cell quoted and guarded as the others.
using ExtraColumns = QList<std::pair<QString, QString>>;
/// The same three with `eventName` in the event column (a name from a newer capwatch's history,
/// `paced`, ..., that Event does not have) and `extra` after the last column, `fallback_to`.
/// With eventName(record.event) and no extra columns they write exactly the bytes of the others.
QByteArray toJsonLine(
    const RetryRecord &record, const QString &eventName, const ExtraColumns &extra);
QByteArray toCsvRow(const RetryRecord &record, const QString &eventName, const ExtraColumns &extra);
QByteArray csvHeader(const QStringList &extraColumns);

enum class LogFormat
{
    JsonLines,
    Csv
};
/// CSV when the path ends in `.csv`, else JSON Lines.
LogFormat formatForPath(const QString &path);

/// Appends records to a file as they happen, flushed one by one, so a killed process leaves
/// every earlier record readable.
class RetryLogWriter final
{
public:
    RetryLogWriter(std::unique_ptr<QIODevice> device, LogFormat format);
    ~RetryLogWriter();
    /// Opens `path` for appending (the CSV header only into an empty file).
    static std::unique_ptr<RetryLogWriter> open(const QString &path, QString *error);
    bool append(const RetryRecord &record);

private:
    std::unique_ptr<QIODevice> m_device;
    LogFormat m_format;
};

/// The in-memory log of the run, with file writers attached.
class RetryLog final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RetryLog)

public:
    explicit RetryLog(QObject *parent = nullptr);
    ~RetryLog() override;

    void append(RetryRecord record);
    const QList<RetryRecord> &records() const { return m_records; }
    void addWriter(std::unique_ptr<RetryLogWriter> writer);
    void clear();
    /// Replaces every record at once (a conversation restored from history) and emits cleared()
    /// once, so views rebuild in one pass instead of one insert per record. The file writers
    /// get nothing: these records were written when they happened.
    void replace(QList<RetryRecord> records);
    /// The whole log in one format: for export and "copy as text".
    QByteArray serialize(LogFormat format) const;
    /// Writes the whole log atomically (QSaveFile).
    bool exportTo(const QString &path, LogFormat format, QString *error) const;

Q_SIGNALS:
    void recordAppended(int row);
    /// The records were replaced wholesale (clear(), replace()): rebuild from records().
    void cleared();
    void writeFailed(const QString &error);

private:
    QList<RetryRecord> m_records;
    std::vector<std::unique_ptr<RetryLogWriter>> m_writers;
};

} // namespace capwatch::net
