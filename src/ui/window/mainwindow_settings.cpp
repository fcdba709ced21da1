// MainWindow: Settings (its dialog, and what an accepted one changes). Issue 17: the Providers
// page's profiles.

#include "ui/conversation/contextcontroller.h"
#include "ui/conversation/conversationpresenter.h"
#include "ui/profiles/profilecontroller.h"
#include "ui/profiles/providerspage.h"
#include "ui/settings/settings.h"
#include "ui/settings/settingsdialog.h"
#include "ui/window/mainwindow.h"

namespace capwatch::ui {

using namespace Qt::StringLiterals;

namespace {

/// Whether a send to `after` goes out differently from one to `before`: another endpoint,
/// model, key, header or number of the policy. Its name, fallback or cached models do not count.
bool sendsDifferently(const session::ProviderProfile &before, const session::ProviderProfile &after)
{
    if (before.builtInDemo || after.builtInDemo)
        return before.builtInDemo != after.builtInDemo || before.overrides != after.overrides
            || before.stream != after.stream;
    return before.endpoint != after.endpoint || before.model != after.model
        || before.keySource != after.keySource || before.keyVariable != after.keyVariable
        || before.keyFile != after.keyFile || before.stream != after.stream
        || before.extraHeaders != after.extraHeaders || before.overrides != after.overrides;
}

} // namespace

void MainWindow::openSettings(bool newProfile)
{
    if (m_settingsDialog) {
        m_settingsDialog->raise();
        m_settingsDialog->activateWindow();
        return;
    }
    // The dialog shows the profiles of the settings file, the one in use now selected (the
    // current conversation's; the demo under --demo).
    session::ProfileSet profiles = m_settings.profiles();
    const session::ProviderChoice inUse = chosenProvider();
    QString current = inUse.profile;
    if (m_session->provider().usingDemo() || (current.isEmpty() && inUse.demo))
        current = profiles.demo().id;
    if (!profiles.find(current))
        current = profiles.defaultProfile;
    // The context window of the model talked to now: the profile's; before profiles it was the
    // provider memory's, so that one shows when the profile has none yet. What a context error
    // named is a hint.
    session::ProviderMemory *memory = providerMemory();
    const QString lane = m_session->provider().lane();
    const QString model = m_session->provider().model();
    const std::optional<qint64> userWindow = memory->userContextWindow(lane, model);
    if (session::ProviderProfile *p = profiles.find(current); p && !p->contextWindow)
        p->contextWindow = userWindow;
    const session::ProfileSet before = profiles;

    // Window-modal and opened, never exec()'d: a retry in progress keeps running behind it. The
    // dialog stores typed keychain keys itself and is only accepted once that worked.
    auto *dialog = new SettingsDialog(profiles, current, m_settings.parkingChoice(), this);
    dialog->setObjectName(u"settingsDialog"_s);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_settingsDialog = dialog;
    dialog->setPacing(m_settings.pacingEnabled(), m_settings.autoTrim());
    dialog->setAutoContinue(m_settings.autoContinue());
    if (!userWindow)
        dialog->setContextHint(current, memory->contextWindow(lane, model));
    if (newProfile)
        dialog->providersPage()->addNewProfile();
    connect(dialog, &QDialog::accepted, this,
        [this, dialog, before, current, memory, lane, model, newProfile] {
            const session::ProfileSet chosen = dialog->profiles();
            const session::ProviderProfile *was = before.find(current);
            const session::ProviderProfile *now = chosen.find(current);
            // The profile the send uses: deleted, or sending differently now. (Selecting another
            // profile in the dialog does not move the send.)
            // A fallback's send in flight uses the fallback profile (the one of `current`, as the
            // send started), not `current`: only a change of that one stops it.
            const bool onFallback = m_session->busy() && m_session->sendState().viaFallback;
            const QString sending = onFallback ? (was ? was->fallback : QString()) : current;
            const session::ProviderProfile *sentWas = onFallback ? before.find(sending) : was;
            const session::ProviderProfile *sentNow = onFallback ? chosen.find(sending) : now;
            const bool changed = !sentWas || !sentNow || sendsDifferently(*sentWas, *sentNow)
                || dialog->keychainKeys().contains(sending);
            if (changed && m_session->busy()) {
                // Its request (endpoint, model, key, policy) was fixed when it started: a wait that
                // went on would retry with the old settings.
                m_conversation->addNotice(onFallback
                        ? tr("The settings of the fallback profile %1 changed, so the send in "
                             "progress was stopped.")
                              .arg(m_session->sendState().profileName)
                        : tr(
                            "The provider settings changed, so the send in progress was stopped."));
                m_session->cancel();
            }
            // The profiles, Retries' choices, pacing, automatic trimming and continuing.
            dialog->saveTo(m_settings);
            m_settings.sync();
            // This run's --demo, --endpoint and --model stay until the user picks another provider
            // (another default profile) or changes how the one in use sends: OK on what was there,
            // or on the parking choice alone, keeps talking to what the run was started with.
            // A provider configured from the demo banner is the one talked to from now on.
            const QString made = dialog->currentProfile();
            const session::ProviderProfile *configured
                = newProfile && !before.find(made) ? chosen.find(made) : nullptr;
            const bool picked = chosen.defaultProfile != before.defaultProfile
                || (was && now && sendsDifferently(*was, *now)) || (was && !now) || configured;
            if (picked) {
                m_options.forceDemo = false;
                m_options.endpoint.clear();
                m_options.model.clear();
            }
            // The context window set for the profile in use is also the provider memory's for the
            // model talked to, as before profiles.
            if (now && now->id == current && m_session->provider().lane() == lane
                && m_session->provider().model() == model)
                memory->setUserContextWindow(lane, model, now->contextWindow);
            applyProvider();
            if (configured)
                m_profiles->setProfile(configured->id);
        });
    dialog->open();
}

} // namespace capwatch::ui
