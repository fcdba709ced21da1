#include "ui/history/searchresultsmodel.h"

#include "ui/history/conversationlistmodel.h"

namespace capwatch::ui {

using namespace Qt::StringLiterals;

SearchResultsModel::SearchResultsModel(QObject *parent)
    : QAbstractListModel(parent)
{ }

void SearchResultsModel::search(const QString &text)
{
    m_query = text;
    const quint64 serial = ++m_serial;
    if (!m_writer)
        return;
    m_writer->read(
        this, [text](history::HistoryStore &store) { return store.search(text); },
        [this, serial, text](QList<history::SearchHit> hits) {
            if (serial != m_serial)
                return; // a newer query was typed meanwhile: its answer comes later
            beginResetModel();
            m_hits = std::move(hits);
            m_answered = text;
            endResetModel();
            Q_EMIT answered(text);
        });
}

void SearchResultsModel::clear()
{
    ++m_serial;
    m_query.clear();
    m_answered.clear();
    beginResetModel();
    m_hits.clear();
    endResetModel();
}

QString SearchResultsModel::snippetHtml(const QString &snippet)
{
    QString html;
    html.reserve(snippet.size() + 16);
    bool bold = false;
    for (const QChar c : snippet) {
        if (c == u'[' && !bold) {
            html += u"<b>"_s;
            bold = true;
        } else if (c == u']' && bold) {
            html += u"</b>"_s;
            bold = false;
        } else if (c == u'<') {
            html += u"&lt;"_s;
        } else if (c == u'>') {
            html += u"&gt;"_s;
        } else if (c == u'&') {
            html += u"&amp;"_s;
        } else if (c == u'\n') {
            html += u' ';
        } else {
            html += c;
        }
    }
    if (bold)
        html += u"</b>"_s;
    return html;
}

int SearchResultsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_hits.size());
}

QVariant SearchResultsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const history::SearchHit &hit = m_hits.at(index.row());
    const QString title = hit.title.isEmpty() ? tr("Untitled conversation") : hit.title;
    QString plain = hit.snippet;
    plain.remove(u'[').remove(u']');
    switch (role) {
    case Qt::DisplayRole:
    case ConversationListModel::TitleRole:
        return title;
    case ConversationListModel::IdRole:
        return hit.conversation;
    case ConversationListModel::SnippetRole:
        return hit.snippet;
    case Qt::ToolTipRole:
        return plain;
    case Qt::AccessibleTextRole:
        return tr("%1: %2").arg(title, plain);
    default:
        return {};
    }
}

} // namespace capwatch::ui
