#pragma once

// The steps of a session's sends, read from the one value it publishes (SendState), as a
// view sees them: every state in order, and the steps that state sequence shows (an attempt
// that started, a failure, a retry scheduled, pacing), each counted once. Header-only; replaces
// spies on the per-step signals the session no longer has.

#include "session/chatsession.h"
#include "session/sendstate.h"

#include <QList>
#include <QObject>
#include <QSet>
#include <utility>

namespace capwatch::testing {

class SendSteps final : public QObject
{
public:
    explicit SendSteps(session::ChatSession *session)
    {
        connect(session, &session::ChatSession::sendStateChanged, this,
            [this](const session::SendState &s) { take(s); });
    }

    /// Every state published, in order (ticks included).
    const QList<session::SendState> &states() const { return m_states; }
    /// The states of a retry's wait (ticks included).
    QList<session::SendState> waiting() const
    {
        QList<session::SendState> out;
        for (const session::SendState &s : m_states) {
            if (s.waiting())
                out.append(s);
        }
        return out;
    }
    /// Attempts that started: (send, attempt).
    const QList<std::pair<quint64, int>> &attempts() const { return m_attempts; }
    /// Failed attempts, as the state named them.
    const QList<net::AttemptFailure> &failures() const { return m_failures; }
    /// Retries scheduled, each once.
    const QList<net::RetryInfo> &retries() const { return m_retries; }
    /// Sends that paced, with their plan.
    const QList<net::PacePlan> &pacings() const { return m_pacings; }
    /// Sends that ended, with the state they ended in.
    const QList<session::SendState> &ends() const { return m_ends; }
    void clear()
    {
        m_states.clear();
        m_attempts.clear();
        m_failures.clear();
        m_retries.clear();
        m_pacings.clear();
        m_ends.clear();
        m_seen.clear();
    }

private:
    void take(const session::SendState &s)
    {
        m_states.append(s);
        const auto once = [this](const QString &key) {
            if (m_seen.contains(key))
                return false;
            m_seen.insert(key);
            return true;
        };
        const QString send = QString::number(s.send);
        if ((s.phase == session::SendPhase::Sending || s.phase == session::SendPhase::Streaming)
            && s.attempt > 0 && once(send + u"a" + QString::number(s.attempt)))
            m_attempts.append({ s.send, s.attempt });
        if (s.lastFailure && once(send + u"f" + QString::number(s.lastFailure->attempt)))
            m_failures.append(*s.lastFailure);
        if (s.waiting() && s.lastWait
            && once(send + u"w" + QString::number(s.lastWait->nextAttempt)))
            m_retries.append(*s.lastWait);
        if (s.pacing() && s.pace && once(send + u"p"))
            m_pacings.append(*s.pace);
        if (s.ended() && once(send + u"e"))
            m_ends.append(s);
    }

    QList<session::SendState> m_states;
    QList<std::pair<quint64, int>> m_attempts;
    QList<net::AttemptFailure> m_failures;
    QList<net::RetryInfo> m_retries;
    QList<net::PacePlan> m_pacings;
    QList<session::SendState> m_ends;
    QSet<QString> m_seen;
};

} // namespace capwatch::testing
