// capwatch-cli history (issue 14, point 6): list, show and export against a database built here
// with HistoryStore in a temporary folder; the output compared with literal lines. A missing
// database is an empty history and is not created; a newer or damaged one exits 4 and keeps its
// bytes; an older one is read in an upgraded copy and keeps its bytes too; bad arguments exit 2.

#include "history/historystore.h"
#include "support/clirunner.h"
#include "support/files.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace capwatch;
using namespace capwatch::history;
using namespace capwatch::testing;
using namespace Qt::StringLiterals;

namespace {

const QUuid kFirst = QUuid::fromString(u"11111111-aaaa-4aaa-8aaa-000000000001"_s);
const QUuid kSecond = QUuid::fromString(u"11111111-bbbb-4bbb-8bbb-000000000002"_s);
const QUuid kThird = QUuid::fromString(u"22222222-cccc-4ccc-8ccc-000000000003"_s);

QDateTime utc(const QString &iso)
{
    return QDateTime::fromString(iso, Qt::ISODateWithMs);
}

QByteArray sha256(const QString &path)
{
    return QCryptographicHash::hash(readAll(path), QCryptographicHash::Sha256).toHex();
}

QStringList lines(const QByteArray &bytes)
{
    QStringList out = QString::fromUtf8(bytes).split(u'\n');
    if (!out.isEmpty() && out.constLast().isEmpty())
        out.removeLast();
    return out;
}

QStringList entries(const QString &dir)
{
    return QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
}

bool rawExec(const QString &path, const QString &sql)
{
    bool ok = false;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"raw"_s);
        db.setDatabaseName(path);
        ok = db.open() && QSqlQuery(db).exec(sql);
        db.close();
    }
    QSqlDatabase::removeDatabase(u"raw"_s);
    return ok;
}

/// The first value `sql` reads from the database at `path`, opened read-only.
QVariant rawValue(const QString &path, const QString &sql)
{
    QVariant value;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"rawRead"_s);
        db.setDatabaseName(path);
        db.setConnectOptions(u"QSQLITE_OPEN_READONLY"_s);
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(sql) && q.next())
                value = q.value(0);
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(u"rawRead"_s);
    return value;
}

/// One conversation in a file of schema version 1, as the first capwatch with a history left
/// it: rows with that version's columns only (no profiles, no usage, no window columns), an
/// answered prompt whose send was retried once.
bool fillVersion1(const QString &path)
{
    {
        HistoryStore store;
        OpenOptions v1;
        v1.migrations.assign(schemaMigrations().cbegin(), schemaMigrations().cbegin() + 1);
        if (store.open(path, v1).status != OpenResult::Status::Created)
            return false;
    }
    const auto ms
        = [](const QString &iso) { return QString::number(utc(iso).toMSecsSinceEpoch()); };
    const QString conversation
        = u"(SELECT id FROM conversations WHERE uuid = '44444444-dddd-4ddd-8ddd-000000000004')"_s;
    const QString send
        = u"(SELECT id FROM sends WHERE uuid = '44444444-0000-4000-8000-00000000000c')"_s;
    const QString stepOf
        = u"INSERT INTO retry_records (send_id, time_ms, request, event, attempt, "
          "status, category, wait_ms, wait_source, waited_total_ms, "
          "budget_left_ms) VALUES (%1, %2, 1, '%3', %4, %5, %6, %7, %8, %9, %10)"_s;
    const QStringList statements {
        u"INSERT INTO conversations (uuid, title, endpoint, model, created_ms, updated_ms, "
        "has_retries) VALUES ('44444444-dddd-4ddd-8ddd-000000000004', 'From version one', "
        "'http://127.0.0.1:8080/v1', 'old-model', %1, %2, 1)"_s.arg(
            ms(u"2026-10-01T08:00:00Z"_s), ms(u"2026-10-01T08:00:07Z"_s)),
        u"INSERT INTO messages (uuid, conversation_id, role, text, state, created_ms, ended_ms) "
        "VALUES ('44444444-0000-4000-8000-00000000000a', %1, 'user', 'An old question', "
        "'complete', %2, %2)"_s.arg(conversation, ms(u"2026-10-01T08:00:01Z"_s)),
        u"INSERT INTO messages (uuid, conversation_id, role, text, state, created_ms, ended_ms) "
        "VALUES ('44444444-0000-4000-8000-00000000000b', %1, 'assistant', 'An old answer', "
        "'complete', %2, %3)"_s.arg(
            conversation, ms(u"2026-10-01T08:00:06Z"_s), ms(u"2026-10-01T08:00:07Z"_s)),
        u"INSERT INTO sends (uuid, conversation_id, message_id, outcome, attempts, waited_ms, "
        "started_ms, ended_ms) VALUES ('44444444-0000-4000-8000-00000000000c', %1, (SELECT id "
        "FROM messages WHERE uuid = '44444444-0000-4000-8000-00000000000a'), 'succeeded', 2, "
        "5000, %2, %3)"_s.arg(
            conversation, ms(u"2026-10-01T08:00:01Z"_s), ms(u"2026-10-01T08:00:07Z"_s)),
        stepOf.arg(send, ms(u"2026-10-01T08:00:01.000Z"_s), u"attempt_started"_s, u"1"_s, u"NULL"_s,
            u"NULL"_s, u"NULL"_s, u"NULL"_s, u"NULL"_s, u"NULL"_s),
        stepOf.arg(send, ms(u"2026-10-01T08:00:01.400Z"_s), u"retry_scheduled"_s, u"1"_s, u"429"_s,
            u"'rate_limit'"_s, u"5000"_s, u"'retry-after'"_s, u"5000"_s, u"115000"_s),
        stepOf.arg(send, ms(u"2026-10-01T08:00:06.400Z"_s), u"attempt_started"_s, u"2"_s, u"NULL"_s,
            u"NULL"_s, u"NULL"_s, u"NULL"_s, u"NULL"_s, u"NULL"_s),
        stepOf.arg(send, ms(u"2026-10-01T08:00:07.000Z"_s), u"succeeded"_s, u"2"_s, u"200"_s,
            u"'success'"_s, u"NULL"_s, u"NULL"_s, u"NULL"_s, u"NULL"_s),
    };
    for (const QString &sql : statements) {
        if (!rawExec(path, sql))
            return false;
    }
    return true;
}

