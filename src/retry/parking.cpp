#include "parking.h"

#include <algorithm>
#include <utility>

namespace capwatch::retry {

namespace {

bool providerSaid(WaitSource source)
{
    switch (source) {
    case WaitSource::RetryAfter:
    case WaitSource::RetryAfterMs:
    case WaitSource::RetryDelay:
    case WaitSource::Message:
    case WaitSource::RateLimitReset:
        return true;
    case WaitSource::None:
    case WaitSource::Backoff:
    case WaitSource::CredentialRefresh:
    case WaitSource::DeclaredLimit:
        return false;
    }
    return false;
}

std::string durationText(Millis wait)
{
    // Rounded up, like the providers' own "Retry in 18 min.": a reset is never named early.
    const auto seconds = (wait.count() + 999) / 1000;
    if (seconds < 60)
        return std::to_string(seconds) + " s";
    const auto minutes = (seconds + 59) / 60;
    if (minutes < 60)
        return std::to_string(minutes) + " min";
    const std::string hours = std::to_string(minutes / 60) + " h";
    return minutes % 60 == 0 ? hours : hours + " " + std::to_string(minutes % 60) + " min";
}

ParkDecision refuse(ParkDecision d, ParkRefusal refusal, std::string reason)
{
    d.park = false;
    d.refusal = refusal;
    d.reason = std::move(reason);
    return d;
}

} // namespace

std::string_view nameOf(ParkRefusal refusal)
{
    switch (refusal) {
    case ParkRefusal::None:
        return "";
    case ParkRefusal::NotCapped:
        return "not_capped";
    case ParkRefusal::NotLimited:
        return "not_limited";
    case ParkRefusal::NoProviderWait:
        return "no_provider_wait";
    case ParkRefusal::TooFar:
        return "too_far";
    case ParkRefusal::ReparkedTooOften:
        return "reparked_too_often";
    }
    return "";
}

ParkDecision decidePark(const ParkInput &in)
{
    ParkDecision d;
    d.resetAt = in.failedAt;
    const std::string_view ended = nameOf(in.endReason);
    if (in.duringCycle) {
        // Before the end: only when waiting out the whole budget still ends before the reset.
        if (in.rawWait <= in.reachable)
            return refuse(d, ParkRefusal::NotCapped,
                "Not parked yet: the retries can still reach the reset.");
    } else if (in.endReason != EndReason::BudgetExhausted
        && in.endReason != EndReason::AttemptsExhausted)
        return refuse(d, ParkRefusal::NotCapped,
            "Not parked: the send ended with " + std::string(ended.empty() ? "no failure" : ended)
                + ", not with its retries used up.");
    if (in.category != Category::TokenLimit && in.category != Category::RateLimit)
        return refuse(d, ParkRefusal::NotLimited,
            "Not parked: the last failure was " + std::string(nameOf(in.category))
                + ", not a token or rate limit.");
    if (!providerSaid(in.waitSource))
        return refuse(d, ParkRefusal::NoProviderWait,
            "Not parked: the provider did not say when the limit resets.");
    // A reset already past (an HTTP date behind the clock) is due at once.
    d.resetIn = std::max(in.rawWait, Millis(0));
    d.resetAt = in.failedAt + d.resetIn;
    if (d.resetIn > kMaxParkWait)
        return refuse(d, ParkRefusal::TooFar,
            "Not parked: the limit resets in " + durationText(d.resetIn) + ", more than "
                + durationText(kMaxParkWait) + " away.");
    if (in.parkedInARow >= kMaxParksInARow)
        return refuse(d, ParkRefusal::ReparkedTooOften,
            "Not parked again: the send was parked " + std::to_string(in.parkedInARow)
                + " times in a row and hit the limit after each reset.");
    d.park = true;
    d.reason = "Parked until the limit resets in " + durationText(d.resetIn) + ".";
    return d;
}

ParkInput parkInputOf(const SendPolicy &policy, WallTime failedAt, int parkedInARow)
{
    ParkInput in;
    in.endReason = policy.endReason();
    in.failedAt = failedAt;
    in.parkedInARow = parkedInARow;
    if (const auto &error = policy.lastError()) {
        in.category = error->category;
        in.waitSource = error->waitSource;
        in.rawWait = error->rawWait.value_or(Millis(0));
    }
    return in;
}

} // namespace capwatch::retry
