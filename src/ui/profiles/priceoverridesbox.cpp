#include "ui/profiles/priceoverridesbox.h"

#include "retry/pricetable.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

namespace {

/// "$0.15", "0,075 $" in German: as few decimals as the amount needs, at least 2, at most 6.
QString money(double amount, const std::string &currency)
{
    int decimals = 2;
    while (decimals < 6) {
        const double scaled = amount * std::pow(10.0, decimals);
        if (std::abs(scaled - std::round(scaled)) < 1e-6)
            break;
        ++decimals;
    }
    const QString code = QString::fromStdString(currency);
    if (code.isEmpty() || code == u"USD")
        return QLocale().toCurrencyString(amount, u"$"_s, decimals);
    return QLocale().toString(amount, 'f', decimals) + QChar(0x00a0) + code;
}

QString tableDescription()
{
    return PriceOverridesBox::tr("One row per model: its price per million input, output and "
                                 "cached input tokens, in USD; they win over the price table's");
}

} // namespace

PriceOverridesBox::PriceOverridesBox(QWidget *parent)
    : QGroupBox(tr("Prices"), parent)
    , m_note(new QLabel(this))
    , m_table(new QTableWidget(0, pricerows::ColumnCount, this))
    , m_add(new QPushButton(tr("Add price"), this))
    , m_remove(new QPushButton(tr("Remove price"), this))
    , m_hint(new QLabel(this))
{
    setObjectName(u"prices"_s);
    m_note->setObjectName(u"pricesNote"_s);
    m_table->setObjectName(u"priceTable"_s);
    m_add->setObjectName(u"addPrice"_s);
    m_remove->setObjectName(u"removePrice"_s);
    m_hint->setObjectName(u"priceHint"_s);

    m_note->setWordWrap(true);
    m_note->setText(tr("This provider's own prices per million tokens, in USD, used instead of "
                       "the price table's. Cached input may stay empty: it then costs as input."));
    m_hint->setWordWrap(true);
    m_hint->hide();

    m_table->setHorizontalHeaderLabels(
        { tr("Model"), tr("Input"), tr("Output"), tr("Cached input") });
    const QStringList headerTips { tr("The model name, as the provider expects it"),
        tr("Per million prompt tokens"), tr("Per million completion tokens"),
        tr("Per million prompt tokens read from the provider's cache; empty: as input") };
    for (int c = 0; c < pricerows::ColumnCount; ++c)
        m_table->horizontalHeaderItem(c)->setToolTip(headerTips.at(c));
    m_table->verticalHeader()->hide();
    // Cells, not rows: the cell a problem is in shows as the one selected.
    m_table->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::SelectedClicked
        | QAbstractItemView::EditKeyPressed | QAbstractItemView::AnyKeyPressed);
    // Tab goes on to the next control, arrows move between the cells: the table is one stop.
    m_table->setTabKeyNavigation(false);
    QHeaderView *header = m_table->horizontalHeader();
    header->setSectionResizeMode(pricerows::ModelColumn, QHeaderView::Stretch);
    for (int c = pricerows::InputColumn; c < pricerows::ColumnCount; ++c)
        header->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    // Room for three rows: a profile rarely prices more than its one or two models.
    m_table->setFixedHeight(header->sizeHint().height()
        + 3 * m_table->verticalHeader()->defaultSectionSize() + 2 * m_table->frameWidth());
    m_table->setAccessibleName(tr("Prices of this provider"));
    m_table->setAccessibleDescription(tableDescription());
    m_add->setAccessibleDescription(
        tr("Add a row for a model's price, started with the profile's model"));
    m_remove->setAccessibleDescription(tr("Remove the selected price"));

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    buttons->addStretch(1);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_note);
    layout->addWidget(m_table);
    layout->addLayout(buttons);
    layout->addWidget(m_hint);

    connect(m_table, &QTableWidget::itemChanged, this, &PriceOverridesBox::edited);
    connect(m_table, &QTableWidget::currentCellChanged, this, &PriceOverridesBox::updateButtons);
    connect(m_add, &QPushButton::clicked, this, &PriceOverridesBox::addRow);
    connect(m_remove, &QPushButton::clicked, this, &PriceOverridesBox::removeRow);
    updateButtons();
}

void PriceOverridesBox::setRows(const QList<pricerows::Row> &rows)
{
    const QSignalBlocker blocker(this);
    const QSignalBlocker tableBlocker(m_table);
    m_table->setRowCount(0);
    for (const pricerows::Row &row : rows)
        appendRow(row);
    updateButtons();
}

