#include "ui/window/mainwindow.h"

#include "session/providermemory.h"
#include "ui/conversation/contextcontroller.h"
#include "ui/conversation/contextgauge.h"
#include "ui/conversation/conversationcontroller.h"
#include "ui/conversation/conversationpresenter.h"
#include "ui/conversation/conversationtotal.h"
#include "ui/history/historybanner.h"
#include "ui/history/historycontroller.h"
#include "ui/history/historysidebar.h"
#include "ui/insights/insightswindow.h"
#include "ui/panel/retrypanel.h"
#include "ui/panel/sendstatus.h"
#include "ui/panel/spendstatus.h"
#include "ui/parking/parkingcontroller.h"
#include "ui/profiles/plainhttpwarning.h"
#include "ui/profiles/profilecontroller.h"
#include "ui/settings/settingsdialog.h"
#include "ui/timeline/retrylogmodel.h"
#include "ui/timeline/timelinewidget.h"
#include "ui/window/demobanner.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDesktopServices>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace capwatch::ui {

using namespace Qt::StringLiterals;
using session::ChatSession;

MainWindow::MainWindow(
    Settings &settings, const LaunchOptions &options, session::LocalProvider *demo, QWidget *parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_options(options)
    , m_session(new ChatSession(this))
    , m_context(new ContextController(m_session, settings, this))
{
    wireSession(*m_session, options, demo, this, m_context->memory());
    buildUi();
    // Only now: splitter->addWidget(left) in buildUi() measured the left column with the prompt's
    // buttons still blank, and the splitter's first split (at show) still uses that measure, as
    // it did when the window set all its texts after building. See PromptBox::retranslate().
    m_promptBox->retranslate();
    m_menus = new MainMenus(this, m_settings, m_session, m_conversation);
    connect(m_menus, &MainMenus::settingsRequested, this, [this] { openSettings(); });
    connect(m_menus, &MainMenus::insightsToggled, this, &MainWindow::showInsights);
    m_history = new HistoryController(
        this, settings, m_session, m_menus, m_sidebar, m_historyBanner, m_message);
    connect(m_history, &HistoryController::newRequested, this,
        [this] { m_promptBox->editor()->setFocus(); });
    m_profiles->setHistory(m_history);
    m_menus->setProfiles(m_profiles);
    retranslate();

    // Before the presenter connects: a restored conversation's profile is applied (and the
    // presenter told its name) before the presenter fills in its answers and marks those another
    // profile gave "via <profile>".
    m_profiles->attachSession(m_session);
    m_presenter = new ConversationPresenter(m_session, m_conversation, this);
    m_presenter->setObjectName(u"conversationPresenter"_s);
    connect(
        m_presenter, &ConversationPresenter::totalChanged, m_total, &ConversationTotal::setTotal);
    m_profiles->setPresenter(m_presenter);
    // The actions on the conversation shown.
    m_controller = new ConversationController({ .session = m_session,
                                                  .presenter = m_presenter,
                                                  .prompt = m_promptBox,
                                                  .message = m_message,
                                                  .options = m_requestOptions,
                                                  .status = m_status,
                                                  .profiles = m_profiles,
                                                  .panel = m_panel },
        this);
    m_controller->setObjectName(u"conversationController"_s);
    connect(
        m_controller, &ConversationController::settingsRequested, this, [this] { openSettings(); });
    connect(m_presenter, &ConversationPresenter::answerCopied, this,
        [this] { statusBar()->showMessage(tr("Answer copied"), 4000); });
    m_parking = new ParkingController(this, demo,
        { .presenter = m_presenter,
            .panel = m_panel,
            .tabs = m_tabs,
            .editor = m_promptBox->editor(),
            .sidebar = m_sidebar,
            .controller = m_controller,
            .session = m_session,
            .history = m_history,
            .memory = m_context->memory(),
            .timeScale = m_options.timeScale });
    m_controller->setParking(m_parking);
    // Today's spend of the profile in use, against its spending limit; a limit passing 50, 80
    // or 100 % in this run says so here and as a desktop notification.
    auto *spend = new SpendStatus(m_session, &m_context->memory()->tally(), statusBar());
    connect(spend, &SpendStatus::limitWarning, this,
        [this](const QString &title, const QString &text, int) {
            statusBar()->showMessage(title + u" · "_s + text, 15000);
            m_parking->notifier()->notify(title, text);
        });
    connect(m_profiles, &ProfileController::profileChanged, this, &MainWindow::applyProvider);
    wireShortcuts();
    m_context->attach({ .editor = m_promptBox->editor(),
        .options = m_requestOptions,
        .gauge = m_gauge,
        .panel = m_panel,
        .presenter = m_presenter });
    // The timeline's live wait follows the session's one ticker.
    connect(m_session, &ChatSession::sendStateChanged, m_timeline, &TimelineWidget::showSend);
    // After an action on a card or the panel the prompt has the focus again, so Ctrl+Enter
    // sends without a click (after the action: it may put text in the editor).
    const auto backToPrompt = [this] {
        QTimer::singleShot(0, m_promptBox->editor(),
            [editor = m_promptBox->editor()] { editor->setFocus(Qt::OtherFocusReason); });
    };
    connect(m_conversation, &ConversationView::actionRequested, this, backToPrompt);
    connect(m_panel, &RetryPanel::sendNowRequested, this, backToPrompt);
    connect(m_panel, &RetryPanel::sendAtRequested, this, backToPrompt);

    applyProvider();
    // Below this the retry panel and the prompt stop being usable; 640x480 still fits it.
    setMinimumSize(std::min(640, fontMetrics().averageCharWidth() * 80),
        std::min(480, fontMetrics().height() * 26));
    if (!settings.windowGeometry().isEmpty()) {
        restoreGeometry(settings.windowGeometry());
    } else {
        // Large enough to use: most of the screen (on 1440x900 about 1320x830), never more
        // than the figures and a conversation need.
        const QSize wanted(fontMetrics().averageCharWidth() * 190, fontMetrics().height() * 50);
        const QSize room = screen() ? screen()->availableGeometry().size() * 0.92 : wanted;
        resize(wanted.boundedTo(room));
    }
    if (!settings.windowSplitter().isEmpty())
        m_splitter->restoreState(settings.windowSplitter());

    if (!options.prompt.isEmpty()) {
        QTimer::singleShot(0, this, [this] {
            m_promptBox->editor()->setPlainText(m_options.prompt);
            m_controller->sendPrompt();
        });
    }
}

MainWindow::~MainWindow()
{
    m_session->cancel(); // while the window can still hear it
    // The children go after this body: the session's log, reset as it goes, and the tabs must
    // not call back into a window that is no longer one.
    disconnect(m_logModel, nullptr, this, nullptr);
    disconnect(m_tabs, nullptr, this, nullptr);
}

void MainWindow::buildUi()
{
    auto *central = new QWidget(this);
    auto *outer = new QVBoxLayout(central);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(0);
    m_banner = new DemoBanner(central);
    m_banner->setObjectName(u"demoBanner"_s);
    connect(m_banner, &DemoBanner::configureRequested, this, [this] { openSettings(true); });
    outer->addWidget(m_banner);
    m_historyBanner = new HistoryBanner(central); // names itself "historyBanner"
    outer->addWidget(m_historyBanner);

    auto *splitter = new QSplitter(Qt::Horizontal, central);
    m_splitter = splitter;
    splitter->setChildrenCollapsible(false);
    m_sidebar = new HistorySidebar(splitter);
    m_sidebar->setObjectName(u"historySidebar"_s);
    m_sidebar->hide(); // until attachHistory()
    splitter->addWidget(m_sidebar);
    auto *left = new QWidget(splitter);
    auto *leftLayout = new QVBoxLayout(left);
    const int pad = fontMetrics().height() / 2;
    leftLayout->setContentsMargins(pad, pad, pad / 2, pad);
    m_total = new ConversationTotal(left);
    leftLayout->addWidget(m_total);
    m_conversation = new ConversationView(left);
    m_conversation->setObjectName(u"conversation"_s);
    leftLayout->addWidget(m_conversation, 1);
    connect(m_conversation, &ConversationView::externalLinkActivated, this,
        [](const QUrl &url) { QDesktopServices::openUrl(url); });
    m_message = new PromptMessage(left);
    leftLayout->addWidget(m_message);
    m_gauge = new ContextGauge(left);
    m_gauge->setObjectName(u"contextGauge"_s);
    leftLayout->addWidget(m_gauge);
    m_profiles = new ProfileController(this, m_settings, m_options, left);
    leftLayout->addWidget(m_profiles->row());
    m_promptBox = new PromptBox(left);
    leftLayout->addWidget(m_promptBox);
    m_requestOptions = new RequestOptionsRow(m_settings, left);
    m_requestOptions->setObjectName(u"requestOptions"_s);
    leftLayout->addWidget(m_requestOptions);

    splitter->addWidget(left);
    splitter->addWidget(buildRightColumn(splitter));
    m_profiles->setViews(m_panel, m_timeline, m_sidebar);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    splitter->setStretchFactor(2, 2);
    outer->addWidget(splitter, 1);
    // The chat, and the Insights page once asked for (View → Insights): a page of this
    // window rather than a window of its own, so opening it paints into a window already shown.
    m_pages = new QStackedWidget(this);
    m_pages->setObjectName(u"pages"_s);
    m_pages->addWidget(central);
    m_chatPage = central;
    setCentralWidget(m_pages);

    m_status = new ProviderStatus(m_session, statusBar());
    new SendStatus(m_session, statusBar());

    // From the prompt on in reading order: its buttons and options, the right-hand column, then
    // around to the top (the demo banner, the conversation, a message) and back to the prompt.
    const QList<QWidget *> order { m_promptBox->editor(), m_promptBox->sendButton(),
        m_promptBox->stopButton(), m_promptBox->retryNowButton(), m_profiles->combo(),
        m_requestOptions->toggle(), m_requestOptions->systemPrompt(), m_requestOptions->maxTokens(),
        m_requestOptions->temperature(), m_tabs, m_timeline, m_logView, m_banner->button(),
        m_sidebar->newButton(), m_sidebar->searchField(), m_sidebar->view(), m_conversation,
        m_message->button(), m_message->closeButton(), m_promptBox->editor() };
    for (qsizetype i = 0; i + 1 < order.size(); ++i)
        setTabOrder(order[i], order[i + 1]);
    m_promptBox->editor()->setFocus();
}

void MainWindow::wireShortcuts()
{
    // Esc cancels from anywhere in the chat (and leaves the Insights page for it, never
    // cancelling a send unseen); Ctrl+Enter is handled by the prompt editor.
    auto *escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    escape->setContext(Qt::WindowShortcut);
    connect(escape, &QShortcut::activated, this, [this] {
        if (insightsShown())
            showInsights(false);
        else
            m_controller->cancelSend();
    });
    // The newest card's first action (Send at, Send now, Retry now...) from anywhere.
    auto *firstAction = new QShortcut(ConversationPresenter::firstActionShortcut(), this);
    firstAction->setContext(Qt::WindowShortcut);
    connect(firstAction, &QShortcut::activated, this, [this] {
        if (insightsShown() || !m_presenter->triggerFirstCardAction())
            return;
        QTimer::singleShot(0, m_promptBox->editor(),
            [editor = m_promptBox->editor()] { editor->setFocus(Qt::ShortcutFocusReason); });
    });
    m_controller->updateButtons();
}

QWidget *MainWindow::buildRightColumn(QWidget *parent)
{
    auto *right = new QWidget(parent);
    auto *rightLayout = new QVBoxLayout(right);
    const int pad = fontMetrics().height() / 2;
    rightLayout->setContentsMargins(pad / 2, pad, pad, pad);
    auto *panelFrame = new QFrame(right);
    panelFrame->setFrameShape(QFrame::StyledPanel);
    auto *panelLayout = new QVBoxLayout(panelFrame);
    m_panel = new RetryPanel(panelFrame);
    m_panel->setObjectName(u"retryPanel"_s);
    m_panel->setSession(m_session);
    panelLayout->addWidget(m_panel);
    rightLayout->addWidget(panelFrame);

    m_tabs = new QTabWidget(right);
    m_tabs->setObjectName(u"retryTabs"_s);
    m_timeline = new TimelineWidget(m_tabs);
    m_timeline->setObjectName(u"timeline"_s);
    m_timeline->setLog(m_session->retryLog());
    m_logModel = new RetryLogModel(this);
    m_logModel->setLog(m_session->retryLog());
    m_logView = new QTableView(m_tabs);
    m_logView->setModel(m_logModel);
    m_logView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_logView->setAlternatingRowColors(true);
    m_logView->verticalHeader()->hide();
    m_logView->verticalHeader()->setDefaultSectionSize(fontMetrics().height() * 3 / 2);
    m_logView->horizontalHeader()->setStretchLastSection(true);
    m_logView->setWordWrap(false);
    connect(m_logModel, &QAbstractItemModel::rowsInserted, this, &MainWindow::fitLogView);
    connect(m_logModel, &QAbstractItemModel::modelReset, this, &MainWindow::fitLogView);
    m_tabs->addTab(m_timeline, QString());
    m_tabs->addTab(m_logView, QString());
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (m_logViewStale)
            fitLogView();
    });
    rightLayout->addWidget(m_tabs, 1);
    return right;
}

