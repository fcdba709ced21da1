#pragma once

// The charts module's entry (ChartFactory, ui/insights/chartfactory.h): a Qt plugin that
// ChartsModule loads when the Insights view first opens.

#include "ui/insights/chartfactory.h"

#include <QObject>

namespace capwatch::ui {

class ChartsPlugin final : public QObject, public ChartFactory
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID CAPWATCH_CHART_FACTORY_IID)
    Q_INTERFACES(capwatch::ui::ChartFactory)

public:
    QWidget *createChart(QAbstractItemModel *model, QWidget *parent) override;
    bool writeSvg(
        QWidget *chart, const QString &path, const QString &title, QString *error) const override;
    void applyPalette(QWidget *chart) const override;
    void prepare() override;

private:
    bool m_prepared = false;
};

} // namespace capwatch::ui
