#include "schema.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

namespace capwatch::history {

using namespace Qt::StringLiterals;

namespace {

// Times are milliseconds since the epoch, UTC. Internal INTEGER keys join the tables compactly
// (a million retry records); the UUIDs are what callers see. No table has a column for a key,
// a header or a credential.
bool version1(QSqlDatabase &db, QString *error)
{
    const QStringList tables {
        uR"(CREATE TABLE conversations (
            id INTEGER PRIMARY KEY,
            uuid TEXT NOT NULL UNIQUE,
            title TEXT NOT NULL DEFAULT '',
            endpoint TEXT NOT NULL DEFAULT '',
            model TEXT NOT NULL DEFAULT '',
            created_ms INTEGER NOT NULL,
            updated_ms INTEGER NOT NULL,
            has_retries INTEGER NOT NULL DEFAULT 0))"_s,
        u"CREATE INDEX conversations_by_updated ON conversations(updated_ms, id)"_s,
        uR"(CREATE TABLE messages (
            id INTEGER PRIMARY KEY,
            uuid TEXT NOT NULL UNIQUE,
            conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
            role TEXT NOT NULL,
            text TEXT NOT NULL,
            state TEXT NOT NULL,
            created_ms INTEGER NOT NULL,
            ended_ms INTEGER))"_s,
        u"CREATE INDEX messages_by_conversation ON messages(conversation_id, id)"_s,
        uR"(CREATE TABLE sends (
            id INTEGER PRIMARY KEY,
            uuid TEXT NOT NULL UNIQUE,
            conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
            message_id INTEGER REFERENCES messages(id) ON DELETE CASCADE,
            outcome TEXT,
            reason TEXT,
            attempts INTEGER NOT NULL DEFAULT 0,
            waited_ms INTEGER NOT NULL DEFAULT 0,
            started_ms INTEGER NOT NULL,
            ended_ms INTEGER))"_s,
        u"CREATE INDEX sends_by_conversation ON sends(conversation_id, id)"_s,
        u"CREATE INDEX sends_by_message ON sends(message_id)"_s,
        // The retry log's columns; `event` is its text name so new events need no migration.
        uR"(CREATE TABLE retry_records (
            id INTEGER PRIMARY KEY,
            send_id INTEGER NOT NULL REFERENCES sends(id) ON DELETE CASCADE,
            time_ms INTEGER NOT NULL,
            request INTEGER NOT NULL,
            event TEXT NOT NULL,
            attempt INTEGER NOT NULL,
            status INTEGER,
            category TEXT,
            used REAL,
            token_limit REAL,
            wait_ms INTEGER,
            raw_wait_ms INTEGER,
            wait_source TEXT,
            waited_total_ms INTEGER,
            budget_left_ms INTEGER,
            reason TEXT,
            error TEXT,
            reset_at_ms INTEGER))"_s,
        u"CREATE INDEX retry_records_by_send ON retry_records(send_id)"_s,
        u"CREATE INDEX retry_records_by_time ON retry_records(time_ms)"_s,
    };
    if (!execAll(db, tables, error))
        return false;

    // Full-text search over the messages: an external-content FTS5 index (the text is stored
    // once, in messages), kept in step by triggers. Without FTS5 in the SQLite library the
    // store searches with LIKE instead. The prefix indexes make a search as you type, a word of
    // two or three letters so far, one look-up instead of a merge of every word it starts.
    QSqlQuery probe(db);
    if (!probe.exec(u"SELECT sqlite_compileoption_used('ENABLE_FTS5')"_s) || !probe.next()
        || probe.value(0).toInt() != 1)
        return true;
    const QStringList fts {
        uR"(CREATE VIRTUAL TABLE messages_fts USING fts5(text, content='messages',
            content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3'))"_s,
        uR"(CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
            INSERT INTO messages_fts(rowid, text) VALUES (new.id, new.text); END)"_s,
        uR"(CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
            INSERT INTO messages_fts(messages_fts, rowid, text) VALUES ('delete', old.id, old.text);
            END)"_s,
        uR"(CREATE TRIGGER messages_fts_update AFTER UPDATE OF text ON messages BEGIN
            INSERT INTO messages_fts(messages_fts, rowid, text) VALUES ('delete', old.id, old.text);
            INSERT INTO messages_fts(rowid, text) VALUES (new.id, new.text); END)"_s,
    };
    return execAll(db, fts, error);
}

