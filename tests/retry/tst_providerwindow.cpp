// Section 8 of docs/retry-policy.md: what a provider reports of its window (the x-ratelimit-*
// headers, `usage`), the token estimate and the learned ratio, pacing and trimming.

#include "retry/classifier.h"
#include "retry/providerwindow.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>

using namespace capwatch::retry;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(PaceSkip)
Q_DECLARE_METATYPE(WaitSource)

namespace {

/// -1 for none: the tables read better than with std::optional columns.
qint64 orNone(const std::optional<std::int64_t> &v)
{
    return v ? qint64(*v) : -1;
}
qint64 orNone(const std::optional<Millis> &v)
{
    return v ? qint64(v->count()) : -1;
}
std::optional<Millis> msOr(qint64 ms)
{
    return ms < 0 ? std::nullopt : std::optional<Millis>(Millis(ms));
}
std::optional<std::int64_t> countOr(qint64 n)
{
    return n < 0 ? std::nullopt : std::optional<std::int64_t>(n);
}

std::string str(const QByteArray &bytes)
{
    return std::string(bytes.constData(), std::size_t(bytes.size()));
}

constexpr qint64 kDay = 24 * 60 * 60 * 1000;

// Not a raw string: moc 6.4 reads the apostrophe in one as the start of a character literal.
const QByteArray kDemoContextBody
    = "{\"error\":{\"message\":\"This model's maximum context length is 2000 tokens. Ho"
      "wever, you requested 2400 tokens (1400 in the messages, 1000 in the completion)."
      " Please reduce the length of the messages or completion.\",\"type\":\"invalid_re"
      "quest_error\",\"param\":\"messages\",\"code\":\"context_length_exceeded\"}}";

Classification classified(int status, const QByteArray &body)
{
    Response r;
    r.status = status;
    const std::string b = str(body);
    r.body = b;
    return classify(r, 1, std::chrono::system_clock::time_point {});
}

} // namespace

class TestProviderWindow final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void durations_data();
    void durations();
    void counts_data();
    void counts();
    void headerNames();
    void wholeReport();
    void usage_data();
    void usage();
    void streamUsageRefusal_data();
    void streamUsageRefusal();
    void estimate_data();
    void estimate();
    void ratioConverges_data();
    void ratioConverges();
    void ratioAverages();
    void ratioIgnoresOutliers();
    void pacing_data();
    void pacing();
    void pacingReasons();
    void paceSkipNames();
    void trim_data();
    void trim();
    void contextWindow_data();
    void contextWindow();
};

