// capwatch-cli chat's request options, as the provider received them: the model rule shared
// with the window (a loopback endpoint defaults to capwatch-demo, any other needs --model),
// --temperature (validated), --system and --max-tokens.

#include "demo/demoprovider.h"
#include "support/clirunner.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

using namespace capwatch::demo;
using namespace Qt::StringLiterals;

namespace {

using Run = capwatch::testing::CliRun;

/// Runs the CLI while this thread's event loop keeps serving the in-process demo provider.
Run runCli(const QStringList &args)
{
    capwatch::testing::CliOptions options;
    options.environment.remove(u"OPENAI_COMPAT_API_KEY"_s);
    return capwatch::testing::runCli(args, options);
}

QList<RecordedRequest> chats(const DemoProvider &provider)
{
    QList<RecordedRequest> out;
    for (const RecordedRequest &r : provider.recordedRequests()) {
        if (r.method == "POST" && r.path.endsWith("/chat/completions"))
            out.append(r);
    }
    return out;
}

} // namespace

class TestChatOptions final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void sentAsGiven_data();
    void sentAsGiven();
    void refusedBeforeSending_data();
    void refusedBeforeSending();

private:
    DemoProvider m_provider;
};

void TestChatOptions::initTestCase()
{
    DemoOptions o;
    o.timeScale = 0.01;
    o.limit = 1'000'000'000; // no cap in the way: this is about what is sent
    m_provider.setOptions(o);
    QVERIFY(m_provider.listen());
}

void TestChatOptions::sentAsGiven_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("model");
    QTest::addColumn<QJsonValue>("temperature"); // undefined: not sent
    QTest::addColumn<QJsonValue>("maxTokens");
    QTest::addColumn<QStringList>("messages");
    QTest::newRow("loopback, no --model")
        << QStringList() << u"capwatch-demo"_s << QJsonValue(QJsonValue::Undefined)
        << QJsonValue(QJsonValue::Undefined) << QStringList { u"user: Hi"_s };
    QTest::newRow("--model") << QStringList { u"--model"_s, u"my-model"_s } << u"my-model"_s
                             << QJsonValue(QJsonValue::Undefined)
                             << QJsonValue(QJsonValue::Undefined) << QStringList { u"user: Hi"_s };
    QTest::newRow("--temperature 0.7")
        << QStringList { u"--temperature"_s, u"0.7"_s } << u"capwatch-demo"_s << QJsonValue(0.7)
        << QJsonValue(QJsonValue::Undefined) << QStringList { u"user: Hi"_s };
    QTest::newRow("--temperature 0")
        << QStringList { u"--temperature"_s, u"0"_s } << u"capwatch-demo"_s << QJsonValue(0)
        << QJsonValue(QJsonValue::Undefined) << QStringList { u"user: Hi"_s };
    QTest::newRow("--temperature 2")
        << QStringList { u"--temperature"_s, u"2"_s } << u"capwatch-demo"_s << QJsonValue(2)
        << QJsonValue(QJsonValue::Undefined) << QStringList { u"user: Hi"_s };
    QTest::newRow("all") << QStringList { u"--system"_s, u"Be brief."_s, u"--max-tokens"_s, u"64"_s,
        u"--temperature"_s, u"1.25"_s }
                         << u"capwatch-demo"_s << QJsonValue(1.25) << QJsonValue(64)
                         << QStringList { u"system: Be brief."_s, u"user: Hi"_s };
}

void TestChatOptions::sentAsGiven()
{
    QFETCH(QStringList, options);
    QFETCH(QString, model);
    QFETCH(QJsonValue, temperature);
    QFETCH(QJsonValue, maxTokens);
    QFETCH(QStringList, messages);
    m_provider.clearRecordedRequests();
    const Run r = runCli(QStringList { u"chat"_s, u"--endpoint"_s, m_provider.baseUrl().toString(),
                             u"--prompt"_s, u"Hi"_s, u"--time-scale"_s, u"0.01"_s }
        + options);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QList<RecordedRequest> sent = chats(m_provider);
    QCOMPARE(sent.size(), 1);
    const QJsonObject body = sent.at(0).json();
    QCOMPARE(body.value(u"model"), QJsonValue(model));
    QCOMPARE(body.value(u"temperature"), temperature);
    QCOMPARE(body.value(u"max_tokens"), maxTokens);
    QStringList got;
    for (const QJsonValue &m : body.value(u"messages").toArray())
        got << m[u"role"].toString() + u": "_s + m[u"content"].toString();
    QCOMPARE(got, messages);
}

void TestChatOptions::refusedBeforeSending_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("message");
    const QString remote = u"https://llm.example.invalid/v1"_s;
    QTest::newRow("remote, no --model")
        << QStringList { u"--endpoint"_s, remote }
        << QByteArray("capwatch-cli chat: error: no model: give --model NAME (only a loopback "
                      "endpoint, such as capwatch-cli demo, defaults to capwatch-demo)\n"
                      "Try 'capwatch-cli chat --help'.\n");
    QTest::newRow("empty --model")
        << QStringList { u"--endpoint"_s, remote, u"--model"_s, u" "_s }
        << QByteArray("capwatch-cli chat: error: --model takes a model name\n"
                      "Try 'capwatch-cli chat --help'.\n");
    for (const QString &bad : { u"-0.1"_s, u"2.01"_s, u"warm"_s, u"nan"_s, u""_s }) {
        QTest::newRow(qPrintable(u"--temperature '"_s + bad + u'\''))
            << QStringList { u"--endpoint"_s, u"LOOPBACK"_s, u"--temperature"_s, bad }
            << QByteArray("capwatch-cli chat: error: --temperature takes a number from 0 to 2\n"
                          "Try 'capwatch-cli chat --help'.\n");
    }
}

void TestChatOptions::refusedBeforeSending()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, message);
    args.replaceInStrings(u"LOOPBACK"_s, m_provider.baseUrl().toString());
    m_provider.clearRecordedRequests();
    const Run r = runCli(QStringList { u"chat"_s, u"--prompt"_s, u"Hi"_s } + args);
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.err, message);
    QVERIFY(r.out.isEmpty());
    QVERIFY(m_provider.recordedRequests().isEmpty());
}

QTEST_GUILESS_MAIN(TestChatOptions)
#include "tst_chatoptions.moc"
