#include "ui/parking/parkingcontroller.h"

#include "session/parkingtexts.h"
#include "ui/conversation/conversationcontroller.h"
#include "ui/conversation/conversationpresenter.h"
#include "ui/history/historycontroller.h"
#include "ui/history/historysidebar.h"
#include "ui/panel/retrypanel.h"
#include "ui/parking/parkedqueuemodel.h"
#include "ui/parking/parkedqueueview.h"
#include "ui/profiles/keychain.h"
#include "ui/profiles/profilecontroller.h"
#include "ui/window/desktopnotifier.h"

#include <QEvent>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <utility>

namespace capwatch::ui {

using session::ChatSession;
using session::ParkingLot;

ParkingController::ParkingController(
    QWidget *window, session::LocalProvider *demo, const Parts &parts)
    : QObject(window)
    , m_window(window)
    , m_parts(parts)
    , m_session(parts.session)
    , m_demo(demo)
    , m_lot(new ParkingLot(this))
    , m_carried(new session::BackgroundSends(this))
    , m_model(new ParkedQueueModel(this))
    , m_notifier(new DesktopNotifier(this))
{
    m_session->setParkingLot(m_lot);
    // Opening another conversation never cancels a send: it goes on here, in its own.
    m_session->setCarrier(m_carried);
    connect(
        m_carried, &session::BackgroundSends::changed, this, &ParkingController::onCarriedChanged);
    connect(m_carried, &session::BackgroundSends::ended, this, &ParkingController::onCarriedEnded);
    m_model->setLot(m_lot);
    ConversationPresenter *presenter = parts.presenter;
    presenter->setParkingLot(m_lot);

    QTabWidget *tabs = parts.tabs;
    m_view = new ParkedQueueView(m_model, tabs);
    tabs->addTab(m_view, QString());
    m_view->installEventFilter(this); // its LanguageChange: the tab's text
    // When the Queue is the tab shown, Tab goes from the tab bar through the table and its
    // buttons, where it would go through the retry log.
    QWidget *previous = tabs->widget(1);
    const QList<QWidget *> order { m_view->table(), m_view->openButton(), m_view->sendNowButton(),
        m_view->cancelButton() };
    for (QWidget *next : order) {
        QWidget::setTabOrder(previous, next);
        previous = next;
    }

    // Once a second, from the wall clock: every countdown at once, and only while one shows.
    m_tick.setInterval(1000);
    connect(&m_tick, &QTimer::timeout, this, &ParkingController::onTick);

    connect(m_lot, &ParkingLot::changed, this, &ParkingController::onLotChanged);
    connect(m_lot, &ParkingLot::released, this, [this](const history::ParkedSend &parked) {
        if (m_session->busy() && m_session->conversationId() == parked.conversation)
            m_runsHere.insert(parked.id);
    });
    connect(m_lot, &ParkingLot::finished, this, &ParkingController::onFinished);
    connect(m_session, &ChatSession::parkedChanged, this, &ParkingController::onParkedChanged);
    connect(m_session, &ChatSession::parkOffered, this, &ParkingController::updateTicking);
    connect(m_session, &ChatSession::conversationRestored, this, [this] {
        updatePanel();
        updateTicking();
        // Send now in the Queue opened this conversation for a consent: it asks now.
        if (const QUuid asked = std::exchange(m_askAfterOpen, {}); !asked.isNull()) {
            const std::optional<history::ParkedSend> parked = m_lot->find(asked);
            if (parked && parked->conversation == m_session->conversationId())
                sendNow(asked);
        }
    });
    connect(
        presenter, &ConversationPresenter::restoreFilled, this, &ParkingController::updateTicking);
    connect(presenter, &ConversationPresenter::sendParkedNowRequested, this,
        &ParkingController::sendNow);
    connect(presenter, &ConversationPresenter::editParkedRequested, this,
        &ParkingController::editPrompt);

    // Parked sends are stored with the history the window uses, and read back when it opens;
    // a private run keeps them in memory only, as its conversations.
    HistoryController *history = parts.history;
    connect(history, &HistoryController::opened, this, [this, history] {
        m_writer = history->isPrivate() ? nullptr : history->writer();
        m_titlesAsked.clear();
        m_lot->setHistory(m_writer);
    });

    connect(m_view, &ParkedQueueView::openRequested, this, &ParkingController::openConversation);
    connect(m_view, &ParkedQueueView::sendNowRequested, this, &ParkingController::sendNow);
    connect(m_view, &ParkedQueueView::cancelRequested, this, &ParkingController::cancel);

    connect(this, &ParkingController::parkedSendEnded, this, &ParkingController::tell);
    connect(m_notifier, &DesktopNotifier::messageClicked, this, [this] {
        m_window->showNormal();
        m_window->raise();
        m_window->activateWindow();
        openConversation(m_told);
    });
    updateTabText();
}

void ParkingController::tell(
    const QUuid &conversation, const QString &title, bool answered, bool parkedAgain)
{
    if (HistorySidebar *sidebar = m_parts.sidebar; sidebar && !conversation.isNull())
        sidebar->markUnread(conversation);
    m_told = conversation;
    const QString text = answered ? tr("The parked send was answered.")
        : parkedAgain ? tr("The parked send hit the limit again and waits for the next reset.")
                      : tr("The parked send failed; its prompt is kept.");
    m_notifier->notify(title.isEmpty() ? tr("capwatch") : title, text);
}

void ParkingController::markParked()
{
    HistorySidebar *sidebar = m_parts.sidebar;
    if (!sidebar)
        return;
    QSet<QUuid> now;
    for (const history::ParkedSend &p : m_lot->sends()) {
        if (!p.conversation.isNull())
            now.insert(p.conversation);
    }
    // Marked at once, then read again from the history after the lot's write (queued before
    // this), so a read that was on its way before the park or its removal does not undo it.
    for (const QUuid &id : std::as_const(m_markedParked)) {
        if (!now.contains(id)) {
            sidebar->setParked(id, false);
            sidebar->conversationUpdated(id);
        }
    }
    for (const QUuid &id : std::as_const(now)) {
        if (!m_markedParked.contains(id)) {
            sidebar->setParked(id, true);
            sidebar->conversationUpdated(id);
        }
    }
    m_markedParked = now;
}

void ParkingController::updateSessionSetup(const session::ProviderResolver &providers)
{
    // A session the lot makes for a parked send of a conversation the window does not show is
    // wired as the window's own: this run's time scale, the demo, the keychain, what the window
    // learned of its providers, and the window's Retries settings as they are now.
    session::SessionSetup setup;
    setup.timeScale = m_parts.timeScale;
    setup.localProvider = m_demo;
    setup.keychain
        = [context = m_window](const QString &entry) { return Keychain::provider(context, entry); };
    setup.memory = m_parts.memory;
    setup.parkingChoice = m_session->parkingChoice();
    setup.pacing = m_session->context().pacingEnabled();
    setup.autoTrim = m_session->context().autoTrim();
    setup.providers = providers;
    m_lot->setSessionSetup(std::move(setup));
}

bool ParkingController::sendNow(const QUuid &id)
{
    const std::optional<history::ParkedSend> parked = m_lot->find(id);
    if (!parked)
        return false;
    // Shown (an unstored one: in the window's session, where it was parked) and on the
    // provider shown, whose key would go over plain HTTP: asked for that endpoint first, due
    // or not yet, and sent on "Send anyway".
    const bool shown = parked->conversation == m_session->conversationId();
    if (shown && m_session->provider().lane() == parked->provider
        && m_session->provider().needsPlainHttpConsent()) {
        m_parts.controller->whenPlainHttpAllowed(
            [lot = QPointer<ParkingLot>(m_lot), session = QPointer<ChatSession>(m_session), id,
                conversation = parked->conversation] {
                // Still the conversation it was asked for (a notification may open another).
                if (lot && session && session->conversationId() == conversation)
                    lot->sendNow(id);
            });
        return false;
    }
    if (!shown && m_lot->waitsForConsent(id)) {
        // The consent is asked in its own conversation, for its own endpoint: opened, its card
        // asks at once. Not while a send goes out in the window (opening another would stop it).
        if (m_session->busy())
            return false;
        m_askAfterOpen = id;
        openConversation(parked->conversation);
        return false;
    }
    return m_lot->sendNow(id);
}

void ParkingController::openConversation(const QUuid &conversation)
{
    if (!conversation.isNull() && conversation != m_session->conversationId())
        m_parts.history->openConversation(conversation);
}

bool ParkingController::holdsShown() const
{
    const QUuid shown = m_session->conversationId();
    return !shown.isNull() && !m_lot->sendsOf(shown).isEmpty();
}

session::ChatSession *ParkingController::shownSentElsewhere() const
{
    const QUuid shown = m_session->conversationId();
    if (shown.isNull())
        return nullptr;
    if (ChatSession *carrier = m_carried->of(shown))
        return carrier;
    for (const history::ParkedSend &p : m_lot->sendsOf(shown)) {
        if (ChatSession *runner = m_lot->runnerOf(p.id); runner && runner != m_session)
            return runner;
    }
    return nullptr;
}

QString ParkingController::quitQuestion() const
{
    int parked = 0;
    int inFlight = m_carried->count() + (m_session->busy() ? 1 : 0);
    QDateTime firstDue;
    for (const history::ParkedSend &p : m_lot->sends()) {
        if (m_lot->isRunning(p.id)) {
            if (m_lot->runnerOf(p.id) != m_session) // the window's own is counted as busy
                ++inFlight;
            continue;
        }
        ++parked;
        if (!firstDue.isValid() || p.dueAt < firstDue)
            firstDue = p.dueAt;
    }
    return session::ParkingTexts::quitQuestion(parked, firstDue, inFlight, m_lot->wallNow());
}

void ParkingController::stop()
{
    ChatSession *elsewhere = shownSentElsewhere();
    (elsewhere ? elsewhere : m_session)->stop();
}

void ParkingController::onTick()
{
    m_parts.presenter->refreshParking();
    m_model->tick();
    updatePanel();
    updateTicking();
}

void ParkingController::onLotChanged()
{
    QTimer::singleShot(
        0, m_parts.controller, &ConversationController::updateButtons); // shownSentElsewhere()
    markParked();
    fetchTitles();
    updateTabText();
    updatePanel();
    updateTicking();
}

void ParkingController::onParkedChanged(bool parked)
{
    // Parked, the prompt waits in its card, not in the editor as after a failure.
    if (parked && m_parts.editor->toPlainText() == m_session->failedPrompt())
        m_parts.editor->clear();
    // After the lot's turn: a prompt that went out makes the window busy, one taken out is the
    // failed prompt again (Retry now).
    QTimer::singleShot(0, m_parts.controller, &ConversationController::restorePrompt);
    updatePanel();
    updateTicking();
}

void ParkingController::editPrompt(const QString &prompt)
{
    QPlainTextEdit *editor = m_parts.editor;
    editor->setPlainText(prompt);
    editor->moveCursor(QTextCursor::End);
    editor->setFocus();
}

void ParkingController::onFinished(
    const history::ParkedSend &parked, net::SendSummary::Outcome outcome, bool parkedAgain)
{
    const bool ranHere = m_runsHere.remove(parked.id);
    const bool shown = parked.conversation == m_session->conversationId();
    const bool answered = outcome == net::SendSummary::Outcome::Succeeded;
    const QString title = m_model->titleOf(parked);
    // A send that ended capped again is parked again by its session right after the lot said it
    // ended: look on the next turn.
    QTimer::singleShot(0, this, [this, parked, answered, parkedAgain, shown, title] {
        bool again = parkedAgain;
        for (const history::ParkedSend &p : m_lot->sendsOf(parked.conversation))
            again = again || (p.message == parked.message && p.parksInARow > parked.parksInARow);
        if (!m_window->isActiveWindow() || !shown)
            Q_EMIT parkedSendEnded(parked.conversation, title, answered, again);
    });
    // It went out in a session of the lot's own (the window opened its conversation while it
    // was in flight): the window shows the conversation as read back, without its answer.
    if (shown && !ranHere && !parked.conversation.isNull())
        reloadWhenIdle(parked.conversation);
}

void ParkingController::onCarriedChanged()
{
    QTimer::singleShot(
        0, m_parts.controller, &ConversationController::updateButtons); // shownSentElsewhere()
    const QList<QUuid> ids = m_carried->conversations();
    const QSet<QUuid> now(ids.cbegin(), ids.cend());
    if (HistorySidebar *sidebar = m_parts.sidebar) {
        for (const QUuid &id : std::as_const(m_markedSending)) {
            if (!now.contains(id))
                sidebar->setSending(id, false);
        }
        for (const QUuid &id : now)
            sidebar->setSending(id, true);
    }
    // The panel follows a carried send while its conversation is shown again.
    for (const QUuid &id : now) {
        ChatSession *carrier = m_carried->of(id);
        if (m_markedSending.contains(id) || !carrier)
            continue;
        connect(carrier, &ChatSession::sendStateChanged, this,
            [this, carrier](const session::SendState &state) {
                if (carrier->conversationId() == m_session->conversationId() && !m_session->busy())
                    m_parts.panel->render(state);
            });
    }
    m_markedSending = now;
}

void ParkingController::onCarriedEnded(
    const QUuid &conversation, net::SendSummary::Outcome outcome, bool parked)
{
    const bool shown = conversation == m_session->conversationId();
    if (!shown || !m_window->isActiveWindow()) {
        if (HistorySidebar *sidebar = m_parts.sidebar; sidebar && !shown)
            sidebar->markUnread(conversation);
        m_told = conversation;
        const bool answered = outcome == net::SendSummary::Outcome::Succeeded;
        const QString text = answered ? tr("The send was answered in its conversation.")
            : parked ? tr("The send hit the limit and was parked until the provider's reset.")
            : outcome == net::SendSummary::Outcome::Cancelled
            ? tr("The send was stopped; its prompt is kept.")
            : tr("The send failed; its prompt is kept.");
        m_notifier->notify(tr("capwatch"), text);
    }
    // The window shows it as read back while the send went on: read it again, with its answer.
    if (shown)
        reloadWhenIdle(conversation);
}

void ParkingController::reloadWhenIdle(const QUuid &conversation)
{
    if (m_session->conversationId() != conversation)
        return;
    if (!m_session->busy()) {
        m_parts.history->openConversation(conversation);
        return;
    }
    auto *once = new QObject(this);
    const auto again = [this, once, conversation] {
        once->deleteLater();
        QTimer::singleShot(0, this, [this, conversation] { reloadWhenIdle(conversation); });
    };
    connect(m_session, &ChatSession::succeeded, once, again);
    connect(m_session, &ChatSession::gaveUp, once, again);
    connect(m_session, &ChatSession::cancelled, once, again);
    connect(m_session, &ChatSession::conversationChanged, once, [once] { once->deleteLater(); });
}

void ParkingController::updatePanel()
{
    RetryPanel *panel = m_parts.panel;
    const std::optional<history::ParkedSend> parked = m_parts.presenter->shownParked();
    if (!m_session->sendState().isParked() || !parked) {
        panel->clearParked();
        return;
    }
    panel->showParked(*parked, session::parkedState(*m_lot, *parked), m_lot->wallNow());
}

void ParkingController::updateTicking()
{
    const bool needed = m_lot->count() > 0 || m_parts.presenter->showsCountdown();
    if (needed && !m_tick.isActive())
        m_tick.start();
    else if (!needed)
        m_tick.stop();
}

void ParkingController::updateTabText()
{
    QTabWidget *tabs = m_parts.tabs;
    const int index = tabs->indexOf(m_view);
    const int count = m_lot->count();
    tabs->setTabText(index, count > 0 ? tr("&Queue (%1)").arg(count) : tr("&Queue"));
    tabs->setTabToolTip(index, tr("Sends parked until their provider's limit resets"));
}

void ParkingController::fetchTitles()
{
    if (!m_writer)
        return;
    // A send parked in this run carries no title (the lot knows the titles of those it read
    // back): the queue asks the history once per conversation.
    for (const history::ParkedSend &p : m_lot->sends()) {
        if (!p.title.isEmpty() || p.conversation.isNull() || m_titlesAsked.contains(p.conversation))
            continue;
        const QUuid id = p.conversation;
        m_titlesAsked.insert(id);
        m_writer->read(
            this,
            [id](history::HistoryStore &store) {
                const std::optional<history::Conversation> c = store.conversation(id);
                return c ? c->title : QString();
            },
            [this, id](const QString &title) { m_model->setTitle(id, title); });
    }
}

bool ParkingController::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view && event->type() == QEvent::LanguageChange)
        updateTabText();
    return QObject::eventFilter(watched, event);
}

} // namespace capwatch::ui
