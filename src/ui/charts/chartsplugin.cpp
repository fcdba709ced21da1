#include "chartsplugin.h"

#include "tablechartview.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QFileInfo>
#include <QGraphicsLayout>
#include <QPainter>
#include <QSaveFile>
#include <QStackedBarSeries>
#include <QSvgGenerator>
#include <QValueAxis>

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
    // A chart of two bars with both axes and a legend, laid out and dropped: the theme is
    // made and the fonts it uses are loaded, once for the process.
    QChart chart;
    chart.setAnimationOptions(QChart::NoAnimation);
    auto *series = new QStackedBarSeries;
    for (const QString &name : { u"a"_s, u"b"_s }) {
        auto *set = new QBarSet(name);
        set->append({ 1.0, 2.0 });
        series->append(set);
    }
    chart.addSeries(series);
    auto *categories = new QBarCategoryAxis;
    categories->append({ u"1"_s, u"2"_s });
    auto *values = new QValueAxis;
    values->setTitleText(u"0"_s);
    chart.addAxis(categories, Qt::AlignBottom);
    chart.addAxis(values, Qt::AlignLeft);
    series->attachAxis(categories);
    series->attachAxis(values);
    chart.resize(400, 240);
    chart.layout()->activate();
}

void ChartsPlugin::applyPalette(QWidget *chart) const
{
    if (auto *view = qobject_cast<TableChartView *>(chart))
        view->applyPalette();
}

} // namespace capwatch::ui
