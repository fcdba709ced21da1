#include "ui/profiles/profilecontroller.h"

#include "history/historywriter.h"
#include "net/chatrequest.h"
#include "session/chatsession.h"
#include "session/profilekeys.h"
#include "ui/conversation/conversationpresenter.h"
#include "ui/history/conversationlistmodel.h"
#include "ui/history/historycontroller.h"
#include "ui/history/historysidebar.h"
#include "ui/panel/retrypanel.h"
#include "ui/profiles/plainhttpwarning.h"
#include "ui/settings/launchoptions.h"
#include "ui/timeline/timelinewidget.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QShortcut>
#include <algorithm>

namespace capwatch::ui {

using namespace Qt::StringLiterals;
using session::ChatSession;

ProfileController::ProfileController(
    QObject *parent, Settings &settings, const LaunchOptions &options, QWidget *rowParent)
    : QObject(parent)
    , m_options(options)
    , m_settings(settings)
    , m_row(new QWidget(rowParent))
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
    auto *shortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P), m_row);
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

void ProfileController::attachSession(session::ChatSession *chat)
{
    m_session = chat;
    connect(
        chat, &ChatSession::conversationChanged, this, &ProfileController::onConversationChanged);
    connect(chat, &ChatSession::conversationRestored, this,
        [this](const session::RestoredConversation &conversation) {
            // The profile stored with it; missing or unknown: the default profile.
            QString id = conversation.profile;
            if (id.isEmpty() && m_sidebar)
                id = m_sidebar->model()->profileOf(conversation.id);
            setProfile(id, false);
        });
    // The numbers the send runs under, its SendPolicy's: a fallback's send has the fallback's
    // (under --demo too, where the fallback is the demo profile's), the next send the profile's.
    connect(chat, &ChatSession::sendStarted, this, [this, chat] {
        const retry::PolicyLimits limits = chat->sendState().limits;
        m_panel->setLimits(limits);
        m_timeline->setLimits(limits);
        if (m_presenter)
            m_presenter->setLimits(limits);
    });
}

void ProfileController::setHistory(HistoryController *history)
{
    m_history = history;
}

session::ProviderChoice ProfileController::chosen() const
{
    return providerChoice(m_settings, m_options, m_profiles, m_current);
}

void ProfileController::setViews(
    RetryPanel *panel, TimelineWidget *timeline, HistorySidebar *sidebar)
{
    m_panel = panel;
    m_timeline = timeline;
    m_sidebar = sidebar;
}

const session::ProviderProfile *ProfileController::fallback() const
{
    // As applySettings() chose it: the fallback of the conversation's profile, of the demo's
    // under --demo.
    const session::ProviderProfile &from = m_options.forceDemo ? m_profiles.demo() : current();
    return from.fallback.isEmpty() ? nullptr : m_profiles.find(from.fallback);
}

const session::ProviderProfile &ProfileController::current() const
{
    return chosenProfile(m_profiles, m_current);
}

bool ProfileController::switchable() const
{
    const LaunchOptions &options = m_options;
    return !options.forceDemo && options.endpoint.isEmpty();
}

void ProfileController::reload()
{
    if (!m_given)
        m_profiles = m_settings.profiles();
    m_current = chosenProfile(m_profiles, m_current).id;
    fillCombo();
}

void ProfileController::setProfiles(const session::ProfileSet &profiles)
{
    m_given = true;
    m_profiles = profiles;
    m_current = chosenProfile(m_profiles, m_current).id;
    fillCombo();
    Q_EMIT profileChanged(m_current);
}

bool ProfileController::keepDeclaredLimit(
    const QString &id, const retry::DeclaredSuggestion &suggestion)
{
    session::ProfileSet set = m_given ? m_profiles : m_settings.profiles();
    session::ProviderProfile *profile = set.find(id);
    if (!profile || suggestion.value <= 0)
        return false;
    const session::profilekeys::DeclaredKey *key
        = session::profilekeys::declaredKeyOf(suggestion.kind);
    if (!key)
        return false;
    profile->declared.*key->field = suggestion.value;
    if (m_given) {
        m_profiles = set;
    } else {
        m_settings.setProfiles(set);
        m_profiles = m_settings.profiles();
    }
    fillCombo();
    Q_EMIT profileChanged(m_current); // the window applies it to its session
    return true;
}

void ProfileController::setProfile(const QString &id, bool store)
{
    m_current = chosenProfile(m_profiles, id).id;
    fillCombo();
    if (store) {
        const QUuid conversation = m_session ? m_session->conversationId() : QUuid();
        HistoryController *history = m_history;
        if (!conversation.isNull() && history && history->writer())
            history->writer()->setConversationProfile(conversation, m_current);
    }
    Q_EMIT profileChanged(m_current);
}

void ProfileController::onConversationChanged(const QUuid &id)
{
    // A restore: conversationRestored() follows with its profile.
    if (!id.isNull())
        return;
    setProfile(m_profiles.defaultProfile, false);
}

void ProfileController::fillCombo()
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

void ProfileController::applied()
{
    const session::ProviderChoice choice = chosen();
    m_panel->setLimits(choice.limits);
    m_timeline->setLimits(choice.limits);
    if (m_presenter) {
        m_presenter->setLimits(choice.limits);
        m_presenter->setProfileName(choice.profileName);
    }
    if (m_sidebar) {
        QHash<QString, QString> names;
        for (const session::ProviderProfile &p : m_profiles.profiles)
            names.insert(p.id, p.name);
        const session::ProviderProfile *fallbackDefault
            = m_profiles.find(m_profiles.defaultProfile);
        m_sidebar->model()->setProfileNames(
            names, fallbackDefault ? fallbackDefault->name : QString());
    }
}

void ProfileController::retranslate()
{
    m_label->setText(tr("Prof&ile:"));
    m_combo->setAccessibleName(tr("Provider profile"));
    m_combo->setToolTip(
        tr("The provider profile of this conversation: its next send goes there (Ctrl+Shift+P)"));
    m_combo->setAccessibleDescription(tr("The next send goes to %1").arg(current().name));
}

} // namespace capwatch::ui
