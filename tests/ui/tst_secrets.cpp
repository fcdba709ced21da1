// The API key stays secret (issue "Hardening", part 4): the window asks before it sends a key
// over plain HTTP to a host that is not loopback, and the key shows in no log message of any
// category and level, in no export, in no crash output and nowhere in the accessible tree.

#include "demo/demoprovider.h"
#include "net/chatclient.h"
#include "net/logging.h"
#include "net/retrylog.h"
#include "support/clirunner.h"
#include "support/sendsteps.h"
#include "support/windowwidgets.h"
#include "ui/conversation/conversationview.h"
#include "ui/panel/retrypanel.h"
#include "ui/settings/settings.h"
#include "ui/settings/settingsdialog.h"
#include "ui/window/mainwindow.h"

#include <QAccessible>
#include <QApplication>
#include <QFile>
#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponse>
#include <QLineEdit>
#include <QLoggingCategory>
#include <QMessageBox>
#include <QMutex>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <sys/resource.h>

using namespace capwatch;
using namespace capwatch::ui;
using namespace Qt::StringLiterals;
using namespace capwatch::testing::widgets;

Q_LOGGING_CATEGORY(lcTest, "capwatch.test")

namespace {

constexpr double kScale = 0.01; // 120 policy seconds take 1.2 s

// Every key used here contains kMark, so a leak of any of them, whole or cut short, shows.
const QByteArray kMark = "SECRET-7f3a";
const QByteArray kKey = "sk-capwatch-SECRET-7f3a9c2e51d04b86";
const QByteArray kOldKey = "sk-old-SECRET-7f3a-11aa22bb33cc44";
const QByteArray kNewKey = "sk-new-SECRET-7f3a-55dd66ee77ff88";
const QString kKeyVariable = u"CAPWATCH_SECRETS_TEST_KEY"_s;

QByteArray bearer(const QByteArray &key)
{
    return QByteArray("Bearer " + key);
}

bool showsAKey(QByteArrayView text)
{
    return text.contains(kMark) || text.contains("Bearer sk-");
}

bool showsAKey(const QByteArray &text)
{
    return showsAKey(QByteArrayView(text));
}

bool showsAKey(const QString &text)
{
    return showsAKey(text.toUtf8());
}

// --- every log message of the process, whatever its category and level ---

struct Message
{
    QString category;
    QtMsgType type;
    QString text;
};

QMutex g_mutex; // Qt Network logs from its own threads too
QList<Message> g_messages;

void captureMessage(QtMsgType type, const QMessageLogContext &context, const QString &text)
{
    const QMutexLocker lock(&g_mutex);
    g_messages.append(
        { QString::fromLatin1(context.category ? context.category : "default"), type, text });
}

/// While it lives, every category logs at every level, into g_messages.
class CaptureAllLogging final
{
    Q_DISABLE_COPY_MOVE(CaptureAllLogging)

public:
    CaptureAllLogging()
    {
        {
            const QMutexLocker lock(&g_mutex);
            g_messages.clear();
        }
        QLoggingCategory::setFilterRules(u"*.debug=true\n*.info=true\n*.warning=true"_s);
        m_previous = qInstallMessageHandler(captureMessage);
    }
    ~CaptureAllLogging()
    {
        qInstallMessageHandler(m_previous);
        QLoggingCategory::setFilterRules(QString());
    }

private:
    QtMessageHandler m_previous = nullptr;
};

// --- capwatch-cli as a child process ---

using Run = testing::CliRun;

QProcessEnvironment cliEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(kKeyVariable, QString::fromLatin1(kKey));
    env.insert(u"QT_LOGGING_RULES"_s, u"*=true"_s);
    return env;
}

/// Runs the CLI while this thread's event loop serves the in-process demo provider.
Run runCli(const QStringList &args, const QProcessEnvironment &env = cliEnvironment())
{
    testing::CliOptions options;
    options.environment = env;
    return testing::runCli(args, options);
}

// --- in-process sends ---

