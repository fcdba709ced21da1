#include "historystore.h"

#include "historylogging.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QUrl>
#include <QtEndian>
#include <atomic>
#include <limits>

namespace capwatch::history {

using namespace Qt::StringLiterals;

namespace {

constexpr int kBusyTimeoutMs = 5000;
constexpr int kBusyRetries = 20;
constexpr int kTitleWords = 8;
constexpr int kTitleChars = 60;
constexpr int kSnippetTokens = 12;

QString newConnectionName()
{
    static std::atomic<int> counter { 0 };
    return u"capwatch-history-%1"_s.arg(counter.fetch_add(1));
}

/// SQLite's primary result code from a Qt SQL error.
int sqliteCode(const QSqlError &error)
{
    return error.nativeErrorCode().toInt() & 0xff;
}

bool isBusy(const QSqlError &error)
{
    const int code = sqliteCode(error);
    return code == 5 /* SQLITE_BUSY */ || code == 6 /* SQLITE_LOCKED */;
}

QString errorText(const QSqlError &error)
{
    const QString text = error.databaseText();
    return text.isEmpty() ? error.text() : text;
}

QVariant msOrNull(const QDateTime &t)
{
    return t.isValid() ? QVariant(t.toMSecsSinceEpoch()) : QVariant();
}

QDateTime timeOf(const QVariant &v)
{
    return v.isNull() ? QDateTime() : QDateTime::fromMSecsSinceEpoch(v.toLongLong(), Qt::UTC);
}

/// A QString() binds as NULL; NOT NULL text columns get an empty string.
QString nonNull(const QString &s)
{
    return s.isNull() ? u""_s : s;
}

QVariant textOrNull(const QString &s)
{
    return s.isEmpty() ? QVariant() : QVariant(s);
}

template<class T> QVariant optional(const std::optional<T> &v)
{
    return v ? QVariant::fromValue(*v) : QVariant();
}

std::optional<int> optionalInt(const QVariant &v)
{
    return v.isNull() ? std::nullopt : std::optional<int>(v.toInt());
}

std::optional<qint64> optionalMs(const QVariant &v)
{
    return v.isNull() ? std::nullopt : std::optional<qint64>(v.toLongLong());
}

std::optional<double> optionalDouble(const QVariant &v)
{
    return v.isNull() ? std::nullopt : std::optional<double>(v.toDouble());
}

QString nameText(std::string_view name)
{
    return QString::fromLatin1(name.data(), qsizetype(name.size()));
}

QString uuidText(const QUuid &id)
{
    return id.toString(QUuid::WithoutBraces);
}

QDateTime nowUtc()
{
    return QDateTime::currentDateTimeUtc();
}

const QString kRecordColumns
    = u"r.time_ms, r.request, r.event, r.attempt, r.status, r.category, r.used, r.token_limit, "
      "r.wait_ms, r.raw_wait_ms, r.wait_source, r.waited_total_ms, r.budget_left_ms, r.reason, "
      "r.error, r.reset_at_ms"_s;

RetryRecord readRecord(const QSqlQuery &q, int first)
{
    RetryRecord r;
    r.time = timeOf(q.value(first));
    r.request = q.value(first + 1).toInt();
    r.event = q.value(first + 2).toString();
    r.attempt = q.value(first + 3).toInt();
    r.status = optionalInt(q.value(first + 4));
    r.category = categoryFromName(q.value(first + 5).toString());
    r.used = optionalDouble(q.value(first + 6));
    r.limit = optionalDouble(q.value(first + 7));
    r.waitMs = optionalMs(q.value(first + 8));
    r.rawWaitMs = optionalMs(q.value(first + 9));
    r.waitSource = waitSourceFromName(q.value(first + 10).toString());
    r.waitedTotalMs = optionalMs(q.value(first + 11));
    r.budgetLeftMs = optionalMs(q.value(first + 12));
    r.reason = endReasonFromName(q.value(first + 13).toString());
    r.error = q.value(first + 14).toString();
    r.resetAt = timeOf(q.value(first + 15));
    return r;
}

/// The words of a search box as an FTS5 query: each word a quoted string (so no input is FTS5
/// syntax), all required, the last one a prefix unless the text ends in a space.
QString ftsQuery(const QString &text)
{
    QStringList terms;
    const QStringList words = text.simplified().split(u' ', Qt::SkipEmptyParts);
    for (QString word : words) {
        if (std::none_of(word.cbegin(), word.cend(), [](QChar c) { return c.isLetterOrNumber(); }))
            continue;
        word.replace(u'"', u"\"\""_s);
        terms.append(u'"' + word + u'"');
    }
    // A prefix of one letter would gather most of the index; it waits for the second.
    if (!terms.isEmpty() && !text.isEmpty() && !text.back().isSpace() && terms.last().size() > 3)
        terms.last().append(u'*');
    return terms.join(u' ');
}

QString likePattern(const QString &word)
{
    QString escaped = word;
    escaped.replace(u'\\', u"\\\\"_s).replace(u'%', u"\\%"_s).replace(u'_', u"\\_"_s);
    return u'%' + escaped + u'%';
}

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

} // namespace

bool OpenResult::persistent() const
{
    return status == Status::Opened || status == Status::Created || status == Status::Recovered;
}

QString OpenResult::message() const
{
    switch (status) {
    case Status::Opened:
        if (fromVersion < version)
            return u"History: %1 (migrated from schema version %2 to %3)"_s.arg(path)
                .arg(fromVersion)
                .arg(version);
        return u"History: %1 (schema version %2)"_s.arg(path).arg(version);
    case Status::Created:
        return u"History: new database %1"_s.arg(path);
    case Status::Recovered:
        return u"History: the database %1 could not be used (%2); it was moved to %3 and a new "
               "one was started"_s.arg(path, reason, movedTo);
    case Status::NewerVersion:
        return u"History: %1 was made by a newer capwatch (schema version %2; this one knows up "
               "to %3); it is left untouched and history is kept in memory only for this run"_s
                   .arg(path)
                   .arg(fromVersion)
                   .arg(version);
    case Status::Unavailable:
        return u"History: no database could be opened at %1 (%2); history is kept in memory "
               "only for this run"_s.arg(path, reason);
    }
    return {};
}

struct HistoryStore::Statements
{
    QHash<QString, QSqlQuery> cache;
};

HistoryStore::HistoryStore() = default;

HistoryStore::~HistoryStore()
{
    close();
}

QString HistoryStore::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + u"/history.sqlite"_s;
}

