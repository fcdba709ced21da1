// The real window, offscreen, against the embedded demo provider, time-scaled: the live retry
// panel through a whole cycle, giving up, cancelling, exports, settings and the key.

#include "net/demoprovider.h"
#include "ui/conversationview.h"
#include "ui/mainwindow.h"
#include "ui/retrypanel.h"
#include "ui/settings.h"
#include "ui/settingsdialog.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QFile>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace capwatch;
using namespace capwatch::ui;
using namespace Qt::StringLiterals;

namespace {

constexpr double kScale = 0.02; // a 60 s wait takes 1.2 s

struct Window
{
    explicit Window(const QString &iniPath, double scale = kScale)
        : settings(iniPath)
    {
        LaunchOptions o;
        o.forceDemo = true;
        o.timeScale = scale;
        window = std::make_unique<MainWindow>(settings, o);
        window->show();
    }
    /// The demo answers the first request with the headline 422, then with `then`.
    void headlineOnceThen(const QString &then)
    {
        setScenario(u"headline"_s);
        QObject::connect(window->demoProvider(), &net::DemoProvider::chatRequestReceived, window.get(),
                         [this, then](int index) {
                             if (index == 2)
                                 setScenario(then);
                         });
    }
    void setScenario(const QString &scenario)
    {
        net::DemoOptions o = window->demoProvider()->options();
        o.scenario = scenario;
        window->demoProvider()->setOptions(o);
    }
    void type(const QString &text)
    {
        window->promptEditor()->setFocus();
        window->promptEditor()->setPlainText(text);
    }

    Settings settings;
    std::unique_ptr<MainWindow> window;
};

} // namespace

class TestMainWindow final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void panelFollowsARetryToSuccess();
    void headlineGivesUpAndKeepsThePrompt();
    void escapeCancelsDuringAWait();
    void exportsWriteWhatWasShown();
    void settingsPersistAcrossRestarts();
    void keyNeverReachesTheSettingsFile();
    void demoBannerOnFirstRun();
    void dialogsNeverHoldARetry();

private:
    QTemporaryDir m_dir;
    int m_n = 0;
    QString ini() { return m_dir.filePath(u"settings-%1.ini"_s.arg(++m_n)); }
};

void TestMainWindow::initTestCase()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QVERIFY(m_dir.isValid());
}

void TestMainWindow::panelFollowsARetryToSuccess()
{
    Window w(ini());
    w.headlineOnceThen(u"capped"_s);
    RetryPanel *panel = w.window->retryPanel();
    w.type(u"How do token caps work?"_s);
    QTest::keyClick(w.window->promptEditor(), Qt::Key_Return, Qt::ControlModifier); // Ctrl+Enter sends

    QTRY_COMPARE_WITH_TIMEOUT(panel->state(), RetryPanel::State::Waiting, 10000);
    QCOMPARE(panel->attemptText(), u"2 of 5"_s);
    QCOMPARE(panel->tokensText(), u"60,323 / 60,000"_s);
    QCOMPARE(panel->sourceText(), u"provider asked 18 min; capped to 60 s"_s);
    QVERIFY(panel->stateText().contains(u"attempt 2"_s));
    // The countdown and the budget fall while the wait runs, from the deadline.
    const double countdown = panel->shownCountdownS();
    const double budget = panel->shownBudgetLeftS();
    QVERIFY2(countdown > 30 && countdown <= 60, qPrintable(QString::number(countdown)));
    QTRY_VERIFY_WITH_TIMEOUT(panel->shownCountdownS() < countdown - 5, 5000);
    QVERIFY(panel->shownBudgetLeftS() < budget - 5);
    QVERIFY(panel->countdownText().endsWith(u" s"_s));
    QVERIFY(panel->countdownText().contains(u'.')); // one decimal

    QTRY_COMPARE_WITH_TIMEOUT(panel->state(), RetryPanel::State::Succeeded, 10000);
    QCOMPARE(panel->attemptText(), u"2 of 5"_s);
    QCOMPARE(panel->budgetText(), u"60.0 s of 120 s"_s); // the budget stays where the wait left it
    QCOMPARE(w.window->demoProvider()->chatRequests(), 2);
    ConversationView *c = w.window->conversation();
    QVERIFY(c->toMarkdown().contains(u"How do token caps work?"_s));
    QVERIFY(c->toMarkdown().contains(u"demo"_s, Qt::CaseInsensitive)); // the answer arrived
    QVERIFY(w.window->promptEditor()->toPlainText().isEmpty());
    QVERIFY(!w.window->retryNowButton()->isVisible());
}

