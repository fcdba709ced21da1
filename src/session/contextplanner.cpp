#include "contextplanner.h"

#include "net/chatrequest.h"
#include "providermemory.h"
#include "retry/sendpolicy.h"
#include "sessionlogging.h"

#include <algorithm>
#include <numeric>

namespace capwatch::session {

void ContextPlanner::setProviderMemory(ProviderMemory *memory)
{
    m_memory = memory;
}

ProviderMemory *ContextPlanner::providerMemory() const
{
    return m_memory;
}

void ContextPlanner::copySetupFrom(const ContextPlanner &other)
{
    m_memory = other.m_memory;
    m_pacingEnabled = other.m_pacingEnabled;
    m_autoTrim = other.m_autoTrim;
    m_timeScale = other.m_timeScale;
    m_ownContextWindow = other.m_ownContextWindow;
}

double ContextPlanner::charsPerToken(const SendLane &to) const
{
    if (!m_memory)
        return retry::kDefaultCharsPerToken;
    return m_memory->ratio(to.lane, to.model).charsPerToken;
}

std::optional<qint64> ContextPlanner::knownContextWindow(const SendLane &to) const
{
    if (to.contextWindow) // the profile's comes before a learned one (section 8.2)
        return to.contextWindow;
    if (m_memory) {
        if (const std::optional<qint64> known = m_memory->contextWindow(to.lane, to.model))
            return known;
    }
    return m_ownContextWindow;
}

std::vector<std::int64_t> ContextPlanner::turnTokens(const Turns &turns, const SendLane &to) const
{
    const double ratio = charsPerToken(to);
    std::vector<std::int64_t> tokens;
    tokens.reserve(size_t(std::max(0, turns.exchanges)));
    const qsizetype end = std::min(qsizetype(turns.exchanges) * 2, turns.messages.size());
    for (qsizetype i = 0; i + 1 < end; i += 2) {
        const qint64 chars
            = turns.messages.at(i).content.size() + turns.messages.at(i + 1).content.size();
        tokens.push_back(retry::estimatePromptTokens(chars, ratio));
    }
    return tokens;
}

qint64 ContextPlanner::fixedTokens(
    const QString &prompt, const SendOptions &options, const SendLane &to) const
{
    qint64 chars = prompt.size();
    if (options.systemPrompt)
        chars += options.systemPrompt->size();
    std::optional<std::int64_t> maxTokens;
    if (options.maxTokens)
        maxTokens = *options.maxTokens;
    return retry::estimateTokens(chars, charsPerToken(to), maxTokens);
}

qint64 ContextPlanner::leftOutTokens(const Turns &turns, const SendLane &to) const
{
    const std::vector<std::int64_t> tokens = turnTokens(turns, to);
    const auto end = tokens.begin() + std::min<qsizetype>(turns.leftOut, qsizetype(tokens.size()));
    return std::accumulate(tokens.begin(), end, qint64(0));
}

ContextGauge ContextPlanner::gauge(
    const Turns &turns, const QString &prompt, const SendOptions &options, const SendLane &to) const
{
    ContextGauge g;
    const std::vector<std::int64_t> tokens = turnTokens(turns, to);
    g.turns = int(tokens.size());
    g.leftOut = std::min(turns.leftOut, g.turns);
    g.tokens = fixedTokens(prompt, options, to);
    for (int i = 0; i < g.turns; ++i)
        (i < g.leftOut ? g.leftOutTokens : g.tokens) += tokens[size_t(i)];
    g.contextWindow = knownContextWindow(to);
    g.fits = !g.contextWindow || g.tokens <= *g.contextWindow;
    return g;
}

TrimOffer ContextPlanner::trimOffer(const Turns &turns, const QString &prompt,
    const SendOptions &options, const SendLane &to, qint64 excess,
    std::optional<qint64> named) const
{
    TrimOffer offer;
    std::optional<qint64> window = knownContextWindow(to);
    // The provider's own word wins over a larger window set in Settings.
    if (named && (!window || *named < *window))
        window = named;
    if (!window)
        return offer;
    offer.contextWindow = *window;
    retry::TrimInput input;
    // The provider counted `excess` more than the estimate: plan for that much less room.
    input.contextWindow = std::max<qint64>(1, *window - excess);
    input.fixedTokens = fixedTokens(prompt, options, to);
    input.turnTokens = turnTokens(turns, to);
    input.alreadyLeftOut = turns.leftOut;
    offer.plan = retry::planTrim(input);
    offer.offered = offer.plan.needed && offer.plan.fits && offer.plan.leftOut > turns.leftOut;
    return offer;
}

retry::DeclaredDecision ContextPlanner::declaredDecision(
    const ProviderChoice &profile, qint64 estimatedTokens) const
{
    if (!m_memory || profile.declared.empty() || !m_pacingEnabled)
        return {};
    const UsageTally &tally = m_memory->tally();
    retry::DeclaredUse use = tally.declaredUse(profile.profileName, m_timeScale);
    use.inFlight = m_memory->inFlight(profile.profileName);
    return retry::decideDeclared(
        profile.declared, use, tally.now().toMSecsSinceEpoch(), estimatedTokens);
}

net::PacePlan ContextPlanner::pacePlan(
    const net::ChatRequest &request, const SendLane &to, const ProviderChoice &profile) const
{
    net::PacePlan plan;
    std::optional<std::int64_t> maxTokens;
    if (request.maxTokens)
        maxTokens = *request.maxTokens;
    const qint64 estimate
        = retry::estimateTokens(net::requestChars(request.messages), charsPerToken(to), maxTokens);
    plan.estimatedTokens = estimate;
    if (!m_memory)
        return plan;
    const retry::PaceInput input
        = m_memory->paceInput(to.lane, to.model, estimate, m_pacingEnabled, m_timeScale);
    if (input.report.remainingTokens)
        plan.windowTokensLeft = *input.report.remainingTokens;
    if (input.tokensResetLeft && input.tokensResetLeft->count() > 0)
        plan.windowResetS = double(input.tokensResetLeft->count()) / 1000.0;
    const retry::PaceDecision decision = retry::decidePacing(input);
    qCDebug(lcSession) << "pacing:" << decision.reason.c_str();
    if (decision.pace) {
        plan.wait = decision.wait;
        plan.source = decision.source;
        plan.tokensFull = decision.tokensFull;
    }
    // The profile's own word on its provider, counted from the ledger every process shares.
    const retry::DeclaredDecision declared = declaredDecision(profile, estimate);
    if (declared.holds != retry::DeclaredKind::None && declared.wait <= retry::kMaxPaceWait
        && declared.wait > plan.wait) {
        qCDebug(lcSession) << "pacing: declared" << retry::nameOf(declared.holds).data()
                           << declared.used << "of" << declared.limit;
        plan.wait = declared.wait;
        plan.source = retry::WaitSource::DeclaredLimit;
        plan.tokensFull = declared.holds == retry::DeclaredKind::TokensPerMinute;
        plan.declared = declared.holds;
        plan.declaredUsed = declared.used;
        plan.declaredLimit = declared.limit;
    }
    return plan;
}

void ContextPlanner::report(const SendLane &to, const net::ProviderReport &report)
{
    if (m_memory)
        m_memory->report(to.lane, report.model, report);
}

void ContextPlanner::learnContextWindow(const SendLane &to, qint64 window)
{
    if (m_memory)
        m_memory->learnContextWindow(to.lane, to.model, window);
    else
        m_ownContextWindow = window;
}

} // namespace capwatch::session
