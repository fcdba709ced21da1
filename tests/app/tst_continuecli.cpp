// capwatch-cli chat and answers that stop early (issue 29), on its default paths (a fresh
// XDG_CONFIG_HOME and XDG_DATA_HOME, no --config): exit 6 and a line on stderr for a cut-off or
// interrupted answer; --continue-cut-off joins continuations to the same output and stored
// answer; --continue ID goes on with a stored answer, as the window's Continue does. The requests
// are asserted at the provider, the database read back with a HistoryStore.

#include "demo/demoprovider.h"
#include "history/historystore.h"
#include "session/sessiontypes.h"
#include "support/clirunner.h"
#include "support/demothread.h"
#include "support/sentmessages.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace capwatch;
using namespace capwatch::testing;
using namespace Qt::StringLiterals;

namespace {

const QString kPrompt = u"hi"_s;

demo::DemoOptions scenario(const QString &name)
{
    demo::DemoOptions o;
    o.scenario = name;
    return o;
}

const QString kInstruction = QString::fromUtf16(session::kContinueInstruction);

} // namespace

class TestContinueCli final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
    }

    void cutOffExitsSixAndContinueCutOffJoins()
    {
        testing::DemoThread demo(scenario(u"length"_s));
        const QUrl url = demo.listen();
        QVERIFY(url.isValid());
        const QString whole = demo::DemoProvider::wholeAnswer(kPrompt);

        const CliRun cut = chat({ u"--endpoint"_s, url.toString(), u"--prompt"_s, kPrompt });
        QVERIFY2(cut.exitCode == 6, cut.err.constData());
        const QString partial = QString::fromUtf8(cut.out);
        QVERIFY2(whole.startsWith(partial) && partial.size() == 400, cut.out.constData());
        QVERIFY2(cut.err.contains("capwatch: the answer was cut off at the output limit (100 "
                                  "tokens)\n"),
            cut.err.constData());

        const CliRun joined = chat(
            { u"--endpoint"_s, url.toString(), u"--prompt"_s, kPrompt, u"--continue-cut-off"_s });
        QVERIFY2(joined.exitCode == 0, joined.err.constData());
        QCOMPARE(QString::fromUtf8(joined.out), whole); // the repeat at the seam left out
        QVERIFY2(joined.err.contains("; continuing (1 of 3)\n"), joined.err.constData());
        QCOMPARE(sentMessages(demo.recordedRequests().last()),
            (QStringList {
                u"user: "_s + kPrompt, u"assistant: "_s + partial, u"user: "_s + kInstruction }));
        QCOMPARE(demo.recordedRequests().size(), 3);

        // Stored: two conversations, the second's answer whole, with its seam.
        history::HistoryStore store;
        QVERIFY(store.open(database()).persistent());
        const QList<history::Conversation> conversations = store.conversations(10).conversations;
        QCOMPARE(conversations.size(), 2);
        const QList<history::Message> latest = store.messages(conversations.at(0).id);
        QCOMPARE(latest.size(), 2);
        QCOMPARE(latest.at(1).text, whole);
        QCOMPARE(latest.at(1).end, retry::AnswerEnd::Complete);
        QCOMPARE(latest.at(1).seams, QList<qsizetype> { partial.size() });
        const QList<history::Message> first = store.messages(conversations.at(1).id);
        QCOMPARE(first.at(1).text, partial);
        QCOMPARE(first.at(1).end, retry::AnswerEnd::CutOff);
    }

    void continueGoesOnWithAStoredAnswer()
    {
        testing::DemoThread demo(scenario(u"length"_s));
        const QUrl url = demo.listen();
        QVERIFY(url.isValid());
        const QString whole = demo::DemoProvider::wholeAnswer(kPrompt);
        const CliRun cut = chat({ u"--endpoint"_s, url.toString(), u"--prompt"_s, kPrompt });
        QCOMPARE(cut.exitCode, 6);
        QUuid id;
        {
            history::HistoryStore store;
            QVERIFY(store.open(database()).persistent());
            id = store.conversations(10).conversations.at(0).id;
        }
        const QString shortId = id.toString(QUuid::WithoutBraces).left(8);
        const CliRun shownCut = history({ u"show"_s, shortId });
        QCOMPARE(shownCut.exitCode, 0);
        QVERIFY2(
            shownCut.out.contains(", cut off at the output limit]\n"), shownCut.out.constData());

        const CliRun rest = chat({ u"--endpoint"_s, url.toString(), u"--continue"_s, shortId });
        QVERIFY2(rest.exitCode == 0, rest.err.constData());
        // Only what the continuation added: the terminal already has the rest.
        QCOMPARE(QString::fromUtf8(cut.out + rest.out), whole);
        QCOMPARE(sentMessages(demo.recordedRequests().last()),
            (QStringList { u"user: "_s + kPrompt, u"assistant: "_s + QString::fromUtf8(cut.out),
                u"user: "_s + kInstruction }));
        {
            history::HistoryStore store;
            QVERIFY(store.open(database()).persistent());
            const QList<history::Message> messages = store.messages(id);
            QCOMPARE(messages.size(), 2);
            QCOMPARE(messages.at(1).text, whole);
            QCOMPARE(messages.at(1).seams, QList<qsizetype> { cut.out.size() });
            QCOMPARE(store.sends(id).size(), 2);
            QCOMPARE(store.conversations(10).conversations.size(), 1); // no new conversation
        }
        const CliRun shownJoined = history({ u"show"_s, shortId });
        QVERIFY2(shownJoined.out.contains(", continued once]\n"), shownJoined.out.constData());
        QVERIFY(!shownJoined.out.contains("cut off at the output limit"));
        // The export's records say how each answer ended.
        const CliRun records = history({ u"show"_s, shortId, u"--format"_s, u"jsonl"_s });
        QVERIFY2(records.out.contains(R"("event":"succeeded")")
                && records.out.contains(R"("answer_end":"cut_off")")
                && records.out.contains(R"("answer_end":"complete")"),
            records.out.constData());
        // Complete now: nothing to go on with.
        const CliRun again = chat({ u"--endpoint"_s, url.toString(), u"--continue"_s, shortId });
        QCOMPARE(again.exitCode, 2);
        QVERIFY2(again.err.contains("nothing to go on with"), again.err.constData());
        const CliRun unknown
            = chat({ u"--endpoint"_s, url.toString(), u"--continue"_s, u"0123456789abcdef"_s });
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("no conversation has the ID"), unknown.err.constData());
    }

    void interruptedExitsSixIsKeptAndContinued()
    {
        testing::DemoThread demo(scenario(u"drop"_s));
        const QUrl url = demo.listen();
        QVERIFY(url.isValid());
        const QString whole = demo::DemoProvider::wholeAnswer(kPrompt);
        const CliRun broken = chat(
            { u"--endpoint"_s, url.toString(), u"--prompt"_s, kPrompt, u"--continue-cut-off"_s });
        QVERIFY2(broken.exitCode == 6, broken.err.constData());
        QVERIFY2(broken.err.contains("capwatch: the answer was interrupted after "),
            broken.err.constData());
        QCOMPARE(demo.recordedRequests().size(), 1); // never sent again by itself
        const QString partial = QString::fromUtf8(broken.out);
        QVERIFY(!partial.isEmpty() && whole.startsWith(partial));
        QUuid id;
        {
            history::HistoryStore store;
            QVERIFY(store.open(database()).persistent());
            id = store.conversations(10).conversations.at(0).id;
            const QList<history::Message> messages = store.messages(id);
            QCOMPARE(messages.at(1).text, partial);
            QCOMPARE(messages.at(1).end, retry::AnswerEnd::Interrupted);
            QStringList events;
            for (const history::StoredRetryRecord &r : store.retryRecords(id))
                events << r.record.event;
            QVERIFY2(events.contains(u"interrupted"_s), qPrintable(events.join(u' ')));
        }
        const CliRun rest = chat({ u"--endpoint"_s, url.toString(), u"--continue"_s,
            id.toString(QUuid::WithoutBraces) });
        QVERIFY2(rest.exitCode == 0, rest.err.constData());
        QCOMPARE(QString::fromUtf8(broken.out + rest.out), whole);
        history::HistoryStore store;
        QVERIFY(store.open(database()).persistent());
        QCOMPARE(store.messages(id).at(1).text, whole);
        QCOMPARE(store.messages(id).at(1).end, retry::AnswerEnd::Complete);
    }

    void badArguments_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("error");
        QTest::newRow("N of 0") << QStringList { u"--prompt"_s, kPrompt, u"--continue-cut-off=0"_s }
                                << QByteArray(
                                       "--continue-cut-off=N takes a whole number from 1 to 3");
        QTest::newRow("N of 4") << QStringList { u"--prompt"_s, kPrompt, u"--continue-cut-off=4"_s }
                                << QByteArray(
                                       "--continue-cut-off=N takes a whole number from 1 to 3");
        QTest::newRow("N not a number")
            << QStringList { u"--prompt"_s, kPrompt, u"--continue-cut-off=all"_s }
            << QByteArray("--continue-cut-off=N takes a whole number from 1 to 3");
        QTest::newRow("--continue with --private")
            << QStringList { u"--continue"_s, u"0123456789abcdef"_s, u"--private"_s }
            << QByteArray("--private has none to go on with");
        QTest::newRow("--continue with --prompt")
            << QStringList { u"--continue"_s, u"0123456789abcdef"_s, u"--prompt"_s, kPrompt }
            << QByteArray("drop --prompt");
    }

    void badArguments()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, error);
        const CliRun run = chat(QStringList { u"--endpoint"_s, u"http://127.0.0.1:9/v1"_s } + args);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(error), run.err.constData());
    }

    void aPromptThatReadsLikeTheFlagIsAPrompt()
    {
        // --prompt --continue-cut-off=2: a value, not the flag.
        testing::DemoThread demo(scenario(u"length"_s));
        const QUrl url = demo.listen();
        const CliRun run
            = chat({ u"--endpoint"_s, url.toString(), u"--prompt"_s, u"--continue-cut-off=2"_s });
        QCOMPARE(run.exitCode, 6); // cut off, and not continued
        QCOMPARE(demo.recordedRequests().size(), 1);
        QCOMPARE(sentMessages(demo.recordedRequests().first()),
            QStringList { u"user: --continue-cut-off=2"_s });
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString database() const { return m_dir->filePath(u"data/capwatch/history.sqlite"_s); }
    CliRun history(const QStringList &args) const
    {
        CliOptions options;
        options.environment = QProcessEnvironment::systemEnvironment();
        options.environment.insert(u"XDG_DATA_HOME"_s, m_dir->filePath(u"data"_s));
        options.environment.insert(u"XDG_CONFIG_HOME"_s, m_dir->filePath(u"config"_s));
        return runCli(QStringList { u"history"_s } + args, options);
    }
    CliRun chat(const QStringList &args) const
    {
        CliOptions options;
        options.environment = QProcessEnvironment::systemEnvironment();
        options.environment.insert(u"XDG_DATA_HOME"_s, m_dir->filePath(u"data"_s));
        options.environment.insert(u"XDG_CONFIG_HOME"_s, m_dir->filePath(u"config"_s));
        options.environment.remove(u"OPENAI_COMPAT_API_KEY"_s);
        return runCli(
            QStringList { u"chat"_s } + args + QStringList { u"--time-scale"_s, u"0.02"_s },
            options);
    }
};

QTEST_GUILESS_MAIN(TestContinueCli)
#include "tst_continuecli.moc"
