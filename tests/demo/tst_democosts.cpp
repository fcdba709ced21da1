// What a send costs at the demo provider (issue 30.7), over real HTTP on loopback: with
// costPerMillionTokens every answer's usage has OpenRouter's "cost", (prompt_tokens +
// completion_tokens) * rate / 1e6 to the last bit, streamed (the usage chunk) or not, and none
// without it; the daily scenario answers requestsPerDay requests per day of its clock, then
// says in OpenRouter's words, and in no header, that the day's requests are used, until the next
// day, on a frozen policy clock and on a scaled wall clock.

#include "demo/demoprovider.h"
#include "demo/wireformat.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTest>
#include <memory>

using namespace capwatch::demo;
using namespace Qt::StringLiterals;

namespace {

using ReplyPtr = std::unique_ptr<QNetworkReply>;

#define AWAIT(reply) QTRY_VERIFY_WITH_TIMEOUT((reply)->isFinished(), 15000)

int statusOf(QNetworkReply *reply)
{
    return reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
}

QJsonObject chatBody(bool stream, bool includeUsage, const QString &prompt = u"Hello there"_s)
{
    QJsonObject body { { u"model"_s, u"demo-model"_s },
        { u"messages"_s,
            QJsonArray { QJsonObject { { u"role"_s, u"user"_s }, { u"content"_s, prompt } } } },
        { u"max_tokens"_s, 200 } };
    if (stream)
        body.insert(u"stream"_s, true);
    if (includeUsage)
        body.insert(u"stream_options"_s, QJsonObject { { u"include_usage"_s, true } });
    return body;
}

/// The usage object of a whole body, or of a stream's usage chunk (empty when there is none),
/// and how many usage objects the body had (a stream has one at most).
QJsonObject usageOf(const QByteArray &body, bool stream, int *count = nullptr)
{
    if (!stream) {
        const QJsonObject usage
            = QJsonDocument::fromJson(body).object().value(u"usage"_s).toObject();
        if (count)
            *count = usage.isEmpty() ? 0 : 1;
        return usage;
    }
    QJsonObject usage;
    int found = 0;
    for (const QByteArray &line : body.split('\n')) {
        if (!line.startsWith("data: {"))
            continue;
        const QJsonObject chunk = QJsonDocument::fromJson(line.sliced(6)).object();
        if (chunk.contains(u"usage"_s)) {
            usage = chunk.value(u"usage"_s).toObject();
            ++found;
        }
    }
    if (count)
        *count = found;
    return usage;
}

/// Every header of the reply whose name starts with x-ratelimit or is retry-after.
QByteArrayList limitHeaders(const QNetworkReply *reply)
{
    QByteArrayList out;
    for (const QByteArray &name : reply->rawHeaderList()) {
        const QByteArray lower = name.toLower();
        if (lower.startsWith("x-ratelimit") || lower.startsWith("retry-after"))
            out.append(name);
    }
    return out;
}

} // namespace

class TestDemoCosts final : public QObject
{
    Q_OBJECT

private:
    QNetworkAccessManager m_nam;

    static std::unique_ptr<DemoProvider> start(const DemoOptions &options)
    {
        auto provider = std::make_unique<DemoProvider>();
        provider->setOptions(options);
        if (!provider->listen())
            return {};
        return provider;
    }

    ReplyPtr post(const DemoProvider &provider, const QJsonObject &body)
    {
        QUrl url = provider.baseUrl();
        url.setPath(url.path() + u"/chat/completions"_s);
        QNetworkRequest r(url);
        r.setRawHeader("Authorization", "Bearer sk-test");
        r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        return ReplyPtr(m_nam.post(r, QJsonDocument(body).toJson(QJsonDocument::Compact)));
    }

private Q_SLOTS:
    void initTestCase() { m_nam.setProxy(QNetworkProxy::NoProxy); }

