// capwatch-cli chat and the history: it stores its send in the database the window uses (found
// through XDG_DATA_HOME here), record by record, so a kill -9 in the middle of a retry cycle
// leaves every earlier record readable; --private makes no file; Ctrl+C still writes the end;
// the key never reaches the file. Read back with a HistoryStore, as `capwatch-cli history` will.

#include "history/historystore.h"
#include "session/chatsession.h"
#include "session/storedrecords.h"
#include "support/clirunner.h"
#include "support/damagedpage.h"
#include "support/demothread.h"
#include "support/files.h"
#include "support/storedlines.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <sys/stat.h>
#include <sys/types.h>

using namespace capwatch;
using namespace capwatch::testing;
using namespace Qt::StringLiterals;

namespace {

const QByteArray kKey = "sk-capwatch-cli-test-0d9e8f7a6b5c4d3e";

/// The mode in octal as `ls -l` has it ("0600"), or "missing".
QString modeOf(const QString &path)
{
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return u"missing"_s;
    return u"0"_s + QString::number(st.st_mode & 07777, 8);
}

demo::DemoOptions scenario(const QString &name)
{
    demo::DemoOptions o;
    o.scenario = name;
    return o;
}

} // namespace

class TestChatHistory final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void chatStoresItsSend();
    void anAnswerOverAMillionCharactersIsStoredCut();
    void privateWritesNoFile();
    void killNineInTheMiddleOfARetryCycle();
    void interruptStoresTheCancel();
    void unusableDatabaseNeverStopsTheSend();
    void chatNeverReadsTheWholeHistoryFirst();
    void theDatabaseIsForItsUserAlone();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"XDG_DATA_HOME"_s, m_dir->filePath(u"data"_s));
        env.remove(u"OPENAI_COMPAT_API_KEY"_s);
        return env;
    }
    /// Where both programs keep the database under this test's XDG_DATA_HOME.
    QString database() const { return m_dir->filePath(u"data/capwatch/history.sqlite"_s); }
    QString logFile() const { return m_dir->filePath(u"retries.jsonl"_s); }
    /// `capwatch-cli chat --endpoint URL --prompt PROMPT` and `more`, on this test's data folder.
    testing::CliRun chat(const QUrl &url, const QString &prompt, const QStringList &more = {}) const
    {
        testing::CliOptions options;
        options.environment = environment();
        return testing::runCli(
            QStringList { u"chat"_s, u"--endpoint"_s, url.toString(), u"--prompt"_s, prompt }
                + more,
            options);
    }
};

void TestChatHistory::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestChatHistory::anAnswerOverAMillionCharactersIsStoredCut()
{
    // issue 26.5: the CLI prints the whole answer, and the history keeps its first 1,000,000
    // characters (kMaxStoredAnswerChars), marked cut off.
    demo::DemoOptions o = scenario(u"firehose"_s);
    o.answerBytes = 1'200'000;
    o.answerChunks = 300;
    testing::DemoThread demo(o);
    const QUrl url = demo.listen();
    QVERIFY(url.isValid());
    const testing::CliRun run = chat(url, u"A very long one"_s);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(run.out.size(), 1'200'000);

    history::HistoryStore store;
    QCOMPARE(store.open(database()).status, history::OpenResult::Status::Opened);
    const history::ConversationPage page = store.conversations(10);
    QCOMPARE(page.conversations.size(), 1);
    const QList<history::Message> messages = store.messages(page.conversations.first().id);
    QCOMPARE(messages.size(), 2);
    QCOMPARE(messages.at(1).text.size(), session::kMaxStoredAnswerChars);
    QCOMPARE(messages.at(1).state, history::MessageState::CutOff);
    QVERIFY(run.out.startsWith(messages.at(1).text.toUtf8()));
    // Search finds it by a word of its first KiB (it looks at the first 65,536 characters).
    const QList<history::SearchHit> hits = store.search(u"firehose"_s);
    QCOMPARE(hits.size(), 1);
    QCOMPARE(hits.front().message, messages.at(1).id);
    QVERIFY2(hits.front().snippet.contains(u"[firehose]"_s), qPrintable(hits.front().snippet));
    store.close();
    // Restored whole: `history show` prints the stored 1,000,000 characters.
    testing::CliOptions options;
    options.environment = environment();
    const testing::CliRun show = testing::runCli(
        { u"history"_s, u"show"_s, page.conversations.first().id.toString(QUuid::WithoutBraces) },
        options);
    QVERIFY2(show.exitCode == 0, show.err.constData());
    const QByteArray whole = '\n' + messages.at(1).text.toUtf8() + '\n';
    QVERIFY(show.out.contains(whole));
}