int HistoryStore::latestVersion()
{
    return schemaMigrations().back().version;
}

OpenResult HistoryStore::open(const QString &path, const OpenOptions &options)
{
    close();
    const std::vector<Migration> &migrations
        = options.migrations.empty() ? schemaMigrations() : options.migrations;
    const int latest = migrations.back().version;
    OpenResult result;
    result.path = path;

    const QFileInfo info(path);
    QDir().mkpath(info.absolutePath());
    Probe probe = probeFile(path, latest, options.checkIntegrity);
    // SQLite answers "busy" without waiting where waiting could deadlock (another process
    // creating the file at this moment); by the next try that process holds the lock and the
    // busy timeout waits for it.
    for (int retry = 0; retry < kBusyRetries && probe.state == Probe::State::Busy; ++retry)
        probe = probeFile(path, latest, options.checkIntegrity);
    result.fromVersion = probe.version;
    QString reason = probe.reason;
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
        if (openFile(path, migrations, &result)) {
            result.status = existed && probe.version > 0 ? OpenResult::Status::Opened
                                                         : OpenResult::Status::Created;
            qCInfo(lcHistory).noquote() << result.message();
            return result;
        }
        // A migration that failed, or a database someone else holds, is not damage: the file
        // stays as it is and this run keeps its history in memory.
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
        break;
    }
    case Probe::State::Unusable:
        break;
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
    if (!openFile(path, migrations, &result)) {
        result.status = OpenResult::Status::Unavailable;
        result.reason = reason + u"; then: "_s + m_lastError;
        qCWarning(lcHistory).noquote() << result.message();
        close();
        useMemory();
        return result;
    }
    result.status = OpenResult::Status::Recovered;
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

void HistoryStore::close()
{
    m_statements.reset();
    if (m_db.isValid())
        m_db.close();
    m_db = QSqlDatabase();
    if (!m_connection.isEmpty())
        QSqlDatabase::removeDatabase(m_connection);
    m_connection.clear();
    m_persistent = false;
    m_hasFts = false;
    m_inTransaction = false;
    m_path.clear();
}

bool HistoryStore::isOpen() const
{
    return m_db.isOpen();
}