RetryRecord record(const QString &time, const QString &event, int attempt)
{
    RetryRecord r;
    r.time = utc(time);
    r.request = 1;
    r.event = event;
    r.attempt = attempt;
    return r;
}

/// Three conversations: a retried one whose answer was cut off, an answered one, and one whose
/// send never ended: parked, its park cancelled, then an event this build's retry log does not
/// know.
bool fill(const QString &path)
{
    HistoryStore store;
    if (store.open(path).status != OpenResult::Status::Created)
        return false;
    bool ok = true;

    Conversation a { kFirst, u"Capped questions"_s, u"http://127.0.0.1:40453/v1"_s,
        u"capwatch-demo"_s, utc(u"2026-11-01T09:00:00Z"_s) };
    ok &= store.addConversation(a);
    Message question { {}, kFirst, Role::User, u"Hello there"_s, MessageState::Complete,
        utc(u"2026-11-01T09:00:01Z"_s), utc(u"2026-11-01T09:00:01Z"_s) };
    ok &= store.addMessage(question);
    Message answer { {}, kFirst, Role::Assistant, u"The cap is"_s, MessageState::CutOff,
        utc(u"2026-11-01T09:00:02Z"_s), utc(u"2026-11-01T09:00:19Z"_s) };
    ok &= store.addMessage(answer);
    Send send { {}, kFirst, question.id, SendOutcome::Running, retry::EndReason::None, 0, 0,
        utc(u"2026-11-01T09:00:01Z"_s) };
    ok &= store.addSend(send);
    ok &= store.addRetryRecord(
        send.id, record(u"2026-11-01T09:00:01.000Z"_s, u"attempt_started"_s, 1));
    RetryRecord wait = record(u"2026-11-01T09:00:01.500Z"_s, u"retry_scheduled"_s, 1);
    wait.status = 422;
    wait.category = retry::Category::TokenLimit;
    wait.used = 60323;
    wait.limit = 60000;
    wait.waitMs = 18000;
    wait.rawWaitMs = 1080000;
    wait.waitSource = retry::WaitSource::Message;
    wait.waitedTotalMs = 18000;
    wait.budgetLeftMs = 102000;
    wait.error = u"=cmd, \"quoted\" text"_s;
    ok &= store.addRetryRecord(send.id, wait);
    RetryRecord gaveUp = record(u"2026-11-01T09:00:20.000Z"_s, u"gave_up"_s, 5);
    gaveUp.reason = retry::EndReason::AttemptsExhausted;
    ok &= store.addRetryRecord(send.id, gaveUp);
    ok &= store.finishSend(send.id, SendOutcome::GaveUp, retry::EndReason::AttemptsExhausted, 5,
        18500, utc(u"2026-11-01T09:00:20Z"_s));

    Conversation b { kSecond, u"Second"_s, u"https://llm.example.org/v1"_s, u"gpt-x"_s,
        utc(u"2026-11-01T23:59:00Z"_s) };
    ok &= store.addConversation(b);
    Message q2 { {}, kSecond, Role::User, u"Question two"_s, MessageState::Complete,
        utc(u"2026-11-01T23:59:59Z"_s), utc(u"2026-11-01T23:59:59Z"_s) };
    ok &= store.addMessage(q2);
    Message a2 { {}, kSecond, Role::Assistant, u"Answer two\nin two lines"_s,
        MessageState::Complete, utc(u"2026-11-02T00:00:01Z"_s), utc(u"2026-11-02T00:00:02Z"_s) };
    ok &= store.addMessage(a2);
    Send s2 { {}, kSecond, q2.id, SendOutcome::Running, retry::EndReason::None, 0, 0,
        utc(u"2026-11-02T00:00:00Z"_s) };
    ok &= store.addSend(s2);
    ok &= store.addRetryRecord(
        s2.id, record(u"2026-11-02T00:00:00.000Z"_s, u"attempt_started"_s, 1));
    RetryRecord done = record(u"2026-11-02T00:00:01.250Z"_s, u"succeeded"_s, 1);
    done.status = 200;
    done.category = retry::Category::Success;
    ok &= store.addRetryRecord(s2.id, done);
    ok &= store.finishSend(s2.id, SendOutcome::Succeeded, retry::EndReason::None, 1, 0,
        utc(u"2026-11-02T00:00:02Z"_s));

    Conversation c { kThird, u"Third"_s, u"http://127.0.0.1:1/v1"_s, u"m"_s,
        utc(u"2026-11-02T23:00:00Z"_s) };
    ok &= store.addConversation(c);
    Message q3 { {}, kThird, Role::User, u"Wait for it"_s, MessageState::Complete,
        utc(u"2026-11-02T23:30:00Z"_s), utc(u"2026-11-02T23:30:00Z"_s) };
    ok &= store.addMessage(q3);
    Send s3 { {}, kThird, q3.id, SendOutcome::Running, retry::EndReason::None, 0, 0,
        utc(u"2026-11-02T23:30:00Z"_s) };
    ok &= store.addSend(s3);
    RetryRecord parked = record(u"2026-11-03T00:00:00.000Z"_s, u"parked"_s, 5);
    parked.status = 422;
    parked.category = retry::Category::TokenLimit;
    parked.reason = retry::EndReason::BudgetExhausted;
    parked.resetAt = utc(u"2026-11-03T00:16:00.000Z"_s);
    ok &= store.addRetryRecord(s3.id, parked);
    RetryRecord unparked = record(u"2026-11-03T00:10:00.000Z"_s, u"unparked"_s, 5);
    unparked.unpark = u"cancelled"_s;
    unparked.resetAt = parked.resetAt;
    ok &= store.addRetryRecord(s3.id, unparked);
    // Issue 16: the provider window columns reach `history show` and `history export`.
    RetryRecord paced = record(u"2026-11-03T00:20:00.000Z"_s, u"paced"_s, 1);
    paced.windowTokensLeft = 0;
    paced.windowResetS = 12.5;
    paced.estimatedTokens = 1387;
    ok &= store.addRetryRecord(s3.id, paced);
    return ok;
}

