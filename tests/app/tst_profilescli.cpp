// capwatch-cli and provider profiles (issue 17), run as processes against in-process demo
// providers: the policy flags change the cycle, bad values exit 2 naming what is wrong, --profile
// takes a profile of a settings file (its errors named by file, line and key), the fallback of a
// capped send (warned of when it is plain HTTP to another host, never parked), and `profiles
// list`, which never prints a key.

#include "demo/demoprovider.h"
#include "support/clirunner.h"
#include "support/loopbackserver.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace capwatch::demo;
using namespace Qt::StringLiterals;

namespace {

constexpr double kScale = 0.01;

using Run = capwatch::testing::CliRun;

Run runCli(const QStringList &args,
    const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    return capwatch::testing::runCli(args, { {}, env, 60000, {} });
}

struct Demo
{
    Demo(const Demo &) = delete;
    Demo &operator=(const Demo &) = delete;
    explicit Demo(const QString &scenario)
    {
        DemoOptions o;
        o.scenario = scenario;
        o.timeScale = kScale;
        provider.setOptions(o);
        ok = provider.listen();
    }
    QString url() const { return provider.baseUrl().toString(); }
    QStringList chat(QStringList extra = {}) const
    {
        return QStringList { u"chat"_s, u"--endpoint"_s, url(), u"--prompt"_s, u"Hello there"_s,
            u"--time-scale"_s, QString::number(kScale), u"--private"_s }
        + extra;
    }
    DemoProvider provider;
    bool ok = false;
};

QStringList chatWithProfile(const QString &config, const QString &profile, QStringList extra = {})
{
    return QStringList { u"chat"_s, u"--config"_s, config, u"--profile"_s, profile, u"--prompt"_s,
        u"Hello there"_s, u"--time-scale"_s, QString::number(kScale), u"--private"_s }
    + extra;
}

QString writeConfig(const QTemporaryDir &dir, const QByteArray &text)
{
    const QString path = dir.filePath(u"capwatch.conf"_s);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    f.write(text);
    return path;
}

QList<QByteArray> linesStarting(const QByteArray &err, const QByteArray &prefix)
{
    QList<QByteArray> out;
    for (const QByteArray &line : err.split('\n')) {
        if (line.startsWith(prefix))
            out << line;
    }
    return out;
}

} // namespace

class TestProfilesCli final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void policyFlagsChangeTheCycle();
    void zeroBudgetIsOneAttempt();
    void badFlagValuesExitTwo_data();
    void badFlagValuesExitTwo();
    void profileGivesEndpointAndLimits();
    void profileSendsItsHeaders();
    void flagsWinOverTheProfile();
    void badProfileValueNamesFileLineKey();
    void mistypedKeySourceIsRefused();
    void profileWarningsGoOn();
    void unknownProfileExitsTwo();
    void demoProfileRunsInProcess();
    void fallbackAfterACappedSend();
    void withoutFallbackTheGiveUpStands();
    void plainHttpFallbackIsWarnedOf();
    void fallbacksSendIsNotParked();
    void profilesListNeverPrintsAKey();
    void profilesListJson();
    void profilesListReportsIssues();
    void helpAndManPageNameTheCommand();
};

void TestProfilesCli::policyFlagsChangeTheCycle()
{
    Demo demo(u"headline"_s);
    QVERIFY(demo.ok);
    const Run r = runCli(demo.chat({ u"--max-attempts"_s, u"3"_s, u"--max-wait"_s, u"5"_s,
        u"--budget"_s, u"12"_s, u"--model"_s, u"m"_s }));
    QCOMPARE(r.exitCode, 3);
    QCOMPARE(demo.provider.chatRequests(), 3);
    const QList<QByteArray> waits = linesStarting(r.err, "capwatch: waiting");
    QCOMPARE(waits.size(), 2);
    QCOMPARE(waits.at(0),
        QByteArray(
            "capwatch: waiting 5 s (provider asked 18 min; capped to 5 s) before attempt 2 of 3; "
            "7 s of the 12 s budget left"));
    QCOMPARE(waits.at(1),
        QByteArray(
            "capwatch: waiting 5 s (provider asked 18 min; capped to 5 s) before attempt 3 of 3; "
            "2 s of the 12 s budget left"));
    QCOMPARE(linesStarting(r.err, "capwatch: attempt 3 of 3 failed: 422").size(), 1);
    QVERIFY2(r.err.endsWith("  attempts: 3 of 3, waited 10.0 s of the 12 s budget; gave up: "
                            "attempts_exhausted\n"),
        r.err.constData());
}

