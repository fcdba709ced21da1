#pragma once

// Between the live retry log (net::RetryRecord) and the history database (history::RetryRecord),
// and where both programs keep that database. The database names the event by its
// interfaces.md name, so a record of a later event (parked, ...) survives an older build: it is
// kept in the file and skipped when this build restores the log.

#include "history/historytypes.h"
#include "net/retrylog.h"

#include <QString>
#include <optional>

namespace capwatch::session {

/// The record as the database holds it: every field, the event by name.
history::RetryRecord toStored(const net::RetryRecord &record);
/// The record as the retry log holds it; empty for an event this build does not know.
std::optional<net::RetryRecord> fromStored(const history::RetryRecord &record);

/// The one database the window and capwatch-cli share:
/// `GenericDataLocation/capwatch/history.sqlite` (`~/.local/share/capwatch/history.sqlite`).
/// Not AppDataLocation, which differs between the two programs (their application names).
QString defaultHistoryPath();

} // namespace capwatch::session
