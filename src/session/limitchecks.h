#pragma once

// The profile's own limits as a send meets them (docs/session.md, "Spending limits, declared
// limits and costs"): the check before a send against its spending limits and the daily limits
// it declares for its provider, and the limit a rate-limit refusal implies for a profile that
// declares none. Both read what the usage ledger counted (UsageTally); the policy is retry's
// (checkSpend(), decideDeclared(), suggestDeclared()).

#include "net/retrylog.h"
#include "sessiontypes.h"

#include <optional>

namespace capwatch::session {

class ContextPlanner;
class UsageTally;

namespace limitchecks {

/// Whether a send to `to` (its model `model`) whose request the `gauge` measures would cross a
/// spending limit or a declared day: its worst case is the gauge's tokens (the request and all
/// of `options.maxTokens`, or the reserve), priced with `to.priceOf(model)`.
LimitHold holdOf(const ProviderChoice &to, const QString &model, const ContextGauge &gauge,
    const SendOptions &options, const ContextPlanner &planner);

/// After `record` of a send to `to`: the limit a rate-limit refusal implies when `to` declares
/// none, from what `tally` counted before it; nullopt for any other record.
std::optional<retry::DeclaredSuggestion> suggestionAfter(const net::RetryRecord &record,
    const ProviderChoice &to, const UsageTally &tally, double timeScale);

} // namespace limitchecks
} // namespace capwatch::session
