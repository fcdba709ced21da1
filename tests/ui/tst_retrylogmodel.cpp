// The retry log as a table: the interfaces.md columns in order, row-level inserts as records
// arrive, a reset on clear, locale-formatted figures, empty null cells and the parking events.

#include "net/retrylog.h"
#include "support/retrynames.h"
#include "ui/panel/categorycolors.h"
#include "ui/timeline/retrylogmodel.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QGuiApplication>
#include <QLocale>
#include <QSignalSpy>
#include <QTest>
#include <ctime>
#include <memory>

using namespace capwatch;
using namespace capwatch::net;
using namespace Qt::StringLiterals;
using capwatch::ui::RetryLogModel;

namespace {

const QDateTime kTime(QDate(2026, 11, 29), QTime(20, 5, 20, 123), Qt::UTC);

RetryRecord started(int attempt)
{
    RetryRecord r;
    r.time = kTime.addSecs(60 * (attempt - 1));
    r.request = 1;
    r.event = RetryRecord::Event::AttemptStarted;
    r.attempt = attempt;
    return r;
}

RetryRecord headline()
{
    RetryRecord r;
    r.time = kTime;
    r.request = 1;
    r.event = RetryRecord::Event::RetryScheduled;
    r.attempt = 1;
    r.status = 422;
    r.category = retry::Category::TokenLimit;
    r.used = 60323;
    r.limit = 60000;
    r.waitMs = 60000;
    r.rawWaitMs = 1080000;
    r.waitSource = retry::WaitSource::Message;
    r.waitedTotalMs = 60000;
    r.budgetLeftMs = 60000;
    r.error = u"Token limit exceeded: used 60323, limit 60000. Retry in 18 min."_s;
    return r;
}

RetryRecord gaveUp()
{
    RetryRecord r = headline();
    r.event = RetryRecord::Event::GaveUp;
    r.attempt = 3;
    r.waitMs.reset();
    r.rawWaitMs.reset();
    r.waitSource = retry::WaitSource::None;
    r.waitedTotalMs.reset();
    r.budgetLeftMs.reset();
    r.reason = retry::EndReason::BudgetExhausted;
    return r;
}

/// gaveUp(), parked until 20:21:20 UTC (16 min later).
RetryRecord parked()
{
    RetryRecord r = gaveUp();
    r.event = RetryRecord::Event::Parked;
    r.time = kTime.addMSecs(5);
    r.resetAt = kTime.addSecs(16 * 60).addMSecs(-123);
    return r;
}

} // namespace

class TestRetryLogModel final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void columnsAndHeaders();
    void testerWhileAppendingAndClearing();
    void rowsInsertedOneByOne();
    void headlineDisplay_data();
    void headlineDisplay();
    void timeIsLocal();
    void wordsInTheTableRawNamesInTheExport_data();
    void wordsInTheTableRawNamesInTheExport();
    void nullCellsAreEmpty();
    void toolTipsAndRoles();
    void parkedAndUnparked_data();
    void parkedAndUnparked();
    void fractionalSeconds();
    void pacedAndTheWindowColumns();
    void switchingAndDestroyingTheLog();
    void fallbackAndProfileColumns();
    void interruptedAndTheAnswerEnd();
};

