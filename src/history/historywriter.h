#pragma once

// The history as the GUI thread uses it: every call returns at once, and the work runs in order
// on a worker thread that owns the HistoryStore (and so its own Qt SQL connection). The ids of
// new rows are made on the caller's side (QUuid::createUuid()), so they are known at once and
// never collide with another process's. Reads run on the same queue, after every write queued
// before them, and hand their result back to the thread that made the writer.

#include "history/historystore.h"

#include <QMutex>
#include <QObject>
#include <QPointer>
#include <QThread>
#include <deque>
#include <functional>
#include <type_traits>

namespace capwatch::history {

class HistoryWriter final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryWriter)

public:
    explicit HistoryWriter(QObject *parent = nullptr);
    /// Writes whatever is still queued, closes the database and ends the worker thread: at
    /// shutdown the only wait, for writes of well under a millisecond each.
    ~HistoryWriter() override;

    /// opened() tells how it went (banner material: moved aside, newer version, ...).
    void open(const QString &path, const OpenOptions &options = {});
    void openInMemory();
    /// True once open() or openInMemory() was called (and close() not since): a read() queued
    /// now runs on the opened store. Before it, a read finds no database.
    bool openQueued() const { return m_openQueued; }
    /// After the queued writes; closed() when done. Later writes fail (writeFailed()).
    void close();
    /// Until release(), calls queue their work in order and none of it runs: a window holds
    /// its history until its first paint, so opening the database (the SQL driver, SQLite,
    /// 1.4 MiB resident) does not come before it. The destructor releases a held writer.
    void hold();
    void release();

    // Each write returns at once; the id returned is the row's, already made.
    QUuid addConversation(Conversation conversation);
    QUuid addMessage(Message message);
    /// HistoryStore::finishMessage(); `text` is shared with the worker, not copied, and let go
    /// there before the write. With `storedChars` >= 0 only that many characters of it are
    /// stored, cut on the worker's thread: a window's 20 MB answer is not copied on the GUI
    /// thread to store its first 1,000,000 characters (2 MB of fresh memory, 10 ms measured).
    void finishMessage(const QUuid &id, QString text, MessageState state, QDateTime ended = {},
        std::optional<MessageUsage> usage = {}, qsizetype storedChars = -1,
        AnswerEnding ending = {});
    void setMessageUsage(const QUuid &id, std::optional<qint64> promptTokens,
        std::optional<qint64> completionTokens);
    /// The message is not restored any more (HistoryStore::replaceMessage()).
    void replaceMessage(const QUuid &id);
    QUuid addSend(Send send);
    void finishSend(const QUuid &id, SendOutcome outcome, retry::EndReason reason, int attempts,
        qint64 waitedMs, QDateTime ended = {});
    void addRetryRecord(const QUuid &send, const RetryRecord &record);
    /// Stored when a send is parked, removed when it goes out or is cancelled
    /// (HistoryStore::addParkedSend(), removeParkedSend()); read them with read().
    QUuid addParkedSend(ParkedSend parked);
    void removeParkedSend(const QUuid &id);
    /// HistoryStore::saveProviderWindow(); read them back with read().
    void saveProviderWindow(ProviderWindowRecord window);
    void renameConversation(const QUuid &id, const QString &title);
    /// HistoryStore::setConversationProfile().
    void setConversationProfile(const QUuid &id, const QString &profile);
    void deleteConversation(const QUuid &id);
    void deleteOlderThan(int days);
    /// HistoryStore::clear(): the usage ledger too only with `usage`.
    void clear(bool usage = false);
    /// One attempt in the usage ledger (HistoryStore::addUsage()), its own write.
    void addUsage(UsageRecord record);

    /// Runs `job(store)` on the worker after everything queued before it, then `done(result)` on
    /// this writer's thread, unless `context` is gone by then.
    template<class Job, class Done> void read(QObject *context, Job job, Done done)
    {
        using Result = std::invoke_result_t<Job &, HistoryStore &>;
        QPointer<QObject> guard(context);
        enqueue([this, guard, job = std::move(job), done = std::move(done)](
                    HistoryStore &store) mutable {
            Result result = job(store);
            QMetaObject::invokeMethod(
                this,
                [guard, done, result = std::move(result)]() mutable {
                    if (guard)
                        done(std::move(result));
                },
                Qt::QueuedConnection);
        });
    }

    /// flushed() once everything queued before this call is written.
    void flush();
    /// Jobs queued and not yet done.
    int pending() const;

Q_SIGNALS:
    void opened(const capwatch::history::OpenResult &result);
    void writeFailed(const QString &error);
    void flushed();
    void closed();

private:
    using Job = std::function<void(HistoryStore &)>;
    void enqueue(Job job);
    /// Posts a drain to the worker unless one is due, the writer is held or nothing is queued;
    /// unlocks `lock` to post it.
    void postDrain(QMutexLocker<QMutex> &lock);
    /// A write job: a failure is reported with writeFailed().
    void enqueueWrite(std::function<bool(HistoryStore &)> write);
    void drain(); ///< on the worker thread
    void report(const QString &error); ///< from the worker thread

    QThread m_thread;
    bool m_openQueued = false; ///< openQueued(); used on the writer's own thread
    QObject *m_context = nullptr; ///< lives on m_thread: the target of the queued drain calls
    HistoryStore m_store; ///< used on m_thread only
    mutable QMutex m_mutex;
    std::deque<Job> m_queue;
    int m_running = 0;
    bool m_drainPosted = false;
    bool m_held = false;
};

} // namespace capwatch::history
