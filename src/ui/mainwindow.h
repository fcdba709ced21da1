#pragma once

#include "conversationview.h"
#include "net/chatclient.h"
#include "net/retrylog.h"
#include "settings.h"

#include <QMainWindow>
#include <QPointer>
#include <QSet>
#include <QTimer>
#include <memory>
#include <optional>

class QAction;
class QDoubleSpinBox;
class QFileDialog;
class QFrame;
class QLabel;
class QMessageBox;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;
class QToolButton;

namespace capwatch::demo {
class DemoProvider;
}

namespace capwatch::ui {

class RetryLogModel;
class RetryPanel;
class SettingsDialog;
class TimelineWidget;

struct LaunchOptions
{
    QString endpoint; ///< --endpoint: overrides the settings for this run
    QString model; ///< --model
    bool forceDemo = false; ///< --demo
    QString prompt; ///< --prompt: sent once the window is shown
    double timeScale = 1.0; ///< --time-scale
};

class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    MainWindow(Settings &settings, const LaunchOptions &options, QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Sends the prompt editor's text (Ctrl+Enter).
    void sendPrompt();
    /// Sends the last failed prompt again ("Retry now").
    void retryNow();
    /// Cancels the send in flight (Esc), or leaves editing the last prompt.
    void cancelSend();
    /// Asks again for the last answer: the same conversation without that answer.
    void regenerateLast();
    /// Puts the last prompt back in the editor; sending it replaces that prompt and its answer.
    void editLastPrompt();
    /// Stops editing the last prompt; the editor gets back what it held before.
    void cancelEdit();

    bool exportRetryLog(const QString &path, net::LogFormat format, QString *error = nullptr);
    bool exportConversation(const QString &path, QString *error = nullptr);
    /// The conversation as exported: a header (date, endpoint, model), then the turns.
    QString conversationMarkdown() const;
    QString retryLogText() const;

    // For tests and the screenshot script.
    net::ChatClient *client() const { return m_client; }
    net::RetryLog *retryLog() const { return m_log; }
    demo::DemoProvider *demoProvider() const { return m_demo.get(); }
    RetryPanel *retryPanel() const { return m_panel; }
    ConversationView *conversation() const { return m_conversation; }
    TimelineWidget *timeline() const { return m_timeline; }
    QTabWidget *tabs() const { return m_tabs; }
    QPlainTextEdit *promptEditor() const { return m_prompt; }
    QPushButton *retryNowButton() const { return m_retryNow; }
    QToolButton *requestOptionsButton() const { return m_optionsToggle; }
    QPlainTextEdit *systemPromptEditor() const { return m_systemPrompt; }
    QSpinBox *maxTokensBox() const { return m_maxTokens; }
    QDoubleSpinBox *temperatureBox() const { return m_temperature; }
    /// The inline message above the prompt (hidden when there is none) and its text.
    QFrame *inlineMessage() const { return m_message; }
    QString inlineMessageText() const;
    bool editingLastPrompt() const { return m_editing; }
    bool usingDemo() const { return bool(m_demo); }
    QString statusText() const;

protected:
    void closeEvent(QCloseEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    enum class MessageKind
    {
        Information,
        Warning
    };
    enum class MessageAction
    {
        None,
        OpenSettings,
        CancelEdit
    };
    struct Exchange
    {
        int user = -1; ///< the prompt's turn in the view
        int answer = -1; ///< the answer's turn, or -1 if it had no text
    };

    void buildUi();
    QWidget *buildRequestOptions(QWidget *parent);
    void buildMenus();
    void retranslate();
    void applyProvider();
    void openSettings();
    /// A warning that does not block: opened window-modal, deleted when closed.
    void showWarning(const QString &title, const QString &text);
    /// A save dialog starting in the last export folder; the caller connects and opens it.
    QFileDialog *saveDialog(
        const QString &title, const QString &fileName, const QStringList &filters);
    /// Sends `prompt` after the history; `showPrompt` false when its turn is already shown.
    void startSend(QString prompt, bool showPrompt = true);
    /// False (and says why, opening the provider settings) when no model is set.
    bool modelIsSet();
    RequestOptions requestOptions() const;
    void saveRequestOptions();
    /// A message above the prompt, KMessageWidget style; `action` decides its button.
    void showMessage(MessageKind kind, const QString &text, MessageAction action);
    void hideMessage();
    void styleMessage();
    void onMessageButton();
    /// "Key: ..." from what a send would do now (net::keyUse, as the final error text's "auth:").
    QString keyStatusText() const;
    void updateKeyStatus();
    void updateStatusLine();
    void onConversationAction(ConversationView::Action action, int turn);
    /// The last exchange's actions go: it is not the last one any more.
    void retireLastExchange();
    /// True when a send now would carry a key over plain HTTP to a host that is not loopback
    /// and the user has not agreed to that for this endpoint in this session.
    bool needsPlainHttpConsent() const;
    bool keyWouldBeSent() const;
    /// Asks (without blocking) whether to send the key unencrypted; on "Send anyway" remembers
    /// the consent for the endpoint and calls `resume` again.
    void askPlainHttpConsent(void (MainWindow::*resume)());
    void updateButtons();
    void onAnswerText(quint64 send, const QString &text);
    void onSucceeded(quint64 send, const net::SendSummary &summary);
    void onGaveUp(quint64 send, const net::SendSummary &summary);
    void onCancelled(quint64 send, const net::SendSummary &summary);
    /// Ends the answer in progress; returns its turn (or -1).
    int endTurn(bool incomplete);
    void restorePrompt();
    void exportRetryLogInteractive();
    void exportConversationInteractive();
    void copyRetryLog();
    void tickTimeline();

    Settings &m_settings;
    LaunchOptions m_options;
    std::unique_ptr<demo::DemoProvider> m_demo;
    net::ChatClient *m_client;
    net::RetryLog *m_log;
    net::ChatRequest m_baseRequest;
    QList<net::ChatMessage> m_history;
    QString m_pendingPrompt; ///< the prompt of the send in flight, or of the last failed one
    QString m_failedPrompt;
    int m_userTurn = -1; ///< the prompt of the send in flight
    int m_assistantTurn = -1;
    Exchange m_lastExchange; ///< the last answered exchange, while nothing came after it
    bool m_editing = false;
    QString m_draftBeforeEdit;
    QString m_lastFailureCategory; ///< of the attempt that failed last, for the status line
    quint64 m_send = 0;
    QTimer m_timelineTick;
    ProviderSettings::KeySource m_keySource = ProviderSettings::KeySource::Environment;
    QSet<QString> m_plainHttpConsent; ///< endpoints the user agreed to send the key to unencrypted
    QPointer<QMessageBox> m_plainHttpWarning;

    QFrame *m_message = nullptr;
    QLabel *m_messageIcon = nullptr;
    QLabel *m_messageText = nullptr;
    QPushButton *m_messageButton = nullptr;
    QToolButton *m_messageClose = nullptr;
    MessageKind m_messageKind = MessageKind::Information;
    MessageAction m_messageAction = MessageAction::None;
    QToolButton *m_optionsToggle = nullptr;
    QWidget *m_optionsPanel = nullptr;
    QLabel *m_systemLabel = nullptr;
    QPlainTextEdit *m_systemPrompt = nullptr;
    QLabel *m_maxTokensLabel = nullptr;
    QSpinBox *m_maxTokens = nullptr;
    QLabel *m_temperatureLabel = nullptr;
    QDoubleSpinBox *m_temperature = nullptr;
    QFrame *m_banner = nullptr;
    QLabel *m_bannerText = nullptr;
    QPushButton *m_bannerButton = nullptr;
    ConversationView *m_conversation = nullptr;
    QPlainTextEdit *m_prompt = nullptr;
    QPushButton *m_send_ = nullptr;
    QPushButton *m_stop = nullptr;
    QPushButton *m_retryNow = nullptr;
    RetryPanel *m_panel = nullptr;
    QTabWidget *m_tabs = nullptr;
    TimelineWidget *m_timeline = nullptr;
    QTableView *m_logView = nullptr;
    RetryLogModel *m_logModel = nullptr;
    QLabel *m_statusEndpoint = nullptr;
    QLabel *m_statusModel = nullptr;
    QLabel *m_statusKey = nullptr;
    QAction *m_exportLogAction = nullptr;
    QAction *m_copyLogAction = nullptr;
    QAction *m_exportConversationAction = nullptr;
    QAction *m_settingsAction = nullptr;
    QPointer<SettingsDialog> m_settingsDialog;
    QAction *m_quitAction = nullptr;
    QAction *m_aboutAction = nullptr;
    QMenu *m_fileMenu = nullptr;
    QMenu *m_settingsMenu = nullptr;
    QMenu *m_helpMenu = nullptr;
};

} // namespace capwatch::ui