void TestProfilesCli::zeroBudgetIsOneAttempt()
{
    Demo demo(u"headline"_s);
    QVERIFY(demo.ok);
    const Run r = runCli(demo.chat({ u"--budget"_s, u"0"_s }));
    QCOMPARE(r.exitCode, 3);
    QCOMPARE(demo.provider.chatRequests(), 1);
    QVERIFY(linesStarting(r.err, "capwatch: waiting").isEmpty());
    QCOMPARE(linesStarting(r.err, "capwatch: attempt 1 of ").size(), 1);
    QVERIFY2(r.err.contains("gave up: budget_exhausted\n"), r.err.constData());
}

void TestProfilesCli::badFlagValuesExitTwo_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("message");
    QTest::newRow("max-wait 900") << QStringList { u"--max-wait"_s, u"900"_s }
                                  << QByteArray("--max-wait: 900 is out of range 1-600");
    QTest::newRow("max-wait 0") << QStringList { u"--max-wait"_s, u"0"_s }
                                << QByteArray("--max-wait: 0 is out of range 1-600");
    QTest::newRow("budget 3601") << QStringList { u"--budget"_s, u"3601"_s }
                                 << QByteArray("--budget: 3601 is out of range 0-3600");
    QTest::newRow("budget -1") << QStringList { u"--budget"_s, u"-1"_s }
                               << QByteArray("--budget: -1 is out of range 0-3600");
    QTest::newRow("max-attempts 11") << QStringList { u"--max-attempts"_s, u"11"_s }
                                     << QByteArray("--max-attempts: 11 is out of range 1-10");
    QTest::newRow("max-attempts 2.5") << QStringList { u"--max-attempts"_s, u"2.5"_s }
                                      << QByteArray("--max-attempts: '2.5' is not a whole number");
    QTest::newRow("backoff-base abc") << QStringList { u"--backoff-base"_s, u"abc"_s }
                                      << QByteArray("--backoff-base: 'abc' is not a whole number");
    QTest::newRow("backoff-base 61") << QStringList { u"--backoff-base"_s, u"61"_s }
                                     << QByteArray("--backoff-base: 61 is out of range 1-60");
    QTest::newRow("fallback without profile")
        << QStringList { u"--fallback"_s }
        << QByteArray("--fallback sends to a profile's fallback: give --profile too");
}

void TestProfilesCli::badFlagValuesExitTwo()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, message);
    Demo demo(u"capped"_s);
    QVERIFY(demo.ok);
    const Run r = runCli(demo.chat(args));
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.startsWith(QByteArray("capwatch-cli chat: error: " + message + "\n")),
        r.err.constData());
    QVERIFY(r.out.isEmpty());
    QCOMPARE(demo.provider.chatRequests(), 0);
}

void TestProfilesCli::profileGivesEndpointAndLimits()
{
    Demo demo(u"headline"_s);
    QVERIFY(demo.ok);
    QTemporaryDir dir;
    const QString config = writeConfig(dir,
        "[profiles]\ndefault=free\n\n[profile.free]\nname=Free tier\nendpoint="
            + demo.url().toUtf8()
            + "\nmodel=llama-free\nkey=none\nmax_wait=5\nbudget=12\nmax_attempts=3\n");
    const Run r = runCli(chatWithProfile(config, u"Free tier"_s));
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.count("capwatch: warning") == 0, r.err.constData());
    QCOMPARE(demo.provider.chatRequests(), 3);
    QCOMPARE(linesStarting(r.err, "capwatch: waiting 5 s").size(), 2);
    QVERIFY(r.err.contains("  model: llama-free\n"));
    QVERIFY2(r.err.endsWith("waited 10.0 s of the 12 s budget; gave up: attempts_exhausted\n"),
        r.err.constData());
    QCOMPARE(demo.provider.recordedRequests().last().json().value(u"model"_s).toString(),
        u"llama-free"_s);
}

