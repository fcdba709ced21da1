// The retry log's formats (interfaces.md): exact JSON Lines and CSV, quoting, formula
// neutralising, the parking events, record-by-record flushing and atomic export.

#include "net/retrylog.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace capwatch::net;
using namespace Qt::StringLiterals;

namespace {

RetryRecord scheduled()
{
    RetryRecord r;
    r.time = QDateTime(QDate(2026, 11, 29), QTime(20, 5, 20, 123), Qt::UTC);
    r.request = 1;
    r.event = RetryRecord::Event::RetryScheduled;
    r.attempt = 1;
    r.status = 422;
    r.category = capwatch::retry::Category::TokenLimit;
    r.used = 60323;
    r.limit = 60000;
    r.waitMs = 60000;
    r.rawWaitMs = 1080000;
    r.waitSource = capwatch::retry::WaitSource::Message;
    r.waitedTotalMs = 60000;
    r.budgetLeftMs = 60000;
    r.error = u"Token limit exceeded: used 60323, limit 60000. Retry in 18 min."_s;
    return r;
}

/// A send that gave up capped, parked until its provider's reset (docs/parking.md).
RetryRecord parked()
{
    RetryRecord r;
    r.time = QDateTime(QDate(2026, 12, 1), QTime(5, 58, 5, 250), Qt::UTC);
    r.request = 2;
    r.event = RetryRecord::Event::Parked;
    r.attempt = 3;
    r.status = 422;
    r.category = capwatch::retry::Category::TokenLimit;
    r.rawWaitMs = 960000;
    r.waitSource = capwatch::retry::WaitSource::Message;
    r.waitedTotalMs = 120000;
    r.budgetLeftMs = 0;
    r.reason = capwatch::retry::EndReason::BudgetExhausted;
    r.resetAt = QDateTime(QDate(2026, 12, 1), QTime(6, 14, 5), Qt::UTC);
    return r;
}

/// It left the queue at its reset.
RetryRecord unparked(RetryRecord::Unpark why)
{
    RetryRecord r;
    r.time = QDateTime(QDate(2026, 12, 1), QTime(6, 14, 5, 4), Qt::UTC);
    r.request = 2;
    r.event = RetryRecord::Event::Unparked;
    r.attempt = 3;
    r.unpark = why;
    r.resetAt = QDateTime(QDate(2026, 12, 1), QTime(6, 14, 5), Qt::UTC);
    return r;
}

/// A send paced before attempt 1: the provider's window held 1,200 tokens, the request needs
/// 3,400, the window resets in 12.5 s (docs/retry-policy.md section 8.1).
RetryRecord paced()
{
    RetryRecord r;
    r.time = QDateTime(QDate(2026, 12, 2), QTime(0, 30, 1, 500), Qt::UTC);
    r.request = 4;
    r.event = RetryRecord::Event::Paced;
    r.attempt = 1;
    r.waitMs = 12500;
    r.waitSource = capwatch::retry::WaitSource::RateLimitReset;
    r.waitedTotalMs = 0;
    r.budgetLeftMs = 120000;
    r.windowTokensLeft = 1200;
    r.windowResetS = 12.5;
    r.estimatedTokens = 3400;
    return r;
}

// scheduled() as written, literally (not through the functions under test).
const QByteArray kScheduledJsonLine
    = "{\"time\":\"2026-11-29T20:05:20.123Z\",\"request\":1,\"event\":\"retry_scheduled\","
      "\"attempt\":1,\"status\":422,\"category\":\"token_limit\",\"used\":60323,\"limit\":60000,"
      "\"wait_s\":60,\"raw_wait_s\":1080,\"wait_source\":\"message\",\"waited_total_s\":60,"
      "\"budget_left_s\":60,\"reason\":null,"
      "\"error\":\"Token limit exceeded: used 60323, limit 60000. Retry in 18 min.\","
      "\"reset_at\":null,\"window_tokens_left\":null,\"window_reset_s\":null,"
      "\"estimated_tokens\":null,\"profile\":null,\"fallback_to\":null,\"answer_end\":null}";
const QByteArray kCsvHeader
    = "time,request,event,attempt,status,category,used,limit,wait_s,"
      "raw_wait_s,wait_source,waited_total_s,budget_left_s,reason,error,"
      "reset_at,window_tokens_left,window_reset_s,estimated_tokens,profile,fallback_to,answer_end";
const QByteArray kScheduledCsvRow
    = "2026-11-29T20:05:20.123Z,1,retry_scheduled,1,422,token_limit,60323,60000,60,1080,message,"
      "60,60,,\"Token limit exceeded: used 60323, limit 60000. Retry in 18 min.\",,,,,,,";

} // namespace

