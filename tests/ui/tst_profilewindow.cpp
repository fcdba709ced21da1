// The window with provider profiles (issue 17), offscreen, time-scaled: a profile's numbers in
// the retry panel, the timeline and the failed card; the profile combo switching where the next
// send goes; the fallback of a capped send offered on its card, answered by the second profile,
// marked with it, and drawn as a switch in the timeline; an automatic fallback said in the
// conversation.
//
// Two providers: the embedded demo ("Free tier", capped, 3 attempts, 5 s per wait, 12 s budget)
// and a second DemoProvider started here ("Paid key", uncapped), each asserting what it got.

#include "demo/demoprovider.h"
#include "support/demowindow.h"
#include "support/viewlinks.h"
#include "support/windowwidgets.h"
#include "ui/conversation/conversationpresenter.h"
#include "ui/conversation/conversationview.h"
#include "ui/panel/retrypanel.h"
#include "ui/profiles/profilecontroller.h"
#include "ui/profiles/providerspage.h"
#include "ui/settings/settingsdialog.h"
#include "ui/timeline/timelinewidget.h"
#include "ui/window/mainwindow.h"

#include <QAccessible>
#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace capwatch;
using namespace capwatch::ui;
using namespace Qt::StringLiterals;
using namespace capwatch::testing::widgets;
using capwatch::testing::clickLink;

namespace {

constexpr double kScale = 0.02; // a 5 s wait takes 0.1 s

session::ProfileSet twoProfiles(const QUrl &paidUrl, bool autoFallback = false)
{
    session::ProviderProfile free;
    free.id = u"free"_s;
    free.name = u"Free tier"_s;
    free.builtInDemo = true;
    free.overrides.maxAttempts = 3;
    free.overrides.waitCapS = 5;
    free.overrides.budgetS = 12;
    free.fallback = u"paid"_s;
    free.autoFallback = autoFallback;

    session::ProviderProfile paid;
    paid.id = u"paid"_s;
    paid.name = u"Paid key"_s;
    paid.endpoint = paidUrl;
    paid.model = u"capwatch-demo"_s;
    paid.keySource = session::ProviderChoice::KeySource::Environment;
    paid.keyVariable.clear(); // a loopback endpoint needs no key

    session::ProfileSet set;
    set.profiles = { free, paid };
    set.defaultProfile = free.id;
    return set;
}

/// The window on the embedded demo (Free tier) with a second provider (Paid key).
struct ProfileWindow
{
    explicit ProfileWindow(const QString &ini, bool autoFallback = false)
        : ProfileWindow(
            [&](const QUrl &paidUrl) { return twoProfiles(paidUrl, autoFallback); }, ini)
    { }
    /// With the profiles `make` gives for the Paid key's URL; `forceDemo`: as with --demo.
    ProfileWindow(const std::function<session::ProfileSet(const QUrl &)> &make, const QString &ini,
        bool forceDemo = false)
        : settings(ini)
    {
        paid.listen();
        demo::DemoOptions o = paid.options();
        o.limit = 1'000'000'000; // never capped
        paid.setOptions(o);
        LaunchOptions options;
        options.timeScale = kScale;
        options.forceDemo = forceDemo;
        window = std::make_unique<MainWindow>(settings, options, &hook);
        window->profileController()->setProfiles(make(paid.baseUrl()));
        window->show();
    }
    void setScenario(const QString &scenario)
    {
        demo::DemoOptions o = hook.provider()->options();
        o.scenario = scenario;
        hook.provider()->setOptions(o);
    }
    void send(const QString &text)
    {
        promptEditor(*window)->setPlainText(text);
        window->controller()->sendPrompt();
    }
    /// The embedded demo starts when a send first goes to it.
    int freeChats() const
    {
        return hook.provider() ? int(testing::DemoWindow::chatRequests(*hook.provider()).size())
                               : 0;
    }
    int paidChats() const { return testing::DemoWindow::chatRequests(paid).size(); }

