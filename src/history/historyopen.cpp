// Opening: probing the file read-only, recovering what cannot be used, configuring the
// connection and migrating the schema.

#include "historylogging.h"
#include "historystore.h"
#include "historystore_p.h"
#include "privatefiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QSqlDriver>
#include <QtEndian>
#include <optional>

#ifdef Q_OS_UNIX
#include <dlfcn.h>
#endif

namespace capwatch::history {

using namespace Qt::StringLiterals;
using namespace detail;

namespace {

/// Long enough for another process to re-probe (a quick_check reads about 100 MB a second),
/// move the file aside and create a new one.
constexpr int kLockTimeoutMs = 10000;

/// A read-only look at a file before it is opened for writing, so that a file this version must
/// not touch (newer, damaged) stays byte for byte as it was.
struct Probe
{
    enum class State
    {
        Missing,
        Usable,
        Newer,
        Busy,
        Unusable
    };
    State state = State::Missing;
    int version = 0;
    QString reason;
};

/// The schema version in the file's header (offset 60, big-endian), read without SQLite, so a
/// database of a newer capwatch is refused before anything (not even a -shm) is made beside it.
std::optional<int> headerVersion(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray header = file.read(100);
    if (header.size() < 100 || !header.startsWith(QByteArrayView("SQLite format 3\0", 16)))
        return std::nullopt;
    // The fixed payload fractions (64, 32, 32) and a power-of-two page size: a real header, not
    // garbage after the magic words (which SQLite itself will then reject).
    const auto byte = [&header](int at) { return quint8(header.at(at)); };
    const int pageSize = (byte(16) << 8) | byte(17);
    if (byte(21) != 64 || byte(22) != 32 || byte(23) != 32
        || (pageSize != 1 && (pageSize < 512 || (pageSize & (pageSize - 1)) != 0)))
        return std::nullopt;
    return int(qFromBigEndian<quint32>(header.constData() + 60));
}

Probe probeFile(const QString &path, int latest, bool checkIntegrity)
{
    Probe p;
    const QFileInfo info(path);
    if (!info.exists() && !info.isSymLink()) {
        if (QFileInfo::exists(path + u"-wal"_s)) {
            p.state = Probe::State::Unusable;
            p.reason = u"a write-ahead log without its database"_s;
        }
        return p;
    }
    if (info.isDir()) {
        p.state = Probe::State::Unusable;
        p.reason = u"a folder is in its place"_s;
        return p;
    }
    if (!info.isReadable()) {
        p.state = Probe::State::Unusable;
        p.reason = u"the file is not readable"_s;
        return p;
    }
    if (info.size() == 0 && !QFileInfo::exists(path + u"-wal"_s))
        return p; // SQLite takes an empty file for an empty database
    if (const std::optional<int> version = headerVersion(path); version && *version > latest) {
        p.state = Probe::State::Newer;
        p.version = *version;
        return p;
    }

    const QString name = newConnectionName();
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, name);
        db.setDatabaseName(path);
        db.setConnectOptions(
            u"QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=%1"_s.arg(kBusyTimeoutMs));
        QSqlQuery q(db);
        const auto failed = [&p](const QSqlError &error) {
            p.state = isBusy(error) ? Probe::State::Busy : Probe::State::Unusable;
            p.reason = errorText(error);
        };
        qCDebug(lcHistory) << "probing" << path;
        if (!db.open()) {
            failed(db.lastError());
        } else if (!q.exec(u"PRAGMA user_version"_s) || !q.next()) {
            failed(q.lastError());
        } else {
            p.version = q.value(0).toInt();
            q.finish();
            if (p.version > latest) {
                p.state = Probe::State::Newer;
            } else if (!q.exec(u"SELECT count(*) FROM sqlite_master"_s) || !q.next()) {
                failed(q.lastError());
            } else {
                p.state = Probe::State::Usable;
                q.finish();
                if (checkIntegrity) {
                    if (!q.exec(u"PRAGMA quick_check(1)"_s) || !q.next()) {
                        failed(q.lastError());
                    } else if (const QString verdict = q.value(0).toString(); verdict != u"ok"_s) {
                        p.state = Probe::State::Unusable;
                        p.reason = u"damaged: "_s + verdict;
                    }
                }
            }
        }
        q = QSqlQuery();
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return p;
}

/// Renames the file (or whatever is in its place) and its -wal, -shm and -journal to
/// `<name>.corrupt-YYYYMMDD-HHMMSS...`. The new name, or empty when it could not be moved.
QString moveAside(const QString &path, QString *error)
{
    const QString stamp = QDateTime::currentDateTime().toString(u"yyyyMMdd-HHmmss"_s);
    QString target = path + u".corrupt-"_s + stamp;
    for (int n = 2; QFileInfo::exists(target) || QFileInfo::exists(target + u"-wal"_s); ++n)
        target = path + u".corrupt-"_s + stamp + u'-' + QString::number(n);
    QDir dir;
    const QFileInfo info(path);
    if ((info.exists() || info.isSymLink()) && !dir.rename(path, target)) {
        *error = u"could not rename %1"_s.arg(path);
        return {};
    }
    for (const QString &suffix : { u"-wal"_s, u"-shm"_s, u"-journal"_s }) {
        const QString side = path + suffix;
        if (!QFileInfo::exists(side))
            continue;
        // A log left beside the new database would be replayed into it.
        if (!dir.rename(side, target + suffix) && !QFile::remove(side)) {
            *error = u"could not move %1 away"_s.arg(side);
            return {};
        }
    }
    return target;
}

/// Probes, and again while SQLite answers "busy" without waiting where waiting could deadlock
/// (another process creating the file at this moment): by the next try that process holds the
/// lock and the busy timeout waits for it.
Probe probeAgain(const QString &path, int latest, bool checkIntegrity)
{
    Probe probe = probeFile(path, latest, checkIntegrity);
    for (int retry = 0; retry < kBusyRetries && probe.state == Probe::State::Busy; ++retry)
        probe = probeFile(path, latest, checkIntegrity);
    return probe;
}

/// The sentence of the result's status, without what could not be made private.
QString statusMessage(const OpenResult &r)
{
    using Status = OpenResult::Status;
    switch (r.status) {
    case Status::Opened:
        if (r.fromVersion < r.version)
            return u"History: %1 (migrated from schema version %2 to %3)"_s.arg(r.path)
                .arg(r.fromVersion)
                .arg(r.version);
        return u"History: %1 (schema version %2)"_s.arg(r.path).arg(r.version);
    case Status::Created:
        return u"History: new database %1"_s.arg(r.path);
    case Status::Recovered:
        return u"History: the database %1 could not be used (%2); it was moved to %3 and a new "
               "one was started"_s.arg(r.path, r.reason, r.movedTo);
    case Status::NewerVersion:
        return u"History: %1 was made by a newer capwatch (schema version %2; this one knows up "
               "to %3); it is left untouched and history is kept in memory only for this run"_s
                   .arg(r.path)
                   .arg(r.fromVersion)
                   .arg(r.version);
    case Status::Unavailable:
        return u"History: no database could be opened at %1 (%2); history is kept in memory "
               "only for this run"_s.arg(r.path, r.reason);
    }
    return {};
}

} // namespace

