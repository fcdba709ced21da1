// The session's history without a widget: ChatSession against the embedded demo (time-scaled)
// stores every step of a send through a HistoryWriter, and a fresh session restores the
// conversation (transcript, the history it sends as context, the retry log) from the file.
// The database is read back with a HistoryStore of the test's own, as another process would.

#include "history/historystore.h"
#include "history/historywriter.h"
#include "session/backgroundsends.h"
#include "session/chatsession.h"
#include "session/storedrecords.h"
#include "support/demolocalprovider.h"
#include "support/files.h"
#include "support/historywriting.h"
#include "support/sendsteps.h"
#include "support/storedlines.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace capwatch;
using namespace capwatch::session;
using namespace capwatch::testing;
using namespace Qt::StringLiterals;
using testing::flushed;
using namespace std::chrono_literals;
using Event = net::RetryRecord::Event;

namespace {

constexpr double kScale = 0.02; // a 2 s wait takes 40 ms, 60 s takes 1.2 s

demo::DemoOptions scenario(const QString &name)
{
    demo::DemoOptions o;
    o.scenario = name;
    return o;
}

/// A session on the demo storing into `writer` (may be null), as the window sets one up.
struct Fixture
{
    Fixture(const QString &name, history::HistoryWriter *writer)
        : demo(scenario(name))
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

/// "role: content", one a message, for comparing what is (or would be) sent.
QStringList linesOf(const QList<net::ChatMessage> &messages)
{
    QStringList out;
    for (const net::ChatMessage &m : messages)
        out << m.role + u": "_s + m.content;
    return out;
}

} // namespace

class TestSessionHistory final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void storedRecordsKeepTheProfileColumns();
    void init();
    void recordsRoundTrip_data();
    void recordsRoundTrip();
    void unknownEventIsSkipped();
    void sharedPath();
    void wholeRetryCycleIsStored();
    void restoreGivesTheSameConversation();
    void replacedExchangeIsNotRestored_data();
    void replacedExchangeIsNotRestored();
    void cancelledAnswerIsStoredCutOff();
    void aWindowsLongAnswerIsStoredCutAndKeptWhole();
    void cancelDuringAWaitStoresNoAnswer();
    void newConversationClears();
    void aSendGoesOnInItsOwnConversation_data();
    void aSendGoesOnInItsOwnConversation();
    void unknownConversationFails();
    void noWriterWritesNoFile();
    void keyNeverInTheDatabase();
    void restoresTwoThousandRecordsInOneSignal();
    void pacedRecordIsRestored();

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

void TestSessionHistory::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestSessionHistory::recordsRoundTrip_data()
{
    using Unpark = net::RetryRecord::Unpark;
    QTest::addColumn<int>("event");
    QTest::addColumn<bool>("full"); // every optional field set, or none
    QTest::addColumn<int>("unpark");

    const std::pair<const char *, Event> events[] = { { "attempt_started", Event::AttemptStarted },
        { "retry_scheduled", Event::RetryScheduled }, { "succeeded", Event::Succeeded },
        { "gave_up", Event::GaveUp }, { "cancelled", Event::Cancelled },
        { "parked", Event::Parked }, { "paced", Event::Paced } };
    for (const auto &[name, event] : events) {
        QTest::addRow("%s, bare", name) << int(event) << false << int(Unpark::None);
        QTest::addRow("%s, every field", name) << int(event) << true << int(Unpark::None);
    }
    // The reason of an unparked record is not an end reason (`cancelled` is both).
    for (const Unpark why : { Unpark::SentNow, Unpark::ResetReached, Unpark::Cancelled }) {
        const QByteArray name = net::RetryRecord::unparkName(why).toUtf8();
        QTest::addRow("unparked %s, bare", name.constData())
            << int(Event::Unparked) << false << int(why);
        QTest::addRow("unparked %s, every field", name.constData())
            << int(Event::Unparked) << true << int(why);
    }
}

void TestSessionHistory::recordsRoundTrip()
{
    QFETCH(int, event);
    QFETCH(bool, full);
    QFETCH(int, unpark);
    net::RetryRecord r;
    r.time = QDateTime::fromMSecsSinceEpoch(1'700'000'123'456, Qt::UTC);
    r.request = 7;
    r.event = Event(event);
    r.attempt = 3;
    r.unpark = net::RetryRecord::Unpark(unpark);
    if (full) {
        r.status = 422;
        r.category = retry::Category::TokenLimit;
        r.used = 60323.5;
        r.limit = 60000;
        r.waitMs = 60'000;
        r.rawWaitMs = 1'080'000;
        r.waitSource = retry::WaitSource::Message;
        r.waitedTotalMs = 61'000;
        r.budgetLeftMs = 59'000;
        r.reason = retry::EndReason::BudgetExhausted;
        r.error = u"Token limit exceeded: used 60323, limit 60000. Retry in 18 min. «ü»"_s;
        r.resetAt = QDateTime::fromMSecsSinceEpoch(1'700'001'083'456, Qt::UTC);
        r.windowTokensLeft = 120;
        r.windowResetS = 12.345;
        r.estimatedTokens = 1387;
    }
    QCOMPARE(net::RetryRecord::eventFromName(net::RetryRecord::eventName(r.event)), r.event);

    // In memory, and through the database and back.
    const history::RetryRecord stored = toStored(r);
    QCOMPARE(stored.event, net::RetryRecord::eventName(r.event));
    QCOMPARE(stored.windowTokensLeft, r.windowTokensLeft);
    QCOMPARE(stored.windowResetS, r.windowResetS);
    QCOMPARE(stored.estimatedTokens, r.estimatedTokens);
    QCOMPARE(net::toJsonLine(fromStored(stored).value()), net::toJsonLine(r));

    history::HistoryStore store;
    store.openInMemory();
    QVERIFY(store.isOpen());
    history::Conversation c;
    QVERIFY(store.addConversation(c));
    history::Message m;
    m.conversation = c.id;
    m.text = u"prompt"_s;
    QVERIFY(store.addMessage(m));
    history::Send s;
    s.conversation = c.id;
    s.message = m.id;
    QVERIFY(store.addSend(s));
    QVERIFY(store.addRetryRecord(s.id, stored));
    const QList<history::StoredRetryRecord> back = store.retryRecords(c.id);
    QCOMPARE(back.size(), 1);
    QCOMPARE(jsonLines(back), net::toJsonLine(r) + '\n');
    const net::RetryRecord read = fromStored(back.constFirst().record).value();
    QCOMPARE(read.event, r.event);
    QCOMPARE(read.resetAt, r.resetAt);
    QCOMPARE(int(read.unpark), unpark);
    // The provider window columns (schema v3), null in a bare record.
    QCOMPARE(read.windowTokensLeft, r.windowTokensLeft);
    QCOMPARE(read.windowResetS, r.windowResetS);
    QCOMPARE(read.estimatedTokens, r.estimatedTokens);
    QCOMPARE(read.windowTokensLeft.has_value(), full);
    if (r.event == Event::Unparked) // in place of the end reason, which it does not have
        QCOMPARE(read.reason, retry::EndReason::None);
    else
        QCOMPARE(read.reason, r.reason);
}

void TestSessionHistory::unknownEventIsSkipped()
{
    // An event of a build after this one (`paced` was one before issue 16).
    history::RetryRecord later;
    later.event = u"throttled"_s;
    later.request = 1;
    later.windowTokensLeft = 5;
    QVERIFY(!fromStored(later));
    QVERIFY(!net::RetryRecord::eventFromName(u"throttled"));
    // Kept for the export, the fields it shares with this build's records included.
    QCOMPARE(toLogRecord(later).windowTokensLeft, std::optional<qint64>(5));
}

void TestSessionHistory::sharedPath()
{
    // The window and capwatch-cli have different application names, and so different
    // AppDataLocations: the database is found by the generic one.
    qputenv("XDG_DATA_HOME", m_dir->path().toUtf8());
    QCOMPARE(defaultHistoryPath(), m_dir->path() + u"/capwatch/history.sqlite"_s);
}

void TestSessionHistory::wholeRetryCycleIsStored()
{
    // rate-limited: 429, 429 (retry-after 2 s), then the answer.
    history::HistoryWriter writer;
    openWriter(writer);
    Fixture f(u"rate-limited"_s, &writer);
    QSignalSpy stored(&f.session, &ChatSession::conversationStored);
    QSignalSpy updated(&f.session, &ChatSession::conversationUpdated);
    QSignalSpy succeeded(&f.session, &ChatSession::succeeded);
    QVERIFY(f.session.conversationId().isNull());
    f.session.send(u"How do caps work?"_s, {});
    QCOMPARE(stored.count(), 1);
    const QUuid id = f.session.conversationId();
    QVERIFY(!id.isNull());
    QCOMPARE(stored.first().at(0).toUuid(), id);
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 1, 10000);
    QVERIFY(updated.count() >= 7); // the send, six records, the end
    QVERIFY(flushed(writer));

