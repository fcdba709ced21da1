#include "storedrecords.h"

#include "history/historystore.h"

#include <QUuid>

namespace capwatch::session {

namespace {

const QString kConversationColumn = QStringLiteral("conversation");

net::ExtraColumns extraColumns(const history::StoredRetryRecord &record)
{
    return { { kConversationColumn, record.conversation.toString(QUuid::WithoutBraces) } };
}

} // namespace

using namespace Qt::StringLiterals;

history::RetryRecord toStored(const net::RetryRecord &r)
{
    history::RetryRecord s;
    s.time = r.time.toUTC();
    s.request = r.request;
    s.event = net::RetryRecord::eventName(r.event);
    s.attempt = r.attempt;
    s.status = r.status;
    s.category = r.category;
    s.used = r.used;
    s.limit = r.limit;
    s.waitMs = r.waitMs;
    s.rawWaitMs = r.rawWaitMs;
    s.waitSource = r.waitSource;
    s.waitedTotalMs = r.waitedTotalMs;
    s.budgetLeftMs = r.budgetLeftMs;
    s.reason = r.reason;
    if (r.event == net::RetryRecord::Event::Unparked) // as the log, which writes it nowhere else
        s.unpark = net::RetryRecord::unparkName(r.unpark);
    s.error = r.error;
    s.resetAt = r.resetAt.toUTC();
    s.windowTokensLeft = r.windowTokensLeft;
    s.windowResetS = r.windowResetS;
    s.estimatedTokens = r.estimatedTokens;
    s.profile = r.profile;
    s.fallbackTo = r.fallbackTo;
    s.answerEnd = r.answerEnd;
    return s;
}

net::RetryRecord toLogRecord(const history::RetryRecord &s)
{
    net::RetryRecord r;
    r.time = s.time.toUTC();
    r.request = s.request;
    r.event = net::RetryRecord::eventFromName(s.event).value_or(
        net::RetryRecord::Event::AttemptStarted);
    r.attempt = s.attempt;
    r.status = s.status;
    r.category = s.category;
    r.used = s.used;
    r.limit = s.limit;
    r.waitMs = s.waitMs;
    r.rawWaitMs = s.rawWaitMs;
    r.waitSource = s.waitSource;
    r.waitedTotalMs = s.waitedTotalMs;
    r.budgetLeftMs = s.budgetLeftMs;
    r.reason = s.reason;
    r.unpark = net::RetryRecord::unparkFromName(s.unpark);
    r.error = s.error;
    r.resetAt = s.resetAt.toUTC();
    r.windowTokensLeft = s.windowTokensLeft;
    r.windowResetS = s.windowResetS;
    r.estimatedTokens = s.estimatedTokens;
    r.profile = s.profile;
    r.fallbackTo = s.fallbackTo;
    r.answerEnd = s.answerEnd;
    return r;
}

std::optional<net::RetryRecord> fromStored(const history::RetryRecord &s)
{
    if (!net::RetryRecord::eventFromName(s.event))
        return std::nullopt;
    return toLogRecord(s);
}

QByteArray exportCsvHeader()
{
    return net::csvHeader({ kConversationColumn });
}

QByteArray exportJsonLine(const history::StoredRetryRecord &record)
{
    return net::toJsonLine(toLogRecord(record.record), record.record.event, extraColumns(record));
}

QByteArray exportCsvRow(const history::StoredRetryRecord &record)
{
    return net::toCsvRow(toLogRecord(record.record), record.record.event, extraColumns(record));
}

QString defaultHistoryPath()
{
    return history::HistoryStore::defaultPath();
}

} // namespace capwatch::session