class TestRetryLog final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void jsonLineIsExact();
    void nullsAndFractions();
    void csvIsExact();
    void csvNeutralisesFormulas();
    void parkedAndUnparkedAreExact();
    void unparkNames();
    void pacedIsExact();
    void windowColumns_data();
    void windowColumns();
    void errorIsCutAt500Characters();
    void writerAppendsAndFlushesEachRecord();
    void csvHeaderOnlyInAnEmptyFile();
    void exportIsAtomicAndComplete();
    void profileColumnsComeLast();
    void answerEndColumnAndInterruptedEvent();
    void fallbackIsExact();
};

void TestRetryLog::jsonLineIsExact()
{
    QCOMPARE(toJsonLine(scheduled()),
        QByteArray(
            R"({"time":"2026-11-29T20:05:20.123Z","request":1,"event":"retry_scheduled",)"
            R"("attempt":1,"status":422,"category":"token_limit","used":60323,"limit":60000,)"
            R"("wait_s":60,"raw_wait_s":1080,"wait_source":"message","waited_total_s":60,)"
            R"("budget_left_s":60,"reason":null,)"
            R"("error":"Token limit exceeded: used 60323, limit 60000. Retry in 18 min.",)"
            R"("reset_at":null,"window_tokens_left":null,"window_reset_s":null,)"
            R"("estimated_tokens":null,"profile":null,"fallback_to":null,"answer_end":null})"));
}

void TestRetryLog::nullsAndFractions()
{
    RetryRecord r;
    r.time = QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5, 6), Qt::UTC);
    r.request = 7;
    r.event = RetryRecord::Event::RetryScheduled;
    r.attempt = 2;
    r.waitMs = 84;
    r.rawWaitMs = 2500;
    r.used = 1.5;
    QCOMPARE(toJsonLine(r),
        QByteArray(
            R"({"time":"2026-01-02T03:04:05.006Z","request":7,"event":"retry_scheduled",)"
            R"("attempt":2,"status":null,"category":null,"used":1.5,"limit":null,)"
            R"("wait_s":0.084,"raw_wait_s":2.5,"wait_source":null,"waited_total_s":null,)"
            R"("budget_left_s":null,"reason":null,"error":null,"reset_at":null,)"
            R"("window_tokens_left":null,"window_reset_s":null,"estimated_tokens":null,"profile":null,"fallback_to":null,"answer_end":null})"));
}

void TestRetryLog::csvIsExact()
{
    QCOMPARE(csvHeader(),
        QByteArray(
            "time,request,event,attempt,status,category,used,limit,wait_s,"
            "raw_wait_s,wait_source,waited_total_s,budget_left_s,reason,error,reset_at,"
            "window_tokens_left,window_reset_s,estimated_tokens,profile,fallback_to,answer_end"));
    QCOMPARE(toCsvRow(scheduled()),
        QByteArray("2026-11-29T20:05:20.123Z,1,retry_scheduled,1,422,token_limit,60323,60000,60,"
                   "1080,message,60,60,,\"Token limit exceeded: used 60323, limit 60000. Retry in "
                   "18 min.\",,,,,,,"));
    RetryRecord quoted = scheduled();
    quoted.error = u"say \"hi\"\nnext line"_s;
    QVERIFY(toCsvRow(quoted).endsWith(",\"say \"\"hi\"\"\nnext line\",,,,,,,"));
}

