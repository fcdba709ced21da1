// The Insights view (issue 31, docs/insights.md) on a history filled by a script: several
// profiles, models and days, billed and priced answers, refusals with their waits, a park. Every
// chart's numbers equal capwatch-cli usage over the same range (run as a user runs it, on the
// same database); the ranges pick their days; the charts module draws the tables, hides a series
// from its legend and shows a value on hover; the exports write what the table holds; without
// the module the tables stay. The gauges project a spending limit from the ledger's rate.

#include "history/historystore.h"
#include "history/historywriter.h"
#include "session/profiles.h"
#include "session/providermemory.h"
#include "session/usagetally.h"
#include "support/clirunner.h"
#include "support/darkpalette.h"
#include "support/demowindow.h"
#include "support/scriptedledger.h"
#include "ui/insights/chartsmodule.h"
#include "ui/insights/insightscard.h"
#include "ui/insights/insightswindow.h"
#include "ui/insights/spendgauges.h"

#include <QAbstractAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLegend>
#include <QLegendMarker>
#include <QLocale>
#include <QSignalSpy>
#include <QStackedBarSeries>
#include <QTemporaryDir>
#include <QTest>
#include <QTextLayout>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <numeric>

using namespace capwatch;
using namespace capwatch::testing;
using namespace Qt::StringLiterals;

namespace {

/// The values a chart draws, by series name: each bar set's values.
QMap<QString, QList<double>> drawn(QWidget *chart)
{
    QMap<QString, QList<double>> out;
    auto *view = qobject_cast<QChartView *>(chart);
    if (!view)
        return out;
    for (QAbstractSeries *s : view->chart()->series()) {
        if (auto *bars = qobject_cast<QAbstractBarSeries *>(s)) {
            for (QBarSet *set : bars->barSets()) {
                QList<double> values;
                for (int i = 0; i < set->count(); ++i)
                    values.append(set->at(i));
                out.insert(set->label(), values);
            }
        }
    }
    return out;
}

double sum(const QList<double> &values)
{
    return std::accumulate(values.cbegin(), values.cend(), 0.0);
}

double rowSum(const ui::InsightsTable &t, int row)
{
    double sum = 0;
    for (int s = 0; s < t.series.size(); ++s)
        sum += t.value(row, s);
    return sum;
}

} // namespace

class TestInsightsWindow final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void chartsEqualTheUsageCommand();
    void filtersEqualTheUsageGroups();
    void rangesPickTheirDays();
    void chartsDrawTheTablesHideASeriesAndHover();
    void exportsWriteWhatTheTableHolds();
    void gaugesProjectTheLimitFromTheRate();
    void withoutTheModuleTheTablesStay();
    void theWindowOpensItAndItFollowsTheSends();
    void splitPaletteAndAPendingAskRedrawTheCards();
    void aNarrowPagePutsTheFilterBelowTheRange();
    void aChineseAxisTitleIsDrawnWhole();

private:
    QJsonObject usage(const QStringList &args) const
    {
        CliOptions options;
        options.environment.insert(u"XDG_DATA_HOME"_s, m_dir.filePath(u"data"_s));
        const CliRun r = runCli(
            QStringList { u"usage"_s, u"--format"_s, u"json"_s, u"--database"_s, database() }
                + args,
            options);
        if (r.exitCode != 0)
            qWarning("%s", r.err.constData());
        return QJsonDocument::fromJson(r.out).object();
    }
    QString database() const { return m_dir.filePath(u"data/capwatch/history.sqlite"_s); }
    /// A window on the filled history, loaded with `range` or the dates.
    std::unique_ptr<ui::InsightsWindow> open(
        ui::InsightsWindow::Range range, QDate from = {}, QDate to = {})
    {
        auto w = std::make_unique<ui::InsightsWindow>(
            m_writer.get(), &m_tally, [] { return session::ProfileSet(); });
        QSignalSpy loaded(w.get(), &ui::InsightsWindow::loaded);
        if (QTest::qWaitFor([&] { return loaded.size() > 0; }, 10000))
            loaded.clear();
        if (range == ui::InsightsWindow::Range::Dates)
            w->setDates(from, to);
        else
            w->setRange(range);
        if (!QTest::qWaitFor([&] { return loaded.size() > 0; }, 10000))
            return nullptr;
        return w;
    }

    QTemporaryDir m_dir;
    QDate m_first; ///< the first of the three days of the script
    std::unique_ptr<history::HistoryWriter> m_writer;
    session::UsageTally m_tally;
};