void TestProfilesCli::profileSendsItsHeaders()
{
    Demo demo(u"capped"_s);
    QVERIFY(demo.ok);
    QTemporaryDir dir;
    const QString config = writeConfig(dir,
        "[profile.free]\nname=Free\nendpoint=" + demo.url().toUtf8()
            + "\nkey=none\nheader.X-Title=capwatch test\n");
    const Run r = runCli(chatWithProfile(config, u"free"_s));
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(demo.provider.chatRequests(), 1);
    QCOMPARE(
        demo.provider.recordedRequests().last().header("X-Title"), QByteArray("capwatch test"));
}

void TestProfilesCli::flagsWinOverTheProfile()
{
    Demo demo(u"headline"_s);
    QVERIFY(demo.ok);
    QTemporaryDir dir;
    const QString config = writeConfig(dir,
        "[profile.free]\nname=Free\nendpoint=" + demo.url().toUtf8()
            + "\nkey=none\nmax_wait=5\nbudget=12\nmax_attempts=3\nmodel=from-profile\n");
    const Run r = runCli(chatWithProfile(
        config, u"free"_s, { u"--max-attempts"_s, u"2"_s, u"--model"_s, u"from-flag"_s }));
    QCOMPARE(r.exitCode, 3);
    QCOMPARE(demo.provider.chatRequests(), 2);
    QCOMPARE(linesStarting(r.err, "capwatch: waiting 5 s").size(), 1);
    QVERIFY(r.err.contains("before attempt 2 of 2; 7 s of the 12 s budget left"));
    QCOMPARE(demo.provider.recordedRequests().last().json().value(u"model"_s).toString(),
        u"from-flag"_s);
}

void TestProfilesCli::badProfileValueNamesFileLineKey()
{
    Demo demo(u"capped"_s);
    QVERIFY(demo.ok);
    QTemporaryDir dir;
    const QString config = writeConfig(dir,
        "[profiles]\n"
        "default=free\n"
        "\n"
        "[profile.free]\n"
        "name=Free\n"
        "endpoint="
            + demo.url().toUtf8()
            + "\n"
              "max_attempts=many\n");
    const Run r = runCli(chatWithProfile(config, u"free"_s));
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.startsWith(QByteArray("capwatch-cli chat: error: " + config.toUtf8()
                 + ":7: [profile.free] max_attempts: 'many' is not a whole number; the default "
                   "(5) is used\n")),
        r.err.constData());
    QCOMPARE(demo.provider.chatRequests(), 0);
    // Another profile of the same file is not stopped by it.
    const Run demoRun = runCli(chatWithProfile(config, u"demo"_s));
    QCOMPARE(demoRun.exitCode, 0);
}

void TestProfilesCli::mistypedKeySourceIsRefused()
{
    // `key=nnone`: the profile has an error, so chat --profile refuses it (exit 2) and sends
    // nothing, least of all the default variable's key; the value is never printed.
    Demo demo(u"capped"_s);
    QVERIFY(demo.ok);
    QTemporaryDir dir;
    const QString config = writeConfig(
        dir, "[profile.local]\nname=Local\nendpoint=" + demo.url().toUtf8() + "\nkey=nnone\n");
    const Run r = runCli(chatWithProfile(config, u"local"_s));
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.startsWith(QByteArray("capwatch-cli chat: error: " + config.toUtf8()
                 + ":4: [profile.local] key: not a key source (env:VARIABLE, file:PATH, "
                   "keychain or none; the value is not shown, in case it is a key): no key is "
                   "sent until it is fixed\n")),
        r.err.constData());
    QVERIFY(!r.err.contains("nnone"));
    QCOMPARE(demo.provider.chatRequests(), 0);
}

