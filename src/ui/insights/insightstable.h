#pragma once

// The numbers of one insights chart (docs/insights.md): rows (days, weeks, months, categories),
// series (models, profiles, kinds of wait), and a value for each. The chart draws it, the table
// view shows it, and the CSV export writes it: one set of numbers for all three.

#include "ui/insights/chartfactory.h"

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>

namespace capwatch::ui {

class InsightsTable
{
public:
    enum class Unit
    {
        Tokens,
        Money, ///< in `currency`
        Minutes, ///< time lost, in minutes
        Count,
    };
    struct Series
    {
        QString key; ///< as `capwatch-cli usage` names it (a model, `waited`, `rate_limit`)
        QString name; ///< shown, translated
        QColor color;
        Unit unit = Unit::Count;
        bool estimated = false; ///< an estimated cost: hatched
        bool charted = true; ///< drawn; false: in the table only (a count beside minutes)
        /// Money: its currency when not the table's (the provider's credits are billed in
        /// theirs); "-": none known.
        QString currency;
        bool operator==(const Series &) const = default;
    };

    QString id; ///< `tokens`, `cost`, `time-lost`, ... (file names, object names)
    QString title;
    QString valueTitle; ///< the value axis
    ChartKind kind = ChartKind::StackedColumns;
    /// When set, each row is drawn in its own colour (rowColors), a single series per row: the
    /// refusals by category, the outcomes.
    bool colorsByRow = false;
    QString rowTitle; ///< the first column's heading in the table: "Day", "Category"
    QString rowKind; ///< the same in the CSV, untranslated: `day`, `week`, `category`
    QStringList rows; ///< shown, translated
    QStringList rowKeys; ///< ISO dates or names as `capwatch-cli usage` writes them
    QList<QColor> rowColors;
    QList<Series> series;
    QList<QList<double>> values; ///< [row][series]
    QString currency; ///< of Money values

    bool operator==(const InsightsTable &) const = default;
    double value(int row, int series) const;
    /// The sum of one series over every row.
    double seriesTotal(int series) const;
    bool isEmpty() const;
    /// The table as CSV (RFC 4180, UTF-8): the row key, then each series by its key, values
    /// unformatted (a dot for decimals), so a spreadsheet or a script reads it as numbers.
    QByteArray toCsv() const;
};

} // namespace capwatch::ui
