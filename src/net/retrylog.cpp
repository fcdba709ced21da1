#include "retrylog.h"

#include "jsonnumbers.h"
#include "retry/constants.h"

#include <QFile>
#include <QSaveFile>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string_view>

namespace capwatch::net {

using namespace Qt::StringLiterals;

namespace {

nlohmann::ordered_json text(const QString &s)
{
    if (s.isEmpty())
        return nullptr;
    return s.toStdString();
}

/// An interfaces.md name; the empty name of WaitSource::None and EndReason::None is null.
nlohmann::ordered_json nameOrNull(std::string_view name)
{
    if (name.empty())
        return nullptr;
    return std::string(name);
}

/// `time` and `reset_at`: ISO 8601 UTC with milliseconds; an invalid time is empty (null).
QString isoTime(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODateWithMs) : QString();
}

nlohmann::ordered_json countJson(std::optional<qint64> n)
{
    return n ? nlohmann::ordered_json(*n) : nlohmann::ordered_json(nullptr);
}

/// Seconds that may be absent, as the other `_s` columns write them (whole milliseconds).
nlohmann::ordered_json exactSecondsJson(std::optional<double> seconds)
{
    if (!seconds || !std::isfinite(*seconds))
        return nullptr;
    return secondsJson(retry::Millis(std::llround(*seconds * 1000.0)));
}

nlohmann::ordered_json toJson(
    const RetryRecord &r, const QString &eventName, const ExtraColumns &extra)
{
    nlohmann::ordered_json o;
    o["time"] = isoTime(r.time).toStdString();
    o["request"] = r.request;
    o["event"] = eventName.toStdString();
    o["attempt"] = r.attempt;
    o["status"] = r.status ? nlohmann::ordered_json(*r.status) : nlohmann::ordered_json(nullptr);
    o["category"] = nameOrNull(r.category ? retry::nameOf(*r.category) : std::string_view());
    o["used"] = figureJson(r.used);
    o["limit"] = figureJson(r.limit);
    o["wait_s"] = secondsJson(r.waitMs);
    o["raw_wait_s"] = secondsJson(r.rawWaitMs);
    o["wait_source"] = nameOrNull(retry::nameOf(r.waitSource));
    o["waited_total_s"] = secondsJson(r.waitedTotalMs);
    o["budget_left_s"] = secondsJson(r.budgetLeftMs);
    // An `unparked` record's reason is why it left the queue, not how a send ended.
    o["reason"] = r.event == RetryRecord::Event::Unparked ? text(RetryRecord::unparkName(r.unpark))
                                                          : nameOrNull(retry::nameOf(r.reason));
    o["error"] = text(r.error);
    o["reset_at"] = text(isoTime(r.resetAt));
    o["window_tokens_left"] = countJson(r.windowTokensLeft);
    o["window_reset_s"] = exactSecondsJson(r.windowResetS);
    o["estimated_tokens"] = countJson(r.estimatedTokens);
    o["profile"] = text(r.profile);
    o["fallback_to"] = text(r.fallbackTo);
    o["answer_end"] = nameOrNull(retry::nameOf(r.answerEnd));
    for (const auto &[name, value] : extra)
        o[name.toStdString()] = text(value);
    return o;
}

QByteArray csvCell(const nlohmann::ordered_json &v)
{
    if (v.is_null())
        return {};
    QByteArray cell = v.is_string() ? QByteArray::fromStdString(v.get<std::string>())
                                    : QByteArray::fromStdString(v.dump());
    if (v.is_string() && !cell.isEmpty()
        && (cell.front() == '=' || cell.front() == '+' || cell.front() == '-'
            || cell.front() == '@'))
        cell.prepend('\'');
    if (cell.contains(',') || cell.contains('"') || cell.contains('\n') || cell.contains('\r')) {
        cell.replace("\"", "\"\"");
        cell = '"' + cell + '"';
    }
    return cell;
}

} // namespace

QString RetryRecord::eventName(Event event)
{
    switch (event) {
    case Event::AttemptStarted:
        return u"attempt_started"_s;
    case Event::RetryScheduled:
        return u"retry_scheduled"_s;
    case Event::Succeeded:
        return u"succeeded"_s;
    case Event::GaveUp:
        return u"gave_up"_s;
    case Event::Cancelled:
        return u"cancelled"_s;
    case Event::Parked:
        return u"parked"_s;
    case Event::Unparked:
        return u"unparked"_s;
    case Event::Paced:
        return u"paced"_s;
    case Event::Fallback:
        return u"fallback"_s;
    case Event::Interrupted:
        return u"interrupted"_s;
    }
    return {};
}

QString RetryRecord::unparkName(Unpark unpark)
{
    switch (unpark) {
    case Unpark::None:
        break;
    case Unpark::SentNow:
        return u"sent_now"_s;
    case Unpark::ResetReached:
        return u"reset_reached"_s;
    case Unpark::Cancelled:
        return u"cancelled"_s;
    }
    return {};
}

RetryRecord::Unpark RetryRecord::unparkFromName(QStringView name)
{
    for (const Unpark u : { Unpark::SentNow, Unpark::ResetReached, Unpark::Cancelled }) {
        if (name == unparkName(u))
            return u;
    }
    return Unpark::None;
}

