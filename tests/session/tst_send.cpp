// One send's state machine without a provider, a window or a clock: a session::Send is driven by
// a script of the chat client's steps (the test emits them; nothing is sent), and each row of
// the table says the state it must end in and how SendTexts words it. A transition that goes
// wrong fails its row by name. Links no Qt Widgets.

#include "net/chatclient.h"
#include "session/send.h"
#include "session/sendtexts.h"

#include <QElapsedTimer>
#include <QLocale>
#include <QSignalSpy>
#include <QStringList>
#include <QTest>
#include <memory>

using namespace capwatch;
using namespace capwatch::session;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

constexpr quint64 kId = 7;

/// Plays one step of the script on `client`: "attempt 2", "fail 2 422 token_limit 60323 60000",
/// "retry 3 60000 1080000 message 0", "pace 12000 tokens", "answer", "succeed 3 412",
/// "giveup 3 budget_exhausted", "cancel 4230". Figures are milliseconds and tokens.
void play(net::ChatClient &client, const QString &step)
{
    const QStringList w = step.split(u' ');
    const QString &verb = w.at(0);
    const auto n = [&w](int i) { return w.value(i).toLongLong(); };
    if (verb == u"attempt") {
        Q_EMIT client.attemptStarted(kId, int(n(1)), 5);
    } else if (verb == u"fail") {
        net::AttemptFailure f;
        f.attempt = int(n(1));
        f.status = int(n(2));
        f.category = w.at(3) == u"token_limit" ? retry::Category::TokenLimit
            : w.at(3) == u"rate_limit"         ? retry::Category::RateLimit
            : w.at(3) == u"transient"          ? retry::Category::Transient
                                               : retry::Category::Fatal;
        if (w.size() > 5) {
            f.used = double(n(4));
            f.limit = double(n(5));
        }
        Q_EMIT client.attemptFailed(kId, f);
    } else if (verb == u"retry") {
        net::RetryInfo info;
        info.nextAttempt = int(n(1));
        info.failedAttempt = info.nextAttempt - 1;
        info.wait = retry::Millis(n(2));
        info.rawWait = retry::Millis(n(3));
        info.source = w.at(4) == u"message" ? retry::WaitSource::Message
            : w.at(4) == u"retry-after"     ? retry::WaitSource::RetryAfter
                                            : retry::WaitSource::Backoff;
        info.budgetLeft = retry::Millis(n(5));
        Q_EMIT client.retryScheduled(kId, info);
    } else if (verb == u"pace") {
        net::PacePlan plan;
        plan.wait = retry::Millis(n(1));
        plan.source = retry::WaitSource::RateLimitReset;
        plan.tokensFull = w.at(2) == u"tokens";
        Q_EMIT client.pacingStarted(kId, plan);
    } else if (verb == u"answer") {
        Q_EMIT client.answerStarted(kId, 200);
        Q_EMIT client.answerText(kId, u"Hello"_s);
    } else if (verb == u"succeed") {
        net::SendSummary s;
        s.outcome = net::SendSummary::Outcome::Succeeded;
        s.attempts = int(n(1));
        s.usage = net::Usage {};
        s.usage->totalTokens = n(2);
        Q_EMIT client.succeeded(kId, s);
    } else if (verb == u"giveup") {
        net::SendSummary s;
        s.outcome = net::SendSummary::Outcome::GaveUp;
        s.attempts = int(n(1));
        s.reason = w.at(2) == u"budget_exhausted" ? retry::EndReason::BudgetExhausted
            : w.at(2) == u"attempts_exhausted"    ? retry::EndReason::AttemptsExhausted
                                                  : retry::EndReason::NotRetryable;
        Q_EMIT client.gaveUp(kId, s);
    } else if (verb == u"cancel") {
        net::SendSummary s;
        s.outcome = net::SendSummary::Outcome::Cancelled;
        if (w.size() > 1)
            s.cutWait = retry::Millis(n(1));
        Q_EMIT client.cancelled(kId, s);
    } else {
        QFAIL(qPrintable(u"unknown step: "_s + step));
    }
}

