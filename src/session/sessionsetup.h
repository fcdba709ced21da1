#pragma once

// How the sessions of a process are wired, besides the provider each talks to: the window's own
// session and each one the parking lot makes for a parked send of a conversation no session
// shows are made alike from it (ChatSession::configure()), and the lot resolves a parked send's
// provider from its `providers` (its conversation's profile, with the run's flags).

#include "providerresolver.h"
#include "sessiontypes.h"

#include <functional>
#include <memory>

namespace capwatch::net {
class CredentialProvider;
}

namespace capwatch::session {

class LocalProvider;
class ProviderMemory;

/// Makes the credential provider of one keychain entry (ProviderChoice::keychainEntry).
using KeychainFactory
    = std::function<std::shared_ptr<net::CredentialProvider>(const QString &entry)>;

struct SessionSetup
{
    double timeScale = 1.0; ///< --time-scale
    LocalProvider *localProvider = nullptr; ///< serves the demo (not owned; may be null)
    KeychainFactory keychain; ///< ProviderChoice::KeySource::Keychain
    ProviderMemory *memory = nullptr; ///< what the process learned of its providers (not owned)
    ParkingChoice parkingChoice = ParkingChoice::Ask; ///< Settings -> Retries
    bool pacing = true;
    bool autoTrim = false;
    ProviderResolver providers; ///< what a conversation of a profile talks to
};

} // namespace capwatch::session
