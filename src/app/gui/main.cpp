// capwatch: the desktop client.

#include "ui/mainwindow.h"
#include "ui/settings.h"

#include <QApplication>
#include <QCommandLineParser>
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

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate(
            "main", "A chat client for OpenAI-compatible providers with strict token caps, "
                    "showing every retry as it happens."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption endpoint(u"endpoint"_s, QApplication::translate("main", "Chat with this endpoint (base URL or .../chat/completions) for this run."), u"URL"_s);
    const QCommandLineOption model(u"model"_s, QApplication::translate("main", "Use this model for this run."), u"NAME"_s);
    const QCommandLineOption demo(u"demo"_s, QApplication::translate("main", "Chat with the embedded demo provider, whatever is configured."));
    const QCommandLineOption prompt(u"prompt"_s, QApplication::translate("main", "Send this prompt once the window is shown."), u"TEXT"_s);
    const QCommandLineOption timeScale(u"time-scale"_s, QApplication::translate("main", "Run every wait and timeout F times as long (0 < F <= 1); figures stay in policy seconds."), u"F"_s, u"1"_s);
    const QCommandLineOption lang(u"lang"_s, QApplication::translate("main", "User interface language (de, zh_CN, ...); default: the system's."), u"CODE"_s);
    parser.addOptions({ endpoint, model, demo, prompt, timeScale, lang });
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
    options.endpoint = parser.value(endpoint);
    options.model = parser.value(model);
    options.forceDemo = parser.isSet(demo);
    options.prompt = parser.value(prompt);
    bool ok = false;
    options.timeScale = parser.value(timeScale).toDouble(&ok);
    if (!ok || !(options.timeScale > 0) || options.timeScale > 1)
        return fail(QApplication::translate("main", "--time-scale takes a number F with 0 < F <= 1"));

    capwatch::ui::Settings settings;
    capwatch::ui::MainWindow window(settings, options);
    window.show();
    return QApplication::exec();
}