// Parked sends (issue 15, docs/parking.md): one row from the moment a send is parked until it
// goes out or is cancelled, so a parked send survives a quit, a restart and a crash. Deleted with
// its conversation or its prompt; a deleted send only loses the link. Times as in version 1.
bool version2(QSqlDatabase &db, QString *error)
{
    return execAll(db,
        {
            uR"(CREATE TABLE parked_sends (
            id INTEGER PRIMARY KEY,
            uuid TEXT NOT NULL UNIQUE,
            conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
            message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
            send_id INTEGER REFERENCES sends(id) ON DELETE SET NULL,
            provider TEXT NOT NULL DEFAULT '',
            model TEXT NOT NULL DEFAULT '',
            options TEXT NOT NULL DEFAULT '',
            parked_at_ms INTEGER NOT NULL,
            due_at_ms INTEGER NOT NULL,
            reset_at_ms INTEGER,
            parks_in_a_row INTEGER NOT NULL DEFAULT 1))"_s,
            u"CREATE INDEX parked_sends_by_due ON parked_sends(due_at_ms, parked_at_ms)"_s,
            // The foreign keys' child columns: deleting a conversation looks up each of its
            // messages and sends here.
            u"CREATE INDEX parked_sends_by_conversation ON parked_sends(conversation_id)"_s,
            u"CREATE INDEX parked_sends_by_message ON parked_sends(message_id)"_s,
            u"CREATE INDEX parked_sends_by_send ON parked_sends(send_id)"_s,
        },
        error);
}

// Provider windows and the retry log's window columns (issue 16, docs/retry-policy.md section
// 8.1): the last window report of each (provider, model), replaced by the next, so that a new
// window or a new capwatch-cli process paces too; and the three columns the retry log gained.
// Not tied to a conversation: deleting one leaves the reports, clear() deletes them. Times as in
// version 1; a record's window_reset_s is REAL, the seconds exactly as the log has them.
bool version3(QSqlDatabase &db, QString *error)
{
    return execAll(db,
        {
            uR"(CREATE TABLE provider_windows (
            provider TEXT NOT NULL,
            model TEXT NOT NULL,
            received_at_ms INTEGER NOT NULL,
            tokens_reset_at_ms INTEGER,
            requests_reset_at_ms INTEGER,
            limit_tokens INTEGER,
            remaining_tokens INTEGER,
            limit_requests INTEGER,
            remaining_requests INTEGER,
            time_scale REAL NOT NULL DEFAULT 1,
            PRIMARY KEY (provider, model)))"_s,
            u"ALTER TABLE retry_records ADD COLUMN window_tokens_left INTEGER"_s,
            u"ALTER TABLE retry_records ADD COLUMN window_reset_s REAL"_s,
            u"ALTER TABLE retry_records ADD COLUMN estimated_tokens INTEGER"_s,
        },
        error);
}

// Provider profiles (issue 17, docs/history.md): the profile id a conversation belongs to, the
// profile name that gave an answer, and the retry log's two profile columns. Empty text (or
// NULL for the records) in rows stored before profiles.
bool version4(QSqlDatabase &db, QString *error)
{
    return execAll(db,
        {
            u"ALTER TABLE conversations ADD COLUMN profile TEXT NOT NULL DEFAULT ''"_s,
            u"ALTER TABLE messages ADD COLUMN profile TEXT NOT NULL DEFAULT ''"_s,
            u"ALTER TABLE retry_records ADD COLUMN profile TEXT"_s,
            u"ALTER TABLE retry_records ADD COLUMN fallback_to TEXT"_s,
        },
        error);
}

// What an answer used, as its provider reported it (issue 25.10): a restored answer keeps its
// "120 prompt + 45 completion tokens" line. NULL when not reported or stored before.
bool version5(QSqlDatabase &db, QString *error)
{
    return execAll(db,
        {
            u"ALTER TABLE messages ADD COLUMN prompt_tokens INTEGER"_s,
            u"ALTER TABLE messages ADD COLUMN completion_tokens INTEGER"_s,
        },
        error);
}

