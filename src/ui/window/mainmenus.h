#pragma once

// The main window's menus and what they do that is not the conversation itself: exporting and
// copying the retry log, exporting the conversation as Markdown, About. Dialogs are opened, never
// exec()'d: a retry in progress keeps running behind them.

#include "net/retrylog.h"

#include <QObject>

class QAction;
class QFileDialog;
class QMainWindow;
class QMenu;

namespace capwatch::session {
class ChatSession;
}

namespace capwatch::ui {

class ConversationView;
class ProfileController;
class Settings;

class MainMenus final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainMenus)

public:
    MainMenus(QMainWindow *window, Settings &settings, session::ChatSession *session,
        ConversationView *conversation);
    /// The conversation's profile, whose retry numbers Help → About tells (else the policy's).
    void setProfiles(ProfileController *profiles) { m_profiles = profiles; }

    bool exportRetryLog(const QString &path, net::LogFormat format, QString *error = nullptr);
    bool exportConversation(const QString &path, QString *error = nullptr);
    /// The conversation as exported: a header (date, endpoint, model), then the turns.
    QString conversationMarkdown() const;
    QString retryLogText() const;
    void retranslate();
    /// A warning that does not block: opened window-modal, deleted when closed.
    void showWarning(const QString &title, const QString &text);
    /// A save dialog starting in the last export folder; the caller connects and opens it.
    /// A retry log's path as a save dialog gave it: its own suffix (.csv, .jsonl) decides the
    /// format; without one the chosen filter does, and its suffix is added. `csv` tells which.
    static QString retryLogPath(
        const QFileDialog *dialog, QString path, const QString &csvFilter, bool *csv);
    QFileDialog *saveDialog(
        const QString &title, const QString &fileName, const QStringList &filters);

    /// View → Insights, checked while the Insights page shows.
    QAction *insightsAction() const { return m_insightsAction; }

Q_SIGNALS:
    void settingsRequested();
    void historySettingsRequested();
    /// File → Export all retry logs…: every stored record in a date range.
    void exportAllRequested();
    /// View → Insights (Ctrl+I), checked: the Insights page shown; unchecked: the chat again.
    void insightsToggled(bool shown);

private:
    void exportRetryLogInteractive();
    void exportConversationInteractive();
    void copyRetryLog();
    void showAbout();

    QMainWindow *m_window;
    ProfileController *m_profiles = nullptr;
    Settings &m_settings;
    session::ChatSession *m_session;
    ConversationView *m_conversation;
    QAction *m_exportLogAction;
    QAction *m_copyLogAction;
    QAction *m_exportConversationAction;
    QAction *m_exportAllAction;
    QAction *m_historySettingsAction;
    QAction *m_quitAction;
    QAction *m_settingsAction;
    QAction *m_aboutAction;
    QAction *m_insightsAction;
    QMenu *m_fileMenu;
    QMenu *m_viewMenu;
    QMenu *m_settingsMenu;
    QMenu *m_helpMenu;
};

} // namespace capwatch::ui
