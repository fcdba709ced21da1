#include "tablechartview.h"

#include <QAbstractItemModel>
#include <QBarCategoryAxis>
#include <QBarLegendMarker>
#include <QBarSet>
#include <QCategoryAxis>
#include <QEvent>
#include <QFontInfo>
#include <QGlyphRun>
#include <QGraphicsLayout>
#include <QHorizontalStackedBarSeries>
#include <QLegend>
#include <QLegendMarker>
#include <QRawFont>
#include <QStackedBarSeries>
#include <QTextLayout>
#include <QTimer>
#include <QToolTip>
#include <QValueAxis>
#include <algorithm>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

namespace {

/// The room a day's label needs under its bar, in pixels ("28 Nov", "11月28日", "28. Nov.").
constexpr int kLabelWidth = 72;
/// A chart narrower than this keeps its legend below it, whatever its length.
constexpr int kLegendBesideWidth = 600;

/// `font`, its family that of the font `text` is drawn in. Qt Charts makes room for a vertical
/// axis title by the height of its font but lays the title out in the font that draws it: a
/// fallback's (a Chinese title under a Latin font) is taller, and the title was cut to "…".
QFont fontDrawing(QFont font, const QString &text)
{
    if (text.isEmpty())
        return font;
    QTextLayout layout(text, font);
    layout.beginLayout();
    layout.createLine();
    layout.endLayout();
    const QList<QGlyphRun> runs = layout.glyphRuns();
    if (runs.isEmpty())
        return font;
    const QString family = runs.constFirst().rawFont().familyName();
    if (!family.isEmpty() && family != QFontInfo(font).family())
        font.setFamilies({ family, font.family() });
    return font;
}

QColor mix(const QColor &a, const QColor &b, double amountOfB)
{
    const auto channel = [&](double x, double y) { return x + (y - x) * amountOfB; };
    return QColor::fromRgbF(float(channel(a.redF(), b.redF())),
        float(channel(a.greenF(), b.greenF())), float(channel(a.blueF(), b.blueF())));
}

} // namespace

TableChartView::TableChartView(QAbstractItemModel *model, QWidget *parent)
    : QChartView(new QChart, parent)
    , m_model(model)
{
    // Bars are axis-aligned: no antialiasing, which is most of a chart's paint.
    setRenderHint(QPainter::Antialiasing, false);
    setMinimumHeight(220);
    chart()->setAnimationOptions(QChart::NoAnimation);
    // The axes' numbers as the locale writes them ("0,004" in German).
    chart()->setLocalizeNumbers(true);
    chart()->setLocale(QLocale());
    chart()->legend()->setAlignment(Qt::AlignBottom);
    chart()->setMargins(QMargins(4, 4, 4, 4));
    chart()->layout()->setContentsMargins(0, 0, 0, 0);
    chart()->setBackgroundRoundness(0);
    // Made at the size it will show at: its labels are chosen for that width once, not for a
    // default width and then again.
    if (parent)
        resize(parent->size());
    connect(model, &QAbstractItemModel::modelReset, this, &TableChartView::rebuild);
    connect(model, &QAbstractItemModel::headerDataChanged, this, &TableChartView::rebuild);
    connect(model, &QAbstractItemModel::dataChanged, this, &TableChartView::rebuild);
    rebuild();
}

