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
    // Section 9: a profile's numbers.
    void defaultLimitsAreSectionFour();
    void limitsAreHeldToTheirBounds_data();
    void limitsAreHeldToTheirBounds();
    void fiveSecondCapWaitsFiveForEighteenMinutes();
    void backoffFollowsTheBase();
    void zeroBudgetMeansOneAttempt_data();
    void zeroBudgetMeansOneAttempt();
    void categoryTurnedOffIsNotRetryable_data();
    void categoryTurnedOffIsNotRetryable();
    void headerTimeoutFromTheLimits();
    void finalErrorTextUsesTheProfileNumbers();
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
                       "  attempts: 3 of 5, waited 120.0 s of the 120 s budget; gave up: "
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
        + u"  attempts: 1 of 5, waited 0.0 s of the 120 s budget; gave up: not_retryable"_s;
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

namespace {

PolicyLimits headlineProfile()
{
    PolicyLimits l;
    l.waitCap = 5s;
    l.budget = 12s;
    l.maxAttempts = 3;
    return l;
}

} // namespace

void TestSendPolicy::defaultLimitsAreSectionFour()
{
    const PolicyLimits l;
    QVERIFY(l.isDefault());
    QCOMPARE(l.maxAttempts, 5);
    QCOMPARE(l.waitCap, 60s);
    QCOMPARE(l.budget, 120s);
    QCOMPARE(l.backoffBase, 5s);
    QCOMPARE(l.headerTimeout, 60s);
    QVERIFY(l.retries(Category::TokenLimit) && l.retries(Category::RateLimit)
        && l.retries(Category::Transient) && l.retries(Category::Auth));
    QVERIFY(!headlineProfile().isDefault());
    QCOMPARE(clampedToBounds(l), l);
    // The default limits re-wait nothing: the classifier's own backoff and cap stay.
    for (int k = 1; k <= 8; ++k)
        QCOMPARE(backoffFor(k, l), backoffFor(k));
    ManualClock clock;
    const Classification c = classify(response(422, kHeadline), 1, clock.wallNow());
    const Classification same = withLimits(c, 1, l);
    QCOMPARE(same.wait, c.wait);
    QCOMPARE(same.rawWait, c.rawWait);
}

void TestSendPolicy::limitsAreHeldToTheirBounds_data()
{
    QTest::addColumn<int>("attempts");
    QTest::addColumn<qint64>("capMs");
    QTest::addColumn<qint64>("budgetMs");
    QTest::addColumn<qint64>("baseMs");
    QTest::addColumn<qint64>("headerMs");
    QTest::addColumn<int>("wantAttempts");
    QTest::addColumn<qint64>("wantCapMs");
    QTest::addColumn<qint64>("wantBudgetMs");
    QTest::addColumn<qint64>("wantBaseMs");
    QTest::addColumn<qint64>("wantHeaderMs");
    QTest::newRow("inside") << 3 << 5000LL << 12000LL << 2000LL << 30000LL //
                            << 3 << 5000LL << 12000LL << 2000LL << 30000LL;
    QTest::newRow("the edges") << 1 << 1000LL << 0LL << 1000LL << 10000LL //
                               << 1 << 1000LL << 0LL << 1000LL << 10000LL;
    QTest::newRow("the other edges") << 10 << 600000LL << 3600000LL << 60000LL << 300000LL //
                                     << 10 << 600000LL << 3600000LL << 60000LL << 300000LL;
    QTest::newRow("below") << 0 << 0LL << -1LL << 0LL << 9999LL //
                           << 1 << 1000LL << 0LL << 1000LL << 10000LL;
    QTest::newRow("above") << 11 << 600001LL << 3600001LL << 60001LL << 300001LL //
                           << 10 << 600000LL << 3600000LL << 60000LL << 300000LL;
}

void TestSendPolicy::limitsAreHeldToTheirBounds()
{
    QFETCH(int, attempts);
    QFETCH(qint64, capMs);
    QFETCH(qint64, budgetMs);
    QFETCH(qint64, baseMs);
    QFETCH(qint64, headerMs);
    PolicyLimits l;
    l.maxAttempts = attempts;
    l.waitCap = Millis(capMs);
    l.budget = Millis(budgetMs);
    l.backoffBase = Millis(baseMs);
    l.headerTimeout = Millis(headerMs);
    l.retryRateLimit = false;
    ManualClock clock;
    const SendPolicy p(clock, l);
    QTEST(p.limits().maxAttempts, "wantAttempts");
    QTEST(qint64(p.limits().waitCap.count()), "wantCapMs");
    QTEST(qint64(p.limits().budget.count()), "wantBudgetMs");
    QTEST(qint64(p.limits().backoffBase.count()), "wantBaseMs");
    QTEST(qint64(p.limits().headerTimeout.count()), "wantHeaderMs");
    QVERIFY(!p.limits().retryRateLimit); // the switches are kept as they are
    QCOMPARE(p.limits(), clampedToBounds(l));
    QCOMPARE(kWaitCapBounds.clamp(0), 1);
    QVERIFY(kBudgetBounds.contains(0) && !kBudgetBounds.contains(3601));
}