/// A demo provider and a client for one scenario, with every Authorization header it received.
struct Fixture
{
    explicit Fixture(const QString &scenario, demo::DemoOptions options = {})
    {
        options.scenario = scenario;
        options.timeScale = kScale;
        provider.setOptions(options);
        listening = provider.listen();
        client.setTimeScale(kScale);
        client.setRetryLog(&log);
        QObject::connect(&provider, &demo::DemoProvider::chatRequestReceived, &context,
            [this](int, const QByteArray &authorization) { authorizations.append(authorization); });
        QObject::connect(&client, &net::ChatClient::attemptFailed, &context,
            [this](quint64, const net::AttemptFailure &f) { texts.append(f.errorText); });
        const auto end = [this](quint64, const net::SendSummary &s) {
            texts << s.errorText << s.finalErrorText;
            ended = true;
        };
        QObject::connect(&client, &net::ChatClient::succeeded, &context, end);
        QObject::connect(&client, &net::ChatClient::gaveUp, &context, end);
        QObject::connect(&client, &net::ChatClient::cancelled, &context, end);
    }
    bool run(std::shared_ptr<net::CredentialProvider> credentials, const QUrl &endpoint = {})
    {
        client.setCredentialProvider(std::move(credentials));
        net::ChatRequest r;
        r.endpoint = endpoint.isEmpty() ? provider.baseUrl() : endpoint;
        r.model = u"capwatch-demo"_s;
        r.messages = { { u"user"_s, u"Tell me about token caps."_s } };
        ended = false;
        client.send(r);
        return QTest::qWaitFor([this] { return ended; }, 20000);
    }

    demo::DemoProvider provider;
    net::RetryLog log;
    net::ChatClient client;
    QObject context;
    bool listening = false;
    bool ended = false;
    QList<QByteArray> authorizations;
    QStringList texts; ///< every failure text and final error text the client reported
};

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// --- the accessible tree ---

/// Every text the tree offers, with where it came from.
void collectAccessibleTexts(
    QAccessibleInterface *iface, QStringList *texts, int *seen, int depth = 0)
{
    if (!iface || !iface->isValid() || depth > 60)
        return;
    ++*seen;
    const QString where = iface->object()
        ? QString::fromLatin1(iface->object()->metaObject()->className())
        : u"role %1"_s.arg(int(iface->role()));
    for (const QAccessible::Text t :
        { QAccessible::Name, QAccessible::Description, QAccessible::Value, QAccessible::Help,
            QAccessible::Accelerator, QAccessible::DebugDescription, QAccessible::UserText })
        texts->append(where + u": "_s + iface->text(t));
    if (QAccessibleTextInterface *text = iface->textInterface())
        texts->append(where + u" text: "_s + text->text(0, text->characterCount()));
    if (QAccessibleValueInterface *value = iface->valueInterface())
        texts->append(where + u" value: "_s + value->currentValue().toString());
    for (int i = 0; i < iface->childCount(); ++i)
        collectAccessibleTexts(iface->child(i), texts, seen, depth + 1);
}

/// The first accessible text that shows a key, or empty; `seen` counts the nodes walked.
QString keyInAccessibleTree(QWidget *root, int *seen)
{
    QStringList texts;
    collectAccessibleTexts(QAccessible::queryAccessibleInterface(root), &texts, seen);
    for (const QString &t : std::as_const(texts)) {
        if (showsAKey(t))
            return t;
    }
    return {};
}

// --- the window ---

/// A window configured for a real provider at `endpoint`, the key from `source`.
struct Window
{
    Window(const QString &iniPath, const QString &endpoint,
        ProviderSettings::KeySource source = ProviderSettings::KeySource::Environment,
        const QString &keyFile = {})
        : settings(iniPath)
    {
        ProviderSettings p;
        p.useDemo = false;
        p.endpoint = endpoint;
        p.model = u"capwatch-demo"_s;
        p.keySource = source;
        p.keyVariable = kKeyVariable;
        p.keyFile = keyFile;
        settings.setProvider(p);
        LaunchOptions o;
        o.timeScale = kScale;
        window = std::make_unique<MainWindow>(settings, o);
        window->show();
        QObject::connect(window->session(), &session::ChatSession::sendStarted, window.get(),
            [this] { ++sends; });
    }
    QMessageBox *warning() const { return window->findChild<QMessageBox *>(u"plainHttpWarning"_s); }
    QPushButton *sendButton() const { return testing::widgets::sendButton(*window); }
    bool idle() const { return !window->session()->busy(); }

    Settings settings;
    std::unique_ptr<MainWindow> window;
    int sends = 0;
};

} // namespace

class TestSecrets final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void plainHttpWarning();
    void plainHttpAsksOnlyWhenAKeyWouldTravelInClear_data();
    void plainHttpAsksOnlyWhenAKeyWouldTravelInClear();
    void keyNeverInAnyLog();
    void keyNeverInTheCliLogs();
    void keyQuotedByTheProviderIsRemoved();
    void keyNeverInTheAccessibleTree();
    void keyNeverInCrashOutput_data();
    void keyNeverInCrashOutput();
    void keyNeverInExports();

