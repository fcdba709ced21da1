#include "sendpolicy.h"

#include <algorithm>
#include <cassert>

namespace capwatch::retry {

std::string_view nameOf(EndReason reason)
{
    switch (reason) {
    case EndReason::None:
        return "";
    case EndReason::NotRetryable:
        return "not_retryable";
    case EndReason::AttemptsExhausted:
        return "attempts_exhausted";
    case EndReason::BudgetExhausted:
        return "budget_exhausted";
    case EndReason::Timeout:
        return "timeout";
    case EndReason::AuthUnchanged:
        return "auth_unchanged";
    case EndReason::Cancelled:
        return "cancelled";
    }
    return "";
}

std::optional<EndReason> endReasonNamed(std::string_view name)
{
    for (const EndReason r :
        { EndReason::NotRetryable, EndReason::AttemptsExhausted, EndReason::BudgetExhausted,
            EndReason::Timeout, EndReason::AuthUnchanged, EndReason::Cancelled }) {
        if (nameOf(r) == name)
            return r;
    }
    return std::nullopt;
}

SendPolicy::SendPolicy(const Clock &clock, PolicyLimits limits)
    : m_clock(clock)
    , m_limits(clampedToBounds(limits))
{ }

bool SendPolicy::finished() const
{
    return m_state == State::Succeeded || m_state == State::GaveUp || m_state == State::Cancelled;
}

int SendPolicy::startAttempt()
{
    assert(m_state == State::Idle || m_state == State::Waiting);
    assert(m_attempt < m_limits.maxAttempts);
    m_state = State::Sending;
    ++m_attempt;
    m_headersReceived = false;
    m_attemptSentAt = m_clock.now();
    m_currentWait = Millis(0);
    return m_attempt;
}

void SendPolicy::headersReceived()
{
    m_headersReceived = true;
}

std::optional<Millis> SendPolicy::headerDeadline() const
{
    if (m_state != State::Sending || m_attempt < 2 || m_headersReceived)
        return std::nullopt;
    return m_attemptSentAt + m_limits.headerTimeout;
}

Decision SendPolicy::attemptFailed(const Response &response)
{
    return attemptFailed(
        withLimits(classify(response, m_attempt, m_clock.wallNow()), m_attempt, m_limits));
}

Decision SendPolicy::attemptFailed(const Classification &c)
{
    assert(m_state == State::Sending);
    m_lastError = c;
    if (!c.retryable || !m_limits.retries(c.category))
        return giveUp(EndReason::NotRetryable);
    // A budget of 0 s means no retries at all (section 9): the one attempt was the send.
    if (m_limits.budget <= Millis(0))
        return giveUp(EndReason::BudgetExhausted);
    if (m_attempt >= m_limits.maxAttempts)
        return giveUp(EndReason::AttemptsExhausted);
    if (c.category == Category::Auth) {
        if (m_credentialReloaded)
            return giveUp(EndReason::AuthUnchanged);
        m_state = State::ReloadingCredential;
        m_lastDecision = Decision {};
        m_lastDecision.action = Decision::Action::ReloadCredential;
        m_lastDecision.nextAttempt = m_attempt + 1;
        m_lastDecision.waitedTotal = m_waitedTotal;
        m_lastDecision.budgetLeft = m_limits.budget - m_waitedTotal;
        return m_lastDecision;
    }
    const Millis wait = c.wait.value_or(Millis(0));
    if (m_waitedTotal + wait > m_limits.budget)
        return giveUp(EndReason::BudgetExhausted);
    return scheduleRetry(wait, c.rawWait.value_or(wait), c.waitSource);
}

Decision SendPolicy::credentialReloaded(bool keyChanged)
{
    assert(m_state == State::ReloadingCredential);
    m_credentialReloaded = true;
    if (!keyChanged)
        return giveUp(EndReason::AuthUnchanged);
    return scheduleRetry(Millis(0), Millis(0), WaitSource::CredentialRefresh);
}

Decision SendPolicy::headerTimedOut()
{
    assert(m_state == State::Sending);
    return giveUp(EndReason::Timeout);
}

void SendPolicy::succeeded()
{
    assert(m_state == State::Sending);
    m_state = State::Succeeded;
    m_reason = EndReason::None;
}

void SendPolicy::cancel()
{
    if (finished())
        return;
    m_frozenWaited = waitedSoFar();
    m_frozen = true;
    m_state = State::Cancelled;
    m_reason = EndReason::Cancelled;
}

Millis SendPolicy::waitedSoFar() const
{
    if (m_frozen)
        return m_frozenWaited;
    if (m_state != State::Waiting)
        return m_waitedTotal;
    const Millis elapsed = std::clamp(m_clock.now() - m_waitStartedAt, Millis(0), m_currentWait);
    return m_waitedTotal - m_currentWait + elapsed;
}

Millis SendPolicy::waitLeft() const
{
    if (m_state != State::Waiting)
        return Millis(0);
    return std::max(Millis(0), m_waitStartedAt + m_currentWait - m_clock.now());
}

std::optional<Millis> SendPolicy::waitDeadline() const
{
    if (m_state != State::Waiting)
        return std::nullopt;
    return m_waitStartedAt + m_currentWait;
}

Decision SendPolicy::giveUp(EndReason reason)
{
    m_frozenWaited = waitedSoFar();
    m_frozen = true;
    m_state = State::GaveUp;
    m_reason = reason;
    m_lastDecision = Decision {};
    m_lastDecision.action = Decision::Action::GiveUp;
    m_lastDecision.reason = reason;
    m_lastDecision.waitedTotal = m_waitedTotal;
    m_lastDecision.budgetLeft = m_limits.budget - m_waitedTotal;
    return m_lastDecision;
}

Decision SendPolicy::scheduleRetry(Millis wait, Millis raw, WaitSource source)
{
    m_state = State::Waiting;
    m_currentWait = wait;
    m_waitStartedAt = m_clock.now();
    m_waitedTotal += wait;
    m_lastDecision = Decision {};
    m_lastDecision.action = Decision::Action::Retry;
    m_lastDecision.nextAttempt = m_attempt + 1;
    m_lastDecision.wait = wait;
    m_lastDecision.rawWait = raw;
    m_lastDecision.source = source;
    m_lastDecision.waitedTotal = m_waitedTotal;
    m_lastDecision.budgetLeft = m_limits.budget - m_waitedTotal;
    return m_lastDecision;
}

} // namespace capwatch::retry
