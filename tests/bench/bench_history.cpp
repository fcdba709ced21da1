// The history database's figures (docs/performance.md, "History database"): generates a database
// (full scale: 10,000 conversations, 200,000 messages, 1,000,000 retry records, one conversation
// of 2,000 messages) in one transaction through the store's prepared statements, then times what
// the window will do with it: open, the first page of the list, a 2,000-message conversation in
// pieces, search, export, and the GUI thread's cost of storing a retry record through the
// writer. Exits 1 when a figure misses its (generous) bound.
//
//   bench_history [--full] [--keep DIR] [--usage]      (or CAPWATCH_BENCH_FULL=1)
//   bench_history --insights DIR/history.sqlite        (the insights' figures alone, again)
//
// Without --full it runs at 1/50 scale (the 2,000-message conversation and the 10,000 writer
// records stay) so the test suite can run it. --usage adds a year of the usage ledger (1,000,000
// attempts at full scale) through the real schema and its triggers, and times the insights on it
// (docs/performance.md, "Insights"): every range of the view from the rollups, the raw GROUP BY
// they replaced, what the triggers add to each attempt's write, and the migration that makes them.

#include "history/historystore.h"
#include "history/historywriter.h"
#include "support/sanitizers.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <limits>

using namespace capwatch::history;
using capwatch::testing::runawayBoundMs;
using namespace Qt::StringLiterals;