void TestSendPolicy::fiveSecondCapWaitsFiveForEighteenMinutes()
{
    ManualClock clock;
    SendPolicy p(clock, headlineProfile());
    QCOMPARE(p.startAttempt(), 1);
    Decision d = p.attemptFailed(response(422, kHeadline));
    QCOMPARE(d.action, Decision::Action::Retry);
    QCOMPARE(d.wait, 5s);
    QCOMPARE(d.rawWait, 1080s); // the provider's figure stays in the log
    QCOMPARE(d.source, WaitSource::Message);
    QCOMPARE(d.waitedTotal, 5s);
    QCOMPARE(d.budgetLeft, 7s);
    clock.advance(2s);
    QCOMPARE(p.budgetLeft(), 10s); // live: falls while the wait runs
    QCOMPARE(p.waitLeft(), 3s);
    clock.advance(3s);

    QCOMPARE(p.startAttempt(), 2);
    d = p.attemptFailed(response(422, kHeadline));
    QCOMPARE(d.wait, 5s);
    QCOMPARE(d.waitedTotal, 10s);
    QCOMPARE(d.budgetLeft, 2s);
    waitOut(clock, d);

    QCOMPARE(p.startAttempt(), 3);
    d = p.attemptFailed(response(422, kHeadline));
    QCOMPARE(d.action, Decision::Action::GiveUp);
    QCOMPARE(d.reason, EndReason::AttemptsExhausted);
    QCOMPARE(p.attempt(), 3);
    QCOMPARE(p.waitedSoFar(), 10s);
    QCOMPARE(p.budgetLeft(), 2s);

    // The same cap with four attempts: the third wait would pass the 12 s budget.
    PolicyLimits four = headlineProfile();
    four.maxAttempts = 4;
    SendPolicy q(clock, four);
    for (int i = 0; i < 2; ++i) {
        q.startAttempt();
        waitOut(clock, q.attemptFailed(response(422, kHeadline)));
    }
    q.startAttempt();
    d = q.attemptFailed(response(422, kHeadline));
    QCOMPARE(d.action, Decision::Action::GiveUp);
    QCOMPARE(d.reason, EndReason::BudgetExhausted);

    // A cap above the default lets a longer raw wait through: 90 s of a 600 s cap.
    PolicyLimits wide;
    wide.waitCap = 600s;
    wide.budget = 3600s;
    SendPolicy w(clock, wide);
    w.startAttempt();
    d = w.attemptFailed(response(429, "{}", { { "retry-after", "90" } }));
    QCOMPARE(d.wait, 90s);
    QCOMPARE(d.rawWait, 90s);
}

void TestSendPolicy::backoffFollowsTheBase()
{
    PolicyLimits l;
    l.backoffBase = 2s;
    l.waitCap = 20s;
    l.budget = 3600s;
    l.maxAttempts = 10;
    QList<qint64> expected { 2000, 4000, 8000, 16000, 20000, 20000, 20000, 20000, 20000 };
    QList<qint64> computed;
    for (int k = 1; k <= 9; ++k)
        computed.append(backoffFor(k, l).count());
    QCOMPARE(computed, expected);
    QCOMPARE(backoffFor(1000, l), 20s); // no overflow however far

    ManualClock clock;
    SendPolicy p(clock, l);
    QList<qint64> waits;
    for (int attempt = 1; attempt <= 9; ++attempt) {
        QCOMPARE(p.startAttempt(), attempt);
        const Decision d = p.attemptFailed(response(422, kNoHint));
        QCOMPARE(d.source, WaitSource::Backoff);
        QCOMPARE(d.rawWait, d.wait);
        waits.append(d.wait.count());
        waitOut(clock, d);
    }
    QCOMPARE(waits, expected);
    p.startAttempt();
    const Decision d = p.attemptFailed(response(422, kNoHint));
    QCOMPARE(d.reason, EndReason::AttemptsExhausted);
    QCOMPARE(p.attempt(), 10);

    // A base above the cap waits the cap.
    PolicyLimits slow;
    slow.backoffBase = 60s;
    slow.waitCap = 5s;
    QCOMPARE(backoffFor(1, slow), 5s);
}

