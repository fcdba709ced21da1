#pragma once

// The list of stored conversations left of the conversation: New conversation, a search field
// (Ctrl+F; as you type, Esc back to the list), rename (F2, in place) and delete (Del, confirmed
// by a window-modal box that is opened, never exec()'d). It only says what the user chose
// (conversationActivated, newConversationRequested); the window decides what opening means.

#include "history/historywriter.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

class QAction;
class QLabel;
class QLineEdit;
class QListView;
#include <QMessageBox>
class QPushButton;

namespace capwatch::ui {

class ConversationListModel;
class SearchResultsModel;

class HistorySidebar final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistorySidebar)

public:
    explicit HistorySidebar(QWidget *parent = nullptr);

    /// Null: nothing listed. The list's first page is read at once.
    void setWriter(history::HistoryWriter *writer);
    /// A history is being opened (on its writer's thread; a large file takes a second or more):
    /// the list says so until setWriter(), rather than "History is off.".
    void setOpening(bool opening);
    /// What the empty list says ("Opening the history…", "No conversations yet…"); empty when
    /// the list shows rows.
    QString placeholderText() const;
    history::HistoryWriter *writer() const { return m_writer; }
    /// Highlights `id` (null: none, a new conversation not stored yet).
    void setOpenConversation(const QUuid &id);

    /// The session's signals about what it stored: the row goes (or moves) to the top.
    void conversationStored(const QUuid &id);
    void conversationUpdated(const QUuid &id);
    /// Asks to delete the current row (Del): a confirmation, then deleteConversation().
    void deleteCurrent();
    void renameCurrent();
    /// Ctrl+F: focuses the search field.
    void focusSearch();
    /// Esc in the search field: clears it, back to the full list.
    void clearSearch();
    /// The list again from the first page (after retention or a clear).
    void reload();

    /// Marks a conversation unread (a dot before its bold title, "unread" for screen readers)
    /// until it is selected or opened here, or markRead(). Kept in memory only: a restart
    /// forgets it. The open conversation is never marked.
    void markUnread(const QUuid &id);
    void markRead(const QUuid &id);
    /// A clock on the conversation's row while it has a parked send ("parked send"): as the
    /// store says (Conversation::hasParked), or as set here until the row is read again.
    /// ConversationListModel::setSending().
    void setSending(const QUuid &id, bool sending);
    void setParked(const QUuid &id, bool parked);

    ConversationListModel *model() const { return m_model; }
    SearchResultsModel *searchModel() const { return m_search; }
    QListView *view() const { return m_view; }
    QLineEdit *searchField() const { return m_searchField; }
    QPushButton *newButton() const { return m_new; }
    QAction *newAction() const { return m_newAction; }
    /// The open deletion confirmation, if any (tests press its buttons).
    QMessageBox *confirmation() const { return m_confirm; }
    bool searching() const;
    /// Wide enough for a title of about thirty characters: shown once the history opens, the
    /// sidebar gets this width from the window's splitter.
    QSize sizeHint() const override;

Q_SIGNALS:
    void conversationActivated(const QUuid &id);
    void newConversationRequested();
    /// After the delete was queued.
    void conversationDeleted(const QUuid &id);

protected:
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void retranslate();
    void runSearch();
    void showList(bool searchResults);
    /// The view's selection model (a new one with every model): a row made current is read.
    void watchSelection();
    void activate(const QModelIndex &index);
    void showContextMenu(const QPoint &pos);
    void updatePlaceholder();
    QUuid currentId() const;

    history::HistoryWriter *m_writer = nullptr;
    ConversationListModel *m_model;
    SearchResultsModel *m_search;
    QLineEdit *m_searchField;
    QPushButton *m_new;
    QListView *m_view;
    QLabel *m_placeholder;
    bool m_opening = false;
    QAction *m_newAction;
    QAction *m_findAction;
    QAction *m_renameAction;
    QAction *m_deleteAction;
    QTimer m_debounce;
    QPointer<QMessageBox> m_confirm;
};

} // namespace capwatch::ui
