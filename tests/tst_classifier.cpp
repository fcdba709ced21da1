// Data-driven tests of classify(): every case of the reference corpus, plus rows for each rule
// and boundary of sections 1 to 3 of the retry policy.

#include "retry/classifier.h"
#include "retry/constants.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <chrono>

using namespace capwatch::retry;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

// 2026-11-29T20:00:00Z: the fixed "now" of these tests.
const auto kNow = std::chrono::system_clock::time_point(std::chrono::seconds(1'795'982'400));

struct Expect
{
    QString category;
    double used = -1; // -1: null
    double limit = -1;
    qint64 waitMs = -1; // -1: null
    qint64 rawMs = -1;
    QString source; // empty: null
};

} // namespace

Q_DECLARE_METATYPE(Expect)

class TestClassifier final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void classify_data();
    void classify();
    void httpDateInTheFuture();
    void httpDateForms_data();
    void httpDateForms();
    void bodyOverOneMiBIsPlainError();
    void bodyOfExactlyOneMiBIsClassified();
    void deeplyNestedJsonIsHandled();
    void backoffSeries();
    void networkFailures_data();
    void networkFailures();
    void errorTextPrefersLastDuplicate();
    void errorInSuccessBody_data();
    void errorInSuccessBody();
    void errorInStreamEvent_data();
    void errorInStreamEvent();

private:
    static void row(const char *name, int status, const Headers &headers, const QByteArray &body,
                    int retryIndex, const Expect &expect);
};

void TestClassifier::row(const char *name, int status, const Headers &headers,
                         const QByteArray &body, int retryIndex, const Expect &expect)
{
    QList<QPair<QString, QString>> hs;
    for (const auto &[k, v] : headers)
        hs.append({ QString::fromStdString(k), QString::fromStdString(v) });
    QTest::newRow(name) << status << QVariant::fromValue(hs) << body << retryIndex
                        << QVariant::fromValue(expect);
}