void TestProviderWindow::durations_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<qint64>("ms"); // -1: not a duration

    // Go durations, as OpenAI and Groq send them.
    QTest::newRow("1s") << QByteArray("1s") << qint64(1000);
    QTest::newRow("6m0s") << QByteArray("6m0s") << qint64(360'000);
    QTest::newRow("20ms") << QByteArray("20ms") << qint64(20);
    QTest::newRow("1h2m3.5s") << QByteArray("1h2m3.5s") << qint64(3'723'500);
    QTest::newRow("0.5s") << QByteArray("0.5s") << qint64(500);
    QTest::newRow("1m30.5s") << QByteArray("1m30.5s") << qint64(90'500);
    QTest::newRow("2h") << QByteArray("2h") << qint64(7'200'000);
    QTest::newRow("1h1s (units skipped)") << QByteArray("1h1s") << qint64(3'601'000);
    QTest::newRow("0s") << QByteArray("0s") << qint64(0);
    QTest::newRow("2us rounds up") << QByteArray("2us") << qint64(1);
    QTest::newRow("2µs (micro sign)") << QByteArray("2\xC2\xB5s") << qint64(1);
    QTest::newRow("2μs (Greek mu)") << QByteArray("2\xCE\xBCs") << qint64(1);
    QTest::newRow("300ns rounds up") << QByteArray("300ns") << qint64(1);
    QTest::newRow("1.0001ms rounds up") << QByteArray("1.0001ms") << qint64(2);
    QTest::newRow("1.005s exact") << QByteArray("1.005s") << qint64(1005);
    QTest::newRow("0.001s exact") << QByteArray("0.001s") << qint64(1);
    QTest::newRow("1s999999ns rounds up") << QByteArray("1s999999ns") << qint64(1001);
    QTest::newRow("999ms1000000ns") << QByteArray("999ms1000000ns") << qint64(1000);
    QTest::newRow("1s1000001ns") << QByteArray("1s1000001ns") << qint64(1002);
    QTest::newRow("a long fraction") << QByteArray("0.0000000000000000000001s") << qint64(1);
    QTest::newRow("0.000s") << QByteArray("0.000s") << qint64(0);
    QTest::newRow("24h exactly") << QByteArray("24h") << kDay;
    QTest::newRow("1439m60s (24 h)") << QByteArray("1439m60s") << kDay;
    QTest::newRow("leading zeros") << QByteArray("0001s") << qint64(1000);
    QTest::newRow("blanks around") << QByteArray(" \t6m0s\r\n") << qint64(360'000);
    // Plain seconds.
    QTest::newRow("12") << QByteArray("12") << qint64(12'000);
    QTest::newRow("0.25") << QByteArray("0.25") << qint64(250);
    QTest::newRow(" 7 ") << QByteArray(" 7 ") << qint64(7000);
    QTest::newRow("0") << QByteArray("0") << qint64(0);
    QTest::newRow("0.0004 rounds up") << QByteArray("0.0004") << qint64(1);
    QTest::newRow("86400") << QByteArray("86400") << kDay;
    // Garbage.
    for (const char *bad :
        { "", "   ", "-1", "-1s", "+1s", "+1", "1x", "s", "ms", "1s1s", "1m1h", "1ms1s", "1us1µs",
            "1.2.3s", "nan", "inf", "NaN", "1e3", "1e3s", "1 s", "1s 2m", "1m30", "1.s", ".5s",
            "1.", ".5", "1S", "1H", "99999999999999999999", "99999999999999999999s", "86400.001",
            "24h1ms", "24h0.000001ns", "25h", "1441m", "86401s", "9223372036854775807ns", "0x10",
            "1,5s", "1_000s", "1s,", "1sec", "1min", "1hr", "١s" /* Arabic-Indic digit */ }) {
        QTest::newRow(qPrintable(u"bad '"_s + QString::fromUtf8(bad) + u"'"_s))
            << QByteArray(bad) << qint64(-1);
    }
    QTest::newRow("bad: NUL inside") << QByteArray("1\0s", 3) << qint64(-1);
}

void TestProviderWindow::durations()
{
    QFETCH(QByteArray, text);
    QFETCH(qint64, ms);
    QCOMPARE(orNone(parseResetDuration(str(text))), ms);
}

void TestProviderWindow::counts_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<qint64>("count");

    QTest::newRow("42") << QByteArray("42") << qint64(42);
    QTest::newRow("0") << QByteArray("0") << qint64(0);
    QTest::newRow("blanks") << QByteArray(" 42 ") << qint64(42);
    QTest::newRow("tab") << QByteArray("\t30000") << qint64(30000);
    QTest::newRow("2^53") << QByteArray("9007199254740992") << qint64(9007199254740992);
    QTest::newRow("leading zeros") << QByteArray("007") << qint64(7);
    for (const char *bad : { "", " ", "1e3", "12.5", "12.0", "-3", "-0", "+3", "abc", "12abc",
             "1 000", "1,000", "9007199254740993", "99999999999999999999", "0x10", "nan", "inf" }) {
        QTest::newRow(qPrintable(u"bad '"_s + QString::fromUtf8(bad) + u"'"_s))
            << QByteArray(bad) << qint64(-1);
    }
}

void TestProviderWindow::counts()
{
    QFETCH(QByteArray, value);
    QFETCH(qint64, count);
    for (const char *name : { "x-ratelimit-limit-requests", "x-ratelimit-limit-tokens",
             "x-ratelimit-remaining-requests", "x-ratelimit-remaining-tokens" }) {
        const WindowReport r = windowReportFrom({ { name, str(value) } });
        const std::string_view n = name;
        const std::optional<std::int64_t> &field = n == "x-ratelimit-limit-requests"
            ? r.limitRequests
            : n == "x-ratelimit-limit-tokens"       ? r.limitTokens
            : n == "x-ratelimit-remaining-requests" ? r.remainingRequests
                                                    : r.remainingTokens;
        QCOMPARE(orNone(field), count);
        QCOMPARE(r.empty(), count < 0);
    }
}

void TestProviderWindow::headerNames()
{
    // Any case, blanks around the name; the first occurrence decides, even when invalid.
    WindowReport r = windowReportFrom({ { "X-RateLimit-Remaining-Tokens", "500" },
        { "x-ratelimit-remaining-tokens", "9000" }, { " X-RATELIMIT-RESET-TOKENS ", "12s" },
        { "x-ratelimit-limit-tokens", "many" }, { "x-ratelimit-limit-tokens", "60000" } });
    QCOMPARE(orNone(r.remainingTokens), 500);
    QCOMPARE(orNone(r.resetTokens), 12'000);
    QCOMPARE(orNone(r.limitTokens), -1);
    QVERIFY(!r.remainingRequests);
    // Other headers, and the x-rate-limit-* spelling the classifier reads for waits, are not
    // part of the report.
    r = windowReportFrom({ { "retry-after", "5" }, { "x-rate-limit-remaining-tokens", "5" },
        { "x-ratelimit-remaining", "5" }, { "x-ratelimit-remaining-tokens-extra", "5" } });
    QVERIFY(r.empty());
    QVERIFY(windowReportFrom({}).empty());
}

void TestProviderWindow::wholeReport()
{
    // What OpenAI sends.
    const WindowReport r = windowReportFrom({ { "x-ratelimit-limit-requests", "10000" },
        { "x-ratelimit-limit-tokens", "30000" }, { "x-ratelimit-remaining-requests", "9999" },
        { "x-ratelimit-remaining-tokens", "29000" }, { "x-ratelimit-reset-requests", "6ms" },
        { "x-ratelimit-reset-tokens", "2s" }, { "content-type", "application/json" } });
    WindowReport want;
    want.limitRequests = 10000;
    want.limitTokens = 30000;
    want.remainingRequests = 9999;
    want.remainingTokens = 29000;
    want.resetRequests = Millis(6);
    want.resetTokens = Millis(2000);
    QCOMPARE(r == want, true);
    QVERIFY(!r.empty());
    // Garbage everywhere: nothing is guessed.
    const WindowReport g = windowReportFrom(
        { { "x-ratelimit-limit-requests", "-1" }, { "x-ratelimit-limit-tokens", "1e5" },
            { "x-ratelimit-remaining-requests", "n/a" }, { "x-ratelimit-remaining-tokens", "" },
            { "x-ratelimit-reset-requests", "soon" }, { "x-ratelimit-reset-tokens", "-2s" } });
    QVERIFY(g.empty());
}

void TestProviderWindow::usage_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<qint64>("prompt");
    QTest::addColumn<qint64>("completion");
    QTest::addColumn<qint64>("total");

    QTest::newRow("full") << QByteArray(
        R"({"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":30,"total_tokens":42}})")
                          << qint64(12) << qint64(30) << qint64(42);
    QTest::newRow("stream chunk") << QByteArray(
        R"({"id":"x","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":7,"total_tokens":12,"prompt_tokens_details":{"cached_tokens":0}}})")
                                  << qint64(5) << qint64(7) << qint64(12);
    QTest::newRow("absent") << QByteArray(R"({"choices":[{"message":{"content":"hi"}}]})")
                            << qint64(-1) << qint64(-1) << qint64(-1);
    QTest::newRow("usage null") << QByteArray(R"({"usage":null})") << qint64(-1) << qint64(-1)
                                << qint64(-1);
    QTest::newRow("usage a number")
        << QByteArray(R"({"usage":42})") << qint64(-1) << qint64(-1) << qint64(-1);
    QTest::newRow("usage an array") << QByteArray(R"({"usage":[{"prompt_tokens":1}]})")
                                    << qint64(-1) << qint64(-1) << qint64(-1);
    QTest::newRow("partial") << QByteArray(R"({"usage":{"prompt_tokens":9}})") << qint64(9)
                             << qint64(-1) << qint64(-1);
    QTest::newRow("non-numeric fields dropped one by one") << QByteArray(
        R"({"usage":{"prompt_tokens":"9","completion_tokens":3,"total_tokens":true}})")
                                                           << qint64(-1) << qint64(3) << qint64(-1);
    QTest::newRow("fractional, negative, exponent") << QByteArray(
        R"({"usage":{"prompt_tokens":9.5,"completion_tokens":-3,"total_tokens":1e3}})")
                                                    << qint64(-1) << qint64(-1) << qint64(-1);
    QTest::newRow("12.0 is not whole in JSON")
        << QByteArray(R"({"usage":{"prompt_tokens":12.0,"completion_tokens":0}})") << qint64(-1)
        << qint64(0) << qint64(-1);
    QTest::newRow("-0 is 0") << QByteArray(R"({"usage":{"prompt_tokens":-0}})") << qint64(0)
                             << qint64(-1) << qint64(-1);
    QTest::newRow("over 2^53") << QByteArray(
        R"({"usage":{"prompt_tokens":9007199254740993,"completion_tokens":9007199254740992,"total_tokens":18446744073709551615}})")
                               << qint64(-1) << qint64(9007199254740992) << qint64(-1);
    QTest::newRow("nested objects are not the usage") << QByteArray(
        R"({"data":{"usage":{"prompt_tokens":1}},"usage":{"x":{"prompt_tokens":2},"total_tokens":3}})")
                                                      << qint64(-1) << qint64(-1) << qint64(3);
    QTest::newRow("a later usage replaces the first") << QByteArray(
        R"({"usage":{"prompt_tokens":1,"total_tokens":4},"usage":{"completion_tokens":2}})")
                                                      << qint64(-1) << qint64(2) << qint64(-1);
    QTest::newRow("a later member replaces the first") << QByteArray(
        R"({"usage":{"prompt_tokens":1,"prompt_tokens":"x","total_tokens":"y","total_tokens":5}})")
                                                       << qint64(-1) << qint64(-1) << qint64(5);
    QTest::newRow("an object member is no count")
        << QByteArray(R"({"usage":{"prompt_tokens":{"n":1},"completion_tokens":[2]}})")
        << qint64(-1) << qint64(-1) << qint64(-1);
    QTest::newRow("not JSON") << QByteArray("usage: prompt_tokens 5") << qint64(-1) << qint64(-1)
                              << qint64(-1);
    QTest::newRow("truncated JSON")
        << QByteArray(R"({"usage":{"prompt_tokens":5)") << qint64(-1) << qint64(-1) << qint64(-1);
    QTest::newRow("top-level array") << QByteArray(R"([{"usage":{"prompt_tokens":5}}])")
                                     << qint64(-1) << qint64(-1) << qint64(-1);
    QTest::newRow("empty") << QByteArray() << qint64(-1) << qint64(-1) << qint64(-1);
    // Cost and the details objects: the streaming reader and the parsed form agree (below).
    QTest::newRow("cost and details") << QByteArray(
        R"({"usage":{"prompt_tokens":9,"prompt_tokens_details":{"cached_tokens":4},"completion_tokens_details":{"reasoning_tokens":2},"cost":1.5e-6}})")
                                      << qint64(9) << qint64(-1) << qint64(-1);
    QTest::newRow("duplicate details") << QByteArray(
        R"({"usage":{"prompt_tokens_details":{"cached_tokens":4},"prompt_tokens_details":{"x":[{"cached_tokens":1}]},"cost":2,"cost":"3"}})")
                                       << qint64(-1) << qint64(-1) << qint64(-1);
    QTest::newRow("[DONE]") << QByteArray("[DONE]") << qint64(-1) << qint64(-1) << qint64(-1);
}

void TestProviderWindow::usage()
{
    QFETCH(QByteArray, json);
    QFETCH(qint64, prompt);
    QFETCH(qint64, completion);
    QFETCH(qint64, total);
    const UsageReport u = usageFromJson(str(json));
    QCOMPARE(orNone(u.promptTokens), prompt);
    QCOMPARE(orNone(u.completionTokens), completion);
    QCOMPARE(orNone(u.totalTokens), total);
    QCOMPARE(u.empty(),
        prompt < 0 && completion < 0 && total < 0 && !u.cost && !u.cachedTokens
            && !u.reasoningTokens);
    // The parsed form reads the same.
    const nlohmann::json parsed = nlohmann::json::parse(str(json), nullptr, false);
    if (!parsed.is_discarded())
        QVERIFY(usageFrom(parsed) == u);
}

void TestProviderWindow::streamUsageRefusal_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<bool>("refuses");

    const QByteArray openAiStyle
        = R"({"error":{"message":"Unrecognized request argument supplied: stream_options","type":"invalid_request_error","param":null,"code":null}})";
    QTest::newRow("unrecognized argument") << 400 << openAiStyle << true;
    QTest::newRow("detail") << 400 << QByteArray(R"({"detail":"stream_options is not supported"})")
                            << true;
    QTest::newRow("extra inputs")
        << 400 << QByteArray(R"({"error":"Extra inputs are not permitted: include_usage"})")
        << true;
    QTest::newRow("any case") << 400 << QByteArray(R"({"error":"Unknown field STREAM_OPTIONS"})")
                              << true;
    QTest::newRow("plain text") << 400 << QByteArray("Bad Request: include_usage unsupported")
                                << true;
    QTest::newRow("FastAPI field list")
        << 400
        << QByteArray(
               R"({"detail":[{"type":"extra_forbidden","loc":["body","stream_options"],"msg":"Extra inputs are not permitted"}]})")
        << true;
    QTest::newRow("not 400") << 422 << openAiStyle << false;
    QTest::newRow("500") << 500 << openAiStyle << false;
    QTest::newRow("another 400") << 400
                                 << QByteArray(
                                        R"({"error":{"message":"Invalid value for temperature"}})")
                                 << false;
    QTest::newRow("named outside the error text")
        << 400 << QByteArray(R"({"error":{"message":"Invalid model","param":"stream_options"}})")
        << false;
    QTest::newRow("stream alone") << 400 << QByteArray(R"({"error":"stream is not supported"})")
                                  << false;
    QTest::newRow("empty") << 400 << QByteArray() << false;
}

void TestProviderWindow::streamUsageRefusal()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(bool, refuses);
    QCOMPARE(refusesStreamUsage(status, str(body)), refuses);
}