void TestSendPolicy::zeroBudgetMeansOneAttempt_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QByteArray>("retryAfter");
    QTest::newRow("token_limit") << 422 << QByteArray(kHeadline.c_str()) << QByteArray();
    QTest::newRow("rate_limit") << 429 << QByteArray("{}") << QByteArray("1");
    QTest::newRow("transient") << 503 << QByteArray("{}") << QByteArray();
    QTest::newRow("auth") << 401 << QByteArray("{}") << QByteArray();
}

void TestSendPolicy::zeroBudgetMeansOneAttempt()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(QByteArray, retryAfter);
    PolicyLimits l;
    l.budget = 0s;
    ManualClock clock;
    SendPolicy p(clock, l);
    QCOMPARE(p.startAttempt(), 1);
    Headers headers;
    if (!retryAfter.isEmpty())
        headers.emplace_back("retry-after", retryAfter.toStdString());
    const std::string text = body.toStdString();
    const Decision d = p.attemptFailed(response(status, text, headers));
    QCOMPARE(d.action, Decision::Action::GiveUp);
    QCOMPARE(d.reason, EndReason::BudgetExhausted);
    QCOMPARE(p.attempt(), 1);
    QCOMPARE(p.waitedTotal(), 0ms);
    QCOMPARE(p.budgetLeft(), 0ms);
    QCOMPARE(p.state(), SendPolicy::State::GaveUp);
}

void TestSendPolicy::categoryTurnedOffIsNotRetryable_data()
{
    QTest::addColumn<int>("off"); // 0: token limit, 1: rate limit, 2: transient
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("category");
    QTest::newRow("token_limit off")
        << 0 << 422 << QByteArray(kHeadline.c_str()) << u"token_limit"_s;
    QTest::newRow("rate_limit off") << 1 << 429 << QByteArray("{}") << u"rate_limit"_s;
    QTest::newRow("transient off") << 2 << 503 << QByteArray("{}") << u"transient"_s;
}

void TestSendPolicy::categoryTurnedOffIsNotRetryable()
{
    QFETCH(int, off);
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(QString, category);
    PolicyLimits l;
    l.retryTokenLimit = off != 0;
    l.retryRateLimit = off != 1;
    l.retryTransient = off != 2;
    ManualClock clock;
    SendPolicy p(clock, l);
    p.startAttempt();
    const std::string text = body.toStdString();
    const Decision d = p.attemptFailed(response(status, text, { { "retry-after", "1" } }));
    QCOMPARE(d.action, Decision::Action::GiveUp);
    QCOMPARE(d.reason, EndReason::NotRetryable);
    QCOMPARE(p.attempt(), 1);
    QCOMPARE(QString::fromLatin1(nameOf(p.lastError()->category)), category);

    // The categories still on are retried as before.
    const int other = off == 1 ? 503 : 429;
    SendPolicy q(clock, l);
    q.startAttempt();
    QCOMPARE(q.attemptFailed(response(other, "{}", { { "retry-after", "1" } })).action,
        Decision::Action::Retry);
}

void TestSendPolicy::headerTimeoutFromTheLimits()
{
    PolicyLimits l;
    l.headerTimeout = 15s;
    ManualClock clock;
    SendPolicy p(clock, l);
    p.startAttempt();
    QVERIFY(!p.headerDeadline());
    waitOut(clock, p.attemptFailed(response(422, kNoHint)));
    p.startAttempt();
    QCOMPARE(p.headerDeadline().value(), clock.now() + 15s);
    clock.advance(15s);
    QCOMPARE(p.headerTimedOut().reason, EndReason::Timeout);
}

void TestSendPolicy::finalErrorTextUsesTheProfileNumbers()
{
    FailureReport r;
    r.endpoint = "http://127.0.0.1:8080/v1/chat/completions";
    r.model = "capwatch-demo";
    r.authSource = "none (loopback endpoint)";
    r.status = 422;
    r.responseBody = kHeadline;
    r.attempts = 3;
    r.waited = 10s;
    r.reason = EndReason::AttemptsExhausted;
    r.category = Category::TokenLimit;
    r.maxAttempts = 3;
    r.budget = 12s;
    const QString text = QString::fromStdString(finalErrorText(r));
    QVERIFY2(text.endsWith(u"\n  attempts: 3 of 3, waited 10.0 s of the 12 s budget; gave up: "
                           u"attempts_exhausted"_s),
        qPrintable(text));

    r.attempts = 1;
    r.waited = 0s;
    r.budget = 0s;
    r.maxAttempts = 5;
    r.reason = EndReason::BudgetExhausted;
    const QString none = QString::fromStdString(finalErrorText(r));
    QVERIFY2(none.endsWith(u"\n  attempts: 1 of 1, waited 0.0 s of the 0 s budget; gave up: "
                           u"budget_exhausted"_s),
        qPrintable(none));
}

QTEST_GUILESS_MAIN(TestSendPolicy)
#include "tst_sendpolicy.moc"