private:
    QTemporaryDir m_dir;
    int m_n = 0;
    QString ini() { return m_dir.filePath(u"settings-%1.ini"_s.arg(++m_n)); }
};

void TestSecrets::initTestCase()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QVERIFY(m_dir.isValid());
    // This process also runs demo providers, which receive the keys: DemoProvider itself keeps
    // Qt's dumps of the requests it receives off (not called here, so that the test proves it).
}

void TestSecrets::init()
{
    qputenv(kKeyVariable.toLatin1().constData(), kKey);
}

void TestSecrets::plainHttpWarning()
{
    Window w(ini(), u"http://capwatch-test.invalid/v1"_s);
    QVERIFY(!w.window->session()->provider().usingDemo());
    QPushButton *send = w.sendButton();
    QVERIFY(send);
    promptEditor(*w.window)->setPlainText(u"Over plain HTTP"_s);

    // Send: the warning, and nothing sent.
    QTest::mouseClick(send, Qt::LeftButton);
    QPointer<QMessageBox> box = w.warning();
    QVERIFY(box);
    QVERIFY(box->isVisible());
    QVERIFY(box->windowModality() != Qt::NonModal);
    QVERIFY2(box->text().contains(u"capwatch-test.invalid"_s), qPrintable(box->text()));
    QVERIFY2(box->text().contains(u"readable by anyone on the way"_s), qPrintable(box->text()));
    QVERIFY(!showsAKey(box->text() + box->informativeText() + box->windowTitle()));
    auto *cancel = box->findChild<QPushButton *>(u"cancel"_s);
    auto *sendAnyway = box->findChild<QPushButton *>(u"sendAnyway"_s);
    QVERIFY(cancel && sendAnyway);
    QCOMPARE(box->defaultButton(), cancel);
    QCOMPARE(box->escapeButton(), cancel);
    QCOMPARE(sendAnyway->text(), u"Send &anyway"_s);
    QCOMPARE(w.sends, 0);
    QVERIFY(w.window->session()->retryLog()->records().isEmpty());

    // Sending again while it is open does not stack a second one.
    w.window->controller()->sendPrompt();
    QCOMPARE(w.window->findChildren<QMessageBox *>().size(), 1);

    // Esc cancels: still nothing sent, the prompt still in the editor.
    QTest::keyClick(box, Qt::Key_Escape);
    QVERIFY(!box->isVisible());
    QTRY_VERIFY(!box); // deleted once closed
    QCOMPARE(w.sends, 0);
    QVERIFY(w.window->session()->retryLog()->records().isEmpty());
    QCOMPARE(promptEditor(*w.window)->toPlainText(), u"Over plain HTTP"_s);

    // Send again: asked again (a cancel is not remembered); Cancel clicked: nothing sent.
    QTest::mouseClick(send, Qt::LeftButton);
    box = w.warning();
    QVERIFY(box);
    QTest::mouseClick(box->findChild<QPushButton *>(u"cancel"_s), Qt::LeftButton);
    QTRY_VERIFY(!box);
    QCOMPARE(w.sends, 0);
    QCOMPARE(promptEditor(*w.window)->toPlainText(), u"Over plain HTTP"_s);

    // Send anyway: the send proceeds (and fails: the host does not exist).
    QTest::mouseClick(send, Qt::LeftButton);
    box = w.warning();
    QVERIFY(box);
    testing::SendSteps steps(w.window->session());
    QTest::mouseClick(box->findChild<QPushButton *>(u"sendAnyway"_s), Qt::LeftButton);
    QCOMPARE(w.sends, 1);
    QVERIFY(promptEditor(*w.window)->toPlainText().isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(steps.attempts().size(), 1, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(w.idle(), 30000);
    QCOMPARE(retryPanel(*w.window)->state(), RetryPanel::State::GaveUp);
    QTRY_VERIFY(!box);

    // A third send to the same endpoint is not asked about again.
    QCOMPARE(
        promptEditor(*w.window)->toPlainText(), u"Over plain HTTP"_s); // the failed prompt is back
    QTest::mouseClick(send, Qt::LeftButton);
    QVERIFY(!w.warning());
    QCOMPARE(w.sends, 2);
    QTRY_VERIFY_WITH_TIMEOUT(w.idle(), 30000);
    // Nor is "Retry now".
    QTest::mouseClick(retryNowButton(*w.window), Qt::LeftButton);
    QVERIFY(!w.warning());
    QCOMPARE(w.sends, 3);
    w.window->controller()->cancelSend();
}

void TestSecrets::plainHttpAsksOnlyWhenAKeyWouldTravelInClear_data()
{
    using Source = ProviderSettings::KeySource;
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<Source>("source");
    QTest::addColumn<bool>("keySet");
    QTest::addColumn<bool>("asks");
    QTest::newRow("https") << u"https://capwatch-test.invalid/v1"_s << Source::Environment << true
                           << false;
    QTest::newRow("http 127.0.0.1")
        << u"http://127.0.0.1:9/v1"_s << Source::Environment << true << false;
    QTest::newRow("http localhost")
        << u"http://localhost:9/v1"_s << Source::Environment << true << false;
    QTest::newRow("http [::1]") << u"http://[::1]:9/v1"_s << Source::Environment << true << false;
    QTest::newRow("http remote, no key")
        << u"http://capwatch-test.invalid/v1"_s << Source::Environment << false << false;
    QTest::newRow("http remote, key file")
        << u"http://capwatch-test.invalid/v1"_s << Source::KeyFile << true << true;
    QTest::newRow("http remote, empty key file")
        << u"http://capwatch-test.invalid/v1"_s << Source::KeyFile << false << false;
    // The keychain answers asynchronously: a configured keychain counts as a key.
    QTest::newRow("http remote, keychain")
        << u"http://capwatch-test.invalid:8080/v1"_s << Source::Keychain << true << true;
    QTest::newRow("http remote, full URL")
        << u"http://203.0.113.7/v1/chat/completions"_s << Source::Environment << true << true;
}

void TestSecrets::plainHttpAsksOnlyWhenAKeyWouldTravelInClear()
{
    QFETCH(QString, endpoint);
    QFETCH(ProviderSettings::KeySource, source);
    QFETCH(bool, keySet);
    QFETCH(bool, asks);
    const QString keyFile = m_dir.filePath(u"key-%1"_s.arg(m_n));
    QVERIFY(writeFile(keyFile, keySet ? QByteArray(kKey + '\n') : QByteArray()));
    if (!keySet)
        qunsetenv(kKeyVariable.toLatin1().constData());
    Window w(ini(), endpoint, source, keyFile);
    promptEditor(*w.window)->setPlainText(u"hello"_s);
    QTest::mouseClick(w.sendButton(), Qt::LeftButton);
    QCOMPARE(bool(w.warning()), asks);
    QCOMPARE(w.sends, asks ? 0 : 1);
    if (asks) {
        QCOMPARE(promptEditor(*w.window)->toPlainText(), u"hello"_s);
        QTest::keyClick(w.warning(), Qt::Key_Escape);
        QCOMPARE(w.sends, 0);
    }
    w.window->controller()->cancelSend();
}

void TestSecrets::keyNeverInAnyLog()
{
    QTemporaryDir dir;
    const QString keyPath = dir.filePath(u"key"_s);
    QStringList texts;
    QList<QByteArray> logs;
    {
        const CaptureAllLogging capture;
        qCDebug(lcTest) << "capture is on"; // the rules really apply

        const auto env = [] { return std::make_shared<net::EnvCredentialProvider>(kKeyVariable); };
        for (const QString &scenario : { u"headline"_s, u"rate-limited"_s, u"validation"_s,
                 u"drop-mid-stream"_s, u"flaky"_s }) {
            Fixture f(scenario);
            QVERIFY(f.listening);
            QVERIFY2(f.run(env()), qPrintable(scenario));
            QVERIFY2(f.authorizations.contains(bearer(kKey)),
                qPrintable(scenario)); // the key did travel
            texts += f.texts;
            logs << f.log.serialize(net::LogFormat::JsonLines)
                 << f.log.serialize(net::LogFormat::Csv);
        }

        // auth-expired: the key in a key file is refused, rotated, reloaded and accepted.
        {
            QVERIFY(writeFile(keyPath, kOldKey + '\n'));
            demo::DemoOptions o;
            o.acceptedKey = kNewKey;
            Fixture f(u"auth-expired"_s, o);
            QVERIFY(f.listening);
            QObject::connect(
                &f.provider, &demo::DemoProvider::chatRequestReceived, &f.context, [&](int index) {
                    if (index == 1)
                        writeFile(keyPath, "  " + kNewKey + "  \n");
                });
            QVERIFY(f.run(std::make_shared<net::FileCredentialProvider>(keyPath)));
            QCOMPARE(f.authorizations, (QList<QByteArray> { bearer(kOldKey), bearer(kNewKey) }));
            QCOMPARE(f.log.records().last().event, net::RetryRecord::Event::Succeeded);
            texts += f.texts;
            logs << f.log.serialize(net::LogFormat::JsonLines)
                 << f.log.serialize(net::LogFormat::Csv);
        }
        // auth-expired, the reloaded key unchanged: the send gives up and says where the key came
        // from.
        {
            demo::DemoOptions o;
            o.acceptedKey = "some-other-key";
            Fixture f(u"auth-expired"_s, o);
            QVERIFY(f.listening);
            QVERIFY(f.run(env()));
            QCOMPARE(f.authorizations, QList<QByteArray> { bearer(kKey) });
            QVERIFY(f.texts.last().contains(u"  auth: "_s + kKeyVariable));
            texts += f.texts;
            logs << f.log.serialize(net::LogFormat::JsonLines)
                 << f.log.serialize(net::LogFormat::Csv);
        }
    }

    const QMutexLocker lock(&g_mutex);
    QSet<QString> categories;
    for (const Message &m : std::as_const(g_messages)) {
        categories.insert(m.category);
        QVERIFY2(!showsAKey(m.text), qPrintable(m.category + u": "_s + m.text));
        QVERIFY2(!showsAKey(m.category), qPrintable(m.category));
    }
    QStringList names = categories.values();
    names.sort();
    qInfo("%d messages captured in %ls", int(g_messages.size()),
        qUtf16Printable(names.join(u", "_s)));
    // The capture saw what there was to see: the test category, the retry driver and the demo.
    for (const char *category : { "capwatch.test", "capwatch.retry", "capwatch.demo" })
        QVERIFY2(categories.contains(QString::fromLatin1(category)), category);
    QVERIFY(g_messages.size() > 50);
    for (const QString &t : std::as_const(texts))
        QVERIFY2(!showsAKey(t), qPrintable(t));
    for (const QByteArray &l : std::as_const(logs)) {
        QVERIFY(!l.isEmpty());
        QVERIFY2(!showsAKey(l), l.constData());
    }
}

void TestSecrets::keyNeverInTheCliLogs()
{
    // A key from the environment, rate-limited twice and then answered.
    {
        demo::DemoOptions o;
        Fixture demo(u"rate-limited"_s, o);
        QVERIFY(demo.listening);
        const Run r = runCli({ u"chat"_s, u"--endpoint"_s, demo.provider.baseUrl().toString(),
            u"--prompt"_s, u"Hello"_s, u"--time-scale"_s, QString::number(kScale),
            u"--api-key-env"_s, kKeyVariable });
        QCOMPARE(r.status, QProcess::NormalExit);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(demo.authorizations.size(), 3);
        QCOMPARE(demo.authorizations.last(), bearer(kKey));
        QVERIFY2(r.err.contains("capwatch.retry: request 1: attempt 3 of 5"),
            r.err.constData()); // logging is on
        QVERIFY2(!showsAKey(r.out), r.out.constData());
        QVERIFY2(!showsAKey(r.err), r.err.constData());
    }
    // A key in a key file, refused, rotated, reloaded: the CLI logs the reload, never the key.
    {
        QTemporaryDir dir;
        const QString keyPath = dir.filePath(u"key"_s);
        QVERIFY(writeFile(keyPath, kOldKey + '\n'));
        demo::DemoOptions o;
        o.acceptedKey = kNewKey;
        Fixture demo(u"auth-expired"_s, o);
        QVERIFY(demo.listening);
        QObject::connect(&demo.provider, &demo::DemoProvider::chatRequestReceived, &demo.context,
            [&](int index) {
                if (index == 1)
                    writeFile(keyPath, kNewKey + '\n');
            });
        const QString log = dir.filePath(u"log.csv"_s);
        const Run r = runCli({ u"chat"_s, u"--endpoint"_s, demo.provider.baseUrl().toString(),
            u"--prompt"_s, u"Hello"_s, u"--time-scale"_s, QString::number(kScale),
            u"--api-key-file"_s, keyPath, u"--log"_s, log });
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(demo.authorizations, (QList<QByteArray> { bearer(kOldKey), bearer(kNewKey) }));
        QVERIFY2(r.err.contains("reloading the credential from key file"), r.err.constData());
        QVERIFY2(!showsAKey(r.out), r.out.constData());
        QVERIFY2(!showsAKey(r.err), r.err.constData());
        const QByteArray written = readFile(log);
        QVERIFY(written.contains("credential-refresh"));
        QVERIFY2(!showsAKey(written), written.constData());
    }
    // `capwatch-cli demo` receives the key: it logs every request, never the key.
    {
        testing::CliProcess demo({ u"demo"_s, u"--scenario"_s, u"auth-expired"_s, u"--time-scale"_s,
                                     QString::number(kScale) },
            cliEnvironment());
        QVERIFY(demo.waitForLine(10000));
        const QByteArray line = demo.process().readLine();
        QVERIFY2(line.startsWith("listening on http://127.0.0.1:"), line.constData());
        const Run r = runCli({ u"chat"_s, u"--endpoint"_s,
            QString::fromUtf8(line.mid(13).trimmed()), u"--prompt"_s, u"Hello"_s, u"--time-scale"_s,
            QString::number(kScale), u"--api-key-env"_s, kKeyVariable });
        QCOMPARE(r.exitCode, 3); // refused: the reloaded key is the same
        QVERIFY2(!showsAKey(r.out + r.err), r.err.constData());
        demo.process().terminate();
        QVERIFY(demo.waitForFinished(10000));
        const Run ended = demo.result();
        const QByteArray err = ended.err;
        QVERIFY2(err.contains("capwatch.demo: chat #1 [auth-expired] -> 401"),
            err.constData()); // logging is on
        QVERIFY2(!showsAKey(err), err.constData());
        QVERIFY(!showsAKey(ended.out));
    }
}

void TestSecrets::keyQuotedByTheProviderIsRemoved()
{
    // Some gateways quote the key they refuse. Their error body goes on into the log, the final
    // error text and the window: the key must not.
    QHttpServer server;
    server.route(u"/v1/chat/completions"_s, [](const QHttpServerRequest &request) {
        const QByteArray quoted = request.value("Authorization");
        const QByteArray body(R"({"error":{"message":"Incorrect API key provided: )" + quoted
            + R"(. You passed )" + quoted.mid(7) + R"(","code":"invalid_api_key"}})");
        return QHttpServerResponse(QByteArrayLiteral("application/json"), body,
            QHttpServerResponse::StatusCode::Unauthorized);
    });
    const quint16 port = server.listen(QHostAddress::LocalHost);
    QVERIFY(port != 0);
    const QUrl endpoint(u"http://127.0.0.1:%1/v1"_s.arg(port));

    const CaptureAllLogging capture;
    Fixture f(u"capped"_s); // its demo provider stays unused
    QVERIFY(f.run(std::make_shared<net::EnvCredentialProvider>(kKeyVariable), endpoint));
    QCOMPARE(f.log.records().last().event, net::RetryRecord::Event::GaveUp);
    QCOMPARE(f.log.records().last().status.value_or(0), 401);
    QVERIFY(!f.texts.isEmpty());
    const QString final = f.texts.last();
    QVERIFY2(
        final.contains(u"Incorrect API key provided: "_s), qPrintable(final)); // the rest is kept
    for (const QString &t : std::as_const(f.texts))
        QVERIFY2(!showsAKey(t), qPrintable(t));
    for (const auto format : { net::LogFormat::JsonLines, net::LogFormat::Csv }) {
        const QByteArray text = f.log.serialize(format);
        QVERIFY(text.contains("Incorrect API key provided"));
        QVERIFY2(!showsAKey(text), text.constData());
    }
    const QMutexLocker lock(&g_mutex);
    QVERIFY(!g_messages.isEmpty());
    for (const Message &m : std::as_const(g_messages))
        QVERIFY2(!showsAKey(m.text), qPrintable(m.category + u": "_s + m.text));
}

