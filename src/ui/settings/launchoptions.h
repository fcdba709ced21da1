#pragma once

// The window's command line, and what it and the settings choose for the session to talk to.

#include "session/providerresolver.h"
#include "session/sessiontypes.h"
#include "ui/settings/settings.h"

namespace capwatch::session {
class ProviderMemory;
}

class QObject;

namespace capwatch::session {
class ChatSession;
class LocalProvider;
} // namespace capwatch::session

namespace capwatch::ui {

struct LaunchOptions
{
    QString endpoint; ///< --endpoint: overrides the settings for this run
    QString model; ///< --model
    bool forceDemo = false; ///< --demo
    QString prompt; ///< --prompt: sent once the window is shown
    double timeScale = 1.0; ///< --time-scale
};

/// The profile `profileId` names among `profiles` (issue 17); missing or unknown: the default
/// profile, else the demo.
const session::ProviderProfile &chosenProfile(
    const session::ProfileSet &profiles, const QString &profileId);

/// What the profile `profileId` of the settings' profiles talks to (chosenProfile()), with
/// --demo, --endpoint and --model of this run in its place (they win for this run). A file whose
/// profiles hold only the demo while its single provider of before is configured: that
/// provider, as before profiles.
session::ProviderChoice providerChoice(
    const Settings &settings, const LaunchOptions &options, const QString &profileId = {});
/// The resolver of this run: `profiles` with --demo, --endpoint and --model over them (and the
/// provider of before profiles, as providerChoice() says).
session::ProviderResolver providerResolver(
    const Settings &settings, const LaunchOptions &options, const session::ProfileSet &profiles);
/// As above, with profiles already read.
session::ProviderChoice providerChoice(const Settings &settings, const LaunchOptions &options,
    const session::ProfileSet &profiles, const QString &profileId);

/// What the settings and the command line choose, applied to `session`: the provider
/// (providerChoice()) and its profile's fallback, what a send capped beyond the budget does,
/// pacing and automatic trimming (Settings → Retries).
void applySettings(session::ChatSession &session, const Settings &settings,
    const LaunchOptions &options, const QString &profileId = {});
/// As above, with profiles already read (the window's).
void applySettings(session::ChatSession &session, const Settings &settings,
    const LaunchOptions &options, const session::ProfileSet &profiles, const QString &profileId);

/// Wires a session of the window: its own, and each one its parking lot makes for a parked send
/// of a conversation it does not show. The time scale of this run, `demo` (may be null) for the
/// demo, the system keychain (its prompts parented to `keychainContext`), and what the window
/// learned of its providers (`memory`, may be null).
void wireSession(session::ChatSession &session, const LaunchOptions &options,
    session::LocalProvider *demo, QObject *keychainContext,
    session::ProviderMemory *memory = nullptr);

} // namespace capwatch::ui