void TestRetryLogModel::initTestCase()
{
    // Fixed number formats: "60,323" with a group separator, "." decimals.
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void TestRetryLogModel::columnsAndHeaders()
{
    RetryLogModel model;
    // The profile columns of issue 17 come after estimated_tokens, then how the answer ended
    // (issue 29): every column of the exported files, in their order.
    const QStringList names = retryLogColumns();
    QCOMPARE(model.columnCount(), int(names.size()));
    QCOMPARE(model.rowCount(), 0);
    const QStringList labels { u"Time"_s, u"Send"_s, u"Event"_s, u"Attempt"_s, u"Status"_s,
        u"Category"_s, u"Used"_s, u"Limit"_s, u"Wait (s)"_s, u"Asked (s)"_s, u"Source"_s,
        u"Waited (s)"_s, u"Budget left (s)"_s, u"Reason"_s, u"Error"_s, u"Resets at"_s,
        u"Window tokens left"_s, u"Window reset (s)"_s, u"Estimated tokens"_s, u"Profile"_s,
        u"Fallback to"_s, u"Answer"_s };
    QCOMPARE(labels.size(), model.columnCount());
    for (int c = 0; c < model.columnCount(); ++c) {
        QCOMPARE(model.headerData(c, Qt::Horizontal).toString(), labels.at(c));
        // The tooltip names the column as the exported files do, in the same order.
        QCOMPARE(model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString(), names.at(c));
    }
}

void TestRetryLogModel::testerWhileAppendingAndClearing()
{
    RetryLog log;
    log.append(started(1));
    RetryLogModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setLog(&log);
    QCOMPARE(model.rowCount(), 1);
    log.append(headline());
    log.append(started(2));
    QCOMPARE(model.rowCount(), 3);
    log.clear();
    QCOMPARE(model.rowCount(), 0);
    log.append(started(1));
    log.append(gaveUp());
    QCOMPARE(model.rowCount(), 2);
    model.setLog(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void TestRetryLogModel::rowsInsertedOneByOne()
{
    RetryLog log;
    RetryLogModel model;
    model.setLog(&log);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    // The row is already in the model when views hear of it.
    connect(
        &model, &QAbstractItemModel::rowsInserted, this, [&model](const QModelIndex &, int first) {
            QVERIFY(model.index(first, RetryLogModel::EventColumn).data().isValid());
        });

    log.append(started(1));
    log.append(headline());
    log.append(started(2));
    QCOMPARE(inserted.count(), 3);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(inserted.at(i).at(1).toInt(), i);
        QCOMPARE(inserted.at(i).at(2).toInt(), i);
    }
    QCOMPARE(reset.count(), 0);

    log.clear();
    QCOMPARE(reset.count(), 1);
    QCOMPARE(model.rowCount(), 0);
}

void TestRetryLogModel::headlineDisplay_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("display");

    QTest::newRow("request") << int(RetryLogModel::RequestColumn) << u"1"_s;
    QTest::newRow("event") << int(RetryLogModel::EventColumn) << u"Retry scheduled"_s;
    QTest::newRow("attempt") << int(RetryLogModel::AttemptColumn) << u"1"_s;
    QTest::newRow("status") << int(RetryLogModel::StatusColumn) << u"422"_s;
    // Words, not the names of the exported files.
    QTest::newRow("category") << int(RetryLogModel::CategoryColumn) << u"token limit"_s;
    QTest::newRow("used") << int(RetryLogModel::UsedColumn) << u"60,323"_s;
    QTest::newRow("limit") << int(RetryLogModel::LimitColumn) << u"60,000"_s;
    QTest::newRow("wait") << int(RetryLogModel::WaitColumn) << u"60"_s;
    QTest::newRow("raw wait") << int(RetryLogModel::RawWaitColumn) << u"1,080"_s;
    QTest::newRow("source") << int(RetryLogModel::WaitSourceColumn) << u"message"_s;
    QTest::newRow("waited") << int(RetryLogModel::WaitedTotalColumn) << u"60"_s;
    QTest::newRow("budget left") << int(RetryLogModel::BudgetLeftColumn) << u"60"_s;
    QTest::newRow("reason") << int(RetryLogModel::ReasonColumn) << QString();
    QTest::newRow("error") << int(RetryLogModel::ErrorColumn)
                           << u"Token limit exceeded: used 60323, limit 60000. Retry in 18 min."_s;
}

void TestRetryLogModel::headlineDisplay()
{
    QFETCH(int, column);
    QFETCH(QString, display);
    RetryLog log;
    log.append(headline());
    RetryLogModel model;
    model.setLog(&log);
    QCOMPARE(model.index(0, column).data().toString(), display);
}

void TestRetryLogModel::timeIsLocal()
{
    // 20:05:20.123 UTC is 01:35:20.123 the next day in India (UTC+05:30, no daylight saving).
    const QByteArray oldTz = qgetenv("TZ");
    const bool hadTz = qEnvironmentVariableIsSet("TZ");
    qputenv("TZ", "Asia/Kolkata");
    tzset();
    RetryLog log;
    log.append(headline());
    RetryLogModel model;
    model.setLog(&log);
    const QString shown = model.index(0, RetryLogModel::TimeColumn).data().toString();
    if (hadTz)
        qputenv("TZ", oldTz);
    else
        qunsetenv("TZ");
    tzset();
    QCOMPARE(shown, u"01:35:20.123"_s);
    // The tooltip is the exported UTC time.
    QCOMPARE(model.index(0, RetryLogModel::TimeColumn).data(Qt::ToolTipRole).toString(),
        u"2026-11-29T20:05:20.123Z"_s);
}

void TestRetryLogModel::wordsInTheTableRawNamesInTheExport_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("category");
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QString>("shown");
    QTest::addColumn<QByteArray>("exported");

    const int category = RetryLogModel::CategoryColumn;
    const int source = RetryLogModel::WaitSourceColumn;
    const int reason = RetryLogModel::ReasonColumn;
    QTest::newRow("token_limit") << category << u"token_limit"_s << QString() << QString()
                                 << u"token limit"_s << QByteArray(R"("category":"token_limit")");
    QTest::newRow("rate_limit") << category << u"rate_limit"_s << QString() << QString()
                                << u"rate limit"_s << QByteArray(R"("category":"rate_limit")");
    QTest::newRow("message") << source << QString() << u"message"_s << QString() << u"message"_s
                             << QByteArray(R"("wait_source":"message")");
    QTest::newRow("credential-refresh")
        << source << QString() << u"credential-refresh"_s << QString() << u"new key"_s
        << QByteArray(R"("wait_source":"credential-refresh")");
    QTest::newRow("attempts_exhausted")
        << reason << QString() << QString() << u"attempts_exhausted"_s << u"attempts exhausted"_s
        << QByteArray(R"("reason":"attempts_exhausted")");
    QTest::newRow("not_retryable")
        << reason << QString() << QString() << u"not_retryable"_s << u"not retryable"_s
        << QByteArray(R"("reason":"not_retryable")");
    // Revision 2 of the policy.
    QTest::newRow("too_large") << category << u"too_large"_s << QString() << QString()
                               << u"request too large"_s << QByteArray(R"("category":"too_large")");
    QTest::newRow("billing") << category << u"billing"_s << QString() << QString()
                             << u"out of credit"_s << QByteArray(R"("category":"billing")");
    QTest::newRow("retry-delay") << source << QString() << u"retry-delay"_s << QString()
                                 << u"retry delay"_s
                                 << QByteArray(R"("wait_source":"retry-delay")");
    QTest::newRow("ratelimit-reset")
        << source << QString() << u"ratelimit-reset"_s << QString() << u"rate-limit reset"_s
        << QByteArray(R"("wait_source":"ratelimit-reset")");
}

