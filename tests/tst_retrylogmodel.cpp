// The retry log as a table: the interfaces.md columns in order, row-level inserts as records
// arrive, a reset on clear, locale-formatted figures and empty null cells.

#include "net/retrylog.h"
#include "ui/retrylogmodel.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QLocale>
#include <QSignalSpy>
#include <QTest>

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
    r.category = u"token_limit"_s;
    r.used = 60323;
    r.limit = 60000;
    r.waitMs = 60000;
    r.rawWaitMs = 1080000;
    r.waitSource = u"message"_s;
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
    r.waitSource.clear();
    r.waitedTotalMs.reset();
    r.budgetLeftMs.reset();
    r.reason = u"budget_exhausted"_s;
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
    void nullCellsAreEmpty();
    void toolTipsAndRoles();
    void fractionalSeconds();
    void switchingAndDestroyingTheLog();
};

void TestRetryLogModel::initTestCase()
{
    // Fixed number formats: "60,323" with a group separator, "." decimals.
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void TestRetryLogModel::columnsAndHeaders()
{
    RetryLogModel model;
    QCOMPARE(model.columnCount(), int(retryLogColumns().size()));
    QCOMPARE(model.rowCount(), 0);
    const QStringList labels { u"Time"_s, u"Send"_s, u"Event"_s, u"Attempt"_s, u"Status"_s,
                               u"Category"_s, u"Used"_s, u"Limit"_s, u"Wait (s)"_s, u"Asked (s)"_s,
                               u"Source"_s, u"Waited (s)"_s, u"Budget left (s)"_s, u"Reason"_s,
                               u"Error"_s };
    for (int c = 0; c < model.columnCount(); ++c) {
        QCOMPARE(model.headerData(c, Qt::Horizontal).toString(), labels.at(c));
        // The tooltip names the column as the exported files do, in the same order.
        QCOMPARE(model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString(), retryLogColumns().at(c));
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
    connect(&model, &QAbstractItemModel::rowsInserted, this, [&model](const QModelIndex &, int first) {
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

    QTest::newRow("time") << int(RetryLogModel::TimeColumn)
                          << kTime.toLocalTime().toString(u"HH:mm:ss.zzz"_s);
    QTest::newRow("request") << int(RetryLogModel::RequestColumn) << u"1"_s;
    QTest::newRow("event") << int(RetryLogModel::EventColumn) << u"Retry scheduled"_s;
    QTest::newRow("attempt") << int(RetryLogModel::AttemptColumn) << u"1"_s;
    QTest::newRow("status") << int(RetryLogModel::StatusColumn) << u"422"_s;
    QTest::newRow("category") << int(RetryLogModel::CategoryColumn) << u"token_limit"_s;
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

void TestRetryLogModel::nullCellsAreEmpty()
{
    RetryLog log;
    log.append(started(1));
    RetryLogModel model;
    model.setLog(&log);
    QCOMPARE(model.index(0, RetryLogModel::EventColumn).data().toString(), u"Attempt started"_s);
    for (int c : { RetryLogModel::StatusColumn, RetryLogModel::CategoryColumn, RetryLogModel::UsedColumn,
                   RetryLogModel::LimitColumn, RetryLogModel::WaitColumn, RetryLogModel::RawWaitColumn,
                   RetryLogModel::WaitSourceColumn, RetryLogModel::WaitedTotalColumn,
                   RetryLogModel::BudgetLeftColumn, RetryLogModel::ReasonColumn, RetryLogModel::ErrorColumn }) {
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
    QCOMPARE(model.index(1, RetryLogModel::ErrorColumn).data(Qt::ToolTipRole).toString(), headline().error);
    QCOMPARE(model.index(1, RetryLogModel::StatusColumn).data(Qt::ToolTipRole).toString(),
             u"422 Unprocessable Entity"_s);
    QCOMPARE(model.index(2, RetryLogModel::ReasonColumn).data().toString(), u"budget_exhausted"_s);
    QCOMPARE(model.index(2, RetryLogModel::EventColumn).data().toString(), u"Gave up"_s);

    const auto alignment = [&model](int column) {
        return Qt::Alignment(model.index(1, column).data(Qt::TextAlignmentRole).toInt()) & Qt::AlignHorizontal_Mask;
    };
    QCOMPARE(alignment(RetryLogModel::UsedColumn), Qt::AlignRight);
    QCOMPARE(alignment(RetryLogModel::BudgetLeftColumn), Qt::AlignRight);
    QCOMPARE(alignment(RetryLogModel::ErrorColumn), Qt::AlignLeft);

    const QVariant decoration = model.index(1, RetryLogModel::CategoryColumn).data(Qt::DecorationRole);
    QVERIFY(decoration.canConvert<QColor>());
    QVERIFY(decoration.value<QColor>().isValid());
    QVERIFY(model.index(1, RetryLogModel::CategoryColumn).data(Qt::ForegroundRole).isValid());
    QVERIFY(!model.index(1, RetryLogModel::UsedColumn).data(Qt::DecorationRole).isValid());

    for (int row = 0; row < model.rowCount(); ++row)
        QCOMPARE(model.index(row, RetryLogModel::ErrorColumn).data(RetryLogModel::RecordRole).toInt(), row);
    QCOMPARE(model.record(1)->waitSource, u"message"_s);
    QCOMPARE(model.record(3), nullptr);
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

QTEST_MAIN(TestRetryLogModel)
#include "tst_retrylogmodel.moc"
