// Unit tests of the hand-written scanners behind section 2 and 3 of the retry policy.

#include "retry/textscan.h"

#include <QTest>

using namespace capwatch::retry;
using namespace Qt::StringLiterals;

class TestTextScan final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void numbers_data();
    void numbers();
    void waitHints_data();
    void waitHints();
    void usedLimit_data();
    void usedLimit();
    void keywordsInFixedOrder();
    void parseDecimalAcceptsOnlyPlainDecimals();
};

void TestTextScan::numbers_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<double>>("expected");

    QTest::newRow("plain") << u"used 60323, limit 60000"_s << QList<double> { 60323, 60000 };
    QTest::newRow("thousands") << u"used 60,323 of 60,000"_s << QList<double> { 60323, 60000 };
    QTest::newRow("decimal") << u"wait 2.5 then"_s << QList<double> { 2.5 };
    QTest::newRow("model gpt-4.1 colon") << u"gpt-4.1: 5"_s << QList<double> { 4.1, 5 };
    QTest::newRow("gpt-4o is no number") << u"gpt-4o"_s << QList<double> {};
    QTest::newRow("deepseek-v4") << u"deepseek-v4 7"_s << QList<double> { 7 };
    QTest::newRow("unit glued 18min") << u"18min"_s << QList<double> {};
    QTest::newRow("2.5s not even its 2") << u"2.5s"_s << QList<double> {};
    QTest::newRow("after a dot") << u"v.5 x"_s << QList<double> {};
    QTest::newRow("after underscore") << u"max_5 x"_s << QList<double> {};
    QTest::newRow("before underscore") << u"5_x"_s << QList<double> {};
    QTest::newRow("sentence end dot") << u"limit 60000."_s << QList<double> { 60000 };
    QTest::newRow("comma list no groups") << u"1,2"_s << QList<double> { 1, 2 };
    QTest::newRow("four digit group breaks") << u"60,3234"_s << QList<double> { 3234 };
    QTest::newRow("groups and fraction") << u"1,000.5"_s << QList<double> { 1000.5 };
    QTest::newRow("in parentheses") << u"(5) [6]"_s << QList<double> { 5, 6 };
    QTest::newRow("negative sign is punctuation") << u"-5"_s << QList<double> { 5 };
    QTest::newRow("version triple: the letter of the rule") << u"1.2.3"_s << QList<double> { 1.2 };
    QTest::newRow("equal numbers") << u"60000 60000"_s << QList<double> { 60000, 60000 };
    QTest::newRow("empty") << QString() << QList<double> {};
}

void TestTextScan::numbers()
{
    QFETCH(QString, text);
    QFETCH(QList<double>, expected);
    const std::string s = text.toStdString();
    QList<double> got;
    for (const NumberToken &t : findNumbers(s))
        got.append(t.value);
    QCOMPARE(got, expected);
}