void TestClassifier::classify_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QVariant>("headers");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("retryIndex");
    QTest::addColumn<QVariant>("expect");

    // The reference corpus, every case.
    QFile corpus(QStringLiteral(CAPWATCH_TEST_DATA_DIR "/responses.jsonl"));
    QVERIFY(corpus.open(QIODevice::ReadOnly));
    int cases = 0;
    while (!corpus.atEnd()) {
        const QByteArray line = corpus.readLine().trimmed();
        if (line.isEmpty())
            continue;
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        QVERIFY(!o.isEmpty());
        Headers headers;
        const QJsonObject h = o.value(u"headers").toObject();
        for (auto it = h.begin(); it != h.end(); ++it)
            headers.emplace_back(it.key().toStdString(), it.value().toString().toStdString());
        const QByteArray body = o.contains(u"body_b64")
                ? QByteArray::fromBase64(o.value(u"body_b64").toString().toLatin1())
                : o.value(u"body").toString().toUtf8();
        const QJsonObject e = o.value(u"expect").toObject();
        const auto seconds = [&](const char *key) {
            const QJsonValue v = e.value(QLatin1StringView(key));
            return v.isNull() ? qint64(-1) : qint64(std::llround(v.toDouble() * 1000));
        };
        Expect x;
        x.category = e.value(u"category").toString();
        x.used = e.value(u"used").isNull() ? -1 : e.value(u"used").toDouble();
        x.limit = e.value(u"limit").isNull() ? -1 : e.value(u"limit").toDouble();
        x.waitMs = seconds("wait_s");
        x.rawMs = seconds("raw_wait_s");
        x.source = e.value(u"wait_source").toString();
        QCOMPARE(e.value(u"retryable").toBool(),
                 x.category != u"fatal" && x.category != u"success");
        const QByteArray name = "corpus: " + o.value(u"name").toString().toUtf8();
        row(name.constData(), o.value(u"status").toInt(), headers, body,
            o.value(u"retry_index").toInt(1), x);
        ++cases;
    }
    QVERIFY2(cases >= 37, "the corpus was not read in full");

    const QByteArray tokenBody = R"({"error":"Token limit exceeded: used 60323, limit 60000"})";
    const QByteArray headline =
            R"({"error":"Token limit exceeded: used 60323, limit 60000. Retry in 18 min."})";
    const Expect tokenBackoff5 { u"token_limit"_s, 60323, 60000, 5000, 5000, u"backoff"_s };
    const Expect fatal { u"fatal"_s };

    // Section 2: what a token-limit 422 is.
    row("two numbers and keyword 'token' only", 422, {}, R"({"error":"token 5 of 6"})", 1,
        { u"token_limit"_s, 5, 6, 5000, 5000, u"backoff"_s });
    row("keyword 'exceeded' only", 422, {}, R"({"error":"quota exceeded 5 6"})", 1,
        { u"token_limit"_s, 5, 6, 5000, 5000, u"backoff"_s });
    row("keyword 'limit' only, upper case", 422, {}, R"({"error":"LIMIT 7 USED 3"})", 1,
        { u"token_limit"_s, 3, 7, 5000, 5000, u"backoff"_s });
    row("numbers glued to letters do not count", 422, {},
        R"({"error":"token limit exceeded for gpt-4o on deepseek-v4"})", 1, fatal);
    row("18min and 2.5s are no numbers", 422, {}, R"({"error":"token limit: wait 18min or 2.5s"})",
        1, fatal);
    row("dot before digits", 422, {}, R"({"error":"token limit v.5 and x.6"})", 1, fatal);
    row("model name with 4.1 counts", 422, {}, R"({"error":"token limit for gpt-4.1: 5"})", 1,
        { u"token_limit"_s, 4.1, 5, 5000, 5000, u"backoff"_s });
    row("comma groups are one number", 422, {}, R"({"error":"token limit 60,000"})", 1, fatal);
    row("decimals count", 422, {}, R"({"error":"token limit 2.5 used 1.5"})", 1,
        { u"token_limit"_s, 1.5, 2.5, 5000, 5000, u"backoff"_s });
    row("error.message object shape", 422, {},
        R"({"error":{"message":"Token limit exceeded: used 1, limit 2","code":"x"}})", 1,
        { u"token_limit"_s, 1, 2, 5000, 5000, u"backoff"_s });
    row("error is null", 422, {}, R"({"error":null,"message":"token limit 1 2"})", 1, fatal);
    row("error is true", 422, {}, R"({"error":true})", 1, fatal);
    row("error is a number", 422, {}, R"({"error":422})", 1, fatal);
    row("error is an array", 422, {}, R"({"error":["token limit 1 2"]})", 1, fatal);
    row("error object without message", 422, {}, R"({"error":{"msg":"token limit 1 2"}})", 1, fatal);
    row("error.message is not a string", 422, {}, R"({"error":{"message":["token limit 1 2"]}})",
        1, fatal);
    row("message alone does not count for 422", 422, {}, R"({"message":"token limit 1 2"})", 1,
        fatal);
    row("detail array", 422, {}, R"({"detail":[{"msg":"token limit 1 2"}]})", 1, fatal);
    row("top-level string", 422, {}, R"("token limit 1 2")", 1, fatal);
    row("invalid JSON", 422, {}, R"({"error":"token limit 1 2")", 1, fatal);
    row("trailing garbage", 422, {}, R"({"error":"token limit 1 2"} x)", 1, fatal);
    row("empty body", 422, {}, "", 1, fatal);
    row("invalid UTF-8 in the text", 422, {},
        QByteArray(R"({"error":"token limit 1 2 )") + "\xff\xfe" + R"("})", 1, fatal);
    row("lone surrogate escape is invalid", 422, {}, R"({"error":"token limit 1 2 \ud800"})", 1,
        fatal);
    row("non-ASCII text around English", 422, {},
        R"({"error":"Token limit exceeded \u2014 used 60323, limit 60000"})", 1, tokenBackoff5);

    // Section 3: headers.
    row("retry-after decimal seconds", 422, { { "Retry-After", "2.5" } }, headline, 1,
        { u"token_limit"_s, 60323, 60000, 2500, 2500, u"retry-after"_s });
    row("retry-after trimmed", 422, { { "retry-after", "  7 " } }, headline, 1,
        { u"token_limit"_s, 60323, 60000, 7000, 7000, u"retry-after"_s });
    row("retry-after zero", 422, { { "RETRY-AFTER", "0" } }, headline, 1,
        { u"token_limit"_s, 60323, 60000, 0, 0, u"retry-after"_s });
    row("retry-after capped at exactly 60", 422, { { "Retry-After", "60" } }, tokenBody, 1,
        { u"token_limit"_s, 60323, 60000, 60000, 60000, u"retry-after"_s });
    row("retry-after just over the cap", 422, { { "Retry-After", "60.001" } }, tokenBody, 1,
        { u"token_limit"_s, 60323, 60000, 60000, 60001, u"retry-after"_s });
    row("retry-after empty is ignored", 422, { { "Retry-After", "" } }, headline, 1,
        { u"token_limit"_s, 60323, 60000, 60000, 1080000, u"message"_s });
    row("retry-after with unit is ignored", 422, { { "Retry-After", "7s" } }, tokenBody, 1,
        tokenBackoff5);
    row("retry-after garbage then retry-after-ms", 422,
        { { "Retry-After", "abc" }, { "retry-after-ms", "1500" } }, headline, 1,
        { u"token_limit"_s, 60323, 60000, 1500, 1500, u"retry-after-ms"_s });
    row("retry-after wins over retry-after-ms", 422,
        { { "retry-after-ms", "1500" }, { "Retry-After", "3" } }, headline, 1,
        { u"token_limit"_s, 60323, 60000, 3000, 3000, u"retry-after"_s });
    row("retry-after-ms negative ignored", 422, { { "retry-after-ms", "-1" } }, tokenBody, 1,
        tokenBackoff5);
    row("retry-after-ms fraction", 422, { { "Retry-After-Ms", "84.4" } }, tokenBody, 1,
        { u"token_limit"_s, 60323, 60000, 84, 84, u"retry-after-ms"_s });
    row("retry-after-ms over the cap", 422, { { "retry-after-ms", "90000" } }, tokenBody, 1,
        { u"token_limit"_s, 60323, 60000, 60000, 90000, u"retry-after-ms"_s });
    row("HTTP-date 30 s ahead", 422, { { "Retry-After", "Sun, 29 Nov 2026 20:00:30 GMT" } },
        tokenBody, 1, { u"token_limit"_s, 60323, 60000, 30000, 30000, u"retry-after"_s });
    row("HTTP-date an hour ahead is capped", 422,
        { { "Retry-After", "Sun, 29 Nov 2026 21:00:00 GMT" } }, tokenBody, 1,
        { u"token_limit"_s, 60323, 60000, 60000, 3600000, u"retry-after"_s });
    row("HTTP-date invalid day is ignored", 422,
        { { "Retry-After", "Sun, 31 Nov 2026 20:00:30 GMT" } }, tokenBody, 1, tokenBackoff5);
    row("HTTP-date in another zone is ignored", 422,
        { { "Retry-After", "Sun, 29 Nov 2026 20:00:30 CET" } }, tokenBody, 1, tokenBackoff5);

    // Section 3: message patterns and their order.
    const auto msg = [](const char *text) -> QByteArray {
        return QByteArray(R"({"error":"Token limit exceeded: used 60323, limit 60000. )") + text
                + R"("})";
    };
    const auto fromMessage = [](qint64 raw) {
        return Expect { u"token_limit"_s, 60323, 60000, std::min<qint64>(raw, 60000), raw,
                        u"message"_s };
    };
    row("pattern 1 retry in X minutes", 422, {}, msg("Retry in 1 minute."), 1, fromMessage(60000));
    row("pattern 1 before pattern 3", 422, {}, msg("Quota resets every 5 minutes; retry in 0.5 minutes"),
        1, fromMessage(30000));
    row("pattern 2 retry after X seconds", 422, {}, msg("Retry after 12 seconds"), 1,
        fromMessage(12000));
    row("pattern 2 before pattern 4", 422, {}, msg("Took 9 seconds. Retry after 3 seconds"), 1,
        fromMessage(3000));
    row("pattern 3 before pattern 4", 422, {}, msg("Wait 20 seconds or 1 minute"), 1,
        fromMessage(60000));
    row("pattern 4 before pattern 5", 422, {}, msg("Wait 2 min or 20 sec or 7 seconds"), 1,
        fromMessage(7000));
    row("pattern 5 before pattern 6", 422, {}, msg("Wait 20 sec or 2 min"), 1, fromMessage(120000));
    row("pattern 6 sec", 422, {}, msg("Wait 45 secs"), 1, fromMessage(45000));
    row("pattern 6 before pattern 7", 422, {}, msg("Wait 1 hour or 50 sec"), 1, fromMessage(50000));
    row("pattern 7 hours", 422, {}, msg("Resets in 2 hours"), 1, fromMessage(7200000));
    row("pattern 7 hr", 422, {}, msg("Resets in 1 hr"), 1, fromMessage(3600000));
    row("pattern 8 ms", 422, {}, msg("Try again in 644ms"), 1, fromMessage(644));
    row("pattern 8 m and s", 422, {}, msg("Try again in 9m38.016s"), 1, fromMessage(578016));
    row("pattern 8 after", 422, {}, msg("Try after 2h"), 1, fromMessage(7200000));
    row("pattern 7 before pattern 8", 422, {}, msg("in 5s or 1 hr"), 1, fromMessage(3600000));
    row("unit followed by a letter is no unit", 422, {}, msg("Wait 5 minutesx"), 1, tokenBackoff5);
    row("minute at exactly the cap", 422, {}, msg("Retry in 1 minute"), 1, fromMessage(60000));
    row("wait number is skipped for used and limit", 422, {},
        R"({"error":"Token limit exceeded. Retry in 18 min. 7 over 9"})", 1,
        { u"token_limit"_s, 7, 9, 60000, 1080000, u"message"_s });

    // Section 3: backoff for retries 1 to 4, then the cap.
    row("backoff retry 1", 422, {}, tokenBody, 1, tokenBackoff5);
    row("backoff retry 2", 422, {}, tokenBody, 2,
        { u"token_limit"_s, 60323, 60000, 10000, 10000, u"backoff"_s });
    row("backoff retry 3", 422, {}, tokenBody, 3,
        { u"token_limit"_s, 60323, 60000, 20000, 20000, u"backoff"_s });
    row("backoff retry 4", 422, {}, tokenBody, 4,
        { u"token_limit"_s, 60323, 60000, 40000, 40000, u"backoff"_s });
    row("backoff retry 5 capped", 422, {}, tokenBody, 5,
        { u"token_limit"_s, 60323, 60000, 60000, 60000, u"backoff"_s });

    // Section 1: the other categories.
    row("200 success", 200, {}, "{}", 1, { u"success"_s });
    row("200 error in body, status field", 200, {}, R"({"status":429,"message":"Too many requests"})", 1,
        { u"rate_limit"_s, -1, -1, 5000, 5000, u"backoff"_s });
    row("200 error in first stream event", 200, { { "Content-Type", "text/event-stream; charset=utf-8" } },
        "event: x\r\n: comment\r\ndata: {\"error\":{\"code\":503,\"message\":\"busy\"}}\r\n\r\ndata: {}\r\n\r\n", 2,
        { u"transient"_s, -1, -1, 10000, 10000, u"backoff"_s });
    row("200 stream error after the first event is success", 200, { { "content-type", "text/event-stream" } },
        "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\ndata: {\"error\":\"x\"}\n\n", 1, { u"success"_s });
    row("200 stream body read as JSON without the content type", 200, {},
        "data: {\"error\":{\"code\":429}}\n\n", 1, { u"success"_s });
    row("200 with choices is success", 200, {}, R"({"choices":[{"message":{"content":"x"}}],"error":"x"})", 1, { u"success"_s });
    row("204 success", 204, {}, "", 1, { u"success"_s });
    row("429 plain text body backoff", 429, {}, "slow down, retry in 30 seconds", 1,
        { u"rate_limit"_s, -1, -1, 5000, 5000, u"backoff"_s });
    row("429 top-level message with hint", 429, {}, R"({"message":"Retry after 9 seconds"})", 1,
        { u"rate_limit"_s, -1, -1, 9000, 9000, u"message"_s });
    row("429 header over message", 429, { { "retry-after", "1" } },
        R"({"error":"Retry after 9 seconds"})", 1,
        { u"rate_limit"_s, -1, -1, 1000, 1000, u"retry-after"_s });
    for (const int s : { 408, 500, 502, 503, 504, 529 }) {
        const QByteArray n = "transient " + QByteArray::number(s) + " ignores message hints";
        row(n.constData(), s, {}, R"({"error":"Retry in 30 seconds"})", 2,
            { u"transient"_s, -1, -1, 10000, 10000, u"backoff"_s });
    }
    row("503 retry-after-ms", 503, { { "retry-after-ms", "250" } }, "", 1,
        { u"transient"_s, -1, -1, 250, 250, u"retry-after-ms"_s });
    row("403 auth", 403, {}, "forbidden", 1, { u"auth"_s, -1, -1, 0, 0, u"credential-refresh"_s });
    for (const int s : { 400, 404, 409, 413, 501, 505, 301, 100 }) {
        const QByteArray n = "fatal " + QByteArray::number(s);
        row(n.constData(), s, { { "Retry-After", "5" } }, R"({"error":"token limit 1 2"})", 1, fatal);
    }
}

