// capwatch-cli usage: the usage ledger as `chat` writes it, one row per attempt, summed. Sends
// against the loopback demo provider: with its cost (OpenRouter's usage.cost) the totals are
// billed and equal what the provider reported; with a model the price table knows, estimated at
// the table's prices; a refused attempt counts with its category and its wait; --private leaves
// no row (no database at all).

#include "demo/wireformat.h"
#include "history/historystore.h"
#include "retry/pricetable.h"
#include "support/clirunner.h"
#include "support/demothread.h"
#include "support/scriptedledger.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace capwatch;
using namespace capwatch::testing;
using namespace Qt::StringLiterals;

class TestUsageCli final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void providerCostIsBilledAndSumsWhatItReported();
    void priceTableCostIsEstimated();
    void refusalsCountWithTheirWait();
    void privateLeavesNoRow();
    void groupsAndCsvShape();
    void insightsEqualTheUsageCommand();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"XDG_DATA_HOME"_s, m_dir->filePath(u"data"_s));
        env.insert(u"OPENAI_COMPAT_API_KEY"_s, u"sk-usage-test"_s);
        return env;
    }
    QString database() const { return m_dir->filePath(u"data/capwatch/history.sqlite"_s); }
    CliRun run(const QStringList &args) const
    {
        CliOptions options;
        options.environment = environment();
        return runCli(args, options);
    }
    QJsonObject usageJson(const QStringList &extra = {}) const
    {
        const CliRun r = run(QStringList { u"usage"_s, u"--format"_s, u"json"_s } + extra);
        if (r.exitCode != 0)
            qWarning("%s", r.err.constData());
        return QJsonDocument::fromJson(r.out).object();
    }
    /// What the provider reported of every answer, as the history stored it with the answer.
    std::pair<qint64, qint64> reportedTokens() const
    {
        history::HistoryStore store;
        store.open(database());
        qint64 prompt = 0;
        qint64 completion = 0;
        for (const history::Conversation &c : store.conversations(100).conversations)
            for (const history::Message &m : store.messages(c.id)) {
                prompt += m.promptTokens.value_or(0);
                completion += m.completionTokens.value_or(0);
            }
        return { prompt, completion };
    }
};

void TestUsageCli::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestUsageCli::providerCostIsBilledAndSumsWhatItReported()
{
    demo::DemoOptions o;
    o.scenario = u"capped"_s;
    o.limit = 1'000'000;
    o.costPerMillionTokens = 2.5;
    DemoThread demo(o);
    const QUrl url = demo.listen();
    QVERIFY(url.isValid());
    for (int i = 1; i <= 10; ++i) {
        const CliRun r = run({ u"chat"_s, u"--endpoint"_s, url.toString(), u"--prompt"_s,
            u"Send number %1 of ten"_s.arg(i) });
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }
    const auto [prompt, completion] = reportedTokens();
    QVERIFY(prompt > 0 && completion > 0);

    const QJsonObject total = usageJson().value(u"total"_s).toObject();
    QCOMPARE(total.value(u"sends"_s).toInteger(), 10);
    QCOMPARE(total.value(u"attempts"_s).toInteger(), 10);
    QCOMPARE(total.value(u"prompt_tokens"_s).toInteger(), prompt);
    QCOMPARE(total.value(u"completion_tokens"_s).toInteger(), completion);
    QCOMPARE(total.value(u"estimated_rows"_s).toInteger(), 0);
    QCOMPARE(total.value(u"cost_estimated"_s).toDouble(), 0.0);
    QCOMPARE(total.value(u"unpriced_attempts"_s).toInteger(), 0);
    // Billed: the provider's figure of each answer, summed in the order they came.
    double billed = 0;
    history::HistoryStore store;
    store.open(database());
    store.forEachUsage({}, {}, [&billed](const history::UsageRecord &u) {
        if (u.costSource == history::CostSource::Provider)
            billed += demo::wire::costOf(*u.promptTokens, *u.completionTokens, 2.5);
        return true;
    });
    QCOMPARE(total.value(u"cost_billed"_s).toDouble(), billed);
    QVERIFY(billed > 0);
}

