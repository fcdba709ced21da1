// The insights (docs/history.md, "Insights"): the usage ledger summed in SQL on the history's
// worker, by local day, model, profile and endpoint, with the refusals by category, the retry
// waits by where they came from, and the sends by how they ended. Only sums leave the database:
// a year of a million attempts is a few hundred rows.

#include "historylogging.h"
#include "historystore.h"
#include "historystore_p.h"

#include <QSqlRecord>
#include <limits>

namespace capwatch::history {

using namespace Qt::StringLiterals;
using namespace detail;

namespace {

/// The span and the filter of `query` as a WHERE clause and its values.
QString whereOf(const InsightsQuery &query, QVariantList *values)
{
    QString where = u"time_ms >= ? AND time_ms < ?"_s;
    values->append(query.from.isValid() ? query.from.startOfDay().toMSecsSinceEpoch()
                                        : std::numeric_limits<qint64>::min());
    values->append(query.to.isValid() ? query.to.addDays(1).startOfDay().toMSecsSinceEpoch()
                                      : std::numeric_limits<qint64>::max());
    if (!query.profile.isEmpty()) {
        where += u" AND profile = ?"_s;
        values->append(query.profile);
    }
    if (!query.model.isEmpty()) {
        where += u" AND model = ?"_s;
        values->append(query.model);
    }
    return where;
}

} // namespace

Insights HistoryStore::insights(const InsightsQuery &query)
{
    Insights out;
    if (!m_db.tables().contains(u"usage"_s))
        return out;
    QVariantList values;
    const QString where = whereOf(query, &values);
    const bool hasWaitSource = m_db.record(u"usage"_s).contains(u"wait_source"_s);
    const auto prepare = [&](QSqlQuery &q, const QString &sql) {
        q.setForwardOnly(true);
        q.prepare(sql);
        for (int i = 0; i < values.size(); ++i)
            q.bindValue(i, values.at(i));
        return run(&q, u"insights"_s);
    };

    // The days: the local date as capwatch-cli usage --by day takes it (the process's zone).
    QSqlQuery days(m_db);
    if (!prepare(days,
            u"SELECT date(time_ms / 1000, 'unixepoch', 'localtime') AS day, model, profile, "
            "endpoint, count(*), total(prompt_tokens), total(completion_tokens), "
            "total(CASE WHEN cost_source = 'provider' THEN cost END), "
            "total(CASE WHEN cost_source = 'price_table' THEN cost END), total(waited_ms), "
            "total(paced_ms), total(parked_ms) FROM usage WHERE "_s
                + where + u" GROUP BY day, model, profile, endpoint ORDER BY day, model"_s))
        return out;
    while (days.next()) {
        InsightsDay d;
        d.day = QDate::fromString(days.value(0).toString(), Qt::ISODate);
        d.model = days.value(1).toString();
        d.profile = days.value(2).toString();
        d.endpoint = days.value(3).toString();
        d.attempts = days.value(4).toLongLong();
        d.promptTokens = qint64(days.value(5).toDouble());
        d.completionTokens = qint64(days.value(6).toDouble());
        d.billed = days.value(7).toDouble();
        d.estimated = days.value(8).toDouble();
        d.waitedMs = qint64(days.value(9).toDouble());
        d.pacedMs = qint64(days.value(10).toDouble());
        d.parkedMs = qint64(days.value(11).toDouble());
        out.days.append(d);
    }

    QSqlQuery refusals(m_db);
    if (prepare(refusals,
            u"SELECT category, count(*) FROM usage WHERE "_s + where
                + u" AND category IS NOT NULL AND category <> '' GROUP BY category"_s)) {
        while (refusals.next())
            out.refusals.insert(refusals.value(0).toString(), refusals.value(1).toLongLong());
    }

    if (hasWaitSource) {
        QSqlQuery sources(m_db);
        if (prepare(sources,
                u"SELECT wait_source, count(*), total(waited_ms) FROM usage WHERE "_s + where
                    + u" AND waited_ms > 0 AND wait_source IS NOT NULL AND wait_source <> '' "
                      "GROUP BY wait_source"_s)) {
            while (sources.next())
                out.waitSources.insert(sources.value(0).toString(),
                    { sources.value(1).toLongLong(), qint64(sources.value(2).toDouble()) });
        }
    }

    // Each send by its rows in the span: answered (a 2xx that was no refusal), parked, attempts.
    QSqlQuery sends(m_db);
    if (prepare(sends,
            u"SELECT count(*), max(status >= 200 AND status < 300 AND (category IS NULL OR "
            "category = '')), max(parked_ms > 0) FROM usage WHERE "_s
                + where
                + u" GROUP BY CASE WHEN send_uuid <> '' THEN send_uuid ELSE conversation_uuid "
                  "|| '#' || request END"_s)) {
        while (sends.next()) {
            const qint64 attempts = sends.value(0).toLongLong();
            const bool answered = sends.value(1).toLongLong() != 0;
            const bool parked = sends.value(2).toLongLong() != 0;
            if (!answered)
                ++out.notAnswered;
            else if (parked)
                ++out.parkedThenAnswered;
            else if (attempts > 1)
                ++out.afterRetries;
            else
                ++out.firstTime;
        }
    }
    return out;
}

} // namespace capwatch::history
