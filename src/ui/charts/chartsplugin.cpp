#include "chartsplugin.h"

#include "tablechartview.h"

#include <QFileInfo>
#include <QPainter>
#include <QSaveFile>
#include <QStandardItemModel>
#include <QSvgGenerator>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

QWidget *ChartsPlugin::createChart(QAbstractItemModel *model, QWidget *parent)
{
    return new TableChartView(model, parent);
}

bool ChartsPlugin::writeSvg(
    QWidget *chart, const QString &path, const QString &title, QString *error) const
{
    auto *view = qobject_cast<TableChartView *>(chart);
    if (!view) {
        if (error)
            *error = tr("This is not a chart.");
        return false;
    }
    // Written whole to a temporary file and renamed: a failed export leaves no half a file
    // where the old one was.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(view->size());
    svg.setViewBox(QRect(QPoint(0, 0), view->size()));
    svg.setTitle(title);
    svg.setDescription(QFileInfo(path).fileName());
    {
        QPainter painter(&svg);
        view->render(&painter);
    }
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

void ChartsPlugin::prepare()
{
    if (m_prepared)
        return;
    m_prepared = true;
    // A chart as the view makes them (two series over two rows, both axes, a legend), made,
    // laid out and dropped: Qt Charts' theme, its view's set-up and the fonts of its titles,
    // axes and legend are ready, once for the process.
    QStandardItemModel model(2, 2);
    model.setProperty("chartKind", int(ChartKind::StackedColumns));
    model.setProperty("valueTitle", u"0"_s);
    for (int column = 0; column < 2; ++column) {
        model.setHeaderData(column, Qt::Horizontal, QString::number(column));
        model.setHeaderData(column, Qt::Horizontal, true, InsightsRole::Charted);
        for (int row = 0; row < 2; ++row)
            model.setData(model.index(row, column), 1.0, InsightsRole::Value);
    }
    for (int row = 0; row < 2; ++row)
        model.setHeaderData(row, Qt::Vertical, QString::number(row));
    QWidget parent;
    parent.resize(400, 240);
    TableChartView view(&model, &parent);
}

void ChartsPlugin::applyPalette(QWidget *chart) const
{
    if (auto *view = qobject_cast<TableChartView *>(chart))
        view->applyPalette();
}

} // namespace capwatch::ui