void TestClassifier::classify()
{
    QFETCH(int, status);
    QFETCH(QVariant, headers);
    QFETCH(QByteArray, body);
    QFETCH(int, retryIndex);
    QFETCH(QVariant, expect);
    const Expect x = expect.value<Expect>();

    Response r;
    r.status = status;
    for (const auto &[k, v] : headers.value<QList<QPair<QString, QString>>>())
        r.headers.emplace_back(k.toStdString(), v.toStdString());
    r.body = std::string_view(body.constData(), std::size_t(body.size()));
    const Classification c = capwatch::retry::classify(r, retryIndex, kNow);

    QCOMPARE(QString::fromLatin1(nameOf(c.category)), x.category);
    QCOMPARE(c.retryable, x.category != u"fatal" && x.category != u"success");
    QCOMPARE(c.used.value_or(-1), x.used);
    QCOMPARE(c.limit.value_or(-1), x.limit);
    QCOMPARE(c.wait ? qint64(c.wait->count()) : -1, x.waitMs);
    QCOMPARE(c.rawWait ? qint64(c.rawWait->count()) : -1, x.rawMs);
    QCOMPARE(QString::fromLatin1(nameOf(c.waitSource)), x.source);
    QVERIFY(!c.reason.empty());
}

void TestClassifier::httpDateInTheFuture()
{
    Response r;
    r.status = 429;
    r.headers = { { "Retry-After", "Sun, 29 Nov 2026 20:00:07 GMT" } };
    const auto c = capwatch::retry::classify(r, 1, kNow + 500ms);
    QCOMPARE(c.rawWait->count(), 6500); // seconds from now, to the millisecond
    QCOMPARE(c.waitSource, WaitSource::RetryAfter);
}

