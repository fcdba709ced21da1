// Spending limits and declared provider limits: the checks made before a send, on the figures
// the ledger gives.

#include "retry/declaredlimits.h"
#include "retry/spendlimits.h"

#include <QTest>

using namespace capwatch::retry;

class TestSpendLimits : public QObject
{
    Q_OBJECT

private slots:
    void noLimitsNeverCross()
    {
        const SpendCheck check = checkSpend({}, { 1'000'000, 9'000'000, 50, 900 }, { 10'000, 3.0 });
        QVERIFY(!check.crosses);
        QCOMPARE(check.limit, SpendLimitKind::None);
        QCOMPARE(check.fraction, 0.0);
    }

    void aWorstCaseLargerThanWhatIsLeftCrosses()
    {
        SpendLimits limits;
        limits.tokensDay = 500;
        // Nothing used yet, but the send may use 1,256 tokens: refused before it goes.
        SpendCheck check = checkSpend(limits, {}, { 1256, std::nullopt });
        QVERIFY(check.crosses);
        QCOMPARE(check.limit, SpendLimitKind::TokensDay);
        QCOMPARE(check.used, 0.0);
        QCOMPARE(check.allowed, 500.0);
        QCOMPARE(check.worst, 1256.0);
        // Exactly what is left fits; one more token does not.
        check = checkSpend(limits, { 300, 300, 0, 0 }, { 200, std::nullopt });
        QVERIFY(!check.crosses);
        QCOMPARE(check.limit, SpendLimitKind::TokensDay);
        QCOMPARE(check.fraction, 0.6);
        QVERIFY(checkSpend(limits, { 300, 300, 0, 0 }, { 201, std::nullopt }).crosses);
    }

    void aUsedUpLimitCrossesEvenAnEmptySend()
    {
        SpendLimits limits;
        limits.tokensMonth = 1000;
        const SpendCheck check = checkSpend(limits, { 0, 1000, 0, 0 }, { 0, std::nullopt });
        QVERIFY(check.crosses);
        QCOMPARE(check.limit, SpendLimitKind::TokensMonth);
        QCOMPARE(check.fraction, 1.0);
    }

    void moneyNeedsAPriceUnlessUsedUp()
    {
        SpendLimits limits;
        limits.costDay = 1.0;
        // Unknown price: the money limit cannot be crossed by the estimate...
        QVERIFY(!checkSpend(limits, { 0, 0, 0.9, 0.9 }, { 5000, std::nullopt }).crosses);
        // ...a known one can...
        const SpendCheck priced = checkSpend(limits, { 0, 0, 0.9, 0.9 }, { 5000, 0.25 });
        QVERIFY(priced.crosses);
        QCOMPARE(priced.limit, SpendLimitKind::CostDay);
        QVERIFY(isMoney(priced.limit));
        QVERIFY(isDaily(priced.limit));
        // ...and a used-up one stops every send.
        QVERIFY(checkSpend(limits, { 0, 0, 1.0, 1.0 }, { 5000, std::nullopt }).crosses);
    }

    void theFirstCrossedLimitIsNamedAndTheFractionIsTheLargest()
    {
        SpendLimits limits;
        limits.tokensDay = 10'000;
        limits.costMonth = 10.0;
        const SpendCheck check = checkSpend(limits, { 1000, 1000, 0.5, 9.0 }, { 500, 2.0 });
        QVERIFY(check.crosses);
        QCOMPARE(check.limit, SpendLimitKind::CostMonth);
        QCOMPARE(check.fraction, 0.9);
        QCOMPARE(nameOf(check.limit), std::string_view("cost_month"));
    }

    void thresholds()
    {
        QCOMPARE(spendThreshold(0.0), 0);
        QCOMPARE(spendThreshold(0.4999), 0);
        QCOMPARE(spendThreshold(0.5), 50);
        QCOMPARE(spendThreshold(0.79), 50);
        QCOMPARE(spendThreshold(0.8), 80);
        QCOMPARE(spendThreshold(0.99), 80);
        QCOMPARE(spendThreshold(1.0), 100);
        QCOMPARE(spendThreshold(3.0), 100);
    }

    // --- declared limits ---

    void twoRequestsAMinuteHoldTheThirdUntilTheFirstIsAMinuteOld()
    {
        DeclaredLimits limits;
        limits.requestsPerMinute = 2;
        DeclaredUse use;
        use.lastMinute = { { 100'000, 50 }, { 110'000, 50 } };
        use.dayLeft = Millis(3'600'000);
        DeclaredDecision d = decideDeclared(limits, use, 120'000, 10);
        QCOMPARE(d.holds, DeclaredKind::RequestsPerMinute);
        QCOMPARE(d.wait, Millis(40'000)); // 100 s + 60 s - 120 s
        QCOMPARE(d.used, 2);
        QCOMPARE(d.limit, 2);
        QVERIFY(!isPerDay(d.holds));
        // One request in the minute: the second goes at once.
        use.lastMinute = { { 110'000, 50 } };
        QCOMPARE(decideDeclared(limits, use, 120'000, 10).holds, DeclaredKind::None);
        // A request older than a minute does not count.
        use.lastMinute = { { 59'000, 50 }, { 110'000, 50 } };
        QCOMPARE(decideDeclared(limits, use, 120'000, 10).holds, DeclaredKind::None);
    }

    void tokensPerMinuteWaitUntilEnoughAgeOut()
    {
        DeclaredLimits limits;
        limits.tokensPerMinute = 1000;
        DeclaredUse use;
        use.lastMinute = { { 10'000, 400 }, { 20'000, 400 }, { 30'000, 100 } };
        // 900 + 300 > 1000: once the first 400 are a minute old, 500 + 300 fit.
        DeclaredDecision d = decideDeclared(limits, use, 40'000, 300);
        QCOMPARE(d.holds, DeclaredKind::TokensPerMinute);
        QCOMPARE(d.wait, Millis(30'000));
        QCOMPARE(d.used, 900);
        // 900 + 100 fits exactly.
        QCOMPARE(decideDeclared(limits, use, 40'000, 100).holds, DeclaredKind::None);
        // Larger than the whole limit: never fits, not held.
        QCOMPARE(decideDeclared(limits, use, 40'000, 1001).holds, DeclaredKind::None);
    }

    void aFullDayHoldsUntilMidnightAndWinsOverAMinute()
    {
        DeclaredLimits limits;
        limits.requestsPerMinute = 1;
        limits.requestsPerDay = 50;
        DeclaredUse use;
        use.lastMinute = { { 100'000, 10 } };
        use.requestsToday = 50;
        use.dayLeft = Millis(7'200'000);
        const DeclaredDecision d = decideDeclared(limits, use, 110'000, 10);
        QCOMPARE(d.holds, DeclaredKind::RequestsPerDay);
        QCOMPARE(d.wait, Millis(7'200'000));
        QCOMPARE(d.used, 50);
        QCOMPARE(d.limit, 50);
        QVERIFY(isPerDay(d.holds));
        QCOMPARE(nameOf(d.holds), std::string_view("rpd"));
        use.requestsToday = 49;
        QCOMPARE(decideDeclared(limits, use, 110'000, 10).holds, DeclaredKind::RequestsPerMinute);
    }

    void tokensPerDayCountTheEstimate()
    {
        DeclaredLimits limits;
        limits.tokensPerDay = 10'000;
        DeclaredUse use;
        use.tokensToday = 9'500;
        use.dayLeft = Millis(1000);
        QCOMPARE(decideDeclared(limits, use, 0, 400).holds, DeclaredKind::None);
        QCOMPARE(decideDeclared(limits, use, 0, 600).holds, DeclaredKind::TokensPerDay);
        // A zero or negative limit is not applied.
        limits.tokensPerDay = 0;
        QCOMPARE(decideDeclared(limits, use, 0, 600).holds, DeclaredKind::None);
    }

    void requestsInFlightHoldUntilOneComesBack()
    {
        DeclaredLimits limits;
        limits.inFlight = 2;
        DeclaredUse use;
        use.inFlight = 1;
        QCOMPARE(decideDeclared(limits, use, 0, 10).holds, DeclaredKind::None);
        use.inFlight = 2;
        const DeclaredDecision d = decideDeclared(limits, use, 0, 10);
        QCOMPARE(d.holds, DeclaredKind::InFlight);
        QCOMPARE(d.wait, kDeclaredMinute); // at most; the session sends when one is back
        QCOMPARE(d.used, 2);
        QCOMPARE(nameOf(d.holds), std::string_view("in_flight"));
    }

    // --- a suggestion after a refusal ---

    void suggestionsFromWhatTheRefusalSaysAndTheLedgerCounted()
    {
        Classification c;
        c.category = Category::RateLimit;
        RefusalFacts facts { 3, 40, 900, 12000 };
        // The text names the period and the figure.
        c.errorText = "Rate limit reached for requests per minute (RPM): Limit 3, Used 3";
        DeclaredSuggestion s = suggestDeclared(c, facts);
        QCOMPARE(s.kind, DeclaredKind::RequestsPerMinute);
        QCOMPARE(s.value, 3);
        QVERIFY(s.fromText);
        // A day, by its words; no figure: what the ledger counted today.
        c.errorText = "Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000";
        s = suggestDeclared(c, facts);
        QCOMPARE(s.kind, DeclaredKind::RequestsPerDay);
        QCOMPARE(s.value, 40);
        QVERIFY(!s.fromText);
        c.errorText = "You exceeded the limit of 1,000 requests per day";
        s = suggestDeclared(c, facts);
        QCOMPARE(s.kind, DeclaredKind::RequestsPerDay);
        QCOMPARE(s.value, 1000);
        QVERIFY(s.fromText);
        // Tokens per minute, the figure the classifier read.
        c.errorText = "Rate limit reached on tokens per min (TPM): Limit 30000, Used 29800";
        c.limit = 30000;
        s = suggestDeclared(c, facts);
        QCOMPARE(s.kind, DeclaredKind::TokensPerMinute);
        QCOMPARE(s.value, 30000);
        c.limit.reset();
        // No words: the wait tells the period (20 s: a minute; 5 h: a day; 20 min: neither).
        c.errorText = "Too many requests";
        c.rawWait = Millis(20'000);
        s = suggestDeclared(c, facts);
        QCOMPARE(s.kind, DeclaredKind::RequestsPerMinute);
        QCOMPARE(s.value, 3);
        c.rawWait = Millis(5 * 3'600'000);
        QCOMPARE(suggestDeclared(c, facts).kind, DeclaredKind::RequestsPerDay);
        c.rawWait = Millis(20 * 60'000);
        QCOMPARE(suggestDeclared(c, facts).kind, DeclaredKind::None);
        c.rawWait.reset();
        QCOMPARE(suggestDeclared(c, facts).kind, DeclaredKind::None);
        // Nothing counted and no figure: nothing to suggest; another category: never.
        c.errorText = "Too many requests per minute";
        QCOMPARE(suggestDeclared(c, RefusalFacts {}).kind, DeclaredKind::None);
        c.category = Category::TokenLimit;
        QCOMPARE(suggestDeclared(c, facts).kind, DeclaredKind::None);
    }

    void theProjectionGoesOnAtTheRateSoFar()
    {
        constexpr std::int64_t hour = 3'600'000;
        const std::int64_t nine = 9 * hour;
        const std::int64_t noon = 12 * hour;
        const std::int64_t midnight = 24 * hour;
        // 3,000 of 10,000 in three hours: the other 7,000 in seven more, at 19:00.
        QCOMPARE(
            capwatch::retry::projectLimitReached(3000, 10000, nine, noon, midnight), 19 * hour);
        // Too slow to reach it before the period ends: nothing.
        QVERIFY(!capwatch::retry::projectLimitReached(1000, 10000, nine, noon, midnight));
        // Reached already: now. Nothing used: nothing.
        QCOMPARE(capwatch::retry::projectLimitReached(10000, 10000, nine, noon, midnight), noon);
        QVERIFY(!capwatch::retry::projectLimitReached(0, 10000, noon, noon, midnight));
        // The first send of the day is no rate: the span is at least a quarter of an hour.
        const auto early
            = capwatch::retry::projectLimitReached(1000, 10000, noon - 1000, noon, midnight);
        QVERIFY(early);
        QCOMPARE(*early, noon + 9 * capwatch::retry::kProjectionMinSpanMs);
        // Money as tokens.
        QCOMPARE(capwatch::retry::projectLimitReached(0.25, 1.0, nine, noon, midnight), 21 * hour);
    }
};

QTEST_APPLESS_MAIN(TestSpendLimits)
#include "tst_spendlimits.moc"
