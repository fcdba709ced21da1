#include "mainwindow.h"

#include "categorycolors.h"
#include "conversationview.h"
#include "demo/demoprovider.h"
#include "keychain.h"
#include "net/logging.h"
#include "retrylogmodel.h"
#include "retrypanel.h"
#include "retrytexts.h"
#include "settingsdialog.h"
#include "timelinewidget.h"
#include "uilogging.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDateTime>
#include <QDesktopServices>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFrame>
#include <QGridLayout>
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
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

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
    connect(m_client, &net::ChatClient::retryScheduled, this, [this] {
        m_timelineTick.start();
        updateStatusLine();
    });
    connect(m_client, &net::ChatClient::attemptStarted, this, [this] {
        m_timelineTick.stop();
        m_timeline->setLiveWait(-1, 0);
        updateStatusLine();
    });
    connect(m_client, &net::ChatClient::attemptFailed, this,
        [this](quint64 send, const net::AttemptFailure &failure) {
            if (send == m_send) {
                const std::string_view name = retry::nameOf(failure.category);
                m_lastFailureCategory = QString::fromLatin1(name.data(), qsizetype(name.size()));
            }
        });
    connect(m_conversation, &ConversationView::actionRequested, this,
        &MainWindow::onConversationAction);
    m_timelineTick.setInterval(100);
    connect(&m_timelineTick, &QTimer::timeout, this, &MainWindow::tickTimeline);

    applyProvider();
    // Below this the retry panel and the prompt stop being usable; 640x480 still fits it.
    setMinimumSize(std::min(640, fontMetrics().averageCharWidth() * 80),
        std::min(480, fontMetrics().height() * 26));
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

    // A message the user can act on in place (no model set, editing the last prompt).
    m_message = new QFrame(left);
    m_message->setObjectName(u"inlineMessage"_s);
    m_message->setFrameShape(QFrame::StyledPanel);
    m_message->setAutoFillBackground(true);
    auto *messageLayout = new QHBoxLayout(m_message);
    messageLayout->setContentsMargins(pad, pad / 2, pad / 2, pad / 2);
    m_messageIcon = new QLabel(m_message);
    m_messageText = new QLabel(m_message);
    m_messageText->setObjectName(u"inlineMessageText"_s);
    m_messageText->setWordWrap(true);
    m_messageText->setTextFormat(Qt::PlainText);
    m_messageText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_messageButton = new QPushButton(m_message);
    m_messageButton->setObjectName(u"inlineMessageButton"_s);
    m_messageClose = new QToolButton(m_message);
    m_messageClose->setAutoRaise(true);
    m_messageClose->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    messageLayout->addWidget(m_messageIcon, 0, Qt::AlignTop);
    messageLayout->addWidget(m_messageText, 1);
    messageLayout->addWidget(m_messageButton, 0, Qt::AlignVCenter);
    messageLayout->addWidget(m_messageClose, 0, Qt::AlignTop);
    connect(m_messageButton, &QPushButton::clicked, this, &MainWindow::onMessageButton);
    connect(m_messageClose, &QToolButton::clicked, this, [this] {
        if (m_messageAction == MessageAction::CancelEdit)
            cancelEdit();
        else
            hideMessage();
    });
    m_message->hide();
    leftLayout->addWidget(m_message);

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
    leftLayout->addWidget(buildRequestOptions(left));
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

    // From the prompt on in reading order: its buttons and options, the right-hand column, then
    // around to the top (the demo banner, the conversation, a message) and back to the prompt.
    const QList<QWidget *> order { m_prompt, m_send_, m_stop, m_retryNow, m_optionsToggle,
        m_systemPrompt, m_maxTokens, m_temperature, m_tabs, m_timeline, m_logView, m_bannerButton,
        m_conversation, m_messageButton, m_messageClose, m_prompt };
    for (qsizetype i = 0; i + 1 < order.size(); ++i)
        setTabOrder(order[i], order[i + 1]);
    m_prompt->setFocus();
    updateButtons();
}

