// Rules users add (issue 28.3): ~/.config/capwatch/rules.d/*.json and `explain --rules FILE`
// change what capwatch-cli decides, in `explain` and in a real send; `rules check` and
// `rules list`; a file with a problem is named with its line and changes nothing else.

#include "support/clirunner.h"
#include "support/loopbackserver.h"

#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using capwatch::testing::CliRun;

namespace {

// A response no built-in rule knows: fatal at 400.
const QByteArray kWidgetBody = QByteArrayLiteral(
    "{\"error\":{\"message\":\"Frobnicator says: the widget stack is full (4711 of 4096)\"}}");

// Adds one too_large phrase; the phrase is on line 6.
const QByteArray kAddsPhrase = "{\n"
                               "  \"format\": 1,\n"
                               "  \"description\": \"our gateway's way of saying too long\",\n"
                               "  \"categories\": {\n"
                               "    \"too_large\": {\n"
                               "      \"phrases\": [\"widget stack is full\"]\n"
                               "    }\n"
                               "  }\n"
                               "}\n";

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

} // namespace

class TestRulesCli final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void checkAcceptsAGoodFile();
    void checkNamesFileAndLine_data();
    void checkNamesFileAndLine();
    void explainWithRulesFile();
    void rulesDirectoryIsReadAtStart();
    void badFileChangesNothingElse();
    void endpointScope();
    void listSaysWhereEachRuleComesFrom();
    void realSendUsesTheRules();
    void realSendWithABadFile();

private:
    CliRun run(const QStringList &args, const QByteArray &input = {}) const
    {
        capwatch::testing::CliOptions options;
        options.input = input;
        options.timeoutMs = 30000;
        options.environment.insert(u"XDG_CONFIG_HOME"_s, m_config->path());
        return capwatch::testing::runCli(args, options);
    }
    QString rulesDir() const { return m_config->filePath(u"capwatch/rules.d"_s); }
    QString temp(const QString &name) const { return m_files->filePath(name); }

    std::unique_ptr<QTemporaryDir> m_config;
    std::unique_ptr<QTemporaryDir> m_files;
};

void TestRulesCli::init()
{
    m_config = std::make_unique<QTemporaryDir>();
    m_files = std::make_unique<QTemporaryDir>();
    QVERIFY(m_config->isValid() && m_files->isValid());
}

void TestRulesCli::checkAcceptsAGoodFile()
{
    QVERIFY(writeFile(temp(u"good.json"_s), kAddsPhrase));
    const CliRun r = run({ u"rules"_s, u"check"_s, temp(u"good.json"_s) });
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.isEmpty(), r.err.constData());
}

void TestRulesCli::checkNamesFileAndLine_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QByteArray>("message"); // after "FILE:"
    QTest::newRow("malformed JSON")
        << QByteArray("{\n  \"format\": 1,\n  \"categories\": {\n    \"too_large\": {,\n  }\n}\n")
        << QByteArray("4: not valid JSON here");
    QTest::newRow("ends too early")
        << QByteArray("{\n  \"format\": 1,\n") << QByteArray("3: not valid JSON: the text ends");
    QTest::newRow("unknown category")
        << QByteArray("{\n  \"format\": 1,\n  \"categories\": {\n    \"too_big\": {}\n  }\n}\n")
        << QByteArray("4: unknown category \"too_big\"");
    QTest::newRow("a status is no addition")
        << QByteArray("{\n  \"format\": 1,\n  \"categories\": {\n    \"auth\": {\n"
                      "      \"statuses\": [400]\n    }\n  }\n}\n")
        << QByteArray("5: \"statuses\" cannot be changed by a user file");
    QTest::newRow("phrase not a string")
        << QByteArray("{\n  \"format\": 1,\n  \"categories\": {\"billing\": {\"phrases\": [\n"
                      "    \"ok\",\n    42\n  ]}}\n}\n")
        << QByteArray("5: an entry of \"phrases\" must be a string, not a number");
    QTest::newRow("no format") << QByteArray("{\n  \"words\": {}\n}\n")
                               << QByteArray("1: \"format\": 1 is missing");
    QTest::newRow("invalid UTF-8")
        << QByteArray("{\n  \"format\": 1,\n  \"words\": {\"used\": [\"\xff\xfe\"]}\n}\n")
        << QByteArray("3: not valid UTF-8");
    QTest::newRow("unit without seconds")
        << QByteArray("{\"format\": 1,\n\"units\": {\"russian\": [\n{\"word\": \"сут\"}]}}")
        << QByteArray("3: a unit needs \"word\" and \"seconds\"");
    QTest::newRow("too deep") << QByteArray(40, '[') + QByteArray(40, ']')
                              << QByteArray("1: nested more than 16 levels deep");
    QTest::newRow("huge") << QByteArray("{\"format\":1,\"description\":\"")
            + QByteArray(1100 * 1024, 'x')
            + "\"}" << QByteArray("1: the file is larger than 1 MiB");
}

