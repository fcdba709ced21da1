// ChatSession's history: what it stores as a send happens, and how a stored conversation comes
// back. Every write is queued on the HistoryWriter and returns at once (docs/session.md).

#include "chatsession.h"
#include "sessionlogging.h"
#include "storedrecords.h"

#include <QTimer>
#include <algorithm>

namespace capwatch::session {

using namespace Qt::StringLiterals;

struct ChatSession::Loaded
{
    std::optional<history::Conversation> conversation;
    QList<history::Message> messages;
    QList<history::Send> sends;
    QList<net::RetryRecord> records;
};

namespace {

history::SendOutcome outcomeOf(net::SendSummary::Outcome outcome)
{
    switch (outcome) {
    case net::SendSummary::Outcome::Succeeded:
        return history::SendOutcome::Succeeded;
    case net::SendSummary::Outcome::GaveUp:
        return history::SendOutcome::GaveUp;
    case net::SendSummary::Outcome::Cancelled:
        break;
    }
    return history::SendOutcome::Cancelled;
}

} // namespace

void ChatSession::setHistory(history::HistoryWriter *writer)
{
    if (writer == m_writer)
        return;
    // The send in flight and the conversation belong to the old database (or to none).
    m_writer = writer;
    if (m_current)
        m_current->rows() = {};
    m_lastStoredPrompt = {};
    m_lastStoredAnswer = {};
    m_conversation = {};
    m_conversationProfile.clear();
}

void ChatSession::newConversation()
{
    ++m_restoreToken; // a restore still being read is dropped
    m_restorePending = false;
    leaveSend(); // it goes on in its own conversation (or is cancelled without a carrier)
    m_lastStoredMessage = {};
    dropLastSend(); // its state belongs to the conversation shown before
    renewClient(); // its sends are numbered from Send 1
    m_history.clear();
    clearLeftOut();
    m_failedPrompt.clear();
    m_hasLastExchange = false;
    m_editing = false;
    m_conversation = {};
    m_conversationProfile.clear();
    m_lastStoredPrompt = {};
    m_lastStoredAnswer = {};
    ++m_view;
    m_log->clear();
    Q_EMIT conversationChanged(QUuid());
}

void ChatSession::openConversation(const QUuid &id)
{
    const quint64 token = ++m_restoreToken;
    m_restorePending = true;
    if (!m_writer) {
        QTimer::singleShot(0, this, [this, id, token] {
            if (token == m_restoreToken)
                Q_EMIT restoreFailed(id, u"history is off (--private)"_s);
        });
        return;
    }
    // Read and converted on the writer's thread, after every write queued before: the GUI
    // thread only swaps the lists in.
    m_writer->read(
        this,
        [id](history::HistoryStore &store) {
            Loaded loaded;
            loaded.conversation = store.conversation(id);
            if (!loaded.conversation)
                return loaded;
            loaded.messages = store.messages(id);
            // What the window replaced (Regenerate, Edit and resend) it no longer showed.
            loaded.messages.removeIf([](const history::Message &m) {
                return m.state == history::MessageState::Replaced;
            });
            loaded.sends = store.sends(id);
            const QList<history::StoredRetryRecord> stored = store.retryRecords(id);
            loaded.records.reserve(stored.size());
            for (const history::StoredRetryRecord &s : stored) {
                if (std::optional<net::RetryRecord> r = fromStored(s.record))
                    loaded.records.append(std::move(*r));
                else // kept in the file for a build that knows it
                    qCWarning(lcSession).noquote()
                        << u"history: a retry record of an unknown event (%1) is not shown"_s.arg(
                               s.record.event);
            }
            return loaded;
        },
        [this, id, token](Loaded loaded) {
            if (token != m_restoreToken)
                return;
            m_restorePending = false;
            applyRestore(id, std::move(loaded));
        });
}

void ChatSession::applyRestore(const QUuid &id, Loaded loaded)
{
    if (!loaded.conversation) {
        Q_EMIT restoreFailed(id, u"no such conversation in the history"_s);
        return;
    }
    leaveSend(); // it goes on in its own conversation (or is cancelled without a carrier)
    dropLastSend(); // its state belongs to the conversation shown before
    renewClient(); // numbered after the restored conversation's own sends (continueAfter())
    clearLeftOut();
    m_editing = false;
    m_failedPrompt.clear();
    m_hasLastExchange = false;
    m_lastStoredPrompt = {};
    m_lastStoredAnswer = {};

    // The context sent from now on: each user message answered in full, with its answer. An
    // answer cut off (or never finished) is shown but not sent, as for a failed send live; the
    // last prompt without a full answer is the one "Retry now" sends.
    m_history.clear();
    const QList<history::Message> &messages = loaded.messages;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const history::Message &m = messages.at(i);
        if (m.role != history::Role::User)
            continue;
        const bool answered = i + 1 < messages.size()
            && messages.at(i + 1).role == history::Role::Assistant
            && messages.at(i + 1).state == history::MessageState::Complete;
        if (answered) {
            m_history.append({ u"user"_s, m.text });
            m_history.append({ u"assistant"_s, messages.at(i + 1).text });
            m_hasLastExchange = i + 2 == messages.size();
            if (m_hasLastExchange) { // what Regenerate or Edit and resend would replace
                m_lastStoredPrompt = m.id;
                m_lastStoredAnswer = messages.at(i + 1).id;
            }
            m_failedPrompt.clear();
            ++i;
        } else {
            m_hasLastExchange = false;
            m_failedPrompt = m.text;
        }
    }

