#pragma once

// The history database: one SQLite file (WAL) through Qt SQL's QSQLITE driver. A HistoryStore
// is one connection and belongs to the thread that made it (Qt SQL connections are per thread);
// the GUI uses it through HistoryWriter's worker thread, the CLI directly. Every write is its own
// short transaction unless the caller groups several with begin()/commit(), so a killed process
// loses at most the write in flight. Several stores, in one process or several, may use the same
// file at once.

#include "history/historytypes.h"
#include "history/schema.h"

#include <QHash>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QVariantList>
#include <functional>
#include <memory>

namespace capwatch::history {

class PrivateFiles;

struct OpenOptions
{
    /// Empty: schemaMigrations(). Tests give their own list.
    std::vector<Migration> migrations;
    /// Reads every page once on open (PRAGMA quick_check) so a damaged file is found then, not
    /// in the middle of a session. Costs about a second per 100 MB.
    bool checkIntegrity = true;
    /// False: closing leaves the write-ahead log as it is, for a later writer to fold into the
    /// file (SQLite's SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE). A short-lived program then exits without
    /// copying what it wrote into the file a second time and syncing both: capwatch-cli chat.
    bool checkpointOnClose = true;
};

struct OpenResult
{
    enum class Status
    {
        Opened, ///< an existing database (migrated when fromVersion < version)
        Created, ///< a new, empty one
        Recovered, ///< the old file could not be used: moved to `movedTo`, a new one started
        NewerVersion, ///< made by a newer capwatch: left untouched; history is off this run
        Unavailable ///< no database could be opened or made: history is off this run
    };
    Status status = Status::Unavailable;
    QString path;
    QString movedTo; ///< Recovered: where the old file (and its -wal, -shm) went
    QString reason; ///< why it was moved, refused or unavailable (SQLite's words)
    int fromVersion = 0; ///< the file's schema version before opening
    int version = 0; ///< after opening
    /// Every page of the file was read and found sound on this open (OpenOptions::
    /// checkIntegrity), or the file is new (Created, Recovered).
    bool pagesChecked = false;
    /// What could not be made private to this user (the folder 0700, the database, its -wal and
    /// -shm 0600: a file of another user, a read-only file system), one sentence each. It never
    /// stops the open; message() says it.
    QStringList privacyProblems;

    /// History goes to disk (Opened, Created, Recovered). Otherwise the store keeps this run's
    /// history in memory only, so callers need no second code path.
    bool persistent() const;
    /// One English sentence for logs and the CLI; the window words its banner from the fields.
    QString message() const;
};

class HistoryStore final
{
public:
    HistoryStore();
    ~HistoryStore();
    HistoryStore(const HistoryStore &) = delete;
    HistoryStore &operator=(const HistoryStore &) = delete;

    /// `GenericDataLocation/capwatch/history.sqlite` (`~/.local/share/capwatch/history.sqlite`):
    /// the one file the window and capwatch-cli share.
    static QString defaultPath();
    static int latestVersion();

    /// Opens (creating, migrating or recovering) the database at `path`. Never throws; whatever
    /// the file, the store is usable afterwards (in memory when the result is not persistent).
    /// For the current user only (issue 30): the folders it makes are 0700, the database is made
    /// 0600 before SQLite opens it (so its -wal and -shm are too), and an existing database, its
    /// -wal and -shm, and capwatch's own folder (not a folder the user named) are tightened
    /// (PrivateFiles).
    OpenResult open(const QString &path, const OpenOptions &options = {});
    /// Nothing on disk (`--private`).
    OpenResult openInMemory();
    void close();
    bool isOpen() const;
    bool isPersistent() const { return m_persistent; }
    QString path() const { return m_path; }
    QString lastError() const { return m_lastError; }

    // --- writes -------------------------------------------------------------------------------
    // Each returns false (and sets lastError()) when nothing was written.

    /// Groups the writes until commit() in one transaction (BEGIN IMMEDIATE).
    bool begin();
    bool commit();
    void rollback();