void TestRetryLog::csvNeutralisesFormulas()
{
    for (const QString &evil :
        { u"=HYPERLINK(\"http://x\")"_s, u"+1"_s, u"-2+3"_s, u"@SUM(A1)"_s }) {
        RetryRecord r = scheduled();
        r.error = evil;
        const QByteArray row = toCsvRow(r);
        // The error cell, after the empty reason.
        const QByteArray cell = row.mid(row.indexOf(",60,60,,") + 8);
        QVERIFY2(cell.startsWith("'") || cell.startsWith("\"'"), row.constData());
    }
    // JSON Lines keep the text as it was: only spreadsheets run formulas.
    RetryRecord r = scheduled();
    r.error = u"=1+1"_s;
    QVERIFY(toJsonLine(r).contains(R"("error":"=1+1")"));
}

void TestRetryLog::parkedAndUnparkedAreExact()
{
    // `reason`: how the send ended for `parked`, why it left the queue for `unparked`; both
    // with `reset_at`, in the form of `time`.
    QCOMPARE(toJsonLine(parked()),
        QByteArray(
            R"({"time":"2026-12-01T05:58:05.250Z","request":2,"event":"parked",)"
            R"("attempt":3,"status":422,"category":"token_limit","used":null,"limit":null,)"
            R"("wait_s":null,"raw_wait_s":960,"wait_source":"message","waited_total_s":120,)"
            R"("budget_left_s":0,"reason":"budget_exhausted","error":null,)"
            R"("reset_at":"2026-12-01T06:14:05.000Z",)"
            R"("window_tokens_left":null,"window_reset_s":null,"estimated_tokens":null,"profile":null,"fallback_to":null,"answer_end":null})"));
    QCOMPARE(toJsonLine(unparked(RetryRecord::Unpark::ResetReached)),
        QByteArray(
            R"({"time":"2026-12-01T06:14:05.004Z","request":2,"event":"unparked",)"
            R"("attempt":3,"status":null,"category":null,"used":null,"limit":null,)"
            R"("wait_s":null,"raw_wait_s":null,"wait_source":null,"waited_total_s":null,)"
            R"("budget_left_s":null,"reason":"reset_reached","error":null,)"
            R"("reset_at":"2026-12-01T06:14:05.000Z",)"
            R"("window_tokens_left":null,"window_reset_s":null,"estimated_tokens":null,"profile":null,"fallback_to":null,"answer_end":null})"));
    QCOMPARE(toCsvRow(parked()),
        QByteArray("2026-12-01T05:58:05.250Z,2,parked,3,422,token_limit,,,,960,message,120,0,"
                   "budget_exhausted,,2026-12-01T06:14:05.000Z,,,,,,"));
    QCOMPARE(toCsvRow(unparked(RetryRecord::Unpark::Cancelled)),
        QByteArray("2026-12-01T06:14:05.004Z,2,unparked,3,,,,,,,,,,cancelled,,"
                   "2026-12-01T06:14:05.000Z,,,,,,"));

    // The end reason of an unparked record is not written: its reason is the unpark.
    RetryRecord sentNow = unparked(RetryRecord::Unpark::SentNow);
    sentNow.reason = capwatch::retry::EndReason::BudgetExhausted;
    QVERIFY(toJsonLine(sentNow).contains(R"("reason":"sent_now",)"));
    // An unpark outside an unparked record is not written either.
    RetryRecord gaveUp = parked();
    gaveUp.event = RetryRecord::Event::GaveUp;
    gaveUp.unpark = RetryRecord::Unpark::Cancelled;
    QVERIFY(toJsonLine(gaveUp).contains(R"("reason":"budget_exhausted",)"));

    // A whole log: the CSV file has the column in its header.
    RetryLog log;
    log.append(parked());
    log.append(unparked(RetryRecord::Unpark::ResetReached));
    QCOMPARE(log.serialize(LogFormat::Csv),
        kCsvHeader + "\r\n" + toCsvRow(parked()) + "\r\n"
            + "2026-12-01T06:14:05.004Z,2,unparked,3,,,,,,,,,,reset_reached,,"
              "2026-12-01T06:14:05.000Z,,,,,,\r\n");
}

