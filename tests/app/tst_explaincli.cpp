// capwatch-cli explain, run as a process: JSON on stdout, exit codes, argument errors, and
// agreement with every case of the reference corpus.

#include "support/clirunner.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryFile>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

using Run = capwatch::testing::CliRun;

Run runCli(const QStringList &args, const QByteArray &stdinData = {})
{
    capwatch::testing::CliOptions options;
    options.input = stdinData;
    options.timeoutMs = 30000;
    return capwatch::testing::runCli(args, options);
}

const QByteArray kHeadline
    = R"({"error":"Token limit exceeded: used 60323, limit 60000. Retry in 18 min."})";

} // namespace

class TestExplainCli final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void headline();
    void russianHeadline();
    void newCategoriesAndSources_data();
    void newCategoriesAndSources();
    void successStreamIsReadAsAStream();
    void keysInOrder();
    void bodyFromStdinAndFile();
    void binaryBodyFile();
    void nonJson422IsClassifiedNotAnError();
    void headersAndRetryIndex();
    void badArguments_data();
    void badArguments();
    void helpAndVersion();
    void corpus_data();
    void corpus();
};

void TestExplainCli::headline()
{
    const Run r = runCli(
        { u"explain"_s, u"--status"_s, u"422"_s, u"--body"_s, QString::fromUtf8(kHeadline) });
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    const QJsonObject o = r.json();
    QCOMPARE(o.value(u"category").toString(), u"token_limit"_s);
    QCOMPARE(o.value(u"retryable").toBool(), true);
    QCOMPARE(o.value(u"used").toInteger(), 60323);
    QCOMPARE(o.value(u"limit").toInteger(), 60000);
    QCOMPARE(o.value(u"wait_s").toDouble(), 60.0);
    QCOMPARE(o.value(u"raw_wait_s").toDouble(), 1080.0);
    QCOMPARE(o.value(u"wait_source").toString(), u"message"_s);
    QCOMPARE(
        o.value(u"reason").toString(), u"422 with 3 numbers and keywords limit, token, exceeded"_s);
    QVERIFY(r.out.endsWith('\n'));
    QCOMPARE(r.out.count('\n'), 1); // one JSON object, one line
}

void TestExplainCli::russianHeadline()
{
    // The seed report's own message (README example).
    const Run r = runCli({ u"explain"_s, u"--status"_s, u"422"_s, u"--body"_s,
        u"{\"error\":\"Превышен лимит completion-токенов: использовано 60323, "
        u"лимит 60000. Повторите попытку через 18 мин.\"}"_s });
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    QCOMPARE(r.out,
        QByteArray(R"({"category":"token_limit","retryable":true,"used":60323,"limit":60000,)"
                   R"("wait_s":60,"raw_wait_s":1080,"wait_source":"message",)"
                   R"("reason":"422 with 3 numbers and keywords превыш, лимит, токен",)"
                   R"("rule":"builtin:token_limit.keyword \"превыш\""})"
                   "\n"));
}

void TestExplainCli::newCategoriesAndSources_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QByteArray>("expected"); // the line up to the reason
    const QByteArray nothing = R"("wait_s":null,"raw_wait_s":null,"wait_source":null)";
    QTest::newRow("too_large")
        << QStringList { u"--status"_s, u"429"_s }
        << QByteArray(
               R"({"error":{"message":"Request too large for gpt-4o on tokens per min (TPM): Limit 30000, Requested 342389."}})")
        << R"({"category":"too_large","retryable":false,"used":342389,"limit":30000,)" + nothing;
    QTest::newRow("billing")
        << QStringList { u"--status"_s, u"402"_s }
        << QByteArray(R"({"error":{"message":"Insufficient Balance"}})")
        << R"({"category":"billing","retryable":false,"used":null,"limit":null,)" + nothing;
    QTest::newRow("retry-delay")
        << QStringList { u"--status"_s, u"429"_s }
        << QByteArray(R"({"error":{"code":429,"details":[{"retryDelay":"21s"}]}})")
        << QByteArray(
               R"({"category":"rate_limit","retryable":true,"used":null,"limit":null,"wait_s":21,"raw_wait_s":21,"wait_source":"retry-delay")");
    QTest::newRow("ratelimit-reset")
        << QStringList { u"--status"_s, u"429"_s, u"--header"_s,
               u"x-ratelimit-reset-tokens: 6m0s"_s, u"--header"_s,
               u"x-ratelimit-reset-requests: 1s"_s }
        << QByteArray(R"({"error":{"message":"Rate limit reached."}})")
        << QByteArray(
               R"({"category":"rate_limit","retryable":true,"used":null,"limit":null,"wait_s":60,"raw_wait_s":360,"wait_source":"ratelimit-reset")");
    QTest::newRow("error in a 200 body")
        << QStringList { u"--status"_s, u"200"_s }
        << QByteArray(R"({"status":429,"message":"Too many requests"})")
        << QByteArray(
               R"({"category":"rate_limit","retryable":true,"used":null,"limit":null,"wait_s":5,"raw_wait_s":5,"wait_source":"backoff")");
}

