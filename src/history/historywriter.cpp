#include "historywriter.h"

#include "historylogging.h"

#include <algorithm>
#include <cerrno>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace capwatch::history {

using namespace Qt::StringLiterals;

namespace {
[[maybe_unused]] constexpr int kWriterNiceSteps = 10;
}

HistoryWriter::HistoryWriter(QObject *parent)
    : QObject(parent)
    , m_context(new QObject)
{
    m_thread.setObjectName(u"capwatch-history"_s);
    m_context->moveToThread(&m_thread);
    // Writing is background work: on a machine with few cores, storing a long answer (10 ms of
    // CPU for a megabyte) must not take the core the window paints on. Ten steps of nice below
    // the thread that made it give the writer a tenth of that thread's share while they contend,
    // and all of an idle core. Linux keeps a nice per thread; QThread::setPriority() has nothing
    // between normal and SCHED_IDLE, which could starve the writer on a busy machine.
    connect(&m_thread, &QThread::started, m_context, [] {
#ifdef Q_OS_LINUX
        const id_t self = id_t(gettid());
        errno = 0;
        const int now = getpriority(PRIO_PROCESS, self);
        if ((now != -1 || errno == 0)
            && setpriority(PRIO_PROCESS, self, std::min(now + kWriterNiceSteps, 19)) != 0)
            qCDebug(lcHistory) << "could not lower the writer thread's priority";
#endif
    });
    m_thread.start();
}

HistoryWriter::~HistoryWriter()
{
    release();
    enqueue([this](HistoryStore &store) {
        store.close();
        m_thread.quit();
    });
    m_thread.wait();
    delete m_context;
}

void HistoryWriter::enqueue(Job job)
{
    QMutexLocker lock(&m_mutex);
    m_queue.push_back(std::move(job));
    postDrain(lock);
}

void HistoryWriter::postDrain(QMutexLocker<QMutex> &lock)
{
    if (m_drainPosted || m_held || m_queue.empty())
        return;
    m_drainPosted = true;
    lock.unlock();
    QMetaObject::invokeMethod(
        m_context, [this] { drain(); }, Qt::QueuedConnection);
}

void HistoryWriter::hold()
{
    QMutexLocker lock(&m_mutex);
    m_held = true;
}

void HistoryWriter::release()
{
    QMutexLocker lock(&m_mutex);
    m_held = false;
    postDrain(lock);
}

void HistoryWriter::drain()
{
    for (;;) {
        std::deque<Job> jobs;
        {
            QMutexLocker lock(&m_mutex);
            if (m_queue.empty()) {
                m_drainPosted = false;
                return;
            }
            jobs.swap(m_queue);
            m_running = int(jobs.size());
        }
        for (Job &job : jobs) {
            job(m_store);
            QMutexLocker lock(&m_mutex);
            --m_running;
        }
    }
}

int HistoryWriter::pending() const
{
    QMutexLocker lock(&m_mutex);
    return int(m_queue.size()) + m_running;
}

void HistoryWriter::report(const QString &error)
{
    QMetaObject::invokeMethod(
        this, [this, error] { Q_EMIT writeFailed(error); }, Qt::QueuedConnection);
}

void HistoryWriter::enqueueWrite(std::function<bool(HistoryStore &)> write)
{
    enqueue([this, write = std::move(write)](HistoryStore &store) {
        if (!write(store))
            report(store.lastError());
    });
}

void HistoryWriter::open(const QString &path, const OpenOptions &options)
{
    m_openQueued = true;
    enqueue([this, path, options](HistoryStore &store) {
        const OpenResult result = store.open(path, options);
        QMetaObject::invokeMethod(
            this, [this, result] { Q_EMIT opened(result); }, Qt::QueuedConnection);
    });
}

void HistoryWriter::openInMemory()
{
    m_openQueued = true;
    enqueue([this](HistoryStore &store) {
        const OpenResult result = store.openInMemory();
        QMetaObject::invokeMethod(
            this, [this, result] { Q_EMIT opened(result); }, Qt::QueuedConnection);
    });
}

void HistoryWriter::close()
{
    m_openQueued = false;
    enqueue([this](HistoryStore &store) {
        store.close();
        QMetaObject::invokeMethod(
            this, [this] { Q_EMIT closed(); }, Qt::QueuedConnection);
    });
}

void HistoryWriter::flush()
{
    enqueue([this](HistoryStore &) {
        QMetaObject::invokeMethod(
            this, [this] { Q_EMIT flushed(); }, Qt::QueuedConnection);
    });
}

