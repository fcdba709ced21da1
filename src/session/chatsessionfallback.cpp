// ChatSession: provider profiles and the fallback of a capped send (issue 17, docs/session.md).
//
// The key of one profile never reaches another profile's endpoint: the client loads its
// credential at the start of every send (and on a reload) from the credential provider it holds,
// so a send to the fallback swaps in the fallback's own provider before it starts, and the
// session's own is back before any later send (and when the fallback's send ends).

#include "chatsession.h"
#include "history/historystore.h"
#include "sessionlogging.h"
#include "storedrecords.h"

#include <memory>
#include <optional>
#include <utility>

namespace capwatch::session {

using namespace Qt::StringLiterals;
using net::RetryRecord;

namespace {

/// Ended capped (issue 17): out of budget or attempts on a token or rate limit, or a billing
/// failure (the quota_exhausted). A token or rate limit the profile does not retry (its
/// category turned off in `limits`) ends the send at once as not_retryable: capped too, as a 0 s
/// budget's one attempt is, since going elsewhere at once is what turning the retries off asks.
bool endedCapped(
    const net::SendSummary &summary, const QString &category, const retry::PolicyLimits &limits)
{
    if (summary.outcome != net::SendSummary::Outcome::GaveUp)
        return false;
    if (category == u"billing"_s)
        return true;
    const bool tokenLimit = category == u"token_limit"_s;
    const bool rateLimit = category == u"rate_limit"_s;
    if (summary.reason == retry::EndReason::NotRetryable)
        return (tokenLimit && !limits.retryTokenLimit) || (rateLimit && !limits.retryRateLimit);
    const bool exhausted = summary.reason == retry::EndReason::BudgetExhausted
        || summary.reason == retry::EndReason::AttemptsExhausted;
    return exhausted && (tokenLimit || rateLimit);
}

} // namespace

std::shared_ptr<net::CredentialProvider> ChatSession::credentialsFor(
    const ProviderChoice &choice) const
{
    if (choice.demo)
        return std::make_shared<net::NoCredentialProvider>();
    switch (choice.keySource) {
    case ProviderChoice::KeySource::Environment:
        return std::make_shared<net::EnvCredentialProvider>(choice.keyVariable);
    case ProviderChoice::KeySource::KeyFile:
        return std::make_shared<net::FileCredentialProvider>(choice.keyFile);
    case ProviderChoice::KeySource::Keychain:
        break;
    }
    return m_keychain ? m_keychain(choice.keychainEntry) : nullptr;
}

void ChatSession::applyToClient(const ProviderChoice &choice)
{
    m_client->setCredentialProvider(credentialsFor(choice));
    m_client->setPolicyLimits(choice.limits);
    m_client->setProfileName(choice.profileName);
}

void ChatSession::restoreClient()
{
    if (!std::exchange(m_clientOnFallback, false))
        return;
    applyToClient(m_choice);
    if (std::exchange(m_fallbackStartedLocal, false) && m_local)
        m_local->stop();
}

bool ChatSession::fallbackNeedsPlainHttpConsent() const
{
    if (!m_fallback || m_fallback->demo)
        return false;
    const QUrl target = net::chatCompletionsUrl(m_fallback->endpoint);
    if (!target.isValid() || target.scheme() != u"http" || net::isLoopback(target)
        || m_plainHttpConsent.contains(net::displayEndpoint(target)))
        return false;
    // As keyWouldBeSent(), with the fallback's own key source: a keychain counts as a key.
    if (m_fallback->keySource == ProviderChoice::KeySource::Keychain)
        return true;
    const std::shared_ptr<net::CredentialProvider> credentials = credentialsFor(*m_fallback);
    if (!credentials)
        return false;
    auto hasKey = std::make_shared<std::optional<bool>>();
    credentials->load([hasKey](const net::Credential &c) { *hasKey = !c.key.isEmpty(); });
    return hasKey->value_or(true);
}

void ChatSession::allowFallbackPlainHttp()
{
    if (m_fallback)
        m_plainHttpConsent.insert(
            net::displayEndpoint(net::chatCompletionsUrl(m_fallback->endpoint)));
}

void ChatSession::setFallback(std::optional<ProviderChoice> fallback, bool automatic)
{
    m_fallback = std::move(fallback);
    m_autoFallback = automatic;
    if (!m_fallback && m_current) {
        FallbackOffer offer = m_current->state().fallback;
        offer.offered = false;
        m_current->setFallbackOffer(offer);
    }
}

FallbackOffer ChatSession::fallbackOfferFor(
    const net::SendSummary &summary, const Send &ended) const
{
    FallbackOffer offer;
    offer.send = ended.id();
    offer.fromProfile = ended.state().profileName;
    offer.reason = summary.reason;
    offer.category = ended.state().failureCategory();
    if (m_fallback)
        offer.toProfile = m_fallback->profileName;
    // One hop: a send to the fallback that ends capped is offered nothing further.
    // The numbers the send ran with (its policy's), not the profile's as edited since.
    const retry::PolicyLimits &ranWith
        = m_client->policy() ? m_client->policy()->limits() : m_client->policyLimits();
    offer.offered
        = m_fallback && !ended.state().viaFallback && endedCapped(summary, offer.category, ranWith);
    return offer;
}

void ChatSession::offerFallback(Send *ended, quint64 send)
{
    // A handler of gaveUp() may have started another send: the offer is still told.
    FallbackOffer offer = ended->state().fallback;
    if (offer.offered && m_autoFallback && current(send) && !busy()) {
        if (fallbackNeedsPlainHttpConsent()) {
            // Not by itself: the offer goes out with `automatic` false, so the caller asks.
            qCInfo(lcSession).noquote()
                << u"send %1 ended capped on %2: its fallback %3 needs consent to plain HTTP, "
                   "so it is offered, not sent"_s.arg(send)
                       .arg(offer.fromProfile, offer.toProfile);
        } else {
            qCInfo(lcSession).noquote()
                << u"send %1 ended capped on %2: sent to its fallback %3"_s.arg(send).arg(
                       offer.fromProfile, offer.toProfile);
            offer.automatic = sendToFallback(ended->options()) != 0;
        }
    }
    Q_EMIT fallbackOffered(offer);
}

std::optional<ProviderChoice> ChatSession::prepareFallback(bool &startedLocal)
{
    startedLocal = false;
    if (!m_fallback)
        return std::nullopt;
    ProviderChoice target = *m_fallback;
    if (target.demo) { // the embedded demo: the session's own when it talks to it already
        if (m_demo) {
            target.endpoint = m_endpoint;
        } else {
            QString error = u"no local provider"_s;
            target.endpoint = m_local ? m_local->start(m_timeScale, &error) : QUrl();
            if (!target.endpoint.isValid()) {
                qCWarning(lcSession) << "the demo provider could not start:" << error;
                if (m_local)
                    m_local->stop();
                return std::nullopt;
            }
            startedLocal = true;
        }
    }
    const QString named = target.model.trimmed();
    target.model = !named.isEmpty() ? named
        : target.demo               ? QString::fromUtf16(net::kDemoModel)
                                    : net::defaultModelFor(target.endpoint);
    return target;
}

quint64 ChatSession::startFallbackSend(ProviderChoice target, bool startedLocal,
    const QString &prompt, const SendOptions &options, const QUuid &storedPrompt)
{
    // A fresh cycle with the fallback's own key source, limits and profile name: swapped in
    // before the send, so no credential of the capped profile is loaded for it.
    applyToClient(target);
    m_clientOnFallback = true;
    m_fallbackStartedLocal = startedLocal;
    Launch launch;
    launch.fallback = std::move(target);
    launch.storedPrompt = storedPrompt;
    return startSend(prompt, options, std::move(launch));
}

quint64 ChatSession::sendToFallback(const SendOptions &options)
{
    Send *const e = ended();
    if (!m_fallback || !e || !e->state().fallback.offered || busy() || m_failedPrompt.isEmpty()
        || e->state().isParked())
        return 0;
    const FallbackOffer &offered = e->state().fallback;
    // No caller skips the question: the key goes over plain HTTP only once it was allowed.
    if (fallbackNeedsPlainHttpConsent())
        return 0;
    bool startedLocal = false;
    std::optional<ProviderChoice> target = prepareFallback(startedLocal);
    if (!target)
        return 0;

    // The capped send's `fallback` record, after its gave_up: its request and attempt, the
    // failure it ended on, its reason; stored with that send.
    RetryRecord r;
    const QList<RetryRecord> &records = m_log->records();
    for (qsizetype i = records.size() - 1; i >= 0; --i) {
        if (quint64(records.at(i).request) == e->request()) {
            r = records.at(i);
            break;
        }
    }
    r.request = int(e->request());
    r.attempt = std::max(r.attempt, e->attemptsMade());
    r.event = RetryRecord::Event::Fallback;
    r.time = wallNow();
    r.waitMs.reset();
    r.rawWaitMs.reset();
    r.waitedTotalMs.reset();
    r.budgetLeftMs.reset();
    r.resetAt = {};
    r.unpark = RetryRecord::Unpark::None;
    r.reason = offered.reason;
    r.profile = offered.fromProfile;
    r.fallbackTo = target->profileName;
    appendParkRecord(r, e->rows().send);

    const QString prompt = m_failedPrompt; // a copy: startSend() clears the failed prompt
    // The same prompt: one more send of its stored message.
    return startFallbackSend(*std::move(target), startedLocal, prompt, options, e->rows().prompt);
}

quint64 ChatSession::resendToFallback(const SendOptions &options)
{
    // The same fallback profile as the send that overflowed, and allowed as before.
    const std::optional<ProviderChoice> went = sendFallback();
    if (!sentToFallback() || !m_fallback || !went || m_fallback->profile != went->profile
        || fallbackNeedsPlainHttpConsent())
        return 0;
    bool startedLocal = false;
    std::optional<ProviderChoice> target = prepareFallback(startedLocal);
    if (!target)
        return 0;
    qCInfo(lcSession).noquote() << u"the trimmed prompt goes to the fallback %1 again"_s.arg(
        target->profileName);
    const QString prompt = m_failedPrompt; // a copy: startSend() clears the failed prompt
    return startFallbackSend(*std::move(target), startedLocal, prompt, options);
}

} // namespace capwatch::session
