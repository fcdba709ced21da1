#include "storedrecords.h"

#include <QStandardPaths>

namespace capwatch::session {

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
    s.error = r.error;
    return s;
}

std::optional<net::RetryRecord> fromStored(const history::RetryRecord &s)
{
    const std::optional<net::RetryRecord::Event> event = net::RetryRecord::eventFromName(s.event);
    if (!event)
        return std::nullopt;
    net::RetryRecord r;
    r.time = s.time.toUTC();
    r.request = s.request;
    r.event = *event;
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
    r.error = s.error;
    return r;
}

QString defaultHistoryPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
        + u"/capwatch/history.sqlite"_s;
}

} // namespace capwatch::session