void MainWindow::retranslate()
{
    setWindowTitle(m_history->isPrivate() ? tr("capwatch (private)") : tr("capwatch"));
    m_history->retranslate();
    m_tabs->setTabText(0, tr("&Timeline"));
    m_tabs->setTabText(1, tr("Retry &log"));
    m_menus->retranslate();
    m_tabs->setAccessibleName(tr("Retry history"));
    m_logView->setAccessibleName(tr("Retry log"));
    m_logView->setAccessibleDescription(tr("Every attempt and wait of this session"));
    m_status->retranslate();
    m_profiles->retranslate();
    applyProvider();
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange && m_menus)
        retranslate();
    if (event->type() == QEvent::PaletteChange && m_banner) {
        m_banner->restyle(palette());
        m_historyBanner->restyle(palette());
        m_message->restyle(palette());
    }
    QMainWindow::changeEvent(event);
}

void MainWindow::applyProvider()
{
    m_profiles->reload();
    applySettings(
        *m_session, m_settings, m_options, m_profiles->profiles(), m_profiles->currentId());
    // A parked send of a conversation not shown goes with its own conversation's profile.
    if (m_parking) // made after the first profile is applied, and applies it again
        m_parking->updateSessionSetup(
            providerResolver(m_settings, m_options, m_profiles->profiles()));
    // This run's --endpoint is what is talked to, not its profile's: the status bar says so.
    const bool runEndpoint = !m_options.forceDemo && !m_options.endpoint.isEmpty();
    m_status->setProfileName(runEndpoint ? QString() : chosenProvider().profileName);
    m_status->setRunEndpoint(runEndpoint);
    m_profiles->applied();

    if (!m_session->provider().model().isEmpty()
        && m_message->action() == PromptMessage::Action::OpenSettings)
        m_message->dismiss();
    m_banner->setVisible(m_session->provider().usingDemo());
    m_banner->restyle(palette());
    m_status->update();
    if (m_controller) // the profile combo: disabled while --demo or --endpoint wins
        m_controller->updateButtons();
}