/// A Send bound to `client` as ChatSession makes one, its end published as the session does.
std::unique_ptr<Send> makeSend(net::ChatClient &client)
{
    ProviderChoice to;
    to.profileName = u"Demo"_s;
    auto send = std::make_unique<Send>(&client, u"How do caps work?"_s, SendOptions {}, to, false);
    Send *s = send.get();
    QObject::connect(s, &Send::ended, s, [s] { s->publish(); });
    Q_EMIT client.sendStarted(kId);
    return send;
}

} // namespace

class TestSend final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void transitions_data();
    void transitions();
    void everyStepIsPublishedOnceAndTextIsNot();
    void keepsTheAnswerUpToItsLimit_data();
    void keepsTheAnswerUpToItsLimit();
    void anotherSendsStepsNeverReachIt();
    void parkedAndBackOut();
    void offersRideWithTheEnd();
    void anAttemptThatHearsNothingIsSilent();
    void aSteadyStreamIsNeverSilent();
    void theFailedCardLeadsWithWhatHappened_data();
    void theFailedCardLeadsWithWhatHappened();
};

void TestSend::initTestCase()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void TestSend::transitions_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<SendPhase>("phase");
    QTest::addColumn<int>("attempt");
    QTest::addColumn<QString>("stateText");
    QTest::addColumn<QString>("attemptText");
    QTest::addColumn<QString>("countdown");
    QTest::addColumn<QString>("budget");
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("failure");
    QTest::addColumn<QString>("tokens");

    // Each row: the client's steps after sendStarted(), separated by " | ".
    QTest::newRow("started") << u""_s << SendPhase::Sending << 0 << u"Sending…"_s << u"–"_s
                             << u"–"_s << u"120.0 s of 120 s"_s << u"–"_s << u"–"_s << u"–"_s;
    QTest::newRow("attempt 1") << u"attempt 1"_s << SendPhase::Sending << 1 << u"Sending…"_s
                               << u"1 of 5"_s << u"–"_s << u"120.0 s of 120 s"_s << u"–"_s << u"–"_s
                               << u"–"_s;
    QTest::newRow("streaming") << u"attempt 1 | answer"_s << SendPhase::Streaming << 1
                               << u"Answer streaming in"_s << u"1 of 5"_s << u"–"_s
                               << u"120.0 s of 120 s"_s << u"–"_s << u"–"_s << u"–"_s;
    QTest::newRow("refused, waiting")
        << u"attempt 1 | fail 1 422 token_limit 60323 60000 | retry 2 60000 1080000 message 60000"_s
        << SendPhase::Waiting << 2 << u"Waiting to send attempt 2"_s << u"2 of 5"_s << u"60.0 s"_s
        << u"60.0 s of 120 s"_s << u"provider asked 18 min; capped to 60 s"_s
        << u"token limit (HTTP 422)"_s << u"60,323 / 60,000"_s;
    QTest::newRow("retrying")
        << u"attempt 1 | fail 1 429 rate_limit | retry 2 2000 2000 retry-after 118000 | attempt 2"_s
        << SendPhase::Sending << 2 << u"Retrying: sending attempt 2…"_s << u"2 of 5"_s << u"–"_s
        << u"118.0 s of 120 s"_s << u"retry-after header: 2 s"_s << u"rate limit (HTTP 429)"_s
        << u"–"_s;
    QTest::newRow("answered after retries")
        << u"attempt 1 | fail 1 422 token_limit 60323 60000 | retry 2 60000 1080000 message 60000 | attempt 2 | fail 2 422 token_limit 60323 60000 | retry 3 1000 1000 message 59000 | attempt 3 | answer | succeed 3 412"_s
        << SendPhase::Succeeded << 3 << u"Answered after 2 retries"_s << u"3 of 5"_s << u"–"_s
        << u"59.0 s of 120 s"_s << u"provider asked 1 s"_s << u"token limit (HTTP 422)"_s
        << u"412 used by the answer"_s;
    QTest::newRow("gave up, budget")
        << u"attempt 1 | fail 1 422 token_limit 60323 60000 | retry 2 60000 1080000 message 60000 | attempt 2 | fail 2 422 token_limit 60323 60000 | retry 3 60000 1080000 message 0 | attempt 3 | fail 3 422 token_limit 60323 60000 | giveup 3 budget_exhausted"_s
        << SendPhase::GaveUp << 3
        << u"Gave up: budget exhausted (the 120 s of waiting are used up)"_s << u"3 of 5"_s
        << u"–"_s << u"0.0 s of 120 s"_s << u"provider asked 18 min; capped to 60 s"_s
        << u"token limit (HTTP 422)"_s << u"60,323 / 60,000"_s;
    QTest::newRow("gave up at once")
        << u"attempt 1 | fail 1 400 fatal | giveup 1 not_retryable"_s << SendPhase::GaveUp << 1
        << u"Gave up: the error is not one that waiting can fix"_s << u"1 of 5"_s << u"–"_s
        << u"120.0 s of 120 s"_s << u"–"_s << u"fatal (HTTP 400)"_s << u"–"_s;
    QTest::newRow("cancelled in a wait")
        << u"attempt 1 | fail 1 422 token_limit 60323 60000 | retry 2 60000 1080000 message 60000 | cancel 14730"_s
        << SendPhase::Cancelled << 2 << u"Cancelled"_s << u"2 of 5"_s << u"–"_s
        << u"60.0 s of 120 s"_s
        << u"provider asked 18 min; capped to 60 s; cancelled after 14.7 s"_s
        << u"token limit (HTTP 422)"_s << u"60,323 / 60,000"_s;
    QTest::newRow("pacing") << u"pace 12000 tokens"_s << SendPhase::Pacing << 0
                            << u"Pacing: sending in 12 s (the provider's window is full)"_s
                            << u"–"_s << u"12.0 s"_s << u"120.0 s of 120 s"_s
                            << u"x-ratelimit-reset-tokens header: 12 s (pacing, outside the "
                               u"retry budget)"_s
                            << u"–"_s << u"–"_s;
    QTest::newRow("pacing for requests")
        << u"pace 3000 requests"_s << SendPhase::Pacing << 0
        << u"Pacing: sending in 3 s (the provider's request limit is reached)"_s << u"–"_s
        << u"3.0 s"_s << u"120.0 s of 120 s"_s
        << u"x-ratelimit-reset-requests header: 3 s (pacing, outside the retry budget)"_s << u"–"_s
        << u"–"_s;
    QTest::newRow("paced, then sent")
        << u"pace 12000 tokens | attempt 1"_s << SendPhase::Sending << 1 << u"Sending…"_s
        << u"1 of 5"_s << u"–"_s << u"120.0 s of 120 s"_s << u"–"_s << u"–"_s << u"–"_s;
    QTest::newRow("cancelled while pacing")
        << u"pace 12000 tokens | cancel 4230"_s << SendPhase::Cancelled << 0 << u"Cancelled"_s
        << u"–"_s << u"–"_s << u"120.0 s of 120 s"_s
        << u"x-ratelimit-reset-tokens header: 12 s (pacing, outside the retry budget); "
           u"cancelled after 4.2 s"_s
        << u"–"_s << u"–"_s;
    QTest::newRow("no wait: not pacing")
        << u"pace 0 tokens"_s << SendPhase::Sending << 0 << u"Sending…"_s << u"–"_s << u"–"_s
        << u"120.0 s of 120 s"_s << u"–"_s << u"–"_s << u"–"_s;
}