void TestTextScan::waitHints_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("pattern"); // 0: no hint
    QTest::addColumn<qint64>("rawMs");

    QTest::newRow("1 retry in minutes") << u"retry in 2 minutes."_s << 1 << qint64(120'000);
    QTest::newRow("1 beats 3 placed earlier") << u"used 5 minutes. retry in 2 minutes"_s << 1
                                              << qint64(120'000);
    QTest::newRow("2 retry after seconds") << u"retry after 30 seconds"_s << 2 << qint64(30'000);
    QTest::newRow("2 beats 4 placed earlier") << u"took 9 seconds; retry after 3 second"_s << 2
                                              << qint64(3'000);
    QTest::newRow("3 minute") << u"come back in 1 minute"_s << 3 << qint64(60'000);
    QTest::newRow("3 decimal minutes") << u"wait 2.5 minutes"_s << 3 << qint64(150'000);
    QTest::newRow("3 beats 4") << u"30 seconds or 1 minute"_s << 3 << qint64(60'000);
    QTest::newRow("4 seconds") << u"try again in 30 seconds."_s << 4 << qint64(30'000);
    QTest::newRow("4 no space") << u"wait 7seconds"_s << 4 << qint64(7'000);
    QTest::newRow("4 beats 5") << u"18 min or 20 seconds"_s << 4 << qint64(20'000);
    QTest::newRow("5 min") << u"retry in 18 min."_s << 5 << qint64(1'080'000);
    QTest::newRow("5 mins") << u"wait 3 mins"_s << 5 << qint64(180'000);
    QTest::newRow("5 min glued") << u"wait 3min"_s << 5 << qint64(180'000);
    QTest::newRow("6 sec") << u"please wait 45 sec."_s << 6 << qint64(45'000);
    QTest::newRow("6 secs") << u"45 secs"_s << 6 << qint64(45'000);
    QTest::newRow("7 hour") << u"resets in 1 hour"_s << 7 << qint64(3'600'000);
    QTest::newRow("7 hrs") << u"resets in 2 hrs"_s << 7 << qint64(7'200'000);
    QTest::newRow("8 compact s") << u"please try again in 2.5s."_s << 8 << qint64(2'500);
    QTest::newRow("8 compact ms") << u"try again in 84ms. visit"_s << 8 << qint64(84);
    QTest::newRow("8 compact m s") << u"try again in 1m30s"_s << 8 << qint64(90'000);
    QTest::newRow("8 compact fraction") << u"after 9m38.016s"_s << 8 << qint64(578'016);
    QTest::newRow("8 compact h") << u"in 2h"_s << 8 << qint64(7'200'000);
    QTest::newRow("8 needs the in word") << u"within 5s"_s << 0 << qint64(0);
    QTest::newRow("8 unit followed by letter") << u"in 5sx"_s << 0 << qint64(0);
    QTest::newRow("unit followed by letter") << u"5 minutesx"_s << 0 << qint64(0);
    QTest::newRow("minutely is no unit") << u"5 minutely"_s << 0 << qint64(0);
    QTest::newRow("secondary is no unit") << u"5 secondary"_s << 0 << qint64(0);
    QTest::newRow("value after letter") << u"x5 seconds"_s << 0 << qint64(0);
    QTest::newRow("value after dot") << u"v.5 seconds"_s << 0 << qint64(0);
    QTest::newRow("no hint") << u"token limit exceeded"_s << 0 << qint64(0);
}

void TestTextScan::waitHints()
{
    QFETCH(QString, text);
    QFETCH(int, pattern);
    QFETCH(qint64, rawMs);
    const auto hint = findWaitHint(text.toStdString());
    if (pattern == 0) {
        QVERIFY2(!hint, "no wait hint expected");
        return;
    }
    QVERIFY(hint);
    QCOMPARE(hint->pattern, pattern);
    QCOMPARE(qint64(hint->raw.count()), rawMs);
}

void TestTextScan::usedLimit_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("used"); // -1: none
    QTest::addColumn<double>("limit");

    QTest::newRow("keywords") << u"used 60323, limit 60000"_s << 60323.0 << 60000.0;
    QTest::newRow("reversed") << u"limit 60000, used 60323"_s << 60323.0 << 60000.0;
    QTest::newRow("colon and equals") << u"limit: 5 used=7"_s << 7.0 << 5.0;
    QTest::newRow("limit of") << u"you used 60,323 tokens, over your limit of 60,000"_s
                              << 60323.0 << 60000.0;
    QTest::newRow("limit is") << u"the limit is 100 and 200 came"_s << 200.0 << 100.0;
    QTest::newRow("order fill") << u"2048 then 2645 then 1024"_s << 2048.0 << 2645.0;
    QTest::newRow("fill skips keyword numbers") << u"9 8 limit 7"_s << 9.0 << 7.0;
    QTest::newRow("unused is not used") << u"unused 3, 4"_s << 3.0 << 4.0;
    QTest::newRow("limits is not limit") << u"limits 3 used 4"_s << 4.0 << 3.0;
}

void TestTextScan::usedLimit()
{
    QFETCH(QString, text);
    QFETCH(double, used);
    QFETCH(double, limit);
    const std::string s = text.toStdString();
    const UsedLimit ul = extractUsedLimit(s, findNumbers(s));
    QCOMPARE(ul.used.value_or(-1), used);
    QCOMPARE(ul.limit.value_or(-1), limit);
}

void TestTextScan::keywordsInFixedOrder()
{
    const auto kws = findKeywords("token limit exceeded");
    QCOMPARE(kws.size(), std::size_t(3));
    QCOMPARE(QByteArrayView(kws[0]), QByteArrayView("limit"));
    QCOMPARE(QByteArrayView(kws[1]), QByteArrayView("token"));
    QCOMPARE(QByteArrayView(kws[2]), QByteArrayView("exceeded"));
    QVERIFY(findKeywords("tokens").size() == 1); // substring rule: "tokens" contains "token"
    QVERIFY(findKeywords("nothing here").empty());
}

void TestTextScan::parseDecimalAcceptsOnlyPlainDecimals()
{
    QCOMPARE(parseDecimal("7").value_or(-1), 7.0);
    QCOMPARE(parseDecimal("2.5").value_or(-1), 2.5);
    QVERIFY(!parseDecimal("-5"));
    QVERIFY(!parseDecimal("+5"));
    QVERIFY(!parseDecimal("abc"));
    QVERIFY(!parseDecimal(""));
    QVERIFY(!parseDecimal("5."));
    QVERIFY(!parseDecimal(".5"));
    QVERIFY(!parseDecimal("1e3"));
    QVERIFY(!parseDecimal("5 s"));
}

QTEST_GUILESS_MAIN(TestTextScan)
#include "tst_textscan.moc"
