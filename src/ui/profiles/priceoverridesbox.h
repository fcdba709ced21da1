#pragma once

// Settings -> Providers -> a profile's own prices: a table of model, input, output and cached
// input per million tokens (pricerows), which win over the price table's for that profile, with
// Add and Remove, and under it what the price table knows of the profile's model, so the user
// sees whether a price is needed at all. A figure is kept as typed; the page refuses OK while
// one is not a price.

#include "ui/profiles/pricerows.h"

#include <QGroupBox>

class QLabel;
class QPushButton;
class QTableWidget;

namespace capwatch::ui {

class PriceOverridesBox final : public QGroupBox
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PriceOverridesBox)

public:
    explicit PriceOverridesBox(QWidget *parent = nullptr);

    void setRows(const QList<pricerows::Row> &rows);
    /// Every row as typed, blank ones too.
    QList<pricerows::Row> rows() const;
    /// The model the profile sends to: the hint says what the price table knows of it, and Add
    /// starts a row for it.
    void setModel(const QString &model);
    /// Selects and focuses a cell (`row` 1-based, as pricerows::Problem gives it).
    void focusCell(int row, int column);

    QTableWidget *table() const { return m_table; }
    QLabel *hint() const { return m_hint; }
    QPushButton *addButton() const { return m_add; }
    QPushButton *removeButton() const { return m_remove; }

Q_SIGNALS:
    void edited();

private:
    void addRow();
    void removeRow();
    void appendRow(const pricerows::Row &row);
    void updateButtons();

    QString m_model;
    QLabel *m_note;
    QTableWidget *m_table;
    QPushButton *m_add;
    QPushButton *m_remove;
    QLabel *m_hint;
};

} // namespace capwatch::ui
