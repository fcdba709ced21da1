#pragma once

// What the usage ledger says a profile used in the periods its limits count (docs/session.md,
// "Spending limits and declared limits"): its rows since the start of the month (and of the last
// day), read from the history when it opens and read again, from the last row on, whenever this
// process adds one or the database changes on disk (another capwatch-cli or window wrote), so
// that every process checks one shared count. Without a history (--private) only this process's
// own attempts are counted. One per process (ProviderMemory holds it); reads go through the
// history's queue, never on the caller's thread.

#include "history/historytypes.h"
#include "retry/declaredlimits.h"
#include "retry/spendlimits.h"

#include <QDateTime>
#include <QFileSystemWatcher>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <functional>

namespace capwatch::history {
class HistoryWriter;
}

namespace capwatch::session {

class UsageTally final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UsageTally)

public:
    explicit UsageTally(QObject *parent = nullptr);
    ~UsageTally() override;

    /// Reads the ledger through `writer`'s queue once it is open (loaded() then), and watches
    /// the database it opens on disk (watch()); not owned.
    void setHistory(history::HistoryWriter *writer);
    /// Reads again when the database at `path` (or its write-ahead log) changes on disk.
    void watch(const QString &databasePath);
    bool isLoaded() const { return m_loaded; }
    /// The wall clock (local time zone) the periods are taken in; tests move it.
    void setWallClock(std::function<QDateTime()> clock);

    /// An attempt this process appended to the ledger: read back from the history (after the
    /// write, in the queue's order), or counted here when there is none.
    void noteAppended(const history::UsageRecord &row);
    /// Reads the rows added since the last read (another process's).
    void refresh();

    /// A period's use of one profile (by the name the ledger stores): its attempts, tokens and
    /// what they cost.
    using Spent = history::CostTotal;
    Spent today(const QString &profile) const;
    Spent thisMonth(const QString &profile) const;
    retry::SpendUsed spendUsed(const QString &profile) const;
    /// The first attempt of `profile` today (or this month, with `month`): where a spending
    /// gauge's rate of use starts. Invalid when there was none.
    QDateTime firstUse(const QString &profile, bool month = false) const;
    /// The requests of the last minute and today's figures. `timeScale` (0 < scale <= 1): the
    /// minute is a policy minute, `scale` times as long on the wall clock (--time-scale).
    retry::DeclaredUse declaredUse(const QString &profile, double timeScale = 1.0) const;
    /// When the day and the month that hold now end (local time).
    QDateTime dayEnds() const;
    QDateTime monthEnds() const;
    QDateTime now() const;

Q_SIGNALS:
    void loaded();
    /// New rows were counted (or the ledger was cleared): figures shown may have changed.
    void changed();

private:
    void read(bool whole);
    qint64 keepSinceMs() const; ///< the earliest row any period still counts
    Spent spentSince(const QString &profile, qint64 sinceMs) const;

    QPointer<history::HistoryWriter> m_writer;
    QFileSystemWatcher m_watcher;
    QStringList m_files; ///< the database and its log, watched while they exist
    QTimer m_debounce;
    std::function<QDateTime()> m_clock;
    QList<history::UsageTick> m_ticks; ///< oldest first
    qint64 m_lastId = 0;
    qint64 m_localId = 0; ///< negative ids of rows counted without a history
    bool m_loaded = true;
    bool m_reading = false;
    bool m_readAgain = false;
};

} // namespace capwatch::session