void TestExplainCli::newCategoriesAndSources()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, body);
    QFETCH(QByteArray, expected);
    const Run r = runCli(QStringList { u"explain"_s } + args, body);
    QCOMPARE(r.exitCode, 0); // every category is a classification, not an error of explain
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    QCOMPARE(r.out.left(r.out.indexOf(",\"reason\"")), expected);
}

void TestExplainCli::successStreamIsReadAsAStream()
{
    const QByteArray stream
        = "data: {\"error\":{\"code\":503,\"message\":\"busy\"}}\n\ndata: [DONE]\n\n";
    Run r = runCli({ u"explain"_s, u"--status"_s, u"200"_s, u"--header"_s,
                       u"Content-Type: text/event-stream; charset=utf-8"_s },
        stream);
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.json().value(u"category").toString(), u"transient"_s);
    QCOMPARE(r.json().value(u"reason").toString(),
        u"200 stream whose first event is an error (status 503): 503 is a transient server error"_s);

    // Without the content type the same bytes are no JSON object: a success.
    r = runCli({ u"explain"_s, u"--status"_s, u"200"_s }, stream);
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.json().value(u"category").toString(), u"success"_s);

    r = runCli({ u"explain"_s, u"--help"_s });
    QVERIFY(r.out.contains("text/event-stream"));
}

void TestExplainCli::keysInOrder()
{
    const Run r = runCli({ u"explain"_s, u"--status"_s, u"404"_s, u"--body"_s, u"{}"_s });
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out.left(r.out.indexOf(",\"reason\"")),
        QByteArray(R"({"category":"fatal","retryable":false,"used":null,"limit":null,)"
                   R"("wait_s":null,"raw_wait_s":null,"wait_source":null)"));
}

void TestExplainCli::bodyFromStdinAndFile()
{
    const Run fromStdin = runCli({ u"explain"_s, u"--status"_s, u"422"_s }, kHeadline);
    QCOMPARE(fromStdin.exitCode, 0);
    QCOMPARE(fromStdin.json().value(u"category").toString(), u"token_limit"_s);

    QTemporaryFile file;
    QVERIFY(file.open());
    file.write(kHeadline);
    file.close();
    const Run fromFile
        = runCli({ u"explain"_s, u"--status"_s, u"422"_s, u"--body-file"_s, file.fileName() });
    QCOMPARE(fromFile.exitCode, 0);
    QCOMPARE(fromFile.out, fromStdin.out);
}

void TestExplainCli::binaryBodyFile()
{
    QTemporaryFile file;
    QVERIFY(file.open());
    file.write(QByteArray(R"({"error":"Token limit 1 2 )") + "\xff\x00\xfe" + R"("})");
    file.close();
    const Run r
        = runCli({ u"explain"_s, u"--status"_s, u"422"_s, u"--body-file"_s, file.fileName() });
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.json().value(u"category").toString(), u"fatal"_s);
}

void TestExplainCli::nonJson422IsClassifiedNotAnError()
{
    const Run r = runCli({ u"explain"_s, u"--status"_s, u"422"_s, u"--body"_s,
        u"Token limit exceeded: used 1, limit 2"_s });
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.json().value(u"category").toString(), u"fatal"_s);
    QCOMPARE(r.json().value(u"retryable").toBool(), false);
}

void TestExplainCli::headersAndRetryIndex()
{
    Run r = runCli({ u"explain"_s, u"--status"_s, u"429"_s, u"--header"_s, u"Retry-After: 7"_s,
        u"--header"_s, u"X-Other: 1"_s, u"--body"_s, u"{}"_s });
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.json().value(u"wait_s").toDouble(), 7.0);
    QCOMPARE(r.json().value(u"wait_source").toString(), u"retry-after"_s);

    r = runCli(
        { u"explain"_s, u"--status"_s, u"503"_s, u"--retry-index"_s, u"3"_s, u"--body"_s, u""_s });
    QCOMPARE(r.json().value(u"wait_s").toDouble(), 20.0);
    QCOMPARE(r.json().value(u"wait_source").toString(), u"backoff"_s);

    r = runCli({ u"explain"_s, u"--status"_s, u"401"_s, u"--body"_s, u"{}"_s });
    QCOMPARE(r.json().value(u"category").toString(), u"auth"_s);
    QCOMPARE(r.json().value(u"wait_s").toDouble(), 0.0);
    QCOMPARE(r.json().value(u"wait_source").toString(), u"credential-refresh"_s);
}

