#pragma once

// One insights table drawn with Qt Charts (docs/insights.md): a stacked bar per row, a segment
// per column, in the series' own colours (InsightsRole::SeriesColor, the categories' colours of
// the panel and the timeline). Hovering a segment shows its value; clicking a legend entry hides
// its series (and clicking it again shows it), the entry dimmed meanwhile. Redrawn whenever the
// model resets; the theme follows the palette (light or dark).

#include "ui/insights/chartfactory.h"

#include <QChartView>
#include <QPointer>
#include <QSet>

class QAbstractItemModel;

namespace capwatch::ui {

class TableChartView final : public QChartView
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TableChartView)

public:
    explicit TableChartView(QAbstractItemModel *model, QWidget *parent = nullptr);

    /// Draws the model again, keeping the hidden series hidden; not shown yet, lays the chart
    /// out at once too (layOutNow()).
    void rebuild();
    /// The theme and the colours from the palette again.
    void applyPalette();
    /// The names of the series hidden from the legend (tests, the table's note).
    QStringList hiddenSeries() const;
    /// Hides or shows the series `name`, as a click on its legend entry does.
    void toggle(const QString &name);
    /// The series drawn, in the legend's order.
    QStringList seriesNames() const;

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void showHover(bool status, int index, const QString &series, int column);

    /// What one bar set draws: a column of the model, or (rows in their own colours) one row.
    struct Drawn
    {
        QString name;
        QColor color;
        bool estimated = false;
        int column = 0;
        int row = -1; ///< -1: every row
    };
    QList<Drawn> drawnSets() const;
    /// The chart laid out at the view's size now (axes, labels, legend, bars), as its first
    /// show would: at the show, it would be added to the show's own work and the paint.
    void layOutNow();
    /// The legend beside the chart (many series, room for them) rather than below it.
    bool legendBeside() const;
    /// How many day labels fit under the bars at this width.
    int labelCapacity() const;

    QPointer<QAbstractItemModel> m_model;
    QList<Drawn> m_drawn; ///< one per bar set, in order
    QSet<QString> m_hidden; ///< by series name, which survives a reset of the model
    bool m_applyingPalette = false;
    int m_laidCapacity = -1; ///< labelCapacity() and legendBeside() when last laid out
    bool m_laidBeside = false;
};

} // namespace capwatch::ui
