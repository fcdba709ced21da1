#include "ui/insights/insightscard.h"

#include "ui/insights/chartfactory.h"

#include <QClipboard>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSaveFile>
#include <QShortcut>
#include <QStackedWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

namespace {

constexpr int kChartPage = 0;
constexpr int kPlaceholderPage = 1;
constexpr int kTablePage = 2;

} // namespace

InsightsCard::InsightsCard(const QString &id, QWidget *parent)
    : QFrame(parent)
    , m_model(new InsightsTableModel(this))
    , m_title(new QLabel(this))
    , m_tableButton(new QToolButton(this))
    , m_exportButton(new QToolButton(this))
    , m_exportMenu(new QMenu(this))
    , m_stack(new QStackedWidget(this))
    , m_placeholder(new QLabel(this))
    , m_tableView(new QTableView(this))
{
    setObjectName(u"insightsCard-"_s + id);
    setFrameShape(QFrame::StyledPanel);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_title->setObjectName(u"title"_s);
    m_tableButton->setCheckable(true);
    m_tableButton->setObjectName(u"tableButton"_s);
    m_exportButton->setObjectName(u"exportButton"_s);
    m_exportButton->setPopupMode(QToolButton::InstantPopup);
    m_exportButton->setMenu(m_exportMenu);
    connect(m_tableButton, &QToolButton::toggled, this, &InsightsCard::showTable);

    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(false); // a short line; wrapping lays it out as a document
    m_placeholder->setForegroundRole(QPalette::PlaceholderText);
    m_placeholder->setMinimumHeight(220);
    m_tableView->setObjectName(u"table"_s);
    m_tableView->setModel(m_model);
    m_tableView->setSelectionMode(QAbstractItemView::ContiguousSelection);
    m_tableView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tableView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tableView->horizontalHeader()->setStretchLastSection(true);
    m_tableView->setMinimumHeight(220);
    // Its size hint measures every cell (the columns fit their contents): the card takes its
    // size from the chart's page, never from the table's, so a new table costs nothing while the
    // table is not shown.
    m_tableView->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
    // Ctrl+C copies the selection as tab-separated text with its headings, for a spreadsheet
    // (the view alone would copy the current cell).
    auto *copy
        = new QShortcut(QKeySequence::Copy, m_tableView, nullptr, nullptr, Qt::WidgetShortcut);
    connect(copy, &QShortcut::activated, this,
        [this] { QGuiApplication::clipboard()->setText(selectionText()); });
    m_stack->addWidget(new QWidget(m_stack)); // the chart's page, filled by setCharts()
    m_stack->addWidget(m_placeholder);
    m_stack->addWidget(m_tableView);
    m_stack->setCurrentIndex(kPlaceholderPage);
    // A size of its own, whatever its page asks: a chart laid out again (another range, a
    // series hidden) never resizes its card, nor through the grid the cards beside it, each of
    // which would be laid out again too.
    m_stack->setMinimumSize(240, 260);
    m_stack->setMaximumHeight(260);

    auto *head = new QHBoxLayout;
    head->addWidget(m_title, 1);
    head->addWidget(m_tableButton);
    head->addWidget(m_exportButton);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 8);
    layout->addLayout(head);
    layout->addWidget(m_stack, 1);
    connect(m_model, &QAbstractItemModel::modelReset, this, &InsightsCard::updateEmpty);
    retranslate();
}

bool InsightsCard::stepChart(ChartFactory *factory, const QString &why)
{
    switch (m_chartStage) {
    case ChartStage::None:
        m_factory = factory;
        m_noCharts = why;
        if (!factory) {
            m_chartStage = ChartStage::Ready;
            updateEmpty();
            return true;
        }
        // Made hidden behind the placeholder, at the page's size and laid out at it.
        m_chart = factory->createChart(m_model, m_stack);
        m_chart->setObjectName(u"chart"_s);
        m_chart->setAccessibleName(m_model->table().title);
        {
            QWidget *old = m_stack->widget(kChartPage);
            m_stack->removeWidget(old);
            delete old;
        }
        m_stack->insertWidget(kChartPage, m_chart);
        m_chartStage = ChartStage::Made;
        return true;
    case ChartStage::Made:
        m_chartStage = ChartStage::Ready;
        updateEmpty();
        return true;
    case ChartStage::Ready:
        break;
    }
    return false;
}

void InsightsCard::setTable(InsightsTable table)
{
    m_title->setText(table.title);
    nameButtons(table.title);
    if (m_chart)
        m_chart->setAccessibleName(table.title);
    m_model->setTable(std::move(table));
}

