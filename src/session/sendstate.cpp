#include "sendstate.h"

#include <algorithm>

namespace capwatch::session {

SendPhase phaseOf(ParkedState state)
{
    switch (state) {
    case ParkedState::Waiting:
        return SendPhase::Parked;
    case ParkedState::Due:
        return SendPhase::Due;
    case ParkedState::Sending:
        return SendPhase::Sending;
    case ParkedState::WaitsForProvider:
        return SendPhase::WaitsForProvider;
    case ParkedState::WaitsForConsent:
        return SendPhase::WaitsForConsent;
    }
    return SendPhase::Parked;
}

QString SendState::failureCategory() const
{
    return lastFailure ? QString::fromLatin1(retry::nameOf(lastFailure->category)) : QString();
}

retry::Millis SendState::waitElapsed() const
{
    return std::clamp(wait - waitLeft, retry::Millis(0), wait);
}

SendState SendState::ofParked(
    const history::ParkedSend &parked, ParkedState standing, const QDateTime &now)
{
    SendState s;
    s.phase = phaseOf(standing);
    s.parked = parked;
    s.now = now;
    return s;
}

ParkedState SendState::standing() const
{
    switch (phase) {
    case SendPhase::Due:
        return ParkedState::Due;
    case SendPhase::WaitsForProvider:
        return ParkedState::WaitsForProvider;
    case SendPhase::WaitsForConsent:
        return ParkedState::WaitsForConsent;
    case SendPhase::Sending:
    case SendPhase::Streaming:
    case SendPhase::Waiting:
    case SendPhase::Pacing:
        return parked ? ParkedState::Sending : ParkedState::Waiting;
    default:
        break;
    }
    return ParkedState::Waiting;
}

} // namespace capwatch::session