void TableChartView::rebuild()
{
    QChart *c = chart();
    c->removeAllSeries();
    const auto axes = c->axes();
    for (QAbstractAxis *axis : axes) {
        c->removeAxis(axis);
        delete axis;
    }
    if (!m_model)
        return;

    const int rows = m_model->rowCount();
    const auto kind = ChartKind(m_model->property("chartKind").toInt());
    m_drawn = drawnSets();
    QAbstractBarSeries *series = kind == ChartKind::StackedColumns
        ? static_cast<QAbstractBarSeries *>(new QStackedBarSeries)
        : static_cast<QAbstractBarSeries *>(new QHorizontalStackedBarSeries);
    series->setBarWidth(rows > 40 ? 0.9 : 0.7);
    double top = 0;
    QList<double> stacked(rows, 0.0);
    for (const Drawn &d : std::as_const(m_drawn)) {
        auto *set = new QBarSet(d.name);
        const bool hidden = m_hidden.contains(d.name);
        for (int row = 0; row < rows; ++row) {
            const bool drawn = !hidden && (d.row < 0 || d.row == row);
            const double value
                = drawn ? m_model->index(row, d.column).data(InsightsRole::Value).toDouble() : 0.0;
            set->append(value);
            stacked[row] += value;
        }
        const QString name = d.name;
        const int column = d.column;
        connect(set, &QBarSet::hovered, this, [this, name, column](bool status, int index) {
            showHover(status, index, name, column);
        });
        series->append(set);
    }
    for (double v : std::as_const(stacked))
        top = std::max(top, v);
    c->addSeries(series);

    QStringList labels;
    for (int row = 0; row < rows; ++row)
        labels.append(m_model->headerData(row, Qt::Vertical).toString());
    const bool columnsUp = kind == ChartKind::StackedColumns;
    QAbstractAxis *categories = nullptr;
    const int capacity = labelCapacity();
    if (columnsUp && rows > capacity) {
        // Many days: a label every few bars (a bar sits at its row's index), on the bar.
        auto *sparse = new QCategoryAxis;
        sparse->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        sparse->setRange(-0.5, rows - 0.5);
        const int step = (rows + capacity - 1) / capacity;
        for (int row = 0; row < rows; row += step)
            sparse->append(labels.at(row), row);
        categories = sparse;
    } else {
        auto *all = new QBarCategoryAxis;
        all->append(labels);
        categories = all;
    }
    categories->setGridLineVisible(false);
    // Horizontal bars read from the top, as the table's rows do.
    categories->setReverse(!columnsUp);
    auto *values = new QValueAxis;
    values->setRange(0, top > 0 ? top * 1.05 : 1.0);
    values->setLabelFormat(top >= 100 || top == 0 ? u"%.0f"_s : u"%.2g"_s);
    values->applyNiceNumbers();
    const QString valueTitle = m_model->property("valueTitle").toString();
    values->setTitleText(valueTitle);
    c->addAxis(categories, columnsUp ? Qt::AlignBottom : Qt::AlignLeft);
    c->addAxis(values, columnsUp ? Qt::AlignLeft : Qt::AlignBottom);
    // After the theme gave it its font (bold): the same, in the family that draws the title.
    values->setTitleFont(fontDrawing(values->titleFont(), valueTitle));
    series->attachAxis(categories);
    series->attachAxis(values);

    const QList<QLegendMarker *> markers = c->legend()->markers(series);
    for (QLegendMarker *marker : markers) {
        auto *bar = qobject_cast<QBarLegendMarker *>(marker);
        if (!bar)
            continue;
        const QString name = bar->barset()->label();
        connect(marker, &QLegendMarker::clicked, this, [this, name] { toggle(name); });
    }
    c->legend()->setVisible(m_drawn.size() > 1);
    // More than a few entries do not fit under a card's chart: beside it, one a line, and a
    // name cut short there shows whole on hover.
    c->legend()->setAlignment(legendBeside() ? Qt::AlignRight : Qt::AlignBottom);
    m_laidCapacity = capacity;
    m_laidBeside = legendBeside();
    c->legend()->setShowToolTips(true);
    applyPalette();
    // Not shown yet (made behind the card's placeholder): laid out now, in the step that made
    // it, so its first show only paints. Shown, the layout follows at the next turn, apart from
    // this rebuild (the two at once would be the longer stall).
    if (!isVisible())
        layOutNow();
}

void TableChartView::layOutNow()
{
    // What the resize event would do (QChartView sizes its chart to the view), then the layout
    // itself: a chart not yet shown is laid out at the size it will show at, and only paints.
    chart()->resize(size());
    chart()->layout()->activate();
    setSceneRect(chart()->geometry());
}