void TestProviderWindow::estimate_data()
{
    QTest::addColumn<qint64>("chars");
    QTest::addColumn<double>("ratio");
    QTest::addColumn<qint64>("maxTokens"); // -1: unset
    QTest::addColumn<qint64>("prompt");
    QTest::addColumn<qint64>("total");

    QTest::newRow("4 a token") << qint64(400) << 4.0 << qint64(-1) << qint64(100) << qint64(1100);
    QTest::newRow("rounded up") << qint64(401) << 4.0 << qint64(-1) << qint64(101) << qint64(1101);
    QTest::newRow("max_tokens") << qint64(400) << 4.0 << qint64(256) << qint64(100) << qint64(356);
    QTest::newRow("max_tokens 0: the reserve")
        << qint64(400) << 4.0 << qint64(0) << qint64(100) << qint64(1100);
    QTest::newRow("learned 3") << qint64(300) << 3.0 << qint64(10) << qint64(100) << qint64(110);
    QTest::newRow("no chars") << qint64(0) << 4.0 << qint64(-1) << qint64(0) << qint64(1000);
    QTest::newRow("negative chars") << qint64(-5) << 4.0 << qint64(-1) << qint64(0) << qint64(1000);
    QTest::newRow("ratio out of bounds: 4")
        << qint64(400) << 100.0 << qint64(-1) << qint64(100) << qint64(1100);
    QTest::newRow("ratio 0: 4") << qint64(400) << 0.0 << qint64(-1) << qint64(100) << qint64(1100);
    QTest::newRow("ratio NaN: 4") << qint64(400) << std::nan("") << qint64(-1) << qint64(100)
                                  << qint64(1100);
    QTest::newRow("bounds are in") << qint64(16) << 0.5 << qint64(1) << qint64(32) << qint64(33);
}

