#pragma once

// One send's whole state at one moment, as a value: where it is (its phase), the attempt and
// the policy's numbers, the wait and where it came from, the budget, the last failure, how it
// ended and what was offered after. A session::Send publishes it on every step and every tick
// of a wait; the panel, the card, the timeline, the status bar, the Queue and capwatch-cli all
// render this one value (SendTexts words it), so they cannot tell a send two ways.

#include "history/historytypes.h"
#include "net/chatclient.h"
#include "retry/answerend.h"
#include "retry/classifier.h"
#include "retry/constants.h"
#include "retry/policylimits.h"
#include "sessiontypes.h"

#include <QDateTime>
#include <QMetaType>
#include <QObject>
#include <QString>
#include <optional>

namespace capwatch::session {

Q_NAMESPACE

/// Where a send is. The first eight are the send's own; the last four are a parked send's
/// standing in the parking lot (docs/parking.md).
enum class SendPhase
{
    Idle, ///< no send yet (or another conversation)
    Pacing, ///< before attempt 1: waits for the provider's window (section 8.1)
    Sending, ///< an attempt is out, no answer yet
    Streaming, ///< the answer is coming in
    /// An attempt is out, and nothing (no headers, no piece of the answer) has come for
    /// kSilentAfter: the provider may be stuck. Anything that comes ends it.
    Silent,
    Waiting, ///< waits to retry
    Succeeded,
    GaveUp,
    Cancelled,
    Parked, ///< gave up capped, waits for its provider's reset
    Due, ///< its reset passed: waits for the previous send to its provider
    WaitsForProvider, ///< due, but another provider is chosen now
    WaitsForConsent, ///< due, on its provider: plain HTTP to another machine, not allowed yet
};
Q_ENUM_NS(SendPhase)

/// How long an attempt hears nothing before it is Silent (policy time: scaled like every wait).
inline constexpr retry::Millis kSilentAfter { 10'000 };

/// Where a parked send stands in the lot (ParkingLot::standing()).
enum class ParkedState
{
    Waiting, ///< its reset is still to come
    Due, ///< due, waiting for the previous send to its provider
    Sending, ///< released: its send is in flight
    WaitsForProvider, ///< due, but another provider is chosen now
    WaitsForConsent, ///< due, on its provider: plain HTTP to another machine, not consented to yet
};

/// The phase a parked send in `state` shows.
SendPhase phaseOf(ParkedState state);

struct SendState
{
    quint64 send = 0; ///< the client's id, also its `request` number in the retry log; 0: none
    SendPhase phase = SendPhase::Idle;
    /// The numbers of the policy the send runs under (its profile's, a fallback's own).
    retry::PolicyLimits limits;
    QString profile; ///< the id of the profile it goes to
    QString profileName; ///< its name
    QString model;
    /// Where its provider's reports are filed ("demo", or the stored endpoint): the fallback's
    /// after a send to it. The provider window shown beside it is this lane's and model's.
    QString lane;
    bool viaFallback = false; ///< it went to the fallback profile

    /// The attempt out now; while waiting, the one the wait leads to; once ended, the last one
    /// made. 0 before attempt 1 (pacing).
    int attempt = 0;

    // The wait in progress: a retry's (Waiting) or pacing's (Pacing). Policy time.
    retry::Millis wait { 0 }; ///< in full
    retry::Millis rawWait { 0 }; ///< what the provider asked for, before the cap
    retry::Millis waitLeft { 0 }; ///< the countdown
    retry::WaitSource source = retry::WaitSource::None;
    /// The latest retry wait of the send, kept after it ran: "Wait came from" follows it.
    std::optional<net::RetryInfo> lastWait;
    /// What the refusal the send gave up on asked to wait, when no wait followed it ("Retry in
    /// 28 min" beyond the budget): "Wait came from" follows the latest refusal, not an older one.
    std::optional<net::RetryInfo> lastAsked;
    /// The pacing plan of a paced send (wait > 0), kept after attempt 1 began.
    std::optional<net::PacePlan> pace;
    /// Pacing that ran, cut short by Send now or a cancel: the part that ran.
    std::optional<retry::Millis> pacedFor;
    retry::Millis budgetLeft { retry::kRetryBudget }; ///< live: falls only while a wait runs

    /// The send's latest failed attempt; nullopt before any.
    std::optional<net::AttemptFailure> lastFailure;
    /// The last token figures a refusal named (used / limit); cleared once an answer got through.
    std::optional<double> used;
    std::optional<double> limit;
    /// Silent: how long nothing came (policy time).
    retry::Millis silentFor { 0 };
    /// What the answer used, when the provider said (Succeeded).
    std::optional<qint64> answerTokens;
    std::optional<net::Usage> usage; ///< the whole usage the provider reported, once ended
    /// What the usage ledger counted for its attempts so far (billed or estimated).
    history::CostTotal cost;
    /// Refused for its rate on a profile that declares no limits: the limit the refusal
    /// implies, which the profile could declare (the window offers to keep it).
    std::optional<retry::DeclaredSuggestion> declaredSuggestion;
    QString suggestionProfile; ///< the profile's id it is for

    // How it ended (Succeeded, GaveUp, Cancelled).
    retry::EndReason reason = retry::EndReason::None;
    QString finalErrorText; ///< section 5's text, for failures
    std::optional<retry::Millis> cutWait; ///< a cancel cut a wait: the part that ran
    bool incomplete = false; ///< an answer began and was cut off
    /// How its answer ended (issue 29): complete, cut off at the output limit, interrupted,
    /// empty; None while it runs or when no answer began. For a continuation: the joined
    /// answer's.
    retry::AnswerEnd answerEnd = retry::AnswerEnd::None;
    QString finishReason; ///< the provider's, of the last response
    /// It continues an earlier answer (Continue): its text joins that answer after a seam.
    bool continuation = false;
    /// Continuations of the same answer so far, this one included (0: not a continuation).
    int continuationsInARow = 0;
    /// The whole answer's characters (a continuation's: with the answer it continues).
    qsizetype answerChars = 0;
    /// Where continuations were joined to the answer (character offsets, ascending).
    QList<qsizetype> seams;
    bool stoppedByUser = false; ///< while the user's Stop cancels it (not a provider change)

    /// While waiting (issue 25.12): the provider's reset lies beyond what the retry budget can
    /// still reach, so the send can be parked now ("Send at 14:09") instead of spending its
    /// waits in vain; `parkable` false when not. Cleared when the next attempt starts.
    ParkOffer earlyPark;
    // What was offered when it ended (each `offered` false when none).
    ParkOffer park;
    FallbackOffer fallback;
    TrimOffer trim;

    // Parked (the four parked phases).
    std::optional<history::ParkedSend> parked;
    QDateTime now; ///< the wall clock the parked figures were taken at

    bool waiting() const { return phase == SendPhase::Waiting; }
    bool pacing() const { return phase == SendPhase::Pacing; }
    /// Out or waiting: not ended, not parked.
    bool running() const
    {
        return phase == SendPhase::Pacing || phase == SendPhase::Sending
            || phase == SendPhase::Streaming || phase == SendPhase::Silent
            || phase == SendPhase::Waiting;
    }
    bool ended() const
    {
        return phase == SendPhase::Succeeded || phase == SendPhase::GaveUp
            || phase == SendPhase::Cancelled;
    }
    /// In the parking lot: waiting for its reset, due, or going out at it.
    bool isParked() const { return parked.has_value(); }
    /// The interfaces.md name of the latest failure's category; empty before any.
    QString failureCategory() const;
    /// Policy time of the current wait that has run.
    retry::Millis waitElapsed() const;
    /// Where `parked` stands in the lot (`standing`), at the wall time `now`, as a state: what
    /// the Queue shows of a parked send, whether or not a session shows its conversation.
    static SendState ofParked(
        const history::ParkedSend &parked, ParkedState standing, const QDateTime &now);
    /// A parked state's standing in the lot (Waiting for any phase that is not a parked one).
    ParkedState standing() const;
};

} // namespace capwatch::session

Q_DECLARE_METATYPE(capwatch::session::SendState)
