#include "ui/settings/launchoptions.h"

#include "session/chatsession.h"
#include "ui/profiles/keychain.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace capwatch::ui {

const session::ProviderProfile &chosenProfile(
    const session::ProfileSet &profiles, const QString &profileId)
{
    return session::ProviderResolver::find(profiles, profileId);
}

namespace {

bool onlyDemo(const session::ProfileSet &profiles)
{
    return std::all_of(profiles.profiles.cbegin(), profiles.profiles.cend(),
        [](const session::ProviderProfile &p) { return p.builtInDemo; });
}

session::ProviderChoice legacyChoice(const Settings &settings, const LaunchOptions &options)
{
    const ProviderSettings p = settings.provider();
    session::ProviderChoice choice;
    choice.demo = options.forceDemo
        || (options.endpoint.isEmpty() && (!settings.isConfigured() || p.useDemo));
    choice.endpoint = QUrl(options.endpoint.isEmpty() ? p.endpoint : options.endpoint);
    // --model names the model for this run, the demo's too; the saved one is not the demo's.
    choice.model = !options.model.trimmed().isEmpty() ? options.model
        : choice.demo                                 ? QString()
                                                      : p.model;
    choice.stream = p.stream;
    choice.keySource = p.choiceKeySource();
    choice.keyVariable = p.keyVariable;
    choice.keyFile = p.keyFile;
    choice.keySourceText = p.keySourceText();
    return choice;
}

} // namespace

session::ProviderResolver providerResolver(
    const Settings &settings, const LaunchOptions &options, const session::ProfileSet &profiles)
{
    // The provider of before profiles, while the file has no profile made from it.
    std::optional<session::ProviderChoice> legacy;
    if (onlyDemo(profiles) && settings.isConfigured() && !settings.provider().useDemo)
        legacy = legacyChoice(settings, options);
    return session::ProviderResolver(
        profiles, { options.forceDemo, options.endpoint, options.model }, std::move(legacy));
}

session::ProviderChoice providerChoice(const Settings &settings, const LaunchOptions &options,
    const session::ProfileSet &profiles, const QString &profileId)
{
    return providerResolver(settings, options, profiles).choice(profileId);
}

session::ProviderChoice providerChoice(
    const Settings &settings, const LaunchOptions &options, const QString &profileId)
{
    return providerChoice(settings, options, settings.profiles(), profileId);
}

void applySettings(session::ChatSession &session, const Settings &settings,
    const LaunchOptions &options, const QString &profileId)
{
    applySettings(session, settings, options, settings.profiles(), profileId);
}

void applySettings(session::ChatSession &session, const Settings &settings,
    const LaunchOptions &options, const session::ProfileSet &profiles, const QString &profileId)
{
    const session::ProviderResolver providers = providerResolver(settings, options, profiles);
    session.setProvider(providers.choice(profileId));
    // The profile's fallback: another profile, with its own endpoint, key and limits. None when
    // this run's flags replaced the provider.
    bool automatic = false;
    std::optional<session::ProviderChoice> fallback = providers.fallback(profileId, &automatic);
    session.setFallback(std::move(fallback), automatic);
    session.setParkingChoice(settings.parkingChoice());
    session.context().setPacingEnabled(settings.pacingEnabled());
    session.context().setAutoTrim(settings.autoTrim());
}

void wireSession(session::ChatSession &session, const LaunchOptions &options,
    session::LocalProvider *demo, QObject *keychainContext, session::ProviderMemory *memory)
{
    session.context().setProviderMemory(memory);
    session.setTimeScale(options.timeScale);
    session.provider().setLocalProvider(demo);
    session.provider().setKeychain([keychainContext](const QString &entry) {
        return Keychain::provider(keychainContext, entry);
    });
}

} // namespace capwatch::ui