void TestMainWindow::headlineGivesUpAndKeepsThePrompt()
{
    Window w(ini(), 0.01);
    w.setScenario(u"headline"_s);
    RetryPanel *panel = w.window->retryPanel();
    w.type(u"Please answer"_s);
    w.window->sendPrompt();
    QTRY_COMPARE_WITH_TIMEOUT(panel->state(), RetryPanel::State::GaveUp, 15000);
    QVERIFY2(panel->stateText().startsWith(u"Gave up: budget exhausted"_s), qPrintable(panel->stateText()));
    QCOMPARE(panel->attemptText(), u"3 of 5"_s);
    QCOMPARE(panel->budgetText(), u"0.0 s of 120 s"_s);
    QCOMPARE(w.window->promptEditor()->toPlainText(), u"Please answer"_s);
    QVERIFY(w.window->retryNowButton()->isVisible());
    const QString md = w.window->conversation()->toMarkdown();
    QVERIFY(md.contains(u"gave up: budget_exhausted"_s));
    QVERIFY(md.contains(u"Token limit exceeded: used 60323, limit 60000. Retry in 18 min."_s));

    // Retry now sends the same prompt again.
    w.setScenario(u"capped"_s);
    QTest::mouseClick(w.window->retryNowButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(panel->state(), RetryPanel::State::Succeeded, 10000);
    QCOMPARE(w.window->demoProvider()->chatRequests(), 4);
}

void TestMainWindow::escapeCancelsDuringAWait()
{
    Window w(ini());
    w.setScenario(u"headline"_s);
    RetryPanel *panel = w.window->retryPanel();
    w.type(u"Cancel me"_s);
    w.window->sendPrompt();
    QTRY_COMPARE_WITH_TIMEOUT(panel->state(), RetryPanel::State::Waiting, 10000);
    QTest::keyClick(w.window.get(), Qt::Key_Escape);
    QCOMPARE(panel->state(), RetryPanel::State::Cancelled);
    const double budget = panel->shownBudgetLeftS();
    QSignalSpy requests(w.window->demoProvider(), &net::DemoProvider::chatRequestReceived);
    QVERIFY(!requests.wait(1500)); // longer than the 1.2 s wait: it never fires
    QCOMPARE(w.window->demoProvider()->chatRequests(), 1);
    QCOMPARE(panel->shownBudgetLeftS(), budget);
    QCOMPARE(w.window->promptEditor()->toPlainText(), u"Cancel me"_s);
    QCOMPARE(w.window->retryLog()->records().last().event, net::RetryRecord::Event::Cancelled);
}

void TestMainWindow::exportsWriteWhatWasShown()
{
    Window w(ini(), 0.01);
    w.headlineOnceThen(u"capped"_s);
    w.type(u"Export this"_s);
    w.window->sendPrompt();
    QTRY_COMPARE_WITH_TIMEOUT(w.window->retryPanel()->state(), RetryPanel::State::Succeeded, 10000);

    const QString jsonl = m_dir.filePath(u"log.jsonl"_s);
    const QString csv = m_dir.filePath(u"log.csv"_s);
    const QString md = m_dir.filePath(u"conversation.md"_s);
    QVERIFY(w.window->exportRetryLog(jsonl, net::LogFormat::JsonLines));
    QVERIFY(w.window->exportRetryLog(csv, net::LogFormat::Csv));
    QVERIFY(w.window->exportConversation(md));
    QFile j(jsonl), c(csv), m(md);
    QVERIFY(j.open(QIODevice::ReadOnly) && c.open(QIODevice::ReadOnly) && m.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = j.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 4); // started, retry_scheduled, started, succeeded
    QVERIFY(lines[1].contains(R"("event":"retry_scheduled")"));
    QVERIFY(lines[1].contains(R"("used":60323,"limit":60000,"wait_s":60,"raw_wait_s":1080,"wait_source":"message")"));
    const QByteArray csvText = c.readAll();
    QVERIFY(csvText.startsWith("time,request,event,attempt,status,category,used,limit,wait_s,raw_wait_s,"
                               "wait_source,waited_total_s,budget_left_s,reason,error\r\n"));
    QCOMPARE(csvText.count("\r\n"), 5);
    QCOMPARE(w.window->retryLogText().toUtf8(), csvText);
    const QString conversation = QString::fromUtf8(m.readAll());
    QVERIFY(conversation.contains(u"Export this"_s));
    QCOMPARE(conversation, w.window->conversation()->toMarkdown());
    QVERIFY(!QFile::exists(jsonl + u".tmp"_s));
}

void TestMainWindow::settingsPersistAcrossRestarts()
{
    const QString path = ini();
    ProviderSettings p;
    p.endpoint = u"https://api.example.com/v1"_s;
    p.model = u"DeepSeek-V4-Flash"_s;
    p.keySource = ProviderSettings::KeySource::KeyFile;
    p.keyFile = u"/home/me/.config/key"_s;
    p.stream = false;
    p.useDemo = false;
    {
        Settings s(path);
        QVERIFY(!s.isConfigured());
        s.setProvider(p);
        s.setWindowGeometry("geometry-bytes");
        s.sync();
    }
    Settings again(path);
    QVERIFY(again.isConfigured());
    QCOMPARE(again.provider(), p);
    QCOMPARE(again.windowGeometry(), QByteArray("geometry-bytes"));

    // A window started with those settings talks to that provider, not the demo.
    LaunchOptions o;
    MainWindow window(again, o);
    QVERIFY(!window.usingDemo());
    QVERIFY(window.statusText().contains(u"https://api.example.com/v1/chat/completions"_s));
    QVERIFY(window.statusText().contains(u"DeepSeek-V4-Flash"_s));
    QVERIFY(window.statusText().contains(u"key file /home/me/.config/key"_s));
}

void TestMainWindow::keyNeverReachesTheSettingsFile()
{
    const QString path = ini();
    ProviderSettings p;
    p.useDemo = false;
    p.endpoint = u"https://api.example.com/v1"_s;
    p.model = u"m"_s;
    SettingsDialog dialog(p);
    for (QRadioButton *r : dialog.findChildren<QRadioButton *>()) {
        if (r->text().contains(u"keychain"_s, Qt::CaseInsensitive))
            r->setChecked(true);
    }
    QLineEdit *keyField = nullptr;
    for (QLineEdit *e : dialog.findChildren<QLineEdit *>()) {
        if (e->echoMode() == QLineEdit::Password)
            keyField = e;
    }
    QVERIFY(keyField);
    keyField->setText(u"sk-never-in-settings-123"_s);
    QCOMPARE(dialog.keychainKey(), QByteArray("sk-never-in-settings-123"));
    {
        Settings s(path);
        s.setProvider(dialog.provider());
        s.sync();
    }
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY(text.contains("keySource=keychain"));
    QVERIFY(!text.contains("sk-never-in-settings"));

    // A key from the environment, used by a real send, stays out of the file too.
    qputenv("CAPWATCH_TEST_GUI_KEY", "sk-env-secret-456");
    net::DemoProvider provider;
    QVERIFY(provider.listen());
    QByteArray authorization;
    connect(&provider, &net::DemoProvider::chatRequestReceived, this,
            [&](int, const QByteArray &a) { authorization = a; });
    const QString envPath = ini();
    {
        Settings s(envPath);
        ProviderSettings e;
        e.useDemo = false;
        e.endpoint = provider.baseUrl().toString();
        e.model = u"capwatch-demo"_s;
        e.keySource = ProviderSettings::KeySource::Environment;
        e.keyVariable = u"CAPWATCH_TEST_GUI_KEY"_s;
        s.setProvider(e);
        s.sync();
    }
    {
        Settings s(envPath);
        MainWindow window(s, LaunchOptions {});
        window.show();
        QVERIFY(!window.usingDemo());
        window.promptEditor()->setPlainText(u"hello"_s);
        window.sendPrompt();
        QTRY_COMPARE_WITH_TIMEOUT(window.retryPanel()->state(), RetryPanel::State::Succeeded, 10000);
        QCOMPARE(authorization, QByteArray("Bearer sk-env-secret-456"));
        QVERIFY(!window.windowTitle().contains(u"sk-"_s));
        QVERIFY(!window.statusText().contains(u"sk-"_s));
        QVERIFY(window.statusText().contains(u"CAPWATCH_TEST_GUI_KEY"_s));
        window.close();
    }
    QFile again(envPath);
    QVERIFY(again.open(QIODevice::ReadOnly));
    QVERIFY(!again.readAll().contains("sk-env-secret"));
}

void TestMainWindow::demoBannerOnFirstRun()
{
    Settings fresh(ini());
    LaunchOptions o;
    o.timeScale = kScale;
    MainWindow window(fresh, o);
    window.show();
    QVERIFY(window.usingDemo()); // nothing configured: the demo starts by itself
    QVERIFY(window.statusText().contains(u"embedded demo provider"_s));
    QPushButton *configure = nullptr;
    for (QPushButton *b : window.findChildren<QPushButton *>()) {
        if (b->text().contains(u"Configure a provider"_s))
            configure = b;
    }
    QVERIFY(configure && configure->isVisible());
}

void TestMainWindow::dialogsNeverHoldARetry()
{
    // Settings and About open during a wait; the wait still ends on time and the retry answers
    // while both are still open (no nested event loop holds the window's timers).
    Window w(ini());
    w.headlineOnceThen(u"capped"_s);
    RetryPanel *panel = w.window->retryPanel();
    w.type(u"Behind a dialog"_s);
    w.window->sendPrompt();
    QTRY_COMPARE_WITH_TIMEOUT(panel->state(), RetryPanel::State::Waiting, 10000);
    QAction *settingsAction = nullptr;
    for (QAction *a : w.window->findChildren<QAction *>()) {
        if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_Comma))
            settingsAction = a;
    }
    QVERIFY(settingsAction);
    settingsAction->trigger(); // returns at once
    auto *dialog = w.window->findChild<QDialog *>(u"settingsDialog"_s);
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->isVisible());
    QCOMPARE(panel->state(), RetryPanel::State::Waiting);
    QTRY_COMPARE_WITH_TIMEOUT(panel->state(), RetryPanel::State::Succeeded, 10000);
    QVERIFY(dialog->isVisible());
    settingsAction->trigger(); // a second time: the same dialog, not another
    QCOMPARE(w.window->findChildren<QDialog *>(u"settingsDialog"_s).size(), 1);
    dialog->reject();
    QTRY_VERIFY(!w.window->findChild<QDialog *>(u"settingsDialog"_s)); // deleted on close
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
