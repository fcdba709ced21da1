// The profile's own limits in the real window, offscreen, on one settings file and one history:
// a send that would cross a spending limit asks "Send anyway / Send when the limit resets /
// Cancel" before any request, and the middle one parks it until 00:00 (stored, in the lot); a
// profile that refuses says so and keeps the prompt; and a declared "2 requests a minute" counts
// the sends two capwatch-cli processes made first (the ledger they share), so the window's third
// send waits for the minute, asserted at the provider.

#include "demo/demoprovider.h"
#include "history/historywriter.h"
#include "session/chatsession.h"
#include "session/parkinglot.h"
#include "session/providermemory.h"
#include "session/sendtexts.h"
#include "support/clirunner.h"
#include "support/demothread.h"
#include "support/demowindow.h"
#include "support/windowwidgets.h"
#include "ui/conversation/conversationpresenter.h"
#include "ui/conversation/conversationtotal.h"
#include "ui/conversation/conversationview.h"
#include "ui/conversation/promptmessage.h"
#include "ui/conversation/requestoptionsrow.h"
#include "ui/panel/spendstatus.h"
#include "ui/parking/parkingcontroller.h"
#include "ui/window/mainwindow.h"

#include <QDir>
#include <QFile>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace capwatch;
using namespace capwatch::ui;
using namespace Qt::StringLiterals;
using namespace capwatch::testing::widgets;

namespace {

void writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

struct LimitWindow
{
    LimitWindow(const QString &ini, const QString &db)
        : w(ini, 0.02)
    {
        w.window->attachHistory(&writer, false);
        writer.open(db);
        w.uncapped();
    }
    bool loaded()
    {
        return QTest::qWaitFor([this] { return w.window->providerMemory()->isLoaded(); }, 10000);
    }
    QMessageBox *question() { return w.window->findChild<QMessageBox *>(u"limitQuestion"_s); }

    history::HistoryWriter writer; ///< declared first: it outlives the window and flushes last
    testing::DemoWindow w;
};

/// A provider of its own, and both programs' default paths (XDG_CONFIG_HOME, XDG_DATA_HOME
/// under `root`) with the default profile "Capped" sending to it, `profileLines` added to its
/// section. The provider's own window never fills: only `requestLimit` requests a minute.
struct CappedProfile
{
    CappedProfile(const QString &root, const QByteArray &profileLines, qint64 requestLimit = 1000)
        : config(root + u"/config"_s)
        , data(root + u"/data"_s)
        , ini(config + u"/capwatch/capwatch.conf"_s)
        , db(data + u"/capwatch/history.sqlite"_s)
        , provider(options(requestLimit))
    {
        url = provider.listen();
        writeFile(ini,
            "[profiles]\ndefault=capped\n\n[profile.capped]\nname=Capped\nkey=none\nendpoint="
                + url.toString().toUtf8() + "\n" + profileLines);
    }
    static demo::DemoOptions options(qint64 requestLimit)
    {
        demo::DemoOptions o;
        o.scenario = u"capped"_s;
        o.limit = 1'000'000;
        o.requestLimit = requestLimit;
        return o;
    }
    /// capwatch-cli on these paths.
    testing::CliRun cli(const QStringList &args) const
    {
        testing::CliOptions c;
        c.environment.insert(u"XDG_CONFIG_HOME"_s, config);
        c.environment.insert(u"XDG_DATA_HOME"_s, data);
        return testing::runCli(args, c);
    }
    QString config;
    QString data;
    QString ini;
    QString db;
    testing::DemoThread provider;
    QUrl url;
};

/// The window on a CappedProfile's settings file and history, at `scale`.
struct ProfileWindow
{
    ProfileWindow(const CappedProfile &capped, double scale)
        : settings(capped.ini)
    {
        LaunchOptions launch;
        launch.timeScale = scale;
        window = std::make_unique<MainWindow>(settings, launch, &hook);
        window->attachHistory(&writer, false);
        writer.open(capped.db);
        window->show();
    }
    bool loaded()
    {
        return QTest::qWaitFor([this] { return window->providerMemory()->isLoaded(); }, 10000);
    }
    Settings settings;
    testing::DemoHook hook; ///< declared before the window: it outlives it
    history::HistoryWriter writer; ///< the same
    std::unique_ptr<MainWindow> window;
};

QDateTime nextMidnightUtc()
{
    return QDate::currentDate().addDays(1).startOfDay().toUTC();
}

} // namespace