void TestChatHistory::chatStoresItsSend()
{
    // rate-limited: 429, 429, the answer; the key from a file, sent to the loopback provider.
    testing::DemoThread demo(scenario(u"rate-limited"_s));
    const QUrl url = demo.listen();
    QVERIFY(url.isValid());
    const QString keyFile = m_dir->filePath(u"key"_s);
    {
        QFile file(keyFile);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(kKey + '\n');
    }
    const testing::CliRun run = chat(url, u"Stored from the CLI"_s,
        { u"--api-key-file"_s, keyFile, u"--time-scale"_s, u"0.02"_s, u"--log"_s, logFile() });
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY2(!run.err.contains("history"), run.err.constData());
    QCOMPARE(demo.recordedRequests().last().header("authorization"), QByteArray("Bearer ***"));

    history::HistoryStore store;
    QCOMPARE(store.open(database()).status, history::OpenResult::Status::Opened);
    const history::ConversationPage page = store.conversations(10);
    QCOMPARE(page.conversations.size(), 1);
    const history::Conversation c = page.conversations.first();
    QCOMPARE(c.title, u"Stored from the CLI"_s);
    QCOMPARE(c.model, u"capwatch-demo"_s);
    QCOMPARE(c.endpoint, history::HistoryStore::storableEndpoint(url.toString()));
    const QList<history::Message> messages = store.messages(c.id);
    QCOMPARE(messages.size(), 2);
    QCOMPARE(messages.at(0).text, u"Stored from the CLI"_s);
    QCOMPARE(messages.at(1).role, history::Role::Assistant);
    QCOMPARE(messages.at(1).state, history::MessageState::Complete);
    QCOMPARE(messages.at(1).text.toUtf8(), run.out);
    const QList<history::Send> sends = store.sends(c.id);
    QCOMPARE(sends.size(), 1);
    QCOMPARE(sends.at(0).outcome, history::SendOutcome::Succeeded);
    QCOMPARE(sends.at(0).attempts, 3);
    // The records are the retry log's, line for line.
    QCOMPARE(store.retryRecords(c.id).size(), 6);
    QCOMPARE(jsonLines(store.retryRecords(c.id)), readAll(logFile()));
    store.close();

    for (const QString &suffix : { u""_s, u"-wal"_s }) {
        const QByteArray bytes = readAll(database() + suffix);
        QVERIFY2(!bytes.contains(kKey), qPrintable(suffix));
    }

    // A second run is a second conversation.
    const testing::CliRun again = chat(url, u"Again"_s, { u"--time-scale"_s, u"0.02"_s });
    QVERIFY2(again.exitCode == 0, again.err.constData());
    QVERIFY(store.open(database()).persistent());
    QCOMPARE(store.conversationCount(), 2);
}

