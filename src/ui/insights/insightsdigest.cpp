#include "ui/insights/insightsdigest.h"

#include "retry/classifier.h"
#include "session/retrytexts.h"
#include "ui/panel/categorycolors.h"

#include <QLocale>
#include <algorithm>
#include <map>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

namespace {

constexpr int kDaysShownByDay = 45;
constexpr int kDaysShownByWeek = 200;
constexpr int kLargestSeries = 7;

/// Distinct hues for series without a category (models, profiles): a qualitative set, its
/// lightness moved towards the palette's text on dark themes as the categories' is.
QColor seriesColor(int i, const QPalette &palette)
{
    static const QRgb hues[] = { 0x4e79a7, 0xf28e2b, 0x59a14f, 0xb07aa1, 0x76b7b2, 0xedc948,
        0xff9da7, 0x9c755f, 0xbab0ac };
    const QColor c(hues[i % int(std::size(hues))]);
    return isDarkPalette(palette) ? blend(c, Qt::white, 0.15) : c;
}

InsightsTable::Series makeSeries(const QString &key, const QString &name, const QColor &color,
    InsightsTable::Unit unit, bool estimated = false, bool charted = true,
    const QString &currency = {})
{
    InsightsTable::Series s;
    s.key = key;
    s.name = name;
    s.color = color;
    s.unit = unit;
    s.estimated = estimated;
    s.charted = charted;
    s.currency = currency;
    return s;
}

/// A table whose rows are categories, each drawn in its own colour (rowColors).
InsightsTable rowsTable(const QString &id, const QString &title, const QString &valueTitle,
    const QString &rowTitle, const QString &rowKind)
{
    InsightsTable t;
    t.id = id;
    t.title = title;
    t.valueTitle = valueTitle;
    t.kind = ChartKind::StackedBars;
    t.colorsByRow = true;
    t.rowTitle = rowTitle;
    t.rowKind = rowKind;
    return t;
}

QString dayLabel(QDate day, InsightsDigest::Bucket bucket)
{
    const QLocale locale;
    const bool chinese = locale.language() == QLocale::Chinese;
    const bool german = locale.language() == QLocale::German;
    if (bucket == InsightsDigest::Bucket::Month)
        return locale.toString(day, chinese ? u"yyyy年M月"_s : u"MMM yyyy"_s);
    return locale.toString(day, chinese ? u"M月d日"_s : german ? u"d. MMM"_s : u"d MMM"_s);
}

} // namespace

InsightsDigest::InsightsDigest(
    const history::Insights &insights, QDate from, QDate to, const QPalette &palette)
    : m_insights(insights)
    , m_from(from)
    , m_to(to < from ? from : to)
    , m_bucket(bucketFor(from, to))
    , m_palette(palette)
{
    m_buckets = buckets();
}

InsightsDigest::Bucket InsightsDigest::bucketFor(QDate from, QDate to)
{
    const qint64 days = from.daysTo(to) + 1;
    return days <= kDaysShownByDay ? Bucket::Day
        : days <= kDaysShownByWeek ? Bucket::Week
                                   : Bucket::Month;
}

QDate InsightsDigest::bucketStart(QDate day) const
{
    switch (m_bucket) {
    case Bucket::Day:
        return day;
    case Bucket::Week:
        return day.addDays(1 - day.dayOfWeek()); // from Monday, as ISO weeks
    case Bucket::Month:
        return QDate(day.year(), day.month(), 1);
    }
    return day;
}

QList<QDate> InsightsDigest::buckets() const
{
    QList<QDate> out;
    if (!m_from.isValid() || !m_to.isValid())
        return out;
    // The first week or month starts with the range, not before it: its row holds what the
    // range holds of it, and says from when.
    out.append(m_from);
    for (QDate d = bucketStart(m_from);;) {
        d = m_bucket == Bucket::Day    ? d.addDays(1)
            : m_bucket == Bucket::Week ? d.addDays(7)
                                       : d.addMonths(1);
        if (d > m_to)
            break;
        out.append(d);
    }
    return out;
}

int InsightsDigest::rowOf(QDate day) const
{
    if (m_buckets.isEmpty() || day < m_buckets.first() || day > m_to)
        return -1;
    const QDate start = std::max(bucketStart(day), m_buckets.first());
    const auto it = std::lower_bound(m_buckets.cbegin(), m_buckets.cend(), start);
    return it != m_buckets.cend() && *it == start ? int(it - m_buckets.cbegin()) : -1;
}

