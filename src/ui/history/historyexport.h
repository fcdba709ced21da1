#pragma once

// "Export all retry logs…": every stored retry record in a date range, in the retry log's own
// columns (net::retryLogColumns(), the same cells as Export retry log) plus `conversation` last
// (the UUID without braces), as capwatch-cli history export writes it: both write the lines with
// session/storedrecords.h. The export runs on the history writer's thread
// (exportStoredRetryLogs() is the job), so the window never waits for it.

#include "history/historystore.h"
#include "net/retrylog.h"

#include <QDate>
#include <QDialog>

class QDateEdit;

namespace capwatch::ui {

struct ExportAllResult
{
    bool ok = false;
    qint64 records = 0;
    QString error;
};

/// Writes the records with since <= time < until to `path` (QSaveFile: all or nothing). Runs on
/// the thread that owns `store`.
ExportAllResult exportStoredRetryLogs(history::HistoryStore &store, const QDateTime &since,
    const QDateTime &until, const QString &path, net::LogFormat format);

/// From and to (inclusive) dates, the last 30 days by default.
class ExportAllDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ExportAllDialog)

public:
    explicit ExportAllDialog(QWidget *parent = nullptr, const QDate &today = QDate::currentDate());

    QDateEdit *fromEdit() const { return m_from; }
    QDateEdit *toEdit() const { return m_to; }
    /// The start of the from day, local time.
    QDateTime since() const;
    /// The start of the day after the to day, local time: the to day is included.
    QDateTime until() const;

private:
    QDateEdit *m_from;
    QDateEdit *m_to;
};

} // namespace capwatch::ui