QWidget *MainWindow::buildRequestOptions(QWidget *parent)
{
    auto *box = new QWidget(parent);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    m_optionsToggle = new QToolButton(box);
    m_optionsToggle->setObjectName(u"requestOptionsToggle"_s);
    m_optionsToggle->setCheckable(true);
    m_optionsToggle->setAutoRaise(true);
    m_optionsToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    layout->addWidget(m_optionsToggle, 0, Qt::AlignLeft);

    m_optionsPanel = new QWidget(box);
    auto *grid = new QGridLayout(m_optionsPanel);
    grid->setContentsMargins(fontMetrics().height(), 0, 0, 0);
    m_systemLabel = new QLabel(m_optionsPanel);
    m_systemPrompt = new QPlainTextEdit(m_optionsPanel);
    m_systemPrompt->setObjectName(u"systemPrompt"_s);
    m_systemPrompt->setTabChangesFocus(true);
    m_systemPrompt->setFixedHeight(fontMetrics().height() * 3);
    m_systemLabel->setBuddy(m_systemPrompt);
    m_maxTokensLabel = new QLabel(m_optionsPanel);
    m_maxTokens = new QSpinBox(m_optionsPanel);
    m_maxTokens->setObjectName(u"maxTokens"_s);
    m_maxTokens->setRange(0, 1'000'000);
    m_maxTokens->setSingleStep(256);
    m_maxTokens->setGroupSeparatorShown(true);
    m_maxTokensLabel->setBuddy(m_maxTokens);
    m_temperatureLabel = new QLabel(m_optionsPanel);
    m_temperature = new QDoubleSpinBox(m_optionsPanel);
    m_temperature->setObjectName(u"temperature"_s);
    // The lowest value, one step below 0, stands for the provider's default.
    m_temperature->setDecimals(1);
    m_temperature->setSingleStep(0.1);
    m_temperature->setRange(net::kMinTemperature - 0.1, net::kMaxTemperature);
    m_temperatureLabel->setBuddy(m_temperature);
    grid->addWidget(m_systemLabel, 0, 0, Qt::AlignTop);
    grid->addWidget(m_systemPrompt, 0, 1, 1, 4);
    grid->addWidget(m_maxTokensLabel, 1, 0);
    grid->addWidget(m_maxTokens, 1, 1);
    grid->addWidget(m_temperatureLabel, 1, 2);
    grid->addWidget(m_temperature, 1, 3);
    grid->setColumnStretch(4, 1);
    layout->addWidget(m_optionsPanel);

    const RequestOptions saved = m_settings.requestOptions();
    m_systemPrompt->setPlainText(saved.systemPrompt);
    m_maxTokens->setValue(saved.maxTokens);
    m_temperature->setValue(saved.temperature < 0 ? m_temperature->minimum() : saved.temperature);
    m_optionsToggle->setChecked(saved.shown);
    m_optionsPanel->setVisible(saved.shown);
    m_optionsToggle->setArrowType(saved.shown ? Qt::DownArrow : Qt::RightArrow);
    connect(m_optionsToggle, &QToolButton::toggled, this, [this](bool shown) {
        m_optionsPanel->setVisible(shown);
        m_optionsToggle->setArrowType(shown ? Qt::DownArrow : Qt::RightArrow);
        saveRequestOptions();
    });
    connect(m_systemPrompt, &QPlainTextEdit::textChanged, this, &MainWindow::saveRequestOptions);
    connect(m_maxTokens, &QSpinBox::valueChanged, this, &MainWindow::saveRequestOptions);
    connect(m_temperature, &QDoubleSpinBox::valueChanged, this, &MainWindow::saveRequestOptions);
    return box;
}

RequestOptions MainWindow::requestOptions() const
{
    RequestOptions o;
    o.systemPrompt = m_systemPrompt->toPlainText();
    o.maxTokens = m_maxTokens->value();
    o.temperature = m_temperature->value() < net::kMinTemperature ? -1.0 : m_temperature->value();
    o.shown = m_optionsToggle->isChecked();
    return o;
}