void TestChatHistory::privateWritesNoFile()
{
    testing::DemoThread demo(scenario(u"rate-limited"_s));
    const QUrl url = demo.listen();
    QVERIFY(url.isValid());
    testing::CliOptions options;
    options.environment = environment();
    const testing::CliRun run
        = testing::runCli({ u"chat"_s, u"--endpoint"_s, url.toString(), u"--prompt"_s,
                              u"Nothing on disk"_s, u"--time-scale"_s, u"0.02"_s, u"--private"_s },
            options);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY(!run.out.isEmpty());
    QCOMPARE(filesUnder(m_dir->path()), QStringList());

    const testing::CliRun both = testing::runCli(
        { u"chat"_s, u"--endpoint"_s, url.toString(), u"--prompt"_s, u"x"_s, u"--private"_s,
            u"--history-database"_s, m_dir->filePath(u"h.sqlite"_s) },
        options);
    QCOMPARE(both.exitCode, 2);
    QCOMPARE(filesUnder(m_dir->path()), QStringList());

    const testing::CliRun help = testing::runCli({ u"chat"_s, u"--help"_s }, options);
    QVERIFY(help.out.contains("--private"));
    QVERIFY(help.out.contains("--history-database"));
}

void TestChatHistory::killNineInTheMiddleOfARetryCycle()
{
    // headline: a 422 asking 18 min, capped to a 60 s wait: 6 s at this scale, killed in it.
    testing::DemoThread demo(scenario(u"headline"_s));
    const QUrl url = demo.listen();
    QVERIFY(url.isValid());
    testing::CliProcess cli(
        { u"chat"_s, u"--endpoint"_s, url.toString(), u"--prompt"_s, u"Killed while it waits"_s,
            u"--time-scale"_s, u"0.1"_s, u"--log"_s, logFile() },
        environment());
    QVERIFY(cli.started());
    cli.process().closeWriteChannel();
    QByteArray err;
    QTRY_VERIFY_WITH_TIMEOUT(
        (err += cli.process().readAllStandardError()).contains("capwatch: waiting"), 20000);
    // Its writes run on a worker thread: the record of the wait is committed a moment after
    // the line. Read by another connection (as `capwatch-cli history` would), then killed.
    {
        history::HistoryStore watcher;
        QVERIFY(watcher.open(database()).persistent());
        QTRY_COMPARE_WITH_TIMEOUT(watcher.retryRecordCount(), qint64(2), 5000);
    }
    QVERIFY(!cli.finished()); // still waiting: 6 s
    ::kill(pid_t(cli.pid()), SIGKILL);
    QVERIFY(cli.waitForFinished(10000));
    QCOMPARE(cli.result().status, QProcess::CrashExit);

    history::HistoryStore store;
    QVERIFY(store.open(database()).persistent());
    QCOMPARE(store.integrityCheck(), u"ok"_s);
    const history::ConversationPage page = store.conversations(10);
    QCOMPARE(page.conversations.size(), 1);
    const history::Conversation c = page.conversations.first();
    QCOMPARE(c.title, u"Killed while it waits"_s);
    QVERIFY(c.hasRetries);
    QVERIFY(c.hasUnanswered);
    const QList<history::Message> messages = store.messages(c.id);
    QCOMPARE(messages.size(), 1);
    QCOMPARE(messages.at(0).text, u"Killed while it waits"_s);
    const QList<history::Send> sends = store.sends(c.id);
    QCOMPARE(sends.size(), 1);
    QCOMPARE(sends.at(0).outcome, history::SendOutcome::Running);
    QCOMPARE(sends.at(0).message, messages.at(0).id);
    // Every record logged before the kill (attempt_started, retry_scheduled), as the log file
    // has them.
    const QByteArray logged = readAll(logFile());
    QCOMPARE(logged.count('\n'), 2);
    QCOMPARE(jsonLines(store.retryRecords(c.id)), logged);
    store.close();

    // And `capwatch-cli history` reads them: the same lines, with the conversation column last.
    testing::CliOptions options;
    options.environment = environment();
    const testing::CliRun exported = testing::runCli(
        { u"history"_s, u"export"_s, u"--format"_s, u"jsonl"_s, u"--database"_s, database() },
        options);
    QCOMPARE(exported.exitCode, 0);
    QByteArray expected;
    const QByteArray column
        = ",\"conversation\":\"" + c.id.toString(QUuid::WithoutBraces).toUtf8() + "\"}\n";
    for (const QByteArray &line : logged.split('\n')) {
        if (!line.isEmpty())
            expected += line.chopped(1) + column;
    }
    QCOMPARE(exported.out, expected);
}