void TestExplainCli::badArguments_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("message");
    QTest::newRow("no command") << QStringList {} << QByteArray("a command is required");
    QTest::newRow("unknown command")
        << QStringList { u"frobnicate"_s } << QByteArray("unknown command");
    QTest::newRow("unknown option")
        << QStringList { u"explain"_s, u"--status"_s, u"422"_s, u"--nope"_s } << QByteArray("nope");
    QTest::newRow("missing status")
        << QStringList { u"explain"_s, u"--body"_s, u"{}"_s } << QByteArray("--status is required");
    QTest::newRow("status not a number")
        << QStringList { u"explain"_s, u"--status"_s, u"abc"_s } << QByteArray("--status");
    QTest::newRow("status out of range")
        << QStringList { u"explain"_s, u"--status"_s, u"42"_s } << QByteArray("--status");
    QTest::newRow("status without value")
        << QStringList { u"explain"_s, u"--status"_s } << QByteArray("status");
    QTest::newRow("retry index zero") << QStringList { u"explain"_s, u"--status"_s, u"422"_s,
        u"--retry-index"_s, u"0"_s } << QByteArray("--retry-index");
    QTest::newRow("unreadable file") << QStringList { u"explain"_s, u"--status"_s, u"422"_s,
        u"--body-file"_s, u"/nonexistent/x"_s }
                                     << QByteArray("cannot read");
    QTest::newRow("body twice") << QStringList { u"explain"_s, u"--status"_s, u"422"_s, u"--body"_s,
        u"{}"_s, u"--body-file"_s, u"/etc/hostname"_s }
                                << QByteArray("not both");
    QTest::newRow("header without colon") << QStringList { u"explain"_s, u"--status"_s, u"422"_s,
        u"--header"_s, u"Retry-After 5"_s, u"--body"_s, u"{}"_s }
                                          << QByteArray("--header");
    QTest::newRow("stray argument")
        << QStringList { u"explain"_s, u"--status"_s, u"422"_s, u"extra"_s, u"--body"_s, u"{}"_s }
        << QByteArray("unexpected argument");
}

void TestExplainCli::badArguments()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, message);
    const Run r = runCli(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.contains(message), r.err.constData());
}

void TestExplainCli::helpAndVersion()
{
    Run r = runCli({ u"--version"_s });
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.startsWith("capwatch-cli "));
    r = runCli({ u"--help"_s });
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("explain"));
    r = runCli({ u"explain"_s, u"--help"_s });
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("--retry-index"));
    QVERIFY(r.out.contains("--body-file"));
}

void TestExplainCli::corpus_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QJsonObject>("expect");
    QFile corpus(QStringLiteral(CAPWATCH_TEST_DATA_DIR "/responses.jsonl"));
    QVERIFY(corpus.open(QIODevice::ReadOnly));
    int rows = 0;
    while (!corpus.atEnd()) {
        const QByteArray line = corpus.readLine().trimmed();
        if (line.isEmpty())
            continue;
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        QVERIFY2(!o.isEmpty(), line.constData()); // a line that does not parse is no silent skip
        ++rows;
        QStringList args { u"explain"_s, u"--status"_s, QString::number(o.value(u"status").toInt()),
            u"--retry-index"_s, QString::number(o.value(u"retry_index").toInt(1)) };
        const QJsonObject h = o.value(u"headers").toObject();
        for (auto it = h.begin(); it != h.end(); ++it)
            args << u"--header"_s << it.key() + u": "_s + it.value().toString();
        const QByteArray body = o.contains(u"body_b64")
            ? QByteArray::fromBase64(o.value(u"body_b64").toString().toLatin1())
            : o.value(u"body").toString().toUtf8();
        QTest::newRow(o.value(u"name").toString().toUtf8().constData())
            << args << body << o.value(u"expect").toObject();
    }
    // The public corpus of revision 2 has 57 cases: fewer means it was not read in full.
    QVERIFY2(rows >= 57, qPrintable(u"only %1 corpus rows"_s.arg(rows)));
}

void TestExplainCli::corpus()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, body);
    QFETCH(QJsonObject, expect);
    const Run r = runCli(args, body); // body on standard input, bytes as they are
    QCOMPARE(r.exitCode, 0);
    const QJsonObject got = r.json();
    QCOMPARE(expect.size(), 7); // category, retryable, used, limit, wait_s, raw_wait_s, wait_source
    for (auto it = expect.begin(); it != expect.end(); ++it) {
        const QJsonValue g = got.value(it.key());
        if (it.value().isDouble()) {
            QVERIFY2(g.isDouble(), qPrintable(it.key()));
            QVERIFY2(qAbs(g.toDouble() - it.value().toDouble()) < 0.0005, qPrintable(it.key()));
        } else {
            QCOMPARE(g, it.value());
        }
    }
}

QTEST_GUILESS_MAIN(TestExplainCli)
#include "tst_explaincli.moc"
