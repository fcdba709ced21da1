#include "launchoptions.h"

#include "keychain.h"
#include "session/chatsession.h"

namespace capwatch::ui {

session::ProviderChoice providerChoice(const Settings &settings, const LaunchOptions &options)
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
    using Source = session::ProviderChoice::KeySource;
    choice.keySource = p.keySource == ProviderSettings::KeySource::KeyFile ? Source::KeyFile
        : p.keySource == ProviderSettings::KeySource::Keychain             ? Source::Keychain
                                                                           : Source::Environment;
    choice.keyVariable = p.keyVariable;
    choice.keyFile = p.keyFile;
    choice.keySourceText = p.keySourceText();
    return choice;
}

void applySettings(
    session::ChatSession &session, const Settings &settings, const LaunchOptions &options)
{
    session.setProvider(providerChoice(settings, options));
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
    session.setKeychain(
        [keychainContext](const QString &) { return Keychain::provider(keychainContext); });
}

} // namespace capwatch::ui
