// Parking in the window (docs/parking.md, issue 15), offscreen, against the embedded demo's
// `reset` scenario, time-scaled: the failed card's "Send at" with the reset's time, the parked
// card and its Send now, Edit and Cancel, automatic parking, the send going out at the reset and
// its answer in the card's place, the retry panel while parked, and the Queue tab over parked
// sends of two conversations. The words of parking are checked on their own first.

#include "demo/demoprovider.h"
#include "history/historystore.h"
#include "history/historywriter.h"
#include "session/parkingtexts.h"
#include "support/demowindow.h"
#include "support/historywriting.h"
#include "support/loopbackserver.h"
#include "support/viewlinks.h"
#include "support/windowwidgets.h"
#include "ui/conversation/conversationpresenter.h"
#include "ui/conversation/conversationview.h"
#include "ui/history/conversationlistmodel.h"
#include "ui/history/historycontroller.h"
#include "ui/history/historysidebar.h"
#include "ui/panel/retrypanel.h"
#include "ui/parking/parkedqueuemodel.h"
#include "ui/parking/parkedqueueview.h"
#include "ui/parking/parkingcontroller.h"
#include "ui/profiles/profilecontroller.h"
#include "ui/window/desktopnotifier.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QMessageBox>
#include <QNetworkProxy>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace capwatch;
using namespace capwatch::ui;
using namespace Qt::StringLiterals;
using namespace capwatch::testing::widgets;
using capwatch::testing::clickLink;
using session::ParkingChoice;
using Action = ConversationView::Action;

namespace {

constexpr double kScale = 0.01; // a 60 s wait takes 0.6 s; the demo's 600 s cap 6 s

/// The window on the demo's `reset` scenario: the cap frees `resetAfterS` policy seconds after
/// the first request. A send gives up after its three attempts (0, 60, 120 s), parkable.
struct ParkingWindow
{
    ParkingWindow(const QString &ini, double resetAfterS, ParkingChoice choice)
        : w(ini, kScale)
    {
        demo::DemoOptions o = w.demo.provider()->options();
        o.scenario = u"reset"_s;
        o.resetAfterSeconds = resetAfterS;
        w.demo.provider()->setOptions(o);
        // As Settings -> Retries does: saved, and applied whenever the window applies settings.
        w.settings.setParkingChoice(choice);
        w.window->session()->setParkingChoice(choice);
    }
    MainWindow &window() { return *w.window; }
    ConversationView *view() { return conversation(*w.window); }
    ConversationPresenter *presenter() { return testing::widgets::presenter(*w.window); }
    RetryPanel *panel() { return retryPanel(*w.window); }
    session::ParkingLot *lot() { return w.window->parkingController()->lot(); }
    ParkedQueueModel *queue() { return w.window->parkingController()->queueModel(); }
    ParkedQueueView *queueView() { return w.window->parkingController()->queueView(); }
    QString queueTab() { return tabs(*w.window)->tabText(tabs(*w.window)->indexOf(queueView())); }
    /// Sends `prompt` and waits until it gave up (three attempts, 120 s of policy waits).
    bool sendUntilGaveUp(const QString &prompt)
    {
        w.send(prompt);
        return QTest::qWaitFor(
            [this] { return panel()->state() == RetryPanel::State::GaveUp || parkedCard() >= 0; },
            15000);
    }
    int failedCard() { return presenter()->failedCard(); }
    int parkedCard() { return presenter()->parkedCard(); }
    QString cardText(int card) { return view()->errorCardText(card); }
    /// The text of the card's link for `action`; empty when it has none.
    QString link(int card, Action action)
    {
        for (const ConversationView::CardLink &l : view()->errorCard(card).links) {
            if (l.action == action)
                return l.text;
        }
        return {};
    }
    bool click(const QString &text) { return clickLink(view(), text); }
    QList<demo::RecordedRequest> chats() const { return w.chats(); }

    testing::DemoWindow w;
};

/// The prompts the conversation shows, as typed.
QStringList promptsShown(const ConversationView *view)
{
    QStringList prompts;
    for (const QString &section : view->toMarkdown().split(u"\n\n## "_s)) {
        const QString body = section.startsWith(u"## "_s) ? section.mid(3) : section;
        if (body.startsWith(u"You\n\n"_s))
            prompts << body.mid(5).trimmed();
    }
    return prompts;
}

/// The row of `conversation`'s parked send in the queue, or -1.
int rowOf(const ParkedQueueModel *queue, const QUuid &conversation)
{
    for (int row = 0; row < queue->rowCount(); ++row) {
        if (queue->index(row, 0).data(ParkedQueueModel::ConversationRole).toUuid() == conversation)
            return row;
    }
    return -1;
}

// Two profiles, each with its own key (an environment variable) and a header naming it.
constexpr char kWorkKey[] = "sk-work-0123456789";
constexpr char kHomeKey[] = "sk-home-9876543210";

session::ProviderProfile keyedProfile(
    const QString &id, const QString &name, const QUrl &endpoint, const QString &variable)
{
    session::ProviderProfile p;
    p.id = id;
    p.name = name;
    p.endpoint = endpoint;
    p.model = u"capwatch-demo"_s;
    p.keySource = session::ProviderChoice::KeySource::Environment;
    p.keyVariable = variable;
    p.extraHeaders = { { "X-Profile", id.toUtf8() } };
    return p;
}

/// The window on profiles "Work" (the default) and "Personal", each on its own DemoProvider
/// started here (`work`, `home`) or both on `work`, with automatic parking and a history. Work's
/// provider runs the `reset` scenario: a send gives up after its three attempts and is parked
/// until the cap frees, 300 policy seconds after the first request.
struct ProfileParkingWindow
{
    ProfileParkingWindow(const QString &ini, bool sameEndpoint)
        : settings(ini)
    {
        qputenv("CAPWATCH_TEST_WORK_KEY", kWorkKey);
        qputenv("CAPWATCH_TEST_HOME_KEY", kHomeKey);
        demo::DemoOptions o = work.options();
        o.scenario = u"reset"_s;
        o.resetAfterSeconds = 300;
        o.timeScale = kScale; // its cap frees on the window's time, as the embedded demo's
        work.setOptions(o);
        demo::DemoOptions h = home.options();
        h.limit = 1'000'000'000; // never capped
        h.timeScale = kScale;
        home.setOptions(h);
        work.listen();
        home.listen();
        session::ProfileSet set;
        set.profiles = {
            keyedProfile(u"work"_s, u"Work"_s, work.baseUrl(), u"CAPWATCH_TEST_WORK_KEY"_s),
            keyedProfile(u"home"_s, u"Personal"_s, sameEndpoint ? work.baseUrl() : home.baseUrl(),
                u"CAPWATCH_TEST_HOME_KEY"_s),
        };
        set.defaultProfile = u"work"_s;
        settings.setParkingChoice(ParkingChoice::Automatic); // applied with the profile
        LaunchOptions options;
        options.timeScale = kScale;
        window = std::make_unique<MainWindow>(settings, options, &hook);
        window->profileController()->setProfiles(set);
        window->show();
    }
    ~ProfileParkingWindow()
    {
        qunsetenv("CAPWATCH_TEST_WORK_KEY");
        qunsetenv("CAPWATCH_TEST_HOME_KEY");
    }
    session::ParkingLot *lot() { return window->parkingController()->lot(); }
    /// The window's history in `path`, opened; the desktop notifier off.
    bool openHistory(history::HistoryWriter &writer, const QString &path)
    {
        window->attachHistory(&writer, false);
        QSignalSpy opened(window->historyController(), &HistoryController::opened);
        writer.open(path);
        window->parkingController()->notifier()->setEnabled(false);
        return opened.wait(5000);
    }
    void send(const QString &text)
    {
        promptEditor(*window)->setPlainText(text);
        window->controller()->sendPrompt();
    }

    Settings settings;
    demo::DemoProvider work;
    demo::DemoProvider home;
    testing::DemoHook hook;
    std::unique_ptr<MainWindow> window;
};

QDateTime at(const QString &local)
{
    return QDateTime::fromString(local, Qt::ISODate).toUTC();
}

} // namespace

