// Makes the Insights view's screenshots in docs/screenshots (docs/make-screenshots.sh): the view
// on a history that tools/insights-demo-data.sh filled with real traffic of the demo provider,
// offscreen, in a language and a palette, as the main window's page (without the window's menus
// and status bar), at 1440x900 and at the main window's smallest size (480x364 here).
//   capwatch_insightsshots DATABASE OUT_DIR [LANGUAGE] [--dark]
// Not a test.

#include "../support/darkpalette.h"
#include "history/historywriter.h"
#include "session/profiles.h"
#include "session/usagetally.h"
#include "ui/insights/chartsmodule.h"
#include "ui/insights/insightswindow.h"

#include <QApplication>
#include <QDir>
#include <QSettings>
#include <QSignalSpy>
#include <QStyleFactory>
#include <QTest>
#include <QTranslator>
#include <QVBoxLayout>

using namespace capwatch;
using namespace Qt::StringLiterals;

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(u"capwatch"_s);
    QStringList args = QApplication::arguments().mid(1);
    const bool dark = args.removeAll(u"--dark"_s) > 0;
    if (args.size() < 2) {
        std::fprintf(
            stderr, "usage: capwatch_insightsshots DATABASE OUT_DIR [LANGUAGE] [--dark]\n");
        return 2;
    }
    const QString database = args.at(0);
    const QString outDir = args.at(1);
    const QString language = args.value(2);
    QTranslator translator;
    if (!language.isEmpty()) {
        QLocale::setDefault(QLocale(language));
        if (!translator.load(
                QLocale(language), u"capwatch"_s, u"_"_s, QStringLiteral(CAPWATCH_QM_DIR))) {
            std::fprintf(stderr, "no translation for %s\n", qUtf8Printable(language));
            return 1;
        }
        QApplication::installTranslator(&translator);
    } else {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }
    QApplication::setStyle(QStyleFactory::create(u"Fusion"_s));
    if (dark)
        QApplication::setPalette(testing::darkPalette());

    // The profiles of the settings file beside the database (insights-demo-data.sh's), for the
    // spending limits' gauges.
    const QString conf = QFileInfo(database).dir().filePath(u"../../c/capwatch/capwatch.conf"_s);
    QSettings settings(conf, QSettings::IniFormat);
    const session::ProfileSet profiles = session::loadProfiles(settings);

    history::HistoryWriter writer;
    writer.open(database);
    session::UsageTally tally;
    tally.setHistory(&writer);
    ui::ChartsModule::instance()->load();
    QWidget host; // the main window's central area
    auto *hostLayout = new QVBoxLayout(&host);
    hostLayout->setContentsMargins(0, 0, 0, 0);
    auto *page = new ui::InsightsWindow(
        &writer, &tally, [profiles] { return profiles; }, &host, Qt::Widget);
    hostLayout->addWidget(page);
    ui::InsightsWindow &window = *page;
    QDir().mkpath(outDir);
    const QString suffix
        = (dark ? u"-dark"_s : QString()) + (language.isEmpty() ? QString() : u"-"_s + language);
    int failures = 0;
    for (const QSize size : { QSize(1440, 900), QSize(480, 364) }) {
        host.resize(size);
        host.show();
        window.setRange(ui::InsightsWindow::Range::Week);
        QSignalSpy loaded(&window, &ui::InsightsWindow::loaded);
        if (!loaded.wait(20000) || !ui::ChartsModule::instance()->isDone()) {
            std::fprintf(stderr, "the view did not load\n");
            return 1;
        }
        QTest::qWait(1500); // the charts, a turn each, and the gauges' tally
        const QString path = outDir + u"/insights"_s
            + (size.width() < 1000 ? u"-minimum"_s : QString()) + suffix + u".png"_s;
        const bool ok = host.grab().save(path);
        std::fprintf(stderr, "%s %s\n", ok ? "wrote" : "FAILED", qUtf8Printable(path));
        failures += ok ? 0 : 1;
    }
    return failures == 0 ? 0 : 1;
}
