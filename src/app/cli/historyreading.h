#pragma once

// Opening the history database for a command that only reads it (`history`, `usage`): the file
// is never created, migrated or moved; an older one is read through a migrated private copy.

#include "clicommon.h"

#include <QString>
#include <QTemporaryDir>
#include <memory>

namespace capwatch::history {
class HistoryStore;
}

namespace capwatch::cli {

enum class Opened
{
    Ready,
    NoHistory, ///< no file, an empty one, or one without capwatch's schema: nothing to read
    Failed ///< reported on stderr
};

/// `capwatch-cli COMMAND: error: cannot read the history PATH: REASON` on stderr; returns the
/// configuration-error exit code.
int historyReadError(const QString &command, const QString &path, const QString &reason);

/// Opens the history at `path` into `store` for reading without changing the file. HistoryStore::
/// open() creates a missing file, migrates an older one and moves one it cannot use aside, which a
/// command that only reads must not do; so the file is looked at here first, read-only, and
/// open() only gets a file of the current version it will neither migrate nor move. An older
/// version is migrated in a private copy made in `copies`. Errors name `command`.
Opened openForReading(const QString &command, const QString &path, history::HistoryStore &store,
    std::unique_ptr<QTemporaryDir> &copies);

} // namespace capwatch::cli
