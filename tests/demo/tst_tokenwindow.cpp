// The capped scenario's accountant on its own: no socket, no clock, times passed in.

#include "demo/tokenwindow.h"

#include <QTest>

using capwatch::demo::TokenWindow;

class TestTokenWindow final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fillsUpToTheLimit();
    void entriesLeaveAfterTheWindow();
    void waitUntilTheOldestEnoughHaveLeft_data();
    void waitUntilTheOldestEnoughHaveLeft();
    void largerThanTheCapNamesAFullWindow();
    void newLimitsKeepWhatWasCounted();
    void clearForgetsEverything();
    void emptyOnceTheNewestHasLeft();
    void remainingIsFlooredAtZero();
};

void TestTokenWindow::fillsUpToTheLimit()
{
    TokenWindow window(6000, 60'000);
    for (int i = 0; i < 6; ++i) {
        QVERIFY(window.fits(i * 1000.0, 1000));
        window.admit(i * 1000.0, 1000);
    }
    QCOMPARE(window.used(), 6000);
    QVERIFY(!window.fits(6000, 1));
    QCOMPARE(window.usedWith(6000, 1000), 7000);
    QCOMPARE(window.used(), 6000); // asking does not count
}

void TestTokenWindow::entriesLeaveAfterTheWindow()
{
    TokenWindow window(3000, 10'000);
    window.admit(0, 1000);
    window.admit(4000, 1000);
    QCOMPARE(window.usedWith(9999, 0), 2000);
    // An entry counts for exactly the window: at 0 + 10 000 ms it is gone.
    QCOMPARE(window.usedWith(10'000, 0), 1000);
    QCOMPARE(window.usedWith(14'000, 0), 0);
}

void TestTokenWindow::waitUntilTheOldestEnoughHaveLeft_data()
{
    QTest::addColumn<qint64>("tokens");
    QTest::addColumn<double>("nowMs");
    QTest::addColumn<double>("expectedMs");

    // Entries at 0, 10 000 and 20 000 ms of 2000 tokens each, cap 6000 per 60 s window.
    QTest::newRow("fits now") << qint64(0) << 30'000.0 << 0.0;
    QTest::newRow("the oldest must leave") << qint64(2000) << 30'000.0 << 30'000.0;
    QTest::newRow("the two oldest must leave") << qint64(4000) << 30'000.0 << 40'000.0;
    QTest::newRow("all three must leave") << qint64(6000) << 30'000.0 << 50'000.0;
    QTest::newRow("later, less to wait") << qint64(2000) << 55'000.0 << 5'000.0;
}

void TestTokenWindow::waitUntilTheOldestEnoughHaveLeft()
{
    QFETCH(qint64, tokens);
    QFETCH(double, nowMs);
    QFETCH(double, expectedMs);
    TokenWindow window(6000, 60'000);
    for (int i = 0; i < 3; ++i)
        window.admit(i * 10'000.0, 2000);
    QCOMPARE(window.msUntilFits(nowMs, tokens), expectedMs);
}

void TestTokenWindow::largerThanTheCapNamesAFullWindow()
{
    TokenWindow window(6000, 60'000);
    QCOMPARE(window.msUntilFits(0, 7000), 60'000.0);
    window.admit(0, 1000);
    QCOMPARE(window.msUntilFits(1000, 7000), 60'000.0);
}

void TestTokenWindow::newLimitsKeepWhatWasCounted()
{
    TokenWindow window(6000, 60'000);
    window.admit(0, 5000);
    window.setLimits(4000, 10'000);
    QCOMPARE(window.limit(), 4000);
    QVERIFY(!window.fits(5000, 0));
    QVERIFY(window.fits(10'000, 4000)); // the shorter window let the entry go
}

void TestTokenWindow::clearForgetsEverything()
{
    TokenWindow window(6000, 60'000);
    window.admit(0, 6000);
    window.clear();
    QCOMPARE(window.used(), 0);
    QVERIFY(window.fits(1, 6000));
}

void TestTokenWindow::emptyOnceTheNewestHasLeft()
{
    TokenWindow window(6000, 60'000);
    QCOMPARE(window.msUntilEmpty(0), 0.0);
    window.admit(0, 1000);
    window.admit(20'000, 1000);
    // Not when the next request fits, nor when the oldest leaves: when the last one does.
    QCOMPARE(window.msUntilEmpty(30'000), 50'000.0);
    QCOMPARE(window.msUntilEmpty(60'000), 20'000.0); // the first has left
    QCOMPARE(window.used(), 1000);
    QCOMPARE(window.msUntilEmpty(80'000), 0.0);
    QCOMPARE(window.used(), 0);
}

void TestTokenWindow::remainingIsFlooredAtZero()
{
    TokenWindow window(3000, 10'000);
    QCOMPARE(window.remaining(0), 3000);
    window.admit(0, 1000);
    QCOMPARE(window.remaining(1), 2000);
    window.admit(2, 2500); // admit() does not enforce: the provider asks fits() first
    QCOMPARE(window.remaining(3), 0);
    QCOMPARE(window.remaining(10'000), 500); // the first entry left
    window.setLimits(100, 10'000);
    QCOMPARE(window.remaining(10'001), 0); // 2500 held, over the new limit
    QCOMPARE(window.remaining(10'002), 100); // the entry at 2 ms has left
}

QTEST_GUILESS_MAIN(TestTokenWindow)
#include "tst_tokenwindow.moc"
