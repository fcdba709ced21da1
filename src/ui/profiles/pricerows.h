#pragma once

// A profile's own prices as the Providers page shows and takes them: one row per model, each
// figure as typed (in the user's locale), so a figure that is not a price stays in its cell for
// the user to correct instead of being dropped.

#include "retry/price.h"

#include <QList>
#include <QString>
#include <optional>
#include <utility>

namespace capwatch::ui::pricerows {

/// The columns of the price table, in order.
enum Column
{
    ModelColumn,
    InputColumn,
    OutputColumn,
    CachedColumn,
    ColumnCount,
};

/// One row as typed: the model and its prices per million tokens; `cached` may be empty.
struct Row
{
    QString model;
    QString input;
    QString output;
    QString cached;

    bool isBlank() const;
    bool operator==(const Row &) const = default;
};

/// What is wrong with the rows, and where: `row` is 1-based, `column` a Column.
struct Problem
{
    enum class Kind
    {
        None,
        NoModel, ///< a row with prices but no model
        LongModel, ///< a model name longer than retry::kMaxModelNameBytes
        NotAPrice, ///< a figure that is no number from 0 to retry::kMaxPricePerMTok
        Twice, ///< a model priced in an earlier row already (any case)
    };
    Kind kind = Kind::None;
    int row = 0;
    int column = ModelColumn;
    QString text; ///< the figure or model name at fault

    bool isEmpty() const { return kind == Kind::None; }
};

/// A figure as the rows show it: the locale's decimal point, no group separators, no exponent.
QString figureText(double value);
/// A figure typed in the locale's way or with a '.' (0.15 is 0.15 in German too); none when it
/// is not a number.
std::optional<double> figureOf(const QString &text);

QList<Row> toRows(const QList<std::pair<QString, retry::Price>> &prices);
/// The prices of `rows`, blank rows skipped. `problem` gets the first row that cannot be taken
/// (which is left out); it is empty when every row can.
QList<std::pair<QString, retry::Price>> parse(const QList<Row> &rows, Problem *problem);

} // namespace capwatch::ui::pricerows
