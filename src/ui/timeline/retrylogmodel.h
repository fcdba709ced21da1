#pragma once

// The retry log (interfaces.md "The retry log") as a table: one row per record, the columns of
// the log files in their order, rows inserted one by one as the log grows.

#include <QAbstractTableModel>
#include <QPointer>

namespace capwatch::net {
class RetryLog;
struct RetryRecord;
} // namespace capwatch::net

namespace capwatch::ui {

class RetryLogModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RetryLogModel)

public:
    /// In the order of net::retryLogColumns().
    enum Column
    {
        TimeColumn,
        RequestColumn,
        EventColumn,
        AttemptColumn,
        StatusColumn,
        CategoryColumn,
        UsedColumn,
        LimitColumn,
        WaitColumn,
        RawWaitColumn,
        WaitSourceColumn,
        WaitedTotalColumn,
        BudgetLeftColumn,
        ReasonColumn,
        ErrorColumn,
        ResetAtColumn, ///< of a parked send: when it goes out
        /// The provider's window as the record read it (docs/retry-policy.md section 8.1):
        /// tokens left, seconds to its reset; and the request's estimated tokens.
        WindowTokensLeftColumn,
        WindowResetColumn,
        EstimatedTokensColumn,
        /// The profile the record's send went to, and the one a `fallback` record sends to
        /// (issue 17).
        ProfileColumn,
        FallbackToColumn,
        /// How the send's answer ended, on the record that ends the send (issue 29).
        AnswerEndColumn,
        ColumnCount
    };
    enum Role
    {
        /// The row of the record in RetryLog::records(), in every column (int).
        RecordRole = Qt::UserRole + 1,
    };

    explicit RetryLogModel(QObject *parent = nullptr);
    ~RetryLogModel() override;

    /// The log shown; null shows nothing. The model follows the log's appends and clears and
    /// empties itself when the log is destroyed.
    void setLog(net::RetryLog *log);
    net::RetryLog *log() const;
    /// The record of a row, or null when the row is out of range.
    const net::RetryRecord *record(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void onRecordAppended(int row);
    void onCleared();
    QVariant display(const net::RetryRecord &record, int column) const;
    QVariant toolTip(const net::RetryRecord &record, int column) const;

    QPointer<net::RetryLog> m_log;
    /// Rows announced to views. The log appends before it signals, so rowCount() must not read
    /// the log directly or views would see a row before its insertion.
    int m_rows = 0;
};

} // namespace capwatch::ui
