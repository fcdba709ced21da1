#pragma once

// One conversation's rows in the history, as its session writes them while its sends happen
// (docs/session.md): the conversation itself (written with its first prompt, so an empty one
// never clutters the history), each send with its user message, its answer and its retry
// records, and the last exchange that Regenerate or Edit and resend replaces. Every write is
// queued on the HistoryWriter and returns at once; a read is answered later, on the GUI thread.

#include "history/historywriter.h"
#include "net/retrylog.h"
#include "send.h"

#include <QObject>
#include <QPointer>
#include <QUuid>
#include <functional>
#include <optional>

namespace capwatch::session {

/// The most of an answer the history stores (2 MB): what capwatch-cli holds in memory for it,
/// however long the answer it streams through. A longer answer is stored cut there, as CutOff.
inline constexpr qsizetype kMaxStoredAnswerChars = 1'000'000;

class StoredConversation final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StoredConversation)

public:
    explicit StoredConversation(QObject *parent = nullptr);

    /// Where it is stored; null stores nothing (--private, tests). Not owned. Forgets the
    /// conversation: the next send starts a new stored one.
    void setWriter(history::HistoryWriter *writer);
    history::HistoryWriter *writer() const { return m_writer; }
    /// Null until its first send is stored.
    QUuid id() const { return m_id; }
    /// The profile stored with it.
    QString profile() const { return m_profile; }

    /// What a stored conversation read back holds, converted on the writer's thread.
    struct Loaded
    {
        std::optional<history::Conversation> conversation;
        QList<history::Message> messages; ///< without the ones replaced
        QList<history::Send> sends;
        QList<net::RetryRecord> records;
        QHash<QUuid, history::CostTotal> costs; ///< HistoryStore::conversationCosts()
    };
    /// Reads conversation `id` after every write queued before; `done` runs on `context`'s
    /// thread. False when there is no writer.
    bool load(const QUuid &id, QObject *context, std::function<void(Loaded)> done) const;
    /// From now on it is `id` (null: a new one, not stored yet), with its stored profile and
    /// last message; `lastExchange`: the prompt and answer Regenerate would replace.
    void show(const QUuid &id, const QString &profile, const QUuid &lastMessage,
        std::pair<QUuid, QUuid> lastExchange = {});
    /// Its profile changed (stored when it is stored; not a new message).
    void setProfile(const QString &profile);
    /// Takes `other`'s conversation; `other` is a new one afterwards.
    void takeFrom(StoredConversation &other);

    /// Regenerate, Edit and resend: the last exchange's stored messages are marked Replaced.
    void replaceLastExchange();
    /// Before `send`'s request goes out: the conversation (made from `header` when it is not
    /// stored yet), its user message (`reuse`: the same prompt's stored one, sent again) and the
    /// send; its rows go to Send::rows().
    void startSend(
        Send &send, const QString &prompt, const QUuid &reuse, const history::Conversation &header);
    /// A prompt held by a limit and parked before any request: the conversation (made from
    /// `header` when it is not stored yet) and its user message, without a send. Returns the
    /// message's id (null without a writer).
    QUuid storeHeldPrompt(const QString &prompt, const history::Conversation &header);
    /// Before a continuation's request goes out (Continue): its send, of the stored `prompt`,
    /// whose stored `answer` it goes on with; nothing new is stored for its prompt or answer.
    void startContinuation(Send &send, const QUuid &prompt, const QUuid &answer);
    /// At the first text of its answer: the answer, Pending until the send ends.
    void startAnswer(Send &send);
    /// The send ended: its answer (at most kMaxStoredAnswerChars of it), usage and outcome.
    /// `lastExchange`: an answered send is the exchange Regenerate replaces.
    void endSend(Send &send, const net::SendSummary &summary, bool lastExchange);
    /// A record of `send`'s cycle while it runs (its own request's only).
    void addRecord(const Send &send, const net::RetryRecord &record);
    /// One attempt of `send` in the usage ledger, with this conversation and the send's row.
    void addUsage(const Send &send, history::UsageRecord usage);
    /// A record of a send that ended (parked, unparked, fallback), stored with it.
    void addEndedRecord(const QUuid &storedSend, const net::RetryRecord &record);

Q_SIGNALS:
    /// The first write of a new conversation was queued (the sidebar inserts a row).
    void stored(const QUuid &id);
    /// A message, send or record of it was queued (the sidebar moves it to the top, marks it).
    void updated(const QUuid &id);

private:
    /// The conversation, made from `header` when it is not stored yet (a writer is needed).
    void storeIfNew(const history::Conversation &header);
    /// A user message of `prompt` at the conversation's end; its id.
    QUuid addPrompt(const QString &prompt);

    QPointer<history::HistoryWriter> m_writer;
    QUuid m_id;
    QString m_profile;
    QUuid m_lastPrompt; ///< the last exchange's rows; null when there is none (or not stored)
    QUuid m_lastAnswer;
    QUuid m_lastMessage; ///< the conversation's last stored message, stored or restored
};

} // namespace capwatch::session
