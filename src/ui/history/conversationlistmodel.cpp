#include "ui/history/conversationlistmodel.h"

#include "session/sendtexts.h"

#include <QFont>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

ConversationListModel::ConversationListModel(QObject *parent)
    : QAbstractListModel(parent)
{ }

void ConversationListModel::setWriter(history::HistoryWriter *writer)
{
    m_writer = writer;
    reload();
}

void ConversationListModel::reload()
{
    beginResetModel();
    m_rows.clear();
    m_ids.clear();
    m_parked.clear(); // the store's word, read again
    m_next = {};
    m_hasMore = m_writer != nullptr;
    m_loading = false;
    m_pagesRead = 0;
    ++m_generation;
    endResetModel();
    fetchMore();
}

void ConversationListModel::setProfileNames(
    const QHash<QString, QString> &names, const QString &defaultName)
{
    if (names == m_profileNames && defaultName == m_defaultProfileName)
        return;
    m_profileNames = names;
    m_defaultProfileName = defaultName;
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0), index(int(m_rows.size()) - 1),
            { ProfileNameRole, Qt::ToolTipRole, Qt::AccessibleTextRole });
}

QString ConversationListModel::profileOf(const QUuid &id) const
{
    for (const auto &c : m_rows) {
        if (c.id == id)
            return c.profile;
    }
    return {};
}

int ConversationListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QString ConversationListModel::marksText(
    bool retries, bool unanswered, bool parked, bool unread, bool sending)
{
    QStringList marks;
    if (unread)
        marks << tr("unread");
    if (sending)
        marks << tr("sending");
    if (parked)
        marks << tr("parked send");
    if (retries)
        marks << tr("had retries");
    if (unanswered)
        marks << tr("unanswered send");
    return marks.join(u", "_s);
}

QVariant ConversationListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const history::Conversation &c = m_rows.at(index.row());
    const QString title = c.title.isEmpty() ? tr("Untitled conversation") : c.title;
    const bool open = !m_open.isNull() && c.id == m_open;
    const bool unread = m_unread.contains(c.id);
    const bool parked = m_parked.value(c.id, c.hasParked);
    const bool sending = m_sending.contains(c.id);
    const QString profileName = m_profileNames.value(c.profile, m_defaultProfileName);
    switch (role) {
    case Qt::DisplayRole:
    case TitleRole:
        return title;
    case Qt::EditRole:
        return c.title;
    case IdRole:
        return c.id;
    case UpdatedRole:
        return c.updated;
    case ModelRole:
        return c.model;
    case HasRetriesRole:
        return c.hasRetries;
    case HasUnansweredRole:
        return c.hasUnanswered;
    case IsOpenRole:
        return open;
    case IsUnreadRole:
        return unread;
    case HasParkedRole:
        return parked;
    case IsSendingRole:
        return sending;
    case ProfileRole:
        return c.profile;
    case ProfileNameRole:
        return profileName;
    case Qt::ToolTipRole: {
        const QString marks = marksText(c.hasRetries, c.hasUnanswered, parked, unread, sending);
        QString tip = marks.isEmpty() ? title : title + u"\n"_s + marks;
        if (!profileName.isEmpty())
            tip += u"\n"_s + tr("Profile: %1").arg(profileName);
        if (const QString cost = session::SendTexts::cost(c.cost); !cost.isEmpty())
            tip += u"\n"_s + tr("Cost: %1").arg(cost);
        return tip;
    }
    case Qt::AccessibleTextRole: {
        const QString marks = marksText(c.hasRetries, c.hasUnanswered, parked, unread, sending);
        const QString date = QLocale().toString(c.updated.toLocalTime(), QLocale::ShortFormat);
        QString text = marks.isEmpty() ? tr("%1, %2").arg(title, date)
                                       : tr("%1, %2, %3").arg(title, date, marks);
        if (!profileName.isEmpty())
            text = tr("%1, profile %2").arg(text, profileName);
        return text;
    }
    case Qt::FontRole:
        if (open || unread) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    default:
        return {};
    }
}

bool ConversationListModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !m_writer
        || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    const QString title = value.toString().simplified();
    history::Conversation &c = m_rows[index.row()];
    if (title.isEmpty() || title == c.title)
        return false;
    c.title = title;
    m_writer->renameConversation(c.id, title);
    Q_EMIT dataChanged(index, index);
    return true;
}

Qt::ItemFlags ConversationListModel::flags(const QModelIndex &index) const
{
    const Qt::ItemFlags base = QAbstractListModel::flags(index);
    return index.isValid() ? base | Qt::ItemIsEditable | Qt::ItemNeverHasChildren : base;
}

bool ConversationListModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_writer && m_hasMore;
}

