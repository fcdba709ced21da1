#pragma once

// The window's provider profiles (issue 17): the combo box above the prompt that switches the
// profile of the conversation shown for its next send, the profile a new conversation starts
// with and the one a restored conversation had, and what follows from the profile: the
// session's provider and fallback, the numbers of the retry panel, the timeline and the failed
// card, the status line's name and the sidebar's.

#include "session/profiles.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QUuid>

class QComboBox;
class QLabel;
class QWidget;

namespace capwatch::session {
class ChatSession;
}

namespace capwatch::ui {

class ConversationPresenter;
class HistoryController;
class HistorySidebar;
class RetryPanel;
class Settings;
class TimelineWidget;
struct LaunchOptions;

class ProfileController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProfileController)

public:
    /// Builds the row (label and combo) as a child of `rowParent`; the window places it.
    /// `options`: this run's flags, as the window keeps them (not copied: Settings may turn off
    /// --demo).
    ProfileController(
        QObject *parent, Settings &settings, const LaunchOptions &options, QWidget *rowParent);
    /// The history the conversation's profile is stored in (once it exists).
    void setHistory(HistoryController *history);
    /// What the conversation shown talks to: its profile, with this run's flags.
    session::ProviderChoice chosen() const;

    /// The views that show the profile's numbers and names, once the window built them (before
    /// the first applied()).
    void setViews(RetryPanel *panel, TimelineWidget *timeline, HistorySidebar *sidebar);
    /// The window's presenter, once it exists (after attachSession()); until then applied()
    /// has no card to give the numbers to.
    void setPresenter(ConversationPresenter *presenter) { m_presenter = presenter; }

    QWidget *row() const { return m_row; }
    QComboBox *combo() const { return m_combo; }
    QLabel *label() const { return m_label; }

    /// The profiles as last read from the settings.
    const session::ProfileSet &profiles() const { return m_profiles; }
    /// The id of the conversation's profile (what its next send goes to).
    QString currentId() const { return m_current; }
    const session::ProviderProfile &current() const;
    /// The profile the session's fallback was made from; null when it has none.
    const session::ProviderProfile *fallback() const;
    /// False when this run's --demo or --endpoint replaced the profile: the combo is disabled.
    bool switchable() const;

    /// Reads the profiles from the settings again (after Settings → Providers) and keeps the
    /// conversation's profile when it is still there (else the default one). The window's
    /// applyProvider() calls it before it applies the profile.
    void reload();
    /// Uses the profiles given instead of the settings' from now on (tests, the screenshot tool)
    /// and applies the conversation's profile.
    void setProfiles(const session::ProfileSet &profiles);
    /// Makes `id` the conversation's profile (unknown: the default one) and applies it; with
    /// `store`, a stored conversation keeps it (HistoryWriter::setConversationProfile()).
    void setProfile(const QString &id, bool store = true);
    /// Declares `suggestion` as profile `id`'s own limit (saved in the settings file, as
    /// Settings → Providers would) and applies it. False when there is no such profile.
    bool keepDeclaredLimit(const QString &id, const retry::DeclaredSuggestion &suggestion);
    void retranslate();
    /// Follows the window's session: a new conversation starts with the default profile, a
    /// restored one gets its own back. After the history exists and before the presenter
    /// connects, so a restored conversation's profile is applied before its answers are shown.
    void attachSession(session::ChatSession *session);
    /// After the window applied the profile to its session (MainWindow::applyProvider()): the
    /// panel's, the timeline's and the card's numbers, the sidebar's names.
    void applied();

Q_SIGNALS:
    /// The conversation's profile changed (the combo, a new or restored conversation).
    void profileChanged(const QString &id);

private:
    void fillCombo();
    void onConversationChanged(const QUuid &id);

    const LaunchOptions &m_options;
    session::ChatSession *m_session = nullptr;
    QPointer<HistoryController> m_history;
    Settings &m_settings;
    RetryPanel *m_panel = nullptr;
    TimelineWidget *m_timeline = nullptr;
    HistorySidebar *m_sidebar = nullptr;
    ConversationPresenter *m_presenter = nullptr;
    session::ProfileSet m_profiles;
    QString m_current;
    bool m_filling = false;
    bool m_given = false; ///< setProfiles(): not read from the settings
    QWidget *m_row;
    QLabel *m_label;
    QComboBox *m_combo;
};

} // namespace capwatch::ui