const QString kHeader
    = u"time,request,event,attempt,status,category,used,limit,wait_s,raw_wait_s,"
      "wait_source,waited_total_s,budget_left_s,reason,error,reset_at,window_tokens_left,window_reset_s,estimated_tokens,profile,fallback_to,answer_end,conversation"_s;
const QString kJson[] = {
    uR"({"time":"2026-11-01T09:00:01.000Z","request":1,"event":"attempt_started","attempt":1,"status":null,"category":null,"used":null,"limit":null,"wait_s":null,"raw_wait_s":null,"wait_source":null,"waited_total_s":null,"budget_left_s":null,"reason":null,"error":null,"reset_at":null,"window_tokens_left":null,"window_reset_s":null,"estimated_tokens":null,"profile":null,"fallback_to":null,"answer_end":null,"conversation":"11111111-aaaa-4aaa-8aaa-000000000001"})"_s,
    uR"({"time":"2026-11-01T09:00:01.500Z","request":1,"event":"retry_scheduled","attempt":1,"status":422,"category":"token_limit","used":60323,"limit":60000,"wait_s":18,"raw_wait_s":1080,"wait_source":"message","waited_total_s":18,"budget_left_s":102,"reason":null,"error":"=cmd, \"quoted\" text","reset_at":null,"window_tokens_left":null,"window_reset_s":null,"estimated_tokens":null,"profile":null,"fallback_to":null,"answer_end":null,"conversation":"11111111-aaaa-4aaa-8aaa-000000000001"})"_s,
    uR"({"time":"2026-11-01T09:00:20.000Z","request":1,"event":"gave_up","attempt":5,"status":null,"category":null,"used":null,"limit":null,"wait_s":null,"raw_wait_s":null,"wait_source":null,"waited_total_s":null,"budget_left_s":null,"reason":"attempts_exhausted","error":null,"reset_at":null,"window_tokens_left":null,"window_reset_s":null,"estimated_tokens":null,"profile":null,"fallback_to":null,"answer_end":null,"conversation":"11111111-aaaa-4aaa-8aaa-000000000001"})"_s,
    uR"({"time":"2026-11-02T00:00:00.000Z","request":1,"event":"attempt_started","attempt":1,"status":null,"category":null,"used":null,"limit":null,"wait_s":null,"raw_wait_s":null,"wait_source":null,"waited_total_s":null,"budget_left_s":null,"reason":null,"error":null,"reset_at":null,"window_tokens_left":null,"window_reset_s":null,"estimated_tokens":null,"profile":null,"fallback_to":null,"answer_end":null,"conversation":"11111111-bbbb-4bbb-8bbb-000000000002"})"_s,
    uR"({"time":"2026-11-02T00:00:01.250Z","request":1,"event":"succeeded","attempt":1,"status":200,"category":"success","used":null,"limit":null,"wait_s":null,"raw_wait_s":null,"wait_source":null,"waited_total_s":null,"budget_left_s":null,"reason":null,"error":null,"reset_at":null,"window_tokens_left":null,"window_reset_s":null,"estimated_tokens":null,"profile":null,"fallback_to":null,"answer_end":null,"conversation":"11111111-bbbb-4bbb-8bbb-000000000002"})"_s,
    uR"({"time":"2026-11-03T00:00:00.000Z","request":1,"event":"parked","attempt":5,"status":422,"category":"token_limit","used":null,"limit":null,"wait_s":null,"raw_wait_s":null,"wait_source":null,"waited_total_s":null,"budget_left_s":null,"reason":"budget_exhausted","error":null,"reset_at":"2026-11-03T00:16:00.000Z","window_tokens_left":null,"window_reset_s":null,"estimated_tokens":null,"profile":null,"fallback_to":null,"answer_end":null,"conversation":"22222222-cccc-4ccc-8ccc-000000000003"})"_s,
    uR"({"time":"2026-11-03T00:10:00.000Z","request":1,"event":"unparked","attempt":5,"status":null,"category":null,"used":null,"limit":null,"wait_s":null,"raw_wait_s":null,"wait_source":null,"waited_total_s":null,"budget_left_s":null,"reason":"cancelled","error":null,"reset_at":"2026-11-03T00:16:00.000Z","window_tokens_left":null,"window_reset_s":null,"estimated_tokens":null,"profile":null,"fallback_to":null,"answer_end":null,"conversation":"22222222-cccc-4ccc-8ccc-000000000003"})"_s,
    uR"({"time":"2026-11-03T00:20:00.000Z","request":1,"event":"paced","attempt":1,"status":null,"category":null,"used":null,"limit":null,"wait_s":null,"raw_wait_s":null,"wait_source":null,"waited_total_s":null,"budget_left_s":null,"reason":null,"error":null,"reset_at":null,"window_tokens_left":0,"window_reset_s":12.5,"estimated_tokens":1387,"profile":null,"fallback_to":null,"answer_end":null,"conversation":"22222222-cccc-4ccc-8ccc-000000000003"})"_s,
};
const QString kCsv[] = {
    u"2026-11-01T09:00:01.000Z,1,attempt_started,1,,,,,,,,,,,,,,,,,,,11111111-aaaa-4aaa-8aaa-000000000001"_s,
    u"2026-11-01T09:00:01.500Z,1,retry_scheduled,1,422,token_limit,60323,60000,18,1080,message,18,"
    "102,,\"'=cmd, \"\"quoted\"\" text\",,,,,,,,11111111-aaaa-4aaa-8aaa-000000000001"_s,
    u"2026-11-01T09:00:20.000Z,1,gave_up,5,,,,,,,,,,attempts_exhausted,,,,,,,,,11111111-aaaa-4aaa-8aaa-000000000001"_s,
    u"2026-11-02T00:00:00.000Z,1,attempt_started,1,,,,,,,,,,,,,,,,,,,11111111-bbbb-4bbb-8bbb-000000000002"_s,
    u"2026-11-02T00:00:01.250Z,1,succeeded,1,200,success,,,,,,,,,,,,,,,,,11111111-bbbb-4bbb-8bbb-000000000002"_s,
    u"2026-11-03T00:00:00.000Z,1,parked,5,422,token_limit,,,,,,,,budget_exhausted,,"
    "2026-11-03T00:16:00.000Z,,,,,,,22222222-cccc-4ccc-8ccc-000000000003"_s,
    u"2026-11-03T00:10:00.000Z,1,unparked,5,,,,,,,,,,cancelled,,2026-11-03T00:16:00.000Z,,,,,,,"
    "22222222-cccc-4ccc-8ccc-000000000003"_s,
    u"2026-11-03T00:20:00.000Z,1,paced,1,,,,,,,,,,,,,0,12.5,1387,,,,22222222-cccc-4ccc-8ccc-000000000003"_s,
};

} // namespace