void MainWindow::saveRequestOptions()
{
    m_settings.setRequestOptions(requestOptions());
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
    connect(m_exportConversationAction, &QAction::triggered, this,
        &MainWindow::exportConversationInteractive);
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
               "visible policy: at most %2 attempts, waits of at most %3 s, %4 s "
               "in all.</p>")
                .arg(QApplication::applicationVersion(), QLocale().toString(retry::kMaxAttempts),
                    QLocale().toString(qint64(retry::kWaitCap.count() / 1000)),
                    QLocale().toString(qint64(retry::kRetryBudget.count() / 1000))),
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
    m_prompt->setAccessibleDescription(
        tr("Your message. Ctrl+Enter sends it, Esc cancels a send."));
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

    m_message->setAccessibleName(tr("Message"));
    m_messageClose->setToolTip(tr("Close the message"));
    m_messageClose->setAccessibleName(tr("Close the message"));
    m_messageButton->setAccessibleDescription(tr("Act on the message shown above the prompt"));
    m_optionsToggle->setText(tr("Request &options"));
    m_optionsToggle->setAccessibleName(tr("Request options"));
    m_optionsToggle->setAccessibleDescription(
        tr("Show or hide the system prompt, the answer's length limit and the temperature"));
    m_systemLabel->setText(tr("S&ystem prompt:"));
    m_systemPrompt->setAccessibleName(tr("System prompt"));
    m_systemPrompt->setAccessibleDescription(tr("Sent before the conversation with every request"));
    m_systemPrompt->setPlaceholderText(tr("None"));
    m_maxTokensLabel->setText(tr("&Max tokens:"));
    m_maxTokens->setAccessibleName(tr("Max tokens"));
    m_maxTokens->setAccessibleDescription(
        tr("The longest answer, in tokens; Default leaves it to the provider"));
    m_maxTokens->setSpecialValueText(tr("Default"));
    m_temperatureLabel->setText(tr("Tem&perature:"));
    m_temperature->setAccessibleName(tr("Temperature"));
    m_temperature->setAccessibleDescription(
        tr("Sampling temperature, 0 to 2; Default leaves it to the provider"));
    m_temperature->setSpecialValueText(tr("Default"));
    m_messageButton->setText(m_messageAction == MessageAction::CancelEdit
            ? tr("Cancel &editing")
            : tr("Pro&vider settings…"));
    applyProvider();
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange && m_fileMenu)
        retranslate();
    if (event->type() == QEvent::PaletteChange && m_banner) {
        QPalette p = m_banner->palette();
        p.setColor(QPalette::Window,
            blend(palette().color(QPalette::Window), palette().color(QPalette::Highlight), 0.18));
        m_banner->setPalette(p);
        styleMessage();
    }
    QMainWindow::changeEvent(event);
}

void MainWindow::applyProvider()
{
    const ProviderSettings p = m_settings.provider();
    const bool demo = m_options.forceDemo
        || (m_options.endpoint.isEmpty() && (!m_settings.isConfigured() || p.useDemo));
    if (demo && !m_demo) {
        m_demo = std::make_unique<demo::DemoProvider>();
        demo::DemoOptions o;
        o.timeScale = m_options.timeScale;
        m_demo->setOptions(o);
        if (!m_demo->listen())
            qCWarning(lcUi) << "the demo provider could not start:" << m_demo->errorString();
    } else if (!demo && m_demo) {
        m_client->cancel();
        m_demo.reset();
    }

    if (m_demo) {
        m_baseRequest.endpoint = m_demo->baseUrl();
        m_baseRequest.stream = true;
        m_client->setCredentialProvider(std::make_shared<net::NoCredentialProvider>());
    } else {
        m_baseRequest.endpoint
            = QUrl(m_options.endpoint.isEmpty() ? p.endpoint : m_options.endpoint);
        m_baseRequest.stream = p.stream;
        m_keySource = p.keySource;
        switch (p.keySource) {
        case ProviderSettings::KeySource::Environment:
            m_client->setCredentialProvider(
                std::make_shared<net::EnvCredentialProvider>(p.keyVariable));
            break;
        case ProviderSettings::KeySource::KeyFile:
            m_client->setCredentialProvider(
                std::make_shared<net::FileCredentialProvider>(p.keyFile));
            break;
        case ProviderSettings::KeySource::Keychain:
            m_client->setCredentialProvider(Keychain::provider(this));
            break;
        }
    }
    // The demo serves capwatch-demo; any other endpoint needs a model named (net's one rule).
    m_baseRequest.model = !m_options.model.trimmed().isEmpty() ? m_options.model.trimmed()
        : m_demo                                               ? QString::fromUtf16(net::kDemoModel)
        : !p.model.trimmed().isEmpty()                         ? p.model.trimmed()
                                       : net::defaultModelFor(m_baseRequest.endpoint);
    if (!m_baseRequest.model.isEmpty() && m_messageAction == MessageAction::OpenSettings)
        hideMessage();
    m_banner->setVisible(bool(m_demo));
    QPalette bp = m_banner->palette();
    bp.setColor(QPalette::Window,
        blend(palette().color(QPalette::Window), palette().color(QPalette::Highlight), 0.18));
    m_banner->setPalette(bp);
    m_statusEndpoint->setText(
        tr("Endpoint: %1")
            .arg(m_demo ? tr("embedded demo provider (%1)").arg(m_baseRequest.endpoint.toString())
                        : net::displayEndpoint(net::chatCompletionsUrl(m_baseRequest.endpoint))));
    m_statusModel->setText(m_baseRequest.model.isEmpty()
            ? tr("Model: not set")
            : tr("Model: %1").arg(m_baseRequest.model));
    updateKeyStatus();
}