void TestRetryLogModel::wordsInTheTableRawNamesInTheExport()
{
    QFETCH(int, column);
    QFETCH(QString, category);
    QFETCH(QString, source);
    QFETCH(QString, reason);
    QFETCH(QString, shown);
    QFETCH(QByteArray, exported);
    RetryRecord r = started(1);
    r.category = test::categoryNamed(category);
    r.waitSource = test::waitSourceNamed(source);
    r.reason = test::reasonNamed(reason);
    RetryLog log;
    log.append(r);
    RetryLogModel model;
    model.setLog(&log);
    QCOMPARE(model.index(0, column).data().toString(), shown);
    QVERIFY2(log.serialize(LogFormat::JsonLines).contains(exported),
        log.serialize(LogFormat::JsonLines).constData());
    if (!category.isEmpty()) {
        // In the category's own colour, shared with the timeline and the panel.
        const QColor colour = model.index(0, column).data(Qt::DecorationRole).value<QColor>();
        QCOMPARE(colour, capwatch::ui::categoryColor(category, QGuiApplication::palette()));
        for (const QString &other : capwatch::ui::legendCategories()) {
            if (other != category)
                QVERIFY2(capwatch::ui::categoryColor(other, QGuiApplication::palette()) != colour,
                    qPrintable(other));
        }
    }
}

