#pragma once

// The main window: it wires the pages of the conversation (the view, the prompt, the request
// options, the retry panel, the timeline and the log) to one ChatSession and displays what the
// session emits. The conversation's state lives in the session, not here.

#include "net/retrylog.h"
#include "session/chatsession.h"
#include "ui/conversation/conversationcontroller.h"
#include "ui/conversation/conversationview.h"
#include "ui/conversation/promptbox.h"
#include "ui/conversation/promptmessage.h"
#include "ui/conversation/requestoptionsrow.h"
#include "ui/panel/providerstatus.h"
#include "ui/settings/launchoptions.h"
#include "ui/settings/settings.h"
#include "ui/window/mainmenus.h"

#include <QMainWindow>
#include <QPointer>
#include <functional>

class QMessageBox;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTableView;

namespace capwatch::history {
class HistoryWriter;
}

namespace capwatch::ui {

class ContextGauge;
class ConversationPresenter;
class ConversationTotal;
class DemoBanner;
class HistoryBanner;
class HistorySidebar;
class RetryLogModel;
class RetryPanel;
class SettingsDialog;
class TimelineWidget;
class HistoryController;
class InsightsWindow;
class ContextController;
class ParkingController;
class ProfileController;

class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    /// `demo` serves the built-in demo provider when it is chosen (not owned; see
    /// session::LocalProvider).
    MainWindow(Settings &settings, const LaunchOptions &options,
        session::LocalProvider *demo = nullptr, QWidget *parent = nullptr);
    ~MainWindow() override;

    bool exportRetryLog(const QString &path, net::LogFormat format, QString *error = nullptr)
    {
        return m_menus->exportRetryLog(path, format, error);
    }
    bool exportConversation(const QString &path, QString *error = nullptr)
    {
        return m_menus->exportConversation(path, error);
    }
    /// The conversation as exported: a header (date, endpoint, model), then the turns.
    QString conversationMarkdown() const { return m_menus->conversationMarkdown(); }
    QString retryLogText() const { return m_menus->retryLogText(); }

    /// The history this window lists and stores to (not owned; it outlives the window). Call it
    /// before the writer's open(): the sidebar fills once the writer reports opened().
    /// `privateRun` (--private): the writer is in memory, and the window says so. Without a
    /// call the window keeps no history and shows no sidebar.
    void attachHistory(history::HistoryWriter *writer, bool privateRun);
    HistoryController *historyController() const { return m_history; }

    /// The conversation this window displays.
    session::ChatSession *session() const { return m_session; }
    /// The parked sends of every conversation, the Queue tab (docs/parking.md).
    ParkingController *parkingController() const { return m_parking; }
    /// The provider's window and the model's context: the panel's part, the gauge, trimming.
    ContextController *contextController() const { return m_context; }
    /// What the window learned of its providers, shared by its session and the lot's.
    session::ProviderMemory *providerMemory() const;
    const LaunchOptions &launchOptions() const { return m_options; }
    /// What the window's session talks to now.
    /// The profile of the conversation shown, with this run's flags (profilecontroller.cpp).
    session::ProviderChoice chosenProvider() const;
    /// The conversation's provider profile: the combo above the prompt, the default profile of
    /// a new conversation, the stored one of a restored conversation (issue 17).
    ProfileController *profileController() const { return m_profiles; }
    /// The actions on the conversation shown: send, stop, retry, fallback, trim, edit.
    ConversationController *controller() const { return m_controller; }

    // No widget getters: tests find the widgets by objectName (tests/support/windowwidgets.h),
    // and the window's helpers are handed the widgets they work with when it builds them.

    /// Says once, above the prompt, which rules files were left out at start (each
    /// `FILE:LINE: what is wrong`, docs/rules.md); the built-in rules and the others are used.
    void showRulesProblems(const QStringList &problems);

    /// The text of the inline message above the prompt (empty when there is none).
    QString inlineMessageText() const { return m_message->shownText(); }
    QString statusText() const { return m_status->text(); }

    /// View → Insights (Ctrl+I): the Insights page (made the first time), or the chat again.
    void showInsights(bool shown);
    bool insightsShown() const;
    /// The Insights page, null until first shown.
    InsightsWindow *insights() const;

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    /// The question closeEvent() asks when sends are not done (window-modal, asynchronous).
    void askToQuit(const QString &question);
    void fitLogView();
    void buildUi();
    /// The history sidebar's first width (MainWindow.cpp).
    void fitSidebar();
    QWidget *buildRightColumn(QWidget *parent);
    void retranslate();
    void applyProvider();
    /// Settings; `newProfile`: with a new provider profile to fill in, used once accepted (the
    /// demo banner's "Configure a provider…").
    void openSettings(bool newProfile = false);
    void wireShortcuts();

    Settings &m_settings;
    LaunchOptions m_options;
    session::ChatSession *m_session;
    ContextController *m_context;
    QPointer<QMessageBox> m_quitQuestion;
    bool m_quitConfirmed = false; ///< the question was answered with Quit
    QPointer<SettingsDialog> m_settingsDialog;
    QStackedWidget *m_pages = nullptr; ///< the chat, then the Insights page
    QWidget *m_chatPage = nullptr;
    QPointer<InsightsWindow> m_insights;

    DemoBanner *m_banner = nullptr;
    QSplitter *m_splitter = nullptr;
    bool m_sidebarFitted = false;
    ConversationView *m_conversation = nullptr;
    ConversationTotal *m_total = nullptr; ///< what the conversation shown cost so far
    ConversationPresenter *m_presenter = nullptr;
    ConversationController *m_controller = nullptr;
    PromptMessage *m_message = nullptr;
    PromptBox *m_promptBox = nullptr;
    RequestOptionsRow *m_requestOptions = nullptr;
    ContextGauge *m_gauge = nullptr;
    RetryPanel *m_panel = nullptr;
    QTabWidget *m_tabs = nullptr;
    TimelineWidget *m_timeline = nullptr;
    QTableView *m_logView = nullptr;
    bool m_logViewStale = false; ///< records came while the log table was hidden
    RetryLogModel *m_logModel = nullptr;
    ProviderStatus *m_status = nullptr;
    MainMenus *m_menus = nullptr;
    HistorySidebar *m_sidebar = nullptr;
    HistoryBanner *m_historyBanner = nullptr;
    HistoryController *m_history = nullptr;
    ParkingController *m_parking = nullptr;
    ProfileController *m_profiles = nullptr;
};

} // namespace capwatch::ui
