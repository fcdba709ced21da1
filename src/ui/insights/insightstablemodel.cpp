#include "ui/insights/insightstablemodel.h"

#include "session/sendtexts.h"

#include <QLocale>
#include <cmath>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

InsightsTableModel::InsightsTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void InsightsTableModel::setTable(InsightsTable table)
{
    beginResetModel();
    m_table = std::move(table);
    endResetModel();
}

int InsightsTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_table.rows.size());
}

int InsightsTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_table.series.size());
}

QString InsightsTableModel::format(double value, InsightsTable::Unit unit, const QString &currency)
{
    const QLocale locale;
    switch (unit) {
    case InsightsTable::Unit::Tokens:
    case InsightsTable::Unit::Count:
        return locale.toString(qint64(std::llround(value)));
    case InsightsTable::Unit::Money:
        return session::SendTexts::money(value, currency);
    case InsightsTable::Unit::Minutes: {
        const qint64 seconds = std::llround(value * 60.0);
        if (seconds < 60)
            return tr("%1 s").arg(seconds);
        const qint64 minutes = seconds / 60;
        if (minutes < 60)
            return tr("%1 min").arg(minutes);
        return tr("%1 h %2 min").arg(minutes / 60).arg(minutes % 60);
    }
    }
    return {};
}

QVariant InsightsTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const double v = m_table.value(index.row(), index.column());
    const InsightsTable::Series &s = m_table.series.at(index.column());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::AccessibleTextRole:
        return format(v, s.unit,
            s.currency.isEmpty()       ? m_table.currency
                : s.currency == u"-"_s ? QString()
                                       : s.currency);
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case InsightsRole::Value:
        return v;
    default:
        return {};
    }
}

QVariant InsightsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal) {
        if (section < 0 || section >= m_table.series.size())
            return {};
        const InsightsTable::Series &s = m_table.series.at(section);
        switch (role) {
        case Qt::DisplayRole:
            return s.name;
        case InsightsRole::SeriesColor:
            return s.color;
        case InsightsRole::Estimated:
            return s.estimated;
        case InsightsRole::Charted:
            return s.charted;
        default:
            return {};
        }
    }
    if (section < 0 || section >= m_table.rows.size())
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return m_table.rows.at(section);
    case InsightsRole::SeriesColor:
        return m_table.colorsByRow && section < m_table.rowColors.size()
            ? QVariant(m_table.rowColors.at(section))
            : QVariant();
    default:
        return {};
    }
}

} // namespace capwatch::ui