class TestHistoryCli final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void listTable();
    void listJson();
    void listLimit();
    void showByFullId();
    void showByPrefix();
    void showRetryRecordsAsCsv();
    void showLeavesReplacedOut();
    void ambiguousPrefix();
    void unknownId();
    void exportJsonLines();
    void exportCsv();
    void exportRange_data();
    void exportRange();
    void exportToFile();
    void badArguments_data();
    void badArguments();
    void newerVersionRefusedUntouched();
    void olderVersionReadInACopy();
    void damagedFileLeftInPlace();
    void noDatabase();
    void defaultLocation();
    void helpNamesEveryOption();

private:
    testing::CliRun run(QStringList args, const QString &timeZone = u"UTC"_s) const;

    QTemporaryDir m_dir;
    QString m_db;
};

testing::CliRun TestHistoryCli::run(QStringList args, const QString &timeZone) const
{
    testing::CliOptions options;
    options.environment.insert(u"TZ"_s, timeZone);
    options.timeoutMs = 20000;
    args.prepend(u"history"_s);
    if (!args.contains(u"--database"_s))
        args << u"--database"_s << m_db;
    return testing::runCli(args, options);
}

void TestHistoryCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_db = m_dir.filePath(u"history.sqlite"_s);
    QVERIFY(fill(m_db));
}

void TestHistoryCli::listTable()
{
    const testing::CliRun r = run({ u"list"_s });
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.err, QByteArray());
    QCOMPARE(lines(r.out),
        QStringList({
            u"ID        UPDATED           MARKS  MODEL          TITLE"_s,
            u"22222222  2026-11-02 23:30  -U     m              Third"_s,
            u"11111111  2026-11-02 00:00  --     gpt-x          Second"_s,
            u"11111111  2026-11-01 09:00  RU     capwatch-demo  Capped questions"_s,
        }));
    // Local time: Tokyo is 9 hours ahead.
    QCOMPARE(lines(run({ u"list"_s }, u"Asia/Tokyo"_s).out).at(1),
        u"22222222  2026-11-03 08:30  -U     m              Third"_s);
}

void TestHistoryCli::listJson()
{
    const testing::CliRun r = run({ u"list"_s, u"--json"_s });
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(lines(r.out),
        QStringList({
            u"["_s,
            uR"({"id":"22222222-cccc-4ccc-8ccc-000000000003","title":"Third","endpoint":"http://127.0.0.1:1/v1","model":"m","created":"2026-11-02T23:00:00.000Z","updated":"2026-11-02T23:30:00.000Z","has_retries":false,"has_unanswered":true,"messages":1},)"_s,
            uR"({"id":"11111111-bbbb-4bbb-8bbb-000000000002","title":"Second","endpoint":"https://llm.example.org/v1","model":"gpt-x","created":"2026-11-01T23:59:00.000Z","updated":"2026-11-02T00:00:02.000Z","has_retries":false,"has_unanswered":false,"messages":2},)"_s,
            uR"({"id":"11111111-aaaa-4aaa-8aaa-000000000001","title":"Capped questions","endpoint":"http://127.0.0.1:40453/v1","model":"capwatch-demo","created":"2026-11-01T09:00:00.000Z","updated":"2026-11-01T09:00:20.000Z","has_retries":true,"has_unanswered":true,"messages":2})"_s,
            u"]"_s,
        }));
}

void TestHistoryCli::listLimit()
{
    const testing::CliRun r = run({ u"list"_s, u"--limit"_s, u"1"_s });
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(lines(r.out).size(), 2);
    QCOMPARE(lines(r.out).at(1), u"22222222  2026-11-02 23:30  -U     m      Third"_s);
    QCOMPARE(lines(run({ u"list"_s, u"--limit"_s, u"2"_s, u"--json"_s }).out).size(), 4);
}

