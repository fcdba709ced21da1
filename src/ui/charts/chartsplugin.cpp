#include "chartsplugin.h"

#include "tablechartview.h"

#include <QFileInfo>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>

namespace capwatch::ui {

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

void ChartsPlugin::applyPalette(QWidget *chart) const
{
    if (auto *view = qobject_cast<TableChartView *>(chart))
        view->applyPalette();
}

} // namespace capwatch::ui