bool HistoryStore::fail(const QString &context, const QString &error)
{
    m_lastError = context + u": "_s + error;
    qCWarning(lcHistory).noquote() << m_lastError;
    return false;
}

QSqlQuery *HistoryStore::prepared(const QString &sql)
{
    if (!m_statements)
        return nullptr;
    auto it = m_statements->cache.find(sql);
    if (it == m_statements->cache.end()) {
        QSqlQuery q(m_db);
        if (!q.prepare(sql)) {
            fail(u"prepare"_s, errorText(q.lastError()));
            return nullptr;
        }
        it = m_statements->cache.insert(sql, q);
    }
    return &it.value();
}

bool HistoryStore::run(QSqlQuery *q, const QString &context)
{
    if (!q)
        return false;
    if (!q->exec())
        return fail(context, errorText(q->lastError()));
    return true;
}

qint64 HistoryStore::keyOf(const QString &table, const QUuid &id)
{
    QSqlQuery *q = prepared(u"SELECT id FROM %1 WHERE uuid = ?"_s.arg(table));
    if (!q)
        return 0;
    q->bindValue(0, uuidText(id));
    qint64 key = 0;
    if (run(q, u"look up"_s) && q->next())
        key = q->value(0).toLongLong();
    q->finish();
    if (key == 0 && m_lastError.isEmpty())
        m_lastError = u"no such %1: %2"_s.arg(table, uuidText(id));
    return key;
}

bool HistoryStore::begin()
{
    if (m_inTransaction)
        return fail(u"begin"_s, u"a transaction is open"_s);
    QSqlQuery q(m_db);
    if (!q.exec(u"BEGIN IMMEDIATE"_s))
        return fail(u"begin"_s, errorText(q.lastError()));
    m_inTransaction = true;
    return true;
}

bool HistoryStore::commit()
{
    if (!m_inTransaction)
        return fail(u"commit"_s, u"no transaction is open"_s);
    QSqlQuery q(m_db);
    m_inTransaction = false;
    if (!q.exec(u"COMMIT"_s)) {
        const QString error = errorText(q.lastError());
        q.exec(u"ROLLBACK"_s);
        return fail(u"commit"_s, error);
    }
    return true;
}

void HistoryStore::rollback()
{
    if (!m_inTransaction)
        return;
    m_inTransaction = false;
    QSqlQuery q(m_db);
    q.exec(u"ROLLBACK"_s);
}

bool HistoryStore::write(const std::function<bool()> &work)
{
    if (!isOpen())
        return fail(u"write"_s, u"the history is not open"_s);
    m_lastError.clear();
    if (m_inTransaction)
        return work();
    if (!begin())
        return false;
    if (!work()) {
        rollback();
        return false;
    }
    return commit();
}

bool HistoryStore::addConversation(Conversation &c)
{
    if (c.id.isNull())
        c.id = QUuid::createUuid();
    if (!c.created.isValid())
        c.created = nowUtc();
    if (!c.updated.isValid())
        c.updated = c.created;
    c.endpoint = storableEndpoint(c.endpoint);
    return write([&] {
        QSqlQuery *q = prepared(
            u"INSERT INTO conversations (uuid, title, endpoint, model, created_ms, updated_ms) "
            "VALUES (?, ?, ?, ?, ?, ?)"_s);
        if (!q)
            return false;
        q->bindValue(0, uuidText(c.id));
        q->bindValue(1, nonNull(c.title));
        q->bindValue(2, nonNull(c.endpoint));
        q->bindValue(3, nonNull(c.model));
        q->bindValue(4, c.created.toMSecsSinceEpoch());
        q->bindValue(5, c.updated.toMSecsSinceEpoch());
        return run(q, u"add conversation"_s);
    });
}

bool HistoryStore::renameConversation(const QUuid &id, const QString &title)
{
    return write([&] {
        QSqlQuery q(m_db);
        q.prepare(u"UPDATE conversations SET title = ? WHERE uuid = ?"_s);
        q.bindValue(0, nonNull(title.simplified()));
        q.bindValue(1, uuidText(id));
        if (!run(&q, u"rename"_s))
            return false;
        return q.numRowsAffected() == 1 || fail(u"rename"_s, u"no such conversation"_s);
    });
}