QString MainWindow::keyStatusText() const
{
    const ProviderSettings p = m_settings.provider();
    // The keychain answers later and may ask to be unlocked: it is named, not read.
    if (!m_demo && m_keySource == ProviderSettings::KeySource::Keychain)
        return tr("Key: %1").arg(p.keySourceText());
    net::Credential loaded;
    if (const std::shared_ptr<net::CredentialProvider> credentials = m_client->credentialProvider())
        credentials->load([&loaded](const net::Credential &c) { loaded = c; });
    const QString source = m_demo ? loaded.source : p.keySourceText();
    switch (net::keyUse(loaded, net::chatCompletionsUrl(m_baseRequest.endpoint))) {
    case net::KeyUse::Key:
        return tr("Key: %1").arg(source);
    case net::KeyUse::NotNeeded:
        return tr("Key: none (loopback endpoint)");
    case net::KeyUse::Missing:
        return tr("Key: missing (%1)").arg(source);
    }
    return {};
}

void MainWindow::updateKeyStatus()
{
    m_statusKey->setText(keyStatusText());
}

QString MainWindow::statusText() const
{
    return m_statusEndpoint->text() + u" | "_s + m_statusModel->text() + u" | "_s
        + m_statusKey->text();
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

QFileDialog *MainWindow::saveDialog(
    const QString &title, const QString &fileName, const QStringList &filters)
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
    if (!modelIsSet())
        return; // the prompt stays in the editor
    if (needsPlainHttpConsent()) {
        askPlainHttpConsent(&MainWindow::sendPrompt); // the prompt stays in the editor meanwhile
        return;
    }
    if (m_editing && m_lastExchange.user >= 0 && m_history.size() >= 2) {
        // The edited prompt takes the place of the last one, and its answer goes with it.
        m_history.resize(m_history.size() - 2);
        m_conversation->removeTurnsFrom(m_lastExchange.user);
        m_lastExchange = {};
    }
    m_editing = false;
    if (m_messageAction == MessageAction::CancelEdit)
        hideMessage();
    m_prompt->clear();
    startSend(text);
}

void MainWindow::retryNow()
{
    if (m_failedPrompt.isEmpty() || m_client->busy())
        return;
    if (!modelIsSet())
        return;
    if (needsPlainHttpConsent()) {
        askPlainHttpConsent(&MainWindow::retryNow);
        return;
    }
    // A copy: startSend() clears the failed prompt.
    const QString prompt = m_failedPrompt;
    // The failed prompt is the one in the editor unless the user typed something else.
    if (m_prompt->toPlainText() == prompt)
        m_prompt->clear();
    startSend(prompt);
}