class TestLimitsWindow final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void spendingLimitAsksAndParksUntilTheReset();
    void sendAnywaySendsAndCancelKeepsThePrompt();
    void aRefusingProfileSaysSoAndKeepsThePrompt();
    void declaredMinuteCountsWhatTheCliSent();
    void costsShowUnderAnswersAndInTheTotal();
    void aRateRefusalSuggestsTheLimitItImplies();
    void aCliSendWhileTheWindowIsOpenCountsThere();

private:
    QString path(const QString &name) { return m_dir.filePath(u"%1-%2"_s.arg(++m_n).arg(name)); }
    QTemporaryDir m_dir;
    int m_n = 0;
};

void TestLimitsWindow::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void TestLimitsWindow::spendingLimitAsksAndParksUntilTheReset()
{
    const QString ini = path(u"capwatch.conf"_s);
    writeFile(ini, "[profile.demo]\nspend_tokens_day=500\n");
    LimitWindow l(ini, path(u"history.sqlite"_s));
    QVERIFY(l.loaded());
    // No max_tokens: the worst case counts the 1,000-token reserve.
    l.w.send(u"Tell me about caps"_s);
    QTRY_VERIFY(l.question());
    QMessageBox *box = l.question();
    QVERIFY2(box->text().contains(u"Tokens today: 0 of 500; this send may use up to"_s),
        qPrintable(box->text()));
    auto *atReset = box->findChild<QPushButton *>(u"sendAtReset"_s);
    QVERIFY(atReset);
    QCOMPARE(atReset->text().remove(u'&'), u"Send when the limit resets at 00:00"_s);
    QVERIFY(!l.w.window->session()->busy());
    QCOMPARE(l.w.chats().size(), 0);

    atReset->click();
    // Parked until midnight: nothing went to the provider, the prompt waits in the lot.
    QTRY_VERIFY(l.w.window->session()->sendState().isParked());
    const session::SendState state = l.w.window->session()->sendState();
    QCOMPARE(state.parked->dueAt, nextMidnightUtc());
    QCOMPARE(state.parked->prompt, u"Tell me about caps"_s);
    session::ParkingLot *lot = l.w.window->parkingController()->lot();
    QCOMPARE(lot->count(), 1);
    QCOMPARE(lot->sends().first().dueAt, nextMidnightUtc());
    QVERIFY(!lot->sends().first().message.isNull()); // its prompt is stored
    QCOMPARE(l.w.chats().size(), 0);
    QVERIFY(promptEditor(*l.w.window)->toPlainText().isEmpty());
    QVERIFY(conversation(*l.w.window)->toPlainText().contains(u"Tell me about caps"_s));
    // Its card says why it waits, not that the provider is being waited for.
    const QString shown = conversation(*l.w.window)->toPlainText();
    QVERIFY2(shown.contains(u"Held by a limit: Tokens today: 0 of 500; this send may use up to"_s),
        qPrintable(shown));
    QVERIFY2(shown.contains(u"It goes out by itself when the limit resets."_s), qPrintable(shown));
    QVERIFY(!shown.contains(u"Waiting for the provider"_s));
    QVERIFY(inlineMessage(*l.w.window)
                ->shownText()
                .startsWith(u"Parked until the limit resets at 00:00: Tokens today: 0 of 500"_s));
}