void TestRetryLog::unparkNames()
{
    using Unpark = RetryRecord::Unpark;
    for (const auto &[unpark, name] : { std::pair { Unpark::SentNow, "sent_now" },
             std::pair { Unpark::ResetReached, "reset_reached" },
             std::pair { Unpark::Cancelled, "cancelled" } }) {
        QCOMPARE(RetryRecord::unparkName(unpark), QString::fromLatin1(name));
        QCOMPARE(RetryRecord::unparkFromName(QString::fromLatin1(name)), unpark);
    }
    QCOMPARE(RetryRecord::unparkName(Unpark::None), QString());
    QCOMPARE(RetryRecord::unparkFromName(u"paced"), Unpark::None);
    QCOMPARE(RetryRecord::eventFromName(u"parked"), RetryRecord::Event::Parked);
    QCOMPARE(RetryRecord::eventFromName(u"unparked"), RetryRecord::Event::Unparked);
    QCOMPARE(RetryRecord::eventFromName(u"paced"), RetryRecord::Event::Paced);
    QCOMPARE(RetryRecord::eventName(RetryRecord::Event::Paced), u"paced"_s);
    QCOMPARE(RetryRecord::eventFromName(u"throttled"), std::nullopt);
}

void TestRetryLog::pacedIsExact()
{
    QCOMPARE(toJsonLine(paced()),
        QByteArray(
            R"({"time":"2026-12-02T00:30:01.500Z","request":4,"event":"paced",)"
            R"("attempt":1,"status":null,"category":null,"used":null,"limit":null,)"
            R"("wait_s":12.5,"raw_wait_s":null,"wait_source":"ratelimit-reset",)"
            R"("waited_total_s":0,"budget_left_s":120,"reason":null,"error":null,)"
            R"("reset_at":null,"window_tokens_left":1200,"window_reset_s":12.5,)"
            R"("estimated_tokens":3400,"profile":null,"fallback_to":null,"answer_end":null})"));
    QCOMPARE(toCsvRow(paced()),
        QByteArray("2026-12-02T00:30:01.500Z,4,paced,1,,,,,12.5,,ratelimit-reset,0,120,,,,1200,"
                   "12.5,3400,,,"));
    // The history export's extra column comes after the window columns.
    QCOMPARE(toCsvRow(paced(), u"paced"_s, { { u"conversation"_s, u"c-1"_s } }),
        toCsvRow(paced()) + ",c-1");
    QVERIFY(
        toJsonLine(paced(), u"paced"_s, { { u"conversation"_s, u"c-1"_s } })
            .endsWith(
                R"("estimated_tokens":3400,"profile":null,"fallback_to":null,"answer_end":null,"conversation":"c-1"})"));
    QCOMPARE(csvHeader({ u"conversation"_s }), kCsvHeader + ",conversation");
}

