#include "usagetally.h"

#include "history/historywriter.h"
#include "sessionlogging.h"

#include <QFileInfo>
#include <algorithm>
#include <limits>

namespace capwatch::session {

using namespace Qt::StringLiterals;

namespace {

/// Another process's rows are read this long after the database last changed on disk: one read
/// for a burst of writes (a streamed answer writes every few hundred milliseconds).
constexpr int kChangeSettleMs = 150;

// In local time (now() is local): where the calendar day and month begin.
QDateTime startOfDay(const QDateTime &t)
{
    return t.date().startOfDay();
}

QDateTime startOfMonth(const QDateTime &t)
{
    return QDate(t.date().year(), t.date().month(), 1).startOfDay();
}

} // namespace

UsageTally::UsageTally(QObject *parent)
    : QObject(parent)
{
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kChangeSettleMs);
    connect(&m_debounce, &QTimer::timeout, this, &UsageTally::refresh);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, [this](const QString &path) {
        // A file replaced (SQLite recreates the log after a checkpoint) leaves the watch.
        if (!m_watcher.files().contains(path) && QFileInfo::exists(path))
            m_watcher.addPath(path);
        m_debounce.start();
    });
    // The database or its log made since the watch began (another process's first write made
    // the log): watched from now on, and read, since that write made no fileChanged().
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, [this](const QString &) {
        bool added = false;
        for (const QString &f : std::as_const(m_files)) {
            if (!m_watcher.files().contains(f) && QFileInfo::exists(f))
                added = m_watcher.addPath(f) || added;
        }
        if (added)
            m_debounce.start();
    });
}

UsageTally::~UsageTally() = default;

void UsageTally::setWallClock(std::function<QDateTime()> clock)
{
    m_clock = std::move(clock);
}

QDateTime UsageTally::now() const
{
    return (m_clock ? m_clock() : QDateTime::currentDateTime()).toLocalTime();
}

QDateTime UsageTally::dayEnds() const
{
    return startOfDay(now()).addDays(1);
}

QDateTime UsageTally::monthEnds() const
{
    return startOfMonth(now()).addMonths(1);
}

qint64 UsageTally::keepSinceMs() const
{
    const QDateTime t = now();
    return std::min(startOfMonth(t), startOfDay(t)).toMSecsSinceEpoch()
        - retry::kDeclaredMinute.count();
}

void UsageTally::setHistory(history::HistoryWriter *writer)
{
    m_writer = writer;
    if (!writer)
        return;
    // Another process's rows: the database on disk is watched once it is open.
    connect(
        writer, &history::HistoryWriter::opened, this, [this](const history::OpenResult &result) {
            if (result.persistent())
                watch(result.path);
        });
    m_loaded = false;
    // Read once the database is open: a read queued before open() would find none.
    if (writer->openQueued())
        read(true);
    else
        connect(
            writer, &history::HistoryWriter::opened, this, [this] { read(true); },
            Qt::SingleShotConnection);
}

void UsageTally::watch(const QString &databasePath)
{
    if (databasePath.isEmpty() || databasePath == u":memory:" || m_files.value(0) == databasePath)
        return;
    if (!m_watcher.files().isEmpty())
        m_watcher.removePaths(m_watcher.files());
    if (!m_watcher.directories().isEmpty())
        m_watcher.removePaths(m_watcher.directories());
    m_files = { databasePath, databasePath + u"-wal"_s };
    for (const QString &f : m_files)
        if (QFileInfo::exists(f))
            m_watcher.addPath(f);
    // The log appears (and is replaced) after the watch began: its folder tells.
    m_watcher.addPath(QFileInfo(databasePath).absolutePath());
}

void UsageTally::noteAppended(const history::UsageRecord &row)
{
    if (m_writer) {
        refresh(); // queued after the write
        return;
    }
    history::UsageTick t;
    t.id = --m_localId;
    t.timeMs
        = (row.time.isValid() ? row.time : QDateTime::currentDateTimeUtc()).toMSecsSinceEpoch();
    t.profile = row.profile;
    t.tokens = row.promptTokens.value_or(0) + row.completionTokens.value_or(0);
    t.cost = row.cost;
    t.costSource = row.costSource;
    t.currency = row.currency;
    t.answered = row.status && *row.status >= 200 && *row.status < 300 && row.category.isEmpty();
    m_ticks.append(t);
    Q_EMIT changed();
}

void UsageTally::refresh()
{
    if (m_writer)
        read(false);
}

