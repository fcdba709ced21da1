#include "windowprofiles.h"

#include "conversationlistmodel.h"
#include "conversationpresenter.h"
#include "history/historywriter.h"
#include "historysidebar.h"
#include "launchoptions.h"
#include "mainwindow.h"
#include "retrypanel.h"
#include "timelinewidget.h"
#include "windowhistory.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QShortcut>
#include <algorithm>

namespace capwatch::ui {

using namespace Qt::StringLiterals;
using session::ChatSession;

WindowProfiles::WindowProfiles(MainWindow *window, Settings &settings, QWidget *parent)
    : QObject(window)
    , m_window(window)
    , m_settings(settings)
    , m_row(new QWidget(parent))
    , m_label(new QLabel(m_row))
    , m_combo(new QComboBox(m_row))
{
    auto *layout = new QHBoxLayout(m_row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label);
    layout->addWidget(m_combo, 1);
    m_label->setBuddy(m_combo);
    m_combo->setObjectName(u"profileCombo"_s);
    m_combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_combo->setFocusPolicy(Qt::StrongFocus);
    // Ctrl+Shift+P from anywhere in the window; the label's mnemonic too.
    auto *shortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P), window);
    shortcut->setContext(Qt::WindowShortcut);
    connect(shortcut, &QShortcut::activated, m_combo,
        [this] { m_combo->setFocus(Qt::ShortcutFocusReason); });
    connect(m_combo, &QComboBox::activated, this, [this](int index) {
        if (m_filling || index < 0)
            return;
        const QString id = m_combo->itemData(index).toString();
        if (id != m_current)
            setProfile(id, true);
    });
    m_profiles = m_settings.profiles();
    m_current = chosenProfile(m_profiles, {}).id;
    fillCombo();
}

void WindowProfiles::attachSession()
{
    ChatSession *chat = m_window->session();
    connect(chat, &ChatSession::conversationChanged, this, &WindowProfiles::onConversationChanged);
    connect(chat, &ChatSession::conversationRestored, this,
        [this](const session::RestoredConversation &conversation) {
            // The profile stored with it; missing or unknown: the default profile.
            QString id = conversation.profile;
            if (HistorySidebar *sidebar = m_window->historySidebar(); id.isEmpty() && sidebar)
                id = sidebar->model()->profileOf(conversation.id);
            setProfile(id, false);
        });
    // A fallback's send runs under the fallback's numbers; the next send under the profile's.
    connect(chat, &ChatSession::sendStarted, this, [this, chat] {
        retry::PolicyLimits limits = m_window->chosenProvider().limits;
        const session::ProviderProfile *fallback = m_profiles.find(current().fallback);
        if (chat->sentToFallback() && fallback)
            limits = fallback->limits();
        m_window->retryPanel()->setLimits(limits);
        m_window->timeline()->setLimits(limits);
        m_window->presenter()->setLimits(limits);
    });
}

// --- MainWindow's part of it, here to keep mainwindow.cpp the wiring of its pages ---

session::ProviderChoice MainWindow::chosenProvider() const
{
    if (!m_profiles)
        return providerChoice(m_settings, m_options);
    return providerChoice(m_settings, m_options, m_profiles->profiles(), m_profiles->currentId());
}

void MainWindow::sendToFallback()
{
    const QString prompt = m_session->failedPrompt();
    if (prompt.isEmpty() || m_session->busy() || !m_session->fallbackOffer().offered)
        return;
    // The fallback's own endpoint: its plain-HTTP consent is asked by the session's next send.
    if (promptEditor()->toPlainText() == prompt)
        promptEditor()->clear();
    startSend(prompt, [this] { m_session->sendToFallback(m_requestOptions->sendOptions()); });
}

QComboBox *MainWindow::profileCombo() const
{
    return m_profiles->combo();
}

const session::ProviderProfile &WindowProfiles::current() const
{
    return chosenProfile(m_profiles, m_current);
}

bool WindowProfiles::switchable() const
{
    const LaunchOptions &options = m_window->launchOptions();
    return !options.forceDemo && options.endpoint.isEmpty();
}

void WindowProfiles::reload()
{
    if (!m_given)
        m_profiles = m_settings.profiles();
    m_current = chosenProfile(m_profiles, m_current).id;
    fillCombo();
}

void WindowProfiles::setProfiles(const session::ProfileSet &profiles)
{
    m_given = true;
    m_profiles = profiles;
    m_current = chosenProfile(m_profiles, m_current).id;
    fillCombo();
    Q_EMIT profileChanged(m_current);
}

void WindowProfiles::setProfile(const QString &id, bool store)
{
    m_current = chosenProfile(m_profiles, id).id;
    fillCombo();
    if (store) {
        const QUuid conversation = m_window->session()->conversationId();
        WindowHistory *history = m_window->windowHistory();
        if (!conversation.isNull() && history && history->writer())
            history->writer()->setConversationProfile(conversation, m_current);
    }
    Q_EMIT profileChanged(m_current);
}

void WindowProfiles::onConversationChanged(const QUuid &id)
{
    // A restore: conversationRestored() follows with its profile.
    if (!id.isNull())
        return;
    setProfile(m_profiles.defaultProfile, false);
}

void WindowProfiles::fillCombo()
{
    m_filling = true;
    m_combo->clear();
    for (const session::ProviderProfile &p : m_profiles.profiles)
        m_combo->addItem(p.name, p.id);
    // --demo talks to the demo whatever the conversation's profile: the combo says so.
    const QString shown = switchable() ? m_current : m_profiles.demo().id;
    m_combo->setCurrentIndex(std::max(0, m_combo->findData(shown)));
    m_filling = false;
    m_combo->setAccessibleDescription(tr("The next send goes to %1").arg(current().name));
}

void WindowProfiles::applied()
{
    const session::ProviderChoice choice = m_window->chosenProvider();
    m_window->retryPanel()->setLimits(choice.limits);
    m_window->timeline()->setLimits(choice.limits);
    if (ConversationPresenter *presenter = m_window->presenter()) {
        presenter->setLimits(choice.limits);
        presenter->setProfileName(choice.profileName);
    }
    if (HistorySidebar *sidebar = m_window->historySidebar()) {
        QHash<QString, QString> names;
        for (const session::ProviderProfile &p : m_profiles.profiles)
            names.insert(p.id, p.name);
        const session::ProviderProfile *fallbackDefault
            = m_profiles.find(m_profiles.defaultProfile);
        sidebar->model()->setProfileNames(
            names, fallbackDefault ? fallbackDefault->name : QString());
    }
}

void WindowProfiles::retranslate()
{
    m_label->setText(tr("Prof&ile:"));
    m_combo->setAccessibleName(tr("Provider profile"));
    m_combo->setToolTip(
        tr("The provider profile of this conversation: its next send goes there (Ctrl+Shift+P)"));
    m_combo->setAccessibleDescription(tr("The next send goes to %1").arg(current().name));
}

} // namespace capwatch::ui