session::ProviderMemory *MainWindow::providerMemory() const
{
    return m_context->memory();
}

session::ProviderChoice MainWindow::chosenProvider() const
{
    if (!m_profiles)
        return providerChoice(m_settings, m_options);
    return m_profiles->chosen();
}

void MainWindow::showRulesProblems(const QStringList &problems)
{
    if (problems.isEmpty())
        return;
    m_message->showMessage(PromptMessage::Kind::Warning,
        tr("%n rules file(s) left out: %1. capwatch reads failures with its built-in rules and "
           "your other files.",
            nullptr, int(problems.size()))
            .arg(problems.join(u"; "_s)),
        PromptMessage::Action::None);
}

void MainWindow::attachHistory(history::HistoryWriter *writer, bool privateRun)
{
    m_history->attach(writer, privateRun); // the sidebar shows with a history to list
    fitSidebar();
    m_context->setHistory(writer);
    retranslate();
}

void MainWindow::showInsights(bool shown)
{
    if (shown && !m_insights) {
        // A private run's history is in memory and holds nothing the view should sum.
        history::HistoryWriter *writer
            = m_history->writer() && !m_history->isPrivate() ? m_history->writer() : nullptr;
        m_insights = new InsightsWindow(
            writer, &m_context->memory()->tally(), [this] { return m_profiles->profiles(); },
            m_pages, Qt::Widget);
        connect(m_insights, &InsightsWindow::backRequested, this, [this] { showInsights(false); });
        // As the window last closed with it.
        m_insights->restoreView(m_settings.insightsRange(), m_settings.insightsSplit());
        m_pages->addWidget(m_insights);
    }
    if (shown) {
        m_pages->setCurrentWidget(m_insights);
        m_insights->setFocus(Qt::OtherFocusReason);
    } else {
        m_pages->setCurrentWidget(m_chatPage);
        m_promptBox->editor()->setFocus(Qt::OtherFocusReason);
    }
    m_menus->insightsAction()->setChecked(shown);
}

