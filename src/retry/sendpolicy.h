#pragma once

// Section 4 of the retry policy: the state machine of one send. It is driven by events (an
// attempt started, failed, got its headers...) and answers with decisions; it owns no timer and
// never sleeps. The caller (the network layer's retry driver, or a test) arms the timers.

#include "classifier.h"
#include "clock.h"
#include "constants.h"
#include "policylimits.h"

#include <optional>
#include <string_view>

namespace capwatch::retry {

enum class EndReason
{
    None,
    NotRetryable,
    AttemptsExhausted,
    BudgetExhausted,
    Timeout,
    AuthUnchanged,
    Cancelled,
};

std::string_view nameOf(EndReason reason);
/// The end reason of a name (`budget_exhausted`); empty for any other text, an empty one included.
std::optional<EndReason> endReasonNamed(std::string_view name);

struct Decision
{
    enum class Action
    {
        Retry, ///< start attempt `nextAttempt` after `wait`
        ReloadCredential, ///< reload the key, then call credentialReloaded()
        GiveUp, ///< the send is over; `reason` says why
    };
    Action action = Action::GiveUp;
    int nextAttempt = 0;
    Millis wait { 0 };
    Millis rawWait { 0 };
    WaitSource source = WaitSource::None;
    Millis waitedTotal { 0 }; ///< scheduled waits of this send, this one included
    Millis budgetLeft { kRetryBudget }; ///< limits().budget - waitedTotal
    EndReason reason = EndReason::None;
};

class SendPolicy final
{
public:
    enum class State
    {
        Idle,
        Sending,
        Waiting,
        ReloadingCredential,
        Succeeded,
        GaveUp,
        Cancelled
    };

    /// `limits`: the profile's numbers (section 9), held to their bounds (clampedToBounds());
    /// the defaults are section 4's.
    explicit SendPolicy(const Clock &clock, PolicyLimits limits = {});
    const PolicyLimits &limits() const { return m_limits; }

    /// Starts the next attempt (the first, or the one a Retry decision announced).
    /// Returns its 1-based number.
    int startAttempt();
    void headersReceived();
    /// Monotonic time by which a retry attempt must have its response headers; nullopt for the
    /// first attempt, once headers arrived, or when no attempt is in flight.
    std::optional<Millis> headerDeadline() const;

    /// The attempt in flight failed; it is classified with the attempt number as retry index.
    Decision attemptFailed(const Response &response);
    Decision attemptFailed(const Classification &classification);
    /// Answer to a ReloadCredential decision.
    Decision credentialReloaded(bool keyChanged);
    /// The header deadline of a retry attempt passed.
    Decision headerTimedOut();
    void succeeded();
    void cancel();

    State state() const { return m_state; }
    bool finished() const;
    int attempt() const { return m_attempt; }
    EndReason endReason() const { return m_reason; }
    const std::optional<Classification> &lastError() const { return m_lastError; }
    /// Scheduled waits so far, the current one included.
    Millis waitedTotal() const { return m_waitedTotal; }
    /// Waits actually spent: the earlier waits plus the elapsed part of the current one.
    Millis waitedSoFar() const;
    /// The live figure: limits().budget minus waitedSoFar(). Falls only while a wait runs.
    Millis budgetLeft() const { return m_limits.budget - waitedSoFar(); }
    /// Time left until the next attempt is due (0 when not waiting).
    Millis waitLeft() const;
    /// Monotonic time the current wait ends, when waiting.
    std::optional<Millis> waitDeadline() const;
    const Decision &lastDecision() const { return m_lastDecision; }

private:
    Decision giveUp(EndReason reason);
    Decision scheduleRetry(Millis wait, Millis raw, WaitSource source);

    const Clock &m_clock;
    PolicyLimits m_limits;
    State m_state = State::Idle;
    int m_attempt = 0;
    bool m_headersReceived = false;
    bool m_credentialReloaded = false;
    Millis m_attemptSentAt { 0 };
    Millis m_waitedTotal { 0 };
    Millis m_currentWait { 0 };
    Millis m_waitStartedAt { 0 };
    Millis m_frozenWaited { 0 }; ///< waitedSoFar() once the send ended mid-wait
    bool m_frozen = false;
    EndReason m_reason = EndReason::None;
    std::optional<Classification> m_lastError;
    Decision m_lastDecision;
};

} // namespace capwatch::retry