    m_conversation = id;
    m_conversationProfile = loaded.conversation->profile;
    ++m_view;
    m_lastStoredMessage = loaded.messages.isEmpty() ? QUuid() : loaded.messages.constLast().id;
    if (m_lot) { // a parked send of this conversation is this session's parked prompt
        const QList<history::ParkedSend> parked = m_lot->sendsOf(id);
        if (!parked.isEmpty() && !m_lot->isRunning(parked.constLast().id))
            adoptParked(parked.constLast());
    }
    quint64 highest = 0;
    for (const net::RetryRecord &r : std::as_const(loaded.records))
        highest = std::max(highest, quint64(std::max(0, r.request)));
    m_log->replace(std::move(loaded.records));
    m_client->continueAfter(highest); // new lanes never share a restored lane's number

    RestoredConversation restored;
    restored.id = id;
    restored.title = loaded.conversation->title;
    restored.endpoint = loaded.conversation->endpoint;
    restored.model = loaded.conversation->model;
    restored.profile = loaded.conversation->profile;
    restored.messages = std::move(loaded.messages);
    restored.sends = std::move(loaded.sends);
    Q_EMIT conversationChanged(id);
    Q_EMIT conversationRestored(restored);
}

void ChatSession::dropLastSend()
{
    if (m_current)
        m_current->deleteLater();
    m_current = nullptr;
}

std::optional<ProviderChoice> ChatSession::sendFallback() const
{
    return m_current ? m_current->route().fallback : std::nullopt;
}

void ChatSession::keepAnswerText(const QString &text)
{
    // The Send keeps the text itself (bounded as startSend() said).
    const Send::Rows &rows = m_current->rows();
    if (rows.open && !rows.send.isNull() && rows.answer.isNull() && !text.isEmpty())
        storeAnswerStart();
}

void ChatSession::storeReplacedExchange()
{
    const QUuid prompt = std::exchange(m_lastStoredPrompt, QUuid());
    const QUuid answer = std::exchange(m_lastStoredAnswer, QUuid());
    if (!m_writer)
        return;
    for (const QUuid &id : { prompt, answer }) {
        if (!id.isNull())
            m_writer->replaceMessage(id);
    }
}

