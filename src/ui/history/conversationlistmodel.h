#pragma once

// The sidebar's list of stored conversations, newest first. It holds only the pages read so far:
// the first page is read (asynchronously, on the writer's thread) when the history is set, the
// next one when the view scrolls near the end (canFetchMore/fetchMore), so memory follows what
// was looked at, not what is stored. Never two reads in flight; a read that answers after a
// reset is dropped.
//
// The unread mark is the window's, not the store's, kept in memory only (by id, so it survives
// paging, moving to the top and a reload, not a restart): something happened in a conversation
// not open, e.g. its parked send went out. The parked mark (a send waits for its provider's reset,
// docs/parking.md) is the store's Conversation::hasParked, until setParked() says otherwise
// before the store does; the next read of that row is the store's word again.

#include "history/historywriter.h"

#include <QAbstractListModel>
#include <QHash>
#include <QSet>

namespace capwatch::ui {

class ConversationListModel final : public QAbstractListModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConversationListModel)

public:
    enum Role
    {
        IdRole = Qt::UserRole + 1,
        TitleRole,
        UpdatedRole,
        ModelRole,
        HasRetriesRole,
        HasUnansweredRole,
        SnippetRole, ///< search results only: the matched words between [ and ]
        IsOpenRole,
        IsUnreadRole,
        HasParkedRole,
        ProfileRole, ///< the id of the conversation's profile (history::Conversation::profile)
        ProfileNameRole, ///< its name (setProfileNames()); empty when it has none
        IsSendingRole, ///< a send of it goes on while another conversation is shown
    };

    explicit ConversationListModel(QObject *parent = nullptr);

    /// Null: an empty list. Else reads the first page.
    void setWriter(history::HistoryWriter *writer);
    /// Drops every row and reads the first page again (after retention or a clear).
    void reload();
    void setPageSize(int size) { m_pageSize = size; }
    int pageSize() const { return m_pageSize; }
    /// Pages read so far, for tests.
    int pagesRead() const { return m_pagesRead; }
    bool loading() const { return m_loading; }

    /// Re-reads one conversation and puts it at the top (new or updated), or removes it when
    /// it is gone from the store.
    void refresh(const QUuid &id);
    void removeConversation(const QUuid &id);
    /// The one shown bold (the open conversation); null: none.
    void setOpenConversation(const QUuid &id);
    QUuid openConversation() const { return m_open; }
    int rowOf(const QUuid &id) const;

    /// Marks `id` unread (a dot and a bold title) until markRead() or until it is opened
    /// (setOpenConversation()). The open conversation is in front of the user: never marked.
    void markUnread(const QUuid &id);
    void markRead(const QUuid &id);
    bool isUnread(const QUuid &id) const { return m_unread.contains(id); }
    /// Marks `id` as having a parked send (a clock), or not, until its row is read again.
    void setParked(const QUuid &id, bool parked);
    bool isParked(const QUuid &id) const;
    /// Marks `id` as having a send in flight while another conversation is shown (an arrow),
    /// or not (session::BackgroundSends).
    void setSending(const QUuid &id, bool sending);
    bool isSending(const QUuid &id) const { return m_sending.contains(id); }

    /// The names of the profiles by id (issue 17): a row shows its profile's name in its
    /// tooltip and accessible text. A conversation without one, or with an id not listed,
    /// belongs to `defaultName`'s profile (empty: it shows none).
    void setProfileNames(const QHash<QString, QString> &names, const QString &defaultName = {});
    /// The profile id stored with `id` (empty: none, or not listed).
    QString profileOf(const QUuid &id) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool canFetchMore(const QModelIndex &parent = {}) const override;
    void fetchMore(const QModelIndex &parent = {}) override;
    QHash<int, QByteArray> roleNames() const override;

    /// Accessible text and tooltip of a row's marks ("unread", "sending", "parked send", "had
    /// retries", "unanswered send").
    static QString marksText(bool retries, bool unanswered, bool parked = false,
        bool unread = false, bool sending = false);

Q_SIGNALS:
    /// A page (the first one after setWriter() or reload() included) was added.
    void pageLoaded();

private:
    void placeAtTop(const history::Conversation &conversation);
    void rowChanged(const QUuid &id, const QList<int> &roles);

    history::HistoryWriter *m_writer = nullptr;
    QList<history::Conversation> m_rows;
    QSet<QUuid> m_ids; ///< of m_rows: a page read after a row moved up does not repeat it
    history::PageCursor m_next;
    bool m_hasMore = false;
    bool m_loading = false;
    quint64 m_generation = 0; ///< bumped on reset: an older page's answer is dropped
    int m_pageSize = 100;
    int m_pagesRead = 0;
    QUuid m_open;
    QSet<QUuid> m_unread; ///< in memory only, see above
    QHash<QUuid, bool> m_parked; ///< setParked() ahead of the store's hasParked
    QSet<QUuid> m_sending; ///< setSending()
    QHash<QString, QString> m_profileNames;
    QString m_defaultProfileName;
};

} // namespace capwatch::ui