void TestClassifier::httpDateForms_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<qint64>("rawMs");
    QTest::newRow("IMF-fixdate") << QByteArray("Sun, 29 Nov 2026 20:00:10 GMT") << qint64(10000);
    QTest::newRow("RFC 850") << QByteArray("Sunday, 29-Nov-26 20:00:10 GMT") << qint64(10000);
    QTest::newRow("asctime") << QByteArray("Sun Nov 29 20:00:10 2026") << qint64(10000);
    QTest::newRow("asctime single digit day") << QByteArray("Tue Dec  1 20:00:00 2026")
                                              << qint64(60000); // 2 days ahead: capped
    QTest::newRow("leap day") << QByteArray("Thu, 29 Feb 2024 00:00:00 GMT") << qint64(0);
}

void TestClassifier::httpDateForms()
{
    QFETCH(QByteArray, value);
    QFETCH(qint64, rawMs);
    Response r;
    r.status = 503;
    r.headers = { { "Retry-After", value.toStdString() } };
    const auto c = capwatch::retry::classify(r, 1, kNow);
    QCOMPARE(c.waitSource, WaitSource::RetryAfter);
    QCOMPARE(qint64(std::min(c.rawWait->count(), std::int64_t(60000))), rawMs);
}

void TestClassifier::bodyOverOneMiBIsPlainError()
{
    QByteArray body = R"({"error":"Token limit exceeded: used 60323, limit 60000","pad":")";
    body += QByteArray(qsizetype(kMaxClassifiedBodyBytes), 'x');
    body += "\"}";
    Response r;
    r.status = 422;
    r.body = std::string_view(body.constData(), std::size_t(body.size()));
    QCOMPARE(capwatch::retry::classify(r, 1, kNow).category, Category::Fatal);

    r.status = 429; // still a rate limit, but its body is not read
    const auto c = capwatch::retry::classify(r, 1, kNow);
    QCOMPARE(c.category, Category::RateLimit);
    QCOMPARE(c.waitSource, WaitSource::Backoff);
}

