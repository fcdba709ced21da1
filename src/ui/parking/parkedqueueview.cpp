#include "ui/parking/parkedqueueview.h"

#include "ui/parking/parkedqueuemodel.h"

#include <QAction>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace capwatch::ui {

ParkedQueueView::ParkedQueueView(ParkedQueueModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_empty(new QLabel(this))
    , m_table(new QTableView(this))
    , m_open(new QPushButton(this))
    , m_sendNow(new QPushButton(this))
    , m_cancel(new QPushButton(this))
    , m_openAction(new QAction(this))
    , m_sendNowAction(new QAction(this))
    , m_cancelAction(new QAction(this))
{
    auto *layout = new QVBoxLayout(this);
    const int pad = fontMetrics().height() / 2;
    layout->setContentsMargins(pad, pad, pad, pad);
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_empty->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_empty, 1);

    m_table->setModel(model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() * 3 / 2);
    // Every column fits the tab beside the conversation: the figures as wide as they are, the
    // title capped (fitColumns()), the prompt taking what is left, elided.
    QHeaderView *header = m_table->horizontalHeader();
    header->setStretchLastSection(false);
    for (int column = 0; column < ParkedQueueModel::ColumnCount; ++column)
        header->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(ParkedQueueModel::ConversationColumn, QHeaderView::Interactive);
    header->setSectionResizeMode(ParkedQueueModel::PromptColumn, QHeaderView::Stretch);
    m_table->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_table->addActions({ m_openAction, m_sendNowAction, m_cancelAction });
    layout->addWidget(m_table, 1);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_open);
    buttons->addWidget(m_sendNow);
    buttons->addWidget(m_cancel);
    buttons->addStretch(1);
    layout->addLayout(buttons);

    const auto open = [this] {
        if (const QModelIndex row = selectedRow(); row.isValid())
            Q_EMIT openRequested(row.data(ParkedQueueModel::ConversationRole).toUuid());
    };
    const auto sendNow = [this] {
        if (const QUuid id = selectedSend(); !id.isNull())
            Q_EMIT sendNowRequested(id);
    };
    const auto cancel = [this] {
        if (const QUuid id = selectedSend(); !id.isNull())
            Q_EMIT cancelRequested(id);
    };
    // Enter and a double click open the row's conversation.
    connect(m_table, &QAbstractItemView::activated, this, [this](const QModelIndex &index) {
        Q_EMIT openRequested(index.data(ParkedQueueModel::ConversationRole).toUuid());
    });
    connect(m_open, &QPushButton::clicked, this, open);
    connect(m_openAction, &QAction::triggered, this, open);
    connect(m_sendNow, &QPushButton::clicked, this, sendNow);
    connect(m_sendNowAction, &QAction::triggered, this, sendNow);
    connect(m_cancel, &QPushButton::clicked, this, cancel);
    connect(m_cancelAction, &QAction::triggered, this, cancel);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        &ParkedQueueView::updateState);
    const auto rowsChanged = [this] {
        m_table->resizeColumnToContents(ParkedQueueModel::ConversationColumn);
        m_table->setColumnWidth(ParkedQueueModel::ConversationColumn,
            std::min(m_table->columnWidth(ParkedQueueModel::ConversationColumn),
                fontMetrics().averageCharWidth() * 24));
        updateState();
    };
    connect(model, &QAbstractItemModel::rowsInserted, this, rowsChanged);
    connect(model, &QAbstractItemModel::rowsRemoved, this, rowsChanged);
    connect(model, &QAbstractItemModel::modelReset, this, rowsChanged);
    connect(model, &QAbstractItemModel::dataChanged, this, &ParkedQueueView::updateState);
    retranslate();
}

QModelIndex ParkedQueueView::selectedRow() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? QModelIndex() : rows.constFirst();
}

QUuid ParkedQueueView::selectedSend() const
{
    const QModelIndex row = selectedRow();
    return row.isValid() ? row.data(ParkedQueueModel::IdRole).toUuid() : QUuid();
}

void ParkedQueueView::selectSend(const QUuid &id)
{
    const int row = m_model->rowOf(id);
    if (row >= 0)
        m_table->selectRow(row);
}

void ParkedQueueView::updateState()
{
    const bool empty = m_model->rowCount() == 0;
    m_empty->setVisible(empty);
    m_table->setVisible(!empty);
    for (QPushButton *b : { m_open, m_sendNow, m_cancel })
        b->setVisible(!empty);
    const QModelIndex row = selectedRow();
    // One in flight can be neither sent again nor taken out; it leaves the queue when it ends.
    const bool waiting = row.isValid()
        && row.data(ParkedQueueModel::StateRole).toInt() != int(session::ParkedState::Sending);
    const bool canOpen
        = row.isValid() && !row.data(ParkedQueueModel::ConversationRole).toUuid().isNull();
    m_open->setEnabled(canOpen);
    m_openAction->setEnabled(canOpen);
    m_sendNow->setEnabled(waiting);
    m_sendNowAction->setEnabled(waiting);
    m_cancel->setEnabled(waiting);
    m_cancelAction->setEnabled(waiting);
}

void ParkedQueueView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void ParkedQueueView::retranslate()
{
    m_empty->setText(tr("Nothing is parked. When a provider's limit resets later than the "
                        "retries can wait, a send can wait here for the reset and go out by "
                        "itself: choose \"Send at\" on its card, or let Settings → Retries park "
                        "it automatically."));
    // No mnemonics: the window's letters are taken (New conversation, Request options, ...).
    for (const auto &[button, action, text] :
        { std::tuple { m_open, m_openAction, tr("Open conversation") },
            std::tuple { m_sendNow, m_sendNowAction, tr("Send now") },
            std::tuple { m_cancel, m_cancelAction, tr("Cancel") } }) {
        button->setText(text);
        action->setText(text);
    }
    m_table->setAccessibleName(tr("Parked sends"));
    m_table->setAccessibleDescription(tr("Every parked send of every conversation, the next to "
                                         "go out first. Enter opens its conversation."));
    m_empty->setAccessibleName(tr("Nothing is parked"));
    m_open->setAccessibleDescription(tr("Show the selected send's conversation"));
    m_sendNow->setAccessibleDescription(
        tr("Send the selected parked send now, before its provider's reset"));
    m_cancel->setAccessibleDescription(
        tr("Take the selected send out of the queue; it stays a failed send you can retry"));
    setAccessibleName(tr("Queue"));
    updateState();
}

} // namespace capwatch::ui
