// The last window report of each provider and model (schema v3, docs/history.md): one row per
// (provider, model), replaced by the next report.

#include "historylogging.h"
#include "historystore.h"
#include "historystore_p.h"

#include <algorithm>

namespace capwatch::history {

using namespace Qt::StringLiterals;
using namespace detail;

namespace {

/// A time scale that can divide: a garbage, zero or negative one reads as 1.
double timeScaleOf(const QVariant &v)
{
    const std::optional<double> scale = realOf(v);
    return scale && *scale > 0 ? *scale : 1.0;
}

} // namespace

bool HistoryStore::saveProviderWindow(const ProviderWindowRecord &window)
{
    // A lane is "demo" or an endpoint; an endpoint is kept as a conversation's is, without what
    // can carry a key.
    QString provider = window.provider;
    if (const QString endpoint = storableEndpoint(provider); !endpoint.isEmpty())
        provider = endpoint;
    const QDateTime received = window.receivedAt.isValid() ? window.receivedAt : nowUtc();
    return write([&] {
        QSqlQuery *q = prepared(
            u"INSERT INTO provider_windows (provider, model, received_at_ms, tokens_reset_at_ms, "
            "requests_reset_at_ms, limit_tokens, remaining_tokens, limit_requests, "
            "remaining_requests, time_scale) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (provider, model) DO UPDATE SET "
            "received_at_ms = excluded.received_at_ms, "
            "tokens_reset_at_ms = excluded.tokens_reset_at_ms, "
            "requests_reset_at_ms = excluded.requests_reset_at_ms, "
            "limit_tokens = excluded.limit_tokens, remaining_tokens = excluded.remaining_tokens, "
            "limit_requests = excluded.limit_requests, "
            "remaining_requests = excluded.remaining_requests, "
            "time_scale = excluded.time_scale"_s);
        if (!q)
            return false;
        q->bindValue(0, nonNull(provider));
        q->bindValue(1, nonNull(window.model));
        q->bindValue(2, received.toMSecsSinceEpoch());
        q->bindValue(3, msOrNull(window.tokensResetAt));
        q->bindValue(4, msOrNull(window.requestsResetAt));
        q->bindValue(5, optional(window.limitTokens));
        q->bindValue(6, optional(window.remainingTokens));
        q->bindValue(7, optional(window.limitRequests));
        q->bindValue(8, optional(window.remainingRequests));
        q->bindValue(9, window.timeScale > 0 ? window.timeScale : 1.0);
        return run(q, u"save provider window"_s);
    });
}

QList<ProviderWindowRecord> HistoryStore::providerWindows() const
{
    QList<ProviderWindowRecord> out;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    // Sorted below: a hand-edited time (text sorts after every number in SQLite) goes last.
    if (!q.exec(
            u"SELECT provider, model, received_at_ms, tokens_reset_at_ms, "
            "requests_reset_at_ms, limit_tokens, remaining_tokens, limit_requests, "
            "remaining_requests, time_scale FROM provider_windows ORDER BY provider, model"_s)) {
        qCWarning(lcHistory).noquote() << "read provider windows:" << errorText(q.lastError());
        return out;
    }
    while (q.next()) {
        ProviderWindowRecord w;
        w.provider = q.value(0).toString();
        w.model = q.value(1).toString();
        w.receivedAt = strictTimeOf(q.value(2));
        w.tokensResetAt = strictTimeOf(q.value(3));
        w.requestsResetAt = strictTimeOf(q.value(4));
        w.limitTokens = integerOf(q.value(5));
        w.remainingTokens = integerOf(q.value(6));
        w.limitRequests = integerOf(q.value(7));
        w.remainingRequests = integerOf(q.value(8));
        w.timeScale = timeScaleOf(q.value(9));
        out.append(w);
    }
    std::stable_sort(out.begin(), out.end(), [](const auto &a, const auto &b) {
        if (a.receivedAt.isValid() != b.receivedAt.isValid())
            return a.receivedAt.isValid();
        return a.receivedAt > b.receivedAt;
    });
    return out;
}

} // namespace capwatch::history
