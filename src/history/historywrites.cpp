#include "historylogging.h"
#include "historystore.h"
#include "historystore_p.h"

namespace capwatch::history {

using namespace Qt::StringLiterals;
using namespace detail;

bool HistoryStore::begin()
{
    if (m_inTransaction)
        return fail(u"begin"_s, u"a transaction is open"_s);
    QSqlQuery q(m_db);
    if (!q.exec(u"BEGIN IMMEDIATE"_s))
        return fail(u"begin"_s, errorText(q.lastError()));
    m_inTransaction = true;
    return true;
}

bool HistoryStore::commit()
{
    if (!m_inTransaction)
        return fail(u"commit"_s, u"no transaction is open"_s);
    QSqlQuery q(m_db);
    m_inTransaction = false;
    if (!q.exec(u"COMMIT"_s)) {
        const QString error = errorText(q.lastError());
        q.exec(u"ROLLBACK"_s);
        return fail(u"commit"_s, error);
    }
    return true;
}

void HistoryStore::rollback()
{
    if (!m_inTransaction)
        return;
    m_inTransaction = false;
    QSqlQuery q(m_db);
    q.exec(u"ROLLBACK"_s);
}

bool HistoryStore::write(const std::function<bool()> &work)
{
    if (!isOpen())
        return fail(u"write"_s, u"the history is not open"_s);
    m_lastError.clear();
    if (m_inTransaction)
        return work();
    if (!begin())
        return false;
    if (!work()) {
        rollback();
        return false;
    }
    return commit();
}

bool HistoryStore::addConversation(Conversation &c)
{
    if (c.id.isNull())
        c.id = QUuid::createUuid();
    if (!c.created.isValid())
        c.created = nowUtc();
    if (!c.updated.isValid())
        c.updated = c.created;
    c.endpoint = storableEndpoint(c.endpoint);
    return write([&] {
        // The profile column only when there is one: a conversation without a profile is
        // stored as before schema v4 (the column's default), so older files still take it.
        QSqlQuery *q = prepared(c.profile.isEmpty()
                ? u"INSERT INTO conversations (uuid, title, endpoint, model, created_ms, "
                  "updated_ms) VALUES (?, ?, ?, ?, ?, ?)"_s
                : u"INSERT INTO conversations (uuid, title, endpoint, model, created_ms, "
                  "updated_ms, profile) VALUES (?, ?, ?, ?, ?, ?, ?)"_s);
        if (!q)
            return false;
        q->bindValue(0, uuidText(c.id));
        q->bindValue(1, nonNull(c.title));
        q->bindValue(2, nonNull(c.endpoint));
        q->bindValue(3, nonNull(c.model));
        q->bindValue(4, c.created.toMSecsSinceEpoch());
        q->bindValue(5, c.updated.toMSecsSinceEpoch());
        if (!c.profile.isEmpty())
            q->bindValue(6, c.profile);
        return run(q, u"add conversation"_s);
    });
}

bool HistoryStore::renameConversation(const QUuid &id, const QString &title)
{
    return write([&] {
        QSqlQuery q(m_db);
        q.prepare(u"UPDATE conversations SET title = ? WHERE uuid = ?"_s);
        q.bindValue(0, nonNull(title.simplified()));
        q.bindValue(1, uuidText(id));
        if (!run(&q, u"rename"_s))
            return false;
        return q.numRowsAffected() == 1 || fail(u"rename"_s, u"no such conversation"_s);
    });
}

bool HistoryStore::deleteConversation(const QUuid &id)
{
    return write([&] {
        QSqlQuery q(m_db);
        q.prepare(u"DELETE FROM conversations WHERE uuid = ?"_s);
        q.bindValue(0, uuidText(id));
        if (!run(&q, u"delete"_s))
            return false;
        return q.numRowsAffected() == 1 || fail(u"delete"_s, u"no such conversation"_s);
    });
}

bool HistoryStore::touch(qint64 conversationKey, const QDateTime &when, const QString &title)
{
    QSqlQuery *q = prepared(u"UPDATE conversations SET updated_ms = max(updated_ms, ?), "
                            "title = CASE WHEN title = '' THEN ? ELSE title END WHERE id = ?"_s);
    if (!q)
        return false;
    q->bindValue(0, when.toMSecsSinceEpoch());
    q->bindValue(1, nonNull(title));
    q->bindValue(2, conversationKey);
    return run(q, u"update conversation"_s);
}

bool HistoryStore::addMessage(Message &m)
{
    if (m.id.isNull())
        m.id = QUuid::createUuid();
    if (!m.created.isValid())
        m.created = nowUtc();
    if (m.state != MessageState::Pending && !m.ended.isValid())
        m.ended = m.created;
    return write([&] {
        const qint64 conversation = keyOf(u"conversations"_s, m.conversation);
        if (conversation == 0)
            return fail(u"add message"_s, m_lastError);
        // As for a conversation: the profile column only when the message has one.
        QSqlQuery *q = prepared(m.profile.isEmpty()
                ? u"INSERT INTO messages (uuid, conversation_id, role, text, state, created_ms, "
                  "ended_ms) VALUES (?, ?, ?, ?, ?, ?, ?)"_s
                : u"INSERT INTO messages (uuid, conversation_id, role, text, state, created_ms, "
                  "ended_ms, profile) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"_s);
        // How an answer ended goes with it when it is stored at once (an empty answer).
        const bool withEnding = m.end != retry::AnswerEnd::None || !m.seams.isEmpty();
        if (!q)
            return false;
        q->bindValue(0, uuidText(m.id));
        q->bindValue(1, conversation);
        q->bindValue(2, nameOf(m.role));
        q->bindValue(3, nonNull(m.text));
        q->bindValue(4, nameOf(m.state));
        q->bindValue(5, m.created.toMSecsSinceEpoch());
        q->bindValue(6, msOrNull(m.ended));
        if (!m.profile.isEmpty())
            q->bindValue(7, m.profile);
        if (!run(q, u"add message"_s))
            return false;
        if (withEnding) {
            QSqlQuery *e
                = prepared(u"UPDATE messages SET end_reason = ?, seams = ? WHERE uuid = ?"_s);
            if (!e)
                return false;
            e->bindValue(0, textOrNull(nameText(retry::nameOf(m.end))));
            e->bindValue(1, textOrNull(seamsText(m.seams)));
            e->bindValue(2, uuidText(m.id));
            if (!run(e, u"add message"_s))
                return false;
        }
        return touch(conversation, m.created, m.role == Role::User ? titleFor(m.text) : QString());
    });
}

bool HistoryStore::finishMessage(const QUuid &id, QString text, MessageState state,
    const QDateTime &ended, const std::optional<MessageUsage> &usage, const AnswerEnding &ending)
{
    const QDateTime when = ended.isValid() ? ended : nowUtc();
    const auto orNull = [](std::optional<qint64> v) { return v ? QVariant(*v) : QVariant(); };
    // Bound as bytes (a blob) and made text again by the CAST, in the database's encoding,
    // UTF-8: SQLite does not translate it from UTF-16 (a second copy, in a 4 MB buffer for a
    // 1,000,000-character answer). Never null: the column is NOT NULL.
    QByteArray utf8 = text.toUtf8();
    if (utf8.isNull())
        utf8 = QByteArray("");
    text = QString();
    return write([&] {
        QSqlQuery q(m_db);
        q.prepare(usage ? u"UPDATE messages SET text = CAST(? AS TEXT), state = ?, ended_ms = ?, "
                          "end_reason = ?, seams = ?, prompt_tokens = ?, completion_tokens = ? "
                          "WHERE uuid = ? RETURNING conversation_id"_s
                        : u"UPDATE messages SET text = CAST(? AS TEXT), state = ?, ended_ms = ?, "
                          "end_reason = ?, seams = ? WHERE uuid = ? RETURNING conversation_id"_s);
        int at = 0;
        q.bindValue(at++, utf8);
        q.bindValue(at++, nameOf(state));
        q.bindValue(
            at++, state == MessageState::Pending ? QVariant() : QVariant(when.toMSecsSinceEpoch()));
        q.bindValue(at++, textOrNull(nameText(retry::nameOf(ending.end))));
        q.bindValue(at++, textOrNull(seamsText(ending.seams)));
        if (usage) {
            q.bindValue(at++, orNull(usage->promptTokens));
            q.bindValue(at++, orNull(usage->completionTokens));
        }
        q.bindValue(at, uuidText(id));
        if (!run(&q, u"finish message"_s))
            return false;
        if (!q.next())
            return fail(u"finish message"_s, u"no such message"_s);
        const qint64 conversation = q.value(0).toLongLong();
        q.finish();
        return touch(conversation, when, {});
    });
}

bool HistoryStore::setMessageUsage(
    const QUuid &id, std::optional<qint64> promptTokens, std::optional<qint64> completionTokens)
{
    const auto orNull = [](std::optional<qint64> v) { return v ? QVariant(*v) : QVariant(); };
    return write([&] {
        QSqlQuery q(m_db);
        q.prepare(u"UPDATE messages SET prompt_tokens = ?, completion_tokens = ? WHERE uuid = ? "
                  "RETURNING id"_s);
        q.bindValue(0, orNull(promptTokens));
        q.bindValue(1, orNull(completionTokens));
        q.bindValue(2, uuidText(id));
        if (!run(&q, u"message usage"_s))
            return false;
        const bool found = q.next();
        q.finish();
        return found || fail(u"message usage"_s, u"no such message"_s);
    });
}

bool HistoryStore::replaceMessage(const QUuid &id)
{
    return write([&] {
        QSqlQuery q(m_db);
        q.prepare(u"UPDATE messages SET state = ? WHERE uuid = ? RETURNING id"_s);
        q.bindValue(0, nameOf(MessageState::Replaced));
        q.bindValue(1, uuidText(id));
        if (!run(&q, u"replace message"_s))
            return false;
        const bool found = q.next();
        q.finish();
        return found || fail(u"replace message"_s, u"no such message"_s);
    });
}

bool HistoryStore::addSend(Send &s)
{
    if (s.id.isNull())
        s.id = QUuid::createUuid();
    if (!s.started.isValid())
        s.started = nowUtc();
    return write([&] {
        const qint64 conversation = keyOf(u"conversations"_s, s.conversation);
        if (conversation == 0)
            return fail(u"add send"_s, m_lastError);
        qint64 message = 0;
        if (!s.message.isNull() && (message = keyOf(u"messages"_s, s.message)) == 0)
            return fail(u"add send"_s, m_lastError);
        QSqlQuery *q = prepared(
            u"INSERT INTO sends (uuid, conversation_id, message_id, outcome, reason, attempts, "
            "waited_ms, started_ms, ended_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"_s);
        if (!q)
            return false;
        q->bindValue(0, uuidText(s.id));
        q->bindValue(1, conversation);
        q->bindValue(2, message == 0 ? QVariant() : QVariant(message));
        q->bindValue(3, textOrNull(nameOf(s.outcome)));
        q->bindValue(4, textOrNull(nameText(retry::nameOf(s.reason))));
        q->bindValue(5, s.attempts);
        q->bindValue(6, s.waitedMs);
        q->bindValue(7, s.started.toMSecsSinceEpoch());
        q->bindValue(8, msOrNull(s.ended));
        return run(q, u"add send"_s) && touch(conversation, s.started, {});
    });
}

bool HistoryStore::finishSend(const QUuid &id, SendOutcome outcome, retry::EndReason reason,
    int attempts, qint64 waitedMs, const QDateTime &ended)
{
    const QDateTime when = ended.isValid() ? ended : nowUtc();
    return write([&] {
        QSqlQuery q(m_db);
        q.prepare(u"UPDATE sends SET outcome = ?, reason = ?, attempts = ?, waited_ms = ?, "
                  "ended_ms = ? WHERE uuid = ? RETURNING conversation_id"_s);
        q.bindValue(0, textOrNull(nameOf(outcome)));
        q.bindValue(1, textOrNull(nameText(retry::nameOf(reason))));
        q.bindValue(2, attempts);
        q.bindValue(3, waitedMs);
        q.bindValue(
            4, outcome == SendOutcome::Running ? QVariant() : QVariant(when.toMSecsSinceEpoch()));
        q.bindValue(5, uuidText(id));
        if (!run(&q, u"finish send"_s))
            return false;
        if (!q.next())
            return fail(u"finish send"_s, u"no such send"_s);
        const qint64 conversation = q.value(0).toLongLong();
        q.finish();
        return touch(conversation, when, {});
    });
}

bool HistoryStore::addRetryRecord(const QUuid &send, const RetryRecord &r)
{
    return write([&] {
        QSqlQuery *lookup = prepared(u"SELECT id, conversation_id FROM sends WHERE uuid = ?"_s);
        if (!lookup)
            return false;
        lookup->bindValue(0, uuidText(send));
        if (!run(lookup, u"add retry record"_s))
            return false;
        if (!lookup->next()) {
            lookup->finish();
            return fail(u"add retry record"_s, u"no such send: "_s + uuidText(send));
        }
        const qint64 sendKey = lookup->value(0).toLongLong();
        const qint64 conversation = lookup->value(1).toLongLong();
        lookup->finish();

        QSqlQuery *q = prepared(
            u"INSERT INTO retry_records (send_id, time_ms, request, event, attempt, status, "
            "category, used, token_limit, wait_ms, raw_wait_ms, wait_source, waited_total_ms, "
            "budget_left_ms, reason, error, reset_at_ms, window_tokens_left, window_reset_s, "
            "estimated_tokens, profile, fallback_to, answer_end) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
            "?, "
            "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s);
        if (!q)
            return false;
        q->bindValue(0, sendKey);
        q->bindValue(1, (r.time.isValid() ? r.time : nowUtc()).toMSecsSinceEpoch());
        q->bindValue(2, r.request);
        q->bindValue(3, r.event);
        q->bindValue(4, r.attempt);
        q->bindValue(5, optional(r.status));
        q->bindValue(6, r.category ? QVariant(nameText(retry::nameOf(*r.category))) : QVariant());
        q->bindValue(7, optional(r.used));
        q->bindValue(8, optional(r.limit));
        q->bindValue(9, optional(r.waitMs));
        q->bindValue(10, optional(r.rawWaitMs));
        q->bindValue(11, textOrNull(nameText(retry::nameOf(r.waitSource))));
        q->bindValue(12, optional(r.waitedTotalMs));
        q->bindValue(13, optional(r.budgetLeftMs));
        q->bindValue(
            14, textOrNull(r.unpark.isEmpty() ? nameText(retry::nameOf(r.reason)) : r.unpark));
        q->bindValue(15, textOrNull(r.error));
        q->bindValue(16, msOrNull(r.resetAt));
        q->bindValue(17, optional(r.windowTokensLeft));
        q->bindValue(18, optional(r.windowResetS));
        q->bindValue(19, optional(r.estimatedTokens));
        q->bindValue(20, textOrNull(r.profile));
        q->bindValue(21, textOrNull(r.fallbackTo));
        q->bindValue(22, textOrNull(nameText(retry::nameOf(r.answerEnd))));
        if (!run(q, u"add retry record"_s))
            return false;
        if (r.event != u"retry_scheduled"_s)
            return true;
        QSqlQuery *mark = prepared(
            u"UPDATE conversations SET has_retries = 1 WHERE id = ? AND has_retries = 0"_s);
        if (!mark)
            return false;
        mark->bindValue(0, conversation);
        return run(mark, u"add retry record"_s);
    });
}

bool HistoryStore::addParkedSend(ParkedSend &p)
{
    if (!p.dueAt.isValid())
        return fail(u"add parked send"_s, u"no due time"_s);
    if (p.id.isNull())
        p.id = QUuid::createUuid();
    if (!p.parkedAt.isValid())
        p.parkedAt = nowUtc();
    // A lane is "demo" or an endpoint; an endpoint is kept as a conversation's is, without what
    // can carry a key.
    if (const QString endpoint = storableEndpoint(p.provider); !endpoint.isEmpty())
        p.provider = endpoint;
    return write([&] {
        const qint64 conversation = keyOf(u"conversations"_s, p.conversation);
        if (conversation == 0)
            return fail(u"add parked send"_s, m_lastError);
        const qint64 message = keyOf(u"messages"_s, p.message);
        if (message == 0)
            return fail(u"add parked send"_s, m_lastError);
        qint64 send = 0;
        if (!p.send.isNull() && (send = keyOf(u"sends"_s, p.send)) == 0)
            return fail(u"add parked send"_s, m_lastError);
        QSqlQuery *q = prepared(
            u"INSERT INTO parked_sends (uuid, conversation_id, message_id, send_id, provider, "
            "model, options, parked_at_ms, due_at_ms, reset_at_ms, parks_in_a_row) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s);
        if (!q)
            return false;
        q->bindValue(0, uuidText(p.id));
        q->bindValue(1, conversation);
        q->bindValue(2, message);
        q->bindValue(3, send == 0 ? QVariant() : QVariant(send));
        q->bindValue(4, nonNull(p.provider));
        q->bindValue(5, nonNull(p.model));
        q->bindValue(6, nonNull(p.options));
        q->bindValue(7, p.parkedAt.toMSecsSinceEpoch());
        q->bindValue(8, p.dueAt.toMSecsSinceEpoch());
        q->bindValue(9, msOrNull(p.resetAt));
        q->bindValue(10, p.parksInARow);
        return run(q, u"add parked send"_s);
    });
}

bool HistoryStore::removeParkedSend(const QUuid &id)
{
    return write([&] {
        QSqlQuery q(m_db);
        q.prepare(u"DELETE FROM parked_sends WHERE uuid = ?"_s);
        q.bindValue(0, uuidText(id));
        if (!run(&q, u"remove parked send"_s))
            return false;
        return q.numRowsAffected() == 1 || fail(u"remove parked send"_s, u"no such parked send"_s);
    });
}

int HistoryStore::deleteOlderThan(int days, const QDateTime &now)
{
    int deleted = -1;
    write([&] {
        QSqlQuery q(m_db);
        q.prepare(u"DELETE FROM conversations WHERE updated_ms < ?"_s);
        q.bindValue(0, now.addDays(-days).toMSecsSinceEpoch());
        if (!run(&q, u"retention"_s))
            return false;
        deleted = q.numRowsAffected();
        return true;
    });
    return m_lastError.isEmpty() ? deleted : -1;
}

bool HistoryStore::clear(bool usage)
{
    if (m_inTransaction)
        return fail(u"clear"_s, u"a transaction is open"_s);
    const bool deleted = write([&] {
        // The window reports too: all history means all of it (docs/history.md).
        QStringList statements { u"DELETE FROM provider_windows"_s, u"DELETE FROM parked_sends"_s,
            u"DELETE FROM retry_records"_s, u"DELETE FROM sends"_s, u"DELETE FROM messages"_s,
            u"DELETE FROM conversations"_s };
        // The ledger's rollups with it, in the same transaction: a trigger taking back each
        // deleted row would turn this delete of a million rows from 0.3 s into 5 s.
        if (usage) {
            const QStringList tables = m_db.tables();
            for (const QString &table : usageRollupTables())
                if (tables.contains(table))
                    statements.append(u"DELETE FROM "_s + table);
            statements.append(u"DELETE FROM usage"_s);
        }
        if (m_hasFts)
            statements.append(u"INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')"_s);
        QString error;
        return execAll(m_db, statements, &error) || fail(u"clear"_s, error);
    });
    if (!deleted)
        return false;
    // Rewrite the file and empty the log so no deleted text stays on disk. Another process
    // reading at the moment can keep the log from being truncated; the rows are gone anyway.
    QString error;
    m_statements->cache.clear();
    if (!execAll(m_db, { u"VACUUM"_s }, &error))
        qCWarning(lcHistory).noquote() << "clear: VACUUM failed:" << error;
    if (m_persistent && !execAll(m_db, { u"PRAGMA wal_checkpoint(TRUNCATE)"_s }, &error))
        qCWarning(lcHistory).noquote() << "clear: checkpoint failed:" << error;
    return true;
}

} // namespace capwatch::history