    history::HistoryStore store;
    QVERIFY(store.open(path()).persistent());
    const std::optional<history::Conversation> c = store.conversation(id);
    QVERIFY(c);
    QCOMPARE(c->title, u"How do caps work?"_s);
    QCOMPARE(c->model, u"capwatch-demo"_s);
    QCOMPARE(c->endpoint,
        history::HistoryStore::storableEndpoint(f.session.provider().endpoint().toString()));
    QVERIFY(c->hasRetries);
    QVERIFY(!c->hasUnanswered);

    const QList<history::Message> messages = store.messages(id);
    QCOMPARE(messages.size(), 2);
    QCOMPARE(messages.at(0).role, history::Role::User);
    QCOMPARE(messages.at(0).text, u"How do caps work?"_s);
    QCOMPARE(messages.at(0).state, history::MessageState::Complete);
    QCOMPARE(messages.at(1).role, history::Role::Assistant);
    QCOMPARE(messages.at(1).state, history::MessageState::Complete);
    QCOMPARE(messages.at(1).text, f.session.history().at(1).content);
    QVERIFY(!messages.at(1).text.isEmpty());

    const QList<history::Send> sends = store.sends(id);
    QCOMPARE(sends.size(), 1);
    QCOMPARE(sends.at(0).message, messages.at(0).id);
    QCOMPARE(sends.at(0).outcome, history::SendOutcome::Succeeded);
    QCOMPARE(sends.at(0).reason, retry::EndReason::None);
    QCOMPARE(sends.at(0).attempts, 3);
    const auto summary = succeeded.first().at(1).value<net::SendSummary>();
    QCOMPARE(sends.at(0).waitedMs, qint64(summary.waited.count()));
    QVERIFY(sends.at(0).waitedMs >= 4000);