void TestProfilesCli::profileWarningsGoOn()
{
    Demo demo(u"capped"_s);
    QVERIFY(demo.ok);
    QTemporaryDir dir;
    const QString config = writeConfig(dir,
        "[profile.free]\nname=Free\nendpoint=" + demo.url().toUtf8()
            + "\nkey=none\nmax_wait=900\ncolour=blue\n");
    const Run r = runCli(chatWithProfile(config, u"free"_s));
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(linesStarting(r.err, "capwatch: warning: "),
        QList<QByteArray>({ "capwatch: warning: " + config.toUtf8()
                + ":6: [profile.free] colour: unknown key; ignored",
            "capwatch: warning: " + config.toUtf8()
                + ":5: [profile.free] max_wait: 600 s is the most; 900 was clamped to 600 s" }));
    QCOMPARE(demo.provider.chatRequests(), 1);
}

void TestProfilesCli::unknownProfileExitsTwo()
{
    QTemporaryDir dir;
    const QString config
        = writeConfig(dir, "[profile.free]\nname=Free\nendpoint=https://x.example/v1\n");
    const Run r = runCli(chatWithProfile(config, u"paid"_s));
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(
        r.err.startsWith(QByteArray("capwatch-cli chat: error: --profile: no profile 'paid' in "
            + config.toUtf8() + " (there are: demo, free)\n")),
        r.err.constData());
    const Run missing = runCli(chatWithProfile(dir.filePath(u"nope.conf"_s), u"demo"_s));
    QCOMPARE(missing.exitCode, 2);
    QVERIFY(missing.err.contains(
        QByteArray("--config: " + dir.filePath(u"nope.conf"_s).toUtf8() + ": no such file")));
    const Run none = runCli({ u"chat"_s, u"--prompt"_s, u"x"_s });
    QCOMPARE(none.exitCode, 2);
    QVERIFY(none.err.contains("--endpoint or --profile is required"));
}

void TestProfilesCli::demoProfileRunsInProcess()
{
    QTemporaryDir dir;
    const QString config = writeConfig(dir, "[profiles]\n[profile.demo]\nmax_attempts=2\n");
    const Run r = runCli(chatWithProfile(config, u"demo"_s));
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("capwatch demo provider"));
    QVERIFY2(r.err.contains("capwatch: answered on attempt 1 of 2"), r.err.constData());
}

void TestProfilesCli::fallbackAfterACappedSend()
{
    Demo first(u"headline"_s);
    Demo second(u"capped"_s);
    QVERIFY(first.ok && second.ok);
    QTemporaryDir dir;
    const QString config = writeConfig(dir,
        "[profiles]\norder=first, second\n"
        "[profile.first]\nname=First\nendpoint="
            + first.url().toUtf8()
            + "\nkey=env:FIRST_KEY\nbudget=0\nfallback=second\n"
              "[profile.second]\nname=Second\nendpoint="
            + second.url().toUtf8() + "\nkey=none\nmodel=second-model\n");
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"FIRST_KEY"_s, u"sk-first-profile-key"_s);
    const Run r = runCli(chatWithProfile(config, u"first"_s, { u"--fallback"_s }), env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(r.err.contains(
        "capwatch: fallback: sending to Second instead (First ended budget_exhausted)\n"));
    QVERIFY(r.err.contains("capwatch: answered on attempt 1 of 5"));
    QVERIFY(r.out.contains("capwatch demo provider"));
    QCOMPARE(first.provider.chatRequests(), 1);
    QCOMPARE(second.provider.chatRequests(), 1);
    // The first profile's key went to its own endpoint, never to the second's.
    QCOMPARE(
        first.provider.recordedRequests().last().header("Authorization"), QByteArray("Bearer ***"));
    for (const RecordedRequest &req : second.provider.recordedRequests())
        QVERIFY(req.header("Authorization").isNull());
    QCOMPARE(second.provider.recordedRequests().last().json().value(u"model"_s).toString(),
        u"second-model"_s);
}

