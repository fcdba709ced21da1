#pragma once

// The window side of history: the sidebar, the banner about the database, the private-run mark,
// File → Export all retry logs… and Settings → History. Every read and write goes through the
// HistoryWriter's thread; nothing here waits for one.
//
// It hands the writer to the session (ChatSession::setHistory()), which stores and restores;
// what the session stored or opened moves the sidebar, and a failed open is said inline. In a
// private run the session gets no writer: nothing is stored, not even in memory, so the sidebar
// stays empty (the window says "Private: nothing is kept") and this run's conversation lives
// only in the window.

#include "history/historywriter.h"
#include "ui/history/historyexport.h"
#include "ui/history/historysettingsdialog.h"

#include <QDateTime>
#include <QObject>
#include <QPointer>
#include <QUuid>

class QLabel;
class QMainWindow;

namespace capwatch::session {
class ChatSession;
}

namespace capwatch::ui {

class HistoryBanner;
class HistorySidebar;
class PromptMessage;
class Settings;
class MainMenus;

class HistoryController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryController)

public:
    HistoryController(QMainWindow *window, Settings &settings, session::ChatSession *session,
        MainMenus *menus, HistorySidebar *sidebar, HistoryBanner *banner, PromptMessage *message);

    /// Uses `writer` (not owned; it outlives the window) once it reports opened(): call it before
    /// the writer's open(). `privateRun`: --private, the writer opened in memory.
    void attach(history::HistoryWriter *writer, bool privateRun);
    history::HistoryWriter *writer() const { return m_writer; }
    /// How the window opens its history: every page read first (a second or more per 100 MB,
    /// on the writer's thread, the list waiting meanwhile) only when that was last done a day
    /// ago or more (Settings::historyPagesCheckedAt()) or never. Between checks a damaged page
    /// shows as an error of what reads or writes it.
    history::OpenOptions openOptions(const QDateTime &now = QDateTime::currentDateTimeUtc()) const;
    /// Keeps, in the settings, when this run's open read every page (the window calls it as it
    /// closes: no write of the settings file while it runs).
    void savePagesChecked();
    bool isPrivate() const { return m_private; }
    /// The database is in use (opened, and on disk unless private).
    bool isOpen() const { return m_open; }
    QUuid currentConversation() const { return m_current; }

    /// Opens `id` in the window (the sidebar's choice): the session reads it back.
    void openConversation(const QUuid &id);
    /// Ctrl+N: a new, empty conversation in the session.
    void newConversation();

    /// Writes the records of [since, until) to `path` on the writer's thread; exportFinished()
    /// tells how it went.
    void exportAllRetryLogs(
        const QString &path, net::LogFormat format, const QDateTime &since, const QDateTime &until);
    void exportAllInteractive();
    void openSettings();
    HistorySettingsDialog *settingsDialog() const { return m_settingsDialog; }
    QLabel *privateLabel() const { return m_privateLabel; }
    void retranslate();

Q_SIGNALS:
    void opened(const capwatch::history::OpenResult &result);
    void openRequested(const QUuid &id);
    void newRequested();
    void exportFinished(const capwatch::ui::ExportAllResult &result);

private:
    void onOpened(const history::OpenResult &result);
    void onConversationChanged(const QUuid &id);
    void applyRetention();
    void clearHistory(bool usage);

    QMainWindow *m_window;
    Settings &m_settings;
    session::ChatSession *m_session;
    MainMenus *m_menus;
    HistorySidebar *m_sidebar;
    HistoryBanner *m_banner;
    PromptMessage *m_message;
    history::HistoryWriter *m_writer = nullptr;
    QLabel *m_privateLabel = nullptr;
    QPointer<HistorySettingsDialog> m_settingsDialog;
    QUuid m_current;
    bool m_private = false;
    bool m_open = false;
    QDateTime m_pagesCheckedAt; ///< this run's open read every page, then
};

} // namespace capwatch::ui