void TableChartView::applyPalette()
{
    if (m_applyingPalette)
        return;
    m_applyingPalette = true;
    QChart *c = chart();
    const QPalette p = palette();
    const QColor base = p.color(QPalette::Base);
    const QColor text = p.color(QPalette::Text);
    const QColor grid = mix(base, text, 0.15);
    c->setBackgroundBrush(base);
    c->setPlotAreaBackgroundVisible(false);
    c->legend()->setLabelColor(text);
    const auto axes = c->axes();
    for (QAbstractAxis *axis : axes) {
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
        axis->setLinePenColor(grid);
        axis->setGridLineColor(grid);
    }
    {
        const QList<QAbstractSeries *> all = c->series();
        for (QAbstractSeries *s : all) {
            auto *bars = qobject_cast<QAbstractBarSeries *>(s);
            if (!bars)
                continue;
            const QList<QBarSet *> sets = bars->barSets();
            for (int i = 0; i < sets.size() && i < m_drawn.size(); ++i) {
                QBarSet *set = sets.at(i);
                const Drawn &d = m_drawn.at(i);
                const QColor colour = d.color.isValid() ? d.color : text;
                QBrush brush(colour);
                if (d.estimated)
                    brush.setStyle(Qt::BDiagPattern);
                set->setBrush(brush);
                set->setPen(d.estimated ? QPen(colour, 1) : QPen(Qt::NoPen));
                set->setLabelColor(text);
            }
            const QList<QLegendMarker *> markers = c->legend()->markers(bars);
            for (QLegendMarker *marker : markers) {
                auto *bar = qobject_cast<QBarLegendMarker *>(marker);
                if (!bar || !m_hidden.contains(bar->barset()->label()))
                    continue;
                // A hidden series: its entry greyed, so it reads as off and can be clicked back.
                const QColor off = mix(base, text, 0.35);
                marker->setLabelBrush(off);
                marker->setBrush(QBrush(off, Qt::Dense6Pattern));
                marker->setPen(QPen(off));
            }
        }
    }
    m_applyingPalette = false;
}

QStringList TableChartView::hiddenSeries() const
{
    QStringList names(m_hidden.cbegin(), m_hidden.cend());
    names.sort();
    return names;
}

void TableChartView::toggle(const QString &name)
{
    if (!m_hidden.remove(name))
        m_hidden.insert(name);
    rebuild();
}

QStringList TableChartView::seriesNames() const
{
    QStringList names;
    for (const Drawn &d : m_drawn)
        names.append(d.name);
    return names;
}

QList<TableChartView::Drawn> TableChartView::drawnSets() const
{
    QList<Drawn> out;
    if (!m_model)
        return out;
    const int rows = m_model->rowCount();
    QList<int> columns;
    for (int column = 0; column < m_model->columnCount(); ++column) {
        if (m_model->headerData(column, Qt::Horizontal, InsightsRole::Charted).toBool())
            columns.append(column);
    }
    if (columns.isEmpty())
        return out;
    const bool byRow
        = rows > 0 && m_model->headerData(0, Qt::Vertical, InsightsRole::SeriesColor).isValid();
    if (byRow) {
        for (int row = 0; row < rows; ++row) {
            out.append(Drawn { m_model->headerData(row, Qt::Vertical).toString(),
                m_model->headerData(row, Qt::Vertical, InsightsRole::SeriesColor).value<QColor>(),
                false, columns.first(), row });
        }
        return out;
    }
    for (int column : std::as_const(columns)) {
        out.append(Drawn { m_model->headerData(column, Qt::Horizontal).toString(),
            m_model->headerData(column, Qt::Horizontal, InsightsRole::SeriesColor).value<QColor>(),
            m_model->headerData(column, Qt::Horizontal, InsightsRole::Estimated).toBool(), column,
            -1 });
    }
    return out;
}

bool TableChartView::legendBeside() const
{
    return m_drawn.size() > 3 && width() >= kLegendBesideWidth;
}

int TableChartView::labelCapacity() const
{
    const double plot = width() * (legendBeside() ? 0.6 : 0.85);
    return std::clamp(int(plot) / kLabelWidth, 2, 14);
}

void TableChartView::resizeEvent(QResizeEvent *event)
{
    QChartView::resizeEvent(event);
    // Labels and legend laid out for another width: drawn again, after the resize.
    const int capacity = labelCapacity();
    const bool beside = legendBeside();
    if (capacity != m_laidCapacity || beside != m_laidBeside) {
        m_laidCapacity = capacity;
        m_laidBeside = beside;
        QTimer::singleShot(0, this, &TableChartView::rebuild);
    }
}

void TableChartView::changeEvent(QEvent *event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
    } else if (event->type() == QEvent::LanguageChange || event->type() == QEvent::LocaleChange) {
        chart()->setLocale(QLocale());
        rebuild();
    }
}

void TableChartView::showHover(bool status, int index, const QString &series, int column)
{
    if (!status || !m_model || index < 0 || index >= m_model->rowCount()) {
        QToolTip::hideText();
        return;
    }
    const QString row = m_model->headerData(index, Qt::Vertical).toString();
    const QString value = m_model->index(index, column).data(Qt::DisplayRole).toString();
    const QString text = m_drawn.size() > 1 && series != row
        ? u"%1 · %2: %3"_s.arg(row, series, value)
        : u"%1: %2"_s.arg(row, value);
    QToolTip::showText(QCursor::pos(), text, this);
}

} // namespace capwatch::ui