    // Every record, as the live log has it.
    const QList<history::StoredRetryRecord> records = store.retryRecords(id);
    QCOMPARE(records.size(), 6);
    for (const history::StoredRetryRecord &r : records)
        QCOMPARE(r.send, sends.at(0).id);
    QCOMPARE(jsonLines(records), f.session.retryLog()->serialize(net::LogFormat::JsonLines));
}

void TestSessionHistory::restoreGivesTheSameConversation()
{
    history::HistoryWriter writer;
    openWriter(writer);
    QUuid id;
    QList<net::ChatMessage> context;
    QByteArray log;
    {
        Fixture f(u"rate-limited"_s, &writer);
        QSignalSpy succeeded(&f.session, &ChatSession::succeeded);
        f.session.send(u"One"_s, {});
        QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 1, 10000);
        f.session.send(u"Two"_s, {});
        QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 2, 10000);
        id = f.session.conversationId();
        context = f.session.history();
        log = f.session.retryLog()->serialize(net::LogFormat::JsonLines);
        QCOMPARE(context.size(), 4);
    }

    // A fresh session (a new window, a later run) shows it again.
    Fixture g(u"rate-limited"_s, &writer);
    QSignalSpy changed(&g.session, &ChatSession::conversationChanged);
    QSignalSpy restored(&g.session, &ChatSession::conversationRestored);
    QSignalSpy cleared(g.session.retryLog(), &net::RetryLog::cleared);
    QSignalSpy appended(g.session.retryLog(), &net::RetryLog::recordAppended);
    g.session.openConversation(id);
    QVERIFY(restored.wait(10000));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.first().at(0).toUuid(), id);
    QCOMPARE(g.session.conversationId(), id);
    const auto conversation = restored.first().at(0).value<RestoredConversation>();
    QCOMPARE(conversation.id, id);
    QCOMPARE(conversation.title, u"One"_s);
    QCOMPARE(conversation.model, u"capwatch-demo"_s);
    QCOMPARE(conversation.messages.size(), 4);
    const QStringList texts = { u"One"_s, context.at(1).content, u"Two"_s, context.at(3).content };
    for (qsizetype i = 0; i < 4; ++i) {
        QCOMPARE(conversation.messages.at(i).text, texts.at(i));
        QCOMPARE(conversation.messages.at(i).state, history::MessageState::Complete);
    }
    QCOMPARE(conversation.sends.size(), 2);
    QCOMPARE(conversation.sends.at(1).message, conversation.messages.at(2).id);

    // The same context, the same log, swapped in with one signal.
    QCOMPARE(g.session.history().size(), 4);
    for (qsizetype i = 0; i < 4; ++i) {
        QCOMPARE(g.session.history().at(i).role, context.at(i).role);
        QCOMPARE(g.session.history().at(i).content, context.at(i).content);
    }
    QVERIFY(g.session.hasLastExchange());
    QCOMPARE(g.session.lastPrompt(), u"Two"_s);
    QCOMPARE(g.session.retryLog()->serialize(net::LogFormat::JsonLines), log);
    QCOMPARE(cleared.count(), 1);
    QCOMPARE(appended.count(), 0);

    // The next send carries the restored turns, and its records a request number of its own.
    QSignalSpy succeeded(&g.session, &ChatSession::succeeded);
    g.session.send(u"Three"_s, {});
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 1, 10000);
    const QJsonArray sent = g.demo.chats().last().json().value(u"messages"_s).toArray();
    QCOMPARE(sent.size(), 5);
    for (qsizetype i = 0; i < 4; ++i)
        QCOMPARE(sent.at(i).toObject().value(u"content"_s).toString(), texts.at(i));
    QCOMPARE(sent.at(4).toObject().value(u"content"_s).toString(), u"Three"_s);
    QCOMPARE(g.session.retryLog()->records().constLast().request, 3);
    QVERIFY(flushed(writer));
    history::HistoryStore store;
    QVERIFY(store.open(path()).persistent());
    QCOMPARE(store.messageCount(id), 6);
    QCOMPARE(jsonLines(store.retryRecords(id)),
        g.session.retryLog()->serialize(net::LogFormat::JsonLines));
}

void TestSessionHistory::replacedExchangeIsNotRestored_data()
{
    QTest::addColumn<QString>("action");
    QTest::addColumn<QStringList>("transcript"); // what a restore shows; "A" for an answer
    QTest::addColumn<int>("replaced"); // the messages stored Replaced
    // Regenerate and Edit and resend replace the last exchange (its prompt is stored again with
    // the new send); Retry now replaces nothing: the window shows the failed prompt, then again.
    QTest::newRow("regenerate") << u"regenerate"_s
                                << QStringList { u"One"_s, u"A"_s, u"Two"_s, u"A"_s } << 2;
    QTest::newRow("edit and resend")
        << u"edit"_s << QStringList { u"One"_s, u"A"_s, u"Second"_s, u"A"_s } << 2;
    QTest::newRow("retry now") << u"retry"_s
                               << QStringList { u"One"_s, u"A"_s, u"Two"_s, u"Two"_s, u"A"_s } << 0;
}

