#include "ui/history/historysidebar.h"

#include "ui/history/conversationdelegate.h"
#include "ui/history/conversationlistmodel.h"
#include "ui/history/searchresultsmodel.h"

#include <QAction>
#include <QEvent>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

namespace {
// Long enough that a word typed at speed is one query, short enough to feel immediate.
constexpr int kDebounceMs = 150;
} // namespace

HistorySidebar::HistorySidebar(QWidget *parent)
    : QWidget(parent)
    , m_model(new ConversationListModel(this))
    , m_search(new SearchResultsModel(this))
    , m_searchField(new QLineEdit(this))
    , m_new(new QPushButton(this))
    , m_view(new QListView(this))
    , m_placeholder(new QLabel(this))
    , m_newAction(new QAction(this))
    , m_findAction(new QAction(this))
    , m_renameAction(new QAction(this))
    , m_deleteAction(new QAction(this))
{
    auto *layout = new QVBoxLayout(this);
    const int pad = fontMetrics().height() / 2;
    layout->setContentsMargins(pad, pad, pad / 2, pad);
    layout->addWidget(m_new);
    // Its clear button shows only while there is text: it is made then, not while the window is
    // built (its icon, looked up through the image plugins, was 3 % of the window's start).
    connect(m_searchField, &QLineEdit::textChanged, m_searchField, [field = m_searchField] {
        if (!field->isClearButtonEnabled())
            field->setClearButtonEnabled(true);
    });
    m_searchField->installEventFilter(this);
    layout->addWidget(m_searchField);
    m_view->setModel(m_model);
    watchSelection();
    m_view->setItemDelegate(new ConversationDelegate(m_view));
    m_view->setUniformItemSizes(true);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::EditKeyPressed);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(m_view, 1);
    m_placeholder->setWordWrap(true);
    m_placeholder->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    m_placeholder->setEnabled(false);
    layout->addWidget(m_placeholder);

    m_newAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_N));
    m_newAction->setShortcutContext(Qt::WindowShortcut);
    m_findAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F));
    m_findAction->setShortcutContext(Qt::WindowShortcut);
    m_renameAction->setShortcut(QKeySequence(Qt::Key_F2));
    m_renameAction->setShortcutContext(Qt::WidgetShortcut);
    m_deleteAction->setShortcut(QKeySequence(QKeySequence::Delete));
    m_deleteAction->setShortcutContext(Qt::WidgetShortcut);
    addAction(m_newAction);
    addAction(m_findAction);
    m_view->addAction(m_renameAction);
    m_view->addAction(m_deleteAction);
    connect(m_newAction, &QAction::triggered, this, &HistorySidebar::newConversationRequested);
    connect(m_new, &QPushButton::clicked, this, &HistorySidebar::newConversationRequested);
    connect(m_findAction, &QAction::triggered, this, &HistorySidebar::focusSearch);
    connect(m_renameAction, &QAction::triggered, this, &HistorySidebar::renameCurrent);
    connect(m_deleteAction, &QAction::triggered, this, &HistorySidebar::deleteCurrent);
    connect(m_view, &QListView::activated, this, &HistorySidebar::activate);
    connect(m_view, &QListView::clicked, this, &HistorySidebar::activate);
    connect(m_view, &QListView::customContextMenuRequested, this, &HistorySidebar::showContextMenu);

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &HistorySidebar::runSearch);
    connect(m_searchField, &QLineEdit::textChanged, this, [this](const QString &text) {
        if (text.trimmed().isEmpty())
            clearSearch();
        else
            m_debounce.start();
    });
    connect(m_search, &SearchResultsModel::answered, this, [this] {
        showList(true);
        updatePlaceholder();
    });
    for (QAbstractItemModel *model : { static_cast<QAbstractItemModel *>(m_model),
             static_cast<QAbstractItemModel *>(m_search) }) {
        connect(model, &QAbstractItemModel::rowsInserted, this, &HistorySidebar::updatePlaceholder);
        connect(model, &QAbstractItemModel::rowsRemoved, this, &HistorySidebar::updatePlaceholder);
        connect(model, &QAbstractItemModel::modelReset, this, &HistorySidebar::updatePlaceholder);
    }
    connect(m_model, &ConversationListModel::pageLoaded, this, &HistorySidebar::updatePlaceholder);
    retranslate();
    setEnabled(false); // until there is a history to list
}

