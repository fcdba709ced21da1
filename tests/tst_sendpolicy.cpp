// The per-send state machine (retry policy section 4) driven with a manual clock.

#include "retry/finalerror.h"
#include "retry/sendpolicy.h"

#include <QTest>

using namespace capwatch::retry;
using namespace std::chrono_literals;
using namespace Qt::StringLiterals;

namespace {

const std::string kHeadline
    = R"({"error":"Token limit exceeded: used 60323, limit 60000. Retry in 18 min."})";
const std::string kNoHint = R"({"error":"Token limit exceeded: used 60323, limit 60000"})";

Response response(int status, const std::string &body, Headers headers = {})
{
    Response r;
    r.status = status;
    r.body = body;
    r.headers = std::move(headers);
    return r;
}

/// Lets the policy's clock run through a scheduled wait, as the driver's timer would.
void waitOut(ManualClock &clock, const Decision &d)
{
    QCOMPARE(d.action, Decision::Action::Retry);
    clock.advance(d.wait);
}

} // namespace

class TestSendPolicy final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void headlineEndsWithBudgetExhausted();
    void backoffToAttemptsExhausted();
    void rateLimitAndTokenLimitShareOneBudget();
    void exactly120sIsAllowed();
    void over120sByOneMillisecondIsRefused();
    void authReloadWithChangedKey();
    void authReloadWithUnchangedKey();
    void secondAuthFailureEnds();
    void fatal422EndsAtOnce();
    void successEndsTheSend();
    void budgetFallsOnlyWhileWaiting();
    void headerTimeoutOnlyForRetries();
    void cancelDuringWaitFreezesFigures();
    void finalErrorTextOfTheHeadline();
    void finalErrorTextCutsLongBodies();
    void finalErrorHint_data();
    void finalErrorHint();
    void tooLargeAndBillingEndAtOnce_data();
    void tooLargeAndBillingEndAtOnce();
};

void TestSendPolicy::headlineEndsWithBudgetExhausted()
{
    ManualClock clock;
    SendPolicy p(clock);
    QCOMPARE(p.startAttempt(), 1);
    Decision d = p.attemptFailed(response(422, kHeadline));
    QCOMPARE(d.action, Decision::Action::Retry);
    QCOMPARE(d.nextAttempt, 2);
    QCOMPARE(d.wait, 60s);
    QCOMPARE(d.rawWait, 1080s);
    QCOMPARE(d.source, WaitSource::Message);
    QCOMPARE(d.waitedTotal, 60s);
    QCOMPARE(d.budgetLeft, 60s);
    waitOut(clock, d);

    QCOMPARE(p.startAttempt(), 2);
    d = p.attemptFailed(response(422, kHeadline));
    QCOMPARE(d.action, Decision::Action::Retry);
    QCOMPARE(d.wait, 60s);
    QCOMPARE(d.waitedTotal, 120s);
    QCOMPARE(d.budgetLeft, 0s);
    waitOut(clock, d);

    QCOMPARE(p.startAttempt(), 3);
    d = p.attemptFailed(response(422, kHeadline));
    QCOMPARE(d.action, Decision::Action::GiveUp);
    QCOMPARE(d.reason, EndReason::BudgetExhausted);
    QCOMPARE(p.state(), SendPolicy::State::GaveUp);
    QCOMPARE(p.attempt(), 3);
    QCOMPARE(p.waitedTotal(), 120s);
    QVERIFY(p.lastError());
    QCOMPARE(p.lastError()->used.value_or(0), 60323.0);
}

void TestSendPolicy::backoffToAttemptsExhausted()
{
    ManualClock clock;
    SendPolicy p(clock);
    QList<qint64> waits;
    for (int attempt = 1; attempt <= 4; ++attempt) {
        QCOMPARE(p.startAttempt(), attempt);
        const Decision d = p.attemptFailed(response(422, kNoHint));
        QCOMPARE(d.source, WaitSource::Backoff);
        waits.append(d.wait.count());
        waitOut(clock, d);
    }
    QCOMPARE(waits, (QList<qint64> { 5000, 10000, 20000, 40000 }));
    QCOMPARE(p.startAttempt(), 5);
    const Decision d = p.attemptFailed(response(422, kNoHint));
    QCOMPARE(d.action, Decision::Action::GiveUp);
    QCOMPARE(d.reason, EndReason::AttemptsExhausted);
    QCOMPARE(p.waitedTotal(), 75s);
}