    /// Fills in the id (when null) and the times (when invalid).
    bool addConversation(Conversation &conversation);
    bool renameConversation(const QUuid &id, const QString &title);
    /// The profile (its id) the conversation's next sends go to (schema v4; issue 17). Does not
    /// move the conversation's `updated`.
    bool setConversationProfile(const QUuid &id, const QString &profile);
    /// With its messages, sends and retry records.
    bool deleteConversation(const QUuid &id);
    /// The first user message of an untitled conversation names it (titleFor()).
    bool addMessage(Message &message);
    /// Sets the final text and state of a message stored Pending (or replaces a stored one), and
    /// its usage when given: one write of the row, which SQLite rewrites whole on any change of
    /// it (the usage as a second write of a 1,000,000-character answer: 1 MB more in the log,
    /// 3.5 ms, and 5 ms more for the checkpoint at close). The text goes to SQLite as UTF-8, and
    /// `text` is let go before the write: moved in with no other holder, a long answer is in
    /// memory once as UTF-8 (1 MB) instead of as UTF-16 (2 MB) beside SQLite's UTF-8 of it.
    /// `ending`: how the answer ended and its seams (None and none: left NULL).
    bool finishMessage(const QUuid &id, QString text, MessageState state,
        const QDateTime &ended = {}, const std::optional<MessageUsage> &usage = {},
        const AnswerEnding &ending = {});
    /// What an answer used, as its provider reported it; an unset figure is stored as NULL.
    bool setMessageUsage(const QUuid &id, std::optional<qint64> promptTokens,
        std::optional<qint64> completionTokens);
    /// Marks a stored message Replaced; its text, times and send stay as they are.
    bool replaceMessage(const QUuid &id);
    bool addSend(Send &send);
    bool finishSend(const QUuid &id, SendOutcome outcome, retry::EndReason reason, int attempts,
        qint64 waitedMs, const QDateTime &ended = {});
    bool addRetryRecord(const QUuid &send, const RetryRecord &record);
    /// Fills in the id (when null) and parkedAt (when invalid); a provider that is an endpoint is
    /// stored as storableEndpoint() makes it. Fails without a due time, with an id already stored,
    /// or when its conversation, message or (when not null) send is not stored. Leaves the
    /// conversation's `updated` alone: parking is no new activity in it.
    bool addParkedSend(ParkedSend &parked);
    /// False (and lastError()) when there is no such parked send, as deleteConversation(): one
    /// deleted with its conversation (deleteConversation(), deleteOlderThan(), clear()) is gone.
    bool removeParkedSend(const QUuid &id);
    /// Deletes the conversations last updated before `now - days`; the number deleted, or -1.
    int deleteOlderThan(int days, const QDateTime &now = QDateTime::currentDateTimeUtc());
    /// Deletes everything and rewrites the file (VACUUM) so no deleted text stays in it; the
    /// usage ledger too only with `usage` (it outlives the conversations it counts).
    bool clear(bool usage = false);
    /// Appends one attempt to the usage ledger (schema v8), in its own transaction unless one is
    /// open; the endpoint is stored as storableEndpoint() makes it, an invalid time as now.
    bool addUsage(const UsageRecord &record);

    // --- reads --------------------------------------------------------------------------------