void TestInsightsWindow::initTestCase()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QVERIFY(m_dir.isValid());
    QDir().mkpath(QFileInfo(database()).absolutePath());
    m_first = QDate::currentDate().addDays(-3);
    {
        history::HistoryStore store;
        QVERIFY(store.open(database()).persistent());
        // The script tst_usagecli holds the insights to, and two sends of this test's own: one
        // long ago (only "All" reaches it) and a parked one on the third day.
        ScriptedLedger ledger(store, m_first);
        QVERIFY(ledger.write());
        using CS = history::CostSource;
        QVERIFY(ledger.send(-20, u"Work"_s, u"gpt-4o"_s, { 200 }, false, 0.5, CS::Provider));
        QVERIFY(ledger.send(2, u"Night"_s, u"claude"_s, { 422, 200 }, true, 0.01, CS::PriceTable));
    }
    m_writer = std::make_unique<history::HistoryWriter>();
    QSignalSpy opened(m_writer.get(), &history::HistoryWriter::opened);
    m_writer->open(database());
    QVERIFY(opened.wait(10000));
}

void TestInsightsWindow::chartsEqualTheUsageCommand()
{
    const QDate last = m_first.addDays(2);
    const auto w = open(ui::InsightsWindow::Range::Dates, m_first, last);
    QVERIFY(w);
    QCOMPARE(w->from(), m_first);
    QCOMPARE(w->to(), last);
    const QJsonObject cli = usage(
        { u"--since"_s, m_first.toString(Qt::ISODate), u"--until"_s, last.toString(Qt::ISODate) });
    const QJsonArray groups = cli.value(u"groups"_s).toArray();
    QCOMPARE(groups.size(), 3);

    const ui::InsightsTable &tokens = w->card(u"tokens"_s)->model()->table();
    const ui::InsightsTable &cost = w->card(u"cost"_s)->model()->table();
    const ui::InsightsTable &lost = w->card(u"time-lost"_s)->model()->table();
    QCOMPARE(tokens.rows.size(), 3); // a row a day of the range
    for (const QJsonValue &v : groups) {
        const QJsonObject g = v.toObject();
        const int row = int(tokens.rowKeys.indexOf(g.value(u"group"_s).toString()));
        QVERIFY2(row >= 0, qPrintable(g.value(u"group"_s).toString()));
        QCOMPARE(rowSum(tokens, row),
            double(g.value(u"prompt_tokens"_s).toInteger()
                + g.value(u"completion_tokens"_s).toInteger()));
        QCOMPARE(cost.rowKeys.at(row), g.value(u"group"_s).toString());
        QCOMPARE(cost.value(row, 0), g.value(u"cost_billed"_s).toDouble());
        QCOMPARE(cost.value(row, 1), g.value(u"cost_estimated"_s).toDouble());
        // Minutes in the chart, seconds on the command line.
        QCOMPARE(qRound64(lost.value(row, 0) * 60'000),
            qRound64(g.value(u"waited_s"_s).toDouble() * 1000));
        QCOMPARE(qRound64(lost.value(row, 1) * 60'000),
            qRound64(g.value(u"paced_s"_s).toDouble() * 1000));
        QCOMPARE(qRound64(lost.value(row, 2) * 60'000),
            qRound64(g.value(u"parked_s"_s).toDouble() * 1000));
    }

    const QJsonObject total = cli.value(u"total"_s).toObject();
    const ui::InsightsTable &refusals = w->card(u"refusals"_s)->model()->table();
    const QJsonObject byCategory = total.value(u"refusals"_s).toObject();
    QCOMPARE(refusals.rowKeys.size(), qsizetype(byCategory.size()));
    for (int row = 0; row < refusals.rowKeys.size(); ++row)
        QCOMPARE(
            refusals.value(row, 0), double(byCategory.value(refusals.rowKeys.at(row)).toInteger()));
    QCOMPARE(refusals.value(int(refusals.rowKeys.indexOf(u"token_limit"_s)), 0), 6.0);

    const ui::InsightsTable &sources = w->card(u"wait-sources"_s)->model()->table();
    const QJsonObject bySource = total.value(u"wait_sources"_s).toObject();
    QCOMPARE(sources.rowKeys.size(), qsizetype(bySource.size()));
    for (int row = 0; row < sources.rowKeys.size(); ++row) {
        const QJsonObject s = bySource.value(sources.rowKeys.at(row)).toObject();
        QCOMPARE(qRound64(sources.value(row, 0) * 60'000),
            qRound64(s.value(u"waited_s"_s).toDouble() * 1000));
        QCOMPARE(sources.value(row, 1), double(s.value(u"waits"_s).toInteger()));
    }

    const ui::InsightsTable &outcomes = w->card(u"outcomes"_s)->model()->table();
    const QJsonObject byOutcome = total.value(u"outcomes"_s).toObject();
    for (const QString &key :
        { u"first_time"_s, u"after_retries"_s, u"parked_then_answered"_s, u"not_answered"_s })
        QCOMPARE(outcomes.value(int(outcomes.rowKeys.indexOf(key)), 0),
            double(byOutcome.value(key).toInteger()));
    QCOMPARE(outcomes.value(int(outcomes.rowKeys.indexOf(u"parked_then_answered"_s)), 0), 2.0);

    // Time lost by profile: the same minutes, by the --by profile groups.
    const ui::InsightsTable &byProfile = w->card(u"time-lost-by-profile"_s)->model()->table();
    const QJsonArray profiles = usage({ u"--since"_s, m_first.toString(Qt::ISODate), u"--until"_s,
                                          last.toString(Qt::ISODate), u"--by"_s, u"profile"_s })
                                    .value(u"groups"_s)
                                    .toArray();
    QCOMPARE(byProfile.rows.size(), profiles.size());
    for (const QJsonValue &v : profiles) {
        const QJsonObject g = v.toObject();
        const int row = int(byProfile.rowKeys.indexOf(g.value(u"group"_s).toString()));
        QVERIFY(row >= 0);
        QCOMPARE(qRound64(rowSum(byProfile, row) * 60'000),
            qRound64((g.value(u"waited_s"_s).toDouble() + g.value(u"paced_s"_s).toDouble()
                         + g.value(u"parked_s"_s).toDouble())
                * 1000));
    }
    QVERIFY2(w->summaryText().contains(u"Sends: 8"_s), qPrintable(w->summaryText()));
}

void TestInsightsWindow::filtersEqualTheUsageGroups()
{
    const QDate last = m_first.addDays(2);
    const auto w = open(ui::InsightsWindow::Range::Dates, m_first, last);
    QVERIFY(w);
    const QStringList range
        = { u"--since"_s, m_first.toString(Qt::ISODate), u"--until"_s, last.toString(Qt::ISODate) };
    for (const QString &by : { u"profile"_s, u"model"_s }) {
        const QJsonArray groups
            = usage(range + QStringList { u"--by"_s, by }).value(u"groups"_s).toArray();
        QVERIFY(groups.size() >= 3);
        for (const QJsonValue &v : groups) {
            const QJsonObject g = v.toObject();
            const QString name = g.value(u"group"_s).toString();
            QSignalSpy loaded(w.get(), &ui::InsightsWindow::loaded);
            w->setFilter(
                by == u"profile"_s ? name : QString(), by == u"model"_s ? name : QString());
            QVERIFY(loaded.wait(10000));
            const ui::InsightsTable &tokens = w->card(u"tokens"_s)->model()->table();
            const ui::InsightsTable &cost = w->card(u"cost"_s)->model()->table();
            double sum = 0;
            double billed = 0;
            for (int row = 0; row < tokens.rows.size(); ++row) {
                sum += rowSum(tokens, row);
                billed += cost.value(row, 0);
            }
            QCOMPARE(sum,
                double(g.value(u"prompt_tokens"_s).toInteger()
                    + g.value(u"completion_tokens"_s).toInteger()));
            QCOMPARE(billed, g.value(u"cost_billed"_s).toDouble());
        }
    }
    // The filters offer what the ledger holds, whatever is chosen.
    QVERIFY(w->insights().profiles.contains(u"Night"_s));
    QVERIFY(w->insights().models.contains(u"gpt-4o"_s));
}

void TestInsightsWindow::rangesPickTheirDays()
{
    const auto today = open(ui::InsightsWindow::Range::Today);
    QVERIFY(today);
    QCOMPARE(today->card(u"tokens"_s)->model()->table().rows.size(), 1);
    QVERIFY(today->card(u"tokens"_s)->model()->table().isEmpty()); // nothing sent today
    QVERIFY(today->summaryText().startsWith(u"Nothing was sent"_s));

    const auto week = open(ui::InsightsWindow::Range::Week);
    QVERIFY(week);
    const ui::InsightsTable &w7 = week->card(u"tokens"_s)->model()->table();
    QCOMPARE(w7.rows.size(), 7);
    QCOMPARE(w7.rowKeys.last(), QDate::currentDate().toString(Qt::ISODate));
    QVERIFY(!w7.isEmpty());

    // All: from the ledger's first day, 23 days ago, a row a day.
    const auto all = open(ui::InsightsWindow::Range::All);
    QVERIFY(all);
    QCOMPARE(all->from(), m_first.addDays(-20));
    const ui::InsightsTable &everything = all->card(u"tokens"_s)->model()->table();
    QCOMPARE(everything.rows.size(), 24);
    double tokensAll = 0;
    for (int row = 0; row < everything.rows.size(); ++row)
        tokensAll += rowSum(everything, row);
    const QJsonObject total = usage({ u"--since"_s, m_first.addDays(-20).toString(Qt::ISODate) })
                                  .value(u"total"_s)
                                  .toObject();
    QCOMPARE(tokensAll,
        double(total.value(u"prompt_tokens"_s).toInteger()
            + total.value(u"completion_tokens"_s).toInteger()));

    // 90 days: by week (a bar stays wider than a line).
    const auto quarter = open(ui::InsightsWindow::Range::Quarter);
    QVERIFY(quarter);
    const ui::InsightsTable &weeks = quarter->card(u"tokens"_s)->model()->table();
    QCOMPARE(weeks.rowKind, u"week"_s);
    QVERIFY(weeks.rows.size() >= 13 && weeks.rows.size() <= 14);
    // The first row starts with the range (its part of that week), the others on Mondays.
    QCOMPARE(weeks.rowKeys.first(), quarter->from().toString(Qt::ISODate));
    QCOMPARE(QDate::fromString(weeks.rowKeys.at(1), Qt::ISODate).dayOfWeek(), 1);
    double tokensQuarter = 0;
    for (int row = 0; row < weeks.rows.size(); ++row)
        tokensQuarter += rowSum(weeks, row);
    QCOMPARE(tokensQuarter, tokensAll);
}

void TestInsightsWindow::chartsDrawTheTablesHideASeriesAndHover()
{
    ui::ChartsModule *module = ui::ChartsModule::instance();
    module->load();
    QVERIFY(QTest::qWaitFor([module] { return module->isDone(); }, 20000));
    QVERIFY2(module->factory(), qPrintable(module->error()));

    const auto w = open(ui::InsightsWindow::Range::Dates, m_first, m_first.addDays(2));
    QVERIFY(w);
    for (const QString &id : w->cardIds()) {
        ui::InsightsCard *card = w->card(id);
        QVERIFY2(card->chart(), qPrintable(id));
        const ui::InsightsTable &t = card->model()->table();
        const QMap<QString, QList<double>> bars = drawn(card->chart());
        if (t.colorsByRow) {
            // A bar a row, in the row's colour, its value at its own place.
            QCOMPARE(bars.size(), t.rows.size());
            for (int row = 0; row < t.rows.size(); ++row)
                QCOMPARE(bars.value(t.rows.at(row)).value(row), t.value(row, 0));
            continue;
        }
        for (int s = 0; s < t.series.size(); ++s) {
            if (!t.series.at(s).charted)
                continue;
            const QList<double> values = bars.value(t.series.at(s).name);
            QCOMPARE(values.size(), t.rows.size());
            for (int row = 0; row < t.rows.size(); ++row)
                QCOMPARE(values.at(row), t.value(row, s));
        }
    }

    // A click on a legend entry hides its series, a second one shows it again.
    ui::InsightsCard *tokens = w->card(u"tokens"_s);
    auto *view = qobject_cast<QChartView *>(tokens->chart());
    QVERIFY(view);
    const QString model = tokens->model()->table().series.first().name;
    const auto marker = [&]() -> QLegendMarker * {
        for (QLegendMarker *m : view->chart()->legend()->markers())
            if (m->label() == model)
                return m;
        return nullptr;
    };
    QVERIFY(marker());
    const double before = sum(drawn(view).value(model));
    QVERIFY(before > 0);
    Q_EMIT marker()->clicked();
    const QList<double> hidden = drawn(view).value(model);
    QVERIFY(std::all_of(hidden.cbegin(), hidden.cend(), [](double v) { return v == 0; }));
    QCOMPARE(tokens->model()->table().seriesTotal(0), before); // the table keeps its numbers
    Q_EMIT marker()->clicked();
    QCOMPARE(sum(drawn(view).value(model)), before);

    // Hover: the value as the table shows it.
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    const ui::InsightsTable &t = tokens->model()->table();
    int row = 0;
    while (row < t.rows.size() && t.value(row, 0) == 0)
        ++row;
    QBarSet *set = nullptr;
    for (QAbstractSeries *s : view->chart()->series())
        for (QBarSet *b : qobject_cast<QAbstractBarSeries *>(s)->barSets())
            if (b->label() == model)
                set = b;
    QVERIFY(set);
    Q_EMIT set->hovered(true, row);
    QVERIFY(QTest::qWaitFor([] { return QToolTip::isVisible(); }, 2000));
    QVERIFY2(QToolTip::text().contains(tokens->model()->index(row, 0).data().toString()),
        qPrintable(QToolTip::text()));
    QVERIFY(QToolTip::text().contains(t.rows.at(row)));
}

void TestInsightsWindow::exportsWriteWhatTheTableHolds()
{
    ui::ChartsModule *module = ui::ChartsModule::instance();
    module->load();
    QVERIFY(QTest::qWaitFor([module] { return module->isDone(); }, 20000));
    const auto w = open(ui::InsightsWindow::Range::Dates, m_first, m_first.addDays(2));
    QVERIFY(w);
    ui::InsightsCard *cost = w->card(u"cost"_s);
    QString error;
    const QString csv = m_dir.filePath(u"cost.csv"_s);
    QVERIFY2(cost->exportTo(csv, ui::InsightsCard::Format::Csv, &error), qPrintable(error));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().split('\n');
    QCOMPARE(lines.at(0).trimmed(), "day,cost_billed,cost_estimated_USD");
    QCOMPARE(lines.at(1).trimmed(), (m_first.toString(Qt::ISODate) + u",0.25,0.125"_s).toUtf8());
    QCOMPARE(
        lines.at(2).trimmed(), (m_first.addDays(1).toString(Qt::ISODate) + u",0.5,0"_s).toUtf8());

    // The table copies as tab-separated text with its headings (all of it when nothing is
    // selected), the values as the table shows them.
    const QStringList copied = cost->selectionText().split(u'\n');
    QCOMPARE(copied.at(0), u"Day\tBilled by the provider\tEstimated from prices"_s);
    QVERIFY2(copied.at(1).endsWith(u"\t$0.250\t$0.125"_s), qPrintable(copied.at(1)));

    const QString png = m_dir.filePath(u"cost.png"_s);
    QVERIFY2(cost->exportTo(png, ui::InsightsCard::Format::Png, &error), qPrintable(error));
    const QImage image(png);
    QVERIFY(!image.isNull());
    QVERIFY(image.width() >= 200 && image.height() >= 150);

    const QString svg = m_dir.filePath(u"cost.svg"_s);
    QVERIFY2(cost->exportTo(svg, ui::InsightsCard::Format::Svg, &error), qPrintable(error));
    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    const QByteArray svgText = svgFile.readAll();
    QVERIFY(svgText.contains("<svg"));
    QVERIFY(svgText.contains("<title>Cost</title>"));
    QVERIFY(svgText.contains("Billed by the provider")); // the legend, drawn as text

    // A folder that cannot be written: an error, and nothing half-written.
    QVERIFY(
        !cost->exportTo(u"/proc/capwatch-no/cost.csv"_s, ui::InsightsCard::Format::Csv, &error));
    QVERIFY(!error.isEmpty());
}

void TestInsightsWindow::gaugesProjectTheLimitFromTheRate()
{
    session::UsageTally tally;
    const QDateTime noon(QDate(2026, 3, 10), QTime(12, 0));
    tally.setWallClock([noon] { return noon; });
    const auto row = [](const QDateTime &at, qint64 tokens) {
        history::UsageRecord r;
        r.time = at;
        r.profile = u"Work"_s;
        r.promptTokens = tokens;
        r.completionTokens = 0;
        r.status = 200;
        return r;
    };
    // 3,000 tokens since 09:00: 1,000 an hour; 10,000 allowed, 7,000 left: at 19:00.
    tally.noteAppended(row(noon.addSecs(-3 * 3600), 1000));
    tally.noteAppended(row(noon.addSecs(-3600), 2000));
    session::ProfileSet profiles;
    session::ProviderProfile work;
    work.id = u"work"_s;
    work.name = u"Work"_s;
    work.spend.tokensDay = 10'000;
    work.spend.tokensMonth = 1'000'000;
    profiles.profiles.append(work);
    ui::SpendGauges gauges;
    gauges.refresh(profiles, tally);
    const QStringList lines = gauges.lines();
    QCOMPARE(lines.size(), 2);
    QCOMPARE(lines.at(0),
        u"Work · tokens today: 3,000 of 10,000 (30 %) · At this rate the daily limit is reached "
        "at 7:00\u202fPM."_s.replace(
            u"\u202f"_s, QLocale().toString(QTime(19, 0), QLocale::ShortFormat).mid(4, 1)));
    QVERIFY2(lines.at(1).endsWith(u"At this rate it is not reached this month."_s),
        qPrintable(lines.at(1)));

    // Past the limit: reached, and when it resets.
    tally.noteAppended(row(noon.addSecs(-60), 8000));
    gauges.refresh(profiles, tally);
    QVERIFY2(gauges.lines().at(0).contains(u"11,000 of 10,000 (110 %) · Reached"_s),
        qPrintable(gauges.lines().at(0)));
    // No limits at all: said so, with where to set one.
    gauges.refresh(session::ProfileSet(), tally);
    QVERIFY(gauges.lines().at(0).contains(u"Settings"_s));
}

void TestInsightsWindow::withoutTheModuleTheTablesStay()
{
    // Its own process (SPLIT_FUNCTIONS): the module is looked for where this says only.
    qputenv("CAPWATCH_CHARTS_MODULE", m_dir.filePath(u"no-such-module.so"_s).toUtf8());
    ui::ChartsModule *module = ui::ChartsModule::instance();
    if (module->isDone())
        QSKIP("the module was loaded by an earlier function of this process");
    const auto w = open(ui::InsightsWindow::Range::Dates, m_first, m_first.addDays(2));
    QVERIFY(w);
    QVERIFY(QTest::qWaitFor([module] { return module->isDone(); }, 20000));
    QVERIFY(!module->factory());
    QVERIFY(module->error().contains(u"not installed"_s));
    ui::InsightsCard *tokens = w->card(u"tokens"_s);
    QVERIFY(!tokens->chart());
    tokens->showTable(true);
    QVERIFY(tokens->showsTable());
    QString error;
    QVERIFY(!tokens->exportTo(m_dir.filePath(u"t.svg"_s), ui::InsightsCard::Format::Svg, &error));
    QVERIFY(error.contains(u"not installed"_s));
    QVERIFY(tokens->exportTo(m_dir.filePath(u"t.csv"_s), ui::InsightsCard::Format::Csv, &error));
}

void TestInsightsWindow::theWindowOpensItAndItFollowsTheSends()
{
    // The seam as a user meets it: the main window on the demo with its history, View →
    // Insights (Ctrl+I), and a send made while the view is open shows in it.
    QTemporaryDir dir;
    DemoWindow w(dir.filePath(u"settings.ini"_s), 0.02);
    history::HistoryWriter writer;
    w.window->attachHistory(&writer, false);
    writer.open(dir.filePath(u"history.sqlite"_s));
    w.uncapped();
    session::UsageTally &tally = w.window->providerMemory()->tally();
    QVERIFY(QTest::qWaitFor([&] { return w.window->providerMemory()->isLoaded(); }, 10000));
    const QString profile = w.window->session()->provider().choice().profileName;
    w.send(u"Hello"_s);
    QVERIFY(QTest::qWaitFor([&] { return tally.today(profile).attempts == 1; }, 20000));

    auto *action = w.window->findChild<QAction *>(u"insightsAction"_s);
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_I));
    action->trigger();
    auto *view = w.window->findChild<ui::InsightsWindow *>();
    QVERIFY(view);
    QVERIFY(view->isVisible());
    QCOMPARE(view->range(), ui::InsightsWindow::Range::Month);
    QVERIFY(
        QTest::qWaitFor([view] { return view->summaryText().startsWith(u"Sends: 1 "_s); }, 10000));
    const auto tokensShown = [view] {
        const ui::InsightsTable &t = view->card(u"tokens"_s)->model()->table();
        return rowSum(t, int(t.rows.size()) - 1); // today, the range's last day
    };
    // The cards take their tables a turn each after the summary line.
    QVERIFY(QTest::qWaitFor(
        [&] { return tokensShown() == double(tally.today(profile).tokens); }, 5000));
    QVERIFY(tokensShown() > 0);

    w.send(u"Hello again"_s);
    QVERIFY(QTest::qWaitFor([&] { return tally.today(profile).attempts == 2; }, 20000));
    QVERIFY2(
        QTest::qWaitFor([view] { return view->summaryText().startsWith(u"Sends: 2 "_s); }, 10000),
        qPrintable(view->summaryText()));
    QVERIFY(QTest::qWaitFor(
        [&] { return tokensShown() == double(tally.today(profile).tokens); }, 5000));

    // Asked again: the same window, raised, not a second one.
    action->trigger();
    QCOMPARE(w.window->findChildren<ui::InsightsWindow *>().size(), 1);
}

void TestInsightsWindow::splitPaletteAndAPendingAskRedrawTheCards()
{
    const auto w = open(ui::InsightsWindow::Range::Dates, m_first, m_first.addDays(2));
    QVERIFY(w);
    const auto tokens = [&w] { return w->card(u"tokens"_s)->model()->table(); };
    const auto total = [](const ui::InsightsTable &t) {
        double sum = 0;
        for (int row = 0; row < t.rows.size(); ++row)
            sum += rowSum(t, row);
        return sum;
    };
    const double all = total(tokens());
    QCOMPARE(tokens().title, u"Tokens by model"_s);

    // By profile: the same tokens, stacked by the profiles.
    QSignalSpy loaded(w.get(), &ui::InsightsWindow::loaded);
    w->setSplit(ui::InsightsDigest::Split::Profile);
    QVERIFY(loaded.wait(10000));
    QCOMPARE(tokens().title, u"Tokens by profile"_s);
    QStringList keys;
    for (const ui::InsightsTable::Series &s : tokens().series)
        keys.append(s.key);
    keys.sort();
    QCOMPARE(keys, (QStringList { u"Free"_s, u"Night"_s, u"Work"_s }));
    QCOMPARE(total(tokens()), all);

    // A dark palette: the categories' colours for it, in the table the chart draws.
    const QColor light = w->card(u"time-lost"_s)->model()->table().series.first().color;
    loaded.clear();
    w->setPalette(testing::darkPalette());
    QVERIFY(loaded.wait(10000));
    const QColor dark = w->card(u"time-lost"_s)->model()->table().series.first().color;
    QVERIFY2(dark != light, qPrintable(dark.name()));
    QVERIFY(dark.lightnessF() > light.lightnessF());

    // A filter asked and, before its sums come, the split changed back: the cards end with the
    // filter's sums, and `loaded` is said for them only.
    loaded.clear();
    w->setFilter(u"Free"_s, {});
    w->setSplit(ui::InsightsDigest::Split::Model);
    QVERIFY(loaded.wait(10000));
    QTest::qWait(100);
    QCOMPARE(loaded.size(), 1);
    const QJsonArray groups
        = usage({ u"--since"_s, m_first.toString(Qt::ISODate), u"--until"_s,
                    m_first.addDays(2).toString(Qt::ISODate), u"--by"_s, u"profile"_s })
              .value(u"groups"_s)
              .toArray();
    double free = -1;
    for (const QJsonValue &v : groups) {
        if (v.toObject().value(u"group"_s).toString() == u"Free")
            free = double(v.toObject().value(u"prompt_tokens"_s).toInteger()
                + v.toObject().value(u"completion_tokens"_s).toInteger());
    }
    QCOMPARE(tokens().title, u"Tokens by model"_s);
    QCOMPARE(total(tokens()), free);
    QVERIFY(free < all);
}

void TestInsightsWindow::aNarrowPagePutsTheFilterBelowTheRange()
{
    // As the main window's page: as narrow as the window (480 pixels at its smallest), where the
    // filter and the split go to a second row rather than being cut; at 1440 they stay beside
    // the range, and the page follows a resize either way.
    QWidget host;
    auto *layout = new QVBoxLayout(&host);
    auto *page = new ui::InsightsWindow(
        m_writer.get(), &m_tally, [] { return session::ProfileSet(); }, &host, Qt::Widget);
    layout->addWidget(page);
    auto *range = page->findChild<QComboBox *>(u"rangeBox"_s);
    auto *profiles = page->findChild<QComboBox *>(u"profileBox"_s);
    auto *split = page->findChild<QComboBox *>(u"splitBox"_s);
    auto *back = page->findChild<QToolButton *>(u"backButton"_s);
    QVERIFY(range && profiles && split && back);
    const auto top = [page](QWidget *w) { return w->mapTo(page, QPoint(0, 0)).y(); };
    const auto right = [page](QWidget *w) { return w->mapTo(page, QPoint(w->width(), 0)).x(); };

    host.resize(1440, 900);
    host.show();
    QVERIFY(QTest::qWaitForWindowExposed(&host));
    QTRY_COMPARE(top(profiles), top(range));

    host.resize(480, 364);
    QTRY_COMPARE(host.width(), 480); // the page never held the window wider
    QTRY_VERIFY(top(profiles) > top(range));
    for (QWidget *w : { static_cast<QWidget *>(range), static_cast<QWidget *>(profiles),
             static_cast<QWidget *>(split), static_cast<QWidget *>(back) }) {
        QVERIFY2(right(w) <= page->width(), qPrintable(w->objectName())); // none cut at the edge
        QVERIFY(w->width() >= w->minimumSizeHint().width());
    }

    host.resize(1440, 900);
    QTRY_COMPARE(top(profiles), top(range));
}

void TestInsightsWindow::aChineseAxisTitleIsDrawnWhole()
{
    // "分钟" (Minutes) on the vertical axis of the time lost was cut to "...": Qt Charts measured
    // it in the axis's Latin font and laid it out in the Chinese fallback that draws it. The
    // title's font is now the one that draws it.
    if (QFontDatabase::families(QFontDatabase::SimplifiedChinese).isEmpty())
        QSKIP("no font for Chinese here (.ci/install-deps installs fonts-wqy-microhei)");
    ui::ChartsModule::instance()->load();
    QVERIFY(QTest::qWaitFor([] { return ui::ChartsModule::instance()->isDone(); }, 10000));
    ui::ChartFactory *factory = ui::ChartsModule::instance()->factory();
    QVERIFY(factory);
    ui::InsightsTableModel model;
    ui::InsightsTable t;
    t.id = u"time-lost"_s;
    t.valueTitle = u"分钟"_s;
    t.rows = { u"12月6日"_s, u"12月7日"_s };
    t.rowKeys = { u"2026-12-06"_s, u"2026-12-07"_s };
    t.series
        = { { u"waited"_s, u"重试等待"_s, QColor(Qt::darkRed), ui::InsightsTable::Unit::Minutes } };
    t.values = { { 0.0 }, { 4.2 } };
    model.setTable(t);
    QWidget host;
    host.resize(660, 300);
    std::unique_ptr<QWidget> chart(factory->createChart(&model, &host));
    auto *view = qobject_cast<QChartView *>(chart.get());
    QVERIFY(view);
    const QList<QAbstractAxis *> vertical = view->chart()->axes(Qt::Vertical);
    QCOMPARE(vertical.size(), 1);
    QCOMPARE(vertical.constFirst()->titleText(), t.valueTitle);
    // Laid out (hidden, at its page's size): the title's item reads the whole title.
    QStringList texts;
    for (QGraphicsItem *item : view->scene()->items()) {
        if (auto *text = qgraphicsitem_cast<QGraphicsTextItem *>(item))
            texts.append(text->toPlainText());
    }
    QVERIFY2(texts.contains(t.valueTitle), qPrintable(texts.join(u" | "_s)));
    QVERIFY(vertical.constFirst()->titleFont().bold()); // the theme's, kept
}

QTEST_MAIN(TestInsightsWindow)
#include "tst_insightswindow.moc"
