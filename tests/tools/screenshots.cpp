// Makes the screenshots in docs/screenshots: the real window, offscreen, against the embedded
// demo provider, time-scaled. Run by docs/make-screenshots.sh; not a test.

#include "../support/demolocalprovider.h"
#include "../support/historyfixture.h"
#include "../support/windowwidgets.h"
#include "demo/demoprovider.h"
#include "history/historywriter.h"
#include "ui/conversation/conversationpresenter.h"
#include "ui/history/conversationlistmodel.h"
#include "ui/history/historycontroller.h"
#include "ui/history/historysidebar.h"
#include "ui/panel/retrypanel.h"
#include "ui/parking/parkedqueuemodel.h"
#include "ui/parking/parkedqueueview.h"
#include "ui/parking/parkingcontroller.h"
#include "ui/profiles/profilecontroller.h"
#include "ui/settings/settings.h"
#include "ui/settings/settingsdialog.h"
#include "ui/timeline/timelinewidget.h"
#include "ui/window/mainwindow.h"

#include <QApplication>
#include <QDir>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <memory>

using namespace capwatch;
using namespace capwatch::ui;
using namespace Qt::StringLiterals;
using namespace capwatch::testing::widgets;

namespace {

bool waitForState(MainWindow &w, RetryPanel::State state, int timeoutMs = 30000)
{
    return QTest::qWaitFor([&] { return retryPanel(w)->state() == state; }, timeoutMs);
}

void send(MainWindow &w, const QString &prompt)
{
    promptEditor(w)->setPlainText(prompt);
    w.controller()->sendPrompt();
}

bool save(QWidget *widget, const QString &path)
{
    const bool ok = widget->grab().save(path);
    std::fprintf(stderr, "%s %s\n", ok ? "wrote" : "FAILED", qUtf8Printable(path));
    return ok;
}

/// The sidebar after a restart: a few stored conversations, one with a headline retry cycle and
/// one whose send gave up; at the default size and at the window's minimum.
int historyShots(
    const QTemporaryDir &dir, const QString &outDir, const QString &suffix, testing::DemoHook &hook)
{
    const QString path = dir.filePath(u"history.sqlite"_s);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    {
        history::HistoryStore store;
        store.open(path);
        const struct
        {
            const char *prompt;
            int minutesAgo;
            bool retries;
            bool unanswered;
        } rows[] = {
            { QT_TRANSLATE_NOOP("screenshots", "Plan a three-day trip to Lisbon in spring"),
                60 * 24 * 9, false, false },
            { QT_TRANSLATE_NOOP("screenshots", "Explain keyset pagination with an example"),
                60 * 24 * 3, false, true },
            { QT_TRANSLATE_NOOP("screenshots", "Draft a polite reply to a delayed invoice"),
                60 * 26, false, false },
            { QT_TRANSLATE_NOOP("screenshots", "Rewrite this paragraph for a changelog"), 95, true,
                false },
            { QT_TRANSLATE_NOOP("screenshots", "Summarise the retry policy in three bullet points"),
                12, false, false },
        };
        for (const auto &row : rows) {
            testing::FixtureConversation f;
            f.prompt = QCoreApplication::translate("screenshots", row.prompt);
            f.when = now.addSecs(-60 * row.minutesAgo);
            f.retries = row.retries;
            f.unanswered = row.unanswered;
            testing::addFixtureConversation(store, f);
        }
    }
    LaunchOptions options;
    options.forceDemo = true;
    options.timeScale = 0.02;
    {
        Settings firstRun(dir.filePath(u"history-first.ini"_s));
        history::HistoryWriter firstWriter;
        MainWindow live(firstRun, options, &hook);
        // The newest one is real: sent to the demo (which the window starts) through a headline
        // retry cycle, and stored.
        demo::DemoProvider *demo = hook.provider();
        demo::DemoOptions o = demo->options();
        o.scenario = u"headline"_s;
        demo->setOptions(o);
        // The earlier shots' scenario switch is done; this send has its own.
        QObject::disconnect(demo, &demo::DemoProvider::chatRequestReceived, nullptr, nullptr);
        auto received = std::make_shared<int>(0);
        QObject::connect(demo, &demo::DemoProvider::chatRequestReceived, demo, [demo, received] {
            if (++*received != 2)
                return;
            demo::DemoOptions then = demo->options();
            then.scenario = u"capped"_s; // the retry gets through
            demo->setOptions(then);
        });
        live.attachHistory(&firstWriter, false);
        firstWriter.open(path);
        live.show();
        send(live,
            QCoreApplication::translate("screenshots",
                "What does capwatch do when a provider says my token cap is exceeded?"));
        if (!waitForState(live, RetryPanel::State::Succeeded, 60000))
            return 1;
        live.close();
    } // the writer writes it all before the window below opens the database
    Settings settings(dir.filePath(u"history.ini"_s));
    history::HistoryWriter writer;
    MainWindow w(settings, options, &hook);
    w.attachHistory(&writer, false);
    writer.open(path);
    w.resize(1440, 900);
    w.show();
    HistorySidebar *sidebar = historySidebar(w);
    if (!QTest::qWaitFor([&] { return sidebar->model()->rowCount() == 6; }, 10000))
        return 1;
    // The real one, restored: transcript, timeline and log as they were.
    w.historyController()->openConversation(
        sidebar->model()->index(0).data(ConversationListModel::IdRole).toUuid());
    if (!QTest::qWaitFor(
            [&] { return conversation(w)->turnCount() > 0 && !presenter(w)->filling(); }, 10000))
        return 1;
    QTest::qWait(100);
    if (!save(&w, outDir + u"/main-window-history"_s + suffix + u".png"_s))
        return 1;
    w.resize(640, 480); // tst_mainwindow::minimumSize: where the prompt must still have room
    QTest::qWait(100);
    if (!save(&w, outDir + u"/main-window-history-minimum"_s + suffix + u".png"_s))
        return 1;
    return 0;
}

/// Parking (docs/parking.md): a send parked until its provider's reset, some 15 minutes away,
/// with its card's countdown and the panel; then the Queue tab with three parked sends of three
/// conversations. The demo's `reset` scenario, its cap freeing five policy hours after the first
/// request: at --time-scale 0.05 the reset is a quarter of an hour of wall time away.
int parkingShots(const QTemporaryDir &dir, const QString &outDir, const QString &suffix)
{
    testing::DemoHook hook;
    Settings settings(dir.filePath(u"parking.ini"_s));
    history::HistoryWriter writer;
    LaunchOptions options;
    options.forceDemo = true;
    options.timeScale = 0.05;
    MainWindow w(settings, options, &hook);
    w.attachHistory(&writer, false);
    writer.open(dir.filePath(u"parking.sqlite"_s));
    w.resize(1440, 900);
    w.show();
    demo::DemoProvider *demo = hook.provider();
    demo::DemoOptions o = demo->options();
    o.scenario = u"reset"_s;
    o.resetAfterSeconds = 5 * 3600;
    demo->setOptions(o);
    if (!QTest::qWaitFor([&] { return w.historyController()->isOpen(); }, 10000))
        return 1;

    // Asked (the default): the card offers Send at beside Retry now; sent at the reset.
    send(w,
        QCoreApplication::translate(
            "screenshots", "Translate the release notes into German, keeping the headings."));
    if (!waitForState(w, RetryPanel::State::GaveUp, 60000))
        return 1;
    if (!w.session()->park())
        return 1;
    QTest::qWait(1100); // a tick of the countdown
    if (!save(&w, outDir + u"/main-window-parked"_s + suffix + u".png"_s))
        return 1;

    // Two more conversations, parked automatically, and the Queue with all three.
    settings.setParkingChoice(session::ParkingChoice::Automatic); // a new conversation reads it
    w.session()->setParkingChoice(session::ParkingChoice::Automatic);
    for (const char *prompt :
        { QT_TRANSLATE_NOOP("screenshots", "Summarise yesterday's incident report for the team"),
            QT_TRANSLATE_NOOP("screenshots", "Draft three subject lines for the launch email") }) {
        w.historyController()->newConversation();
        send(w, QCoreApplication::translate("screenshots", prompt));
        if (!waitForState(w, RetryPanel::State::Parked, 60000))
            return 1;
    }
    ParkingController *parking = w.parkingController();
    tabs(w)->setCurrentWidget(parking->queueView());
    ParkedQueueModel *queue = parking->queueModel();
    if (!QTest::qWaitFor([&] { return queue->rowCount() == 3; }, 10000))
        return 1;
    parking->queueView()->selectSend(queue->sendAt(0).id);
    QTest::qWait(1100);
    if (!save(&w, outDir + u"/main-window-queue"_s + suffix + u".png"_s))
        return 1;
    w.close();
    return 0;
}

/// The provider's window (docs/retry-policy.md section 8): the panel's "Provider window" part
/// after a few answers on the capped demo, with the usage under each answer; then a conversation
/// grown past the `context` scenario's window of 2,000 tokens, its card offering Trim and resend
/// with the turns it would leave out greyed.
int contextShots(const QTemporaryDir &dir, const QString &outDir, const QString &suffix)
{
    LaunchOptions options;
    options.forceDemo = true;
    options.timeScale = 0.05;
    {
        testing::DemoHook hook;
        Settings settings(dir.filePath(u"window.ini"_s));
        MainWindow w(settings, options, &hook);
        w.resize(1440, 900);
        w.show();
        for (const char *prompt :
            { QT_TRANSLATE_NOOP("screenshots", "How many tokens does a short question cost?"),
                QT_TRANSLATE_NOOP("screenshots", "And how many are left in this window?"),
                QT_TRANSLATE_NOOP("screenshots", "When does the window reset?") }) {
            send(w, QCoreApplication::translate("screenshots", prompt));
            if (!waitForState(w, RetryPanel::State::Succeeded, 60000))
                return 1;
        }
        QTest::qWait(1100); // a tick of "resets in"
        // The panel's last part: scrolled into view, as a user would.
        if (auto *area = retryPanel(w)->findChild<QScrollArea *>())
            area->verticalScrollBar()->setValue(area->verticalScrollBar()->maximum());
        QTest::qWait(100);
        if (!save(&w, outDir + u"/main-window-provider-window"_s + suffix + u".png"_s))
            return 1;
    }
    testing::DemoHook hook;
    Settings settings(dir.filePath(u"trim.ini"_s));
    MainWindow w(settings, options, &hook);
    // Taller than the others: the greyed turns at the top and the card at the bottom both show.
    w.resize(1440, 1300);
    w.show();
    demo::DemoProvider *demo = hook.provider();
    demo::DemoOptions o = demo->options();
    o.scenario = u"context"_s;
    o.contextWindow = 2000;
    o.limit = 1'000'000'000;
    demo->setOptions(o);
    maxTokensBox(w)->setValue(1500); // a long answer asked for leaves room for a few turns
    const QString filler = QCoreApplication::translate("screenshots",
        "Here is the next part of the design document, with its open questions and risks. ");
    const char *topics[] = {
        QT_TRANSLATE_NOOP("screenshots", "Review the storage section."),
        QT_TRANSLATE_NOOP("screenshots", "Review the retry section."),
        QT_TRANSLATE_NOOP("screenshots", "Review the pacing section."),
        QT_TRANSLATE_NOOP("screenshots", "Review the history section."),
        QT_TRANSLATE_NOOP("screenshots", "Review the settings section."),
        QT_TRANSLATE_NOOP("screenshots", "Review the packaging section."),
        QT_TRANSLATE_NOOP("screenshots", "Review the testing section."),
        QT_TRANSLATE_NOOP("screenshots", "Review the release section."),
    };
    for (const char *topic : topics) {
        send(w, QCoreApplication::translate("screenshots", topic) + u' ' + filler.repeated(2));
        if (!QTest::qWaitFor([&] { return !w.session()->busy(); }, 60000))
            return 1;
        if (presenter(w)->trimCard() >= 0)
            break;
    }
    if (presenter(w)->trimCard() < 0)
        return 1;
    QTest::qWait(100);
    if (!save(&w, outDir + u"/main-window-trim-offer"_s + suffix + u".png"_s))
        return 1;
    return 0;
}

/// Settings -> Providers: a few profiles, one with its own retry policy and a fallback; at the
/// dialog's first size and at its smallest.
int providersShots(const QString &outDir, const QString &suffix)
{
    session::ProfileSet set;
    set.profiles.append(set.demo());
    session::ProviderProfile free;
    free.id = u"free-tier"_s;
    free.name = u"Free tier"_s;
    free.endpoint = QUrl(u"https://api.example.com/v1"_s);
    free.model = u"gpt-4o-mini"_s;
    free.cachedModels = { u"gpt-4o"_s, u"gpt-4o-mini"_s, u"o3-mini"_s };
    free.keyVariable = u"FREE_TIER_API_KEY"_s;
    free.contextWindow = 128000;
    free.overrides.waitCapS = 30;
    free.overrides.budgetS = 90;
    free.overrides.maxAttempts = 3;
    free.fallback = u"paid"_s;
    session::ProviderProfile paid;
    paid.id = u"paid"_s;
    paid.name = u"Paid account"_s;
    paid.endpoint = QUrl(u"https://llm.example.org/v1"_s);
    paid.model = u"large-model"_s;
    paid.keySource = session::ProviderChoice::KeySource::Keychain;
    set.profiles << free << paid;
    set.defaultProfile = free.id;
    SettingsDialog dialog(set, free.id, session::ParkingChoice::Ask);
    dialog.show();
    QTest::qWait(50);
    if (!save(&dialog, outDir + u"/settings-providers"_s + suffix + u".png"_s))
        return 1;
    dialog.resize(dialog.minimumSize());
    QTest::qWait(50);
    if (!save(&dialog, outDir + u"/settings-providers-small"_s + suffix + u".png"_s))
        return 1;
    dialog.findChild<QTabWidget *>(u"settingsPages"_s)->setCurrentIndex(1);
    QTest::qWait(50);
    if (!save(&dialog, outDir + u"/settings-retries"_s + suffix + u".png"_s))
        return 1;
    return 0;
}

} // namespace