void TestRetryLog::windowColumns_data()
{
    QTest::addColumn<std::optional<qint64>>("tokensLeft");
    QTest::addColumn<std::optional<double>>("resetS");
    QTest::addColumn<std::optional<qint64>>("estimated");
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QByteArray>("csv");

    QTest::newRow("all null")
        << std::optional<qint64>() << std::optional<double>() << std::optional<qint64>()
        << QByteArray(
               R"("window_tokens_left":null,"window_reset_s":null,)"
               R"("estimated_tokens":null,"profile":null,"fallback_to":null,"answer_end":null})")
        << QByteArray(",,,,,,");
    QTest::newRow("zero left, whole reset")
        << std::optional<qint64>(0) << std::optional<double>(30.0) << std::optional<qint64>(1017)
        << QByteArray(
               R"("window_tokens_left":0,"window_reset_s":30,"estimated_tokens":1017,"profile":null,"fallback_to":null,"answer_end":null})")
        << QByteArray(",0,30,1017,,,");
    QTest::newRow("milliseconds")
        << std::optional<qint64>(59000) << std::optional<double>(0.02) << std::optional<qint64>()
        << QByteArray(
               R"("window_tokens_left":59000,)"
               R"("window_reset_s":0.02,"estimated_tokens":null,"profile":null,"fallback_to":null,"answer_end":null})")
        << QByteArray(",59000,0.02,,,,");
    QTest::newRow("three decimals")
        << std::optional<qint64>() << std::optional<double>(3723.5004) << std::optional<qint64>(2)
        << QByteArray(
               R"("window_tokens_left":null,)"
               R"("window_reset_s":3723.5,"estimated_tokens":2,"profile":null,"fallback_to":null,"answer_end":null})")
        << QByteArray(",,3723.5,2,,,");
}

void TestRetryLog::windowColumns()
{
    QFETCH(std::optional<qint64>, tokensLeft);
    QFETCH(std::optional<double>, resetS);
    QFETCH(std::optional<qint64>, estimated);
    QFETCH(QByteArray, json);
    QFETCH(QByteArray, csv);
    RetryRecord r = scheduled();
    r.windowTokensLeft = tokensLeft;
    r.windowResetS = resetS;
    r.estimatedTokens = estimated;
    QVERIFY2(toJsonLine(r).endsWith(QByteArray(R"("reset_at":null,)" + json)),
        toJsonLine(r).constData());
    QVERIFY2(toCsvRow(r).endsWith(QByteArray("18 min.\"," + csv)), toCsvRow(r).constData());
    QCOMPARE(toCsvRow(r).count(',') - toCsvRow(scheduled()).count(','), 0);
}

void TestRetryLog::errorIsCutAt500Characters()
{
    RetryLog log;
    RetryRecord r = scheduled();
    r.error = QString(800, u'x');
    log.append(r);
    QCOMPARE(log.records().constFirst().error, QString(499, u'x') + u'…');

    // Exactly 500 is whole; a pair of surrogates at the cut is not split.
    r.error = QString(500, u'y');
    log.append(r);
    QCOMPARE(log.records().at(1).error, QString(500, u'y'));
    r.error = QString(498, u'z') + u"😀😀😀"_s;
    log.append(r);
    QCOMPARE(log.records().at(2).error, QString(498, u'z') + u'…');
}

void TestRetryLog::writerAppendsAndFlushesEachRecord()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"log.jsonl"_s);
    RetryLog log;
    QString error;
    auto writer = RetryLogWriter::open(path, &error);
    QVERIFY2(writer, qPrintable(error));
    log.addWriter(std::move(writer));
    QSignalSpy appended(&log, &RetryLog::recordAppended);
    log.append(scheduled());
    // Readable by another reader at once, before anything is closed.
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), kScheduledJsonLine + '\n');
    log.append(scheduled());
    QCOMPARE(f.readAll(), kScheduledJsonLine + '\n');
    QCOMPARE(appended.size(), 2);
    QCOMPARE(appended.at(1).at(0).toInt(), 1);
}

void TestRetryLog::csvHeaderOnlyInAnEmptyFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"log.CSV"_s);
    for (int run = 0; run < 2; ++run) {
        auto writer = RetryLogWriter::open(path, nullptr);
        QVERIFY(writer);
        QVERIFY(writer->append(scheduled()));
    }
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(
        f.readAll(), kCsvHeader + "\r\n" + kScheduledCsvRow + "\r\n" + kScheduledCsvRow + "\r\n");
}

