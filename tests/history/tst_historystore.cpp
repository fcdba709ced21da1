// The history database (issue 14, storage): migrations from version 1, a newer file refused and
// left byte for byte, damaged files moved aside, restore exactly as stored, paging, search,
// retention, clear, no key in the file, two processes at once, kill -9 mid-way, and the
// worker-thread writer. Parked sends (issue 15): stored, read back due first, removed, kept over
// a reopen and a kill -9, deleted with their conversation. Provider windows (issue 16, schema
// v3): a version-2 file migrated, one report per provider and model, garbage read as unset, kept
// over a reopen and over deleting conversations, gone with clear(); the retry records' window
// columns round-trip. Provider profiles (issue 17, schema v4): a version-3 file migrated (and a
// version-1 one through the whole chain), the profile columns round-trip, a conversation's
// profile changed without moving it. Every database lives in a temporary folder.

#include "history/historystore.h"
#include "history/historywriter.h"
#include "history/schema.h"
#include "support/files.h"
#include "support/sanitizers.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <ctime>
#include <map>
#include <tuple>
#include <unistd.h>

using namespace capwatch::history;
using namespace capwatch::testing;
using namespace Qt::StringLiterals;
using capwatch::retry::Category;
using capwatch::retry::EndReason;
using capwatch::retry::WaitSource;

Q_DECLARE_METATYPE(capwatch::history::OpenResult::Status)
Q_DECLARE_METATYPE(std::optional<qint64>)
Q_DECLARE_METATYPE(std::optional<double>)

namespace {

const QDateTime kBase(QDate(2026, 11, 1), QTime(9, 0), Qt::UTC);

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

QByteArray sha256(const QString &path)
{
    return QCryptographicHash::hash(readAll(path), QCryptographicHash::Sha256).toHex();
}

/// One value from a database, read with a connection of its own, outside the store.
QVariant rawValue(const QString &path, const QString &sql)
{
    static int n = 0;
    const QString name = u"raw-%1"_s.arg(++n);
    QVariant value;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, name);
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(sql) && q.next())
                value = q.value(0);
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return value;
}

bool rawExec(const QString &path, const QString &sql)
{
    static int n = 0;
    const QString name = u"rawexec-%1"_s.arg(++n);
    bool ok = false;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, name);
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery q(db);
            ok = q.exec(sql);
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return ok;
}

Conversation conversationAt(const QDateTime &when, const QString &model = u"m"_s)
{
    Conversation c;
    c.endpoint = u"https://api.example.invalid/v1"_s;
    c.model = model;
    c.created = when;
    c.updated = when;
    return c;
}

Message messageOf(const QUuid &conversation, Role role, const QString &text, const QDateTime &when,
    MessageState state = MessageState::Complete)
{
    Message m;
    m.conversation = conversation;
    m.role = role;
    m.text = text;
    m.state = state;
    m.created = when;
    return m;
}

RetryRecord scheduled(const QDateTime &when, int request, int attempt)
{
    RetryRecord r;
    r.time = when;
    r.request = request;
    r.event = u"retry_scheduled"_s;
    r.attempt = attempt;
    r.status = 422;
    r.category = Category::TokenLimit;
    r.used = 60323;
    r.limit = 60000.5;
    r.waitMs = 60000;
    r.rawWaitMs = 1080000;
    r.waitSource = WaitSource::Message;
    r.waitedTotalMs = 60000;
    r.budgetLeftMs = 60000;
    r.error = u"Token limit exceeded: used 60323, limit 60000. Retry in 18 min."_s;
    return r;
}

/// A conversation with a prompt, an answer, a send and `records` retry records, all at `when`.
struct Filled
{
    Conversation conversation;
    Message prompt;
    Message answer;
    Send send;
};

Filled fill(HistoryStore &store, const QDateTime &when, const QString &words, int records)
{
    Filled f;
    f.conversation = conversationAt(when);
    if (!store.addConversation(f.conversation))
        return f;
    f.prompt = messageOf(f.conversation.id, Role::User, u"tell me about "_s + words, when);
    store.addMessage(f.prompt);
    f.send.conversation = f.conversation.id;
    f.send.message = f.prompt.id;
    f.send.started = when;
    store.addSend(f.send);
    for (int i = 1; i <= records; ++i)
        store.addRetryRecord(f.send.id, scheduled(when.addSecs(i), 1, i));
    f.answer = messageOf(f.conversation.id, Role::Assistant, u"all about "_s + words, when);
    store.addMessage(f.answer);
    store.finishSend(f.send.id, SendOutcome::Succeeded, EndReason::None, records + 1, 0, when);
    return f;
}

/// `chars` characters of prose (a word a number) in which `early` comes in the first KiB, `late`
/// right after kSearchedChars characters and `edge` ends just before that limit; a character
/// outside the Basic Multilingual Plane (two UTF-16 units, one SQLite character) comes first.
QString longText(qsizetype chars, const QString &early, const QString &edge, const QString &late)
{
    QString text = u"\U0001F600 opening "_s + early + u' ';
    for (int n = 0; text.size() < kSearchedChars - 200; ++n)
        text += u"filler%1 "_s.arg(n % 1000);
    // SQLite counts the emoji as one character, QString as two.
    const qsizetype limitAt = kSearchedChars + 1;
    text += QString(limitAt - text.size() - edge.size() - 2, u'x') + u' ' + edge + u' ';
    text += late + u' ';
    while (text.size() < chars)
        text += u"tail words go on "_s;
    text.truncate(chars);
    return text;
}

/// FTS5's own check of its index against what it indexes (the content view): "ok" or the error.
QString ftsCheck(const QString &path)
{
    static int n = 0;
    const QString name = u"ftscheck-%1"_s.arg(++n);
    QString verdict = u"not run"_s;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, name);
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery q(db);
            verdict = q.exec(u"INSERT INTO messages_fts(messages_fts, rank) "
                             "VALUES ('integrity-check', 1)"_s)
                ? u"ok"_s
                : q.lastError().text();
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return verdict;
}

/// The first `version` migrations: a file as the build of that version left it.
OpenOptions upTo(int version)
{
    OpenOptions options;
    options.migrations.assign(schemaMigrations().cbegin(), schemaMigrations().cbegin() + version);
    return options;
}

/// A conversation as fill() makes it in a file of an older schema, whose retry records this
/// build's store cannot write: they are inserted with the version-1 columns, scheduled()'s values.
Filled fillOld(HistoryStore &store, const QString &path, const QDateTime &when,
    const QString &words, int records)
{
    Filled f = fill(store, when, words, 0);
    const QString sendKey = rawValue(path,
        u"SELECT id FROM sends WHERE uuid = '%1'"_s.arg(f.send.id.toString(QUuid::WithoutBraces)))
                                .toString();
    for (int i = 1; i <= records; ++i) {
        const RetryRecord r = scheduled(when.addSecs(i), 1, i);
        rawExec(path,
            u"INSERT INTO retry_records (send_id, time_ms, request, event, attempt, status, "
            "category, used, token_limit, wait_ms, raw_wait_ms, wait_source, waited_total_ms, "
            "budget_left_ms, error) VALUES (%1, %2, 1, 'retry_scheduled', %3, 422, "
            "'token_limit', 60323, 60000.5, 60000, 1080000, 'message', 60000, 60000, '%4')"_s
                .arg(sendKey)
                .arg(r.time.toMSecsSinceEpoch())
                .arg(i)
                .arg(r.error));
    }
    if (records > 0) // as addRetryRecord() marks it
        rawExec(path,
            u"UPDATE conversations SET has_retries = 1 WHERE uuid = '%1'"_s.arg(
                f.conversation.id.toString(QUuid::WithoutBraces)));
    return f;
}

/// A window report with every field set, received at `when` (reset 30 s and 1 s after it).
ProviderWindowRecord windowAt(const QString &provider, const QString &model, const QDateTime &when)
{
    ProviderWindowRecord w;
    w.provider = provider;
    w.model = model;
    w.receivedAt = when;
    w.tokensResetAt = when.addSecs(30);
    w.requestsResetAt = when.addMSecs(1250);
    w.limitTokens = 60000;
    w.remainingTokens = 0;
    w.limitRequests = 500;
    w.remainingRequests = 499;
    w.timeScale = 0.02;
    return w;
}

/// A retry record with the provider window columns set (a `paced` one).
RetryRecord pacedAt(const QDateTime &when, int request)
{
    RetryRecord r;
    r.time = when;
    r.request = request;
    r.event = u"paced"_s;
    r.waitMs = 12000;
    r.waitSource = WaitSource::RateLimitReset;
    r.windowTokensLeft = 120;
    r.windowResetS = 12.345;
    r.estimatedTokens = 1387;
    return r;
}

/// A parked send of `f`'s prompt with every field set: parked at `due` - 18 min, the provider's
/// reset 250 ms after `due` (a time-scaled run's).
ParkedSend parkedOf(const Filled &f, const QDateTime &due, int parksInARow = 1)
{
    ParkedSend p;
    p.conversation = f.conversation.id;
    p.message = f.prompt.id;
    p.send = f.send.id;
    p.provider = u"https://api.example.invalid/v1"_s;
    p.model = u"gpt-test"_s;
    p.options = u"{\"system\":\"Be brief.\",\"max_tokens\":256}"_s;
    p.parkedAt = due.addSecs(-18 * 60);
    p.dueAt = due;
    p.resetAt = due.addMSecs(250);
    p.parksInARow = parksInARow;
    return p;
}

/// `p` as parkedSends() gives it back: with its prompt and its conversation's title.
ParkedSend asRead(ParkedSend p, const Filled &f)
{
    p.prompt = f.prompt.text;
    p.title = HistoryStore::titleFor(f.prompt.text);
    return p;
}

QList<QUuid> idsOf(const QList<ParkedSend> &parked)
{
    QList<QUuid> ids;
    for (const ParkedSend &p : parked)
        ids.append(p.id);
    return ids;
}

QString helperPath()
{
    return QStringLiteral(CAPWATCH_HISTORY_HELPER);
}

struct HelperLines
{
    QString opened;
    QUuid conversation;
    QList<QUuid> messages;
    QList<int> records;
    QList<QUuid> parked; ///< `park`: in the order parked
    QList<QUuid> unparked;
    QList<int> usage; ///< the requests of the usage rows written
};

/// The complete lines of a helper's output (a line cut by the kill is not counted).
HelperLines parseHelper(const QByteArray &output)
{
    HelperLines lines;
    const qsizetype end = output.lastIndexOf('\n');
    const QList<QByteArray> all = output.left(end + 1).split('\n');
    for (const QByteArray &line : all) {
        if (line.startsWith("o "))
            lines.opened = QString::fromLatin1(line.mid(2));
        else if (line.startsWith("c "))
            lines.conversation = QUuid::fromString(QString::fromLatin1(line.mid(2)));
        else if (line.startsWith("m "))
            lines.messages.append(QUuid::fromString(QString::fromLatin1(line.mid(2))));
        else if (line.startsWith("r "))
            lines.records.append(line.mid(2).toInt());
        else if (line.startsWith("p "))
            lines.parked.append(QUuid::fromString(QString::fromLatin1(line.mid(2))));
        else if (line.startsWith("g "))
            lines.usage.append(line.mid(2).toInt());
        else if (line.startsWith("u "))
            lines.unparked.append(QUuid::fromString(QString::fromLatin1(line.mid(2))));
    }
    return lines;
}

} // namespace

class TestHistoryStore final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void createsWalDatabaseAtLatestVersion();
    void aStoreThatLeavesTheCheckpointKeepsEverything();
    void migratesFromVersion1();
    void migratesVersion1ToParkedSends();
    void failedMigrationLeavesVersion1();
    void refusesNewerVersionUntouched();
    void movesAsideWhatCannotBeOpened_data();
    void movesAsideWhatCannotBeOpened();
    void restoresExactlyWhatWasStored();
    void listsNewestFirstInPages();
    void marksRetriesAndUnansweredSends();
    void searchFindsOldMessage();
    void replacedMessageRoundTrips();
    void answerUsageRoundTrips();
    void answerEndAndSeamsRoundTrip();
    void searchTakesAnyInput_data();
    void searchTakesAnyInput();
    void longAnswerStoredWholeSearchedByItsStart();
    void migratesVersion5ToBoundedSearch();
    void retentionDeletesOnlyOld();
    void renameDeleteAndClear();
    void exportsRecordsInRange();
    void parkedSendsRoundTripDueFirst();
    void parkedSendNeedsItsRows();
    void removesParkedSend();
    void parkedSendsSurviveReopen();
    void marksParkedConversations();
    void deletingConversationsDeletesTheirParkedSends();
    void leavesOutUnreadableParkedRows();
    void migratesVersion2ToProviderWindows();
    void migratesVersion3ToProfiles();
    void migratesVersion1ToProfilesInOneOpen();
    void profileColumnsRoundTrip();
    void setConversationProfileKeepsUpdated();
    void writerSetsConversationProfile();
    void aHeldWriterRunsNothingUntilReleased();
    void theWriterThreadYieldsToTheWindow();
    void retryRecordWindowColumnsRoundTrip_data();
    void retryRecordWindowColumnsRoundTrip();
    void providerWindowReplacesItsOwnRowOnly();
    void providerWindowKeepsUnsetFields();
    void providerWindowGarbageReadsUnset();
    void providerWindowWriteFailureIsReported();
    void providerWindowSurvivesReopen();
    void providerWindowsKeptOverDeletesClearedByClear();
    void keyNeverInTheFile();
    void twoProcessesLoseNothing();
    void twoProcessesRecoverOnce();
    void killMidWayKeepsEveryReportedRecord();
    void killKeepsParkedSend();
    void usageMigratesAndRoundTrips();
    void ledgerCountsForLimitsAndCosts();
    void usageOutlivesConversationsAndClearsOnRequest();
    void killMidWayKeepsEveryUsageRow();
    void insightsRollupsMigrateFromVersion10();
    void insightsRollupsFollowInsertsAndClear();
    void insightsCountASendOnceOnItsFirstDay();
    void writerKeepsCallerFreeAndFlushes();
    void writerReportsFailures();
    void writerStoresParkedSends();
    void writerStoresProviderWindows();

private:
    QString dbPath() const { return m_dir->filePath(u"history.sqlite"_s); }
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestHistoryStore::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestHistoryStore::createsWalDatabaseAtLatestVersion()
{
    HistoryStore store;
    const OpenResult r = store.open(dbPath());
    QCOMPARE(r.status, OpenResult::Status::Created);
    QVERIFY(r.persistent());
    QCOMPARE(r.version, HistoryStore::latestVersion());
    QVERIFY(store.isPersistent());
    QVERIFY2(store.hasFullTextSearch(), "Debian's SQLite should have FTS5");
    QCOMPARE(rawValue(dbPath(), u"PRAGMA journal_mode"_s).toString(), u"wal"_s);
    QCOMPARE(rawValue(dbPath(), u"PRAGMA user_version"_s).toInt(), HistoryStore::latestVersion());
    store.close();

    HistoryStore again;
    const OpenResult second = again.open(dbPath());
    QCOMPARE(second.status, OpenResult::Status::Opened);
    QCOMPARE(second.fromVersion, HistoryStore::latestVersion());
    QCOMPARE(again.integrityCheck(), u"ok"_s);
}