void InsightsDigest::fillRows(InsightsTable *table) const
{
    switch (m_bucket) {
    case Bucket::Day:
        table->rowTitle = tr("Day");
        table->rowKind = u"day"_s;
        break;
    case Bucket::Week:
        table->rowTitle = tr("Week from");
        table->rowKind = u"week"_s;
        break;
    case Bucket::Month:
        table->rowTitle = tr("Month");
        table->rowKind = u"month"_s;
        break;
    }
    for (const QDate &d : m_buckets) {
        table->rows.append(dayLabel(d, m_bucket));
        table->rowKeys.append(m_bucket == Bucket::Month && d.day() == 1 ? d.toString(u"yyyy-MM"_s)
                                                                        : d.toString(Qt::ISODate));
        table->values.append(QList<double>(table->series.size(), 0.0));
    }
}

InsightsTable InsightsDigest::tokens(Split split) const
{
    InsightsTable t;
    t.id = u"tokens"_s;
    t.title = split == Split::Model ? tr("Tokens by model") : tr("Tokens by profile");
    t.valueTitle = tr("Tokens");
    // The largest series by their total over the range; the rest are "Other".
    std::map<QString, qint64> totals;
    for (const history::InsightsDay &d : m_insights.days)
        totals[split == Split::Model ? d.model : d.profile] += d.promptTokens + d.completionTokens;
    std::vector<std::pair<QString, qint64>> order(totals.cbegin(), totals.cend());
    std::stable_sort(order.begin(), order.end(),
        [](const auto &a, const auto &b) { return a.second > b.second; });
    QHash<QString, int> column;
    const bool other = int(order.size()) > kLargestSeries + 1;
    for (int i = 0; i < int(order.size()); ++i) {
        if (other && i >= kLargestSeries) {
            column.insert(order.at(i).first, kLargestSeries);
            continue;
        }
        const QString name = order.at(i).first;
        column.insert(name, i);
        t.series.append(makeSeries(name, name.isEmpty() ? tr("(none)") : name,
            seriesColor(i, m_palette), InsightsTable::Unit::Tokens));
    }
    if (other)
        t.series.append(makeSeries(
            u"other"_s, tr("Other"), neutralCategoryColor(m_palette), InsightsTable::Unit::Tokens));
    fillRows(&t);
    for (const history::InsightsDay &d : m_insights.days) {
        const int row = rowOf(d.day);
        const int c = column.value(split == Split::Model ? d.model : d.profile, -1);
        if (row >= 0 && c >= 0)
            t.values[row][c] += double(d.promptTokens + d.completionTokens);
    }
    return t;
}

InsightsTable InsightsDigest::cost() const
{
    InsightsTable t;
    t.id = u"cost"_s;
    t.title = tr("Cost");
    t.valueTitle = tr("Cost");
    t.currency = u"USD"_s;
    const QColor money = categoryColor(u"billing"_s, m_palette);
    t.series.append(makeSeries(u"cost_billed"_s, tr("Billed by the provider"), money,
        InsightsTable::Unit::Money, false, true, u"-"_s));
    t.series.append(makeSeries(u"cost_estimated"_s, tr("Estimated from prices"), money,
        InsightsTable::Unit::Money, true, true, {}));
    fillRows(&t);
    for (const history::InsightsDay &d : m_insights.days) {
        const int row = rowOf(d.day);
        if (row < 0)
            continue;
        t.values[row][0] += d.billed;
        t.values[row][1] += d.estimated;
    }
    return t;
}

InsightsTable InsightsDigest::timeLost() const
{
    InsightsTable t;
    t.id = u"time-lost"_s;
    t.title = tr("Time lost to caps");
    t.valueTitle = tr("Minutes");
    t.series.append(makeSeries(u"waited"_s, tr("Retry waits"),
        categoryColor(u"token_limit"_s, m_palette), InsightsTable::Unit::Minutes));
    t.series.append(
        makeSeries(u"paced"_s, tr("Pacing"), pacedColor(m_palette), InsightsTable::Unit::Minutes));
    t.series.append(makeSeries(
        u"parked"_s, tr("Parked"), parkedColor(m_palette), InsightsTable::Unit::Minutes));
    fillRows(&t);
    for (const history::InsightsDay &d : m_insights.days) {
        const int row = rowOf(d.day);
        if (row < 0)
            continue;
        t.values[row][0] += double(d.waitedMs) / 60000.0;
        t.values[row][1] += double(d.pacedMs) / 60000.0;
        t.values[row][2] += double(d.parkedMs) / 60000.0;
    }
    return t;
}

