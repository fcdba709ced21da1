#include "mainwindow.h"

#include "conversationview.h"
#include "keychain.h"
#include "net/demoprovider.h"
#include "net/logging.h"
#include "retrylogmodel.h"
#include "retrypanel.h"
#include "settingsdialog.h"
#include "timelinewidget.h"
#include "uilogging.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDesktopServices>
#include <QFileDialog>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QShortcut>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

namespace {

QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() * t + b.redF() * (1 - t)),
                            float(a.greenF() * t + b.greenF() * (1 - t)),
                            float(a.blueF() * t + b.blueF() * (1 - t)));
}

} // namespace

MainWindow::MainWindow(Settings &settings, const LaunchOptions &options, QWidget *parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_options(options)
    , m_client(new net::ChatClient(this))
    , m_log(new net::RetryLog(this))
{
    m_client->setTimeScale(options.timeScale);
    m_client->setRetryLog(m_log);
    buildUi();
    buildMenus();
    retranslate();

    connect(m_client, &net::ChatClient::answerText, this, &MainWindow::onAnswerText);
    connect(m_client, &net::ChatClient::succeeded, this, &MainWindow::onSucceeded);
    connect(m_client, &net::ChatClient::gaveUp, this, &MainWindow::onGaveUp);
    connect(m_client, &net::ChatClient::cancelled, this, &MainWindow::onCancelled);
    connect(m_client, &net::ChatClient::retryScheduled, this, [this] { m_timelineTick.start(); });
    connect(m_client, &net::ChatClient::attemptStarted, this, [this] {
        m_timelineTick.stop();
        m_timeline->setLiveWait(-1, 0);
    });
    m_timelineTick.setInterval(100);
    connect(&m_timelineTick, &QTimer::timeout, this, &MainWindow::tickTimeline);

    applyProvider();
    if (!settings.windowGeometry().isEmpty())
        restoreGeometry(settings.windowGeometry());
    else
        resize(fontMetrics().averageCharWidth() * 150, fontMetrics().height() * 42);

    if (!options.prompt.isEmpty()) {
        QTimer::singleShot(0, this, [this] {
            m_prompt->setPlainText(m_options.prompt);
            sendPrompt();
        });
    }
}

MainWindow::~MainWindow()
{
    m_client->cancel();
}

void MainWindow::buildUi()
{
    auto *central = new QWidget(this);
    auto *outer = new QVBoxLayout(central);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(0);

    m_banner = new QFrame(central);
    m_banner->setAutoFillBackground(true);
    m_banner->setFrameShape(QFrame::NoFrame);
    auto *bannerLayout = new QHBoxLayout(m_banner);
    const int pad = fontMetrics().height() / 2;
    bannerLayout->setContentsMargins(pad * 2, pad, pad * 2, pad);
    m_bannerText = new QLabel(m_banner);
    m_bannerText->setWordWrap(true);
    m_bannerButton = new QPushButton(m_banner);
    bannerLayout->addWidget(m_bannerText, 1);
    bannerLayout->addWidget(m_bannerButton);
    connect(m_bannerButton, &QPushButton::clicked, this, &MainWindow::openSettings);
    outer->addWidget(m_banner);

    auto *splitter = new QSplitter(Qt::Horizontal, central);
    splitter->setChildrenCollapsible(false);

    auto *left = new QWidget(splitter);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(pad, pad, pad / 2, pad);
    m_conversation = new ConversationView(left);
    leftLayout->addWidget(m_conversation, 1);
    connect(m_conversation, &ConversationView::externalLinkActivated, this,
            [](const QUrl &url) { QDesktopServices::openUrl(url); });

    auto *promptRow = new QHBoxLayout;
    m_prompt = new QPlainTextEdit(left);
    m_prompt->setTabChangesFocus(true);
    m_prompt->setMaximumHeight(fontMetrics().height() * 6);
    m_prompt->installEventFilter(this);
    promptRow->addWidget(m_prompt, 1);
    auto *buttons = new QVBoxLayout;
    m_send_ = new QPushButton(left);
    m_send_->setDefault(true);
    m_stop = new QPushButton(left);
    m_retryNow = new QPushButton(left);
    buttons->addWidget(m_send_);
    buttons->addWidget(m_stop);
    buttons->addWidget(m_retryNow);
    buttons->addStretch(1);
    promptRow->addLayout(buttons);
    leftLayout->addLayout(promptRow);
    connect(m_send_, &QPushButton::clicked, this, &MainWindow::sendPrompt);
    connect(m_stop, &QPushButton::clicked, this, &MainWindow::cancelSend);
    connect(m_retryNow, &QPushButton::clicked, this, &MainWindow::retryNow);

    auto *right = new QWidget(splitter);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(pad / 2, pad, pad, pad);
    auto *panelFrame = new QFrame(right);
    panelFrame->setFrameShape(QFrame::StyledPanel);
    auto *panelLayout = new QVBoxLayout(panelFrame);
    m_panel = new RetryPanel(panelFrame);
    m_panel->setClient(m_client);
    panelLayout->addWidget(m_panel);
    rightLayout->addWidget(panelFrame);

    m_tabs = new QTabWidget(right);
    m_timeline = new TimelineWidget(m_tabs);
    m_timeline->setLog(m_log);
    m_logModel = new RetryLogModel(this);
    m_logModel->setLog(m_log);
    m_logView = new QTableView(m_tabs);
    m_logView->setModel(m_logModel);
    m_logView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_logView->setAlternatingRowColors(true);
    m_logView->verticalHeader()->hide();
    m_logView->verticalHeader()->setDefaultSectionSize(fontMetrics().height() * 3 / 2);
    m_logView->horizontalHeader()->setStretchLastSection(true);
    m_logView->setWordWrap(false);
    connect(m_logModel, &QAbstractItemModel::rowsInserted, m_logView, [this] {
        m_logView->resizeColumnsToContents();
        m_logView->scrollToBottom();
    });
    m_tabs->addTab(m_timeline, QString());
    m_tabs->addTab(m_logView, QString());
    rightLayout->addWidget(m_tabs, 1);

    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    outer->addWidget(splitter, 1);
    setCentralWidget(central);

    m_statusEndpoint = new QLabel(this);
    m_statusModel = new QLabel(this);
    m_statusKey = new QLabel(this);
    statusBar()->addWidget(m_statusEndpoint, 1);
    statusBar()->addPermanentWidget(m_statusModel);
    statusBar()->addPermanentWidget(m_statusKey);

    // Esc cancels from anywhere in the window; Ctrl+Enter is handled by the prompt editor.
    auto *escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    escape->setContext(Qt::WindowShortcut);
    connect(escape, &QShortcut::activated, this, &MainWindow::cancelSend);

    setTabOrder(m_prompt, m_send_);
    setTabOrder(m_send_, m_stop);
    setTabOrder(m_stop, m_retryNow);
    setTabOrder(m_retryNow, m_conversation);
    setTabOrder(m_conversation, m_tabs);
    m_prompt->setFocus();
    updateButtons();
}

void MainWindow::buildMenus()
{
    m_exportLogAction = new QAction(this);
    m_exportLogAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(m_exportLogAction, &QAction::triggered, this, &MainWindow::exportRetryLogInteractive);
    m_copyLogAction = new QAction(this);
    m_copyLogAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    connect(m_copyLogAction, &QAction::triggered, this, &MainWindow::copyRetryLog);
    m_exportConversationAction = new QAction(this);
    m_exportConversationAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    connect(m_exportConversationAction, &QAction::triggered, this, &MainWindow::exportConversationInteractive);
    m_quitAction = new QAction(this);
    m_quitAction->setShortcut(QKeySequence::Quit);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);
    m_settingsAction = new QAction(this);
    m_settingsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    connect(m_settingsAction, &QAction::triggered, this, &MainWindow::openSettings);
    m_aboutAction = new QAction(this);
    connect(m_aboutAction, &QAction::triggered, this, [this] {
        // Opened, not exec()'d: no nested event loop, retries keep their timers.
        auto *box = new QMessageBox(QMessageBox::Information, tr("About capwatch"),
                                    tr("<p><b>capwatch</b> %1</p><p>A chat client for OpenAI-compatible providers "
                                       "with strict token caps. It retries token-limit errors by a strict, "
                                       "visible policy: at most 5 attempts, waits of at most 60 s, 120 s "
                                       "in all.</p>")
                                            .arg(QApplication::applicationVersion()),
                                    QMessageBox::Ok, this);
        box->setObjectName(u"aboutBox"_s);
        box->setIconPixmap(windowIcon().pixmap(64, 64));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });

    m_fileMenu = menuBar()->addMenu(QString());
    m_fileMenu->addAction(m_exportLogAction);
    m_fileMenu->addAction(m_copyLogAction);
    m_fileMenu->addAction(m_exportConversationAction);
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(m_quitAction);
    m_settingsMenu = menuBar()->addMenu(QString());
    m_settingsMenu->addAction(m_settingsAction);
    m_helpMenu = menuBar()->addMenu(QString());
    m_helpMenu->addAction(m_aboutAction);
}

