// The usage ledger (schema v8, docs/history.md): one row per attempt, appended when the attempt
// ended, read by `capwatch-cli usage`.

#include "historylogging.h"
#include "historystore.h"
#include "historystore_p.h"

#include <limits>

namespace capwatch::history {

using namespace Qt::StringLiterals;
using namespace detail;

namespace {

constexpr auto kUsageColumns
    = "time_ms, profile, endpoint, model, conversation_uuid, send_uuid, request, attempt, "
      "status, category, prompt_tokens, completion_tokens, cached_tokens, reasoning_tokens, "
      "estimated, cost, cost_source, currency, waited_ms, paced_ms, parked_ms, wait_source";

QString uuidOrEmpty(const QUuid &id)
{
    return id.isNull() ? u""_s : uuidText(id);
}

/// The row `q` is on, read with kUsageColumns.
UsageRecord usageRecordOf(const QSqlQuery &q)
{
    UsageRecord r;
    r.time = timeOf(q.value(0));
    r.profile = q.value(1).toString();
    r.endpoint = q.value(2).toString();
    r.model = q.value(3).toString();
    r.conversation = QUuid::fromString(q.value(4).toString());
    r.send = QUuid::fromString(q.value(5).toString());
    r.request = int(integerOf(q.value(6)).value_or(0));
    r.attempt = int(integerOf(q.value(7)).value_or(0));
    if (const std::optional<qint64> status = integerOf(q.value(8)))
        r.status = int(*status);
    r.category = q.value(9).toString();
    r.promptTokens = integerOf(q.value(10));
    r.completionTokens = integerOf(q.value(11));
    r.cachedTokens = integerOf(q.value(12));
    r.reasoningTokens = integerOf(q.value(13));
    r.estimated = integerOf(q.value(14)).value_or(0) != 0;
    r.cost = realOf(q.value(15));
    r.costSource = costSourceFromName(q.value(16).toString());
    r.currency = q.value(17).toString();
    r.waitedMs = integerOf(q.value(18)).value_or(0);
    r.pacedMs = integerOf(q.value(19)).value_or(0);
    r.parkedMs = integerOf(q.value(20)).value_or(0);
    r.waitSource = q.value(21).toString();
    return r;
}

} // namespace

bool HistoryStore::addUsage(const UsageRecord &record)
{
    QString endpoint = record.endpoint;
    if (const QString storable = storableEndpoint(endpoint); !storable.isEmpty())
        endpoint = storable;
    const QDateTime time = record.time.isValid() ? record.time : nowUtc();
    return write([&] {
        QSqlQuery *q = prepared(u"INSERT INTO usage ("_s + QLatin1StringView(kUsageColumns)
            + u") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s);
        if (!q)
            return false;
        q->bindValue(0, time.toMSecsSinceEpoch());
        q->bindValue(1, nonNull(record.profile));
        q->bindValue(2, nonNull(endpoint));
        q->bindValue(3, nonNull(record.model));
        q->bindValue(4, uuidOrEmpty(record.conversation));
        q->bindValue(5, uuidOrEmpty(record.send));
        q->bindValue(6, record.request);
        q->bindValue(7, record.attempt);
        q->bindValue(8, optional(record.status));
        q->bindValue(9, textOrNull(record.category));
        q->bindValue(10, optional(record.promptTokens));
        q->bindValue(11, optional(record.completionTokens));
        q->bindValue(12, optional(record.cachedTokens));
        q->bindValue(13, optional(record.reasoningTokens));
        q->bindValue(14, record.estimated ? 1 : 0);
        q->bindValue(15, optional(record.cost));
        q->bindValue(16, costSourceName(record.costSource));
        q->bindValue(17, textOrNull(record.currency));
        q->bindValue(18, record.waitedMs);
        q->bindValue(19, record.pacedMs);
        q->bindValue(20, record.parkedMs);
        q->bindValue(21, textOrNull(record.waitSource));
        return run(q, u"add usage"_s);
    });
}

bool HistoryStore::forEachUsage(const QDateTime &since, const QDateTime &until,
    const std::function<bool(const UsageRecord &)> &visit)
{
    if (!m_db.tables().contains(u"usage"_s))
        return true; // a database from before the ledger: no usage
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(u"SELECT "_s + QLatin1StringView(kUsageColumns)
        + u" FROM usage WHERE time_ms >= ? AND time_ms < ? ORDER BY time_ms, id"_s);
    q.bindValue(
        0, since.isValid() ? since.toMSecsSinceEpoch() : std::numeric_limits<qint64>::min());
    q.bindValue(
        1, until.isValid() ? until.toMSecsSinceEpoch() : std::numeric_limits<qint64>::max());
    if (!run(&q, u"read usage"_s))
        return false;
    while (q.next())
        if (!visit(usageRecordOf(q)))
            break;
    return true;
}

bool HistoryStore::forEachUsageAround(const QList<QUuid> &conversations, const QDateTime &since,
    const QDateTime &until, const std::function<bool(const UsageRecord &)> &visit)
{
    if (!m_db.tables().contains(u"usage"_s))
        return true;
    // Through the index by conversation (schema v9), a few hundred conversations a statement.
    constexpr qsizetype kChunk = 500;
    for (qsizetype at = 0; at < conversations.size(); at += kChunk) {
        const QList<QUuid> chunk = conversations.mid(at, kChunk);
        QStringList marks;
        marks.fill(u"?"_s, chunk.size());
        QSqlQuery q(m_db);
        q.setForwardOnly(true);
        q.prepare(u"SELECT "_s + QLatin1StringView(kUsageColumns)
            + u" FROM usage WHERE conversation_uuid IN ("_s + marks.join(u", "_s)
            + u") AND (time_ms < ? OR time_ms >= ?) ORDER BY time_ms, id"_s);
        int bound = 0;
        for (const QUuid &conversation : chunk)
            q.bindValue(bound++, uuidOrEmpty(conversation));
        q.bindValue(bound++,
            since.isValid() ? since.toMSecsSinceEpoch() : std::numeric_limits<qint64>::min());
        q.bindValue(bound,
            until.isValid() ? until.toMSecsSinceEpoch() : std::numeric_limits<qint64>::max());
        if (!run(&q, u"read usage"_s))
            return false;
        while (q.next())
            if (!visit(usageRecordOf(q)))
                return true;
    }
    return true;
}

QList<UsageTick> HistoryStore::usageTicks(qint64 afterId, qint64 sinceMs, int limit)
{
    QList<UsageTick> ticks;
    if (!m_db.tables().contains(u"usage"_s))
        return ticks;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(u"SELECT id, time_ms, profile, prompt_tokens, completion_tokens, cost, cost_source, "
              "currency, status, category FROM usage WHERE id > ? AND time_ms >= ? ORDER BY id "
              "LIMIT ?"_s);
    q.bindValue(0, afterId);
    q.bindValue(1, sinceMs);
    q.bindValue(2, limit);
    if (!run(&q, u"read usage ticks"_s))
        return ticks;
    while (q.next()) {
        UsageTick t;
        t.id = integerOf(q.value(0)).value_or(0);
        t.timeMs = integerOf(q.value(1)).value_or(0);
        t.profile = q.value(2).toString();
        t.tokens = integerOf(q.value(3)).value_or(0) + integerOf(q.value(4)).value_or(0);
        t.cost = realOf(q.value(5));
        t.costSource = costSourceFromName(q.value(6).toString());
        t.currency = q.value(7).toString();
        const std::optional<qint64> status = integerOf(q.value(8));
        t.answered = status && *status >= 200 && *status < 300 && q.value(9).toString().isEmpty();
        ticks.append(t);
    }
    return ticks;
}

CostTotal CostTotal::ofAttempt(std::optional<double> cost, CostSource source,
    const QString &currency, bool answered, qint64 tokens)
{
    CostTotal c;
    c.attempts = 1;
    c.tokens = tokens;
    if (cost && source == CostSource::Provider) {
        c.billed = *cost;
    } else if (cost) {
        c.estimated = *cost;
        c.currency = currency;
    } else if (answered) {
        c.unpriced = 1;
    }
    return c;
}

CostTotal &CostTotal::operator+=(const CostTotal &other)
{
    billed += other.billed;
    estimated += other.estimated;
    unpriced += other.unpriced;
    attempts += other.attempts;
    tokens += other.tokens;
    if (currency.isEmpty())
        currency = other.currency;
    return *this;
}

QHash<QUuid, CostTotal> HistoryStore::conversationCosts(const QUuid &conversation)
{
    QHash<QUuid, CostTotal> costs;
    if (!m_db.tables().contains(u"usage"_s))
        return costs;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(
        u"SELECT m.uuid, u.cost, u.cost_source, u.currency, u.prompt_tokens, "
        "u.completion_tokens, u.status FROM usage u "
        "LEFT JOIN sends s ON s.uuid = u.send_uuid LEFT JOIN messages m ON m.id = s.message_id "
        "WHERE u.conversation_uuid = ?"_s);
    q.bindValue(0, uuidText(conversation));
    if (!run(&q, u"read conversation costs"_s))
        return costs;
    while (q.next()) {
        const std::optional<qint64> status = integerOf(q.value(6));
        const CostTotal row
            = CostTotal::ofAttempt(realOf(q.value(1)), costSourceFromName(q.value(2).toString()),
                q.value(3).toString(), status && *status >= 200 && *status < 300,
                integerOf(q.value(4)).value_or(0) + integerOf(q.value(5)).value_or(0));
        const QUuid prompt = QUuid::fromString(q.value(0).toString());
        if (!prompt.isNull())
            costs[prompt] += row;
        costs[QUuid()] += row;
    }
    return costs;
}

qint64 HistoryStore::usageMaxId()
{
    if (!m_db.tables().contains(u"usage"_s))
        return 0;
    return count(u"SELECT coalesce(max(id), 0) FROM usage"_s, {});
}

qint64 HistoryStore::usageCount()
{
    if (!m_db.tables().contains(u"usage"_s))
        return 0;
    return count(u"SELECT count(*) FROM usage"_s, {});
}

} // namespace capwatch::history
