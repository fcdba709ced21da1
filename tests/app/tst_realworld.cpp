// The field corpus (issue 28): every row of tests/data/real-world.jsonl, a real error response
// of a provider, gateway or local server, gets its verdict from `capwatch-cli explain`.

#include "support/clirunner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

using namespace Qt::StringLiterals;

class TestRealWorld final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void corpusIsWhole();
    void verdict_data();
    void verdict();
};

namespace {

QList<QJsonObject> rows()
{
    QList<QJsonObject> out;
    QFile corpus(QStringLiteral(CAPWATCH_TEST_DATA_DIR "/real-world.jsonl"));
    if (!corpus.open(QIODevice::ReadOnly))
        return out;
    while (!corpus.atEnd()) {
        const QByteArray line = corpus.readLine().trimmed();
        if (!line.isEmpty())
            out << QJsonDocument::fromJson(line).object(); // an empty object fails below
    }
    return out;
}

} // namespace

void TestRealWorld::corpusIsWhole()
{
    const QList<QJsonObject> all = rows();
    QSet<QString> providers;
    QSet<QString> names;
    for (const QJsonObject &o : all) {
        QVERIFY2(!o.isEmpty(), "a line of real-world.jsonl is not a JSON object");
        const QString name = o.value(u"name"_s).toString();
        QVERIFY2(!name.isEmpty(), "a row without a name");
        QVERIFY2(!names.contains(name), qPrintable(u"two rows named "_s + name));
        names << name;
        QVERIFY2(!o.value(u"source"_s).toString().isEmpty(), qPrintable(name));
        QVERIFY2(!o.value(u"provider"_s).toString().isEmpty(), qPrintable(name));
        providers << o.value(u"provider"_s).toString();
        // A status the source does not show is assumed, and the row says why.
        if (o.value(u"status"_s).isNull()) {
            QVERIFY2(o.value(u"assume_status"_s).isDouble(), qPrintable(name));
            QVERIFY2(!o.value(u"note"_s).toString().isEmpty(), qPrintable(name));
        }
        const QJsonObject expect = o.value(u"expect"_s).toObject();
        QVERIFY2(
            expect.contains(u"category"_s) && expect.contains(u"retryable"_s), qPrintable(name));
    }
    qInfo("%lld rows of %lld providers, gateways and local servers", qint64(all.size()),
        qint64(providers.size()));
    QVERIFY2(all.size() >= 150, qPrintable(u"only %1 rows"_s.arg(all.size())));
    QVERIFY2(providers.size() >= 40, qPrintable(u"only %1 providers"_s.arg(providers.size())));
}

void TestRealWorld::verdict_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QJsonObject>("expect");
    for (const QJsonObject &o : rows()) {
        const QJsonValue status
            = o.value(u"status"_s).isNull() ? o.value(u"assume_status"_s) : o.value(u"status"_s);
        QStringList args { u"explain"_s, u"--status"_s, QString::number(status.toInt()),
            u"--retry-index"_s, QString::number(o.value(u"retry_index"_s).toInt(1)) };
        const QJsonObject h = o.value(u"headers"_s).toObject();
        for (auto it = h.begin(); it != h.end(); ++it)
            args << u"--header"_s << it.key() + u": "_s + it.value().toString();
        QTest::newRow(o.value(u"name"_s).toString().toUtf8().constData())
            << args << o.value(u"body"_s).toString().toUtf8() << o.value(u"expect"_s).toObject();
    }
}

void TestRealWorld::verdict()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, body);
    QFETCH(QJsonObject, expect);
    capwatch::testing::CliOptions options;
    options.input = body; // on standard input, bytes as they are
    options.timeoutMs = 30000;
    const capwatch::testing::CliRun r = capwatch::testing::runCli(args, options);
    QCOMPARE(r.exitCode, 0);
    const QJsonObject got = r.json();
    QCOMPARE(got.value(u"category"_s), expect.value(u"category"_s));
    QCOMPARE(got.value(u"retryable"_s), expect.value(u"retryable"_s));
    // The figures the body states, and none where it states none.
    for (const QString &key : { u"used"_s, u"limit"_s }) {
        if (expect.contains(key))
            QCOMPARE(got.value(key).toDouble(-1), expect.value(key).toDouble());
        else
            QVERIFY2(got.value(key).isNull(), qPrintable(key));
    }
    if (expect.contains(u"raw_wait_s"_s)) {
        QVERIFY(got.value(u"raw_wait_s"_s).isDouble());
        QVERIFY2(
            qAbs(got.value(u"raw_wait_s"_s).toDouble() - expect.value(u"raw_wait_s"_s).toDouble())
                < 0.0005,
            qPrintable(QString::number(got.value(u"raw_wait_s"_s).toDouble())));
    }
    QVERIFY2(!got.value(u"rule"_s).toString().isEmpty(), "explain names the deciding rule");
}

QTEST_GUILESS_MAIN(TestRealWorld)
#include "tst_realworld.moc"
