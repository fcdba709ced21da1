// The retry display in the real window, offscreen, against the embedded demo provider,
// time-scaled: the panel legible in a small window, the timeline's rows at the top of a large one
// and its legend whole, figures that describe the latest send, and a wait cancelled part-way shown
// as far as it ran by the panel, the timeline and the retry log alike.

#include "demo/demoprovider.h"
#include "net/chatclient.h"
#include "net/retrylog.h"
#include "session/send.h"
#include "support/demowindow.h"
#include "support/windowwidgets.h"
#include "ui/panel/categorycolors.h"
#include "ui/panel/progressvalue.h"
#include "ui/panel/retrypanel.h"
#include "ui/settings/settings.h"
#include "ui/settings/uilanguage.h"
#include "ui/timeline/timelinewidget.h"
#include "ui/window/mainwindow.h"

#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTranslator>
#include <cmath>

Q_DECLARE_METATYPE(std::optional<capwatch::history::ProviderWindowRecord>)

using namespace capwatch;
using namespace capwatch::ui;
using namespace Qt::StringLiterals;
using namespace capwatch::testing::widgets;

namespace {

constexpr double kScale = 0.02; // a 60 s wait takes 1.2 s

/// Not shown until a test has sized it.
struct Window : testing::DemoWindow
{
    explicit Window(const QString &iniPath, double scale = kScale)
        : DemoWindow(iniPath, scale, false)
    { }
};

/// The label's rectangle in the panel's coordinates.
QRect inPanel(const QLabel *label, const RetryPanel *panel)
{
    return QRect(label->mapTo(panel, QPoint(0, 0)), label->size());
}

QProgressBar *tokensBar(const RetryPanel *panel)
{
    for (QProgressBar *bar : panel->findChildren<QProgressBar *>()) {
        if (bar->accessibleName() == u"Tokens used of the limit")
            return bar;
    }
    return nullptr;
}

QProgressBar *barNamed(const RetryPanel *panel, const QString &name)
{
    for (QProgressBar *bar : panel->findChildren<QProgressBar *>()) {
        if (bar->accessibleName() == name)
            return bar;
    }
    return nullptr;
}

QPushButton *sendNowButton(const RetryPanel *panel)
{
    return panel->findChild<QPushButton *>(u"sendNow"_s);
}

/// A plan as the session makes it for a full window: 12 s to its reset.
net::PacePlan fullWindow(bool tokensFull = true)
{
    net::PacePlan plan;
    plan.wait = std::chrono::seconds(12);
    plan.source = retry::WaitSource::RateLimitReset;
    plan.tokensFull = tokensFull;
    plan.estimatedTokens = 1200;
    plan.windowTokensLeft = 40;
    plan.windowResetS = 12;
    return plan;
}

/// Drives a panel as a session does, without a provider: a session::Send on a chat client whose
/// steps the test emits (nothing is sent), each state it publishes rendered by the panel.
struct Driver
{
    explicit Driver(RetryPanel *shown)
        : panel(shown)
    { }
    /// A new send, `id`, starts.
    void start(quint64 id)
    {
        send = std::make_unique<session::Send>(
            &client, u"prompt"_s, session::SendOptions {}, session::ProviderChoice {}, false);
        QObject::connect(send.get(), &session::Send::changed, panel, &RetryPanel::render);
        // What the session does at the end: no offers here, the end state as it is.
        session::Send *s = send.get();
        QObject::connect(s, &session::Send::ended, s, [s] { s->publish(); });
        Q_EMIT client.sendStarted(id);
    }
    /// A tick of the wait in progress: `leftMs` of it to go.
    void tick(qint64 leftMs)
    {
        session::SendState s = send->state();
        s.waitLeft = retry::Millis(leftMs);
        panel->render(s);
    }
    net::ChatClient client;
    std::unique_ptr<session::Send> send;
    RetryPanel *panel;
};

/// A window report as the history keeps it: 4,000 of 6,000 tokens, 997 of 1,000 requests.
history::ProviderWindowRecord windowRecord(const QDateTime &receivedAt)
{
    history::ProviderWindowRecord r;
    r.provider = u"demo"_s;
    r.model = u"capwatch-demo"_s;
    r.receivedAt = receivedAt;
    r.tokensResetAt = receivedAt.addSecs(34);
    r.requestsResetAt = receivedAt.addSecs(34);
    r.limitTokens = 6000;
    r.remainingTokens = 4000;
    r.limitRequests = 1000;
    r.remainingRequests = 997;
    return r;
}

/// Records of two finished sends, as ChatClient writes them.
void appendTwoSends(net::RetryLog *log)
{
    const QDateTime start(QDate(2026, 11, 29), QTime(20, 5, 20), Qt::UTC);
    using E = net::RetryRecord::Event;
    const auto record = [&](int request, E event, int attempt, int secs) {
        net::RetryRecord r;
        r.time = start.addSecs(secs);
        r.request = request;
        r.event = event;
        r.attempt = attempt;
        return r;
    };
    log->append(record(1, E::AttemptStarted, 1, 0));
    net::RetryRecord wait = record(1, E::RetryScheduled, 1, 1);
    wait.status = 429;
    wait.category = retry::Category::RateLimit;
    wait.waitMs = wait.rawWaitMs = 7000;
    wait.waitSource = retry::WaitSource::RetryAfter;
    wait.waitedTotalMs = 7000;
    wait.budgetLeftMs = 113000;
    log->append(wait);
    log->append(record(1, E::AttemptStarted, 2, 8));
    net::RetryRecord ok = record(1, E::Succeeded, 2, 9);
    ok.status = 200;
    ok.category = retry::Category::Success;
    log->append(ok);
    log->append(record(2, E::AttemptStarted, 1, 60));
    net::RetryRecord fatal = record(2, E::GaveUp, 1, 61);
    fatal.status = 400;
    fatal.category = retry::Category::Fatal;
    fatal.reason = retry::EndReason::NotRetryable;
    log->append(fatal);
}

} // namespace