void TestSecrets::keyNeverInTheAccessibleTree()
{
    // A window that used the key: refused once, then given up, the final error in the conversation.
    demo::DemoOptions o;
    o.scenario = u"auth-expired"_s;
    o.acceptedKey = "some-other-key";
    o.timeScale = kScale;
    demo::DemoProvider provider;
    provider.setOptions(o);
    QVERIFY(provider.listen());
    QList<QByteArray> authorizations;
    connect(&provider, &demo::DemoProvider::chatRequestReceived, this,
        [&](int, const QByteArray &a) { authorizations.append(a); });
    {
        Window w(ini(), provider.baseUrl().toString());
        promptEditor(*w.window)->setPlainText(u"hello"_s);
        w.window->controller()->sendPrompt();
        QTRY_COMPARE_WITH_TIMEOUT(retryPanel(*w.window)->state(), RetryPanel::State::GaveUp, 10000);
        QCOMPARE(authorizations, QList<QByteArray> { bearer(kKey) });
        QVERIFY(conversation(*w.window)->toMarkdown().contains(u"auth: "_s + kKeyVariable));
        int seen = 0;
        const QString leak = keyInAccessibleTree(w.window.get(), &seen);
        QVERIFY2(leak.isEmpty(), qPrintable(leak));
        QVERIFY2(seen > 30, "the accessible tree is suspiciously small");
        QVERIFY(!showsAKey(w.window->windowTitle()));
    }
    // The plain-HTTP warning.
    {
        Window w(ini(), u"http://capwatch-test.invalid/v1"_s);
        promptEditor(*w.window)->setPlainText(u"hello"_s);
        w.window->controller()->sendPrompt();
        QVERIFY(w.warning());
        int seen = 0;
        QString leak = keyInAccessibleTree(w.warning(), &seen);
        QVERIFY2(leak.isEmpty(), qPrintable(leak));
        QVERIFY(seen > 3);
        leak = keyInAccessibleTree(w.window.get(), &seen);
        QVERIFY2(leak.isEmpty(), qPrintable(leak));
        QTest::keyClick(w.warning(), Qt::Key_Escape);
    }
    // The settings dialog with a key typed for the keychain.
    {
        ProviderSettings p;
        p.useDemo = false;
        p.endpoint = u"https://api.example.com/v1"_s;
        p.model = u"m"_s;
        p.keySource = ProviderSettings::KeySource::Keychain;
        SettingsDialog dialog(p, session::ParkingChoice::Ask);
        dialog.show();
        QLineEdit *keyField = nullptr;
        for (QLineEdit *e : dialog.findChildren<QLineEdit *>()) {
            if (e->echoMode() == QLineEdit::Password)
                keyField = e;
        }
        QVERIFY(keyField);
        QVERIFY(keyField->isEnabled());
        keyField->setFocus();
        QTest::keyClicks(keyField, QString::fromLatin1(kKey));
        QCOMPARE(dialog.keychainKey(), kKey);
        int seen = 0;
        const QString leak = keyInAccessibleTree(&dialog, &seen);
        QVERIFY2(leak.isEmpty(), qPrintable(leak));
        QVERIFY2(seen > 15, "the accessible tree is suspiciously small");
        // The field itself is there, named, with its text masked.
        QAccessibleInterface *field = QAccessible::queryAccessibleInterface(keyField);
        QVERIFY(field);
        QVERIFY(!field->text(QAccessible::Name).isEmpty());
        QVERIFY(field->state().passwordEdit);
        QVERIFY(!showsAKey(dialog.windowTitle()));
    }
}