bool OpenResult::persistent() const
{
    return status == Status::Opened || status == Status::Created || status == Status::Recovered;
}

QString OpenResult::message() const
{
    QString text = statusMessage(*this);
    if (!privacyProblems.isEmpty())
        text += u"; "_s + privacyProblems.join(u"; "_s);
    return text;
}

OpenResult HistoryStore::open(const QString &path, const OpenOptions &options)
{
    close();
    // For this user only, before anything is read or made: the folder, then the files in it (a
    // file moved aside keeps the mode it has now).
    PrivateFiles privacy(path);
    privacy.prepareFolder();
    privacy.tightenFiles();
    OpenResult result = openPrivately(path, options, privacy);
    // The -wal and -shm SQLite made have the database's mode; any that were there are checked.
    privacy.tightenFiles();
    result.privacyProblems = privacy.problems();
    if (!result.privacyProblems.isEmpty())
        qCWarning(lcHistory).noquote() << result.message();
    return result;
}

OpenResult HistoryStore::openPrivately(
    const QString &path, const OpenOptions &options, PrivateFiles &privacy)
{
    const std::vector<Migration> &migrations
        = options.migrations.empty() ? schemaMigrations() : options.migrations;
    const int latest = migrations.back().version;
    OpenResult result;
    result.path = path;

    Probe probe = probeAgain(path, latest, options.checkIntegrity);
    // Creating the file and moving a damaged one aside happen under a lock file, the file probed
    // again once it is held: two processes that both found it missing or damaged would otherwise
    // both act, the second moving aside the database the first had just made.
    std::optional<QLockFile> lock;
    bool locked = false;
    const auto takeLock = [&] {
        lock.emplace(path + u".lock"_s);
        locked = lock->tryLock(kLockTimeoutMs);
        if (locked)
            probe = probeAgain(path, latest, options.checkIntegrity);
        else
            qCWarning(lcHistory) << "could not take the lock" << path + u".lock"_s << lock->error();
    };
    if (probe.state == Probe::State::Missing || probe.state == Probe::State::Unusable)
        takeLock();
    QString reason;
    for (;;) {
        result.fromVersion = probe.version;
        reason = probe.reason;
        switch (probe.state) {
        case Probe::State::Newer:
            result.status = OpenResult::Status::NewerVersion;
            result.version = latest;
            result.reason = u"schema version %1 is newer than %2"_s.arg(probe.version).arg(latest);
            qCWarning(lcHistory).noquote() << result.message();
            useMemory();
            return result;
        case Probe::State::Busy:
            result.status = OpenResult::Status::Unavailable;
            result.reason = reason;
            qCWarning(lcHistory).noquote() << result.message();
            useMemory();
            return result;
        case Probe::State::Missing:
        case Probe::State::Usable: {
            const bool existed = probe.state == Probe::State::Usable;
            // Made 0600 before SQLite makes it (with the umask's 0644) and its -wal and -shm.
            privacy.createFile();
            if (openFile(path, migrations, &result)) {
                if (!options.checkpointOnClose)
                    leaveCheckpointToNextOpen();
                result.status = existed && probe.version > 0 ? OpenResult::Status::Opened
                                                             : OpenResult::Status::Created;
                result.pagesChecked
                    = result.status == OpenResult::Status::Created || options.checkIntegrity;
                qCInfo(lcHistory).noquote() << result.message();
                return result;
            }
            // A migration that failed, or a database someone else holds, is not damage: the
            // file stays as it is and this run keeps its history in memory.
            if (result.status == OpenResult::Status::NewerVersion || !existed
                || !result.reason.isEmpty()) {
                if (result.status != OpenResult::Status::NewerVersion)
                    result.status = OpenResult::Status::Unavailable;
                if (result.reason.isEmpty())
                    result.reason = m_lastError;
                qCWarning(lcHistory).noquote() << result.message();
                close();
                useMemory();
                return result;
            }
            reason = m_lastError;
            close();
            // Damage found only on opening: look again under the lock before moving it.
            if (!lock) {
                takeLock();
                if (locked)
                    continue;
            }
            break;
        }
        case Probe::State::Unusable:
            break;
        }
        break;
    }
    if (!locked) {
        result.status = OpenResult::Status::Unavailable;
        result.reason = reason + u"; not moved aside: another process holds %1.lock"_s.arg(path);
        qCWarning(lcHistory).noquote() << result.message();
        useMemory();
        return result;
    }

    QString moveError;
    const QString movedTo = moveAside(path, &moveError);
    if (movedTo.isEmpty()) {
        result.status = OpenResult::Status::Unavailable;
        result.reason = reason + u"; "_s + moveError;
        qCWarning(lcHistory).noquote() << result.message();
        useMemory();
        return result;
    }
    result.movedTo = movedTo;
    result.fromVersion = 0;
    privacy.createFile();
    if (!openFile(path, migrations, &result)) {
        result.status = OpenResult::Status::Unavailable;
        result.reason = reason + u"; then: "_s + m_lastError;
        qCWarning(lcHistory).noquote() << result.message();
        close();
        useMemory();
        return result;
    }
    result.status = OpenResult::Status::Recovered;
    result.pagesChecked = true; // a new file
    result.reason = reason;
    qCWarning(lcHistory).noquote() << result.message();
    return result;
}