    std::optional<Conversation> conversation(const QUuid &id);
    /// Newest first, `limit` at a time; pass the previous page's `next` for the following one.
    ConversationPage conversations(int limit, const PageCursor &after = {});
    int conversationCount();
    int messageCount(const QUuid &conversation);
    /// In the order stored; `limit` < 0: all from `offset`.
    QList<Message> messages(const QUuid &conversation, int offset = 0, int limit = -1);
    std::optional<Message> message(const QUuid &id);
    QList<Send> sends(const QUuid &conversation);
    /// A conversation's retry log, in the order logged.
    QList<StoredRetryRecord> retryRecords(const QUuid &conversation);
    /// Every record with since <= time < until (an invalid bound: open), oldest first, across
    /// conversations, handed one at a time (a million do not fit a list); `visit` returns false
    /// to stop. False on a database error.
    bool forEachRetryRecord(const QDateTime &since, const QDateTime &until,
        const std::function<bool(const StoredRetryRecord &)> &visit);
    qint64 retryRecordCount();
    /// Every usage row with since <= time < until (an invalid bound: open), oldest first, one at
    /// a time; `visit` returns false to stop. A database without the table (older than v8)
    /// has none. False on a database error.
    bool forEachUsage(const QDateTime &since, const QDateTime &until,
        const std::function<bool(const UsageRecord &)> &visit);
    /// The usage rows of these conversations (null: the rows of none) from before `since` or
    /// from `until` on (an invalid bound: none on that side), oldest first within each few hundred
    /// conversations: the other attempts of sends that have some in a span (capwatch-cli usage
    /// counts a send once, by its first attempt, with how all its attempts went). False on a
    /// database error.
    bool forEachUsageAround(const QList<QUuid> &conversations, const QDateTime &since,
        const QDateTime &until, const std::function<bool(const UsageRecord &)> &visit);
    qint64 usageCount();
    /// The usage rows after row `afterId` that ended at `sinceMs` or later (UTC ms), oldest
    /// first, at most `limit` of them: what the limits count, read again as other processes add.
    QList<UsageTick> usageTicks(qint64 afterId, qint64 sinceMs, int limit = 100'000);
    /// The largest usage row id (0 when none): smaller than one read before, the ledger was
    /// cleared since.
    qint64 usageMaxId();
    /// The ledger's rows of `conversation` summed by the user message their send sent (rows of
    /// no stored send are left out), and all of them under a null key.
    QHash<QUuid, CostTotal> conversationCosts(const QUuid &conversation);
    /// The ledger of `query`'s span summed by local day, model, profile and endpoint, with the
    /// refusals, the wait sources and the sends' outcomes (historyinsights.cpp).
    Insights insights(const InsightsQuery &query);
    /// Every parked send of every conversation, the first due first (then by parkedAt, then as
    /// stored), with its prompt and title. A row that cannot be read (a bad id, its conversation
    /// or message missing) is left out with a warning; a database error gives an empty list and
    /// a warning (being const, it does not set lastError()).
    QList<ParkedSend> parkedSends() const;
    /// Stores `window` in place of the row of its provider and model (schema v3), whatever that
    /// row's time; the provider is stored as storableEndpoint() makes it. False (and lastError())
    /// on a write error. Kept over deleteConversation() and retention; clear() deletes them.
    bool saveProviderWindow(const ProviderWindowRecord &window);
    /// Every stored window report, the latest received first. A cell that is not a number (a
    /// hand-edited file) reads as unset (a row without a time last); a database error gives an
    /// empty list and a warning (being const, it does not set lastError()).
    QList<ProviderWindowRecord> providerWindows() const;
    /// Conversations with a message holding every word of `text` (the last word may be the start
    /// of one, for search as you type), those with the newest matching message first.
    QList<SearchHit> search(const QString &text, int limit = 50);
    /// False when the SQLite library has no FTS5 and search() falls back to LIKE.
    bool hasFullTextSearch() const { return m_hasFts; }
    /// PRAGMA integrity_check: "ok", or the problems found.
    QString integrityCheck();

    /// The first words of a prompt, as a conversation's title.
    static QString titleFor(const QString &prompt);
    /// The endpoint as stored: without user info, query and fragment, which can carry a key.
    static QString storableEndpoint(const QString &endpoint);

private:
    struct Statements;

    /// open() once the folder and the files there are private: probe, create, recover, migrate.
    OpenResult openPrivately(
        const QString &path, const OpenOptions &options, PrivateFiles &privacy);
    void leaveCheckpointToNextOpen();
    bool openFile(
        const QString &path, const std::vector<Migration> &migrations, OpenResult *result);
    void useMemory();
    bool configure(QString *error, bool *busy);
    bool migrate(const std::vector<Migration> &migrations, OpenResult *result);
    bool write(const std::function<bool()> &work);
    bool fail(const QString &context, const QString &error);
    /// A statement prepared once per connection (the writes that happen per record).
    QSqlQuery *prepared(const QString &sql);
    bool run(QSqlQuery *query, const QString &context);
    /// The internal key of the row with this UUID in `table`, 0 when there is none.
    qint64 keyOf(const QString &table, const QUuid &id);
    bool touch(qint64 conversationKey, const QDateTime &when, const QString &title);
    QList<Conversation> readConversations(
        const QString &where, const QVariantList &values, int limit, QList<qint64> *keys = nullptr);
    QList<Message> readMessages(
        const QString &where, const QVariantList &values, int offset, int limit);
    qint64 count(const QString &sql, const QVariantList &values);
    /// FTS5's snippets of the messages `rows` for the query `match`, by rowid.
    QHash<qint64, QString> ftsSnippets(const QString &match, const QList<qint64> &rows);

    QSqlDatabase m_db;
    QString m_connection;
    QString m_path;
    QString m_lastError;
    bool m_persistent = false;
    bool m_hasFts = false;
    bool m_inTransaction = false;
    std::unique_ptr<Statements> m_statements;
};

} // namespace capwatch::history
