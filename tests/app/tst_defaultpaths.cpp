// The two programs as a user runs them (issue 25): on their default paths, with a fresh
// XDG_CONFIG_HOME, XDG_DATA_HOME and HOME of this test's own and no --config or
// --history-database. The window's side runs in this process, as src/app/gui's main() sets it
// up (ui::Settings on its default file, a HistoryWriter attached before it opens the default
// database); capwatch-cli runs as a child process with the same environment.

#include "demo/demoprovider.h"
#include "history/historywriter.h"
#include "session/providermemory.h"
#include "session/settingsfile.h"
#include "session/storedrecords.h"
#include "support/clirunner.h"
#include "support/windowwidgets.h"
#include "ui/panel/retrypanel.h"
#include "ui/settings/settings.h"
#include "ui/window/mainwindow.h"

#include <QFile>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace capwatch;
using namespace Qt::StringLiterals;

namespace {

constexpr double kScale = 0.01;

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString &path, const QByteArray &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
}

/// Where pacing is seen across the two programs: the demo's minute lasts 6 s of wall time, long
/// enough for one program to end and the other to start and read the report inside it.
constexpr double kPacingScale = 0.1;

/// The capped demo, time-scaled, on loopback.
bool listenCapped(demo::DemoProvider &provider, double scale = kScale)
{
    demo::DemoOptions o;
    o.timeScale = scale;
    provider.setOptions(o);
    return provider.listen();
}

ui::LaunchOptions optionsFor(const demo::DemoProvider &provider, double scale)
{
    ui::LaunchOptions options;
    options.endpoint = provider.baseUrl().toString();
    options.model = u"capwatch-demo"_s;
    options.timeScale = scale;
    return options;
}

/// The window as src/app/gui's main() sets it up on the default paths: ui::Settings on its
/// default file, a HistoryWriter attached before open() opens the default database.
struct WindowOnDefaults
{
    WindowOnDefaults(const demo::DemoProvider &provider, double scale)
        : window(settings, optionsFor(provider, scale))
    {
        window.attachHistory(&writer, false);
    }
    void open() { writer.open(session::defaultHistoryPath()); }

    ui::Settings settings;
    history::HistoryWriter writer; // outlives the window: it writes what the window queued
    ui::MainWindow window;
};

} // namespace

class TestDefaultPaths final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void aProfileSavedByTheWindowIsUsedByTheCli();
    void anEarlierIniIsMergedOnceAndKept();
    void aWindowReportOfTheCliPacesTheWindowAfterARestart();
    void aFullWindowLeftByTheCliHoldsTheWindowsFirstSend();
    void aFullWindowLeftByTheWindowHoldsTheClisSend();

private:
    QString configDir() const { return m_dir->filePath(u"config/capwatch"_s); }
    testing::CliRun runCli(const QStringList &args) const
    {
        return testing::runCli(args, { {}, m_env, 60000, {} });
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    QProcessEnvironment m_env;
};

void TestDefaultPaths::init()
{
    // A fresh user for every test function: this process and capwatch-cli share it.
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_env = QProcessEnvironment::systemEnvironment();
    const std::pair<const char *, QString> vars[] = { { "HOME", m_dir->filePath(u"home"_s) },
        { "XDG_CONFIG_HOME", m_dir->filePath(u"config"_s) },
        { "XDG_DATA_HOME", m_dir->filePath(u"data"_s) } };
    for (const auto &[name, value] : vars) {
        QVERIFY(QDir().mkpath(value));
        qputenv(name, value.toUtf8());
        m_env.insert(QString::fromLatin1(name), value);
    }
    m_env.remove(u"OPENAI_COMPAT_API_KEY"_s);
    QCOMPARE(session::settingsFilePath(), configDir() + u"/capwatch.conf"_s);
}

void TestDefaultPaths::aProfileSavedByTheWindowIsUsedByTheCli()
{
    demo::DemoProvider provider;
    QVERIFY(listenCapped(provider));

    {
        ui::Settings settings; // the window's default file, as src/app/gui's main() makes it
        session::ProfileSet set = settings.profiles();
        session::ProviderProfile local;
        local.id = u"local"_s;
        local.name = u"Local server"_s;
        local.endpoint = provider.baseUrl();
        local.model = u"capwatch-demo"_s;
        local.keyVariable.clear(); // loopback: no key
        set.profiles.append(local);
        set.defaultProfile = local.id;
        settings.setProfiles(set);
        settings.sync();
    }
    QVERIFY(QFile::exists(configDir() + u"/capwatch.conf"_s));
    QVERIFY(!QFile::exists(configDir() + u"/capwatch.ini"_s));

    const testing::CliRun list = runCli({ u"profiles"_s, u"list"_s });
    QCOMPARE(list.exitCode, 0);
    QVERIFY2(list.out.contains("local") && list.out.contains("Local server"), list.out.constData());

    const testing::CliRun chat = runCli({ u"chat"_s, u"--profile"_s, u"local"_s, u"--prompt"_s,
        u"Hello from the CLI"_s, u"--time-scale"_s, QString::number(kScale) });
    QVERIFY2(chat.exitCode == 0, chat.err.constData());
    QVERIFY(!chat.out.isEmpty());
    QCOMPARE(provider.chatRequests(), 1);
    // Still one settings file: the CLI made no other.
    QVERIFY(!QFile::exists(configDir() + u"/capwatch.ini"_s));
}

