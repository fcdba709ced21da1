#pragma once

// One conversation without a widget: its transcript, its stored rows, edit and regenerate, the
// turns left out of requests, and its sends. Each send is a session::Send publishing one
// SendState; the session starts them, keeps the latest and makes the offers that follow an end
// (park, fallback, trim). It talks to its ProviderLink and measures requests with its
// ContextPlanner. The window and capwatch-cli drive sends through it and render what it publishes.

#include "contextplanner.h"
#include "net/chatclient.h"
#include "providerlink.h"
#include "send.h"
#include "storedconversation.h"
#include "usageledger.h"

#include <QObject>
#include <QPointer>
#include <functional>
#include <memory>

namespace capwatch::session {

class BackgroundSends;
class ParkingLot;

class ChatSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChatSession)

public:
    explicit ChatSession(QObject *parent = nullptr);
    ~ChatSession() override;

    /// Wires it as `setup` says (all but the provider and its fallback).
    void configure(const SessionSetup &setup);
    /// 0 < scale <= 1: every wait and timeout runs `scale` times as long on the wall clock.
    void setTimeScale(double scale);
    /// False for a one-turn session (capwatch-cli chat): the answer streams through, unkept.
    void setKeepTranscript(bool keep) { m_keepTranscript = keep; }
    ProviderLink &provider() { return m_link; }
    const ProviderLink &provider() const { return m_link; }
    ContextPlanner &context() { return m_planner; }
    const ContextPlanner &context() const { return m_planner; }
    /// Talks to `choice` from the next send on (a send to the demo ends when it is left).
    void setProvider(const ProviderChoice &choice);
    /// Where a send that ended capped may go (nullopt: nowhere); `automatic`: sent there at once.
    void setFallback(std::optional<ProviderChoice> fallback, bool automatic);
    net::RetryLog *retryLog() const { return m_log; }

    // --- the conversation ---
    bool busy() const;
    /// Sending, editing the last exchange or opening(): no parked send is released into it.
    bool occupied() const;
    quint64 currentSend() const { return m_current ? m_current->id() : 0; }
    /// The state of the send in flight (or ended last, or parked); before any, of the next one.
    SendState sendState() const;
    const QList<net::ChatMessage> &history() const { return m_history; } ///< answered exchanges
    QString failedPrompt() const { return m_failedPrompt; } ///< of a failed or cancelled send
    /// An answered exchange that nothing came after: it can be asked again or edited.
    bool hasLastExchange() const { return m_hasLastExchange; }
    QString lastPrompt() const;
    bool editing() const { return m_editing; } ///< the next send() replaces the last exchange
    bool beginEdit();
    void endEdit() { m_editing = false; }
    bool sendReplacesLastExchange() const;
    /// Sends `prompt` after the history (while editing, in place of the last exchange). A send
    /// in flight is cancelled first: the latest send wins. 0 for an empty prompt.
    quint64 send(const QString &prompt, const SendOptions &options);
    /// Sends the failed prompt again; 0 when there is none or a send is in flight.
    quint64 retryFailed(const SendOptions &options);
    /// Asks again for the last answer: the same conversation without it. 0 when there is none.
    quint64 regenerate(const SendOptions &options);
    /// Cancels the send in flight. A parked send going out stays parked (the lot sends it again).
    void cancel();
    /// The user's Stop: cancel(), and a parked send that was going out is taken out of the lot.
    void stop();
    /// While the send waits for the provider's window: sends it now. False otherwise.
    bool sendNow();

    // --- Continue (issue 29, docs/session.md) ---
    /// The last answer of the conversation ended cut off or interrupted, and nothing is in
    /// flight: continueAnswer() may go on with it.
    bool canContinue() const;
    /// How the last answer ended (None when there is none, or it is not the last message).
    retry::AnswerEnd lastAnswerEnd() const
    {
        return m_continuable ? m_continuable->end : retry::AnswerEnd::None;
    }
    /// Asks the model to go on with the last answer: the conversation with that answer as the
    /// assistant's turn and kContinueInstruction after it. What comes is joined to the same
    /// answer after a seam (the words the model repeats at its start left out), stored in its
    /// row; it is a send like any other (paced, retried, parked, counted). 0 when
    /// !canContinue().
    quint64 continueAnswer(const SendOptions &options);
    /// The send that just ended cut off is continued by itself (SendOptions::autoContinue): true
    /// from just before its succeeded() until that continuation starts.
    bool autoContinuing() const { return m_autoContinuing; }

    // --- the user's spending limits and the provider's declared ones (docs/session.md) ---
    /// Whether a send of `prompt` now would cross a spending limit of the profile, or a daily
    /// limit it declares for its provider (what the usage ledger counted so far, and the send's
    /// worst case). A declared limit of a minute is not a hold: pacing waits for it.
    LimitHold limitHold(const QString &prompt, const SendOptions &options) const;
    /// "Send when the limit resets": parks `prompt` until `hold` resets, before any request
    /// (stored as the conversation's next user message, in the lot like any parked send; it
    /// goes out at the reset). False when nothing holds, a send is in flight or there is no lot.
    bool parkUntilLimitResets(
        const QString &prompt, const SendOptions &options, const LimitHold &hold);

    // --- what the next request holds (docs/retry-policy.md section 8) ---
    ContextGauge contextGauge(const QString &prompt, const SendOptions &options) const;
    /// The plan for a send of `prompt` now (also when nothing needs leaving out).
    TrimOffer trimOfferFor(const QString &prompt, const SendOptions &options) const;
    /// Leaves the oldest `turns` earlier turns (all but the last at most) out of every request.
    void setLeftOut(int turns);
    int leftOut() const { return m_leftOut; }
    /// Applies the trim offer's plan and sends the failed prompt again; 0 when not offered.
    quint64 trimAndResend(const SendOptions &options);
    /// Sends the failed prompt to the fallback as offered (one hop); 0 when not offered, or the
    /// fallback needs the consent to plain HTTP first.
    quint64 sendToFallback(const SendOptions &options);

    // --- history (docs/session.md: what is stored when) ---
    /// Where the conversation is stored; null (the default) stores nothing. Not owned.
    void setHistory(history::HistoryWriter *writer);
    QUuid conversationId() const { return m_stored->id(); } ///< null until first stored
    /// Starts an empty conversation; the send in flight goes on in its own (setCarrier()).
    void newConversation();
    /// Shows stored conversation `id` once read (restoreFailed() if it cannot be); opening()
    /// until then, unless a later send or switch won over it.
    void openConversation(const QUuid &id);
    bool opening() const;
    /// Where a send goes on when another conversation is shown (not owned); null: cancelled.
    void setCarrier(BackgroundSends *carrier);

    // --- parking (docs/parking.md) ---
    void setParkingChoice(ParkingChoice choice) { m_parkingChoice = choice; }
    ParkingChoice parkingChoice() const { return m_parkingChoice; }
    /// Where park() puts a send (attaches it); null: park() only logs, the caller waits itself.
    void setParkingLot(ParkingLot *lot);
    /// The lot's own session for a parked send: driven, not attached (leaveLot() forgets it).
    void driveFromLot(ParkingLot *lot);
    void leaveLot();
    /// Moves on with every conversation shown: an unstored parked send belongs to one of them.
    quint64 viewToken() const { return m_view; }
    /// Parks the failed prompt as offered (logs `parked`, hands it to the lot).
    bool park();
    /// Stops the cycle and parks the prompt until the reset, as SendState::earlyPark offers.
    bool parkNow();
    /// Logs `unparked` with `why` and sends the parked prompt again (its parks carry over).
    quint64 sendParked(net::RetryRecord::Unpark why, const SendOptions &options);
    void cancelPark(); ///< logs `unparked` (Cancelled); the prompt stays the failed one
    /// The lot's way in: sends `parked` of the conversation shown here with its stored options
    /// (0: occupied(), another conversation or provider, or no plain-HTTP consent).
    quint64 runParked(const history::ParkedSend &parked, net::RetryRecord::Unpark why);
    /// Logs `unparked` with `why` for a parked send of the conversation shown, without sending.
    void logUnparked(const history::ParkedSend &parked, net::RetryRecord::Unpark why);

