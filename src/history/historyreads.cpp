#include "historylogging.h"
#include "historystore.h"
#include "historystore_p.h"

#include <limits>

namespace capwatch::history {

using namespace Qt::StringLiterals;
using namespace detail;

namespace {

std::optional<int> optionalInt(const QVariant &v)
{
    return v.isNull() ? std::nullopt : std::optional<int>(v.toInt());
}

std::optional<qint64> optionalMs(const QVariant &v)
{
    return v.isNull() ? std::nullopt : std::optional<qint64>(v.toLongLong());
}

std::optional<double> optionalDouble(const QVariant &v)
{
    return v.isNull() ? std::nullopt : std::optional<double>(v.toDouble());
}

const QString kRecordColumns
    = u"r.time_ms, r.request, r.event, r.attempt, r.status, r.category, r.used, r.token_limit, "
      "r.wait_ms, r.raw_wait_ms, r.wait_source, r.waited_total_ms, r.budget_left_ms, r.reason, "
      "r.error, r.reset_at_ms, r.window_tokens_left, r.window_reset_s, r.estimated_tokens, "
      "r.profile, r.fallback_to, r.answer_end"_s;

RetryRecord readRecord(const QSqlQuery &q, int first)
{
    RetryRecord r;
    r.time = timeOf(q.value(first));
    r.request = q.value(first + 1).toInt();
    r.event = q.value(first + 2).toString();
    r.attempt = q.value(first + 3).toInt();
    r.status = optionalInt(q.value(first + 4));
    r.category = categoryFromName(q.value(first + 5).toString());
    r.used = optionalDouble(q.value(first + 6));
    r.limit = optionalDouble(q.value(first + 7));
    r.waitMs = optionalMs(q.value(first + 8));
    r.rawWaitMs = optionalMs(q.value(first + 9));
    r.waitSource = waitSourceFromName(q.value(first + 10).toString());
    r.waitedTotalMs = optionalMs(q.value(first + 11));
    r.budgetLeftMs = optionalMs(q.value(first + 12));
    const QString reason = q.value(first + 13).toString();
    if (r.event == u"unparked"_s)
        r.unpark = reason;
    else
        r.reason = endReasonFromName(reason);
    r.error = q.value(first + 14).toString();
    r.resetAt = timeOf(q.value(first + 15));
    r.windowTokensLeft = integerOf(q.value(first + 16));
    r.windowResetS = realOf(q.value(first + 17));
    r.estimatedTokens = integerOf(q.value(first + 18));
    r.profile = q.value(first + 19).toString();
    r.fallbackTo = q.value(first + 20).toString();
    r.answerEnd = retry::answerEndFromName(q.value(first + 21).toString().toStdString());
    return r;
}

} // namespace

std::optional<Conversation> HistoryStore::conversation(const QUuid &id)
{
    const qint64 key = keyOf(u"conversations"_s, id);
    if (key == 0)
        return std::nullopt;
    const QList<Conversation> found = readConversations(u"c.id = ?"_s, { key }, 1);
    if (found.isEmpty())
        return std::nullopt;
    return found.front();
}

QList<Conversation> HistoryStore::readConversations(
    const QString &where, const QVariantList &values, int limit, QList<qint64> *keys)
{
    QList<Conversation> out;
    const bool hasUsage = m_db.tables().contains(u"usage"_s); // a database from before the ledger
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(u"SELECT c.id, c.uuid, c.title, c.endpoint, c.model, c.created_ms, c.updated_ms, "
              "c.has_retries, "
              // Unanswered: a send that did not succeed, whose prompt no later send answered
              // (a parked send or a fallback answers the same stored prompt) and was not
              // replaced by an edit or a regenerate.
              "EXISTS (SELECT 1 FROM sends s WHERE s.conversation_id = c.id AND "
              "(s.outcome IS NULL OR s.outcome <> 'succeeded') AND NOT EXISTS (SELECT 1 FROM "
              "sends t WHERE t.message_id = s.message_id AND t.outcome = 'succeeded') AND NOT "
              "EXISTS (SELECT 1 FROM messages m WHERE m.id = s.message_id AND m.state = "
              "'replaced')), "
              "EXISTS (SELECT 1 FROM parked_sends p WHERE p.conversation_id = c.id), c.profile"_s
        // What the ledger counted for it (by its index on the conversation): billed, estimated.
        + (hasUsage ? u", (SELECT total(u.cost) FROM usage u WHERE u.conversation_uuid = c.uuid "
                      "AND u.cost_source = 'provider'), (SELECT total(u.cost) FROM usage u WHERE "
                      "u.conversation_uuid = c.uuid AND u.cost_source <> 'provider')"_s
                    : QString())
        + u" FROM conversations c"_s + (where.isEmpty() ? QString() : u" WHERE "_s + where)
        + u" ORDER BY c.updated_ms DESC, c.id DESC LIMIT ?"_s);
    int i = 0;
    for (const QVariant &v : values)
        q.bindValue(i++, v);
    q.bindValue(i, limit);
    if (!run(&q, u"list conversations"_s))
        return out;
    while (q.next()) {
        Conversation c;
        if (keys)
            keys->append(q.value(0).toLongLong());
        c.id = QUuid::fromString(q.value(1).toString());
        c.title = q.value(2).toString();
        c.endpoint = q.value(3).toString();
        c.model = q.value(4).toString();
        c.created = timeOf(q.value(5));
        c.updated = timeOf(q.value(6));
        c.hasRetries = q.value(7).toBool();
        c.hasUnanswered = q.value(8).toBool();
        c.hasParked = q.value(9).toBool();
        c.profile = q.value(10).toString();
        if (hasUsage) {
            c.cost.billed = q.value(11).toDouble();
            c.cost.estimated = q.value(12).toDouble();
            if (c.cost.estimated > 0)
                c.cost.currency = u"USD"_s;
        }
        out.append(c);
    }
    return out;
}

ConversationPage HistoryStore::conversations(int limit, const PageCursor &after)
{
    ConversationPage page;
    QList<qint64> keys;
    // One row more than asked tells whether there is a next page.
    QList<Conversation> found = after.atStart
        ? readConversations({}, {}, limit + 1, &keys)
        : readConversations(
            u"(c.updated_ms, c.id) < (?, ?)"_s, { after.updatedMs, after.key }, limit + 1, &keys);
    page.hasMore = found.size() > limit;
    if (page.hasMore)
        found.removeLast();
    page.next = after;
    if (!found.isEmpty()) {
        page.next.atStart = false;
        page.next.updatedMs = found.back().updated.toMSecsSinceEpoch();
        page.next.key = keys.at(found.size() - 1);
    }
    page.conversations = std::move(found);
    return page;
}

qint64 HistoryStore::count(const QString &sql, const QVariantList &values)
{
    QSqlQuery q(m_db);
    q.prepare(sql);
    int i = 0;
    for (const QVariant &v : values)
        q.bindValue(i++, v);
    if (!run(&q, u"count"_s) || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

int HistoryStore::conversationCount()
{
    return int(count(u"SELECT count(*) FROM conversations"_s, {}));
}

int HistoryStore::messageCount(const QUuid &conversation)
{
    return int(count(u"SELECT count(*) FROM messages m JOIN conversations c ON c.id = "
                     "m.conversation_id WHERE c.uuid = ?"_s,
        { uuidText(conversation) }));
}

qint64 HistoryStore::retryRecordCount()
{
    return count(u"SELECT count(*) FROM retry_records"_s, {});
}

QList<Message> HistoryStore::readMessages(
    const QString &where, const QVariantList &values, int offset, int limit)
{
    QList<Message> out;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(
        u"SELECT m.uuid, c.uuid, m.role, m.text, m.state, m.created_ms, m.ended_ms, "
        "m.profile, m.prompt_tokens, m.completion_tokens, m.end_reason, m.seams FROM messages m "
        "JOIN conversations c ON c.id = m.conversation_id WHERE "_s
        + where + u" ORDER BY m.id LIMIT ? OFFSET ?"_s);
    int i = 0;
    for (const QVariant &v : values)
        q.bindValue(i++, v);
    q.bindValue(i++, limit);
    q.bindValue(i, offset);
    if (!run(&q, u"read messages"_s))
        return out;
    while (q.next()) {
        Message m;
        m.id = QUuid::fromString(q.value(0).toString());
        m.conversation = QUuid::fromString(q.value(1).toString());
        m.role = roleFromName(q.value(2).toString()).value_or(Role::User);
        m.text = q.value(3).toString();
        m.state = messageStateFromName(q.value(4).toString()).value_or(MessageState::Complete);
        m.created = timeOf(q.value(5));
        m.ended = timeOf(q.value(6));
        m.profile = q.value(7).toString();
        if (!q.value(8).isNull())
            m.promptTokens = q.value(8).toLongLong();
        if (!q.value(9).isNull())
            m.completionTokens = q.value(9).toLongLong();
        m.end = retry::answerEndFromName(q.value(10).toString().toStdString());
        m.seams = seamsFromText(q.value(11).toString());
        out.append(m);
    }
    return out;
}

QList<Message> HistoryStore::messages(const QUuid &conversation, int offset, int limit)
{
    const qint64 key = keyOf(u"conversations"_s, conversation);
    if (key == 0)
        return {};
    return readMessages(u"m.conversation_id = ?"_s, { key }, offset, limit < 0 ? -1 : limit);
}

std::optional<Message> HistoryStore::message(const QUuid &id)
{
    const QList<Message> found = readMessages(u"m.uuid = ?"_s, { uuidText(id) }, 0, 1);
    if (found.isEmpty())
        return std::nullopt;
    return found.front();
}

QList<Send> HistoryStore::sends(const QUuid &conversation)
{
    QList<Send> out;
    const qint64 key = keyOf(u"conversations"_s, conversation);
    if (key == 0)
        return out;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(u"SELECT s.uuid, m.uuid, s.outcome, s.reason, s.attempts, s.waited_ms, "
              "s.started_ms, s.ended_ms FROM sends s LEFT JOIN messages m ON m.id = s.message_id "
              "WHERE s.conversation_id = ? ORDER BY s.id"_s);
    q.bindValue(0, key);
    if (!run(&q, u"read sends"_s))
        return out;
    while (q.next()) {
        Send s;
        s.id = QUuid::fromString(q.value(0).toString());
        s.conversation = conversation;
        s.message = QUuid::fromString(q.value(1).toString());
        s.outcome = sendOutcomeFromName(q.value(2).toString()).value_or(SendOutcome::Running);
        s.reason = endReasonFromName(q.value(3).toString());
        s.attempts = q.value(4).toInt();
        s.waitedMs = q.value(5).toLongLong();
        s.started = timeOf(q.value(6));
        s.ended = timeOf(q.value(7));
        out.append(s);
    }
    return out;
}

QList<StoredRetryRecord> HistoryStore::retryRecords(const QUuid &conversation)
{
    QList<StoredRetryRecord> out;
    const qint64 key = keyOf(u"conversations"_s, conversation);
    if (key == 0)
        return out;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(u"SELECT s.uuid, "_s + kRecordColumns
        + u" FROM retry_records r JOIN sends s ON s.id = r.send_id "
          "WHERE s.conversation_id = ? ORDER BY r.id"_s);
    q.bindValue(0, key);
    if (!run(&q, u"read retry records"_s))
        return out;
    while (q.next())
        out.append({ conversation, QUuid::fromString(q.value(0).toString()), readRecord(q, 1) });
    return out;
}

bool HistoryStore::forEachRetryRecord(const QDateTime &since, const QDateTime &until,
    const std::function<bool(const StoredRetryRecord &)> &visit)
{
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(u"SELECT c.uuid, s.uuid, "_s + kRecordColumns
        + u" FROM retry_records r JOIN sends s ON s.id = r.send_id "
          "JOIN conversations c ON c.id = s.conversation_id "
          "WHERE r.time_ms >= ? AND r.time_ms < ? ORDER BY r.time_ms, r.id"_s);
    q.bindValue(
        0, since.isValid() ? since.toMSecsSinceEpoch() : std::numeric_limits<qint64>::min());
    q.bindValue(
        1, until.isValid() ? until.toMSecsSinceEpoch() : std::numeric_limits<qint64>::max());
    if (!run(&q, u"export retry records"_s))
        return false;
    while (q.next()) {
        const StoredRetryRecord r { QUuid::fromString(q.value(0).toString()),
            QUuid::fromString(q.value(1).toString()), readRecord(q, 2) };
        if (!visit(r))
            break;
    }
    return true;
}

QList<ParkedSend> HistoryStore::parkedSends() const
{
    QList<ParkedSend> out;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    // Left joins, so a row whose conversation or message is missing (a file written without
    // foreign keys) is seen and reported rather than silently dropped.
    q.prepare(u"SELECT p.uuid, c.uuid, m.uuid, s.uuid, p.provider, p.model, p.options, "
              "p.parked_at_ms, p.due_at_ms, p.reset_at_ms, p.parks_in_a_row, m.text, c.title "
              "FROM parked_sends p LEFT JOIN conversations c ON c.id = p.conversation_id "
              "LEFT JOIN messages m ON m.id = p.message_id LEFT JOIN sends s ON s.id = p.send_id "
              "ORDER BY p.due_at_ms, p.parked_at_ms, p.id"_s);
    if (!q.exec()) {
        qCWarning(lcHistory).noquote() << "read parked sends:" << errorText(q.lastError());
        return out;
    }
    while (q.next()) {
        ParkedSend p;
        p.id = QUuid::fromString(q.value(0).toString());
        p.conversation = QUuid::fromString(q.value(1).toString());
        p.message = QUuid::fromString(q.value(2).toString());
        const QString unreadable = p.id.isNull() ? u"not an id"_s
            : p.conversation.isNull()            ? u"no such conversation"_s
            : p.message.isNull()                 ? u"no such message"_s
                                                 : QString();
        if (!unreadable.isEmpty()) {
            qCWarning(lcHistory).noquote()
                << u"read parked sends: left out %1: %2"_s.arg(q.value(0).toString(), unreadable);
            continue;
        }
        p.send = QUuid::fromString(q.value(3).toString());
        p.provider = q.value(4).toString();
        p.model = q.value(5).toString();
        p.options = q.value(6).toString();
        p.parkedAt = timeOf(q.value(7));
        p.dueAt = timeOf(q.value(8));
        p.resetAt = timeOf(q.value(9));
        p.parksInARow = q.value(10).toInt();
        p.prompt = q.value(11).toString();
        p.title = q.value(12).toString();
        out.append(p);
    }
    return out;
}

} // namespace capwatch::history