// Search indexes the first kSearchedChars characters of a message (docs/history.md, "What search
// looks at"); the whole text stays in `messages`. Indexing the 1,000,000 characters capwatch-cli
// stores of a long answer took the writer 16 ms (the firehose's text; 65,536 characters: 1.2 ms),
// time a CLI run waited for before it could exit, and a search box finds what a person read
// first. The index's content is a view of that same prefix, so every FTS5 read (snippets, a
// 'rebuild') sees exactly what was indexed. The index is made again from the view: 3.6 s, once,
// for the 180,000 messages (55 MB of text) of bench_history --full. Without FTS5, nothing to do.
bool version6(QSqlDatabase &db, QString *error)
{
    QSqlQuery probe(db);
    if (!probe.exec(u"SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts'"_s)
        || !probe.next())
        return true; // no FTS5: search uses LIKE over the same prefix (historysearch.cpp)
    probe.finish();
    const auto searched
        = [](QStringView row) { return u"substr(%1.text, 1, %2)"_s.arg(row).arg(kSearchedChars); };
    return execAll(db,
        {
            u"DROP TRIGGER messages_fts_insert"_s,
            u"DROP TRIGGER messages_fts_delete"_s,
            u"DROP TRIGGER messages_fts_update"_s,
            u"DROP TABLE messages_fts"_s,
            u"CREATE VIEW messages_searched(id, text) AS SELECT id, %1 FROM messages"_s.arg(
                searched(u"messages")),
            uR"(CREATE VIRTUAL TABLE messages_fts USING fts5(text, content='messages_searched',
            content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3'))"_s,
            u"INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')"_s,
            uR"(CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
            INSERT INTO messages_fts(rowid, text) VALUES (new.id, %1); END)"_s.arg(
                searched(u"new")),
            uR"(CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
            INSERT INTO messages_fts(messages_fts, rowid, text) VALUES ('delete', old.id, %1);
            END)"_s.arg(searched(u"old")),
            uR"(CREATE TRIGGER messages_fts_update AFTER UPDATE OF text ON messages BEGIN
            INSERT INTO messages_fts(messages_fts, rowid, text) VALUES ('delete', old.id, %1);
            INSERT INTO messages_fts(rowid, text) VALUES (new.id, %2); END)"_s.arg(
                searched(u"old"), searched(u"new")),
        },
        error);
}

// How an answer ended and where it was continued (issue 29, docs/history.md): `end_reason` is
// complete, cut_off, interrupted or empty (NULL for a prompt, a Pending answer and rows stored
// before); `seams` the character offsets where a continuation was joined to the answer, a JSON
// array ("[412]"), NULL when it never was. The retry log gains its `answer_end` column.
bool version7(QSqlDatabase &db, QString *error)
{
    return execAll(db,
        {
            u"ALTER TABLE messages ADD COLUMN end_reason TEXT"_s,
            u"ALTER TABLE messages ADD COLUMN seams TEXT"_s,
            u"ALTER TABLE retry_records ADD COLUMN answer_end TEXT"_s,
        },
        error);
}

// The usage ledger (issue 30, docs/history.md): one row per attempt, written when it ended.
// Not tied to a conversation by a key: deleting one leaves its rows, which keep its UUID as text;
// clear() deletes them only when asked. Times as in version 1; cost REAL (NULL: unknown).
bool version8(QSqlDatabase &db, QString *error)
{
    return execAll(db,
        {
            uR"(CREATE TABLE usage (
            id INTEGER PRIMARY KEY,
            time_ms INTEGER NOT NULL,
            profile TEXT NOT NULL DEFAULT '',
            endpoint TEXT NOT NULL DEFAULT '',
            model TEXT NOT NULL DEFAULT '',
            conversation_uuid TEXT NOT NULL DEFAULT '',
            send_uuid TEXT NOT NULL DEFAULT '',
            request INTEGER NOT NULL DEFAULT 0,
            attempt INTEGER NOT NULL DEFAULT 0,
            status INTEGER,
            category TEXT,
            prompt_tokens INTEGER,
            completion_tokens INTEGER,
            cached_tokens INTEGER,
            reasoning_tokens INTEGER,
            estimated INTEGER NOT NULL DEFAULT 0,
            cost REAL,
            cost_source TEXT NOT NULL DEFAULT 'unknown',
            currency TEXT,
            waited_ms INTEGER NOT NULL DEFAULT 0,
            paced_ms INTEGER NOT NULL DEFAULT 0,
            parked_ms INTEGER NOT NULL DEFAULT 0))"_s,
            u"CREATE INDEX usage_by_time ON usage(time_ms)"_s,
        },
        error);
}

