#pragma once

// Between the live retry log (net::RetryRecord) and the history database (history::RetryRecord),
// and where both programs keep that database. The database names the event by its
// interfaces.md name, so a record of a later event (paced, ...) survives an older build: it is
// kept in the file and skipped when this build restores the log.

#include "history/historytypes.h"
#include "net/retrylog.h"

#include <QByteArray>
#include <QString>
#include <optional>

namespace capwatch::session {

/// The record as the database holds it: every field, the event by name.
history::RetryRecord toStored(const net::RetryRecord &record);
/// The record as the retry log holds it; empty for an event this build does not know.
std::optional<net::RetryRecord> fromStored(const history::RetryRecord &record);
/// Every field as the retry log holds it; an event this build does not know is left at the
/// default: serialize such a record with its stored name (the export functions below do).
net::RetryRecord toLogRecord(const history::RetryRecord &record);

// Stored records in the retry log's formats (interfaces.md), plus a `conversation` column after
// the log's own ("Export all retry logs", `capwatch-cli history export`). The shared columns are
// written by the log's own serializers, so they are byte for byte what the live log writes.
/// `time,...,error,reset_at,conversation`.
QByteArray exportCsvHeader();
/// One record as a JSON object on one line, no line end; the event as stored.
QByteArray exportJsonLine(const history::StoredRetryRecord &record);
/// One record as a CSV row, no line end.
QByteArray exportCsvRow(const history::StoredRetryRecord &record);

/// The one database the window and capwatch-cli share (HistoryStore::defaultPath():
/// `~/.local/share/capwatch/history.sqlite`).
QString defaultHistoryPath();

} // namespace capwatch::session
