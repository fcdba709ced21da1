#pragma once

// The history's retry records in the retry log's formats (interfaces.md, "The retry log"), plus
// a `conversation` column after the log's own. The shared columns are written by the network
// layer's serializers, so they are byte for byte what the live log writes. It joins net and
// history, so it belongs to the session layer once that exists (src/session); it lives beside
// its only user until then.

#include "history/historytypes.h"
#include "net/retrylog.h"

#include <QByteArray>
#include <QString>
#include <optional>

namespace capwatch::cli {

/// The Event of an interfaces.md event name; empty for a name this build does not know.
std::optional<net::RetryRecord::Event> eventFromName(const QString &name);
/// The record as the network layer's. An event name it does not know leaves the default event:
/// serialize with the name itself (exportJsonLine() and exportCsvRow() do).
net::RetryRecord toNetRecord(const history::RetryRecord &record);

/// `time,...,error,conversation`.
QByteArray exportCsvHeader();
/// One record as a JSON object on one line, no line end; the event as stored, even a name this
/// build does not know.
QByteArray exportJsonLine(const history::StoredRetryRecord &record);
/// One record as a CSV row, no line end.
QByteArray exportCsvRow(const history::StoredRetryRecord &record);

} // namespace capwatch::cli
