// capwatch-cli chat and demo run as processes: stdout/stderr split, exit codes, the log files'
// exact columns and values, Ctrl+C, that the key never shows, and --wait-for-reset.

#include "demo/demoprovider.h"
#include "support/clirunner.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <utility>

using namespace capwatch::demo;
using namespace Qt::StringLiterals;

namespace {

constexpr double kScale = 0.01;

using Run = capwatch::testing::CliRun;

/// Runs the CLI while this thread's event loop keeps serving the in-process demo provider.
Run runCli(const QStringList &args, const QByteArray &input = {},
    const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
    const std::function<void(QProcess &)> &whileRunning = {})
{
    return capwatch::testing::runCli(args, { input, env, 60000, whileRunning });
}

/// Chat requests of any Demo whose last user message was empty or blank; cleanup() fails the
/// test function that sent one.
QStringList g_emptyPrompts;

struct Demo
{
    Demo(const Demo &) = delete;
    Demo &operator=(const Demo &) = delete;
    ~Demo()
    {
        for (const RecordedRequest &r : provider.recordedRequests()) {
            if (r.path.endsWith("/chat/completions") && r.lastUserMessage().trimmed().isEmpty())
                g_emptyPrompts.append(QString::fromUtf8(r.body.left(300)));
        }
    }
    /// `scale`: the time scale of the demo and of chat()'s runs.
    explicit Demo(const QString &scenario, DemoOptions o = {}, double timeScale = kScale)
        : scale(timeScale)
    {
        o.scenario = scenario;
        o.timeScale = timeScale;
        provider.setOptions(o);
        ok = provider.listen();
    }
    QStringList chat(QStringList extra = {}) const
    {
        return QStringList { u"chat"_s, u"--endpoint"_s, provider.baseUrl().toString(),
            u"--prompt"_s, u"Hello there"_s, u"--time-scale"_s, QString::number(scale) }
        + extra;
    }
    double scale = kScale;
    DemoProvider provider;
    bool ok = false;
};

/// "event reason" of every record, for the shape of a log.
QStringList eventsOf(const QList<QJsonObject> &records)
{
    QStringList out;
    for (const QJsonObject &o : records) {
        const QString reason = o.value(u"reason"_s).toString();
        out << o.value(u"event"_s).toString() + (reason.isEmpty() ? QString() : u' ' + reason);
    }
    return out;
}

/// The standard error lines that start with `prefix`.
QList<QByteArray> linesStarting(const QByteArray &err, const QByteArray &prefix)
{
    QList<QByteArray> out;
    for (const QByteArray &line : err.split('\n')) {
        if (line.startsWith(prefix))
            out << line;
    }
    return out;
}

QList<QJsonObject> readJsonLines(const QString &path)
{
    QFile f(path);
    QList<QJsonObject> out;
    if (!f.open(QIODevice::ReadOnly))
        return out;
    while (!f.atEnd()) {
        const QByteArray line = f.readLine();
        if (!line.trimmed().isEmpty())
            out.append(QJsonDocument::fromJson(line).object());
    }
    return out;
}

} // namespace

class TestChatCli final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup();
    void answerOnStdoutProgressOnStderr();
    void headlineExitsThreeWithFinalText_data();
    void headlineExitsThreeWithFinalText();
    void headlineLogFilesExactly_data();
    void headlineLogFilesExactly();
    void validationExitsThree();
    void hangExitsFourWithTimeout();
    void droppedStreamKeepsPartialAndExitsSix();
    void unreachableExitsFour();
    void remoteEndpointWithoutKeyExitsFour();
    void badArgumentsExitTwo_data();
    void badArgumentsExitTwo();
    void sigintDuringWaitExits130();
    void killedMidCycleLeavesEveryRecordReadable_data();
    void killedMidCycleLeavesEveryRecordReadable();
    void keyNeverShows();
    void demoCommandPrintsItsUrlFirst();
    void requestCarriesTheOptions_data();
    void requestCarriesTheOptions();
    void russianSecondsAreWaited();
    void neverFitsAndOutOfCreditExitThree_data();
    void neverFitsAndOutOfCreditExitThree();
    void errorsInsideA200LeaveOnlyTheAnswer_data();
    void errorsInsideA200LeaveOnlyTheAnswer();
    void waitForResetParksAndSendsAtTheReset();
    void waitForResetBeyondMaxGivesUp();
    void sigintWhileParkedExits130();
    void sigintWhilePacingExits130();
    void privateWritesNoSettingsFileEither();
    void aKeychainProfileExits4();
    void waitForResetParksAgainUpToThreeTimes();
    void waitForResetSaysWhyNotParked();
    void waitForResetInTheHelp();
    void twoRunsInARowArePaced();
    void twentyQuickRunsGetNo422();
    void withoutPacingQuickRunsGet422s();
};

void TestChatCli::cleanup()
{
    // No test may send a request whose last user message is empty.
    const QStringList bodies = std::exchange(g_emptyPrompts, {});
    QVERIFY2(
        bodies.isEmpty(), qPrintable(u"sent with an empty user message: "_s + bodies.join(u" | ")));
}

void TestChatCli::answerOnStdoutProgressOnStderr()
{
    Demo demo(u"rate-limited"_s);
    QVERIFY(demo.ok);
    const Run r = runCli(demo.chat());
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("capwatch demo provider"));
    QVERIFY(!r.out.contains("capwatch:")); // stdout is the answer only
    QCOMPARE(r.err.count("capwatch: attempt"), 2);
    QCOMPARE(r.err.count("capwatch: waiting 2 s (retry-after header: 2 s) before attempt"), 2);
    QVERIFY(r.err.contains("capwatch: answered on attempt 3 of 5"));
    QCOMPARE(demo.provider.chatRequests(), 3);
}

void TestChatCli::headlineExitsThreeWithFinalText_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QByteArray>("error");
    QTest::newRow("en") << u"en"_s
                        << QByteArray(
                               "Token limit exceeded: used 60323, limit 60000. Retry in 18 min.");
    QTest::newRow("ru")
        << u"ru"_s
        << QStringLiteral(u"Превышен лимит completion-токенов: использовано 60323, лимит 60000. "
                          u"Повторите попытку через 18 мин.")
               .toUtf8();
    QTest::newRow("zh")
        << u"zh"_s
        << QStringLiteral(u"超过令牌限额：已使用60323，上限60000。请在18分钟后重试。").toUtf8();
}

