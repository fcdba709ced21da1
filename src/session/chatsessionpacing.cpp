// ChatSession: pacing a send before the provider's window is full, what the provider reports,
// and leaving the oldest turns out of a request that outgrew the model's context
// (docs/retry-policy.md section 8).

#include "chatsession.h"
#include "history/historystore.h"
#include "sessionlogging.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace capwatch::session {

using namespace Qt::StringLiterals;

void ChatSession::setProviderMemory(ProviderMemory *memory)
{
    m_memory = memory;
}

bool ChatSession::sendNow()
{
    if (!m_client->pacing())
        return false;
    qCInfo(lcSession) << "send" << currentSend() << "sent now, without waiting for the window";
    return m_client->sendNow();
}

SendLane ChatSession::ownLane(const QString &model) const
{
    // A parked send goes with the model it was parked with (startSend()).
    return { lane(), model.isEmpty() ? m_model : model, m_choice.contextWindow };
}

SendLane ChatSession::laneOf(const ProviderChoice &target)
{
    // The embedded demo is one lane whatever port it listens on, as the session's own.
    const QString lane = target.demo
        ? u"demo"_s
        : history::HistoryStore::storableEndpoint(
            net::chatCompletionsUrl(target.endpoint).toString(QUrl::RemoveUserInfo));
    return { lane, target.model, target.contextWindow };
}

double ChatSession::charsPerToken(const SendLane &to) const
{
    if (!m_memory)
        return retry::kDefaultCharsPerToken;
    return m_memory->ratio(to.lane, to.model).charsPerToken;
}

std::optional<qint64> ChatSession::knownContextWindow(const SendLane &to) const
{
    if (to.contextWindow) // the profile's comes before a learned one (section 8.2)
        return to.contextWindow;
    if (m_memory) {
        if (const std::optional<qint64> known = m_memory->contextWindow(to.lane, to.model))
            return known;
    }
    return m_sessionContextWindow;
}

std::vector<std::int64_t> ChatSession::turnTokens(const SendLane &to) const
{
    const double ratio = charsPerToken(to);
    std::vector<std::int64_t> turns;
    turns.reserve(size_t(m_history.size() / 2));
    // While editing, the next send replaces the last exchange: it is not part of that request.
    const qsizetype end = m_history.size() - (sendReplacesLastExchange() ? 2 : 0);
    for (qsizetype i = 0; i + 1 < end; i += 2) {
        const qint64 chars = m_history.at(i).content.size() + m_history.at(i + 1).content.size();
        turns.push_back(retry::estimatePromptTokens(chars, ratio));
    }
    return turns;
}

qint64 ChatSession::fixedTokens(
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

qint64 ChatSession::leftOutTokens() const
{
    const std::vector<std::int64_t> turns = turnTokens(ownLane());
    const auto end = turns.begin() + std::min<qsizetype>(m_leftOut, qsizetype(turns.size()));
    return std::accumulate(turns.begin(), end, qint64(0));
}

ContextGauge ChatSession::contextGauge(const QString &prompt, const SendOptions &options) const
{
    ContextGauge g;
    const SendLane to = ownLane(); // the next send goes to the session's own provider
    const std::vector<std::int64_t> turns = turnTokens(to);
    g.turns = int(turns.size());
    g.leftOut = std::min(m_leftOut, g.turns);
    g.tokens = fixedTokens(prompt, options, to);
    for (int i = 0; i < g.turns; ++i)
        (i < g.leftOut ? g.leftOutTokens : g.tokens) += turns[size_t(i)];
    g.contextWindow = knownContextWindow(to);
    g.fits = !g.contextWindow || g.tokens <= *g.contextWindow;
    return g;
}

TrimOffer ChatSession::makeTrimOffer(const QString &prompt, const SendOptions &options,
    const SendLane &to, qint64 excess, std::optional<qint64> named) const
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
    input.turnTokens = turnTokens(to);
    input.alreadyLeftOut = m_leftOut;
    offer.plan = retry::planTrim(input);
    offer.offered = offer.plan.needed && offer.plan.fits && offer.plan.leftOut > m_leftOut;
    return offer;
}

