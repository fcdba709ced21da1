#include "ui/timeline/retrylogmodel.h"

#include "net/retrylog.h"
#include "session/retrytexts.h"
#include "ui/panel/categorycolors.h"

#include <QBrush>
#include <QGuiApplication>
#include <QLocale>
#include <QPalette>
#include <cmath>

namespace capwatch::ui {

using namespace Qt::StringLiterals;
using net::RetryRecord;

namespace {

/// Seconds from milliseconds, up to three decimals, grouped as the locale groups numbers.
QString secondsText(qint64 ms)
{
    return QLocale().toString(double(ms) / 1000.0, 'f', QLocale::FloatingPointShortest);
}

QString tokens(double value)
{
    double whole = 0;
    if (std::modf(value, &whole) == 0.0 && std::fabs(whole) < 9.0e15)
        return QLocale().toString(qlonglong(whole));
    return QLocale().toString(value, 'f', QLocale::FloatingPointShortest);
}

QVariant optionalSeconds(const std::optional<qint64> &ms)
{
    return ms ? QVariant(secondsText(*ms)) : QVariant();
}

QVariant optionalTokens(const std::optional<double> &value)
{
    return value ? QVariant(tokens(*value)) : QVariant();
}

QVariant optionalCount(const std::optional<qint64> &value)
{
    return value ? QVariant(QLocale().toString(*value)) : QVariant();
}

/// Policy seconds (the window's reset) up to three decimals.
QVariant optionalExactSeconds(const std::optional<double> &s)
{
    return s ? QVariant(QLocale().toString(
               std::round(*s * 1000.0) / 1000.0, 'f', QLocale::FloatingPointShortest))
             : QVariant();
}

QVariant optionalText(const QString &text)
{
    return text.isEmpty() ? QVariant() : QVariant(text);
}

/// How an answer ended, in words; none for None.
QVariant answerEndText(retry::AnswerEnd end)
{
    switch (end) {
    case retry::AnswerEnd::Complete:
        return RetryLogModel::tr("complete");
    case retry::AnswerEnd::CutOff:
        return RetryLogModel::tr("cut off");
    case retry::AnswerEnd::Interrupted:
        return RetryLogModel::tr("interrupted");
    case retry::AnswerEnd::Empty:
        return RetryLogModel::tr("empty");
    case retry::AnswerEnd::None:
        break;
    }
    return {};
}

/// The interfaces.md name (the empty one of a None is no text).
QVariant name(std::string_view name)
{
    return optionalText(QString::fromLatin1(name.data(), qsizetype(name.size())));
}

/// Local wall time as the Time column shows it; the tooltips give the exported UTC.
QVariant localTime(const QDateTime &t)
{
    return t.isValid() ? QVariant(t.toLocalTime().toString(u"HH:mm:ss.zzz"_s)) : QVariant();
}

QVariant utcTime(const QDateTime &t)
{
    return t.isValid() ? QVariant(t.toUTC().toString(Qt::ISODateWithMs)) : QVariant();
}

bool isNumeric(int column)
{
    switch (column) {
    case RetryLogModel::RequestColumn:
    case RetryLogModel::AttemptColumn:
    case RetryLogModel::StatusColumn:
    case RetryLogModel::UsedColumn:
    case RetryLogModel::LimitColumn:
    case RetryLogModel::WaitColumn:
    case RetryLogModel::RawWaitColumn:
    case RetryLogModel::WaitedTotalColumn:
    case RetryLogModel::BudgetLeftColumn:
    case RetryLogModel::WindowTokensLeftColumn:
    case RetryLogModel::WindowResetColumn:
    case RetryLogModel::EstimatedTokensColumn:
        return true;
    default:
        return false;
    }
}

} // namespace

RetryLogModel::RetryLogModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

RetryLogModel::~RetryLogModel() = default;

void RetryLogModel::setLog(net::RetryLog *log)
{
    if (log == m_log)
        return;
    beginResetModel();
    if (m_log)
        m_log->disconnect(this);
    m_log = log;
    m_rows = log ? int(log->records().size()) : 0;
    if (log) {
        connect(log, &net::RetryLog::recordAppended, this, &RetryLogModel::onRecordAppended);
        connect(log, &net::RetryLog::cleared, this, &RetryLogModel::onCleared);
        connect(log, &QObject::destroyed, this, [this] {
            beginResetModel();
            m_rows = 0;
            endResetModel();
        });
    }
    endResetModel();
}

net::RetryLog *RetryLogModel::log() const
{
    return m_log;
}

const RetryRecord *RetryLogModel::record(int row) const
{
    if (!m_log || row < 0 || row >= m_rows || row >= m_log->records().size())
        return nullptr;
    return &m_log->records().at(row);
}

void RetryLogModel::onRecordAppended(int row)
{
    Q_UNUSED(row)
    // Insert everything the log holds beyond what views know, so a skipped signal cannot leave
    // the model behind.
    const int size = m_log ? int(m_log->records().size()) : 0;
    if (size < m_rows) {
        onCleared();
        return;
    }
    if (size == m_rows)
        return;
    beginInsertRows({}, m_rows, size - 1);
    m_rows = size;
    endInsertRows();
}

void RetryLogModel::onCleared()
{
    beginResetModel();
    m_rows = m_log ? int(m_log->records().size()) : 0;
    endResetModel();
}

int RetryLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int RetryLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RetryLogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RetryRecord *r = record(index.row());
    if (!r)
        return {};
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return display(*r, column);
    case Qt::ToolTipRole:
        return toolTip(*r, column);
    case Qt::TextAlignmentRole:
        return isNumeric(column) ? int(Qt::AlignRight | Qt::AlignVCenter)
                                 : int(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::DecorationRole:
        if (column == CategoryColumn && r->category)
            return categoryColor(*r->category, QGuiApplication::palette());
        return {};
    case Qt::ForegroundRole:
        if (column == CategoryColumn && r->category)
            return QBrush(categoryColor(*r->category, QGuiApplication::palette()));
        return {};
    case RecordRole:
        return index.row();
    default:
        return {};
    }
}