void UsageTally::read(bool whole)
{
    if (!m_writer)
        return;
    if (m_reading) { // one read at a time; the next reads what came meanwhile
        m_readAgain = true;
        return;
    }
    m_reading = true;
    const qint64 after = whole ? 0 : m_lastId;
    const qint64 since = keepSinceMs();
    struct Read
    {
        QList<history::UsageTick> ticks;
        bool cleared = false;
    };
    m_writer->read(
        this,
        [after, since](history::HistoryStore &store) {
            Read r;
            // Fewer rows than were read: the ledger was cleared, and ids start again.
            r.cleared = after > 0 && store.usageMaxId() < after;
            r.ticks = store.usageTicks(r.cleared ? 0 : after, since);
            return r;
        },
        [this, whole, since](Read r) {
            m_reading = false;
            if (whole || r.cleared)
                m_ticks.clear();
            // Rows of periods that ended are let go (the month turned since the last read).
            const auto old = std::find_if(m_ticks.cbegin(), m_ticks.cend(),
                [since](const history::UsageTick &t) { return t.timeMs >= since; });
            m_ticks.erase(m_ticks.cbegin(), old);
            if (!r.ticks.isEmpty())
                m_lastId = r.ticks.constLast().id;
            else if (whole || r.cleared)
                m_lastId = 0;
            const bool grew = !r.ticks.isEmpty() || whole || r.cleared;
            m_ticks += r.ticks;
            if (!std::exchange(m_loaded, true))
                Q_EMIT loaded();
            if (grew)
                Q_EMIT changed();
            if (std::exchange(m_readAgain, false))
                read(false);
        });
}

UsageTally::Spent UsageTally::spentSince(const QString &profile, qint64 sinceMs) const
{
    Spent s;
    for (const history::UsageTick &t : m_ticks) {
        if (t.timeMs >= sinceMs && t.profile == profile)
            s += history::CostTotal::ofAttempt(
                t.cost, t.costSource, t.currency, t.answered, t.tokens);
    }
    return s;
}

QDateTime UsageTally::firstUse(const QString &profile, bool month) const
{
    const qint64 sinceMs = (month ? startOfMonth(now()) : startOfDay(now())).toMSecsSinceEpoch();
    // By time, not by row: another process's row may have been written after a later attempt.
    qint64 first = std::numeric_limits<qint64>::max();
    for (const history::UsageTick &t : m_ticks) {
        if (t.timeMs >= sinceMs && t.profile == profile)
            first = std::min(first, t.timeMs);
    }
    return first == std::numeric_limits<qint64>::max() ? QDateTime()
                                                       : QDateTime::fromMSecsSinceEpoch(first);
}

UsageTally::Spent UsageTally::today(const QString &profile) const
{
    return spentSince(profile, startOfDay(now()).toMSecsSinceEpoch());
}

UsageTally::Spent UsageTally::thisMonth(const QString &profile) const
{
    return spentSince(profile, startOfMonth(now()).toMSecsSinceEpoch());
}

retry::SpendUsed UsageTally::spendUsed(const QString &profile) const
{
    const Spent day = today(profile);
    const Spent month = thisMonth(profile);
    return { day.tokens, month.tokens, day.amount(), month.amount() };
}

retry::DeclaredUse UsageTally::declaredUse(const QString &profile, double timeScale) const
{
    const double scale = timeScale > 0 && timeScale <= 1 ? timeScale : 1.0;
    const QDateTime t = now();
    const qint64 nowMs = t.toMSecsSinceEpoch();
    const qint64 dayStart = startOfDay(t).toMSecsSinceEpoch();
    // The minute is a policy minute: `scale` times as long on the wall clock.
    const auto minuteWallMs = qint64(double(retry::kDeclaredMinute.count()) * scale);
    retry::DeclaredUse use;
    for (const history::UsageTick &tick : m_ticks) {
        if (tick.profile != profile)
            continue;
        if (tick.timeMs >= dayStart) {
            ++use.requestsToday;
            use.tokensToday += tick.tokens;
        }
        const qint64 ageMs = nowMs - tick.timeMs;
        if (ageMs >= 0 && ageMs < minuteWallMs)
            use.lastMinute.push_back({ nowMs - qint64(double(ageMs) / scale), tick.tokens });
    }
    use.dayLeft = retry::Millis(std::max<qint64>(1, t.msecsTo(dayEnds())));
    return use;
}

} // namespace capwatch::session
