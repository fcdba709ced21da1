#pragma once

// The sidebar's search results: conversations whose messages hold the words typed, each with a
// snippet. The store answers on the writer's thread; only the latest query's answer is shown.

#include "history/historywriter.h"

#include <QAbstractListModel>

namespace capwatch::ui {

class SearchResultsModel final : public QAbstractListModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SearchResultsModel)

public:
    explicit SearchResultsModel(QObject *parent = nullptr);

    void setWriter(history::HistoryWriter *writer) { m_writer = writer; }
    /// Queues the query; an answer to an older one is dropped when it comes.
    void search(const QString &text);
    void clear();
    QString query() const { return m_query; }
    /// The query whose answer is shown.
    QString answeredQuery() const { return m_answered; }
    /// "Some [matched] words" as rich text: the matched words bold, the rest escaped.
    static QString snippetHtml(const QString &snippet);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    /// The latest query was answered (rows replaced).
    void answered(const QString &query);

private:
    history::HistoryWriter *m_writer = nullptr;
    QList<history::SearchHit> m_hits;
    QString m_query;
    QString m_answered;
    quint64 m_serial = 0;
};

} // namespace capwatch::ui