    void costInUsage_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<bool>("stream");
        QTest::addColumn<double>("rate");
        // A rate of no exact binary form (0.15), a round one, none at all but still said (0), and
        // the answers of every path: capped's, a scenario's, length's pieces, the firehose.
        for (const bool stream : { false, true }) {
            const char *how = stream ? "streamed" : "whole";
            QTest::addRow("capped %s 0.15", how) << u"capped"_s << stream << 0.15;
            QTest::addRow("capped %s 2.5", how) << u"capped"_s << stream << 2.5;
            QTest::addRow("capped %s 0", how) << u"capped"_s << stream << 0.0;
            QTest::addRow("daily %s 0.15", how) << u"daily"_s << stream << 0.15;
            QTest::addRow("length %s 3", how) << u"length"_s << stream << 3.0;
            QTest::addRow("firehose %s 0.07", how) << u"firehose"_s << stream << 0.07;
        }
    }

    void costInUsage()
    {
        QFETCH(QString, scenario);
        QFETCH(bool, stream);
        QFETCH(double, rate);
        DemoOptions options;
        options.scenario = scenario;
        options.timeScale = 0.05;
        options.answerBytes = 3000;
        options.answerChunks = 10;
        options.costPerMillionTokens = rate;
        auto provider = start(options);
        QVERIFY(provider);
        ReplyPtr reply = post(*provider, chatBody(stream, stream));
        AWAIT(reply);
        QCOMPARE(statusOf(reply.get()), 200);
        const QByteArray body = reply->readAll();
        int usages = 0;
        const QJsonObject usage = usageOf(body, stream, &usages);
        QCOMPARE(usages, 1);
        const qint64 prompt = usage.value(u"prompt_tokens"_s).toInteger(-1);
        const qint64 completion = usage.value(u"completion_tokens"_s).toInteger(-1);
        QVERIFY(prompt > 0);
        QVERIFY(completion > 0);
        QCOMPARE(usage.value(u"total_tokens"_s).toInteger(-1), prompt + completion);
        // OpenRouter's shape: a JSON number in the usage object, in credits.
        QVERIFY2(usage.value(u"cost"_s).isDouble(), body.right(400).constData());
        const double expected = double(prompt + completion) * rate / 1e6;
        const double cost = usage.value(u"cost"_s).toDouble();
        // Exactly the same double, not merely close: the text is the shortest that reads back.
        QVERIFY2(cost == expected,
            qPrintable(u"%1 != %2"_s.arg(cost, 0, 'g', 17).arg(expected, 0, 'g', 17)));
        QCOMPARE(expected, wire::costOf(prompt, completion, rate));
    }

    void noCostWithoutTheRate_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<bool>("stream");
        for (const bool stream : { false, true }) {
            const char *how = stream ? "streamed" : "whole";
            QTest::addRow("capped %s", how) << u"capped"_s << stream;
            QTest::addRow("length %s", how) << u"length"_s << stream;
            QTest::addRow("daily %s", how) << u"daily"_s << stream;
        }
    }

    void noCostWithoutTheRate()
    {
        QFETCH(QString, scenario);
        QFETCH(bool, stream);
        DemoOptions options;
        options.scenario = scenario;
        options.timeScale = 0.05;
        QVERIFY(!options.costPerMillionTokens); // unset by default
        auto provider = start(options);
        QVERIFY(provider);
        ReplyPtr reply = post(*provider, chatBody(stream, stream));
        AWAIT(reply);
        QCOMPARE(statusOf(reply.get()), 200);
        const QByteArray body = reply->readAll();
        const QJsonObject usage = usageOf(body, stream);
        QVERIFY(usage.contains(u"completion_tokens"_s));
        QVERIFY2(!usage.contains(u"cost"_s), body.right(400).constData());
        QVERIFY(!body.contains("\"cost\""));
    }

    void aStreamWithoutIncludeUsageHasNoCost()
    {
        // The cost goes where the usage goes: a stream that did not ask for usage has neither.
        DemoOptions options;
        options.timeScale = 0.05;
        options.costPerMillionTokens = 1.0;
        auto provider = start(options);
        QVERIFY(provider);
        ReplyPtr reply = post(*provider, chatBody(true, false));
        AWAIT(reply);
        QCOMPARE(statusOf(reply.get()), 200);
        const QByteArray body = reply->readAll();
        QVERIFY(body.contains("[DONE]"));
        QVERIFY(!body.contains("\"usage\""));
        QVERIFY(!body.contains("\"cost\""));
    }

    void invalidOptions_data()
    {
        QTest::addColumn<double>("cost");
        QTest::addColumn<qint64>("perDay");
        QTest::newRow("negative cost") << -0.5 << qint64(5);
        QTest::newRow("NaN cost") << qQNaN() << qint64(5);
        QTest::newRow("infinite cost") << qInf() << qint64(5);
        QTest::newRow("0 requests per day") << 1.0 << qint64(0);
        QTest::newRow("-1 requests per day") << 1.0 << qint64(-1);
    }

    void invalidOptions()
    {
        QFETCH(double, cost);
        QFETCH(qint64, perDay);
        DemoOptions options;
        options.scenario = u"daily"_s;
        options.costPerMillionTokens = cost;
        options.requestsPerDay = perDay;
        DemoProvider provider;
        provider.setOptions(options);
        QVERIFY(!provider.listen());
        QVERIFY(!provider.errorString().isEmpty());
    }

    void dailyAnswersItsRequestsThenSaysSoInWords()
    {
        // A frozen policy clock: 3 answers in day 0, whatever way asked; the 4th and later a
        // 429 in OpenRouter's words and nothing else: no x-ratelimit-*, no retry-after, on any
        // response of the scenario. Day 1 begins at exactly kDayMs: 3 answers again.
        DemoOptions options;
        options.scenario = u"daily"_s;
        options.requestsPerDay = 3;
        auto provider = start(options);
        QVERIFY(provider);
        double nowMs = 1000;
        provider->setPolicyClock([&nowMs] { return nowMs; });

        const auto answered = [&](int n) {
            for (int i = 0; i < n; ++i) {
                const bool stream = i % 2 == 1;
                ReplyPtr reply = post(*provider, chatBody(stream, stream));
                AWAIT(reply);
                QCOMPARE(statusOf(reply.get()), 200);
                QCOMPARE(limitHeaders(reply.get()), QByteArrayList());
                QVERIFY(!usageOf(reply->readAll(), stream).isEmpty());
            }
        };
        const auto refused = [&] {
            ReplyPtr reply = post(*provider, chatBody(false, false));
            AWAIT(reply);
            QCOMPARE(statusOf(reply.get()), 429);
            QCOMPARE(limitHeaders(reply.get()), QByteArrayList());
            const QByteArray body = reply->readAll();
            QCOMPARE(body,
                QByteArray(
                    R"({"error":{"message":"Rate limit exceeded: free-models-per-day. Add )"
                    R"(10 credits to unlock 1000 free model requests per day","code":429}})"));
            QCOMPARE(body, wire::dailyLimitBody());
            const QJsonObject error
                = QJsonDocument::fromJson(body).object().value(u"error"_s).toObject();
            QCOMPARE(error.value(u"code"_s).toInt(), 429);
        };

        answered(3);
        if (QTest::currentTestFailed())
            return;
        refused();
        if (QTest::currentTestFailed())
            return;
        nowMs = DemoProvider::kDayMs - 1; // the last millisecond of day 0
        refused();
        if (QTest::currentTestFailed())
            return;
        nowMs = DemoProvider::kDayMs; // the next day
        answered(3);
        if (QTest::currentTestFailed())
            return;
        refused();
        if (QTest::currentTestFailed())
            return;
        nowMs = 5 * DemoProvider::kDayMs + 7; // days later: one new day, not five days' worth
        answered(3);
        if (QTest::currentTestFailed())
            return;
        refused();
        if (QTest::currentTestFailed())
            return;
        // Every request arrived; the refused ones too.
        QCOMPARE(provider->chatRequests(), 3 + 2 + 3 + 1 + 3 + 1);
    }

    void dailyDayPassesOnTheScaledClock()
    {
        // --time-scale shortens the day as every window: a day of 6 s wall (three requests fit in
        // it on a loaded machine under the sanitizers, with room to spare).
        constexpr double kDayWallMs = 6000;
        DemoOptions options;
        options.scenario = u"daily"_s;
        options.requestsPerDay = 2;
        options.timeScale = kDayWallMs / DemoProvider::kDayMs;
        QElapsedTimer sinceListen;
        sinceListen.start(); // started before the provider's clock: it never reads ahead of it
        auto provider = start(options);
        QVERIFY(provider);
        for (int i = 0; i < 2; ++i) {
            ReplyPtr reply = post(*provider, chatBody(false, false));
            AWAIT(reply);
            QCOMPARE(statusOf(reply.get()), 200);
        }
        ReplyPtr refused = post(*provider, chatBody(false, false));
        AWAIT(refused);
        QVERIFY2(sinceListen.elapsed() < kDayWallMs,
            "the first day passed before its requests were made: too slow a machine to tell");
        QCOMPARE(statusOf(refused.get()), 429);
        QVERIFY(refused->readAll().contains("free-models-per-day"));

        QTest::qWait(int(kDayWallMs - sinceListen.elapsed()) + 200);
        ReplyPtr again = post(*provider, chatBody(false, false));
        AWAIT(again);
        QCOMPARE(statusOf(again.get()), 200);
        QCOMPARE(limitHeaders(again.get()), QByteArrayList());
    }
};

QTEST_GUILESS_MAIN(TestDemoCosts)
#include "tst_democosts.moc"
