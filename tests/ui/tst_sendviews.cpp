// One send, many views: a SendState sequence (a session::Send driven by a script of the chat
// client's steps, with the ticks of its waits) is rendered by every view of a send at once: the
// retry panel, the status bar's line, the card's status line, the timeline's live wait, the
// Queue's row and capwatch-cli's progress lines. They must agree on every figure: the attempt
// and its maximum, the countdown, the budget, where the wait came from, the failure, the parked
// send's countdown and standing.

#include "net/chatclient.h"
#include "session/chatsession.h"
#include "session/parkinglot.h"
#include "session/send.h"
#include "session/sendtexts.h"
#include "ui/panel/retrypanel.h"
#include "ui/panel/sendstatus.h"
#include "ui/parking/parkedqueuemodel.h"
#include "ui/timeline/timelinewidget.h"

#include <QLabel>
#include <QLocale>
#include <QStatusBar>
#include <QTest>
#include <cmath>
#include <memory>

using namespace capwatch;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using session::SendPhase;
using session::SendState;

namespace {

constexpr quint64 kId = 3;

/// Every view of a send, as the window and capwatch-cli have them.
struct Views
{
    Views()
        : status(&idle, &bar)
    { }
    /// Renders `s` everywhere.
    void render(const SendState &s)
    {
        panel.render(s);
        status.render(s);
        timeline.showSend(s);
        card = session::SendTexts::statusLine(s);
        if (s.lastFailure)
            cliFailure = session::SendTexts::attemptFailedLine(s);
        if (s.waiting())
            cliWaiting = session::SendTexts::waitingLine(s);
    }
    session::ChatSession idle; // the status bar's session: it sends nothing
    QStatusBar bar;
    ui::RetryPanel panel;
    ui::SendStatus status;
    ui::TimelineWidget timeline;
    QString card;
    QString cliFailure;
    QString cliWaiting;
};

/// The headline's cycle as the client reports it: a token limit, "Retry in 18 min" capped to
/// 60 s, twice, then the budget is spent. Ticks of each wait are states too.
QList<SendState> headlineSequence()
{
    net::ChatClient client;
    session::ProviderChoice to;
    to.profileName = u"Demo"_s;
    session::Send send(&client, u"Over the cap"_s, {}, to, false);
    QList<SendState> states;
    QObject::connect(
        &send, &session::Send::changed, &send, [&states](const SendState &s) { states.append(s); });
    QObject::connect(&send, &session::Send::ended, &send, [&send] { send.publish(); });
    const auto tick = [&](qint64 leftMs, qint64 budgetMs) {
        SendState s = send.state();
        s.waitLeft = retry::Millis(leftMs);
        s.budgetLeft = retry::Millis(budgetMs);
        states.append(s);
    };
    Q_EMIT client.sendStarted(kId);
    for (int attempt = 1; attempt <= 3; ++attempt) {
        Q_EMIT client.attemptStarted(kId, attempt, 5);
        net::AttemptFailure f;
        f.attempt = attempt;
        f.status = 422;
        f.category = retry::Category::TokenLimit;
        f.used = 60323;
        f.limit = 60000;
        Q_EMIT client.attemptFailed(kId, f);
        if (attempt == 3)
            break;
        net::RetryInfo info;
        info.failedAttempt = attempt;
        info.nextAttempt = attempt + 1;
        info.wait = 60s;
        info.rawWait = 1080s;
        info.source = retry::WaitSource::Message;
        info.waitedTotal = retry::Millis(60'000 * attempt);
        info.budgetLeft = retry::Millis(120'000 - 60'000 * attempt);
        const qint64 budgetBefore = 120'000 - 60'000 * (attempt - 1);
        Q_EMIT client.retryScheduled(kId, info);
        for (const qint64 left : { 60'000, 42'300, 17'050, 400 })
            tick(left, budgetBefore - (60'000 - left));
    }
    net::SendSummary end;
    end.outcome = net::SendSummary::Outcome::GaveUp;
    end.reason = retry::EndReason::BudgetExhausted;
    end.attempts = 3;
    Q_EMIT client.gaveUp(kId, end);
    return states;
}

} // namespace

class TestSendViews final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void everyViewAgreesOnEveryFigure();
    void aPacedSendReadsTheSameEverywhere();
    void aParkedSendReadsTheSameInThePanelAndTheQueue();
};

void TestSendViews::initTestCase()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void TestSendViews::everyViewAgreesOnEveryFigure()
{
    const QList<SendState> states = headlineSequence();
    QVERIFY(states.size() > 12);
    Views v;
    int waits = 0;
    for (const SendState &s : states) {
        v.render(s);
        const QString at = u"phase %1, attempt %2, %3 ms left"_s.arg(int(s.phase))
                               .arg(s.attempt)
                               .arg(s.waitLeft.count());
        // The attempt: the panel's figure is the status bar's and the CLI's.
        const QString attemptOf = u"%1 of 5"_s.arg(s.attempt);
        if (s.attempt > 0) {
            QCOMPARE(v.panel.attemptText(), attemptOf);
            if (s.running())
                QVERIFY2(v.status.text().contains(u"Attempt "_s + attemptOf), qPrintable(at));
        }
        if (s.lastFailure) {
            QCOMPARE(v.panel.failureText(), u"token limit (HTTP 422)"_s);
            QVERIFY2(v.cliFailure.startsWith(
                         u"attempt %1 of 5 failed: 422 "_s.arg(s.lastFailure->attempt)),
                qPrintable(v.cliFailure));
            QVERIFY(v.cliFailure.contains(u"token_limit (used 60323, limit 60000)"_s));
            QCOMPARE(v.panel.tokensText(), u"60,323 / 60,000"_s);
        }
        if (s.waiting()) {
            ++waits;
            // The countdown: the panel's, the status bar's; the card's in whole seconds up.
            const QString countdown = v.panel.countdownText();
            QCOMPARE(countdown,
                QLocale().toString(double(s.waitLeft.count()) / 1000.0, 'f', 1) + u" s"_s);
            QVERIFY2(
                v.status.text().endsWith(u"retry in "_s + countdown), qPrintable(v.status.text()));
            const int up = int((s.waitLeft.count() + 999) / 1000);
            QCOMPARE(v.card, u"Retrying in %1 s: token limit"_s.arg(up));
            // The timeline draws the part that ran: with the countdown, the whole wait.
            QCOMPARE(v.timeline.liveRequest(), int(kId));
            QCOMPARE(v.timeline.liveElapsedS() + v.panel.shownCountdownS(), 60.0);
            // Where the wait came from: the panel's sentence, inside the CLI's line.
            QCOMPARE(v.panel.sourceText(), u"provider asked 18 min; capped to 60 s"_s);
            QVERIFY2(v.cliWaiting.contains(u"("_s + v.panel.sourceText() + u")"_s),
                qPrintable(v.cliWaiting));
            QVERIFY2(
                v.cliWaiting.contains(u"before attempt "_s + attemptOf), qPrintable(v.cliWaiting));
            // The budget: the panel's live figure; the CLI's line says it as the wait began.
            QCOMPARE(v.panel.shownBudgetLeftS(), double(s.budgetLeft.count()) / 1000.0);
            const int budgetAtSchedule = 120 - 60 * (s.attempt - 1);
            QVERIFY2(
                v.cliWaiting.contains(u"; %1 s of the 120 s budget left"_s.arg(budgetAtSchedule)),
                qPrintable(v.cliWaiting));
        } else {
            QCOMPARE(v.timeline.liveRequest(), -1);
            QCOMPARE(v.panel.countdownText(), u"–"_s);
        }
        QCOMPARE(v.panel.stateText(), session::SendTexts::phase(s));
    }
    QCOMPARE(waits, 10); // two waits: each scheduled, then four ticks
    // The end: gave up on the budget, everywhere.
    const SendState &last = states.last();
    QCOMPARE(last.phase, SendPhase::GaveUp);
    QCOMPARE(v.panel.state(), SendPhase::GaveUp);
    QCOMPARE(
        v.panel.stateText(), u"Gave up: budget exhausted (the 120 s of waiting are used up)"_s);
    QCOMPARE(v.panel.attemptText(), u"3 of 5"_s);
    QVERIFY(v.status.text().isEmpty()); // nothing in flight
    QVERIFY(v.status.isHidden());
}

void TestSendViews::aPacedSendReadsTheSameEverywhere()
{
    net::ChatClient client;
    session::Send send(&client, u"p"_s, {}, session::ProviderChoice {}, false);
    Views v;
    QObject::connect(
        &send, &session::Send::changed, &send, [&v](const SendState &s) { v.render(s); });
    Q_EMIT client.sendStarted(kId);
    net::PacePlan plan;
    plan.wait = 12s;
    plan.source = retry::WaitSource::RateLimitReset;
    plan.tokensFull = true;
    Q_EMIT client.pacingStarted(kId, plan);
    SendState s = send.state();
    s.waitLeft = 7200ms;
    v.render(s);
    const QString line = u"Pacing: sending in 8 s (the provider's window is full)"_s;
    QCOMPARE(v.panel.stateText(), line);
    QCOMPARE(v.panel.pacingText(), line);
    QCOMPARE(v.status.text(), line);
    QCOMPARE(v.panel.countdownText(), u"7.2 s"_s);
    QCOMPARE(v.panel.budgetText(), u"120.0 s of 120 s"_s); // pacing spends none of it
    QCOMPARE(v.timeline.liveRequest(), -1); // not a retry's wait
}

void TestSendViews::aParkedSendReadsTheSameInThePanelAndTheQueue()
{
    // The panel shows the parked send of the conversation; the Queue lists it: the same
    // countdown and the same standing, from the same state.
    const QDateTime now(QDate(2026, 12, 4), QTime(13, 51, 0), Qt::UTC);
    session::ParkingLot lot;
    lot.setWallClock([now] { return now; });
    history::ParkedSend p;
    p.conversation = QUuid::createUuid();
    p.prompt = u"Over the cap"_s;
    p.provider = u"demo"_s;
    p.parkedAt = now.addSecs(-60);
    p.dueAt = now.addSecs(17 * 60 + 42);
    p.resetAt = p.dueAt;
    p.parksInARow = 1;
    p.id = lot.park(p);
    ui::ParkedQueueModel queue;
    queue.setLot(&lot);
    QCOMPARE(queue.rowCount(), 1);
    const session::ParkedState standing = session::parkedState(lot, p);
    QCOMPARE(standing, session::ParkedState::Waiting);
    Views v;
    // The panel showed the send's end (gave up capped on attempt 3) before it was parked.
    const SendState ended = headlineSequence().last();
    v.render(ended);
    v.panel.showParked(p, standing, now);
    const SendState shown = v.panel.shown();
    QCOMPARE(shown.phase, SendPhase::Parked);
    QCOMPARE(v.panel.attemptText(), u"3 of 5"_s); // the send's own figures stay
    QCOMPARE(v.panel.failureText(), u"token limit (HTTP 422)"_s);
    const auto caption = [&v] {
        for (const QLabel *l : v.panel.findChildren<QLabel *>()) {
            if (l->text() == u"Provider's reset in"_s)
                return true;
        }
        return false;
    };
    QVERIFY(caption());
    const QString countdown
        = queue.data(queue.index(0, ui::ParkedQueueModel::CountdownColumn)).toString();
    QCOMPARE(countdown, u"17:42"_s);
    QCOMPARE(v.panel.countdownText(), countdown);
    QVERIFY2(v.panel.stateText().contains(u"in "_s + countdown), qPrintable(v.panel.stateText()));
    QCOMPARE(queue.data(queue.index(0, ui::ParkedQueueModel::StateColumn)).toString(),
        session::SendTexts::phaseName(shown));
    QCOMPARE(session::SendTexts::phaseName(shown), u"waiting"_s);
    // Due, or waiting for its provider: still a parked send, in the panel's parked look.
    for (const session::ParkedState due :
        { session::ParkedState::Due, session::ParkedState::WaitsForProvider }) {
        v.panel.showParked(p, due, p.dueAt.addSecs(5));
        QVERIFY(v.panel.shown().isParked());
        QVERIFY(caption());
        QCOMPARE(v.panel.countdownText(), u"–"_s);
        QCOMPARE(v.panel.attemptText(), u"3 of 5"_s);
    }
    // Taken out without going out: the panel shows the send's end again; nothing parked.
    v.panel.clearParked();
    QVERIFY(!v.panel.shown().isParked());
    QCOMPARE(v.panel.state(), SendPhase::GaveUp);
    QCOMPARE(
        v.panel.stateText(), u"Gave up: budget exhausted (the 120 s of waiting are used up)"_s);
    QVERIFY(!caption());
}

QTEST_MAIN(TestSendViews)
#include "tst_sendviews.moc"
