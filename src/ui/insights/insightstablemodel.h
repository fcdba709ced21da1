#pragma once

// An InsightsTable as a table model: what the chart draws (through InsightsRole) and what the
// table view shows, values formatted for the locale (tokens "12,345", money "$0.41", time lost
// "1 h 12 min"), with a Total row.

#include "ui/insights/insightstable.h"

#include <QAbstractTableModel>

namespace capwatch::ui {

class InsightsTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InsightsTableModel)
    // What a chart of the charts module reads (chartfactory.h).
    Q_PROPERTY(int chartKind READ chartKind)
    Q_PROPERTY(QString valueTitle READ valueTitle)

public:
    explicit InsightsTableModel(QObject *parent = nullptr);

    void setTable(InsightsTable table);
    const InsightsTable &table() const { return m_table; }
    int chartKind() const { return int(m_table.kind); }
    QString valueTitle() const { return m_table.valueTitle; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    /// `value` as the table shows it.
    static QString format(double value, InsightsTable::Unit unit, const QString &currency);

private:
    InsightsTable m_table;
};

} // namespace capwatch::ui
