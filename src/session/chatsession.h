#pragma once

// One conversation without a widget: the transcript, the provider it talks to, the send in
// flight and the one wait ticker every view listens to. The window and capwatch-cli both drive
// their sends through it and only display what it emits, so they cannot drift apart.

#include "backgroundsends.h"
#include "history/historywriter.h"
#include "localprovider.h"
#include "net/chatclient.h"
#include "net/retrylog.h"
#include "parkinglot.h"
#include "providermemory.h"
#include "send.h"
#include "sendstate.h"
#include "sessionsetup.h"
#include "sessiontypes.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>
#include <QUuid>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace capwatch::session {

/// The most of an answer the history stores (2 MB): what capwatch-cli holds in memory for it,
/// however long the answer it streams through. A longer answer is stored cut there, as CutOff.
inline constexpr qsizetype kMaxStoredAnswerChars = 1'000'000;

class ChatSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChatSession)

public:
    using KeychainFactory = session::KeychainFactory;

    explicit ChatSession(QObject *parent = nullptr);
    ~ChatSession() override;

    // --- wiring ---
    /// Wires it as `setup` says (all but the provider and its fallback): the setters below.
    void configure(const SessionSetup &setup);
    /// 0 < scale <= 1: every wait and timeout runs `scale` times as long on the wall clock.
    void setTimeScale(double scale);
    /// What serves the demo when it is chosen (not owned; may be null: the demo then has no
    /// endpoint, as when it cannot start).
    void setLocalProvider(LocalProvider *provider);
    /// Makes the credential provider for ProviderChoice::KeySource::Keychain.
    void setKeychain(KeychainFactory make);
    /// False for a one-turn session (capwatch-cli chat): the answer streams through and nothing
    /// of it is kept, however long it is. True by default.
    void setKeepTranscript(bool keep);
    /// Talks to `choice` from the next send on. Leaving the demo cancels a send in flight.
    void setProvider(const ProviderChoice &choice);

    bool usingDemo() const { return m_demo; }
    QUrl endpoint() const { return m_endpoint; }
    QString model() const { return m_model; }
    /// Loads the credential to tell (the keychain excepted); a key file may change meanwhile.
    KeyStatus keyStatus() const;
    /// True when a send now would carry a key over plain HTTP to a host that is not loopback
    /// and allowPlainHttp() was not called for this endpoint in this session.
    bool needsPlainHttpConsent() const;
    void allowPlainHttp();
    /// True when a send of this session to `choice`'s endpoint with its key would need no
    /// question: it talks to that endpoint with that key and needsPlainHttpConsent() is false.
    bool consentsToPlainHttp(const ProviderChoice &choice) const;
    /// The same for a send to the fallback (sendToFallback(), and the automatic one): whether it
    /// would put the fallback profile's key on plain HTTP to a host that is not this machine,
    /// and allowFallbackPlainHttp() was not called for the fallback's endpoint. An automatic
    /// fallback that needs it is not sent: the offer is told with `automatic` false.
    bool fallbackNeedsPlainHttpConsent() const;
    void allowFallbackPlainHttp();
    net::RetryLog *retryLog() const { return m_log; }

    // --- the conversation ---
    bool busy() const;
    quint64 currentSend() const { return m_current ? m_current->id() : 0; }
    /// The messages of the answered exchanges, sent before every prompt.
    const QList<net::ChatMessage> &history() const { return m_history; }
    /// The prompt of the last send that failed or was cancelled, until another send starts.
    QString failedPrompt() const { return m_failedPrompt; }
    /// An answered exchange that nothing came after: it can be asked again or edited.
    bool hasLastExchange() const { return m_hasLastExchange; }
    QString lastPrompt() const;
    /// While editing, the next send() replaces the last exchange.
    bool editing() const { return m_editing; }
    bool beginEdit();
    void endEdit() { m_editing = false; }
    /// True when a send() now replaces the last exchange.
    bool sendReplacesLastExchange() const;

    /// Sends `prompt` after the history; while editing, in place of the last exchange. A send
    /// in flight is cancelled first: the latest send wins. 0 for an empty prompt.
    quint64 send(const QString &prompt, const SendOptions &options);
    /// Sends the failed prompt again; 0 when there is none or a send is in flight.
    quint64 retryFailed(const SendOptions &options);
    /// Asks again for the last answer: the same conversation without it. 0 when there is none.
    quint64 regenerate(const SendOptions &options);
    /// Cancels the send in flight, during a request or a wait. No-op when idle. A parked send
    /// that was going out stays parked (the lot sends it again): a provider change, a switch of
    /// conversation, quitting.
    void cancel();
    /// The user's Stop: cancel(), and a parked send that was going out is taken out of the lot
    /// (its prompt is the failed one, for Retry now).
    void stop();

    /// The state of the send in flight (or ended last); before any, of the next one (its
    /// profile's numbers and name).
    SendState sendState() const;

    // --- history (docs/session.md: what is stored when) ---
    /// Where the conversation is stored; null (the default) stores nothing (--private, tests).
    /// Not owned; must outlive the session or be unset first. A send already in flight is not
    /// stored; a new writer starts a new stored conversation at the next send.
    void setHistory(history::HistoryWriter *writer);
    history::HistoryWriter *historyWriter() const { return m_writer; }
    /// The stored conversation this session shows; null until its first send is stored (a new
    /// conversation is written when its first prompt is sent, so empty ones never clutter
    /// history).
    QUuid conversationId() const { return m_conversation; }
    /// Starts an empty conversation: cancels a send in flight, clears the transcript and the
    /// retry log, emits conversationChanged(QUuid()).
    void newConversation();
    /// Loads conversation `id` through the writer's queue, then cancels a send in flight,
    /// replaces the transcript and the retry log (RetryLog::replace(), one cleared() signal) and
    /// emits conversationChanged(id) and conversationRestored(). An unknown id, or no writer,
    /// emits restoreFailed(). A send, newConversation() or a later openConversation() before the
    /// answer comes wins: this one is then dropped.
    void openConversation(const QUuid &id);
    /// Where a send in flight goes on when this session shows another conversation
    /// (newConversation(), a restore): switching conversations never cancels a send (issue 25,
    /// point 4). Not owned; null (the default, capwatch-cli): the send is cancelled.
    void setCarrier(BackgroundSends *carrier);
    BackgroundSends *carrier() const { return m_carrier; }
    /// Hands the send in flight, with the conversation it belongs to, to a new session wired as
    /// this one (its client, its Send, its transcript and stored rows): it goes on there, stores
    /// its answer and records there, and this session is left idle and empty, with a new client.
    /// Null (nothing moved) when nothing is in flight, the conversation is not stored, or the
    /// send is a parked one the lot released here (the lot sends that one again).
    std::unique_ptr<ChatSession> carryOff();

    // --- parking (docs/parking.md) ---
    /// The wall clock parking reads (UTC). Tests move it to play a suspend; default: now.
    using WallClock = std::function<QDateTime()>;
    void setWallClock(WallClock clock);
    QDateTime wallNow() const;
    /// What a send that ends capped beyond the budget does; Ask by default.
    void setParkingChoice(ParkingChoice choice);
    ParkingChoice parkingChoice() const { return m_parkingChoice; }
    /// Where park() puts a send: the lot stores it, arms it and at its reset sends it here, or in
    /// a session of its own when none shows its conversation. Not owned; null: park() only logs
    /// and the caller waits itself (capwatch-cli chat --wait-for-reset).
    void setParkingLot(ParkingLot *lot);
    ParkingLot *parkingLot() const { return m_lot; }
    /// The lot's own session for a parked send: the lot drives it, it is not attached (it shows
    /// nothing). leaveLot() forgets the lot without detaching (the lot is going, or done).
    void driveFromLot(ParkingLot *lot) { m_lot = lot; }
    void leaveLot() { m_lot = nullptr; }
    /// The id of the profile this session talks to (ProviderChoice::profile).
    QString profileId() const { return m_choice.profile; }
    /// Moves on with every newConversation() and restore: a parked send that is not stored
    /// belongs to what the session showed when it was parked.
    quint64 viewToken() const { return m_view; }
    /// True while stop() cancels the send in flight: the user's Stop, not a provider change.
    bool stoppedByUser() const { return m_current && m_current->stoppedByUser(); }
    /// The lot's name for the provider talked to: "demo", or the stored endpoint (its queue:
    /// one parked send at a time per lane).
    QString lane() const;
    /// Of the send that ended last; `parkable` only while its prompt is the failed prompt and it
    /// is not parked yet.
    ParkOffer parkOffer() const { return m_current ? m_current->state().park : ParkOffer(); }
    /// Parks the failed prompt as parkOffer() says: logs `parked` (stored with its send) and
    /// hands it to the lot. False when it is not parkable. With ParkingChoice::Automatic the
    /// session calls it itself when the send ends.
    bool park();
    /// While the send waits to retry and its provider's reset lies beyond what its budget can
    /// reach (SendState::earlyPark, issue 25.12): stops the cycle (logged `cancelled`, the part of
    /// the wait that ran) and parks the prompt until that reset, as park() does after a give-up.
    /// The views see it end as given up, then parked. False when not offered.
    bool parkNow();
    /// True between park() and sendParked(), runParked() or cancelPark().
    bool isParked() const { return m_current && m_current->state().isParked(); }
    /// Sends the parked prompt again, after logging `unparked` with `why` (SentNow or
    /// ResetReached): a fresh retry cycle. Its parks carry over: in a lot, a send that ends
    /// capped again is parked again (whatever the choice) until kMaxParksInARow; without one
    /// the offer counts them. 0 when nothing is parked or a send is in flight.
    quint64 sendParked(net::RetryRecord::Unpark why, const SendOptions &options);
    /// Logs `unparked` with Cancelled (stored); the prompt stays the failed one (Retry now).
    void cancelPark();
    /// The lot's way in: sends `parked`, a send of the conversation this session shows (or of
    /// none, without history), as sendParked() does, with its stored options and park count;
    /// the prompt's stored message is reused, not stored again. 0 when busy or not shown here.
    quint64 runParked(const history::ParkedSend &parked, net::RetryRecord::Unpark why);
    /// Logs (and stores, with the parked send's send) `unparked` with `why` for a parked send
    /// of the conversation shown here, without sending it: the lot's Cancel and Edit.
    void logUnparked(const history::ParkedSend &parked, net::RetryRecord::Unpark why);

    // --- pacing and context (docs/retry-policy.md section 8) ---
    /// What is learned about providers, shared by the sessions of a process; not owned. Null:
    /// no pacing, no learning, no context window but what a context error names in this session.
    void setProviderMemory(ProviderMemory *memory);
    ProviderMemory *providerMemory() const { return m_memory; }
    /// Pacing before a send (on by default; Settings -> Retries).
    void setPacingEnabled(bool enabled) { m_pacingEnabled = enabled; }
    bool pacingEnabled() const { return m_pacingEnabled; }
    /// Leaves out the oldest turns by itself when a send would not fit (off by default).
    void setAutoTrim(bool automatic) { m_autoTrim = automatic; }
    /// With automatic trimming, a send that ended on a context error is trimmed and sent again
    /// by the session itself (true, the default), or only offered with `automatic` set, for the
    /// caller to resend with trimAndResend() (the window, which keeps its editor and buttons in
    /// step with every send).
    void setResendsAfterTrim(bool resends) { m_resendsAfterTrim = resends; }
    bool autoTrim() const { return m_autoTrim; }
    /// While the send waits for the provider's window: sends it now. False otherwise.
    bool sendNow();
    /// The request a send of `prompt` with `options` would make now, against the context window.
    ContextGauge contextGauge(const QString &prompt, const SendOptions &options) const;
    /// The plan for a send of `prompt` now (also when nothing needs leaving out).
    TrimOffer trimOfferFor(const QString &prompt, const SendOptions &options) const;
    /// The offer made after the last send ended on a context error; offered false when none.
    TrimOffer trimOffer() const { return m_current ? m_current->state().trim : TrimOffer(); }
    /// Leaves the oldest `turns` earlier turns out of every request from now on (they stay in the
    /// transcript and the history). Clamped to all but the last turn; emits leftOutChanged().
    void setLeftOut(int turns);
    int leftOut() const { return m_leftOut; }
    /// Applies trimOffer()'s plan and sends the failed prompt again. 0 when there is no offer
    /// or a send is in flight.
    quint64 trimAndResend(const SendOptions &options);

    // --- profiles and fallback (issue 17; docs/session.md) ---
    /// Where a send to the provider set with setProvider() may go when it ends capped
    /// (FallbackOffer): another profile's choice, with its own endpoint, key, limits and model.
    /// nullopt: none. `automatic`: the session sends there by itself. Kept across setProvider().
    void setFallback(std::optional<ProviderChoice> fallback, bool automatic);
    /// Of the send that ended last; offered false when none.
    FallbackOffer fallbackOffer() const
    {
        return m_current ? m_current->state().fallback : FallbackOffer();
    }
    /// Sends the failed prompt to the fallback as fallbackOffer() says: logs `fallback` (stored
    /// with the capped send), then a fresh cycle with the fallback's endpoint, key and limits. A
    /// send to a fallback that ends capped is never offered another (one hop). Later sends go to
    /// the session's own provider again. 0 when nothing is offered, a send is in flight, or
    /// fallbackNeedsPlainHttpConsent() (ask, allowFallbackPlainHttp(), then call again).
    quint64 sendToFallback(const SendOptions &options);
    /// The profile name the send in flight (or ended last) went to: its answer is marked with it.
    QString sendProfile() const { return m_current ? m_current->state().profileName : QString(); }
    /// True while the send in flight (or ended last) went to the fallback.
    bool sentToFallback() const { return m_current && m_current->state().viaFallback; }
    /// True while a send to the fallback is in flight. setProvider() does not cancel it (the
    /// client keeps that send's key source and limits); when the fallback profile itself
    /// changed, the caller cancels it and says so. sendProfileId() names that profile.
    bool fallbackSendRunning() const { return m_clientOnFallback && busy(); }
    /// The profile id the send in flight (or ended last) went to.
    QString sendProfileId() const { return m_current ? m_current->profileId() : QString(); }

