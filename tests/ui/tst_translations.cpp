// Translations: both catalogues complete, the UI and both programs' --help follow the language,
// numbers and durations follow the locale, Qt's own texts are translated too, an unsupported
// language falls back to English entirely, and --help/--version need no display.

#include "net/retrylog.h"
#include "session/retrytexts.h"
#include "support/clirunner.h"
#include "support/demolocalprovider.h"
#include "support/windowwidgets.h"
#include "ui/panel/retrypanel.h"
#include "ui/settings/settings.h"
#include "ui/settings/uilanguage.h"
#include "ui/timeline/retrylogmodel.h"
#include "ui/timeline/timelinewidget.h"
#include "ui/window/mainwindow.h"
#include "version.h"

#include <QDialogButtonBox>
#include <QDirIterator>
#include <QDomDocument>
#include <QFile>
#include <QMenuBar>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

using namespace capwatch;
using namespace capwatch::ui;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace capwatch::testing::widgets;

class TestTranslations final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void catalogueIsComplete_data();
    void catalogueIsComplete();
    void windowSpeaksTheLanguage_data();
    void windowSpeaksTheLanguage();
    void cliHelpFollowsTheLocale_data();
    void cliHelpFollowsTheLocale();
    void cliProgressSpeaksAsTheWindow_data();
    void cliProgressSpeaksAsTheWindow();
    void numbersFollowTheLocale();
    void retryWordsAreTranslated();
    void qtOwnTextsAreTranslated_data();
    void qtOwnTextsAreTranslated();
    void chooseLanguage_data();
    void chooseLanguage();
    void unsupportedLanguageFallsBackToEnglish();
    void printsWithoutADisplay_data();
    void printsWithoutADisplay();
};

namespace {

/// capwatch-cli run in the locale `lang` (LANG alone says the language).
testing::CliOptions inLanguage(const QString &lang)
{
    testing::CliOptions options;
    options.environment.remove(u"LANGUAGE"_s);
    options.environment.remove(u"LC_ALL"_s);
    options.environment.remove(u"LC_MESSAGES"_s);
    options.environment.insert(u"LANG"_s, lang);
    return options;
}

/// The environment of a machine without any display: no platform plugin forced, no X, no
/// Wayland, an English C locale.
QProcessEnvironment headless()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &name : { u"QT_QPA_PLATFORM"_s, u"DISPLAY"_s, u"WAYLAND_DISPLAY"_s,
             u"LANGUAGE"_s, u"LC_ALL"_s, u"LC_MESSAGES"_s })
        env.remove(name);
    env.insert(u"LANG"_s, u"C.UTF-8"_s);
    return env;
}

/// Translates every capwatch text into capitals: what passes through tr() shows it, whatever
/// the catalogues hold yet.
class CapitalsTranslator final : public QTranslator
{
public:
    bool isEmpty() const override { return false; }
    QString translate(const char *context, const char *source, const char *, int) const override
    {
        if (QByteArrayView(context).startsWith("capwatch::ui::")
            || QByteArrayView(context).startsWith("capwatch::session::"))
            return QString::fromUtf8(source).toUpper();
        return {};
    }
};

} // namespace

void TestTranslations::catalogueIsComplete_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("de") << u"capwatch_de.ts"_s;
    QTest::newRow("zh_CN") << u"capwatch_zh_CN.ts"_s;
}