class TestRetryPanel final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void legibleInASmallWindow_data();
    void legibleInASmallWindow();
    void tokensOfARefusedAttemptClearOnSuccess();
    void cancelledWaitShowsThePartThatRan();
    void timelineRowsAtTheTopOfALargeWindow();
    void timelineLegendWholeInTheDefaultWindow();
    void categoryInWordsAndColour_data();
    void categoryInWordsAndColour();
    void newWaitSourcesInWords_data();
    void newWaitSourcesInWords();
    void pacingCountsDownOutsideTheBudget_data();
    void pacingCountsDownOutsideTheBudget();
    void sendNowByKeyboard();
    void providerWindowTexts_data();
    void providerWindowTexts();
    void providerWindowResetCountsDown();
    void reportsOfOneTurnAreShownOnceOnTheNext();
    void aBarIsPaintedAfterItsChangeNotInIt();
    void screenshots_data();
    void screenshots();

private:
    QTemporaryDir m_dir;
    int m_n = 0;
    QString ini() { return m_dir.filePath(u"settings-%1.ini"_s.arg(++m_n)); }
};

void TestRetryPanel::initTestCase()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QVERIFY(m_dir.isValid());
}

// The panel's bars change as a send ends and every second of a countdown. QProgressBar::setValue()
// paints the bar, and everything else dirty in the window, and flushes it all to the screen before
// it returns; the panel's bars are set so that the paint comes with the window's next one.
void TestRetryPanel::aBarIsPaintedAfterItsChangeNotInIt()
{
    QProgressBar bar;
    bar.setRange(0, 1000);
    bar.resize(240, 24);
    bar.show();
    QVERIFY(QTest::qWaitForWindowExposed(&bar));
    int paints = 0;
    struct PaintCounter final : QObject
    {
        int *count;
        explicit PaintCounter(int *c)
            : count(c)
        { }
        bool eventFilter(QObject *, QEvent *event) override
        {
            if (event->type() == QEvent::Paint)
                ++*count;
            return false;
        }
    } counter(&paints);
    QCoreApplication::processEvents(); // the first paint, out of the way
    bar.installEventFilter(&counter);

    // What the bar does on its own: a paint inside the call.
    bar.setValue(250);
    QVERIFY(paints > 0);

    paints = 0;
    setProgressValue(&bar, 500);
    QCOMPARE(bar.value(), 500);
    QCOMPARE(paints, 0);
    QTRY_VERIFY(paints > 0); // with the next paint of the window
    QCOMPARE(bar.value(), 500);

    paints = 0;
    setProgressValue(&bar, 500); // no change: nothing to paint
    QCoreApplication::processEvents();
    QCOMPARE(paints, 0);
    QVERIFY(bar.updatesEnabled());
}

void TestRetryPanel::legibleInASmallWindow_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("640x480") << QSize(640, 480);
    QTest::newRow("500x350") << QSize(500, 350);
}

void TestRetryPanel::legibleInASmallWindow()
{
    // During a wait every label has text, the longest ones ("provider asked 18 min; capped to
    // 60 s"): each keeps at least a line of its font, all its wrapped lines, and a place of its
    // own.
    QFETCH(QSize, size);
    Window w(ini());
    w.setScenario(u"headline"_s);
    w.window->resize(size);
    w.window->show();
    QVERIFY(QTest::qWaitForWindowExposed(w.window.get()));
    RetryPanel *panel = retryPanel(*w.window);
    w.send(u"Small window"_s);
    QTRY_COMPARE_WITH_TIMEOUT(panel->state(), RetryPanel::State::Waiting, 10000);
    QCoreApplication::sendPostedEvents(); // pending layout requests

    QList<QLabel *> labels;
    for (QLabel *label : panel->findChildren<QLabel *>()) {
        if (label->isVisibleTo(panel) && !label->text().isEmpty())
            labels << label;
    }
    QVERIFY(labels.size() >= 12); // title, state, five captions, five figures
    for (qsizetype i = 0; i < labels.size(); ++i) {
        const QLabel *l = labels.at(i);
        const QByteArray what = l->text().toUtf8() + " at "
            + QByteArray::number(inPanel(l, panel).x()) + ','
            + QByteArray::number(inPanel(l, panel).y()) + ' ' + QByteArray::number(l->width()) + 'x'
            + QByteArray::number(l->height());
        QVERIFY2(l->height() >= l->fontMetrics().height(), what.constData());
        if (l->wordWrap())
            QVERIFY2(l->height() >= l->heightForWidth(l->width()), what.constData());
        else
            QVERIFY2(l->width() >= l->minimumSizeHint().width(), what.constData());
        for (qsizetype j = 0; j < i; ++j)
            QVERIFY2(!inPanel(l, panel).intersects(inPanel(labels.at(j), panel)),
                QByteArray(what + " overlaps " + labels.at(j)->text().toUtf8()).constData());
    }
    w.window->controller()->cancelSend();
}