bool HistoryStore::deleteConversation(const QUuid &id)
{
    return write([&] {
        QSqlQuery q(m_db);
        q.prepare(u"DELETE FROM conversations WHERE uuid = ?"_s);
        q.bindValue(0, uuidText(id));
        if (!run(&q, u"delete"_s))
            return false;
        return q.numRowsAffected() == 1 || fail(u"delete"_s, u"no such conversation"_s);
    });
}

bool HistoryStore::touch(qint64 conversationKey, const QDateTime &when, const QString &title)
{
    QSqlQuery *q = prepared(u"UPDATE conversations SET updated_ms = max(updated_ms, ?), "
                            "title = CASE WHEN title = '' THEN ? ELSE title END WHERE id = ?"_s);
    if (!q)
        return false;
    q->bindValue(0, when.toMSecsSinceEpoch());
    q->bindValue(1, nonNull(title));
    q->bindValue(2, conversationKey);
    return run(q, u"update conversation"_s);
}

bool HistoryStore::addMessage(Message &m)
{
    if (m.id.isNull())
        m.id = QUuid::createUuid();
    if (!m.created.isValid())
        m.created = nowUtc();
    if (m.state != MessageState::Pending && !m.ended.isValid())
        m.ended = m.created;
    return write([&] {
        const qint64 conversation = keyOf(u"conversations"_s, m.conversation);
        if (conversation == 0)
            return fail(u"add message"_s, m_lastError);
        QSqlQuery *q = prepared(u"INSERT INTO messages (uuid, conversation_id, role, text, state, "
                                "created_ms, ended_ms) VALUES (?, ?, ?, ?, ?, ?, ?)"_s);
        if (!q)
            return false;
        q->bindValue(0, uuidText(m.id));
        q->bindValue(1, conversation);
        q->bindValue(2, nameOf(m.role));
        q->bindValue(3, nonNull(m.text));
        q->bindValue(4, nameOf(m.state));
        q->bindValue(5, m.created.toMSecsSinceEpoch());
        q->bindValue(6, msOrNull(m.ended));
        return run(q, u"add message"_s)
            && touch(conversation, m.created, m.role == Role::User ? titleFor(m.text) : QString());
    });
}

bool HistoryStore::finishMessage(
    const QUuid &id, const QString &text, MessageState state, const QDateTime &ended)
{
    const QDateTime when = ended.isValid() ? ended : nowUtc();
    return write([&] {
        QSqlQuery q(m_db);
        q.prepare(u"UPDATE messages SET text = ?, state = ?, ended_ms = ? WHERE uuid = ? "
                  "RETURNING conversation_id"_s);
        q.bindValue(0, nonNull(text));
        q.bindValue(1, nameOf(state));
        q.bindValue(
            2, state == MessageState::Pending ? QVariant() : QVariant(when.toMSecsSinceEpoch()));
        q.bindValue(3, uuidText(id));
        if (!run(&q, u"finish message"_s))
            return false;
        if (!q.next())
            return fail(u"finish message"_s, u"no such message"_s);
        const qint64 conversation = q.value(0).toLongLong();
        q.finish();
        return touch(conversation, when, {});
    });
}

bool HistoryStore::addSend(Send &s)
{
    if (s.id.isNull())
        s.id = QUuid::createUuid();
    if (!s.started.isValid())
        s.started = nowUtc();
    return write([&] {
        const qint64 conversation = keyOf(u"conversations"_s, s.conversation);
        if (conversation == 0)
            return fail(u"add send"_s, m_lastError);
        qint64 message = 0;
        if (!s.message.isNull() && (message = keyOf(u"messages"_s, s.message)) == 0)
            return fail(u"add send"_s, m_lastError);
        QSqlQuery *q = prepared(
            u"INSERT INTO sends (uuid, conversation_id, message_id, outcome, reason, attempts, "
            "waited_ms, started_ms, ended_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"_s);
        if (!q)
            return false;
        q->bindValue(0, uuidText(s.id));
        q->bindValue(1, conversation);
        q->bindValue(2, message == 0 ? QVariant() : QVariant(message));
        q->bindValue(3, textOrNull(nameOf(s.outcome)));
        q->bindValue(4, textOrNull(nameText(retry::nameOf(s.reason))));
        q->bindValue(5, s.attempts);
        q->bindValue(6, s.waitedMs);
        q->bindValue(7, s.started.toMSecsSinceEpoch());
        q->bindValue(8, msOrNull(s.ended));
        return run(q, u"add send"_s) && touch(conversation, s.started, {});
    });
}