// A conversation's costs under its answers and in its header (issue 30): the ledger's rows of one
// conversation, found without reading the whole ledger.
bool version9(QSqlDatabase &db, QString *error)
{
    return execAll(
        db, { u"CREATE INDEX usage_by_conversation ON usage(conversation_uuid)"_s }, error);
}

// Where each retry wait came from, on the row of the attempt that waited (the insights' "where
// the waits came from", and `capwatch-cli usage`'s wait_sources).
bool version10(QSqlDatabase &db, QString *error)
{
    return execAll(db, { u"ALTER TABLE usage ADD COLUMN wait_source TEXT"_s }, error);
}

// The usage ledger's rollups (docs/history.md, "Insights"): what the Insights view draws, kept
// by triggers as each attempt is written, so the view reads the rows of its days instead of
// grouping a million attempts (1.6 s for a year). Each is keyed by the local day first, so a range
// of days is a range of the key (the days' by model next: the order insights() lists them in, no
// sort). The day is fixed when the row is written, in the writer's zone (date(..., 'localtime') in
// the writing process), as `capwatch-cli usage --by day` takes it while the zone is unchanged.
QString dayOf(QStringView row)
{
    return u"date(%1.time_ms / 1000, 'unixepoch', 'localtime')"_s.arg(row);
}

/// A send as the ledger knows it: its stored send, else its conversation and request number.
QString sendKeyOf(QStringView row)
{
    return u"CASE WHEN %1.send_uuid <> '' THEN %1.send_uuid "
           "ELSE %1.conversation_uuid || '#' || %1.request END"_s.arg(row);
}

/// How a send of `usage_sends` ended, with capwatch-cli usage's names and precedence.
QString outcomeOf(QStringView row)
{
    return u"CASE WHEN NOT %1.answered THEN 'not_answered' WHEN %1.parked THEN "
           "'parked_then_answered' WHEN %1.attempts > 1 THEN 'after_retries' ELSE 'first_time' "
           "END"_s.arg(row);
}

/// One rollup of usage rows: the INSERT of one row's figures and how a second row of the same
/// key adds to the first. `values` and `when` name the usage row `%1`.
struct Rollup
{
    QString trigger; ///< the name of its trigger on `usage`
    QString into; ///< the table and its columns
    QString values;
    QString when; ///< the rows it counts; empty: all
    QString conflict; ///< ON CONFLICT (...) DO UPDATE SET ...
    /// How the migration makes it from the rows already written; empty: the trigger's statement
    /// run over them in the order they were written.
    QString backfill = {};
};