void TestLimitsWindow::sendAnywaySendsAndCancelKeepsThePrompt()
{
    const QString ini = path(u"capwatch.conf"_s);
    writeFile(ini, "[profile.demo]\nspend_tokens_day=500\n");
    LimitWindow l(ini, path(u"history.sqlite"_s));
    QVERIFY(l.loaded());
    l.w.send(u"first"_s);
    QTRY_VERIFY(l.question());
    l.question()->findChild<QPushButton *>(u"cancel"_s)->click();
    QTRY_VERIFY(!l.question());
    QCOMPARE(promptEditor(*l.w.window)->toPlainText(), u"first"_s); // nothing lost
    QCOMPARE(l.w.chats().size(), 0);

    l.w.window->controller()->sendPrompt();
    QTRY_VERIFY(l.question());
    l.question()->findChild<QPushButton *>(u"sendAnyway"_s)->click();
    QTRY_COMPARE(l.w.chats().size(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(!l.w.window->session()->busy(), 15000);
    QVERIFY(!l.w.window->session()->sendState().isParked());
}

void TestLimitsWindow::aRefusingProfileSaysSoAndKeepsThePrompt()
{
    const QString ini = path(u"capwatch.conf"_s);
    writeFile(ini, "[profile.demo]\nspend_tokens_day=500\nlimit_action=refuse\n");
    LimitWindow l(ini, path(u"history.sqlite"_s));
    QVERIFY(l.loaded());
    l.w.send(u"refused"_s);
    QVERIFY(!l.question());
    QVERIFY2(inlineMessage(*l.w.window)
                 ->shownText()
                 .startsWith(u"Not sent: This send may cross a spending limit of the profile Demo. "
                             u"Tokens today: 0 of "
                             "500"_s),
        qPrintable(inlineMessage(*l.w.window)->shownText()));
    QCOMPARE(promptEditor(*l.w.window)->toPlainText(), u"refused"_s);
    QCOMPARE(l.w.chats().size(), 0);
    // A send whose worst case fits (max_tokens 100) goes.
    auto *options = l.w.window->findChild<RequestOptionsRow *>(u"requestOptions"_s);
    QVERIFY(options);
    options->maxTokens()->setValue(100);
    l.w.send(u"small"_s);
    QVERIFY(!l.question());
    QTRY_COMPARE(l.w.chats().size(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(!l.w.window->session()->busy(), 15000);
}

void TestLimitsWindow::declaredMinuteCountsWhatTheCliSent()
{
    CappedProfile capped(path(u"paths"_s), "provider_rpm=2\n");
    // At a time scale of 0.05 the declared minute is 3 s on the wall clock.
    for (int i = 0; i < 2; ++i) {
        const testing::CliRun r
            = capped.cli({ u"chat"_s, u"--profile"_s, u"capped"_s, u"--time-scale"_s, u"0.05"_s,
                u"--max-tokens"_s, u"20"_s, u"--prompt"_s, u"from the terminal"_s });
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }
    QCOMPARE(capped.provider.chatArrivals().size(), 2);

    // The window, on the same settings file and history, at the same scale.
    ProfileWindow w(capped, 0.05);
    QVERIFY(w.loaded());
    MainWindow &window = *w.window;
    QCOMPARE(window.session()->provider().choice().profileName, u"Capped"_s);
    promptEditor(window)->setPlainText(u"from the window"_s);
    window.controller()->sendPrompt();
    QTRY_VERIFY(
        window.session()->sendState().pacing() || capped.provider.chatArrivals().size() == 3);
    QVERIFY2(window.session()->sendState().pacing(), "the window's send went without waiting");
    QVERIFY(window.session()->sendState().pace);
    QCOMPARE(window.session()->sendState().pace->declared, retry::DeclaredKind::RequestsPerMinute);
    QTRY_COMPARE_WITH_TIMEOUT(capped.provider.chatArrivals().size(), 3, 15000);
    const QList<QDateTime> at = capped.provider.chatArrivals();
    const qint64 gap = at.at(0).msecsTo(at.at(2));
    QVERIFY2(gap >= 2500, qPrintable(u"the third came %1 ms after the first"_s.arg(gap)));
    QTRY_VERIFY_WITH_TIMEOUT(!window.session()->busy(), 15000);
}

void TestLimitsWindow::costsShowUnderAnswersAndInTheTotal()
{
    // The demo bills each answer (usage.cost, as OpenRouter does): the answer's line and the
    // conversation's total say so, live and when the conversation is read back.
    const QString ini = path(u"capwatch.conf"_s);
    writeFile(ini, "");
    LimitWindow l(ini, path(u"history.sqlite"_s));
    demo::DemoOptions o = l.w.demo.provider()->options();
    o.costPerMillionTokens = 2000.0;
    l.w.demo.provider()->setOptions(o);
    QVERIFY(l.loaded());
    auto *total = l.w.window->findChild<ConversationTotal *>(u"conversationTotal"_s);
    QVERIFY(total);
    QVERIFY(total->isHidden());
    for (const QString &prompt : { u"first"_s, u"second"_s }) {
        l.w.send(prompt);
        QTRY_VERIFY_WITH_TIMEOUT(!l.w.window->session()->busy(), 15000);
        QTRY_VERIFY(conversation(*l.w.window)->isSettled());
    }
    ConversationView *view = conversation(*l.w.window);
    const int answer = view->lastAssistantTurn();
    const QString line = view->turnUsage(answer);
    QVERIFY2(line.contains(u" completion tokens · $"_s) && line.endsWith(u" billed"_s),
        qPrintable(line));
    QCOMPARE(total->total().attempts, 2);
    QVERIFY(total->total().billed > 0);
    QCOMPARE(total->total().estimated, 0.0);
    QVERIFY2(total->text().startsWith(u"This conversation: $"_s), qPrintable(total->text()));
    QVERIFY(total->text().contains(u" billed · "_s));
    QVERIFY(!total->isHidden());
    const history::CostTotal live = total->total();

    // Read back: the same line under the answer, the same total.
    const QUuid id = l.w.window->session()->conversationId();
    l.w.window->session()->newConversation();
    QTRY_VERIFY(total->isHidden());
    // Read back in pieces, the first of which may hold only the first exchange (under ASan it
    // does): the whole of it before its last answer is looked at.
    QSignalSpy filled(presenter(*l.w.window), &ConversationPresenter::restoreFilled);
    l.w.window->session()->openConversation(id);
    QTRY_COMPARE(filled.size(), 1);
    QTRY_VERIFY(
        view->lastAssistantTurn() >= 0 && !view->turnUsage(view->lastAssistantTurn()).isEmpty());
    QTRY_VERIFY(view->isSettled());
    QCOMPARE(view->turnUsage(view->lastAssistantTurn()), line);
    QCOMPARE(total->total().attempts, live.attempts);
    QCOMPARE(total->total().tokens, live.tokens);
    QCOMPARE(total->text(),
        u"This conversation: %1 · %2 tokens"_s.arg(
            session::SendTexts::cost(live), QLocale().toString(live.tokens)));
}

void TestLimitsWindow::aRateRefusalSuggestsTheLimitItImplies()
{
    // A provider that allows 2 requests a minute and says so only by refusing the third (no
    // pacing on its headers here): the window offers to declare the limit, and one click keeps
    // it in the settings file, where the next send's pacing reads it.
    CappedProfile capped(path(u"paths"_s), {}, 2);
    ProfileWindow w(capped, 0.05);
    QVERIFY(w.loaded());
    MainWindow &window = *w.window;
    window.session()->context().setPacingEnabled(false);
    for (int i = 0; i < 2; ++i) {
        promptEditor(window)->setPlainText(u"quick %1"_s.arg(i));
        window.controller()->sendPrompt();
        QTRY_VERIFY_WITH_TIMEOUT(!window.session()->busy(), 15000);
    }
    // Both answers are in the ledger the suggestion counts from.
    QTRY_COMPARE(window.providerMemory()->tally().today(u"Capped"_s).attempts, 2);
    promptEditor(window)->setPlainText(u"one too many"_s);
    window.controller()->sendPrompt();
    PromptMessage *message = inlineMessage(window);
    QTRY_VERIFY_WITH_TIMEOUT(message->action() == PromptMessage::Action::KeepDeclaredLimit, 15000);
    QVERIFY2(message->shownText().startsWith(u"Capped hit a rate limit and declares no limits; "
                                             "the provider's words suggest 2 requests a minute."_s),
        qPrintable(message->shownText()));
    message->button()->click();
    QVERIFY2(message->shownText().startsWith(u"Kept: 2 requests a minute for Capped."_s),
        qPrintable(message->shownText()));
    // In the file, read by both programs; and in force for the window's next send.
    QSettings file(capped.ini, QSettings::IniFormat);
    QCOMPARE(file.value(u"profile.capped/provider_rpm"_s).toString(), u"2"_s);
    QCOMPARE(window.session()->provider().choice().declared.requestsPerMinute,
        std::optional<std::int64_t>(2));
    QTRY_VERIFY_WITH_TIMEOUT(!window.session()->busy(), 15000);
}

void TestLimitsWindow::aCliSendWhileTheWindowIsOpenCountsThere()
{
    // Both programs at once, on their default paths: the window is open when a capwatch-cli in
    // a terminal sends. The window reads the ledger again when the database changes on disk, so
    // its status bar and its limits count that send without a send of its own.
    CappedProfile capped(path(u"paths"_s), "spend_tokens_day=100000\n");
    ProfileWindow w(capped, 1.0);
    QVERIFY(w.loaded());
    auto *spend = w.window->findChild<SpendStatus *>(u"spendStatus"_s);
    QVERIFY(spend);
    QCOMPARE(spend->text(), u"Today: 0 of 100,000 tokens"_s);

    const testing::CliRun r = capped.cli({ u"chat"_s, u"--profile"_s, u"capped"_s,
        u"--max-tokens"_s, u"20"_s, u"--prompt"_s, u"from the terminal"_s });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QTRY_COMPARE_WITH_TIMEOUT(
        w.window->providerMemory()->tally().today(u"Capped"_s).attempts, 1, 10000);
    QVERIFY2(spend->text() != u"Today: 0 of 100,000 tokens"_s, qPrintable(spend->text()));
    QVERIFY(spend->text().endsWith(u" of 100,000 tokens"_s));
    QCOMPARE(capped.provider.chatArrivals().size(), 1);
}

QTEST_MAIN(TestLimitsWindow)
#include "tst_limitswindow.moc"