void TestRulesCli::checkNamesFileAndLine()
{
    QFETCH(QByteArray, content);
    QFETCH(QByteArray, message);
    const QString path = temp(u"bad.json"_s);
    QVERIFY(writeFile(path, content));
    const CliRun r = run({ u"rules"_s, u"check"_s, path });
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.startsWith(QByteArray(path.toUtf8() + ':' + message)), r.err.constData());
}

void TestRulesCli::explainWithRulesFile()
{
    CliRun r = run({ u"explain"_s, u"--status"_s, u"400"_s }, kWidgetBody);
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.json().value(u"category"_s).toString(), u"fatal"_s);
    QCOMPARE(r.json().value(u"rule"_s).toString(), u"builtin:fatal"_s);

    const QString path = temp(u"acme.json"_s);
    QVERIFY(writeFile(path, kAddsPhrase));
    r = run({ u"explain"_s, u"--status"_s, u"400"_s, u"--rules"_s, path }, kWidgetBody);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    QCOMPARE(r.json().value(u"category"_s).toString(), u"too_large"_s);
    QCOMPARE(r.json().value(u"retryable"_s).toBool(), false);
    QCOMPARE(r.json().value(u"rule"_s).toString(), path + u":6"_s);
    // The figures of the text that matched: 4711 needed, 4096 fit.
    QCOMPARE(r.json().value(u"used"_s).toInt(), 4711);
    QCOMPARE(r.json().value(u"limit"_s).toInt(), 4096);
}

void TestRulesCli::rulesDirectoryIsReadAtStart()
{
    QVERIFY(writeFile(rulesDir() + u"/acme.json"_s, kAddsPhrase));
    const CliRun r = run({ u"explain"_s, u"--status"_s, u"400"_s }, kWidgetBody);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    QCOMPARE(r.json().value(u"category"_s).toString(), u"too_large"_s);
    QCOMPARE(r.json().value(u"rule"_s).toString(), u"rules.d/acme.json:6"_s);
}

void TestRulesCli::badFileChangesNothingElse()
{
    // A good file and a bad one: the bad one is named with its line, the good one still counts,
    // and the built-in rules decide the rest exactly as without any file.
    QVERIFY(writeFile(rulesDir() + u"/acme.json"_s, kAddsPhrase));
    QVERIFY(writeFile(rulesDir() + u"/broken.json"_s,
        "{\n  \"format\": 1,\n  \"categories\": {\"billing\": {\"phrases\": [\"x\"\n}\n"));
    const QByteArray context
        = R"({"error":{"message":"prompt is too long: 208310 tokens > 200000 maximum"}})";
    CliRun r = run({ u"explain"_s, u"--status"_s, u"400"_s }, kWidgetBody);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.contains("capwatch-cli: rules: rules.d/broken.json:4: not valid JSON here (the "
                            "file is left out)\n"),
        r.err.constData());
    QCOMPARE(r.json().value(u"category"_s).toString(), u"too_large"_s);

    // Only the bad file: the same line as with no file at all.
    QVERIFY(QFile::remove(rulesDir() + u"/acme.json"_s));
    const CliRun withBad = run({ u"explain"_s, u"--status"_s, u"400"_s }, context);
    QVERIFY(QFile::remove(rulesDir() + u"/broken.json"_s));
    const CliRun without = run({ u"explain"_s, u"--status"_s, u"400"_s }, context);
    QCOMPARE(withBad.exitCode, 0);
    QVERIFY(!withBad.err.isEmpty());
    QVERIFY(without.err.isEmpty());
    QCOMPARE(withBad.out, without.out);
    QCOMPARE(without.json().value(u"rule"_s).toString(),
        u"builtin:too_large.phrase \"prompt is too long\""_s);
}

