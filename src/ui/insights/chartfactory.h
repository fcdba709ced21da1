#pragma once

// What the Insights view asks of its charts module (docs/insights.md): a chart drawn from a table
// model, and that chart as SVG. The module (src/ui/charts, capwatch_charts) is a Qt plugin loaded
// when the view first opens (ChartsModule), so Qt Charts and the Qt OpenGL it needs never load
// before the window's first paint nor in a run that never opens the view. This header is all the
// two share: the module sees the tables only through QAbstractItemModel and the roles below, and
// links nothing of capwatch.

#include <QtPlugin>

class QAbstractItemModel;
class QString;
class QWidget;

namespace capwatch::ui {

/// The roles of an insights table (InsightsTableModel) a chart reads besides Qt::DisplayRole
/// (the value as text, for hover) and the vertical header (the rows' labels).
namespace InsightsRole {
/// data(): the value as a double.
inline constexpr int Value = 0x0100; // Qt::UserRole
/// headerData(Horizontal): the series' colour (QColor).
inline constexpr int SeriesColor = 0x0101;
/// headerData(Horizontal): true when the series is an estimate (money priced by capwatch, not
/// billed by the provider): the chart draws it hatched.
inline constexpr int Estimated = 0x0102;
/// headerData(Horizontal): false for a column the chart leaves out (a count beside minutes).
inline constexpr int Charted = 0x0103;
// headerData(Vertical, SeriesColor), when valid: each row is its own series (the refusals by
// category, the outcomes), one bar per row in its colour, with its own legend entry; the first
// charted column gives the values.
} // namespace InsightsRole

/// How a table is drawn.
enum class ChartKind
{
    /// One stacked bar per row (a day), one segment per column (a model, a kind of wait).
    StackedColumns,
    /// One horizontal bar per row (a category), one segment per column, stacked.
    StackedBars,
};

class ChartFactory
{
public:
    virtual ~ChartFactory() = default;
    /// A chart of `model` (not owned; it outlives the chart), redrawn when the model resets,
    /// as the model's properties say: `chartKind` (int, a ChartKind) and `valueTitle` (the
    /// value axis: "Tokens", "Minutes"). It shows a value on hover and hides a series when its
    /// legend entry is clicked.
    /// Made at `parent`'s size and laid out at it, so that showing it only paints.
    virtual QWidget *createChart(QAbstractItemModel *model, QWidget *parent) = 0;
    /// Makes ready, once, what every chart shares (the theme, the fonts of its titles, axes and
    /// legend): a step of its own before the first chart, which would otherwise pay for it.
    virtual void prepare() = 0;
    /// Writes `chart` (made by createChart()) to `path` as SVG with `title`; false and `error`
    /// when it cannot.
    virtual bool writeSvg(
        QWidget *chart, const QString &path, const QString &title, QString *error) const = 0;
    /// The chart's colours and theme follow its palette again (a light or dark switch).
    virtual void applyPalette(QWidget *chart) const = 0;
};

} // namespace capwatch::ui

#define CAPWATCH_CHART_FACTORY_IID "io.github.capwatch.ChartFactory/2"
Q_DECLARE_INTERFACE(capwatch::ui::ChartFactory, CAPWATCH_CHART_FACTORY_IID)