void TestHistoryCli::showByFullId()
{
    const testing::CliRun r = run({ u"show"_s, u"11111111-aaaa-4aaa-8aaa-000000000001"_s });
    QCOMPARE(r.err, QByteArray());
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(lines(r.out),
        QStringList({
            u"Title:     Capped questions"_s,
            u"ID:        11111111-aaaa-4aaa-8aaa-000000000001"_s,
            u"Endpoint:  http://127.0.0.1:40453/v1"_s,
            u"Model:     capwatch-demo"_s,
            u"Created:   2026-11-01 09:00:00"_s,
            u"Updated:   2026-11-01 09:00:20"_s,
            u""_s,
            u"[user, 2026-11-01 09:00:01]"_s,
            u"Hello there"_s,
            u""_s,
            u"[assistant, cut off, 2026-11-01 09:00:02]"_s,
            u"The cap is"_s,
            u""_s,
            u"Sends:"_s,
            u"  2026-11-01 09:00:01  gave_up (attempts_exhausted), 5 attempts, waited 18.5 s"_s,
            u""_s,
            u"Retry log:"_s,
            u"  2026-11-01 09:00:01.000  request 1, attempt 1: attempt_started"_s,
            u"  2026-11-01 09:00:01.500  request 1, attempt 1: retry_scheduled, status 422, "
            "token_limit, used 60323, limit 60000, wait 18 s (message), waited 18 s, 102 s of "
            "the budget left: =cmd, \"quoted\" text"_s,
            u"  2026-11-01 09:00:20.000  request 1, attempt 5: gave_up, attempts_exhausted"_s,
        }));
    // Braces and capitals, as QUuid and other tools write it, name it too.
    const testing::CliRun braced = run({ u"show"_s, u"{11111111-AAAA-4AAA-8AAA-000000000001}"_s });
    QCOMPARE(braced.exitCode, 0);
    QCOMPARE(braced.out, r.out);
}

void TestHistoryCli::showByPrefix()
{
    const testing::CliRun r = run({ u"show"_s, u"11111111-b"_s });
    QCOMPARE(r.exitCode, 0);
    const QStringList out = lines(r.out);
    QCOMPARE(out.at(0), u"Title:     Second"_s);
    QVERIFY2(out.contains(u"[assistant, 2026-11-02 00:00:01]"_s), r.out.constData());
    // A multi-line answer is printed as it is.
    QVERIFY(r.out.contains("\nAnswer two\nin two lines\n\n"));
    QVERIFY(out.contains(u"  2026-11-02 00:00:00  succeeded, 1 attempt, waited 0 s"_s));

    const testing::CliRun third = run({ u"show"_s, u"22222222"_s });
    QCOMPARE(third.exitCode, 0);
    QVERIFY(
        lines(third.out).contains(u"  2026-11-02 23:30:00  not ended, 0 attempts, waited 0 s"_s));
    QCOMPARE(lines(third.out).mid(lines(third.out).indexOf(u"Retry log:"_s)),
        QStringList({
            u"Retry log:"_s,
            u"  2026-11-03 00:00:00.000  request 1, attempt 5: parked, status 422, token_limit, "
            "budget_exhausted, reset at 2026-11-03 00:16:00"_s,
            u"  2026-11-03 00:10:00.000  request 1, attempt 5: unparked, cancelled, reset at "
            "2026-11-03 00:16:00"_s,
            u"  2026-11-03 00:20:00.000  request 1, attempt 1: paced"_s,
        }));
}

void TestHistoryCli::showLeavesReplacedOut()
{
    // Regenerated: the first answer and its prompt replaced, the prompt stored again.
    const QString path = m_dir.filePath(u"replaced.sqlite"_s);
    QUuid id;
    {
        history::HistoryStore store;
        QVERIFY(store.open(path).persistent());
        history::Conversation c;
        QVERIFY(store.addConversation(c));
        id = c.id;
        QList<QUuid> replaced;
        for (const QString &answer : { u"The first answer"_s, u"The second answer"_s }) {
            history::Message prompt;
            prompt.conversation = id;
            prompt.text = u"A question"_s;
            QVERIFY(store.addMessage(prompt));
            history::Message m;
            m.conversation = id;
            m.role = history::Role::Assistant;
            m.text = answer;
            QVERIFY(store.addMessage(m));
            if (replaced.isEmpty())
                replaced = { prompt.id, m.id };
        }
        for (const QUuid &m : std::as_const(replaced))
            QVERIFY(store.replaceMessage(m));
    }
    const testing::CliRun r
        = run({ u"show"_s, id.toString(QUuid::WithoutBraces), u"--database"_s, path });
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out.count("A question"), 2); // the title and the prompt shown once
    QVERIFY(!r.out.contains("The first answer"));
    QVERIFY(r.out.contains("The second answer"));
    QVERIFY2(lines(r.out).contains(
                 u"(2 messages replaced by Regenerate or Edit and resend, not shown)"_s),
        r.out.constData());
}

void TestHistoryCli::showRetryRecordsAsCsv()
{
    const testing::CliRun r = run({ u"show"_s, u"11111111-aaaa"_s, u"--format"_s, u"csv"_s });
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out,
        (kHeader + u"\r\n"_s + kCsv[0] + u"\r\n"_s + kCsv[1] + u"\r\n"_s + kCsv[2] + u"\r\n"_s)
            .toUtf8());
    const testing::CliRun json = run({ u"show"_s, u"22222222"_s, u"--format"_s, u"jsonl"_s });
    QCOMPARE(json.exitCode, 0);
    QCOMPARE(lines(json.out), (QStringList { kJson[5], kJson[6], kJson[7] }));
}

void TestHistoryCli::ambiguousPrefix()
{
    const testing::CliRun r = run({ u"show"_s, u"11111111"_s });
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.out, QByteArray());
    QCOMPARE(lines(r.err),
        QStringList({
            u"capwatch-cli history: error: the ID '11111111' matches 2 conversations; give more "
            "of it:"_s,
            u"  11111111-bbbb-4bbb-8bbb-000000000002  Second"_s,
            u"  11111111-aaaa-4aaa-8aaa-000000000001  Capped questions"_s,
            u"Try 'capwatch-cli history --help'."_s,
        }));
}