void TestProviderWindow::estimate()
{
    QFETCH(qint64, chars);
    QFETCH(double, ratio);
    QFETCH(qint64, maxTokens);
    QFETCH(qint64, prompt);
    QFETCH(qint64, total);
    QCOMPARE(qint64(estimatePromptTokens(chars, ratio)), prompt);
    QCOMPARE(qint64(estimateTokens(chars, ratio, countOr(maxTokens))), total);
}

void TestProviderWindow::ratioConverges_data()
{
    QTest::addColumn<double>("trueRatio");
    QTest::addColumn<bool>("noise");
    QTest::newRow("3, exact") << 3.0 << false;
    QTest::newRow("3, +-1 token") << 3.0 << true;
    QTest::newRow("2.2, +-1 token") << 2.2 << true;
    QTest::newRow("6, +-1 token") << 6.0 << true;
}

void TestProviderWindow::ratioConverges()
{
    QFETCH(double, trueRatio);
    QFETCH(bool, noise);
    LearnedRatio r;
    QCOMPARE(r.charsPerToken, kDefaultCharsPerToken);
    QCOMPARE(r.samples, 0);
    for (int i = 0; i < 20; ++i) {
        const std::int64_t chars = 300 + (i * 977) % 4000; // varied sizes
        std::int64_t tokens = std::llround(double(chars) / trueRatio);
        if (noise)
            tokens += (i % 3) - 1; // -1, 0, +1
        r = learnRatio(r, chars, tokens);
    }
    QCOMPARE(r.samples, 20);
    QVERIFY2(std::abs(r.charsPerToken - trueRatio) < 0.05,
        qPrintable(u"learned %1"_s.arg(r.charsPerToken)));
}

