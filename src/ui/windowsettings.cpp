// MainWindow: Settings (its dialog, and what an accepted one changes). Issue 17: the Providers
// page's profiles.

#include "conversationpresenter.h"
#include "mainwindow.h"
#include "settings.h"
#include "settingsdialog.h"
#include "windowcontext.h"

namespace capwatch::ui {

using namespace Qt::StringLiterals;

void MainWindow::openSettings()
{
    if (m_settingsDialog) {
        m_settingsDialog->raise();
        m_settingsDialog->activateWindow();
        return;
    }
    // The dialog shows what is in use now: the demo (first run, or --demo) or the provider,
    // with an --endpoint or --model of this run in place of the saved ones.
    ProviderSettings current = m_settings.provider();
    current.useDemo = m_session->usingDemo();
    if (!m_options.endpoint.isEmpty())
        current.endpoint = m_options.endpoint;
    if (!m_options.model.isEmpty())
        current.model = m_options.model;
    // Window-modal and opened, never exec()'d: a retry in progress keeps running behind it. The
    // dialog stores a typed keychain key itself and is only accepted once that worked.
    auto *dialog = new SettingsDialog(current, m_settings.parkingChoice(), this);
    dialog->setObjectName(u"settingsDialog"_s);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_settingsDialog = dialog;
    // Settings -> Retries: pacing, automatic trimming, and the context window of the model
    // talked to now (what the user set; what a context error named, as a hint).
    session::ProviderMemory *memory = providerMemory();
    const QString lane = m_session->lane();
    const QString model = m_session->model();
    dialog->setPacing(m_settings.pacingEnabled(), m_settings.autoTrim());
    const std::optional<qint64> userWindow = memory->userContextWindow(lane, model);
    dialog->setContextWindow(
        model, userWindow, userWindow ? std::nullopt : memory->contextWindow(lane, model));
    const std::optional<qint64> shownWindow = userWindow;
    connect(dialog, &QDialog::accepted, this,
        [this, dialog, current, memory, lane, model, shownWindow] {
            const ProviderSettings chosen = dialog->provider();
            const bool changed = (chosen.useDemo != current.useDemo)
                || (!chosen.useDemo && (chosen != current || !dialog->keychainKey().isEmpty()));
            if (changed && m_session->busy()) {
                // Its request (endpoint, model, key) was fixed when it started: a wait that went
                // on would retry with the old settings.
                m_conversation->addNotice(
                    tr("The provider settings changed, so the send in progress was stopped."));
                m_session->cancel();
            }
            dialog->saveTo(
                m_settings); // the provider, Retries' choices, pacing, automatic trimming
            m_settings.sync();
            m_options.forceDemo = false;
            m_options.endpoint.clear();
            m_options.model.clear();
            applyProvider();
            // The box was of the model talked to when the dialog opened: its value goes to that
            // one, or, when the dialog chose another provider or model and the value was changed,
            // to the one chosen (a value left as shown is not copied to another model).
            const std::optional<qint64> window = dialog->contextWindow();
            if (m_session->lane() == lane && m_session->model() == model)
                memory->setUserContextWindow(lane, model, window);
            else if (window != shownWindow)
                memory->setUserContextWindow(m_session->lane(), m_session->model(), window);
        });
    dialog->open();
}

} // namespace capwatch::ui