void TestHistoryCli::unknownId()
{
    for (const QString &id : { u"33333333"_s, u"33333333-cccc-4ccc-8ccc-000000000003"_s }) {
        const testing::CliRun r = run({ u"show"_s, id });
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.out, QByteArray());
        QCOMPARE(lines(r.err).value(0),
            u"capwatch-cli history: error: no conversation has the ID '%1'"_s.arg(id));
    }
}

void TestHistoryCli::exportJsonLines()
{
    const testing::CliRun r = run({ u"export"_s, u"--format"_s, u"jsonl"_s });
    QCOMPARE(r.err, QByteArray());
    QCOMPARE(r.exitCode, 0);
    QStringList expected;
    for (const QString &line : kJson)
        expected << line;
    QCOMPARE(lines(r.out), expected);
}

void TestHistoryCli::exportCsv()
{
    const testing::CliRun r = run({ u"export"_s, u"--format"_s, u"csv"_s });
    QCOMPARE(r.exitCode, 0);
    QString expected = kHeader + u"\r\n"_s;
    for (const QString &line : kCsv)
        expected += line + u"\r\n"_s;
    QCOMPARE(QString::fromUtf8(r.out), expected);
}

void TestHistoryCli::exportRange_data()
{
    QTest::addColumn<QString>("timeZone");
    QTest::addColumn<QStringList>("range");
    QTest::addColumn<QList<int>>("records");
    // --since is inclusive and --until exclusive: records sit exactly on 2026-11-02T00:00Z and
    // 2026-11-03T00:00Z.
    QTest::newRow("days, UTC") << u"UTC"_s
                               << QStringList { u"--since"_s, u"2026-11-02"_s, u"--until"_s,
                                      u"2026-11-03"_s }
                               << QList<int> { 3, 4 };
    QTest::newRow("since only") << u"UTC"_s << QStringList { u"--since"_s, u"2026-11-03"_s }
                                << QList<int> { 5, 6, 7 };
    QTest::newRow("until only") << u"UTC"_s << QStringList { u"--until"_s, u"2026-11-02"_s }
                                << QList<int> { 0, 1, 2 };
    QTest::newRow("a millisecond later")
        << u"UTC"_s << QStringList { u"--since"_s, u"2026-11-02T00:00:00.001Z"_s }
        << QList<int> { 4, 5, 6, 7 };
    QTest::newRow("offset") << u"UTC"_s
                            << QStringList { u"--until"_s, u"2026-11-02T09:00:00+09:00"_s }
                            << QList<int> { 0, 1, 2 };
    QTest::newRow("seconds, Z") << u"UTC"_s
                                << QStringList { u"--since"_s, u"2026-11-01T09:00:01Z"_s,
                                       u"--until"_s, u"2026-11-01T09:00:20Z"_s }
                                << QList<int> { 0, 1 };
    // Local midnight in Tokyo is 15:00 UTC the day before.
    QTest::newRow("days, Tokyo") << u"Asia/Tokyo"_s
                                 << QStringList { u"--since"_s, u"2026-11-02"_s, u"--until"_s,
                                        u"2026-11-03T09:00:00"_s }
                                 << QList<int> { 3, 4 };
    QTest::newRow("nothing") << u"UTC"_s << QStringList { u"--since"_s, u"2027-01-01"_s }
                             << QList<int> {};
}

void TestHistoryCli::exportRange()
{
    QFETCH(QString, timeZone);
    QFETCH(QStringList, range);
    QFETCH(QList<int>, records);
    const testing::CliRun r
        = run(QStringList { u"export"_s, u"--format"_s, u"jsonl"_s } + range, timeZone);
    QCOMPARE(r.err, QByteArray());
    QCOMPARE(r.exitCode, 0);
    QStringList expected;
    for (const int i : records)
        expected << kJson[i];
    QCOMPARE(lines(r.out), expected);
}

void TestHistoryCli::exportToFile()
{
    const QString out = m_dir.filePath(u"retries.csv"_s);
    const testing::CliRun r = run(
        { u"export"_s, u"--format"_s, u"csv"_s, u"--since"_s, u"2026-11-03"_s, u"--out"_s, out });
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out, QByteArray());
    QCOMPARE(r.err, QByteArray());
    QCOMPARE(readAll(out),
        (kHeader + u"\r\n"_s + kCsv[5] + u"\r\n"_s + kCsv[6] + u"\r\n"_s + kCsv[7] + u"\r\n"_s)
            .toUtf8());
    // Into a folder that does not exist: an argument error, nothing written.
    const testing::CliRun bad = run({ u"export"_s, u"--format"_s, u"csv"_s, u"--out"_s,
        m_dir.filePath(u"no/such/folder/x.csv"_s) });
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.startsWith("capwatch-cli history: error: cannot write '"), bad.err);
    QVERIFY(!QFileInfo::exists(m_dir.filePath(u"no"_s)));
}