void TestSessionHistory::replacedExchangeIsNotRestored()
{
    QFETCH(QString, action);
    QFETCH(QStringList, transcript);
    QFETCH(int, replaced);
    history::HistoryWriter writer;
    openWriter(writer);
    QUuid id;
    QList<net::ChatMessage> context;
    QByteArray log;
    {
        // rate-limited: two 429s (2 s, scaled), then an answer; every send ends answered.
        Fixture f(u"rate-limited"_s, &writer);
        QSignalSpy succeeded(&f.session, &ChatSession::succeeded);
        f.session.send(u"One"_s, {});
        QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 1, 10000);
        if (action == u"retry") {
            testing::SendSteps steps(&f.session);
            f.session.send(u"Two"_s, {});
            QTRY_COMPARE_WITH_TIMEOUT(steps.retries().size(), 1, 10000);
            f.session.cancel();
            QTRY_COMPARE(f.session.failedPrompt(), u"Two"_s);
            QVERIFY(f.session.retryFailed({}) != 0);
        } else {
            f.session.send(u"Two"_s, {});
            QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 2, 10000);
            const QString old = f.session.history().constLast().content;
            if (action == u"regenerate") {
                QVERIFY(f.session.regenerate({}) != 0);
            } else {
                QVERIFY(f.session.beginEdit());
                QVERIFY(f.session.send(u"Second"_s, {}) != 0);
            }
            QVERIFY(!linesOf(f.session.history()).contains(u"assistant: "_s + old));
        }
        QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 2 + (action == u"retry" ? 0 : 1), 10000);
        id = f.session.conversationId();
        context = f.session.history();
        log = f.session.retryLog()->serialize(net::LogFormat::JsonLines);
        QCOMPARE(context.size(), 4);
    }

    Fixture g(u"rate-limited"_s, &writer);
    QSignalSpy restored(&g.session, &ChatSession::conversationRestored);
    g.session.openConversation(id);
    QVERIFY(restored.wait(10000));
    const auto conversation = restored.first().at(0).value<RestoredConversation>();
    QStringList shown;
    for (const history::Message &m : conversation.messages) {
        QVERIFY(m.state != history::MessageState::Replaced);
        shown << (m.role == history::Role::User ? m.text : u"A"_s);
    }
    QCOMPARE(shown, transcript);
    QCOMPARE(conversation.messages.constLast().text, context.at(3).content);
    // The context is the live one, and the last exchange can be replaced again.
    QCOMPARE(linesOf(g.session.history()), linesOf(context));
    QVERIFY(g.session.hasLastExchange());
    QVERIFY(g.session.failedPrompt().isEmpty());
    // Every send and record stays: the restored log is the live one.
    QCOMPARE(conversation.sends.size(), 3);
    QCOMPARE(g.session.retryLog()->serialize(net::LogFormat::JsonLines), log);

    // The next request carries what the live session would have sent.
    QSignalSpy succeeded(&g.session, &ChatSession::succeeded);
    g.session.send(u"Three"_s, {});
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 1, 10000);
    const QStringList expected = linesOf(context) << u"user: Three"_s;
    QStringList sent;
    for (const QJsonValue &m : g.demo.chats().constLast().json().value(u"messages"_s).toArray())
        sent << m[u"role"].toString() + u": "_s + m[u"content"].toString();
    QCOMPARE(sent, expected);

    // A Regenerate after the restore replaces the restored last exchange in the file as well.
    QVERIFY(g.session.regenerate({}) != 0);
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 2, 10000);
    QVERIFY(flushed(writer));
    history::HistoryStore store;
    QVERIFY(store.open(path()).persistent());
    int stored = 0;
    QStringList kept;
    for (const history::Message &m : store.messages(id)) {
        if (m.state == history::MessageState::Replaced)
            ++stored;
        else
            kept << (m.role == history::Role::User ? m.text : u"A"_s);
    }
    QCOMPARE(stored, replaced + 2);
    QCOMPARE(kept, transcript + QStringList({ u"Three"_s, u"A"_s }));
    QCOMPARE(store.sends(id).size(), 5);
}

void TestSessionHistory::aWindowsLongAnswerIsStoredCutAndKeptWhole()
{
    // The window's session keeps the whole answer (its transcript); the history stores the
    // first 1,000,000 characters, cut on the writer's thread, and says it is cut off.
    history::HistoryWriter writer;
    openWriter(writer);
    demo::DemoOptions o = scenario(u"firehose"_s);
    o.answerBytes = 1'200'000;
    o.answerChunks = 200;
    testing::ThreadedDemo demo(o);
    ChatSession session;
    session.setTimeScale(kScale);
    session.provider().setLocalProvider(&demo);
    ProviderChoice choice;
    choice.demo = true;
    session.setProvider(choice);
    session.setHistory(&writer);
    QSignalSpy succeeded(&session, &ChatSession::succeeded);
    session.send(u"All of it"_s, {});
    QVERIFY(succeeded.wait(30000));
    QVERIFY(flushed(writer));
    QCOMPARE(session.history().size(), 2);
    const QString whole = session.history().constLast().content;
    QCOMPARE(whole.size(), 1'200'000);

    history::HistoryStore store;
    QVERIFY(store.open(path()).persistent());
    const QList<history::Message> messages = store.messages(session.conversationId());
    QCOMPARE(messages.size(), 2);
    QCOMPARE(messages.at(1).state, history::MessageState::CutOff);
    QCOMPARE(messages.at(1).text.size(), 1'000'000);
    QCOMPARE(messages.at(1).text, whole.left(1'000'000));
}