QString InsightsCard::selectionText() const
{
    const QModelIndexList selected = m_tableView->selectionModel()->selectedIndexes();
    int top = m_model->rowCount();
    int bottom = -1;
    int left = m_model->columnCount();
    int right = -1;
    for (const QModelIndex &i : selected) {
        top = std::min(top, i.row());
        bottom = std::max(bottom, i.row());
        left = std::min(left, i.column());
        right = std::max(right, i.column());
    }
    if (bottom < 0) { // nothing selected: the whole table
        top = 0;
        left = 0;
        bottom = m_model->rowCount() - 1;
        right = m_model->columnCount() - 1;
    }
    QStringList lines;
    QStringList head { m_model->table().rowTitle };
    for (int c = left; c <= right; ++c)
        head.append(m_model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
    lines.append(head.join(u'\t'));
    for (int r = top; r <= bottom; ++r) {
        QStringList cells { m_model->headerData(r, Qt::Vertical, Qt::DisplayRole).toString() };
        for (int c = left; c <= right; ++c)
            cells.append(m_model->index(r, c).data().toString());
        lines.append(cells.join(u'\t'));
    }
    return lines.join(u'\n') + u'\n';
}

bool InsightsCard::showsTable() const
{
    return m_stack->currentIndex() == kTablePage;
}

void InsightsCard::showTable(bool table)
{
    if (m_tableButton->isChecked() != table)
        m_tableButton->setChecked(table); // comes back here through toggled()
    else
        updateEmpty();
}

void InsightsCard::updateEmpty()
{
    if (m_tableButton->isChecked()) {
        const bool shown = m_stack->currentIndex() == kTablePage;
        m_stack->setCurrentIndex(kTablePage);
        // Days oldest first, as the chart reads: the latest, what one looks for, in view.
        if (!shown && m_model->table().kind == ChartKind::StackedColumns)
            m_tableView->scrollToBottom();
        return;
    }
    const bool empty = m_model->table().isEmpty();
    if (m_chart && !empty && chartReady()) {
        m_stack->setCurrentIndex(kChartPage);
        return;
    }
    m_placeholder->setText(empty    ? tr("Nothing in this range.")
            : !m_noCharts.isEmpty() ? m_noCharts + u"\n"_s + tr("The numbers are in the table.")
                                    : tr("Drawing the chart…"));
    m_stack->setCurrentIndex(kPlaceholderPage);
}

bool InsightsCard::exportTo(const QString &path, Format format, QString *error)
{
    const auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (format == Format::Svg) {
        if (!m_factory || !m_chart)
            return fail(m_noCharts.isEmpty() ? tr("There is no chart to export.") : m_noCharts);
        return m_factory->writeSvg(m_chart, path, m_model->table().title, error);
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(file.errorString());
    if (format == Format::Csv) {
        file.write(m_model->table().toCsv());
    } else {
        QWidget *shown = m_chart ? m_chart : static_cast<QWidget *>(m_tableView);
        // A chart never shown (the table was) has no size of its own yet.
        if (shown->width() < 200 || shown->height() < 150)
            shown->resize(std::max(shown->width(), 720), std::max(shown->height(), 405));
        if (!shown->grab().save(&file, "PNG"))
            return fail(tr("The image could not be written."));
    }
    if (!file.commit())
        return fail(file.errorString());
    return true;
}

void InsightsCard::chooseExport(Format format)
{
    const QString suffix = format == Format::Png ? u"png"_s
        : format == Format::Svg                  ? u"svg"_s
                                                 : u"csv"_s;
    const QString filter = format == Format::Png ? tr("PNG image (*.png)")
        : format == Format::Svg                  ? tr("SVG image (*.svg)")
                                                 : tr("CSV table (*.csv)");
    const QString name = u"capwatch-"_s + m_model->table().id + u'.' + suffix;
    const QString dir = m_exportDirectory ? *m_exportDirectory : QString();
    auto *dialog = new QFileDialog(window(), tr("Export %1").arg(m_model->table().title),
        dir.isEmpty() ? name : dir + u'/' + name, filter);
    dialog->setObjectName(u"saveDialog"_s);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(suffix);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, [this, format](const QString &path) {
        if (path.isEmpty())
            return;
        if (m_exportDirectory)
            *m_exportDirectory = QFileInfo(path).absolutePath();
        QString error;
        const bool ok = exportTo(path, format, &error);
        Q_EMIT exported(path, ok ? QString() : error);
    });
    dialog->open(); // window-modal, never exec()'d
}

void InsightsCard::retranslate()
{
    m_tableButton->setText(tr("Table"));
    m_tableButton->setToolTip(tr("Show the numbers of this chart as a table"));
    m_exportButton->setText(tr("Export"));
    nameButtons(m_title->text());
    m_exportMenu->clear();
    m_exportMenu->addAction(tr("PNG image…"), this, [this] { chooseExport(Format::Png); });
    m_exportMenu->addAction(tr("SVG image…"), this, [this] { chooseExport(Format::Svg); });
    m_exportMenu->addAction(tr("CSV table…"), this, [this] { chooseExport(Format::Csv); });
    updateEmpty();
}

void InsightsCard::nameButtons(const QString &title)
{
    // Seven cards: each button says which chart it is for.
    m_exportButton->setAccessibleName(tr("Export %1").arg(title));
    m_tableButton->setAccessibleName(tr("Table of %1").arg(title));
}

void InsightsCard::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    else if (event->type() == QEvent::PaletteChange && m_factory && m_chart)
        m_factory->applyPalette(m_chart);
    QFrame::changeEvent(event);
}

} // namespace capwatch::ui