    Settings settings;
    demo::DemoProvider paid;
    testing::DemoHook hook;
    std::unique_ptr<MainWindow> window;
};

/// The session ran the send under the profile's numbers (the session's part of issue 17):
/// its first scheduled wait is the profile's 5 s cap, not the default 60 s.
bool sessionUsesProfileLimits(const MainWindow &window)
{
    for (const net::RetryRecord &r : window.session()->retryLog()->records()) {
        if (r.event == net::RetryRecord::Event::RetryScheduled && r.waitMs)
            return *r.waitMs <= 5000;
    }
    return false;
}

} // namespace

class TestProfileWindow final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void comboListsTheProfiles();
    void idleNumbersAreTheProfiles();
    void cappedSendShowsTheProfilesNumbers();
    void comboSwitchesTheNextSend();
    void fallbackCardOffersTheSwitch();
    void fallbackAnswersAndIsMarked();
    void fallbackOverPlainHttpAsksFirst();
    void automaticFallbackSaysSo();
    void fallbacksSendShowsItsOwnNumbers_data();
    void fallbacksSendShowsItsOwnNumbers();
    void settingsDuringAFallbacksSend_data();
    void settingsDuringAFallbacksSend();

private:
    QTemporaryDir m_dir;
    int m_n = 0;
    QString ini() { return m_dir.filePath(u"capwatch-%1.conf"_s.arg(++m_n)); }
};

void TestProfileWindow::initTestCase()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QVERIFY(m_dir.isValid());
}

