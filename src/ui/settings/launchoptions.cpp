#include "ui/settings/launchoptions.h"

#include "session/chatsession.h"
#include "ui/profiles/keychain.h"

#include <algorithm>

namespace capwatch::ui {

const session::ProviderProfile &chosenProfile(
    const session::ProfileSet &profiles, const QString &profileId)
{
    if (const session::ProviderProfile *p
        = profileId.isEmpty() ? nullptr : profiles.find(profileId))
        return *p;
    if (const session::ProviderProfile *p = profiles.find(profiles.defaultProfile))
        return *p;
    return profiles.demo();
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

session::ProviderChoice providerChoice(const Settings &settings, const LaunchOptions &options,
    const session::ProfileSet &profiles, const QString &profileId)
{
    // The provider of before profiles, while the file has no profile made from it.
    if (onlyDemo(profiles) && settings.isConfigured() && !settings.provider().useDemo)
        return legacyChoice(settings, options);
    session::ProviderChoice choice
        = (options.forceDemo ? profiles.demo() : chosenProfile(profiles, profileId)).choice();
    if (!options.forceDemo && !options.endpoint.isEmpty()) {
        choice.demo = false;
        choice.endpoint = QUrl(options.endpoint);
    }
    // --model names the model for this run, the demo's too.
    if (!options.model.trimmed().isEmpty())
        choice.model = options.model;
    return choice;
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
    session.setProvider(providerChoice(settings, options, profiles, profileId));
    // The profile's fallback: another profile, with its own endpoint, key and limits. None when
    // this run's flags replaced the provider.
    const session::ProviderProfile &profile
        = options.forceDemo ? profiles.demo() : chosenProfile(profiles, profileId);
    const session::ProviderProfile *fallback
        = profile.fallback.isEmpty() ? nullptr : profiles.find(profile.fallback);
    if (fallback && options.endpoint.isEmpty() && fallback->id != profile.id)
        session.setFallback(fallback->choice(), profile.autoFallback);
    else
        session.setFallback(std::nullopt, false);
    session.setParkingChoice(settings.parkingChoice());
    session.setPacingEnabled(settings.pacingEnabled());
    session.setAutoTrim(settings.autoTrim());
}

void wireSession(session::ChatSession &session, const LaunchOptions &options,
    session::LocalProvider *demo, QObject *keychainContext, session::ProviderMemory *memory)
{
    session.setProviderMemory(memory);
    session.setTimeScale(options.timeScale);
    session.setLocalProvider(demo);
    session.setKeychain([keychainContext](const QString &entry) {
        return Keychain::provider(keychainContext, entry);
    });
}

} // namespace capwatch::ui