// capwatch-cli chat closes without folding the write-ahead log into the file: the log stays
// beside it, holding what was written, and every later open, a reader's too, sees all of it.
void TestHistoryStore::aStoreThatLeavesTheCheckpointKeepsEverything()
{
    OpenOptions quick;
    quick.checkIntegrity = false;
    quick.checkpointOnClose = false;
    Conversation c = conversationAt(kBase);
    {
        HistoryStore store;
        QCOMPARE(store.open(dbPath(), quick).status, OpenResult::Status::Created);
        QVERIFY(store.addConversation(c));
        Message m;
        m.conversation = c.id;
        m.text = QString(200'000, u'x'); // some 50 pages
        QVERIFY(store.addMessage(m));
    }
    const QFileInfo wal(dbPath() + u"-wal"_s);
    QVERIFY(wal.exists());
    QVERIFY2(wal.size() > 200'000, qPrintable(QString::number(wal.size())));
    QVERIFY(QFileInfo(dbPath()).size() < wal.size()); // not copied into the file

    // Read back as the window and the reading commands do.
    HistoryStore reader;
    QCOMPARE(reader.open(dbPath()).status, OpenResult::Status::Opened);
    QVERIFY(reader.conversation(c.id));
    QCOMPARE(reader.messages(c.id).size(), 1);
    QCOMPARE(reader.messages(c.id).constFirst().text.size(), 200'000);
    QCOMPARE(reader.integrityCheck(), u"ok"_s);
    reader.close();
    // That open checkpoints on close, as always: the file holds it all, the log is gone.
    QVERIFY(!QFileInfo::exists(dbPath() + u"-wal"_s));
    QVERIFY(QFileInfo(dbPath()).size() > 200'000);
}

void TestHistoryStore::migratesFromVersion1()
{
    // A genuine version-1 file: made by the v1 migration alone, with data in it.
    const OpenOptions v1 = upTo(1);
    QCOMPARE(v1.migrations.front().version, 1);
    Filled before;
    {
        HistoryStore store;
        QCOMPARE(store.open(dbPath(), v1).status, OpenResult::Status::Created);
        before = fillOld(store, dbPath(), kBase, u"version one"_s, 3);
    }
    QCOMPARE(rawValue(dbPath(), u"PRAGMA user_version"_s).toInt(), 1);

    // Opened by a build that knows every version up to one after the latest (here a test-only
    // one: a column and an index): each migration in turn.
    const int next = HistoryStore::latestVersion() + 1;
    OpenOptions v2 = upTo(HistoryStore::latestVersion());
    v2.migrations.push_back({ next, [](QSqlDatabase &db, QString *error) {
                                 return execAll(db,
                                     { u"ALTER TABLE conversations ADD COLUMN pinned "
                                       "INTEGER NOT NULL DEFAULT 0"_s,
                                         u"CREATE INDEX conversations_pinned ON "
                                         "conversations(pinned)"_s },
                                     error);
                             } });
    HistoryStore store;
    const OpenResult r = store.open(dbPath(), v2);
    QCOMPARE(r.status, OpenResult::Status::Opened);
    QCOMPARE(r.fromVersion, 1);
    QCOMPARE(r.version, next);
    QVERIFY2(r.message().contains(u"migrated from schema version 1 to %1"_s.arg(next)),
        qPrintable(r.message()));
    QCOMPARE(rawValue(dbPath(), u"PRAGMA user_version"_s).toInt(), next);
    QCOMPARE(rawValue(dbPath(), u"SELECT pinned FROM conversations"_s).toInt(), 0);
    // Everything stored under version 1 is still there.
    QCOMPARE(store.messages(before.conversation.id).size(), 2);
    QCOMPARE(store.retryRecords(before.conversation.id).size(), 3);
    QCOMPARE(store.search(u"version one"_s).size(), 1);
    QCOMPARE(store.integrityCheck(), u"ok"_s);

    // And opened again: nothing more to do.
    store.close();
    const OpenResult again = store.open(dbPath(), v2);
    QCOMPARE(again.status, OpenResult::Status::Opened);
    QCOMPARE(again.fromVersion, next);
}

void TestHistoryStore::migratesVersion1ToParkedSends()
{
    // A version-1 file as a build from before parking left it, opened by this one. (A store on
    // version 1 writes but cannot list: its reads ask for the parked sends.)
    const OpenOptions v1 = upTo(1);
    Filled before;
    {
        HistoryStore store;
        QCOMPARE(store.open(dbPath(), v1).status, OpenResult::Status::Created);
        before = fillOld(store, dbPath(), kBase, u"before parking"_s, 3);
    }
    QCOMPARE(rawValue(dbPath(), u"PRAGMA user_version"_s).toInt(), 1);
    QCOMPARE(rawValue(dbPath(), u"SELECT count(*) FROM sqlite_master WHERE name = 'parked_sends'"_s)
                 .toInt(),
        0);

    HistoryStore store;
    const OpenResult r = store.open(dbPath());
    QCOMPARE(r.status, OpenResult::Status::Opened);
    QCOMPARE(r.fromVersion, 1);
    QCOMPARE(r.version, HistoryStore::latestVersion());
    QCOMPARE(HistoryStore::latestVersion(), 11);
    QVERIFY(r.message().contains(u"migrated from schema version 1 to 11"_s));
    QCOMPARE(rawValue(dbPath(), u"PRAGMA user_version"_s).toInt(), HistoryStore::latestVersion());
    QCOMPARE(rawValue(dbPath(),
                 u"SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = "
                 "'parked_sends'"_s)
                 .toInt(),
        1);
    QCOMPARE(rawValue(dbPath(),
                 u"SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = "
                 "'parked_sends_by_due'"_s)
                 .toInt(),
        1);
    // The conversation is as it was, messages, sends, records and search index with it.
    Conversation expected = before.conversation;
    expected.title = u"tell me about before parking"_s;
    expected.hasRetries = true;
    QCOMPARE(store.conversation(before.conversation.id), std::optional<Conversation>(expected));
    QCOMPARE(
        store.messages(before.conversation.id), (QList<Message> { before.prompt, before.answer }));
    QCOMPARE(store.sends(before.conversation.id).size(), 1);
    QCOMPARE(store.retryRecords(before.conversation.id).size(), 3);
    QCOMPARE(store.search(u"before parking"_s).size(), 1);
    QCOMPARE(store.integrityCheck(), u"ok"_s);
    QVERIFY(store.parkedSends().isEmpty());

    // And it takes parked sends.
    ParkedSend p = parkedOf(before, kBase.addSecs(3600));
    QVERIFY2(store.addParkedSend(p), qPrintable(store.lastError()));
    QCOMPARE(store.parkedSends(), (QList<ParkedSend> { asRead(p, before) }));
    QVERIFY(store.conversation(before.conversation.id)->hasParked);
    store.close();
    QCOMPARE(store.open(dbPath()).fromVersion, HistoryStore::latestVersion());
    QCOMPARE(store.parkedSends().size(), 1);
}

void TestHistoryStore::failedMigrationLeavesVersion1()
{
    const OpenOptions v1 = upTo(1);
    {
        HistoryStore store;
        QCOMPARE(store.open(dbPath(), v1).status, OpenResult::Status::Created);
        fillOld(store, dbPath(), kBase, u"kept"_s, 1);
    }
    OpenOptions broken = v1;
    broken.migrations.push_back({ 2, [](QSqlDatabase &db, QString *error) {
                                     return execAll(db,
                                         { u"ALTER TABLE conversations ADD COLUMN "
                                           "pinned INTEGER"_s,
                                             u"THIS IS NOT SQL"_s },
                                         error);
                                 } });
    HistoryStore store;
    const OpenResult r = store.open(dbPath(), broken);
    QCOMPARE(r.status, OpenResult::Status::Unavailable);
    QVERIFY(r.reason.contains(u"migration to version 2 failed"_s));
    QVERIFY(!store.isPersistent());
    store.close();
    // The half-done migration was rolled back; the file was not moved aside.
    QCOMPARE(rawValue(dbPath(), u"PRAGMA user_version"_s).toInt(), 1);
    QVERIFY(!rawExec(dbPath(), u"SELECT pinned FROM conversations"_s));
    QCOMPARE(rawValue(dbPath(), u"SELECT count(*) FROM messages"_s).toInt(), 2);
    QCOMPARE(QDir(m_dir->path()).entryList({ u"*corrupt*"_s }), QStringList());
}

void TestHistoryStore::refusesNewerVersionUntouched()
{
    {
        HistoryStore store;
        QVERIFY(store.open(dbPath()).persistent());
        fill(store, kBase, u"from the future"_s, 2);
    }
    QVERIFY(rawExec(dbPath(), u"PRAGMA user_version = 99"_s));
    const QStringList filesBefore = QDir(m_dir->path()).entryList(QDir::Files);
    const QByteArray hash = sha256(dbPath());

    HistoryStore store;
    const OpenResult r = store.open(dbPath());
    QCOMPARE(r.status, OpenResult::Status::NewerVersion);
    QCOMPARE(r.fromVersion, 99);
    QVERIFY(!r.persistent());
    QVERIFY2(r.message().contains(u"newer capwatch"_s), qPrintable(r.message()));
    QVERIFY(r.message().contains(dbPath()));
    // Usable for this run, in memory.
    QVERIFY(!store.isPersistent());
    Conversation c = conversationAt(kBase);
    QVERIFY(store.addConversation(c));
    QCOMPARE(store.conversationCount(), 1);
    store.close();

    QCOMPARE(sha256(dbPath()), hash);
    QCOMPARE(QDir(m_dir->path()).entryList(QDir::Files), filesBefore);
}

void TestHistoryStore::movesAsideWhatCannotBeOpened_data()
{
    QTest::addColumn<QString>("kind");
    QTest::newRow("garbage bytes") << u"garbage"_s;
    QTest::newRow("garbage with a write-ahead log") << u"garbage+wal"_s;
    QTest::newRow("SQLite header, garbage after") << u"header"_s;
    QTest::newRow("truncated database") << u"truncated"_s;
    QTest::newRow("a folder in its place") << u"folder"_s;
    QTest::newRow("unreadable file") << u"unreadable"_s;
}

void TestHistoryStore::movesAsideWhatCannotBeOpened()
{
    QFETCH(QString, kind);
    QByteArray bytes;
    QByteArray noise;
    for (int i = 0; i < 65536; ++i)
        noise.append(char((i * 7919 + 13) % 251));
    if (kind == u"garbage"_s || kind == u"garbage+wal"_s) {
        bytes = noise;
    } else if (kind == u"header"_s) {
        bytes = QByteArray("SQLite format 3\0", 16) + noise;
    } else if (kind == u"truncated"_s) {
        {
            HistoryStore store;
            QVERIFY(store.open(dbPath()).persistent());
            QVERIFY(store.begin());
            for (int i = 0; i < 40; ++i)
                fill(store, kBase.addSecs(i), u"filler %1 "_s.arg(i).repeated(40), 20);
            QVERIFY(store.commit());
        }
        bytes = readAll(dbPath());
        QVERIFY2(bytes.size() > 200000, QByteArray::number(bytes.size()).constData());
        bytes.truncate(bytes.size() * 2 / 5);
    } else if (kind == u"unreadable"_s && ::geteuid() == 0) {
        QSKIP("root reads any file: no unreadable file to test with");
    }
    if (kind == u"folder"_s) {
        QVERIFY(QDir().mkpath(dbPath()));
        QVERIFY(writeFile(dbPath() + u"/inside"_s, "a file of the user's"));
    } else {
        if (kind == u"unreadable"_s)
            bytes = "not for your eyes";
        QVERIFY(writeFile(dbPath(), bytes));
        if (kind == u"garbage+wal"_s)
            QVERIFY(writeFile(dbPath() + u"-wal"_s, noise.left(5000)));
        if (kind == u"unreadable"_s)
            QVERIFY(QFile::setPermissions(dbPath(), QFileDevice::Permissions()));
    }

    HistoryStore store;
    const OpenResult r = store.open(dbPath());
    QCOMPARE(r.status, OpenResult::Status::Recovered);
    QVERIFY(r.persistent());
    QVERIFY(!r.reason.isEmpty());
    const QString name = QFileInfo(r.movedTo).fileName();
    QVERIFY2(
        QRegularExpression(u"^history\\.sqlite\\.corrupt-\\d{8}-\\d{6}$"_s).match(name).hasMatch(),
        qPrintable(name));
    QVERIFY(r.message().contains(r.movedTo));
    if (kind == u"folder"_s) {
        QCOMPARE(readAll(r.movedTo + u"/inside"_s), QByteArray("a file of the user's"));
    } else {
        if (kind == u"unreadable"_s)
            QFile::setPermissions(r.movedTo, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        QCOMPARE(readAll(r.movedTo), bytes);
    }
    if (kind == u"garbage+wal"_s)
        QCOMPARE(readAll(r.movedTo + u"-wal"_s), noise.left(5000));

    // The new database works, and is there when opened again.
    const Filled f = fill(store, kBase, u"fresh start"_s, 2);
    store.close();
    HistoryStore again;
    QCOMPARE(again.open(dbPath()).status, OpenResult::Status::Opened);
    QCOMPARE(again.messages(f.conversation.id).size(), 2);
    QCOMPARE(again.integrityCheck(), u"ok"_s);
}

void TestHistoryStore::restoresExactlyWhatWasStored()
{
    Conversation c;
    Message prompt, answer, cut, second;
    Send first, failed;
    QList<RetryRecord> records;
    {
        HistoryStore store;
        QVERIFY(store.open(dbPath()).persistent());
        c = conversationAt(kBase, u"gpt-test"_s);
        QVERIFY(store.addConversation(c));
        prompt = messageOf(c.id, Role::User,
            u"Explain  token caps\nin a few words, with ümlauts, 中文 and emoji 🎉"_s,
            kBase.addMSecs(1));
        QVERIFY(store.addMessage(prompt));
        first.conversation = c.id;
        first.message = prompt.id;
        first.started = kBase.addMSecs(2);
        QVERIFY(store.addSend(first));

        RetryRecord started;
        started.time = kBase.addMSecs(3);
        started.request = 1;
        started.event = u"attempt_started"_s;
        started.attempt = 1;
        records.append(started); // every optional field null
        records.append(scheduled(kBase.addMSecs(4), 1, 1));
        RetryRecord parked = scheduled(kBase.addMSecs(5), 1, 2);
        parked.event = u"parked"_s; // an event of a later issue: stored as it is named
        parked.resetAt = kBase.addSecs(3600);
        parked.used = std::nullopt;
        parked.status = 429;
        parked.category = Category::RateLimit;
        parked.waitSource = WaitSource::RetryAfter;
        records.append(parked);
        RetryRecord done;
        done.time = kBase.addMSecs(6);
        done.request = 1;
        done.event = u"succeeded"_s;
        done.attempt = 3;
        done.status = 200;
        done.category = Category::Success;
        records.append(done);
        for (const RetryRecord &r : std::as_const(records))
            QVERIFY2(store.addRetryRecord(first.id, r), qPrintable(store.lastError()));

        // The answer stored while it streams, finished when it ends.
        answer = messageOf(c.id, Role::Assistant, {}, kBase.addMSecs(3), MessageState::Pending);
        QVERIFY(store.addMessage(answer));
        QVERIFY(store.finishMessage(answer.id, u"Caps limit tokens per minute."_s,
            MessageState::Complete, kBase.addMSecs(7)));
        QVERIFY(store.finishSend(
            first.id, SendOutcome::Succeeded, EndReason::None, 3, 60000, kBase.addMSecs(7)));
        answer.text = u"Caps limit tokens per minute."_s;
        answer.state = MessageState::Complete;
        answer.ended = kBase.addMSecs(7);
        first.outcome = SendOutcome::Succeeded;
        first.attempts = 3;
        first.waitedMs = 60000;
        first.ended = kBase.addMSecs(7);

        second = messageOf(c.id, Role::User, u"And then?"_s, kBase.addMSecs(8));
        QVERIFY(store.addMessage(second));
        failed.conversation = c.id;
        failed.message = second.id;
        failed.started = kBase.addMSecs(8);
        QVERIFY(store.addSend(failed));
        RetryRecord gaveUp;
        gaveUp.time = kBase.addMSecs(9);
        gaveUp.request = 2;
        gaveUp.event = u"gave_up"_s;
        gaveUp.attempt = 1;
        gaveUp.status = 401;
        gaveUp.category = Category::Auth;
        gaveUp.reason = EndReason::AuthUnchanged;
        gaveUp.waitedTotalMs = 0;
        gaveUp.budgetLeftMs = 7200000;
        gaveUp.error = u"Invalid token"_s;
        QVERIFY(store.addRetryRecord(failed.id, gaveUp));
        records.append(gaveUp);
        cut = messageOf(
            c.id, Role::Assistant, u"Half an ans"_s, kBase.addMSecs(9), MessageState::CutOff);
        QVERIFY(store.addMessage(cut));
        QVERIFY(store.finishSend(
            failed.id, SendOutcome::GaveUp, EndReason::AuthUnchanged, 1, 0, kBase.addMSecs(10)));
        failed.outcome = SendOutcome::GaveUp;
        failed.reason = EndReason::AuthUnchanged;
        failed.attempts = 1;
        failed.ended = kBase.addMSecs(10);
    }

    HistoryStore store;
    QCOMPARE(store.open(dbPath()).status, OpenResult::Status::Opened);
    const std::optional<Conversation> back = store.conversation(c.id);
    QVERIFY(back);
    Conversation expected = c;
    expected.title = u"Explain token caps in a few words, with…"_s; // eight words
    expected.updated = kBase.addMSecs(10);
    expected.hasRetries = true;
    expected.hasUnanswered = true;
    QCOMPARE(back->title, expected.title);
    QCOMPARE(back->updated, expected.updated);
    QVERIFY(*back == expected);

    cut.ended = cut.created;
    prompt.ended = prompt.created;
    second.ended = second.created;
    const QList<Message> messages { prompt, answer, second, cut };
    QCOMPARE(store.messages(c.id).size(), messages.size());
    for (int i = 0; i < messages.size(); ++i) {
        const Message m = store.messages(c.id).at(i);
        QCOMPARE(m.text, messages.at(i).text);
        QCOMPARE(m.state, messages.at(i).state);
        QCOMPARE(m.ended, messages.at(i).ended);
        QVERIFY2(m == messages.at(i), qPrintable(u"message %1"_s.arg(i)));
    }
    // In ranges, as a view fills itself piece by piece.
    QCOMPARE(store.messages(c.id, 1, 2), messages.mid(1, 2));
    QCOMPARE(store.messages(c.id, 3, 10), messages.mid(3));
    QCOMPARE(store.messageCount(c.id), 4);
    QCOMPARE(store.message(cut.id), std::optional<Message>(cut));

    QCOMPARE(store.sends(c.id), (QList<Send> { first, failed }));

    const QList<StoredRetryRecord> log = store.retryRecords(c.id);
    QCOMPARE(log.size(), records.size());
    for (int i = 0; i < log.size(); ++i) {
        QCOMPARE(log.at(i).conversation, c.id);
        QCOMPARE(log.at(i).send, i < 4 ? first.id : failed.id);
        QCOMPARE(log.at(i).record.event, records.at(i).event);
        QCOMPARE(log.at(i).record.resetAt, records.at(i).resetAt);
        QVERIFY2(log.at(i).record == records.at(i), qPrintable(u"record %1"_s.arg(i)));
    }
}

void TestHistoryStore::listsNewestFirstInPages()
{
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    QList<QUuid> expected; // newest first
    for (int i = 0; i < 25; ++i) {
        // Five share one time: the order among them must still be stable across pages.
        Conversation c = conversationAt(kBase.addSecs(i < 5 ? 0 : i * 60));
        QVERIFY(store.addConversation(c));
        expected.prepend(c.id);
    }
    QList<QUuid> seen;
    PageCursor cursor;
    QList<bool> more;
    for (int page = 0; page < 3; ++page) {
        const ConversationPage p = store.conversations(10, cursor);
        for (const Conversation &c : p.conversations)
            seen.append(c.id);
        more.append(p.hasMore);
        cursor = p.next;
        if (page == 0) {
            // A conversation started meanwhile goes to the top; later pages do not shift.
            Conversation newest = conversationAt(kBase.addDays(1));
            QVERIFY(store.addConversation(newest));
        }
    }
    QCOMPARE(seen, expected);
    QCOMPARE(more, (QList<bool> { true, true, false }));
    QVERIFY(store.conversations(10, cursor).conversations.isEmpty());
    QCOMPARE(store.conversations(10).conversations.size(), 10);
    QCOMPARE(store.conversationCount(), 26);
}

void TestHistoryStore::marksRetriesAndUnansweredSends()
{
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    const Filled clean = fill(store, kBase, u"clean"_s, 0);
    const Filled retried = fill(store, kBase.addSecs(10), u"retried"_s, 2);
    Filled unanswered = fill(store, kBase.addSecs(20), u"unanswered"_s, 0);
    Send pending;
    pending.conversation = unanswered.conversation.id;
    QVERIFY(store.addSend(pending)); // never finished: the process died mid-send
    QCOMPARE(store.conversation(clean.conversation.id)->hasRetries, false);
    QCOMPARE(store.conversation(clean.conversation.id)->hasUnanswered, false);
    QCOMPARE(store.conversation(retried.conversation.id)->hasRetries, true);
    QCOMPARE(store.conversation(retried.conversation.id)->hasUnanswered, false);
    QCOMPARE(store.conversation(unanswered.conversation.id)->hasRetries, false);
    QCOMPARE(store.conversation(unanswered.conversation.id)->hasUnanswered, true);
    QVERIFY(store.finishSend(pending.id, SendOutcome::Cancelled, EndReason::Cancelled, 1, 0));
    QCOMPARE(store.conversation(unanswered.conversation.id)->hasUnanswered, true);

    // Answered later (issue 25, point 10): a prompt that gave up capped, then went out again
    // from the parking lot (or to the fallback) with the same stored message and succeeded.
    Filled later = fill(store, kBase.addSecs(30), u"answered later"_s, 0);
    Message prompt = messageOf(later.conversation.id, Role::User, u"parked prompt"_s, kBase);
    QVERIFY(store.addMessage(prompt));
    Send capped;
    capped.conversation = later.conversation.id;
    capped.message = prompt.id;
    QVERIFY(store.addSend(capped));
    QVERIFY(store.finishSend(capped.id, SendOutcome::GaveUp, EndReason::BudgetExhausted, 3, 0));
    QCOMPARE(store.conversation(later.conversation.id)->hasUnanswered, true);
    Send released;
    released.conversation = later.conversation.id;
    released.message = prompt.id;
    QVERIFY(store.addSend(released));
    QVERIFY(store.finishSend(released.id, SendOutcome::Succeeded, EndReason::None, 1, 0));
    QCOMPARE(store.conversation(later.conversation.id)->hasUnanswered, false);

    // A failed prompt replaced by an edit is not unanswered either.
    Filled edited = fill(store, kBase.addSecs(40), u"edited"_s, 0);
    Message first = messageOf(edited.conversation.id, Role::User, u"typo"_s, kBase);
    QVERIFY(store.addMessage(first));
    Send failed;
    failed.conversation = edited.conversation.id;
    failed.message = first.id;
    QVERIFY(store.addSend(failed));
    QVERIFY(store.finishSend(failed.id, SendOutcome::GaveUp, EndReason::NotRetryable, 1, 0));
    QCOMPARE(store.conversation(edited.conversation.id)->hasUnanswered, true);
    QVERIFY(store.replaceMessage(first.id));
    QCOMPARE(store.conversation(edited.conversation.id)->hasUnanswered, false);
}

void TestHistoryStore::searchFindsOldMessage()
{
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    QVERIFY(store.begin());
    const Filled oldest = fill(store, kBase.addDays(-400), u"the quokka at sunrise"_s, 0);
    QList<Filled> all;
    for (int i = 0; i < 200; ++i)
        all.append(fill(store, kBase.addSecs(i * 60), u"filler words number %1"_s.arg(i), 0));
    const Filled café = fill(store, kBase.addDays(1), u"a café in Zürich"_s, 0);
    QVERIFY(store.commit());

    const QList<SearchHit> hits = store.search(u"quokka"_s);
    QCOMPARE(hits.size(), 1);
    QCOMPARE(hits.front().conversation, oldest.conversation.id);
    QCOMPARE(hits.front().message, oldest.answer.id); // the newest message that matched
    QCOMPARE(hits.front().title, u"tell me about the quokka at sunrise"_s);
    QVERIFY2(hits.front().snippet.contains(u"[quokka]"_s), qPrintable(hits.front().snippet));
    // As you type: the last word is a prefix; every word is required.
    QCOMPARE(store.search(u"quok"_s).size(), 1);
    const QList<SearchHit> typed = store.search(u"QUOKKA sunr"_s);
    QCOMPARE(typed.size(), 1);
    // Every word marked, the prefix as the whole word it starts.
    QVERIFY2(typed.front().snippet.contains(u"[quokka]"_s)
            && typed.front().snippet.contains(u"[sunrise]"_s),
        qPrintable(typed.front().snippet));
    QCOMPARE(store.search(u"quokka filler"_s).size(), 0);
    QCOMPARE(store.search(u"quok "_s).size(), 0); // a finished word is a whole word
    // Accents do not matter.
    QCOMPARE(store.search(u"cafe zurich"_s).size(), 1);
    QCOMPARE(store.search(u"cafe zurich"_s).front().conversation, café.conversation.id);
    // A word in many conversations: those with the newest match first, `limit` of them.
    const QList<SearchHit> many = store.search(u"filler"_s, 30);
    QCOMPARE(many.size(), 30);
    QCOMPARE(many.front().conversation, all.back().conversation.id);
    QCOMPARE(many.at(1).conversation, all.at(198).conversation.id);
    // The snippets are made after the walk: each hit has its own message's.
    for (qsizetype i = 0; i < many.size(); ++i) {
        const SearchHit &hit = many.at(i);
        QCOMPARE(hit.message, all.at(199 - i).answer.id);
        QVERIFY2(hit.snippet.contains(u"[filler] words number %1"_s.arg(199 - i)),
            qPrintable(hit.snippet));
    }
    // Deleted: not found any more.
    QVERIFY(store.deleteConversation(oldest.conversation.id));
    QCOMPARE(store.search(u"quokka"_s).size(), 0);
}

void TestHistoryStore::replacedMessageRoundTrips()
{
    QCOMPARE(nameOf(MessageState::Replaced), u"replaced"_s);
    QCOMPARE(messageStateFromName(u"replaced"_s), MessageState::Replaced);
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    const Filled f = fill(store, kBase, u"the quokka"_s, 1);
    const QDateTime updated = store.conversation(f.conversation.id)->updated;
    QVERIFY(store.replaceMessage(f.answer.id));
    // Only the state changes: the text, the times, the send and its records stay.
    Message expected = f.answer;
    expected.state = MessageState::Replaced;
    QCOMPARE(store.message(f.answer.id), expected);
    QCOMPARE(store.message(f.prompt.id), f.prompt);
    QCOMPARE(store.sends(f.conversation.id).size(), 1);
    QCOMPARE(store.retryRecords(f.conversation.id).size(), 1);
    QCOMPARE(store.conversation(f.conversation.id)->updated, updated);
    // Search finds only what a restore shows.
    QCOMPARE(store.search(u"all about quokka"_s).size(), 0);
    QCOMPARE(store.search(u"tell me about quokka"_s).size(), 1);
    QVERIFY(store.replaceMessage(f.prompt.id));
    QCOMPARE(store.search(u"quokka"_s).size(), 0);
    // An unknown id fails, as finishMessage() does.
    QVERIFY(!store.replaceMessage(QUuid::createUuid()));
    QVERIFY(!store.lastError().isEmpty());
}

void TestHistoryStore::answerUsageRoundTrips()
{
    // issue 25.10: what an answer used is stored with it (schema 5); a file of schema 4 is
    // migrated and its answers have none.
    Filled before;
    {
        HistoryStore old;
        QCOMPARE(old.open(dbPath(), upTo(4)).status, OpenResult::Status::Created);
        before = fill(old, kBase, u"before usage"_s, 1);
    }
    HistoryStore store;
    const OpenResult r = store.open(dbPath());
    QCOMPARE(r.fromVersion, 4);
    QCOMPARE(r.version, HistoryStore::latestVersion());
    QCOMPARE(store.message(before.answer.id), before.answer); // no usage: unset
    QVERIFY(!before.answer.promptTokens && !before.answer.completionTokens);

    const Filled f = fill(store, kBase.addSecs(60), u"the quokka"_s, 1);
    QVERIFY(store.setMessageUsage(f.answer.id, 120, 45));
    Message expected = f.answer;
    expected.promptTokens = 120;
    expected.completionTokens = 45;
    QCOMPARE(store.message(f.answer.id), expected);
    QCOMPARE(store.messages(f.conversation.id).at(1), expected);
    // One figure unknown: NULL, read back unset.
    QVERIFY(store.setMessageUsage(f.answer.id, std::nullopt, 45));
    QVERIFY(!store.message(f.answer.id)->promptTokens);
    QCOMPARE(store.message(f.answer.id)->completionTokens, std::optional<qint64>(45));
    QVERIFY(!store.setMessageUsage(QUuid::createUuid(), 1, 1));
}

void TestHistoryStore::answerEndAndSeamsRoundTrip()
{
    // issue 29: how an answer ended and where continuations were joined to it (schema 7); a file
    // of schema 6 is migrated and its answers have neither.
    Filled before;
    {
        HistoryStore old;
        QCOMPARE(old.open(dbPath(), upTo(6)).status, OpenResult::Status::Created);
        before = fill(old, kBase, u"before ends"_s, 1);
    }
    HistoryStore store;
    const OpenResult r = store.open(dbPath());
    QCOMPARE(r.fromVersion, 6);
    QCOMPARE(r.version, HistoryStore::latestVersion());
    QCOMPARE(store.message(before.answer.id)->end, capwatch::retry::AnswerEnd::None);
    QVERIFY(store.message(before.answer.id)->seams.isEmpty());

    const Filled f = fill(store, kBase.addSecs(60), u"the quokka"_s, 0);
    Message pending = messageOf(
        f.conversation.id, Role::Assistant, {}, kBase.addSecs(61), MessageState::Pending);
    QVERIFY(store.addMessage(pending));
    QVERIFY(store.finishMessage(pending.id, u"cut here"_s, MessageState::CutOff, kBase.addSecs(62),
        MessageUsage { 10, 4096 }, AnswerEnding { capwatch::retry::AnswerEnd::CutOff, {} }));
    QCOMPARE(store.message(pending.id)->end, capwatch::retry::AnswerEnd::CutOff);
    QVERIFY(store.message(pending.id)->seams.isEmpty());
    // Continued: the same row, the joined text, complete now, with its seam.
    QVERIFY(store.finishMessage(pending.id, u"cut here and the rest"_s, MessageState::Complete,
        kBase.addSecs(63), {}, AnswerEnding { capwatch::retry::AnswerEnd::Complete, { 8 } }));
    const std::optional<Message> m = store.message(pending.id);
    QVERIFY(m);
    QCOMPARE(m->text, u"cut here and the rest"_s);
    QCOMPARE(m->end, capwatch::retry::AnswerEnd::Complete);
    QCOMPARE(m->seams, QList<qsizetype> { 8 });
    QCOMPARE(m->completionTokens, std::optional<qint64>(4096)); // kept: not given this time
    const QList<Message> listed = store.messages(f.conversation.id);
    const auto it = std::find_if(
        listed.begin(), listed.end(), [&](const Message &x) { return x.id == pending.id; });
    QVERIFY(it != listed.end());
    QCOMPARE(*it, *m);
    // An answer stored at once (an empty one) carries its end too.
    Message empty = messageOf(f.conversation.id, Role::Assistant, {}, kBase.addSecs(64));
    empty.end = capwatch::retry::AnswerEnd::Empty;
    QVERIFY(store.addMessage(empty));
    QCOMPARE(store.message(empty.id)->end, capwatch::retry::AnswerEnd::Empty);
    // The seams column as text, and garbage in it read as none.
    QCOMPARE(seamsText({ 3, 17 }), u"[3,17]"_s);
    QCOMPARE(seamsFromText(u"[3,17]"_s), (QList<qsizetype> { 3, 17 }));
    QCOMPARE(seamsFromText(u"[17,3,x,-1]"_s), QList<qsizetype> { 17 });
    QVERIFY(seamsFromText(u"garbage"_s).isEmpty());
}

void TestHistoryStore::longAnswerStoredWholeSearchedByItsStart()
{
    // Search looks at the first kSearchedChars characters of a message (docs/history.md);
    // the whole text is stored and read back, however long.
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    const Filled f = fill(store, kBase, u"the long one"_s, 0);
    Message pending = messageOf(
        f.conversation.id, Role::Assistant, {}, kBase.addSecs(1), MessageState::Pending);
    QVERIFY(store.addMessage(pending));
    const QString text = longText(1'000'000, u"wombat"_s, u"numbat"_s, u"bilby"_s);
    QCOMPARE(text.size(), 1'000'000);
    // Text, state and usage in one write, as a send's end stores them.
    QVERIFY2(store.finishMessage(pending.id, text, MessageState::CutOff, kBase.addSecs(2),
                 MessageUsage { 12, 250'000 }),
        qPrintable(store.lastError()));

    const std::optional<Message> read = store.message(pending.id);
    QVERIFY(read);
    QCOMPARE(read->text.size(), text.size());
    QVERIFY(read->text == text);
    QCOMPARE(read->state, MessageState::CutOff);
    QCOMPARE(read->ended, kBase.addSecs(2));
    QCOMPARE(read->promptTokens, std::optional<qint64>(12));
    QCOMPARE(read->completionTokens, std::optional<qint64>(250'000));
    // Written as UTF-8 bytes, stored as text (what LIKE, FTS5 and older builds read).
    QCOMPARE(
        rawValue(dbPath(),
            u"SELECT typeof(text) || ' ' || length(text) FROM messages WHERE uuid = '%1'"_s.arg(
                pending.id.toString(QUuid::WithoutBraces)))
            .toString(),
        u"text 999999"_s); // the emoji is one character to SQLite, two UTF-16 units
    QVERIFY(store.messages(f.conversation.id).at(2).text == text);

    // Found by a word of its first KiB, with a snippet, and by one that ends at the limit.
    const QList<SearchHit> early = store.search(u"wombat"_s);
    QCOMPARE(early.size(), 1);
    QCOMPARE(early.front().message, pending.id);
    QVERIFY2(early.front().snippet.contains(u"[wombat]"_s), qPrintable(early.front().snippet));
    QCOMPARE(store.search(u"numbat"_s).size(), 1);
    // Not by a word after it, which is still stored.
    QVERIFY(text.contains(u" bilby "_s));
    QCOMPARE(store.search(u"bilby"_s).size(), 0);
    QCOMPARE(ftsCheck(dbPath()), u"ok"_s);

    // Written again (a regenerated answer) and deleted, the index stays in step with the text.
    QVERIFY(store.finishMessage(
        pending.id, u"a short answer about a bilby"_s, MessageState::Complete, kBase.addSecs(3)));
    QCOMPARE(store.search(u"wombat"_s).size(), 0);
    QCOMPARE(store.search(u"bilby"_s).size(), 1);
    QCOMPARE(ftsCheck(dbPath()), u"ok"_s);
    QVERIFY(store.finishMessage(pending.id, text, MessageState::CutOff, kBase.addSecs(4)));
    QVERIFY(store.deleteConversation(f.conversation.id));
    QCOMPARE(store.search(u"wombat"_s).size(), 0);
    QCOMPARE(ftsCheck(dbPath()), u"ok"_s);
    QCOMPARE(store.integrityCheck(), u"ok"_s);
}

void TestHistoryStore::migratesVersion5ToBoundedSearch()
{
    // A version-5 file indexed every message whole. Migrated, every message is as it was, search
    // finds in ordinary messages what it found before, and a long one by its first
    // kSearchedChars characters only.
    const QString text = longText(300'000, u"wombat"_s, u"numbat"_s, u"bilby"_s);
    Filled ordinary;
    Filled longOne;
    QList<SearchHit> before;
    {
        HistoryStore old;
        QCOMPARE(old.open(dbPath(), upTo(5)).status, OpenResult::Status::Created);
        ordinary = fill(old, kBase, u"the quokka at sunrise"_s, 1);
        longOne = fill(old, kBase.addSecs(60), u"the quokka at noon"_s, 0);
        Message answer
            = messageOf(longOne.conversation.id, Role::Assistant, text, kBase.addSecs(61));
        QVERIFY(old.addMessage(answer));
        QCOMPARE(old.search(u"bilby"_s).size(), 1); // before: the whole text
        before = old.search(u"quokka"_s);
        QCOMPARE(before.size(), 2);
    }
    const QByteArray messagesBefore = rawValue(
        dbPath(), u"SELECT group_concat(uuid || state || text, '|') FROM messages ORDER BY id"_s)
                                          .toByteArray();

    HistoryStore store;
    const OpenResult r = store.open(dbPath());
    QCOMPARE(r.status, OpenResult::Status::Opened);
    QCOMPARE(r.fromVersion, 5);
    QCOMPARE(r.version, HistoryStore::latestVersion());
    QCOMPARE(rawValue(dbPath(),
                 u"SELECT group_concat(uuid || state || text, '|') FROM messages ORDER BY id"_s)
                 .toByteArray(),
        messagesBefore);
    QVERIFY(store.messages(longOne.conversation.id).last().text == text);
    const QList<SearchHit> after = store.search(u"quokka"_s);
    QCOMPARE(after.size(), before.size());
    for (qsizetype i = 0; i < after.size(); ++i) {
        QCOMPARE(after.at(i).conversation, before.at(i).conversation);
        QCOMPARE(after.at(i).message, before.at(i).message);
        QCOMPARE(after.at(i).snippet, before.at(i).snippet);
    }
    QCOMPARE(store.search(u"wombat"_s).size(), 1);
    QCOMPARE(store.search(u"bilby"_s).size(), 0);
    QCOMPARE(ftsCheck(dbPath()), u"ok"_s);
    QCOMPARE(store.integrityCheck(), u"ok"_s);
    // Deleting the long one removes what the old index held of it too.
    QVERIFY(store.deleteConversation(longOne.conversation.id));
    QCOMPARE(store.search(u"wombat"_s).size(), 0);
    QCOMPARE(ftsCheck(dbPath()), u"ok"_s);
}

void TestHistoryStore::searchTakesAnyInput_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("hits");
    QTest::newRow("empty") << QString() << 0;
    QTest::newRow("blank") << u"   "_s << 0;
    QTest::newRow("punctuation only") << u"-- ** ()"_s << 0;
    QTest::newRow("FTS5 operators as words") << u"quokka AND (OR"_s << 0;
    QTest::newRow("unbalanced quote") << u"\"quokka"_s << 1;
    // Not a column filter: the phrase "text quokka".
    QTest::newRow("column filter syntax") << u"text:quokka"_s << 0;
    QTest::newRow("star and caret") << u"^quokka*"_s << 1;
    QTest::newRow("percent and underscore") << u"100%_done"_s << 0;
}

void TestHistoryStore::searchTakesAnyInput()
{
    QFETCH(QString, text);
    QFETCH(int, hits);
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    fill(store, kBase, u"the quokka"_s, 0);
    const QList<SearchHit> found = store.search(text);
    QVERIFY2(store.lastError().isEmpty(), qPrintable(store.lastError()));
    QCOMPARE(found.size(), hits);
}

void TestHistoryStore::retentionDeletesOnlyOld()
{
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    const QDateTime now = kBase.addDays(100);
    const Filled ancient = fill(store, now.addDays(-40), u"ancient wombat"_s, 3);
    const Filled old = fill(store, now.addDays(-31), u"old numbat"_s, 2);
    const Filled recent = fill(store, now.addDays(-30).addSecs(3600), u"recent dingo"_s, 4);
    const Filled today = fill(store, now.addSecs(-60), u"today emu"_s, 5);
    // An old conversation continued yesterday is recent.
    Filled continued = fill(store, now.addDays(-90), u"continued platypus"_s, 1);
    Message later = messageOf(continued.conversation.id, Role::User, u"more"_s, now.addDays(-1));
    QVERIFY(store.addMessage(later));
    QCOMPARE(store.retryRecordCount(), 15);

    QCOMPARE(store.deleteOlderThan(30, now), 2);
    QVERIFY(!store.conversation(ancient.conversation.id));
    QVERIFY(!store.conversation(old.conversation.id));
    QCOMPARE(store.messages(ancient.conversation.id).size(), 0);
    QCOMPARE(store.search(u"wombat"_s).size(), 0);
    QCOMPARE(store.search(u"numbat"_s).size(), 0);
    // The rest is all there.
    QCOMPARE(store.conversationCount(), 3);
    QCOMPARE(store.retryRecordCount(), 10);
    QCOMPARE(store.retryRecords(recent.conversation.id).size(), 4);
    QCOMPARE(store.retryRecords(today.conversation.id).size(), 5);
    QCOMPARE(store.messages(continued.conversation.id).size(), 3);
    QCOMPARE(store.sends(today.conversation.id).size(), 1);
    QCOMPARE(store.search(u"dingo"_s).size(), 1);
    QCOMPARE(store.search(u"platypus"_s).size(), 1);
    QCOMPARE(rawValue(dbPath(), u"SELECT count(*) FROM sends"_s).toInt(), 3);
    QCOMPARE(store.deleteOlderThan(30, now), 0);
    QCOMPARE(store.integrityCheck(), u"ok"_s);
}

void TestHistoryStore::renameDeleteAndClear()
{
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    const Filled a = fill(store, kBase, u"axolotl"_s, 2);
    const Filled b = fill(store, kBase.addSecs(5), u"xylophonist"_s, 2);
    QVERIFY(store.renameConversation(a.conversation.id, u"  My   axolotl  "_s));
    QCOMPARE(store.conversation(a.conversation.id)->title, u"My axolotl"_s);
    // A renamed conversation keeps its name when more prompts come.
    Message more = messageOf(a.conversation.id, Role::User, u"and more"_s, kBase.addSecs(9));
    QVERIFY(store.addMessage(more));
    QCOMPARE(store.conversation(a.conversation.id)->title, u"My axolotl"_s);
    QVERIFY(!store.renameConversation(QUuid::createUuid(), u"x"_s));

    QVERIFY(store.deleteConversation(b.conversation.id));
    QVERIFY(!store.conversation(b.conversation.id));
    QCOMPARE(store.retryRecordCount(), 2);
    QVERIFY(!store.deleteConversation(b.conversation.id));

    QVERIFY(store.clear());
    QCOMPARE(store.conversationCount(), 0);
    QCOMPARE(store.retryRecordCount(), 0);
    QCOMPARE(store.search(u"axolotl"_s).size(), 0);
    // Cleared means gone from the file, not just from the tables.
    QVERIFY(!readAll(dbPath()).contains("axolotl"));
    QVERIFY(!readAll(dbPath() + u"-wal"_s).contains("axolotl"));
    QVERIFY(!readAll(dbPath()).contains("xylophonist"));
    // And the store goes on.
    const Filled c = fill(store, kBase, u"after clearing"_s, 1);
    QCOMPARE(store.messages(c.conversation.id).size(), 2);
}

void TestHistoryStore::exportsRecordsInRange()
{
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    const Filled a = fill(store, kBase, u"a"_s, 10); // records at kBase + 1..10 s
    const Filled b = fill(store, kBase.addSecs(5), u"b"_s, 10); // kBase + 6..15 s
    QList<StoredRetryRecord> got;
    QVERIFY(store.forEachRetryRecord(
        kBase.addSecs(8), kBase.addSecs(12), [&](const StoredRetryRecord &r) {
            got.append(r);
            return true;
        }));
    // a: 8, 9, 10; b: 8, 9, 10, 11 (its records at 6 + i - 1 s)
    QCOMPARE(got.size(), 7);
    for (int i = 1; i < got.size(); ++i)
        QVERIFY(got.at(i - 1).record.time <= got.at(i).record.time);
    for (const StoredRetryRecord &r : std::as_const(got)) {
        QVERIFY(r.record.time >= kBase.addSecs(8) && r.record.time < kBase.addSecs(12));
        QVERIFY(r.conversation == a.conversation.id || r.conversation == b.conversation.id);
        QCOMPARE(r.send, r.conversation == a.conversation.id ? a.send.id : b.send.id);
    }
    int all = 0;
    QVERIFY(store.forEachRetryRecord({}, {}, [&](const StoredRetryRecord &) { return ++all; }));
    QCOMPARE(all, 20);
    int stopped = 0;
    QVERIFY(
        store.forEachRetryRecord({}, {}, [&](const StoredRetryRecord &) { return ++stopped < 3; }));
    QCOMPARE(stopped, 3);
}

void TestHistoryStore::parkedSendsRoundTripDueFirst()
{
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    const Filled a = fill(store, kBase, u"the first conversation"_s, 2);
    const Filled b = fill(store, kBase.addSecs(10), u"the second one"_s, 0);

    // Stored out of due order; three due at the same moment, of which two were parked at the same
    // moment too: those two go in the order stored.
    ParkedSend late = parkedOf(a, kBase.addSecs(3600), 3);
    ParkedSend soon = parkedOf(b, kBase.addSecs(600));
    soon.send = {}; // no send to point at
    soon.provider = u"demo"_s;
    soon.options.clear();
    ParkedSend sameDue = parkedOf(a, kBase.addSecs(600), 2);
    sameDue.parkedAt = soon.parkedAt.addMSecs(1);
    ParkedSend sameParked = parkedOf(b, kBase.addSecs(600));
    sameParked.parkedAt = sameDue.parkedAt;
    for (ParkedSend *p : { &late, &soon, &sameDue, &sameParked })
        QVERIFY2(store.addParkedSend(*p), qPrintable(store.lastError()));
    QVERIFY(!late.id.isNull());
    QVERIFY(late.id != soon.id);

    // Id and parking time filled in when not given; a given id is kept.
    ParkedSend unstamped = parkedOf(a, kBase.addSecs(7200));
    unstamped.parkedAt = {};
    const QDateTime before = QDateTime::currentDateTimeUtc();
    QVERIFY(store.addParkedSend(unstamped));
    QVERIFY(unstamped.parkedAt >= before.addMSecs(-1));
    QVERIFY(unstamped.parkedAt <= QDateTime::currentDateTimeUtc());
    ParkedSend named = parkedOf(b, kBase.addSecs(9000));
    const QUuid chosen = QUuid::createUuid();
    named.id = chosen;
    QVERIFY(store.addParkedSend(named));
    QCOMPARE(named.id, chosen);

    const QList<ParkedSend> expected { asRead(soon, b), asRead(sameDue, a), asRead(sameParked, b),
        asRead(late, a), asRead(unstamped, a), asRead(named, b) };
    const QList<ParkedSend> got = store.parkedSends();
    QCOMPARE(idsOf(got), idsOf(expected));
    for (qsizetype i = 0; i < got.size(); ++i) {
        QCOMPARE(got.at(i).prompt, expected.at(i).prompt);
        QCOMPARE(got.at(i).title, expected.at(i).title);
        QCOMPARE(got.at(i).dueAt, expected.at(i).dueAt);
        QCOMPARE(got.at(i).dueAt.timeSpec(), Qt::UTC);
        QVERIFY2(got.at(i) == expected.at(i), qPrintable(u"parked send %1"_s.arg(i)));
    }
    QCOMPARE(got.front().send, QUuid());
    QCOMPARE(got.front().provider, u"demo"_s);
    QCOMPARE(got.front().prompt, u"tell me about the second one"_s);
    QCOMPARE(got.at(3).parksInARow, 3);
    QCOMPARE(got.at(3).options, u"{\"system\":\"Be brief.\",\"max_tokens\":256}"_s);
    QCOMPARE(got.at(3).resetAt, kBase.addSecs(3600).addMSecs(250));
    // Parking is no new activity: the conversations keep their place in the list.
    QCOMPARE(store.conversation(a.conversation.id)->updated, a.conversation.updated);
}

void TestHistoryStore::parkedSendNeedsItsRows()
{
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    const Filled f = fill(store, kBase, u"needs its rows"_s, 0);
    ParkedSend stored = parkedOf(f, kBase.addSecs(60));
    QVERIFY(store.addParkedSend(stored));

    ParkedSend noConversation = parkedOf(f, kBase.addSecs(60));
    noConversation.conversation = QUuid::createUuid();
    ParkedSend noMessage = parkedOf(f, kBase.addSecs(60));
    noMessage.message = QUuid::createUuid();
    ParkedSend nullMessage = parkedOf(f, kBase.addSecs(60));
    nullMessage.message = {};
    ParkedSend noSend = parkedOf(f, kBase.addSecs(60));
    noSend.send = QUuid::createUuid();
    ParkedSend noDue = parkedOf(f, {});
    ParkedSend sameId = parkedOf(f, kBase.addSecs(90));
    sameId.id = stored.id;
    for (ParkedSend *p : { &noConversation, &noMessage, &nullMessage, &noSend, &noDue, &sameId }) {
        QVERIFY(!store.addParkedSend(*p));
        QVERIFY2(store.lastError().startsWith(u"add parked send"_s), qPrintable(store.lastError()));
    }
    QCOMPARE(idsOf(store.parkedSends()), QList<QUuid> { stored.id });
    QCOMPARE(rawValue(dbPath(), u"SELECT count(*) FROM parked_sends"_s).toInt(), 1);
}

void TestHistoryStore::removesParkedSend()
{
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    const Filled f = fill(store, kBase, u"to be removed"_s, 0);
    ParkedSend first = parkedOf(f, kBase.addSecs(60), 1);
    ParkedSend second = parkedOf(f, kBase.addSecs(120), 2);
    QVERIFY(store.addParkedSend(first));
    QVERIFY(store.addParkedSend(second));

    QVERIFY(store.removeParkedSend(first.id));
    QCOMPARE(store.parkedSends(), QList<ParkedSend> { asRead(second, f) });
    // Gone already: false, as deleting a conversation that is not there; nothing else changes.
    QVERIFY(!store.removeParkedSend(first.id));
    QVERIFY2(store.lastError().contains(u"no such parked send"_s), qPrintable(store.lastError()));
    QVERIFY(!store.removeParkedSend(QUuid::createUuid()));
    QCOMPARE(idsOf(store.parkedSends()), QList<QUuid> { second.id });
    // The prompt, its send and the conversation stay: only the park is over.
    QVERIFY(store.removeParkedSend(second.id));
    QVERIFY(store.parkedSends().isEmpty());
    QCOMPARE(store.messages(f.conversation.id).size(), 2);
    QCOMPARE(store.sends(f.conversation.id).size(), 1);
    QCOMPARE(rawValue(dbPath(), u"SELECT count(*) FROM parked_sends"_s).toInt(), 0);
}

void TestHistoryStore::parkedSendsSurviveReopen()
{
    Filled f;
    QList<ParkedSend> stored;
    {
        HistoryStore store;
        QVERIFY(store.open(dbPath()).persistent());
        f = fill(store, kBase, u"kept over a restart"_s, 1);
        for (int i = 1; i <= 3; ++i) {
            ParkedSend p = parkedOf(f, kBase.addSecs(i * 60), i);
            QVERIFY(store.addParkedSend(p));
            stored.append(asRead(p, f));
        }
        QVERIFY(store.removeParkedSend(stored.takeAt(1).id));
        store.close();
    }
    // Checkpointed and closed: in the file alone, no log beside it.
    QVERIFY(!QFileInfo::exists(dbPath() + u"-wal"_s));
    HistoryStore store;
    QCOMPARE(store.open(dbPath()).status, OpenResult::Status::Opened);
    QCOMPARE(store.parkedSends(), stored);
    QVERIFY(store.conversation(f.conversation.id)->hasParked);
}

void TestHistoryStore::marksParkedConversations()
{
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    const Filled parked = fill(store, kBase, u"parked here"_s, 0);
    const Filled other = fill(store, kBase.addSecs(10), u"nothing parked"_s, 0);
    const auto listed = [&store](const QUuid &id) {
        for (const Conversation &c : store.conversations(10).conversations)
            if (c.id == id)
                return c.hasParked;
        return false;
    };
    QCOMPARE(store.conversation(parked.conversation.id)->hasParked, false);

    ParkedSend first = parkedOf(parked, kBase.addSecs(60), 1);
    ParkedSend second = parkedOf(parked, kBase.addSecs(90), 2);
    QVERIFY(store.addParkedSend(first));
    QVERIFY(store.addParkedSend(second));
    QCOMPARE(store.conversation(parked.conversation.id)->hasParked, true);
    QCOMPARE(listed(parked.conversation.id), true);
    QCOMPARE(store.conversation(other.conversation.id)->hasParked, false);
    QCOMPARE(listed(other.conversation.id), false);
    // Set while any of its parked sends is stored.
    QVERIFY(store.removeParkedSend(first.id));
    QCOMPARE(store.conversation(parked.conversation.id)->hasParked, true);
    QVERIFY(store.removeParkedSend(second.id));
    QCOMPARE(store.conversation(parked.conversation.id)->hasParked, false);
    QCOMPARE(listed(parked.conversation.id), false);
}

void TestHistoryStore::deletingConversationsDeletesTheirParkedSends()
{
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    const QDateTime now = kBase.addDays(100);
    const Filled old = fill(store, now.addDays(-40), u"old and parked"_s, 1);
    const Filled deleted = fill(store, now.addDays(-1), u"deleted and parked"_s, 1);
    const Filled kept = fill(store, now.addDays(-1).addSecs(5), u"kept and parked"_s, 1);
    for (const Filled *f : { &old, &deleted, &kept, &kept }) {
        ParkedSend p = parkedOf(*f, now.addSecs(600));
        QVERIFY(store.addParkedSend(p));
    }
    const auto rows
        = [this] { return rawValue(dbPath(), u"SELECT count(*) FROM parked_sends"_s).toInt(); };
    QCOMPARE(rows(), 4);

    QVERIFY(store.deleteConversation(deleted.conversation.id));
    QCOMPARE(rows(), 3);
    for (const ParkedSend &p : store.parkedSends())
        QVERIFY(p.conversation != deleted.conversation.id);

    QCOMPARE(store.deleteOlderThan(30, now), 1);
    QCOMPARE(rows(), 2);
    const QList<ParkedSend> left = store.parkedSends();
    QCOMPARE(left.size(), 2);
    for (const ParkedSend &p : left)
        QCOMPARE(p.conversation, kept.conversation.id);

    QVERIFY(store.clear());
    QCOMPARE(rows(), 0);
    QVERIFY(store.parkedSends().isEmpty());
    QVERIFY(!readAll(dbPath()).contains("Be brief."));
    QCOMPARE(store.integrityCheck(), u"ok"_s);
    // And parking goes on after clearing.
    const Filled again = fill(store, now, u"after clearing"_s, 0);
    ParkedSend p = parkedOf(again, now.addSecs(60));
    QVERIFY(store.addParkedSend(p));
    QCOMPARE(store.parkedSends(), QList<ParkedSend> { asRead(p, again) });
}

// A file another build (or a damaged one) wrote: the rows that make no sense are left out, with a
// warning each, and the rest is read. Written around the store, without foreign keys.
void TestHistoryStore::leavesOutUnreadableParkedRows()
{
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    const Filled f = fill(store, kBase, u"next to garbage"_s, 0);
    ParkedSend good = parkedOf(f, kBase.addSecs(600));
    QVERIFY(store.addParkedSend(good));
    const QString conversationKey = rawValue(dbPath(),
        u"SELECT id FROM conversations WHERE uuid = '%1'"_s.arg(
            f.conversation.id.toString(QUuid::WithoutBraces)))
                                        .toString();
    const QString messageKey = rawValue(dbPath(),
        u"SELECT id FROM messages WHERE uuid = '%1'"_s.arg(
            f.prompt.id.toString(QUuid::WithoutBraces)))
                                   .toString();
    QVERIFY(!conversationKey.isEmpty() && !messageKey.isEmpty());
    const QString insert
        = u"INSERT INTO parked_sends (uuid, conversation_id, message_id, parked_at_ms, due_at_ms) "
          "VALUES ('%1', %2, %3, 0, %4)"_s;
    const QString missingConversation = QUuid::createUuid().toString(QUuid::WithoutBraces);
    const QString missingMessage = QUuid::createUuid().toString(QUuid::WithoutBraces);
    QVERIFY(rawExec(dbPath(), insert.arg(u"garbage"_s, conversationKey, messageKey, u"1"_s)));
    QVERIFY(rawExec(dbPath(), insert.arg(missingConversation, u"99999"_s, messageKey, u"2"_s)));
    QVERIFY(rawExec(dbPath(), insert.arg(missingMessage, conversationKey, u"99999"_s, u"3"_s)));
    QCOMPARE(rawValue(dbPath(), u"SELECT count(*) FROM parked_sends"_s).toInt(), 4);

    QTest::ignoreMessage(QtWarningMsg, "read parked sends: left out garbage: not an id");
    QTest::ignoreMessage(QtWarningMsg,
        qPrintable(
            u"read parked sends: left out %1: no such conversation"_s.arg(missingConversation)));
    QTest::ignoreMessage(QtWarningMsg,
        qPrintable(u"read parked sends: left out %1: no such message"_s.arg(missingMessage)));
    QCOMPARE(store.parkedSends(), QList<ParkedSend> { asRead(good, f) });
    // The garbage does not stop the rest of the store either.
    QVERIFY(store.removeParkedSend(good.id));
    QCOMPARE(store.messages(f.conversation.id).size(), 2);
}

void TestHistoryStore::migratesVersion2ToProviderWindows()
{
    // A version-2 file as a build from before provider windows left it: a conversation with
    // retry records and a parked send.
    Filled before;
    ParkedSend parked;
    {
        HistoryStore store;
        QCOMPARE(store.open(dbPath(), upTo(2)).status, OpenResult::Status::Created);
        before = fillOld(store, dbPath(), kBase, u"before windows"_s, 3);
        parked = parkedOf(before, kBase.addSecs(3600), 2);
        QVERIFY2(store.addParkedSend(parked), qPrintable(store.lastError()));
    }
    QCOMPARE(rawValue(dbPath(), u"PRAGMA user_version"_s).toInt(), 2);
    QCOMPARE(
        rawValue(dbPath(), u"SELECT count(*) FROM sqlite_master WHERE name = 'provider_windows'"_s)
            .toInt(),
        0);

    HistoryStore store;
    const OpenResult r = store.open(dbPath());
    QCOMPARE(r.status, OpenResult::Status::Opened);
    QCOMPARE(r.fromVersion, 2);
    QCOMPARE(r.version, HistoryStore::latestVersion());
    QVERIFY2(
        r.message().contains(u"migrated from schema version 2 to 11"_s), qPrintable(r.message()));
    QCOMPARE(rawValue(dbPath(), u"PRAGMA user_version"_s).toInt(), HistoryStore::latestVersion());
    QCOMPARE(rawValue(dbPath(),
                 u"SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = "
                 "'provider_windows'"_s)
                 .toInt(),
        1);
    QCOMPARE(rawValue(dbPath(),
                 u"SELECT count(*) FROM pragma_table_info('retry_records') WHERE name IN "
                 "('window_tokens_left', 'window_reset_s', 'estimated_tokens')"_s)
                 .toInt(),
        3);

    // Everything stored under version 2 is as it was; the old records have no window columns.
    Conversation expected = before.conversation;
    expected.title = u"tell me about before windows"_s;
    expected.hasRetries = true;
    expected.hasParked = true;
    QCOMPARE(store.conversation(before.conversation.id), std::optional<Conversation>(expected));
    QCOMPARE(
        store.messages(before.conversation.id), (QList<Message> { before.prompt, before.answer }));
    Send send = before.send;
    send.outcome = SendOutcome::Succeeded;
    send.attempts = 1;
    send.ended = kBase;
    QCOMPARE(store.sends(before.conversation.id), QList<Send> { send });
    const QList<StoredRetryRecord> records = store.retryRecords(before.conversation.id);
    QCOMPARE(records.size(), 3);
    for (int i = 0; i < records.size(); ++i) {
        QCOMPARE(records.at(i).send, before.send.id);
        QCOMPARE(records.at(i).record.windowTokensLeft, std::nullopt);
        QVERIFY2(records.at(i).record == scheduled(kBase.addSecs(i + 1), 1, i + 1),
            qPrintable(u"record %1"_s.arg(i)));
    }
    QCOMPARE(store.parkedSends(), QList<ParkedSend> { asRead(parked, before) });
    QCOMPARE(store.search(u"before windows"_s).size(), 1);
    QVERIFY(store.providerWindows().isEmpty());
    QCOMPARE(store.integrityCheck(), u"ok"_s);

    // And it takes window reports and records with the window columns.
    const ProviderWindowRecord w = windowAt(u"demo"_s, u"demo-model"_s, kBase);
    QVERIFY2(store.saveProviderWindow(w), qPrintable(store.lastError()));
    QVERIFY2(store.addRetryRecord(before.send.id, pacedAt(kBase.addSecs(10), 2)),
        qPrintable(store.lastError()));
    store.close();
    QCOMPARE(store.open(dbPath()).fromVersion, HistoryStore::latestVersion());
    QCOMPARE(store.providerWindows(), QList<ProviderWindowRecord> { w });
    QCOMPARE(
        store.retryRecords(before.conversation.id).back().record, pacedAt(kBase.addSecs(10), 2));
}

void TestHistoryStore::migratesVersion3ToProfiles()
{
    // A version-3 file as a build from before profiles left it: a conversation with retry
    // records (the window columns set on one), a parked send and a window report.
    Filled before;
    ParkedSend parked;
    const ProviderWindowRecord w = windowAt(u"demo"_s, u"demo-model"_s, kBase);
    {
        HistoryStore store;
        QCOMPARE(store.open(dbPath(), upTo(3)).status, OpenResult::Status::Created);
        before = fillOld(store, dbPath(), kBase, u"before profiles"_s, 2);
        parked = parkedOf(before, kBase.addSecs(3600), 1);
        QVERIFY2(store.addParkedSend(parked), qPrintable(store.lastError()));
        QVERIFY2(store.saveProviderWindow(w), qPrintable(store.lastError()));
    }
    QCOMPARE(rawValue(dbPath(), u"PRAGMA user_version"_s).toInt(), 3);
    QCOMPARE(rawValue(dbPath(),
                 u"SELECT count(*) FROM pragma_table_info('conversations') WHERE name = "
                 "'profile'"_s)
                 .toInt(),
        0);

    HistoryStore store;
    const OpenResult r = store.open(dbPath());
    QCOMPARE(r.status, OpenResult::Status::Opened);
    QCOMPARE(r.fromVersion, 3);
    QCOMPARE(r.version, HistoryStore::latestVersion());
    QVERIFY2(
        r.message().contains(u"migrated from schema version 3 to 11"_s), qPrintable(r.message()));
    QCOMPARE(rawValue(dbPath(), u"PRAGMA user_version"_s).toInt(), HistoryStore::latestVersion());
    for (const auto &[table, columns] : { std::pair { u"conversations"_s, 1 },
             std::pair { u"messages"_s, 1 }, std::pair { u"retry_records"_s, 2 } })
        QCOMPARE(rawValue(dbPath(),
                     u"SELECT count(*) FROM pragma_table_info('%1') WHERE name IN ('profile', "
                     "'fallback_to')"_s.arg(table))
                     .toInt(),
            columns);

    // Everything stored under version 3 is as it was, with no profile.
    Conversation expected = before.conversation;
    expected.title = u"tell me about before profiles"_s;
    expected.hasRetries = true;
    expected.hasParked = true;
    QCOMPARE(store.conversation(before.conversation.id), std::optional<Conversation>(expected));
    QCOMPARE(store.conversation(before.conversation.id)->profile, QString());
    QCOMPARE(
        store.messages(before.conversation.id), (QList<Message> { before.prompt, before.answer }));
    const QList<StoredRetryRecord> records = store.retryRecords(before.conversation.id);
    QCOMPARE(records.size(), 2);
    for (int i = 0; i < records.size(); ++i) {
        QCOMPARE(records.at(i).record.profile, QString());
        QCOMPARE(records.at(i).record.fallbackTo, QString());
        QVERIFY2(records.at(i).record == scheduled(kBase.addSecs(i + 1), 1, i + 1),
            qPrintable(u"record %1"_s.arg(i)));
    }
    QCOMPARE(store.parkedSends(), QList<ParkedSend> { asRead(parked, before) });
    QCOMPARE(store.providerWindows(), QList<ProviderWindowRecord> { w });
    QCOMPARE(store.search(u"before profiles"_s).size(), 1);
    QCOMPARE(store.integrityCheck(), u"ok"_s);

    // And it takes the profile columns.
    QVERIFY2(store.setConversationProfile(before.conversation.id, u"free-tier"_s),
        qPrintable(store.lastError()));
    RetryRecord fallback = scheduled(kBase.addSecs(20), 1, 2);
    fallback.event = u"fallback"_s;
    fallback.profile = u"Free tier"_s;
    fallback.fallbackTo = u"Paid tier"_s;
    QVERIFY2(store.addRetryRecord(before.send.id, fallback), qPrintable(store.lastError()));
    store.close();
    QCOMPARE(store.open(dbPath()).fromVersion, HistoryStore::latestVersion());
    QCOMPARE(store.conversation(before.conversation.id)->profile, u"free-tier"_s);
    QCOMPARE(store.retryRecords(before.conversation.id).back().record, fallback);
}

void TestHistoryStore::migratesVersion1ToProfilesInOneOpen()
{
    // The whole chain: a version-1 file opened by this build goes 1 -> 2 -> 3 -> 4 at once.
    Filled before;
    {
        HistoryStore store;
        QCOMPARE(store.open(dbPath(), upTo(1)).status, OpenResult::Status::Created);
        before = fillOld(store, dbPath(), kBase, u"oldest"_s, 1);
    }
    HistoryStore store;
    const OpenResult r = store.open(dbPath());
    QCOMPARE(r.fromVersion, 1);
    QCOMPARE(r.version, HistoryStore::latestVersion());
    QCOMPARE(store.conversation(before.conversation.id)->profile, QString());
    QCOMPARE(store.messages(before.conversation.id).size(), 2);
    QCOMPARE(store.retryRecords(before.conversation.id).size(), 1);
    Message answer = messageOf(before.conversation.id, Role::Assistant, u"from B"_s, kBase);
    answer.profile = u"Paid tier"_s;
    QVERIFY2(store.addMessage(answer), qPrintable(store.lastError()));
    QCOMPARE(store.messages(before.conversation.id).back().profile, u"Paid tier"_s);
    QCOMPARE(store.integrityCheck(), u"ok"_s);
}

void TestHistoryStore::profileColumnsRoundTrip()
{
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    Conversation c = conversationAt(kBase);
    c.profile = u"free-tier"_s;
    QVERIFY2(store.addConversation(c), qPrintable(store.lastError()));
    Conversation plain = conversationAt(kBase.addSecs(1));
    QVERIFY(store.addConversation(plain));
    Message prompt = messageOf(c.id, Role::User, u"hello"_s, kBase);
    QVERIFY(store.addMessage(prompt));
    Message answer = messageOf(c.id, Role::Assistant, u"hi"_s, kBase, MessageState::Pending);
    answer.profile = u"Paid tier"_s;
    QVERIFY(store.addMessage(answer));
    QVERIFY(store.finishMessage(answer.id, u"hi there"_s, MessageState::Complete, kBase));
    Send send;
    send.conversation = c.id;
    send.message = prompt.id;
    send.started = kBase;
    QVERIFY(store.addSend(send));
    RetryRecord r = scheduled(kBase.addSecs(2), 1, 1);
    r.profile = u"Free tier"_s;
    QVERIFY(store.addRetryRecord(send.id, r));
    RetryRecord f = r;
    f.event = u"fallback"_s;
    f.fallbackTo = u"Paid tier"_s;
    QVERIFY(store.addRetryRecord(send.id, f));
    store.close();

    HistoryStore again;
    QVERIFY(again.open(dbPath()).persistent());
    QCOMPARE(again.conversation(c.id)->profile, u"free-tier"_s);
    QCOMPARE(again.conversation(plain.id)->profile, QString());
    const QList<Message> messages = again.messages(c.id);
    QCOMPARE(messages.size(), 2);
    QCOMPARE(messages.at(0).profile, QString());
    QCOMPARE(messages.at(1).profile, u"Paid tier"_s);
    QCOMPARE(messages.at(1).text, u"hi there"_s);
    const QList<StoredRetryRecord> records = again.retryRecords(c.id);
    QCOMPARE(records.size(), 2);
    QCOMPARE(records.at(0).record, r);
    QCOMPARE(records.at(1).record, f);
    // Empty profile columns of a record are NULL, as before profiles.
    QVERIFY(rawValue(dbPath(), u"SELECT fallback_to IS NULL FROM retry_records ORDER BY id"_s)
                .toBool());
    // The paged listing carries it too.
    const ConversationPage page = again.conversations(10);
    QCOMPARE(page.conversations.size(), 2);
    QCOMPARE(page.conversations.at(1).profile, u"free-tier"_s);
}

void TestHistoryStore::setConversationProfileKeepsUpdated()
{
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    const Filled older = fill(store, kBase, u"older"_s, 0);
    const Filled newer = fill(store, kBase.addSecs(60), u"newer"_s, 0);
    QVERIFY2(store.setConversationProfile(older.conversation.id, u"paid"_s),
        qPrintable(store.lastError()));
    const std::optional<Conversation> c = store.conversation(older.conversation.id);
    QCOMPARE(c->profile, u"paid"_s);
    QCOMPARE(c->updated, kBase);
    // Still listed after the newer one: the order is by `updated`.
    const ConversationPage page = store.conversations(10);
    QCOMPARE(page.conversations.size(), 2);
    QCOMPARE(page.conversations.at(0).id, newer.conversation.id);
    // Set back to none; an unknown conversation is an error.
    QVERIFY(store.setConversationProfile(older.conversation.id, QString()));
    QCOMPARE(store.conversation(older.conversation.id)->profile, QString());
    QVERIFY(!store.setConversationProfile(QUuid::createUuid(), u"paid"_s));
    QVERIFY(store.lastError().contains(u"no such conversation"_s));
}

void TestHistoryStore::writerSetsConversationProfile()
{
    HistoryWriter writer;
    QSignalSpy opened(&writer, &HistoryWriter::opened);
    writer.open(dbPath());
    QVERIFY(opened.wait(10000));
    Conversation c = conversationAt(kBase);
    c.profile = u"free-tier"_s;
    const QUuid id = writer.addConversation(c);
    writer.setConversationProfile(id, u"paid"_s);
    QSignalSpy flushed(&writer, &HistoryWriter::flushed);
    writer.flush();
    QVERIFY(flushed.wait(10000));
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    QCOMPARE(store.conversation(id)->profile, u"paid"_s);
    QCOMPARE(store.conversation(id)->updated, kBase);
}

void TestHistoryStore::theWriterThreadYieldsToTheWindow()
{
#ifndef Q_OS_LINUX
    QSKIP("a nice value of a thread's own is Linux's");
#else
    // As `ps -L -o comm,nice` shows it: the writer's thread ten steps below the one that made it.
    const auto niceOf = [](const QString &task) {
        QFile stat(u"/proc/self/task/%1/stat"_s.arg(task));
        if (!stat.open(QIODevice::ReadOnly))
            return -100;
        const QByteArray line = stat.readAll();
        // pid (comm) state ppid ... : the 19th field is the nice value, counted after the comm.
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        return fields.size() > 16 ? fields.at(16).toInt() : -100;
    };
    const auto writerTasks = [] {
        QStringList found;
        for (const QString &task :
            QDir(u"/proc/self/task"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            QFile comm(u"/proc/self/task/%1/comm"_s.arg(task));
            if (comm.open(QIODevice::ReadOnly) && comm.readAll().trimmed() == "capwatch-histor")
                found << task;
        }
        return found;
    };
    const QStringList before = writerTasks();
    HistoryWriter writer;
    QSignalSpy opened(&writer, &HistoryWriter::opened);
    writer.open(dbPath());
    QVERIFY(opened.wait(10000));
    QStringList ours = writerTasks();
    for (const QString &task : before)
        ours.removeAll(task);
    QCOMPARE(ours.size(), 1);
    const int mine = niceOf(QString::number(gettid()));
    QVERIFY(mine >= -20 && mine <= 19);
    QCOMPARE(niceOf(ours.constFirst()), std::min(mine + 10, 19));
#endif
}

void TestHistoryStore::aHeldWriterRunsNothingUntilReleased()
{
    HistoryWriter writer;
    writer.hold();
    QSignalSpy opened(&writer, &HistoryWriter::opened);
    writer.open(dbPath());
    const QUuid id = writer.addConversation(conversationAt(kBase));
    QSignalSpy flushed(&writer, &HistoryWriter::flushed);
    writer.flush();
    QVERIFY(!flushed.wait(300)); // held: not even the open has run
    QCOMPARE(opened.size(), 0);
    QVERIFY(!QFileInfo::exists(dbPath()));
    QCOMPARE(writer.pending(), 3);
    writer.release();
    QVERIFY(flushed.wait(10000));
    QCOMPARE(opened.size(), 1); // in the order they were queued
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    QVERIFY(store.conversation(id).has_value());
}

void TestHistoryStore::retryRecordWindowColumnsRoundTrip_data()
{
    QTest::addColumn<std::optional<qint64>>("tokensLeft");
    QTest::addColumn<std::optional<double>>("resetS");
    QTest::addColumn<std::optional<qint64>>("estimated");
    const std::optional<qint64> none;
    const std::optional<double> noReset;
    QTest::newRow("none of them") << none << noReset << none;
    QTest::newRow("all three") << std::optional<qint64>(120) << std::optional<double>(12.345)
                               << std::optional<qint64>(1387);
    QTest::newRow("tokens left only") << std::optional<qint64>(59000) << noReset << none;
    QTest::newRow("reset only") << none << std::optional<double>(30.0) << none;
    QTest::newRow("estimate only") << none << noReset << std::optional<qint64>(1000);
    QTest::newRow("zeros are values")
        << std::optional<qint64>(0) << std::optional<double>(0.0) << std::optional<qint64>(0);
    QTest::newRow("a reset finer than ms")
        << std::optional<qint64>(1) << std::optional<double>(0.0001234567) << none;
    QTest::newRow("an hour and a fraction")
        << none << std::optional<double>(3723.5) << std::optional<qint64>(128000);
    QTest::newRow("beyond 32 bits")
        << std::optional<qint64>(9'000'000'000'000) << std::optional<double>(1e9)
        << std::optional<qint64>(1LL << 40);
}

void TestHistoryStore::retryRecordWindowColumnsRoundTrip()
{
    QFETCH(std::optional<qint64>, tokensLeft);
    QFETCH(std::optional<double>, resetS);
    QFETCH(std::optional<qint64>, estimated);
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    const Filled f = fill(store, kBase, u"window columns"_s, 0);
    RetryRecord paced = pacedAt(kBase.addSecs(1), 1);
    paced.windowTokensLeft = tokensLeft;
    paced.windowResetS = resetS;
    paced.estimatedTokens = estimated;
    RetryRecord started = scheduled(kBase.addSecs(2), 1, 1);
    started.event = u"attempt_started"_s;
    started.windowTokensLeft = tokensLeft;
    started.windowResetS = resetS;
    started.estimatedTokens = estimated;
    QVERIFY2(store.addRetryRecord(f.send.id, paced), qPrintable(store.lastError()));
    QVERIFY(store.addRetryRecord(f.send.id, started));
    store.close();

    QCOMPARE(store.open(dbPath()).status, OpenResult::Status::Opened);
    const QList<StoredRetryRecord> back = store.retryRecords(f.conversation.id);
    QCOMPARE(back.size(), 2);
    for (const StoredRetryRecord &r : back) {
        QCOMPARE(r.record.windowTokensLeft, tokensLeft);
        QCOMPARE(r.record.windowResetS, resetS); // exact: a REAL column
        QCOMPARE(r.record.estimatedTokens, estimated);
    }
    QVERIFY(back.at(0).record == paced);
    QVERIFY(back.at(1).record == started);
    // The export reads the same columns.
    QList<RetryRecord> exported;
    QVERIFY(store.forEachRetryRecord({}, {}, [&](const StoredRetryRecord &r) {
        exported.append(r.record);
        return true;
    }));
    QCOMPARE(exported, (QList<RetryRecord> { paced, started }));
    QCOMPARE(rawValue(dbPath(), u"SELECT typeof(window_reset_s) FROM retry_records LIMIT 1"_s)
                 .toString(),
        resetS ? u"real"_s : u"null"_s);
}

void TestHistoryStore::providerWindowReplacesItsOwnRowOnly()
{
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    const ProviderWindowRecord demo = windowAt(u"demo"_s, u"m1"_s, kBase);
    ProviderWindowRecord endpoint = windowAt(
        u"https://user:secret@api.example.invalid/v1?key=secret"_s, u"m1"_s, kBase.addSecs(1));
    const ProviderWindowRecord otherModel = windowAt(u"demo"_s, u"m2"_s, kBase.addSecs(2));
    for (const ProviderWindowRecord &w : { demo, endpoint, otherModel })
        QVERIFY2(store.saveProviderWindow(w), qPrintable(store.lastError()));
    endpoint.provider = u"https://api.example.invalid/v1"_s; // as stored
    QCOMPARE(store.providerWindows(), (QList<ProviderWindowRecord> { otherModel, endpoint, demo }));

    // A later report of demo/m1 replaces that row, fields it does not have included; the
    // others stay. The latest received comes first.
    ProviderWindowRecord later = windowAt(u"demo"_s, u"m1"_s, kBase.addSecs(3));
    later.remainingTokens = 59000;
    later.limitRequests.reset();
    later.remainingRequests.reset();
    later.requestsResetAt = {};
    later.timeScale = 1.0;
    QVERIFY(store.saveProviderWindow(later));
    QCOMPARE(
        store.providerWindows(), (QList<ProviderWindowRecord> { later, otherModel, endpoint }));
    QCOMPARE(rawValue(dbPath(), u"SELECT count(*) FROM provider_windows"_s).toInt(), 3);

    // The row is replaced whatever its time: the report stored last is the one kept.
    const ProviderWindowRecord older = windowAt(u"demo"_s, u"m2"_s, kBase.addSecs(-60));
    QVERIFY(store.saveProviderWindow(older));
    QCOMPARE(store.providerWindows(), (QList<ProviderWindowRecord> { later, endpoint, older }));
    // The endpoint's key reached neither the rows nor the file.
    store.close();
    QVERIFY(!readAll(dbPath()).contains("secret"));
}

void TestHistoryStore::providerWindowKeepsUnsetFields()
{
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    // A provider that reported the requests only; no time given: stored as now.
    ProviderWindowRecord w;
    w.provider = u"demo"_s;
    w.model = u"sparse"_s;
    w.remainingRequests = 3;
    w.timeScale = 0; // cannot divide: stored as 1
    const QDateTime before = QDateTime::currentDateTimeUtc();
    QVERIFY(store.saveProviderWindow(w));
    const QList<ProviderWindowRecord> back = store.providerWindows();
    QCOMPARE(back.size(), 1);
    const ProviderWindowRecord &r = back.front();
    QCOMPARE(r.provider, u"demo"_s);
    QCOMPARE(r.model, u"sparse"_s);
    QVERIFY(r.receivedAt >= before.addMSecs(-1));
    QVERIFY(r.receivedAt <= QDateTime::currentDateTimeUtc());
    QCOMPARE(r.receivedAt.timeSpec(), Qt::UTC);
    QVERIFY(!r.tokensResetAt.isValid());
    QVERIFY(!r.requestsResetAt.isValid());
    QCOMPARE(r.limitTokens, std::nullopt);
    QCOMPARE(r.remainingTokens, std::nullopt);
    QCOMPARE(r.limitRequests, std::nullopt);
    QCOMPARE(r.remainingRequests, std::optional<qint64>(3));
    QCOMPARE(r.timeScale, 1.0);
    QCOMPARE(rawValue(dbPath(), u"SELECT typeof(limit_tokens) FROM provider_windows"_s).toString(),
        u"null"_s);
}

// A file someone edited by hand (or a later build wrote oddly): what is not a number reads as
// unset, the row is still read, and nothing stops the store from opening.
void TestHistoryStore::providerWindowGarbageReadsUnset()
{
    const ProviderWindowRecord good = windowAt(u"demo"_s, u"good"_s, kBase);
    Filled f;
    {
        HistoryStore store;
        QVERIFY(store.open(dbPath()).persistent());
        QVERIFY(store.saveProviderWindow(good));
        f = fill(store, kBase, u"garbage records"_s, 0);
    }
    QVERIFY(rawExec(dbPath(),
        u"INSERT INTO provider_windows VALUES ('demo', 'garbage', 'yesterday', 'soon', x'00ff', "
        "'many', 12.5, '', 9e999, 'fast')"_s));
    QVERIFY(rawExec(dbPath(),
        u"INSERT INTO provider_windows VALUES ('demo', 'negative scale', %1, NULL, NULL, NULL, "
        "NULL, NULL, NULL, -2)"_s.arg(kBase.addSecs(5).toMSecsSinceEpoch())));
    const QString sendKey = rawValue(dbPath(),
        u"SELECT id FROM sends WHERE uuid = '%1'"_s.arg(f.send.id.toString(QUuid::WithoutBraces)))
                                .toString();
    QVERIFY(rawExec(dbPath(),
        u"INSERT INTO retry_records (send_id, time_ms, request, event, attempt, "
        "window_tokens_left, window_reset_s, estimated_tokens) VALUES (%1, %2, 1, 'paced', 0, "
        "'lots', 'later', 3.75)"_s.arg(sendKey)
            .arg(kBase.addSecs(1).toMSecsSinceEpoch())));

    HistoryStore store;
    QCOMPARE(store.open(dbPath()).status, OpenResult::Status::Opened);
    const QList<ProviderWindowRecord> back = store.providerWindows();
    QCOMPARE(back.size(), 3);
    ProviderWindowRecord negative;
    negative.provider = u"demo"_s;
    negative.model = u"negative scale"_s;
    negative.receivedAt = kBase.addSecs(5);
    ProviderWindowRecord garbage;
    garbage.provider = u"demo"_s;
    garbage.model = u"garbage"_s;
    // Latest first; the one with no time it can read last.
    QCOMPARE(back, (QList<ProviderWindowRecord> { negative, good, garbage }));
    QCOMPARE(back.back().timeScale, 1.0);

    const QList<StoredRetryRecord> records = store.retryRecords(f.conversation.id);
    QCOMPARE(records.size(), 1);
    QCOMPARE(records.front().record.event, u"paced"_s);
    QCOMPARE(records.front().record.windowTokensLeft, std::nullopt);
    QCOMPARE(records.front().record.windowResetS, std::nullopt);
    QCOMPARE(records.front().record.estimatedTokens, std::nullopt); // a fraction is no count

    // The garbage row is replaced by the next report like any other.
    const ProviderWindowRecord fixed = windowAt(u"demo"_s, u"garbage"_s, kBase.addSecs(9));
    QVERIFY(store.saveProviderWindow(fixed));
    QCOMPARE(store.providerWindows().front(), fixed);
}

void TestHistoryStore::providerWindowWriteFailureIsReported()
{
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    const ProviderWindowRecord kept = windowAt(u"demo"_s, u"m"_s, kBase);
    QVERIFY(store.saveProviderWindow(kept));
    QVERIFY(rawExec(dbPath(),
        u"CREATE TRIGGER refuse_windows BEFORE UPDATE ON provider_windows BEGIN "
        "SELECT RAISE(ABORT, 'the disk says no'); END"_s));
    QVERIFY(!store.saveProviderWindow(windowAt(u"demo"_s, u"m"_s, kBase.addSecs(1))));
    QVERIFY2(store.lastError().startsWith(u"save provider window: "_s)
            && store.lastError().contains(u"the disk says no"_s),
        qPrintable(store.lastError()));
    // Rolled back: the row is as it was, and the store goes on.
    QCOMPARE(store.providerWindows(), QList<ProviderWindowRecord> { kept });
    QVERIFY(store.saveProviderWindow(windowAt(u"demo"_s, u"other"_s, kBase)));
    QVERIFY(store.lastError().isEmpty());
    store.close();
    QVERIFY(!store.saveProviderWindow(kept));
    QVERIFY(store.lastError().contains(u"not open"_s));
}

void TestHistoryStore::providerWindowSurvivesReopen()
{
    QList<ProviderWindowRecord> stored;
    {
        HistoryStore store;
        QVERIFY(store.open(dbPath()).persistent());
        for (int i = 0; i < 3; ++i) {
            const ProviderWindowRecord w
                = windowAt(u"demo"_s, u"model %1"_s.arg(i), kBase.addSecs(i));
            QVERIFY(store.saveProviderWindow(w));
            stored.prepend(w);
        }
        store.close();
    }
    // Checkpointed and closed: in the file alone, no log beside it.
    QVERIFY(!QFileInfo::exists(dbPath() + u"-wal"_s));
    HistoryStore store;
    QCOMPARE(store.open(dbPath()).status, OpenResult::Status::Opened);
    const QList<ProviderWindowRecord> back = store.providerWindows();
    QCOMPARE(back, stored);
    QCOMPARE(back.front().tokensResetAt, kBase.addSecs(2 + 30));
    QCOMPARE(back.front().tokensResetAt.timeSpec(), Qt::UTC);
    QCOMPARE(back.front().timeScale, 0.02);
}

void TestHistoryStore::providerWindowsKeptOverDeletesClearedByClear()
{
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    const QDateTime now = kBase.addDays(100);
    const Filled old = fill(store, now.addDays(-40), u"old"_s, 1);
    const Filled deleted = fill(store, now.addDays(-1), u"deleted"_s, 1);
    const ProviderWindowRecord w
        = windowAt(u"https://api.example.invalid/v1"_s, u"quokka-model-7"_s, now);
    QVERIFY(store.saveProviderWindow(w));
    // A report is of a provider, not of a conversation: deleting conversations keeps it.
    QVERIFY(store.deleteConversation(deleted.conversation.id));
    QCOMPARE(store.deleteOlderThan(30, now), 1);
    QCOMPARE(store.conversationCount(), 0);
    QCOMPARE(store.providerWindows(), QList<ProviderWindowRecord> { w });
    // Clearing all history clears them too, from the file as well.
    QVERIFY(store.clear());
    QVERIFY(store.providerWindows().isEmpty());
    QCOMPARE(rawValue(dbPath(), u"SELECT count(*) FROM provider_windows"_s).toInt(), 0);
    QVERIFY(!readAll(dbPath()).contains("quokka-model-7"));
    QVERIFY(!readAll(dbPath() + u"-wal"_s).contains("quokka-model-7"));
    QVERIFY(store.saveProviderWindow(w));
    QCOMPARE(store.providerWindows().size(), 1);
    Q_UNUSED(old);
}

// The store has no place for a key, so the only way one could reach the file is inside a value
// it is given. The endpoint is the value that can carry one (user info, `?key=` as some providers
// take it); the error texts come from the network layer, which already removes a quoted key
// (tst_secrets). Everything that can be stored is stored here, then the bytes are searched.
void TestHistoryStore::keyNeverInTheFile()
{
    const QByteArray key = "sk-capwatch-HISTORY-TEST-0123456789abcdef";
    HistoryStore store;
    QVERIFY(store.open(dbPath()).persistent());
    Conversation c = conversationAt(kBase);
    c.endpoint = u"https://user:%1@api.example.invalid:8443/v1?key=%1&api_key=%1#%1"_s.arg(
        QString::fromLatin1(key));
    QVERIFY(store.addConversation(c));
    QCOMPARE(c.endpoint, u"https://api.example.invalid:8443/v1"_s);
    QCOMPARE(store.conversation(c.id)->endpoint, u"https://api.example.invalid:8443/v1"_s);
    Message m = messageOf(c.id, Role::User, u"a prompt"_s, kBase);
    QVERIFY(store.addMessage(m));
    Send s;
    s.conversation = c.id;
    s.message = m.id;
    QVERIFY(store.addSend(s));
    RetryRecord r = scheduled(kBase, 1, 1);
    r.status = 401;
    r.category = Category::Auth;
    r.error = u"Incorrect API key provided: sk-capw****cdef"_s; // as the net layer leaves it
    QVERIFY(store.addRetryRecord(s.id, r));
    // A parked send's lane is the endpoint: kept as the conversation's is.
    ParkedSend p;
    p.conversation = c.id;
    p.message = m.id;
    p.send = s.id;
    p.provider
        = u"https://user:%1@api.example.invalid:8443/v1?key=%1"_s.arg(QString::fromLatin1(key));
    p.dueAt = kBase.addSecs(600);
    QVERIFY(store.addParkedSend(p));
    QCOMPARE(p.provider, u"https://api.example.invalid:8443/v1"_s);
    QCOMPARE(store.parkedSends().front().provider, u"https://api.example.invalid:8443/v1"_s);

    // Open: the records are in the write-ahead log. Closed: checkpointed into the file.
    for (int pass = 0; pass < 2; ++pass) {
        const QByteArray bytes = readAll(dbPath()) + readAll(dbPath() + u"-wal"_s);
        QVERIFY(bytes.contains("a prompt"));
        QVERIFY(!bytes.contains(key));
        QVERIFY(!bytes.contains(key.left(16)));
        QVERIFY(!bytes.contains("Authorization"));
        QVERIFY(!bytes.contains("Bearer"));
        QVERIFY(!bytes.contains("user:"));
        store.close();
    }
}

void TestHistoryStore::twoProcessesLoseNothing()
{
    const int n = 300;
    QProcess one, two;
    one.start(helperPath(), { dbPath(), QString::number(n), u"one"_s });
    two.start(helperPath(), { dbPath(), QString::number(n), u"two"_s });
    QVERIFY(one.waitForFinished(120000));
    QVERIFY(two.waitForFinished(120000));
    QVERIFY2(one.exitCode() == 0, one.readAllStandardError().constData());
    QVERIFY2(two.exitCode() == 0, two.readAllStandardError().constData());
    const HelperLines a = parseHelper(one.readAllStandardOutput());
    const HelperLines b = parseHelper(two.readAllStandardOutput());
    QCOMPARE(a.records.size(), n);
    QCOMPARE(b.records.size(), n);

    HistoryStore store;
    QCOMPARE(store.open(dbPath()).status, OpenResult::Status::Opened);
    QCOMPARE(store.integrityCheck(), u"ok"_s);
    QCOMPARE(store.conversationCount(), 2);
    QCOMPARE(store.retryRecordCount(), 2 * n);
    for (const HelperLines &h : { a, b }) {
        QCOMPARE(store.messageCount(h.conversation), n + 1);
        QList<int> requests;
        for (const StoredRetryRecord &r : store.retryRecords(h.conversation))
            requests.append(r.record.request);
        QCOMPARE(requests, h.records);
        for (const QUuid &id : h.messages)
            QVERIFY(store.message(id));
    }
}

void TestHistoryStore::twoProcessesRecoverOnce()
{
    // Both find the same damaged file; the second must not move aside the one the first made.
    QByteArray garbage;
    for (int i = 0; i < 65536; ++i)
        garbage.append(char((i * 7919 + 13) % 251));
    QVERIFY(writeFile(dbPath(), garbage));
    const int n = 50;
    QProcess one, two;
    one.start(helperPath(), { dbPath(), QString::number(n), u"one"_s });
    two.start(helperPath(), { dbPath(), QString::number(n), u"two"_s });
    QVERIFY(one.waitForFinished(120000));
    QVERIFY(two.waitForFinished(120000));
    QVERIFY2(one.exitCode() == 0, one.readAllStandardError().constData());
    QVERIFY2(two.exitCode() == 0, two.readAllStandardError().constData());
    const HelperLines a = parseHelper(one.readAllStandardOutput());
    const HelperLines b = parseHelper(two.readAllStandardOutput());
    QCOMPARE(QStringList({ a.opened, b.opened }).filter(u"recovered"_s).size(), 1);
    QCOMPARE(a.records.size(), n);
    QCOMPARE(b.records.size(), n);

    const QStringList moved = QDir(m_dir->path())
                                  .entryList({ u"history.sqlite.corrupt-*"_s }, QDir::AllEntries)
                                  .filter(QRegularExpression(u"\\d$"_s));
    QCOMPARE(moved.size(), 1);
    QCOMPARE(readAll(m_dir->filePath(moved.front())), garbage);
    QVERIFY(!QFileInfo::exists(dbPath() + u".lock"_s));

    HistoryStore store;
    QCOMPARE(store.open(dbPath()).status, OpenResult::Status::Opened);
    QCOMPARE(store.integrityCheck(), u"ok"_s);
    QCOMPARE(store.conversationCount(), 2);
    QCOMPARE(store.retryRecordCount(), 2 * n);
    for (const HelperLines &h : { a, b })
        QCOMPARE(store.messageCount(h.conversation), n + 1);
}

void TestHistoryStore::killMidWayKeepsEveryReportedRecord()
{
    QProcess helper;
    helper.start(helperPath(), { dbPath(), u"1000000"_s, u"killed"_s });
    QVERIFY(helper.waitForStarted());
    QByteArray output;
    while (output.count("\nr ") < 300) {
        QVERIFY2(helper.waitForReadyRead(30000), helper.readAllStandardError().constData());
        output += helper.readAllStandardOutput();
    }
    helper.kill(); // SIGKILL, mid-way through its writes
    QVERIFY(helper.waitForFinished(30000));
    QCOMPARE(helper.exitStatus(), QProcess::CrashExit);
    output += helper.readAllStandardOutput();
    const HelperLines reported = parseHelper(output);
    QVERIFY(reported.records.size() >= 300);

    HistoryStore store;
    const OpenResult r = store.open(dbPath());
    QCOMPARE(r.status, OpenResult::Status::Opened);
    QCOMPARE(store.integrityCheck(), u"ok"_s);
    QList<int> stored;
    for (const StoredRetryRecord &rec : store.retryRecords(reported.conversation))
        stored.append(rec.record.request);
    // Every record reported as written is there; at most the one in flight is not reported.
    QVERIFY(stored.size() >= reported.records.size());
    QVERIFY(stored.size() <= reported.records.size() + 1);
    QCOMPARE(stored.mid(0, reported.records.size()), reported.records);
    for (const QUuid &id : reported.messages)
        QVERIFY(store.message(id));
}

void TestHistoryStore::killKeepsParkedSend()
{
    // Issue 15: a parked send survives the process being killed. The helper parks two, removes
    // the first, and is killed while it goes on writing.
    QProcess helper;
    helper.start(helperPath(), { dbPath(), u"1000000"_s, u"parked"_s, u"park"_s });
    QVERIFY(helper.waitForStarted());
    QByteArray output;
    while (output.count("\nr ") < 50) {
        QVERIFY2(helper.waitForReadyRead(30000), helper.readAllStandardError().constData());
        output += helper.readAllStandardOutput();
    }
    helper.kill();
    QVERIFY(helper.waitForFinished(30000));
    QCOMPARE(helper.exitStatus(), QProcess::CrashExit);
    const HelperLines reported = parseHelper(output + helper.readAllStandardOutput());
    QCOMPARE(reported.parked.size(), 2);
    QCOMPARE(reported.unparked, QList<QUuid> { reported.parked.front() });

    HistoryStore store;
    QCOMPARE(store.open(dbPath()).status, OpenResult::Status::Opened);
    QCOMPARE(store.integrityCheck(), u"ok"_s);
    const QList<ParkedSend> parked = store.parkedSends();
    QCOMPARE(parked.size(), 1);
    const ParkedSend &p = parked.front();
    QCOMPARE(p.id, reported.parked.back());
    QCOMPARE(p.conversation, reported.conversation);
    QCOMPARE(p.send, store.sends(reported.conversation).front().id);
    QCOMPARE(p.message, store.messages(reported.conversation).front().id);
    QCOMPARE(p.prompt, u"prompt of parked"_s);
    QCOMPARE(p.title, u"prompt of parked"_s);
    QCOMPARE(p.provider, u"demo"_s);
    QCOMPARE(p.model, u"parked"_s);
    QCOMPARE(p.options, u"{\"max_tokens\":2}"_s);
    QCOMPARE(p.dueAt, QDateTime(QDate(2026, 11, 1), QTime(10, 0, 2), Qt::UTC));
    QCOMPARE(p.resetAt, p.dueAt);
    QCOMPARE(p.parksInARow, 2);
    QVERIFY(p.parkedAt.isValid());
    QVERIFY(p.parkedAt <= QDateTime::currentDateTimeUtc());
    QVERIFY(store.conversation(reported.conversation)->hasParked);
}

void TestHistoryStore::writerKeepsCallerFreeAndFlushes()
{
    const int records = 2000;
    QUuid conversation, send;
    {
        HistoryWriter writer;
        QSignalSpy opened(&writer, &HistoryWriter::opened);
        QSignalSpy failed(&writer, &HistoryWriter::writeFailed);
        writer.open(dbPath());
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
        QCOMPARE(opened.front().front().value<OpenResult>().status, OpenResult::Status::Created);

        conversation = writer.addConversation(conversationAt(kBase));
        QVERIFY(!conversation.isNull());
        Message prompt = messageOf(conversation, Role::User, u"through the writer"_s, {});
        const QUuid promptId = writer.addMessage(prompt);
        Send s;
        s.conversation = conversation;
        s.message = promptId;
        send = writer.addSend(s);

        QList<qint64> costs;
        QElapsedTimer timer;
        for (int i = 0; i < records; ++i) {
            const RetryRecord r = scheduled(kBase.addMSecs(i), 1, i + 1);
            timer.start();
            writer.addRetryRecord(send, r);
            costs.append(timer.nsecsElapsed());
        }
        std::sort(costs.begin(), costs.end());
        const double medianMs = costs.at(costs.size() / 2) / 1e6;
        const double p99Ms = costs.at(costs.size() * 99 / 100) / 1e6;
        qInfo("caller's cost of a retry record: median %.4f ms, p99 %.4f ms", medianMs, p99Ms);
        // Runaway bounds (a caller that waited for the disk would take milliseconds each).
        QVERIFY(medianMs < double(capwatch::testing::runawayBoundMs(1)));
        QVERIFY(p99Ms < double(capwatch::testing::runawayBoundMs(5)));

        // A read after the writes sees them all.
        qsizetype seen = -1;
        writer.read(
            this,
            [conversation](HistoryStore &store) { return store.retryRecords(conversation).size(); },
            [&seen](qsizetype n) { seen = n; });
        QTRY_COMPARE_WITH_TIMEOUT(seen, qsizetype(records), 30000);
        QSignalSpy flushed(&writer, &HistoryWriter::flushed);
        writer.flush();
        QTRY_COMPARE_WITH_TIMEOUT(flushed.size(), 1, 10000);
        QCOMPARE(writer.pending(), 0);

        // Queued at the very end: the destructor writes them before it returns.
        for (int i = 0; i < 500; ++i)
            writer.addRetryRecord(send, scheduled(kBase.addSecs(10 + i), 2, 1));
        writer.finishSend(send, SendOutcome::Succeeded, EndReason::None, 501, 0);
        QCOMPARE(failed.size(), 0);
    }
    HistoryStore store;
    QCOMPARE(store.open(dbPath()).status, OpenResult::Status::Opened);
    QCOMPARE(store.retryRecords(conversation).size(), records + 500);
    QCOMPARE(store.sends(conversation).front().outcome, SendOutcome::Succeeded);
    QCOMPARE(store.conversation(conversation)->title, u"through the writer"_s);
}

void TestHistoryStore::writerReportsFailures()
{
    HistoryWriter writer;
    QSignalSpy opened(&writer, &HistoryWriter::opened);
    QSignalSpy failed(&writer, &HistoryWriter::writeFailed);
    QSignalSpy closed(&writer, &HistoryWriter::closed);
    writer.open(dbPath());
    writer.addRetryRecord(QUuid::createUuid(), scheduled(kBase, 1, 1)); // no such send
    QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 10000);
    QVERIFY(failed.front().front().toString().contains(u"no such send"_s));
    writer.close();
    QTRY_COMPARE_WITH_TIMEOUT(closed.size(), 1, 10000);
    writer.addConversation(conversationAt(kBase));
    QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 2, 10000);
    QVERIFY(failed.at(1).front().toString().contains(u"not open"_s));
}

void TestHistoryStore::writerStoresParkedSends()
{
    QUuid kept, conversation;
    ParkedSend expected;
    {
        HistoryWriter writer;
        QSignalSpy opened(&writer, &HistoryWriter::opened);
        QSignalSpy failed(&writer, &HistoryWriter::writeFailed);
        writer.open(dbPath());
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
        conversation = writer.addConversation(conversationAt(kBase));
        Message prompt = messageOf(conversation, Role::User, u"parked through the writer"_s, kBase);
        prompt.id = writer.addMessage(prompt);
        Send send;
        send.conversation = conversation;
        send.message = prompt.id;
        send.started = kBase;
        const QUuid sendId = writer.addSend(send);

        ParkedSend p;
        p.conversation = conversation;
        p.message = prompt.id;
        p.send = sendId;
        p.provider = u"demo"_s;
        p.model = u"demo-model"_s;
        p.dueAt = kBase.addSecs(600);
        p.resetAt = p.dueAt;
        // The id and the time it was parked are the caller's, known at once.
        const QDateTime before = QDateTime::currentDateTimeUtc();
        const QUuid removed = writer.addParkedSend(p);
        p.dueAt = kBase.addSecs(1200);
        kept = writer.addParkedSend(p);
        QVERIFY(!removed.isNull());
        QVERIFY(!kept.isNull() && kept != removed);
        writer.removeParkedSend(removed);

        QList<ParkedSend> read;
        bool done = false;
        writer.read(
            this, [](HistoryStore &store) { return store.parkedSends(); },
            [&](QList<ParkedSend> parked) {
                read = std::move(parked);
                done = true;
            });
        QTRY_VERIFY_WITH_TIMEOUT(done, 10000);
        QCOMPARE(idsOf(read), QList<QUuid> { kept });
        expected = read.front();
        QCOMPARE(expected.prompt, u"parked through the writer"_s);
        QCOMPARE(expected.send, sendId);
        QVERIFY(expected.parkedAt >= before.addMSecs(-1));
        QVERIFY(expected.parkedAt <= QDateTime::currentDateTimeUtc());
        QCOMPARE(failed.size(), 0);

        // Removing one that is not there (gone with its conversation) is no failed write: what
        // was asked for holds. The store itself still says so (removesParkedSend).
        writer.removeParkedSend(removed);
        QSignalSpy flushed(&writer, &HistoryWriter::flushed);
        writer.flush();
        QVERIFY(flushed.wait(10000));
        QCOMPARE(failed.size(), 0);
    }
    HistoryStore store;
    QCOMPARE(store.open(dbPath()).status, OpenResult::Status::Opened);
    QCOMPARE(store.parkedSends(), QList<ParkedSend> { expected });
    QVERIFY(store.conversation(conversation)->hasParked);
}

void TestHistoryStore::writerStoresProviderWindows()
{
    ProviderWindowRecord second;
    {
        HistoryWriter writer;
        QSignalSpy opened(&writer, &HistoryWriter::opened);
        QSignalSpy failed(&writer, &HistoryWriter::writeFailed);
        writer.open(dbPath());
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
        writer.saveProviderWindow(windowAt(u"demo"_s, u"m"_s, kBase));
        // No time given: the writer's call is when it was received, not when the worker ran.
        second = windowAt(u"demo"_s, u"m"_s, {});
        second.remainingTokens = 42;
        const QDateTime before = QDateTime::currentDateTimeUtc();
        writer.saveProviderWindow(second);
        const QDateTime after = QDateTime::currentDateTimeUtc();

        QList<ProviderWindowRecord> read;
        bool done = false;
        writer.read(
            this, [](HistoryStore &store) { return store.providerWindows(); },
            [&](QList<ProviderWindowRecord> windows) {
                read = std::move(windows);
                done = true;
            });
        QTRY_VERIFY_WITH_TIMEOUT(done, 10000);
        QCOMPARE(read.size(), 1);
        QCOMPARE(read.front().remainingTokens, std::optional<qint64>(42));
        QVERIFY(read.front().receivedAt >= before.addMSecs(-1));
        QVERIFY(read.front().receivedAt <= after);
        second.receivedAt = read.front().receivedAt;
        QCOMPARE(failed.size(), 0);

        // A failure is reported as for any write.
        QVERIFY(rawExec(dbPath(),
            u"CREATE TRIGGER refuse_windows BEFORE UPDATE ON provider_windows BEGIN "
            "SELECT RAISE(ABORT, 'the disk says no'); END"_s));
        writer.saveProviderWindow(windowAt(u"demo"_s, u"m"_s, kBase.addSecs(5)));
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 10000);
        QVERIFY2(failed.front().front().toString().contains(u"the disk says no"_s),
            qPrintable(failed.front().front().toString()));
    }
    HistoryStore store;
    QCOMPARE(store.open(dbPath()).status, OpenResult::Status::Opened);
    QCOMPARE(store.providerWindows(), QList<ProviderWindowRecord> { second });
}

QTEST_GUILESS_MAIN(TestHistoryStore)
namespace {

UsageRecord usageOf(int request, const QDateTime &time)
{
    UsageRecord u;
    u.time = time;
    u.profile = u"work"_s;
    u.endpoint = u"https://user:pw@api.example.com/v1?key=abc"_s;
    u.model = u"gpt-4o-mini"_s;
    u.conversation = QUuid::createUuid();
    u.send = QUuid::createUuid();
    u.request = request;
    u.attempt = 2;
    u.status = 200;
    u.promptTokens = 120;
    u.completionTokens = 45;
    u.cachedTokens = 64;
    u.reasoningTokens = 7;
    u.cost = 0.000123456789;
    u.costSource = CostSource::Provider;
    u.waitedMs = 1500;
    u.pacedMs = 250;
    u.parkedMs = 60000;
    u.waitSource = u"retry-after"_s;
    return u;
}

QList<UsageRecord> allUsage(
    HistoryStore &store, const QDateTime &since = {}, const QDateTime &until = {})
{
    QList<UsageRecord> out;
    const bool ok = store.forEachUsage(since, until, [&out](const UsageRecord &u) {
        out.append(u);
        return true;
    });
    return ok ? out : QList<UsageRecord> {};
}

} // namespace

void TestHistoryStore::usageMigratesAndRoundTrips()
{
    // The usage ledger (schema 8): a file of schema 7 is migrated with what it held, the new
    // table empty; a row reads back as written, its endpoint without what can carry a key.
    Filled before;
    {
        HistoryStore old;
        QCOMPARE(old.open(dbPath(), upTo(7)).status, OpenResult::Status::Created);
        before = fill(old, kBase, u"before the ledger"_s, 1);
        QCOMPARE(old.usageCount(), 0); // no table: none, and no error
        QVERIFY(allUsage(old).isEmpty());
    }
    HistoryStore store;
    const OpenResult r = store.open(dbPath());
    QCOMPARE(r.fromVersion, 7);
    QCOMPARE(r.version, 11);
    QVERIFY(store.message(before.answer.id));
    QCOMPARE(rawValue(dbPath(),
                 u"SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = "
                 "'usage_by_time'"_s)
                 .toInt(),
        1);
    QCOMPARE(store.usageCount(), 0);

    UsageRecord full = usageOf(1, kBase);
    QVERIFY(store.addUsage(full));
    UsageRecord refused;
    refused.time = kBase.addSecs(10);
    refused.endpoint = u"demo"_s;
    refused.model = u"capwatch-demo"_s;
    refused.request = 2;
    refused.attempt = 1;
    refused.status = 422;
    refused.category = u"token_limit"_s;
    refused.promptTokens = 30;
    refused.completionTokens = 0;
    refused.estimated = true;
    refused.cost = 0.5;
    refused.costSource = CostSource::PriceTable;
    refused.currency = u"USD"_s;
    QVERIFY(store.addUsage(refused));
    UsageRecord dropped; // no status, nothing known
    dropped.time = kBase.addSecs(20);
    dropped.request = 3;
    dropped.attempt = 1;
    QVERIFY(store.addUsage(dropped));

    const QList<UsageRecord> got = allUsage(store);
    QCOMPARE(got.size(), 3);
    UsageRecord expected = full;
    expected.endpoint = u"https://api.example.com/v1"_s;
    QCOMPARE(got.at(0), expected);
    QCOMPARE(got.at(1), refused);
    QCOMPARE(got.at(2), dropped);
    QCOMPARE(rawValue(dbPath(), u"SELECT cost_source FROM usage WHERE request = 3"_s).toString(),
        u"unknown"_s);
    QVERIFY(rawValue(dbPath(), u"SELECT cost FROM usage WHERE request = 3"_s).isNull());
    // The bounds: since inclusive, until exclusive.
    QCOMPARE(allUsage(store, kBase.addSecs(10), kBase.addSecs(20)).size(), 1);
    QCOMPARE(allUsage(store, kBase.addSecs(10)).size(), 2);
    QCOMPARE(store.usageCount(), 3);
}

void TestHistoryStore::usageOutlivesConversationsAndClearsOnRequest()
{
    HistoryStore store;
    QCOMPARE(store.open(dbPath()).status, OpenResult::Status::Created);
    const Filled f = fill(store, kBase, u"counted"_s, 1);
    UsageRecord u = usageOf(1, kBase);
    u.conversation = f.conversation.id;
    QVERIFY(store.addUsage(u));
    // Deleting the conversation, or retention, leaves its usage with its id.
    QVERIFY(store.deleteConversation(f.conversation.id));
    QCOMPARE(store.deleteOlderThan(1, kBase.addDays(30)), 0);
    QList<UsageRecord> got = allUsage(store);
    QCOMPARE(got.size(), 1);
    QCOMPARE(got.front().conversation, f.conversation.id);
    // Clear history keeps the ledger unless asked.
    fill(store, kBase.addSecs(5), u"more"_s, 1);
    QVERIFY(store.clear());
    QCOMPARE(store.conversationCount(), 0);
    QCOMPARE(store.usageCount(), 1);
    QVERIFY(store.clear(true));
    QCOMPARE(store.usageCount(), 0);
}

void TestHistoryStore::killMidWayKeepsEveryUsageRow()
{
    // Each usage row is its own transaction: a kill -9 loses at most the one being written.
    QProcess helper;
    helper.start(helperPath(), { dbPath(), u"1000000"_s, u"killed"_s });
    QVERIFY(helper.waitForStarted());
    QByteArray output;
    while (output.count("\ng ") < 200) {
        QVERIFY2(helper.waitForReadyRead(30000), helper.readAllStandardError().constData());
        output += helper.readAllStandardOutput();
    }
    helper.kill();
    QVERIFY(helper.waitForFinished(30000));
    QCOMPARE(helper.exitStatus(), QProcess::CrashExit);
    const HelperLines reported = parseHelper(output + helper.readAllStandardOutput());
    QVERIFY(reported.usage.size() >= 200);

    HistoryStore store;
    QCOMPARE(store.open(dbPath()).status, OpenResult::Status::Opened);
    QCOMPARE(store.integrityCheck(), u"ok"_s);
    QList<int> stored;
    for (const UsageRecord &u : allUsage(store))
        stored.append(u.request);
    QVERIFY(stored.size() >= reported.usage.size());
    QVERIFY(stored.size() <= reported.usage.size() + 1);
    QCOMPARE(stored.mid(0, reported.usage.size()), reported.usage);
    // And they outlive the conversation they counted.
    QVERIFY(store.deleteConversation(reported.conversation));
    QCOMPARE(store.usageCount(), qint64(stored.size()));
}

#include "tst_historystore.moc"

void TestHistoryStore::ledgerCountsForLimitsAndCosts()
{
    // Schema 9: the ledger by conversation. What the limits read again as rows are added
    // (usageTicks after the last id), and a conversation's costs by the prompt that spent them.
    HistoryStore store;
    QCOMPARE(store.open(dbPath()).version, 11);
    QCOMPARE(rawValue(dbPath(),
                 u"SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = "
                 "'usage_by_conversation'"_s)
                 .toInt(),
        1);
    QCOMPARE(store.usageMaxId(), 0);
    const Filled f = fill(store, kBase, u"costs"_s, 0);
    UsageRecord refused = usageOf(1, kBase);
    refused.conversation = f.conversation.id;
    refused.send = f.send.id;
    refused.status = 429;
    refused.cost.reset();
    refused.costSource = CostSource::Unknown;
    refused.promptTokens = 100;
    refused.completionTokens = 0;
    UsageRecord billed = usageOf(1, kBase.addSecs(5));
    billed.conversation = f.conversation.id;
    billed.send = f.send.id;
    billed.cost = 0.25;
    UsageRecord estimated = usageOf(2, kBase.addSecs(9));
    estimated.conversation = f.conversation.id;
    estimated.send = f.send.id;
    estimated.cost = 0.125;
    estimated.costSource = CostSource::PriceTable;
    estimated.currency = u"USD"_s;
    UsageRecord unpriced = usageOf(3, kBase.addSecs(10));
    unpriced.conversation = f.conversation.id; // no stored send: the conversation's only
    unpriced.send = QUuid();
    unpriced.cost.reset();
    unpriced.costSource = CostSource::Unknown;
    UsageRecord elsewhere = usageOf(4, kBase.addSecs(11)); // another conversation's
    for (const UsageRecord &u : { refused, billed, estimated, unpriced, elsewhere })
        QVERIFY(store.addUsage(u));

    const QList<UsageTick> all = store.usageTicks(0, kBase.toMSecsSinceEpoch());
    QCOMPARE(all.size(), 5);
    QCOMPARE(all.at(0).tokens, 100);
    QCOMPARE(all.at(1).tokens, 165);
    QCOMPARE(all.at(1).cost, std::optional<double>(0.25));
    QCOMPARE(all.at(1).costSource, CostSource::Provider);
    QCOMPARE(all.at(1).profile, u"work"_s);
    QCOMPARE(store.usageMaxId(), all.last().id);
    // After the third, from the tenth second on: what a later read of the limits gets.
    QCOMPARE(store.usageTicks(all.at(2).id, kBase.toMSecsSinceEpoch()).size(), 2);
    QCOMPARE(store.usageTicks(0, kBase.addSecs(10).toMSecsSinceEpoch()).size(), 2);

    const QHash<QUuid, CostTotal> costs = store.conversationCosts(f.conversation.id);
    const CostTotal prompt = costs.value(f.prompt.id);
    QCOMPARE(prompt.attempts, 3);
    QCOMPARE(prompt.billed, 0.25);
    QCOMPARE(prompt.estimated, 0.125);
    QCOMPARE(prompt.currency, u"USD"_s);
    QCOMPARE(prompt.unpriced, 0); // the refusal is not billed
    QCOMPARE(prompt.tokens, 100 + 165 + 165);
    const CostTotal whole = costs.value(QUuid());
    QCOMPARE(whole.attempts, 4);
    QCOMPARE(whole.unpriced, 1);
    QCOMPARE(whole.amount(), 0.375);

    // The list reads the same sums for its tooltip; deleting the conversation keeps the rows.
    const QList<Conversation> listed = store.conversations(10).conversations;
    QCOMPARE(listed.size(), 1);
    QCOMPARE(listed.first().cost.billed, 0.25);
    QCOMPARE(listed.first().cost.estimated, 0.125);
    QVERIFY(store.deleteConversation(f.conversation.id));
    QCOMPARE(store.conversationCosts(f.conversation.id).value(QUuid()).attempts, 4);
    // Cleared: ids start again, which a reader of the ticks tells by the largest id.
    QVERIFY(store.clear(true));
    QCOMPARE(store.usageMaxId(), 0);
}

namespace {

/// The first local day of the insights' ledgers.
const QDate kLedgerDay(2026, 10, 5);

/// A ledger of `sends` sends over seven local days: three profiles (one empty), three models, two
/// endpoints; answers billed and estimated (binary fractions, so every sum is exact), refusals and
/// a 200 that was one, retry waits with and without a source, parks, rows of no stored send, and
/// sends whose attempts run past midnight or move to another profile and model (a fallback).
QList<UsageRecord> ledgerOf(int sends, quint32 seed)
{
    QRandomGenerator random(seed);
    const QStringList profiles { u"work"_s, u"free"_s, u""_s };
    const QStringList models { u"gpt-4o-mini"_s, u"llama"_s, u"claude"_s };
    const QStringList endpoints { u"https://api.example.com/v1"_s, u"demo"_s };
    const QStringList sources { u"retry-after"_s, u"backoff"_s, u"message"_s, u""_s };
    QList<UsageRecord> out;
    for (int s = 0; s < sends; ++s) {
        const QUuid conversation = QUuid::createUuid();
        const QUuid send = s % 5 == 4 ? QUuid() : QUuid::createUuid();
        // Local times, some a few minutes before midnight so that later attempts fall the next day.
        QDateTime when(kLedgerDay.addDays(s % 7),
            s % 6 == 0 ? QTime(23, 50)
                       : QTime(8 + int(random.bounded(12)), int(random.bounded(60))));
        const int attempts = 1 + int(random.bounded(4));
        const bool parked = random.bounded(8) == 0;
        for (int a = 0; a < attempts; ++a) {
            UsageRecord u;
            u.time = when.toUTC();
            u.profile = profiles.at(int(random.bounded(profiles.size())));
            u.model = models.at(int(random.bounded(models.size())));
            if (a > 0 && random.bounded(3) != 0) { // mostly the same profile and model
                u.profile = out.last().profile;
                u.model = out.last().model;
            }
            u.endpoint = endpoints.at(int(random.bounded(endpoints.size())));
            u.conversation = conversation;
            u.send = send;
            u.request = s + 1;
            u.attempt = a + 1;
            const bool last = a + 1 == attempts;
            switch (last ? int(random.bounded(5)) : int(random.bounded(4))) {
            case 0:
                u.status = 429;
                u.category = u"rate_limit"_s;
                break;
            case 1:
                u.status = 422;
                u.category = u"token_limit"_s;
                break;
            case 2:
                u.status = 200; // a refusal in a 200 stream: not an answer
                u.category = u"content_filter"_s;
                break;
            case 3:
                if (random.bounded(2) == 0)
                    u.status = 503;
                break; // or no status at all: a network error
            default:
                u.status = 200;
                u.cost = double(1 + random.bounded(64)) / 64.0;
                u.costSource
                    = random.bounded(2) == 0 ? CostSource::Provider : CostSource::PriceTable;
                break;
            }
            if (random.bounded(6) != 0)
                u.promptTokens = 100 + int(random.bounded(900));
            if (u.status == 200 && u.category.isEmpty())
                u.completionTokens = 10 + int(random.bounded(500));
            if (a > 0) {
                u.waitedMs = 250 * qint64(1 + random.bounded(40));
                u.waitSource = sources.at(int(random.bounded(sources.size())));
            }
            u.pacedMs = a == 0 ? 125 * qint64(random.bounded(3)) : 0;
            u.parkedMs = a == 0 && parked ? 60'000 : 0;
            out.append(u);
            when = when.addSecs(60 + 60 * qint64(random.bounded(10)));
        }
    }
    return out;
}

/// The insights of `rows` (oldest first, as forEachUsage() reads them) computed here from the raw
/// rows, the rule of docs/history.md spelled out again: attempts by their local day; a send once,
/// on the day and under the profile and model of its first attempt, by how all its attempts went.
Insights rawInsights(const QList<UsageRecord> &rows, const InsightsQuery &query)
{
    const auto within = [&query](const QDate &day, const QString &profile, const QString &model) {
        return (!query.from.isValid() || day >= query.from)
            && (!query.to.isValid() || day <= query.to)
            && (query.profile.isEmpty() || profile == query.profile)
            && (query.model.isEmpty() || model == query.model);
    };
    struct SendSums
    {
        QDate day;
        QString profile;
        QString model;
        qint64 attempts = 0;
        bool answered = false;
        bool parked = false;
    };
    std::map<std::tuple<QString, QString, QString, QString>, InsightsDay> days;
    std::map<QString, SendSums> sends;
    QStringList order; // the sends in the order their first attempt came
    Insights out;
    for (const UsageRecord &u : rows) {
        const QDate day = u.time.toLocalTime().date();
        if (!out.firstDay.isValid() || day < out.firstDay)
            out.firstDay = day;
        if (!u.profile.isEmpty() && !out.profiles.contains(u.profile))
            out.profiles.append(u.profile);
        if (!u.model.isEmpty() && !out.models.contains(u.model))
            out.models.append(u.model);
        const QString key = u.send.isNull()
            ? u.conversation.toString() + u'#' + QString::number(u.request)
            : u.send.toString();
        auto [it, first] = sends.try_emplace(key);
        if (first) {
            it->second.day = day;
            it->second.profile = u.profile;
            it->second.model = u.model;
        }
        ++it->second.attempts;
        it->second.answered = it->second.answered
            || (u.status && *u.status >= 200 && *u.status < 300 && u.category.isEmpty());
        it->second.parked = it->second.parked || u.parkedMs > 0;
        if (!within(day, u.profile, u.model))
            continue;
        InsightsDay &d = days[{ day.toString(Qt::ISODate), u.model, u.profile, u.endpoint }];
        d.day = day;
        d.model = u.model;
        d.profile = u.profile;
        d.endpoint = u.endpoint;
        ++d.attempts;
        d.promptTokens += u.promptTokens.value_or(0);
        d.completionTokens += u.completionTokens.value_or(0);
        if (u.cost && u.costSource == CostSource::Provider)
            d.billed += *u.cost;
        if (u.cost && u.costSource == CostSource::PriceTable)
            d.estimated += *u.cost;
        d.waitedMs += u.waitedMs;
        d.pacedMs += u.pacedMs;
        d.parkedMs += u.parkedMs;
        if (!u.category.isEmpty())
            ++out.refusals[u.category];
        if (u.waitedMs > 0 && !u.waitSource.isEmpty()) {
            ++out.waitSources[u.waitSource].first;
            out.waitSources[u.waitSource].second += u.waitedMs;
        }
    }
    for (const auto &[key, d] : days)
        out.days.append(d);
    for (const auto &[key, s] : sends) {
        if (!within(s.day, s.profile, s.model))
            continue;
        if (!s.answered)
            ++out.notAnswered;
        else if (s.parked)
            ++out.parkedThenAnswered;
        else if (s.attempts > 1)
            ++out.afterRetries;
        else
            ++out.firstTime;
    }
    out.profiles.sort();
    out.models.sort();
    return out;
}

/// Where two insights differ, in words; empty when they are equal (the sums of binary fractions
/// are exact, so the doubles are compared exactly).
QString differenceOf(const Insights &got, const Insights &want)
{
    if (got.days.size() != want.days.size())
        return u"%1 day rows, expected %2"_s.arg(got.days.size()).arg(want.days.size());
    for (qsizetype i = 0; i < got.days.size(); ++i) {
        const InsightsDay &g = got.days.at(i);
        const InsightsDay &w = want.days.at(i);
        const auto row = [](const InsightsDay &d) -> QString {
            return u"%1 %2 %3 %4: %5 attempts, %6+%7 tokens, %8 billed, %9 estimated, "_s
                       .arg(d.day.toString(Qt::ISODate), d.model, d.profile, d.endpoint)
                       .arg(d.attempts)
                       .arg(d.promptTokens)
                       .arg(d.completionTokens)
                       .arg(d.billed)
                       .arg(d.estimated)
                + u"%1/%2/%3 ms"_s.arg(d.waitedMs).arg(d.pacedMs).arg(d.parkedMs);
        };
        if (row(g) != row(w) || g.billed != w.billed || g.estimated != w.estimated)
            return u"day row %1: %2, expected %3"_s.arg(i).arg(row(g), row(w));
    }
    if (got.refusals != want.refusals)
        return u"refusals differ"_s;
    if (got.waitSources != want.waitSources)
        return u"wait sources differ"_s;
    const auto outcomes = [](const Insights &i) {
        return u"first %1, retried %2, parked %3, not answered %4"_s.arg(i.firstTime)
            .arg(i.afterRetries)
            .arg(i.parkedThenAnswered)
            .arg(i.notAnswered);
    };
    if (outcomes(got) != outcomes(want))
        return u"outcomes: %1, expected %2"_s.arg(outcomes(got), outcomes(want));
    if (got.profiles != want.profiles || got.models != want.models)
        return u"names: %1 / %2, expected %3 / %4"_s.arg(got.profiles.join(u','),
            got.models.join(u','), want.profiles.join(u','), want.models.join(u','));
    if (got.firstDay != want.firstDay)
        return u"first day %1, expected %2"_s.arg(
            got.firstDay.toString(Qt::ISODate), want.firstDay.toString(Qt::ISODate));
    return {};
}

/// The queries the view asks: every range and filter, open ends, a range with no row.
QList<InsightsQuery> insightsQueries()
{
    QList<InsightsQuery> queries { {}, { kLedgerDay.addDays(2), kLedgerDay.addDays(4), {}, {} },
        { kLedgerDay.addDays(3), kLedgerDay.addDays(3), {}, {} },
        { kLedgerDay, kLedgerDay.addDays(1), {}, {} }, { kLedgerDay.addDays(5), {}, {}, {} },
        { {}, kLedgerDay.addDays(1), {}, {} }, { {}, {}, u"work"_s, {} },
        { {}, {}, {}, u"llama"_s },
        { kLedgerDay.addDays(1), kLedgerDay.addDays(5), u"free"_s, u"claude"_s },
        { kLedgerDay.addDays(30), kLedgerDay.addDays(40), {}, {} } };
    return queries;
}

/// Every query's insights from the store equal the raw computation over what it holds.
QString checkInsights(HistoryStore &store)
{
    const QList<UsageRecord> rows = allUsage(store);
    for (const InsightsQuery &q : insightsQueries()) {
        const QString difference = differenceOf(store.insights(q), rawInsights(rows, q));
        if (!difference.isEmpty())
            return u"%1..%2 profile '%3' model '%4': %5"_s.arg(q.from.toString(Qt::ISODate),
                q.to.toString(Qt::ISODate), q.profile, q.model, difference);
    }
    return {};
}

qint64 rollupRows(const QString &path)
{
    qint64 n = 0;
    for (const QString &table : usageRollupTables())
        n += rawValue(path, u"SELECT count(*) FROM "_s + table).toLongLong();
    return n;
}

} // namespace

void TestHistoryStore::insightsRollupsMigrateFromVersion10()
{
    // A version-10 file with a ledger and no rollups: its insights are empty (nothing to read).
    // Migrated to 11, the rollups are made from the rows it holds and read as the raw rows sum.
    const QList<UsageRecord> ledger = ledgerOf(400, 11);
    {
        HistoryStore old;
        QCOMPARE(old.open(dbPath(), upTo(10)).status, OpenResult::Status::Created);
        for (const UsageRecord &u : ledger)
            QVERIFY(old.addUsage(u));
        const Insights none = old.insights({});
        QVERIFY(none.days.isEmpty());
        QCOMPARE(
            none.firstTime + none.afterRetries + none.parkedThenAnswered + none.notAnswered, 0);
    }
    HistoryStore store;
    const OpenResult r = store.open(dbPath());
    QCOMPARE(r.fromVersion, 10);
    QCOMPARE(r.version, 11);
    QCOMPARE(store.usageCount(), qint64(ledger.size()));
    QVERIFY(rollupRows(dbPath()) > 0);
    const QString difference = checkInsights(store);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    // What the ledger holds, whatever the query: the names to filter by and the first day.
    const Insights one
        = store.insights({ kLedgerDay.addDays(3), kLedgerDay.addDays(3), u"work"_s, {} });
    QCOMPARE(one.profiles, (QStringList { u"free"_s, u"work"_s }));
    QCOMPARE(one.models, (QStringList { u"claude"_s, u"gpt-4o-mini"_s, u"llama"_s }));
    QCOMPARE(one.firstDay, kLedgerDay);
    for (const InsightsDay &d : one.days) {
        QCOMPARE(d.day, kLedgerDay.addDays(3));
        QCOMPARE(d.profile, u"work"_s);
    }
    QVERIFY(!one.days.isEmpty());
}

void TestHistoryStore::insightsRollupsFollowInsertsAndClear()
{
    // The triggers keep the rollups equal to the raw sums as rows come, one at a time and in a
    // batch; clear() keeps the ledger and its rollups, clear(true) empties both, and rows written
    // after it are counted from nothing.
    HistoryStore store;
    QCOMPARE(store.open(dbPath()).status, OpenResult::Status::Created);
    const Insights empty = store.insights({});
    QVERIFY(empty.days.isEmpty() && empty.profiles.isEmpty() && !empty.firstDay.isValid());
    const QList<UsageRecord> ledger = ledgerOf(300, 12);
    for (qsizetype i = 0; i < ledger.size() / 2; ++i)
        QVERIFY(store.addUsage(ledger.at(i)));
    QString difference = checkInsights(store);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    QVERIFY(store.begin());
    for (qsizetype i = ledger.size() / 2; i < ledger.size(); ++i)
        QVERIFY(store.addUsage(ledger.at(i)));
    QVERIFY(store.commit());
    difference = checkInsights(store);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));

    // An attempt written after a later one of its send (another process's clock, a queue):
    // the earliest is the first, and the send moves to its day.
    UsageRecord late = ledger.first();
    late.time = late.time.addDays(-2);
    late.profile = u"early"_s;
    late.attempt = 0;
    QVERIFY(store.addUsage(late));
    difference = checkInsights(store);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    QVERIFY(store.insights({}).profiles.contains(u"early"_s));
    const QDate earlyDay = late.time.toLocalTime().date();
    const Insights early = store.insights({ earlyDay, earlyDay, {}, {} });
    QCOMPARE(early.days.size(), 1);
    QCOMPARE(
        early.firstTime + early.afterRetries + early.parkedThenAnswered + early.notAnswered, 1);
    QCOMPARE(early.firstDay, earlyDay);

    QVERIFY(store.clear());
    QCOMPARE(store.usageCount(), qint64(ledger.size()) + 1);
    difference = checkInsights(store);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));

    QVERIFY(store.clear(true));
    QCOMPARE(store.usageCount(), 0);
    QCOMPARE(rollupRows(dbPath()), 0);
    const Insights cleared = store.insights({});
    QVERIFY(cleared.days.isEmpty() && cleared.refusals.isEmpty() && cleared.waitSources.isEmpty());
    QCOMPARE(
        cleared.firstTime + cleared.afterRetries + cleared.parkedThenAnswered + cleared.notAnswered,
        0);
    QVERIFY(cleared.profiles.isEmpty() && cleared.models.isEmpty() && !cleared.firstDay.isValid());
    const QList<UsageRecord> after = ledgerOf(50, 13);
    for (const UsageRecord &u : after)
        QVERIFY(store.addUsage(u));
    difference = checkInsights(store);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
}

void TestHistoryStore::insightsCountASendOnceOnItsFirstDay()
{
    // One send refused at 23:50 under "free" and llama, answered after midnight under "work" and
    // gpt-4o-mini (a fallback): its attempts count on their own days, the send once, on the first
    // day, under "free" and llama, answered after retries. Written twelve hours east of UTC, so
    // a day taken in UTC would hold both attempts; back in the test's own zone the days stay as
    // they were written (the day is fixed at write time, in the writer's zone).
    const QByteArray zone = qgetenv("TZ");
    const bool hadZone = qEnvironmentVariableIsSet("TZ");
    const auto restoreZone = [&] {
        if (hadZone)
            qputenv("TZ", zone);
        else
            qunsetenv("TZ");
        tzset();
    };
    const auto restoreOnFailure = qScopeGuard(restoreZone);
    qputenv("TZ", "ABC-12"); // POSIX: UTC+12 all year, no zone file needed
    tzset();
    QCOMPARE(QDateTime(kLedgerDay, QTime(0, 10)).toUTC().date(), kLedgerDay.addDays(-1));
    HistoryStore store;
    QCOMPARE(store.open(dbPath()).status, OpenResult::Status::Created);
    const QDate first = kLedgerDay;
    const QUuid send = QUuid::createUuid();
    UsageRecord refused;
    refused.time = QDateTime(first, QTime(23, 50)).toUTC();
    refused.profile = u"free"_s;
    refused.endpoint = u"demo"_s;
    refused.model = u"llama"_s;
    refused.send = send;
    refused.request = 1;
    refused.attempt = 1;
    refused.status = 429;
    refused.category = u"rate_limit"_s;
    refused.promptTokens = 100;
    UsageRecord answered = refused;
    answered.time = QDateTime(first.addDays(1), QTime(0, 10)).toUTC();
    answered.profile = u"work"_s;
    answered.model = u"gpt-4o-mini"_s;
    answered.attempt = 2;
    answered.status = 200;
    answered.category.clear();
    answered.completionTokens = 40;
    answered.cost = 0.25;
    answered.costSource = CostSource::Provider;
    answered.waitedMs = 20 * 60'000;
    answered.waitSource = u"retry-after"_s;
    QVERIFY(store.addUsage(refused));
    const Insights before = store.insights({ first, first, {}, {} });
    QCOMPARE(before.notAnswered, 1); // refused so far
    QVERIFY(store.addUsage(answered));

    const Insights firstDay = store.insights({ first, first, {}, {} });
    QCOMPARE(firstDay.days.size(), 1);
    QCOMPARE(firstDay.days.front().attempts, 1);
    QCOMPARE(firstDay.days.front().billed, 0.0);
    QCOMPARE(firstDay.refusals.value(u"rate_limit"_s), 1);
    QCOMPARE(firstDay.afterRetries, 1); // its answer the next day counts in how it ended
    QCOMPARE(firstDay.notAnswered, 0);
    QCOMPARE(firstDay.firstTime + firstDay.parkedThenAnswered, 0);

    const Insights nextDay = store.insights({ first.addDays(1), first.addDays(1), {}, {} });
    QCOMPARE(nextDay.days.size(), 1);
    QCOMPARE(nextDay.days.front().attempts, 1);
    QCOMPARE(nextDay.days.front().billed, 0.25);
    QCOMPARE(
        nextDay.waitSources.value(u"retry-after"_s), (std::pair<qint64, qint64>(1, 1'200'000)));
    QCOMPARE(
        nextDay.firstTime + nextDay.afterRetries + nextDay.parkedThenAnswered + nextDay.notAnswered,
        0); // no send began that day

    const Insights both = store.insights({ first, first.addDays(1), {}, {} });
    QCOMPARE(both.days.size(), 2);
    QCOMPARE(both.afterRetries, 1); // once, not once a day
    QCOMPARE(both.profiles, (QStringList { u"free"_s, u"work"_s }));
    QCOMPARE(both.models, (QStringList { u"gpt-4o-mini"_s, u"llama"_s }));
    QCOMPARE(both.firstDay, first);

    // Under the profile and model of its first attempt, not the fallback's.
    QCOMPARE(store.insights({ {}, {}, u"free"_s, {} }).afterRetries, 1);
    QCOMPARE(store.insights({ {}, {}, u"work"_s, {} }).afterRetries, 0);
    QCOMPARE(store.insights({ {}, {}, u"work"_s, {} }).days.size(), 1);
    QCOMPARE(store.insights({ {}, {}, {}, u"llama"_s }).afterRetries, 1);
    QCOMPARE(store.insights({ {}, {}, {}, u"gpt-4o-mini"_s }).afterRetries, 0);
    QCOMPARE(store.insights({ {}, {}, u"free"_s, u"gpt-4o-mini"_s }).days.size(), 0);

    restoreZone();
    const Insights home = store.insights({});
    QCOMPARE(home.days.size(), 2);
    QCOMPARE(home.days.at(0).day, first);
    QCOMPARE(home.days.at(1).day, first.addDays(1));
}