void TestSendPolicy::rateLimitAndTokenLimitShareOneBudget()
{
    ManualClock clock;
    SendPolicy p(clock);
    p.startAttempt();
    Decision d = p.attemptFailed(response(429, "{}", { { "retry-after", "50" } }));
    QCOMPARE(d.wait, 50s);
    QCOMPARE(d.budgetLeft, 70s);
    waitOut(clock, d);
    p.startAttempt();
    d = p.attemptFailed(response(422, kHeadline)); // 60 s: 110 in all, allowed
    QCOMPARE(d.action, Decision::Action::Retry);
    QCOMPARE(d.budgetLeft, 10s);
    waitOut(clock, d);
    p.startAttempt();
    d = p.attemptFailed(response(429, "{}", { { "retry-after", "11" } })); // 121 > 120
    QCOMPARE(d.action, Decision::Action::GiveUp);
    QCOMPARE(d.reason, EndReason::BudgetExhausted);
}

void TestSendPolicy::exactly120sIsAllowed()
{
    ManualClock clock;
    SendPolicy p(clock);
    p.startAttempt();
    Decision d = p.attemptFailed(response(503, "", { { "retry-after", "60" } }));
    waitOut(clock, d);
    p.startAttempt();
    d = p.attemptFailed(response(503, "", { { "retry-after", "60" } }));
    QCOMPARE(d.action, Decision::Action::Retry);
    QCOMPARE(d.waitedTotal, 120s);
}

void TestSendPolicy::over120sByOneMillisecondIsRefused()
{
    ManualClock clock;
    SendPolicy p(clock);
    p.startAttempt();
    Decision d = p.attemptFailed(response(503, "", { { "retry-after", "60" } }));
    waitOut(clock, d);
    p.startAttempt();
    d = p.attemptFailed(response(503, "", { { "retry-after-ms", "60001" } }));
    QCOMPARE(d.action, Decision::Action::Retry); // capped to 60: exactly 120 again
    waitOut(clock, d);

    SendPolicy q(clock);
    q.startAttempt();
    d = q.attemptFailed(response(503, "", { { "retry-after", "60" } }));
    waitOut(clock, d);
    q.startAttempt();
    d = q.attemptFailed(response(503, "", { { "retry-after-ms", "59999" } }));
    waitOut(clock, d);
    q.startAttempt();
    d = q.attemptFailed(response(503, "", { { "retry-after-ms", "2" } })); // 120.001 s
    QCOMPARE(d.action, Decision::Action::GiveUp);
    QCOMPARE(d.reason, EndReason::BudgetExhausted);
    QCOMPARE(q.waitedTotal(), 119999ms);
}

void TestSendPolicy::authReloadWithChangedKey()
{
    ManualClock clock;
    SendPolicy p(clock);
    p.startAttempt();
    Decision d = p.attemptFailed(response(401, "{}"));
    QCOMPARE(d.action, Decision::Action::ReloadCredential);
    QCOMPARE(p.state(), SendPolicy::State::ReloadingCredential);
    d = p.credentialReloaded(true);
    QCOMPARE(d.action, Decision::Action::Retry);
    QCOMPARE(d.wait, 0ms);
    QCOMPARE(d.source, WaitSource::CredentialRefresh);
    QCOMPARE(d.waitedTotal, 0ms);
    QCOMPARE(d.budgetLeft, 120s);
    QCOMPARE(p.startAttempt(), 2); // counts as an attempt
    p.headersReceived();
    p.succeeded();
    QCOMPARE(p.state(), SendPolicy::State::Succeeded);
}

void TestSendPolicy::authReloadWithUnchangedKey()
{
    ManualClock clock;
    SendPolicy p(clock);
    p.startAttempt();
    QCOMPARE(p.attemptFailed(response(403, "{}")).action, Decision::Action::ReloadCredential);
    const Decision d = p.credentialReloaded(false);
    QCOMPARE(d.action, Decision::Action::GiveUp);
    QCOMPARE(d.reason, EndReason::AuthUnchanged);
    QCOMPARE(p.attempt(), 1);
}

void TestSendPolicy::secondAuthFailureEnds()
{
    ManualClock clock;
    SendPolicy p(clock);
    p.startAttempt();
    p.attemptFailed(response(401, "{}"));
    p.credentialReloaded(true);
    p.startAttempt();
    const Decision d = p.attemptFailed(response(401, "{}"));
    QCOMPARE(d.action, Decision::Action::GiveUp);
    QCOMPARE(d.reason, EndReason::AuthUnchanged);
    QCOMPARE(p.attempt(), 2);
}

void TestSendPolicy::fatal422EndsAtOnce()
{
    ManualClock clock;
    SendPolicy p(clock);
    p.startAttempt();
    const Decision d = p.attemptFailed(response(422, R"({"detail":[{"msg":"field required"}]})"));
    QCOMPARE(d.action, Decision::Action::GiveUp);
    QCOMPARE(d.reason, EndReason::NotRetryable);
    QCOMPARE(p.attempt(), 1);
    QCOMPARE(p.waitedTotal(), 0ms);
    QCOMPARE(p.lastError()->category, Category::Fatal);
}

