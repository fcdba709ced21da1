// HistoryStore and HistoryWriter: the provider profile of a conversation (schema v4, issue 17).

#include "historystore.h"
#include "historystore_p.h"
#include "historywriter.h"

#include <QSqlQuery>

namespace capwatch::history {

using namespace Qt::StringLiterals;
using namespace detail;

bool HistoryStore::setConversationProfile(const QUuid &id, const QString &profile)
{
    // Only the column: `updated` stays, so choosing another profile does not move the
    // conversation to the top of the sidebar.
    return write([&] {
        QSqlQuery q(m_db);
        q.prepare(u"UPDATE conversations SET profile = ? WHERE uuid = ?"_s);
        q.bindValue(0, nonNull(profile));
        q.bindValue(1, uuidText(id));
        if (!run(&q, u"set profile"_s))
            return false;
        return q.numRowsAffected() == 1 || fail(u"set profile"_s, u"no such conversation"_s);
    });
}

void HistoryWriter::setConversationProfile(const QUuid &id, const QString &profile)
{
    enqueueWrite(
        [id, profile](HistoryStore &store) { return store.setConversationProfile(id, profile); });
}

} // namespace capwatch::history