OpenResult HistoryStore::openInMemory()
{
    close();
    useMemory();
    OpenResult result;
    result.status = OpenResult::Status::Unavailable;
    result.version = latestVersion();
    result.reason = u"private: nothing is kept on disk"_s;
    return result;
}

void HistoryStore::useMemory()
{
    close();
    m_connection = newConnectionName();
    m_db = QSqlDatabase::addDatabase(u"QSQLITE"_s, m_connection);
    m_db.setDatabaseName(u":memory:"_s);
    m_statements = std::make_unique<Statements>();
    OpenResult ignored;
    QString error;
    if (!m_db.open() || !configure(&error, nullptr) || !migrate(schemaMigrations(), &ignored))
        qCWarning(lcHistory) << "the in-memory database failed:" << m_lastError << error;
    m_persistent = false;
    m_path.clear();
}

// sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, &set), SQLite 3.28 and later, from
// the SQLite library the Qt driver loaded. capwatch does not link SQLite itself: the window would
// load it before its first paint. A driver with a SQLite of its own inside keeps the checkpoint.
void HistoryStore::leaveCheckpointToNextOpen()
{
#ifdef Q_OS_UNIX
    constexpr int kNoCheckpointOnClose = 1006; // SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE in sqlite3.h
    const QVariant handle = m_db.driver()->handle();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return;
    void *const db = *static_cast<void *const *>(handle.constData());
    void *const library = dlopen("libsqlite3.so.0", RTLD_LAZY | RTLD_NOLOAD);
    if (!db || !library)
        return;
    using DbConfig = int (*)(void *, int, ...);
    const auto config = reinterpret_cast<DbConfig>(dlsym(library, "sqlite3_db_config"));
    int set = 0;
    if (!config || config(db, kNoCheckpointOnClose, 1, &set) != 0 || set != 1)
        qCDebug(lcHistory) << "SQLite checkpoints this database on close";
    dlclose(library);
#endif
}