void TestSend::transitions()
{
    QFETCH(QString, script);
    QFETCH(SendPhase, phase);
    QFETCH(int, attempt);
    net::ChatClient client;
    const std::unique_ptr<Send> send = makeSend(client);
    for (const QString &step : script.split(u" | "_s, Qt::SkipEmptyParts))
        play(client, step);
    const SendState &s = send->state();
    QCOMPARE(s.send, kId);
    QCOMPARE(s.phase, phase);
    QCOMPARE(s.attempt, attempt);
    QCOMPARE(s.profileName, u"Demo"_s);
    QTEST(SendTexts::phase(s), "stateText");
    QTEST(SendTexts::attemptOf(s), "attemptText");
    QTEST(SendTexts::countdown(s), "countdown");
    QTEST(SendTexts::budget(s), "budget");
    QTEST(SendTexts::source(s), "source");
    QTEST(SendTexts::failure(s), "failure");
    QTEST(SendTexts::tokens(s), "tokens");
    // The phase's own predicates agree with it.
    QCOMPARE(s.ended(),
        phase == SendPhase::Succeeded || phase == SendPhase::GaveUp
            || phase == SendPhase::Cancelled);
    QCOMPARE(s.running(), !s.ended());
}

void TestSend::everyStepIsPublishedOnceAndTextIsNot()
{
    // One changed() a step (the views re-render on each), none a piece of the answer: a long
    // answer costs the views nothing per chunk.
    net::ChatClient client;
    ProviderChoice to;
    Send send(&client, u"p"_s, {}, to, false);
    QSignalSpy changed(&send, &Send::changed);
    QSignalSpy text(&send, &Send::text);
    Q_EMIT client.sendStarted(kId);
    QCOMPARE(changed.size(), 1);
    play(client, u"attempt 1"_s);
    QCOMPARE(changed.size(), 2);
    play(client, u"answer"_s);
    QCOMPARE(changed.size(), 3); // answerStarted; the text is not a state
    for (int i = 0; i < 1000; ++i)
        Q_EMIT client.answerText(kId, u"more "_s);
    QCOMPARE(changed.size(), 3);
    QCOMPARE(text.size(), 1001);
    QCOMPARE(send.answer().size(), 5 + 5000);
    send.setAnswerLimit(5010); // what the history keeps: the rest streams through
    Q_EMIT client.answerText(kId, u"0123456789ABCDEF"_s);
    QCOMPARE(send.answer().size(), 5010);
}

