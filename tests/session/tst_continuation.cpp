// Issue 29 without a widget: how an answer ended, and Continue. ChatSession against the demo's
// `length` and `drop` scenarios (time-scaled), stored through a HistoryWriter and read back with a
// HistoryStore of the test's own, as another process would; the requests are asserted at the
// provider.

#include "demo/demoprovider.h"
#include "history/historystore.h"
#include "history/historywriter.h"
#include "session/chatsession.h"
#include "session/sendtexts.h"
#include "support/demolocalprovider.h"
#include "support/demothread.h"
#include "support/historywriting.h"
#include "support/sentmessages.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace capwatch;
using namespace capwatch::session;
using namespace Qt::StringLiterals;
using retry::AnswerEnd;
using testing::flushed;
using testing::sentMessages;

Q_DECLARE_METATYPE(capwatch::retry::AnswerEnd)

namespace {

constexpr double kScale = 0.02;
const QString kPrompt = u"hi"_s;

struct Fixture
{
    Fixture(demo::DemoOptions options, history::HistoryWriter *writer)
        : demo(std::move(options))
    {
        session.setTimeScale(kScale);
        session.provider().setLocalProvider(&demo);
        ProviderChoice choice;
        choice.demo = true;
        session.setProvider(choice);
        session.setHistory(writer);
    }
    testing::ThreadedDemo demo;
    ChatSession session;
};

demo::DemoOptions scenario(const QString &name, qint64 maxAnswerTokens = 100)
{
    demo::DemoOptions o;
    o.scenario = name;
    o.maxAnswerTokens = maxAnswerTokens;
    return o;
}

const QString kInstruction = QString::fromUtf16(kContinueInstruction);

} // namespace