void TestProfilesCli::withoutFallbackTheGiveUpStands()
{
    Demo first(u"headline"_s);
    Demo second(u"capped"_s);
    QVERIFY(first.ok && second.ok);
    QTemporaryDir dir;
    const QString config = writeConfig(dir,
        "[profile.first]\nname=First\nendpoint=" + first.url().toUtf8()
            + "\nkey=none\nbudget=0\nfallback=second\n"
              "[profile.second]\nname=Second\nendpoint="
            + second.url().toUtf8() + "\nkey=none\n");
    const Run r = runCli(chatWithProfile(config, u"first"_s));
    QCOMPARE(r.exitCode, 3);
    QVERIFY(!r.err.contains("capwatch: fallback"));
    QCOMPARE(second.provider.chatRequests(), 0);
    // A profile without a fallback refuses --fallback.
    const Run noFallback = runCli(chatWithProfile(config, u"second"_s, { u"--fallback"_s }));
    QCOMPARE(noFallback.exitCode, 2);
    QVERIFY(noFallback.err.contains("--fallback: profile 'second' names no fallback"));
}

void TestProfilesCli::plainHttpFallbackIsWarnedOf()
{
    // The fallback "LAN box" is plain HTTP to a host that is not this machine (TEST-NET-1), with
    // a key: the run warns at its start, naming the fallback's host (the capped profile is on
    // loopback: no warning of its own), and the capped send then goes there with its key. What
    // reaches that host is seen by a proxy here: capwatch-cli takes http_proxy from the
    // environment, and never sends a loopback request through it.
    Demo first(u"headline"_s);
    QVERIFY(first.ok);
    capwatch::testing::LoopbackServer proxy(capwatch::testing::httpResponse("200 OK",
        R"({"id":"lan-1","object":"chat.completion","model":"lan-model","choices":[{"index":0,)"
        R"("message":{"role":"assistant","content":"Answered on the LAN"},)"
        R"("finish_reason":"stop"}]})"));
    QVERIFY(proxy.listen());
    QTemporaryDir dir;
    const QString config = writeConfig(dir,
        "[profiles]\norder=first, lan\n"
        "[profile.first]\nname=First\nendpoint="
            + first.url().toUtf8()
            + "\nkey=none\nbudget=0\nfallback=lan\n"
              "[profile.lan]\nname=LAN box\nendpoint=http://192.0.2.10:8000/v1\n"
              "key=env:LAN_KEY\nmodel=lan-model\nstream=false\nmax_attempts=1\n");
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"LAN_KEY"_s, u"sk-lan-0123456789"_s);
    for (const QString &name : { u"http_proxy"_s, u"HTTP_PROXY"_s, u"no_proxy"_s, u"NO_PROXY"_s })
        env.remove(name);
    env.insert(u"http_proxy"_s, u"http://127.0.0.1:%1"_s.arg(proxy.port()));
    const Run r = runCli(chatWithProfile(config, u"first"_s, { u"--fallback"_s }), env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(linesStarting(r.err, "capwatch: warning:"),
        QList<QByteArray> { "capwatch: warning: the fallback's key goes to 192.0.2.10 over plain "
                            "HTTP, readable by anyone on the way" });
    QVERIFY2(r.err.startsWith("capwatch: warning: the fallback's key goes to 192.0.2.10 "),
        r.err.constData()); // at the start, before the send
    QVERIFY2(r.err.contains(
                 "capwatch: fallback: sending to LAN box instead (First ended budget_exhausted)\n"),
        r.err.constData());
    QVERIFY2(r.err.contains("capwatch: answered on attempt 1 of 1 by the fallback LAN box\n"),
        r.err.constData());
    QVERIFY2(r.out.startsWith("Answered on the LAN"), r.out.constData());
    QCOMPARE(first.provider.chatRequests(), 1);
    QCOMPARE(proxy.heads().size(), 1);
    const QByteArray differs = proxy.firstRequestDiffers(
        "http://192.0.2.10:8000/v1/chat/completions", "sk-lan-0123456789", "Hello there");
    QVERIFY2(differs.isEmpty(), differs.constData());
}

