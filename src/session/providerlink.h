#pragma once

// What a conversation talks to, apart from any send: the profile chosen and the fallback its
// capped sends may go to, the endpoint and model a request names, the key source each profile
// loads its key from, the embedded demo's lifetime, and the endpoints the user allowed to get a
// key over plain HTTP in this run. A ChatSession holds one; its sends read it when they start.
//
// The key of one profile never reaches another profile's endpoint: credentialsFor() makes the
// credential provider of exactly one profile, and the session hands the client the one of the
// profile the send goes to.

#include "sessionsetup.h"
#include "sessiontypes.h"

#include <QSet>
#include <QString>
#include <QUrl>
#include <memory>
#include <optional>

namespace capwatch::net {
class CredentialProvider;
}

namespace capwatch::session {

class LocalProvider;

class ProviderLink final
{
public:
    ProviderLink() = default;
    /// Lets the demo go when it was chosen.
    ~ProviderLink();
    ProviderLink(const ProviderLink &) = delete;
    ProviderLink &operator=(const ProviderLink &) = delete;

    /// What serves the demo when it is chosen (not owned; may be null: the demo then has no
    /// endpoint, as when it cannot start).
    void setLocalProvider(LocalProvider *provider) { m_local = provider; }
    /// Makes the credential provider for ProviderChoice::KeySource::Keychain.
    void setKeychain(KeychainFactory make) { m_keychain = std::move(make); }
    /// The demo, when it is started, runs every wait `scale` times as long.
    void setTimeScale(double scale) { m_timeScale = scale; }
    /// Everything but the choice, as `other` has it: the local provider, the keychain, the
    /// fallback and the consents given (a conversation that goes on in a session of its own).
    void copySetupFrom(const ProviderLink &other);

    /// Talks to `choice` from now on: starts the demo when it is chosen (or takes `heldDemo`, a
    /// demo fallback's start that becomes the link's own), and lets it go when it is left.
    void choose(const ProviderChoice &choice, const QUrl &heldDemo = {});
    const ProviderChoice &choice() const { return m_choice; }
    bool usingDemo() const { return m_demo; }
    QUrl endpoint() const { return m_endpoint; }
    /// The model a request names: the chosen one, capwatch-demo for the demo, or
    /// net::defaultModelFor() the endpoint.
    QString model() const { return m_model; }
    /// The id of the profile chosen (ProviderChoice::profile).
    QString profileId() const { return m_choice.profile; }
    /// The parking lot's and the provider memory's name for the provider: "demo", or the
    /// stored endpoint.
    QString lane() const;
    /// The lane, model and context window of a send to the chosen provider (`model`: a parked
    /// send's own, else the chosen one).
    SendLane ownLane(const QString &model = {}) const;
    /// A send to `target` (a fallback as prepareFallback() made it).
    static SendLane laneOf(const ProviderChoice &target);

    /// What a send to `choice` authenticates with: its own key source (the demo: none).
    std::shared_ptr<net::CredentialProvider> credentialsFor(const ProviderChoice &choice) const;
    /// Loads the credential to tell (the keychain excepted); a key file may change meanwhile.
    KeyStatus keyStatus() const;
    /// True when a send now would carry a key over plain HTTP to a host that is not loopback
    /// and allowPlainHttp() was not called for this endpoint in this run.
    bool needsPlainHttpConsent() const;
    void allowPlainHttp();
    /// True when a send to `choice`'s endpoint with its key would need no question: this link
    /// talks to that endpoint with that key and needsPlainHttpConsent() is false.
    bool consentsToPlainHttp(const ProviderChoice &choice) const;

    /// Where a send that ended capped may go instead (nullopt: nowhere), and whether the
    /// session sends it there by itself.
    void setFallback(std::optional<ProviderChoice> fallback, bool automatic);
    const std::optional<ProviderChoice> &fallback() const { return m_fallback; }
    bool autoFallback() const { return m_autoFallback; }
    /// The same as needsPlainHttpConsent() for a send to the fallback, with its own key source.
    bool fallbackNeedsPlainHttpConsent() const;
    void allowFallbackPlainHttp();
    /// The fallback with the endpoint and model a send to it names; a demo fallback's endpoint
    /// is the link's own demo, or one it starts (`startedLocal`: stop it with stopLocal() once
    /// that send is done). nullopt when there is none, or the demo could not start.
    std::optional<ProviderChoice> prepareFallback(bool &startedLocal) const;
    /// Lets one start() of the local provider go.
    void stopLocal() const;

private:
    /// True when a key would go with a send by `credentials` (a keychain counts as a key).
    static bool sendsKey(
        const ProviderChoice &choice, const std::shared_ptr<net::CredentialProvider> &credentials);
    bool plainHttpNeedsConsent(const QUrl &endpoint) const;

    LocalProvider *m_local = nullptr;
    KeychainFactory m_keychain;
    double m_timeScale = 1.0;
    ProviderChoice m_choice;
    bool m_demo = false;
    QUrl m_endpoint;
    QString m_model;
    QSet<QString> m_plainHttpConsent; ///< endpoints allowed to get the key unencrypted
    std::optional<ProviderChoice> m_fallback;
    bool m_autoFallback = false;
};

} // namespace capwatch::session