void HistorySidebar::setWriter(history::HistoryWriter *writer)
{
    m_writer = writer;
    m_search->setWriter(writer);
    m_model->setWriter(writer);
    setEnabled(writer != nullptr);
    updatePlaceholder();
}

void HistorySidebar::setOpenConversation(const QUuid &id)
{
    m_model->setOpenConversation(id);
    if (searching())
        return;
    const int row = m_model->rowOf(id);
    if (row >= 0)
        m_view->setCurrentIndex(m_model->index(row));
    else
        m_view->clearSelection();
}

void HistorySidebar::conversationStored(const QUuid &id)
{
    m_model->refresh(id);
}

void HistorySidebar::conversationUpdated(const QUuid &id)
{
    m_model->refresh(id);
}

void HistorySidebar::reload()
{
    m_model->reload();
    if (searching())
        runSearch();
}

void HistorySidebar::markUnread(const QUuid &id)
{
    m_model->markUnread(id);
}

void HistorySidebar::markRead(const QUuid &id)
{
    m_model->markRead(id);
}

QSize HistorySidebar::sizeHint() const
{
    const QSize hint = QWidget::sizeHint();
    return { std::max(hint.width(), fontMetrics().averageCharWidth() * 34), hint.height() };
}

void HistorySidebar::setSending(const QUuid &id, bool sending)
{
    m_model->setSending(id, sending);
}

void HistorySidebar::setParked(const QUuid &id, bool parked)
{
    m_model->setParked(id, parked);
}

void HistorySidebar::watchSelection()
{
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
        [this](const QModelIndex &current) {
            const QUuid id = current.data(ConversationListModel::IdRole).toUuid();
            if (!id.isNull())
                m_model->markRead(id);
        });
}

bool HistorySidebar::searching() const
{
    return m_view->model() == m_search;
}

QUuid HistorySidebar::currentId() const
{
    return m_view->currentIndex().data(ConversationListModel::IdRole).toUuid();
}

void HistorySidebar::activate(const QModelIndex &index)
{
    const QUuid id = index.data(ConversationListModel::IdRole).toUuid();
    if (!id.isNull())
        Q_EMIT conversationActivated(id);
}

void HistorySidebar::focusSearch()
{
    m_searchField->setFocus(Qt::ShortcutFocusReason);
    m_searchField->selectAll();
}

void HistorySidebar::clearSearch()
{
    m_debounce.stop();
    if (!m_searchField->text().isEmpty())
        m_searchField->clear(); // textChanged comes back here with an empty text
    m_search->clear();
    showList(false);
    setOpenConversation(m_model->openConversation());
    updatePlaceholder();
}

void HistorySidebar::runSearch()
{
    const QString text = m_searchField->text().trimmed();
    if (text.isEmpty())
        return;
    m_search->search(text);
}

void HistorySidebar::showList(bool searchResults)
{
    QAbstractItemModel *wanted = searchResults ? static_cast<QAbstractItemModel *>(m_search)
                                               : static_cast<QAbstractItemModel *>(m_model);
    if (m_view->model() != wanted) {
        m_view->setModel(wanted);
        watchSelection();
    }
    m_renameAction->setEnabled(!searchResults);
}

void HistorySidebar::renameCurrent()
{
    const QModelIndex index = m_view->currentIndex();
    if (index.isValid() && !searching())
        m_view->edit(index);
}

