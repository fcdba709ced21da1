#pragma once

// The sends that go on in a conversation the window no longer shows (issue 25, point 4): when
// the user opens another conversation while a send waits to retry or streams, its session hands
// it over (ChatSession::carryOff()) and it goes on here, in a session of its own, storing its
// answer and its records in its own conversation. Nothing here is shown; the window marks the
// conversation in its sidebar, routes Stop to it while it is shown again, and reads the
// conversation back once the send ended.

#include "net/chatclient.h"
#include "parkinglot.h" // the metatype of SendSummary::Outcome

#include <QObject>
#include <QUuid>
#include <memory>
#include <vector>

namespace capwatch::session {

class ChatSession;

class BackgroundSends final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BackgroundSends)

public:
    explicit BackgroundSends(QObject *parent = nullptr);
    ~BackgroundSends() override;

    /// Keeps `session` (ChatSession::carryOff()) until its send ended: an automatic fallback or
    /// trim that sends again is waited for too. Null: ignored.
    void carry(std::unique_ptr<ChatSession> session);
    /// The session carrying a send of `conversation`; null when none does.
    ChatSession *of(const QUuid &conversation) const;
    /// The conversations whose sends go on here.
    QList<QUuid> conversations() const;
    int count() const { return int(m_sessions.size()); }

Q_SIGNALS:
    /// A send began to go on here, or one ended (the sidebar's marks).
    void changed();
    /// A carried send ended, everything of it queued on the history by then. `parked`: it
    /// ended capped and went to the parking lot (ParkingChoice::Automatic).
    void ended(const QUuid &conversation, capwatch::net::SendSummary::Outcome outcome, bool parked);

private:
    void onEnded(ChatSession *session, net::SendSummary::Outcome outcome);

    std::vector<std::unique_ptr<ChatSession>> m_sessions;
};

} // namespace capwatch::session