void TestProfileWindow::comboListsTheProfiles()
{
    ProfileWindow w(ini());
    QComboBox *combo = profileCombo(*w.window);
    QCOMPARE(combo->objectName(), u"profileCombo"_s);
    QCOMPARE(combo->count(), 2);
    QCOMPARE(combo->itemText(0), u"Free tier"_s);
    QCOMPARE(combo->itemText(1), u"Paid key"_s);
    QCOMPARE(combo->currentText(), u"Free tier"_s); // the default profile
    QCOMPARE(combo->accessibleName(), u"Provider profile"_s);
    QCOMPARE(w.window->profileController()->label()->buddy(), combo);
    QVERIFY(w.window->profileController()->label()->text().contains(u'&'));
    QVERIFY2(w.window->statusText().startsWith(u"Profile: Free tier | "_s),
        qPrintable(w.window->statusText()));

    // Ctrl+Shift+P reaches it from the prompt.
    promptEditor(*w.window)->setFocus();
    QTRY_VERIFY(promptEditor(*w.window)->hasFocus());
    QTest::keyClick(promptEditor(*w.window), Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY(combo->hasFocus());
    // And Tab does, from the prompt's buttons (Stop and Retry now are hidden while idle).
    sendButton(*w.window)->setFocus();
    QTRY_VERIFY(sendButton(*w.window)->hasFocus());
    QTest::keyClick(sendButton(*w.window), Qt::Key_Tab);
    QTRY_VERIFY(combo->hasFocus());
}

void TestProfileWindow::idleNumbersAreTheProfiles()
{
    ProfileWindow w(ini());
    RetryPanel *panel = retryPanel(*w.window);
    QCOMPARE(panel->limits().maxAttempts, 3);
    QCOMPARE(panel->budgetText(), u"12.0 s of 12 s"_s);
    TimelineWidget *timeline = testing::widgets::timeline(*w.window);
    QCOMPARE(timeline->budgetS(), 12.0);
    QCOMPARE(timeline->capS(), 5.0);
    // The axis ends at 12 s: anything beyond is drawn at its end.
    QCOMPARE(timeline->xForSeconds(12), timeline->xForSeconds(120));
    QVERIFY(timeline->xForSeconds(6) < timeline->xForSeconds(12));
    QVERIFY(timeline->accessibleDescription().contains(u"12 s"_s));

    // The other profile has the defaults.
    w.window->profileController()->setProfile(u"paid"_s);
    QCOMPARE(panel->budgetText(), u"120.0 s of 120 s"_s);
    QCOMPARE(timeline->budgetS(), 120.0);
}

void TestProfileWindow::cappedSendShowsTheProfilesNumbers()
{
    ProfileWindow w(ini());
    w.setScenario(u"headline"_s); // 422 asking 18 min, every time
    RetryPanel *panel = retryPanel(*w.window);
    w.send(u"Please answer"_s);
    QTRY_COMPARE_WITH_TIMEOUT(panel->state(), RetryPanel::State::Waiting, 10000);
    QCOMPARE(panel->attemptText(), u"2 of 3"_s);
    QVERIFY2(panel->budgetText().endsWith(u" s of 12 s"_s), qPrintable(panel->budgetText()));
    QTRY_COMPARE_WITH_TIMEOUT(panel->state(), RetryPanel::State::GaveUp, 15000);
    QVERIFY(sessionUsesProfileLimits(*w.window));
    QCOMPARE(panel->attemptText(), u"3 of 3"_s);
    QVERIFY2(
        panel->stateText().contains(u"all 3 attempts failed"_s), qPrintable(panel->stateText()));
    const QString md = conversation(*w.window)->toMarkdown();
    QVERIFY2(md.contains(u"all 3 attempts failed"_s), qPrintable(md));
    QCOMPARE(w.freeChats(), 3);
    QCOMPARE(w.paidChats(), 0);
    // The timeline's lane waited 5 and 5 on the 12 s axis.
    const QList<TimelineLane> &lanes = timeline(*w.window)->lanes();
    QCOMPARE(lanes.size(), 1);
    QCOMPARE(lanes[0].endS(), 10.0);
}

void TestProfileWindow::comboSwitchesTheNextSend()
{
    ProfileWindow w(ini());
    QComboBox *combo = profileCombo(*w.window);
    QSignalSpy changed(w.window->profileController(), &ProfileController::profileChanged);
    // As a user picks it: the keyboard on the combo.
    combo->setFocus();
    QTest::keyClick(combo, Qt::Key_Down);
    QCOMPARE(combo->currentText(), u"Paid key"_s);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(w.window->profileController()->currentId(), u"paid"_s);
    QCOMPARE(w.window->session()->provider().endpoint().port(), int(w.paid.port()));
    QVERIFY(!w.window->session()->provider().usingDemo());
    QVERIFY2(w.window->statusText().startsWith(u"Profile: Paid key | "_s),
        qPrintable(w.window->statusText()));

    w.send(u"Hello there"_s);
    QTRY_COMPARE_WITH_TIMEOUT(retryPanel(*w.window)->state(), RetryPanel::State::Succeeded, 10000);
    QCOMPARE(w.paidChats(), 1);
    QCOMPARE(w.freeChats(), 0);
    // The profile's own answer is not marked.
    QVERIFY(!conversation(*w.window)->toMarkdown().contains(u"via Paid key"_s));

    // Back to the free tier: the next send goes to the embedded demo.
    combo->setFocus();
    QTest::keyClick(combo, Qt::Key_Up);
    QCOMPARE(w.window->profileController()->currentId(), u"free"_s);
    w.setScenario(u"capped"_s);
    demo::DemoOptions o = w.hook.provider()->options();
    o.limit = 1'000'000'000;
    w.hook.provider()->setOptions(o);
    w.send(u"And again"_s);
    QTRY_COMPARE_WITH_TIMEOUT(retryPanel(*w.window)->state(), RetryPanel::State::Succeeded, 10000);
    QCOMPARE(w.freeChats(), 1);
    QCOMPARE(w.paidChats(), 1);
}

void TestProfileWindow::fallbackCardOffersTheSwitch()
{
    ProfileWindow w(ini());
    w.setScenario(u"headline"_s);
    w.send(u"Please answer"_s);
    QTRY_COMPARE_WITH_TIMEOUT(retryPanel(*w.window)->state(), RetryPanel::State::GaveUp, 15000);
    ConversationPresenter *presenter = testing::widgets::presenter(*w.window);
    QVERIFY(presenter->fallbackOffer().offered);
    QVERIFY(presenter->fallbackCard() >= 0);
    const QString card = conversation(*w.window)->errorCardText(presenter->fallbackCard());
    QVERIFY2(card.contains(u"Send to Paid key instead"_s), qPrintable(card));
    QVERIFY2(card.contains(u"Retry now"_s), qPrintable(card));
    QSignalSpy asked(presenter, &ConversationPresenter::sendToFallbackRequested);
    QVERIFY(clickLink(conversation(*w.window), u"Send to Paid key instead"_s));
    QCOMPARE(asked.size(), 1);
}

void TestProfileWindow::fallbackAnswersAndIsMarked()
{
    ProfileWindow w(ini());
    w.setScenario(u"headline"_s);
    w.send(u"Please answer"_s);
    QTRY_COMPARE_WITH_TIMEOUT(retryPanel(*w.window)->state(), RetryPanel::State::GaveUp, 15000);
    ConversationPresenter *presenter = testing::widgets::presenter(*w.window);
    QVERIFY(presenter->fallbackOffer().offered);
    const int freeBefore = w.freeChats();
    QVERIFY(clickLink(conversation(*w.window), u"Send to Paid key instead"_s));
    QTRY_COMPARE_WITH_TIMEOUT(retryPanel(*w.window)->state(), RetryPanel::State::Succeeded, 10000);
    QCOMPARE(w.paidChats(), 1);
    QCOMPARE(w.freeChats(), freeBefore);
    QCOMPARE(
        testing::DemoWindow::chatRequests(w.paid).first().lastUserMessage(), u"Please answer"_s);
    // The answer is marked with the profile that gave it.
    const QString md = conversation(*w.window)->toMarkdown();
    QVERIFY2(conversation(*w.window)->toPlainText().contains(u"via Paid key"_s), qPrintable(md));
    // The timeline shows the switch after the capped lane.
    const QList<TimelineLane> &lanes = timeline(*w.window)->lanes();
    QVERIFY(lanes.size() >= 2);
    QCOMPARE(lanes[0].fallbackTo, u"Paid key"_s);
    QVERIFY2(timeline(*w.window)->accessibleDescription().contains(u"went to Paid key instead"_s),
        qPrintable(timeline(*w.window)->accessibleDescription()));
    QCOMPARE(lanes.last().outcome, TimelineLane::Outcome::Succeeded);
    // The panel's provider window is the one of the provider that answered (issue 25.8): the
    // Paid key's limit of 1,000,000,000 tokens, not the capped demo's 6,000.
    const QString window = retryPanel(*w.window)->providerWindowText();
    QVERIFY2(window.contains(u"of 1,000,000,000"_s), qPrintable(window));
}

void TestProfileWindow::fallbackOverPlainHttpAsksFirst()
{
    // The fallback "LAN box" is plain HTTP to a host that is not this machine, with a key: the
    // click asks first and, cancelled, sends nothing. (192.0.2.10 is TEST-NET-1: never
    // contacted here.)
    qputenv("CAPWATCH_TST_LAN_KEY", "sk-lan-test-key");
    ProfileWindow w(
        [](const QUrl &paidUrl) {
            session::ProfileSet set = twoProfiles(paidUrl);
            session::ProviderProfile lan = set.profiles.at(1);
            lan.id = u"lan"_s;
            lan.name = u"LAN box"_s;
            lan.endpoint = QUrl(u"http://192.0.2.10:8000/v1"_s);
            lan.keyVariable = u"CAPWATCH_TST_LAN_KEY"_s;
            set.profiles.append(lan);
            set.profiles[0].fallback = lan.id;
            return set;
        },
        ini());
    w.setScenario(u"headline"_s);
    w.send(u"Please answer"_s);
    QTRY_COMPARE_WITH_TIMEOUT(retryPanel(*w.window)->state(), RetryPanel::State::GaveUp, 15000);
    session::ChatSession *chat = w.window->session();
    ConversationPresenter *presenter = testing::widgets::presenter(*w.window);
    QVERIFY(presenter->fallbackOffer().offered);
    QVERIFY(!presenter->fallbackOffer().automatic);
    QVERIFY(chat->provider().fallbackNeedsPlainHttpConsent());
    const quint64 sendBefore = chat->currentSend();
    const qsizetype recordsBefore = chat->retryLog()->records().size();
    QCOMPARE(promptEditor(*w.window)->toPlainText(), u"Please answer"_s);

    QVERIFY(clickLink(conversation(*w.window), u"Send to LAN box instead"_s));
    QPointer<QMessageBox> box = w.window->findChild<QMessageBox *>(u"plainHttpWarning"_s);
    QVERIFY(box);
    QTRY_VERIFY(box->isVisible());
    // It names the fallback's endpoint, not the capped profile's.
    QVERIFY2(box->text().contains(u"http://192.0.2.10:8000/v1/chat/completions"_s),
        qPrintable(box->text()));
    QVERIFY2(box->text().contains(u"to 192.0.2.10."_s), qPrintable(box->text()));
    // Nothing went out meanwhile: no send, no `fallback` record, the prompt where it was.
    QVERIFY(!chat->busy());
    QCOMPARE(chat->currentSend(), sendBefore);
    QCOMPARE(chat->retryLog()->records().size(), recordsBefore);
    QCOMPARE(promptEditor(*w.window)->toPlainText(), u"Please answer"_s);
    // Asked again while it is open: the same box, not a second one.
    QVERIFY(clickLink(conversation(*w.window), u"Send to LAN box instead"_s));
    QCOMPARE(w.window->findChildren<QMessageBox *>(u"plainHttpWarning"_s).size(), 1);

    auto *cancel = box->findChild<QPushButton *>(u"cancel"_s);
    QVERIFY(cancel);
    cancel->click();
    QTRY_VERIFY(!box);
    QVERIFY(!chat->busy());
    QCOMPARE(chat->currentSend(), sendBefore);
    QCOMPARE(chat->retryLog()->records().size(), recordsBefore);
    for (const net::RetryRecord &r : chat->retryLog()->records())
        QVERIFY(r.event != net::RetryRecord::Event::Fallback);
    QCOMPARE(promptEditor(*w.window)->toPlainText(), u"Please answer"_s);
    QCOMPARE(chat->failedPrompt(), u"Please answer"_s);
    // Still offered, and still unconsented: the next click asks again.
    QVERIFY(chat->sendState().fallback.offered);
    QVERIFY(chat->provider().fallbackNeedsPlainHttpConsent());
    QCOMPARE(w.paidChats(), 0);
    qunsetenv("CAPWATCH_TST_LAN_KEY");
}

void TestProfileWindow::automaticFallbackSaysSo()
{
    // The Free tier's fallback is automatic: its capped send goes to the Paid key without a
    // question, and the conversation says so, naming both profiles, before the answer comes.
    ProfileWindow w(ini(), true);
    w.setScenario(u"headline"_s);
    w.send(u"Please answer"_s);
    QTRY_COMPARE_WITH_TIMEOUT(retryPanel(*w.window)->state(), RetryPanel::State::Succeeded, 15000);
    QCOMPARE(w.freeChats(), 3);
    QCOMPARE(w.paidChats(), 1);
    QCOMPARE(
        testing::DemoWindow::chatRequests(w.paid).first().lastUserMessage(), u"Please answer"_s);
    ConversationView *view = conversation(*w.window);
    QVERIFY(view->isVisible());
    const QString text = view->toPlainText();
    const QString notice = u"Free tier was capped; sent to Paid key instead"_s;
    QVERIFY2(text.contains(notice), qPrintable(text));
    QCOMPARE(text.count(notice), 1);
    QVERIFY2(text.indexOf(notice) < text.lastIndexOf(u"via Paid key"_s), qPrintable(text));
    // Nothing to click: it went by itself.
    QVERIFY2(!text.contains(u"Send to Paid key instead"_s), qPrintable(text));
}

void TestProfileWindow::fallbacksSendShowsItsOwnNumbers_data()
{
    QTest::addColumn<bool>("forceDemo");
    QTest::addColumn<bool>("paidDefaults"); // the Paid key runs on the default numbers
    QTest::newRow("the conversation's profile") << false << false;
    // --demo: the session's fallback is the demo profile's (Paid key), whatever the
    // conversation's profile ("Other", whose fallback "Third" has 2 attempts).
    QTest::newRow("--demo") << true << false;
    // The default numbers are a send's numbers too, not "none reported".
    QTest::newRow("--demo, the fallback on the defaults") << true << true;
}

void TestProfileWindow::fallbacksSendShowsItsOwnNumbers()
{
    QFETCH(bool, forceDemo);
    QFETCH(bool, paidDefaults);
    const retry::PolicyLimits defaults;
    const int attempts = paidDefaults ? defaults.maxAttempts : 7;
    const int budgetS = paidDefaults ? int(defaults.budget.count() / 1000) : 30;
    ProfileWindow w(
        [=](const QUrl &paidUrl) {
            session::ProfileSet set = twoProfiles(paidUrl);
            if (!paidDefaults) {
                set.profiles[1].overrides.maxAttempts = attempts;
                set.profiles[1].overrides.budgetS = budgetS;
            }
            if (forceDemo) {
                session::ProviderProfile other = set.profiles.at(1);
                other.id = u"other"_s;
                other.name = u"Other"_s;
                other.overrides = {};
                other.fallback = u"third"_s;
                session::ProviderProfile third = other;
                third.id = u"third"_s;
                third.name = u"Third"_s;
                third.fallback.clear();
                third.overrides.maxAttempts = 2;
                third.overrides.budgetS = 8;
                set.profiles << other << third;
                set.defaultProfile = other.id;
            }
            return set;
        },
        ini(), forceDemo);
    w.setScenario(u"headline"_s);
    w.send(u"Please answer"_s);
    RetryPanel *panel = retryPanel(*w.window);
    QTRY_COMPARE_WITH_TIMEOUT(panel->state(), RetryPanel::State::GaveUp, 15000);
    QCOMPARE(panel->attemptText(), u"3 of 3"_s); // the Free tier's numbers
    QVERIFY(presenter(*w.window)->fallbackOffer().offered);
    QCOMPARE(presenter(*w.window)->fallbackOffer().toProfile, u"Paid key"_s);

    QSignalSpy started(w.window->session(), &session::ChatSession::sendStarted);
    QVERIFY(clickLink(conversation(*w.window), u"Send to Paid key instead"_s));
    QCOMPARE(started.size(), 1);
    // From the send's start on: the Paid key's attempts and budget, in the panel and the timeline.
    QCOMPARE(panel->limits().maxAttempts, attempts);
    QCOMPARE(timeline(*w.window)->limits().maxAttempts, attempts);
    QCOMPARE(timeline(*w.window)->budgetS(), double(budgetS));
    QTRY_COMPARE_WITH_TIMEOUT(panel->state(), RetryPanel::State::Succeeded, 10000);
    QCOMPARE(w.paidChats(), 1);
    QCOMPARE(panel->attemptText(), u"1 of %1"_s.arg(attempts));
    QVERIFY2(panel->budgetText().endsWith(u" s of %1 s"_s.arg(budgetS)),
        qPrintable(panel->budgetText()));
    QCOMPARE(timeline(*w.window)->limits().maxAttempts, attempts);
}

void TestProfileWindow::settingsDuringAFallbacksSend_data()
{
    QTest::addColumn<bool>("changeFallback");
    QTest::newRow("the fallback's model changed") << true;
    QTest::newRow("nothing changed") << false;
}

void TestProfileWindow::settingsDuringAFallbacksSend()
{
    QFETCH(bool, changeFallback);
    ProfileWindow w(ini());
    // The capped profile: a second local provider, answering every request with the headline
    // 422 (18 min asked). The dialog shows the settings file's profiles: the window gets the
    // same ones.
    demo::DemoProvider capped;
    QVERIFY(capped.listen());
    demo::DemoOptions co = capped.options();
    co.scenario = u"headline"_s;
    capped.setOptions(co);
    session::ProfileSet set = twoProfiles(w.paid.baseUrl());
    set.profiles[0].builtInDemo = false;
    set.profiles[0].endpoint = capped.baseUrl();
    set.profiles[0].model = u"capwatch-demo"_s;
    set.profiles[0].keyVariable.clear();
    // The fallback's send keeps waiting for 10 attempts (9 waits of 1.2 s here), so that it
    // still runs after the dialog on a loaded machine.
    set.profiles[1].overrides.maxAttempts = 10;
    set.profiles[1].overrides.budgetS = 3600;
    w.settings.setProfiles(set);
    const session::ProfileSet stored = w.settings.profiles();
    QCOMPARE(stored.defaultProfile, u"free"_s);
    QCOMPARE(stored.find(u"free"_s)->fallback, u"paid"_s);
    w.window->profileController()->setProfiles(stored);
    QCOMPARE(w.window->session()->provider().endpoint().port(), int(capped.port()));
    w.send(u"Please answer"_s);
    QTRY_COMPARE_WITH_TIMEOUT(retryPanel(*w.window)->state(), RetryPanel::State::GaveUp, 15000);
    QVERIFY(presenter(*w.window)->fallbackOffer().offered);
    // The Paid key keeps its send waiting: a 422 asking 18 min, capped at its wait cap.
    demo::DemoOptions o = w.paid.options();
    o.scenario = u"headline"_s;
    w.paid.setOptions(o);
    QVERIFY(clickLink(conversation(*w.window), u"Send to Paid key instead"_s));
    session::ChatSession *chat = w.window->session();
    QVERIFY(chat->busy() && chat->sendState().viaFallback);

    QAction *settingsAction = nullptr;
    for (QAction *a : w.window->findChildren<QAction *>()) {
        if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_Comma))
            settingsAction = a;
    }
    QVERIFY(settingsAction);
    settingsAction->trigger();
    auto *dialog = w.window->findChild<SettingsDialog *>(u"settingsDialog"_s);
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->isVisible());
    if (changeFallback) {
        dialog->providersPage()->selectProfile(u"paid"_s);
        auto *model = dialog->findChild<QComboBox *>(u"model"_s);
        QVERIFY(model && model->isEditable());
        model->setEditText(u"another-model"_s);
    }
    auto *buttons = dialog->findChild<QDialogButtonBox *>();
    QVERIFY(buttons);
    QTest::mouseClick(buttons->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QTRY_VERIFY(!w.window->findChild<SettingsDialog *>(u"settingsDialog"_s)); // accepted
    const QString text = conversation(*w.window)->toPlainText();
    const QString fallbackNotice
        = u"The settings of the fallback profile Paid key changed, so the send in progress was "
          u"stopped."_s;
    QVERIFY2(!text.contains(u"The provider settings changed"_s), qPrintable(text));
    if (changeFallback) {
        QVERIFY2(text.contains(fallbackNotice), qPrintable(text));
        QTRY_VERIFY(!chat->busy());
    } else {
        QVERIFY2(!text.contains(fallbackNotice), qPrintable(text));
        // Nothing changed: the fallback's send runs on, its next attempt reaches the Paid key
        // (a 60 s wait takes 1.2 s here).
        QVERIFY(chat->busy() && chat->sendState().viaFallback);
        const int sentSoFar = w.paidChats();
        QTRY_VERIFY_WITH_TIMEOUT(w.paidChats() > sentSoFar, 10000);
        QVERIFY(chat->busy() && chat->sendState().viaFallback);
        chat->stop();
    }
}

QTEST_MAIN(TestProfileWindow)
#include "tst_profilewindow.moc"