void TestRetryLog::exportIsAtomicAndComplete()
{
    QTemporaryDir dir;
    RetryLog log;
    log.append(scheduled());
    RetryRecord second = scheduled();
    second.event = RetryRecord::Event::GaveUp;
    second.attempt = 2;
    second.waitMs.reset();
    second.rawWaitMs.reset();
    second.waitSource = capwatch::retry::WaitSource::None;
    second.reason = capwatch::retry::EndReason::BudgetExhausted;
    second.error = u"=cmd"_s;
    log.append(second);
    QString error;
    const auto read = [](const QString &path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(unreadable)");
    };

    const QString csv = dir.filePath(u"export.csv"_s);
    QVERIFY2(log.exportTo(csv, LogFormat::Csv, &error), qPrintable(error));
    QCOMPARE(read(csv),
        kCsvHeader + "\r\n" + kScheduledCsvRow + "\r\n"
            + "2026-11-29T20:05:20.123Z,1,gave_up,2,422,token_limit,60323,60000,,,,60,60,"
              "budget_exhausted,'=cmd,,,,,,,\r\n");
    const QString jsonl = dir.filePath(u"export.jsonl"_s);
    QVERIFY2(log.exportTo(jsonl, LogFormat::JsonLines, &error), qPrintable(error));
    QCOMPARE(read(jsonl),
        kScheduledJsonLine + '\n'
            + "{\"time\":\"2026-11-29T20:05:20.123Z\",\"request\":1,\"event\":\"gave_up\","
              "\"attempt\":2,\"status\":422,\"category\":\"token_limit\",\"used\":60323,"
              "\"limit\":60000,\"wait_s\":null,\"raw_wait_s\":null,\"wait_source\":null,"
              "\"waited_total_s\":60,\"budget_left_s\":60,\"reason\":\"budget_exhausted\","
              "\"error\":\"=cmd\",\"reset_at\":null,\"window_tokens_left\":null,"
              "\"window_reset_s\":null,\"estimated_tokens\":null,\"profile\":null,\"fallback_to\":"
              "null,\"answer_end\":null}\n");
    // Nothing else was left in the folder (no temporary file of the atomic write).
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System, QDir::Name),
        (QStringList { u"export.csv"_s, u"export.jsonl"_s }));

    QVERIFY(!log.exportTo(dir.filePath(u"missing/dir/x.jsonl"_s), LogFormat::JsonLines, &error));
    QVERIFY(!error.isEmpty());
}

void TestRetryLog::profileColumnsComeLast()
{
    const QStringList columns = retryLogColumns();
    QCOMPARE(columns.size(), 22);
    QCOMPARE(columns.indexOf(u"estimated_tokens"_s), 18);
    QCOMPARE(columns.indexOf(u"profile"_s), 19);
    QCOMPARE(columns.indexOf(u"fallback_to"_s), 20);
    QCOMPARE(columns.indexOf(u"answer_end"_s), 21);
    RetryRecord r = scheduled();
    r.profile = u"Free tier"_s;
    QVERIFY2(
        toJsonLine(r).endsWith(
            R"("estimated_tokens":null,"profile":"Free tier","fallback_to":null,"answer_end":null})"),
        toJsonLine(r).constData());
    QVERIFY(toCsvRow(r).endsWith(",,,,,Free tier,,"));
    // A name a spreadsheet would run is neutralised as every other text cell; commas are quoted.
    r.profile = u"=cmd, paid"_s;
    QVERIFY2(toCsvRow(r).endsWith(",\"'=cmd, paid\",,"), toCsvRow(r).constData());
    // The history export's extra column stays after them.
    r.profile = u"Paid"_s;
    QVERIFY(
        toJsonLine(r, u"retry_scheduled"_s, { { u"conversation"_s, u"c-1"_s } })
            .endsWith(
                R"("profile":"Paid","fallback_to":null,"answer_end":null,"conversation":"c-1"})"));
    QCOMPARE(toCsvRow(r, u"retry_scheduled"_s, { { u"conversation"_s, u"c-1"_s } }),
        toCsvRow(r) + ",c-1");
    QVERIFY(csvHeader({ u"conversation"_s })
                .endsWith(",estimated_tokens,profile,fallback_to,answer_end,conversation"));
}