void MainWindow::regenerateLast()
{
    if (m_client->busy() || m_lastExchange.answer < 0 || m_history.size() < 2)
        return;
    if (!modelIsSet())
        return;
    if (needsPlainHttpConsent()) {
        askPlainHttpConsent(&MainWindow::regenerateLast);
        return;
    }
    if (m_editing)
        cancelEdit();
    // The same conversation again, without the answer: the prompt's turn stays where it is.
    const QString prompt = m_history.at(m_history.size() - 2).content;
    m_history.resize(m_history.size() - 2);
    m_conversation->removeTurnsFrom(m_lastExchange.answer);
    m_conversation->setTurnActions(m_lastExchange.user, {});
    m_userTurn = m_lastExchange.user;
    m_lastExchange = {};
    startSend(prompt, false);
}

void MainWindow::editLastPrompt()
{
    if (m_client->busy() || m_lastExchange.user < 0 || m_history.size() < 2)
        return;
    if (!m_editing)
        m_draftBeforeEdit = m_prompt->toPlainText();
    m_editing = true;
    m_prompt->setPlainText(m_history.at(m_history.size() - 2).content);
    m_prompt->moveCursor(QTextCursor::End);
    m_prompt->setFocus();
    showMessage(MessageKind::Information,
        tr("Editing your last prompt: sending it replaces that prompt and its answer."),
        MessageAction::CancelEdit);
}

void MainWindow::cancelEdit()
{
    if (!m_editing)
        return;
    m_editing = false;
    m_prompt->setPlainText(m_draftBeforeEdit);
    m_prompt->moveCursor(QTextCursor::End);
    m_draftBeforeEdit.clear();
    hideMessage();
}

bool MainWindow::modelIsSet()
{
    if (!m_baseRequest.model.isEmpty())
        return true;
    const QString endpoint = net::displayEndpoint(net::chatCompletionsUrl(m_baseRequest.endpoint));
    showMessage(MessageKind::Warning,
        tr("No model is set for %1, so nothing was sent. Enter the model's name in the "
           "provider settings; your prompt stays in the editor.")
            .arg(endpoint.isEmpty() ? m_baseRequest.endpoint.toString() : endpoint),
        MessageAction::OpenSettings);
    openSettings();
    return false;
}

QString MainWindow::inlineMessageText() const
{
    return m_message->isHidden() ? QString() : m_messageText->text();
}

void MainWindow::showMessage(MessageKind kind, const QString &text, MessageAction action)
{
    m_messageKind = kind;
    m_messageAction = action;
    m_messageText->setText(text);
    const QStyle::StandardPixmap icon = kind == MessageKind::Warning
        ? QStyle::SP_MessageBoxWarning
        : QStyle::SP_MessageBoxInformation;
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_messageIcon->setPixmap(style()->standardIcon(icon, nullptr, this).pixmap(size, size));
    m_messageButton->setVisible(action != MessageAction::None);
    if (action == MessageAction::OpenSettings)
        m_messageButton->setText(tr("Pro&vider settings…"));
    else if (action == MessageAction::CancelEdit)
        m_messageButton->setText(tr("Cancel &editing"));
    styleMessage();
    m_message->show();
}

void MainWindow::hideMessage()
{
    m_messageAction = MessageAction::None;
    m_message->hide();
}

// The palette's own text colour on a background tinted from it: readable in light and dark.
void MainWindow::styleMessage()
{
    const QColor window = palette().color(QPalette::Window);
    const QColor tint = m_messageKind == MessageKind::Warning
        ? QColor(0xe0, 0x8a, 0x1e)
        : palette().color(QPalette::Highlight);
    QPalette p = m_message->palette();
    p.setColor(QPalette::Window, blend(window, tint, 0.16));
    p.setColor(QPalette::WindowText, palette().color(QPalette::WindowText));
    m_message->setPalette(p);
}

void MainWindow::onMessageButton()
{
    switch (m_messageAction) {
    case MessageAction::OpenSettings:
        openSettings();
        break;
    case MessageAction::CancelEdit:
        cancelEdit();
        break;
    case MessageAction::None:
        break;
    }
}