void MainWindow::retranslate()
{
    setWindowTitle(tr("capwatch"));
    m_bannerText->setText(tr("You are chatting with capwatch's built-in demo provider. It allows "
                             "6,000 tokens a minute, so a few messages hit its cap and you can "
                             "watch a real retry cycle, no account needed."));
    m_bannerButton->setText(tr("&Configure a provider…"));
    m_prompt->setPlaceholderText(tr("Ask something. Ctrl+Enter sends, Esc cancels."));
    m_send_->setText(tr("&Send"));
    m_stop->setText(tr("S&top"));
    m_retryNow->setText(tr("&Retry now"));
    m_tabs->setTabText(0, tr("&Timeline"));
    m_tabs->setTabText(1, tr("Retry &log"));
    m_exportLogAction->setText(tr("&Export retry log…"));
    m_copyLogAction->setText(tr("&Copy retry log as text"));
    m_exportConversationAction->setText(tr("Export &conversation as Markdown…"));
    m_quitAction->setText(tr("&Quit"));
    m_settingsAction->setText(tr("&Provider settings…"));
    m_aboutAction->setText(tr("&About capwatch"));
    m_fileMenu->setTitle(tr("&File"));
    m_settingsMenu->setTitle(tr("&Settings"));
    m_helpMenu->setTitle(tr("&Help"));

    m_banner->setAccessibleName(tr("Demo provider notice"));
    m_prompt->setAccessibleName(tr("Prompt"));
    m_prompt->setAccessibleDescription(tr("Your message. Ctrl+Enter sends it, Esc cancels a send."));
    m_send_->setAccessibleDescription(tr("Send the prompt (Ctrl+Enter)"));
    m_stop->setAccessibleDescription(tr("Cancel the send in flight, including a retry wait (Esc)"));
    m_retryNow->setAccessibleDescription(tr("Send the last failed prompt again now"));
    m_bannerButton->setAccessibleDescription(tr("Open the provider settings"));
    m_tabs->setAccessibleName(tr("Retry history"));
    m_logView->setAccessibleName(tr("Retry log"));
    m_logView->setAccessibleDescription(tr("Every attempt and wait of this session"));
    m_statusEndpoint->setAccessibleName(tr("Endpoint"));
    m_statusModel->setAccessibleName(tr("Model"));
    m_statusKey->setAccessibleName(tr("Key source"));
    applyProvider();
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange && m_fileMenu)
        retranslate();
    if (event->type() == QEvent::PaletteChange && m_banner) {
        QPalette p = m_banner->palette();
        p.setColor(QPalette::Window, mix(palette().color(QPalette::Highlight), palette().color(QPalette::Window), 0.18));
        m_banner->setPalette(p);
    }
    QMainWindow::changeEvent(event);
}

