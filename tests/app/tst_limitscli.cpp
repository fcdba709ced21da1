// capwatch-cli chat and the profile's own limits, on the default paths (a fresh XDG_CONFIG_HOME
// with capwatch.conf, a fresh XDG_DATA_HOME): a spending limit the send's worst case would cross
// refuses it with exit 5 before any request reaches the provider (--ignore-spend-limit sends
// anyway), and a declared "2 requests a minute" holds the third of three quick sends, each
// from its own capwatch-cli process, until the minute has room, asserted at the provider.

#include "support/clirunner.h"
#include "support/demothread.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace capwatch;
using namespace capwatch::testing;
using namespace Qt::StringLiterals;

class TestLimitsCli final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void spendingLimitRefusesWithExitFiveBeforeAnyRequest();
    void declaredRequestsPerMinuteHoldTheThirdSend();
    void declaredDayFullRefusesUntilMidnight();
    void aRateRefusalHintsAtTheLimitItImplies();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    void writeConfig(const QByteArray &profileLines) const
    {
        QDir().mkpath(m_dir->filePath(u"config/capwatch"_s));
        QFile f(m_dir->filePath(u"config/capwatch/capwatch.conf"_s));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[profile.capped]\nname=Capped\nkey=none\n" + profileLines);
    }
    CliRun run(const QStringList &args) const
    {
        CliOptions options;
        options.environment = QProcessEnvironment::systemEnvironment();
        options.environment.insert(u"XDG_CONFIG_HOME"_s, m_dir->filePath(u"config"_s));
        options.environment.insert(u"XDG_DATA_HOME"_s, m_dir->filePath(u"data"_s));
        options.environment.remove(u"OPENAI_COMPAT_API_KEY"_s);
        return runCli(args, options);
    }
    static demo::DemoOptions roomyDemo()
    {
        demo::DemoOptions o;
        o.scenario = u"capped"_s;
        o.limit = 1'000'000; // the provider's own window never fills: only the profile's count
        return o;
    }
};

void TestLimitsCli::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestLimitsCli::spendingLimitRefusesWithExitFiveBeforeAnyRequest()
{
    DemoThread demo(roomyDemo());
    const QUrl url = demo.listen();
    QVERIFY(url.isValid());
    writeConfig("endpoint=" + url.toString().toUtf8() + "\nspend_tokens_day=500\n");

    // No max_tokens: the worst case counts the 1,000-token reserve, more than the 500 allowed.
    CliRun r = run({ u"chat"_s, u"--profile"_s, u"capped"_s, u"--prompt"_s, u"hi"_s });
    QCOMPARE(r.exitCode, 5);
    QVERIFY2(r.err.contains("capwatch: not sent: Tokens today: 0 of 500; this send may use up to"),
        r.err.constData());
    QVERIFY2(r.err.contains("(profile Capped); the limit resets at"), r.err.constData());
    QVERIFY(r.out.isEmpty());
    QCOMPARE(demo.chatArrivals().size(), 0); // nothing reached the provider

    // A send whose worst case fits goes, and is counted in the ledger.
    r = run({ u"chat"_s, u"--profile"_s, u"capped"_s, u"--max-tokens"_s, u"100"_s, u"--prompt"_s,
        u"hi"_s });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(demo.chatArrivals().size(), 1);

    // --ignore-spend-limit sends what the limit would refuse.
    r = run({ u"chat"_s, u"--profile"_s, u"capped"_s, u"--ignore-spend-limit"_s, u"--prompt"_s,
        u"hi"_s });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(demo.chatArrivals().size(), 2);

    // What those two used (counted from the ledger the first process wrote) is what the next
    // refusal names: more than 0 tokens today now.
    r = run({ u"chat"_s, u"--profile"_s, u"capped"_s, u"--prompt"_s, u"hi"_s });
    QCOMPARE(r.exitCode, 5);
    QVERIFY2(!r.err.contains("Tokens today: 0 of 500"), r.err.constData());
    QCOMPARE(demo.chatArrivals().size(), 2);
}

void TestLimitsCli::declaredRequestsPerMinuteHoldTheThirdSend()
{
    DemoThread demo(roomyDemo());
    const QUrl url = demo.listen();
    QVERIFY(url.isValid());
    writeConfig("endpoint=" + url.toString().toUtf8() + "\nprovider_rpm=2\n");
    // At a time scale of 0.05 the declared minute is 3 s on the wall clock.
    const QStringList send { u"chat"_s, u"--profile"_s, u"capped"_s, u"--time-scale"_s, u"0.05"_s,
        u"--max-tokens"_s, u"20"_s, u"--prompt"_s, u"hi"_s };
    for (int i = 0; i < 2; ++i) {
        const CliRun r = run(send);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(!r.err.contains("pacing"), r.err.constData());
    }
    const CliRun third = run(send);
    QVERIFY2(third.exitCode == 0, third.err.constData());
    QVERIFY2(third.err.contains("pacing: sending in"), third.err.constData());
    QVERIFY2(third.err.contains("Requests this minute: 2 of 2, the profile's declared limit"),
        third.err.constData());
    const QList<QDateTime> at = demo.chatArrivals();
    QCOMPARE(at.size(), 3);
    // The third reached the provider only once the first was a (scaled) minute old: 3 s, less
    // the time between the first's arrival and the end of its attempt, which the ledger counts.
    const qint64 gap = at.at(0).msecsTo(at.at(2));
    QVERIFY2(gap >= 2500, qPrintable(u"the third came %1 ms after the first"_s.arg(gap)));
}

void TestLimitsCli::declaredDayFullRefusesUntilMidnight()
{
    DemoThread demo(roomyDemo());
    const QUrl url = demo.listen();
    QVERIFY(url.isValid());
    writeConfig("endpoint=" + url.toString().toUtf8() + "\nprovider_rpd=1\n");
    const QStringList send { u"chat"_s, u"--profile"_s, u"capped"_s, u"--max-tokens"_s, u"20"_s,
        u"--prompt"_s, u"hi"_s };
    CliRun r = run(send);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = run(send);
    QCOMPARE(r.exitCode, 5);
    QVERIFY2(r.err.contains("not sent: Requests today: 1 of 1, resets at"), r.err.constData());
    QCOMPARE(demo.chatArrivals().size(), 1);
}

void TestLimitsCli::aRateRefusalHintsAtTheLimitItImplies()
{
    demo::DemoOptions o = roomyDemo();
    o.requestLimit = 1;
    DemoThread demo(o);
    const QUrl url = demo.listen();
    QVERIFY(url.isValid());
    writeConfig("endpoint=" + url.toString().toUtf8() + "\n");
    const QStringList send { u"chat"_s, u"--profile"_s, u"capped"_s, u"--time-scale"_s, u"0.02"_s,
        u"--no-pacing"_s, u"--max-tokens"_s, u"20"_s, u"--prompt"_s, u"hi"_s };
    CliRun r = run(send);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(!r.err.contains("hint"));
    r = run(send); // refused for the request window: answered later, or given up (exit 3)
    QVERIFY2(r.exitCode == 0 || r.exitCode == 3, r.err.constData());
    QVERIFY2(r.err.contains("capwatch: hint: the profile declares no limits; this refusal suggests "
                            "provider_rpm=1 in [profile.capped] of capwatch.conf"),
        r.err.constData());
}

QTEST_GUILESS_MAIN(TestLimitsCli)
#include "tst_limitscli.moc"