void TestSend::keepsTheAnswerUpToItsLimit_data()
{
    // What capwatch-cli's history stores of an answer is what its Send keeps: at most the limit,
    // never half a character (a surrogate pair stays whole or goes), and whether more came.
    QTest::addColumn<qsizetype>("limit");
    QTest::addColumn<QStringList>("pieces");
    QTest::addColumn<QString>("kept");
    QTest::addColumn<bool>("cut");
    const QString smile = u"\U0001F600"_s; // two UTF-16 units
    QTest::newRow("no limit") << qsizetype(-1) << QStringList { u"abc"_s, u"def"_s } << u"abcdef"_s
                              << false;
    QTest::newRow("under it") << qsizetype(6) << QStringList { u"abc"_s, u"de"_s } << u"abcde"_s
                              << false;
    QTest::newRow("exactly it") << qsizetype(6) << QStringList { u"abc"_s, u"def"_s } << u"abcdef"_s
                                << false;
    QTest::newRow("a piece crosses it")
        << qsizetype(4) << QStringList { u"abc"_s, u"def"_s } << u"abcd"_s << true;
    QTest::newRow("a piece after it")
        << qsizetype(3) << QStringList { u"abc"_s, u"d"_s } << u"abc"_s << true;
    QTest::newRow("an empty piece after it")
        << qsizetype(3) << QStringList { u"abc"_s, QString() } << u"abc"_s << false;
    QTest::newRow("a pair across it")
        << qsizetype(4) << QStringList { u"abc"_s + smile + u"d"_s } << u"abc"_s << true;
    QTest::newRow("a pair just inside it")
        << qsizetype(5) << QStringList { u"abc"_s + smile + u"d"_s } << u"abc"_s + smile << true;
    QTest::newRow("nothing kept") << qsizetype(0) << QStringList { u"abc"_s } << QString() << true;
}