void TestChatCli::headlineExitsThreeWithFinalText()
{
    QFETCH(QString, language);
    QFETCH(QByteArray, error);
    DemoOptions o;
    o.messageLanguage = language;
    Demo demo(u"headline"_s, o);
    QVERIFY(demo.ok);
    const Run r = runCli(demo.chat({ u"--model"_s, u"DeepSeek-V4-Flash"_s }));
    QCOMPARE(r.exitCode, 3);
    QVERIFY(r.out.isEmpty());
    const QByteArray expected = "OpenAI-compatible chat request failed\n"
                                "  endpoint: "
        + demo.provider.baseUrl().toString().toUtf8()
        + "/chat/completions\n"
          "  model: DeepSeek-V4-Flash\n"
          "  auth: none (loopback endpoint)\n"
          "  status: 422 Unprocessable Entity\n"
          "  response: {\"error\":\""
        + error
        + "\"}\n"
          "  attempts: 3 of 5, waited 120.0 s of the 120 s budget; gave up: budget_exhausted\n";
    QVERIFY2(r.err.endsWith(expected), r.err.constData());
    QCOMPARE(r.err.count("(provider asked 18 min; capped to 60 s)"), 2);
    QCOMPARE(
        r.err.count("failed: 422 Unprocessable Entity, token_limit (used 60323, limit 60000)"), 3);
    QCOMPARE(demo.provider.chatRequests(), 3);
}

void TestChatCli::headlineLogFilesExactly_data()
{
    headlineExitsThreeWithFinalText_data();
}

void TestChatCli::headlineLogFilesExactly()
{
    QFETCH(QString, language);
    QFETCH(QByteArray, error);
    QTemporaryDir dir;
    DemoOptions options;
    options.messageLanguage = language;
    Demo demo(u"headline"_s, options);
    QVERIFY(demo.ok);
    const QString jsonl = dir.filePath(u"log.jsonl"_s);
    const QString csv = dir.filePath(u"log.csv"_s);
    QCOMPARE(runCli(demo.chat({ u"--log"_s, jsonl })).exitCode, 3);
    QCOMPARE(runCli(demo.chat({ u"--log"_s, csv })).exitCode, 3);

    const QList<QJsonObject> records = readJsonLines(jsonl);
    QCOMPARE(records.size(), 6);
    const QStringList columns { u"time"_s, u"request"_s, u"event"_s, u"attempt"_s, u"status"_s,
        u"category"_s, u"used"_s, u"limit"_s, u"wait_s"_s, u"raw_wait_s"_s, u"wait_source"_s,
        u"waited_total_s"_s, u"budget_left_s"_s, u"reason"_s, u"error"_s, u"reset_at"_s,
        u"window_tokens_left"_s, u"window_reset_s"_s, u"estimated_tokens"_s, u"profile"_s,
        u"fallback_to"_s, u"answer_end"_s };
    QFile raw(jsonl);
    QVERIFY(raw.open(QIODevice::ReadOnly));
    const QByteArray firstLine = raw.readLine();
    // Keys in the documented order, every one present.
    qsizetype at = 0;
    for (const QString &c : columns) {
        const qsizetype next = firstLine.indexOf(QByteArray("\"" + c.toUtf8() + "\":"), at);
        QVERIFY2(next >= at, qPrintable(c));
        at = next;
    }
    QList<double> budgets;
    for (const QJsonObject &o : records) {
        QCOMPARE(o.keys().size(), columns.size());
        QVERIFY(o.value(u"time"_s).toString().endsWith(u'Z'));
        QCOMPARE(o.value(u"time"_s).toString().size(), 24); // 2026-11-29T20:05:20.123Z
        if (o.value(u"event").toString() == u"retry_scheduled") {
            QCOMPARE(o.value(u"wait_s").toInteger(), 60);
            QCOMPARE(o.value(u"raw_wait_s").toInteger(), 1080);
            QCOMPARE(o.value(u"wait_source").toString(), u"message"_s);
            QCOMPARE(o.value(u"used").toInteger(), 60323);
            QCOMPARE(o.value(u"limit").toInteger(), 60000);
            QCOMPARE(o.value(u"error").toString(), QString::fromUtf8(error));
            budgets.append(o.value(u"budget_left_s").toDouble());
        }
    }
    QCOMPARE(budgets, (QList<double> { 60, 0 }));
    QCOMPARE(records.last().value(u"event").toString(), u"gave_up"_s);
    QCOMPARE(records.last().value(u"reason").toString(), u"budget_exhausted"_s);

    QFile c(csv);
    QVERIFY(c.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = c.readAll().split('\n');
    QCOMPARE(lines.at(0).trimmed(), columns.join(u',').toUtf8());
    QCOMPARE(lines.size(), 8); // header, 6 records, the empty rest after the last line end
    const QList<QByteArray> scheduled = lines.at(2).trimmed().split(',');
    QCOMPARE(scheduled.at(2), QByteArray("retry_scheduled"));
    QCOMPARE(scheduled.at(3), QByteArray("1"));
    QCOMPARE(scheduled.at(4), QByteArray("422"));
    QCOMPARE(scheduled.at(5), QByteArray("token_limit"));
    QCOMPARE(scheduled.at(6), QByteArray("60323"));
    QCOMPARE(scheduled.at(7), QByteArray("60000"));
    QCOMPARE(scheduled.at(8), QByteArray("60"));
    QCOMPARE(scheduled.at(9), QByteArray("1080"));
    QCOMPARE(scheduled.at(10), QByteArray("message"));
    QCOMPARE(scheduled.at(11), QByteArray("60"));
    QCOMPARE(scheduled.at(12), QByteArray("60"));
    QCOMPARE(scheduled.at(13), QByteArray());
    // RFC 4180: quoted when it holds a comma (the Chinese text has only full-width ones).
    const QByteArray cell = error.contains(',') ? QByteArray('"' + error + '"') : error;
    // reset_at null; the demo's window untouched (nothing answered), renewed; no estimate; no
    // profile, no fallback.
    QVERIFY2(lines.at(2).trimmed().endsWith(QByteArray(",," + cell + ",,0,1080,,,,")),
        lines.at(2).trimmed().constData());
    QVERIFY(lines.at(6).contains(",budget_exhausted,"));
}

void TestChatCli::validationExitsThree()
{
    Demo demo(u"validation"_s);
    QVERIFY(demo.ok);
    const Run r = runCli(demo.chat());
    QCOMPARE(r.exitCode, 3);
    QCOMPARE(demo.provider.chatRequests(), 1);
    QVERIFY(r.err.contains("gave up: not_retryable"));
    QVERIFY(r.err.contains("\"msg\":\"field required\""));
}

void TestChatCli::hangExitsFourWithTimeout()
{
    Demo demo(u"hang"_s);
    QVERIFY(demo.ok);
    const Run r = runCli(demo.chat());
    QCOMPARE(r.exitCode, 4);
    QVERIFY2(r.err.contains("gave up: timeout"), r.err.constData());
    QCOMPARE(demo.provider.chatRequests(), 2);
}

void TestChatCli::droppedStreamKeepsPartialAndExitsSix()
{
    // Issue 29: an interrupted answer exits 6 (it was 4, a network error), printed as far as it
    // came and never sent again.
    Demo demo(u"drop-mid-stream"_s);
    QVERIFY(demo.ok);
    const Run r = runCli(demo.chat());
    QCOMPARE(r.exitCode, 6);
    QVERIFY2(!r.out.isEmpty(), "the partial answer was not printed");
    QByteArray said("capwatch: the answer was interrupted after ");
    said += QByteArray::number(QString::fromUtf8(r.out).size());
    said += " characters: ";
    QVERIFY2(r.err.contains(said), r.err.constData());
    QCOMPARE(demo.provider.chatRequests(), 1);
}

void TestChatCli::unreachableExitsFour()
{
    quint16 port = 0;
    {
        DemoProvider probe;
        QVERIFY(probe.listen());
        port = probe.port();
    }
    const Run r = runCli({ u"chat"_s, u"--endpoint"_s, u"http://127.0.0.1:%1/v1"_s.arg(port),
        u"--prompt"_s, u"hi"_s });
    QCOMPARE(r.exitCode, 4);
    QVERIFY(r.err.contains("status: no response"));
    QCOMPARE(r.err.count("capwatch: attempt"), 1); // refused: not retried
}

void TestChatCli::remoteEndpointWithoutKeyExitsFour()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"OPENAI_COMPAT_API_KEY"_s);
    const Run r = runCli({ u"chat"_s, u"--endpoint"_s, u"https://api.example.invalid/v1"_s,
                             u"--model"_s, u"m"_s, u"--prompt"_s, u"hi"_s },
        {}, env);
    QCOMPARE(r.exitCode, 4);
    QVERIFY(r.err.contains("no API key"));
}

