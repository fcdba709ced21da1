// The insights (docs/history.md, "Insights"): the usage ledger's rollups (schema v11), which
// triggers keep as each attempt is written, read for a range of local days: the figures by day,
// model, profile and endpoint, the refusals by category, the retry waits by where they came from,
// and the sends by how they ended. A range is a range of the rollups' keys, so a year of a
// million attempts costs what a day does: a few milliseconds, never a pass over the ledger.

#include "historylogging.h"
#include "historystore.h"
#include "historystore_p.h"

#include <set>

namespace capwatch::history {

using namespace Qt::StringLiterals;
using namespace detail;

namespace {

/// The days and the filter of `query` as a WHERE clause on a rollup and its values. The days are
/// the rollups' text keys (YYYY-MM-DD), so an open end is a key before or after every day.
QString whereOf(const InsightsQuery &query, QVariantList *values)
{
    QString where = u"day >= ? AND day <= ?"_s;
    values->append(query.from.isValid() ? query.from.toString(Qt::ISODate) : u""_s);
    values->append(query.to.isValid() ? query.to.toString(Qt::ISODate) : u"9999-12-31"_s);
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
    // A database without the rollups has no ledger to sum (older than v8; a test's older
    // schema): nothing, as for an empty ledger.
    if (!m_db.tables().contains(u"usage_days"_s))
        return out;
    QVariantList values;
    const QString where = whereOf(query, &values);
    const auto select = [&](QSqlQuery &q, const QString &sql, const QVariantList &bound) {
        q.setForwardOnly(true);
        q.prepare(sql);
        for (int i = 0; i < bound.size(); ++i)
            q.bindValue(i, bound.at(i));
        return run(&q, u"insights"_s);
    };

    QSqlQuery days(m_db);
    if (!select(days,
            u"SELECT day, model, profile, endpoint, attempts, prompt_tokens, completion_tokens, "
            "billed, estimated, waited_ms, paced_ms, parked_ms FROM usage_days WHERE "_s
                + where + u" ORDER BY day, model, profile, endpoint"_s,
            values))
        return out;
    while (days.next()) {
        InsightsDay d;
        d.day = QDate::fromString(days.value(0).toString(), Qt::ISODate);
        d.model = days.value(1).toString();
        d.profile = days.value(2).toString();
        d.endpoint = days.value(3).toString();
        d.attempts = days.value(4).toLongLong();
        d.promptTokens = days.value(5).toLongLong();
        d.completionTokens = days.value(6).toLongLong();
        d.billed = days.value(7).toDouble();
        d.estimated = days.value(8).toDouble();
        d.waitedMs = days.value(9).toLongLong();
        d.pacedMs = days.value(10).toLongLong();
        d.parkedMs = days.value(11).toLongLong();
        out.days.append(d);
    }

    QSqlQuery refusals(m_db);
    if (select(refusals,
            u"SELECT category, sum(attempts) FROM usage_refusals WHERE "_s + where
                + u" GROUP BY category"_s,
            values)) {
        while (refusals.next())
            out.refusals.insert(refusals.value(0).toString(), refusals.value(1).toLongLong());
    }

    QSqlQuery sources(m_db);
    if (select(sources,
            u"SELECT wait_source, sum(waits), sum(waited_ms) FROM usage_waits WHERE "_s + where
                + u" GROUP BY wait_source"_s,
            values)) {
        while (sources.next())
            out.waitSources.insert(sources.value(0).toString(),
                { sources.value(1).toLongLong(), sources.value(2).toLongLong() });
    }

    // Each send once, on the day and under the profile and model of its first attempt, with how
    // all its attempts ended (an attempt after the range too).
    QSqlQuery outcomes(m_db);
    if (select(outcomes,
            u"SELECT outcome, sum(sends) FROM usage_outcomes WHERE "_s + where
                + u" GROUP BY outcome"_s,
            values)) {
        while (outcomes.next()) {
            const QString outcome = outcomes.value(0).toString();
            const qint64 sends = outcomes.value(1).toLongLong();
            if (outcome == u"first_time")
                out.firstTime = sends;
            else if (outcome == u"after_retries")
                out.afterRetries = sends;
            else if (outcome == u"parked_then_answered")
                out.parkedThenAnswered = sends;
            else if (outcome == u"not_answered")
                out.notAnswered = sends;
        }
    }

    // What the view's filters offer, whatever this query: the names in the whole ledger (a row
    // without a profile has none to pick), and where the range "All" starts. One pass over the
    // day rollup (about 11,000 rows for a year of 30 profile, endpoint and model pairs).
    QSqlQuery names(m_db);
    if (select(names, u"SELECT DISTINCT profile, model FROM usage_days"_s, {})) {
        std::set<QString> profiles;
        std::set<QString> models;
        while (names.next()) {
            if (QString p = names.value(0).toString(); !p.isEmpty())
                profiles.insert(std::move(p));
            if (QString m = names.value(1).toString(); !m.isEmpty())
                models.insert(std::move(m));
        }
        out.profiles = QStringList(profiles.cbegin(), profiles.cend());
        out.models = QStringList(models.cbegin(), models.cend());
    }
    QSqlQuery first(m_db);
    if (select(first, u"SELECT min(day) FROM usage_days"_s, {}) && first.next())
        out.firstDay = QDate::fromString(first.value(0).toString(), Qt::ISODate);
    return out;
}

} // namespace capwatch::history