std::optional<RetryRecord::Event> RetryRecord::eventFromName(QStringView name)
{
    for (const Event e : { Event::AttemptStarted, Event::RetryScheduled, Event::Succeeded,
             Event::GaveUp, Event::Cancelled, Event::Parked, Event::Unparked, Event::Paced,
             Event::Fallback, Event::Interrupted }) {
        if (name == eventName(e))
            return e;
    }
    return std::nullopt;
}

QStringList retryLogColumns()
{
    return { u"time"_s, u"request"_s, u"event"_s, u"attempt"_s, u"status"_s, u"category"_s,
        u"used"_s, u"limit"_s, u"wait_s"_s, u"raw_wait_s"_s, u"wait_source"_s, u"waited_total_s"_s,
        u"budget_left_s"_s, u"reason"_s, u"error"_s, u"reset_at"_s, u"window_tokens_left"_s,
        u"window_reset_s"_s, u"estimated_tokens"_s, u"profile"_s, u"fallback_to"_s,
        u"answer_end"_s };
}

QByteArray toJsonLine(const RetryRecord &record)
{
    return toJsonLine(record, RetryRecord::eventName(record.event), {});
}

QByteArray toJsonLine(
    const RetryRecord &record, const QString &eventName, const ExtraColumns &extra)
{
    return QByteArray::fromStdString(
        toJson(record, eventName, extra)
            .dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
}

QByteArray csvHeader()
{
    return csvHeader({});
}

QByteArray csvHeader(const QStringList &extraColumns)
{
    return (retryLogColumns() + extraColumns).join(u',').toUtf8();
}

QByteArray toCsvRow(const RetryRecord &record)
{
    return toCsvRow(record, RetryRecord::eventName(record.event), {});
}

QByteArray toCsvRow(const RetryRecord &record, const QString &eventName, const ExtraColumns &extra)
{
    const nlohmann::ordered_json o = toJson(record, eventName, extra);
    QByteArray row;
    bool first = true;
    for (const auto &item : o.items()) {
        if (!first)
            row += ',';
        first = false;
        row += csvCell(item.value());
    }
    return row;
}

LogFormat formatForPath(const QString &path)
{
    return path.endsWith(u".csv", Qt::CaseInsensitive) ? LogFormat::Csv : LogFormat::JsonLines;
}

RetryLogWriter::RetryLogWriter(std::unique_ptr<QIODevice> device, LogFormat format)
    : m_device(std::move(device))
    , m_format(format)
{ }

RetryLogWriter::~RetryLogWriter() = default;

std::unique_ptr<RetryLogWriter> RetryLogWriter::open(const QString &path, QString *error)
{
    auto file = std::make_unique<QFile>(path);
    if (!file->open(QIODevice::WriteOnly | QIODevice::Append)) {
        if (error)
            *error = QStringLiteral("cannot open the log %1: %2").arg(path, file->errorString());
        return nullptr;
    }
    const LogFormat format = formatForPath(path);
    if (format == LogFormat::Csv && file->size() == 0) {
        file->write(csvHeader() + "\r\n");
        file->flush();
    }
    return std::make_unique<RetryLogWriter>(std::move(file), format);
}

bool RetryLogWriter::append(const RetryRecord &record)
{
    const QByteArray line = m_format == LogFormat::Csv ? QByteArray(toCsvRow(record) + "\r\n")
                                                       : QByteArray(toJsonLine(record) + '\n');
    const bool ok = m_device->write(line) == line.size();
    if (auto *file = qobject_cast<QFile *>(m_device.get()))
        return file->flush() && ok;
    return ok;
}

RetryLog::RetryLog(QObject *parent)
    : QObject(parent)
{ }

RetryLog::~RetryLog() = default;

void RetryLog::append(RetryRecord record)
{
    // At most kMaxLoggedErrorChars, a cut one ending in an ellipsis so that nobody takes it for
    // the whole text (never splitting a surrogate pair).
    if (record.error.size() > qsizetype(retry::kMaxLoggedErrorChars)) {
        qsizetype keep = qsizetype(retry::kMaxLoggedErrorChars) - 1;
        if (record.error.at(keep - 1).isHighSurrogate())
            --keep;
        record.error = record.error.left(keep) + u'\u2026';
    }
    for (auto &writer : m_writers) {
        if (!writer->append(record))
            Q_EMIT writeFailed(QStringLiteral("could not write to the retry log file"));
    }
    m_records.append(std::move(record));
    Q_EMIT recordAppended(int(m_records.size() - 1));
}

void RetryLog::addWriter(std::unique_ptr<RetryLogWriter> writer)
{
    m_writers.push_back(std::move(writer));
}

void RetryLog::clear()
{
    m_records.clear();
    Q_EMIT cleared();
}

void RetryLog::replace(QList<RetryRecord> records)
{
    m_records = std::move(records);
    Q_EMIT cleared();
}

QByteArray RetryLog::serialize(LogFormat format) const
{
    QByteArray out;
    if (format == LogFormat::Csv)
        out += csvHeader() + "\r\n";
    for (const RetryRecord &r : m_records)
        out += format == LogFormat::Csv ? QByteArray(toCsvRow(r) + "\r\n")
                                        : QByteArray(toJsonLine(r) + '\n');
    return out;
}

bool RetryLog::exportTo(const QString &path, LogFormat format, QString *error) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    file.write(serialize(format));
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

} // namespace capwatch::net