void TestDefaultPaths::anEarlierIniIsMergedOnceAndKept()
{
    // What capwatch-cli of an earlier release read (and what a user may have written for it).
    QVERIFY(QDir().mkpath(configDir()));
    const QByteArray ini = "[profiles]\ndefault=old\n[profile.old]\nname=Old provider\n"
                           "endpoint=http://127.0.0.1:9/v1\nmodel=m\nkey=none\n";
    QVERIFY(writeFile(configDir() + u"/capwatch.ini"_s, ini));

    const testing::CliRun list = runCli({ u"profiles"_s, u"list"_s });
    QCOMPARE(list.exitCode, 0);
    QVERIFY2(list.out.contains("Old provider"), list.out.constData());
    QCOMPARE(readAll(configDir() + u"/capwatch.ini"_s), ini); // never changed, never lost

    {
        ui::Settings settings; // the window finds it in the one file
        session::ProfileSet set = settings.profiles();
        QVERIFY(set.find(u"old"));
        QCOMPARE(set.defaultProfile, u"old"_s);
        // Deleted in the window: merged once, it does not come back from the old file.
        set.profiles.removeIf([](const session::ProviderProfile &p) { return p.id == u"old"_s; });
        set.defaultProfile.clear();
        settings.setProfiles(set);
        settings.sync();
    }
    const testing::CliRun again = runCli({ u"profiles"_s, u"list"_s });
    QCOMPARE(again.exitCode, 0);
    QVERIFY2(!again.out.contains("Old provider"), again.out.constData());
    QVERIFY(QFile::exists(configDir() + u"/capwatch.ini"_s));
}

void TestDefaultPaths::aWindowReportOfTheCliPacesTheWindowAfterARestart()
{
    // The CLI meets the provider's window (the capped demo reports it in headers) and stores
    // the report in the default history; the window, started after, knows it before any send.
    demo::DemoProvider provider;
    QVERIFY(listenCapped(provider));
    const testing::CliRun chat = runCli({ u"chat"_s, u"--endpoint"_s, provider.baseUrl().toString(),
        u"--model"_s, u"capwatch-demo"_s, u"--prompt"_s, u"Fill the window a little"_s,
        u"--time-scale"_s, QString::number(kScale) });
    QVERIFY2(chat.exitCode == 0, chat.err.constData());
    QVERIFY(QFile::exists(session::defaultHistoryPath()));

    // No SQL warning at the window's start (it read from a database not open yet).
    QTest::failOnWarning(QRegularExpression(u"database not open|Driver not loaded"_s));
    WindowOnDefaults gui(provider, kScale);
    ui::MainWindow &window = gui.window;
    QSignalSpy loaded(window.providerMemory(), &session::ProviderMemory::loaded);
    gui.open();
    QVERIFY(loaded.wait(10000));
    const auto w = window.providerMemory()->window(
        window.session()->provider().lane(), window.session()->provider().model());
    QVERIFY2(w, "the window does not know the report the CLI stored");
    QVERIFY(w->limitTokens.has_value());
    QVERIFY(w->remainingTokens.has_value());
    QVERIFY(*w->remainingTokens < *w->limitTokens); // the CLI's send was counted
}

void TestDefaultPaths::aFullWindowLeftByTheCliHoldsTheWindowsFirstSend()
{
    // The CLI's send leaves the provider's window nearly full (5,500 of 6,000 tokens counted);
    // the window, started after on the same default history, holds its first send (pacing)
    // instead of sending it into the full window.
    demo::DemoProvider provider;
    QVERIFY(listenCapped(provider, kPacingScale));
    const testing::CliRun chat = runCli({ u"chat"_s, u"--endpoint"_s, provider.baseUrl().toString(),
        u"--model"_s, u"capwatch-demo"_s, u"--prompt"_s, u"Fill the window"_s, u"--max-tokens"_s,
        u"5500"_s, u"--time-scale"_s, QString::number(kPacingScale) });
    QVERIFY2(chat.exitCode == 0, chat.err.constData());

    WindowOnDefaults w(provider, kPacingScale);
    ui::MainWindow &window = w.window;
    QSignalSpy loaded(window.providerMemory(), &session::ProviderMemory::loaded);
    w.open();
    QVERIFY(loaded.wait(10000));
    testing::widgets::promptEditor(window)->setPlainText(u"And now from the window"_s);
    window.controller()->sendPrompt();
    QTRY_COMPARE_WITH_TIMEOUT(
        window.session()->sendState().phase, session::SendPhase::Pacing, 3000);
    QCOMPARE(provider.chatRequests(), 1); // only the CLI's: the window's waits
    window.session()->cancel();
}

void TestDefaultPaths::aFullWindowLeftByTheWindowHoldsTheClisSend()
{
    // The other way round: the window's send fills the provider's window; capwatch-cli, run
    // after the window closed, reads the report from the default history and paces.
    demo::DemoProvider provider;
    QVERIFY(listenCapped(provider, kPacingScale));
    {
        WindowOnDefaults w(provider, kPacingScale);
        ui::MainWindow &window = w.window;
        w.open();
        testing::widgets::maxTokensBox(window)->setValue(5500);
        testing::widgets::promptEditor(window)->setPlainText(u"Fill the window"_s);
        window.controller()->sendPrompt();
        QTRY_COMPARE_WITH_TIMEOUT(
            testing::widgets::retryPanel(window)->state(), ui::RetryPanel::State::Succeeded, 10000);
        w.writer.close(); // what was queued is written, as when the window closes
    }
    const testing::CliRun chat = runCli({ u"chat"_s, u"--endpoint"_s, provider.baseUrl().toString(),
        u"--model"_s, u"capwatch-demo"_s, u"--prompt"_s, u"And now from the CLI"_s,
        u"--max-tokens"_s, u"1000"_s, u"--time-scale"_s, QString::number(kPacingScale) });
    QVERIFY2(chat.err.contains("pacing: sending in"), chat.err.constData());
    QVERIFY2(chat.exitCode == 0, chat.err.constData());
}

QTEST_MAIN(TestDefaultPaths)
#include "tst_defaultpaths.moc"
