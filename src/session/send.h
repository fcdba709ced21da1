#pragma once

// One send of a conversation, from the moment it is made to the moment it ended (or was parked
// and went out again): the prompt and what it is sent with, the streamed answer, and its one
// SendState. It is the only listener of the chat client's steps for its id; what the client
// reports of another send never reaches it. It publishes its state with changed() on every step
// and on every tick of a wait (twenty a second, each reading the policy's deadline, so a late
// tick never makes a countdown drift) and never per chunk of an answer.

#include "sendstate.h"
#include "sessiontypes.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>
#include <QUuid>
#include <optional>

namespace capwatch::net {
class ChatClient;
}

namespace capwatch::session {

class Send final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Send)

public:
    /// Make it right before `client` starts the send: the client's next sendStarted() is its
    /// own. `to`: the profile it goes to; `viaFallback`: it goes to the fallback profile.
    Send(net::ChatClient *client, const QString &prompt, const SendOptions &options,
        const ProviderChoice &to, bool viaFallback, QObject *parent = nullptr);
    /// A parked send read back from the lot (its conversation was opened): not out, never bound
    /// to a client, in the Parked phase; its log number and attempt are the stored ones, and it
    /// shows GaveUp once taken out. `limits`: the numbers its state shows.
    static Send *fromParked(
        const history::ParkedSend &parked, const retry::PolicyLimits &limits, QObject *parent);
    ~Send() override;

    quint64 id() const { return m_state.send; }
    const SendState &state() const { return m_state; }
    QString prompt() const { return m_prompt; }
    const SendOptions &options() const { return m_options; }
    /// The answer so far, as much of it as setAnswerLimit() keeps.
    const QString &answer() const { return m_answer; }
    /// The most characters of the answer kept (-1, the default: all of it; 0: none), never half
    /// a character. What capwatch-cli holds of an answer it streams through is what the history
    /// stores of it, exactly, so that the stored text is this one, shared and not copied.
    void setAnswerLimit(qsizetype chars) { m_answerLimit = chars; }
    /// More of the answer came than setAnswerLimit() keeps.
    bool answerCut() const { return m_answerCut; }
    /// Makes it a continuation of `partial` (Continue, before it starts): its answer begins as
    /// `partial`, whose seams are `seams`; what comes is joined after a new seam, without the
    /// words the model repeats at its start (retry::seamOverlap()). text() tells only what is
    /// joined. `inARow`: which continuation of the same answer it is, from 1.
    void continueFrom(const QString &partial, const QList<qsizetype> &seams, int inARow);
    /// The characters the continuation added after its seam (0 for a send that is none).
    qsizetype continuationChars() const
    {
        return m_state.continuation ? m_answer.size() - m_continuedFrom : 0;
    }
    /// Lets the answer go once nothing here needs it (capwatch-cli, once it is handed to the
    /// history, whose writer then holds its one copy).
    void dropAnswer() { m_answer = QString(); }
    /// The profile id it went to.
    QString profileId() const { return m_profileId; }
    /// Its number in the retry log: its id, or a parked send's stored one (fromParked()).
    quint64 request() const { return m_request != 0 ? m_request : m_state.send; }
    /// The attempts it made, as its end said (a parked send's: as stored).
    int attemptsMade() const { return m_attemptsMade; }
    /// How often its prompt was parked before this cycle (a parked one out again: one more).
    int parksInARow() const { return m_parksInARow; }
    void setParksInARow(int parks) { m_parksInARow = parks; }
    /// While the user's Stop cancels it (ChatSession::stop()): not a provider change.
    bool stoppedByUser() const { return m_stoppedByUser; }
    void setStoppedByUser(bool stopped) { m_stoppedByUser = m_state.stoppedByUser = stopped; }
    /// Parked as soon as it ends cancelled, with this offer (the user's Send at during a wait).
    std::optional<ParkOffer> &parkWhenEnded() { return m_parkWhenEnded; }
    /// Published at least once: views have seen it.
    bool shown() const { return m_shown; }

    /// Its rows in the history (docs/session.md), null when it is not stored: the send, its user
    /// message, its answer (stored Pending at its first text). `request`: its number in the retry
    /// log, whose records are stored with it while `open` (until it ends).
    struct Rows
    {
        QUuid send;
        QUuid prompt;
        QUuid answer;
        quint64 request = 0;
        bool open = false;
    };
    Rows &rows() { return m_rows; }
    const Rows &rows() const { return m_rows; }

    /// Where it went and what the provider said of its size: its lane (reports and context
    /// errors are filed under it, a trim offer after it plans with its window), the fallback it
    /// went to (nullopt: the session's own provider), its estimated tokens, and a context
    /// error's figures: how far the provider's count exceeded the estimate, the window it named.
    struct Route
    {
        SendLane lane;
        std::optional<ProviderChoice> fallback;
        qint64 estimate = 0;
        /// net::requestChars() of its request: an attempt the provider did not report is
        /// estimated from it (the usage ledger).
        qint64 requestChars = 0;
        /// Its model's price where it goes (the profile's own, else the price table's).
        std::optional<retry::Price> price;
        std::optional<qint64> overflowExcess;
        std::optional<qint64> overflowWindow;
        /// The same figures once a trim was offered on them: the next send of the conversation
        /// (the resend) plans with them, and only it.
        std::optional<qint64> resendExcess;
        std::optional<qint64> resendWindow;
        /// The client holds the fallback's key source, limits and profile name for it, until
        /// the session restores its own.
        bool onFallbackClient = false;
        /// A send to a demo fallback holds one start() of the local provider until then.
        bool holdsLocal = false;
    };
    Route &route() { return m_route; }
    const Route &route() const { return m_route; }

    /// One attempt of it in the usage ledger: counted in SendState::cost (shown with its next
    /// state).
    void addCost(const history::UsageRecord &row);
    /// The declared limit a refusal for its rate implies (the first one of the send).
    void suggestDeclared(const retry::DeclaredSuggestion &s, const QString &profile)
    {
        if (!m_state.declaredSuggestion) {
            m_state.declaredSuggestion = s;
            m_state.suggestionProfile = profile;
        }
    }
    /// The model the request names (known once the request is built).
    void setModel(const QString &model) { m_state.model = model; }
    void setLane(const QString &lane) { m_state.lane = lane; }
    /// What was offered when it ended; shown with its final state.
    void setOffers(const ParkOffer &park, const FallbackOffer &fallback);
    void setParkOffer(const ParkOffer &park) { m_state.park = park; }
    void setFallbackOffer(const FallbackOffer &fallback) { m_state.fallback = fallback; }
    void setTrimOffer(const TrimOffer &trim);
    /// Parked (in `state` in the lot, `now` by the wall clock), or back out of the lot
    /// (nullopt: its end again).
    void setParked(const std::optional<history::ParkedSend> &parked,
        ParkedState state = ParkedState::Waiting, const QDateTime &now = {});
    /// Shows it ended as `phase` after all (a cycle the user stopped to park it ends given up).
    void setEndPhase(SendPhase phase) { m_state.phase = m_endPhase = phase; }
    /// Tells the views its state now (after the setters above).
    void publish();

