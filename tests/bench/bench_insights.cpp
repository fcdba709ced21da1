// The Insights view at scale (issue 31, docs/performance.md "Insights"): opens the view on a
// history database (bench_history --full --usage 1000000 --keep DIR makes one of 10,000
// conversations and 1,000,000 usage rows), as the window does (its HistoryWriter, the charts
// module loaded on a worker, the view a page of a window already shown), then switches through
// the ranges. For each: the time from the ask
// to the charts showing it, and the GUI thread's longest stall meanwhile (a 1 ms timer on it).
//   bench_insights --database PATH [--rounds N] [--bound-ms MS] [--stall-bound-ms MS]
// With bounds it exits 1 when a median passes them.

#include "history/historywriter.h"
#include "session/profiles.h"
#include "session/usagetally.h"
#include "support/stallmeter.h"
#include "ui/insights/chartsmodule.h"
#include "ui/insights/insightswindow.h"

#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QDateEdit>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QGroupBox>
#include <QLabel>
#include <QProgressBar>
#include <QStackedWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cstdio>

using namespace capwatch;
using namespace Qt::StringLiterals;

namespace {

using Range = ui::InsightsWindow::Range;

/// Runs the event loop until `done` holds (or 60 s): never a sleep on this thread.
bool spinUntil(const std::function<bool()> &done)
{
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < 60'000)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 10);
    return done();
}

qint64 median(QList<qint64> values)
{
    if (values.isEmpty())
        return -1;
    std::sort(values.begin(), values.end());
    return values.at(values.size() / 2);
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({ u"database"_s, u"The history database."_s, u"PATH"_s });
    parser.addOption({ u"rounds"_s, u"Rounds through the ranges (default 5)."_s, u"N"_s });
    parser.addOption({ u"bound-ms"_s, u"Exit 1 when a range's median passes this."_s, u"MS"_s });
    parser.addOption(
        { u"stall-bound-ms"_s, u"Exit 1 when the longest stall passes this."_s, u"MS"_s });
    parser.process(app);
    const QString path = parser.value(u"database"_s);
    if (path.isEmpty() || !QFileInfo::exists(path)) {
        std::fprintf(stderr, "bench_insights: --database PATH of an existing history\n");
        return 2;
    }
    const int rounds = std::max(1, parser.value(u"rounds"_s).toInt());

    // Opened as the window's is long before Ctrl+I: the view's first read does not wait for it.
    history::HistoryWriter writer;
    bool opened = false;
    QObject::connect(
        &writer, &history::HistoryWriter::opened, &writer, [&opened] { opened = true; });
    writer.open(path);
    if (!spinUntil([&opened] { return opened; }))
        return 1;
    session::UsageTally tally;
    ui::ChartsModule::instance()->load();
    if (!spinUntil([] { return ui::ChartsModule::instance()->isDone(); })
        || !ui::ChartsModule::instance()->factory()) {
        std::fprintf(stderr, "bench_insights: no charts module: %s\n",
            qPrintable(ui::ChartsModule::instance()->error()));
        return 2;
    }

    // The view opens in a running window, whose widgets of these kinds have been made and shown
    // (the style, the fonts, the locale's calendar loaded): the same here, before the clock.
    {
        QWidget warm;
        auto *layout = new QVBoxLayout(&warm);
        layout->addWidget(new QDateEdit(QDate::currentDate()));
        layout->addWidget(new QComboBox);
        layout->addWidget(new QTableView);
        layout->addWidget(new QProgressBar);
        layout->addWidget(new QGroupBox(u"warm"_s));
        layout->addWidget(new QLabel(u"warm"_s));
        warm.show();
        QElapsedTimer settle;
        settle.start();
        spinUntil([&settle] { return settle.elapsed() > 300; });
    }

    // The main window, shown and settled: the view opens as its page (View → Insights), painted
    // into a window already on screen, as MainWindow::showInsights() does.
    QWidget host;
    host.setWindowTitle(u"bench"_s);
    auto *pages = new QStackedWidget(&host);
    auto *hostLayout = new QVBoxLayout(&host);
    hostLayout->setContentsMargins(0, 0, 0, 0);
    hostLayout->addWidget(pages);
    pages->addWidget(new QLabel(u"The chat"_s));
    host.resize(1440, 900);
    host.show();
    {
        QElapsedTimer settle;
        settle.start();
        spinUntil([&settle] { return settle.elapsed() > 300; });
    }

    testing::StallMeter meter;
    QElapsedTimer opening;
    opening.start();
    meter.start();
    QElapsedTimer built;
    built.start();
    auto *window = new ui::InsightsWindow(
        &writer, &tally, [] { return session::ProfileSet(); }, pages, Qt::Widget);
    const qint64 buildMs = built.elapsed();
    qint64 loadedMs = -1;
    int loads = 0;
    QObject::connect(window, &ui::InsightsWindow::loaded, window, [&](qint64 ms) {
        loadedMs = ms;
        ++loads;
    });
    built.restart();
    pages->addWidget(window);
    pages->setCurrentWidget(window);
    const qint64 showMs = built.elapsed();
    if (!spinUntil([&] { return loads > 0; }))
        return 1;
    const qint64 openMs = opening.elapsed();
    {
        // What follows the charts (their first paint) counts as a stall of the opening too.
        QElapsedTimer settle;
        settle.start();
        spinUntil([&settle] { return settle.elapsed() > 100; });
    }
    const qint64 openStall = meter.longestMs();
    meter.stop();
    std::printf("open (Last 30 days, from construction to charts shown): %lld ms, longest "
                "GUI-thread stall %lld ms (constructing the page %lld ms, showing it %lld ms)\n",
        qlonglong(openMs), qlonglong(openStall), qlonglong(buildMs), qlonglong(showMs));

    const QList<std::pair<Range, const char *>> ranges = { { Range::Today, "Today" },
        { Range::Week, "Last 7 days" }, { Range::Month, "Last 30 days" },
        { Range::Quarter, "Last 90 days" }, { Range::All, "All" } };
    QMap<int, QList<qint64>> times;
    QMap<int, QList<qint64>> stalls;
    for (int round = 0; round < rounds; ++round) {
        for (const auto &[range, name] : ranges) {
            testing::StallMeter m;
            m.start();
            const int before = loads;
            window->setRange(range);
            if (!spinUntil([&] { return loads > before; }))
                return 1;
            // The view settled: what came after the charts (a repaint) counts as a stall too.
            bool settled = false;
            QTimer::singleShot(50, window, [&settled] { settled = true; });
            spinUntil([&settled] { return settled; });
            m.stop();
            times[int(range)].append(loadedMs);
            stalls[int(range)].append(m.longestMs());
        }
    }
    std::printf("| range | median ms to charts shown | max | median longest stall ms | max |\n"
                "| --- | --: | --: | --: | --: |\n");
    qint64 worstMedian = 0;
    qint64 worstStall = openStall;
    for (const auto &[range, name] : ranges) {
        const QList<qint64> t = times.value(int(range));
        const QList<qint64> s = stalls.value(int(range));
        std::printf("| %s | %lld | %lld | %lld | %lld |\n", name, qlonglong(median(t)),
            qlonglong(*std::max_element(t.cbegin(), t.cend())), qlonglong(median(s)),
            qlonglong(*std::max_element(s.cbegin(), s.cend())));
        worstMedian = std::max(worstMedian, median(t));
        worstStall = std::max(worstStall, median(s));
    }
    std::printf("rounds: %d; ledger rows summed by the view: %lld days x models x profiles\n",
        rounds, qlonglong(window->insights().days.size()));
    bool ok = true;
    if (parser.isSet(u"bound-ms"_s) && worstMedian > parser.value(u"bound-ms"_s).toLongLong()) {
        std::fprintf(
            stderr, "bench_insights: a range took %lld ms (median)\n", qlonglong(worstMedian));
        ok = false;
    }
    if (parser.isSet(u"stall-bound-ms"_s)
        && worstStall > parser.value(u"stall-bound-ms"_s).toLongLong()) {
        std::fprintf(
            stderr, "bench_insights: the GUI thread stalled %lld ms\n", qlonglong(worstStall));
        ok = false;
    }
    return ok ? 0 : 1;
}