void TestChatCli::badArgumentsExitTwo_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("message");
    QTest::newRow("no endpoint") << QStringList { u"chat"_s, u"--prompt"_s, u"x"_s }
                                 << QByteArray("--endpoint or --profile is required");
    // Issue 17: the policy flags, and the flags that only go with --profile.
    QTest::newRow("max-wait out of range")
        << QStringList { u"chat"_s, u"--endpoint"_s, u"http://127.0.0.1:1/v1"_s, u"--prompt"_s,
               u"x"_s, u"--max-wait"_s, u"900"_s }
        << QByteArray("capwatch-cli chat: error: --max-wait: 900 is out of range 1-600\n");
    QTest::newRow("max-attempts not a number")
        << QStringList { u"chat"_s, u"--endpoint"_s, u"http://127.0.0.1:1/v1"_s, u"--prompt"_s,
               u"x"_s, u"--max-attempts"_s, u"three"_s }
        << QByteArray("capwatch-cli chat: error: --max-attempts: 'three' is not a whole number\n");
    QTest::newRow("config without profile")
        << QStringList { u"chat"_s, u"--endpoint"_s, u"http://127.0.0.1:1/v1"_s, u"--prompt"_s,
               u"x"_s, u"--config"_s, u"/nonexistent.conf"_s }
        << QByteArray("--config names the file --profile is read from: give --profile too");
    QTest::newRow("bad time scale") << QStringList { u"chat"_s, u"--endpoint"_s,
        u"http://127.0.0.1:1/v1"_s, u"--prompt"_s, u"x"_s, u"--time-scale"_s, u"2"_s }
                                    << QByteArray("--time-scale");
    QTest::newRow("bad max tokens") << QStringList { u"chat"_s, u"--endpoint"_s,
        u"http://127.0.0.1:1/v1"_s, u"--prompt"_s, u"x"_s, u"--max-tokens"_s, u"-3"_s }
                                    << QByteArray("--max-tokens");
    QTest::newRow("unknown option") << QStringList { u"chat"_s, u"--frob"_s } << QByteArray("frob");
    QTest::newRow("empty prompt") << QStringList { u"chat"_s, u"--endpoint"_s,
        u"http://127.0.0.1:1/v1"_s }
                                  << QByteArray("no prompt");
    QTest::newRow("log not writable")
        << QStringList { u"chat"_s, u"--endpoint"_s, u"http://127.0.0.1:1/v1"_s, u"--prompt"_s,
               u"x"_s, u"--log"_s, u"/nonexistent/dir/log.jsonl"_s }
        << QByteArray("cannot open the log");
    for (const QString &max : { u"5x"_s, u"0"_s, u"-1m"_s, u"1.5h"_s, u"25h"_s, u"m"_s, QString() })
        QTest::addRow("bad --wait-for-reset=%s", qPrintable(max))
            << QStringList { u"chat"_s, u"--endpoint"_s, u"http://127.0.0.1:1/v1"_s, u"--prompt"_s,
                   u"x"_s, u"--wait-for-reset="_s + max }
            << QByteArray("capwatch-cli chat: error: --wait-for-reset=MAX takes a whole number "
                          "of seconds, minutes or hours from 1s to 24h, such as 90s, 20m or 2h, "
                          "not '"
                   + max.toUtf8() + "'\n");
    QTest::newRow("--wait-for-reset MAX") << QStringList { u"chat"_s, u"--endpoint"_s,
        u"http://127.0.0.1:1/v1"_s, u"--prompt"_s, u"x"_s, u"--wait-for-reset"_s, u"20m"_s }
                                          << QByteArray("capwatch-cli chat: error: "
                                                        "--wait-for-reset takes MAX after an "
                                                        "equals sign (--wait-for-reset=20m), not "
                                                        "as the next argument\n");
    QTest::newRow("demo unknown scenario")
        << QStringList { u"demo"_s, u"--scenario"_s, u"nope"_s } << QByteArray("unknown scenario");
    QTest::newRow("demo unknown language") << QStringList { u"demo"_s, u"--message-language"_s,
        u"fr"_s } << QByteArray("unknown message language 'fr' (one of: en, ru, zh)");
    QTest::newRow("demo bad context window")
        << QStringList { u"demo"_s, u"--scenario"_s, u"context"_s, u"--context-window"_s, u"0"_s }
        << QByteArray("--context-window");
    for (const QString &seconds : { u"0"_s, u"-5"_s, u"soon"_s })
        QTest::addRow("demo bad reset-after %s", qPrintable(seconds))
            << QStringList { u"demo"_s, u"--scenario"_s, u"reset"_s, u"--reset-after"_s, seconds }
            << QByteArray("--reset-after takes a positive number of seconds");
    QTest::newRow("demo bad port")
        << QStringList { u"demo"_s, u"--port"_s, u"70000"_s } << QByteArray("--port");
}

