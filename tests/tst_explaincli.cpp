// capwatch-cli explain, run as a process: JSON on stdout, exit codes, argument errors, and
// agreement with every case of the reference corpus.

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryFile>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
};

Run runCli(const QStringList &args, const QByteArray &stdinData = {})
{
    QProcess p;
    p.start(QStringLiteral(CAPWATCH_CLI_PATH), args);
    if (!p.waitForStarted(10000))
        return {};
    p.write(stdinData);
    p.closeWriteChannel();
    p.waitForFinished(30000);
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
             p.readAllStandardError() };
}

const QByteArray kHeadline =
        R"({"error":"Token limit exceeded: used 60323, limit 60000. Retry in 18 min."})";

} // namespace

class TestExplainCli final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void headline();
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
    const Run r = runCli({ u"explain"_s, u"--status"_s, u"422"_s, u"--body"_s, QString::fromUtf8(kHeadline) });
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
    QCOMPARE(o.value(u"reason").toString(), u"422 with 3 numbers and keywords limit, token, exceeded"_s);
    QVERIFY(r.out.endsWith('\n'));
    QCOMPARE(r.out.count('\n'), 1); // one JSON object, one line
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
    const Run fromFile = runCli({ u"explain"_s, u"--status"_s, u"422"_s, u"--body-file"_s, file.fileName() });
    QCOMPARE(fromFile.exitCode, 0);
    QCOMPARE(fromFile.out, fromStdin.out);
}

void TestExplainCli::binaryBodyFile()
{
    QTemporaryFile file;
    QVERIFY(file.open());
    file.write(QByteArray(R"({"error":"Token limit 1 2 )") + "\xff\x00\xfe" + R"("})");
    file.close();
    const Run r = runCli({ u"explain"_s, u"--status"_s, u"422"_s, u"--body-file"_s, file.fileName() });
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.json().value(u"category").toString(), u"fatal"_s);
}

void TestExplainCli::nonJson422IsClassifiedNotAnError()
{
    const Run r = runCli({ u"explain"_s, u"--status"_s, u"422"_s, u"--body"_s, u"Token limit exceeded: used 1, limit 2"_s });
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

    r = runCli({ u"explain"_s, u"--status"_s, u"503"_s, u"--retry-index"_s, u"3"_s, u"--body"_s, u""_s });
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
    QTest::newRow("unknown command") << QStringList { u"frobnicate"_s } << QByteArray("unknown command");
    QTest::newRow("unknown option") << QStringList { u"explain"_s, u"--status"_s, u"422"_s, u"--nope"_s }
                                    << QByteArray("nope");
    QTest::newRow("missing status") << QStringList { u"explain"_s, u"--body"_s, u"{}"_s }
                                    << QByteArray("--status is required");
    QTest::newRow("status not a number") << QStringList { u"explain"_s, u"--status"_s, u"abc"_s }
                                         << QByteArray("--status");
    QTest::newRow("status out of range") << QStringList { u"explain"_s, u"--status"_s, u"42"_s }
                                         << QByteArray("--status");
    QTest::newRow("status without value") << QStringList { u"explain"_s, u"--status"_s }
                                          << QByteArray("status");
    QTest::newRow("retry index zero") << QStringList { u"explain"_s, u"--status"_s, u"422"_s, u"--retry-index"_s, u"0"_s }
                                      << QByteArray("--retry-index");
    QTest::newRow("unreadable file") << QStringList { u"explain"_s, u"--status"_s, u"422"_s, u"--body-file"_s, u"/nonexistent/x"_s }
                                     << QByteArray("cannot read");
    QTest::newRow("body twice") << QStringList { u"explain"_s, u"--status"_s, u"422"_s, u"--body"_s, u"{}"_s, u"--body-file"_s, u"/etc/hostname"_s }
                                << QByteArray("not both");
    QTest::newRow("header without colon") << QStringList { u"explain"_s, u"--status"_s, u"422"_s, u"--header"_s, u"Retry-After 5"_s, u"--body"_s, u"{}"_s }
                                          << QByteArray("--header");
    QTest::newRow("stray argument") << QStringList { u"explain"_s, u"--status"_s, u"422"_s, u"extra"_s, u"--body"_s, u"{}"_s }
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
    while (!corpus.atEnd()) {
        const QJsonObject o = QJsonDocument::fromJson(corpus.readLine()).object();
        if (o.isEmpty())
            continue;
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
}

void TestExplainCli::corpus()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, body);
    QFETCH(QJsonObject, expect);
    const Run r = runCli(args, body); // body on standard input, bytes as they are
    QCOMPARE(r.exitCode, 0);
    const QJsonObject got = r.json();
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