void TestProfilesCli::fallbacksSendIsNotParked()
{
    // --wait-for-reset and a capped send that went to the fallback, which ends capped too, told
    // "Retry in 18 min.": parked, it would go to the capped profile at the fallback's reset. It
    // is not parked, and the run says why; the capped send went to the fallback, so it is not
    // parked either.
    Demo first(u"headline"_s);
    Demo second(u"headline"_s);
    QVERIFY(first.ok && second.ok);
    QTemporaryDir dir;
    const QString log = dir.filePath(u"log.jsonl"_s);
    const QString config = writeConfig(dir,
        "[profiles]\norder=first, second\n"
        "[profile.first]\nname=First\nendpoint="
            + first.url().toUtf8()
            + "\nkey=none\nbudget=0\nfallback=second\n"
              "[profile.second]\nname=Second\nendpoint="
            + second.url().toUtf8() + "\nkey=none\nbudget=0\n");
    const Run r = runCli(chatWithProfile(
        config, u"first"_s, { u"--fallback"_s, u"--wait-for-reset"_s, u"--log"_s, log }));
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(
                 "capwatch: fallback: sending to Second instead (First ended budget_exhausted)\n"),
        r.err.constData());
    QVERIFY2(r.err.endsWith("gave up: budget_exhausted\n"
                            "capwatch: not parked: the send went to the fallback profile.\n"),
        r.err.constData());
    QVERIFY2(!r.err.contains("capwatch: parked"), r.err.constData());
    QCOMPARE(first.provider.chatRequests(), 1);
    QCOMPARE(second.provider.chatRequests(), 1);
    QFile file(log);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray records = file.readAll();
    QVERIFY2(records.contains("\"event\":\"fallback\""), records.constData());
    QVERIFY2(!records.contains("parked"), records.constData());
}

void TestProfilesCli::profilesListNeverPrintsAKey()
{
    QTemporaryDir dir;
    const QString config = writeConfig(dir,
        "[profiles]\ndefault=free-tier\norder=free-tier, paid\n"
        "[profile.free-tier]\nname=Free tier\nendpoint=https://user:pw@api.example.com/v1?k=1\n"
        "model=llama-3.1-70b\nkey=env:PROFILES_TEST_KEY\nmax_wait=5\nbudget=12\nmax_attempts=3\n"
        "fallback=paid\nfallback_auto=true\nheader.X-Title=capwatch\n"
        "[profile.paid]\nname=Paid\nendpoint=https://llm.example.org/v1\nmodel=gpt-x\n"
        "key=file:/home/u/paid.key\n");
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QByteArray secret = "sk-list-must-never-show-9f3a";
    env.insert(u"PROFILES_TEST_KEY"_s, QString::fromLatin1(secret));
    const Run r = runCli({ u"profiles"_s, u"list"_s, u"--config"_s, config }, env);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    QVERIFY(!r.out.contains(secret) && !r.err.contains(secret));
    QVERIFY(!r.out.contains("pw@"));
    const QList<QByteArray> lines = r.out.chopped(r.out.endsWith('\n') ? 1 : 0).split('\n');
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines.at(0),
        QByteArray("  demo  \"Demo\"  (built-in demo)  capwatch-demo  key none  max_wait 60 s "
                   "(default), budget 120 s (default), max_attempts 5 (default), backoff_base 5 s "
                   "(default), header_timeout 60 s (default), retry token_limit, rate_limit, "
                   "transient (default)  fallback none"));
    QCOMPARE(lines.at(1),
        QByteArray("* free-tier  \"Free tier\"  https://api.example.com/v1  llama-3.1-70b  key "
                   "env:PROFILES_TEST_KEY  max_wait 5 s, budget 12 s, max_attempts 3, "
                   "backoff_base 5 s (default), header_timeout 60 s (default), retry token_limit, "
                   "rate_limit, transient (default)  fallback paid (automatic)"));
    QVERIFY(lines.at(2).startsWith("  paid  \"Paid\"  https://llm.example.org/v1  gpt-x  key "
                                   "file:/home/u/paid.key  "));

    const Run j = runCli({ u"profiles"_s, u"list"_s, u"--config"_s, config, u"--json"_s }, env);
    QCOMPARE(j.exitCode, 0);
    QVERIFY(!j.out.contains(secret) && !j.err.contains(secret));
}