namespace {

struct Scale
{
    int conversations;
    int messages;
    int records;
};

struct Figures
{
    double medianMs;
    double p99Ms;
    double maxMs;
};

Figures figuresOf(QList<double> ms)
{
    std::sort(ms.begin(), ms.end());
    const auto at = [&ms](double q) {
        return ms.at(std::min<qsizetype>(ms.size() - 1, qsizetype(q * double(ms.size()))));
    };
    return { at(0.5), at(0.99), ms.back() };
}

double msSince(const QElapsedTimer &t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

/// Pseudo-words, the same every run: common ones and a long tail.
QStringList vocabulary(QRandomGenerator &random)
{
    static const char *const syllables[] = { "ka", "to", "re", "mi", "su", "lo", "pa", "ne", "vi",
        "dar", "ten", "qu", "ox", "el", "ran", "bo", "zu", "fen", "gi", "han" };
    QStringList words;
    for (int i = 0; i < 5000; ++i) {
        QString w;
        const int n = 2 + int(random.bounded(3));
        for (int s = 0; s < n; ++s)
            w += QLatin1StringView(syllables[random.bounded(20)]);
        words.append(w);
    }
    return words;
}

QString sentence(QRandomGenerator &random, const QStringList &words)
{
    QStringList out;
    const int n = 20 + int(random.bounded(40));
    for (int i = 0; i < n; ++i) {
        // Zipf-like: low indexes far more often.
        const double u = random.generateDouble();
        out.append(words.at(int(u * u * u * double(words.size()))));
    }
    return out.join(u' ');
}

bool check(bool ok, const char *what, int *failures)
{
    if (!ok) {
        std::printf("BOUND MISSED: %s\n", what);
        ++*failures;
    }
    return ok;
}

/// One attempt of the bench's ledger: `request` is its send's number, `attempt` 1-based. Four
/// profiles, each on its endpoint with two or three models (ten pairs in all, each used every
/// day); OpenRouter bills (the provider's cost), OpenAI is priced from the table (estimated), the
/// demo and the local server cost nothing known.
UsageRecord usageRow(QRandomGenerator &random, const QDateTime &time, const QUuid &conversation,
    const QUuid &send, int request, int attempt)
{
    struct Profile
    {
        QString name;
        QString endpoint;
        QStringList models;
    };
    static const QList<Profile> profiles {
        { u"Work"_s, u"https://openrouter.ai/api/v1"_s,
            { u"claude-3.5-sonnet"_s, u"gpt-4o"_s, u"llama-3.1-70b"_s } },
        { u"Free"_s, u"https://openrouter.ai/api/v1"_s,
            { u"llama-3.1-8b:free"_s, u"mistral-7b:free"_s } },
        { u"Home"_s, u"https://api.openai.com/v1"_s, { u"gpt-4o-mini"_s, u"gpt-4o"_s } },
        { u"Local"_s, u"http://localhost:8080/v1"_s,
            { u"qwen2.5-7b"_s, u"capwatch-demo"_s, u"phi-3"_s } },
    };
    const Profile &p = profiles.at(request % profiles.size());
    UsageRecord u;
    u.time = time;
    u.profile = p.name;
    u.endpoint = p.endpoint;
    u.model = p.models.at((request / int(profiles.size())) % p.models.size());
    u.conversation = conversation;
    u.send = send;
    u.request = request;
    u.attempt = attempt;
    u.promptTokens = 200 + qint64(random.bounded(2800));
    return u;
}

/// How a bench send goes, by its index: most are answered at once; some after refusals and their
/// waits, some after a park, some never.
enum class BenchSend
{
    FirstTime,
    Retried,
    Parked,
    GaveUp
};

BenchSend benchSendOf(QRandomGenerator &random)
{
    const quint32 r = random.bounded(100);
    return r < 85 ? BenchSend::FirstTime
        : r < 93  ? BenchSend::Retried
        : r < 96  ? BenchSend::Parked
                  : BenchSend::GaveUp;
}

/// The attempts of one send, `first` its first's time, 20 s apart.
QList<UsageRecord> benchSend(
    QRandomGenerator &random, const QDateTime &first, const QUuid &conversation, int request)
{
    const BenchSend kind = benchSendOf(random);
    const int attempts = kind == BenchSend::Retried ? 2 + int(random.bounded(2))
        : kind == BenchSend::GaveUp                 ? 3 + int(random.bounded(3))
                                                    : 1;
    // A send in ten has no stored send: it counts by its conversation and request number.
    const QUuid send = request % 10 == 0 ? QUuid() : QUuid::createUuid();
    static const QStringList sources { u"retry-after"_s, u"message"_s, u"backoff"_s };
    QList<UsageRecord> out;
    for (int a = 1; a <= attempts; ++a) {
        UsageRecord u
            = usageRow(random, first.addSecs(20 * (a - 1)), conversation, send, request, a);
        const bool answer = a == attempts && kind != BenchSend::GaveUp;
        if (answer) {
            u.status = 200;
            u.completionTokens = 50 + qint64(random.bounded(950));
            if (u.endpoint.startsWith(u"https://openrouter"_s)) {
                u.cost = double(*u.promptTokens + *u.completionTokens) * 2.5e-6;
                u.costSource = CostSource::Provider;
            } else if (u.endpoint.startsWith(u"https://api.openai"_s)) {
                u.cost = double(*u.promptTokens) * 1.5e-7 + double(*u.completionTokens) * 6e-7;
                u.costSource = CostSource::PriceTable;
                u.currency = u"USD"_s;
            }
        } else if (a % 3 == 0) {
            u.status = 503; // a network error or a server's: no category
        } else {
            u.status = a % 2 ? 429 : 422;
            u.category = a % 2 ? u"rate_limit"_s : u"token_limit"_s;
            u.estimated = true;
            u.completionTokens = 0;
        }
        if (a > 1) {
            u.waitedMs = 1000 * qint64(1 + random.bounded(30));
            u.waitSource = sources.at(int(random.bounded(sources.size())));
        }
        u.pacedMs = a == 1 && random.bounded(10) == 0 ? 250 : 0;
        u.parkedMs = a == 1 && kind == BenchSend::Parked ? 600'000 : 0;
        out.append(u);
    }
    return out;
}

/// The insights' old SQL, run as insights() ran it before the rollups (the same statements over
/// the raw rows), for the figure they replaced. Returns the attempts it counted.
qint64 rawInsights(QSqlDatabase &db, const InsightsQuery &query)
{
    QString where = u"time_ms >= ? AND time_ms < ?"_s;
    QVariantList values { query.from.isValid() ? query.from.startOfDay().toMSecsSinceEpoch()
                                               : std::numeric_limits<qint64>::min(),
        query.to.isValid() ? query.to.addDays(1).startOfDay().toMSecsSinceEpoch()
                           : std::numeric_limits<qint64>::max() };
    if (!query.profile.isEmpty()) {
        where += u" AND profile = ?"_s;
        values.append(query.profile);
    }
    const QStringList statements {
        u"SELECT date(time_ms / 1000, 'unixepoch', 'localtime') AS day, model, profile, "
        "endpoint, count(*), total(prompt_tokens), total(completion_tokens), "
        "total(CASE WHEN cost_source = 'provider' THEN cost END), "
        "total(CASE WHEN cost_source = 'price_table' THEN cost END), total(waited_ms), "
        "total(paced_ms), total(parked_ms) FROM usage WHERE "_s
            + where + u" GROUP BY day, model, profile, endpoint ORDER BY day, model"_s,
        u"SELECT category, count(*) FROM usage WHERE "_s + where
            + u" AND category IS NOT NULL AND category <> '' GROUP BY category"_s,
        u"SELECT wait_source, count(*), total(waited_ms) FROM usage WHERE "_s + where
            + u" AND waited_ms > 0 AND wait_source IS NOT NULL AND wait_source <> '' "
              "GROUP BY wait_source"_s,
        u"SELECT count(*), max(status >= 200 AND status < 300 AND (category IS NULL OR "
        "category = '')), max(parked_ms > 0) FROM usage WHERE "_s
            + where
            + u" GROUP BY CASE WHEN send_uuid <> '' THEN send_uuid ELSE conversation_uuid "
              "|| '#' || request END"_s,
    };
    qint64 attempts = 0;
    for (qsizetype i = 0; i < statements.size(); ++i) {
        QSqlQuery q(db);
        q.setForwardOnly(true);
        q.prepare(statements.at(i));
        for (int v = 0; v < values.size(); ++v)
            q.bindValue(v, values.at(v));
        q.exec();
        while (q.next())
            if (i == 0)
                attempts += q.value(4).toLongLong();
    }
    return attempts;
}

qint64 attemptsOf(const Insights &insights)
{
    qint64 n = 0;
    for (const InsightsDay &d : insights.days)
        n += d.attempts;
    return n;
}

/// The insights of every range of the view (today, 7, 30, 90 days, all), all profiles and one,
/// from the rollups (median of 9) and from the raw rows as before them (median of 3), on the
/// history at `path` (schema 11).
void timeInsights(const QString &path, int *failures)
{
    HistoryStore store;
    OpenOptions quick;
    quick.checkIntegrity = false;
    store.open(path, quick);
    QSqlDatabase raw = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"bench-raw"_s);
    raw.setDatabaseName(path);
    raw.open();
    const QDate today = QDate::currentDate();
    struct Range
    {
        const char *name;
        int days; ///< 0: all
    };
    double worst = 0;
    for (const Range range : { Range { "today", 1 }, Range { "7 days", 7 }, Range { "30 days", 30 },
             Range { "90 days", 90 }, Range { "all", 0 } }) {
        for (const QString &profile : { QString(), u"Work"_s }) {
            InsightsQuery q;
            if (range.days > 0) {
                q.from = today.addDays(1 - range.days);
                q.to = today;
            }
            q.profile = profile;
            QList<double> ms;
            Insights got;
            for (int i = 0; i < 9; ++i) {
                QElapsedTimer t;
                t.start();
                got = store.insights(q);
                ms.append(msSince(t));
            }
            QList<double> rawMs;
            qint64 rawAttempts = 0;
            for (int i = 0; i < 3; ++i) {
                QElapsedTimer t;
                t.start();
                rawAttempts = rawInsights(raw, q);
                rawMs.append(msSince(t));
            }
            const Figures f = figuresOf(ms);
            worst = std::max(worst, f.medianMs);
            std::printf("insights, %-7s %-12s: median %6.2f ms (first %6.2f, max %6.2f; %4lld "
                        "day rows, %lld attempts); raw GROUP BY median %7.1f ms\n",
                range.name, profile.isEmpty() ? "all profiles" : "one profile", f.medianMs,
                ms.front(), f.maxMs, static_cast<long long>(got.days.size()),
                static_cast<long long>(attemptsOf(got)), figuresOf(rawMs).medianMs);
            check(attemptsOf(got) == rawAttempts, "the rollups count every raw attempt", failures);
        }
    }
    check(worst < runawayBoundMs(100), "insights of every range under 100 ms", failures);
    raw.close();
    raw = QSqlDatabase();
    QSqlDatabase::removeDatabase(u"bench-raw"_s);
}

/// A year of the usage ledger added to the history at `path` (the bench's conversations), then
/// the insights timed on it; see the file's comment.
void benchUsage(const QString &path, const QList<QUuid> &conversations, int rows, int *failures)
{
    QRandomGenerator random(30);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QDateTime start = now.addDays(-365);
    const qint64 stepMs = qint64(365) * 86'400'000 / rows;
    {
        HistoryStore store;
        OpenOptions quick;
        quick.checkIntegrity = false;
        store.open(path, quick);
        QElapsedTimer t;
        t.start();
        int written = 0;
        int request = 0;
        constexpr int kBatch = 10'000;
        store.begin();
        while (written < rows) {
            // Each conversation's sends follow each other in time, as a person's do.
            const QUuid conversation
                = conversations.at(int(qint64(written) * conversations.size() / rows));
            for (const UsageRecord &u : benchSend(
                     random, start.addMSecs(qint64(written) * stepMs), conversation, ++request)) {
                if (written == rows)
                    break;
                store.addUsage(u);
                if (++written % kBatch == 0) {
                    store.commit();
                    store.begin();
                }
            }
        }
        if (!store.commit()) {
            std::printf("usage generation failed: %s\n", qPrintable(store.lastError()));
            ++*failures;
            return;
        }
        const double ms = msSince(t);
        std::printf("usage ledger: %lld rows, %d sends over a year, in transactions of %d: %.1f s "
                    "(%.1f us a row, the rollup triggers included)\n",
            static_cast<long long>(store.usageCount()), request, kBatch, ms / 1000,
            ms * 1000 / rows);
    }
    std::printf("database size: %.1f MiB\n", double(QFileInfo(path).size()) / (1024.0 * 1024.0));

    timeInsights(path, failures);

    // --- what the triggers add to an attempt's write, and the migration that makes the rollups ---
    // A copy of the file made version 10 again (no rollups, no triggers): the same rows, so the
    // two writes differ by the triggers alone.
    const QString before = path + u".v10"_s;
    QFile::remove(before);
    QFile::copy(path, before);
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"bench-v10"_s);
        db.setDatabaseName(before);
        db.open();
        QSqlQuery q(db);
        for (const QString &trigger : { u"usage_days_rollup"_s, u"usage_refusals_rollup"_s,
                 u"usage_waits_rollup"_s, u"usage_sends_rollup"_s })
            q.exec(u"DROP TRIGGER "_s + trigger);
        for (const QString &table : usageRollupTables())
            q.exec(u"DROP TABLE "_s + table);
        q.exec(u"PRAGMA user_version = 10"_s);
        q.finish();
        db.close();
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(u"bench-v10"_s);
    }
    const auto writes = [&](const QString &file, const OpenOptions &options, const char *what) {
        HistoryStore store;
        store.open(file, options);
        QList<double> single;
        int request = 10'000'000;
        for (int i = 0; i < 2000; ++i) {
            const QList<UsageRecord> send = benchSend(
                random, QDateTime::currentDateTimeUtc(), conversations.front(), ++request);
            QElapsedTimer t;
            t.start();
            store.addUsage(send.front());
            single.append(msSince(t) * 1000);
        }
        QList<UsageRecord> batch;
        while (batch.size() < 10'000)
            batch += benchSend(
                random, QDateTime::currentDateTimeUtc(), conversations.front(), ++request);
        QElapsedTimer t;
        t.start();
        store.begin();
        for (const UsageRecord &u : batch)
            store.addUsage(u);
        store.commit();
        const double batched = msSince(t) * 1000 / double(batch.size());
        const Figures f = figuresOf(single);
        std::printf("addUsage %s: each in its own transaction median %.0f us, p99 %.0f us; %lld "
                    "in one transaction %.1f us a row\n",
            what, f.medianMs, f.p99Ms, static_cast<long long>(batch.size()), batched);
    };
    OpenOptions quick;
    quick.checkIntegrity = false;
    OpenOptions v10 = quick;
    v10.migrations.assign(schemaMigrations().cbegin(), schemaMigrations().cbegin() + 10);
    writes(before, v10, "without the triggers (schema 10)");
    writes(path, quick, "with the triggers (schema 11)   ");
    {
        HistoryStore store;
        QElapsedTimer t;
        t.start();
        const OpenResult r = store.open(before, quick);
        std::printf("migration 10 -> 11 (the rollups made from %lld rows): %.1f s (%s)\n",
            static_cast<long long>(store.usageCount()), msSince(t) / 1000, qPrintable(r.message()));
        check(r.version == 11, "the copy migrates to schema 11", failures);
    }
    for (const QString &suffix : { u""_s, u"-wal"_s, u"-shm"_s })
        QFile::remove(before + suffix);
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const bool full
        = args.contains(u"--full"_s) || qEnvironmentVariableIntValue("CAPWATCH_BENCH_FULL") == 1;
    const bool usage = args.contains(u"--usage"_s);
    if (const qsizetype at = args.indexOf(u"--insights"_s); at >= 0 && at + 1 < args.size()) {
        // Only the insights' figures, on a history made before (--usage --keep DIR).
        int failures = 0;
        timeInsights(args.at(at + 1), &failures);
        return failures == 0 ? 0 : 1;
    }
    const Scale scale = full ? Scale { 10000, 200000, 1000000 } : Scale { 200, 6000, 20000 };
    constexpr int kBigConversation = 2000;
    constexpr int kWriterRecords = 10000;
    int failures = 0;
    // The bounds catch a runaway, they do not measure: under AddressSanitizer (the CI's sanitizer
    // stage runs this too) every query runs several times slower, so they are widened there.
    if (capwatch::testing::kTimeFactor > 1)
        std::printf("AddressSanitizer build: every time bound below is %d times wider\n",
            capwatch::testing::kTimeFactor);

    QTemporaryDir tmp;
    QString dir = tmp.path();
    if (const qsizetype keep = args.indexOf(u"--keep"_s); keep >= 0 && keep + 1 < args.size()) {
        dir = args.at(keep + 1);
        QDir().mkpath(dir);
    }
    const QString path = dir + u"/history.sqlite"_s;
    QFile::remove(path);
    std::printf("scale: %d conversations, %d messages, %d retry records (%s)\n",
        scale.conversations, scale.messages, scale.records, full ? "full" : "small");

    QRandomGenerator random(14);
    const QStringList words = vocabulary(random);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QUuid big;
    QUuid oldest;
    QList<QUuid> conversations;

    // --- generation: one transaction, the store's prepared statements ---
    {
        HistoryStore store;
        if (!store.open(path).persistent())
            return 2;
        QElapsedTimer t;
        t.start();
        store.begin();
        const int perConversation = (scale.messages - kBigConversation) / (scale.conversations - 1);
        const int sends = scale.messages / 2;
        const int recordsPerSend = scale.records / sends;
        int messages = 0;
        qint64 records = 0;
        for (int c = 0; c < scale.conversations; ++c) {
            // Spread over two years; conversation 0 is the oldest, conversation 1 the big one.
            QDateTime when = now.addSecs(
                -qint64(2 * 365 * 86400) + qint64(c) * (2 * 365 * 86400) / scale.conversations);
            Conversation conv;
            conv.endpoint = u"https://api.example.invalid/v1"_s;
            conv.model = u"model-%1"_s.arg(c % 7);
            conv.created = when;
            store.addConversation(conv);
            conversations.append(conv.id);
            if (c == 0)
                oldest = conv.id;
            if (c == 1)
                big = conv.id;
            const int count = c == 1           ? kBigConversation
                : c == scale.conversations - 1 ? scale.messages - messages
                                               : perConversation;
            for (int m = 0; m + 1 < count; m += 2) {
                when = when.addSecs(30);
                Message prompt;
                prompt.conversation = conv.id;
                prompt.role = Role::User;
                prompt.text
                    = (c == 0 && m == 0 ? u"zanzibarite "_s : QString()) + sentence(random, words);
                prompt.created = when;
                store.addMessage(prompt);
                Send send;
                send.conversation = conv.id;
                send.message = prompt.id;
                send.started = when;
                store.addSend(send);
                for (int r = 1; r <= recordsPerSend && records < scale.records; ++r, ++records) {
                    RetryRecord rec;
                    rec.time = when.addMSecs(r * 100);
                    rec.request = m / 2 + 1;
                    rec.event = r == recordsPerSend ? u"succeeded"_s : u"retry_scheduled"_s;
                    rec.attempt = r;
                    rec.status = r == recordsPerSend ? 200 : 422;
                    rec.category = r == recordsPerSend ? capwatch::retry::Category::Success
                                                       : capwatch::retry::Category::TokenLimit;
                    if (r != recordsPerSend) {
                        rec.used = 60000 + r;
                        rec.limit = 60000;
                        rec.waitMs = 1000 * r;
                        rec.waitSource = capwatch::retry::WaitSource::Message;
                        rec.waitedTotalMs = 1000 * r;
                        rec.budgetLeftMs = 7200000 - 1000 * r;
                        rec.error
                            = u"Token limit exceeded: used %1, limit 60000. Retry in %2 sec."_s
                                  .arg(60000 + r)
                                  .arg(r);
                    }
                    store.addRetryRecord(send.id, rec);
                }
                Message answer;
                answer.conversation = conv.id;
                answer.role = Role::Assistant;
                answer.text = sentence(random, words);
                answer.created = when.addSecs(10);
                store.addMessage(answer);
                store.finishSend(send.id, SendOutcome::Succeeded, capwatch::retry::EndReason::None,
                    recordsPerSend, 0, when.addSecs(10));
                messages += 2;
            }
        }
        if (!store.commit()) {
            std::printf("generation failed: %s\n", qPrintable(store.lastError()));
            return 2;
        }
        const double generation = msSince(t);
        std::printf("generation: %.1f s (%d messages, %lld records)\n", generation / 1000, messages,
            static_cast<long long>(store.retryRecordCount()));
    }
    std::printf("database size: %.1f MiB\n", double(QFileInfo(path).size()) / (1024.0 * 1024.0));

    // --- open ---
    HistoryStore store;
    {
        QElapsedTimer t;
        t.start();
        OpenOptions quick;
        quick.checkIntegrity = false;
        store.open(path, quick);
        const double plain = msSince(t);
        store.close();
        t.start();
        const OpenResult opened = store.open(path);
        std::printf("open: %.1f ms without, %.1f ms with the integrity check (%s)\n", plain,
            msSince(t), qPrintable(opened.message()));
    }

    // --- the first page of the list, and paging on ---
    {
        QList<double> ms;
        ConversationPage page;
        for (int i = 0; i < 50; ++i) {
            QElapsedTimer t;
            t.start();
            page = store.conversations(50);
            ms.append(msSince(t));
        }
        const Figures f = figuresOf(ms);
        std::printf(
            "first page (50 conversations): median %.2f ms, p99 %.2f ms\n", f.medianMs, f.p99Ms);
        check(f.medianMs < runawayBoundMs(50), "first page under 50 ms", &failures);
        QList<double> deep;
        int pages = 0;
        for (PageCursor cursor; pages < 400; ++pages) {
            QElapsedTimer t;
            t.start();
            page = store.conversations(50, cursor);
            deep.append(msSince(t));
            if (!page.hasMore)
                break;
            cursor = page.next;
        }
        const Figures d = figuresOf(deep);
        std::printf("every page in turn (%d pages of 50): median %.2f ms, max %.2f ms\n", pages + 1,
            d.medianMs, d.maxMs);
    }

    // --- a 2,000-message conversation ---
    {
        QElapsedTimer t;
        t.start();
        const QList<Message> all = store.messages(big);
        const double whole = msSince(t);
        QList<double> pieces;
        for (int offset = 0; offset < kBigConversation; offset += 100) {
            t.start();
            store.messages(big, offset, 100);
            pieces.append(msSince(t));
        }
        t.start();
        const qsizetype records = store.retryRecords(big).size();
        const double log = msSince(t);
        t.start();
        const qsizetype sends = store.sends(big).size();
        const double sendMs = msSince(t);
        const Figures p = figuresOf(pieces);
        std::printf(
            "open a %lld-message conversation: all at once %.1f ms; in pieces of 100: median %.2f "
            "ms, max %.2f ms; its %lld sends %.1f ms, %lld retry records %.1f ms\n",
            static_cast<long long>(all.size()), whole, p.medianMs, p.maxMs,
            static_cast<long long>(sends), sendMs, static_cast<long long>(records), log);
        check(all.size() == kBigConversation, "the big conversation has 2,000 messages", &failures);
        check(p.maxMs < runawayBoundMs(16), "a piece of 100 messages within a 16 ms frame",
            &failures);
    }

    // --- search ---
    {
        const QStringList queries { u"zanzibarite"_s, words.at(0), words.at(1) + u' ' + words.at(2),
            words.at(4000), u"ka"_s, u"dar"_s, words.at(10).left(4), u"nothingmatchesthis"_s,
            words.at(3) + u' ' + words.at(4999) };
        QList<double> ms;
        QList<QList<double>> perQuery(queries.size());
        int found = 0;
        for (int round = 0; round < 20; ++round) {
            for (qsizetype i = 0; i < queries.size(); ++i) {
                const QString &q = queries.at(i);
                QElapsedTimer t;
                t.start();
                const QList<SearchHit> hits = store.search(q, 50);
                ms.append(msSince(t));
                perQuery[i].append(ms.back());
                if (q == u"zanzibarite"_s && hits.size() == 1
                    && hits.front().conversation == oldest)
                    ++found;
            }
        }
        const Figures f = figuresOf(ms);
        std::printf("search (%lld queries: rare, common, two words, prefixes, none): median %.2f "
                    "ms, p99 %.2f ms, max %.2f ms\n",
            static_cast<long long>(ms.size()), f.medianMs, f.p99Ms, f.maxMs);
        // Each query's median, to see which kind costs what.
        for (qsizetype i = 0; i < queries.size(); ++i)
            std::printf("  \"%s\": median %.2f ms, max %.2f ms\n", qPrintable(queries.at(i)),
                figuresOf(perQuery.at(i)).medianMs, figuresOf(perQuery.at(i)).maxMs);
        check(found == 20, "search finds the word of the oldest message", &failures);
        check(f.p99Ms < runawayBoundMs(50), "search p99 under 50 ms", &failures);
    }

    // --- export every record ---
    {
        QElapsedTimer t;
        t.start();
        qint64 n = 0;
        store.forEachRetryRecord({}, {}, [&n](const StoredRetryRecord &) {
            ++n;
            return true;
        });
        std::printf("export: %lld records in %.1f ms\n", static_cast<long long>(n), msSince(t));
    }
    store.close();

    if (usage)
        benchUsage(path, conversations, scale.records, &failures);

    // --- the GUI thread's cost of storing a retry record (the writer's worker does the rest) ---
    {
        HistoryWriter writer;
        QEventLoop loop;
        QObject::connect(&writer, &HistoryWriter::opened, &loop, &QEventLoop::quit);
        writer.open(path);
        loop.exec();
        Conversation conv;
        conv.endpoint = u"https://api.example.invalid/v1"_s;
        const QUuid c = writer.addConversation(conv);
        Message prompt;
        prompt.conversation = c;
        prompt.text = u"bench"_s;
        Send send;
        send.conversation = c;
        send.message = writer.addMessage(prompt);
        const QUuid s = writer.addSend(send);
        QList<double> ms;
        QElapsedTimer total;
        total.start();
        for (int i = 0; i < kWriterRecords; ++i) {
            RetryRecord r;
            r.time = QDateTime::currentDateTimeUtc();
            r.request = 1;
            r.event = u"retry_scheduled"_s;
            r.attempt = i + 1;
            r.status = 422;
            r.category = capwatch::retry::Category::TokenLimit;
            r.waitMs = 1000;
            r.error = u"Token limit exceeded: used 61000, limit 60000. Retry in 1 sec."_s;
            QElapsedTimer t;
            t.start();
            writer.addRetryRecord(s, r);
            ms.append(msSince(t));
        }
        QObject::connect(&writer, &HistoryWriter::flushed, &loop, &QEventLoop::quit);
        writer.flush();
        loop.exec();
        const double drained = msSince(total);
        const Figures f = figuresOf(ms);
        std::printf(
            "GUI-thread cost of storing a retry record (%d records): median %.4f ms, p99 %.4f ms, "
            "max %.3f ms; all on disk after %.0f ms (%.1f us a record on the worker)\n",
            kWriterRecords, f.medianMs, f.p99Ms, f.maxMs, drained, drained * 1000 / kWriterRecords);
        check(f.medianMs < runawayBoundMs(1) && f.p99Ms < runawayBoundMs(1),
            "storing a record costs the GUI thread under 1 ms", &failures);
    }

    // --- retention: a tenth of the conversations are older than 657 days ---
    {
        HistoryStore s;
        s.open(path);
        QElapsedTimer t;
        t.start();
        const int deleted = s.deleteOlderThan(2 * 365 - 73, now);
        std::printf("retention: %d conversations deleted in %.1f ms; %lld records left\n", deleted,
            msSince(t), static_cast<long long>(s.retryRecordCount()));
    }
    std::printf("%s\n", failures == 0 ? "all bounds met" : "some bounds missed");
    return failures == 0 ? 0 : 1;
}