bool HistoryStore::openFile(
    const QString &path, const std::vector<Migration> &migrations, OpenResult *result)
{
    m_connection = newConnectionName();
    m_db = QSqlDatabase::addDatabase(u"QSQLITE"_s, m_connection);
    m_db.setDatabaseName(path);
    m_db.setConnectOptions(u"QSQLITE_BUSY_TIMEOUT=%1"_s.arg(kBusyTimeoutMs));
    m_statements = std::make_unique<Statements>();
    QString error;
    if (!m_db.open()) {
        m_lastError = errorText(m_db.lastError());
        if (isBusy(m_db.lastError()))
            result->reason = m_lastError;
        return false;
    }
    bool busy = false;
    if (!configure(&error, &busy)) {
        m_lastError = error;
        if (busy)
            result->reason = m_lastError; // held by another process, not damaged
        return false;
    }
    if (!migrate(migrations, result))
        return false;
    m_path = path;
    m_persistent = true;
    return true;
}

// WAL: readers never wait for the writer, and two processes can share the file.
// synchronous=NORMAL: in WAL mode a commit is in the log, in the OS's hands, when it returns, so
// a killed process loses nothing committed; only a power cut can lose the last commits, never
// the file. FULL would add an fsync per record for that case alone.
// secure_delete: deleted conversations are overwritten, not left in free pages.
bool HistoryStore::configure(QString *error, bool *busy)
{
    QSqlQuery q(m_db);
    const bool memory = m_db.databaseName() == u":memory:"_s;
    if (!memory) {
        // Two processes switching a new file to WAL at once: SQLite fails one at once rather
        // than deadlock; on the next try the other has switched it and the busy timeout waits.
        bool switched = q.exec(u"PRAGMA journal_mode=WAL"_s) && q.next();
        for (int retry = 0; retry < kBusyRetries && !switched && isBusy(q.lastError()); ++retry)
            switched = q.exec(u"PRAGMA journal_mode=WAL"_s) && q.next();
        if (!switched) {
            *error = u"switching to write-ahead logging: "_s + errorText(q.lastError());
            if (busy)
                *busy = isBusy(q.lastError());
            return false;
        }
        if (q.value(0).toString().compare(u"wal"_s, Qt::CaseInsensitive) != 0) {
            *error = u"the database cannot use write-ahead logging"_s;
            return false;
        }
        q.finish();
    }
    return execAll(m_db,
        { u"PRAGMA busy_timeout=%1"_s.arg(kBusyTimeoutMs), u"PRAGMA synchronous=NORMAL"_s,
            u"PRAGMA foreign_keys=ON"_s, u"PRAGMA secure_delete=ON"_s },
        error);
}

bool HistoryStore::migrate(const std::vector<Migration> &migrations, OpenResult *result)
{
    const int latest = migrations.back().version;
    QSqlQuery q(m_db);
    // One migration per transaction, the version read again inside it: another process may have
    // migrated meanwhile.
    for (;;) {
        if (!q.exec(u"BEGIN IMMEDIATE"_s)) {
            m_lastError = u"starting the migration: "_s + errorText(q.lastError());
            result->reason = m_lastError;
            return false;
        }
        if (!q.exec(u"PRAGMA user_version"_s) || !q.next()) {
            m_lastError = errorText(q.lastError());
            q.exec(u"ROLLBACK"_s);
            return false;
        }
        const int current = q.value(0).toInt();
        q.finish();
        if (current > latest) {
            q.exec(u"ROLLBACK"_s);
            result->status = OpenResult::Status::NewerVersion;
            result->fromVersion = current;
            result->version = latest;
            result->reason = u"schema version %1 is newer than %2"_s.arg(current).arg(latest);
            m_lastError = result->reason;
            return false;
        }
        if (current == latest) {
            q.exec(u"COMMIT"_s);
            break;
        }
        const auto next = std::find_if(migrations.cbegin(), migrations.cend(),
            [current](const Migration &m) { return m.version > current; });
        QString error;
        if (!next->apply(m_db, &error) || !q.exec(u"PRAGMA user_version=%1"_s.arg(next->version))
            || !q.exec(u"COMMIT"_s)) {
            if (error.isEmpty())
                error = errorText(q.lastError());
            q.exec(u"ROLLBACK"_s);
            m_lastError = u"migration to version %1 failed: %2"_s.arg(next->version).arg(error);
            result->reason = m_lastError;
            qCWarning(lcHistory).noquote() << m_lastError;
            return false;
        }
        qCInfo(lcHistory) << "migrated to schema version" << next->version;
    }
    result->version = latest;
    m_hasFts = q.exec(u"SELECT 1 FROM sqlite_master WHERE name = 'messages_fts'"_s) && q.next();
    return true;
}

} // namespace capwatch::history