void TestSessionHistory::cancelledAnswerIsStoredCutOff()
{
    // drip: the answer comes a byte a (scaled) second; cancelled while it streams.
    history::HistoryWriter writer;
    openWriter(writer);
    Fixture f(u"drip"_s, &writer);
    QSignalSpy text(&f.session, &ChatSession::answerText);
    QSignalSpy cancelled(&f.session, &ChatSession::cancelled);
    f.session.send(u"Stream slowly"_s, {});
    QTRY_VERIFY_WITH_TIMEOUT(!text.isEmpty(), 10000);
    f.session.cancel();
    QCOMPARE(cancelled.count(), 1);
    QString shown;
    for (const QList<QVariant> &t : std::as_const(text))
        shown += t.at(1).toString();
    QVERIFY(flushed(writer));

    history::HistoryStore store;
    QVERIFY(store.open(path()).persistent());
    const QUuid id = f.session.conversationId();
    const QList<history::Message> messages = store.messages(id);
    QCOMPARE(messages.size(), 2);
    QCOMPARE(messages.at(1).role, history::Role::Assistant);
    QCOMPARE(messages.at(1).state, history::MessageState::CutOff);
    QCOMPARE(messages.at(1).text, shown);
    const QList<history::Send> sends = store.sends(id);
    QCOMPARE(sends.size(), 1);
    QCOMPARE(sends.at(0).outcome, history::SendOutcome::Cancelled);
    QCOMPARE(sends.at(0).reason, retry::EndReason::Cancelled);
    QVERIFY(store.conversation(id)->hasUnanswered);

    // Restored, the cut-off answer is shown but not sent: the prompt is the one to retry.
    Fixture g(u"capped"_s, &writer);
    QSignalSpy restored(&g.session, &ChatSession::conversationRestored);
    g.session.openConversation(id);
    QVERIFY(restored.wait(10000));
    QCOMPARE(restored.first().at(0).value<RestoredConversation>().messages.at(1).state,
        history::MessageState::CutOff);
    QVERIFY(g.session.history().isEmpty());
    QCOMPARE(g.session.failedPrompt(), u"Stream slowly"_s);
    QCOMPARE(g.session.retryLog()->records().constLast().event, Event::Cancelled);
}

void TestSessionHistory::cancelDuringAWaitStoresNoAnswer()
{
    history::HistoryWriter writer;
    openWriter(writer);
    Fixture f(u"headline"_s, &writer);
    testing::SendSteps steps(&f.session);
    f.session.send(u"Cancel me"_s, {});
    QTRY_COMPARE_WITH_TIMEOUT(steps.retries().size(), 1, 10000);
    f.session.cancel();
    QVERIFY(flushed(writer));
    history::HistoryStore store;
    QVERIFY(store.open(path()).persistent());
    const QUuid id = f.session.conversationId();
    QCOMPARE(store.messageCount(id), 1); // no text came: no answer
    const history::Send send = store.sends(id).value(0);
    QCOMPARE(send.outcome, history::SendOutcome::Cancelled);
    QCOMPARE(send.attempts, 1);
    QCOMPARE(jsonLines(store.retryRecords(id)),
        f.session.retryLog()->serialize(net::LogFormat::JsonLines));
    QCOMPARE(store.retryRecords(id).size(), 3); // attempt_started, retry_scheduled, cancelled
}

void TestSessionHistory::newConversationClears()
{
    history::HistoryWriter writer;
    openWriter(writer);
    Fixture f(u"capped"_s, &writer);
    QSignalSpy succeeded(&f.session, &ChatSession::succeeded);
    QSignalSpy stored(&f.session, &ChatSession::conversationStored);
    QSignalSpy changed(&f.session, &ChatSession::conversationChanged);
    QSignalSpy cleared(f.session.retryLog(), &net::RetryLog::cleared);
    f.session.send(u"First conversation"_s, {});
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 1, 10000);
    const QUuid first = f.session.conversationId();

    f.session.newConversation();
    QCOMPARE(changed.count(), 1);
    QVERIFY(changed.first().at(0).toUuid().isNull());
    QVERIFY(f.session.conversationId().isNull());
    QVERIFY(f.session.history().isEmpty());
    QVERIFY(!f.session.hasLastExchange());
    QVERIFY(f.session.retryLog()->records().isEmpty());
    QCOMPARE(cleared.count(), 1);
    QCOMPARE(stored.count(), 1); // nothing stored for an empty conversation

    f.session.send(u"Second conversation"_s, {});
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 2, 10000);
    QCOMPARE(stored.count(), 2);
    const QUuid second = f.session.conversationId();
    QVERIFY(!second.isNull() && second != first);
    QCOMPARE(f.demo.chats().last().json().value(u"messages"_s).toArray().size(), 1);
    QVERIFY(flushed(writer));
    history::HistoryStore store;
    QVERIFY(store.open(path()).persistent());
    QCOMPARE(store.conversationCount(), 2);
    QCOMPARE(store.messageCount(first), 2);
    QCOMPARE(store.messageCount(second), 2);
}