void TestClassifier::bodyOfExactlyOneMiBIsClassified()
{
    QByteArray body = R"({"error":"Token limit exceeded: used 60323, limit 60000","pad":")";
    body += QByteArray(qsizetype(kMaxClassifiedBodyBytes) - body.size() - 2, 'x');
    body += "\"}";
    QCOMPARE(std::size_t(body.size()), kMaxClassifiedBodyBytes);
    Response r;
    r.status = 422;
    r.body = std::string_view(body.constData(), std::size_t(body.size()));
    QCOMPARE(capwatch::retry::classify(r, 1, kNow).category, Category::TokenLimit);
}

void TestClassifier::deeplyNestedJsonIsHandled()
{
    // 200,000 levels: a recursive parser would overflow the stack here.
    QByteArray body = R"({"error":"Token limit exceeded: used 1, limit 2","x":)";
    body += QByteArray(200'000, '[') + QByteArray(200'000, ']') + '}';
    Response r;
    r.status = 422;
    r.body = std::string_view(body.constData(), std::size_t(body.size()));
    QCOMPARE(capwatch::retry::classify(r, 1, kNow).category, Category::TokenLimit);
}

void TestClassifier::backoffSeries()
{
    QCOMPARE(backoffFor(1).count(), 5000);
    QCOMPARE(backoffFor(2).count(), 10000);
    QCOMPARE(backoffFor(3).count(), 20000);
    QCOMPARE(backoffFor(4).count(), 40000);
    QCOMPARE(backoffFor(5).count(), 60000);
    QCOMPARE(backoffFor(1000).count(), 60000);
}

void TestClassifier::networkFailures_data()
{
    QTest::addColumn<int>("failure");
    QTest::addColumn<QString>("category");
    QTest::newRow("broken before headers") << int(NetworkFailure::BrokenBeforeHeaders) << u"transient"_s;
    QTest::newRow("timed out") << int(NetworkFailure::TimedOut) << u"transient"_s;
    QTest::newRow("refused") << int(NetworkFailure::Refused) << u"fatal"_s;
    QTest::newRow("host not found") << int(NetworkFailure::HostNotFound) << u"fatal"_s;
    QTest::newRow("tls") << int(NetworkFailure::Tls) << u"fatal"_s;
    QTest::newRow("invalid url") << int(NetworkFailure::InvalidUrl) << u"fatal"_s;
}

void TestClassifier::networkFailures()
{
    QFETCH(int, failure);
    QFETCH(QString, category);
    Response r;
    r.network = NetworkFailure(failure);
    r.networkError = "boom";
    const auto c = capwatch::retry::classify(r, 2, kNow);
    QCOMPARE(QString::fromLatin1(nameOf(c.category)), category);
    QCOMPARE(c.errorText, std::string("boom"));
    if (c.category == Category::Transient) {
        QCOMPARE(c.wait->count(), 10000);
        QCOMPARE(c.waitSource, WaitSource::Backoff);
    } else {
        QVERIFY(!c.wait);
    }
}

void TestClassifier::errorTextPrefersLastDuplicate()
{
    QCOMPARE(extractErrorText(R"({"error":"a","error":"b"})", false).value_or(""), std::string("b"));
    QVERIFY(!extractErrorText(R"({"error":"a","error":5})", false));
    QCOMPARE(extractErrorText(R"({"error":{"message":"m","x":{"message":"deep"}}})", false)
                     .value_or(""),
             std::string("m"));
    QCOMPARE(extractErrorText(R"({"error":"e","message":"m"})", true).value_or(""),
             std::string("e\nm"));
}

void TestClassifier::errorInSuccessBody_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("status"); // 0: no error

    QTest::newRow("status field") << QByteArray(R"({"status": 429, "message": "Too many requests"})") << 429;
    QTest::newRow("error.code integer") << QByteArray(R"({"error":{"code":503,"message":"x"}})") << 503;
    QTest::newRow("error.code string of three digits") << QByteArray(R"({"error":{"code":"429","message":"x"}})") << 429;
    QTest::newRow("error.status") << QByteArray(R"({"error":{"status":413,"message":"x"}})") << 413;
    QTest::newRow("top-level code") << QByteArray(R"({"error":"x","code":402})") << 402;
    QTest::newRow("status before error.code") << QByteArray(R"({"error":{"code":500},"status":429})") << 429;
    QTest::newRow("code out of range skipped") << QByteArray(R"({"error":{"code":1113,"status":402}})") << 402;
    QTest::newRow("string code not three digits") << QByteArray(R"({"error":{"code":"4290","message":"x"}})") << 400;
    QTest::newRow("overloaded is 500") << QByteArray(R"({"error":{"message":"Model is Overloaded"}})") << 500;
    QTest::newRow("default 400") << QByteArray(R"({"error":"something went wrong"})") << 400;
    QTest::newRow("status 200 with error is 400") << QByteArray(R"({"status":200,"error":"x"})") << 400;
    QTest::newRow("choices means an answer") << QByteArray(R"({"choices":[],"error":{"code":429}})") << 0;
    QTest::newRow("no error, no status") << QByteArray(R"({"id":"x","object":"chat.completion"})") << 0;
    QTest::newRow("error null is none") << QByteArray(R"({"error":null,"output":[]})") << 0;
    QTest::newRow("status as string does not make an error") << QByteArray(R"({"status":"429"})") << 0;
    QTest::newRow("status out of range") << QByteArray(R"({"status":200})") << 0;
    QTest::newRow("not an object") << QByteArray(R"([{"error":"x"}])") << 0;
    QTest::newRow("not JSON") << QByteArray("error: 429") << 0;
    QTest::newRow("answer") << QByteArray(R"({"choices":[{"message":{"content":"hi"}}]})") << 0;
}