void TestHistoryCli::badArguments_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("error");
    QTest::newRow("no subcommand")
        << QStringList {} << u"a subcommand is required (list, show, export)"_s;
    QTest::newRow("unknown subcommand")
        << QStringList { u"remove"_s }
        << u"unknown subcommand 'remove' (one of: list, show, export)"_s;
    QTest::newRow("--limit 0") << QStringList { u"list"_s, u"--limit"_s, u"0"_s }
                               << u"--limit takes a whole number from 1, not '0'"_s;
    QTest::newRow("--limit x") << QStringList { u"list"_s, u"--limit"_s, u"x"_s }
                               << u"--limit takes a whole number from 1, not 'x'"_s;
    QTest::newRow("--limit for export") << QStringList { u"export"_s, u"--format"_s, u"csv"_s,
        u"--limit"_s, u"3"_s } << u"--limit does not apply to 'history export'"_s;
    QTest::newRow("--since for list") << QStringList { u"list"_s, u"--since"_s, u"2026-11-01"_s }
                                      << u"--since does not apply to 'history list'"_s;
    QTest::newRow("list with an argument")
        << QStringList { u"list"_s, u"extra"_s } << u"unexpected argument 'extra'"_s;
    QTest::newRow("show without ID")
        << QStringList { u"show"_s } << u"'history show' needs a conversation ID"_s;
    QTest::newRow("show with two IDs") << QStringList { u"show"_s, u"22222222"_s, u"11111111"_s }
                                       << u"unexpected argument '11111111'"_s;
    QTest::newRow("short ID") << QStringList { u"show"_s, u"2222222"_s }
                              << u"'2222222' is not a conversation ID: give its UUID or at least "
                                 "its first 8 hex digits"_s;
    QTest::newRow("not hex") << QStringList { u"show"_s, u"2222222x"_s }
                             << u"'2222222x' is not a conversation ID: give its UUID or at least "
                                "its first 8 hex digits"_s;
    QTest::newRow("export without --format")
        << QStringList { u"export"_s }
        << u"'history export' needs --format jsonl or --format csv"_s;
    QTest::newRow("--format xml") << QStringList { u"export"_s, u"--format"_s, u"xml"_s }
                                  << u"--format takes jsonl or csv, not 'xml'"_s;
    QTest::newRow("no such day")
        << QStringList { u"export"_s, u"--format"_s, u"csv"_s, u"--since"_s, u"2026-13-01"_s }
        << u"--since takes YYYY-MM-DD or an ISO 8601 date and time such as "
           "2026-11-29T20:05:00Z, not '2026-13-01'"_s;
    QTest::newRow("words") << QStringList { u"export"_s, u"--format"_s, u"csv"_s, u"--until"_s,
        u"yesterday"_s }
                           << u"--until takes YYYY-MM-DD or an ISO 8601 date and time such as "
                              "2026-11-29T20:05:00Z, not 'yesterday'"_s;
    QTest::newRow("empty range") << QStringList { u"export"_s, u"--format"_s, u"csv"_s,
        u"--since"_s, u"2026-11-03"_s, u"--until"_s, u"2026-11-02"_s }
                                 << u"--since must be earlier than --until"_s;
    QTest::newRow("unknown option")
        << QStringList { u"list"_s, u"--newest"_s } << u"Unknown option 'newest'."_s;
}

void TestHistoryCli::badArguments()
{
    QFETCH(QStringList, args);
    QFETCH(QString, error);
    const testing::CliRun r = run(args);
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.out, QByteArray());
    QCOMPARE(lines(r.err),
        QStringList({ u"capwatch-cli history: error: "_s + error,
            u"Try 'capwatch-cli history --help'."_s }));
}

void TestHistoryCli::newerVersionRefusedUntouched()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"history.sqlite"_s);
    {
        HistoryStore store;
        QCOMPARE(store.open(path).status, OpenResult::Status::Created);
    }
    QVERIFY(rawExec(path, u"PRAGMA user_version = 99"_s));
    const QByteArray before = sha256(path);
    const QStringList files = entries(dir.path());
    for (const QStringList &args :
        { QStringList { u"list"_s }, QStringList { u"show"_s, u"22222222"_s },
            QStringList { u"export"_s, u"--format"_s, u"jsonl"_s } }) {
        const testing::CliRun r = run(args + QStringList { u"--database"_s, path });
        QCOMPARE(r.exitCode, 4);
        QCOMPARE(r.out, QByteArray());
        QCOMPARE(lines(r.err),
            QStringList { u"capwatch-cli history: error: cannot read the history %1: it was made "
                          "by a newer capwatch (schema version 99; this one reads up to %2); it "
                          "is left untouched"_s.arg(path)
                              .arg(HistoryStore::latestVersion()) });
    }
    QCOMPARE(sha256(path), before);
    QCOMPARE(entries(dir.path()), files);
}

void TestHistoryCli::olderVersionReadInACopy()
{
    // A file of an older schema is upgraded in a copy, read there: its rows show, and the
    // user's file keeps its bytes and its version (a newer capwatch may still want it as it is).
    QTemporaryDir dir;
    const QString path = dir.filePath(u"history.sqlite"_s);
    QVERIFY(fillVersion1(path));
    QCOMPARE(rawValue(path, u"PRAGMA user_version"_s).toInt(), 1);
    QVERIFY(HistoryStore::latestVersion() > 1);
    const QByteArray before = sha256(path);
    const QStringList files = entries(dir.path());

    const testing::CliRun list = run({ u"list"_s, u"--database"_s, path });
    QCOMPARE(list.err, QByteArray());
    QCOMPARE(list.exitCode, 0);
    QCOMPARE(lines(list.out),
        QStringList({
            u"ID        UPDATED           MARKS  MODEL      TITLE"_s,
            u"44444444  2026-10-01 08:00  R-     old-model  From version one"_s,
        }));
    const testing::CliRun show = run({ u"show"_s, u"44444444"_s, u"--database"_s, path });
    QCOMPARE(show.err, QByteArray());
    QCOMPARE(show.exitCode, 0);
    QCOMPARE(lines(show.out),
        QStringList({
            u"Title:     From version one"_s,
            u"ID:        44444444-dddd-4ddd-8ddd-000000000004"_s,
            u"Endpoint:  http://127.0.0.1:8080/v1"_s,
            u"Model:     old-model"_s,
            u"Created:   2026-10-01 08:00:00"_s,
            u"Updated:   2026-10-01 08:00:07"_s,
            u""_s,
            u"[user, 2026-10-01 08:00:01]"_s,
            u"An old question"_s,
            u""_s,
            u"[assistant, 2026-10-01 08:00:06]"_s,
            u"An old answer"_s,
            u""_s,
            u"Sends:"_s,
            u"  2026-10-01 08:00:01  succeeded, 2 attempts, waited 5 s"_s,
            u""_s,
            u"Retry log:"_s,
            u"  2026-10-01 08:00:01.000  request 1, attempt 1: attempt_started"_s,
            u"  2026-10-01 08:00:01.400  request 1, attempt 1: retry_scheduled, status 429, "
            "rate_limit, wait 5 s (retry-after), waited 5 s, 115 s of the budget left"_s,
            u"  2026-10-01 08:00:06.400  request 1, attempt 2: attempt_started"_s,
            u"  2026-10-01 08:00:07.000  request 1, attempt 2: succeeded, status 200, success"_s,
        }));
    const testing::CliRun jsonl
        = run({ u"show"_s, u"44444444"_s, u"--format"_s, u"jsonl"_s, u"--database"_s, path });
    QCOMPARE(jsonl.exitCode, 0);
    QCOMPARE(lines(jsonl.out).size(), 4);

    // The user's file as it was: the same bytes, still version 1, nothing left beside it.
    QCOMPARE(sha256(path), before);
    QCOMPARE(entries(dir.path()), files);
    QCOMPARE(rawValue(path, u"PRAGMA user_version"_s).toInt(), 1);
}