QList<Rollup> usageRollups()
{
    const auto cost = [](QStringView source) -> QString {
        return u"CASE WHEN %1.cost_source = '"_s + source
            + u"' THEN ifnull(%1.cost, 0) ELSE 0 END"_s;
    };
    return {
        { u"usage_days_rollup"_s,
            u"usage_days (day, profile, endpoint, model, attempts, prompt_tokens, "
            "completion_tokens, billed, estimated, waited_ms, paced_ms, parked_ms)"_s,
            dayOf(u"%1")
                + u", %1.profile, %1.endpoint, %1.model, 1, ifnull(%1.prompt_tokens, 0), "
                  "ifnull(%1.completion_tokens, 0), "_s
                + cost(u"provider") + u", "_s + cost(u"price_table")
                + u", %1.waited_ms, %1.paced_ms, %1.parked_ms"_s,
            {},
            u"ON CONFLICT (day, model, profile, endpoint) DO UPDATE SET attempts = attempts + 1, "
            "prompt_tokens = prompt_tokens + excluded.prompt_tokens, completion_tokens = "
            "completion_tokens + excluded.completion_tokens, billed = billed + excluded.billed, "
            "estimated = estimated + excluded.estimated, waited_ms = waited_ms + "
            "excluded.waited_ms, paced_ms = paced_ms + excluded.paced_ms, parked_ms = parked_ms + "
            "excluded.parked_ms"_s },
        { u"usage_refusals_rollup"_s, u"usage_refusals (day, profile, model, category, attempts)"_s,
            dayOf(u"%1") + u", %1.profile, %1.model, %1.category, 1"_s, u"%1.category <> ''"_s,
            u"ON CONFLICT (day, profile, model, category) DO UPDATE SET attempts = attempts + 1"_s },
        { u"usage_waits_rollup"_s,
            u"usage_waits (day, profile, model, wait_source, waits, waited_ms)"_s,
            dayOf(u"%1") + u", %1.profile, %1.model, %1.wait_source, 1, %1.waited_ms"_s,
            u"%1.waited_ms > 0 AND %1.wait_source <> ''"_s,
            u"ON CONFLICT (day, profile, model, wait_source) DO UPDATE SET waits = waits + 1, "
            "waited_ms = waited_ms + excluded.waited_ms"_s },
        // A send counts once, on the day and under the profile and model of its first attempt
        // (the earliest; of two at the same millisecond, the one written first).
        { u"usage_sends_rollup"_s,
            u"usage_sends (send, first_ms, day, profile, model, attempts, answered, parked)"_s,
            sendKeyOf(u"%1") + u", %1.time_ms, "_s + dayOf(u"%1")
                + u", %1.profile, %1.model, 1, ifnull(%1.status >= 200 AND %1.status < 300 AND "
                  "ifnull(%1.category, '') = '', 0), %1.parked_ms > 0"_s,
            {},
            u"ON CONFLICT (send) DO UPDATE SET attempts = attempts + 1, answered = max(answered, "
            "excluded.answered), parked = max(parked, excluded.parked), first_ms = min(first_ms, "
            "excluded.first_ms), day = CASE WHEN excluded.first_ms < first_ms THEN excluded.day "
            "ELSE day END, profile = CASE WHEN excluded.first_ms < first_ms THEN "
            "excluded.profile ELSE profile END, model = CASE WHEN excluded.first_ms < first_ms "
            "THEN excluded.model ELSE model END"_s,
            // The same sums in one sorted pass, each send's first attempt picked by a window:
            // upserting a million rows one by one into a table keyed by random UUIDs took 11 s of
            // the migration, this 4.5 s.
            u"INSERT INTO usage_sends (send, first_ms, day, profile, model, attempts, answered, "
            "parked) SELECT send, time_ms, %1, profile, model, attempts, answered, parked FROM "
            "(SELECT %2 AS send, u.time_ms, u.profile, u.model, row_number() OVER w AS n, "
            "count(*) OVER w AS attempts, max(ifnull(u.status >= 200 AND u.status < 300 AND "
            "ifnull(u.category, '') = '', 0)) OVER w AS answered, max(u.parked_ms > 0) OVER w AS "
            "parked FROM usage u WINDOW w AS (PARTITION BY %2 ORDER BY u.time_ms, u.id ROWS "
            "BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)) f WHERE n = 1"_s.arg(
                dayOf(u"f"), sendKeyOf(u"u")) },
    };
}