void TestChatCli::badArgumentsExitTwo()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, message);
    const Run r = runCli(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message), r.err.constData());
}

void TestChatCli::sigintDuringWaitExits130()
{
    QTemporaryDir dir;
    const QString log = dir.filePath(u"log.jsonl"_s);
    Demo demo(u"headline"_s);
    QVERIFY(demo.ok);
    // Policy waits of 60 s at scale 0.1 are 6 s: the signal surely lands inside the first one.
    QStringList args = demo.chat({ u"--log"_s, log });
    args.replace(args.indexOf(QString::number(kScale)), u"0.1"_s);
    const Run r = runCli(args, {}, QProcessEnvironment::systemEnvironment(), [&](QProcess &p) {
        QTRY_VERIFY_WITH_TIMEOUT(readJsonLines(log).size() >= 2, 10000); // the wait is scheduled
        ::kill(pid_t(p.processId()), SIGINT);
    });
    QCOMPARE(r.exitCode, 130);
    QCOMPARE(demo.provider.chatRequests(), 1);
    const QList<QJsonObject> records = readJsonLines(log);
    QCOMPARE(records.size(), 3);
    QCOMPARE(records.last().value(u"event").toString(), u"cancelled"_s);
    QCOMPARE(records.last().value(u"reason").toString(), u"cancelled"_s);
    QVERIFY(r.err.contains("; cancelled"));
}

void TestChatCli::killedMidCycleLeavesEveryRecordReadable_data()
{
    QTest::addColumn<QString>("fileName");
    QTest::newRow("json lines") << u"log.jsonl"_s;
    QTest::newRow("csv") << u"log.csv"_s;
}

void TestChatCli::killedMidCycleLeavesEveryRecordReadable()
{
    // SIGKILL: no handler, no flush at exit. Every record written before must be whole on disk.
    QFETCH(QString, fileName);
    QTemporaryDir dir;
    const QString log = dir.filePath(fileName);
    Demo demo(u"headline"_s);
    QVERIFY(demo.ok);
    QStringList args = demo.chat({ u"--log"_s, log });
    args.replace(args.indexOf(QString::number(kScale)), u"0.1"_s); // 60 s waits take 6 s
    const auto lines = [&log] {
        QFile f(log);
        return f.open(QIODevice::ReadOnly) ? f.readAll().split('\n') : QList<QByteArray>();
    };
    const Run r = runCli(args, {}, QProcessEnvironment::systemEnvironment(), [&](QProcess &p) {
        // attempt 1, retry_scheduled, attempt 2, retry_scheduled: in the second wait.
        const int wanted = fileName.endsWith(u".csv"_s) ? 5 : 4;
        QTRY_VERIFY_WITH_TIMEOUT(lines().size() > wanted, 20000);
        ::kill(pid_t(p.processId()), SIGKILL);
    });
    QCOMPARE(r.exitCode, -1); // killed
    const QList<QByteArray> written = lines();
    QVERIFY(written.last().isEmpty()); // the file ends with a whole line
    QList<QByteArray> records = written.first(written.size() - 1);
    if (fileName.endsWith(u".csv"_s)) {
        QVERIFY(records.takeFirst().startsWith("time,request,event,"));
        QCOMPARE(records.size(), 4);
        QVERIFY(records.at(0).contains(",attempt_started,1,"));
        QVERIFY(records.at(1).contains(
            ",retry_scheduled,1,422,token_limit,60323,60000,60,1080,message,"));
        QVERIFY(records.at(2).contains(",attempt_started,2,"));
        QVERIFY(records.at(3).contains(
            ",retry_scheduled,2,422,token_limit,60323,60000,60,1080,message,"));
    } else {
        QCOMPARE(records.size(), 4);
        QStringList events;
        for (const QByteArray &line : std::as_const(records)) {
            QJsonParseError error;
            const QJsonObject o = QJsonDocument::fromJson(line, &error).object();
            QCOMPARE(error.error, QJsonParseError::NoError);
            events << o.value(u"event"_s).toString() + u' '
                    + QString::number(o.value(u"attempt"_s).toInt());
        }
        QCOMPARE(events,
            (QStringList { u"attempt_started 1"_s, u"retry_scheduled 1"_s, u"attempt_started 2"_s,
                u"retry_scheduled 2"_s }));
    }
}

void TestChatCli::keyNeverShows()
{
    QTemporaryDir dir;
    const QString log = dir.filePath(u"log.csv"_s);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"MY_KEY"_s, u"sk-verysecret-XYZ987"_s);
    Demo demo(u"headline"_s);
    QVERIFY(demo.ok);
    QByteArray authorization;
    connect(&demo.provider, &DemoProvider::chatRequestReceived, this,
        [&](int, const QByteArray &a) { authorization = a; });
    const Run r = runCli(demo.chat({ u"--api-key-env"_s, u"MY_KEY"_s, u"--log"_s, log }), {}, env);
    QCOMPARE(r.exitCode, 3);
    QCOMPARE(authorization, QByteArray("Bearer sk-verysecret-XYZ987"));
    QFile f(log);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray all = r.out + r.err + f.readAll();
    QVERIFY(!all.contains("verysecret"));
    QVERIFY(r.err.contains("  auth: MY_KEY\n"));
}

void TestChatCli::demoCommandPrintsItsUrlFirst()
{
    capwatch::testing::CliProcess p(
        { u"demo"_s, u"--port"_s, u"0"_s, u"--scenario"_s, u"headline"_s });
    QVERIFY(p.waitForLine(10000));
    const QByteArray line = p.process().readLine();
    QVERIFY2(line.startsWith("listening on http://127.0.0.1:") && line.endsWith("/v1\n"),
        line.constData());
    const QString url = QString::fromUtf8(line.mid(13).trimmed());
    const Run r = runCli(
        { u"chat"_s, u"--endpoint"_s, url, u"--prompt"_s, u"hi"_s, u"--time-scale"_s, u"0.001"_s });
    QCOMPARE(r.exitCode, 3);
    QVERIFY(r.err.contains("Retry in 18 min."));
    ::kill(pid_t(p.pid()), SIGTERM);
    QVERIFY(p.waitForFinished(10000));
    const Run end = p.result();
    QCOMPARE(end.status, QProcess::NormalExit);
    QCOMPARE(end.exitCode, 0);
}

