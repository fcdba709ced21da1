#pragma once

// The Queue tab's table (docs/parking.md): every parked send of every conversation, in the order
// they go out, from the window's ParkingLot. Rows come and go one at a time as the lot changes,
// so a selection stays where it was; the countdown column moves on tick().

#include "history/historytypes.h"
#include "session/parkingtexts.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>
#include <QList>
#include <QPointer>
#include <QUuid>

namespace capwatch::session {
class ParkingLot;
}

namespace capwatch::ui {

class ParkedQueueModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ParkedQueueModel)

public:
    enum Column
    {
        ConversationColumn,
        PromptColumn,
        ProviderColumn,
        DueColumn, ///< parked until, HH:mm
        CountdownColumn,
        StateColumn,
        ParksColumn, ///< parks in a row
        ColumnCount
    };
    enum Role
    {
        IdRole = Qt::UserRole + 1, ///< QUuid: the parked send
        ConversationRole, ///< QUuid: its conversation
        StateRole, ///< int: session::ParkedState
    };

    explicit ParkedQueueModel(QObject *parent = nullptr);

    /// Lists `lot`'s sends and follows its changes. Not owned.
    void setLot(session::ParkingLot *lot);
    /// The countdowns and states again, from the lot's wall clock.
    void tick();
    /// The conversation's title, for a send parked live (the lot knows titles only of the sends
    /// it read back); until then its prompt's first words stand in.
    void setTitle(const QUuid &conversation, const QString &title);
    QString titleOf(const history::ParkedSend &parked) const;
    history::ParkedSend sendAt(int row) const { return m_rows.value(row); }
    int rowOf(const QUuid &id) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    void sync();
    QDateTime now() const;

    QPointer<session::ParkingLot> m_lot;
    QList<history::ParkedSend> m_rows;
    QList<session::ParkedState> m_states;
    QHash<QUuid, QString> m_titles;
};

} // namespace capwatch::ui