void TestSessionHistory::aSendGoesOnInItsOwnConversation_data()
{
    QTest::addColumn<bool>("open"); // open a stored conversation, or start a new one
    QTest::newRow("new conversation") << false;
    QTest::newRow("open another") << true;
}

void TestSessionHistory::aSendGoesOnInItsOwnConversation()
{
    // Issue 25, point 4: with a carrier (the window's), showing another conversation hands the
    // send in flight over; it is answered and stored in its own conversation, and this session
    // is idle at once, with nothing of it (no failed prompt, no cancel).
    QFETCH(bool, open);
    history::HistoryWriter writer;
    openWriter(writer);
    Fixture f(u"rate-limited"_s, &writer); // 429, 429 (retry-after 2 s), then the answer
    BackgroundSends carrier;
    f.session.setCarrier(&carrier);
    QSignalSpy succeeded(&f.session, &ChatSession::succeeded);
    QSignalSpy cancelled(&f.session, &ChatSession::cancelled);
    QSignalSpy restored(&f.session, &ChatSession::conversationRestored);
    QSignalSpy ended(&carrier, &BackgroundSends::ended);

    QUuid other;
    if (open) {
        f.session.send(u"The other conversation"_s, {});
        QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 1, 10000);
        other = f.session.conversationId();
        f.session.newConversation();
    }
    f.session.send(u"Goes on elsewhere"_s, {});
    const QUuid first = f.session.conversationId();
    QVERIFY(!first.isNull() && first != other);
    QVERIFY(f.session.busy());
    if (open) {
        f.session.openConversation(other);
        QTRY_COMPARE_WITH_TIMEOUT(restored.count(), 1, 10000);
        QCOMPARE(f.session.conversationId(), other);
    } else {
        f.session.newConversation();
        QVERIFY(f.session.conversationId().isNull());
    }
    QVERIFY(!f.session.busy());
    QVERIFY(f.session.failedPrompt().isEmpty());
    QCOMPARE(cancelled.count(), 0);
    QCOMPARE(carrier.count(), 1);
    QCOMPARE(carrier.conversations(), QList<QUuid> { first });

    QVERIFY(ended.wait(10000));
    QCOMPARE(ended.first().at(0).toUuid(), first);
    QCOMPARE(ended.first().at(1).value<net::SendSummary::Outcome>(),
        net::SendSummary::Outcome::Succeeded);
    QCOMPARE(carrier.count(), 0);
    QCOMPARE(succeeded.count(), open ? 1 : 0); // nothing of it reached this session
    QCOMPARE(cancelled.count(), 0);
    QVERIFY(flushed(writer));

    history::HistoryStore store;
    QVERIFY(store.open(path()).persistent());
    const QList<history::Message> messages = store.messages(first);
    QCOMPARE(messages.size(), 2);
    QCOMPARE(messages.at(0).text, u"Goes on elsewhere"_s);
    QCOMPARE(messages.at(1).role, history::Role::Assistant);
    QCOMPARE(messages.at(1).state, history::MessageState::Complete);
    QVERIFY(!messages.at(1).text.isEmpty());
    const QList<history::Send> sends = store.sends(first);
    QCOMPARE(sends.size(), 1);
    QCOMPARE(sends.at(0).outcome, history::SendOutcome::Succeeded);
    // Every attempt of it is in the usage ledger, the ones that ended after it went on in its own
    // conversation too: 429, 429, the answer.
    QList<std::optional<int>> statuses;
    QVERIFY(store.forEachUsage({}, {}, [&](const history::UsageRecord &u) {
        if (u.conversation == first)
            statuses << u.status;
        return true;
    }));
    QCOMPARE(statuses, (QList<std::optional<int>> { 429, 429, 200 }));
    QCOMPARE(sends.at(0).attempts, 3);
    // Every attempt's records went with it, the ones logged after the hand-over too.
    const QList<history::StoredRetryRecord> records = store.retryRecords(first);
    QCOMPARE(records.constLast().record.event, u"succeeded"_s);
    QVERIFY(records.size() >= 6);
    if (open)
        QCOMPARE(store.messageCount(other), 2); // the other one got nothing of it

    // The session sends on with its own client, in the conversation it shows.
    f.session.send(u"Here again"_s, {});
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), open ? 2 : 1, 10000);
}

void TestSessionHistory::unknownConversationFails()
{
    history::HistoryWriter writer;
    openWriter(writer);
    Fixture f(u"capped"_s, &writer);
    QSignalSpy failed(&f.session, &ChatSession::restoreFailed);
    QSignalSpy restored(&f.session, &ChatSession::conversationRestored);
    const QUuid unknown = QUuid::createUuid();
    f.session.openConversation(unknown);
    QVERIFY(failed.wait(10000));
    QCOMPARE(failed.first().at(0).toUuid(), unknown);
    QCOMPARE(failed.first().at(1).toString(), u"no such conversation in the history"_s);
    QCOMPARE(restored.count(), 0);
    QVERIFY(f.session.conversationId().isNull());
}