void MainWindow::applyProvider()
{
    const ProviderSettings p = m_settings.provider();
    const bool demo = m_options.forceDemo
            || (m_options.endpoint.isEmpty() && (!m_settings.isConfigured() || p.useDemo));
    if (demo && !m_demo) {
        m_demo = std::make_unique<net::DemoProvider>();
        net::DemoOptions o;
        o.timeScale = m_options.timeScale;
        m_demo->setOptions(o);
        if (!m_demo->listen())
            qCWarning(lcUi) << "the demo provider could not start:" << m_demo->errorString();
    } else if (!demo && m_demo) {
        m_client->cancel();
        m_demo.reset();
    }

    QString keySource;
    if (m_demo) {
        m_baseRequest.endpoint = m_demo->baseUrl();
        m_baseRequest.model = m_options.model.isEmpty() ? u"capwatch-demo"_s : m_options.model;
        m_baseRequest.stream = true;
        m_client->setCredentialProvider(std::make_shared<net::NoCredentialProvider>());
        keySource = tr("no key needed");
    } else {
        m_baseRequest.endpoint = QUrl(m_options.endpoint.isEmpty() ? p.endpoint : m_options.endpoint);
        m_baseRequest.model = m_options.model.isEmpty() ? p.model : m_options.model;
        m_baseRequest.stream = p.stream;
        m_keySource = p.keySource;
        switch (p.keySource) {
        case ProviderSettings::KeySource::Environment:
            m_client->setCredentialProvider(std::make_shared<net::EnvCredentialProvider>(p.keyVariable));
            break;
        case ProviderSettings::KeySource::KeyFile:
            m_client->setCredentialProvider(std::make_shared<net::FileCredentialProvider>(p.keyFile));
            break;
        case ProviderSettings::KeySource::Keychain:
            m_client->setCredentialProvider(Keychain::provider(this));
            break;
        }
        keySource = p.keySourceText();
    }
    m_banner->setVisible(bool(m_demo));
    QPalette bp = m_banner->palette();
    bp.setColor(QPalette::Window, mix(palette().color(QPalette::Highlight), palette().color(QPalette::Window), 0.18));
    m_banner->setPalette(bp);
    m_statusEndpoint->setText(tr("Endpoint: %1").arg(
            m_demo ? tr("embedded demo provider (%1)").arg(m_baseRequest.endpoint.toString())
                   : net::displayEndpoint(net::chatCompletionsUrl(m_baseRequest.endpoint))));
    m_statusModel->setText(tr("Model: %1").arg(m_baseRequest.model));
    m_statusKey->setText(tr("Key: %1").arg(keySource));
}

