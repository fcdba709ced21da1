// Translations: both catalogues complete, the UI and both programs' --help follow the language,
// numbers and durations follow the locale.

#include "ui/mainwindow.h"
#include "ui/retrypanel.h"
#include "ui/settings.h"

#include <QDomDocument>
#include <QFile>
#include <QProcess>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

using namespace capwatch::ui;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

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
    void numbersFollowTheLocale();
};

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
                QVERIFY2(text.contains(placeholder), qPrintable(placeholder + u" lost in: "_s + source));
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
    QVERIFY(translator.load(QLocale(locale), u"capwatch"_s, u"_"_s, QStringLiteral(CAPWATCH_QM_DIR)));
    QVERIFY(QCoreApplication::installTranslator(&translator));
    QTemporaryDir dir;
    Settings settings(dir.filePath(u"s.ini"_s));
    LaunchOptions o;
    o.forceDemo = true;
    MainWindow window(settings, o);
    QStringList buttons;
    for (QPushButton *b : window.findChildren<QPushButton *>())
        buttons << b->text();
    QVERIFY2(buttons.contains(send), qPrintable(buttons.join(u" | "_s)));
    QVERIFY(!window.retryPanel()->stateText().startsWith(u"Ready"_s));
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
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"LANGUAGE"_s);
    env.remove(u"LC_ALL"_s);
    env.remove(u"LC_MESSAGES"_s);
    env.insert(u"LANG"_s, lang);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(CAPWATCH_CLI_PATH), { u"--help"_s });
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(p.exitCode(), 0);
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY2(out.contains(expected), qPrintable(out));
    // Machine-readable output never changes with the language.
    p.start(QStringLiteral(CAPWATCH_CLI_PATH), { u"explain"_s, u"--status"_s, u"429"_s, u"--body"_s, u"{}"_s });
    QVERIFY(p.waitForFinished(10000));
    QVERIFY(p.readAllStandardOutput().startsWith(R"({"category":"rate_limit","retryable":true)"));
}

void TestTranslations::numbersFollowTheLocale()
{
    QLocale::setDefault(QLocale(u"de_DE"_s));
    QCOMPARE(RetryPanel::durationInWords(2500ms), u"2,5 s"_s);
    QCOMPARE(RetryPanel::durationInWords(1080s), u"18 min"_s);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QCOMPARE(RetryPanel::durationInWords(2500ms), u"2.5 s"_s);
    QCOMPARE(RetryPanel::durationInWords(90s), u"1 min 30 s"_s);
}

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
