#include "storedconversation.h"

#include "history/historystore.h"
#include "sessionlogging.h"
#include "storedrecords.h"

#include <utility>

namespace capwatch::session {

using namespace Qt::StringLiterals;

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

StoredConversation::StoredConversation(QObject *parent)
    : QObject(parent)
{ }

void StoredConversation::setWriter(history::HistoryWriter *writer)
{
    if (writer == m_writer)
        return;
    m_writer = writer;
    show({}, {}, {});
}

bool StoredConversation::load(
    const QUuid &id, QObject *context, std::function<void(Loaded)> done) const
{
    if (!m_writer)
        return false;
    // Read and converted on the writer's thread, after every write queued before: the GUI
    // thread only swaps the lists in.
    m_writer->read(
        context,
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
            loaded.costs = store.conversationCosts(id);
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
        std::move(done));
    return true;
}

void StoredConversation::show(const QUuid &id, const QString &profile, const QUuid &lastMessage,
    std::pair<QUuid, QUuid> lastExchange)
{
    m_id = id;
    m_profile = profile;
    m_lastMessage = lastMessage;
    m_lastPrompt = lastExchange.first;
    m_lastAnswer = lastExchange.second;
}

void StoredConversation::setProfile(const QString &profile)
{
    if (!m_writer || m_id.isNull() || profile == m_profile)
        return;
    m_profile = profile; // `updated` stays: it is not a new message
    m_writer->setConversationProfile(m_id, profile);
}

void StoredConversation::takeFrom(StoredConversation &other)
{
    m_writer = other.m_writer;
    m_id = std::exchange(other.m_id, {});
    m_profile = std::exchange(other.m_profile, {});
    m_lastMessage = std::exchange(other.m_lastMessage, {});
    m_lastPrompt = std::exchange(other.m_lastPrompt, {});
    m_lastAnswer = std::exchange(other.m_lastAnswer, {});
}

void StoredConversation::replaceLastExchange()
{
    const QUuid prompt = std::exchange(m_lastPrompt, QUuid());
    const QUuid answer = std::exchange(m_lastAnswer, QUuid());
    if (!m_writer)
        return;
    for (const QUuid &id : { prompt, answer }) {
        if (!id.isNull())
            m_writer->replaceMessage(id);
    }
}

void StoredConversation::startSend(
    Send &send, const QString &prompt, const QUuid &reuse, const history::Conversation &header)
{
    Send::Rows &rows = send.rows(); // the request number is set once the client has it
    m_lastPrompt = {}; // a new send: the last exchange is not the last one any more
    m_lastAnswer = {};
    if (!m_writer)
        return;
    storeIfNew(header);
    // A parked prompt that goes out again is the same message, one more send of it, while it is
    // still the conversation's last message. When others came after it, its answer would come
    // after theirs: it is stored again at the end and the old one marked replaced.
    if (!reuse.isNull() && reuse == m_lastMessage) {
        rows.prompt = reuse;
    } else {
        if (!reuse.isNull())
            m_writer->replaceMessage(reuse);
        rows.prompt = addPrompt(prompt);
    }
    m_lastMessage = rows.prompt;
    history::Send stored;
    stored.conversation = m_id;
    stored.message = rows.prompt;
    rows.send = m_writer->addSend(stored);
    rows.open = true;
    Q_EMIT updated(m_id);
}

QUuid StoredConversation::storeHeldPrompt(
    const QString &prompt, const history::Conversation &header)
{
    m_lastPrompt = {};
    m_lastAnswer = {};
    if (!m_writer)
        return {};
    storeIfNew(header);
    m_lastMessage = addPrompt(prompt);
    Q_EMIT updated(m_id);
    return m_lastMessage;
}

void StoredConversation::storeIfNew(const history::Conversation &header)
{
    if (!m_id.isNull())
        return;
    // Untitled: the store names it from the first prompt.
    m_profile = header.profile;
    m_id = m_writer->addConversation(header);
    Q_EMIT stored(m_id);
}

QUuid StoredConversation::addPrompt(const QString &prompt)
{
    history::Message message;
    message.conversation = m_id;
    message.role = history::Role::User;
    message.text = prompt;
    message.state = history::MessageState::Complete;
    return m_writer->addMessage(message);
}

void StoredConversation::startContinuation(Send &send, const QUuid &prompt, const QUuid &answer)
{
    Send::Rows &rows = send.rows();
    m_lastPrompt = {};
    m_lastAnswer = {};
    if (!m_writer || m_id.isNull() || prompt.isNull() || answer.isNull())
        return;
    rows.prompt = prompt;
    rows.answer = answer;
    history::Send stored;
    stored.conversation = m_id;
    stored.message = prompt;
    rows.send = m_writer->addSend(stored);
    rows.open = true;
    Q_EMIT updated(m_id);
}

void StoredConversation::startAnswer(Send &send)
{
    // Pending until it ends: a process killed while it streams leaves a mark that it began.
    history::Message answer;
    answer.conversation = m_id;
    answer.role = history::Role::Assistant;
    answer.state = history::MessageState::Pending;
    answer.profile = send.state().profileName; // the profile that gives it (a fallback's, too)
    Send::Rows &rows = send.rows();
    rows.answer = m_writer ? m_writer->addMessage(answer) : QUuid();
    if (!rows.answer.isNull())
        m_lastMessage = rows.answer;
}

void StoredConversation::endSend(Send &send, const net::SendSummary &summary, bool lastExchange)
{
    Send::Rows &rows = send.rows();
    const bool open = std::exchange(rows.open, false); // its records are its own until now
    QUuid answer = rows.answer;
    if (!m_writer || rows.send.isNull() || !open)
        return;
    const bool succeeded = summary.outcome == net::SendSummary::Outcome::Succeeded;
    // What the answer used, when the provider said: a restored answer shows it again.
    std::optional<history::MessageUsage> usage;
    if (const std::optional<net::Usage> &u = summary.usage;
        u && (u->promptTokens >= 0 || u->completionTokens >= 0)) {
        const auto known
            = [](qint64 v) { return v >= 0 ? std::optional<qint64>(v) : std::optional<qint64>(); };
        usage = history::MessageUsage { known(u->promptTokens), known(u->completionTokens) };
    }
    // The stored text is the Send's, shared with the writer, not copied: capwatch-cli's Send
    // keeps exactly what is stored (setAnswerLimit()); a window's keeps it all, and the writer
    // cuts it on its own thread.
    QString text = send.answer();
    const bool tooLong = send.answerCut() || text.size() > kMaxStoredAnswerChars;
    qsizetype keep = -1;
    if (text.size() > kMaxStoredAnswerChars) {
        keep = kMaxStoredAnswerChars;
        if (text.at(keep - 1).isHighSurrogate()) // never half a character
            --keep;
    }
    const history::MessageState state
        = succeeded && !tooLong ? history::MessageState::Complete : history::MessageState::CutOff;
    // How it ended and its seams (issue 29). A continuation that failed before its first word
    // leaves the answer it continues as it was.
    const history::AnswerEnding ending { send.state().answerEnd, send.state().seams };
    const bool untouched
        = send.state().continuation && send.state().answerEnd == retry::AnswerEnd::None;
    if (untouched) {
        // nothing of the answer changed
    } else if (!answer.isNull()) {
        // Text, state, usage and end in one write: SQLite rewrites the whole row for any of them.
        m_writer->finishMessage(answer, std::move(text), state, {}, usage, keep, ending);
    } else if (succeeded) { // an empty answer is still the answer
        if (keep >= 0)
            text.truncate(keep); // no row was made while it streamed: a new one, cut here
        history::Message m;
        m.conversation = m_id;
        m.role = history::Role::Assistant;
        m.text = text;
        m.state = state;
        m.end = ending.end;
        m.profile = send.state().profileName;
        answer = m_writer->addMessage(m);
        m_lastMessage = answer;
        if (usage)
            m_writer->setMessageUsage(answer, usage->promptTokens, usage->completionTokens);
    }
    if (succeeded && lastExchange) { // the last exchange, until another send starts
        m_lastPrompt = rows.prompt;
        m_lastAnswer = answer;
    }
    m_writer->finishSend(rows.send, outcomeOf(summary.outcome), summary.reason, summary.attempts,
        qint64(summary.waited.count()));
    Q_EMIT updated(m_id);
}

void StoredConversation::addRecord(const Send &send, const net::RetryRecord &record)
{
    const Send::Rows &rows = send.rows();
    if (!m_writer || !rows.open || rows.send.isNull() || quint64(record.request) != rows.request)
        return;
    m_writer->addRetryRecord(rows.send, toStored(record));
    Q_EMIT updated(m_id);
}

void StoredConversation::addUsage(const Send &send, history::UsageRecord usage)
{
    if (!m_writer)
        return; // --private: no ledger either
    usage.conversation = m_id;
    usage.send = send.rows().send;
    m_writer->addUsage(std::move(usage));
}

void StoredConversation::addEndedRecord(const QUuid &storedSend, const net::RetryRecord &record)
{
    if (!m_writer || storedSend.isNull())
        return;
    m_writer->addRetryRecord(storedSend, toStored(record));
    Q_EMIT updated(m_id);
}

} // namespace capwatch::session