InsightsWindow *MainWindow::insights() const
{
    return m_insights;
}

bool MainWindow::insightsShown() const
{
    return m_insights && m_pages->currentWidget() == m_insights;
}

void MainWindow::fitSidebar()
{
    // The sidebar gets its width once (titles of about thirty characters), from the
    // conversation and the retry column alike; a width the user chose is restored instead.
    if (m_sidebarFitted || !m_sidebar->isVisibleTo(this) || !m_settings.windowSplitter().isEmpty())
        return;
    QList<int> sizes = m_splitter->sizes();
    const int want = m_sidebar->sizeHint().width();
    const int rest = sizes.value(1) + sizes.value(2);
    if (sizes.size() != 3 || rest < want * 3)
        return; // not laid out yet (or too small a window: the splitter's own split stays)
    m_sidebarFitted = true;
    const int give = want - sizes[0];
    if (give <= 0)
        return;
    sizes[1] -= give * sizes[1] / rest;
    sizes[2] = rest - give - sizes[1];
    sizes[0] = want;
    m_splitter->setSizes(sizes);
}

void MainWindow::askToQuit(const QString &question)
{
    if (m_quitQuestion) {
        m_quitQuestion->setInformativeText(question);
        m_quitQuestion->raise();
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Question, tr("Quit capwatch"),
        tr("Quit while sends are not done?"), QMessageBox::NoButton, this);
    box->setObjectName(u"quitQuestion"_s);
    box->setInformativeText(question);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    QPushButton *quit = box->addButton(tr("&Quit"), QMessageBox::AcceptRole);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(quit);
    box->setCheckBox(new QCheckBox(tr("Don't ask again"), box));
    connect(box, &QMessageBox::buttonClicked, this, [this, box, quit](QAbstractButton *button) {
        if (button != quit)
            return;
        if (box->checkBox()->isChecked())
            m_settings.setAskBeforeQuit(false);
        m_quitConfirmed = true;
        QTimer::singleShot(0, this, &QWidget::close); // after the question is gone
    });
    m_quitQuestion = box;
    box->open();
}

