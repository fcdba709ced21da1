// Parking (docs/parking.md): which ended sends may wait for the provider's reset, and until when.

#include "retry/parking.h"
#include "retry/sendpolicy.h"

#include <QTest>

using namespace capwatch::retry;

Q_DECLARE_METATYPE(EndReason)
Q_DECLARE_METATYPE(Category)
Q_DECLARE_METATYPE(WaitSource)
Q_DECLARE_METATYPE(ParkRefusal)

namespace {

// 2025-03-01 12:00:00 UTC: any wall time would do, a real one reads better in a failure.
const WallTime kFailedAt { Millis(1'740'830'400'000) };
constexpr qint64 kDay = 24 * 60 * 60 * 1000;

const std::string kHeadline
    = R"({"error":"Token limit exceeded: used 60323, limit 60000. Retry in 18 min."})";
const std::string kNoHint = R"({"error":"Token limit exceeded: used 60323, limit 60000"})";

constexpr EndReason kCapped[] { EndReason::BudgetExhausted, EndReason::AttemptsExhausted };
constexpr Category kLimited[] { Category::TokenLimit, Category::RateLimit };
constexpr WaitSource kProviderSources[] { WaitSource::RetryAfter, WaitSource::RetryAfterMs,
    WaitSource::RetryDelay, WaitSource::Message, WaitSource::RateLimitReset };

QByteArray name(std::string_view s)
{
    return s.empty() ? QByteArray("none") : QByteArray(s.data(), qsizetype(s.size()));
}

QByteArray tag(EndReason end, Category category, WaitSource source)
{
    return name(nameOf(end)) + ' ' + name(nameOf(category)) + ' ' + name(nameOf(source));
}

/// Drives one send through the headline cycle (or any body repeated) until the policy gives up;
/// returns the wall time of its last failure.
WallTime runCycle(ManualClock &clock, SendPolicy &policy, const std::string &body)
{
    Response r;
    r.status = 422;
    r.body = body;
    WallTime failedAt {};
    while (!policy.finished()) {
        policy.startAttempt();
        failedAt = std::chrono::time_point_cast<Millis>(clock.wallNow());
        const Decision d = policy.attemptFailed(r);
        if (d.action == Decision::Action::Retry)
            clock.advance(d.wait);
    }
    return failedAt;
}

} // namespace

class TestParking final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void decide_data();
    void decide();
    void reasons_data();
    void reasons();
    void names();
    void duringTheCycle();
    void endToEnd_data();
    void endToEnd();
};