void TestSecrets::keyNeverInCrashOutput_data()
{
    QTest::addColumn<int>("signal");
    QTest::newRow("SIGSEGV") << int(SIGSEGV);
    QTest::newRow("SIGABRT") << int(SIGABRT);
}

void TestSecrets::keyNeverInCrashOutput()
{
    QFETCH(int, signal);
    Fixture demo(u"hang"_s);
    QVERIFY(demo.listening);
    QProcessEnvironment env = cliEnvironment();
    // In a sanitizer build the sanitizer's own handler would take the signal, print a report
    // (into the run's report files, failing it) and abort: this crash is on purpose, so the
    // signal keeps its default action there too.
    env.insert(u"ASAN_OPTIONS"_s,
        env.value(u"ASAN_OPTIONS"_s) + u":handle_segv=0:handle_abort=0:log_path=stderr"_s);
    QSignalSpy requests(&demo.provider, &demo::DemoProvider::chatRequestReceived);
    testing::CliProcess p({ u"chat"_s, u"--endpoint"_s, demo.provider.baseUrl().toString(),
                              u"--prompt"_s, u"Hello"_s, u"--api-key-env"_s, kKeyVariable },
        env, [](QProcess &process) {
            // No core file left behind in the build tree.
            process.setChildProcessModifier([] {
                const rlimit none { 0, 0 };
                ::setrlimit(RLIMIT_CORE, &none);
            });
        });
    QVERIFY(requests.wait(20000)); // the CLI holds the key and waits for an answer that never comes
    QCOMPARE(demo.authorizations, QList<QByteArray> { bearer(kKey) });
    QTRY_COMPARE(demo.provider.openResponses(), 1);
    QVERIFY(!p.finished());
    QVERIFY(::kill(pid_t(p.pid()), signal) == 0);
    QVERIFY(p.waitForFinished(10000));
    const Run ended = p.result();
    QCOMPARE(ended.status, QProcess::CrashExit);
    QCOMPARE(p.process().exitCode(), signal);
    const QByteArray out = ended.out;
    const QByteArray err = ended.err;
    QVERIFY2(err.contains("capwatch.retry: request 1: attempt 1 of 5"),
        err.constData()); // output was captured
    QVERIFY2(!showsAKey(out), out.constData());
    QVERIFY2(!showsAKey(err), err.constData());
}

