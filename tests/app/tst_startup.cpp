// The desktop client's start, as a user meets it: the real `capwatch` program on its default
// paths (a fresh XDG_CONFIG_HOME and XDG_DATA_HOME of this test's own). Its first paint needs
// no database and no server, so the SQL driver, SQLite, Qt HTTP Server's TLS backend and the
// SVG icon engine load after it; and what the window was asked to do before then (a --prompt,
// the conversation list) still happens once they are up.

#include "history/historystore.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>

using namespace capwatch;
using namespace Qt::StringLiterals;

namespace {

/// What loads only after the first paint (the probe lists the shared objects mapped then).
const QStringList kAfterFirstPaint = { u"libqsqlite.so"_s, u"libsqlite3.so"_s,
    u"libqopensslbackend.so"_s, u"libssl.so"_s, u"libcrypto.so"_s, u"libqsvgicon.so"_s,
    // The Insights view's charts module, and Qt Charts and Qt OpenGL with it (docs/insights.md):
    // only when the view first opens.
    u"capwatch-charts.so"_s, u"libQt6Charts.so"_s, u"libQt6OpenGL.so"_s };

struct ProbeResult
{
    qint64 rssKiB = -1;
    QStringList loaded;
    QString stderrText;
};

} // namespace

class TestStartup final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void firstPaintLoadsNeitherDatabaseNorServer_data();
    void firstPaintLoadsNeitherDatabaseNorServer();
    void aPromptGivenAtStartIsAnsweredAndStored();

private:
    QProcessEnvironment environment() const;
    ProbeResult runToFirstPaint(const QStringList &arguments);
    QString historyPath() const { return m_dir->filePath(u"data/capwatch/history.sqlite"_s); }

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestStartup::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    for (const QString &sub : { u"config"_s, u"data"_s, u"home"_s, u"cache"_s })
        QVERIFY(QDir().mkpath(m_dir->filePath(sub)));
}

QProcessEnvironment TestStartup::environment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"HOME"_s, m_dir->filePath(u"home"_s));
    env.insert(u"XDG_CONFIG_HOME"_s, m_dir->filePath(u"config"_s));
    env.insert(u"XDG_DATA_HOME"_s, m_dir->filePath(u"data"_s));
    env.insert(u"XDG_CACHE_HOME"_s, m_dir->filePath(u"cache"_s));
    env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    env.insert(u"LANG"_s, u"C.UTF-8"_s);
    env.remove(u"CAPWATCH_STARTUP_PROBE"_s);
    return env;
}

ProbeResult TestStartup::runToFirstPaint(const QStringList &arguments)
{
    QProcessEnvironment env = environment();
    env.insert(u"CAPWATCH_STARTUP_PROBE"_s, u"1"_s);
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(CAPWATCH_GUI_PATH), arguments);
    ProbeResult result;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        result.stderrText = u"did not exit at its first paint"_s;
        return result;
    }
    result.stderrText = QString::fromUtf8(p.readAllStandardError());
    for (const QString &line : result.stderrText.split(u'\n')) {
        if (line.startsWith(u"startup-probe: shown rss_kib="_s))
            result.rssKiB = line.mid(29).toLongLong();
        else if (line.startsWith(u"startup-probe: loaded "_s))
            result.loaded = line.mid(22).split(u' ', Qt::SkipEmptyParts);
    }
    return result;
}

void TestStartup::firstPaintLoadsNeitherDatabaseNorServer_data()
{
    QTest::addColumn<int>("conversations");
    QTest::addColumn<bool>("privateRun");
    QTest::newRow("first run") << 0 << false;
    QTest::newRow("a history of 300 conversations") << 300 << false;
    QTest::newRow("--private") << 0 << true;
}

void TestStartup::firstPaintLoadsNeitherDatabaseNorServer()
{
    QFETCH(int, conversations);
    QFETCH(bool, privateRun);
    if (conversations > 0) {
        QVERIFY(QDir().mkpath(QFileInfo(historyPath()).path()));
        history::HistoryStore store;
        QVERIFY(store.open(historyPath()).persistent());
        QVERIFY(store.begin());
        for (int i = 0; i < conversations; ++i) {
            history::Conversation c;
            c.title = u"Conversation %1"_s.arg(i);
            QVERIFY(store.addConversation(c));
            history::Message m;
            m.conversation = c.id;
            m.text = u"Question %1"_s.arg(i);
            QVERIFY(store.addMessage(m));
        }
        QVERIFY(store.commit());
    }

    QStringList arguments { u"--demo"_s };
    if (privateRun)
        arguments << u"--private"_s;
    const ProbeResult result = runToFirstPaint(arguments);
    QVERIFY2(result.rssKiB > 0, qPrintable(result.stderrText));
    QVERIFY2(!result.loaded.isEmpty(), qPrintable(result.stderrText));
    // The probe's list is real: the window's own libraries are in it.
    QVERIFY(std::any_of(result.loaded.cbegin(), result.loaded.cend(),
        [](const QString &name) { return name.startsWith(u"libQt6Widgets.so"_s); }));
    for (const QString &late : kAfterFirstPaint) {
        for (const QString &name : result.loaded)
            QVERIFY2(
                !name.startsWith(late), qPrintable(name + u" loaded before the first paint"_s));
    }
}

void TestStartup::aPromptGivenAtStartIsAnsweredAndStored()
{
    // Sent before the first paint (the window sends a --prompt on its first turn), while the
    // demo's server and the history are still held: the request waits in the port's backlog,
    // the writes in the writer's queue, and both go through after the paint.
    QProcess p;
    p.setProcessEnvironment(environment());
    p.start(QStringLiteral(CAPWATCH_GUI_PATH),
        { u"--demo"_s, u"--time-scale"_s, u"0.01"_s, u"--prompt"_s, u"Hello from the start"_s });
    QVERIFY(p.waitForStarted(10000));
    const auto stop = qScopeGuard([&p] {
        p.terminate();
        if (!p.waitForFinished(10000)) {
            p.kill();
            p.waitForFinished();
        }
    });

    QElapsedTimer clock;
    clock.start();
    QString answer;
    QString seen = u"no database yet"_s;
    while (answer.isEmpty() && clock.elapsed() < 60000 && p.state() == QProcess::Running) {
        QTest::qWait(100); // the other process works; this one only looks at its file
        if (!QFileInfo::exists(historyPath()))
            continue;
        history::HistoryStore store;
        history::OpenOptions options; // beside the program, as capwatch-cli opens it
        options.checkIntegrity = false;
        if (!store.open(historyPath(), options).persistent())
            continue;
        const history::ConversationPage page = store.conversations(10);
        seen = u"%1 conversations"_s.arg(page.conversations.size());
        if (page.conversations.size() != 1)
            continue;
        const QList<history::Message> messages = store.messages(page.conversations.constFirst().id);
        seen += u", %1 messages"_s.arg(messages.size());
        if (messages.size() == 2 && messages[0].text == u"Hello from the start"_s
            && messages[1].role == history::Role::Assistant
            && messages[1].state == history::MessageState::Complete)
            answer = messages[1].text;
    }
    QVERIFY2(!answer.isEmpty(),
        qPrintable(seen + u"; stderr: "_s + QString::fromUtf8(p.readAllStandardError())));
    QVERIFY(answer.size() > 10);
}

QTEST_GUILESS_MAIN(TestStartup)
#include "tst_startup.moc"