bool version11(QSqlDatabase &db, QString *error)
{
    const QString outcomeInsert
        = u"INSERT INTO usage_outcomes (day, profile, model, outcome, sends) VALUES (new.day, "
          "new.profile, new.model, %1, 1) ON CONFLICT (day, profile, model, outcome) DO UPDATE "
          "SET sends = sends + 1"_s.arg(outcomeOf(u"new"));
    const QString oldOutcome = u"day = old.day AND profile = old.profile AND model = old.model "
                               "AND outcome = %1"_s.arg(outcomeOf(u"old"));
    QStringList statements {
        uR"(CREATE TABLE usage_days (
            day TEXT NOT NULL,
            profile TEXT NOT NULL,
            endpoint TEXT NOT NULL,
            model TEXT NOT NULL,
            attempts INTEGER NOT NULL,
            prompt_tokens INTEGER NOT NULL,
            completion_tokens INTEGER NOT NULL,
            billed REAL NOT NULL,
            estimated REAL NOT NULL,
            waited_ms INTEGER NOT NULL,
            paced_ms INTEGER NOT NULL,
            parked_ms INTEGER NOT NULL,
            PRIMARY KEY (day, model, profile, endpoint)) WITHOUT ROWID)"_s,
        uR"(CREATE TABLE usage_refusals (
            day TEXT NOT NULL,
            profile TEXT NOT NULL,
            model TEXT NOT NULL,
            category TEXT NOT NULL,
            attempts INTEGER NOT NULL,
            PRIMARY KEY (day, profile, model, category)) WITHOUT ROWID)"_s,
        uR"(CREATE TABLE usage_waits (
            day TEXT NOT NULL,
            profile TEXT NOT NULL,
            model TEXT NOT NULL,
            wait_source TEXT NOT NULL,
            waits INTEGER NOT NULL,
            waited_ms INTEGER NOT NULL,
            PRIMARY KEY (day, profile, model, wait_source)) WITHOUT ROWID)"_s,
        uR"(CREATE TABLE usage_sends (
            send TEXT NOT NULL PRIMARY KEY,
            first_ms INTEGER NOT NULL,
            day TEXT NOT NULL,
            profile TEXT NOT NULL,
            model TEXT NOT NULL,
            attempts INTEGER NOT NULL,
            answered INTEGER NOT NULL,
            parked INTEGER NOT NULL) WITHOUT ROWID)"_s,
        uR"(CREATE TABLE usage_outcomes (
            day TEXT NOT NULL,
            profile TEXT NOT NULL,
            model TEXT NOT NULL,
            outcome TEXT NOT NULL,
            sends INTEGER NOT NULL,
            PRIMARY KEY (day, profile, model, outcome)) WITHOUT ROWID)"_s,
    };
    // The rows already written, each counted as its trigger would have (1,000,000 rows: about
    // 8 s, once); the outcomes of the sends so made; then the triggers for the rows to come.
    const QList<Rollup> rollups = usageRollups();
    for (const Rollup &r : rollups)
        statements.append(r.backfill.isEmpty()
                ? u"INSERT INTO %1 SELECT %2 FROM usage u WHERE %3 ORDER BY u.id %4"_s.arg(r.into,
                    r.values.arg(u"u"), r.when.isEmpty() ? u"true"_s : r.when.arg(u"u"), r.conflict)
                : r.backfill);
    statements.append(u"INSERT INTO usage_outcomes (day, profile, model, outcome, sends) SELECT "
                      "day, profile, model, %1 AS outcome, count(*) FROM usage_sends s GROUP BY "
                      "day, profile, model, outcome"_s.arg(outcomeOf(u"s")));
    statements += {
        // The outcomes follow the sends: +1 for a new send, and when an attempt changes how one
        // ended or which attempt is its first, -1 where it was and +1 where it is now.
        u"CREATE TRIGGER usage_sends_counted AFTER INSERT ON usage_sends BEGIN %1; END"_s.arg(
            outcomeInsert),
        u"CREATE TRIGGER usage_sends_moved AFTER UPDATE ON usage_sends WHEN %1 <> %2 OR old.day "
        "<> new.day OR old.profile <> new.profile OR old.model <> new.model BEGIN UPDATE "
        "usage_outcomes SET sends = sends - 1 WHERE %3; DELETE FROM usage_outcomes WHERE %3 AND "
        "sends = 0; %4; END"_s.arg(outcomeOf(u"old"), outcomeOf(u"new"), oldOutcome, outcomeInsert),
    };
    for (const Rollup &r : rollups)
        statements.append(u"CREATE TRIGGER %1 AFTER INSERT ON usage %2 BEGIN INSERT INTO %3 "
                          "VALUES (%4) %5; END"_s.arg(r.trigger,
                              r.when.isEmpty() ? QString() : u"WHEN "_s + r.when.arg(u"new"),
                              r.into, r.values.arg(u"new"), r.conflict));
    return execAll(db, statements, error);
}

} // namespace

bool execAll(QSqlDatabase &db, const QStringList &statements, QString *error)
{
    QSqlQuery q(db);
    for (const QString &statement : statements) {
        if (!q.exec(statement)) {
            if (error)
                *error = q.lastError().text();
            return false;
        }
    }
    return true;
}

const QStringList &usageRollupTables()
{
    static const QStringList tables { u"usage_days"_s, u"usage_refusals"_s, u"usage_waits"_s,
        u"usage_sends"_s, u"usage_outcomes"_s };
    return tables;
}

const std::vector<Migration> &schemaMigrations()
{
    static const std::vector<Migration> migrations { { 1, version1 }, { 2, version2 },
        { 3, version3 }, { 4, version4 }, { 5, version5 }, { 6, version6 }, { 7, version7 },
        { 8, version8 }, { 9, version9 }, { 10, version10 }, { 11, version11 } };
    return migrations;
}

} // namespace capwatch::history