void TestProviderWindow::ratioAverages()
{
    // The first samples are averaged (the starting 4 is not weighed), then 1/8 the new one.
    LearnedRatio r = learnRatio({}, 300, 100);
    QCOMPARE(r.charsPerToken, 3.0);
    QCOMPARE(r.samples, 1);
    r = learnRatio(r, 500, 100);
    QCOMPARE(r.charsPerToken, 4.0);
    QCOMPARE(r.samples, 2);
    for (int i = 0; i < 6; ++i)
        r = learnRatio(r, 400, 100);
    QCOMPARE(r.samples, 8);
    QCOMPARE(r.charsPerToken, 4.0);
    r = learnRatio(r, 1200, 100); // 12: 4 + (12 - 4) / 8
    QCOMPARE(r.charsPerToken, 5.0);
    QCOMPARE(r.samples, 9);
}

void TestProviderWindow::ratioIgnoresOutliers()
{
    const LearnedRatio start { 3.0, 5 };
    QVERIFY(learnRatio(start, 0, 10) == start);
    QVERIFY(learnRatio(start, 10, 0) == start);
    QVERIFY(learnRatio(start, -10, 5) == start);
    QVERIFY(learnRatio(start, 1000, 1) == start); // 1000 chars a token
    QVERIFY(learnRatio(start, 1, 10) == start); // 0.1
    QCOMPARE(learnRatio(start, 16, 1).samples, 6); // the bounds are in
    QCOMPARE(learnRatio(start, 1, 2).samples, 6);
    // A stored ratio out of bounds (a hand-edited setting) starts again from the default.
    QVERIFY(learnRatio({ 99.0, 3 }, 0, 0) == LearnedRatio {});
    QCOMPARE(learnRatio({ std::nan(""), 3 }, 300, 100).charsPerToken, 3.0);
}