// The times are taken here, when the event happens, not when the worker gets to it.
QUuid HistoryWriter::addConversation(Conversation conversation)
{
    if (conversation.id.isNull())
        conversation.id = QUuid::createUuid();
    if (!conversation.created.isValid())
        conversation.created = QDateTime::currentDateTimeUtc();
    const QUuid id = conversation.id;
    enqueueWrite([conversation](
                     HistoryStore &store) mutable { return store.addConversation(conversation); });
    return id;
}

QUuid HistoryWriter::addMessage(Message message)
{
    if (message.id.isNull())
        message.id = QUuid::createUuid();
    if (!message.created.isValid())
        message.created = QDateTime::currentDateTimeUtc();
    const QUuid id = message.id;
    enqueueWrite([message](HistoryStore &store) mutable { return store.addMessage(message); });
    return id;
}

void HistoryWriter::finishMessage(const QUuid &id, QString text, MessageState state,
    QDateTime ended, std::optional<MessageUsage> usage, qsizetype storedChars, AnswerEnding ending)
{
    if (!ended.isValid())
        ended = QDateTime::currentDateTimeUtc();
    // Moved on to the store, which lets it go before the write (HistoryStore::finishMessage()).
    enqueueWrite([id, text = std::move(text), state, ended, usage, storedChars,
                     ending = std::move(ending)](HistoryStore &store) mutable {
        if (storedChars >= 0 && storedChars < text.size())
            text.truncate(storedChars); // a copy of that much, here, if the caller still has it
        return store.finishMessage(id, std::move(text), state, ended, usage, ending);
    });
}

void HistoryWriter::setMessageUsage(
    const QUuid &id, std::optional<qint64> promptTokens, std::optional<qint64> completionTokens)
{
    enqueueWrite([id, promptTokens, completionTokens](HistoryStore &store) {
        return store.setMessageUsage(id, promptTokens, completionTokens);
    });
}

void HistoryWriter::replaceMessage(const QUuid &id)
{
    enqueueWrite([id](HistoryStore &store) { return store.replaceMessage(id); });
}

QUuid HistoryWriter::addSend(Send send)
{
    if (send.id.isNull())
        send.id = QUuid::createUuid();
    if (!send.started.isValid())
        send.started = QDateTime::currentDateTimeUtc();
    const QUuid id = send.id;
    enqueueWrite([send](HistoryStore &store) mutable { return store.addSend(send); });
    return id;
}

void HistoryWriter::finishSend(const QUuid &id, SendOutcome outcome, retry::EndReason reason,
    int attempts, qint64 waitedMs, QDateTime ended)
{
    if (!ended.isValid())
        ended = QDateTime::currentDateTimeUtc();
    enqueueWrite([=](HistoryStore &store) {
        return store.finishSend(id, outcome, reason, attempts, waitedMs, ended);
    });
}

void HistoryWriter::addRetryRecord(const QUuid &send, const RetryRecord &record)
{
    enqueueWrite(
        [send, record](HistoryStore &store) { return store.addRetryRecord(send, record); });
}

QUuid HistoryWriter::addParkedSend(ParkedSend parked)
{
    if (parked.id.isNull())
        parked.id = QUuid::createUuid();
    if (!parked.parkedAt.isValid())
        parked.parkedAt = QDateTime::currentDateTimeUtc();
    const QUuid id = parked.id;
    enqueueWrite([parked](HistoryStore &store) mutable { return store.addParkedSend(parked); });
    return id;
}

void HistoryWriter::removeParkedSend(const QUuid &id)
{
    // One already gone with its conversation (deleted, retention, Clear history in another
    // process) is no failure to report: what was asked for holds.
    enqueueWrite([id](HistoryStore &store) {
        store.removeParkedSend(id);
        return true;
    });
}

void HistoryWriter::saveProviderWindow(ProviderWindowRecord window)
{
    if (!window.receivedAt.isValid())
        window.receivedAt = QDateTime::currentDateTimeUtc();
    enqueueWrite([window](HistoryStore &store) { return store.saveProviderWindow(window); });
}

void HistoryWriter::renameConversation(const QUuid &id, const QString &title)
{
    enqueueWrite([id, title](HistoryStore &store) { return store.renameConversation(id, title); });
}

void HistoryWriter::deleteConversation(const QUuid &id)
{
    enqueueWrite([id](HistoryStore &store) { return store.deleteConversation(id); });
}

void HistoryWriter::deleteOlderThan(int days)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    enqueueWrite(
        [days, now](HistoryStore &store) { return store.deleteOlderThan(days, now) >= 0; });
}

void HistoryWriter::clear(bool usage)
{
    enqueueWrite([usage](HistoryStore &store) { return store.clear(usage); });
}

void HistoryWriter::addUsage(UsageRecord record)
{
    if (!record.time.isValid())
        record.time = QDateTime::currentDateTimeUtc();
    enqueueWrite([record](HistoryStore &store) { return store.addUsage(record); });
}

} // namespace capwatch::history
