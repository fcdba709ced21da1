#pragma once

// Parking (docs/parking.md): whether a send that ran out of its in-line retries may wait for the
// provider's cap to reset, and until when. Pure: the caller passes the send's end and the wall
// time of its last failure; it arms the timer and persists the reset time itself.

#include "classifier.h"
#include "constants.h"
#include "sendpolicy.h"

#include <chrono>
#include <string>
#include <string_view>

namespace capwatch::retry {

/// Wall-clock milliseconds since the Unix epoch. The reset is a wall time, not a monotonic one,
/// because it has to hold across suspend and restart.
using WallTime = std::chrono::sys_time<Millis>;

/// Why a send is not parked. Names: not_capped, not_limited, no_provider_wait, too_far,
/// reparked_too_often (empty for None). Checked in that order: the first that applies is given.
enum class ParkRefusal
{
    None, ///< parked
    NotCapped, ///< ended other than budget_exhausted or attempts_exhausted
    NotLimited, ///< the last failure was neither token_limit nor rate_limit
    /// The last failure's wait was not the provider's: backoff, none, or credential-refresh
    /// (the client's own key reload, which says nothing about when a cap resets).
    NoProviderWait,
    TooFar, ///< the reset is more than kMaxParkWait after the failure
    ReparkedTooOften, ///< already parked kMaxParksInARow times in a row
};

struct ParkInput
{
    EndReason endReason = EndReason::None;
    /// Of the send's last failure (SendPolicy::lastError()).
    Category category = Category::Fatal;
    WaitSource waitSource = WaitSource::None;
    Millis rawWait { 0 }; ///< uncapped: "Retry in 18 min" is 1,080,000 ms, not the 60 s cap
    WallTime failedAt {}; ///< when that failure arrived
    int parkedInARow = 0; ///< parks of this send so far, each ended capped again
    /// Asked while the send still waits to retry (issue 25.12): it has not ended, and may park
    /// when the reset lies beyond `reachable`, the policy time its waits can still cover.
    bool duringCycle = false;
    Millis reachable { 0 };
};

struct ParkDecision
{
    bool park = false;
    ParkRefusal refusal = ParkRefusal::None;
    /// failedAt + rawWait whenever the wait is the provider's (so too_far and
    /// reparked_too_often can name it too); else failedAt.
    WallTime resetAt {};
    Millis resetIn { 0 }; ///< resetAt - failedAt: the figure of too_far
    std::string reason; ///< one English sentence for logs
};

ParkDecision decidePark(const ParkInput &input);

/// The input of a finished send: its end reason and last failure, stamped with the wall time
/// that failure arrived.
ParkInput parkInputOf(const SendPolicy &policy, WallTime failedAt, int parkedInARow);

std::string_view nameOf(ParkRefusal refusal);

} // namespace capwatch::retry