void TestUsageCli::priceTableCostIsEstimated()
{
    demo::DemoOptions o;
    o.scenario = u"capped"_s;
    o.limit = 1'000'000;
    DemoThread demo(o);
    const QUrl url = demo.listen();
    QVERIFY(url.isValid());
    for (int i = 1; i <= 3; ++i) {
        const CliRun r = run({ u"chat"_s, u"--endpoint"_s, url.toString(), u"--model"_s,
            u"gpt-4o-mini"_s, u"--prompt"_s, u"Priced send %1"_s.arg(i) });
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }
    const std::optional<retry::Price> price = retry::builtinPrices().find("gpt-4o-mini");
    QVERIFY(price);
    double expected = 0;
    history::HistoryStore store;
    store.open(database());
    QList<history::UsageRecord> rows;
    store.forEachUsage({}, {}, [&rows](const history::UsageRecord &u) {
        rows.append(u);
        return true;
    });
    QCOMPARE(rows.size(), 3);
    for (const history::UsageRecord &u : rows) {
        QCOMPARE(u.costSource, history::CostSource::PriceTable);
        QVERIFY(!u.estimated);
        const retry::Cost c = retry::costOf(
            *price, { *u.promptTokens, *u.completionTokens, u.cachedTokens.value_or(0) });
        QCOMPARE(*u.cost, c.amount);
        expected += c.amount;
    }
    const QJsonObject total = usageJson().value(u"total"_s).toObject();
    QCOMPARE(total.value(u"attempts"_s).toInteger(), 3);
    QCOMPARE(total.value(u"cost_billed"_s).toDouble(), 0.0);
    QCOMPARE(total.value(u"cost_estimated"_s).toDouble(), expected);
    QCOMPARE(total.value(u"currency"_s).toString(), QString::fromStdString(price->currency));
}

void TestUsageCli::refusalsCountWithTheirWait()
{
    // capped with a small cap: the headline 422s first, then the answer.
    demo::DemoOptions o;
    o.scenario = u"capped"_s;
    o.headlineFirst = 2;
    o.timeScale = 0.01;
    DemoThread demo(o);
    const QUrl url = demo.listen();
    QVERIFY(url.isValid());
    const CliRun r = run({ u"chat"_s, u"--endpoint"_s, url.toString(), u"--time-scale"_s, u"0.01"_s,
        u"--prompt"_s, u"Refused twice"_s });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject total = usageJson().value(u"total"_s).toObject();
    QCOMPARE(total.value(u"sends"_s).toInteger(), 1);
    QCOMPARE(total.value(u"attempts"_s).toInteger(), 3);
    QCOMPARE(total.value(u"refusals"_s).toObject().value(u"token_limit"_s).toInteger(), 2);
    QCOMPARE(total.value(u"estimated_rows"_s).toInteger(), 2);
    QVERIFY(total.value(u"waited_s"_s).toDouble() > 0);
    // Where the two waits came from ("Retry in 18 min": the message), stored with the attempt
    // that waited; and the send answered after its refusals.
    const QJsonObject sources = total.value(u"wait_sources"_s).toObject();
    QCOMPARE(sources.keys(), QStringList { u"message"_s });
    QCOMPARE(sources.value(u"message"_s).toObject().value(u"waits"_s).toInteger(), 2);
    QCOMPARE(sources.value(u"message"_s).toObject().value(u"waited_s"_s).toDouble(),
        total.value(u"waited_s"_s).toDouble());
    const QJsonObject outcomes = total.value(u"outcomes"_s).toObject();
    QCOMPARE(outcomes.value(u"after_retries"_s).toInteger(), 1);
    QCOMPARE(outcomes.value(u"first_time"_s).toInteger(), 0);
}

void TestUsageCli::privateLeavesNoRow()
{
    demo::DemoOptions o;
    o.scenario = u"capped"_s;
    DemoThread demo(o);
    const QUrl url = demo.listen();
    QVERIFY(url.isValid());
    const CliRun r = run({ u"chat"_s, u"--private"_s, u"--endpoint"_s, url.toString(),
        u"--prompt"_s, u"Nothing kept"_s });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(!QFile::exists(database()));
    const QJsonObject total = usageJson().value(u"total"_s).toObject();
    QCOMPARE(total.value(u"attempts"_s).toInteger(), 0);
    QVERIFY(!QFile::exists(database())); // usage only reads
}

void TestUsageCli::groupsAndCsvShape()
{
    demo::DemoOptions o;
    o.scenario = u"capped"_s;
    o.limit = 1'000'000;
    DemoThread demo(o);
    const QUrl url = demo.listen();
    QVERIFY(url.isValid());
    for (const QString &model : { u"gpt-4o-mini"_s, u"capwatch-demo"_s }) {
        const CliRun r = run({ u"chat"_s, u"--endpoint"_s, url.toString(), u"--model"_s, model,
            u"--prompt"_s, u"Grouped"_s });
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }
    const QJsonArray groups = usageJson({ u"--by"_s, u"model"_s }).value(u"groups"_s).toArray();
    QCOMPARE(groups.size(), 2);
    QCOMPARE(groups.at(0).toObject().value(u"group"_s).toString(), u"capwatch-demo"_s);
    QCOMPARE(groups.at(1).toObject().value(u"group"_s).toString(), u"gpt-4o-mini"_s);
    const CliRun csv = run({ u"usage"_s, u"--by"_s, u"model"_s, u"--format"_s, u"csv"_s });
    QCOMPARE(csv.exitCode, 0);
    const QList<QByteArray> lines = csv.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 4); // header, two models, total
    QVERIFY(lines.at(0).startsWith("model,sends,attempts,prompt_tokens,completion_tokens,"));
    QVERIFY(lines.at(3).startsWith("total,2,2,"));
    const CliRun bad = run({ u"usage"_s, u"--by"_s, u"week"_s });
    QCOMPARE(bad.exitCode, 2);
}

