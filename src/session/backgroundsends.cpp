#include "backgroundsends.h"

#include "chatsession.h"

#include <QPointer>
#include <QTimer>
#include <algorithm>

namespace capwatch::session {

BackgroundSends::BackgroundSends(QObject *parent)
    : QObject(parent)
{ }

BackgroundSends::~BackgroundSends()
{
    // Quitting ends them, as it ends the window's own send: each end is stored (cancelled) while
    // the history still takes writes; nothing of it reaches this object any more.
    for (const std::unique_ptr<ChatSession> &s : m_sessions) {
        disconnect(s.get(), nullptr, this, nullptr);
        s->cancel();
    }
}

void BackgroundSends::carry(std::unique_ptr<ChatSession> session)
{
    if (!session)
        return;
    ChatSession *s = session.get();
    using Outcome = net::SendSummary::Outcome;
    connect(s, &ChatSession::succeeded, this, [this, s] { onEnded(s, Outcome::Succeeded); });
    connect(s, &ChatSession::gaveUp, this, [this, s] { onEnded(s, Outcome::GaveUp); });
    connect(s, &ChatSession::cancelled, this, [this, s] { onEnded(s, Outcome::Cancelled); });
    m_sessions.push_back(std::move(session));
    Q_EMIT changed();
}

void BackgroundSends::onEnded(ChatSession *session, net::SendSummary::Outcome outcome)
{
    // After the session's own turn: its offers are made by then (an automatic fallback or trim
    // sends again, an automatic park went to the lot) and its writes are queued.
    QTimer::singleShot(0, this, [this, s = QPointer<ChatSession>(session), outcome] {
        const auto it = std::find_if(m_sessions.begin(), m_sessions.end(),
            [&s](const std::unique_ptr<ChatSession> &held) { return held.get() == s; });
        if (!s || it == m_sessions.end() || s->busy())
            return;
        const QUuid conversation = s->conversationId();
        const bool parked = s->sendState().isParked();
        std::unique_ptr<ChatSession> done = std::move(*it);
        m_sessions.erase(it);
        done.release()->deleteLater(); // it may still be inside its own signal
        Q_EMIT ended(conversation, outcome, parked);
        Q_EMIT changed();
    });
}

ChatSession *BackgroundSends::of(const QUuid &conversation) const
{
    if (conversation.isNull())
        return nullptr;
    for (const std::unique_ptr<ChatSession> &s : m_sessions) {
        if (s->conversationId() == conversation)
            return s.get();
    }
    return nullptr;
}

QList<QUuid> BackgroundSends::conversations() const
{
    QList<QUuid> ids;
    for (const std::unique_ptr<ChatSession> &s : m_sessions)
        ids.append(s->conversationId());
    return ids;
}

} // namespace capwatch::session