void TestSessionHistory::noWriterWritesNoFile()
{
    // --private: no writer at all, and nothing appears where the database would be.
    qputenv("XDG_DATA_HOME", m_dir->path().toUtf8());
    Fixture f(u"rate-limited"_s, nullptr);
    QSignalSpy stored(&f.session, &ChatSession::conversationStored);
    QSignalSpy succeeded(&f.session, &ChatSession::succeeded);
    f.session.send(u"Keep nothing"_s, {});
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 1, 10000);
    QCOMPARE(stored.count(), 0);
    QVERIFY(f.session.conversationId().isNull());
    QCOMPARE(f.session.retryLog()->records().size(), 6);
    QCOMPARE(filesUnder(m_dir->path()), QStringList());
}

void TestSessionHistory::keyNeverInTheDatabase()
{
    // The key goes to the provider (a loopback endpoint given as a real one, with a key file)
    // and nowhere into the database or its write-ahead log.
    const QByteArray key = "sk-capwatch-test-7f3a9c1e5b2d4468";
    const QString keyFile = m_dir->filePath(u"key.txt"_s);
    {
        QFile file(keyFile);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(key + '\n');
    }
    testing::DemoThread demo(scenario(u"rate-limited"_s));
    const QUrl url = demo.listen();
    QVERIFY(url.isValid());

    history::HistoryWriter writer;
    openWriter(writer);
    ChatSession session;
    session.setTimeScale(kScale);
    ProviderChoice choice;
    choice.endpoint = url;
    choice.keySource = ProviderChoice::KeySource::KeyFile;
    choice.keyFile = keyFile;
    choice.keySourceText = keyFile;
    session.setProvider(choice);
    session.setHistory(&writer);
    QCOMPARE(session.provider().keyStatus().kind, KeyStatus::Kind::Key);
    QSignalSpy succeeded(&session, &ChatSession::succeeded);
    session.send(u"With a key"_s, {});
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 1, 10000);
    const QList<demo::RecordedRequest> requests = demo.recordedRequests();
    QVERIFY(!requests.isEmpty());
    QCOMPARE(requests.last().header("authorization"), QByteArray("Bearer ***")); // it was sent
    QVERIFY(flushed(writer));

    int files = 0;
    for (const QString &suffix : { u""_s, u"-wal"_s }) {
        QFile file(path() + suffix);
        if (!file.open(QIODevice::ReadOnly))
            continue;
        ++files;
        const QByteArray bytes = file.readAll();
        QVERIFY(bytes.size() > 0);
        QVERIFY2(!bytes.contains(key), qPrintable(file.fileName()));
        QVERIFY(!bytes.contains(QString::fromLatin1(key).toUtf8().toBase64()));
    }
    QVERIFY(files >= 1);
    // And the conversation is there, so the search looked where the data is.
    history::HistoryStore store;
    QVERIFY(store.open(path()).persistent());
    QCOMPARE(store.messageCount(session.conversationId()), 2);
}

void TestSessionHistory::restoresTwoThousandRecordsInOneSignal()
{
    // A long conversation's log: 2,000 records come back in one replace(), one cleared() signal.
    history::HistoryStore setup;
    QVERIFY(setup.open(path()).persistent());
    history::Conversation c;
    QVERIFY(setup.addConversation(c));
    QVERIFY(setup.begin());
    QList<net::RetryRecord> live;
    for (int i = 0; i < 400; ++i) {
        history::Message m;
        m.conversation = c.id;
        m.text = u"prompt %1"_s.arg(i);
        QVERIFY(setup.addMessage(m));
        history::Send s;
        s.conversation = c.id;
        s.message = m.id;
        QVERIFY(setup.addSend(s));
        for (int k = 0; k < 5; ++k) {
            net::RetryRecord r;
            r.time = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000 + i * 1000 + k, Qt::UTC);
            r.request = i + 1;
            r.attempt = k / 2 + 1;
            r.event = k == 4 ? Event::GaveUp
                : k % 2 == 0 ? Event::AttemptStarted
                             : Event::RetryScheduled;
            if (k % 2 == 1 || k == 4) {
                r.status = 422;
                r.category = retry::Category::TokenLimit;
                r.waitMs = 1000;
                r.waitSource = retry::WaitSource::Message;
                r.error = u"Token limit exceeded"_s;
            }
            live.append(r);
            QVERIFY(setup.addRetryRecord(s.id, toStored(r)));
        }
    }
    QVERIFY(setup.commit());
    setup.close();

    history::HistoryWriter writer;
    openWriter(writer);
    Fixture f(u"capped"_s, &writer);
    QSignalSpy restored(&f.session, &ChatSession::conversationRestored);
    QSignalSpy cleared(f.session.retryLog(), &net::RetryLog::cleared);
    QSignalSpy appended(f.session.retryLog(), &net::RetryLog::recordAppended);
    f.session.openConversation(c.id);
    QVERIFY(restored.wait(10000));
    QCOMPARE(cleared.count(), 1);
    QCOMPARE(appended.count(), 0);
    QCOMPARE(f.session.retryLog()->records().size(), 2000);
    QCOMPARE(f.session.retryLog()->serialize(net::LogFormat::JsonLines), jsonLines(live));
    // New sends number their lanes after the restored ones.
    QSignalSpy succeeded(&f.session, &ChatSession::succeeded);
    f.session.send(u"After"_s, {});
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 1, 10000);
    QCOMPARE(f.session.retryLog()->records().constLast().request, 401);
}