void TestClassifier::errorInSuccessBody()
{
    QFETCH(QByteArray, body);
    QFETCH(int, status);
    const auto e = capwatch::retry::errorInSuccessBody(std::string_view(body.constData(), std::size_t(body.size())));
    QCOMPARE(e ? e->status : 0, status);
    if (e)
        QCOMPARE(QByteArray::fromStdString(e->body), body);
}

void TestClassifier::errorInStreamEvent_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<int>("status"); // 0: no error

    QTest::newRow("error code 429") << QByteArray(R"({"error":{"code":429,"message":"Rate limit exceeded."}})") << 429;
    QTest::newRow("overloaded") << QByteArray(R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})") << 500;
    QTest::newRow("error string") << QByteArray(R"({"error":"bad"})") << 400;
    QTest::newRow("a chunk") << QByteArray(R"({"choices":[{"delta":{"content":"Hi"}}]})") << 0;
    QTest::newRow("status alone is no stream error") << QByteArray(R"({"status":429})") << 0;
    QTest::newRow("done") << QByteArray("[DONE]") << 0;
}

void TestClassifier::errorInStreamEvent()
{
    QFETCH(QByteArray, data);
    QFETCH(int, status);
    const auto e = capwatch::retry::errorInStreamEvent(std::string_view(data.constData(), std::size_t(data.size())));
    QCOMPARE(e ? e->status : 0, status);
    if (e)
        QCOMPARE(QByteArray::fromStdString(e->body), data);
}

QTEST_GUILESS_MAIN(TestClassifier)
#include "tst_classifier.moc"