Q_SIGNALS:
    /// The send in flight (or ended last) changed: every view of a send renders this value.
    void sendStateChanged(const capwatch::session::SendState &state);
    void sendStarted(quint64 send); ///< after its first sendStateChanged()
    void answerText(quint64 send, const QString &text);
    /// The current send ended (its state, with the offers, was published just before).
    void succeeded(quint64 send, const capwatch::net::SendSummary &summary);
    void gaveUp(quint64 send, const capwatch::net::SendSummary &summary);
    void cancelled(quint64 send, const capwatch::net::SendSummary &summary);
    /// After gaveUp(), in this order: the fallback (sent when automatic), the park, the trim.
    void fallbackOffered(const capwatch::session::FallbackOffer &offer);
    void parkOffered(const capwatch::session::ParkOffer &offer);
    void trimOffered(const capwatch::session::TrimOffer &offer);
    void parkedChanged(bool parked);
    void leftOutChanged(int turns, qint64 tokens);
    void providerChanged();
    void conversationChanged(const QUuid &id); ///< after newConversation() / a restore
    void conversationStored(const QUuid &id); ///< its first write was queued
    void conversationUpdated(const QUuid &id); ///< a message, send or record was queued
    void conversationRestored(const capwatch::session::RestoredConversation &conversation);
    void restoreFailed(const QUuid &id, const QString &reason);