void TestRetryLogModel::nullCellsAreEmpty()
{
    RetryLog log;
    log.append(started(1));
    RetryLogModel model;
    model.setLog(&log);
    QCOMPARE(model.index(0, RetryLogModel::EventColumn).data().toString(), u"Attempt started"_s);
    for (int c :
        { RetryLogModel::StatusColumn, RetryLogModel::CategoryColumn, RetryLogModel::UsedColumn,
            RetryLogModel::LimitColumn, RetryLogModel::WaitColumn, RetryLogModel::RawWaitColumn,
            RetryLogModel::WaitSourceColumn, RetryLogModel::WaitedTotalColumn,
            RetryLogModel::BudgetLeftColumn, RetryLogModel::ReasonColumn,
            RetryLogModel::ErrorColumn, RetryLogModel::ResetAtColumn }) {
        const QVariant v = model.index(0, c).data();
        QVERIFY2(!v.isValid() && v.toString().isEmpty(), qPrintable(retryLogColumns().at(c)));
        QVERIFY(!model.index(0, c, {}).data(Qt::DecorationRole).isValid());
    }
}

void TestRetryLogModel::toolTipsAndRoles()
{
    RetryLog log;
    log.append(started(1));
    log.append(headline());
    log.append(gaveUp());
    RetryLogModel model;
    model.setLog(&log);

    QCOMPARE(model.index(1, RetryLogModel::TimeColumn).data(Qt::ToolTipRole).toString(),
        u"2026-11-29T20:05:20.123Z"_s);
    QCOMPARE(model.index(1, RetryLogModel::ErrorColumn).data(Qt::ToolTipRole).toString(),
        headline().error);
    QCOMPARE(model.index(1, RetryLogModel::StatusColumn).data(Qt::ToolTipRole).toString(),
        u"422 Unprocessable Entity"_s);
    QCOMPARE(model.index(2, RetryLogModel::ReasonColumn).data().toString(), u"budget exhausted"_s);
    // The tooltips name the values as the exported files do.
    QCOMPARE(model.index(2, RetryLogModel::ReasonColumn).data(Qt::ToolTipRole).toString(),
        u"budget_exhausted"_s);
    QCOMPARE(model.index(1, RetryLogModel::CategoryColumn).data(Qt::ToolTipRole).toString(),
        u"token_limit"_s);
    QCOMPARE(model.index(1, RetryLogModel::WaitSourceColumn).data(Qt::ToolTipRole).toString(),
        u"message"_s);
    QCOMPARE(model.index(2, RetryLogModel::EventColumn).data().toString(), u"Gave up"_s);

    const auto alignment = [&model](int column) {
        return Qt::Alignment(model.index(1, column).data(Qt::TextAlignmentRole).toInt())
            & Qt::AlignHorizontal_Mask;
    };
    QCOMPARE(alignment(RetryLogModel::UsedColumn), Qt::AlignRight);
    QCOMPARE(alignment(RetryLogModel::BudgetLeftColumn), Qt::AlignRight);
    QCOMPARE(alignment(RetryLogModel::ErrorColumn), Qt::AlignLeft);

    const QVariant decoration
        = model.index(1, RetryLogModel::CategoryColumn).data(Qt::DecorationRole);
    QVERIFY(decoration.canConvert<QColor>());
    QVERIFY(decoration.value<QColor>().isValid());
    QVERIFY(model.index(1, RetryLogModel::CategoryColumn).data(Qt::ForegroundRole).isValid());
    QVERIFY(!model.index(1, RetryLogModel::UsedColumn).data(Qt::DecorationRole).isValid());

    for (int row = 0; row < model.rowCount(); ++row)
        QCOMPARE(
            model.index(row, RetryLogModel::ErrorColumn).data(RetryLogModel::RecordRole).toInt(),
            row);
    QCOMPARE(model.record(1)->waitSource, retry::WaitSource::Message);
    QCOMPARE(model.record(3), nullptr);
}

void TestRetryLogModel::parkedAndUnparked_data()
{
    QTest::addColumn<int>("unpark");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QString>("reasonName");

    using Unpark = RetryRecord::Unpark;
    QTest::newRow("reset reached")
        << int(Unpark::ResetReached) << u"reset reached"_s << u"reset_reached"_s;
    QTest::newRow("sent now") << int(Unpark::SentNow) << u"sent now"_s << u"sent_now"_s;
    QTest::newRow("cancelled") << int(Unpark::Cancelled) << u"cancelled"_s << u"cancelled"_s;
}