class TestParkingWindow final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void texts_data();
    void texts();
    void refusals_data();
    void refusals();
    void waitingFor_data();
    void waitingFor();
    void askOffersSendAtTheReset();
    void tooFarSaysWhy();
    void sendAtParks();
    void quittingWithAParkedSendSaysWhenItGoes();
    void sendAtIsOfferedDuringTheCycle();
    void aResetWithinReachIsNotOfferedEarly();
    void theFirstActionHasAShortcutAndFocusComesBack();
    void sendNowGoesBeforeTheReset();
    void cancelGivesBackTheFailedCard();
    void editPutsThePromptInTheEditor();
    void automaticParksAtOnce();
    void goesOutAtTheResetAndAnswersInPlace();
    void waitsForItsProvider();
    void aPromptSentMeanwhileGoesFirst();
    void queueListsTwoConversations();
    void anotherConversationsSendEndsWithTheHook();
    void answerFromTheLotsSessionIsShown();
    void lotSendsWithItsConversationsProfile();
    void lotSendsToItsProfilesEndpoint();
    void sendNowAsksForThePlainHttpConsent_data();
    void sendNowAsksForThePlainHttpConsent();

private:
    QString ini() { return m_dir.filePath(u"settings-%1.ini"_s.arg(++m_n)); }
    QString db() { return m_dir.filePath(u"history-%1.sqlite"_s.arg(++m_n)); }

    QTemporaryDir m_dir;
    int m_n = 0;
};