InsightsTable InsightsDigest::timeLostByProvider() const
{
    InsightsTable t = timeLost();
    t.id = u"time-lost-by-profile"_s;
    t.title = tr("Time lost by profile");
    t.kind = ChartKind::StackedBars;
    t.rowTitle = tr("Profile");
    t.rowKind = u"profile"_s;
    t.rows.clear();
    t.rowKeys.clear();
    t.values.clear();
    std::map<QString, std::array<double, 3>> sums;
    for (const history::InsightsDay &d : m_insights.days) {
        if (d.day < m_from || d.day > m_to)
            continue;
        auto &s = sums[d.profile];
        s[0] += double(d.waitedMs) / 60000.0;
        s[1] += double(d.pacedMs) / 60000.0;
        s[2] += double(d.parkedMs) / 60000.0;
    }
    for (const auto &[profile, s] : sums) {
        t.rows.append(profile.isEmpty() ? tr("(none)") : profile);
        t.rowKeys.append(profile);
        t.values.append(QList<double> { s[0], s[1], s[2] });
    }
    return t;
}

InsightsTable InsightsDigest::refusals() const
{
    InsightsTable t = rowsTable(
        u"refusals"_s, tr("Refusals by category"), tr("Attempts"), tr("Category"), u"category"_s);
    t.series.append(
        makeSeries(u"refusals"_s, tr("Refused attempts"), {}, InsightsTable::Unit::Count));
    for (auto it = m_insights.refusals.cbegin(); it != m_insights.refusals.cend(); ++it) {
        t.rows.append(session::RetryTexts::category(it.key()));
        t.rowKeys.append(it.key());
        t.rowColors.append(categoryColor(it.key(), m_palette));
        t.values.append(QList<double> { double(it.value()) });
    }
    return t;
}

InsightsTable InsightsDigest::waitSources() const
{
    InsightsTable t = rowsTable(u"wait-sources"_s, tr("Where the waits came from"), tr("Minutes"),
        tr("Source"), u"source"_s);
    t.series.append(makeSeries(u"waited"_s, tr("Time waited"), {}, InsightsTable::Unit::Minutes));
    t.series.append(
        makeSeries(u"waits"_s, tr("Waits"), {}, InsightsTable::Unit::Count, false, false));
    int i = 0;
    for (auto it = m_insights.waitSources.cbegin(); it != m_insights.waitSources.cend(); ++it) {
        const auto source = retry::waitSourceNamed(it.key().toStdString());
        t.rows.append(source ? session::RetryTexts::waitSource(*source) : it.key());
        t.rowKeys.append(it.key());
        t.rowColors.append(seriesColor(i++, m_palette));
        t.values.append(
            QList<double> { double(it.value().second) / 60000.0, double(it.value().first) });
    }
    return t;
}

InsightsTable InsightsDigest::outcomes() const
{
    InsightsTable t
        = rowsTable(u"outcomes"_s, tr("How sends ended"), tr("Sends"), tr("Outcome"), u"outcome"_s);
    t.series.append(makeSeries(u"sends"_s, tr("Sends"), {}, InsightsTable::Unit::Count));
    const auto add
        = [&](const QString &key, const QString &name, const QColor &colour, qint64 sends) {
              t.rows.append(name);
              t.rowKeys.append(key);
              t.rowColors.append(colour);
              t.values.append(QList<double> { double(sends) });
          };
    add(u"first_time"_s, tr("Answered first time"), categoryColor(u"success"_s, m_palette),
        m_insights.firstTime);
    add(u"after_retries"_s, tr("Answered after retries"), categoryColor(u"rate_limit"_s, m_palette),
        m_insights.afterRetries);
    add(u"parked_then_answered"_s, tr("Parked, then answered"), parkedColor(m_palette),
        m_insights.parkedThenAnswered);
    add(u"not_answered"_s, tr("Not answered"), categoryColor(u"fatal"_s, m_palette),
        m_insights.notAnswered);
    return t;
}

} // namespace capwatch::ui