void TestChatCli::requestCarriesTheOptions_data()
{
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("messages"); // the "messages" array as sent
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("maxTokens"); // -1: absent
    QTest::addColumn<bool>("stream");
    QTest::newRow("defaults") << QStringList { u"--prompt"_s, u"Hello there"_s } << QByteArray()
                              << QByteArray("[{\"role\":\"user\",\"content\":\"Hello there\"}]")
                              << u"capwatch-demo"_s << -1 << true;
    QTest::newRow("every option") << QStringList { u"--prompt"_s, u"Why 422?"_s, u"--system"_s,
        u"Be brief."_s, u"--model"_s, u"DeepSeek-V4-Flash"_s, u"--max-tokens"_s, u"77"_s,
        u"--no-stream"_s } << QByteArray()
                                  << QByteArray("[{\"role\":\"system\",\"content\":\"Be brief.\"},"
                                                "{\"role\":\"user\",\"content\":\"Why 422?\"}]")
                                  << u"DeepSeek-V4-Flash"_s << 77 << false;
    QTest::newRow("prompt from stdin")
        << QStringList {} << QByteArray("Piped prompt \xc3\xbc")
        << QByteArray("[{\"role\":\"user\",\"content\":\"Piped prompt \xc3\xbc\"}]")
        << u"capwatch-demo"_s << -1 << true;
}

void TestChatCli::requestCarriesTheOptions()
{
    QFETCH(QStringList, extra);
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, messages);
    QFETCH(QString, model);
    QFETCH(int, maxTokens);
    QFETCH(bool, stream);
    Demo demo(u"capped"_s);
    QVERIFY(demo.ok);
    const QStringList args = QStringList { u"chat"_s, u"--endpoint"_s,
        demo.provider.baseUrl().toString(), u"--time-scale"_s, QString::number(kScale) }
        + extra;
    const Run r = runCli(args, input);
    QCOMPARE(r.exitCode, 0);
    const QList<RecordedRequest> sent = demo.provider.recordedRequests();
    QCOMPARE(sent.size(), 1);
    QCOMPARE(sent[0].method, "POST");
    QCOMPARE(sent[0].path, "/v1/chat/completions");
    QVERIFY2(
        sent[0].body.contains(QByteArray("\"messages\":" + messages)), sent[0].body.constData());
    const QJsonObject body = sent[0].json();
    QCOMPARE(body.value(u"model"_s).toString(), model);
    if (maxTokens < 0)
        QVERIFY(!body.contains(u"max_tokens"_s));
    else
        QCOMPARE(body.value(u"max_tokens"_s).toInt(), maxTokens);
    QCOMPARE(body.value(u"stream"_s).toBool(), stream);
    QVERIFY(sent[0].header("Authorization").isNull()); // loopback: no key
}

void TestChatCli::russianSecondsAreWaited()
{
    // "Повторите попытку через 30 секунд.": waited 30 s, then answered.
    DemoOptions o;
    o.limit = 500;
    o.windowSeconds = 30;
    o.messageLanguage = u"ru"_s;
    Demo demo(u"capped"_s, o);
    QVERIFY(demo.ok);
    // The request alone is over the cap (the provider names the full 30 s window); during the
    // wait the cap is raised, so the retry fits.
    connect(&demo.provider, &DemoProvider::chatRequestReceived, this,
        [&demo](int index, const QByteArray &) {
            if (index != 2)
                return;
            DemoOptions raised = demo.provider.options();
            raised.limit = 6000;
            demo.provider.setOptions(raised);
        });
    const Run r = runCli(demo.chat({ u"--max-tokens"_s, u"1000"_s }));
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(demo.provider.chatRequests(), 2);
    QVERIFY2(
        r.err.contains("capwatch: attempt 1 of 5 failed: 422 Unprocessable Entity, token_limit "
                       "(used 1003, limit 500)\n"), // its prompt's 3 tokens and its 1,000
        r.err.constData());
    QVERIFY2(r.err.contains(
                 "capwatch: waiting 30 s (provider asked 30 s) before attempt 2 of 5; 90 s of "
                 "the 120 s budget left\n"),
        r.err.constData());
    QVERIFY(r.err.contains("capwatch: answered on attempt 2 of 5"));
    QVERIFY(r.out.startsWith("Hello from the capwatch demo provider!"));
    QVERIFY(!r.out.contains("\xd0\x9f")); // no Cyrillic (П of Повторите) in the answer
}

void TestChatCli::neverFitsAndOutOfCreditExitThree_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QByteArray>("status");
    QTest::addColumn<QByteArray>("category");
    QTest::addColumn<QByteArray>("response");
    QTest::addColumn<QByteArray>("hint");
    // "Hello there" is 11 characters, 3 tokens; with --max-tokens 1000, 1003 against 1000.
    QTest::newRow("context")
        << u"context"_s << QByteArray("400 Bad Request") << QByteArray("too_large")
        << QByteArray("{\"error\":{\"message\":\"This model's maximum context length is 1000 "
                      "tokens. However, you requested 1003 tokens (3 in the messages, 1000 in "
                      "the completion). Please reduce the length of the messages or "
                      "completion.\",\"type\":\"invalid_request_error\",\"param\":\"messages\","
                      "\"code\":\"context_length_exceeded\"}}")
        << QByteArray("the request is larger than the model accepts (limit 1000, requested 1003): "
                      "shorten the conversation");
    QTest::newRow("billing")
        << u"billing"_s << QByteArray("402 Payment Required") << QByteArray("billing")
        << QByteArray("{\"error\":{\"message\":\"Insufficient Balance\",\"type\":\"unknown_error\","
                      "\"param\":null,\"code\":\"invalid_request_error\"}}")
        << QByteArray("the provider says the account is out of credit");
}

void TestChatCli::neverFitsAndOutOfCreditExitThree()
{
    QFETCH(QString, scenario);
    QFETCH(QByteArray, status);
    QFETCH(QByteArray, category);
    QFETCH(QByteArray, response);
    QFETCH(QByteArray, hint);
    DemoOptions o;
    o.contextWindow = 1000;
    Demo demo(scenario, o);
    QVERIFY(demo.ok);
    const Run r = runCli(demo.chat({ u"--max-tokens"_s, u"1000"_s }));
    QCOMPARE(r.exitCode, 3);
    QCOMPARE(demo.provider.chatRequests(), 1);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(
        r.err.contains(QByteArray("capwatch: attempt 1 of 5 failed: " + status + ", " + category)),
        r.err.constData());
    QVERIFY2(r.err.contains(QByteArray("\n  status: " + status + "\n  response: " + response
                 + "\n  hint: " + hint + "\n")),
        r.err.constData());
    QVERIFY2(r.err.endsWith("gave up: not_retryable\n"), r.err.constData());
    QVERIFY(!r.err.contains("capwatch: waiting"));
}