void TestProviderWindow::pacing_data()
{
    QTest::addColumn<bool>("enabled");
    QTest::addColumn<qint64>("limitTokens"); // -1: not reported
    QTest::addColumn<qint64>("remainingTokens");
    QTest::addColumn<qint64>("remainingRequests");
    QTest::addColumn<qint64>("tokensResetLeftMs"); // -1: no reset
    QTest::addColumn<qint64>("requestsResetLeftMs");
    QTest::addColumn<qint64>("estimate");
    QTest::addColumn<bool>("pace");
    QTest::addColumn<PaceSkip>("skip");
    QTest::addColumn<qint64>("waitMs");
    QTest::addColumn<WaitSource>("source");
    QTest::addColumn<bool>("tokensFull");

    constexpr auto None = WaitSource::None;
    constexpr auto Reset = WaitSource::RateLimitReset;
    QTest::newRow("disabled") << false << qint64(60000) << qint64(10) << qint64(0) << qint64(12000)
                              << qint64(12000) << qint64(500) << false << PaceSkip::Disabled
                              << qint64(0) << None << false;
    QTest::newRow("no report") << true << qint64(-1) << qint64(-1) << qint64(-1) << qint64(-1)
                               << qint64(-1) << qint64(500) << false << PaceSkip::NoReport
                               << qint64(0) << None << false;
    QTest::newRow("only limits and resets: no report")
        << true << qint64(60000) << qint64(-1) << qint64(-1) << qint64(5000) << qint64(5000)
        << qint64(500) << false << PaceSkip::NoReport << qint64(0) << None << false;
    QTest::newRow("fits") << true << qint64(60000) << qint64(5000) << qint64(10) << qint64(12000)
                          << qint64(12000) << qint64(4999) << false << PaceSkip::Fits << qint64(0)
                          << None << false;
    QTest::newRow("fits exactly") << true << qint64(60000) << qint64(5000) << qint64(1)
                                  << qint64(12000) << qint64(12000) << qint64(5000) << false
                                  << PaceSkip::Fits << qint64(0) << None << false;
    QTest::newRow("tokens full, reset in 12 s")
        << true << qint64(60000) << qint64(100) << qint64(10) << qint64(12000) << qint64(500)
        << qint64(1100) << true << PaceSkip::None << qint64(12000) << Reset << true;
    QTest::newRow("tokens full, limit unknown")
        << true << qint64(-1) << qint64(100) << qint64(-1) << qint64(12000) << qint64(-1)
        << qint64(1100) << true << PaceSkip::None << qint64(12000) << Reset << true;
    QTest::newRow("no requests left, reset in 3 s")
        << true << qint64(-1) << qint64(-1) << qint64(0) << qint64(-1) << qint64(3000)
        << qint64(1100) << true << PaceSkip::None << qint64(3000) << Reset << false;
    QTest::newRow("requests full, tokens fit: the requests' reset")
        << true << qint64(60000) << qint64(50000) << qint64(0) << qint64(40000) << qint64(3000)
        << qint64(1100) << true << PaceSkip::None << qint64(3000) << Reset << false;
    QTest::newRow("both full: the later, tokens")
        << true << qint64(60000) << qint64(10) << qint64(0) << qint64(20000) << qint64(3000)
        << qint64(1100) << true << PaceSkip::None << qint64(20000) << Reset << true;
    QTest::newRow("both full: the later, requests")
        << true << qint64(60000) << qint64(10) << qint64(0) << qint64(2000) << qint64(30000)
        << qint64(1100) << true << PaceSkip::None << qint64(30000) << Reset << false;
    QTest::newRow("both full, tokens' reset passed: the requests'")
        << true << qint64(60000) << qint64(10) << qint64(0) << qint64(-5) << qint64(4000)
        << qint64(1100) << true << PaceSkip::None << qint64(4000) << Reset << false;
    QTest::newRow("both full, tokens without reset: the requests'")
        << true << qint64(60000) << qint64(10) << qint64(0) << qint64(-1) << qint64(4000)
        << qint64(1100) << true << PaceSkip::None << qint64(4000) << Reset << false;
    QTest::newRow("reset passed") << true << qint64(60000) << qint64(10) << qint64(10)
                                  << qint64(-2000) << qint64(-1) << qint64(1100) << false
                                  << PaceSkip::ResetPassed << qint64(0) << None << true;
    QTest::newRow("reset just now (0)")
        << true << qint64(60000) << qint64(10) << qint64(10) << qint64(0) << qint64(-1)
        << qint64(1100) << false << PaceSkip::ResetPassed << qint64(0) << None << true;
    QTest::newRow("requests reset passed")
        << true << qint64(-1) << qint64(-1) << qint64(0) << qint64(-1) << qint64(0) << qint64(1100)
        << false << PaceSkip::ResetPassed << qint64(0) << None << false;
    QTest::newRow("no reset") << true << qint64(60000) << qint64(10) << qint64(10) << qint64(-1)
                              << qint64(9000) << qint64(1100) << false << PaceSkip::NoReset
                              << qint64(0) << None << true;
    QTest::newRow("both full, one passed, one without reset")
        << true << qint64(60000) << qint64(10) << qint64(0) << qint64(-1) << qint64(0)
        << qint64(1100) << false << PaceSkip::NoReset << qint64(0) << None << true;
    QTest::newRow("60 s exactly: paced")
        << true << qint64(60000) << qint64(10) << qint64(10) << qint64(60000) << qint64(-1)
        << qint64(1100) << true << PaceSkip::None << qint64(60000) << Reset << true;
    QTest::newRow("60.001 s: too long")
        << true << qint64(60000) << qint64(10) << qint64(10) << qint64(60001) << qint64(-1)
        << qint64(1100) << false << PaceSkip::TooLong << qint64(60001) << None << true;
    QTest::newRow("both full, the later too long")
        << true << qint64(60000) << qint64(10) << qint64(0) << qint64(5000) << qint64(600000)
        << qint64(1100) << false << PaceSkip::TooLong << qint64(600000) << None << false;
}

