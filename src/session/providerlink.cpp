#include "providerlink.h"

#include "history/historystore.h"
#include "localprovider.h"
#include "net/chatrequest.h"
#include "net/credentials.h"
#include "sessionlogging.h"

namespace capwatch::session {

using namespace Qt::StringLiterals;

ProviderLink::~ProviderLink()
{
    if (m_demo && m_local)
        m_local->stop();
}

void ProviderLink::copySetupFrom(const ProviderLink &other)
{
    m_local = other.m_local;
    m_keychain = other.m_keychain;
    m_timeScale = other.m_timeScale;
    m_plainHttpConsent = other.m_plainHttpConsent;
    m_fallback = other.m_fallback;
    m_autoFallback = other.m_autoFallback;
}

void ProviderLink::choose(const ProviderChoice &choice, const QUrl &heldDemo)
{
    m_choice = choice;
    if (choice.demo && !m_demo) {
        m_demo = true;
        if (heldDemo.isValid()) {
            m_endpoint = heldDemo;
        } else {
            QString error = u"no local provider"_s;
            m_endpoint = m_local ? m_local->start(m_timeScale, &error) : QUrl();
            if (!m_endpoint.isValid())
                qCWarning(lcSession) << "the demo provider could not start:" << error;
        }
    } else if (!choice.demo && m_demo) {
        stopLocal();
        m_demo = false;
    }
    if (!m_demo)
        m_endpoint = choice.endpoint;
    // The demo serves capwatch-demo; any other endpoint needs a model named (net's one rule).
    const QString named = choice.model.trimmed();
    m_model = !named.isEmpty() ? named
        : m_demo               ? QString::fromUtf16(net::kDemoModel)
                               : net::defaultModelFor(m_endpoint);
}

QString ProviderLink::lane() const
{
    if (m_demo)
        return u"demo"_s;
    return history::HistoryStore::storableEndpoint(
        net::chatCompletionsUrl(m_endpoint).toString(QUrl::RemoveUserInfo));
}

SendLane ProviderLink::ownLane(const QString &model) const
{
    return { lane(), model.isEmpty() ? m_model : model, m_choice.contextWindow };
}

SendLane ProviderLink::laneOf(const ProviderChoice &target)
{
    // The embedded demo is one lane whatever port it listens on, as the session's own.
    const QString lane = target.demo
        ? u"demo"_s
        : history::HistoryStore::storableEndpoint(
            net::chatCompletionsUrl(target.endpoint).toString(QUrl::RemoveUserInfo));
    return { lane, target.model, target.contextWindow };
}

std::shared_ptr<net::CredentialProvider> ProviderLink::credentialsFor(
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

KeyStatus ProviderLink::keyStatus() const
{
    // The keychain answers later and may ask to be unlocked: it is named, not read.
    if (!m_demo && m_choice.keySource == ProviderChoice::KeySource::Keychain)
        return { KeyStatus::Kind::Named, m_choice.keySourceText };
    ProviderChoice own = m_choice;
    own.demo = m_demo;
    net::Credential loaded;
    if (const std::shared_ptr<net::CredentialProvider> credentials = credentialsFor(own))
        credentials->load([&loaded](const net::Credential &c) { loaded = c; });
    const QString source = m_demo ? loaded.source : m_choice.keySourceText;
    switch (net::keyUse(loaded, net::chatCompletionsUrl(m_endpoint))) {
    case net::KeyUse::Key:
        return { KeyStatus::Kind::Key, source };
    case net::KeyUse::NotNeeded:
        return { KeyStatus::Kind::NotNeeded, source };
    case net::KeyUse::Missing:
        break;
    }
    return { KeyStatus::Kind::Missing, source };
}

bool ProviderLink::sendsKey(
    const ProviderChoice &choice, const std::shared_ptr<net::CredentialProvider> &credentials)
{
    if (choice.demo)
        return false;
    // A configured keychain counts as a key: it answers later and may ask to be unlocked.
    if (choice.keySource == ProviderChoice::KeySource::Keychain)
        return true;
    if (!credentials)
        return false;
    // The environment and key file answer at once; should one ever answer later, assume a key.
    auto hasKey = std::make_shared<std::optional<bool>>();
    credentials->load([hasKey](const net::Credential &c) { *hasKey = !c.key.isEmpty(); });
    return hasKey->value_or(true);
}

bool ProviderLink::plainHttpNeedsConsent(const QUrl &endpoint) const
{
    const QUrl target = net::chatCompletionsUrl(endpoint);
    return target.isValid() && target.scheme() == u"http" && !net::isLoopback(target)
        && !m_plainHttpConsent.contains(net::displayEndpoint(target));
}

bool ProviderLink::needsPlainHttpConsent() const
{
    if (m_demo || !plainHttpNeedsConsent(m_endpoint))
        return false;
    return sendsKey(m_choice, credentialsFor(m_choice));
}

void ProviderLink::allowPlainHttp()
{
    m_plainHttpConsent.insert(net::displayEndpoint(net::chatCompletionsUrl(m_endpoint)));
}

bool ProviderLink::consentsToPlainHttp(const ProviderChoice &c) const
{
    const ProviderChoice &own = m_choice;
    const bool same = own.demo == c.demo && own.endpoint == c.endpoint
        && own.keySource == c.keySource && own.keyVariable == c.keyVariable
        && own.keyFile == c.keyFile && own.keychainEntry == c.keychainEntry;
    return same && !needsPlainHttpConsent();
}

void ProviderLink::setFallback(std::optional<ProviderChoice> fallback, bool automatic)
{
    m_fallback = std::move(fallback);
    m_autoFallback = automatic;
}

bool ProviderLink::fallbackNeedsPlainHttpConsent() const
{
    if (!m_fallback || m_fallback->demo || !plainHttpNeedsConsent(m_fallback->endpoint))
        return false;
    return sendsKey(*m_fallback, credentialsFor(*m_fallback));
}

void ProviderLink::allowFallbackPlainHttp()
{
    if (m_fallback)
        m_plainHttpConsent.insert(
            net::displayEndpoint(net::chatCompletionsUrl(m_fallback->endpoint)));
}

std::optional<ProviderChoice> ProviderLink::prepareFallback(bool &startedLocal) const
{
    startedLocal = false;
    if (!m_fallback)
        return std::nullopt;
    ProviderChoice target = *m_fallback;
    if (target.demo) { // the embedded demo: the link's own when it talks to it already
        if (m_demo) {
            target.endpoint = m_endpoint;
        } else {
            QString error = u"no local provider"_s;
            target.endpoint = m_local ? m_local->start(m_timeScale, &error) : QUrl();
            if (!target.endpoint.isValid()) {
                qCWarning(lcSession) << "the demo provider could not start:" << error;
                stopLocal();
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

void ProviderLink::stopLocal() const
{
    if (m_local)
        m_local->stop();
}

} // namespace capwatch::session
