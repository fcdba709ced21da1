#include "historystore.h"

#include "historylogging.h"
#include "historystore_p.h"

#include <QStandardPaths>
#include <QUrl>

namespace capwatch::history {

using namespace Qt::StringLiterals;
using namespace detail;

namespace {

constexpr int kTitleWords = 8;
constexpr int kTitleChars = 60;

} // namespace

HistoryStore::HistoryStore() = default;

HistoryStore::~HistoryStore()
{
    close();
}

QString HistoryStore::defaultPath()
{
    // Not AppDataLocation: it holds the application name, and the window (capwatch) and
    // capwatch-cli must share one file.
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
        + u"/capwatch/history.sqlite"_s;
}

int HistoryStore::latestVersion()
{
    return schemaMigrations().back().version;
}

void HistoryStore::close()
{
    m_statements.reset();
    if (m_db.isValid())
        m_db.close();
    m_db = QSqlDatabase();
    if (!m_connection.isEmpty())
        QSqlDatabase::removeDatabase(m_connection);
    m_connection.clear();
    m_persistent = false;
    m_hasFts = false;
    m_inTransaction = false;
    m_path.clear();
}

bool HistoryStore::isOpen() const
{
    return m_db.isOpen();
}

bool HistoryStore::fail(const QString &context, const QString &error)
{
    m_lastError = context + u": "_s + error;
    qCWarning(lcHistory).noquote() << m_lastError;
    return false;
}

QSqlQuery *HistoryStore::prepared(const QString &sql)
{
    if (!m_statements)
        return nullptr;
    auto it = m_statements->cache.find(sql);
    if (it == m_statements->cache.end()) {
        QSqlQuery q(m_db);
        if (!q.prepare(sql)) {
            fail(u"prepare"_s, errorText(q.lastError()));
            return nullptr;
        }
        it = m_statements->cache.insert(sql, q);
    }
    return &it.value();
}

bool HistoryStore::run(QSqlQuery *q, const QString &context)
{
    if (!q)
        return false;
    if (!q->exec())
        return fail(context, errorText(q->lastError()));
    return true;
}

qint64 HistoryStore::keyOf(const QString &table, const QUuid &id)
{
    QSqlQuery *q = prepared(u"SELECT id FROM %1 WHERE uuid = ?"_s.arg(table));
    if (!q)
        return 0;
    q->bindValue(0, uuidText(id));
    qint64 key = 0;
    if (run(q, u"look up"_s) && q->next())
        key = q->value(0).toLongLong();
    q->finish();
    if (key == 0 && m_lastError.isEmpty())
        m_lastError = u"no such %1: %2"_s.arg(table, uuidText(id));
    return key;
}

QString HistoryStore::integrityCheck()
{
    QSqlQuery q(m_db);
    if (!q.exec(u"PRAGMA integrity_check"_s))
        return errorText(q.lastError());
    QStringList lines;
    while (q.next())
        lines.append(q.value(0).toString());
    return lines.join(u'\n');
}

QString HistoryStore::titleFor(const QString &prompt)
{
    const QStringList words = prompt.simplified().split(u' ', Qt::SkipEmptyParts);
    QString title = words.mid(0, kTitleWords).join(u' ');
    bool cut = words.size() > kTitleWords;
    if (title.size() > kTitleChars) {
        title.truncate(kTitleChars);
        cut = true;
    }
    return cut ? title + u'…' : title;
}

QString HistoryStore::storableEndpoint(const QString &endpoint)
{
    const QUrl url(endpoint.trimmed());
    if (!url.isValid() || url.host().isEmpty())
        return {};
    return url.adjusted(QUrl::RemoveUserInfo | QUrl::RemoveQuery | QUrl::RemoveFragment).toString();
}

} // namespace capwatch::history