void TestUsageCli::insightsEqualTheUsageCommand()
{
    // A history filled by a script: three days, two profiles and two models, answers billed and
    // priced, refusals with their waits, a park, a send that ran past midnight and fell back to
    // another profile and model; the insights' sums (what every chart draws) equal capwatch-cli
    // usage over the same span, by day and by profile, each send counted once by its first
    // attempt in both.
    QDir().mkpath(QFileInfo(database()).absolutePath());
    const QDate first = QDate::currentDate().addDays(-3);
    {
        history::HistoryStore store;
        QVERIFY(store.open(database()).persistent());
        QVERIFY(ScriptedLedger(store, first).write());
    }
    const QString since = first.toString(Qt::ISODate);
    const QString until = first.addDays(2).toString(Qt::ISODate);
    const QJsonObject byDay = usageJson({ u"--since"_s, since, u"--until"_s, until });
    history::HistoryStore store;
    QVERIFY(store.open(database()).persistent());
    history::InsightsQuery q;
    q.from = first;
    q.to = first.addDays(2); // --until DATE takes that whole day
    const history::Insights all = store.insights(q);

    // Day by day: attempts, tokens, costs and the time lost, as the charts draw them.
    QMap<QString, history::InsightsDay> sums;
    for (const history::InsightsDay &d : all.days) {
        history::InsightsDay &s = sums[d.day.toString(Qt::ISODate)];
        s.attempts += d.attempts;
        s.promptTokens += d.promptTokens;
        s.completionTokens += d.completionTokens;
        s.billed += d.billed;
        s.estimated += d.estimated;
        s.waitedMs += d.waitedMs;
        s.pacedMs += d.pacedMs;
        s.parkedMs += d.parkedMs;
    }
    const QJsonArray groups = byDay.value(u"groups"_s).toArray();
    QCOMPARE(groups.size(), 3);
    QCOMPARE(sums.size(), 3);
    for (const QJsonValue &v : groups) {
        const QJsonObject g = v.toObject();
        const QString day = g.value(u"group"_s).toString();
        QVERIFY2(sums.contains(day), qPrintable(day));
        const history::InsightsDay &s = sums.value(day);
        QCOMPARE(g.value(u"attempts"_s).toInteger(), s.attempts);
        QCOMPARE(g.value(u"prompt_tokens"_s).toInteger(), s.promptTokens);
        QCOMPARE(g.value(u"completion_tokens"_s).toInteger(), s.completionTokens);
        QCOMPARE(g.value(u"cost_billed"_s).toDouble(), s.billed);
        QCOMPARE(g.value(u"cost_estimated"_s).toDouble(), s.estimated);
        QCOMPARE(g.value(u"waited_s"_s).toDouble(), double(s.waitedMs) / 1000.0);
        QCOMPARE(g.value(u"paced_s"_s).toDouble(), double(s.pacedMs) / 1000.0);
        QCOMPARE(g.value(u"parked_s"_s).toDouble(), double(s.parkedMs) / 1000.0);
    }
    // The refusals, where the waits came from, and how the sends ended.
    const QJsonObject total = byDay.value(u"total"_s).toObject();
    const QJsonObject refusals = total.value(u"refusals"_s).toObject();
    QCOMPARE(qsizetype(refusals.size()), all.refusals.size());
    for (auto it = all.refusals.cbegin(); it != all.refusals.cend(); ++it)
        QCOMPARE(refusals.value(it.key()).toInteger(), it.value());
    QCOMPARE(all.refusals.value(u"token_limit"_s), 5);
    const QJsonObject sources = total.value(u"wait_sources"_s).toObject();
    QCOMPARE(qsizetype(sources.size()), all.waitSources.size());
    for (auto it = all.waitSources.cbegin(); it != all.waitSources.cend(); ++it) {
        const QJsonObject s = sources.value(it.key()).toObject();
        QCOMPARE(s.value(u"waits"_s).toInteger(), it.value().first);
        QCOMPARE(s.value(u"waited_s"_s).toDouble(), double(it.value().second) / 1000.0);
    }
    const QJsonObject outcomes = total.value(u"outcomes"_s).toObject();
    QCOMPARE(outcomes.value(u"first_time"_s).toInteger(), all.firstTime);
    QCOMPARE(outcomes.value(u"after_retries"_s).toInteger(), all.afterRetries);
    QCOMPARE(outcomes.value(u"parked_then_answered"_s).toInteger(), all.parkedThenAnswered);
    QCOMPARE(outcomes.value(u"not_answered"_s).toInteger(), all.notAnswered);
    QCOMPARE(all.firstTime, 2);
    QCOMPARE(all.afterRetries, 3);
    QCOMPARE(all.parkedThenAnswered, 1);
    QCOMPARE(all.notAnswered, 1);
    QCOMPARE(total.value(u"sends"_s).toInteger(), 7);

    // Day by day and profile by profile, each send once, on the day and under the profile of its
    // first attempt: the one that ran past midnight on the second day, under Free.
    const auto outcomesOf = [](const QJsonObject &group) {
        const QJsonObject o = group.value(u"outcomes"_s).toObject();
        return QList<qint64> { o.value(u"first_time"_s).toInteger(),
            o.value(u"after_retries"_s).toInteger(), o.value(u"parked_then_answered"_s).toInteger(),
            o.value(u"not_answered"_s).toInteger(), group.value(u"sends"_s).toInteger() };
    };
    const auto insightsOutcomes = [](const history::Insights &i) {
        return QList<qint64> { i.firstTime, i.afterRetries, i.parkedThenAnswered, i.notAnswered,
            i.firstTime + i.afterRetries + i.parkedThenAnswered + i.notAnswered };
    };
    for (const QJsonValue &v : groups) {
        const QDate day = QDate::fromString(v.toObject().value(u"group"_s).toString(), Qt::ISODate);
        history::InsightsQuery one = q;
        one.from = day;
        one.to = day;
        QCOMPARE(outcomesOf(v.toObject()), insightsOutcomes(store.insights(one)));
    }
    QCOMPARE(outcomesOf(groups.at(1).toObject()), (QList<qint64> { 0, 1, 1, 1, 3 }));
    QCOMPARE(outcomesOf(groups.at(2).toObject()), (QList<qint64> { 1, 1, 0, 0, 2 }));

    // A span that ends before the answer still counts how the send ended; one that begins after
    // its first attempt does not count it.
    const QString second = first.addDays(1).toString(Qt::ISODate);
    const QJsonObject secondDay
        = usageJson({ u"--since"_s, second, u"--until"_s, second }).value(u"total"_s).toObject();
    history::InsightsQuery secondOnly = q;
    secondOnly.from = first.addDays(1);
    secondOnly.to = first.addDays(1);
    QCOMPARE(outcomesOf(secondDay), insightsOutcomes(store.insights(secondOnly)));
    QCOMPARE(outcomesOf(secondDay), (QList<qint64> { 0, 1, 1, 1, 3 }));
    const QString third = first.addDays(2).toString(Qt::ISODate);
    const QJsonObject thirdDay
        = usageJson({ u"--since"_s, third, u"--until"_s, third }).value(u"total"_s).toObject();
    history::InsightsQuery thirdOnly = q;
    thirdOnly.from = first.addDays(2);
    thirdOnly.to = first.addDays(2);
    QCOMPARE(outcomesOf(thirdDay), insightsOutcomes(store.insights(thirdOnly)));
    QCOMPARE(outcomesOf(thirdDay), (QList<qint64> { 1, 1, 0, 0, 2 }));
    QCOMPARE(thirdDay.value(u"attempts"_s).toInteger(), 4); // the fallback's answer among them

    // One profile's insights are its group of --by profile.
    const QJsonObject byProfile
        = usageJson({ u"--since"_s, since, u"--until"_s, until, u"--by"_s, u"profile"_s });
    for (const QJsonValue &v : byProfile.value(u"groups"_s).toArray()) {
        const QJsonObject g = v.toObject();
        history::InsightsQuery one = q;
        one.profile = g.value(u"group"_s).toString();
        qint64 attempts = 0;
        double billed = 0;
        for (const history::InsightsDay &d : store.insights(one).days) {
            attempts += d.attempts;
            billed += d.billed;
        }
        QCOMPARE(g.value(u"attempts"_s).toInteger(), attempts);
        QCOMPARE(g.value(u"cost_billed"_s).toDouble(), billed);
        QCOMPARE(outcomesOf(g), insightsOutcomes(store.insights(one)));
    }
    QCOMPARE(byProfile.value(u"groups"_s).toArray().size(), 2);
    QCOMPARE(outcomesOf(byProfile.value(u"groups"_s).toArray().at(0).toObject()),
        (QList<qint64> { 1, 2, 0, 1, 4 })); // Free: the send that fell back to Work among them
}

QTEST_GUILESS_MAIN(TestUsageCli)
#include "tst_usagecli.moc"