Q_SIGNALS:
    /// Right after gaveUp() (before parkOffered()): what fallbackOffer() says, offered or not.
    /// With `automatic`, the fallback's send has already started when this arrives.
    void fallbackOffered(const capwatch::session::FallbackOffer &offer);
    /// After gaveUp() on a context error (and before a send, when automatic trimming applied a
    /// plan): what trimOffer() says.
    void trimOffered(const capwatch::session::TrimOffer &offer);
    /// The oldest turns left out of requests changed (a trim, a new conversation, a restore).
    void leftOutChanged(int turns, qint64 tokens);

    /// The send in flight (or ended last) changed: a step, a tick of its wait, an offer, a park.
    /// Every view of a send renders this one value (SendTexts words it).
    void sendStateChanged(const capwatch::session::SendState &state);
    /// A send of this session started (its first sendStateChanged() came just before).
    void sendStarted(quint64 send);
    /// A piece of the current send's answer as it streams in.
    void answerText(quint64 send, const QString &text);
    // The current send ended; its state, with the offers, was published just before.
    void succeeded(quint64 send, const capwatch::net::SendSummary &summary);
    void gaveUp(quint64 send, const capwatch::net::SendSummary &summary);
    void cancelled(quint64 send, const capwatch::net::SendSummary &summary);
    void providerChanged();
    /// Right after gaveUp() (and, with ParkingChoice::Automatic or a send parked before, after
    /// park()): what parkOffer() says, also when not parkable (the view says why). isParked()
    /// tells whether it was taken.
    void parkOffered(const capwatch::session::ParkOffer &offer);
    /// park() succeeded, or a parked prompt went out or was cancelled.
    void parkedChanged(bool parked);

    void conversationChanged(const QUuid &id); ///< after newConversation() / a restore
    /// The first write of a new conversation was queued (the sidebar inserts a row).
    void conversationStored(const QUuid &id);
    /// A message, send or record of it was queued (the sidebar moves it to the top, marks it).
    void conversationUpdated(const QUuid &id);
    void conversationRestored(const capwatch::session::RestoredConversation &conversation);
    void restoreFailed(const QUuid &id, const QString &reason);