void TestChatCli::errorsInsideA200LeaveOnlyTheAnswer_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QByteArray>("failure");
    QTest::addColumn<QByteArray>("wait");
    QTest::newRow("error-in-200")
        << u"error-in-200"_s << QStringList {}
        << QByteArray("failed: 429 Too Many Requests, rate_limit\n")
        << QByteArray("capwatch: waiting 2 s (provider asked 2 s) before attempt 2");
    QTest::newRow("error-in-200, no stream")
        << u"error-in-200"_s << QStringList { u"--no-stream"_s }
        << QByteArray("failed: 429 Too Many Requests, rate_limit\n")
        << QByteArray("capwatch: waiting 2 s (provider asked 2 s) before attempt 2");
    QTest::newRow("error-in-stream")
        << u"error-in-stream"_s << QStringList {}
        << QByteArray("failed: 500 Internal Server Error, transient\n")
        << QByteArray("capwatch: waiting 5 s (backoff 5 s) before attempt 2");
}

void TestChatCli::errorsInsideA200LeaveOnlyTheAnswer()
{
    // stdout is exactly the answer that followed: nothing of the error inside the 200.
    QFETCH(QString, scenario);
    QFETCH(QStringList, extra);
    QFETCH(QByteArray, failure);
    QFETCH(QByteArray, wait);
    Demo demo(scenario);
    QVERIFY(demo.ok);
    const Run r = runCli(demo.chat(extra));
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(demo.provider.chatRequests(), 2);
    QCOMPARE(r.out,
        "Hello from the capwatch demo provider! This answer comes from a small server on 127.0.0.1 "
        "playing "
        "the \""
            + scenario.toUtf8()
            + "\" scenario, and this is request #2. A real provider would answer your prompt here; "
              "this one only shows that the request got through whatever the scenario put in its "
              "way.");
    QVERIFY2(r.err.contains(QByteArray("capwatch: attempt 1 of 5 " + failure)), r.err.constData());
    QVERIFY2(r.err.contains(wait), r.err.constData());
    QVERIFY(r.err.contains("capwatch: answered on attempt 2 of 5"));
}

void TestChatCli::waitForResetParksAndSendsAtTheReset()
{
    // reset, default 180 s: the send gives up after its 120 s budget, told "Retry in 60 sec."
    // It is parked for those 60 s (0.6 s at the scale), then sent again and answered.
    QTemporaryDir dir;
    const QString log = dir.filePath(u"log.jsonl"_s);
    Demo demo(u"reset"_s);
    QVERIFY(demo.ok);
    const Run r = runCli(demo.chat({ u"--log"_s, log, u"--wait-for-reset"_s }));
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.startsWith("Hello from the capwatch demo provider!"), r.out.constData());
    QVERIFY(r.out.contains("this is request #4."));
    QCOMPARE(demo.provider.chatRequests(), 4);

    const QList<QByteArray> parked = linesStarting(r.err, "capwatch: parked until ");
    QCOMPARE(parked.size(), 1);
    // "capwatch: parked until 06:14:05 (in 1 s); Ctrl+C cancels", in local time.
    const QByteArray until = parked.first().mid(23, 8);
    QVERIFY2(QTime::fromString(QString::fromLatin1(until), u"HH:mm:ss"_s).isValid(), until);
    QCOMPARE(parked.first().mid(31), QByteArray(" (in 1 s); Ctrl+C cancels"));
    QVERIFY2(r.err.contains("\ncapwatch: the limit has reset; sending again\n"
                            "capwatch: answered on attempt 1 of 5"),
        r.err.constData());
    QVERIFY(!r.err.contains('\r')); // no countdown line when standard error is not a terminal

    const QList<QJsonObject> records = readJsonLines(log);
    QCOMPARE(eventsOf(records),
        (QStringList { u"attempt_started"_s, u"retry_scheduled"_s, u"attempt_started"_s,
            u"retry_scheduled"_s, u"attempt_started"_s, u"gave_up budget_exhausted"_s,
            u"parked budget_exhausted"_s, u"unparked reset_reached"_s, u"attempt_started"_s,
            u"succeeded"_s }));
    const auto time = [&records](int i, const QString &key) {
        return QDateTime::fromString(records.at(i).value(key).toString(), Qt::ISODateWithMs);
    };
    const QDateTime resetAt = time(6, u"reset_at"_s);
    QVERIFY(resetAt.isValid());
    QCOMPARE(time(7, u"reset_at"_s), resetAt);
    QVERIFY(resetAt > time(5, u"time"_s));
    // Sent again, and answered, no earlier than the reset; a new send in the log.
    QVERIFY(time(8, u"time"_s) >= resetAt);
    QVERIFY(time(9, u"time"_s) >= resetAt);
    QCOMPARE(records.at(8).value(u"request"_s).toInt(), 2);
    QCOMPARE(records.at(9).value(u"request"_s).toInt(), 2);
}

void TestChatCli::waitForResetBeyondMaxGivesUp()
{
    // A reset at 300 s leaves 3 min after the budget: more than --wait-for-reset=1m.
    QTemporaryDir dir;
    const QString log = dir.filePath(u"log.jsonl"_s);
    DemoOptions o;
    o.resetAfterSeconds = 300;
    Demo demo(u"reset"_s, o);
    QVERIFY(demo.ok);
    const Run r = runCli(demo.chat({ u"--log"_s, log, u"--wait-for-reset=1m"_s }));
    QCOMPARE(r.exitCode, 3);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.endsWith("gave up: budget_exhausted\n"
                            "capwatch: not parked: the limit resets in 3 min, beyond "
                            "--wait-for-reset=1m\n"),
        r.err.constData());
    QVERIFY(!r.err.contains("capwatch: parked"));
    QCOMPARE(demo.provider.chatRequests(), 3);
    QCOMPARE(eventsOf(readJsonLines(log)).constLast(), u"gave_up budget_exhausted"_s);
    QVERIFY(!eventsOf(readJsonLines(log)).join(u' ').contains(u"parked"_s));
}