void TestSecrets::keyNeverInExports()
{
    // tst_mainwindow checks the exports' contents with the (keyless) demo; this is a real provider
    // with a key in a key file, through an auth-expired cycle with a rotated key, and a refusal.
    QTemporaryDir dir;
    const QString keyPath = dir.filePath(u"key"_s);
    QVERIFY(writeFile(keyPath, kOldKey + '\n'));
    demo::DemoOptions o;
    o.scenario = u"auth-expired"_s;
    o.acceptedKey = kNewKey;
    o.timeScale = kScale;
    demo::DemoProvider provider;
    provider.setOptions(o);
    QVERIFY(provider.listen());
    QList<QByteArray> authorizations;
    connect(&provider, &demo::DemoProvider::chatRequestReceived, this,
        [&](int index, const QByteArray &a) {
            authorizations.append(a);
            if (index == 1)
                writeFile(keyPath, kNewKey + '\n');
        });

    Window w(ini(), provider.baseUrl().toString(), ProviderSettings::KeySource::KeyFile, keyPath);
    const QString live
        = dir.filePath(u"live.jsonl"_s); // appended record by record, as the CLI's --log
    QString error;
    auto writer = net::RetryLogWriter::open(live, &error);
    QVERIFY2(writer, qPrintable(error));
    w.window->session()->retryLog()->addWriter(std::move(writer));

    promptEditor(*w.window)->setPlainText(u"first"_s);
    w.window->controller()->sendPrompt();
    QTRY_COMPARE_WITH_TIMEOUT(retryPanel(*w.window)->state(), RetryPanel::State::Succeeded, 10000);
    QCOMPARE(authorizations, (QList<QByteArray> { bearer(kOldKey), bearer(kNewKey) }));
    // Then the provider refuses the new key too; the reloaded one is the same: given up.
    o.acceptedKey = "some-other-key";
    provider.setOptions(o);
    promptEditor(*w.window)->setPlainText(u"second"_s);
    w.window->controller()->sendPrompt();
    QTRY_COMPARE_WITH_TIMEOUT(retryPanel(*w.window)->state(), RetryPanel::State::GaveUp, 10000);
    QCOMPARE(authorizations.size(), 3);

    const QString jsonl = dir.filePath(u"log.jsonl"_s);
    const QString csv = dir.filePath(u"log.csv"_s);
    const QString md = dir.filePath(u"conversation.md"_s);
    QVERIFY(w.window->exportRetryLog(jsonl, net::LogFormat::JsonLines));
    QVERIFY(w.window->exportRetryLog(csv, net::LogFormat::Csv));
    QVERIFY(w.window->exportConversation(md));
    const QList<QPair<QString, QByteArray>> exports {
        { jsonl, readFile(jsonl) },
        { csv, readFile(csv) },
        { live, readFile(live) },
        { u"copied retry log"_s, w.window->retryLogText().toUtf8() },
        { md, readFile(md) },
    };
    for (const auto &[what, text] : exports) {
        if (what != md) {
            QVERIFY2(
                text.contains("credential-refresh"), qPrintable(what)); // the cycle is in there
            QVERIFY2(text.contains("auth_unchanged"), qPrintable(what));
        }
        QVERIFY2(!showsAKey(text), qPrintable(what + u": "_s + QString::fromUtf8(text)));
        QVERIFY2(!text.contains("Bearer"), qPrintable(what));
    }
    QVERIFY(exports.last().second.contains(
        QByteArray("auth: key file " + keyPath.toUtf8()))); // where, not what
}

QTEST_MAIN(TestSecrets)
#include "tst_secrets.moc"
