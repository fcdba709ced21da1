#pragma once

// The schema and its numbered migrations. The database's `PRAGMA user_version` is the number of
// the last migration applied; each migration runs in one transaction together with the new
// version number, so a database is always at exactly one version.

#include <QString>
#include <QStringList>
#include <functional>
#include <vector>

class QSqlDatabase;

namespace capwatch::history {

struct Migration
{
    int version = 0; ///< the version the database has after it: 1, 2, ...
    /// Runs inside the migration's transaction; false (with `error` set) rolls it back.
    std::function<bool(QSqlDatabase &db, QString *error)> apply;
};

/// What search looks at: the first this many characters (Unicode code points, as SQLite's
/// substr() counts) of a message; the rest is stored, restored and exported whole.
inline constexpr int kSearchedChars = 65536;

/// Runs the statements in order; the first that fails stops it.
bool execAll(QSqlDatabase &db, const QStringList &statements, QString *error);

/// The migrations of this version of capwatch, in order: v1, the first schema; v2, parked sends
/// (issue 15); v3, provider windows and the retry log's window columns (issue 16); v4, provider
/// profiles (issue 17); v5, an answer's token usage; v6, search indexes the first
/// kSearchedChars characters of a message; v7, how an answer ended; v8, the usage ledger; v9, its
/// index by conversation; v10, where each retry wait came from; v11, the ledger's rollups for the
/// insights. A later one is one more function appended here.
const std::vector<Migration> &schemaMigrations();

/// The tables that sum the usage ledger (schema v11), kept by triggers as rows are added. A
/// delete of usage rows must empty them too: capwatch deletes the ledger only whole
/// (HistoryStore::clear(true)), and a trigger taking back each deleted row would make that delete
/// go row by row (docs/history.md, "Insights").
const QStringList &usageRollupTables();

} // namespace capwatch::history