void TestRetryPanel::tokensOfARefusedAttemptClearOnSuccess()
{
    // 60,323 / 60,000 in the token-limit colour while the refused attempt is the latest news;
    // once the answer got through, what the answer used, in the ordinary colour.
    Window w(ini());
    w.headlineOnceThen(u"capped"_s);
    w.window->show();
    RetryPanel *panel = retryPanel(*w.window);
    QProgressBar *bar = tokensBar(panel);
    QVERIFY(bar);
    const QColor ordinary = bar->palette().color(QPalette::Highlight);
    const QColor tokenLimit = categoryColor(u"token_limit"_s, panel->palette());
    QVERIFY(ordinary != tokenLimit);
    QSignalSpy succeeded(w.window->session(), &session::ChatSession::succeeded);
    w.send(u"How do token caps work?"_s);
    QTRY_COMPARE_WITH_TIMEOUT(panel->state(), RetryPanel::State::Waiting, 10000);
    QCOMPARE(panel->tokensText(), u"60,323 / 60,000"_s);
    QCOMPARE(bar->palette().color(QPalette::Highlight), tokenLimit);
    QCOMPARE(bar->value(), bar->maximum());

    QTRY_COMPARE_WITH_TIMEOUT(panel->state(), RetryPanel::State::Succeeded, 10000);
    QCOMPARE(succeeded.count(), 1);
    const auto summary = succeeded.first().at(1).value<net::SendSummary>();
    QVERIFY(summary.usage); // the demo reports usage
    const qint64 total = summary.usage->totalTokens;
    QVERIFY(total > 0);
    QCOMPARE(panel->tokensText(), u"%1 used by the answer"_s.arg(QLocale().toString(total)));
    QCOMPARE(bar->palette().color(QPalette::Highlight), ordinary);
    QCOMPARE(bar->value(), 0);
}

