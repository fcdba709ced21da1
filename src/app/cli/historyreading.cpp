#include "historyreading.h"

#include "history/historystore.h"

#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QtEndian>

namespace capwatch::cli {

using namespace Qt::StringLiterals;

int historyReadError(const QString &command, const QString &path, const QString &reason)
{
    writeErr(
        u"capwatch-cli %1: error: cannot read the history %2: %3\n"_s.arg(command, path, reason)
            .toUtf8());
    return ExitNetworkOrConfig;
}

namespace {

/// The schema version in an SQLite header (offset 60, big-endian), when the file has one. Read
/// without SQLite, so a newer capwatch's file is refused before anything is made beside it.
std::optional<int> headerVersion(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray header = file.read(100);
    if (header.size() < 100 || !header.startsWith(QByteArrayView("SQLite format 3\0", 16))
        || quint8(header.at(21)) != 64 || quint8(header.at(22)) != 32
        || quint8(header.at(23)) != 32)
        return std::nullopt;
    return int(qFromBigEndian<quint32>(header.constData() + 60));
}

} // namespace

/// Opens the history for reading without changing the file. HistoryStore::open() creates a
/// missing file, migrates an older one and moves one it cannot use aside, which a command that
/// only reads must not do; so the file is looked at here first, read-only, and open() only gets
/// a file of the current version it will neither migrate nor move. An older version is migrated
/// in a private copy. The store has no read-only open yet; this is the workaround.
Opened openForReading(const QString &command, const QString &path, history::HistoryStore &store,
    std::unique_ptr<QTemporaryDir> &copies)
{
    const QFileInfo info(path);
    if (!info.exists() && !info.isSymLink())
        return Opened::NoHistory;
    const auto failed = [&command, &path](const QString &reason) {
        historyReadError(command, path, reason);
        return Opened::Failed;
    };
    if (info.isDir())
        return failed(u"a folder is in its place"_s);
    if (!info.isReadable())
        return failed(u"the file is not readable"_s);
    if (info.size() == 0 && !QFileInfo::exists(path + u"-wal"_s))
        return Opened::NoHistory;
    const int latest = history::HistoryStore::latestVersion();
    const auto newer = [&](int version) {
        return failed(u"it was made by a newer capwatch (schema version %1; this one reads up to "
                      "%2); it is left untouched"_s.arg(version)
                          .arg(latest));
    };
    if (const std::optional<int> version = headerVersion(path); version && *version > latest)
        return newer(*version);

    int version = 0;
    QString error;
    QString toOpen = path;
    const QString name = u"capwatch-cli-%1-probe"_s.arg(command);
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, name);
        db.setDatabaseName(path);
        db.setConnectOptions(u"QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=5000"_s);
        QSqlQuery q(db);
        const auto sqlError = [](const QSqlError &e) {
            return e.databaseText().isEmpty() ? e.text() : e.databaseText();
        };
        if (!db.open()) {
            error = sqlError(db.lastError());
        } else if (!q.exec(u"PRAGMA user_version"_s) || !q.next()) {
            error = sqlError(q.lastError());
        } else {
            version = q.value(0).toInt();
            q.finish();
            // Reading the schema is what tells a database from another file.
            if (!q.exec(u"SELECT count(*) FROM sqlite_master"_s) || !q.next()) {
                error = sqlError(q.lastError());
            } else if (version > 0 && version < latest) {
                q.finish();
                copies = std::make_unique<QTemporaryDir>();
                toOpen = copies->filePath(u"history.sqlite"_s);
                if (!copies->isValid())
                    error
                        = u"no temporary folder for a copy to upgrade: "_s + copies->errorString();
                else if (!q.exec(
                             u"VACUUM INTO '%1'"_s.arg(QString(toOpen).replace(u'\'', u"''"_s))))
                    error = u"copying it to upgrade the copy: "_s + sqlError(q.lastError());
            }
        }
        q = QSqlQuery();
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    if (!error.isEmpty())
        return failed(error);
    if (version > latest)
        return newer(version);
    if (version == 0)
        return Opened::NoHistory;

    // Its schema was read just now; open() need not read every page again (quick_check), and
    // damage it would find shows as a read error instead.
    history::OpenOptions options;
    options.checkIntegrity = false;
    const history::OpenResult result = store.open(toOpen, options);
    switch (result.status) {
    case history::OpenResult::Status::Opened:
        return Opened::Ready;
    case history::OpenResult::Status::NewerVersion:
        return newer(result.fromVersion);
    case history::OpenResult::Status::Created:
    case history::OpenResult::Status::Recovered:
    case history::OpenResult::Status::Unavailable:
        break;
    }
    return failed(result.reason.isEmpty() ? result.message() : result.reason);
}

} // namespace capwatch::cli