void TestParking::decide_data()
{
    QTest::addColumn<EndReason>("end");
    QTest::addColumn<Category>("category");
    QTest::addColumn<WaitSource>("source");
    QTest::addColumn<qint64>("rawMs");
    QTest::addColumn<int>("parked");
    QTest::addColumn<ParkRefusal>("refusal");
    QTest::addColumn<qint64>("resetInMs"); // expected resetAt - failedAt

    // Capped, limited, the provider's wait: parked, whatever the source.
    for (const EndReason end : kCapped)
        for (const Category category : kLimited)
            for (const WaitSource source : kProviderSources)
                QTest::newRow(tag(end, category, source).constData())
                    << end << category << source << qint64(90'000) << 0 << ParkRefusal::None
                    << qint64(90'000);
    // Capped and limited, but no word from the provider on when.
    for (const EndReason end : kCapped)
        for (const Category category : kLimited)
            for (const WaitSource source :
                { WaitSource::Backoff, WaitSource::None, WaitSource::CredentialRefresh })
                QTest::newRow(tag(end, category, source).constData())
                    << end << category << source << qint64(40'000) << 0
                    << ParkRefusal::NoProviderWait << qint64(0);
    // Any other end, even with a token limit and the provider's wait.
    for (const EndReason end : { EndReason::None, EndReason::NotRetryable, EndReason::Timeout,
             EndReason::AuthUnchanged, EndReason::Cancelled })
        QTest::newRow(tag(end, Category::TokenLimit, WaitSource::Message).constData())
            << end << Category::TokenLimit << WaitSource::Message << qint64(1'080'000) << 0
            << ParkRefusal::NotCapped << qint64(0);
    // Capped by another category: a 503 with retry-after that never cleared is not a cap.
    for (const Category category : { Category::Transient, Category::Auth, Category::TooLarge,
             Category::Billing, Category::Fatal, Category::Success })
        QTest::newRow(
            tag(EndReason::AttemptsExhausted, category, WaitSource::RetryAfter).constData())
            << EndReason::AttemptsExhausted << category << WaitSource::RetryAfter << qint64(30'000)
            << 0 << ParkRefusal::NotLimited << qint64(0);

    const auto row
        = [](const char *name, qint64 rawMs, int parked, ParkRefusal refusal, qint64 resetInMs) {
              QTest::newRow(name) << EndReason::BudgetExhausted << Category::TokenLimit
                                  << WaitSource::Message << rawMs << parked << refusal << resetInMs;
          };
    // The reporter's "Retry in 18 min": the raw wait, far above the 60 s cap, is the reset.
    row("headline 18 min", 1'080'000, 0, ParkRefusal::None, 1'080'000);
    row("exactly 24 h", kDay, 0, ParkRefusal::None, kDay);
    row("24 h + 1 ms", kDay + 1, 0, ParkRefusal::TooFar, kDay + 1);
    row("parked 0 before", 60'000, 0, ParkRefusal::None, 60'000);
    row("parked 1 before", 60'000, 1, ParkRefusal::None, 60'000);
    row("parked 2 before", 60'000, 2, ParkRefusal::None, 60'000);
    row("parked 3 before", 60'000, 3, ParkRefusal::ReparkedTooOften, 60'000);
    row("parked 4 before", 60'000, 4, ParkRefusal::ReparkedTooOften, 60'000);
    // This failure's own fault is named before the history of the send.
    row("too far and parked 3", kDay + 1, 3, ParkRefusal::TooFar, kDay + 1);
    row("retry-after 0", 0, 0, ParkRefusal::None, 0);
    // An HTTP date already past: due at once, never before the failure.
    row("reset in the past", -5'000, 0, ParkRefusal::None, 0);
}

void TestParking::decide()
{
    QFETCH(EndReason, end);
    QFETCH(Category, category);
    QFETCH(WaitSource, source);
    QFETCH(qint64, rawMs);
    QFETCH(int, parked);
    QFETCH(ParkRefusal, refusal);
    QFETCH(qint64, resetInMs);

    const ParkDecision d = decidePark({ end, category, source, Millis(rawMs), kFailedAt, parked });
    QCOMPARE(name(nameOf(d.refusal)), name(nameOf(refusal)));
    QCOMPARE(d.park, refusal == ParkRefusal::None);
    QCOMPARE(d.resetIn.count(), resetInMs);
    QCOMPARE((d.resetAt - kFailedAt).count(), resetInMs);
    QVERIFY(!d.reason.empty());
}

void TestParking::duringTheCycle()
{
    // issue 25.12: before the send ended, parking is offered only when the reset is later than
    // what its waits can still reach; the other rules hold as after a give-up.
    ParkInput in { EndReason::None, Category::TokenLimit, WaitSource::Message, Millis(1'080'000),
        kFailedAt, 0 };
    in.duringCycle = true;
    in.reachable = Millis(120'000);
    ParkDecision d = decidePark(in);
    QVERIFY(d.park);
    QCOMPARE(d.resetIn, Millis(1'080'000));
    // Reachable by the retries: the cycle goes on, nothing offered.
    in.reachable = Millis(1'080'000);
    d = decidePark(in);
    QVERIFY(!d.park);
    QCOMPARE(d.refusal, ParkRefusal::NotCapped);
    // Not a limit, no provider's figure, too far: as after the end.
    in.reachable = Millis(120'000);
    in.category = Category::Transient;
    QCOMPARE(decidePark(in).refusal, ParkRefusal::NotLimited);
    in.category = Category::RateLimit;
    in.waitSource = WaitSource::Backoff;
    QCOMPARE(decidePark(in).refusal, ParkRefusal::NoProviderWait);
    in.waitSource = WaitSource::RetryAfter;
    in.rawWait = Millis(2 * kDay);
    QCOMPARE(decidePark(in).refusal, ParkRefusal::TooFar);
    // Not during the cycle, an unended send is never parked.
    in.rawWait = Millis(1'080'000);
    in.duringCycle = false;
    QCOMPARE(decidePark(in).refusal, ParkRefusal::NotCapped);
}

void TestParking::reasons_data()
{
    QTest::addColumn<EndReason>("end");
    QTest::addColumn<Category>("category");
    QTest::addColumn<WaitSource>("source");
    QTest::addColumn<qint64>("rawMs");
    QTest::addColumn<int>("parked");
    QTest::addColumn<QByteArray>("reason");
    const EndReason b = EndReason::BudgetExhausted;
    const Category t = Category::TokenLimit;
    const WaitSource m = WaitSource::Message;
    QTest::newRow("parked") << b << t << m << qint64(1'080'000) << 0
                            << QByteArray("Parked until the limit resets in 18 min.");
    QTest::newRow("parked 30 s") << b << t << m << qint64(29'001) << 0
                                 << QByteArray("Parked until the limit resets in 30 s.");
    QTest::newRow("not_capped") << EndReason::Timeout << t << m << qint64(0) << 0
                                << QByteArray("Not parked: the send ended with timeout, not with "
                                              "its retries used up.");
    QTest::newRow("not_limited")
        << b << Category::Transient << WaitSource::RetryAfter << qint64(1000) << 0
        << QByteArray("Not parked: the last failure was transient, not a token or rate limit.");
    QTest::newRow("no_provider_wait")
        << b << t << WaitSource::Backoff << qint64(40'000) << 0
        << QByteArray("Not parked: the provider did not say when the limit resets.");
    QTest::newRow("too_far") << b << t << m << kDay + 1 << 0
                             << QByteArray("Not parked: the limit resets in 24 h 1 min, more "
                                           "than 24 h away.");
    QTest::newRow("reparked_too_often")
        << b << t << m << qint64(60'000) << 3
        << QByteArray("Not parked again: the send was parked 3 times in a row and hit the limit "
                      "after each reset.");
}

void TestParking::reasons()
{
    QFETCH(EndReason, end);
    QFETCH(Category, category);
    QFETCH(WaitSource, source);
    QFETCH(qint64, rawMs);
    QFETCH(int, parked);
    QFETCH(QByteArray, reason);
    const ParkDecision d = decidePark({ end, category, source, Millis(rawMs), kFailedAt, parked });
    QCOMPARE(QByteArray::fromStdString(d.reason), reason);
}

void TestParking::names()
{
    // The log names, interfaces.md style; None has none.
    QVERIFY(nameOf(ParkRefusal::None).empty());
    QCOMPARE(name(nameOf(ParkRefusal::NotCapped)), "not_capped");
    QCOMPARE(name(nameOf(ParkRefusal::NotLimited)), "not_limited");
    QCOMPARE(name(nameOf(ParkRefusal::NoProviderWait)), "no_provider_wait");
    QCOMPARE(name(nameOf(ParkRefusal::TooFar)), "too_far");
    QCOMPARE(name(nameOf(ParkRefusal::ReparkedTooOften)), "reparked_too_often");
}

void TestParking::endToEnd_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<EndReason>("end");
    QTest::addColumn<ParkRefusal>("refusal");
    QTest::addColumn<qint64>("resetInMs");
    // Three attempts, 60 + 60 s waited, then the budget is gone; the provider said 18 min.
    QTest::newRow("headline") << QByteArray::fromStdString(kHeadline) << EndReason::BudgetExhausted
                              << ParkRefusal::None << qint64(1'080'000);
    // Five attempts on backoff alone: nothing says when the cap resets.
    QTest::newRow("no hint") << QByteArray::fromStdString(kNoHint) << EndReason::AttemptsExhausted
                             << ParkRefusal::NoProviderWait << qint64(0);
}

void TestParking::endToEnd()
{
    QFETCH(QByteArray, body);
    QFETCH(EndReason, end);
    QFETCH(ParkRefusal, refusal);
    QFETCH(qint64, resetInMs);

    // The headline's cycle, then at each reset a fresh cycle that ends capped again: parked
    // after the first three, given up after the fourth.
    ManualClock clock(std::chrono::system_clock::time_point(kFailedAt.time_since_epoch()));
    for (int parked = 0; parked <= kMaxParksInARow; ++parked) {
        SendPolicy policy(clock);
        const WallTime failedAt = runCycle(clock, policy, body.toStdString());
        QCOMPARE(policy.endReason(), end);
        const ParkDecision d = decidePark(parkInputOf(policy, failedAt, parked));
        const ParkRefusal expected = refusal == ParkRefusal::None && parked == kMaxParksInARow
            ? ParkRefusal::ReparkedTooOften
            : refusal;
        QCOMPARE(name(nameOf(d.refusal)), name(nameOf(expected)));
        QCOMPARE(d.park, expected == ParkRefusal::None);
        if (refusal != ParkRefusal::None)
            break;
        QCOMPARE((d.resetAt - failedAt).count(), resetInMs);
        // The last failure came after the two 60 s waits of the cycle.
        if (parked == 0)
            QCOMPARE((failedAt - kFailedAt).count(), qint64(120'000));
        clock.advance(d.resetAt - failedAt);
    }
}

QTEST_APPLESS_MAIN(TestParking)
#include "tst_parking.moc"