void TestSend::keepsTheAnswerUpToItsLimit()
{
    QFETCH(qsizetype, limit);
    QFETCH(QStringList, pieces);
    QFETCH(QString, kept);
    QFETCH(bool, cut);
    net::ChatClient client;
    Send send(&client, u"p"_s, {}, ProviderChoice {}, false);
    send.setAnswerLimit(limit);
    QSignalSpy text(&send, &Send::text);
    Q_EMIT client.sendStarted(kId);
    play(client, u"attempt 1"_s);
    Q_EMIT client.answerStarted(kId, 200);
    for (const QString &piece : std::as_const(pieces))
        Q_EMIT client.answerText(kId, piece);
    QCOMPARE(send.answer(), kept);
    QCOMPARE(send.answerCut(), cut);
    QCOMPARE(text.size(), pieces.size()); // every piece streams on, kept or not
    send.dropAnswer();
    QVERIFY(send.answer().isEmpty());
}

void TestSend::anotherSendsStepsNeverReachIt()
{
    // The latest send wins: a Send hears only its own id, and binds to the first send started
    // after it was made.
    net::ChatClient client;
    const std::unique_ptr<Send> send = makeSend(client);
    Q_EMIT client.sendStarted(kId + 1); // another send: not this one's
    QCOMPARE(send->id(), kId);
    QSignalSpy changed(send.get(), &Send::changed);
    Q_EMIT client.attemptStarted(kId + 1, 4, 5);
    Q_EMIT client.gaveUp(kId + 1, net::SendSummary {});
    QCOMPARE(changed.size(), 0);
    QCOMPARE(send->state().phase, SendPhase::Sending);
    QCOMPARE(send->state().attempt, 0);
}

void TestSend::parkedAndBackOut()
{
    // Parked after it gave up capped, it shows where it stands in the lot; taken out without
    // going out, its end again.
    net::ChatClient client;
    const std::unique_ptr<Send> send = makeSend(client);
    play(client, u"attempt 1"_s);
    play(client, u"fail 1 422 token_limit 60323 60000"_s);
    play(client, u"giveup 1 not_retryable"_s);
    const QDateTime now(QDate(2026, 12, 4), QTime(13, 51), Qt::UTC);
    history::ParkedSend p;
    p.parkedAt = now;
    p.dueAt = now.addSecs(18 * 60);
    p.resetAt = p.dueAt;
    p.parksInARow = 1;
    p.provider = u"demo"_s;
    QSignalSpy changed(send.get(), &Send::changed);
    const struct
    {
        ParkedState standing;
        SendPhase phase;
    } rows[] = { { ParkedState::Waiting, SendPhase::Parked }, { ParkedState::Due, SendPhase::Due },
        { ParkedState::WaitsForProvider, SendPhase::WaitsForProvider },
        { ParkedState::WaitsForConsent, SendPhase::WaitsForConsent } };
    for (const auto &row : rows) {
        send->setParked(p, row.standing, now);
        send->publish();
        QCOMPARE(changed.last().at(0).value<SendState>().phase, row.phase);
        QVERIFY(send->state().isParked());
        QVERIFY(!SendTexts::phase(send->state()).isEmpty());
    }
    send->setParked(p, ParkedState::Waiting, now);
    QCOMPARE(SendTexts::countdown(send->state()), u"18:00"_s);
    send->setParked(std::nullopt);
    QCOMPARE(send->state().phase, SendPhase::GaveUp);
    QVERIFY(!send->state().parked);
}