void TestRetryLog::answerEndColumnAndInterruptedEvent()
{
    // Issue 29: the records that end a send say how its answer ended; `interrupted` is an event.
    QCOMPARE(RetryRecord::eventName(RetryRecord::Event::Interrupted), u"interrupted"_s);
    QCOMPARE(RetryRecord::eventFromName(u"interrupted"), RetryRecord::Event::Interrupted);
    RetryRecord r = scheduled();
    r.event = RetryRecord::Event::Interrupted;
    r.answerEnd = capwatch::retry::AnswerEnd::Interrupted;
    QVERIFY2(toJsonLine(r).endsWith(R"("fallback_to":null,"answer_end":"interrupted"})"),
        toJsonLine(r).constData());
    QVERIFY(toCsvRow(r).endsWith(",,interrupted"));
    r.event = RetryRecord::Event::Succeeded;
    r.answerEnd = capwatch::retry::AnswerEnd::CutOff;
    QVERIFY(toJsonLine(r).endsWith(R"("answer_end":"cut_off"})"));
}

void TestRetryLog::fallbackIsExact()
{
    // The capped send's closing record: its end reason, its profile, and where the prompt goes.
    RetryRecord r;
    r.time = QDateTime(QDate(2026, 12, 2), QTime(7, 0, 0, 1), Qt::UTC);
    r.request = 5;
    r.event = RetryRecord::Event::Fallback;
    r.attempt = 3;
    r.status = 422;
    r.category = capwatch::retry::Category::TokenLimit;
    r.waitedTotalMs = 10000;
    r.budgetLeftMs = 2000;
    r.reason = capwatch::retry::EndReason::AttemptsExhausted;
    r.profile = u"Free tier"_s;
    r.fallbackTo = u"Paid"_s;
    QCOMPARE(toJsonLine(r),
        QByteArray(
            R"({"time":"2026-12-02T07:00:00.001Z","request":5,"event":"fallback",)"
            R"("attempt":3,"status":422,"category":"token_limit","used":null,"limit":null,)"
            R"("wait_s":null,"raw_wait_s":null,"wait_source":null,"waited_total_s":10,)"
            R"("budget_left_s":2,"reason":"attempts_exhausted","error":null,)"
            R"("reset_at":null,"window_tokens_left":null,"window_reset_s":null,)"
            R"("estimated_tokens":null,"profile":"Free tier","fallback_to":"Paid","answer_end":null})"));
    QCOMPARE(toCsvRow(r),
        QByteArray("2026-12-02T07:00:00.001Z,5,fallback,3,422,token_limit,,,,,,10,2,"
                   "attempts_exhausted,,,,,,Free tier,Paid,"));
    QCOMPARE(RetryRecord::eventName(RetryRecord::Event::Fallback), u"fallback"_s);
    QCOMPARE(RetryRecord::eventFromName(u"fallback"), RetryRecord::Event::Fallback);

    // A record without a profile writes null in both columns.
    RetryLog log;
    log.append(r);
    log.append(scheduled());
    QCOMPARE(log.serialize(LogFormat::JsonLines), toJsonLine(r) + '\n' + kScheduledJsonLine + '\n');
    QCOMPARE(log.records().constFirst().fallbackTo, u"Paid"_s);
}

QTEST_GUILESS_MAIN(TestRetryLog)
#include "tst_retrylog.moc"