void TestParkingWindow::initTestCase()
{
    QVERIFY(m_dir.isValid());
    qputenv("XDG_DATA_HOME", m_dir.filePath(u"data"_s).toUtf8());
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void TestParkingWindow::texts_data()
{
    QTest::addColumn<QDateTime>("due");
    QTest::addColumn<QDateTime>("now");
    QTest::addColumn<QString>("sendAt");
    QTest::addColumn<QString>("parkedUntil");

    const QDateTime now = at(u"2026-03-02T05:58:00"_s);
    QTest::newRow("16 min, rounded up")
        << now.addSecs(15 * 60 + 42) << now << u"Send at 06:13 (in 16 min)"_s
        << u"Parked until 06:13, in 15:42"_s;
    QTest::newRow("under a minute") << now.addSecs(40) << now << u"Send at 05:58 (in 40 s)"_s
                                    << u"Parked until 05:58, in 0:40"_s;
    QTest::newRow("a second left, rounded up")
        << now.addMSecs(1) << now << u"Send at 05:58 (in 1 s)"_s
        << u"Parked until 05:58, in 0:01"_s;
    QTest::newRow("hours") << now.addSecs(2 * 3600 + 4 * 60 + 1) << now
                           << u"Send at 08:02 (in 2 h 5 min)"_s
                           << u"Parked until 08:02, in 2:04:01"_s;
    QTest::newRow("tomorrow") << at(u"2026-03-03T04:30:00"_s) << at(u"2026-03-02T23:50:00"_s)
                              << u"Send at 04:30 tomorrow (in 4 h 40 min)"_s
                              << u"Parked until 04:30 tomorrow, in 4:40:00"_s;
    QTest::newRow("passed") << now.addSecs(-5) << now << u"Send at 05:57 (now)"_s
                            << u"Parked until 05:57, in 0:00"_s;
}

void TestParkingWindow::texts()
{
    QFETCH(QDateTime, due);
    QFETCH(QDateTime, now);
    QFETCH(QString, sendAt);
    QFETCH(QString, parkedUntil);
    QCOMPARE(session::ParkingTexts::sendAt(due, now), sendAt);
    QCOMPARE(session::ParkingTexts::parkedUntil(due, now), parkedUntil);
}

void TestParkingWindow::refusals_data()
{
    QTest::addColumn<int>("refusal");
    QTest::addColumn<qint64>("resetInMs");
    QTest::addColumn<QString>("text");
    using retry::ParkRefusal;
    QTest::newRow("too far") << int(ParkRefusal::TooFar) << qint64(25) * 3600 * 1000
                             << u"Not parked: the limit resets in 25 h, more than 24 h away"_s;
    QTest::newRow("too far, minutes rounded up")
        << int(ParkRefusal::TooFar) << (qint64(24) * 3600 + 61) * 1000
        << u"Not parked: the limit resets in 24 h 2 min, more than 24 h away"_s;
    QTest::newRow("no provider wait")
        << int(ParkRefusal::NoProviderWait) << qint64(0)
        << u"Not parked: the provider did not say when the limit resets"_s;
    QTest::newRow("reparked too often")
        << int(ParkRefusal::ReparkedTooOften) << qint64(60'000)
        << u"Not parked again: it was parked 3 times in a row already"_s;
    // Not a candidate at all: the card says nothing about parking.
    QTest::newRow("not capped") << int(ParkRefusal::NotCapped) << qint64(0) << QString();
    QTest::newRow("not limited") << int(ParkRefusal::NotLimited) << qint64(0) << QString();
}

void TestParkingWindow::refusals()
{
    QFETCH(int, refusal);
    QFETCH(qint64, resetInMs);
    QFETCH(QString, text);
    session::ParkOffer offer;
    offer.refusal = retry::ParkRefusal(refusal);
    offer.resetIn = retry::Millis(resetInMs);
    offer.reason = u"an English sentence the card never shows"_s;
    QCOMPARE(session::ParkingTexts::refusal(offer), text);
}

void TestParkingWindow::waitingFor_data()
{
    QTest::addColumn<QString>("provider");
    QTest::addColumn<int>("state");
    QTest::addColumn<QString>("card");
    QTest::addColumn<QString>("column");
    QTest::newRow("waiting") << u"demo"_s << int(session::ParkedState::Waiting) << QString()
                             << u"waiting"_s;
    QTest::newRow("sending") << u"demo"_s << int(session::ParkedState::Sending) << QString()
                             << u"sending"_s;
    QTest::newRow("due") << u"demo"_s << int(session::ParkedState::Due)
                         << u"Due: waiting for the previous send to this provider"_s << u"due"_s;
    QTest::newRow("the demo not chosen")
        << u"demo"_s << int(session::ParkedState::WaitsForProvider)
        << u"Waiting for the demo provider to be chosen again"_s << u"waits for provider"_s;
    QTest::newRow("an endpoint not chosen")
        << u"https://api.example.com/v1/chat/completions"_s
        << int(session::ParkedState::WaitsForProvider)
        << u"Waiting for https://api.example.com/v1 to be chosen again"_s
        << u"waits for provider"_s;
}

void TestParkingWindow::waitingFor()
{
    QFETCH(QString, provider);
    QFETCH(int, state);
    QFETCH(QString, card);
    QFETCH(QString, column);
    history::ParkedSend parked;
    parked.provider = provider;
    QCOMPARE(session::ParkingTexts::waitingFor(parked, session::ParkedState(state)), card);
    QCOMPARE(session::ParkingTexts::stateName(session::ParkedState(state)), column);
}

void TestParkingWindow::askOffersSendAtTheReset()
{
    ParkingWindow p(ini(), 600, ParkingChoice::Ask);
    QVERIFY(p.sendUntilGaveUp(u"Summarise the log"_s));
    QCOMPARE(p.chats().size(), 3);
    const int card = p.failedCard();
    QVERIFY(card >= 0);

    // The provider's figure ("Retry in 8 min" at the third attempt, 120 policy seconds after
    // the first said 10) runs 0.01 times as long. A retry timer that fires late (AddressSanitizer
    // on a loaded machine) lets the demo's clock pass the minute: it then says 7 min.
    const session::ParkOffer offer = p.window().session()->sendState().park;
    QVERIFY(offer.parkable);
    QVERIFY2(offer.resetIn == retry::Millis(8 * 60 * 1000)
            || offer.resetIn == retry::Millis(7 * 60 * 1000),
        qPrintable(QString::number(offer.resetIn.count())));
    const qint64 dueInMs = p.lot()->wallNow().msecsTo(offer.dueAt);
    QVERIFY2(dueInMs > 0 && dueInMs <= 4800, qPrintable(QString::number(dueInMs)));

    // "Send at HH:mm (in N s)" in local time, beside Retry now, while the editor has the prompt.
    const QString sendAt = p.link(card, Action::SendAt);
    static const QRegularExpression form(u"^Send at (\\d\\d:\\d\\d) \\(in (\\d) s\\)$"_s);
    const QRegularExpressionMatch m = form.match(sendAt);
    QVERIFY2(m.hasMatch(), qPrintable(sendAt));
    QCOMPARE(m.captured(1), offer.dueAt.toLocalTime().toString(u"HH:mm"_s));
    QVERIFY(m.captured(2).toInt() >= 1 && m.captured(2).toInt() <= 5);
    QCOMPARE(p.link(card, Action::RetryNow), u"Retry now"_s);
    // The lead says what happened and until when (issue 25.11).
    QVERIFY2(p.cardText(card).contains(u"Capped until %1: budget exhausted"_s.arg(m.captured(1))),
        qPrintable(p.cardText(card)));
    QVERIFY(p.cardText(card).contains(sendAt));
    QCOMPARE(promptEditor(p.window())->toPlainText(), u"Summarise the log"_s);
    QCOMPARE(p.lot()->count(), 0); // offered, not parked

    // The button counts down with the one tick of the window.
    QVERIFY(p.window().parkingController()->tick().isActive());
    QTRY_VERIFY_WITH_TIMEOUT(p.link(card, Action::SendAt) != sendAt, 3000);
    // Once the reset has passed, "Send at 13:47 (now)" would only be a late Retry now: the card
    // offers Send now in its place (issue 25, point 15).
    QTRY_COMPARE_WITH_TIMEOUT(p.link(card, Action::SendAt), QString(), 8000);
    QCOMPARE(p.link(card, Action::RetryNow), u"Send now"_s);
}

void TestParkingWindow::theFirstActionHasAShortcutAndFocusComesBack()
{
    // Issue 25, point 15: the card's first action has a shortcut, named in its tooltip, and
    // after it the prompt has the focus again, so Ctrl+Enter sends without a click.
    ParkingWindow p(ini(), 600, ParkingChoice::Ask);
    QVERIFY(QTest::qWaitForWindowActive(&p.window()));
    QVERIFY(p.sendUntilGaveUp(u"Park me by keyboard"_s));
    const int card = p.failedCard();
    const QList<ConversationView::CardLink> links = p.view()->errorCard(card).links;
    QVERIFY(!links.isEmpty());
    QCOMPARE(links.first().action, Action::SendAt);
    QVERIFY2(links.first().toolTip.endsWith(u"(Ctrl+Shift+Return)"_s),
        qPrintable(links.first().toolTip));
    p.view()->setFocus();
    QVERIFY(!promptEditor(p.window())->hasFocus());
    QTest::keyClick(p.view(), Qt::Key_Return, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY(p.window().session()->sendState().isParked());
    QCOMPARE(p.parkedCard(), card);
    QTRY_VERIFY(promptEditor(p.window())->hasFocus());
    // The parked card's first action (Send now) by the same keys.
    QTest::keyClick(
        promptEditor(p.window()), Qt::Key_Return, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY_WITH_TIMEOUT(!p.window().session()->sendState().isParked(), 5000);
}

void TestParkingWindow::tooFarSaysWhy()
{
    // The cap frees 25 h after the first request: at the third attempt the provider says
    // "Retry in 1498 min", more than a day away.
    ParkingWindow p(ini(), 25 * 3600, ParkingChoice::Ask);
    QVERIFY(p.sendUntilGaveUp(u"Wait a day?"_s));
    QCOMPARE(p.window().session()->sendState().park.refusal, retry::ParkRefusal::TooFar);
    const int card = p.failedCard();
    QVERIFY2(
        p.cardText(card).endsWith(
            u"Not parked: the limit resets in 24 h 58 min, more than 24 h away\n\u25b8 Details"_s),
        qPrintable(p.cardText(card)));
    // The lead names the reset as the card's other times do (under the test's time scale, a
    // scaled wall time).
    const QDateTime resetAt = p.window().session()->sendState().park.dueAt;
    QVERIFY(resetAt.isValid());
    const QString until
        = session::ParkingTexts::clockTime(resetAt, QDateTime::currentDateTimeUtc());
    QVERIFY2(
        p.cardText(card).contains(u"Capped until %1: "_s.arg(until)), qPrintable(p.cardText(card)));
    QCOMPARE(p.link(card, Action::SendAt), QString());
    QVERIFY(p.view()->errorCard(card).links.isEmpty());
    QCOMPARE(p.lot()->count(), 0);
    // The prompt box's Retry now is there as after any failure.
    QTRY_VERIFY(retryNowButton(p.window())->isVisible());
}

void TestParkingWindow::quittingWithAParkedSendSaysWhenItGoes()
{
    // issue 25.13: quitting with a send parked says that it goes out at the next start, and
    // quits only on Quit; "Don't ask again" is kept.
    ParkingWindow p(ini(), 600, ParkingChoice::Automatic);
    p.window().show();
    QVERIFY(p.sendUntilGaveUp(u"Park me"_s));
    QTRY_COMPARE(p.lot()->count(), 1);
    const QDateTime due = p.lot()->sends().constFirst().dueAt;
    const auto question = [&p] { return p.window().findChild<QMessageBox *>(u"quitQuestion"_s); };

    QVERIFY(!p.window().close()); // asked, not closed
    QVERIFY(p.window().isVisible());
    QTRY_VERIFY(question() && question()->isVisible());
    QCOMPARE(question()->informativeText(),
        u"1 send is parked: it goes out at the next start of capwatch, at %1 or later."_s.arg(
            session::ParkingTexts::clockTime(due, p.lot()->wallNow())));
    QCOMPARE(question()->windowModality(), Qt::WindowModal); // not a nested event loop
    question()->button(QMessageBox::Cancel)->click();
    QTRY_VERIFY(!question());
    QVERIFY(p.window().isVisible());
    QCOMPARE(p.lot()->count(), 1);

    QVERIFY(!p.window().close());
    QTRY_VERIFY(question() && question()->isVisible());
    question()->checkBox()->setChecked(true);
    QPushButton *quit = nullptr;
    for (QAbstractButton *b : question()->buttons()) {
        if (question()->buttonRole(b) == QMessageBox::AcceptRole)
            quit = qobject_cast<QPushButton *>(b);
    }
    QVERIFY(quit);
    QCOMPARE(quit->text(), u"&Quit"_s);
    quit->click();
    QTRY_VERIFY(!p.window().isVisible());
    QVERIFY(!p.w.settings.askBeforeQuit());
    // Stored, not cancelled: the lot goes on with it at the next start.
    QCOMPARE(p.lot()->count(), 1);

    // Asked no more.
    p.window().show();
    QVERIFY(p.window().close());

    // More than one, and sends in flight, are counted in words too.
    const QDateTime now = QDateTime(QDate(2026, 12, 4), QTime(13, 0)).toUTC();
    QCOMPARE(session::ParkingTexts::quitQuestion(
                 2, QDateTime(QDate(2026, 12, 4), QTime(14, 9)).toUTC(), 1, now),
        u"2 sends are parked: they go out at the next start of capwatch, the first at 14:09 or "
        u"later. 1 send is in flight: quitting stops it; its prompt stays in the history."_s);
    QCOMPARE(session::ParkingTexts::quitQuestion(0, {}, 0, now), QString());
}

void TestParkingWindow::sendAtIsOfferedDuringTheCycle()
{
    // issue 25.12: "Retry in 10 min" is beyond the 120 s budget: the panel and the line under
    // the prompt offer Send at at once, during the first wait; the cycle runs on meanwhile.
    ParkingWindow p(ini(), 600, ParkingChoice::Ask);
    p.w.send(u"Park me early"_s);
    QTRY_COMPARE_WITH_TIMEOUT(p.panel()->state(), RetryPanel::State::Waiting, 5000);
    QCOMPARE(p.w.demo.provider()->chatRequests(), 1);
    const auto *sendAt = p.window().findChild<QPushButton *>(u"sendAt"_s);
    QVERIFY(sendAt);
    QTRY_VERIFY(sendAt->isVisibleTo(p.panel()));
    const session::SendState state = p.window().session()->sendState();
    QVERIFY(state.earlyPark.parkable);
    static const QRegularExpression form(u"^Send at (\\d\\d:\\d\\d) \\(in \\d+ s\\)$"_s);
    QVERIFY2(form.match(sendAt->text()).hasMatch(), qPrintable(sendAt->text()));
    QCOMPARE(form.match(sendAt->text()).captured(1),
        state.earlyPark.dueAt.toLocalTime().toString(u"HH:mm"_s));
    QVERIFY(sendAt->toolTip().contains(u"later than the retries can reach"_s));
    const QList<ConversationView::CardLink> links = p.view()->statusLinks();
    QCOMPARE(links.size(), 1);
    QCOMPARE(links.first().action, Action::SendAt);
    QVERIFY(p.view()->statusLine().startsWith(u"Retrying in "_s));

    // Clicked on the line under the prompt: the cycle stops and the send is parked until the
    // reset, as Send at on a failed card parks it.
    QVERIFY(p.click(links.first().text));
    QTRY_COMPARE(p.lot()->count(), 1);
    QVERIFY(!p.window().session()->busy());
    QVERIFY(p.window().session()->sendState().isParked());
    QVERIFY(p.parkedCard() >= 0);
    QVERIFY(p.cardText(p.parkedCard()).startsWith(u"Parked\nParked until"_s));
    QVERIFY(!sendAt->isVisibleTo(p.panel()));
    QVERIFY(promptEditor(p.window())->toPlainText().isEmpty());
    // No attempt more was made: the one refusal, then the park.
    QTest::qWait(200);
    QCOMPARE(p.w.demo.provider()->chatRequests(), 1);
    const QList<net::RetryRecord> &records = p.window().session()->retryLog()->records();
    QCOMPARE(records.last().event, net::RetryRecord::Event::Parked);
    QCOMPARE(records.at(records.size() - 2).event, net::RetryRecord::Event::Cancelled);
}

void TestParkingWindow::aResetWithinReachIsNotOfferedEarly()
{
    // "Retry in 1 min" is within the budget: no early offer, the cycle answers by itself.
    ParkingWindow p(ini(), 40, ParkingChoice::Ask);
    p.w.send(u"Wait for it"_s);
    QTRY_COMPARE_WITH_TIMEOUT(p.panel()->state(), RetryPanel::State::Waiting, 5000);
    QVERIFY(!p.window().session()->sendState().earlyPark.parkable);
    QVERIFY(!p.window().findChild<QPushButton *>(u"sendAt"_s)->isVisibleTo(p.panel()));
    QVERIFY(p.view()->statusLinks().isEmpty());
    QVERIFY(!p.window().session()->parkNow());
}

void TestParkingWindow::sendAtParks()
{
    ParkingWindow p(ini(), 600, ParkingChoice::Ask);
    QAbstractItemModelTester tester(p.queue());
    QVERIFY(p.sendUntilGaveUp(u"Park me"_s));
    const int card = p.failedCard();
    const QDateTime due = p.window().session()->sendState().park.dueAt;
    QVERIFY(p.click(p.link(card, Action::SendAt)));

    // The same card, parked: the countdown and its links; the prompt left the editor.
    QCOMPARE(p.parkedCard(), card);
    QVERIFY(p.window().session()->sendState().isParked());
    const QString text = p.cardText(card);
    QVERIFY2(text.startsWith(u"Parked\n"_s), qPrintable(text));
    static const QRegularExpression headline(u"Parked until (\\d\\d:\\d\\d), in 0:0(\\d)"_s);
    const QRegularExpressionMatch m = headline.match(text);
    QVERIFY2(m.hasMatch(), qPrintable(text));
    QCOMPARE(m.captured(1), due.toLocalTime().toString(u"HH:mm"_s));
    QVERIFY(text.contains(u"(park 1 of 3)"_s));
    QVERIFY(!text.contains(u"Token limit exceeded"_s)); // the error gives way to the headline
    QCOMPARE(p.link(card, Action::SendNow), u"Send now"_s);
    QCOMPARE(p.link(card, Action::EditParked), u"Edit"_s);
    QCOMPARE(p.link(card, Action::CancelPark), u"Cancel"_s);
    QCOMPARE(p.link(card, Action::RetryNow), QString());
    QVERIFY(promptEditor(p.window())->toPlainText().isEmpty());
    QTRY_VERIFY(!retryNowButton(p.window())->isVisible());

    // One row in the Queue, and its count on the tab.
    QCOMPARE(p.queue()->rowCount(), 1);
    QCOMPARE(p.queueTab(), u"&Queue (1)"_s);
    const auto cell = [&p](int column) { return p.queue()->index(0, column).data().toString(); };
    QCOMPARE(cell(ParkedQueueModel::ConversationColumn), u"Park me"_s); // no history: the prompt
    QCOMPARE(cell(ParkedQueueModel::PromptColumn), u"Park me"_s);
    QCOMPARE(cell(ParkedQueueModel::ProviderColumn), u"Demo provider"_s);
    QCOMPARE(cell(ParkedQueueModel::DueColumn), due.toLocalTime().toString(u"HH:mm"_s));
    QVERIFY(cell(ParkedQueueModel::CountdownColumn).startsWith(u"0:0"_s));
    QCOMPARE(cell(ParkedQueueModel::StateColumn), u"waiting"_s);
    QCOMPARE(cell(ParkedQueueModel::ParksColumn), u"1 of 3"_s);

    // The panel: parked, in place of the 120 s countdown.
    QCOMPARE(p.panel()->state(), RetryPanel::State::Parked);
    QVERIFY2(p.panel()->stateText().startsWith(
                 u"Parked until %1 · in 0:0"_s.arg(due.toLocalTime().toString(u"HH:mm"_s))),
        qPrintable(p.panel()->stateText()));
    QVERIFY(p.panel()->stateText().endsWith(u" · park 1 of 3"_s));
    QVERIFY(p.panel()->countdownText().startsWith(u"0:0"_s));
    QCOMPARE(p.chats().size(), 3); // nothing went out meanwhile
}

void TestParkingWindow::sendNowGoesBeforeTheReset()
{
    ParkingWindow p(ini(), 600, ParkingChoice::Ask);
    QVERIFY(p.sendUntilGaveUp(u"Now, please"_s));
    QVERIFY(p.click(p.link(p.failedCard(), Action::SendAt)));
    const QDateTime due = p.lot()->sends().constFirst().dueAt;

    QList<QDateTime> received;
    QObject::connect(p.w.demo.provider(), &demo::DemoProvider::chatRequestReceived,
        p.w.window.get(), [&] { received.append(p.lot()->wallNow()); });
    QVERIFY(p.click(u"Send now"_s));
    // It went out at once: the card gave way to the live send.
    QTRY_COMPARE_WITH_TIMEOUT(received.size(), 1, 2000);
    QVERIFY(received.constFirst() < due);
    QCOMPARE(p.chats().at(3).lastUserMessage(), u"Now, please"_s);
    QCOMPARE(p.parkedCard(), -1);
    // The cap is still on: after its three attempts it is parked again, by itself.
    QTRY_VERIFY_WITH_TIMEOUT(p.parkedCard() >= 0, 10000);
    QCOMPARE(p.chats().size(), 6);
    QVERIFY(p.cardText(p.parkedCard()).contains(u"Parked again"_s));
    QVERIFY(p.cardText(p.parkedCard()).contains(u"(park 2 of 3)"_s));
    QCOMPARE(p.queue()->rowCount(), 1);
    QCOMPARE(p.queue()->index(0, ParkedQueueModel::ParksColumn).data().toString(), u"2 of 3"_s);
    QCOMPARE(promptsShown(p.view()), QStringList { u"Now, please"_s }); // shown once
}

void TestParkingWindow::cancelGivesBackTheFailedCard()
{
    ParkingWindow p(ini(), 600, ParkingChoice::Ask);
    QVERIFY(p.sendUntilGaveUp(u"Cancel me"_s));
    const int card = p.failedCard();
    QVERIFY(p.click(p.link(card, Action::SendAt)));
    QCOMPARE(p.parkedCard(), card);

    QVERIFY(p.click(u"Cancel"_s));
    QCOMPARE(p.lot()->count(), 0);
    QCOMPARE(p.parkedCard(), -1);
    QCOMPARE(p.failedCard(), card);
    const QString text = p.cardText(card);
    QVERIFY2(text.startsWith(u"Error\nCapped until "_s), qPrintable(text));
    QVERIFY2(text.contains(u": budget exhausted"_s), qPrintable(text));
    QCOMPARE(p.link(card, Action::RetryNow), u"Retry now"_s);
    QCOMPARE(p.link(card, Action::SendAt), QString()); // parked once: one click back, not a loop
    QCOMPARE(p.queue()->rowCount(), 0);
    QCOMPARE(p.queueTab(), u"&Queue"_s);
    QCOMPARE(p.panel()->state(), RetryPanel::State::GaveUp);
    QTRY_COMPARE(promptEditor(p.window())->toPlainText(), u"Cancel me"_s);
    QTRY_VERIFY(retryNowButton(p.window())->isVisible());

    // The card's Retry now sends it again.
    QVERIFY(p.click(u"Retry now"_s));
    QTRY_COMPARE_WITH_TIMEOUT(p.chats().size(), 4, 2000);
    QCOMPARE(p.chats().at(3).lastUserMessage(), u"Cancel me"_s);
    QCOMPARE(p.link(card, Action::RetryNow), QString()); // offered for that failure only
}

void TestParkingWindow::editPutsThePromptInTheEditor()
{
    ParkingWindow p(ini(), 600, ParkingChoice::Ask);
    QVERIFY(p.sendUntilGaveUp(u"Edit me"_s));
    QVERIFY(p.click(p.link(p.failedCard(), Action::SendAt)));
    QVERIFY(promptEditor(p.window())->toPlainText().isEmpty());

    const QDateTime due = p.lot()->sends().constFirst().dueAt;
    QVERIFY(p.click(u"Edit"_s));
    QCOMPARE(promptEditor(p.window())->toPlainText(), u"Edit me"_s);
    QCOMPARE(p.lot()->count(), 0);
    QVERIFY(!p.window().session()->sendState().isParked());
    QCOMPARE(p.parkedCard(), -1);
    QVERIFY(p.cardText(p.failedCard()).startsWith(u"Error\n"_s));
    // Nothing stays parked: past its due time, nothing goes out by itself.
    QSignalSpy requests(p.w.demo.provider(), &demo::DemoProvider::chatRequestReceived);
    QVERIFY(!requests.wait(int(p.lot()->wallNow().msecsTo(due)) + 1500));
    QCOMPARE(p.chats().size(), 3);
    QTRY_COMPARE(promptEditor(p.window())->toPlainText(), u"Edit me"_s);
}

void TestParkingWindow::automaticParksAtOnce()
{
    ParkingWindow p(ini(), 600, ParkingChoice::Automatic);
    QVERIFY(p.sendUntilGaveUp(u"Park it yourself"_s));
    QTRY_VERIFY(p.parkedCard() >= 0);
    QCOMPARE(p.lot()->count(), 1);
    const QString text = p.cardText(p.parkedCard());
    QVERIFY2(text.contains(u"Parked automatically (Settings → Retries)"_s), qPrintable(text));
    QVERIFY(text.contains(u"Parked until "_s));
    QCOMPARE(p.link(p.parkedCard(), Action::CancelPark), u"Cancel"_s);
    QCOMPARE(p.panel()->state(), RetryPanel::State::Parked);
    QCOMPARE(p.queue()->rowCount(), 1);

    // One click undoes it.
    QVERIFY(p.click(u"Cancel"_s));
    QCOMPARE(p.lot()->count(), 0);
    QCOMPARE(p.link(p.failedCard(), Action::RetryNow), u"Retry now"_s);
}

void TestParkingWindow::goesOutAtTheResetAndAnswersInPlace()
{
    // The cap frees 300 s after the first request: the third attempt (120 s) is told "Retry in
    // 3 min" (rounded up), so the parked send goes out just after the reset.
    ParkingWindow p(ini(), 300, ParkingChoice::Automatic);
    QSignalSpy states(p.panel(), &RetryPanel::stateChanged);
    QVERIFY(p.sendUntilGaveUp(u"Answer after the reset"_s));
    QTRY_VERIFY(p.parkedCard() >= 0);
    const QDateTime due = p.lot()->sends().constFirst().dueAt;
    QList<QDateTime> received;
    QObject::connect(p.w.demo.provider(), &demo::DemoProvider::chatRequestReceived,
        p.w.window.get(), [&] { received.append(p.lot()->wallNow()); });

    QTRY_COMPARE_WITH_TIMEOUT(p.panel()->state(), RetryPanel::State::Succeeded, 15000);
    QCOMPARE(received.size(), 1);
    QVERIFY(received.constFirst() >= due);
    // The card turned into the live send (attempt 1 of 5, streaming), then the answer.
    QList<RetryPanel::State> seen;
    for (const QList<QVariant> &s : std::as_const(states))
        seen << s.constFirst().value<RetryPanel::State>();
    const qsizetype parked = seen.indexOf(RetryPanel::State::Parked);
    QVERIFY(parked >= 0);
    QVERIFY(seen.indexOf(RetryPanel::State::Sending, parked) > parked);
    QVERIFY(seen.indexOf(RetryPanel::State::Streaming, parked) > parked);
    QCOMPARE(p.panel()->attemptText(), u"1 of 5"_s);

    // The answer is where the card was; the prompt shows once; nothing is left parked.
    ConversationView *v = p.view();
    QCOMPARE(p.parkedCard(), -1);
    QCOMPARE(v->lastItem(), v->lastAssistantTurn());
    QVERIFY(v->assistantText(v->lastAssistantTurn())
                .startsWith(u"Hello from the capwatch demo provider!"_s));
    QCOMPARE(promptsShown(v), QStringList { u"Answer after the reset"_s });
    QVERIFY(!v->toMarkdown().contains(u"Token limit exceeded"_s));
    QCOMPARE(p.lot()->count(), 0);
    QCOMPARE(p.queueTab(), u"&Queue"_s);
    QCOMPARE(p.chats().at(3).lastUserMessage(), u"Answer after the reset"_s);
    QVERIFY(promptEditor(p.window())->toPlainText().isEmpty());
}

void TestParkingWindow::waitsForItsProvider()
{
    ParkingWindow p(ini(), 300, ParkingChoice::Automatic);
    QVERIFY(p.sendUntilGaveUp(u"Only to the demo"_s));
    QTRY_VERIFY(p.parkedCard() >= 0);
    // Another provider is chosen before the reset (as Settings would): its key and its reset are
    // the demo's, so once due it waits.
    session::ProviderChoice other;
    other.endpoint = QUrl(u"http://127.0.0.1:9/v1"_s);
    other.model = u"another-model"_s;
    p.window().session()->setProvider(other);
    QTRY_VERIFY_WITH_TIMEOUT(
        p.cardText(p.parkedCard())
            .contains(u"\nWaiting for the demo provider to be chosen again\n"_s),
        5000);
    QCOMPARE(p.queue()->index(0, ParkedQueueModel::StateColumn).data().toString(),
        u"waits for provider"_s);
    QCOMPARE(p.panel()->stateText(),
        u"Waiting for the demo provider to be chosen again · park 1 of 3"_s);
    QCOMPARE(p.link(p.parkedCard(), Action::CancelPark), u"Cancel"_s);

    // The demo chosen again (a fresh one, its cap free): it goes out and is answered.
    session::ProviderChoice demo;
    demo.demo = true;
    p.window().session()->setProvider(demo);
    QTRY_COMPARE_WITH_TIMEOUT(p.panel()->state(), RetryPanel::State::Succeeded, 10000);
    QCOMPARE(p.lot()->count(), 0);
    QCOMPARE(p.parkedCard(), -1);
    QCOMPARE(p.chats().size(), 1); // the fresh demo's one request
    QCOMPARE(p.chats().constFirst().lastUserMessage(), u"Only to the demo"_s);
    QCOMPARE(promptsShown(p.view()), QStringList { u"Only to the demo"_s });
}

void TestParkingWindow::aPromptSentMeanwhileGoesFirst()
{
    ParkingWindow p(ini(), 300, ParkingChoice::Automatic);
    QVERIFY(p.sendUntilGaveUp(u"First, parked"_s));
    QTRY_VERIFY(p.parkedCard() >= 0);
    const int card = p.parkedCard();
    // Another prompt while it waits (the cap out of the way): answered at once.
    p.w.setScenario(u"capped"_s);
    p.w.uncapped();
    p.w.send(u"Meanwhile, this"_s);
    QTRY_COMPARE_WITH_TIMEOUT(p.panel()->state(), RetryPanel::State::Succeeded, 5000);
    QCOMPARE(p.lot()->count(), 1); // still parked, its card where it was
    QVERIFY(p.cardText(card).startsWith(u"Parked\nParked until"_s));

    // At its reset it goes out after that exchange: shown there again, its card says so.
    QTRY_COMPARE_WITH_TIMEOUT(p.lot()->count(), 0, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(p.panel()->state(), RetryPanel::State::Succeeded, 5000);
    QCOMPARE(p.cardText(card), u"Parked\nSent again: see below\n\u25b8 Details"_s);
    QCOMPARE(promptsShown(p.view()),
        (QStringList { u"First, parked"_s, u"Meanwhile, this"_s, u"First, parked"_s }));
    QCOMPARE(p.view()->lastItem(), p.view()->lastAssistantTurn());
    const QList<demo::RecordedRequest> sent = p.chats();
    QCOMPARE(sent.size(), 5);
    QCOMPARE(sent.at(3).lastUserMessage(), u"Meanwhile, this"_s);
    QCOMPARE(sent.at(4).lastUserMessage(), u"First, parked"_s);
    const QJsonArray messages = sent.at(4).json().value(u"messages").toArray();
    QCOMPARE(messages.size(), 3); // the exchange before it, then the parked prompt
}

void TestParkingWindow::queueListsTwoConversations()
{
    const QString path = db();
    history::HistoryWriter writer; // outlives the window
    ParkingWindow p(ini(), 6000, ParkingChoice::Automatic); // nothing goes out during the test
    QAbstractItemModelTester tester(p.queue());
    p.window().attachHistory(&writer, false);
    writer.open(path);
    QSignalSpy opened(p.window().historyController(), &HistoryController::opened);
    QVERIFY(opened.wait(5000));

    QVERIFY(p.sendUntilGaveUp(u"First conversation's question"_s));
    QTRY_COMPARE(p.lot()->count(), 1);
    const QUuid first = p.window().session()->conversationId();
    QVERIFY(!first.isNull());
    p.window().historyController()->newConversation();
    QVERIFY(p.sendUntilGaveUp(u"Second one, about caps"_s));
    QTRY_COMPARE(p.lot()->count(), 2);
    const QUuid second = p.window().session()->conversationId();
    QVERIFY(second != first);

    // Both listed, titled from the history; the tab counts them.
    QCOMPARE(p.queueTab(), u"&Queue (2)"_s);
    ParkedQueueModel *queue = p.queue();
    QCOMPARE(queue->rowCount(), 2);
    const int firstRow = rowOf(queue, first);
    const int secondRow = rowOf(queue, second);
    QVERIFY(firstRow >= 0 && secondRow >= 0);
    QTRY_COMPARE(queue->index(firstRow, ParkedQueueModel::ConversationColumn).data().toString(),
        u"First conversation's question"_s);
    QTRY_COMPARE(queue->index(secondRow, ParkedQueueModel::ConversationColumn).data().toString(),
        u"Second one, about caps"_s);
    for (int row = 0; row < 2; ++row) {
        QCOMPARE(queue->index(row, ParkedQueueModel::StateColumn).data().toString(), u"waiting"_s);
        QCOMPARE(queue->index(row, ParkedQueueModel::ProviderColumn).data().toString(),
            u"Demo provider"_s);
    }
    // In the order they go out.
    QVERIFY(queue->sendAt(0).dueAt <= queue->sendAt(1).dueAt);

    // The Queue tab from the keyboard: Enter on the first row opens its conversation, with its
    // parked card.
    QTabWidget *tabs = testing::widgets::tabs(p.window());
    tabs->setCurrentWidget(p.queueView());
    QTableView *table = p.queueView()->table();
    QVERIFY(table->isVisible());
    QVERIFY(!p.queueView()->emptyLabel()->isVisible());
    QCOMPARE(table->accessibleName(), u"Parked sends"_s);
    table->setFocus();
    table->setCurrentIndex(queue->index(firstRow, 0));
    QTest::keyClick(table, Qt::Key_Return);
    QTRY_COMPARE(p.window().session()->conversationId(), first);
    QTRY_VERIFY(!p.presenter()->filling() && p.parkedCard() >= 0);
    QCOMPARE(promptsShown(p.view()), QStringList { u"First conversation's question"_s });
    QVERIFY(p.cardText(p.parkedCard()).contains(u"Parked until "_s));
    QCOMPARE(p.panel()->state(), RetryPanel::State::Parked);
    QVERIFY(p.window().session()->sendState().isParked());

    // Cancel the other conversation's send from the Queue: the row goes, this one stays.
    p.queueView()->selectSend(
        queue->index(rowOf(queue, second), 0).data(ParkedQueueModel::IdRole).toUuid());
    QVERIFY(p.queueView()->cancelButton()->isEnabled());
    QTest::mouseClick(p.queueView()->cancelButton(), Qt::LeftButton);
    QCOMPARE(queue->rowCount(), 1);
    QCOMPARE(queue->index(0, 0).data(ParkedQueueModel::ConversationRole).toUuid(), first);
    QCOMPARE(p.queueTab(), u"&Queue (1)"_s);
    QVERIFY(p.parkedCard() >= 0);

    // And this one from its card: the Queue says nothing is parked.
    QVERIFY(p.click(u"Cancel"_s));
    QCOMPARE(queue->rowCount(), 0);
    QVERIFY(p.queueView()->emptyLabel()->isVisible());
    QVERIFY(p.queueView()->emptyLabel()->text().startsWith(u"Nothing is parked."_s));
    QVERIFY(!table->isVisible());
}

void TestParkingWindow::anotherConversationsSendEndsWithTheHook()
{
    const QString path = db();
    history::HistoryWriter writer;
    ParkingWindow p(ini(), 300, ParkingChoice::Automatic);
    p.window().attachHistory(&writer, false);
    writer.open(path);
    QSignalSpy opened(p.window().historyController(), &HistoryController::opened);
    QVERIFY(opened.wait(5000));
    QSignalSpy ended(p.window().parkingController(), &ParkingController::parkedSendEnded);
    DesktopNotifier *notifier = p.window().parkingController()->notifier();
    notifier->setEnabled(false); // told, never shown on the desktop of whoever runs the test
    QSignalSpy notified(notifier, &DesktopNotifier::notified);
    HistorySidebar *sidebar = historySidebar(p.window());

    QVERIFY(p.sendUntilGaveUp(u"Answer me while I look elsewhere"_s));
    QTRY_COMPARE(p.lot()->count(), 1);
    const QUuid first = p.window().session()->conversationId();
    QTRY_VERIFY(sidebar->model()->isParked(first)); // the sidebar's parked mark follows the lot
    p.window().historyController()->newConversation();

    // At the reset the lot sends it in a session of its own; the window hears that it ended.
    QVERIFY(ended.wait(15000));
    const QList<QVariant> args = ended.constFirst();
    QCOMPARE(args.at(0).toUuid(), first);
    QCOMPARE(args.at(1).toString(), u"Answer me while I look elsewhere"_s);
    QCOMPARE(args.at(2).toBool(), true); // answered
    QCOMPARE(args.at(3).toBool(), false); // not parked again
    QCOMPARE(p.lot()->count(), 0);
    QCOMPARE(p.chats().size(), 4);
    // Told: a desktop notification (offscreen there is no tray: only reported) and the unread
    // mark on its row; the parked mark is gone.
    QTRY_COMPARE(notified.size(), 1);
    QCOMPARE(notified.constFirst().at(0).toString(), u"Answer me while I look elsewhere"_s);
    QCOMPARE(notified.constFirst().at(1).toString(), u"The parked send was answered."_s);
    QCOMPARE(notifier->shownCount(), 0);
    QVERIFY(sidebar->model()->isUnread(first));
    QVERIFY(!sidebar->model()->isParked(first));
    // The window still shows the new conversation, untouched.
    QVERIFY(p.window().session()->conversationId().isNull());
    QCOMPARE(p.view()->turnCount(), 0);

    // Opened, the conversation shows the answer that came meanwhile.
    p.window().historyController()->openConversation(first);
    QTRY_VERIFY(p.view()->lastAssistantTurn() >= 0 && !p.presenter()->filling());
    QVERIFY(p.view()
                ->assistantText(p.view()->lastAssistantTurn())
                .startsWith(u"Hello from the capwatch demo provider!"_s));
    QCOMPARE(p.parkedCard(), -1);
}

void TestParkingWindow::answerFromTheLotsSessionIsShown()
{
    const QString path = db();
    history::HistoryWriter writer;
    ParkingWindow p(ini(), 300, ParkingChoice::Automatic);
    demo::DemoOptions o = p.w.demo.provider()->options();
    o.chunkDelayMs = 20'000; // the answer streams for a few seconds of wall time
    p.w.demo.provider()->setOptions(o);
    p.window().attachHistory(&writer, false);
    writer.open(path);
    QSignalSpy opened(p.window().historyController(), &HistoryController::opened);
    QVERIFY(opened.wait(5000));

    QVERIFY(p.sendUntilGaveUp(u"Show me the answer when it comes"_s));
    QTRY_COMPARE(p.lot()->count(), 1);
    const QUuid first = p.window().session()->conversationId();
    const QUuid parked = p.lot()->sends().constFirst().id;
    p.window().historyController()->newConversation();
    // At the reset it goes out in a session of the lot's own; the window opens it meanwhile.
    QTRY_VERIFY_WITH_TIMEOUT(p.lot()->isRunning(parked) && p.chats().size() == 4, 10000);
    p.window().historyController()->openConversation(first);
    QTRY_VERIFY(p.window().session()->conversationId() == first && !p.presenter()->filling());
    QVERIFY(p.lot()->isRunning(parked));
    QVERIFY(
        p.cardText(p.failedCard())
            .contains(u"Sending now that the limit reset; the answer shows here when it comes."_s));
    QVERIFY(p.view()->errorCard(p.failedCard()).links.isEmpty());
    QVERIFY(!retryNowButton(p.window())->isVisible()); // it would send it twice
    // Nothing else is sent in it meanwhile: two sessions would interleave its messages.
    QTRY_VERIFY(!sendButton(p.window())->isEnabled());
    QVERIFY(p.window().parkingController()->shownSentElsewhere());

    // It ends: the conversation is read again, with its answer in the card's place.
    QTRY_COMPARE_WITH_TIMEOUT(p.lot()->count(), 0, 15000);
    QTRY_VERIFY_WITH_TIMEOUT(p.view()->lastAssistantTurn() >= 0 && !p.presenter()->filling(), 5000);
    QVERIFY(p.view()
                ->assistantText(p.view()->lastAssistantTurn())
                .startsWith(u"Hello from the capwatch demo provider!"_s));
    QCOMPARE(p.view()->lastItem(), p.view()->lastAssistantTurn());
    QCOMPARE(promptsShown(p.view()), QStringList { u"Show me the answer when it comes"_s });
    QCOMPARE(p.chats().size(), 4); // sent once, by the lot's session
    QTRY_VERIFY(sendButton(p.window())->isEnabled());
}

void TestParkingWindow::lotSendsWithItsConversationsProfile()
{
    // Work and Personal on the same endpoint, with different keys: X (Work) is parked, Y
    // (Personal) is shown at the reset. X's prompt goes out with Work's key and header.
    const QString path = db();
    history::HistoryWriter writer;
    ProfileParkingWindow p(ini(), true);
    QVERIFY(p.openHistory(writer, path));
    QSignalSpy ended(p.window->parkingController(), &ParkingController::parkedSendEnded);

    p.send(u"Parked with Work's key"_s);
    QTRY_COMPARE_WITH_TIMEOUT(p.lot()->count(), 1, 15000);
    const QUuid x = p.window->session()->conversationId();
    QVERIFY(!x.isNull());
    QCOMPARE(p.lot()->profileOf(p.lot()->sends().constFirst().id), u"work"_s);
    QCOMPARE(testing::DemoWindow::chatRequests(p.work).size(), 3);
    QVERIFY(!p.work.sawKey(kHomeKey));

    // Y: a new conversation, switched to Personal.
    p.window->historyController()->newConversation();
    p.window->profileController()->setProfile(u"home"_s);
    QCOMPARE(p.window->chosenProvider().profileName, u"Personal"_s);

    QVERIFY(ended.wait(15000));
    QCOMPARE(ended.constFirst().at(0).toUuid(), x);
    QCOMPARE(ended.constFirst().at(2).toBool(), true); // answered
    QCOMPARE(p.lot()->count(), 0);
    const QList<demo::RecordedRequest> chats = testing::DemoWindow::chatRequests(p.work);
    QCOMPARE(chats.size(), 4);
    QCOMPARE(chats.last().lastUserMessage(), u"Parked with Work's key"_s);
    QCOMPARE(chats.last().header("X-Profile"), QByteArray("work"));
    QCOMPARE(chats.last().header("Authorization"), QByteArray("Bearer ***"));
    QVERIFY(p.work.sawKey(kWorkKey));
    QVERIFY(!p.work.sawKey(kHomeKey)); // Personal's key never went out
    QVERIFY(p.window->session()->conversationId().isNull()); // Y still shown

    // The history: the `unparked` record and the answer name Work; X keeps its profile.
    QVERIFY(testing::flushed(writer));
    history::HistoryStore store;
    QVERIFY(store.open(path).persistent());
    const QList<history::StoredRetryRecord> records = store.retryRecords(x);
    const auto unparked = std::find_if(records.cbegin(), records.cend(),
        [](const history::StoredRetryRecord &r) { return r.record.event == u"unparked"_s; });
    QVERIFY(unparked != records.cend());
    QCOMPARE(unparked->record.unpark, u"reset_reached"_s);
    QCOMPARE(unparked->record.profile, u"Work"_s);
    for (const history::StoredRetryRecord &r : records)
        QVERIFY2(r.record.profile == u"Work"_s, qPrintable(r.record.event));
    const QList<history::Message> messages = store.messages(x);
    QVERIFY(!messages.isEmpty());
    QCOMPARE(messages.last().role, history::Role::Assistant);
    QCOMPARE(messages.last().profile, u"Work"_s);
    QCOMPARE(store.conversation(x)->profile, u"work"_s);
}

void TestParkingWindow::lotSendsToItsProfilesEndpoint()
{
    // Work and Personal on different endpoints: with Personal shown at the reset, X's parked
    // send goes to Work's endpoint (it used to wait for Work to be shown), never to Personal's.
    const QString path = db();
    history::HistoryWriter writer;
    ProfileParkingWindow p(ini(), false);
    QVERIFY(p.openHistory(writer, path));
    QSignalSpy ended(p.window->parkingController(), &ParkingController::parkedSendEnded);

    p.send(u"Only to Work's endpoint"_s);
    QTRY_COMPARE_WITH_TIMEOUT(p.lot()->count(), 1, 15000);
    const QUuid x = p.window->session()->conversationId();
    const QUuid parked = p.lot()->sends().constFirst().id;
    p.window->historyController()->newConversation();
    p.window->profileController()->setProfile(u"home"_s);
    QCOMPARE(p.window->session()->provider().lane(),
        session::ParkingLot::laneOf(p.window->chosenProvider()));

    QVERIFY(ended.wait(15000));
    QVERIFY(!p.lot()->waitsForProvider(parked));
    QCOMPARE(ended.constFirst().at(0).toUuid(), x);
    QCOMPARE(ended.constFirst().at(2).toBool(), true);
    const QList<demo::RecordedRequest> chats = testing::DemoWindow::chatRequests(p.work);
    QCOMPARE(chats.size(), 4);
    QCOMPARE(chats.last().lastUserMessage(), u"Only to Work's endpoint"_s);
    QCOMPARE(chats.last().header("X-Profile"), QByteArray("work"));
    QVERIFY(!p.work.sawKey(kHomeKey));
    QVERIFY(testing::DemoWindow::chatRequests(p.home).isEmpty());
    QVERIFY(!p.home.sawKey(kWorkKey));
}

void TestParkingWindow::sendNowAsksForThePlainHttpConsent_data()
{
    QTest::addColumn<bool>("due");
    QTest::addColumn<bool>("fromQueue");
    QTest::newRow("due, its card") << true << false;
    QTest::newRow("not due yet, its card") << false << false;
    QTest::newRow("due, the Queue, another conversation shown") << true << true;
}

void TestParkingWindow::sendNowAsksForThePlainHttpConsent()
{
    QFETCH(bool, due);
    QFETCH(bool, fromQueue);
    // A parked send of the profile "LAN box", plain HTTP to another machine with a key
    // (TEST-NET-1: never answered here), due already: its card says it waits for the consent,
    // not for its provider; Send now asks, Cancel sends nothing, Send anyway sends it.
    qputenv("CAPWATCH_TEST_LAN_KEY", "sk-lan-0123456789");
    const QString path = db();
    ProfileParkingWindow p(ini(), true);
    session::ProfileSet set = p.window->profileController()->profiles();
    set.profiles.append(keyedProfile(
        u"lan"_s, u"LAN box"_s, QUrl(u"http://192.0.2.10:8000/v1"_s), u"CAPWATCH_TEST_LAN_KEY"_s));
    p.window->profileController()->setProfiles(set);
    const session::ProviderChoice lan = set.find(u"lan"_s)->choice();
    QCOMPARE(lan.profileName, u"LAN box"_s);

    // Planted as a window of an earlier run would have left it.
    QUuid conversation;
    QUuid parkedId;
    {
        history::HistoryWriter planter;
        QVERIFY(testing::openedAt(planter, path));
        history::Conversation c;
        c.title = u"On the LAN"_s;
        c.endpoint = lan.endpoint.toString();
        c.model = lan.model;
        c.profile = u"lan"_s;
        conversation = planter.addConversation(c);
        history::Message m;
        m.conversation = conversation;
        m.text = u"Over plain HTTP"_s;
        const QUuid message = planter.addMessage(m);
        history::Send send;
        send.conversation = conversation;
        send.message = message;
        send.outcome = history::SendOutcome::GaveUp;
        send.reason = retry::EndReason::BudgetExhausted;
        history::ParkedSend parked;
        parked.send = planter.addSend(send);
        parked.conversation = conversation;
        parked.message = message;
        parked.provider = session::ParkingLot::laneOf(lan);
        parked.model = lan.model;
        parked.parkedAt = QDateTime::currentDateTimeUtc().addSecs(-60);
        parked.dueAt = QDateTime::currentDateTimeUtc().addSecs(due ? -1 : 3600);
        parked.resetAt = parked.dueAt;
        parkedId = planter.addParkedSend(parked);
        QVERIFY(testing::flushed(planter));
    }
    history::HistoryWriter writer;
    QVERIFY(p.openHistory(writer, path));
    QTRY_COMPARE_WITH_TIMEOUT(p.lot()->count(), 1, 5000);
    session::ChatSession *chat = p.window->session();
    ConversationPresenter *presenter = testing::widgets::presenter(*p.window);
    ConversationView *view = testing::widgets::conversation(*p.window);
    ParkedQueueModel *queue = p.window->parkingController()->queueModel();
    QCOMPARE(queue->rowCount(), 1);
    const auto sendNow = [&] { return clickLink(view, u"Send now"_s); };
    if (fromQueue) {
        // Another conversation shown: the lot finds it waits for the consent (without a session
        // of its own made for it every second), and the Queue's Send now opens it, which asks.
        QVERIFY(chat->conversationId() != conversation);
        QTRY_VERIFY_WITH_TIMEOUT(p.lot()->waitsForConsent(parkedId), 5000);
        QCOMPARE(queue->index(0, 0).data(ParkedQueueModel::StateRole).toInt(),
            int(session::ParkedState::WaitsForConsent));
        QTest::qWait(1200); // a check of the lot's came meanwhile: still waiting, not sending
        QVERIFY(!p.lot()->isRunning(parkedId));
        ParkedQueueView *queueView = p.window->parkingController()->queueView();
        queueView->table()->selectRow(0);
        QVERIFY(queueView->sendNowButton()->isEnabled());
        queueView->sendNowButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(chat->conversationId(), conversation, 5000);
    } else {
        p.window->historyController()->openConversation(conversation);
        QTRY_COMPARE_WITH_TIMEOUT(chat->conversationId(), conversation, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(presenter->parkedCard() >= 0, 5000);
        if (due) {
            QTRY_VERIFY_WITH_TIMEOUT(p.lot()->waitsForConsent(parkedId), 5000);
            QVERIFY(!p.lot()->waitsForProvider(parkedId));
            // The card and the queue say what it waits for; not "it goes out by itself".
            const QString card = view->errorCardText(presenter->parkedCard());
            QVERIFY2(card.contains(u"Waiting for your consent to send the key unencrypted to "
                                   "http://192.0.2.10:8000/v1"_s),
                qPrintable(card));
            QVERIFY2(card.contains(u"It goes out once you agree: Send now asks first."_s),
                qPrintable(card));
            QCOMPARE(queue->index(0, 0).data(ParkedQueueModel::StateRole).toInt(),
                int(session::ParkedState::WaitsForConsent));
        } else {
            QVERIFY(!p.lot()->waitsForConsent(parkedId));
            QVERIFY2(view->errorCardText(presenter->parkedCard()).contains(u"Parked until"_s),
                qPrintable(view->errorCardText(presenter->parkedCard())));
        }
        QVERIFY(chat->provider().needsPlainHttpConsent());
        QVERIFY(!chat->busy());
        // Send now asks at the first click, due or not yet.
        QVERIFY(sendNow());
    }
    // From here on every request to a host that is not this machine goes through a proxy,
    // which holds it: it sees what would have reached the LAN host (Qt never sends loopback
    // requests, the demo's, through a proxy).
    testing::LoopbackServer proxy(QByteArray {});
    QVERIFY(proxy.listen());
    QNetworkProxy::setApplicationProxy(
        QNetworkProxy(QNetworkProxy::HttpProxy, u"127.0.0.1"_s, proxy.port()));
    const auto restore = qScopeGuard(
        [] { QNetworkProxy::setApplicationProxy(QNetworkProxy(QNetworkProxy::NoProxy)); });
    QPointer<QMessageBox> box = p.window->findChild<QMessageBox *>(u"plainHttpWarning"_s);
    QVERIFY(box);
    QTRY_VERIFY(box->isVisible());
    QVERIFY2(box->text().contains(u"http://192.0.2.10:8000/v1/chat/completions"_s),
        qPrintable(box->text()));
    QVERIFY(!chat->busy());
    QVERIFY(!p.lot()->isRunning(parkedId));
    auto *cancel = box->findChild<QPushButton *>(u"cancel"_s);
    QVERIFY(cancel);
    cancel->click();
    QTRY_VERIFY(!box || !box->isVisible());
    QTest::qWait(300);
    QVERIFY(!chat->busy());
    QVERIFY(!p.lot()->isRunning(parkedId));
    QCOMPARE(p.lot()->waitsForConsent(parkedId), due);
    QCOMPARE(proxy.connections(), 0); // Cancel sent nothing

    // Asked again, Send anyway: it goes out, to its own endpoint.
    QVERIFY(sendNow());
    box = p.window->findChild<QMessageBox *>(u"plainHttpWarning"_s);
    QVERIFY(box);
    QTRY_VERIFY(box->isVisible());
    auto *anyway = box->findChild<QPushButton *>(u"sendAnyway"_s);
    QVERIFY(anyway);
    anyway->click();
    QTRY_VERIFY_WITH_TIMEOUT(p.lot()->isRunning(parkedId), 5000);
    QVERIFY(!p.lot()->waitsForConsent(parkedId));
    QVERIFY(chat->busy());
    QCOMPARE(chat->provider().lane(), session::ParkingLot::laneOf(lan));
    QVERIFY(testing::DemoWindow::chatRequests(p.work).isEmpty());
    // The parked prompt reached its own endpoint, with the profile's key.
    QTRY_COMPARE_WITH_TIMEOUT(proxy.heads().size(), 1, 10000);
    const QByteArray differs = proxy.firstRequestDiffers(
        "http://192.0.2.10:8000/v1/chat/completions", "sk-lan-0123456789", "Over plain HTTP");
    QVERIFY2(differs.isEmpty(), differs.constData());
    chat->stop();
    qunsetenv("CAPWATCH_TEST_LAN_KEY");
}

QTEST_MAIN(TestParkingWindow)
#include "tst_parkingwindow.moc"
