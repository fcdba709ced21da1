// HistoryStore and HistoryWriter: the provider profile of a conversation (schema v4, issue 17).

#include "historystore.h"
#include "historywriter.h"

namespace capwatch::history {

// --- contract stubs: the history's owner replaces these (issue 17) ---

bool HistoryStore::setConversationProfile(const QUuid &, const QString &)
{
    return true;
}

void HistoryWriter::setConversationProfile(const QUuid &id, const QString &profile)
{
    enqueueWrite(
        [id, profile](HistoryStore &store) { return store.setConversationProfile(id, profile); });
}

} // namespace capwatch::history