void TestTranslations::catalogueIsComplete()
{
    QFETCH(QString, file);
    QFile f(QStringLiteral(CAPWATCH_SOURCE_DIR "/translations/") + file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QDomDocument doc;
    QVERIFY(doc.setContent(&f));
    const QDomNodeList messages = doc.elementsByTagName(u"message"_s);
    QVERIFY(messages.size() > 200);
    // Every context is a class (or a context named in a translate() call) the sources still
    // have: a class renamed without lupdate keeps its texts in a context nothing asks for, and
    // the window shows them in English.
    QString sources;
    QDirIterator it(QStringLiteral(CAPWATCH_SOURCE_DIR "/src"), { u"*.cpp"_s, u"*.h"_s },
        QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile source(it.next());
        QVERIFY(source.open(QIODevice::ReadOnly));
        sources += QString::fromUtf8(source.readAll());
    }
    const QDomNodeList names = doc.elementsByTagName(u"name"_s);
    QVERIFY(names.size() > 10);
    for (int i = 0; i < names.size(); ++i) {
        const QString context = names.at(i).toElement().text();
        const QString name = context.section(u"::"_s, -1);
        const bool alive = QRegularExpression(u"\\b(class|struct) "_s
                               + QRegularExpression::escape(name) + u"\\b"_s)
                               .match(sources)
                               .hasMatch()
            || sources.contains(u'"' + context + u'"');
        QVERIFY2(alive, qPrintable(u"no such context in the sources: "_s + context));
    }
    for (int i = 0; i < messages.size(); ++i) {
        const QDomElement m = messages.at(i).toElement();
        const QString source = m.firstChildElement(u"source"_s).text();
        const QDomElement t = m.firstChildElement(u"translation"_s);
        QVERIFY2(!t.hasAttribute(u"type"_s), qPrintable(u"unfinished: "_s + source));
        const QDomNodeList forms = t.elementsByTagName(u"numerusform"_s);
        const QString text = forms.isEmpty() ? t.text() : forms.at(0).toElement().text();
        QVERIFY2(!text.trimmed().isEmpty(), qPrintable(u"empty: "_s + source));
        for (const QString &placeholder : { u"%1"_s, u"%2"_s, u"%n"_s }) {
            if (source.contains(placeholder))
                QVERIFY2(
                    text.contains(placeholder), qPrintable(placeholder + u" lost in: "_s + source));
        }
    }
}

void TestTranslations::windowSpeaksTheLanguage_data()
{
    QTest::addColumn<QString>("locale");
    QTest::addColumn<QString>("send");
    QTest::newRow("de") << u"de"_s << u"&Senden"_s;
    QTest::newRow("zh_CN") << u"zh_CN"_s << u"发送(&D)"_s;
}

void TestTranslations::windowSpeaksTheLanguage()
{
    QFETCH(QString, locale);
    QFETCH(QString, send);
    QTranslator translator;
    QVERIFY(
        translator.load(QLocale(locale), u"capwatch"_s, u"_"_s, QStringLiteral(CAPWATCH_QM_DIR)));
    QVERIFY(QCoreApplication::installTranslator(&translator));
    QTemporaryDir dir;
    Settings settings(dir.filePath(u"s.ini"_s));
    LaunchOptions o;
    o.forceDemo = true;
    testing::DemoHook demo;
    MainWindow window(settings, o, &demo);
    QStringList buttons;
    for (QPushButton *b : window.findChildren<QPushButton *>())
        buttons << b->text();
    QVERIFY2(buttons.contains(send), qPrintable(buttons.join(u" | "_s)));
    // The menus too (their class was renamed once and lost its translations).
    const QList<QAction *> menus = window.menuBar()->actions();
    QVERIFY(!menus.isEmpty());
    QVERIFY2(menus.constFirst()->text() != u"&File"_s, qPrintable(menus.constFirst()->text()));
    QVERIFY(!retryPanel(window)->stateText().startsWith(u"Ready"_s));
    QCoreApplication::removeTranslator(&translator);
}

void TestTranslations::cliHelpFollowsTheLocale_data()
{
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QString>("expected");
    QTest::newRow("de") << u"de_DE.UTF-8"_s << u"Befehle:"_s;
    QTest::newRow("zh_CN") << u"zh_CN.UTF-8"_s << u"命令"_s;
    QTest::newRow("English") << u"C.UTF-8"_s << u"Commands:"_s;
}

void TestTranslations::cliHelpFollowsTheLocale()
{
    QFETCH(QString, lang);
    QFETCH(QString, expected);
    testing::CliOptions options = inLanguage(lang);
    options.timeoutMs = 10000;
    const testing::CliRun help = testing::runCli({ u"--help"_s }, options);
    QVERIFY(help.finished);
    QCOMPARE(help.exitCode, 0);
    const QString out = QString::fromUtf8(help.out);
    QVERIFY2(out.contains(expected), qPrintable(out));
    // Machine-readable output never changes with the language.
    const testing::CliRun explain
        = testing::runCli({ u"explain"_s, u"--status"_s, u"429"_s, u"--body"_s, u"{}"_s }, options);
    QVERIFY(explain.finished);
    QVERIFY(explain.out.startsWith(R"({"category":"rate_limit","retryable":true)"));
}

void TestTranslations::cliProgressSpeaksAsTheWindow_data()
{
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QString>("expected");
    QTest::newRow("de") << u"de_DE.UTF-8"_s << u"capwatch: beantwortet bei Versuch 1 von 5"_s;
    QTest::newRow("zh_CN") << u"zh_CN.UTF-8"_s << u"capwatch: 在第 1 次尝试（共 5 次）时得到回答"_s;
    QTest::newRow("English") << u"C.UTF-8"_s << u"capwatch: answered on attempt 1 of 5"_s;
}

void TestTranslations::cliProgressSpeaksAsTheWindow()
{
    // capwatch-cli chat words its progress with the window's words (SendTexts), in the language
    // of the locale, as its --help; the answer on stdout is the provider's, whatever the language.
    QFETCH(QString, lang);
    QFETCH(QString, expected);
    testing::CliOptions options = inLanguage(lang);
    options.timeoutMs = 20000;
    const testing::CliRun chat
        = testing::runCli({ u"chat"_s, u"--profile"_s, u"demo"_s, u"--private"_s, u"--time-scale"_s,
                              u"0.01"_s, u"--prompt"_s, u"Hello"_s },
            options);
    QVERIFY(chat.finished);
    QCOMPARE(chat.exitCode, 0);
    QVERIFY(!chat.out.isEmpty());
    const QString err = QString::fromUtf8(chat.err);
    QVERIFY2(err.contains(expected), qPrintable(err));
}

void TestTranslations::numbersFollowTheLocale()
{
    QLocale::setDefault(QLocale(u"de_DE"_s));
    QCOMPARE(session::RetryTexts::duration(2500ms), u"2,5 s"_s);
    QCOMPARE(session::RetryTexts::duration(1080s), u"18 min"_s);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QCOMPARE(session::RetryTexts::duration(2500ms), u"2.5 s"_s);
    QCOMPARE(session::RetryTexts::duration(90s), u"1 min 30 s"_s);
}

void TestTranslations::retryWordsAreTranslated()
{
    // The timeline's wait labels and the retry log table's categories, sources and reasons are
    // words of the UI language; the exported log keeps the names of interfaces.md.
    CapitalsTranslator capitals;
    QVERIFY(QCoreApplication::installTranslator(&capitals));
    const auto cleanup = qScopeGuard([&] { QCoreApplication::removeTranslator(&capitals); });

    QCOMPARE(session::RetryTexts::waitLabel(retry::WaitSource::Message, 42, 42), u"MESSAGE 42 S"_s);
    QCOMPARE(session::RetryTexts::waitLabel(retry::WaitSource::RetryAfter, 60, 1080),
        u"RETRY-AFTER 18 MIN → 60 S"_s);
    QCOMPARE(session::RetryTexts::waitLabel(retry::WaitSource::Backoff, 10, 10), u"BACKOFF 10 S"_s);
    QCOMPARE(session::RetryTexts::waitLabel(retry::WaitSource::RetryAfter, 42, 42, 15),
        u"RETRY-AFTER 15 S OF 42 S"_s);

    net::RetryLog log;
    net::RetryRecord r;
    r.time = QDateTime(QDate(2026, 11, 29), QTime(20, 5, 20), Qt::UTC);
    r.request = 1;
    r.event = net::RetryRecord::Event::RetryScheduled;
    r.attempt = 1;
    r.status = 422;
    r.category = retry::Category::TokenLimit;
    r.waitMs = r.rawWaitMs = 42000;
    r.waitSource = retry::WaitSource::Message;
    log.append(r);
    r.event = net::RetryRecord::Event::GaveUp;
    r.waitMs.reset();
    r.rawWaitMs.reset();
    r.waitSource = retry::WaitSource::None;
    r.reason = retry::EndReason::BudgetExhausted;
    log.append(r);
    RetryLogModel model;
    model.setLog(&log);
    QCOMPARE(model.index(0, RetryLogModel::CategoryColumn).data().toString(), u"TOKEN LIMIT"_s);
    QCOMPARE(model.index(0, RetryLogModel::WaitSourceColumn).data().toString(), u"MESSAGE"_s);
    QCOMPARE(model.index(1, RetryLogModel::ReasonColumn).data().toString(), u"BUDGET EXHAUSTED"_s);
    const QByteArray csv = log.serialize(net::LogFormat::Csv);
    QVERIFY2(
        csv.contains(",422,token_limit,,,42,42,message,") && csv.contains(",budget_exhausted,"),
        csv.constData());
    QVERIFY(!csv.contains("TOKEN"));
    QCOMPARE(layoutTimeline(log.records()).first().segments.first().label, u"MESSAGE 42 S"_s);
}

void TestTranslations::qtOwnTextsAreTranslated_data()
{
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QString>("cancel");
    QTest::newRow("de") << u"de"_s << u"Abbrechen"_s;
    QTest::newRow("zh_CN") << u"zh_CN"_s << u"取消"_s;
}

void TestTranslations::qtOwnTextsAreTranslated()
{
    // The standard buttons of dialogs come from Qt's catalogue (qtbase_*.qm), loaded with ours.
    QFETCH(QString, lang);
    QFETCH(QString, cancel);
    const UiLanguage language
        = chooseUiLanguage(lang, QLocale::c(), QStringLiteral(CAPWATCH_QM_DIR));
    QVERIFY(language.translated);
    const QList<QTranslator *> installed = installTranslations(
        QCoreApplication::instance(), language, QStringLiteral(CAPWATCH_QM_DIR));
    QCOMPARE(installed.size(), 2); // capwatch's and Qt's
    QDialogButtonBox box(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    const QString shown = box.button(QDialogButtonBox::Cancel)->text();
    for (QTranslator *t : installed) {
        QCoreApplication::removeTranslator(t);
        delete t;
    }
    QCOMPARE(shown, cancel);
}

void TestTranslations::chooseLanguage_data()
{
    QTest::addColumn<QString>("requested");
    QTest::addColumn<QString>("system");
    QTest::addColumn<QString>("locale");
    QTest::addColumn<bool>("translated");
    QTest::addColumn<QString>("warning");

    QTest::newRow("--lang de") << u"de"_s << u"en_US"_s << u"de_DE"_s << true << QString();
    QTest::newRow("--lang de_AT") << u"de_AT"_s << u"en_US"_s << u"de_AT"_s << true << QString();
    QTest::newRow("--lang zh_CN") << u"zh_CN"_s << u"de_DE"_s << u"zh_CN"_s << true << QString();
    QTest::newRow("--lang en_GB keeps its formats")
        << u"en_GB"_s << u"de_DE"_s << u"en_GB"_s << false << QString();
    QTest::newRow("--lang fr") << u"fr"_s << u"de_DE"_s << u"en_US"_s << false
                               << u"capwatch: warning: no translation for 'fr'; using English"_s;
    QTest::newRow("--lang nonsense")
        << u"xx"_s << u"de_DE"_s << u"en_US"_s << false
        << u"capwatch: warning: no translation for 'xx'; using English"_s;
    QTest::newRow("system de_DE") << QString() << u"de_DE"_s << u"de_DE"_s << true << QString();
    // The system's language without a catalogue: English too, but nobody asked, so no warning.
    QTest::newRow("system fr_FR") << QString() << u"fr_FR"_s << u"en_US"_s << false << QString();
    QTest::newRow("system C") << QString() << u"C"_s << u"C"_s << false << QString();
}

void TestTranslations::chooseLanguage()
{
    QFETCH(QString, requested);
    QFETCH(QString, system);
    QFETCH(QString, locale);
    QFETCH(bool, translated);
    QFETCH(QString, warning);
    const UiLanguage language
        = chooseUiLanguage(requested, QLocale(system), QStringLiteral(CAPWATCH_QM_DIR));
    QCOMPARE(language.locale.name(), locale);
    QCOMPARE(language.translated, translated);
    QCOMPARE(language.warning, warning);
}

void TestTranslations::unsupportedLanguageFallsBackToEnglish()
{
    // English text and English numbers, and one line on stderr saying so.
    QProcess p;
    p.setProcessEnvironment(headless());
    p.start(QStringLiteral(CAPWATCH_GUI_PATH), { u"--lang"_s, u"fr"_s, u"--help"_s });
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 0);
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY2(out.startsWith(u"Usage: "_s), qPrintable(out));
    QVERIFY2(out.contains(u"Displays version information."_s), qPrintable(out));
    QCOMPARE(QString::fromUtf8(p.readAllStandardError()),
        u"capwatch: warning: no translation for 'fr'; using English\n"_s);

    const QLocale before;
    QLocale::setDefault(
        chooseUiLanguage(u"fr"_s, QLocale(u"fr_FR"_s), QStringLiteral(CAPWATCH_QM_DIR)).locale);
    const QString english = session::RetryTexts::duration(2500ms);
    const QString grouped = QLocale().toString(60323);
    QLocale::setDefault(before);
    QCOMPARE(english, u"2.5 s"_s);
    QCOMPARE(grouped, u"60,323"_s);
}

void TestTranslations::printsWithoutADisplay_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("starts");
    QTest::addColumn<QString>("contains");
    QTest::newRow("--help") << QStringList { u"--help"_s } << u"Usage: "_s << u"--endpoint <URL>"_s;
    QTest::newRow("-h") << QStringList { u"-h"_s } << u"Usage: "_s << u"--time-scale <F>"_s;
    QTest::newRow("--help-all") << QStringList { u"--help-all"_s } << u"Usage: "_s
                                << u"--lang <CODE>"_s;
    QTest::newRow("--version") << QStringList { u"--version"_s } << u"capwatch "_s
                               << QString::fromLatin1(capwatch::kVersion);
    QTest::newRow("--man-page") << QStringList { u"--man-page"_s } << u".\\\" Generated"_s
                                << u".SH \"OPTIONS\""_s;
    QTest::newRow("German --help")
        << QStringList { u"--lang=de"_s, u"--help"_s } << u"Aufruf: "_s << u"--endpoint <URL>"_s;
    QTest::newRow("options before --help") << QStringList { u"--demo"_s, u"--model"_s, u"m"_s,
        u"--help"_s } << u"Usage: "_s << u"--demo"_s;
}

void TestTranslations::printsWithoutADisplay()
{
    // What the man page promises: --help and --version work on a machine without a display.
    QFETCH(QStringList, arguments);
    QFETCH(QString, starts);
    QFETCH(QString, contains);
    QProcess p;
    p.setProcessEnvironment(headless());
    p.start(QStringLiteral(CAPWATCH_GUI_PATH), arguments);
    QVERIFY(p.waitForFinished(10000));
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(p.exitStatus() == QProcess::NormalExit, qPrintable(err));
    QVERIFY2(p.exitCode() == 0, qPrintable(QString::number(p.exitCode()) + u": "_s + err));
    QCOMPARE(err, QString());
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY2(out.startsWith(starts), qPrintable(out));
    QVERIFY2(out.contains(contains), qPrintable(out));
}

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
