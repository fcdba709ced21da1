// capwatch: the desktop client.

#include "common/startupprobe.h"
#include "options.h"
#include "ui/mainwindow.h"
#include "ui/settings.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QLoggingCategory>
#include <QTranslator>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace {

/// Loads capwatch's and Qt's own translations for `locale`; keeps going in English otherwise.
void installTranslations(QApplication &app, const QLocale &locale)
{
    auto *own = new QTranslator(&app);
    if (own->load(locale, u"capwatch"_s, u"_"_s, u":/i18n"_s))
        QApplication::installTranslator(own);
    auto *qt = new QTranslator(&app);
    if (qt->load(locale, u"qtbase"_s, u"_"_s, QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(qt);
}

int fail(const QString &message)
{
    std::fprintf(stderr, "capwatch: error: %s\nTry 'capwatch --help'.\n", qUtf8Printable(message));
    return 2;
}

} // namespace

int main(int argc, char *argv[])
{
    // The man page is made at build time, often without a display: no QApplication for it.
    if (capwatch::app::wantsManPage(argc, argv)) {
        QCoreApplication core(argc, argv);
        QCoreApplication::setApplicationName(u"capwatch"_s);
        QCoreApplication::setApplicationVersion(QStringLiteral(CAPWATCH_VERSION));
        std::fputs(qUtf8Printable(capwatch::app::guiManPage()), stdout);
        return std::fflush(stdout) == 0 ? 0 : 1;
    }

    QApplication app(argc, argv);
    QApplication::setApplicationName(u"capwatch"_s);
    QApplication::setOrganizationName(u"capwatch"_s);
    QApplication::setApplicationVersion(QStringLiteral(CAPWATCH_VERSION));
    QApplication::setApplicationDisplayName(u"capwatch"_s);
    QApplication::setDesktopFileName(u"io.github.capwatch.capwatch"_s);
    QApplication::setWindowIcon(QIcon(u":/icons/capwatch.svg"_s));
    QLoggingCategory::setFilterRules(u"capwatch.*.info=false"_s);

    // --lang must be known before the options' own texts are translated.
    QLocale locale;
    const QStringList raw = QApplication::arguments();
    for (qsizetype i = 1; i < raw.size(); ++i) {
        if (raw[i] == u"--lang" && i + 1 < raw.size())
            locale = QLocale(raw[i + 1]);
        else if (raw[i].startsWith(u"--lang="))
            locale = QLocale(raw[i].mid(7));
    }
    QLocale::setDefault(locale);
    installTranslations(app, locale);

    const capwatch::app::GuiOptions cmdline = capwatch::app::guiOptions();
    QCommandLineParser parser;
    parser.setApplicationDescription(capwatch::app::guiDescription());
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions(cmdline.all());
    if (!parser.parse(QApplication::arguments()))
        return fail(parser.errorText());
    if (parser.isSet(u"help"_s)) {
        std::fputs(qUtf8Printable(parser.helpText()), stdout);
        return 0;
    }
    if (parser.isSet(u"version"_s)) {
        std::printf("capwatch %s\n", CAPWATCH_VERSION);
        return 0;
    }
    if (!parser.positionalArguments().isEmpty())
        return fail(QApplication::translate("main", "unexpected argument '%1'").arg(parser.positionalArguments().constFirst()));

    capwatch::ui::LaunchOptions options;
    options.endpoint = parser.value(cmdline.endpoint);
    options.model = parser.value(cmdline.model);
    options.forceDemo = parser.isSet(cmdline.demo);
    options.prompt = parser.value(cmdline.prompt);
    bool ok = false;
    options.timeScale = parser.value(cmdline.timeScale).toDouble(&ok);
    if (!ok || !(options.timeScale > 0) || options.timeScale > 1)
        return fail(QApplication::translate("main", "--time-scale takes a number F with 0 < F <= 1"));

    capwatch::ui::Settings settings;
    capwatch::ui::MainWindow window(settings, options);
    window.show();
    capwatch::app::armStartupProbe(&window);
    return QApplication::exec();
}