private:
    /// What a send is made with besides its prompt and options.
    struct Launch
    {
        std::optional<ProviderChoice> fallback; ///< prepared (prepareFallback()); else its own
        QUuid storedPrompt; ///< its user message is stored already (the same prompt again)
        QString model; ///< a parked send goes with the model it was parked with
        int parksInARow = 0; ///< a parked send out again: one more than when it was parked
    };
    quint64 startSend(const QString &prompt, const SendOptions &options, Launch launch);
    /// `send` is the send in flight or the one that ended last, and this session still has it.
    bool current(quint64 send) const { return send != 0 && m_current && m_current->id() == send; }
    /// The send that ended last (or the parked one taken over), while no other began.
    Send *ended() const;
    /// Makes `send` the current one: its state is this session's from now on.
    void adopt(Send *send);
    void onEnded(Send *send, quint64 id, const net::SendSummary &summary);
    void finish(Send *ended, const net::SendSummary &summary);
    void keepAnswerText(const QString &text);
    /// Forgets the send that ended last (another conversation is shown).
    void dropLastSend();
    /// The fallback the send in flight (or ended last) went to; nullopt for the own provider.
    std::optional<ProviderChoice> sendFallback() const;
    // History: each queues its writes on m_writer and returns at once.
    void storeSendStart(const QString &prompt, const QUuid &storedPrompt);
    /// Regenerate, Edit and resend: the last exchange's stored messages are marked Replaced.
    void storeReplacedExchange();
    void storeAnswerStart();
    void storeSendEnd(const net::SendSummary &summary);
    void storeRecord(int row);
    struct Loaded;
    void applyRestore(const QUuid &id, Loaded loaded);
    bool keyWouldBeSent() const;
    net::Credential loadNow() const;
    /// Connects the client's reports to this session and gives it this session's log and scale.
    void wireClient();
    /// Another conversation is shown: a new client, whose sends are numbered from 1 (a restored
    /// conversation's continue after its own). Idle only.
    void renewClient();
    /// Before another conversation is shown: the send in flight goes to the carrier, or is
    /// cancelled when there is none (or it cannot go on elsewhere).
    void leaveSend();
    QPointer<BackgroundSends> m_carrier;

    ParkOffer parkOfferFor(const Send &ended, const net::SendSummary &summary) const;
    net::RetryRecord parkRecord(const Send &ended, net::RetryRecord::Event event) const;
    void appendParkRecord(net::RetryRecord record, const QUuid &storedSend);

    /// The send that ended last shows its end again (taken out of the lot without going out).
    /// `cancelled`: by the user, its prompt is a failed one again (not parkable, Retry now).
    void unparkLastSend(bool cancelled);
    bool shows(const history::ParkedSend &parked) const;
    /// Takes `parked` as this session's parked prompt (the lot's entry of the conversation shown).
    void adoptParked(const history::ParkedSend &parked);

    net::ChatClient *m_client;
    net::RetryLog *m_log;
    LocalProvider *m_local = nullptr;
    KeychainFactory m_keychain;
    double m_timeScale = 1.0;
    bool m_keepTranscript = true;

    ProviderChoice m_choice;
    bool m_demo = false;
    QUrl m_endpoint;
    QString m_model;
    QSet<QString> m_plainHttpConsent; ///< endpoints allowed to get the key unencrypted

    QList<net::ChatMessage> m_history;
    QString m_failedPrompt;
    bool m_hasLastExchange = false;
    bool m_editing = false;
    /// The send in flight, or the one that ended last (or the parked one of the conversation
    /// shown): its prompt, answer, offers and state.
    QPointer<Send> m_current;

    QPointer<history::HistoryWriter> m_writer;
    QUuid m_conversation;
    /// The rows of the last exchange (hasLastExchange()); null when it is not stored.
    QUuid m_lastStoredPrompt;
    QUuid m_lastStoredAnswer;
    quint64 m_restoreToken = 0; ///< the latest openConversation() (or what overrode it)
    /// Moves on with every newConversation() and restore: a parked send that is not stored (no
    /// history) belongs to the conversation this session showed when it was parked.
    quint64 m_view = 0;

    WallClock m_wallClock;
    ParkingChoice m_parkingChoice = ParkingChoice::Ask;
    /// parkNow() cancelled the cycle to park with this offer: its end parks it.
    std::optional<ParkOffer> m_parkWhenEnded;
    QPointer<ParkingLot> m_lot;
    bool m_restorePending = false; ///< an openConversation() not answered yet
    QUuid m_lastStoredMessage; ///< the conversation's last stored message, stored or restored

    // Profiles and fallback (chatsessionfallback.cpp).
    /// What a send to `choice` authenticates with: its own key source (the demo: none).
    std::shared_ptr<net::CredentialProvider> credentialsFor(const ProviderChoice &choice) const;
    /// The client's credential provider, limits and profile name from `choice`.
    void applyToClient(const ProviderChoice &choice);
    /// Before a send to the session's own provider: the client back from a fallback's.
    void restoreClient();
    /// In finish(): the offer of the send that ended (offered only when it gave up capped).
    FallbackOffer fallbackOfferFor(const net::SendSummary &summary, const Send &ended) const;
    /// Right after gaveUp(): sends to the fallback when automatic, emits fallbackOffered().
    void offerFallback(Send *ended, quint64 send);
    std::optional<ProviderChoice> m_fallback;
    bool m_autoFallback = false;
    /// The fallback a demo fallback's endpoint is found for (the session's own local provider,
    /// or one it starts); nullopt when it could not start. `startedLocal`: it was started.
    std::optional<ProviderChoice> prepareFallback(bool &startedLocal);
    /// Sends `prompt` to the prepared `target` with its key source, limits and profile name.
    quint64 startFallbackSend(ProviderChoice target, bool startedLocal, const QString &prompt,
        const SendOptions &options, const QUuid &storedPrompt = {});
    /// trimAndResend() after a send to the fallback: the trimmed prompt goes to the same
    /// fallback again (still one hop), never back to the capped profile.
    quint64 resendToFallback(const SendOptions &options);
    bool m_clientOnFallback = false; ///< the client holds the fallback's key source and limits
    bool m_fallbackStartedLocal = false; ///< a demo fallback started the local provider
    /// The profile id stored with the conversation shown (set or restored); what setProvider()
    /// compares with to store a change.
    QString m_conversationProfile;

    // Pacing and trimming (chatsessionpacing.cpp).
    /// The next send to the session's own provider.
    SendLane ownLane(const QString &model = {}) const;
    /// A send to the fallback `target` (as prepared by prepareFallback()).
    static SendLane laneOf(const ProviderChoice &target);
    net::PacePlan pacePlanFor(const net::ChatRequest &request, const SendLane &to) const;
    /// The turns of m_history (oldest first) with their estimated tokens.
    std::vector<std::int64_t> turnTokens(const SendLane &to) const;
    double charsPerToken(const SendLane &to) const;
    std::optional<qint64> knownContextWindow(const SendLane &to) const;
    void onProviderReported(quint64 send, const net::ProviderReport &report);
    void onContextOverflow(quint64 send, const net::ContextOverflow &overflow);
    /// Automatic trimming before a send: applies a plan when the request would not fit.
    /// `excess` and `named`: the figures of a context error the send before ended on.
    void trimBeforeSend(const QString &prompt, const SendOptions &options, const SendLane &to,
        qint64 excess, std::optional<qint64> named);
    QPointer<ProviderMemory> m_memory;
    bool m_pacingEnabled = true;
    bool m_autoTrim = false;
    bool m_resendsAfterTrim = true;
    int m_leftOut = 0; ///< oldest exchanges of m_history not sent
    std::optional<qint64> m_sessionContextWindow; ///< named by an error, without a memory
    /// `excess`: how much more the provider counted than the estimate; `named`: the window a
    /// context error named (the smaller of it and the known one is planned with).
    TrimOffer makeTrimOffer(const QString &prompt, const SendOptions &options, const SendLane &to,
        qint64 excess, std::optional<qint64> named = {}) const;
    qint64 fixedTokens(const QString &prompt, const SendOptions &options, const SendLane &to) const;
    qint64 leftOutTokens() const;
    void clearLeftOut();
    /// After gaveUp(): the Trim and resend offer of a context error (resent at once with
    /// automatic trimming).
    void offerTrim(Send *ended, quint64 send);
};

} // namespace capwatch::session