void TestSendPolicy::successEndsTheSend()
{
    ManualClock clock;
    SendPolicy p(clock);
    p.startAttempt();
    waitOut(clock, p.attemptFailed(response(422, kNoHint)));
    p.startAttempt();
    p.headersReceived();
    p.succeeded();
    QVERIFY(p.finished());
    QCOMPARE(p.endReason(), EndReason::None);
    QCOMPARE(p.budgetLeft(), 115s);
}

void TestSendPolicy::budgetFallsOnlyWhileWaiting()
{
    ManualClock clock;
    SendPolicy p(clock);
    p.startAttempt();
    clock.advance(3s); // the request itself spends no budget
    QCOMPARE(p.budgetLeft(), 120s);
    const Decision d = p.attemptFailed(response(422, kHeadline));
    QCOMPARE(p.budgetLeft(), 120s);
    QCOMPARE(p.waitLeft(), 60s);
    QCOMPARE(p.waitDeadline().value(), clock.now() + 60s);
    clock.advance(12'500ms);
    QCOMPARE(p.budgetLeft(), 107'500ms);
    QCOMPARE(p.waitLeft(), 47'500ms);
    clock.advance(d.wait);
    QCOMPARE(p.budgetLeft(), 60s); // never below what the wait scheduled
    QCOMPARE(p.waitLeft(), 0ms);
    p.startAttempt();
    clock.advance(30s);
    QCOMPARE(p.budgetLeft(), 60s);
}

void TestSendPolicy::headerTimeoutOnlyForRetries()
{
    ManualClock clock;
    SendPolicy p(clock);
    p.startAttempt();
    QVERIFY(!p.headerDeadline()); // the first attempt has none
    waitOut(clock, p.attemptFailed(response(422, kNoHint)));
    p.startAttempt();
    QCOMPARE(p.headerDeadline().value(), clock.now() + 60s);
    clock.advance(60s);
    const Decision d = p.headerTimedOut();
    QCOMPARE(d.action, Decision::Action::GiveUp);
    QCOMPARE(d.reason, EndReason::Timeout);
    QCOMPARE(p.lastError()->category, Category::TokenLimit); // the last provider error stays

    SendPolicy q(clock);
    q.startAttempt();
    waitOut(clock, q.attemptFailed(response(422, kNoHint)));
    q.startAttempt();
    q.headersReceived();
    QVERIFY(!q.headerDeadline()); // a retry that got headers streams to its end
}

void TestSendPolicy::cancelDuringWaitFreezesFigures()
{
    ManualClock clock;
    SendPolicy p(clock);
    p.startAttempt();
    p.attemptFailed(response(422, kHeadline));
    clock.advance(10s);
    p.cancel();
    QCOMPARE(p.state(), SendPolicy::State::Cancelled);
    QCOMPARE(p.endReason(), EndReason::Cancelled);
    QCOMPARE(p.budgetLeft(), 110s);
    clock.advance(30s);
    QCOMPARE(p.budgetLeft(), 110s);
    QCOMPARE(p.waitLeft(), 0ms);
}

void TestSendPolicy::finalErrorTextOfTheHeadline()
{
    FailureReport r;
    r.endpoint = "http://127.0.0.1:8080/v1/chat/completions";
    r.model = "DeepSeek-V4-Flash";
    r.authSource = "OPENAI_COMPAT_API_KEY";
    r.status = 422;
    r.responseBody = kHeadline;
    r.attempts = 3;
    r.waited = 120s;
    r.reason = EndReason::BudgetExhausted;
    QCOMPARE(QString::fromStdString(finalErrorText(r)),
        QStringLiteral("OpenAI-compatible chat request failed\n"
                       "  endpoint: http://127.0.0.1:8080/v1/chat/completions\n"
                       "  model: DeepSeek-V4-Flash\n"
                       "  auth: OPENAI_COMPAT_API_KEY\n"
                       "  status: 422 Unprocessable Entity\n"
                       "  response: {\"error\":\"Token limit exceeded: used 60323, limit "
                       "60000. Retry in 18 min.\"}\n"
                       "  retries: 2 of 4 used, waited 120.0 s of the 120 s budget; gave up: "
                       "budget_exhausted"));
}

void TestSendPolicy::finalErrorTextCutsLongBodies()
{
    FailureReport r;
    r.status = 500;
    r.responseBody = std::string(1999, 'a') + "\xc3\xa9\xc3\xa9"; // 2001 characters
    r.attempts = 1;
    const std::string text = finalErrorText(r);
    const std::string expected = "  response: " + std::string(1999, 'a') + "\xc3\xa9\u2026\n";
    QVERIFY2(text.find(expected) != std::string::npos, text.c_str());
    QCOMPARE(cutText("short", 2000), std::string("short"));
    QCOMPARE(formatSeconds(2500ms), std::string("2.5"));
    QCOMPARE(formatSeconds(84ms), std::string("0.084"));
    QCOMPARE(formatSeconds(60s), std::string("60"));
}

void TestSendPolicy::finalErrorHint_data()
{
    QTest::addColumn<int>("category");
    QTest::addColumn<double>("used"); // -1: unknown
    QTest::addColumn<double>("limit");
    QTest::addColumn<QString>("hint"); // empty: no hint line

    const QString tooLarge = u"  hint: the request is larger than the model accepts"_s;
    QTest::newRow("too_large, both figures")
        << int(Category::TooLarge) << 4294.0 << 4097.0
        << tooLarge + u" (limit 4097, requested 4294): shorten the conversation"_s;
    QTest::newRow("too_large, limit only")
        << int(Category::TooLarge) << -1.0 << 8192.0
        << tooLarge + u" (limit 8192): shorten the conversation"_s;
    QTest::newRow("too_large, requested only")
        << int(Category::TooLarge) << 9000.0 << -1.0
        << tooLarge + u" (requested 9000): shorten the conversation"_s;
    QTest::newRow("too_large, no figures")
        << int(Category::TooLarge) << -1.0 << -1.0 << tooLarge + u": shorten the conversation"_s;
    QTest::newRow("billing") << int(Category::Billing) << -1.0 << -1.0
                             << u"  hint: the provider says the account is out of credit"_s;
    QTest::newRow("token_limit has none")
        << int(Category::TokenLimit) << 60323.0 << 60000.0 << QString();
    QTest::newRow("fatal has none") << int(Category::Fatal) << -1.0 << -1.0 << QString();
}

void TestSendPolicy::finalErrorHint()
{
    QFETCH(int, category);
    QFETCH(double, used);
    QFETCH(double, limit);
    QFETCH(QString, hint);
    FailureReport r;
    r.endpoint = "http://127.0.0.1:8080/v1/chat/completions";
    r.model = "m";
    r.authSource = "OPENAI_COMPAT_API_KEY";
    r.status = 400;
    r.responseBody = "{}";
    r.attempts = 1;
    r.reason = EndReason::NotRetryable;
    r.category = Category(category);
    if (used >= 0)
        r.used = used;
    if (limit >= 0)
        r.limit = limit;
    const QString expected = u"OpenAI-compatible chat request failed\n"
                             u"  endpoint: http://127.0.0.1:8080/v1/chat/completions\n"
                             u"  model: m\n"
                             u"  auth: OPENAI_COMPAT_API_KEY\n"
                             u"  status: 400 Bad Request\n"
                             u"  response: {}\n"_s
        + (hint.isEmpty() ? QString() : hint + u'\n')
        + u"  retries: 0 of 4 used, waited 0.0 s of the 120 s budget; gave up: not_retryable"_s;
    QCOMPARE(QString::fromStdString(finalErrorText(r)), expected);

    // No response, no hint: the line belongs after `response:`.
    r.status = 0;
    QVERIFY(!QString::fromStdString(finalErrorText(r)).contains(u"hint:"_s));
}

void TestSendPolicy::tooLargeAndBillingEndAtOnce_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("category");
    QTest::newRow("too_large 429")
        << 429
        << QByteArray(
               R"({"error":{"message":"Request too large: Limit 30000, Requested 342389."}})")
        << u"too_large"_s;
    QTest::newRow("billing 429") << 429 << QByteArray(R"({"error":{"code":"1113","message":"x"}})")
                                 << u"billing"_s;
}

void TestSendPolicy::tooLargeAndBillingEndAtOnce()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(QString, category);
    ManualClock clock;
    SendPolicy p(clock);
    p.startAttempt();
    Response r;
    r.status = status;
    r.headers = { { "Retry-After", "1" } };
    r.body = std::string_view(body.constData(), std::size_t(body.size()));
    const Decision d = p.attemptFailed(r);
    QCOMPARE(d.action, Decision::Action::GiveUp);
    QCOMPARE(d.reason, EndReason::NotRetryable);
    QCOMPARE(p.attempt(), 1);
    QCOMPARE(p.waitedTotal(), 0ms);
    QCOMPARE(QString::fromLatin1(nameOf(p.lastError()->category)), category);
}

QTEST_GUILESS_MAIN(TestSendPolicy)
#include "tst_sendpolicy.moc"