void ConversationListModel::fetchMore(const QModelIndex &parent)
{
    if (parent.isValid() || !m_writer || !m_hasMore || m_loading)
        return;
    m_loading = true;
    const quint64 generation = m_generation;
    const int limit = m_pageSize;
    const history::PageCursor after = m_next;
    m_writer->read(
        this,
        [limit, after](history::HistoryStore &store) { return store.conversations(limit, after); },
        [this, generation](history::ConversationPage page) {
            if (generation != m_generation)
                return; // reset meanwhile: its own first read is queued
            m_loading = false;
            ++m_pagesRead;
            m_next = page.next;
            m_hasMore = page.hasMore;
            QList<history::Conversation> fresh;
            for (history::Conversation &c : page.conversations) {
                if (!m_ids.contains(c.id))
                    fresh.append(std::move(c));
            }
            if (!fresh.isEmpty()) {
                const int first = int(m_rows.size());
                beginInsertRows({}, first, first + int(fresh.size()) - 1);
                for (history::Conversation &c : fresh) {
                    m_ids.insert(c.id);
                    m_rows.append(std::move(c));
                }
                endInsertRows();
            }
            Q_EMIT pageLoaded();
        });
}

int ConversationListModel::rowOf(const QUuid &id) const
{
    if (!m_ids.contains(id))
        return -1;
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).id == id)
            return int(i);
    }
    return -1;
}

void ConversationListModel::refresh(const QUuid &id)
{
    if (!m_writer || id.isNull())
        return;
    const quint64 generation = m_generation;
    m_writer->read(
        this, [id](history::HistoryStore &store) { return store.conversation(id); },
        [this, id, generation](std::optional<history::Conversation> conversation) {
            if (generation != m_generation)
                return;
            if (conversation)
                placeAtTop(*conversation);
            else
                removeConversation(id);
        });
}

void ConversationListModel::placeAtTop(const history::Conversation &conversation)
{
    m_parked.remove(conversation.id); // read after setParked()'s change was stored
    const int row = rowOf(conversation.id);
    if (row < 0) {
        beginInsertRows({}, 0, 0);
        m_rows.prepend(conversation);
        m_ids.insert(conversation.id);
        endInsertRows();
        return;
    }
    if (row > 0) {
        beginMoveRows({}, row, row, {}, 0);
        m_rows.move(row, 0);
        endMoveRows();
    }
    m_rows[0] = conversation;
    Q_EMIT dataChanged(index(0), index(0));
}

void ConversationListModel::removeConversation(const QUuid &id)
{
    m_unread.remove(id);
    m_parked.remove(id);
    const int row = rowOf(id);
    if (row < 0)
        return;
    beginRemoveRows({}, row, row);
    m_rows.removeAt(row);
    m_ids.remove(id);
    endRemoveRows();
}

void ConversationListModel::setOpenConversation(const QUuid &id)
{
    const QUuid before = m_open;
    m_open = id;
    m_unread.remove(id); // opened: read
    for (const QUuid &changed : { before, id })
        rowChanged(changed,
            { IsOpenRole, IsUnreadRole, Qt::FontRole, Qt::ToolTipRole, Qt::AccessibleTextRole });
}

void ConversationListModel::rowChanged(const QUuid &id, const QList<int> &roles)
{
    const int row = rowOf(id);
    if (row >= 0)
        Q_EMIT dataChanged(index(row), index(row), roles);
}

void ConversationListModel::markUnread(const QUuid &id)
{
    if (id.isNull() || id == m_open || m_unread.contains(id))
        return;
    m_unread.insert(id);
    rowChanged(id, { IsUnreadRole, Qt::FontRole, Qt::ToolTipRole, Qt::AccessibleTextRole });
}

void ConversationListModel::markRead(const QUuid &id)
{
    if (m_unread.remove(id))
        rowChanged(id, { IsUnreadRole, Qt::FontRole, Qt::ToolTipRole, Qt::AccessibleTextRole });
}

bool ConversationListModel::isParked(const QUuid &id) const
{
    if (const auto it = m_parked.constFind(id); it != m_parked.constEnd())
        return *it;
    const int row = rowOf(id);
    return row >= 0 && m_rows.at(row).hasParked;
}

void ConversationListModel::setParked(const QUuid &id, bool parked)
{
    if (id.isNull() || isParked(id) == parked)
        return;
    m_parked.insert(id, parked);
    rowChanged(id, { HasParkedRole, Qt::ToolTipRole, Qt::AccessibleTextRole });
}

void ConversationListModel::setSending(const QUuid &id, bool sending)
{
    if (id.isNull() || isSending(id) == sending)
        return;
    if (sending)
        m_sending.insert(id);
    else
        m_sending.remove(id);
    rowChanged(id, { IsSendingRole, Qt::ToolTipRole, Qt::AccessibleTextRole });
}

QHash<int, QByteArray> ConversationListModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(IdRole, "id");
    names.insert(TitleRole, "title");
    names.insert(UpdatedRole, "updated");
    names.insert(ModelRole, "model");
    names.insert(ProfileRole, "profile");
    names.insert(ProfileNameRole, "profileName");
    names.insert(HasRetriesRole, "hasRetries");
    names.insert(HasUnansweredRole, "hasUnanswered");
    names.insert(IsOpenRole, "isOpen");
    names.insert(IsUnreadRole, "isUnread");
    names.insert(HasParkedRole, "hasParked");
    names.insert(IsSendingRole, "isSending");
    return names;
}

} // namespace capwatch::ui