QVariant RetryLogModel::display(const RetryRecord &r, int column) const
{
    switch (column) {
    case TimeColumn:
        return localTime(r.time);
    case RequestColumn:
        return QLocale().toString(r.request);
    case EventColumn:
        return session::RetryTexts::event(r.event);
    case AttemptColumn:
        return r.attempt > 0 ? QVariant(QLocale().toString(r.attempt)) : QVariant();
    case StatusColumn:
        // A status code is an identifier, not a quantity: never grouped.
        return r.status ? QVariant(QString::number(*r.status)) : QVariant();
    // Words in the UI language; the exports (and the tooltips) keep the names of interfaces.md.
    case CategoryColumn:
        return r.category ? QVariant(session::RetryTexts::category(*r.category)) : QVariant();
    case UsedColumn:
        return optionalTokens(r.used);
    case LimitColumn:
        return optionalTokens(r.limit);
    case WaitColumn:
        return optionalSeconds(r.waitMs);
    case RawWaitColumn:
        return optionalSeconds(r.rawWaitMs);
    case WaitSourceColumn:
        return optionalText(session::RetryTexts::waitSource(r.waitSource));
    case WaitedTotalColumn:
        return optionalSeconds(r.waitedTotalMs);
    case BudgetLeftColumn:
        return optionalSeconds(r.budgetLeftMs);
    case ReasonColumn:
        // An unparked record's reason is why it left the queue, as in the exported log.
        return optionalText(r.event == RetryRecord::Event::Unparked
                ? session::RetryTexts::unpark(r.unpark)
                : session::RetryTexts::reason(r.reason));
    case ErrorColumn: {
        // One line in the table; the tooltip has the full text.
        QString line = r.error;
        line.replace(u'\n', u' ');
        return optionalText(line);
    }
    case ResetAtColumn:
        return localTime(r.resetAt);
    case WindowTokensLeftColumn:
        return optionalCount(r.windowTokensLeft);
    case WindowResetColumn:
        return optionalExactSeconds(r.windowResetS);
    case EstimatedTokensColumn:
        return optionalCount(r.estimatedTokens);
    case ProfileColumn:
        return optionalText(r.profile);
    case FallbackToColumn:
        return optionalText(r.fallbackTo);
    case AnswerEndColumn:
        return answerEndText(r.answerEnd);
    default:
        return {};
    }
}

