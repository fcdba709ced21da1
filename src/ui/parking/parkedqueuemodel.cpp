#include "ui/parking/parkedqueuemodel.h"

#include "session/parkinglot.h"
#include "session/sendtexts.h"

#include <QLocale>
#include <QSet>

namespace capwatch::ui {

ParkedQueueModel::ParkedQueueModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void ParkedQueueModel::setLot(session::ParkingLot *lot)
{
    if (m_lot)
        m_lot->disconnect(this);
    m_lot = lot;
    if (lot)
        connect(lot, &session::ParkingLot::changed, this, &ParkedQueueModel::sync);
    sync();
}

QDateTime ParkedQueueModel::now() const
{
    return m_lot ? m_lot->wallNow() : QDateTime::currentDateTimeUtc();
}

void ParkedQueueModel::sync()
{
    const QList<history::ParkedSend> sends = m_lot ? m_lot->sends() : QList<history::ParkedSend>();
    QSet<QUuid> ids;
    for (const history::ParkedSend &p : sends)
        ids.insert(p.id);
    // Gone first, bottom up; then the new ones where they go. A send keeps its place in the
    // order (its due time and parking time never change), so what stays is in the same order.
    for (int row = int(m_rows.size()) - 1; row >= 0; --row) {
        if (ids.contains(m_rows.at(row).id))
            continue;
        beginRemoveRows({}, row, row);
        m_rows.removeAt(row);
        m_states.removeAt(row);
        endRemoveRows();
    }
    for (int row = 0; row < int(sends.size()); ++row) {
        if (row < m_rows.size() && m_rows.at(row).id == sends.at(row).id)
            continue;
        if (rowOf(sends.at(row).id) >= 0) { // out of order after all: start afresh
            beginResetModel();
            m_rows = sends;
            m_states.fill(session::ParkedState::Waiting, m_rows.size());
            endResetModel();
            break;
        }
        beginInsertRows({}, row, row);
        m_rows.insert(row, sends.at(row));
        m_states.insert(row, session::ParkedState::Waiting);
        endInsertRows();
    }
    m_rows = sends;
    tick();
}

void ParkedQueueModel::tick()
{
    if (m_rows.isEmpty())
        return;
    for (int row = 0; row < int(m_rows.size()); ++row)
        m_states[row]
            = m_lot ? session::parkedState(*m_lot, m_rows.at(row)) : session::ParkedState::Waiting;
    Q_EMIT dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
}

void ParkedQueueModel::setTitle(const QUuid &conversation, const QString &title)
{
    if (title.isEmpty() || m_titles.value(conversation) == title)
        return;
    m_titles.insert(conversation, title);
    for (int row = 0; row < int(m_rows.size()); ++row) {
        if (m_rows.at(row).conversation == conversation)
            Q_EMIT dataChanged(index(row, ConversationColumn), index(row, ConversationColumn));
    }
}

QString ParkedQueueModel::titleOf(const history::ParkedSend &parked) const
{
    if (!parked.title.trimmed().isEmpty())
        return parked.title.trimmed();
    const QString known = m_titles.value(parked.conversation);
    return known.isEmpty() ? session::ParkingTexts::title(parked) : known;
}

int ParkedQueueModel::rowOf(const QUuid &id) const
{
    for (int row = 0; row < int(m_rows.size()); ++row) {
        if (m_rows.at(row).id == id)
            return row;
    }
    return -1;
}

int ParkedQueueModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ParkedQueueModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ParkedQueueModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const history::ParkedSend &p = m_rows.at(index.row());
    const session::ParkedState state = m_states.at(index.row());
    switch (role) {
    case IdRole:
        return p.id;
    case ConversationRole:
        return p.conversation;
    case StateRole:
        return int(state);
    case Qt::ToolTipRole:
        if (index.column() == PromptColumn)
            return p.prompt;
        if (index.column() == StateColumn) {
            const QString waiting = session::ParkingTexts::waitingFor(p, state);
            return waiting.isEmpty() ? QVariant() : QVariant(waiting);
        }
        return {};
    case Qt::DisplayRole:
    case Qt::AccessibleTextRole:
        break;
    default:
        return {};
    }
    const QDateTime at = now();
    switch (index.column()) {
    case ConversationColumn:
        return titleOf(p);
    case PromptColumn:
        return session::ParkingTexts::excerpt(p.prompt);
    case ProviderColumn:
        return session::ParkingTexts::provider(p.provider);
    case DueColumn:
        return session::ParkingTexts::clockTime(p.dueAt, at);
    case CountdownColumn: // as the panel counts a parked send down; nothing once it is due
        return state == session::ParkedState::Waiting
            ? session::SendTexts::countdown(session::SendState::ofParked(p, state, at))
            : QString();
    case StateColumn:
        return session::SendTexts::phaseName(session::SendState::ofParked(p, state, at));
    case ParksColumn:
        return tr("%1 of %2")
            .arg(QLocale().toString(p.parksInARow), QLocale().toString(retry::kMaxParksInARow));
    default:
        return {};
    }
}

QVariant ParkedQueueModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == ParksColumn)
        return tr("Times this send was parked in a row: at most %1")
            .arg(QLocale().toString(retry::kMaxParksInARow));
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ConversationColumn:
        return tr("Conversation");
    case PromptColumn:
        return tr("Prompt");
    case ProviderColumn:
        return tr("Provider");
    case DueColumn:
        return tr("Parked until");
    case CountdownColumn:
        return tr("In");
    case StateColumn:
        return tr("State");
    case ParksColumn:
        return tr("Parks");
    default:
        return {};
    }
}

} // namespace capwatch::ui