void TestProviderWindow::pacing()
{
    QFETCH(bool, enabled);
    QFETCH(qint64, limitTokens);
    QFETCH(qint64, remainingTokens);
    QFETCH(qint64, remainingRequests);
    QFETCH(qint64, tokensResetLeftMs);
    QFETCH(qint64, requestsResetLeftMs);
    QFETCH(qint64, estimate);
    PaceInput in;
    in.enabled = enabled;
    in.report.limitTokens = countOr(limitTokens);
    in.report.remainingTokens = countOr(remainingTokens);
    in.report.remainingRequests = countOr(remainingRequests);
    // A reset left of less than zero is written -2000 etc.; -1 means none.
    in.tokensResetLeft
        = tokensResetLeftMs == -1 ? std::nullopt : std::optional<Millis>(Millis(tokensResetLeftMs));
    in.requestsResetLeft = requestsResetLeftMs == -1
        ? std::nullopt
        : std::optional<Millis>(Millis(requestsResetLeftMs));
    in.report.resetTokens = msOr(tokensResetLeftMs);
    in.report.resetRequests = msOr(requestsResetLeftMs);
    in.estimatedTokens = estimate;
    const PaceDecision d = decidePacing(in);
    QTEST(d.pace, "pace");
    QTEST(d.skip, "skip");
    QTEST(qint64(d.wait.count()), "waitMs");
    QTEST(d.source, "source");
    QTEST(d.tokensFull, "tokensFull");
    QVERIFY(!d.reason.empty());
}

