#pragma once

// Retry records, live or read back from the history, as the log's JSON Lines: the form the tests
// compare them in.

#include "net/retrylog.h"
#include "session/storedrecords.h"

#include <QByteArray>
#include <QList>

namespace capwatch::testing {

inline QByteArray jsonLines(const QList<net::RetryRecord> &records)
{
    QByteArray out;
    for (const net::RetryRecord &r : records)
        out += net::toJsonLine(r) + '\n';
    return out;
}

inline QByteArray jsonLines(const QList<history::StoredRetryRecord> &stored)
{
    QList<net::RetryRecord> records;
    for (const history::StoredRetryRecord &s : stored)
        records.append(session::fromStored(s.record).value());
    return jsonLines(records);
}

} // namespace capwatch::testing