void ChatSession::storeSendStart(const QString &prompt, const QUuid &reuse)
{
    Send::Rows &rows = m_current->rows(); // the request number is set once the client has it
    m_lastStoredPrompt = {}; // a new send: the last exchange is not the last one any more
    m_lastStoredAnswer = {};
    if (!m_writer)
        return;
    if (m_conversation.isNull()) {
        history::Conversation c; // untitled: the store names it from the first prompt
        c.endpoint
            = history::HistoryStore::storableEndpoint(m_endpoint.toString(QUrl::RemoveUserInfo));
        c.model = m_model;
        c.profile = m_choice.profile;
        m_conversationProfile = c.profile;
        m_conversation = m_writer->addConversation(c);
        Q_EMIT conversationStored(m_conversation);
    }
    history::Message message;
    message.conversation = m_conversation;
    message.role = history::Role::User;
    message.text = prompt;
    message.state = history::MessageState::Complete;
    history::Send send;
    send.conversation = m_conversation;
    // A parked prompt that goes out again is the same message, one more send of it, while it is
    // still the conversation's last message. When others came after it, its answer would come
    // after theirs: it is stored again at the end and the old one marked replaced.
    if (!reuse.isNull() && reuse == m_lastStoredMessage) {
        rows.prompt = reuse;
    } else {
        if (!reuse.isNull())
            m_writer->replaceMessage(reuse);
        rows.prompt = m_writer->addMessage(message);
    }
    m_lastStoredMessage = rows.prompt;
    send.message = rows.prompt;
    rows.send = m_writer->addSend(send);
    rows.open = true;
    Q_EMIT conversationUpdated(m_conversation);
}

void ChatSession::storeAnswerStart()
{
    // Pending until it ends: a process killed while it streams leaves a mark that it began.
    history::Message answer;
    answer.conversation = m_conversation;
    answer.role = history::Role::Assistant;
    answer.state = history::MessageState::Pending;
    answer.profile = sendProfile(); // the profile that gives it (a fallback's, too)
    Send::Rows &rows = m_current->rows();
    rows.answer = m_writer ? m_writer->addMessage(answer) : QUuid();
    if (!rows.answer.isNull())
        m_lastStoredMessage = rows.answer;
}

void ChatSession::storeSendEnd(const net::SendSummary &summary)
{
    Send::Rows &rows = m_current->rows();
    const bool open = std::exchange(rows.open, false); // its records are its own until now
    const QUuid send = rows.send;
    const QUuid prompt = rows.prompt;
    QUuid answer = rows.answer;
    if (!m_writer || send.isNull() || !open)
        return;
    const bool succeeded = summary.outcome == net::SendSummary::Outcome::Succeeded;
    QString text = m_current ? m_current->answer() : QString();
    const bool tooLong = text.size() > kMaxStoredAnswerChars;
    if (tooLong) {
        qsizetype keep = kMaxStoredAnswerChars;
        if (text.at(keep - 1).isHighSurrogate()) // never half a character
            --keep;
        text.truncate(keep);
    }
    const history::MessageState state
        = succeeded && !tooLong ? history::MessageState::Complete : history::MessageState::CutOff;
    if (!answer.isNull()) {
        m_writer->finishMessage(answer, text, state);
    } else if (succeeded) { // an empty answer is still the answer
        history::Message m;
        m.conversation = m_conversation;
        m.role = history::Role::Assistant;
        m.text = text;
        m.state = state;
        m.profile = sendProfile();
        answer = m_writer->addMessage(m);
        m_lastStoredMessage = answer;
    }
    // What the answer used, when the provider said: a restored answer shows it again.
    if (const std::optional<net::Usage> &usage = summary.usage;
        usage && !answer.isNull() && (usage->promptTokens >= 0 || usage->completionTokens >= 0)) {
        const auto known
            = [](qint64 v) { return v >= 0 ? std::optional<qint64>(v) : std::optional<qint64>(); };
        m_writer->setMessageUsage(
            answer, known(usage->promptTokens), known(usage->completionTokens));
    }
    if (succeeded && m_keepTranscript) { // the last exchange, until another send starts
        m_lastStoredPrompt = prompt;
        m_lastStoredAnswer = answer;
    }
    m_writer->finishSend(send, outcomeOf(summary.outcome), summary.reason, summary.attempts,
        qint64(summary.waited.count()));
    Q_EMIT conversationUpdated(m_conversation);
}

void ChatSession::storeRecord(int row)
{
    if (!m_writer || !m_current || !m_current->rows().open || m_current->rows().send.isNull()
        || row < 0 || row >= m_log->records().size())
        return;
    const Send::Rows &rows = m_current->rows();
    const net::RetryRecord &record = m_log->records().at(row);
    if (quint64(record.request) != rows.request)
        return;
    m_writer->addRetryRecord(rows.send, toStored(record));
    Q_EMIT conversationUpdated(m_conversation);
}

} // namespace capwatch::session