QVariant RetryLogModel::toolTip(const RetryRecord &r, int column) const
{
    switch (column) {
    case TimeColumn:
        return utcTime(r.time);
    case StatusColumn:
        return r.status ? QVariant(session::RetryTexts::status(*r.status)) : QVariant();
    case CategoryColumn:
        return r.category ? name(retry::nameOf(*r.category)) : QVariant();
    case WaitSourceColumn:
        return name(retry::nameOf(r.waitSource));
    case ReasonColumn:
        return r.event == RetryRecord::Event::Unparked
            ? optionalText(RetryRecord::unparkName(r.unpark))
            : name(retry::nameOf(r.reason));
    case ErrorColumn:
        return optionalText(r.error);
    case ResetAtColumn:
        return utcTime(r.resetAt);
    case EventColumn:
        // A paced send: why it waited before its first attempt.
        if (r.event == RetryRecord::Event::Paced)
            return tr("Waited for the provider's window to reset before attempt 1; not counted "
                      "in the retry budget");
        if (r.event == RetryRecord::Event::Fallback)
            return tr("The send ended capped; its prompt goes to the profile %1 instead")
                .arg(r.fallbackTo);
        if (r.event == RetryRecord::Event::Interrupted)
            return tr("The answer stopped after it began; what came is kept, and Continue goes "
                      "on from it");
        return {};
    case AnswerEndColumn:
        return name(retry::nameOf(r.answerEnd));
    case FallbackToColumn:
        return r.fallbackTo.isEmpty()
            ? QVariant()
            : QVariant(tr("The profile the prompt went to after this send ended capped"));
    case WindowTokensLeftColumn:
        return r.windowTokensLeft ? QVariant(tr("Tokens left in the provider's window, as the "
                                                "provider last reported it"))
                                  : QVariant();
    case WindowResetColumn:
        return r.windowResetS
            ? QVariant(tr("Seconds until the provider's window resets, as last reported"))
            : QVariant();
    case EstimatedTokensColumn:
        return r.estimatedTokens
            ? QVariant(tr("The request's estimated tokens: prompt, context and completion"))
            : QVariant();
    default:
        return {};
    }
}

QVariant RetryLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole) {
        // The name in exported files.
        static const QStringList profileColumns { u"profile"_s, u"fallback_to"_s, u"answer_end"_s };
        const QStringList names = net::retryLogColumns();
        if (section < names.size())
            return names.at(section);
        return section >= ProfileColumn ? profileColumns.value(section - ProfileColumn) : QString();
    }
    if (role == Qt::TextAlignmentRole)
        return isNumeric(section) ? int(Qt::AlignRight | Qt::AlignVCenter)
                                  : int(Qt::AlignLeft | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case RequestColumn:
        return tr("Send");
    case EventColumn:
        return tr("Event");
    case AttemptColumn:
        return tr("Attempt");
    case StatusColumn:
        return tr("Status");
    case CategoryColumn:
        return tr("Category");
    case UsedColumn:
        return tr("Used");
    case LimitColumn:
        return tr("Limit");
    case WaitColumn:
        return tr("Wait (s)");
    case RawWaitColumn:
        return tr("Asked (s)");
    case WaitSourceColumn:
        return tr("Source");
    case WaitedTotalColumn:
        return tr("Waited (s)");
    case BudgetLeftColumn:
        return tr("Budget left (s)");
    case ReasonColumn:
        return tr("Reason");
    case ErrorColumn:
        return tr("Error");
    case ResetAtColumn:
        return tr("Resets at");
    case WindowTokensLeftColumn:
        return tr("Window tokens left");
    case WindowResetColumn:
        return tr("Window reset (s)");
    case EstimatedTokensColumn:
        return tr("Estimated tokens");
    case ProfileColumn:
        return tr("Profile");
    case FallbackToColumn:
        return tr("Fallback to");
    case AnswerEndColumn:
        return tr("Answer");
    default:
        return {};
    }
}

} // namespace capwatch::ui