void TestRetryLogModel::parkedAndUnparked()
{
    QFETCH(int, unpark);
    QFETCH(QString, reason);
    QFETCH(QString, reasonName);
    // 20:21:20 UTC is 01:51:20 the next day in India (UTC+05:30, no daylight saving).
    const QByteArray oldTz = qgetenv("TZ");
    const bool hadTz = qEnvironmentVariableIsSet("TZ");
    qputenv("TZ", "Asia/Kolkata");
    tzset();
    RetryLog log;
    log.append(parked());
    RetryRecord out = parked();
    out.event = RetryRecord::Event::Unparked;
    out.reason = retry::EndReason::None;
    out.unpark = RetryRecord::Unpark(unpark);
    log.append(out);
    RetryLogModel model;
    model.setLog(&log);
    const QString parkedReset = model.index(0, RetryLogModel::ResetAtColumn).data().toString();
    const QString unparkedReset = model.index(1, RetryLogModel::ResetAtColumn).data().toString();
    if (hadTz)
        qputenv("TZ", oldTz);
    else
        qunsetenv("TZ");
    tzset();

    QCOMPARE(model.index(0, RetryLogModel::EventColumn).data().toString(), u"Parked"_s);
    QCOMPARE(model.index(1, RetryLogModel::EventColumn).data().toString(), u"Unparked"_s);
    // The parked record's reason is how the send ended; the unparked one's why it left.
    QCOMPARE(model.index(0, RetryLogModel::ReasonColumn).data().toString(), u"budget exhausted"_s);
    QCOMPARE(model.index(1, RetryLogModel::ReasonColumn).data().toString(), reason);
    QCOMPARE(
        model.index(1, RetryLogModel::ReasonColumn).data(Qt::ToolTipRole).toString(), reasonName);
    // The reset in local time, as the Time column; the tooltip is the exported UTC.
    QCOMPARE(parkedReset, u"01:51:20.000"_s);
    QCOMPARE(unparkedReset, parkedReset);
    QCOMPARE(model.index(1, RetryLogModel::ResetAtColumn).data(Qt::ToolTipRole).toString(),
        u"2026-11-29T20:21:20.000Z"_s);
    // The export keeps the names (the provider window's columns follow reset_at).
    const QByteArray exported = R"("reason":")" + reasonName.toUtf8()
        + R"(","error":"Token limit exceeded: used 60323, limit 60000. Retry in 18 min.",)"
          R"("reset_at":"2026-11-29T20:21:20.000Z",)"
          R"("window_tokens_left":null,"window_reset_s":null,"estimated_tokens":null,)"
          R"("profile":null,"fallback_to":null,"answer_end":null})";
    QVERIFY(log.serialize(LogFormat::JsonLines).contains(exported));
    QCOMPARE(Qt::Alignment(
                 model.index(1, RetryLogModel::ResetAtColumn).data(Qt::TextAlignmentRole).toInt())
            & Qt::AlignHorizontal_Mask,
        Qt::AlignLeft);
    // Every other record has no reset.
    log.append(headline());
    QVERIFY(!model.index(2, RetryLogModel::ResetAtColumn).data().isValid());
    QVERIFY(!model.index(2, RetryLogModel::ResetAtColumn).data(Qt::ToolTipRole).isValid());
}

