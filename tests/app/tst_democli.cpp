// capwatch-cli demo, run as a process: --help lists every scenario of the one table, and the
// flags of the cut-answer scenarios (--max-answer, --drop-after, --drop-with) and of what a send
// costs (--cost-per-mtok, --requests-per-day; issue 30) reach the provider or are refused as
// argument errors.

#include "demo/demoprovider.h"
#include "demo/scenarios.h"
#include "support/clirunner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTest>
#include <memory>

using namespace Qt::StringLiterals;

namespace {

/// Posts `prompt` to the demo at `baseUrl` (not streamed); the reply, finished.
std::unique_ptr<QNetworkReply> ask(
    QNetworkAccessManager &nam, const QString &baseUrl, const QString &prompt, bool stream = false)
{
    QNetworkRequest request(QUrl(baseUrl + u"/chat/completions"_s));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    const QJsonObject body { { u"model"_s, u"capwatch-demo"_s }, { u"stream"_s, stream },
        { u"messages"_s,
            QJsonArray { QJsonObject { { u"role"_s, u"user"_s }, { u"content"_s, prompt } } } } };
    std::unique_ptr<QNetworkReply> reply(
        nam.post(request, QJsonDocument(body).toJson(QJsonDocument::Compact)));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    if (!reply->isFinished())
        finished.wait(15000);
    return reply;
}

} // namespace