void TestSend::offersRideWithTheEnd()
{
    // What the session offers when the send ended is part of the state it publishes then: the
    // end is told first (ended()), the offers are set, and one changed() carries both.
    net::ChatClient client;
    ProviderChoice to;
    Send send(&client, u"p"_s, {}, to, false);
    ParkOffer park;
    park.send = kId;
    park.parkable = true;
    FallbackOffer fallback;
    fallback.send = kId;
    fallback.offered = true;
    fallback.toProfile = u"Paid tier"_s;
    QObject::connect(&send, &Send::ended, &send, [&] {
        send.setOffers(park, fallback);
        send.publish();
    });
    Q_EMIT client.sendStarted(kId);
    QSignalSpy changed(&send, &Send::changed);
    play(client, u"giveup 1 attempts_exhausted"_s);
    QCOMPARE(changed.size(), 1);
    const SendState s = changed.last().at(0).value<SendState>();
    QCOMPARE(s.phase, SendPhase::GaveUp);
    QCOMPARE(s.reason, retry::EndReason::AttemptsExhausted);
    QVERIFY(s.park.parkable);
    QVERIFY(s.fallback.offered);
    QCOMPARE(s.fallback.toProfile, u"Paid tier"_s);
}

void TestSend::anAttemptThatHearsNothingIsSilent()
{
    // Nothing for kSilentAfter (10 s; 10 ms at this scale) after the attempt went out: Silent,
    // with how long, worded for the panel, the status bar and the card; the first piece of the
    // answer ends it.
    net::ChatClient client;
    client.setTimeScale(0.001);
    const std::unique_ptr<Send> send = makeSend(client);
    play(client, u"attempt 1"_s);
    QCOMPARE(send->state().phase, SendPhase::Sending);
    QTRY_COMPARE_WITH_TIMEOUT(send->state().phase, SendPhase::Silent, 5000);
    const SendState silent = send->state();
    QVERIFY(silent.silentFor >= kSilentAfter);
    QVERIFY(silent.running());
    QCOMPARE(silent.attempt, 1);
    QVERIFY2(SendTexts::phase(silent).startsWith(u"Nothing from the provider for "_s),
        qPrintable(SendTexts::phase(silent)));
    QCOMPARE(SendTexts::statusBar(silent), u"Attempt 1 of 5 · "_s + SendTexts::phase(silent));
    QCOMPARE(SendTexts::statusLine(silent), SendTexts::phase(silent));
    QCOMPARE(SendTexts::phaseName(silent), u"silent"_s);
    play(client, u"answer"_s);
    QCOMPARE(send->state().phase, SendPhase::Streaming);
    QCOMPARE(send->state().silentFor, retry::Millis(0));
    // Silent again mid-stream; the end ends it for good.
    QTRY_COMPARE_WITH_TIMEOUT(send->state().phase, SendPhase::Silent, 5000);
    play(client, u"succeed 1 12"_s);
    QCOMPARE(send->state().phase, SendPhase::Succeeded);
    QCOMPARE(send->state().silentFor, retry::Millis(0));
    QSignalSpy changed(send.get(), &Send::changed);
    QVERIFY(!changed.wait(100)); // five of the silence checks' periods: nothing more
}

void TestSend::aSteadyStreamIsNeverSilent()
{
    // A piece every 2 ms or so (kSilentAfter is 500 ms at this scale): never Silent.
    net::ChatClient client;
    client.setTimeScale(0.05);
    const std::unique_ptr<Send> send = makeSend(client);
    play(client, u"attempt 1"_s);
    play(client, u"answer"_s);
    QElapsedTimer wall;
    wall.start();
    while (wall.elapsed() < 1500) {
        QTest::qWait(2);
        Q_EMIT client.answerText(kId, u"."_s);
        QVERIFY(send->state().phase != SendPhase::Silent);
    }
    QCOMPARE(send->state().phase, SendPhase::Streaming);
}