private:
    struct Launch; // what a send is made with besides its prompt and options
    quint64 startSend(const QString &prompt, const SendOptions &options, const Launch &launch);
    bool current(quint64 send) const { return send != 0 && m_current && m_current->id() == send; }
    Send *ended() const; ///< the send that ended last (or the parked one), while no other began
    void adopt(Send *send);
    void onEnded(Send *send, quint64 id, const net::SendSummary &summary);
    void finish(Send *ended, const net::SendSummary &summary);
    void offerFallback(Send *ended, quint64 send);
    void offerTrim(Send *ended, quint64 send);
    void trimBeforeSend(const Send &send, qint64 excess, std::optional<qint64> named);
    quint64 startFallbackSend(const QString &prompt, const SendOptions &options, const QUuid &reuse,
        const std::function<void()> &beforeStart = {});
    void restoreClient(); ///< the client back to the own provider after a fallback's send
    void applyToClient(const ProviderChoice &choice);
    void wireClient();
    void renewClient(); ///< another conversation is shown: sends are numbered from 1 again
    void leaveSend(); ///< to the carrier, or cancelled
    /// The send in flight and its conversation, in a new session; null when it cannot go.
    std::unique_ptr<ChatSession> carryOff();
    void applyRestore(const QUuid &id, StoredConversation::Loaded loaded);
    void forgetConversation();
    ContextPlanner::Turns turns() const;
    void appendEndedRecord(const net::RetryRecord &record, const QUuid &storedSend);
    void unparkLastSend(bool cancelled);
    void adoptParked(const history::ParkedSend &parked);
    /// After a send ended: the answer Continue would go on with, or none.
    void noteContinuable(Send *ended, const net::SendSummary &summary);
    /// A rate-limit refusal on a profile that declares no limits: the limit it implies, on the
    /// send's state.
    void suggestDeclaredAfter(const net::RetryRecord &record);
    /// A request of `profile` went out or came back: a send held for the requests in flight
    /// goes when there is room.
    void onInFlightChanged(const QString &profile);
    /// After a send ended cut off: continues it by itself when its options say so.
    bool autoContinue(Send *ended);

    net::ChatClient *m_client;
    net::RetryLog *m_log;
    StoredConversation *m_stored;
    ProviderLink m_link;
    ContextPlanner m_planner;
    UsageLedger m_ledger; ///< the attempts of its sends, for the usage ledger
    double m_timeScale = 1.0;
    bool m_keepTranscript = true;
    QList<net::ChatMessage> m_history; ///< user and assistant, the answered exchanges
    QString m_failedPrompt;
    bool m_hasLastExchange = false;
    bool m_editing = false;
    int m_leftOut = 0; ///< oldest exchanges of m_history not sent
    QPointer<Send> m_current; ///< in flight, or ended last, or parked
    quint64 m_restoreToken = 0; ///< the latest openConversation() (or what overrode it)
    quint64 m_opening = 0; ///< the openConversation() being read; 0: none
    quint64 m_view = 0;
    QPointer<BackgroundSends> m_carrier;
    ParkingChoice m_parkingChoice = ParkingChoice::Ask;
    QPointer<ParkingLot> m_lot;
    /// The last answer, when it ended cut off or interrupted: what Continue goes on with.
    struct Continuable
    {
        QString prompt; ///< the user message it answers
        QString text; ///< all of it so far
        QList<qsizetype> seams;
        retry::AnswerEnd end = retry::AnswerEnd::None;
        bool inHistory = false; ///< it is m_history's last exchange (cut off, but answered)
        QUuid promptRow; ///< stored rows; null when not stored
        QUuid answerRow;
        int inARow = 0; ///< continuations of it so far
    };
    std::optional<Continuable> m_continuable;
    QPointer<Send> m_continuingSend; ///< the continuation in flight, of m_continuingFrom
    Continuable m_continuingFrom;
    bool m_autoContinuing = false;
    /// The failed prompt is a continuation's that failed before its first word: Retry and a park
    /// going out continue the answer again instead of asking the prompt anew.
    bool m_failedContinuation = false;
    /// A parked send out again is a continuation: its stored prompt is the continuable answer's.
    bool parkedIsContinuation(const Send &parked) const;
};

} // namespace capwatch::session