void TestRetryLogModel::pacedAndTheWindowColumns()
{
    // A paced record: its event in words, the pacing wait and its source, the window's figures
    // and the estimate in their own columns, named as in the export; empty where not reported.
    RetryRecord r;
    r.time = QDateTime(QDate(2026, 12, 2), QTime(0, 30), Qt::UTC);
    r.request = 3;
    r.event = RetryRecord::Event::Paced;
    r.waitMs = 12000;
    r.waitSource = retry::WaitSource::RateLimitReset;
    r.windowTokensLeft = 40;
    r.windowResetS = 12.5;
    r.estimatedTokens = 1200;
    RetryLog log;
    log.append(r);
    RetryRecord plain = r;
    plain.event = RetryRecord::Event::AttemptStarted;
    plain.attempt = 1;
    plain.waitMs.reset();
    plain.waitSource = retry::WaitSource::None;
    plain.windowTokensLeft.reset();
    plain.windowResetS.reset();
    plain.estimatedTokens.reset();
    log.append(plain);
    RetryLogModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setLog(&log);

    QCOMPARE(model.columnCount(), int(RetryLogModel::ColumnCount));
    const auto cell = [&model](int row, int column, int role = Qt::DisplayRole) {
        return model.index(row, column).data(role);
    };
    QCOMPARE(cell(0, RetryLogModel::EventColumn).toString(), u"Paced"_s);
    QVERIFY(cell(0, RetryLogModel::EventColumn, Qt::ToolTipRole)
                .toString()
                .contains(u"not counted in the retry budget"_s));
    QCOMPARE(cell(0, RetryLogModel::WaitColumn).toString(), u"12"_s);
    QCOMPARE(cell(0, RetryLogModel::WaitSourceColumn).toString(), u"rate-limit reset"_s);
    QVERIFY(!cell(0, RetryLogModel::AttemptColumn).isValid());
    QCOMPARE(cell(0, RetryLogModel::WindowTokensLeftColumn).toString(), u"40"_s);
    QCOMPARE(cell(0, RetryLogModel::WindowResetColumn).toString(), u"12.5"_s);
    QCOMPARE(cell(0, RetryLogModel::EstimatedTokensColumn).toString(), u"1,200"_s);
    for (const int c : { int(RetryLogModel::WindowTokensLeftColumn),
             int(RetryLogModel::WindowResetColumn), int(RetryLogModel::EstimatedTokensColumn) }) {
        QVERIFY(!cell(0, c, Qt::ToolTipRole).toString().isEmpty());
        QCOMPARE(
            Qt::Alignment(cell(0, c, Qt::TextAlignmentRole).toInt()) & Qt::AlignHorizontal_Mask,
            Qt::AlignRight);
        QVERIFY2(!cell(1, c).isValid(), qPrintable(retryLogColumns().at(c)));
        QVERIFY(!cell(1, c, Qt::ToolTipRole).isValid());
    }
    QVERIFY(!cell(1, RetryLogModel::EventColumn, Qt::ToolTipRole).isValid());
    QCOMPARE(model.headerData(RetryLogModel::WindowTokensLeftColumn, Qt::Horizontal).toString(),
        u"Window tokens left"_s);
    QCOMPARE(model.headerData(RetryLogModel::WindowResetColumn, Qt::Horizontal).toString(),
        u"Window reset (s)"_s);
    QCOMPARE(model.headerData(RetryLogModel::EstimatedTokensColumn, Qt::Horizontal).toString(),
        u"Estimated tokens"_s);
    QCOMPARE(
        model.headerData(RetryLogModel::WindowTokensLeftColumn, Qt::Horizontal, Qt::ToolTipRole)
            .toString(),
        u"window_tokens_left"_s);
    QCOMPARE(model.headerData(RetryLogModel::EstimatedTokensColumn, Qt::Horizontal, Qt::ToolTipRole)
                 .toString(),
        u"estimated_tokens"_s);
}

void TestRetryLogModel::fractionalSeconds()
{
    RetryRecord r = headline();
    r.waitMs = 84;
    r.rawWaitMs = 2500;
    r.waitedTotalMs = 119999;
    r.budgetLeftMs = 1;
    r.used = 1.5;
    RetryLog log;
    log.append(r);
    RetryLogModel model;
    model.setLog(&log);
    QCOMPARE(model.index(0, RetryLogModel::WaitColumn).data().toString(), u"0.084"_s);
    QCOMPARE(model.index(0, RetryLogModel::RawWaitColumn).data().toString(), u"2.5"_s);
    QCOMPARE(model.index(0, RetryLogModel::WaitedTotalColumn).data().toString(), u"119.999"_s);
    QCOMPARE(model.index(0, RetryLogModel::BudgetLeftColumn).data().toString(), u"0.001"_s);
    QCOMPARE(model.index(0, RetryLogModel::UsedColumn).data().toString(), u"1.5"_s);
}