QList<pricerows::Row> PriceOverridesBox::rows() const
{
    QList<pricerows::Row> out;
    const auto text = [this](int row, int column) {
        const QTableWidgetItem *item = m_table->item(row, column);
        return item ? item->text() : QString();
    };
    for (int r = 0; r < m_table->rowCount(); ++r)
        out.append({ text(r, pricerows::ModelColumn), text(r, pricerows::InputColumn),
            text(r, pricerows::OutputColumn), text(r, pricerows::CachedColumn) });
    return out;
}

void PriceOverridesBox::setModel(const QString &model)
{
    m_model = model.trimmed();
    if (m_model.isEmpty()) {
        m_hint->clear();
        m_hint->hide();
        m_table->setAccessibleDescription(tableDescription());
        return;
    }
    const std::optional<retry::Price> price = retry::builtinPrices().find(m_model.toStdString());
    if (!price) {
        m_hint->setText(tr("“%1” is not in the price table: without a price here, its costs "
                           "show as tokens only.")
                            .arg(m_model));
    } else if (price->cachedInputPerMTok) {
        m_hint->setText(tr("Price table for “%1”: %2 / %3 per million tokens (input / output), "
                           "%4 for cached input.")
                            .arg(m_model, money(price->inputPerMTok, price->currency),
                                money(price->outputPerMTok, price->currency),
                                money(*price->cachedInputPerMTok, price->currency)));
    } else {
        m_hint->setText(tr("Price table for “%1”: %2 / %3 per million tokens (input / output).")
                            .arg(m_model, money(price->inputPerMTok, price->currency),
                                money(price->outputPerMTok, price->currency)));
    }
    m_hint->show();
    m_table->setAccessibleDescription(tableDescription() + u". "_s + m_hint->text());
}

void PriceOverridesBox::focusCell(int row, int column)
{
    if (row < 1 || row > m_table->rowCount())
        return;
    m_table->setCurrentCell(row - 1, column);
    m_table->scrollToItem(m_table->item(row - 1, column));
    m_table->setFocus();
}

void PriceOverridesBox::appendRow(const pricerows::Row &row)
{
    const int r = m_table->rowCount();
    m_table->insertRow(r);
    const QString texts[] = { row.model, row.input, row.output, row.cached };
    for (int c = 0; c < pricerows::ColumnCount; ++c) {
        auto *item = new QTableWidgetItem(texts[c]);
        if (c != pricerows::ModelColumn)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(r, c, item);
    }
}

void PriceOverridesBox::addRow()
{
    // Started with the profile's model and the price table's figures for it, when it has no row
    // yet: the usual case is correcting or completing that one price.
    pricerows::Row row;
    const QList<pricerows::Row> existing = rows();
    const bool priced
        = std::any_of(existing.cbegin(), existing.cend(), [this](const pricerows::Row &r) {
              return r.model.trimmed().compare(m_model, Qt::CaseInsensitive) == 0;
          });
    if (!m_model.isEmpty() && !priced) {
        row.model = m_model;
        if (const auto price = retry::builtinPrices().find(m_model.toStdString())) {
            row.input = pricerows::figureText(price->inputPerMTok);
            row.output = pricerows::figureText(price->outputPerMTok);
            if (price->cachedInputPerMTok)
                row.cached = pricerows::figureText(*price->cachedInputPerMTok);
        }
    }
    {
        const QSignalBlocker blocker(m_table);
        appendRow(row);
    }
    const int r = m_table->rowCount() - 1;
    m_table->setCurrentCell(
        r, row.model.isEmpty() ? pricerows::ModelColumn : pricerows::InputColumn);
    m_table->setFocus();
    m_table->editItem(m_table->currentItem());
    updateButtons();
    Q_EMIT edited();
}

void PriceOverridesBox::removeRow()
{
    const int r = m_table->currentRow();
    if (r < 0 || r >= m_table->rowCount())
        return;
    m_table->removeRow(r);
    if (m_table->rowCount() > 0) {
        m_table->setCurrentCell(std::min(r, m_table->rowCount() - 1), pricerows::ModelColumn);
        m_table->setFocus();
    } else {
        m_add->setFocus();
    }
    updateButtons();
    Q_EMIT edited();
}

void PriceOverridesBox::updateButtons()
{
    m_remove->setEnabled(m_table->currentRow() >= 0 && m_table->rowCount() > 0);
}

} // namespace capwatch::ui