QString MainWindow::statusText() const
{
    return m_statusEndpoint->text() + u" | "_s + m_statusModel->text() + u" | "_s + m_statusKey->text();
}

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
    current.useDemo = usingDemo();
    if (!m_options.endpoint.isEmpty())
        current.endpoint = m_options.endpoint;
    if (!m_options.model.isEmpty())
        current.model = m_options.model;
    // Window-modal and opened, never exec()'d: a retry in progress keeps running behind it. The
    // dialog stores a typed keychain key itself and is only accepted once that worked.
    auto *dialog = new SettingsDialog(current, this);
    dialog->setObjectName(u"settingsDialog"_s);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_settingsDialog = dialog;
    connect(dialog, &QDialog::accepted, this, [this, dialog, current] {
        const ProviderSettings chosen = dialog->provider();
        const bool changed = (chosen.useDemo != current.useDemo)
            || (!chosen.useDemo && (chosen != current || !dialog->keychainKey().isEmpty()));
        if (changed && m_client->busy()) {
            // Its request (endpoint, model, key) was fixed when it started: a wait that went
            // on would retry with the old settings.
            m_conversation->addNotice(
                tr("The provider settings changed, so the send in progress was stopped."));
            m_client->cancel();
        }
        m_settings.setProvider(chosen);
        m_settings.sync();
        m_options.forceDemo = false;
        m_options.endpoint.clear();
        m_options.model.clear();
        applyProvider();
    });
    dialog->open();
}

void MainWindow::showWarning(const QString &title, const QString &text)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setObjectName(u"warningBox"_s);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