void TestChatCli::sigintWhileParkedExits130()
{
    // A reset at 1,200 s leaves 18 min after the budget: parked for 10.8 s at the scale.
    QTemporaryDir dir;
    const QString log = dir.filePath(u"log.jsonl"_s);
    DemoOptions o;
    o.resetAfterSeconds = 1200;
    Demo demo(u"reset"_s, o);
    QVERIFY(demo.ok);
    const Run r = runCli(demo.chat({ u"--log"_s, log, u"--wait-for-reset"_s }), {},
        QProcessEnvironment::systemEnvironment(), [&](QProcess &p) {
            QTRY_VERIFY_WITH_TIMEOUT(
                eventsOf(readJsonLines(log)).contains(u"parked budget_exhausted"_s), 10000);
            ::kill(pid_t(p.processId()), SIGINT);
        });
    QCOMPARE(r.exitCode, 130);
    QVERIFY(r.out.isEmpty());
    QCOMPARE(linesStarting(r.err, "capwatch: parked until ").size(), 1);
    QVERIFY(linesStarting(r.err, "capwatch: parked until ")
                .first()
                .endsWith(" (in 11 s); Ctrl+C cancels"));
    QVERIFY2(
        r.err.endsWith("capwatch: cancelled while parked; not sent again\n"), r.err.constData());
    QCOMPARE(demo.provider.chatRequests(), 3);
    const QStringList events = eventsOf(readJsonLines(log));
    QCOMPARE(events.mid(events.size() - 3),
        (QStringList { u"gave_up budget_exhausted"_s, u"parked budget_exhausted"_s,
            u"unparked cancelled"_s }));
}

void TestChatCli::waitForResetParksAgainUpToThreeTimes()
{
    // headline: "Retry in 18 min." whatever comes. Parked three times, each send again capped;
    // the fourth give-up is final. At 0.001 a park takes 1.08 s.
    QTemporaryDir dir;
    const QString log = dir.filePath(u"log.jsonl"_s);
    Demo demo(u"headline"_s);
    QVERIFY(demo.ok);
    QStringList args = demo.chat({ u"--log"_s, log, u"--wait-for-reset"_s });
    args.replace(args.indexOf(QString::number(kScale)), u"0.001"_s);
    const Run r = runCli(args);
    QCOMPARE(r.exitCode, 3);
    QCOMPARE(demo.provider.chatRequests(), 12);
    QCOMPARE(linesStarting(r.err, "capwatch: parked until ").size(), 3);
    QCOMPARE(r.err.count("capwatch: the limit has reset; sending again\n"), 3);
    QVERIFY2(r.err.endsWith("gave up: budget_exhausted\ncapwatch: not parked again: the send "
                            "was parked 3 times in a row and hit the limit after each reset.\n"),
        r.err.constData());
    const QList<QJsonObject> records = readJsonLines(log);
    QStringList parking;
    for (const QString &e : eventsOf(records)) {
        if (e.startsWith(u"gave_up"_s) || e.contains(u"parked"_s))
            parking << e;
    }
    const QStringList once { u"gave_up budget_exhausted"_s, u"parked budget_exhausted"_s,
        u"unparked reset_reached"_s };
    QCOMPARE(parking, once + once + once + QStringList { u"gave_up budget_exhausted"_s });
    QCOMPARE(records.constLast().value(u"request"_s).toInt(), 4);
}

void TestChatCli::waitForResetSaysWhyNotParked()
{
    // Not capped (a 422 that is no token limit): exits as without the option, saying why.
    Demo demo(u"validation"_s);
    QVERIFY(demo.ok);
    const Run with = runCli(demo.chat({ u"--wait-for-reset=2h"_s }));
    QCOMPARE(with.exitCode, 3);
    QVERIFY2(with.err.endsWith("gave up: not_retryable\ncapwatch: not parked: the send ended "
                               "with not_retryable, not with its retries used up.\n"),
        with.err.constData());
    const Run without = runCli(demo.chat());
    QCOMPARE(without.exitCode, 3);
    QVERIFY(!without.err.contains("parked"));
}

void TestChatCli::waitForResetInTheHelp()
{
    const Run help = runCli({ u"chat"_s, u"--help"_s });
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.contains("[--wait-for-reset[=MAX]]"));
    QVERIFY(help.out.contains("  --wait-for-reset  "));
    QVERIFY(help.out.contains("--wait-for-reset=MAX (90s, 20m, 2h;"));
    const Run man = runCli({ u"--man-page"_s });
    QCOMPARE(man.exitCode, 0);
    QVERIFY(man.out.contains("wait\\-for\\-reset"));
}

namespace {

/// The pacing tests' scale: a provider window of 30-60 s lasts 3-6 s, far longer than a run of
/// capwatch-cli takes even under a sanitizer on a slow machine (100-500 ms), so whether a run
/// lands inside the window never depends on how fast processes start. At 0.01 (0.3-0.6 s) it
/// did: a slower machine spread the runs over several windows and none was paced.
constexpr double kPacingScale = 0.1;

/// A capped demo whose window `limit` tokens a `seconds` window; every CLI run asks for 1000.
DemoOptions cappedWindow(qint64 limit, double seconds)
{
    DemoOptions o;
    o.limit = limit;
    o.windowSeconds = seconds;
    return o;
}

/// How many attempts of a run failed with `status` (its progress lines on stderr).
int statusCount(const QByteArray &err, const QByteArray &status)
{
    QByteArray needle("failed: ");
    needle += status;
    return int(err.count(needle));
}

} // namespace