void HistorySidebar::deleteCurrent()
{
    const QModelIndex index = m_view->currentIndex();
    const QUuid id = index.data(ConversationListModel::IdRole).toUuid();
    if (id.isNull() || !m_writer || m_confirm)
        return;
    const QString title = index.data(ConversationListModel::TitleRole).toString();
    auto *box = new QMessageBox(QMessageBox::Question, tr("Delete conversation"),
        tr("Delete “%1” with its messages and retry log? This cannot be undone.").arg(title),
        QMessageBox::NoButton, window());
    box->setObjectName(u"deleteConversationBox"_s);
    box->addButton(tr("&Delete"), QMessageBox::DestructiveRole);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    m_confirm = box;
    connect(box, &QMessageBox::buttonClicked, this, [this, box, id](QAbstractButton *button) {
        if (box->buttonRole(button) != QMessageBox::DestructiveRole || !m_writer)
            return;
        m_writer->deleteConversation(id);
        m_model->removeConversation(id);
        if (searching())
            runSearch();
        Q_EMIT conversationDeleted(id);
    });
    box->open();
}

void HistorySidebar::showContextMenu(const QPoint &pos)
{
    const QModelIndex index = m_view->indexAt(pos);
    auto *menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    if (index.isValid()) {
        m_view->setCurrentIndex(index);
        menu->addAction(tr("&Open"), this, [this, index] { activate(index); });
        if (!searching())
            menu->addAction(m_renameAction);
        menu->addAction(m_deleteAction);
        menu->addSeparator();
    }
    menu->addAction(m_newAction);
    menu->popup(m_view->viewport()->mapToGlobal(pos));
}

void HistorySidebar::setOpening(bool opening)
{
    m_opening = opening;
    updatePlaceholder();
}

QString HistorySidebar::placeholderText() const
{
    return m_placeholder->isVisibleTo(this) ? m_placeholder->text() : QString();
}

void HistorySidebar::updatePlaceholder()
{
    QString text;
    if (!m_writer)
        text = m_opening ? tr("Opening the history…") : tr("History is off.");
    else if (searching() && m_search->rowCount() == 0)
        text = tr("No conversation contains “%1”.").arg(m_search->answeredQuery());
    else if (!searching() && m_model->rowCount() == 0 && !m_model->loading())
        text = tr("No conversations yet. They are kept here after you send a prompt.");
    m_placeholder->setText(text);
    m_placeholder->setVisible(!text.isEmpty());
}

bool HistorySidebar::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_searchField && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Escape && !m_searchField->text().isEmpty()) {
            clearSearch();
            return true; // not the window's Esc (cancel the send)
        }
        if (key->key() == Qt::Key_Down || key->key() == Qt::Key_Return
            || key->key() == Qt::Key_Enter) {
            m_view->setFocus();
            if (!m_view->currentIndex().isValid() && m_view->model()->rowCount() > 0)
                m_view->setCurrentIndex(m_view->model()->index(0, 0));
            if (key->key() != Qt::Key_Down)
                activate(m_view->currentIndex());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void HistorySidebar::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void HistorySidebar::retranslate()
{
    m_new->setText(tr("&New conversation"));
    m_new->setToolTip(tr("New conversation (%1)")
                          .arg(m_newAction->shortcut().toString(QKeySequence::NativeText)));
    m_new->setAccessibleDescription(
        tr("Start an empty conversation; the open one stays in the list"));
    m_newAction->setText(tr("&New conversation"));
    m_findAction->setText(tr("&Find in conversations"));
    m_renameAction->setText(tr("&Rename"));
    m_deleteAction->setText(tr("&Delete…"));
    m_searchField->setPlaceholderText(
        tr("Search conversations (%1)")
            .arg(m_findAction->shortcut().toString(QKeySequence::NativeText)));
    m_searchField->setAccessibleName(tr("Search conversations"));
    m_searchField->setAccessibleDescription(
        tr("Finds conversations by the words in their messages as you type; Esc shows all"));
    m_view->setAccessibleName(tr("Conversations"));
    m_view->setAccessibleDescription(tr("Stored conversations, newest first"));
    setAccessibleName(tr("Conversation history"));
    updatePlaceholder();
}

} // namespace capwatch::ui