class TestDemoCli final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void helpListsEveryScenarioAndFlag()
    {
        const capwatch::testing::CliRun run = capwatch::testing::runCli({ u"demo"_s, u"--help"_s });
        QCOMPARE(run.exitCode, 0);
        const QString help = QString::fromUtf8(run.out);
        for (const capwatch::demo::ScenarioInfo &info : capwatch::demo::scenarioTable())
            QVERIFY2(help.contains(u"\n  "_s + info.name.toString() + u' '),
                qPrintable(info.name.toString()));
        for (const QString &flag : { u"--max-answer"_s, u"--drop-after"_s, u"--drop-with"_s,
                 u"--cost-per-mtok"_s, u"--requests-per-day"_s })
            QVERIFY2(help.contains(flag), qPrintable(flag));
        QVERIFY(help.contains(u"length"_s));
        QVERIFY(help.contains(u"drop "_s));
        QVERIFY(help.contains(u"\n  daily "_s));
    }

    void badValuesAreArgumentErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("negative --max-answer") << QStringList { u"--max-answer"_s, u"-1"_s };
        QTest::newRow("--max-answer not a number") << QStringList { u"--max-answer"_s, u"x"_s };
        QTest::newRow("negative --drop-after") << QStringList { u"--drop-after"_s, u"-5"_s };
        QTest::newRow("unknown --drop-with") << QStringList { u"--drop-with"_s, u"maybe"_s };
        QTest::newRow("negative --cost-per-mtok")
            << QStringList { u"--cost-per-mtok"_s, u"-0.5"_s };
        QTest::newRow("--cost-per-mtok not a number")
            << QStringList { u"--cost-per-mtok"_s, u"cheap"_s };
        QTest::newRow("--cost-per-mtok nan") << QStringList { u"--cost-per-mtok"_s, u"nan"_s };
        QTest::newRow("--cost-per-mtok inf") << QStringList { u"--cost-per-mtok"_s, u"inf"_s };
        QTest::newRow("--requests-per-day 0") << QStringList { u"--requests-per-day"_s, u"0"_s };
        QTest::newRow("--requests-per-day not whole")
            << QStringList { u"--requests-per-day"_s, u"2.5"_s };
    }

    void badValuesAreArgumentErrors()
    {
        QFETCH(QStringList, args);
        const capwatch::testing::CliRun run = capwatch::testing::runCli(
            QStringList { u"demo"_s, u"--scenario"_s, u"drop"_s } + args);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(args.first().toUtf8()), run.err.constData());
    }

    void lengthWithMaxAnswer()
    {
        capwatch::testing::CliProcess demo(
            { u"demo"_s, u"--scenario"_s, u"length"_s, u"--max-answer"_s, u"5"_s });
        QVERIFY(demo.started());
        QVERIFY(demo.waitForLine());
        const QByteArray line = demo.process().readLine().trimmed();
        QVERIFY2(line.startsWith("listening on http://127.0.0.1:"), line.constData());
        QNetworkAccessManager nam;
        nam.setProxy(QNetworkProxy::NoProxy);
        const auto reply = ask(nam, QString::fromUtf8(line.sliced(13)), u"hi"_s);
        QVERIFY(reply->isFinished());
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        const QJsonObject root = QJsonDocument::fromJson(reply->readAll()).object();
        const QJsonObject choice = root.value(u"choices"_s).toArray().at(0).toObject();
        QCOMPARE(choice.value(u"message"_s).toObject().value(u"content"_s).toString(),
            capwatch::demo::DemoProvider::wholeAnswer(u"hi"_s).left(20));
        QCOMPARE(choice.value(u"finish_reason"_s).toString(), u"length"_s);
        QCOMPARE(root.value(u"usage"_s).toObject().value(u"completion_tokens"_s).toInt(), 5);
        demo.process().terminate();
        QVERIFY(demo.waitForFinished());
        QCOMPARE(demo.result().exitCode, 0);
    }

    void costPerMtok()
    {
        // --cost-per-mtok 2.5: the answer's usage says its cost, OpenRouter's "cost".
        capwatch::testing::CliProcess demo({ u"demo"_s, u"--cost-per-mtok"_s, u"2.5"_s });
        QVERIFY(demo.waitForLine());
        const QByteArray line = demo.process().readLine().trimmed();
        QNetworkAccessManager nam;
        nam.setProxy(QNetworkProxy::NoProxy);
        const auto reply = ask(nam, QString::fromUtf8(line.sliced(13)), u"hi"_s);
        QVERIFY(reply->isFinished());
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        const QJsonObject usage
            = QJsonDocument::fromJson(reply->readAll()).object().value(u"usage"_s).toObject();
        const qint64 tokens = usage.value(u"total_tokens"_s).toInteger(-1);
        QVERIFY(tokens > 0);
        QVERIFY(usage.value(u"cost"_s).isDouble());
        QVERIFY(usage.value(u"cost"_s).toDouble() == double(tokens) * 2.5 / 1e6);
    }

    void noCostByDefault()
    {
        capwatch::testing::CliProcess demo({ u"demo"_s });
        QVERIFY(demo.waitForLine());
        const QByteArray line = demo.process().readLine().trimmed();
        QNetworkAccessManager nam;
        nam.setProxy(QNetworkProxy::NoProxy);
        const auto reply = ask(nam, QString::fromUtf8(line.sliced(13)), u"hi"_s);
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        const QJsonObject usage
            = QJsonDocument::fromJson(reply->readAll()).object().value(u"usage"_s).toObject();
        QVERIFY(usage.contains(u"total_tokens"_s));
        QVERIFY(!usage.contains(u"cost"_s));
    }

    void dailyWithRequestsPerDay()
    {
        // --requests-per-day 2: two answers, then the 429 in words, no limit header.
        capwatch::testing::CliProcess demo(
            { u"demo"_s, u"--scenario"_s, u"daily"_s, u"--requests-per-day"_s, u"2"_s });
        QVERIFY(demo.waitForLine());
        const QString url = QString::fromUtf8(demo.process().readLine().trimmed().sliced(13));
        QNetworkAccessManager nam;
        nam.setProxy(QNetworkProxy::NoProxy);
        for (int i = 0; i < 2; ++i) {
            const auto reply = ask(nam, url, u"hi"_s, i == 1);
            QCOMPARE(reply->error(), QNetworkReply::NoError);
        }
        const auto refused = ask(nam, url, u"hi"_s);
        QVERIFY(refused->isFinished());
        QCOMPARE(refused->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 429);
        QVERIFY(refused->readAll().contains("Rate limit exceeded: free-models-per-day"));
        QVERIFY(!refused->hasRawHeader("retry-after"));
        QVERIFY(!refused->hasRawHeader("x-ratelimit-remaining-requests"));
    }

    void dropWithError()
    {
        capwatch::testing::CliProcess demo(
            { u"demo"_s, u"--scenario"_s, u"drop"_s, u"--drop-with"_s, u"error"_s });
        QVERIFY(demo.waitForLine());
        const QByteArray line = demo.process().readLine().trimmed();
        QNetworkAccessManager nam;
        nam.setProxy(QNetworkProxy::NoProxy);
        const auto reply = ask(nam, QString::fromUtf8(line.sliced(13)), u"hi"_s, true);
        QVERIFY(reply->isFinished());
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        const QByteArray body = reply->readAll();
        QVERIFY2(body.contains(R"("type":"server_error")"), body.constData());
        QVERIFY(!body.contains("[DONE]"));
    }
};

QTEST_GUILESS_MAIN(TestDemoCli)
#include "tst_democli.moc"