/// Provider profiles (issue 17): the profile combo above the prompt; a capped send of the
/// "Free tier" profile (3 attempts, 5 s per wait, 12 s budget) whose card offers "Send to Paid
/// key instead"; the answer of the fallback, marked "via Paid key"; and the timeline's switch.
/// The "Paid key" profile is a second demo provider, never capped.
int profileShots(const QTemporaryDir &dir, const QString &outDir, const QString &suffix)
{
    testing::DemoHook hook;
    demo::DemoProvider paid;
    if (!paid.listen())
        return 1;
    demo::DemoOptions paidOptions = paid.options();
    paidOptions.limit = 1'000'000'000;
    paid.setOptions(paidOptions);
    Settings settings(dir.filePath(u"profiles.ini"_s));
    LaunchOptions options;
    options.timeScale = 0.02;
    MainWindow w(settings, options, &hook);
    session::ProviderProfile free;
    free.id = u"free"_s;
    free.name = QCoreApplication::translate("screenshots", "Free tier");
    free.builtInDemo = true;
    free.overrides.maxAttempts = 3;
    free.overrides.waitCapS = 5;
    free.overrides.budgetS = 12;
    free.fallback = u"paid"_s;
    session::ProviderProfile paidProfile;
    paidProfile.id = u"paid"_s;
    paidProfile.name = QCoreApplication::translate("screenshots", "Paid key");
    paidProfile.endpoint = paid.baseUrl();
    paidProfile.model = u"capwatch-demo"_s;
    paidProfile.keyVariable.clear();
    session::ProfileSet set;
    set.profiles = { free, paidProfile };
    set.defaultProfile = free.id;
    w.profileController()->setProfiles(set);
    w.resize(1440, 900);
    w.show();
    demo::DemoOptions o = hook.provider()->options();
    o.scenario = u"headline"_s;
    hook.provider()->setOptions(o);

    send(w,
        QCoreApplication::translate(
            "screenshots", "Summarise the design review in five bullet points."));
    if (!waitForState(w, RetryPanel::State::GaveUp, 60000))
        return 1;
    if (!presenter(w)->fallbackOffer().offered) {
        std::fprintf(stderr, "no fallback offered by the session: its card is shown as offered\n");
        session::FallbackOffer offer;
        offer.send = w.session()->currentSend();
        offer.offered = true;
        offer.fromProfile = free.name;
        offer.toProfile = paidProfile.name;
        offer.reason = retry::EndReason::AttemptsExhausted;
        offer.category = u"token_limit"_s;
        Q_EMIT w.session()->fallbackOffered(offer);
    }
    QTest::qWait(200);
    if (!save(&w, outDir + u"/main-window-fallback-offer"_s + suffix + u".png"_s))
        return 1;
    w.controller()->sendToFallback();
    if (!waitForState(w, RetryPanel::State::Succeeded, 20000)) {
        std::fprintf(stderr, "the fallback's send did not answer: no fallback answer shot\n");
        w.close();
        return 0;
    }
    QTest::qWait(200);
    if (!save(&w, outDir + u"/main-window-fallback"_s + suffix + u".png"_s))
        return 1;
    if (!save(timeline(w), outDir + u"/timeline-fallback"_s + suffix + u".png"_s))
        return 1;
    w.close();
    return 0;
}