TrimOffer ChatSession::trimOfferFor(const QString &prompt, const SendOptions &options) const
{
    return makeTrimOffer(prompt, options, ownLane(), 0);
}

void ChatSession::setLeftOut(int turns)
{
    const int all = int(m_history.size() / 2);
    // The last turn always goes: it is what the prompt answers.
    const int clamped = std::clamp(turns, 0, std::max(0, all - 1));
    if (clamped == m_leftOut)
        return;
    m_leftOut = clamped;
    qCInfo(lcSession) << "oldest turns left out of requests:" << m_leftOut;
    Q_EMIT leftOutChanged(m_leftOut, leftOutTokens());
}

void ChatSession::clearLeftOut()
{
    if (m_leftOut == 0)
        return;
    m_leftOut = 0;
    Q_EMIT leftOutChanged(0, 0);
}

quint64 ChatSession::trimAndResend(const SendOptions &options)
{
    Send *const e = ended();
    if (!e || !e->state().trim.offered || busy() || e->state().isParked()
        || m_failedPrompt.isEmpty())
        return 0;
    setLeftOut(e->state().trim.plan.leftOut);
    e->setTrimOffer({});
    // The offer is about the send that ended: after a send to the fallback, its prompt goes to
    // that fallback again, not to the profile that ended capped.
    if (sentToFallback())
        return resendToFallback(options);
    return retryFailed(options);
}

void ChatSession::trimBeforeSend(const QString &prompt, const SendOptions &options,
    const SendLane &to, qint64 excess, std::optional<qint64> named)
{
    if (!m_autoTrim)
        return;
    // After a context error the provider's own count and window are known: the resend of its
    // prompt plans with them; later sends with the estimate alone.
    TrimOffer offer = makeTrimOffer(prompt, options, to, excess, named);
    if (!offer.offered)
        return;
    setLeftOut(offer.plan.leftOut);
    offer.automatic = true;
    qCInfo(lcSession) << "left out" << offer.plan.leftOut << "oldest turns by itself to fit"
                      << offer.contextWindow << "tokens";
    Q_EMIT trimOffered(offer);
}

net::PacePlan ChatSession::pacePlanFor(const net::ChatRequest &request, const SendLane &to) const
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
    return plan;
}

void ChatSession::onProviderReported(quint64 send, const net::ProviderReport &report)
{
    // Filed under the provider the request went to, even if another was chosen since.
    if (m_memory && current(send))
        m_memory->report(m_current->route().lane.lane, report.model, report);
}

void ChatSession::onContextOverflow(quint64 send, const net::ContextOverflow &overflow)
{
    if (!current(send) || !m_current)
        return;
    Send::Route &route = m_current->route();
    if (m_memory)
        m_memory->learnContextWindow(route.lane.lane, route.lane.model, overflow.contextWindow);
    else
        m_sessionContextWindow = overflow.contextWindow;
    route.overflowWindow = overflow.contextWindow;
    route.overflowExcess = std::max<qint64>(0, overflow.requested - route.estimate);
}

void ChatSession::offerTrim(Send *ended, quint64 send)
{
    if (!current(send) || !ended->route().overflowExcess || busy() || m_failedPrompt.isEmpty())
        return;
    Send::Route &route = ended->route();
    route.resendExcess = std::exchange(route.overflowExcess, std::nullopt);
    route.resendWindow = std::exchange(route.overflowWindow, std::nullopt);
    // With the window of the provider that overflowed (the fallback's after a send to it).
    TrimOffer offer = makeTrimOffer(
        m_failedPrompt, ended->options(), route.lane, *route.resendExcess, route.resendWindow);
    offer.send = send;
    offer.automatic = m_autoTrim && offer.offered;
    ended->setTrimOffer(offer);
    ended->publish();
    Q_EMIT trimOffered(offer);
    if (!offer.automatic || !m_resendsAfterTrim)
        return; // the caller resends
    // Not from inside the client's own signal: on the next turn of the loop, if nothing else
    // was sent meanwhile.
    QMetaObject::invokeMethod(
        this,
        [this, send, options = ended->options()] {
            if (current(send) && m_current->state().trim.send == send)
                trimAndResend(options);
        },
        Qt::QueuedConnection);
}

} // namespace capwatch::session