void TestChatCli::twoRunsInARowArePaced()
{
    // One run fills the window (1,003 of 1,003 tokens: its prompt's 3 and the 1,000 of its
    // answer), which resets 30 s (3 s scaled) later.
    Demo demo(u"capped"_s, cappedWindow(1003, 30), kPacingScale);
    QVERIFY(demo.ok);
    QTemporaryDir dir;
    const QStringList db { u"--history-database"_s, dir.filePath(u"history.sqlite"_s) };
    QElapsedTimer clock;
    clock.start();
    QList<qint64> arrived; // wall ms of each chat request at the provider
    QObject::connect(&demo.provider, &DemoProvider::chatRequestReceived, &demo.provider,
        [&](int, const QByteArray &) { arrived.append(clock.elapsed()); });
    const Run first = runCli(demo.chat(db));
    QCOMPARE(first.exitCode, 0);
    const Run second = runCli(demo.chat(db));
    QCOMPARE(second.exitCode, 0);
    // The second process read the first one's report and waited for the reset: no 422.
    QCOMPARE(demo.provider.chatRequests(), 2);
    const QList<QByteArray> pacing = linesStarting(second.err, "capwatch: pacing: sending in ");
    QCOMPARE(pacing.size(), 1);
    QVERIFY2(pacing.first().contains("when the provider's window resets"), pacing.first());
    QVERIFY(!first.err.contains("pacing"));
    // No sooner than the reset: 30 s (scaled) after the first request was counted.
    QCOMPARE(arrived.size(), 2);
    QVERIFY2(arrived.at(1) - arrived.at(0) >= qint64(30'000 * kPacingScale) - 10,
        qPrintable(QString::number(arrived.at(1) - arrived.at(0))));
    QVERIFY(!second.err.contains("failed: 422"));
}

void TestChatCli::twentyQuickRunsGetNo422()
{
    Demo demo(u"capped"_s, cappedWindow(6000, 60), kPacingScale); // six runs a minute
    QVERIFY(demo.ok);
    QTemporaryDir dir;
    const QStringList db { u"--history-database"_s, dir.filePath(u"history.sqlite"_s) };
    int paced = 0;
    for (int i = 0; i < 20; ++i) {
        const Run r = runCli(demo.chat(db));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(statusCount(r.err, "422"), 0);
        paced += int(r.err.count("capwatch: pacing: "));
    }
    QCOMPARE(demo.provider.chatRequests(), 20); // one request a run: nothing refused
    QVERIFY2(paced >= 3, qPrintable(QString::number(paced)));
}

void TestChatCli::withoutPacingQuickRunsGet422s()
{
    // Two runs (about 1,003 tokens each) fill the window, so the third is refused when it comes
    // within the 6 s the window lasts at this scale (six runs a window did not overflow it under
    // AddressSanitizer, with each run of capwatch-cli taking a second).
    Demo demo(u"capped"_s, cappedWindow(2100, 60), kPacingScale);
    QVERIFY(demo.ok);
    QTemporaryDir dir;
    const QStringList args { u"--history-database"_s, dir.filePath(u"history.sqlite"_s),
        u"--no-pacing"_s };
    int refused = 0;
    for (int i = 0; i < 4; ++i) {
        const Run r = runCli(demo.chat(args));
        QCOMPARE(r.exitCode, 0); // answered after the retry cycle waited for the window
        QVERIFY(!r.err.contains("pacing"));
        refused += statusCount(r.err, "422");
    }
    QVERIFY2(refused >= 1, qPrintable(QString::number(refused)));
    QVERIFY(demo.provider.chatRequests() > 4);
}

void TestChatCli::sigintWhilePacingExits130()
{
    // issue 26.5: Ctrl+C while the send is held for the provider's window exits 130, and the
    // held send never goes out. A first run fills the demo's window (5,500 of its 6,000 tokens
    // counted) and leaves the report in this run's history; the second paces.
    QTemporaryDir dir;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"XDG_DATA_HOME"_s, dir.filePath(u"data"_s));
    env.insert(u"XDG_CONFIG_HOME"_s, dir.filePath(u"config"_s));
    Demo demo(u"capped"_s, {}, 0.1); // the demo's minute is 6 s of wall time
    QVERIFY(demo.ok);
    const Run fill = runCli(demo.chat({ u"--max-tokens"_s, u"5500"_s }), {}, env);
    QVERIFY2(fill.exitCode == 0, fill.err.constData());
    const QString log = dir.filePath(u"log.jsonl"_s);
    const Run r = runCli(
        demo.chat({ u"--max-tokens"_s, u"1000"_s, u"--log"_s, log }), {}, env, [&](QProcess &p) {
            QTRY_VERIFY_WITH_TIMEOUT(!readJsonLines(log).isEmpty(), 5000); // the paced record
            ::kill(pid_t(p.processId()), SIGINT);
        });
    QCOMPARE(r.exitCode, 130);
    QVERIFY2(r.err.contains("pacing: sending in"), r.err.constData());
    const QList<QJsonObject> records = readJsonLines(log);
    QCOMPARE(eventsOf(records), (QStringList { u"paced"_s, u"cancelled cancelled"_s }));
    QCOMPARE(demo.provider.chatRequests(), 1); // the first run's only
}

void TestChatCli::privateWritesNoSettingsFileEither()
{
    // issue 26.5: --private stores no history and learns nothing into the settings file: on
    // fresh default paths, nothing is written at all. Without it, the same run writes both.
    QTemporaryDir dir;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"XDG_DATA_HOME"_s, dir.filePath(u"data"_s));
    env.insert(u"XDG_CONFIG_HOME"_s, dir.filePath(u"config"_s));
    const QString settings = dir.filePath(u"config/capwatch/capwatch.conf"_s);
    Demo demo(u"capped"_s);
    QVERIFY(demo.ok);
    const Run secret = runCli(demo.chat({ u"--private"_s }), {}, env);
    QVERIFY2(secret.exitCode == 0, secret.err.constData());
    QVERIFY(!QFile::exists(settings));
    QVERIFY(!QFile::exists(dir.filePath(u"data/capwatch"_s)));
    const Run open = runCli(demo.chat(), {}, env);
    QVERIFY2(open.exitCode == 0, open.err.constData());
    QVERIFY(QFile::exists(settings)); // the learned ratio: what --private keeps away
    QVERIFY(QFile::exists(dir.filePath(u"data/capwatch"_s)));
}

void TestChatCli::aKeychainProfileExits4()
{
    // issue 26.5: a profile whose key is in the system keychain cannot be used by capwatch-cli
    // (it links no keychain): a configuration error, exit 4, before anything is sent.
    QTemporaryDir dir;
    Demo demo(u"capped"_s);
    QVERIFY(demo.ok);
    const QString config = dir.filePath(u"capwatch.conf"_s);
    QFile f(config);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("[profiles]\ndefault=work\n[profile.work]\nname=Work\nendpoint="
        + demo.provider.baseUrl().toString().toUtf8() + "\nmodel=capwatch-demo\nkey=keychain\n");
    f.close();
    const Run r = runCli({ u"chat"_s, u"--config"_s, config, u"--profile"_s, u"work"_s,
        u"--prompt"_s, u"Hello"_s, u"--private"_s });
    QCOMPARE(r.exitCode, 4);
    QVERIFY2(r.err.contains("keeps its key in the system keychain"), r.err.constData());
    QCOMPARE(demo.provider.chatRequests(), 0);
}

QTEST_GUILESS_MAIN(TestChatCli)
#include "tst_chatcli.moc"
