#pragma once

// The sends parked until their provider's reset, of every conversation (docs/parking.md): it
// stores them with the history, so they survive a quit, a restart and a crash; it keeps their
// deadlines as wall-clock times and checks them again every second, so a suspend or a clock
// change never keeps one past its reset for more than that; and it lets them out one at a time
// per provider, the next only once the previous one succeeded or failed.

#include "history/historytypes.h"
#include "net/chatclient.h"
#include "net/retrylog.h"
#include "sessionsetup.h"
#include "sessiontypes.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <QUuid>
#include <functional>
#include <memory>
#include <optional>

namespace capwatch::history {
class HistoryWriter;
}

namespace capwatch::session {

class ChatSession;

class ParkingLot final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ParkingLot)

public:
    using WallClock = std::function<QDateTime()>;

    explicit ParkingLot(QObject *parent = nullptr);
    ~ParkingLot() override;

    /// UTC; tests move it to play a suspend or a clock change. Default: now.
    void setWallClock(WallClock clock);
    QDateTime wallNow() const;
    /// How often the wall clock is read again while anything is parked (1 s; at most 2 s late
    /// after a wake). Tests may shorten it.
    void setRecheckInterval(int ms);
    /// Stores parked sends there and reads the stored ones back (restored() when done). Null
    /// (--private, tests): kept in memory only. Not owned.
    void setHistory(history::HistoryWriter *writer);
    /// How the lot makes a session, not shown, for a parked send whose conversation no attached
    /// session shows: wired like the window's, with the lot's history, talking to what
    /// `setup.providers` resolves for the profile id stored with that conversation (empty or
    /// unknown: the default profile, as for a restored conversation); the consent to plain HTTP
    /// an attached session holds for that endpoint and key holds for it too. The lot opens the
    /// conversation in it, sends, and deletes it when the send ends. Unset (the default): such a
    /// send waits until a session shows its conversation. Sessions made later use the new one.
    void setSessionSetup(std::optional<SessionSetup> setup);
    /// The lane of a session talking to `choice` (ChatSession::lane()): "demo", or the stored
    /// endpoint.
    static QString laneOf(const ProviderChoice &choice);
    /// A session whose conversation's parked sends run in it, live. Not owned; forgotten when
    /// it is destroyed. ChatSession::setParkingLot() attaches it.
    void attach(ChatSession *session);
    void detach(ChatSession *session);

    /// Every parked send, in the order they go out (due time, then when parked).
    QList<history::ParkedSend> sends() const;
    QList<history::ParkedSend> sendsOf(const QUuid &conversation) const;
    std::optional<history::ParkedSend> find(const QUuid &id) const;
    /// Released and not ended yet: its send is in flight.
    bool isRunning(const QUuid &id) const;
    /// The session its send is in flight in (the window's, or one of the lot's own); null when
    /// it is not running.
    ChatSession *runnerOf(const QUuid &id) const;
    /// A parked send it released runs in `session` now.
    bool runsIn(const ChatSession *session) const;
    /// Due (its reset passed) and waiting for its provider's previous send to end.
    bool isQueued(const QUuid &id) const;
    /// Due, but the provider of its conversation's profile (or, in the session showing it, the
    /// provider chosen there) is not the one it was parked on: it goes when that one is chosen
    /// again (its key is for its own endpoint only).
    bool waitsForProvider(const QUuid &id) const;
    /// Due, on its own provider, whose endpoint is plain HTTP to another machine: it goes once
    /// the consent to send the key there was given in this run (ChatSession::allowPlainHttp() on
    /// the session that shows it; the window asks when the user sends it now).
    bool waitsForConsent(const QUuid &id) const;
    /// The profile id of its conversation as the lot knows it: the parking session's, the one
    /// stored with the conversation when read back or opened for the send. Empty: none known.
    QString profileOf(const QUuid &id) const;
    int count() const { return int(m_parked.size()); }

    /// Parks `parked` (id made when null), stores it and arms it. Returns its id. `origin`: the
    /// session that parked it; a send without a conversation (not stored: --private) goes out
    /// only in that session, while it still shows the conversation it was parked in.
    QUuid park(history::ParkedSend parked, ChatSession *origin = nullptr);
    /// Sends it now, before its reset (still one at a time per provider). False: unknown or
    /// already running.
    bool sendNow(const QUuid &id);
    /// Takes it out without sending: logged `unparked` with `cancelled` (Cancel, and Edit, which
    /// then puts the prompt in the prompt box). False: unknown or already running.
    bool cancel(const QUuid &id);

Q_SIGNALS:
    /// Anything parked, released, queued, cancelled or ended: the queue view reads sends().
    void changed();
    /// The stored parked sends were read back after setHistory().
    void restored(int count);
    void released(
        const capwatch::history::ParkedSend &parked, capwatch::net::RetryRecord::Unpark why);
    /// A released send ended; `parkedAgain` when it ended capped again and went back in.
    void finished(const capwatch::history::ParkedSend &parked,
        capwatch::net::SendSummary::Outcome outcome, bool parkedAgain);

private:
    struct Entry
    {
        history::ParkedSend parked;
        /// The profile id of its conversation (conversations.profile): what it is sent with.
        QString profile;
        bool sendNow = false; ///< released before its reset by the user
        bool overdueAtStart = false; ///< read back already due: goes one by one
        bool waitsForProvider = false; ///< due, but its provider is not the one chosen now
        bool waitsForConsent = false; ///< due, on its provider, without the plain-HTTP consent
        bool running = false;
        QPointer<ChatSession> runner;
        std::unique_ptr<ChatSession> own; ///< the session made for it, when none showed it
        quint64 send = 0; ///< its send in the runner
        QPointer<ChatSession> origin; ///< who parked it, for one without a conversation
        quint64 originView = 0; ///< and what that session showed then
        bool fromOrigin = false;
    };

    /// A session for a parked send of a conversation of `profile`, as setSessionSetup() says.
    std::unique_ptr<ChatSession> makeSession(const QString &profile) const;
    void arm();
    void check();
    void insert(std::unique_ptr<Entry> entry);
    void remove(const QUuid &id);
    void retire(std::unique_ptr<ChatSession> session);
    void watch(ChatSession *session);
    bool laneBusy(const QString &provider) const;
    bool release(Entry &entry, net::RetryRecord::Unpark why);
    bool runIn(Entry &entry, ChatSession *session, net::RetryRecord::Unpark why);
    void ended(ChatSession *session, quint64 send, net::SendSummary::Outcome outcome);
    Entry *entry(const QUuid &id);
    const Entry *entry(const QUuid &id) const;
    ChatSession *showing(const Entry &entry) const;

    WallClock m_clock;
    QPointer<history::HistoryWriter> m_writer;
    std::optional<SessionSetup> m_setup;
    QList<QPointer<ChatSession>> m_sessions;
    std::vector<std::unique_ptr<Entry>> m_parked; ///< in the order they go out
    QTimer m_due; ///< single shot, precise: the earliest due time
    QTimer m_recheck; ///< the wall clock again, while anything is parked
    quint64 m_readToken = 0;
};

} // namespace capwatch::session

Q_DECLARE_METATYPE(capwatch::history::ParkedSend)
Q_DECLARE_METATYPE(capwatch::net::RetryRecord::Unpark)
Q_DECLARE_METATYPE(capwatch::net::SendSummary::Outcome)
