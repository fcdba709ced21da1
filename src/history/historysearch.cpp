#include "historystore.h"
#include "historystore_p.h"
#include "schema.h"

#include <QHash>
#include <QSet>
#include <algorithm>

namespace capwatch::history {

using namespace Qt::StringLiterals;
using namespace detail;

namespace {

constexpr int kSnippetTokens = 12;

/// The words of a search box as an FTS5 query: each word a quoted string (so no input is FTS5
/// syntax), all required, the last one a prefix unless the text ends in a space.
QString ftsQuery(const QString &text)
{
    QStringList terms;
    const QStringList words = text.simplified().split(u' ', Qt::SkipEmptyParts);
    for (QString word : words) {
        if (std::none_of(word.cbegin(), word.cend(), [](QChar c) { return c.isLetterOrNumber(); }))
            continue;
        word.replace(u'"', u"\"\""_s);
        terms.append(u'"' + word + u'"');
    }
    // A prefix of one letter would gather most of the index; it waits for the second.
    if (!terms.isEmpty() && !text.isEmpty() && !text.back().isSpace() && terms.last().size() > 3)
        terms.last().append(u'*');
    return terms.join(u' ');
}

QString likePattern(const QString &word)
{
    QString escaped = word;
    escaped.replace(u'\\', u"\\\\"_s).replace(u'%', u"\\%"_s).replace(u'_', u"\\_"_s);
    return u'%' + escaped + u'%';
}

} // namespace

QList<SearchHit> HistoryStore::search(const QString &text, int limit)
{
    QList<SearchHit> hits;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    QString match;
    QStringList words;
    if (m_hasFts) {
        match = ftsQuery(text);
        if (match.isEmpty())
            return hits;
        // Newest matching message first: FTS5 walks its index backwards by rowid, so a common
        // word stops after the first `limit` conversations instead of ranking every match. The
        // walk reads no snippet: the messages of a conversation sit together in rowid order, so
        // for a common word it steps over thousands of rows of conversations already found, and
        // a snippet for each was most of the time (full scale, the commonest word: 69 ms with them,
        // 9 ms without).
        q.prepare(u"SELECT f.rowid, m.conversation_id FROM messages_fts f "
                  "JOIN messages m ON m.id = f.rowid "
                  "WHERE messages_fts MATCH ? AND m.state <> 'replaced' ORDER BY f.rowid DESC"_s);
        q.bindValue(0, match);
    } else {
        words = text.simplified().split(u' ', Qt::SkipEmptyParts);
        if (words.isEmpty())
            return hits;
        QStringList conditions { u"m.state <> 'replaced'"_s }; // not shown when opened
        for (qsizetype i = 0; i < words.size(); ++i)
            conditions.append(u"substr(m.text, 1, %1) LIKE ? ESCAPE '\\'"_s.arg(kSearchedChars));
        q.prepare(u"SELECT m.id, m.conversation_id FROM messages m WHERE "_s
            + conditions.join(u" AND "_s) + u" ORDER BY m.id DESC"_s);
        for (qsizetype i = 0; i < words.size(); ++i)
            q.bindValue(int(i), likePattern(words.at(i)));
    }
    if (!run(&q, u"search"_s))
        return hits;
    QList<qint64> found;
    QSet<qint64> seen;
    while (found.size() < limit && q.next()) {
        const qint64 conversation = q.value(1).toLongLong();
        if (seen.contains(conversation))
            continue;
        seen.insert(conversation);
        found.append(q.value(0).toLongLong());
    }
    q.finish();
    if (found.isEmpty())
        return hits;

    const QHash<qint64, QString> snippets
        = m_hasFts ? ftsSnippets(match, found) : QHash<qint64, QString>();
    QSqlQuery details(m_db);
    // The text only for a LIKE snippet, and only what was searched.
    details.prepare(u"SELECT c.uuid, c.title, m.uuid, %1 FROM messages m "
                    "JOIN conversations c ON c.id = m.conversation_id WHERE m.id = ?"_s.arg(
                        m_hasFts ? u"''"_s : u"substr(m.text, 1, %1)"_s.arg(kSearchedChars)));
    for (const qint64 message : std::as_const(found)) {
        details.bindValue(0, message);
        if (!run(&details, u"search"_s) || !details.next())
            continue;
        QString snippet;
        if (m_hasFts) {
            snippet = snippets.value(message);
        } else {
            const QString body = details.value(3).toString();
            const qsizetype at = body.indexOf(words.front(), 0, Qt::CaseInsensitive);
            snippet = body.mid(std::max<qsizetype>(0, at - 40), 80 + words.front().size());
        }
        hits.append({ QUuid::fromString(details.value(0).toString()), details.value(1).toString(),
            QUuid::fromString(details.value(2).toString()), snippet });
        details.finish();
    }
    return hits;
}

QHash<qint64, QString> HistoryStore::ftsSnippets(const QString &match, const QList<qint64> &rows)
{
    // One pass over the rowid range the walk covered, the snippet made only for the chosen rows:
    // the `+` keeps the IN list from FTS5, which would run the MATCH once per value (a query per
    // row measured 1-5 ms each, 250 ms for a prefix). FTS5 itself marks the words, so the
    // snippet follows its tokenizer (case, accents, prefixes) exactly.
    QHash<qint64, QString> out;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    QStringList placeholders(rows.size(), u"?"_s);
    q.prepare(u"SELECT rowid, snippet(messages_fts, 0, '[', ']', '…', %1) FROM messages_fts "
              "WHERE messages_fts MATCH ? AND rowid BETWEEN ? AND ? AND +rowid IN (%2)"_s
                  .arg(kSnippetTokens)
                  .arg(placeholders.join(u", "_s)));
    const auto [low, high] = std::minmax_element(rows.cbegin(), rows.cend());
    q.bindValue(0, match);
    q.bindValue(1, *low);
    q.bindValue(2, *high);
    for (qsizetype i = 0; i < rows.size(); ++i)
        q.bindValue(int(i) + 3, rows.at(i));
    if (!run(&q, u"search snippets"_s))
        return out;
    while (q.next())
        out.insert(q.value(0).toLongLong(), q.value(1).toString());
    return out;
}

} // namespace capwatch::history