Q_SIGNALS:
    /// Every step, every tick of a wait, every offer: the whole state.
    void changed(const capwatch::session::SendState &state);
    /// The client started it (its first changed() with its id came just before).
    void started(quint64 send);
    /// A piece of the answer as it streams in.
    void text(quint64 send, const QString &text);
    /// The send ended (its state already says how); the session makes its offers and then
    /// calls publish(). Comes before the changed() of the end.
    void ended(quint64 send, const capwatch::net::SendSummary &summary);

private:
    explicit Send(QObject *parent);
    bool mine(quint64 send) const { return send != 0 && send == m_state.send; }
    /// The live figures of the wait from the client's policy (while the client runs this send).
    void readLive();
    void onTick();
    void end(SendPhase phase, const net::SendSummary &summary);
    /// On giving up: SendState::lastAsked from the policy's last classification.
    void noteLastAsked();
    /// On a retry scheduled: SendState::earlyPark, when the reset is out of the budget's reach.
    void offerEarlyPark(const net::RetryInfo &info);
    /// Something came from the provider (or an attempt began): the silence starts again.
    void heard();
    /// Once a (scaled) second while an attempt is out: Silent when nothing came for kSilentAfter.
    void checkSilence();
    /// Keeps `text` of the answer (as much as setAnswerLimit() allows) and tells it.
    void takeText(const QString &text);
    /// Decides the overlap at the seam from what came so far and tells what is joined.
    void settleSeam();

    QPointer<net::ChatClient> m_client;
    QString m_prompt;
    SendOptions m_options;
    QString m_profileId;
    QString m_answer;
    qsizetype m_answerLimit = -1;
    bool m_answerCut = false;
    qsizetype m_continuedFrom = 0; ///< a continuation: where its seam is
    bool m_seamPending = false; ///< a continuation's start is held until its overlap is known
    QString m_seamBuffer;
    bool m_bound = false; ///< the client's sendStarted() of this send came
    quint64 m_request = 0; ///< fromParked(): the stored log number
    int m_attemptsMade = 0;
    int m_parksInARow = 0;
    bool m_stoppedByUser = false;
    bool m_shown = false;
    SendState m_state;
    Rows m_rows;
    Route m_route;
    /// The phase the send ended in, shown again when it comes out of the lot without going out.
    SendPhase m_endPhase = SendPhase::Idle;
    QTimer m_tick;
    QTimer m_silence; ///< checks the silence while an attempt is out
    QElapsedTimer m_heard; ///< since anything last came (wall time)
    SendPhase m_beforeSilence = SendPhase::Sending; ///< the phase that comes back with a word
    std::optional<ParkOffer> m_parkWhenEnded;
};

} // namespace capwatch::session
