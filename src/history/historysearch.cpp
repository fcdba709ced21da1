#include "historystore.h"
#include "historystore_p.h"

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
        // snippet is made in the same pass: a query per hit would look the words up again,
        // which for a short prefix costs a millisecond each.
        q.prepare(u"SELECT f.rowid, m.conversation_id, snippet(messages_fts, 0, '[', ']', '…', "
                  "%1) FROM messages_fts f JOIN messages m ON m.id = f.rowid "
                  "WHERE messages_fts MATCH ? ORDER BY f.rowid DESC"_s.arg(kSnippetTokens));
        q.bindValue(0, match);
    } else {
        words = text.simplified().split(u' ', Qt::SkipEmptyParts);
        if (words.isEmpty())
            return hits;
        QStringList conditions;
        for (qsizetype i = 0; i < words.size(); ++i)
            conditions.append(u"m.text LIKE ? ESCAPE '\\'"_s);
        q.prepare(u"SELECT m.id, m.conversation_id, m.text FROM messages m WHERE "_s
            + conditions.join(u" AND "_s) + u" ORDER BY m.id DESC"_s);
        for (qsizetype i = 0; i < words.size(); ++i)
            q.bindValue(int(i), likePattern(words.at(i)));
    }
    if (!run(&q, u"search"_s))
        return hits;
    struct Found
    {
        qint64 message;
        QString snippet;
    };
    QList<Found> found;
    QSet<qint64> seen;
    while (found.size() < limit && q.next()) {
        const qint64 conversation = q.value(1).toLongLong();
        if (seen.contains(conversation))
            continue;
        seen.insert(conversation);
        QString snippet = q.value(2).toString();
        if (!m_hasFts) {
            const qsizetype at = snippet.indexOf(words.front(), 0, Qt::CaseInsensitive);
            snippet = snippet.mid(std::max<qsizetype>(0, at - 40), 80 + words.front().size());
        }
        found.append({ q.value(0).toLongLong(), snippet });
    }
    q.finish();

    QSqlQuery details(m_db);
    details.prepare(u"SELECT c.uuid, c.title, m.uuid FROM messages m "
                    "JOIN conversations c ON c.id = m.conversation_id WHERE m.id = ?"_s);
    for (const Found &f : std::as_const(found)) {
        details.bindValue(0, f.message);
        if (!run(&details, u"search"_s) || !details.next())
            continue;
        hits.append({ QUuid::fromString(details.value(0).toString()), details.value(1).toString(),
            QUuid::fromString(details.value(2).toString()), f.snippet });
        details.finish();
    }
    return hits;
}

} // namespace capwatch::history