void MainWindow::onConversationAction(ConversationView::Action action, int turn)
{
    switch (action) {
    case ConversationView::Action::Copy:
        QApplication::clipboard()->setText(m_conversation->assistantText(turn));
        statusBar()->showMessage(tr("Answer copied"), 4000);
        break;
    case ConversationView::Action::Regenerate:
        if (turn == m_lastExchange.answer)
            regenerateLast();
        break;
    case ConversationView::Action::Edit:
        if (turn == m_lastExchange.user)
            editLastPrompt();
        break;
    }
}

void MainWindow::retireLastExchange()
{
    if (m_lastExchange.answer >= 0)
        m_conversation->setTurnActions(m_lastExchange.answer, { ConversationView::Action::Copy });
    if (m_lastExchange.user >= 0)
        m_conversation->setTurnActions(m_lastExchange.user, {});
    m_lastExchange = {};
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

void MainWindow::startSend(QString prompt, bool showPrompt)
{
    retireLastExchange();
    m_pendingPrompt = prompt;
    m_failedPrompt.clear();
    m_assistantTurn = -1;
    m_lastFailureCategory.clear();
    if (showPrompt)
        m_userTurn = m_conversation->addUserTurn(prompt);
    updateKeyStatus(); // a key file or variable may have changed since
    net::ChatRequest request = m_baseRequest;
    const RequestOptions options = requestOptions();
    if (!options.systemPrompt.trimmed().isEmpty())
        request.messages.append({ u"system"_s, options.systemPrompt });
    request.messages += m_history;
    request.messages.append({ u"user"_s, prompt });
    if (options.maxTokens > 0)
        request.maxTokens = options.maxTokens;
    if (options.temperature >= net::kMinTemperature)
        request.temperature = options.temperature;
    m_send = m_client->send(request);
    m_conversation->setStatusLine(tr("Waiting for the provider…"));
    updateButtons();
}

void MainWindow::cancelSend()
{
    if (!m_client->busy() && m_editing) {
        cancelEdit();
        return;
    }
    m_client->cancel();
}

void MainWindow::onAnswerText(quint64 send, const QString &text)
{
    if (send != m_send)
        return;
    if (m_assistantTurn < 0)
        m_assistantTurn = m_conversation->beginAssistantTurn(); // the status line gives way
    m_conversation->appendAssistantText(m_assistantTurn, text);
}

int MainWindow::endTurn(bool incomplete)
{
    const int turn = m_assistantTurn;
    m_conversation->setStatusLine({});
    if (turn >= 0) {
        m_conversation->finishAssistantTurn(turn, incomplete);
        m_conversation->setTurnActions(turn, { ConversationView::Action::Copy });
    }
    m_assistantTurn = -1;
    return turn;
}

void MainWindow::onSucceeded(quint64 send, const net::SendSummary &)
{
    if (send != m_send)
        return;
    // The view holds the answer; the history takes it from there rather than from a second copy.
    const QString answer
        = m_assistantTurn >= 0 ? m_conversation->assistantText(m_assistantTurn) : QString();
    const int answerTurn = endTurn(false);
    m_history.append({ u"user"_s, m_pendingPrompt });
    m_history.append({ u"assistant"_s, answer });
    m_pendingPrompt.clear();
    // The last exchange can be asked again or edited, until another send starts.
    m_lastExchange = { m_userTurn, answerTurn };
    if (answerTurn >= 0) {
        m_conversation->setTurnActions(
            answerTurn, { ConversationView::Action::Copy, ConversationView::Action::Regenerate });
    }
    m_conversation->setTurnActions(m_userTurn, { ConversationView::Action::Edit });
    updateButtons();
}

void MainWindow::onGaveUp(quint64 send, const net::SendSummary &summary)
{
    if (send != m_send)
        return;
    endTurn(summary.incomplete || m_assistantTurn >= 0);
    m_conversation->addErrorTurn(
        tr("The send failed: %1").arg(RetryTexts::reasonSentence(summary.reason)),
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
    // Nothing typed is lost: the failed prompt returns only into an empty editor, with the
    // cursor at its end, where typing goes on.
    if (m_prompt->toPlainText().trimmed().isEmpty()) {
        m_prompt->setPlainText(m_failedPrompt);
        m_prompt->moveCursor(QTextCursor::End);
    }
    updateButtons();
}

void MainWindow::updateStatusLine()
{
    const retry::SendPolicy *policy = m_client->policy();
    if (!m_client->busy() || m_assistantTurn >= 0 || !policy)
        return;
    if (policy->state() != retry::SendPolicy::State::Waiting) {
        m_conversation->setStatusLine(tr("Waiting for the provider…"));
        return;
    }
    const qint64 elapsed = policy->waitedSoFar().count()
        - (policy->waitedTotal() - policy->lastDecision().wait).count();
    const qint64 left = std::max<qint64>(0, policy->lastDecision().wait.count() - elapsed);
    const int seconds = int((left + 999) / 1000);
    m_conversation->setStatusLine(m_lastFailureCategory.isEmpty()
            ? tr("Retrying in %n s", nullptr, seconds)
            : tr("Retrying in %n s: %1", nullptr, seconds)
                  .arg(RetryTexts::category(m_lastFailureCategory)));
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
    updateStatusLine();
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
    file.write(conversationMarkdown().toUtf8());
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

QString MainWindow::conversationMarkdown() const
{
    const QString endpoint = net::displayEndpoint(net::chatCompletionsUrl(m_baseRequest.endpoint));
    const auto fact = [](const QString &name, const QString &value) -> QString {
        return u"- "_s + name + u": "_s + ConversationView::escapeMarkdown(value) + u'\n';
    };
    QString header = u"# "_s + tr("capwatch conversation") + u"\n\n"_s;
    header
        += fact(tr("Date"), QDateTime::currentDateTimeUtc().toString(u"yyyy-MM-dd HH:mm 'UTC'"_s));
    header
        += fact(tr("Endpoint"), endpoint.isEmpty() ? m_baseRequest.endpoint.toString() : endpoint);
    header
        += fact(tr("Model"), m_baseRequest.model.isEmpty() ? tr("not set") : m_baseRequest.model);
    const QString turns = m_conversation->toMarkdown();
    return turns.isEmpty() ? header : header + u'\n' + turns;
}

QString MainWindow::retryLogText() const
{
    return QString::fromUtf8(m_log->serialize(net::LogFormat::Csv));
}

void MainWindow::exportRetryLogInteractive()
{
    const QString jsonFilter = tr("JSON Lines (*.jsonl)");
    const QString csvFilter = tr("CSV (*.csv)");
    QFileDialog *dialog = saveDialog(
        tr("Export retry log"), u"capwatch-retry-log.jsonl"_s, { jsonFilter, csvFilter });
    connect(dialog, &QFileDialog::fileSelected, this, [this, dialog, csvFilter](QString path) {
        if (path.isEmpty())
            return;
        // A name's own suffix decides; without one, the chosen filter does, and adds its suffix.
        const bool csv = path.endsWith(u".csv", Qt::CaseInsensitive)
            || (!path.endsWith(u".jsonl", Qt::CaseInsensitive)
                && dialog->selectedNameFilter() == csvFilter);
        const QString suffix = csv ? u".csv"_s : u".jsonl"_s;
        if (!path.endsWith(suffix, Qt::CaseInsensitive))
            path += suffix;
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
    QFileDialog *dialog = saveDialog(
        tr("Export conversation"), u"capwatch-conversation.md"_s, { tr("Markdown (*.md)") });
    connect(dialog, &QFileDialog::fileSelected, this, [this](QString path) {
        if (path.isEmpty())
            return;
        if (!path.endsWith(u".md", Qt::CaseInsensitive)
            && !path.endsWith(u".markdown", Qt::CaseInsensitive))
            path += u".md"_s;
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
    statusBar()->showMessage(
        tr("Retry log copied (%n records)", nullptr, int(m_log->records().size())), 4000);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_client->cancel();
    m_settings.setWindowGeometry(saveGeometry());
    m_settings.sync();
    QMainWindow::closeEvent(event);
}

} // namespace capwatch::ui