void TestChatHistory::interruptStoresTheCancel()
{
    // Ctrl+C during a wait: exit 130, and the cancel (record and send) is in the file.
    testing::DemoThread demo(scenario(u"headline"_s));
    const QUrl url = demo.listen();
    QVERIFY(url.isValid());
    testing::CliProcess cli({ u"chat"_s, u"--endpoint"_s, url.toString(), u"--prompt"_s,
                                u"Interrupted"_s, u"--time-scale"_s, u"0.1"_s },
        environment());
    QVERIFY(cli.started());
    cli.process().closeWriteChannel();
    QByteArray err;
    QTRY_VERIFY_WITH_TIMEOUT(
        (err += cli.process().readAllStandardError()).contains("capwatch: waiting"), 20000);
    ::kill(pid_t(cli.pid()), SIGINT);
    QVERIFY(cli.waitForFinished(10000));
    const testing::CliRun run = cli.result();
    QCOMPARE(run.exitCode, 130);

    history::HistoryStore store;
    QVERIFY(store.open(database()).persistent());
    const history::Conversation c = store.conversations(10).conversations.value(0);
    const QList<history::Send> sends = store.sends(c.id);
    QCOMPARE(sends.size(), 1);
    QCOMPARE(sends.at(0).outcome, history::SendOutcome::Cancelled);
    QCOMPARE(sends.at(0).reason, retry::EndReason::Cancelled);
    const QList<history::StoredRetryRecord> records = store.retryRecords(c.id);
    QCOMPARE(records.size(), 3);
    QCOMPARE(records.last().record.event, u"cancelled"_s);
}

void TestChatHistory::unusableDatabaseNeverStopsTheSend()
{
    // The database's folder cannot be made (a file is in its way): one line, and the answer.
    testing::DemoThread demo(scenario(u"capped"_s));
    const QUrl url = demo.listen();
    QVERIFY(url.isValid());
    const QString blocker = m_dir->filePath(u"not-a-folder"_s);
    {
        QFile file(blocker);
        QVERIFY(file.open(QIODevice::WriteOnly));
    }
    const testing::CliRun run = chat(
        url, u"Still answered"_s, { u"--history-database"_s, blocker + u"/history.sqlite"_s });
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY(!run.out.isEmpty());
    QCOMPARE(run.err.count("capwatch: history: "), 1);
}

void TestChatHistory::chatNeverReadsTheWholeHistoryFirst()
{
    // A send waits for the history's open (its stored window reports come first), and reading
    // every page of a year's history (PRAGMA quick_check) took 2-4 s of it on a 700 MB file.
    // chat opens without: a damaged page it never reads neither stops it nor moves the file
    // aside; the window's open, which checks every page, still finds it.
    QDir().mkpath(QFileInfo(database()).absolutePath());
    {
        history::HistoryStore store;
        QCOMPARE(store.open(database()).status, history::OpenResult::Status::Created);
    }
    QVERIFY(testing::damageAPageNothingReads(database()));
    {
        history::HistoryStore store;
        history::OpenOptions quick;
        quick.checkIntegrity = false;
        QCOMPARE(store.open(database(), quick).status, history::OpenResult::Status::Opened);
        QVERIFY2(store.integrityCheck() != u"ok"_s, "the damage is real"); // a page of junk
    }

    testing::DemoThread demo(scenario(u"capped"_s));
    const QUrl url = demo.listen();
    QVERIFY(url.isValid());
    const testing::CliRun run = chat(url, u"Quick to start"_s);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY(!run.out.isEmpty());
    QVERIFY2(!run.err.contains("history"), run.err.constData());
    const QDir folder(QFileInfo(database()).absolutePath());
    QCOMPARE(folder.entryList({ u"*corrupt*"_s }, QDir::Files), QStringList());
    {
        history::HistoryStore store;
        history::OpenOptions quick;
        quick.checkIntegrity = false;
        QCOMPARE(store.open(database(), quick).status, history::OpenResult::Status::Opened);
        QCOMPARE(store.conversationCount(), 1);
        QCOMPARE(store.conversations(10).conversations.constFirst().title, u"Quick to start"_s);
    }

    // The window's open reads every page: it finds the damage and starts a new file.
    history::HistoryStore window;
    const history::OpenResult opened = window.open(database());
    QCOMPARE(opened.status, history::OpenResult::Status::Recovered);
    const QStringList moved = folder.entryList({ u"history.sqlite.corrupt-*"_s }, QDir::Files)
                                  .filter(QRegularExpression(u"corrupt-\\d{8}-\\d{6}$"_s));
    QCOMPARE(moved.size(), 1); // the file (its -wal and -shm went with it)
}