void TestSessionHistory::pacedRecordIsRestored()
{
    // Issue 16: a send that was paced, stored as the session stores it, and restored by a fresh
    // session with the provider window columns of each record.
    history::HistoryStore setup;
    QVERIFY(setup.open(path()).persistent());
    history::Conversation c;
    QVERIFY(setup.addConversation(c));
    history::Message m;
    m.conversation = c.id;
    m.text = u"paced prompt"_s;
    QVERIFY(setup.addMessage(m));
    history::Send s;
    s.conversation = c.id;
    s.message = m.id;
    QVERIFY(setup.addSend(s));
    QList<net::RetryRecord> live;
    const QDateTime t0 = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000, Qt::UTC);
    net::RetryRecord paced;
    paced.time = t0;
    paced.request = 1;
    paced.event = Event::Paced;
    paced.waitMs = 12'000;
    paced.waitSource = retry::WaitSource::RateLimitReset;
    paced.windowTokensLeft = 0;
    paced.windowResetS = 12.5;
    paced.estimatedTokens = 1387;
    net::RetryRecord started = paced;
    started.time = t0.addSecs(12);
    started.event = Event::AttemptStarted;
    started.attempt = 1;
    started.waitMs.reset();
    started.waitSource = retry::WaitSource::None;
    net::RetryRecord done;
    done.time = t0.addSecs(13);
    done.request = 1;
    done.event = Event::Succeeded;
    done.attempt = 1;
    done.status = 200;
    done.category = retry::Category::Success;
    done.windowTokensLeft = 58'613;
    done.windowResetS = 0.75;
    live = { paced, started, done };
    for (const net::RetryRecord &r : std::as_const(live))
        QVERIFY2(setup.addRetryRecord(s.id, toStored(r)), qPrintable(setup.lastError()));
    setup.close();

    history::HistoryWriter writer;
    openWriter(writer);
    Fixture f(u"capped"_s, &writer);
    QSignalSpy restored(&f.session, &ChatSession::conversationRestored);
    f.session.openConversation(c.id);
    QVERIFY(restored.wait(10000));
    const QList<net::RetryRecord> &back = f.session.retryLog()->records();
    QCOMPARE(back.size(), live.size());
    for (qsizetype i = 0; i < back.size(); ++i) {
        QCOMPARE(back.at(i).event, live.at(i).event);
        QCOMPARE(net::RetryRecord::eventName(back.at(i).event),
            net::RetryRecord::eventName(live.at(i).event));
        QCOMPARE(back.at(i).waitMs, live.at(i).waitMs);
        QCOMPARE(back.at(i).waitSource, live.at(i).waitSource);
        QCOMPARE(back.at(i).windowTokensLeft, live.at(i).windowTokensLeft);
        QCOMPARE(back.at(i).windowResetS, live.at(i).windowResetS);
        QCOMPARE(back.at(i).estimatedTokens, live.at(i).estimatedTokens);
    }
    QCOMPARE(net::RetryRecord::eventName(back.front().event), u"paced"_s);
    QCOMPARE(f.session.retryLog()->serialize(net::LogFormat::JsonLines), jsonLines(live));
}

void TestSessionHistory::storedRecordsKeepTheProfileColumns()
{
    // The `fallback` record's profile columns go into the database and come back (history
    // show, export and a restore read them through toLogRecord()).
    net::RetryRecord r;
    r.time = QDateTime::currentDateTimeUtc();
    r.request = 3;
    r.event = Event::Fallback;
    r.attempt = 2;
    r.reason = retry::EndReason::BudgetExhausted;
    r.profile = u"Free tier"_s;
    r.fallbackTo = u"Paid tier"_s;
    const history::RetryRecord stored = toStored(r);
    QCOMPARE(stored.event, u"fallback"_s);
    QCOMPARE(stored.profile, u"Free tier"_s);
    QCOMPARE(stored.fallbackTo, u"Paid tier"_s);
    const std::optional<net::RetryRecord> back = fromStored(stored);
    QVERIFY(back);
    QCOMPARE(back->event, Event::Fallback);
    QCOMPARE(back->profile, u"Free tier"_s);
    QCOMPARE(back->fallbackTo, u"Paid tier"_s);
    QCOMPARE(back->reason, retry::EndReason::BudgetExhausted);
    // A record from before profiles: both empty.
    net::RetryRecord plain = r;
    plain.profile.clear();
    plain.fallbackTo.clear();
    QCOMPARE(toLogRecord(toStored(plain)).profile, QString());
    QCOMPARE(toLogRecord(toStored(plain)).fallbackTo, QString());
}

QTEST_GUILESS_MAIN(TestSessionHistory)
#include "tst_sessionhistory.moc"