bool HistoryStore::finishSend(const QUuid &id, SendOutcome outcome, retry::EndReason reason,
    int attempts, qint64 waitedMs, const QDateTime &ended)
{
    const QDateTime when = ended.isValid() ? ended : nowUtc();
    return write([&] {
        QSqlQuery q(m_db);
        q.prepare(u"UPDATE sends SET outcome = ?, reason = ?, attempts = ?, waited_ms = ?, "
                  "ended_ms = ? WHERE uuid = ? RETURNING conversation_id"_s);
        q.bindValue(0, textOrNull(nameOf(outcome)));
        q.bindValue(1, textOrNull(nameText(retry::nameOf(reason))));
        q.bindValue(2, attempts);
        q.bindValue(3, waitedMs);
        q.bindValue(
            4, outcome == SendOutcome::Running ? QVariant() : QVariant(when.toMSecsSinceEpoch()));
        q.bindValue(5, uuidText(id));
        if (!run(&q, u"finish send"_s))
            return false;
        if (!q.next())
            return fail(u"finish send"_s, u"no such send"_s);
        const qint64 conversation = q.value(0).toLongLong();
        q.finish();
        return touch(conversation, when, {});
    });
}

bool HistoryStore::addRetryRecord(const QUuid &send, const RetryRecord &r)
{
    return write([&] {
        QSqlQuery *lookup = prepared(u"SELECT id, conversation_id FROM sends WHERE uuid = ?"_s);
        if (!lookup)
            return false;
        lookup->bindValue(0, uuidText(send));
        if (!run(lookup, u"add retry record"_s))
            return false;
        if (!lookup->next()) {
            lookup->finish();
            return fail(u"add retry record"_s, u"no such send: "_s + uuidText(send));
        }
        const qint64 sendKey = lookup->value(0).toLongLong();
        const qint64 conversation = lookup->value(1).toLongLong();
        lookup->finish();

        QSqlQuery *q = prepared(
            u"INSERT INTO retry_records (send_id, time_ms, request, event, attempt, status, "
            "category, used, token_limit, wait_ms, raw_wait_ms, wait_source, waited_total_ms, "
            "budget_left_ms, reason, error, reset_at_ms) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s);
        if (!q)
            return false;
        q->bindValue(0, sendKey);
        q->bindValue(1, (r.time.isValid() ? r.time : nowUtc()).toMSecsSinceEpoch());
        q->bindValue(2, r.request);
        q->bindValue(3, r.event);
        q->bindValue(4, r.attempt);
        q->bindValue(5, optional(r.status));
        q->bindValue(6, r.category ? QVariant(nameText(retry::nameOf(*r.category))) : QVariant());
        q->bindValue(7, optional(r.used));
        q->bindValue(8, optional(r.limit));
        q->bindValue(9, optional(r.waitMs));
        q->bindValue(10, optional(r.rawWaitMs));
        q->bindValue(11, textOrNull(nameText(retry::nameOf(r.waitSource))));
        q->bindValue(12, optional(r.waitedTotalMs));
        q->bindValue(13, optional(r.budgetLeftMs));
        q->bindValue(14, textOrNull(nameText(retry::nameOf(r.reason))));
        q->bindValue(15, textOrNull(r.error));
        q->bindValue(16, msOrNull(r.resetAt));
        if (!run(q, u"add retry record"_s))
            return false;
        if (r.event != u"retry_scheduled"_s)
            return true;
        QSqlQuery *mark = prepared(
            u"UPDATE conversations SET has_retries = 1 WHERE id = ? AND has_retries = 0"_s);
        if (!mark)
            return false;
        mark->bindValue(0, conversation);
        return run(mark, u"add retry record"_s);
    });
}

int HistoryStore::deleteOlderThan(int days, const QDateTime &now)
{
    int deleted = -1;
    write([&] {
        QSqlQuery q(m_db);
        q.prepare(u"DELETE FROM conversations WHERE updated_ms < ?"_s);
        q.bindValue(0, now.addDays(-days).toMSecsSinceEpoch());
        if (!run(&q, u"retention"_s))
            return false;
        deleted = q.numRowsAffected();
        return true;
    });
    return m_lastError.isEmpty() ? deleted : -1;
}

bool HistoryStore::clear()
{
    if (m_inTransaction)
        return fail(u"clear"_s, u"a transaction is open"_s);
    const bool deleted = write([&] {
        QStringList statements { u"DELETE FROM retry_records"_s, u"DELETE FROM sends"_s,
            u"DELETE FROM messages"_s, u"DELETE FROM conversations"_s };
        if (m_hasFts)
            statements.append(u"INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')"_s);
        QString error;
        return execAll(m_db, statements, &error) || fail(u"clear"_s, error);
    });
    if (!deleted)
        return false;
    // Rewrite the file and empty the log so no deleted text stays on disk. Another process
    // reading at the moment can keep the log from being truncated; the rows are gone anyway.
    QString error;
    m_statements->cache.clear();
    if (!execAll(m_db, { u"VACUUM"_s }, &error))
        qCWarning(lcHistory).noquote() << "clear: VACUUM failed:" << error;
    if (m_persistent && !execAll(m_db, { u"PRAGMA wal_checkpoint(TRUNCATE)"_s }, &error))
        qCWarning(lcHistory).noquote() << "clear: checkpoint failed:" << error;
    return true;
}

std::optional<Conversation> HistoryStore::conversation(const QUuid &id)
{
    const qint64 key = keyOf(u"conversations"_s, id);
    if (key == 0)
        return std::nullopt;
    const QList<Conversation> found = readConversations(u"c.id = ?"_s, { key }, 1);
    if (found.isEmpty())
        return std::nullopt;
    return found.front();
}

QList<Conversation> HistoryStore::readConversations(
    const QString &where, const QVariantList &values, int limit, QList<qint64> *keys)
{
    QList<Conversation> out;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(u"SELECT c.id, c.uuid, c.title, c.endpoint, c.model, c.created_ms, c.updated_ms, "
              "c.has_retries, EXISTS (SELECT 1 FROM sends s WHERE s.conversation_id = c.id AND "
              "(s.outcome IS NULL OR s.outcome <> 'succeeded')) FROM conversations c"_s
        + (where.isEmpty() ? QString() : u" WHERE "_s + where)
        + u" ORDER BY c.updated_ms DESC, c.id DESC LIMIT ?"_s);
    int i = 0;
    for (const QVariant &v : values)
        q.bindValue(i++, v);
    q.bindValue(i, limit);
    if (!run(&q, u"list conversations"_s))
        return out;
    while (q.next()) {
        Conversation c;
        if (keys)
            keys->append(q.value(0).toLongLong());
        c.id = QUuid::fromString(q.value(1).toString());
        c.title = q.value(2).toString();
        c.endpoint = q.value(3).toString();
        c.model = q.value(4).toString();
        c.created = timeOf(q.value(5));
        c.updated = timeOf(q.value(6));
        c.hasRetries = q.value(7).toBool();
        c.hasUnanswered = q.value(8).toBool();
        out.append(c);
    }
    return out;
}

ConversationPage HistoryStore::conversations(int limit, const PageCursor &after)
{
    ConversationPage page;
    QList<qint64> keys;
    // One row more than asked tells whether there is a next page.
    QList<Conversation> found = after.atStart
        ? readConversations({}, {}, limit + 1, &keys)
        : readConversations(
            u"(c.updated_ms, c.id) < (?, ?)"_s, { after.updatedMs, after.key }, limit + 1, &keys);
    page.hasMore = found.size() > limit;
    if (page.hasMore)
        found.removeLast();
    page.next = after;
    if (!found.isEmpty()) {
        page.next.atStart = false;
        page.next.updatedMs = found.back().updated.toMSecsSinceEpoch();
        page.next.key = keys.at(found.size() - 1);
    }
    page.conversations = std::move(found);
    return page;
}

qint64 HistoryStore::count(const QString &sql, const QVariantList &values)
{
    QSqlQuery q(m_db);
    q.prepare(sql);
    int i = 0;
    for (const QVariant &v : values)
        q.bindValue(i++, v);
    if (!run(&q, u"count"_s) || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

int HistoryStore::conversationCount()
{
    return int(count(u"SELECT count(*) FROM conversations"_s, {}));
}

int HistoryStore::messageCount(const QUuid &conversation)
{
    return int(count(u"SELECT count(*) FROM messages m JOIN conversations c ON c.id = "
                     "m.conversation_id WHERE c.uuid = ?"_s,
        { uuidText(conversation) }));
}

qint64 HistoryStore::retryRecordCount()
{
    return count(u"SELECT count(*) FROM retry_records"_s, {});
}

QList<Message> HistoryStore::readMessages(
    const QString &where, const QVariantList &values, int offset, int limit)
{
    QList<Message> out;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(u"SELECT m.uuid, c.uuid, m.role, m.text, m.state, m.created_ms, m.ended_ms "
              "FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE "_s
        + where + u" ORDER BY m.id LIMIT ? OFFSET ?"_s);
    int i = 0;
    for (const QVariant &v : values)
        q.bindValue(i++, v);
    q.bindValue(i++, limit);
    q.bindValue(i, offset);
    if (!run(&q, u"read messages"_s))
        return out;
    while (q.next()) {
        Message m;
        m.id = QUuid::fromString(q.value(0).toString());
        m.conversation = QUuid::fromString(q.value(1).toString());
        m.role = roleFromName(q.value(2).toString()).value_or(Role::User);
        m.text = q.value(3).toString();
        m.state = messageStateFromName(q.value(4).toString()).value_or(MessageState::Complete);
        m.created = timeOf(q.value(5));
        m.ended = timeOf(q.value(6));
        out.append(m);
    }
    return out;
}

QList<Message> HistoryStore::messages(const QUuid &conversation, int offset, int limit)
{
    const qint64 key = keyOf(u"conversations"_s, conversation);
    if (key == 0)
        return {};
    return readMessages(u"m.conversation_id = ?"_s, { key }, offset, limit < 0 ? -1 : limit);
}

std::optional<Message> HistoryStore::message(const QUuid &id)
{
    const QList<Message> found = readMessages(u"m.uuid = ?"_s, { uuidText(id) }, 0, 1);
    if (found.isEmpty())
        return std::nullopt;
    return found.front();
}

QList<Send> HistoryStore::sends(const QUuid &conversation)
{
    QList<Send> out;
    const qint64 key = keyOf(u"conversations"_s, conversation);
    if (key == 0)
        return out;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(u"SELECT s.uuid, m.uuid, s.outcome, s.reason, s.attempts, s.waited_ms, "
              "s.started_ms, s.ended_ms FROM sends s LEFT JOIN messages m ON m.id = s.message_id "
              "WHERE s.conversation_id = ? ORDER BY s.id"_s);
    q.bindValue(0, key);
    if (!run(&q, u"read sends"_s))
        return out;
    while (q.next()) {
        Send s;
        s.id = QUuid::fromString(q.value(0).toString());
        s.conversation = conversation;
        s.message = QUuid::fromString(q.value(1).toString());
        s.outcome = sendOutcomeFromName(q.value(2).toString()).value_or(SendOutcome::Running);
        s.reason = endReasonFromName(q.value(3).toString());
        s.attempts = q.value(4).toInt();
        s.waitedMs = q.value(5).toLongLong();
        s.started = timeOf(q.value(6));
        s.ended = timeOf(q.value(7));
        out.append(s);
    }
    return out;
}

QList<StoredRetryRecord> HistoryStore::retryRecords(const QUuid &conversation)
{
    QList<StoredRetryRecord> out;
    const qint64 key = keyOf(u"conversations"_s, conversation);
    if (key == 0)
        return out;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(u"SELECT s.uuid, "_s + kRecordColumns
        + u" FROM retry_records r JOIN sends s ON s.id = r.send_id "
          "WHERE s.conversation_id = ? ORDER BY r.id"_s);
    q.bindValue(0, key);
    if (!run(&q, u"read retry records"_s))
        return out;
    while (q.next())
        out.append({ conversation, QUuid::fromString(q.value(0).toString()), readRecord(q, 1) });
    return out;
}

bool HistoryStore::forEachRetryRecord(const QDateTime &since, const QDateTime &until,
    const std::function<bool(const StoredRetryRecord &)> &visit)
{
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(u"SELECT c.uuid, s.uuid, "_s + kRecordColumns
        + u" FROM retry_records r JOIN sends s ON s.id = r.send_id "
          "JOIN conversations c ON c.id = s.conversation_id "
          "WHERE r.time_ms >= ? AND r.time_ms < ? ORDER BY r.time_ms, r.id"_s);
    q.bindValue(
        0, since.isValid() ? since.toMSecsSinceEpoch() : std::numeric_limits<qint64>::min());
    q.bindValue(
        1, until.isValid() ? until.toMSecsSinceEpoch() : std::numeric_limits<qint64>::max());
    if (!run(&q, u"export retry records"_s))
        return false;
    while (q.next()) {
        const StoredRetryRecord r { QUuid::fromString(q.value(0).toString()),
            QUuid::fromString(q.value(1).toString()), readRecord(q, 2) };
        if (!visit(r))
            break;
    }
    return true;
}

QList<SearchHit> HistoryStore::search(const QString &text, int limit)
{
    QList<SearchHit> hits;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    QString match;
    QStringList words;
    if (m_hasFts) {
        match = ftsQuery(text);
        if (match.isEmpty())
            return hits;
        // Newest matching message first: FTS5 walks its index backwards by rowid, so a common
        // word stops after the first `limit` conversations instead of ranking every match. The
        // snippet is made in the same pass: a query per hit would look the words up again,
        // which for a short prefix costs a millisecond each.
        q.prepare(u"SELECT f.rowid, m.conversation_id, snippet(messages_fts, 0, '[', ']', '…', "
                  "%1) FROM messages_fts f JOIN messages m ON m.id = f.rowid "
                  "WHERE messages_fts MATCH ? ORDER BY f.rowid DESC"_s.arg(kSnippetTokens));
        q.bindValue(0, match);
    } else {
        words = text.simplified().split(u' ', Qt::SkipEmptyParts);
        if (words.isEmpty())
            return hits;
        QStringList conditions;
        for (qsizetype i = 0; i < words.size(); ++i)
            conditions.append(u"m.text LIKE ? ESCAPE '\\'"_s);
        q.prepare(u"SELECT m.id, m.conversation_id, m.text FROM messages m WHERE "_s
            + conditions.join(u" AND "_s) + u" ORDER BY m.id DESC"_s);
        for (qsizetype i = 0; i < words.size(); ++i)
            q.bindValue(int(i), likePattern(words.at(i)));
    }
    if (!run(&q, u"search"_s))
        return hits;
    struct Found
    {
        qint64 message;
        QString snippet;
    };
    QList<Found> found;
    QSet<qint64> seen;
    while (found.size() < limit && q.next()) {
        const qint64 conversation = q.value(1).toLongLong();
        if (seen.contains(conversation))
            continue;
        seen.insert(conversation);
        QString snippet = q.value(2).toString();
        if (!m_hasFts) {
            const qsizetype at = snippet.indexOf(words.front(), 0, Qt::CaseInsensitive);
            snippet = snippet.mid(std::max<qsizetype>(0, at - 40), 80 + words.front().size());
        }
        found.append({ q.value(0).toLongLong(), snippet });
    }
    q.finish();

    QSqlQuery details(m_db);
    details.prepare(u"SELECT c.uuid, c.title, m.uuid FROM messages m "
                    "JOIN conversations c ON c.id = m.conversation_id WHERE m.id = ?"_s);
    for (const Found &f : std::as_const(found)) {
        details.bindValue(0, f.message);
        if (!run(&details, u"search"_s) || !details.next())
            continue;
        hits.append({ QUuid::fromString(details.value(0).toString()), details.value(1).toString(),
            QUuid::fromString(details.value(2).toString()), f.snippet });
        details.finish();
    }
    return hits;
}

QString HistoryStore::integrityCheck()
{
    QSqlQuery q(m_db);
    if (!q.exec(u"PRAGMA integrity_check"_s))
        return errorText(q.lastError());
    QStringList lines;
    while (q.next())
        lines.append(q.value(0).toString());
    return lines.join(u'\n');
}

QString HistoryStore::titleFor(const QString &prompt)
{
    const QStringList words = prompt.simplified().split(u' ', Qt::SkipEmptyParts);
    QString title = words.mid(0, kTitleWords).join(u' ');
    bool cut = words.size() > kTitleWords;
    if (title.size() > kTitleChars) {
        title.truncate(kTitleChars);
        cut = true;
    }
    return cut ? title + u'…' : title;
}

QString HistoryStore::storableEndpoint(const QString &endpoint)
{
    const QUrl url(endpoint.trimmed());
    if (!url.isValid() || url.host().isEmpty())
        return {};
    return url.adjusted(QUrl::RemoveUserInfo | QUrl::RemoveQuery | QUrl::RemoveFragment).toString();
}

} // namespace capwatch::history