// The log table's columns fit what it holds, and it shows its newest row, whenever it is in view.
// Not for each record while the timeline is in front: measuring the rows and scrolling (a scroll
// asks the X server where the pointer is, in QAbstractItemView::verticalScrollbarValueChanged)
// held the window as a send ended, for a table nobody saw. A hidden table is fitted as it shows.
void MainWindow::fitLogView()
{
    if (!m_logView->isVisible()) {
        m_logViewStale = true;
        return;
    }
    m_logViewStale = false;
    m_logView->resizeColumnsToContents();
    m_logView->scrollToBottom();
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (m_logViewStale)
        fitLogView(); // the children show before the window's own show event
    QTimer::singleShot(0, this, &MainWindow::fitSidebar); // once the splitter has its sizes
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // Sends not done: say what quitting does to them, and quit only when the user says so. The
    // question is window-modal and asynchronous (no nested event loop): Quit closes again.
    if (!m_quitConfirmed && m_settings.askBeforeQuit()) {
        if (const QString question = m_parking->quitQuestion(); !question.isEmpty()) {
            event->ignore();
            askToQuit(question);
            return;
        }
    }
    m_session->cancel();
    m_settings.setWindowGeometry(saveGeometry());
    m_settings.setWindowSplitter(m_splitter->saveState());
    if (m_insights)
        m_settings.setInsightsView(m_insights->rangeName(), m_insights->splitName());
    m_history->savePagesChecked();
    m_settings.sync();
    QMainWindow::closeEvent(event);
}

} // namespace capwatch::ui
