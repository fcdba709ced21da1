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
    void lowerCaseCoversCyrillic();
    void resetTimes_data();
    void resetTimes();
    void tooLargeFigures_data();
    void tooLargeFigures();
    void usedLimitByWordsOnly();
    void compactDurations();
    void rfc3339();
    void tokenWords();
    void sameResultAtEveryOffset_data();
    void sameResultAtEveryOffset();
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
    // 6.1
    QTest::newRow("Cyrillic letter before") << u"использовано60323 5"_s << QList<double> { 5 };
    QTest::newRow("Cyrillic letter after") << u"60323т 5"_s << QList<double> { 5 };
    QTest::newRow("ё after") << u"5ё 6"_s << QList<double> { 6 };
    QTest::newRow("Cyrillic punctuation-like sign does not block")
        << u"5\u0482 6"_s << QList<double> { 5, 6 };
    QTest::newRow("Cyrillic supplement letter blocks") << u"5\u0501 6"_s << QList<double> { 6 };
    QTest::newRow("Chinese before and after")
        << u"已使用60323，限额60000个"_s << QList<double> { 60323, 60000 };
    QTest::newRow("Greek does not block (not in 6.1)") << u"α5"_s << QList<double> { 5 };
    QTest::newRow("no-break space group") << u"60\u00a0323"_s << QList<double> { 60323 };
    QTest::newRow("narrow no-break space groups")
        << u"1\u202f000\u202f000.5"_s << QList<double> { 1000000.5 };
    QTest::newRow("one separator kind per number")
        << u"1\u00a0000,000"_s << QList<double> { 1000, 0 };
    QTest::newRow("no-break space then two digits") << u"60\u00a032"_s << QList<double> { 60, 32 };
    QTest::newRow("no-break space group glued to a letter")
        << u"60\u00a0323x 7"_s << QList<double> { 7 };
    QTest::newRow("full-width comma does not group") << u"60，323"_s << QList<double> { 60, 323 };
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
    QTest::newRow("1 beats 3 placed earlier")
        << u"used 5 minutes. retry in 2 minutes"_s << 1 << qint64(120'000);
    QTest::newRow("2 retry after seconds") << u"retry after 30 seconds"_s << 2 << qint64(30'000);
    QTest::newRow("1 beats 2 placed earlier")
        << u"retry after 30 seconds, or retry in 2 minutes"_s << 1 << qint64(120'000);
    QTest::newRow("2 when 1 has no unit")
        << u"retry in 5 sec; retry after 3 seconds"_s << 2 << qint64(3'000);
    QTest::newRow("2 at its first match")
        << u"retry after x, retry after 4 seconds, retry after 5 seconds"_s << 2 << qint64(4'000);
    QTest::newRow("2 beats 4 placed earlier")
        << u"took 9 seconds; retry after 3 second"_s << 2 << qint64(3'000);
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
    // 9: Russian units
    QTest::newRow("9 через мин") << u"повторите через 18 мин."_s << 9 << qint64(1'080'000);
    QTest::newRow("9 мс") << u"через 250 мс"_s << 9 << qint64(250);
    QTest::newRow("9 сек") << u"подождите 5 сек"_s << 9 << qint64(5'000);
    QTest::newRow("9 секунду") << u"1 секунду"_s << 9 << qint64(1'000);
    QTest::newRow("9 секунды") << u"2 секунды"_s << 9 << qint64(2'000);
    QTest::newRow("9 секунд") << u"30 секунд"_s << 9 << qint64(30'000);
    QTest::newRow("9 минуту") << u"1 минуту"_s << 9 << qint64(60'000);
    QTest::newRow("9 минуты") << u"2 минуты"_s << 9 << qint64(120'000);
    QTest::newRow("9 минут") << u"5 минут"_s << 9 << qint64(300'000);
    QTest::newRow("9 ч") << u"1 ч"_s << 9 << qint64(3'600'000);
    QTest::newRow("9 час") << u"1 час"_s << 9 << qint64(3'600'000);
    QTest::newRow("9 часа") << u"2 часа"_s << 9 << qint64(7'200'000);
    QTest::newRow("9 часов") << u"5 часов"_s << 9 << qint64(18'000'000);
    QTest::newRow("9 glued") << u"через 5мин"_s << 9 << qint64(300'000);
    QTest::newRow("9 decimal") << u"через 0.5 мин"_s << 9 << qint64(30'000);
    QTest::newRow("9 no-break space") << u"через 30\u00a0сек"_s << 9 << qint64(30'000);
    QTest::newRow("9 followed by Cyrillic is no unit") << u"5 минутка"_s << 0 << qint64(0);
    QTest::newRow("9 часы is no unit") << u"5 часы"_s << 0 << qint64(0);
    QTest::newRow("9 followed by ASCII letter still a unit") << u"5 минx"_s << 9 << qint64(300'000);
    QTest::newRow("9 value after Cyrillic") << u"через5 мин"_s << 0 << qint64(0);
    QTest::newRow("9 after 3..8") << u"через 5 мин или 7 seconds"_s << 4 << qint64(7'000);
    QTest::newRow("English unit before a Cyrillic letter is no unit")
        << u"5 minч"_s << 0 << qint64(0);
    // 10: Chinese units
    QTest::newRow("10 毫秒") << u"请500毫秒后重试"_s << 10 << qint64(500);
    QTest::newRow("10 秒钟") << u"请30秒钟后重试"_s << 10 << qint64(30'000);
    QTest::newRow("10 秒") << u"请30秒后重试"_s << 10 << qint64(30'000);
    QTest::newRow("10 分钟") << u"请在18分钟后重试"_s << 10 << qint64(1'080'000);
    QTest::newRow("10 小时") << u"1小时后"_s << 10 << qint64(3'600'000);
    QTest::newRow("10 with space") << u"请 30 秒后"_s << 10 << qint64(30'000);
    QTest::newRow("10 分 alone") << u"3分后"_s << 0 << qint64(0);
    QTest::newRow("10 after 9") << u"30秒 или 2 мин"_s << 9 << qint64(120'000);
    // 11 needs the clock: without it, nothing
    QTest::newRow("11 without a clock") << u"resets at 2026-11-29t20:00:30z"_s << 0 << qint64(0);
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
    QTest::newRow("limit of") << u"you used 60,323 tokens, over your limit of 60,000"_s << 60323.0
                              << 60000.0;
    QTest::newRow("limit is") << u"the limit is 100 and 200 came"_s << 200.0 << 100.0;
    QTest::newRow("order fill") << u"2048 then 2645 then 1024"_s << 2048.0 << 2645.0;
    QTest::newRow("fill skips keyword numbers") << u"9 8 limit 7"_s << 9.0 << 7.0;
    QTest::newRow("unused is not used") << u"unused 3, 4"_s << 3.0 << 4.0;
    QTest::newRow("limits is not limit") << u"limits 3 used 4"_s << 4.0 << 3.0;
    // 6.1
    QTest::newRow("current") << u"current: 1410, limit: 100"_s << 1410.0 << 100.0;
    QTest::newRow("actual") << u"actual 9 max 8"_s << 9.0 << 8.0;
    QTest::newRow("использовано, лимит")
        << u"лимит 60000, использовано 60323"_s << 60323.0 << 60000.0;
    QTest::newRow("израсходовано") << u"израсходовано 5 из 6"_s << 5.0 << 6.0;
    QTest::newRow("лимита is not лимит") << u"лимита 3 использовано 4"_s << 4.0 << 3.0;
    QTest::newRow("неиспользовано is not использовано") << u"неиспользовано 3, 4"_s << 3.0 << 4.0;
    QTest::newRow("已使用 glued") << u"已使用60323，限额60000"_s << 60323.0 << 60000.0;
    QTest::newRow("已用 and 上限") << u"上限100已用120"_s << 120.0 << 100.0;
    QTest::newRow("限制 full-width colon") << u"限制：100，已使用：120"_s << 120.0 << 100.0;
    QTest::newRow("tab is no separator") << u"used\t5 limit 6"_s << 5.0 << 6.0;
    QTest::newRow("slash actual/limit")
        << u"rate limit is (actual/limit): 65605/16000"_s << 65605.0 << 16000.0;
    QTest::newRow("slash used/limit") << u"used/limit: 5/10"_s << 5.0 << 10.0;
    QTest::newRow("slash needs both numbers") << u"actual/limit: 5/x then 9"_s << 9.0 << 5.0;
    QTest::newRow("limit word tail of with Chinese") << u"上限 of 7 used 8"_s << 8.0 << 7.0;
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

void TestTextScan::lowerCaseCoversCyrillic()
{
    const std::string in
        = u"TOKEN Превышен ЛИМИТ ЁЖ АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ Ω 令牌"_s.toStdString();
    const std::string out = lowerCase(in);
    QCOMPARE(QString::fromStdString(out),
        u"token превышен лимит ёж абвгдежзийклмнопрстуфхцчшщъыьэюя Ω 令牌"_s);
    QCOMPARE(out.size(), in.size()); // offsets stay valid
    QCOMPARE(asciiLower("ЁX"), std::string("Ёx")); // asciiLower stays ASCII-only
    // Bytes that are no UTF-8 are left alone, and nothing past the end is read.
    QCOMPARE(lowerCase("\xD0"), std::string("\xD0"));
    QCOMPARE(lowerCase("\xD0"
                       "A"),
        std::string("\xD0"
                    "a"));
}

void TestTextScan::resetTimes_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("rawMs"); // -1: no hint
    // now: 2026-11-29T20:00:00Z
    QTest::newRow("Z") << u"resets at 2026-11-29t20:00:30z"_s << qint64(30'000);
    QTest::newRow("upper-case T and Z") << u"reset at 2026-11-29T20:00:30Z"_s << qint64(30'000);
    QTest::newRow("space for T") << u"retry at 2026-11-29 20:00:30z"_s << qint64(30'000);
    QTest::newRow("+08:00") << u"try again at 2026-11-30t04:00:30+08:00"_s << qint64(30'000);
    QTest::newRow("-05:30") << u"available at 2026-11-29t14:30:30-05:30"_s << qint64(30'000);
    QTest::newRow("fraction") << u"resets at 2026-11-29t20:00:00.250z"_s << qint64(250);
    QTest::newRow("past") << u"resets at 1999-01-01t00:00:00z"_s << qint64(0);
    QTest::newRow("year 9999 does not overflow")
        << u"resets at 9999-12-31t23:59:59z"_s << qint64(253'402'300'799'000 - 1'795'982'400'000);
    QTest::newRow("leap day") << u"resets at 2028-02-29t00:00:00z"_s
                              << qint64(1'835'395'200'000 - 1'795'982'400'000);
    QTest::newRow("no leap day in 2026") << u"resets at 2026-02-29t00:00:00z"_s << qint64(-1);
    QTest::newRow("no zone") << u"resets at 2026-11-29t20:00:30"_s << qint64(-1);
    QTest::newRow("hour 24") << u"resets at 2026-11-29t24:00:00z"_s << qint64(-1);
    QTest::newRow("month 13") << u"resets at 2026-13-01t00:00:00z"_s << qint64(-1);
    QTest::newRow("short year") << u"resets at 26-11-29t20:00:30z"_s << qint64(-1);
    QTest::newRow("no space after at") << u"resets at2026-11-29t20:00:30z"_s << qint64(-1);
    QTest::newRow("lead word inside a word") << u"presets at 2026-11-29t20:00:30z"_s << qint64(-1);
    QTest::newRow("a later valid one")
        << u"resets at soon; reset at 2026-11-29t20:00:05z"_s << qint64(5'000);
    QTest::newRow("the earliest lead word")
        << u"available at 2026-11-29t20:00:09z, retry at 2026-11-29t20:00:01z"_s << qint64(9'000);
}

void TestTextScan::resetTimes()
{
    QFETCH(QString, text);
    QFETCH(qint64, rawMs);
    const auto now = std::chrono::system_clock::time_point(std::chrono::seconds(1'795'982'400));
    const auto hint = findWaitHint(lowerCase(text.toStdString()), now);
    if (rawMs < 0) {
        QVERIFY2(!hint, "no wait expected");
        return;
    }
    QVERIFY(hint);
    QCOMPARE(hint->pattern, 11);
    QCOMPARE(qint64(hint->raw.count()), rawMs);
}

void TestTextScan::tooLargeFigures_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("used"); // -1: none
    QTest::addColumn<double>("limit");

    QTest::newRow("requested and limit words")
        << u"limit 6000, requested 10338"_s << 10338.0 << 6000.0;
    QTest::newRow("given and must be <=")
        << u"must be <= 2048. given: 2645 and 1024"_s << 2645.0 << 2048.0;
    QTest::newRow("requested only: first smaller of at least 100")
        << u"you requested 4268 tokens (4168 in the messages, 100 in the completion). maximum context length is 4097"_s
        << 4268.0 << 4168.0;
    QTest::newRow("limit only: first larger")
        << u"limit: 4096; 50 messages, 3000 and 5000 tokens"_s << 5000.0 << 4096.0;
    QTest::newRow("neither: first two of at least 100")
        << u"7 of 99: 210503 tokens > 200000 maximum, 300000"_s << 210503.0 << 200000.0;
    QTest::newRow("neither, smaller first") << u"window 8192, prompt 9000"_s << 9000.0 << 8192.0;
    QTest::newRow("neither, one number")
        << u"maximum context length is 4097 tokens"_s << -1.0 << -1.0;
    QTest::newRow("requested, no smaller") << u"requested 500, window 8192"_s << 500.0 << -1.0;
    QTest::newRow("limit, no larger") << u"limit 8192, prompt 500"_s << -1.0 << 8192.0;
    QTest::newRow("the earlier of limit and must be <=")
        << u"must be <= 100 (limit 200), given 300"_s << 300.0 << 100.0;
    QTest::newRow("tilde and equals") << u"limit=8000 requested ~ 9000"_s << 9000.0 << 8000.0;
    QTest::newRow("requested inside a word is not the word")
        << u"unrequested 9000 limit 8000"_s << 9000.0 << 8000.0;
    QTest::newRow("Russian limit word") << u"лимит 8000, requested 9000"_s << 9000.0 << 8000.0;
}

void TestTextScan::tooLargeFigures()
{
    QFETCH(QString, text);
    QFETCH(double, used);
    QFETCH(double, limit);
    const std::string s = text.toStdString();
    const UsedLimit ul = capwatch::retry::tooLargeFigures(s, findNumbers(s));
    QCOMPARE(ul.used.value_or(-1), used);
    QCOMPARE(ul.limit.value_or(-1), limit);
}

void TestTextScan::usedLimitByWordsOnly()
{
    std::string s = "limit 100 and 5 and 6";
    UsedLimit ul = usedLimitByWords(s, findNumbers(s));
    QVERIFY(!ul.used);
    QVERIFY(!ul.usedByWord);
    QCOMPARE(ul.limit.value_or(-1), 100.0);
    QVERIFY(ul.limitByWord);
    s = "(actual/limit): 65605/16000";
    ul = usedLimitByWords(s, findNumbers(s));
    QVERIFY(ul.usedByWord && ul.limitByWord);
    QCOMPARE(ul.used.value_or(-1), 65605.0);
    QCOMPARE(ul.limit.value_or(-1), 16000.0);
}

void TestTextScan::compactDurations()
{
    QCOMPARE(parseCompactDuration("21s").value_or(-1), 21.0);
    QCOMPARE(parseCompactDuration("0.5s").value_or(-1), 0.5);
    QCOMPARE(parseCompactDuration("1m30s").value_or(-1), 90.0);
    QCOMPARE(parseCompactDuration("6m0s").value_or(-1), 360.0);
    QCOMPARE(parseCompactDuration("20ms").value_or(-1), 0.02);
    QCOMPARE(parseCompactDuration("2h").value_or(-1), 7200.0);
    QCOMPARE(parseCompactDuration("2m59.56s").value_or(-1), 179.56);
    QVERIFY(!parseCompactDuration(""));
    QVERIFY(!parseCompactDuration("21"));
    QVERIFY(!parseCompactDuration("21 s"));
    QVERIFY(!parseCompactDuration("1m30"));
    QVERIFY(!parseCompactDuration("s"));
    QVERIFY(!parseCompactDuration("-1s"));
    QVERIFY(!parseCompactDuration("1sx"));
    QVERIFY(!parseCompactDuration("1S"));
}

void TestTextScan::rfc3339()
{
    const auto dt = parseRfc3339("2026-05-15T15:00:00Z and more");
    QVERIFY(dt);
    QCOMPARE(dt->epochMillis, std::int64_t(1'778'857'200'000));
    QCOMPARE(dt->length, std::size_t(20));
    QCOMPARE(
        parseRfc3339("2026-05-15 15:00:00+08:00")->epochMillis, std::int64_t(1'778'828'400'000));
    QCOMPARE(parseRfc3339("1970-01-01T00:00:00Z")->epochMillis, std::int64_t(0));
    QCOMPARE(parseRfc3339("1969-12-31T23:59:59.5Z")->epochMillis, std::int64_t(-500));
    QCOMPARE(parseRfc3339("0000-01-01T00:00:00Z")->epochMillis, std::int64_t(-62'167'219'200'000));
    QVERIFY(!parseRfc3339("2026-05-15T15:00:00"));
    QVERIFY(!parseRfc3339("2026-05-15T15:00Z"));
    QVERIFY(!parseRfc3339("2026-05-15T15:00:00+8:00"));
    QVERIFY(!parseRfc3339("2026-05-15T15:00:00+24:00"));
    QVERIFY(!parseRfc3339("2026-5-15T15:00:00Z"));
}

void TestTextScan::tokenWords()
{
    QVERIFY(speaksOfTokens("tokens per minute"));
    QVERIFY(speaksOfTokens("(tpm)"));
    QVERIFY(speaksOfTokens("tpd"));
    QVERIFY(speaksOfTokens(lowerCase("ТОКЕНОВ")));
    QVERIFY(speaksOfTokens("令牌"));
    QVERIFY(!speaksOfTokens("requests per minute (rpm)"));
    const auto kws
        = findKeywords("令牌超过限额 превышен лимит токенов token limit exceeded 超出 限制 上限");
    QCOMPARE(kws.size(), std::size_t(12));
    QVERIFY(findKeywords("超长").empty()); // a too_large phrase, not a token-limit keyword
}

void TestTextScan::sameResultAtEveryOffset_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("Russian") << u"ПРЕВЫШЕН ЛИМИТ ТОКЕНОВ: Использовано 12 345 из 10 000. Ёж"_s;
    QTest::newRow("retry in") << u"Token limit exceeded: used 60323, limit 60000. Retry in 2 MIN"_s;
    QTest::newRow("retry after") << u"rate limit reached: retry after 30 seconds"_s;
    QTest::newRow("compact") << u"Limit 5, used 7. Please try again in 1m30.5s"_s;
    QTest::newRow("slash") << u"(actual/limit): 65605/16000 tokens"_s;
    QTest::newRow("Chinese") << u"令牌超过限额：已使用12，限额3，请在2.5秒后重试。"_s;
    QTest::newRow("reset at") << u"quota exceeded, reset at 2026-12-07T08:00:00Z"_s;
    QTest::newRow("requested") << u"maximum context length is 4,097 tokens, you requested 4268"_s;
    QTest::newRow("hours") << u"try again in 2 hours or in 3h"_s;
}

void TestTextScan::sameResultAtEveryOffset()
{
    // The scanners test up to 16 bytes at once where they can: whatever falls on a block's
    // edge, the result moves with the text and nothing else changes.
    QFETCH(QString, text);
    const auto now = std::chrono::system_clock::time_point(std::chrono::seconds(1'795'982'400));
    const std::string raw = text.toStdString();
    const std::string lower = lowerCase(raw);
    const auto numbers = findNumbers(lower);
    const PhraseHits hits = scanPhrases(lower);
    const auto hint = findWaitHint(lower, now, &hits);
    const UsedLimit ul = extractUsedLimit(lower, numbers, 0, 0, &hits);
    const RequestedLimit rl = findRequestedLimit(lower, numbers, &hits);
    for (std::size_t pad = 1; pad <= 40; ++pad) {
        const std::string before(pad, ' ');
        const std::string after(pad % 17, ' ');
        const std::string moved = lowerCase(before + raw + after);
        QCOMPARE(moved, before + lower + after);
        const auto movedNumbers = findNumbers(moved);
        QCOMPARE(movedNumbers.size(), numbers.size());
        for (std::size_t n = 0; n < numbers.size(); ++n) {
            QCOMPARE(movedNumbers[n].begin, numbers[n].begin + pad);
            QCOMPARE(movedNumbers[n].end, numbers[n].end + pad);
            QCOMPARE(movedNumbers[n].value, numbers[n].value);
        }
        const PhraseHits movedHits = scanPhrases(moved);
        QVERIFY(movedHits.bits == hits.bits);
        for (const PhraseHits *h : { &movedHits, static_cast<const PhraseHits *>(nullptr) }) {
            const auto movedHint = findWaitHint(moved, now, h);
            QCOMPARE(movedHint.has_value(), hint.has_value());
            if (hint) {
                QCOMPARE(movedHint->pattern, hint->pattern);
                QCOMPARE(movedHint->raw.count(), hint->raw.count());
                QCOMPARE(movedHint->begin, hint->begin + pad);
                QCOMPARE(movedHint->end, hint->end + pad);
            }
            const UsedLimit movedUl = extractUsedLimit(moved, movedNumbers, 0, 0, h);
            QCOMPARE(movedUl.used, ul.used);
            QCOMPARE(movedUl.limit, ul.limit);
            QCOMPARE(movedUl.usedByWord, ul.usedByWord);
            QCOMPARE(movedUl.limitByWord, ul.limitByWord);
            const RequestedLimit movedRl = findRequestedLimit(moved, movedNumbers, h);
            QCOMPARE(movedRl.requested, rl.requested);
            QCOMPARE(movedRl.limit, rl.limit);
        }
    }
}

QTEST_GUILESS_MAIN(TestTextScan)
#include "tst_textscan.moc"