void TestRetryPanel::cancelledWaitShowsThePartThatRan()
{
    // Cancelled 15 s into the 60 s wait: the retry log, the timeline and the panel all say how
    // much of it ran, and agree to the millisecond.
    Window w(ini());
    w.setScenario(u"headline"_s);
    w.window->show();
    RetryPanel *panel = retryPanel(*w.window);
    w.send(u"Cancel me part-way"_s);
    QTRY_COMPARE_WITH_TIMEOUT(panel->state(), RetryPanel::State::Waiting, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(panel->shownCountdownS() <= 45, 5000);
    w.window->controller()->cancelSend();
    QCOMPARE(panel->state(), RetryPanel::State::Cancelled);

    const net::RetryRecord &last = w.window->session()->retryLog()->records().last();
    QCOMPARE(last.event, net::RetryRecord::Event::Cancelled);
    QVERIFY(last.waitMs);
    const qint64 ran = *last.waitMs;
    QVERIFY2(ran >= 15'000 && ran < 60'000, qPrintable(QString::number(ran)));
    QCOMPARE(last.waitedTotalMs, ran);
    QCOMPARE(last.budgetLeftMs, 120'000 - ran);
    QVERIFY(!last.rawWaitMs);
    const QByteArray json = net::toJsonLine(last);
    QVERIFY2(json.contains(QByteArray(R"("wait_s":)" + QByteArray::number(double(ran) / 1000.0))),
        json.constData());

    // The panel: the budget as the log has it, the wait as far as it ran.
    QCOMPARE(qint64(std::llround(panel->shownBudgetLeftS() * 1000)), 120'000 - ran);
    const QString ranText = QString::number(std::round(double(ran) / 100.0) / 10.0);
    QCOMPARE(panel->sourceText(),
        u"provider asked 18 min; capped to 60 s; cancelled after %1 s"_s.arg(ranText));

    // The timeline: the wait ends where the cancel came; the lane waited that long.
    const TimelineLane &lane = timeline(*w.window)->lanes().last();
    QCOMPARE(lane.outcome, TimelineLane::Outcome::Cancelled);
    const TimelineSegment &wait = lane.segments.last();
    QCOMPARE(wait.kind, TimelineSegment::Kind::Wait);
    QCOMPARE(wait.endS - wait.startS, double(ran) / 1000.0);
    QCOMPARE(wait.scheduledS, 60.0);
    QVERIFY(wait.isCut());
    // In words, to the tenth of a second the panel shows.
    QCOMPARE(wait.label, u"message %1 s of 60 s"_s.arg(ranText));
    TimelineWidget *timeline = testing::widgets::timeline(*w.window);
    const QRect row = timeline->laneRect(0);
    const QString tip = timeline->toolTipAt(QPoint(timeline->width() - 20, row.center().y()));
    QVERIFY2(tip.contains(u"attempts: 1 · waited %1 s"_s.arg(ranText)), qPrintable(tip));
}

void TestRetryPanel::timelineRowsAtTheTopOfALargeWindow()
{
    Window w(ini());
    w.window->resize(2560, 1440);
    w.window->show();
    QVERIFY(QTest::qWaitForWindowExposed(w.window.get()));
    appendTwoSends(w.window->session()->retryLog());
    TimelineWidget *timeline = testing::widgets::timeline(*w.window);
    QVERIFY(timeline->height() > 600);
    const int line = timeline->fontMetrics().height();
    QCOMPARE(timeline->laneRect(0).top(), timeline->lanesArea().top());
    QVERIFY2(timeline->laneRect(0).top() < line * 3,
        qPrintable(QString::number(timeline->laneRect(0).top())));
    QCOMPARE(timeline->laneRect(1).top(), timeline->laneRect(0).bottom() + 1);
    // The axis and the legend follow the rows; the space left over is below them.
    QVERIFY(timeline->lanesArea().bottom() <= timeline->laneRect(1).bottom() + 1);
    for (const QRect &item : timeline->legendItemRects())
        QVERIFY(item.bottom() < timeline->height() / 3);
}

void TestRetryPanel::timelineLegendWholeInTheDefaultWindow()
{
    Window w(ini()); // no saved geometry: the default size
    w.window->show();
    QVERIFY(QTest::qWaitForWindowExposed(w.window.get()));
    TimelineWidget *timeline = testing::widgets::timeline(*w.window);
    const QList<QRect> items = timeline->legendItemRects();
    QCOMPARE(items.size(), legendCategories().size());
    for (const QRect &item : items)
        QVERIFY2(timeline->rect().contains(item),
            qPrintable(u"%1-%2 of %3"_s.arg(item.left()).arg(item.right()).arg(timeline->width())));
}

void TestRetryPanel::categoryInWordsAndColour_data()
{
    QTest::addColumn<retry::Category>("category");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("shown");
    QTest::newRow("too_large") << retry::Category::TooLarge << 400
                               << u"request too large (HTTP 400)"_s;
    QTest::newRow("billing") << retry::Category::Billing << 402 << u"out of credit (HTTP 402)"_s;
    QTest::newRow("token_limit") << retry::Category::TokenLimit << 422
                                 << u"token limit (HTTP 422)"_s;
    QTest::newRow("rate_limit") << retry::Category::RateLimit << 429 << u"rate limit (HTTP 429)"_s;
    QTest::newRow("network") << retry::Category::Transient << 0 << u"transient"_s;
}

void TestRetryPanel::categoryInWordsAndColour()
{
    // The send's latest failure named in words, drawn in its category's own colour (the one the
    // timeline and the log table use); a new send starts without one.
    QFETCH(retry::Category, category);
    QFETCH(int, status);
    QFETCH(QString, shown);
    RetryPanel panel;
    Driver d(&panel);
    QLabel *label = nullptr;
    for (QLabel *l : panel.findChildren<QLabel *>()) {
        if (l->accessibleName() == u"Last failure")
            label = l;
    }
    QVERIFY(label);
    d.start(1);
    Q_EMIT d.client.attemptStarted(1, 1, 5);
    QCOMPARE(panel.failureText(), u"–"_s);
    net::AttemptFailure f;
    f.attempt = 1;
    f.status = status;
    f.category = category;
    Q_EMIT d.client.attemptFailed(1, f);
    net::SendSummary summary;
    summary.outcome = net::SendSummary::Outcome::GaveUp;
    summary.reason = retry::EndReason::NotRetryable;
    summary.attempts = 1;
    Q_EMIT d.client.gaveUp(1, summary);
    QCOMPARE(panel.failureText(), shown);
    QCOMPARE(label->text(), shown);
    const QString name = QString::fromLatin1(retry::nameOf(category));
    const QColor colour = categoryColor(name, panel.palette());
    QCOMPARE(label->palette().color(QPalette::WindowText), colour);
    for (const QString &other : legendCategories()) {
        if (other != name)
            QVERIFY2(categoryColor(other, panel.palette()) != colour, qPrintable(other));
    }
    QCOMPARE(panel.stateText(), u"Gave up: the error is not one that waiting can fix"_s);

    d.start(2);
    QCOMPARE(panel.failureText(), u"–"_s);
}

void TestRetryPanel::newWaitSourcesInWords_data()
{
    QTest::addColumn<retry::WaitSource>("source");
    QTest::addColumn<int>("waitS");
    QTest::addColumn<int>("rawWaitS");
    QTest::addColumn<QString>("shown");
    QTest::newRow("retry-delay") << retry::WaitSource::RetryDelay << 7 << 7
                                 << u"retryDelay in the error: 7 s"_s;
    QTest::newRow("retry-delay capped")
        << retry::WaitSource::RetryDelay << 60 << 90
        << u"retryDelay in the error asked 1 min 30 s; capped to 60 s"_s;
    QTest::newRow("ratelimit-reset")
        << retry::WaitSource::RateLimitReset << 30 << 30 << u"rate-limit reset header: 30 s"_s;
    QTest::newRow("ratelimit-reset capped")
        << retry::WaitSource::RateLimitReset << 60 << 1080
        << u"rate-limit reset header asked 18 min; capped to 60 s"_s;
}

void TestRetryPanel::newWaitSourcesInWords()
{
    QFETCH(retry::WaitSource, source);
    QFETCH(int, waitS);
    QFETCH(int, rawWaitS);
    QFETCH(QString, shown);
    RetryPanel panel;
    Driver d(&panel);
    d.start(1);
    net::RetryInfo info;
    info.failedAttempt = 1;
    info.nextAttempt = 2;
    info.wait = std::chrono::seconds(waitS);
    info.rawWait = std::chrono::seconds(rawWaitS);
    info.source = source;
    Q_EMIT d.client.retryScheduled(1, info);
    QCOMPARE(panel.sourceText(), shown);
    net::SendSummary cancelled;
    cancelled.outcome = net::SendSummary::Outcome::Cancelled;
    Q_EMIT d.client.cancelled(1, cancelled);
    QCOMPARE(panel.state(), RetryPanel::State::Cancelled);
}

void TestRetryPanel::pacingCountsDownOutsideTheBudget_data()
{
    QTest::addColumn<bool>("tokensFull");
    QTest::addColumn<QString>("why");
    QTest::addColumn<QString>("header");
    QTest::newRow("tokens") << true << u"(the provider's window is full)"_s
                            << u"x-ratelimit-reset-tokens"_s;
    QTest::newRow("requests") << false << u"(the provider's request limit is reached)"_s
                              << u"x-ratelimit-reset-requests"_s;
}

void TestRetryPanel::pacingCountsDownOutsideTheBudget()
{
    // Before attempt 1 the send waits for the provider's window: the panel says so and why,
    // counts down on the session's ticks, leaves the budget whole, offers Send now; the first
    // attempt ends all of it.
    QFETCH(bool, tokensFull);
    QFETCH(QString, why);
    QFETCH(QString, header);
    RetryPanel panel;
    Driver d(&panel);
    QSignalSpy states(&panel, &RetryPanel::stateChanged);
    QPushButton *sendNow = sendNowButton(&panel);
    QVERIFY(sendNow);
    QVERIFY(sendNow->isHidden());
    QCOMPARE(panel.pacingText(), QString());

    const net::PacePlan plan = fullWindow(tokensFull);
    d.start(1);
    Q_EMIT d.client.pacingStarted(1, plan);
    QCOMPARE(panel.state(), RetryPanel::State::Pacing);
    QCOMPARE(states.constLast().at(0).value<RetryPanel::State>(), RetryPanel::State::Pacing);
    QCOMPARE(panel.pacingText(), u"Pacing: sending in 12 s "_s + why);
    QCOMPARE(panel.stateText(), panel.pacingText());
    QCOMPARE(panel.countdownText(), u"12.0 s"_s);
    QCOMPARE(panel.budgetText(), u"120.0 s of 120 s"_s);
    QCOMPARE(panel.sourceText(), header + u" header: 12 s (pacing, outside the retry budget)"_s);
    QVERIFY(!sendNow->isHidden());

    d.tick(7200);
    QCOMPARE(panel.shownCountdownS(), 7.2);
    QCOMPARE(panel.pacingText(), u"Pacing: sending in 8 s "_s + why);
    QCOMPARE(panel.shownBudgetLeftS(), 120.0);
    QProgressBar *progress = barNamed(&panel, u"Wait progress"_s);
    QVERIFY(progress);
    QCOMPARE(progress->value(), 400);
    QCOMPARE(progress->palette().color(QPalette::Highlight), pacedColor(panel.palette()));
    d.tick(300);
    QCOMPARE(panel.pacingText(), u"Pacing: sending in 1 s "_s + why);

    QSignalSpy sendNowSpy(&panel, &RetryPanel::sendNowRequested);
    sendNow->click();
    QCOMPARE(sendNowSpy.count(), 1);

    // Attempt 1: the normal states follow, and Send now goes.
    Q_EMIT d.client.attemptStarted(1, 1, 5);
    QCOMPARE(panel.state(), RetryPanel::State::Sending);
    QCOMPARE(panel.stateText(), u"Sending…"_s);
    QCOMPARE(panel.pacingText(), QString());
    QVERIFY(sendNow->isHidden());
    QCOMPARE(panel.sourceText(), u"–"_s);
    net::SendSummary done;
    done.outcome = net::SendSummary::Outcome::Succeeded;
    done.attempts = 1;
    Q_EMIT d.client.succeeded(1, done);
    QCOMPARE(panel.state(), RetryPanel::State::Succeeded);
}

void TestRetryPanel::sendNowByKeyboard()
{
    // Send now is a Tab stop with a name, pressed with Space; a send cancelled while it paced
    // still says where its wait came from.
    RetryPanel panel;
    Driver d(&panel);
    panel.resize(320, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowActive(&panel));
    d.start(1);
    Q_EMIT d.client.pacingStarted(1, fullWindow());
    d.tick(9500);
    QCOMPARE(panel.pacingText(), u"Pacing: sending in 10 s (the provider's window is full)"_s);
    QCOMPARE(panel.shownCountdownS(), 9.5);
    QPushButton *sendNow = sendNowButton(&panel);
    QVERIFY(sendNow->isVisible());
    QCOMPARE(sendNow->accessibleName(), u"Send now"_s);
    QVERIFY(!sendNow->accessibleDescription().isEmpty());
    panel.findChild<QScrollArea *>()->setFocus();
    for (int i = 0; i < 10 && QApplication::focusWidget() != sendNow; ++i)
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
    QCOMPARE(QApplication::focusWidget(), sendNow);
    QSignalSpy sendNowSpy(&panel, &RetryPanel::sendNowRequested);
    QTest::keyClick(sendNow, Qt::Key_Space);
    QCOMPARE(sendNowSpy.count(), 1);

    net::SendSummary cancelled;
    cancelled.outcome = net::SendSummary::Outcome::Cancelled;
    cancelled.cutWait = retry::Millis(4230); // as ChatClient says it: the part that ran
    Q_EMIT d.client.cancelled(1, cancelled);
    QCOMPARE(panel.state(), RetryPanel::State::Cancelled);
    QVERIFY(sendNow->isHidden());
    QCOMPARE(panel.sourceText(),
        u"x-ratelimit-reset-tokens header: 12 s (pacing, outside the retry budget); cancelled "
        u"after 4.2 s"_s);
    QCOMPARE(panel.budgetText(), u"120.0 s of 120 s"_s);
}

void TestRetryPanel::providerWindowTexts_data()
{
    const QDateTime at(QDate(2026, 12, 2), QTime(0, 30), Qt::UTC);
    QTest::addColumn<std::optional<history::ProviderWindowRecord>>("window");
    QTest::addColumn<QString>("shown");
    QTest::addColumn<int>("tokensBar"); ///< -1: hidden
    QTest::addColumn<int>("requestsBar");

    const QString none = u"The provider reports no window."_s;
    QTest::newRow("none") << std::optional<history::ProviderWindowRecord>() << none << -1 << -1;
    history::ProviderWindowRecord empty;
    empty.provider = u"demo"_s;
    empty.receivedAt = at;
    QTest::newRow("no figure") << std::make_optional(empty) << none << -1 << -1;
    history::ProviderWindowRecord resetOnly = empty;
    resetOnly.tokensResetAt = at.addSecs(34);
    QTest::newRow("a reset without figures") << std::make_optional(resetOnly) << none << -1 << -1;
    history::ProviderWindowRecord limitsOnly = resetOnly;
    limitsOnly.limitTokens = 6000;
    limitsOnly.limitRequests = 1000;
    QTest::newRow("limits without what is left")
        << std::make_optional(limitsOnly) << none << -1 << -1;

    const history::ProviderWindowRecord full = windowRecord(at);
    QTest::newRow("tokens and requests")
        << std::make_optional(full)
        << u"Tokens left: 4,000 of 6,000\nRequests left: 997 of 1,000\nResets in 34 s"_s << 666
        << 997;
    history::ProviderWindowRecord noLimit = full;
    noLimit.limitTokens.reset();
    noLimit.limitRequests.reset();
    noLimit.remainingRequests.reset();
    noLimit.requestsResetAt = {};
    QTest::newRow("tokens without a limit")
        << std::make_optional(noLimit) << u"Tokens left: 4,000\nResets in 34 s"_s << -1 << -1;
    history::ProviderWindowRecord spent = full;
    spent.remainingTokens = 0;
    spent.requestsResetAt = at.addMSecs(500);
    QTest::newRow("two resets")
        << std::make_optional(spent)
        << u"Tokens left: 0 of 6,000\nRequests left: 997 of 1,000\nResets: tokens in 34 s · "
           u"requests in 1 s"_s
        << 0 << 997;
    history::ProviderWindowRecord noReset = full;
    noReset.tokensResetAt = noReset.requestsResetAt = {};
    QTest::newRow("no reset") << std::make_optional(noReset)
                              << u"Tokens left: 4,000 of 6,000\nRequests left: 997 of 1,000"_s
                              << 666 << 997;
}

void TestRetryPanel::providerWindowTexts()
{
    QFETCH(std::optional<history::ProviderWindowRecord>, window);
    QFETCH(QString, shown);
    QFETCH(int, tokensBar);
    QFETCH(int, requestsBar);
    RetryPanel panel;
    const QDateTime now(QDate(2026, 12, 2), QTime(0, 30), Qt::UTC);
    panel.setWallClock([now] { return now; });
    panel.setProviderWindow(window);
    QCOMPARE(panel.providerWindowText(), shown);
    QVERIFY(!panel.providerWindowText().contains(u"0 of 0"_s));
    for (const auto &[name, value] :
        { std::pair { u"Share of the provider's token limit left"_s, tokensBar },
            std::pair { u"Share of the provider's request limit left"_s, requestsBar } }) {
        QProgressBar *b = barNamed(&panel, name);
        QVERIFY2(b, qPrintable(name));
        QCOMPARE(b->isHidden(), value < 0);
        if (value >= 0)
            QCOMPARE(b->value(), value);
    }
    for (QLabel *l : panel.findChildren<QLabel *>()) {
        if (!l->isHidden() && shown.contains(l->text()) && !l->text().isEmpty())
            QVERIFY2(!l->accessibleName().isEmpty(), qPrintable(l->text()));
    }
}

void TestRetryPanel::providerWindowResetCountsDown()
{
    // "Resets in 34 s" falls on the panel's own timer, says the window renewed once the reset
    // passed, and the timer stops then; a new report starts it again.
    RetryPanel panel;
    const QDateTime received(QDate(2026, 12, 2), QTime(0, 30), Qt::UTC);
    QDateTime now = received;
    panel.setWallClock([&now] { return now; });
    QTimer *timer = nullptr;
    for (QTimer *t : panel.findChildren<QTimer *>()) {
        if (t->interval() == 1000)
            timer = t;
    }
    QVERIFY(timer);
    QVERIFY(!timer->isActive());
    panel.setProviderWindow(windowRecord(received));
    QVERIFY(panel.providerWindowText().endsWith(u"Resets in 34 s"_s));
    QVERIFY(timer->isActive());
    now = received.addMSecs(30'200);
    QTRY_VERIFY_WITH_TIMEOUT(panel.providerWindowText().endsWith(u"Resets in 4 s"_s), 3000);
    now = received.addSecs(35);
    QTRY_VERIFY_WITH_TIMEOUT(
        panel.providerWindowText().endsWith(
            u"Window renewed since this report: the figures are out of date"_s),
        3000);
    QVERIFY(!timer->isActive());
    QVERIFY(panel.providerWindowText().startsWith(u"Tokens left: 4,000 of 6,000"_s));
    panel.setProviderWindow(windowRecord(now));
    QTRY_VERIFY(timer->isActive()); // once the report is shown, on the next turn
    panel.setProviderWindow(std::nullopt);
    QCOMPARE(panel.providerWindowText(), u"The provider reports no window."_s);
    QVERIFY(!timer->isActive());
}

namespace {
int g_windowAnnouncements = 0;
}

void TestRetryPanel::reportsOfOneTurnAreShownOnceOnTheNext()
{
    // A report comes as an attempt ends, in the turn that also ends the send: the window part
    // (word-wrapped labels, their layout and paint) is shown on the next turn, once for all the
    // reports of that turn, and a screen reader hears it once. Asked for, it is shown at once.
    RetryPanel panel;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    panel.setWallClock([now] { return now; });
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCoreApplication::processEvents();
    g_windowAnnouncements = 0;
    RetryPanel::setAnnouncementObserver([](QAccessibleEvent *) { ++g_windowAnnouncements; });
    const auto restore = qScopeGuard([] { RetryPanel::setAnnouncementObserver(nullptr); });
    history::ProviderWindowRecord report = windowRecord(now);
    for (int left : { 4000, 3000, 2000 }) {
        report.remainingTokens = left;
        panel.setProviderWindow(report);
    }
    QCOMPARE(g_windowAnnouncements, 0); // nothing shown in the turn of the reports
    QTRY_COMPARE(g_windowAnnouncements, 1);
    QVERIFY2(panel.providerWindowText().startsWith(u"Tokens left: 2,000 of 6,000"_s),
        qPrintable(panel.providerWindowText()));
    QTest::qWait(20);
    QCOMPARE(g_windowAnnouncements, 1);
    // Read before its turn, it is the last report's.
    report.remainingTokens = 1000;
    panel.setProviderWindow(report);
    QVERIFY2(panel.providerWindowText().startsWith(u"Tokens left: 1,000 of 6,000"_s),
        qPrintable(panel.providerWindowText()));
    QCOMPARE(g_windowAnnouncements, 2);
}

void TestRetryPanel::screenshots_data()
{
    QTest::addColumn<QString>("lang");
    QTest::newRow("en") << u"en"_s;
    QTest::newRow("de") << u"de"_s;
    QTest::newRow("zh_CN") << u"zh_CN"_s;
}

void TestRetryPanel::screenshots()
{
    const QString dir = qEnvironmentVariable("CAPWATCH_SHOT_DIR");
    if (dir.isEmpty())
        QSKIP("set CAPWATCH_SHOT_DIR to write screenshots");
    QFETCH(QString, lang);
    const UiLanguage language
        = chooseUiLanguage(lang, QLocale::c(), QStringLiteral(CAPWATCH_QM_DIR));
    const QList<QTranslator *> translators = installTranslations(
        QCoreApplication::instance(), language, QStringLiteral(CAPWATCH_QM_DIR));
    const QLocale before;
    QLocale::setDefault(language.locale);
    const auto cleanup = qScopeGuard([&] {
        for (QTranslator *t : translators) {
            QCoreApplication::removeTranslator(t);
            delete t;
        }
        QLocale::setDefault(before);
    });

    for (const QSize size : { QSize(640, 480), QSize(2560, 1440), QSize() }) {
        // A send that waited once and got its answer, then one cancelled 15 s into its wait.
        Window w(ini());
        w.headlineOnceThen(u"capped"_s);
        if (size.isValid())
            w.window->resize(size);
        w.window->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.window.get()));
        w.send(u"How do token caps work?"_s);
        QTRY_COMPARE_WITH_TIMEOUT(
            retryPanel(*w.window)->state(), RetryPanel::State::Succeeded, 10000);
        w.setScenario(u"headline"_s);
        w.send(u"Hello"_s);
        QTRY_COMPARE_WITH_TIMEOUT(
            retryPanel(*w.window)->state(), RetryPanel::State::Waiting, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(retryPanel(*w.window)->shownCountdownS() <= 45, 5000);
        const QString name
            = size.isValid() ? u"%1x%2"_s.arg(size.width()).arg(size.height()) : u"default"_s;
        w.window->controller()->cancelSend();
        QVERIFY(w.window->grab().save(QDir(dir).filePath(u"window-%1-%2.png"_s.arg(name, lang))));
        tabs(*w.window)->setCurrentIndex(1);
        QVERIFY(
            w.window->grab().save(QDir(dir).filePath(u"window-%1-%2-log.png"_s.arg(name, lang))));
    }

    // Revision 2: a request too large, then an account out of credit, as the panel, the timeline
    // and the log table show them.
    Window w(ini());
    w.window->resize(1280, 800);
    w.window->show();
    QVERIFY(QTest::qWaitForWindowExposed(w.window.get()));
    net::RetryLog *log = w.window->session()->retryLog();
    const QDateTime start(QDate(2026, 11, 29), QTime(20, 5, 20), Qt::UTC);
    for (int request : { 1, 2 }) {
        net::RetryRecord r;
        r.time = start.addSecs(request * 30);
        r.request = request;
        r.event = net::RetryRecord::Event::AttemptStarted;
        r.attempt = 1;
        log->append(r);
        r.event = net::RetryRecord::Event::GaveUp;
        r.status = request == 1 ? 400 : 402;
        r.category = request == 1 ? retry::Category::TooLarge : retry::Category::Billing;
        r.reason = retry::EndReason::NotRetryable;
        r.error = request == 1
            ? u"This model's maximum context length is 8192 tokens. However, you requested 9000 tokens."_s
            : u"Insufficient Balance"_s;
        log->append(r);
    }
    Driver failedSend(retryPanel(*w.window)); // the panel's view of a failed send
    failedSend.start(2);
    Q_EMIT failedSend.client.attemptStarted(2, 1, 5);
    net::AttemptFailure f;
    f.attempt = 1;
    f.status = 402;
    f.category = retry::Category::Billing;
    Q_EMIT failedSend.client.attemptFailed(2, f);
    net::SendSummary summary;
    summary.outcome = net::SendSummary::Outcome::GaveUp;
    summary.reason = retry::EndReason::NotRetryable;
    summary.attempts = 1;
    Q_EMIT failedSend.client.gaveUp(2, summary);
    QVERIFY(w.window->grab().save(QDir(dir).filePath(u"window-rev2-%1.png"_s.arg(lang))));
    tabs(*w.window)->setCurrentIndex(1);
    QVERIFY(w.window->grab().save(QDir(dir).filePath(u"window-rev2-%1-log.png"_s.arg(lang))));
    failedSend.send.reset();

    // Issue 16: the panel alone while a send paces, with the provider window part under it.
    RetryPanel panel;
    Driver pacing(&panel);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    panel.setWallClock([now] { return now; });
    history::ProviderWindowRecord window = windowRecord(now);
    window.remainingTokens = 40;
    window.tokensResetAt = now.addSecs(12);
    panel.setProviderWindow(window);
    pacing.start(3);
    Q_EMIT pacing.client.pacingStarted(3, fullWindow());
    panel.resize(340, 700);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    // As tall as its figures at that width (the panel scrolls in a smaller window).
    const QWidget *content = panel.findChild<QScrollArea *>()->widget();
    const int tall = content->heightForWidth(340);
    panel.resize(340, tall > 0 ? tall : content->sizeHint().height());
    QVERIFY(panel.grab().save(QDir(dir).filePath(u"panel-pacing-%1.png"_s.arg(lang))));
    RetryPanel quiet;
    quiet.setProviderWindow(std::nullopt);
    quiet.resize(340, quiet.sizeHint().height());
    quiet.show();
    QVERIFY(QTest::qWaitForWindowExposed(&quiet));
    QVERIFY(quiet.grab().save(QDir(dir).filePath(u"panel-no-window-%1.png"_s.arg(lang))));
}

QTEST_MAIN(TestRetryPanel)
#include "tst_retrypanel.moc"
