#pragma once

// One chart of the Insights view and its numbers (docs/insights.md): a title, the chart (or, when
// the charts module is missing, a line saying so), a Table button that shows the same numbers in
// a table view (for screen readers and for copying), and Export: PNG, SVG or CSV.

#include "ui/insights/insightstablemodel.h"

#include <QFrame>
#include <QPointer>

class QLabel;
class QMenu;
class QStackedWidget;
class QTableView;
class QToolButton;

namespace capwatch::ui {

class ChartFactory;

class InsightsCard final : public QFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InsightsCard)

public:
    enum class Format
    {
        Png,
        Svg,
        Csv
    };

    explicit InsightsCard(const QString &id, QWidget *parent = nullptr);

    InsightsTableModel *model() const { return m_model; }
    /// One step towards drawing the model with `factory`'s chart (made and laid out hidden,
    /// then shown: a turn of the event loop each, neither a stall); null: the table only, `why`
    /// said. False once there is nothing left to do.
    bool stepChart(ChartFactory *factory, const QString &why);
    /// The chart is made, laid out and shown (or known missing).
    bool chartReady() const { return m_chartStage == ChartStage::Ready; }
    void setTable(InsightsTable table);
    /// The chart widget (null without the module).
    QWidget *chart() const { return m_chart; }
    bool showsTable() const;
    /// The table's selection (all of it when none) as tab-separated text with its headings:
    /// what Ctrl+C in the table copies.
    QString selectionText() const;
    void showTable(bool table);
    /// Writes the chart (PNG, SVG) or its numbers (CSV) to `path`, whole or not at all.
    bool exportTo(const QString &path, Format format, QString *error = nullptr);
    /// The folder exports were last saved to (shared by the cards of a window).
    void setExportDirectory(QString *directory) { m_exportDirectory = directory; }
    void retranslate();

Q_SIGNALS:
    /// An export ended: where it went, or the error.
    void exported(const QString &path, const QString &error);

protected:
    void changeEvent(QEvent *event) override;

private:
    void chooseExport(Format format);
    void nameButtons(const QString &title);
    void updateEmpty();

    InsightsTableModel *m_model;
    ChartFactory *m_factory = nullptr;
    QLabel *m_title;
    QToolButton *m_tableButton;
    QToolButton *m_exportButton;
    QMenu *m_exportMenu;
    QStackedWidget *m_stack;
    QLabel *m_placeholder; ///< page 0 without a chart: why there is none, or "nothing yet"
    QWidget *m_chart = nullptr;
    QTableView *m_tableView;
    QString *m_exportDirectory = nullptr;
    QString m_noCharts;
    enum class ChartStage
    {
        None,
        Made,
        Ready
    };
    ChartStage m_chartStage = ChartStage::None;
};

} // namespace capwatch::ui