void TestHistoryCli::damagedFileLeftInPlace()
{
    // HistoryStore::open() would move such a file aside and start anew; a command that reads
    // must leave it where it is.
    QTemporaryDir dir;
    const QString path = dir.filePath(u"history.sqlite"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray(4096, 'x'));
    file.close();
    const testing::CliRun r = run({ u"list"_s, u"--database"_s, path });
    QCOMPARE(r.exitCode, 4);
    QVERIFY2(r.err.startsWith(QByteArray(
                 "capwatch-cli history: error: cannot read the history " + path.toUtf8() + ": ")),
        r.err.constData());
    QCOMPARE(readAll(path), QByteArray(4096, 'x'));
    QCOMPARE(entries(dir.path()), QStringList { u"history.sqlite"_s });

    const testing::CliRun folder = run({ u"list"_s, u"--database"_s, dir.path() });
    QCOMPARE(folder.exitCode, 4);
    QCOMPARE(lines(folder.err),
        QStringList { u"capwatch-cli history: error: cannot read the history %1: a folder is in "
                      "its place"_s.arg(dir.path()) });
}

void TestHistoryCli::noDatabase()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"data/history.sqlite"_s);
    const testing::CliRun list = run({ u"list"_s, u"--database"_s, path });
    QCOMPARE(list.exitCode, 0);
    QCOMPARE(list.out, QByteArray());
    QCOMPARE(list.err, QByteArray());
    const testing::CliRun json = run({ u"list"_s, u"--json"_s, u"--database"_s, path });
    QCOMPARE(json.exitCode, 0);
    QCOMPARE(json.out, QByteArray("[]\n"));
    const testing::CliRun csv
        = run({ u"export"_s, u"--format"_s, u"csv"_s, u"--database"_s, path });
    QCOMPARE(csv.exitCode, 0);
    QCOMPARE(csv.out, (kHeader + u"\r\n"_s).toUtf8());
    const testing::CliRun show = run({ u"show"_s, u"22222222"_s, u"--database"_s, path });
    QCOMPARE(show.exitCode, 2);
    QCOMPARE(lines(show.err).value(0),
        u"capwatch-cli history: error: no conversation has the ID '22222222'"_s);
    QCOMPARE(entries(dir.path()), QStringList());
}

void TestHistoryCli::defaultLocation()
{
    // The database the window and chat share: GenericDataLocation/capwatch/history.sqlite.
    QTemporaryDir dir;
    const QString folder = dir.filePath(u"capwatch"_s);
    QVERIFY(QDir().mkpath(folder));
    QVERIFY(QFile::copy(m_db, folder + u"/history.sqlite"_s));
    testing::CliOptions options;
    options.environment.insert(u"TZ"_s, u"UTC"_s);
    options.environment.insert(u"XDG_DATA_HOME"_s, dir.path());
    const testing::CliRun r
        = testing::runCli({ u"history"_s, u"list"_s, u"--limit"_s, u"1"_s }, options);
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(lines(r.out).value(1), u"22222222  2026-11-02 23:30  -U     m      Third"_s);
    // Read where it is: no folder of capwatch-cli's own beside it.
    QCOMPARE(entries(dir.path()), QStringList { u"capwatch"_s });
}

void TestHistoryCli::helpNamesEveryOption()
{
    const testing::CliRun help = testing::runCli({ u"history"_s, u"--help"_s });
    QCOMPARE(help.exitCode, 0);
    const QStringList out = lines(help.out);
    QCOMPARE(
        out.value(0), u"Usage: capwatch-cli history list [--limit N] [--json] [--database PATH]"_s);
    QCOMPARE(out.value(1),
        u"       capwatch-cli history show ID [--format jsonl|csv] [--database PATH]"_s);
    const testing::CliRun man = testing::runCli({ u"--man-page"_s });
    QCOMPARE(man.exitCode, 0);
    const QString page = QString::fromUtf8(man.out).replace(u"\\-"_s, u"-"_s);
    QVERIFY(page.contains(u".SS \"history\""_s));
    for (const QString &option : { u"--database"_s, u"--limit"_s, u"--json"_s, u"--format"_s,
             u"--since"_s, u"--until"_s, u"--out"_s }) {
        QVERIFY2(help.out.contains(option.toUtf8()), qPrintable(option));
        QVERIFY2(page.contains(u"\\fB"_s + option + u"\\fR"_s), qPrintable(option));
    }
}

QTEST_GUILESS_MAIN(TestHistoryCli)
#include "tst_historycli.moc"
