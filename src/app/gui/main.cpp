// capwatch: the desktop client.

#include "afterfirstpaint.h"
#include "common/startupprobe.h"
#include "common/userrules.h"
#include "demolocalprovider.h"
#include "history/historywriter.h"
#include "options.h"
#include "session/storedrecords.h"
#include "ui/history/historycontroller.h"
#include "ui/settings/settings.h"
#include "ui/settings/uilanguage.h"
#include "ui/window/mainwindow.h"
#include "version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QLocale>
#include <QLoggingCategory>
#include <cstdio>
#include <optional>

using namespace Qt::StringLiterals;

namespace {

int fail(const QString &message)
{
    std::fprintf(stderr, "capwatch: error: %s\nTry 'capwatch --help'.\n", qUtf8Printable(message));
    return 2;
}

/// The --lang value, read before any parser exists: the options' own texts depend on it.
QString requestedLanguage(const QStringList &args)
{
    QString lang;
    for (qsizetype i = 1; i < args.size(); ++i) {
        if (args[i] == u"--")
            break;
        if (args[i] == u"--lang" && i + 1 < args.size())
            lang = args[i + 1];
        else if (args[i].startsWith(u"--lang="))
            lang = args[i].mid(7);
    }
    return lang;
}

/// Whether the command line only asks for something printed (help, version, man page): that
/// needs no display, so it is answered before a QApplication (and its platform plugin) exists.
bool onlyPrints(const QStringList &args)
{
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions(capwatch::app::guiOptions().all());
    // A parse error (an unknown option, or a Qt option such as -platform that only
    // QApplication knows) does not stop the options after it from being seen.
    parser.parse(args);
    return parser.isSet(u"help"_s) || parser.isSet(u"help-all"_s) || parser.isSet(u"version"_s)
        || parser.isSet(u"man-page"_s);
}

void setUpLanguage(QCoreApplication &app, const QStringList &args)
{
    const capwatch::ui::UiLanguage language
        = capwatch::ui::chooseUiLanguage(requestedLanguage(args));
    if (!language.warning.isEmpty())
        std::fprintf(stderr, "%s\n", qUtf8Printable(language.warning));
    QLocale::setDefault(language.locale);
    capwatch::ui::installTranslations(&app, language);
}

void setUpParser(QCommandLineParser &parser, const capwatch::app::GuiOptions &cmdline)
{
    parser.setApplicationDescription(capwatch::app::guiDescription());
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions(cmdline.all());
}

/// Answers --help, --help-all, --version and --man-page under a QCoreApplication.
int printOnly(int argc, char *argv[])
{
    QCoreApplication core(argc, argv);
    QCoreApplication::setApplicationName(u"capwatch"_s);
    QCoreApplication::setApplicationVersion(QString::fromLatin1(capwatch::kVersion));
    setUpLanguage(core, QCoreApplication::arguments());

    const capwatch::app::GuiOptions cmdline = capwatch::app::guiOptions();
    QCommandLineParser parser;
    setUpParser(parser, cmdline);
    parser.parse(QCoreApplication::arguments()); // what was asked for is answered, errors or not
    if (parser.isSet(cmdline.manPage)) {
        // The man page is made at build time, often without a display.
        std::fputs(qUtf8Printable(capwatch::app::guiManPage()), stdout);
    } else if (parser.isSet(u"help"_s) || parser.isSet(u"help-all"_s)) {
        // --help-all as --help: the Qt options it would add belong to QApplication, which
        // needs a display.
        std::fputs(qUtf8Printable(parser.helpText()), stdout);
    } else {
        std::printf("capwatch %s\n", capwatch::kVersion);
    }
    return std::fflush(stdout) == 0 ? 0 : 1;
}

QStringList argumentList(int argc, char *argv[])
{
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    return args;
}

} // namespace

int main(int argc, char *argv[])
{
    if (onlyPrints(argumentList(argc, argv)))
        return printOnly(argc, argv);

    QApplication app(argc, argv);
    QApplication::setApplicationName(u"capwatch"_s);
    QApplication::setOrganizationName(u"capwatch"_s);
    QApplication::setApplicationVersion(QString::fromLatin1(capwatch::kVersion));
    QApplication::setApplicationDisplayName(u"capwatch"_s);
    QApplication::setDesktopFileName(u"io.github.capwatch.capwatch"_s);
    QLoggingCategory::setFilterRules(u"capwatch.*.info=false"_s);
    setUpLanguage(app, QApplication::arguments());

    const capwatch::app::GuiOptions cmdline = capwatch::app::guiOptions();
    QCommandLineParser parser;
    setUpParser(parser, cmdline);
    if (!parser.parse(QApplication::arguments()))
        return fail(parser.errorText());
    if (!parser.positionalArguments().isEmpty())
        return fail(QApplication::translate("main", "unexpected argument '%1'")
                        .arg(parser.positionalArguments().constFirst()));

    capwatch::ui::LaunchOptions options;
    options.endpoint = parser.value(cmdline.endpoint);
    options.model = parser.value(cmdline.model);
    options.forceDemo = parser.isSet(cmdline.demo);
    options.prompt = parser.value(cmdline.prompt);
    bool ok = false;
    options.timeScale = parser.value(cmdline.timeScale).toDouble(&ok);
    if (!ok || !(options.timeScale > 0) || options.timeScale > 1)
        return fail(
            QApplication::translate("main", "--time-scale takes a number F with 0 < F <= 1"));

    // The user's rules files (rules.d), in force for every send of this window. A file left out
    // is reported here; the window is to say so once as well (issue 28: the merger wires it).
    QStringList rulesProblems; // shown once by the window too
    for (const capwatch::app::RulesLoadError &e : capwatch::app::installUserRules()) {
        std::fprintf(stderr, "capwatch: rules: %s (the file is left out)\n", qPrintable(e.text()));
        rulesProblems.append(e.text());
    }

    capwatch::ui::Settings settings;
    // Both outlive the window, whose session may use them; the history writer's destructor
    // writes what the window queued last. Both are held until the window's first paint: the
    // window asks for them while it is built (the demo's URL, the conversation list), gets the
    // answers it needs at once (the URL is the reserved port's), and the SQL driver, SQLite and
    // Qt HTTP Server's TLS backend load after it shows (docs/performance.md, "Startup").
    capwatch::app::DemoLocalProvider demo;
    demo.hold();
    capwatch::history::HistoryWriter history;
    history.hold();
    const bool privateRun = parser.isSet(cmdline.privateRun);
    capwatch::ui::MainWindow window(settings, options, &demo);
    window.attachHistory(&history, privateRun);
    window.showRulesProblems(rulesProblems);
    // Opened on the writer's thread: the list fills when it is open.
    if (privateRun)
        history.openInMemory();
    else
        history.open(
            capwatch::session::defaultHistoryPath(), window.historyController()->openOptions());
    window.show();
    capwatch::app::afterFirstPaint(&window, [&demo, &history] {
        demo.release();
        history.release();
        // The icon too: an SVG loads Qt SVG and its icon engine (0.4 MiB), and the window
        // manager takes the new icon of a window already shown.
        QApplication::setWindowIcon(QIcon(u":/icons/capwatch.svg"_s));
    });
    // Armed last: the event filter installed last sees the first paint first, so the probe
    // measures the window before what follows the paint.
    capwatch::app::armStartupProbe(&window);
    return QApplication::exec();
}