class TestContinuation final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
    }

    void cutOffThenContinueIsOneStoredAnswer()
    {
        history::HistoryWriter writer;
        openWriter(writer);
        Fixture f(scenario(u"length"_s), &writer);
        QSignalSpy succeeded(&f.session, &ChatSession::succeeded);
        QString shown; // what the views were told, piece by piece
        connect(&f.session, &ChatSession::answerText, this,
            [&shown](quint64, const QString &text) { shown += text; });
        const QString whole = demo::DemoProvider::wholeAnswer(kPrompt);

        f.session.send(kPrompt, {});
        QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 1, 10000);
        const SendState cut = f.session.sendState();
        QCOMPARE(cut.answerEnd, AnswerEnd::CutOff);
        QCOMPARE(cut.finishReason, u"length"_s);
        QVERIFY(cut.usage && cut.usage->completionTokens == 100);
        const QString partial = shown;
        QVERIFY2(whole.startsWith(partial) && partial.size() < whole.size(), qPrintable(partial));
        QCOMPARE(SendTexts::answerEnd(cut), u"Cut off at the output limit · 100 tokens"_s);
        QVERIFY(f.session.canContinue());
        QCOMPARE(f.session.lastAnswerEnd(), AnswerEnd::CutOff);

        QVERIFY(f.session.continueAnswer({}) != 0);
        QVERIFY(!f.session.canContinue()); // one in flight
        QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 2, 10000);
        const SendState joined = f.session.sendState();
        QVERIFY(joined.continuation);
        QCOMPARE(joined.answerEnd, AnswerEnd::Complete);
        QCOMPARE(joined.seams, QList<qsizetype> { partial.size() });
        QCOMPARE(joined.answerChars, whole.size());
        QVERIFY(!f.session.canContinue());
        // The views were told the answer once: the repeat at the seam was left out.
        QCOMPARE(shown, whole);
        // The context holds one exchange, its answer whole.
        QCOMPARE(f.session.history().size(), 2);
        QCOMPARE(f.session.history().at(1).content, whole);

        // The continuation's request: the prompt, the partial answer as the assistant's, the
        // instruction.
        const QList<demo::RecordedRequest> chats = f.demo.chats();
        QCOMPARE(chats.size(), 2);
        QCOMPARE(sentMessages(chats.at(1)),
            (QStringList {
                u"user: "_s + kPrompt, u"assistant: "_s + partial, u"user: "_s + kInstruction }));

        // Stored as one answer, joined, with its seam; two sends of the one prompt.
        QVERIFY(flushed(writer));
        history::HistoryStore store;
        QVERIFY(store.open(path()).persistent());
        const QUuid id = f.session.conversationId();
        const QList<history::Message> messages = store.messages(id);
        QCOMPARE(messages.size(), 2);
        QCOMPARE(messages.at(1).text, whole);
        QCOMPARE(messages.at(1).end, AnswerEnd::Complete);
        QCOMPARE(messages.at(1).seams, QList<qsizetype> { partial.size() });
        QCOMPARE(messages.at(1).state, history::MessageState::Complete);
        const QList<history::Send> sends = store.sends(id);
        QCOMPARE(sends.size(), 2);
        QCOMPARE(sends.at(0).message, messages.at(0).id);
        QCOMPARE(sends.at(1).message, messages.at(0).id);
        // The log says how each answer ended.
        QStringList ends;
        for (const history::StoredRetryRecord &r : store.retryRecords(id)) {
            if (r.record.event == u"succeeded"_s)
                ends << QString::fromLatin1(retry::nameOf(r.record.answerEnd).data());
        }
        QCOMPARE(ends, (QStringList { u"cut_off"_s, u"complete"_s }));
    }

    void autoContinueStopsAtItsLimit_data()
    {
        QTest::addColumn<int>("autoContinue");
        QTest::addColumn<qint64>("maxAnswer");
        QTest::addColumn<int>("sends");
        QTest::addColumn<AnswerEnd>("end");
        QTest::newRow("one continuation completes it")
            << 3 << qint64(100) << 2 << AnswerEnd::Complete;
        QTest::newRow("at most 3 in a row") << 3 << qint64(20) << 4 << AnswerEnd::CutOff;
        QTest::newRow("at most 1") << 1 << qint64(20) << 2 << AnswerEnd::CutOff;
        QTest::newRow("off") << 0 << qint64(20) << 1 << AnswerEnd::CutOff;
        QTest::newRow("more than 3 asked: 3") << 9 << qint64(20) << 4 << AnswerEnd::CutOff;
    }

    void autoContinueStopsAtItsLimit()
    {
        QFETCH(int, autoContinue);
        QFETCH(qint64, maxAnswer);
        QFETCH(int, sends);
        QFETCH(AnswerEnd, end);
        Fixture f(scenario(u"length"_s, maxAnswer), nullptr);
        QSignalSpy succeeded(&f.session, &ChatSession::succeeded);
        QSignalSpy started(&f.session, &ChatSession::sendStarted);
        QString shown;
        connect(&f.session, &ChatSession::answerText, this,
            [&shown](quint64, const QString &text) { shown += text; });
        SendOptions options;
        options.autoContinue = autoContinue;
        f.session.send(kPrompt, options);
        QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), sends, 15000);
        QTest::qWait(100); // nothing more goes out by itself
        QCOMPARE(started.count(), sends);
        QCOMPARE(f.demo.chats().size(), sends);
        QCOMPARE(f.session.sendState().answerEnd, end);
        QCOMPARE(f.session.sendState().continuationsInARow, sends - 1);
        const QString whole = demo::DemoProvider::wholeAnswer(kPrompt);
        QVERIFY2(whole.startsWith(shown), qPrintable(shown));
        QCOMPARE(shown.size(), std::min(whole.size(), qsizetype(sends * maxAnswer * 4)));
        QCOMPARE(f.session.canContinue(), end == AnswerEnd::CutOff);
    }

    void interruptedIsKeptNeverResentAndContinued()
    {
        history::HistoryWriter writer;
        openWriter(writer);
        Fixture f(scenario(u"drop"_s), &writer);
        QSignalSpy gaveUp(&f.session, &ChatSession::gaveUp);
        QSignalSpy succeeded(&f.session, &ChatSession::succeeded);
        QString shown;
        connect(&f.session, &ChatSession::answerText, this,
            [&shown](quint64, const QString &text) { shown += text; });
        const QString whole = demo::DemoProvider::wholeAnswer(kPrompt);
        SendOptions options;
        options.autoContinue = 3; // never for an interrupted answer
        f.session.send(kPrompt, options);
        QTRY_COMPARE_WITH_TIMEOUT(gaveUp.count(), 1, 10000);
        QTest::qWait(200);
        QCOMPARE(f.demo.chats().size(), 1); // never sent again by itself
        const SendState broken = f.session.sendState();
        QCOMPARE(broken.answerEnd, AnswerEnd::Interrupted);
        const QString partial = shown;
        QVERIFY2(!partial.isEmpty() && whole.startsWith(partial), qPrintable(partial));
        QCOMPARE(broken.answerChars, partial.size());
        QCOMPARE(SendTexts::answerEnd(broken),
            u"Interrupted after %1 characters"_s.arg(QLocale().toString(partial.size())));
        // The panel, the card and the status say what happened, not a refusal.
        QCOMPARE(SendTexts::phase(broken), SendTexts::answerEnd(broken));
        QVERIFY2(SendTexts::failure(broken).startsWith(u"answer interrupted"_s),
            qPrintable(SendTexts::failure(broken)));
        QCOMPARE(SendTexts::failedLead(broken),
            u"The answer was interrupted after %1 characters: what came is kept, and Continue "
            "asks for the rest."_s.arg(QLocale().toString(partial.size())));
        // The log: `interrupted` before the give-up, both saying how the answer ended.
        QStringList events;
        for (const net::RetryRecord &r : f.session.retryLog()->records())
            events << net::RetryRecord::eventName(r.event);
        QCOMPARE(events.mid(events.size() - 2), (QStringList { u"interrupted"_s, u"gave_up"_s }));
        QCOMPARE(f.session.retryLog()->records().constLast().answerEnd, AnswerEnd::Interrupted);
        QVERIFY(f.session.canContinue());

        QVERIFY(flushed(writer));
        {
            history::HistoryStore store;
            QVERIFY(store.open(path()).persistent());
            const QList<history::Message> messages = store.messages(f.session.conversationId());
            QCOMPARE(messages.size(), 2);
            QCOMPARE(messages.at(1).text, partial);
            QCOMPARE(messages.at(1).state, history::MessageState::CutOff);
            QCOMPARE(messages.at(1).end, AnswerEnd::Interrupted);
        }

        QVERIFY(f.session.continueAnswer({}) != 0);
        QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 1, 10000);
        QCOMPARE(shown, whole);
        QCOMPARE(sentMessages(f.demo.chats().last()),
            (QStringList {
                u"user: "_s + kPrompt, u"assistant: "_s + partial, u"user: "_s + kInstruction }));
        QCOMPARE(f.session.sendState().answerEnd, AnswerEnd::Complete);
        QCOMPARE(f.session.history().size(), 2); // answered now: the exchange is context
        QCOMPARE(f.session.history().at(1).content, whole);
        QVERIFY(f.session.hasLastExchange());
        QVERIFY(f.session.failedPrompt().isEmpty());

        QVERIFY(flushed(writer));
        history::HistoryStore store;
        QVERIFY(store.open(path()).persistent());
        const QList<history::Message> messages = store.messages(f.session.conversationId());
        QCOMPARE(messages.size(), 2);
        QCOMPARE(messages.at(1).text, whole);
        QCOMPARE(messages.at(1).state, history::MessageState::Complete);
        QCOMPARE(messages.at(1).seams, QList<qsizetype> { partial.size() });
    }

    void aRestoredCutOffAnswerCanBeContinued()
    {
        history::HistoryWriter writer;
        openWriter(writer);
        QUuid id;
        QString partial;
        {
            Fixture f(scenario(u"length"_s), &writer);
            QSignalSpy succeeded(&f.session, &ChatSession::succeeded);
            f.session.send(kPrompt, {});
            QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 1, 10000);
            id = f.session.conversationId();
            partial = f.session.history().at(1).content;
        }
        Fixture g(scenario(u"length"_s), &writer);
        QSignalSpy restored(&g.session, &ChatSession::conversationRestored);
        g.session.openConversation(id);
        QVERIFY(restored.wait(10000));
        const auto conversation = restored.first().at(0).value<RestoredConversation>();
        QCOMPARE(conversation.messages.at(1).end, AnswerEnd::CutOff);
        QVERIFY(g.session.canContinue());
        QCOMPARE(g.session.lastAnswerEnd(), AnswerEnd::CutOff);
        QSignalSpy succeeded(&g.session, &ChatSession::succeeded);
        QVERIFY(g.session.continueAnswer({}) != 0);
        QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 1, 10000);
        QCOMPARE(sentMessages(g.demo.chats().last()),
            (QStringList {
                u"user: "_s + kPrompt, u"assistant: "_s + partial, u"user: "_s + kInstruction }));
        QCOMPARE(g.session.history().at(1).content, demo::DemoProvider::wholeAnswer(kPrompt));
        QVERIFY(flushed(writer));
        history::HistoryStore store;
        QVERIFY(store.open(path()).persistent());
        QCOMPARE(store.messages(id).size(), 2);
        QCOMPARE(store.messages(id).at(1).text, demo::DemoProvider::wholeAnswer(kPrompt));
    }

    void anotherSendLeavesTheCutOffAnswerBehind()
    {
        Fixture f(scenario(u"length"_s), nullptr);
        QSignalSpy succeeded(&f.session, &ChatSession::succeeded);
        f.session.send(kPrompt, {});
        QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 1, 10000);
        QVERIFY(f.session.canContinue());
        f.session.send(u"something else"_s, {});
        QVERIFY(!f.session.canContinue());
        QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 2, 10000);
        // Its own answer is cut off in turn: that one can be continued, not the first.
        QVERIFY(f.session.canContinue());
        QVERIFY(f.session.continueAnswer({}) != 0);
        QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 3, 10000);
        QCOMPARE(f.session.history().size(), 4);
        QCOMPARE(f.session.history().at(3).content,
            demo::DemoProvider::wholeAnswer(u"something else"_s));
        QCOMPARE(f.session.history().at(1).content.size(), 400); // still cut off
    }

    void aCappedContinuationIsParkedAndContinuesAtTheReset()
    {
        // A continuation is a send like any other: refused capped, it gives up when the reset is
        // beyond its budget, is parked, and at the reset it goes out as a continuation again.
        Fixture f(scenario(u"length"_s), nullptr);
        f.session.setTimeScale(0.002); // the 600 s reset: 1.2 s; the 120 s budget: 0.24 s
        QSignalSpy succeeded(&f.session, &ChatSession::succeeded);
        QSignalSpy gaveUp(&f.session, &ChatSession::gaveUp);
        f.session.send(kPrompt, {});
        QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 1, 10000);
        const QString partial = f.session.history().at(1).content;
        QCOMPARE(f.session.lastAnswerEnd(), AnswerEnd::CutOff);

        // The same model behind a provider that is capped until its reset.
        demo::DemoOptions capped = scenario(u"reset"_s);
        capped.resetAfterSeconds = 600;
        capped.timeScale = 0.002;
        testing::DemoThread resetDemo(capped);
        const QUrl url = resetDemo.listen();
        QVERIFY(url.isValid());
        ProviderChoice choice;
        choice.endpoint = url;
        choice.model = u"capwatch-demo"_s;
        choice.stream = true;
        f.session.setProvider(choice);

        QVERIFY(f.session.continueAnswer({}) != 0);
        QTRY_COMPARE_WITH_TIMEOUT(gaveUp.count(), 1, 10000);
        QCOMPARE(f.session.sendState().answerEnd, AnswerEnd::None); // no word came
        QVERIFY(f.session.sendState().park.parkable);
        QCOMPARE(f.session.history().at(1).content, partial); // the answer as it was
        QVERIFY(f.session.park());
        QTest::qWait(1300); // past the reset
        QVERIFY(f.session.sendParked(net::RetryRecord::Unpark::ResetReached, {}) != 0);
        QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 2, 10000);
        QVERIFY(f.session.sendState().continuation);
        // Every request to the capped provider was the continuation's.
        const QList<demo::RecordedRequest> chats = resetDemo.recordedRequests();
        QVERIFY(chats.size() >= 2);
        for (const demo::RecordedRequest &r : chats)
            QCOMPARE(sentMessages(r),
                (QStringList { u"user: "_s + kPrompt, u"assistant: "_s + partial,
                    u"user: "_s + kInstruction }));
        // One exchange, its answer the partial one and what the continuation added.
        QCOMPARE(f.session.history().size(), 2);
        QVERIFY(f.session.history().at(1).content.startsWith(partial));
        QVERIFY(f.session.history().at(1).content.size() > partial.size());
    }

    void emptyAnswerSaysTheBudgetWentToReasoning()
    {
        Fixture f(scenario(u"length"_s, 0), nullptr);
        QSignalSpy succeeded(&f.session, &ChatSession::succeeded);
        SendOptions options;
        options.maxTokens = 256;
        options.autoContinue = 3; // an empty answer is not continued
        f.session.send(kPrompt, options);
        QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 1, 10000);
        QTest::qWait(100);
        QCOMPARE(f.demo.chats().size(), 1);
        const SendState s = f.session.sendState();
        QCOMPARE(s.answerEnd, AnswerEnd::Empty);
        QCOMPARE(SendTexts::answerEnd(s),
            u"Empty answer: the output budget (256 tokens) went to reasoning"_s);
        QVERIFY(!f.session.canContinue());
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString path() const { return m_dir->filePath(u"history.sqlite"_s); }
    void openWriter(history::HistoryWriter &writer) const
    {
        QSignalSpy opened(&writer, &history::HistoryWriter::opened);
        writer.open(path());
        QVERIFY(opened.wait(10000));
        QVERIFY(opened.first().at(0).value<history::OpenResult>().persistent());
    }
};

QTEST_GUILESS_MAIN(TestContinuation)
#include "tst_continuation.moc"