void TestProviderWindow::pacingReasons()
{
    PaceInput in;
    in.report.remainingTokens = 100;
    in.tokensResetLeft = Millis(11'200);
    in.estimatedTokens = 1100;
    QCOMPARE(decidePacing(in).reason,
        "the provider's window has 100 tokens left of the 1100 the request needs; sending when "
        "it resets in 12 s");
    in.report = {};
    in.report.remainingRequests = 0;
    in.requestsResetLeft = Millis(90'000);
    QCOMPARE(decidePacing(in).reason,
        "the provider's window has no requests left and resets in 90 s, longer than pacing "
        "waits");
}

void TestProviderWindow::paceSkipNames()
{
    QCOMPARE(nameOf(PaceSkip::None), "");
    QCOMPARE(nameOf(PaceSkip::Disabled), "disabled");
    QCOMPARE(nameOf(PaceSkip::NoReport), "no_report");
    QCOMPARE(nameOf(PaceSkip::Fits), "fits");
    QCOMPARE(nameOf(PaceSkip::ResetPassed), "reset_passed");
    QCOMPARE(nameOf(PaceSkip::NoReset), "no_reset");
    QCOMPARE(nameOf(PaceSkip::TooLong), "too_long");
}

void TestProviderWindow::trim_data()
{
    QTest::addColumn<qint64>("window");
    QTest::addColumn<qint64>("fixed");
    QTest::addColumn<QList<qint64>>("turns");
    QTest::addColumn<int>("already");
    QTest::addColumn<bool>("needed");
    QTest::addColumn<bool>("fits");
    QTest::addColumn<int>("leftOut");
    QTest::addColumn<qint64>("leftOutTokens");
    QTest::addColumn<qint64>("before");
    QTest::addColumn<qint64>("after");

    const QList<qint64> four { 400, 300, 200, 100 };
    QTest::newRow("fits") << qint64(2000) << qint64(1000) << four << 0 << false << true << 0
                          << qint64(0) << qint64(2000) << qint64(2000);
    QTest::newRow("one oldest out") << qint64(1700) << qint64(1000) << four << 0 << true << true
                                    << 1 << qint64(400) << qint64(2000) << qint64(1600);
    QTest::newRow("two out, exactly the window")
        << qint64(1300) << qint64(1000) << four << 0 << true << true << 2 << qint64(700)
        << qint64(2000) << qint64(1300);
    QTest::newRow("all but the last") << qint64(1100) << qint64(1000) << four << 0 << true << true
                                      << 3 << qint64(900) << qint64(2000) << qint64(1100);
    QTest::newRow("never the last turn")
        << qint64(1050) << qint64(1000) << four << 0 << true << false << 3 << qint64(900)
        << qint64(2000) << qint64(1100);
    QTest::newRow("fixed alone too large")
        << qint64(900) << qint64(1000) << four << 0 << true << false << 3 << qint64(900)
        << qint64(2000) << qint64(1100);
    QTest::newRow("a trim in force that fits")
        << qint64(1700) << qint64(1000) << four << 2 << false << true << 2 << qint64(700)
        << qint64(1300) << qint64(1300);
    QTest::newRow("a trim in force, one more out")
        << qint64(1200) << qint64(1000) << four << 2 << true << true << 3 << qint64(900)
        << qint64(1300) << qint64(1100);
    QTest::newRow("already all: the last stays")
        << qint64(5000) << qint64(1000) << four << 9 << false << true << 3 << qint64(900)
        << qint64(1100) << qint64(1100);
    QTest::newRow("negative already") << qint64(5000) << qint64(1000) << four << -2 << false << true
                                      << 0 << qint64(0) << qint64(2000) << qint64(2000);
    QTest::newRow("window unknown") << qint64(0) << qint64(1000) << four << 0 << false << true << 0
                                    << qint64(0) << qint64(2000) << qint64(2000);
    QTest::newRow("window negative") << qint64(-1) << qint64(1000) << four << 1 << false << true
                                     << 1 << qint64(400) << qint64(1600) << qint64(1600);
    QTest::newRow("no turns, fits")
        << qint64(2000) << qint64(1000) << QList<qint64> {} << 0 << false << true << 0 << qint64(0)
        << qint64(1000) << qint64(1000);
    QTest::newRow("no turns, too large")
        << qint64(500) << qint64(1000) << QList<qint64> {} << 0 << true << false << 0 << qint64(0)
        << qint64(1000) << qint64(1000);
    QTest::newRow("one turn is the last")
        << qint64(500) << qint64(400) << QList<qint64> { 300 } << 0 << true << false << 0
        << qint64(0) << qint64(700) << qint64(700);
}

void TestProviderWindow::trim()
{
    QFETCH(qint64, window);
    QFETCH(qint64, fixed);
    QFETCH(QList<qint64>, turns);
    QFETCH(int, already);
    TrimInput in;
    in.contextWindow = window;
    in.fixedTokens = fixed;
    in.turnTokens.assign(turns.begin(), turns.end());
    in.alreadyLeftOut = already;
    const TrimPlan p = planTrim(in);
    QTEST(p.needed, "needed");
    QTEST(p.fits, "fits");
    QTEST(p.leftOut, "leftOut");
    QTEST(qint64(p.leftOutTokens), "leftOutTokens");
    QTEST(qint64(p.tokensBefore), "before");
    QTEST(qint64(p.tokensAfter), "after");
}

void TestProviderWindow::contextWindow_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<qint64>("window"); // -1: none

    // The corpus's too_large cases, by name: which speak of the model's context.
    const QHash<QString, qint64> corpusWindow {
        { u"TGI 422: inputs over the model's window is too_large (rev. 2)"_s, 2048 },
        { u"context_length_exceeded 400 is too_large (rev. 2)"_s, 4097 },
        { u"429 request larger than the window is too_large"_s, -1 }, // a rate window
        { u"413 is too_large"_s, -1 }, // a body too large, no figures
        { u"500 context overflow is too_large, not transient"_s, 8192 },
        { u"Anthropic prompt is too long"_s, 200000 },
    };
    QFile corpus(QStringLiteral(CAPWATCH_TEST_DATA_DIR "/responses.jsonl"));
    QVERIFY(corpus.open(QIODevice::ReadOnly));
    int found = 0;
    while (!corpus.atEnd()) {
        const QJsonObject o = QJsonDocument::fromJson(corpus.readLine()).object();
        const QString category = o.value(u"expect").toObject().value(u"category").toString();
        const QString name = o.value(u"name").toString();
        if (category != u"too_large"_s)
            continue;
        QVERIFY2(corpusWindow.contains(name), qPrintable(u"new too_large case: "_s + name));
        QTest::newRow(qPrintable(u"corpus: "_s + name))
            << o.value(u"status").toInt() << o.value(u"body").toString().toUtf8()
            << corpusWindow.value(name);
        ++found;
    }
    QCOMPARE(found, corpusWindow.size());

    QTest::newRow("demo context scenario") << 400 << kDemoContextBody << qint64(2000);
    // The code alone makes it too_large; its text matched no rule, so it gives no figures.
    QTest::newRow("code alone, no figures")
        << 400
        << QByteArray(
               R"({"error":{"message":"Too many: 5000 tokens, 4096 allowed","code":"context_length_exceeded"}})")
        << qint64(-1);
    QTest::newRow("a context phrase, no limit")
        << 400
        << QByteArray(
               R"({"error":{"message":"prompt tokens 5000 exceed the input token limit","code":"context_length_exceeded"}})")
        << qint64(-1);
    // The code says context, the text only gives the figures (rule 4).
    QTest::newRow("code and figures")
        << 400
        << QByteArray(
               R"({"error":{"message":"Limit 4096, requested 5000","code":"context_length_exceeded"}})")
        << qint64(4096);
    QTest::newRow("the same without the code: a window of some other kind")
        << 400 << QByteArray(R"({"error":{"message":"Limit 4096, requested 5000"}})") << qint64(-1);
    QTest::newRow("llama.cpp")
        << 400
        << QByteArray(
               R"({"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":9000,"n_ctx":4096}})")
        << qint64(4096); // revision 3: the figures of n_prompt_tokens and n_ctx (docs/rules.md)
    QTest::newRow("context window phrase")
        << 400
        << QByteArray(
               R"({"error":"Input of 140000 tokens exceeds the context window of 128000 tokens"})")
        << qint64(128000);
    QTest::newRow("Gemini input token count")
        << 400
        << QByteArray(
               R"({"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}})")
        << qint64(1048576);
    QTest::newRow("Chinese")
        << 400 << QByteArray(R"({"error":{"message":"输入超过上下文长度限制 8192，请求 9000"}})")
        << qint64(8192);
    QTest::newRow("rate window over the limit")
        << 429
        << QByteArray(
               R"({"error":{"message":"Request too large for gpt-4 in organization org-x on tokens per min (TPM): Limit 10000, Requested 20000."}})")
        << qint64(-1);
    QTest::newRow("a token limit is not too_large")
        << 422 << QByteArray(R"({"error":"Token limit exceeded: used 60323, limit 60000"})")
        << qint64(-1);
    QTest::newRow("success") << 200 << QByteArray(R"({"choices":[]})") << qint64(-1);
}

void TestProviderWindow::contextWindow()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(qint64, window);
    QCOMPARE(orNone(contextWindowFrom(classified(status, body))), window);
}

QTEST_GUILESS_MAIN(TestProviderWindow)
#include "tst_providerwindow.moc"