void TestSend::theFailedCardLeadsWithWhatHappened_data()
{
    // issue 25.11: one sentence on what happened and what comes next, by the category of the
    // refusal it gave up on, never the raw failure.
    QTest::addColumn<QString>("category");
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("reason");
    QTest::addColumn<bool>("resetKnown");
    QTest::addColumn<bool>("fallback");
    QTest::addColumn<QString>("lead");
    using R = retry::EndReason;
    QTest::newRow("capped, reset known")
        << u"token_limit"_s << 422 << int(R::BudgetExhausted) << true << false
        << u"Capped until 14:09: budget exhausted (the 120 s of "
           "waiting are used up)."_s;
    QTest::newRow("capped, no reset")
        << u"token_limit"_s << 422 << int(R::AttemptsExhausted) << false << false
        << u"Capped at this provider: all 5 attempts failed."_s;
    QTest::newRow("rate limited") << u"rate_limit"_s << 429 << int(R::AttemptsExhausted) << false
                                  << false
                                  << u"Rate-limited at this provider: all 5 attempts failed."_s;
    QTest::newRow("out of credit") << u"billing"_s << 402 << int(R::NotRetryable) << false << false
                                   << u"Out of credit at this provider: top up the account, then "
                                      "retry."_s;
    QTest::newRow("out of credit, fallback")
        << u"billing"_s << 429 << int(R::NotRetryable) << false << true
        << u"Out of credit at this provider: send it to "
           "Paid key, or top up the account."_s;
    QTest::newRow("too large") << u"too_large"_s << 400 << int(R::NotRetryable) << false << false
                               << u"The request is larger than the model accepts: trim the "
                                  "conversation or shorten the prompt."_s;
    QTest::newRow("key rejected") << u"auth"_s << 401 << int(R::AuthUnchanged) << false << false
                                  << u"The provider rejected the key: check the profile's key "
                                     "in Settings."_s;
    QTest::newRow("unreachable") << u"transient"_s << 0 << int(R::AttemptsExhausted) << false
                                 << false
                                 << u"The provider could not be reached: all 5 attempts "
                                    "failed."_s;
    QTest::newRow("overloaded") << u"transient"_s << 503 << int(R::BudgetExhausted) << false
                                << false
                                << u"The provider is overloaded or failing: budget exhausted "
                                   "(the 120 s of waiting are used up)."_s;
    QTest::newRow("refused") << u"fatal"_s << 400 << int(R::NotRetryable) << false << false
                             << u"The provider refused the request, and waiting will not "
                                "change that: see Details."_s;
    QTest::newRow("timed out") << u"transient"_s << 0 << int(R::Timeout) << false << false
                               << u"The provider did not answer in time: try again later."_s;
}

void TestSend::theFailedCardLeadsWithWhatHappened()
{
    QFETCH(QString, category);
    QFETCH(int, status);
    QFETCH(int, reason);
    QFETCH(bool, resetKnown);
    QFETCH(bool, fallback);
    SendState s;
    s.phase = SendPhase::GaveUp;
    s.reason = retry::EndReason(reason);
    net::AttemptFailure failure;
    failure.attempt = 5;
    failure.status = status;
    const std::optional<retry::Category> parsed = retry::categoryNamed(category.toStdString());
    QVERIFY(parsed);
    failure.category = *parsed;
    s.lastFailure = failure;
    // The same day as `now`, in local time: "14:09".
    s.now = QDateTime(QDate(2026, 12, 4), QTime(13, 51)).toUTC();
    if (resetKnown)
        s.park.dueAt = QDateTime(QDate(2026, 12, 4), QTime(14, 9)).toUTC();
    if (fallback) {
        s.fallback.offered = true;
        s.fallback.toProfile = u"Paid key"_s;
    }
    QTEST(SendTexts::failedLead(s), "lead");
    QVERIFY(!SendTexts::failedLead(s).contains(u"HTTP"_s)); // the raw part is under Details
}

QTEST_GUILESS_MAIN(TestSend)
#include "tst_send.moc"
