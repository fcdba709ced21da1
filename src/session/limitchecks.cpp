#include "limitchecks.h"

#include "contextplanner.h"
#include "providermemory.h"
#include "usagetally.h"

#include <algorithm>

namespace capwatch::session::limitchecks {

LimitHold holdOf(const ProviderChoice &to, const QString &model, const ContextGauge &gauge,
    const SendOptions &options, const ContextPlanner &planner)
{
    LimitHold hold;
    hold.profileName = to.profileName;
    const ProviderMemory *memory = planner.providerMemory();
    if (!memory || (to.spend.empty() && to.declared.empty()))
        return hold;
    const UsageTally &tally = memory->tally();
    // The worst case: the whole request as it would go, and all of max_tokens.
    hold.worstTokens = gauge.tokens;
    const qint64 completion = options.maxTokens && *options.maxTokens > 0
        ? qint64(*options.maxTokens)
        : retry::kDefaultCompletionReserve;
    if (const std::optional<retry::Price> price = to.priceOf(model)) {
        const retry::Cost cost = retry::costOf(
            *price, { std::max<qint64>(0, gauge.tokens - completion), completion, 0 });
        hold.worstCost = cost.amount;
        hold.currency = QString::fromStdString(cost.currency);
    }
    if (!to.spend.empty()) {
        hold.check = retry::checkSpend(
            to.spend, tally.spendUsed(to.profileName), { hold.worstTokens, hold.worstCost });
        if (hold.check.crosses) {
            hold.holds = true;
            hold.spending = true;
            hold.resetsAt = retry::isDaily(hold.check.limit) ? tally.dayEnds() : tally.monthEnds();
            return hold;
        }
    }
    const retry::DeclaredDecision declared = planner.declaredDecision(to, hold.worstTokens);
    if (retry::isPerDay(declared.holds)) {
        hold.holds = true;
        hold.declared = declared;
        hold.resetsAt = tally.dayEnds();
    }
    return hold;
}

std::optional<retry::DeclaredSuggestion> suggestionAfter(const net::RetryRecord &record,
    const ProviderChoice &to, const UsageTally &tally, double timeScale)
{
    if (record.category != retry::Category::RateLimit || !record.status || to.profile.isEmpty()
        || !to.declared.empty())
        return std::nullopt;
    retry::Classification refusal;
    refusal.category = retry::Category::RateLimit;
    refusal.errorText = record.error.toStdString();
    refusal.limit = record.limit;
    if (record.rawWaitMs)
        refusal.rawWait = retry::Millis(*record.rawWaitMs);
    // What was answered before it, in the periods a limit counts (the refusal itself not yet in).
    const retry::DeclaredUse use = tally.declaredUse(to.profileName, timeScale);
    retry::RefusalFacts facts;
    facts.requestsLastMinute = qint64(use.lastMinute.size());
    for (const retry::DeclaredUse::Request &r : use.lastMinute)
        facts.tokensLastMinute += r.tokens;
    facts.requestsToday = use.requestsToday;
    facts.tokensToday = use.tokensToday;
    const retry::DeclaredSuggestion s = retry::suggestDeclared(refusal, facts);
    if (s.kind == retry::DeclaredKind::None)
        return std::nullopt;
    return s;
}

} // namespace capwatch::session::limitchecks