void TestProfilesCli::profilesListJson()
{
    QTemporaryDir dir;
    const QString config = writeConfig(dir,
        "[profiles]\ndefault=free\n[profile.free]\nname=Free\nendpoint=https://a.example/v1\n"
        "model=m\nkey=keychain\nbudget=0\nretry=rate_limit\nheader.X-Api-Token=secret-token\n"
        "models=m, n\ncontext_window=8192\n");
    const Run r = runCli({ u"profiles"_s, u"list"_s, u"--config"_s, config, u"--json"_s });
    QCOMPARE(r.exitCode, 0);
    QVERIFY(!r.out.contains("secret-token")); // header values are not listed, only names
    QJsonParseError error;
    const QJsonArray list = QJsonDocument::fromJson(r.out, &error).array();
    QCOMPARE(error.error, QJsonParseError::NoError);
    QCOMPARE(list.size(), 2);
    const QJsonObject demo = list.at(0).toObject();
    QCOMPARE(demo.value(u"id"_s).toString(), u"demo"_s);
    QVERIFY(demo.value(u"built_in"_s).toBool());
    QVERIFY(demo.value(u"endpoint"_s).isNull());
    QVERIFY(!demo.value(u"default"_s).toBool());
    const QJsonObject free = list.at(1).toObject();
    QCOMPARE(free.keys().size(), 20);
    QVERIFY(free.value(u"default"_s).toBool());
    QCOMPARE(free.value(u"endpoint"_s).toString(), u"https://a.example/v1"_s);
    QCOMPARE(free.value(u"key"_s).toString(), u"keychain"_s);
    QCOMPARE(free.value(u"budget_s"_s).toInt(), 0);
    QCOMPARE(free.value(u"max_wait_s"_s).toInt(), 60);
    QCOMPARE(free.value(u"max_attempts"_s).toInt(), 5);
    QCOMPARE(free.value(u"retry"_s).toArray(), QJsonArray({ u"rate_limit"_s }));
    QCOMPARE(free.value(u"overrides"_s).toArray(), QJsonArray({ u"budget"_s, u"retry"_s }));
    QCOMPARE(free.value(u"headers"_s).toArray(), QJsonArray({ u"X-Api-Token"_s }));
    QCOMPARE(free.value(u"models"_s).toArray(), QJsonArray({ u"m"_s, u"n"_s }));
    QCOMPARE(free.value(u"context_window"_s).toInt(), 8192);
    QVERIFY(free.value(u"fallback"_s).isNull());
}

void TestProfilesCli::profilesListReportsIssues()
{
    QTemporaryDir dir;
    const QString config = writeConfig(
        dir, "[profile.free]\nname=Free\nendpoint=https://a.example/v1\nmax_wait=nine\n");
    const Run r = runCli({ u"profiles"_s, u"list"_s, u"--config"_s, config });
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.err,
        "capwatch: error: " + config.toUtf8()
            + ":4: [profile.free] max_wait: 'nine' is not a whole number; the default (60 s) is "
              "used\n");
    QCOMPARE(r.out.count('\n'), 2); // listed all the same
    const Run bad = runCli({ u"profiles"_s, u"show"_s });
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains("capwatch-cli profiles: error: unknown subcommand 'show' (list)"));
}

void TestProfilesCli::helpAndManPageNameTheCommand()
{
    const Run help = runCli({ u"--help"_s });
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.contains("  profiles "));
    const Run man = runCli({ u"--man-page"_s });
    QCOMPARE(man.exitCode, 0);
    QVERIFY(man.out.contains("profiles list"));
    QVERIFY(man.out.contains("max\\-wait") || man.out.contains("max-wait"));
    const Run chatHelp = runCli({ u"chat"_s, u"--help"_s });
    QVERIFY(chatHelp.out.contains("--profile <NAME>"));
    QVERIFY(chatHelp.out.contains("--budget <S>"));
}

QTEST_GUILESS_MAIN(TestProfilesCli)
#include "tst_profilescli.moc"