void TestChatHistory::theDatabaseIsForItsUserAlone()
{
    // issue 30: capwatch-cli on its default path, with a fresh XDG_DATA_HOME, under the usual
    // umask 022 that would make a file 0644: the folders it makes are 0700 and the database 0600.
    struct Umask
    {
        mode_t old = ::umask(022);
        ~Umask() { ::umask(old); }
    } umask022;
    testing::DemoThread demo(scenario(u"capped"_s));
    const QUrl url = demo.listen();
    QVERIFY(url.isValid());
    testing::CliOptions options;
    options.environment = environment();
    const QStringList chat { u"chat"_s, u"--endpoint"_s, url.toString(), u"--prompt"_s, u"hi"_s };
    const QString data = m_dir->filePath(u"data"_s);
    QVERIFY(!QFileInfo::exists(data));
    testing::CliRun run = testing::runCli(chat, options);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY2(!run.err.contains("history"), run.err.constData());
    QCOMPARE(modeOf(data), u"0700"_s);
    QCOMPARE(modeOf(data + u"/capwatch"_s), u"0700"_s);
    QCOMPARE(modeOf(database()), u"0600"_s);
    // Its -wal and -shm went with the last connection; were they left, they would be 0600.
    for (const QString &side : { u"-wal"_s, u"-shm"_s })
        QVERIFY(QStringList({ u"missing"_s, u"0600"_s }).contains(modeOf(database() + side)));

    // One of a capwatch from before: tightened by the next run, its conversation kept.
    QVERIFY(::chmod(QFile::encodeName(data + u"/capwatch"_s).constData(), 0755) == 0);
    QVERIFY(::chmod(QFile::encodeName(database()).constData(), 0644) == 0);
    run = testing::runCli(chat, options);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY2(!run.err.contains("history"), run.err.constData());
    QCOMPARE(modeOf(data + u"/capwatch"_s), u"0700"_s);
    QCOMPARE(modeOf(database()), u"0600"_s);
    {
        history::HistoryStore store;
        QCOMPARE(store.open(database()).status, history::OpenResult::Status::Opened);
        QCOMPARE(store.conversationCount(), 2);
    }

    // --history-database in a folder of the user's: the file is private, the folder untouched.
    const QString named = m_dir->filePath(u"named"_s);
    QVERIFY(QDir().mkdir(named));
    QVERIFY(::chmod(QFile::encodeName(named).constData(), 0755) == 0);
    run = testing::runCli(
        chat + QStringList { u"--history-database"_s, named + u"/h.sqlite"_s }, options);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(modeOf(named), u"0755"_s);
    QCOMPARE(modeOf(named + u"/h.sqlite"_s), u"0600"_s);
}

QTEST_GUILESS_MAIN(TestChatHistory)
#include "tst_chathistory.moc"