QFileDialog *MainWindow::saveDialog(const QString &title, const QString &fileName,
                                    const QStringList &filters)
{
    const QString dir = m_settings.lastExportDir();
    auto *dialog = new QFileDialog(this, title, dir.isEmpty() ? fileName : dir + u'/' + fileName);
    dialog->setObjectName(u"saveDialog"_s);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setFileMode(QFileDialog::AnyFile);
    dialog->setNameFilters(filters);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    return dialog;
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_prompt && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter)
            && key->modifiers().testFlag(Qt::ControlModifier)) {
            sendPrompt();
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::sendPrompt()
{
    const QString text = m_prompt->toPlainText();
    if (text.trimmed().isEmpty() || m_client->busy())
        return;
    if (needsPlainHttpConsent()) {
        askPlainHttpConsent(&MainWindow::sendPrompt); // the prompt stays in the editor meanwhile
        return;
    }
    m_prompt->clear();
    startSend(text);
}

void MainWindow::retryNow()
{
    if (m_failedPrompt.isEmpty() || m_client->busy())
        return;
    if (needsPlainHttpConsent()) {
        askPlainHttpConsent(&MainWindow::retryNow);
        return;
    }
    // The failed prompt is the one in the editor unless the user typed something else.
    if (m_prompt->toPlainText() == m_failedPrompt)
        m_prompt->clear();
    startSend(m_failedPrompt);
}

bool MainWindow::keyWouldBeSent() const
{
    if (m_demo)
        return false;
    // The keychain answers later and may ask to be unlocked: a configured keychain counts as a key.
    if (m_keySource == ProviderSettings::KeySource::Keychain)
        return true;
    const std::shared_ptr<net::CredentialProvider> credentials = m_client->credentialProvider();
    if (!credentials)
        return false;
    // The environment and key file answer at once; should one ever answer later, assume a key.
    auto hasKey = std::make_shared<std::optional<bool>>();
    credentials->load([hasKey](const net::Credential &c) { *hasKey = !c.key.isEmpty(); });
    return hasKey->value_or(true);
}

bool MainWindow::needsPlainHttpConsent() const
{
    const QUrl target = net::chatCompletionsUrl(m_baseRequest.endpoint);
    if (!target.isValid() || target.scheme() != u"http" || net::isLoopback(target))
        return false;
    return !m_plainHttpConsent.contains(net::displayEndpoint(target)) && keyWouldBeSent();
}

void MainWindow::askPlainHttpConsent(void (MainWindow::*resume)())
{
    if (m_plainHttpWarning) {
        m_plainHttpWarning->raise();
        m_plainHttpWarning->activateWindow();
        return;
    }
    const QUrl target = net::chatCompletionsUrl(m_baseRequest.endpoint);
    const QString endpoint = net::displayEndpoint(target);
    auto *box = new QMessageBox(this);
    box->setObjectName(u"plainHttpWarning"_s);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    box->setIcon(QMessageBox::Warning);
    box->setTextFormat(Qt::PlainText);
    box->setWindowTitle(tr("Send the key unencrypted?"));
    box->setText(tr("%1 uses plain HTTP. Your API key would travel unencrypted, readable by anyone "
                    "on the way to %2.")
                         .arg(endpoint, target.host()));
    box->setInformativeText(tr("Use an https:// endpoint to keep the key private."));
    QPushButton *sendAnyway = box->addButton(tr("Send &anyway"), QMessageBox::AcceptRole);
    sendAnyway->setObjectName(u"sendAnyway"_s);
    QPushButton *cancel = box->addButton(tr("Cancel"), QMessageBox::RejectRole);
    cancel->setObjectName(u"cancel"_s);
    box->setDefaultButton(cancel);
    box->setEscapeButton(cancel);
    connect(box, &QMessageBox::finished, this, [this, box, sendAnyway, endpoint, resume] {
        m_plainHttpWarning.clear();
        if (box->clickedButton() != sendAnyway)
            return; // Cancel, Esc or closed: nothing is sent
        m_plainHttpConsent.insert(endpoint);
        (this->*resume)();
    });
    m_plainHttpWarning = box;
    box->open();
}

void MainWindow::startSend(const QString &prompt)
{
    m_pendingPrompt = prompt;
    m_failedPrompt.clear();
    m_assistantTurn = -1;
    m_conversation->addUserTurn(prompt);
    net::ChatRequest request = m_baseRequest;
    request.messages = m_history;
    request.messages.append({ u"user"_s, prompt });
    m_send = m_client->send(request);
    updateButtons();
}

void MainWindow::cancelSend()
{
    m_client->cancel();
}

void MainWindow::onAnswerText(quint64 send, const QString &text)
{
    if (send != m_send)
        return;
    if (m_assistantTurn < 0)
        m_assistantTurn = m_conversation->beginAssistantTurn();
    m_conversation->appendAssistantText(m_assistantTurn, text);
}

void MainWindow::endTurn(bool incomplete)
{
    if (m_assistantTurn >= 0)
        m_conversation->finishAssistantTurn(m_assistantTurn, incomplete);
    m_assistantTurn = -1;
}

void MainWindow::onSucceeded(quint64 send, const net::SendSummary &)
{
    if (send != m_send)
        return;
    // The view holds the answer; the history takes it from there rather than from a second copy.
    const QString answer = m_assistantTurn >= 0 ? m_conversation->assistantText(m_assistantTurn) : QString();
    endTurn(false);
    m_history.append({ u"user"_s, m_pendingPrompt });
    m_history.append({ u"assistant"_s, answer });
    m_pendingPrompt.clear();
    updateButtons();
}

void MainWindow::onGaveUp(quint64 send, const net::SendSummary &summary)
{
    if (send != m_send)
        return;
    endTurn(summary.incomplete || m_assistantTurn >= 0);
    m_conversation->addErrorTurn(tr("The send failed: %1").arg(RetryPanel::reasonInWords(summary.reason)),
                                 summary.finalErrorText);
    restorePrompt();
}

void MainWindow::onCancelled(quint64 send, const net::SendSummary &)
{
    if (send != m_send)
        return;
    endTurn(true);
    m_conversation->addNotice(tr("Cancelled. Your prompt is back in the editor."));
    restorePrompt();
}

void MainWindow::restorePrompt()
{
    m_failedPrompt = m_pendingPrompt;
    m_pendingPrompt.clear();
    // Nothing typed is lost: the failed prompt returns only into an empty editor.
    if (m_prompt->toPlainText().trimmed().isEmpty())
        m_prompt->setPlainText(m_failedPrompt);
    updateButtons();
}

void MainWindow::updateButtons()
{
    const bool busy = m_client->busy();
    m_send_->setEnabled(!busy);
    m_stop->setEnabled(busy);
    m_retryNow->setVisible(!m_failedPrompt.isEmpty() && !busy);
}

void MainWindow::tickTimeline()
{
    const retry::SendPolicy *policy = m_client->policy();
    if (!policy || policy->state() != retry::SendPolicy::State::Waiting) {
        m_timelineTick.stop();
        m_timeline->setLiveWait(-1, 0);
        return;
    }
    const double elapsed = double(policy->waitedSoFar().count()
                                  - (policy->waitedTotal() - policy->lastDecision().wait).count())
            / 1000.0;
    m_timeline->setLiveWait(int(m_send), elapsed);
}

bool MainWindow::exportRetryLog(const QString &path, net::LogFormat format, QString *error)
{
    return m_log->exportTo(path, format, error);
}

bool MainWindow::exportConversation(const QString &path, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    file.write(m_conversation->toMarkdown().toUtf8());
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

QString MainWindow::retryLogText() const
{
    return QString::fromUtf8(m_log->serialize(net::LogFormat::Csv));
}

void MainWindow::exportRetryLogInteractive()
{
    const QString jsonFilter = tr("JSON Lines (*.jsonl)");
    const QString csvFilter = tr("CSV (*.csv)");
    QFileDialog *dialog = saveDialog(tr("Export retry log"), u"capwatch-retry-log.jsonl"_s,
                                     { jsonFilter, csvFilter });
    connect(dialog, &QFileDialog::fileSelected, this, [this, dialog, csvFilter](QString path) {
        if (path.isEmpty())
            return;
        const bool csv = dialog->selectedNameFilter() == csvFilter || path.endsWith(u".csv", Qt::CaseInsensitive);
        if (csv && !path.endsWith(u".csv", Qt::CaseInsensitive))
            path += u".csv"_s;
        QString error;
        if (!exportRetryLog(path, csv ? net::LogFormat::Csv : net::LogFormat::JsonLines, &error))
            showWarning(tr("Export failed"), tr("The retry log was not written: %1").arg(error));
        else
            m_settings.setLastExportDir(QFileInfo(path).absolutePath());
    });
    dialog->open();
}

void MainWindow::exportConversationInteractive()
{
    QFileDialog *dialog = saveDialog(tr("Export conversation"), u"capwatch-conversation.md"_s,
                                     { tr("Markdown (*.md)") });
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        if (path.isEmpty())
            return;
        QString error;
        if (!exportConversation(path, &error))
            showWarning(tr("Export failed"), tr("The conversation was not written: %1").arg(error));
        else
            m_settings.setLastExportDir(QFileInfo(path).absolutePath());
    });
    dialog->open();
}

void MainWindow::copyRetryLog()
{
    QApplication::clipboard()->setText(retryLogText());
    statusBar()->showMessage(tr("Retry log copied (%n records)", nullptr, int(m_log->records().size())), 4000);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_client->cancel();
    m_settings.setWindowGeometry(saveGeometry());
    m_settings.sync();
    QMainWindow::closeEvent(event);
}

} // namespace capwatch::ui