void TestRetryLogModel::switchingAndDestroyingTheLog()
{
    RetryLogModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    RetryLog first;
    first.append(started(1));
    auto second = std::make_unique<RetryLog>();
    second->append(started(1));
    second->append(headline());

    model.setLog(&first);
    QCOMPARE(model.rowCount(), 1);
    model.setLog(second.get());
    QCOMPARE(model.rowCount(), 2);
    // The old log no longer reaches the model.
    first.append(headline());
    QCOMPARE(model.rowCount(), 2);
    second.reset();
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.log(), nullptr);
}

void TestRetryLogModel::fallbackAndProfileColumns()
{
    RetryLog log;
    RetryRecord capped = gaveUp();
    capped.profile = u"Free tier"_s;
    log.append(capped);
    RetryRecord fallback = gaveUp();
    fallback.event = RetryRecord::Event::Fallback;
    fallback.reason = retry::EndReason::AttemptsExhausted;
    fallback.profile = u"Free tier"_s;
    fallback.fallbackTo = u"Paid key"_s;
    log.append(fallback);
    RetryLogModel model;
    model.setLog(&log);
    QCOMPARE(model.rowCount(), 2);
    const auto cell = [&model](int row, int column, int role = Qt::DisplayRole) {
        return model.data(model.index(row, column), role);
    };
    QCOMPARE(cell(0, RetryLogModel::ProfileColumn).toString(), u"Free tier"_s);
    QVERIFY(cell(0, RetryLogModel::FallbackToColumn).isNull());
    QCOMPARE(cell(1, RetryLogModel::EventColumn).toString(), u"Fallback"_s);
    QCOMPARE(cell(1, RetryLogModel::ProfileColumn).toString(), u"Free tier"_s);
    QCOMPARE(cell(1, RetryLogModel::FallbackToColumn).toString(), u"Paid key"_s);
    QCOMPARE(cell(1, RetryLogModel::ReasonColumn).toString(), u"attempts exhausted"_s);
    QVERIFY(
        cell(1, RetryLogModel::EventColumn, Qt::ToolTipRole).toString().contains(u"Paid key"_s));
}

void TestRetryLogModel::interruptedAndTheAnswerEnd()
{
    // An answer that began and stopped: the `interrupted` event before the send's end, which
    // says how the answer ended in the answer_end column; the export keeps the name.
    RetryLog log;
    RetryRecord interrupted = gaveUp();
    interrupted.event = RetryRecord::Event::Interrupted;
    interrupted.reason = retry::EndReason::None;
    log.append(interrupted);
    RetryRecord ended = gaveUp();
    ended.answerEnd = retry::AnswerEnd::Interrupted;
    log.append(ended);
    RetryRecord cutOff = gaveUp();
    cutOff.event = RetryRecord::Event::Succeeded;
    cutOff.answerEnd = retry::AnswerEnd::CutOff;
    log.append(cutOff);
    RetryLogModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setLog(&log);
    const auto cell = [&model](int row, int column, int role = Qt::DisplayRole) {
        return model.data(model.index(row, column), role);
    };
    QCOMPARE(cell(0, RetryLogModel::EventColumn).toString(), u"Interrupted"_s);
    QVERIFY(
        cell(0, RetryLogModel::EventColumn, Qt::ToolTipRole).toString().contains(u"Continue"_s));
    QVERIFY(cell(0, RetryLogModel::AnswerEndColumn).isNull());
    QCOMPARE(cell(1, RetryLogModel::AnswerEndColumn).toString(), u"interrupted"_s);
    QCOMPARE(cell(2, RetryLogModel::AnswerEndColumn).toString(), u"cut off"_s);
    QCOMPARE(cell(2, RetryLogModel::AnswerEndColumn, Qt::ToolTipRole).toString(), u"cut_off"_s);
    QCOMPARE(model.headerData(RetryLogModel::AnswerEndColumn, Qt::Horizontal, Qt::ToolTipRole)
                 .toString(),
        u"answer_end"_s);
}

QTEST_MAIN(TestRetryLogModel)
#include "tst_retrylogmodel.moc"
