#pragma once

// The insights' sums (history::Insights, from SQL on the history's worker) as the tables the
// charts draw (docs/insights.md): tokens and cost per day, the time lost to caps, the refusals,
// where the waits came from, the outcomes of sends. Each day of the range is a row, empty or not;
// a range longer than 45 days is shown by week, longer than 200 by month, so a bar stays wider
// than a line. Colours are the categories' (categorycolors.h), for the palette given.

#include "history/historytypes.h"
#include "ui/insights/insightstable.h"

#include <QCoreApplication>
#include <QDate>
#include <QPalette>

namespace capwatch::ui {

class InsightsDigest
{
    Q_DECLARE_TR_FUNCTIONS(capwatch::ui::InsightsDigest)

public:
    enum class Split
    {
        Model,
        Profile
    };
    enum class Bucket
    {
        Day,
        Week,
        Month
    };

    /// The span and grouping of the tables: `from` to `to` (both included).
    InsightsDigest(
        const history::Insights &insights, QDate from, QDate to, const QPalette &palette);

    static Bucket bucketFor(QDate from, QDate to);
    Bucket bucket() const { return m_bucket; }

    /// Tokens (prompt + completion) per day, stacked by model or profile: the 7 largest and
    /// "Other".
    InsightsTable tokens(Split split) const;
    /// Cost per day: billed by the provider, and estimated from prices (hatched).
    InsightsTable cost() const;
    /// Time lost to caps per day: retry waits, pacing, parked time, in minutes.
    InsightsTable timeLost() const;
    /// The same per profile (the provider as the user named it) over the range.
    InsightsTable timeLostByProvider() const;
    /// Attempts refused, by category.
    InsightsTable refusals() const;
    /// Retry waits by where they came from: minutes (charted) and how many.
    InsightsTable waitSources() const;
    /// Sends by how they ended.
    InsightsTable outcomes() const;

    /// The first day of the week (Monday) or month that holds `day`; the range's first row starts
    /// with the range.
    QDate bucketStart(QDate day) const;

private:
    QList<QDate> buckets() const;
    void fillRows(InsightsTable *table) const;
    int rowOf(QDate day) const;

    history::Insights m_insights; ///< shared, not copied
    QDate m_from;
    QDate m_to;
    Bucket m_bucket;
    QPalette m_palette;
    QList<QDate> m_buckets;
};

} // namespace capwatch::ui
