#include "historyexport.h"

#include <QUuid>

namespace capwatch::cli {

using namespace Qt::StringLiterals;

namespace {

const QString kConversationColumn = u"conversation"_s;

net::ExtraColumns extraColumns(const history::StoredRetryRecord &record)
{
    return { { kConversationColumn, record.conversation.toString(QUuid::WithoutBraces) } };
}

} // namespace

std::optional<net::RetryRecord::Event> eventFromName(const QString &name)
{
    using Event = net::RetryRecord::Event;
    for (const Event event : { Event::AttemptStarted, Event::RetryScheduled, Event::Succeeded,
             Event::GaveUp, Event::Cancelled }) {
        if (net::RetryRecord::eventName(event) == name)
            return event;
    }
    return std::nullopt;
}

net::RetryRecord toNetRecord(const history::RetryRecord &record)
{
    net::RetryRecord r;
    r.time = record.time;
    r.request = record.request;
    r.event = eventFromName(record.event).value_or(net::RetryRecord::Event::AttemptStarted);
    r.attempt = record.attempt;
    r.status = record.status;
    r.category = record.category;
    r.used = record.used;
    r.limit = record.limit;
    r.waitMs = record.waitMs;
    r.rawWaitMs = record.rawWaitMs;
    r.waitSource = record.waitSource;
    r.waitedTotalMs = record.waitedTotalMs;
    r.budgetLeftMs = record.budgetLeftMs;
    r.reason = record.reason;
    r.error = record.error;
    return r;
}

QByteArray exportCsvHeader()
{
    return net::csvHeader({ kConversationColumn });
}

QByteArray exportJsonLine(const history::StoredRetryRecord &record)
{
    return net::toJsonLine(toNetRecord(record.record), record.record.event, extraColumns(record));
}

QByteArray exportCsvRow(const history::StoredRetryRecord &record)
{
    return net::toCsvRow(toNetRecord(record.record), record.record.event, extraColumns(record));
}

} // namespace capwatch::cli