/// The first run the demo banner describes (issue 25): a fresh window on the demo, quick
/// questions until capwatch holds one (the window is full), then Send now, into a retry cycle.
int firstRunShots(const QString &outDir, const QString &suffix)
{
    QTemporaryDir dir;
    Settings settings(dir.filePath(u"first-run.ini"_s));
    LaunchOptions options;
    options.forceDemo = true;
    options.timeScale = 0.2; // the 60 s window lasts 12 s: still full when Send now is clicked
    testing::DemoHook hook;
    MainWindow w(settings, options, &hook);
    w.resize(1440, 900);
    w.show();
    RetryPanel *panel = retryPanel(w);
    for (int i = 1; i <= 7 && panel->state() != RetryPanel::State::Pacing; ++i) {
        send(w, QCoreApplication::translate("screenshots", "Quick question %1").arg(i));
        if (!QTest::qWaitFor(
                [&] {
                    return panel->state() == RetryPanel::State::Succeeded
                        || panel->state() == RetryPanel::State::Pacing;
                },
                30000))
            return 1;
    }
    if (panel->state() != RetryPanel::State::Pacing)
        return 1;
    QTest::qWait(300); // a few ticks of the countdown
    if (!save(&w, outDir + u"/main-window-first-run-held"_s + suffix + u".png"_s))
        return 1;
    auto *sendNow = panel->findChild<QPushButton *>(u"sendNow"_s);
    if (!sendNow)
        return 1;
    sendNow->click();
    if (!waitForState(w, RetryPanel::State::Waiting))
        return 1;
    QTest::qWait(500);
    if (!save(&w, outDir + u"/main-window-first-run-cycle"_s + suffix + u".png"_s))
        return 1;
    w.window()->close();
    return 0;
}

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(u"capwatch"_s);
    const QString outDir = argc > 1 ? QString::fromLocal8Bit(argv[1]) : u"docs/screenshots"_s;
    const QString language = argc > 2 ? QString::fromLocal8Bit(argv[2]) : QString();
    const QString suffix = language.isEmpty() ? QString() : u"-"_s + language;
    QTranslator translator;
    if (!language.isEmpty()) {
        QLocale::setDefault(QLocale(language));
        if (!translator.load(
                QLocale(language), u"capwatch"_s, u"_"_s, QStringLiteral(CAPWATCH_QM_DIR))) {
            std::fprintf(stderr, "no translation for %s\n", qUtf8Printable(language));
            return 1;
        }
        QApplication::installTranslator(&translator);
    }
    QDir().mkpath(outDir);
    if (firstRunShots(outDir, suffix) != 0) {
        std::fprintf(stderr, "the first run did not hold a send within seven\n");
        return 1;
    }
    QTemporaryDir settingsDir;
    Settings settings(settingsDir.filePath(u"settings.ini"_s));
    LaunchOptions options;
    options.forceDemo = true;
    options.timeScale = 0.05; // a 60 s wait takes 3 s
    testing::DemoHook hook; // outlives the window
    MainWindow w(settings, options, &hook);
    w.resize(1440, 900);
    w.show();

    demo::DemoProvider *demo = hook.provider();
    // Request 2 meets the headline cap (Retry in 18 min); everything else is answered.
    const auto scenarioFor = [demo](int index) {
        demo::DemoOptions o = demo->options();
        o.scenario = index == 2 || (index >= 4 && index <= 6) ? u"headline"_s
            : index == 7 || index == 8                        ? u"rate-limited"_s
                                                              : u"capped"_s;
        demo->setOptions(o);
    };
    QObject::connect(demo, &demo::DemoProvider::chatRequestReceived, &w, scenarioFor);
    scenarioFor(1);

    send(w, u"What does capwatch do when a provider says my token cap is exceeded?"_s);
    if (!waitForState(w, RetryPanel::State::Succeeded))
        return 1;
    send(w, u"Summarise the retry policy in three bullet points."_s);
    if (!waitForState(w, RetryPanel::State::Waiting))
        return 1;
    // Let the countdown run a little, so the bars show movement.
    if (!QTest::qWaitFor([&] { return retryPanel(w)->shownCountdownS() < 41; }, 10000))
        return 1;
    if (!save(&w, outDir + u"/main-window-retrying"_s + suffix + u".png"_s))
        return 1;
    if (!waitForState(w, RetryPanel::State::Succeeded))
        return 1;

    // A send that gives up (headline every time), then one through two rate limits.
    send(w, u"And if the cap never frees?"_s);
    if (!waitForState(w, RetryPanel::State::GaveUp, 60000))
        return 1;
    send(w, u"Try once more, please."_s);
    if (!waitForState(w, RetryPanel::State::Succeeded, 60000))
        return 1;
    tabs(w)->setCurrentIndex(0);
    if (!save(&w, outDir + u"/main-window-timeline"_s + suffix + u".png"_s))
        return 1;
    QWidget *timeline = tabs(w)->currentWidget();
    timeline->resize(900, 420);
    if (!save(timeline, outDir + u"/timeline"_s + suffix + u".png"_s))
        return 1;
    tabs(w)->setCurrentIndex(1);
    if (!save(&w, outDir + u"/main-window-log"_s + suffix + u".png"_s))
        return 1;

    // Revision 2: a request that can never fit and an account out of credit, each sent once and
    // explained with a hint (a small context window, so an ordinary prompt is too large).
    {
        Settings rev2Settings(settingsDir.filePath(u"rev2.ini"_s));
        testing::DemoHook rev2Hook;
        MainWindow v(rev2Settings, options, &rev2Hook);
        v.resize(1440, 900);
        v.show();
        demo::DemoProvider *rev2 = rev2Hook.provider();
        demo::DemoOptions o = rev2->options();
        o.scenario = u"context"_s;
        o.contextWindow = 1000;
        rev2->setOptions(o);
        send(v, u"Please review this design document and list every risk you can find in it."_s);
        if (!waitForState(v, RetryPanel::State::GaveUp, 60000))
            return 1;
        if (!save(&v, outDir + u"/main-window-too-large"_s + suffix + u".png"_s))
            return 1;
        // Its Details unfolded: the raw failure, the rule that read it, and the way to correct
        // a misreading ("Wrong? Add a rule…").
        ui::ConversationView *view = testing::widgets::conversation(v);
        int card = -1;
        for (int turn = view->turnCount() + 8; turn > 0 && card < 0; --turn) {
            if (!view->errorCardText(turn).isEmpty())
                card = turn;
        }
        if (card < 0)
            return 1;
        view->setErrorDetailsShown(card, true);
        view->verticalScrollBar()->setValue(view->verticalScrollBar()->maximum());
        if (!save(&v, outDir + u"/main-window-failure-details"_s + suffix + u".png"_s))
            return 1;
        view->setErrorDetailsShown(card, false);
        o.scenario = u"billing"_s;
        rev2->setOptions(o);
        send(v, u"Try again with a shorter question?"_s);
        if (!waitForState(v, RetryPanel::State::GaveUp, 60000))
            return 1;
        if (!save(&v, outDir + u"/main-window-billing"_s + suffix + u".png"_s))
            return 1;
    }

    // The question before a key goes out over plain HTTP to another machine.
    qputenv("OPENAI_COMPAT_API_KEY", "sk-screenshot-not-a-key");
    LaunchOptions remote;
    remote.endpoint = u"http://llm.example.internal:8000/v1"_s;
    remote.model = u"capwatch-demo"_s;
    Settings remoteSettings(settingsDir.filePath(u"remote.ini"_s));
    MainWindow r(remoteSettings, remote);
    r.resize(1100, 700);
    r.show();
    send(r, u"Is this link private?"_s);
    QWidget *box = nullptr;
    if (!QTest::qWaitFor(
            [&] {
                return (box = r.findChild<QWidget *>(u"plainHttpWarning"_s)) && box->isVisible();
            },
            5000))
        return 1;
    QTest::qWait(100);
    if (!save(box, outDir + u"/plain-http-warning"_s + suffix + u".png"_s))
        return 1;
    r.close();
    if (const int failed = profileShots(settingsDir, outDir, suffix))
        return failed;
    if (const int failed = contextShots(settingsDir, outDir, suffix))
        return failed;
    if (const int failed = parkingShots(settingsDir, outDir, suffix))
        return failed;
    if (const int failed = providersShots(outDir, suffix))
        return failed;
    return historyShots(settingsDir, outDir, suffix, hook);
}