void TestRulesCli::endpointScope()
{
    const QString path = temp(u"scoped.json"_s);
    QVERIFY(writeFile(path,
        "{\"format\": 1, \"endpoint\": \"https://llm.acme.example/v1/\",\n"
        " \"categories\": {\"too_large\": {\"phrases\": [\"widget stack is full\"]}}}\n"));
    const auto category = [&](const QString &endpoint) {
        QStringList args { u"explain"_s, u"--status"_s, u"400"_s, u"--rules"_s, path };
        if (!endpoint.isEmpty())
            args << u"--endpoint"_s << endpoint;
        return run(args, kWidgetBody).json().value(u"category"_s).toString();
    };
    QCOMPARE(category(u"https://LLM.acme.example/v1"_s), u"too_large"_s);
    QCOMPARE(category(u"https://llm.acme.example/v1/chat/completions"_s), u"too_large"_s);
    QCOMPARE(category(u"https://llm.acme.example.net/v1"_s), u"fatal"_s);
    QCOMPARE(category(u"https://other.example/v1"_s), u"fatal"_s);
    QCOMPARE(category(QString()), u"fatal"_s);
}

void TestRulesCli::listSaysWhereEachRuleComesFrom()
{
    QVERIFY(writeFile(rulesDir() + u"/acme.json"_s, kAddsPhrase));
    const CliRun r = run({ u"rules"_s, u"list"_s });
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("too_large.status 413\tbuiltin\n"), r.out.constData());
    QVERIFY(r.out.contains("too_large.phrase \"prompt is too long\"\tbuiltin\n"));
    QVERIFY(r.out.contains("auth.family key-not-valid: "));
    QVERIFY(r.out.contains("units.russian \"мин\" = 60 s\tbuiltin\n"));
    QVERIFY(r.out.contains("headers.retry_after \"retry-after\"\tbuiltin\n"));
    QVERIFY(r.out.contains("too_large.phrase \"widget stack is full\"\trules.d/acme.json:6\n"));
}

void TestRulesCli::realSendUsesTheRules()
{
    capwatch::testing::LoopbackServer server(
        capwatch::testing::httpResponse("400 Bad Request", kWidgetBody));
    QVERIFY(server.listen());
    const QStringList chat { u"chat"_s, u"--endpoint"_s, server.url().toString(), u"--model"_s,
        u"m"_s, u"--prompt"_s, u"hi"_s, u"--no-stream"_s };

    CliRun r = run(chat);
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains("failed: 400 Bad Request, fatal"), r.err.constData());

    QVERIFY(writeFile(rulesDir() + u"/acme.json"_s, kAddsPhrase));
    r = run(chat);
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains("failed: 400 Bad Request, too_large"), r.err.constData());
    QVERIFY2(r.err.contains("hint: the request is larger than the model accepts (limit 4096, "
                            "requested 4711): shorten the conversation"),
        r.err.constData());
    QCOMPARE(server.heads().size(), 2); // one attempt each: neither is retried
}

void TestRulesCli::realSendWithABadFile()
{
    capwatch::testing::LoopbackServer server(
        capwatch::testing::httpResponse("400 Bad Request", kWidgetBody));
    QVERIFY(server.listen());
    QVERIFY(writeFile(rulesDir() + u"/broken.json"_s, "{\"format\": 2}\n"));
    const CliRun r = run({ u"chat"_s, u"--endpoint"_s, server.url().toString(), u"--model"_s,
        u"m"_s, u"--prompt"_s, u"hi"_s, u"--no-stream"_s });
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.startsWith("capwatch-cli: rules: rules.d/broken.json:1: \"format\" must be 1"),
        r.err.constData());
    QVERIFY2(r.err.contains("failed: 400 Bad Request, fatal"), r.err.constData());
}

QTEST_GUILESS_MAIN(TestRulesCli)
#include "tst_rulescli.moc"
