#include "ui/insights/spendgauges.h"

#include "retry/spendlimits.h"
#include "session/profiles.h"
#include "session/sendtexts.h"
#include "session/usagetally.h"
#include "ui/panel/categorycolors.h"
#include "ui/panel/progressvalue.h"

#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

SpendGauges::SpendGauges(QWidget *parent)
    : QWidget(parent)
    , m_grid(new QGridLayout(this))
{
    setObjectName(u"spendGauges"_s);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setColumnStretch(1, 1);
}

void SpendGauges::refresh(const session::ProfileSet &profiles, const session::UsageTally &tally)
{
    // What each gauge says, first: when nothing changed (the ledger followed, another profile
    // spent) the widgets stay as they are, and a screen reader keeps its place.
    struct Row
    {
        QString name;
        QString figures;
        QString projection;
        double fraction = 0;
        int percent = 0;
    };
    QList<Row> rows;
    const QLocale locale;
    const QString currency = u"USD"_s;
    const QDateTime now = tally.now();
    for (const session::ProviderProfile &p : profiles.profiles) {
        const retry::SpendLimits &limits = p.spend;
        if (limits.empty())
            continue;
        const session::UsageTally::Spent day = tally.today(p.name);
        const session::UsageTally::Spent month = tally.thisMonth(p.name);
        struct Gauge
        {
            std::optional<double> allowed;
            double used;
            bool money;
            bool daily;
        };
        const Gauge gauges[] = {
            { limits.tokensDay ? std::optional<double>(double(*limits.tokensDay)) : std::nullopt,
                double(day.tokens), false, true },
            { limits.costDay, day.amount(), true, true },
            { limits.tokensMonth ? std::optional<double>(double(*limits.tokensMonth))
                                 : std::nullopt,
                double(month.tokens), false, false },
            { limits.costMonth, month.amount(), true, false },
        };
        for (const Gauge &g : gauges) {
            if (!g.allowed)
                continue;
            const auto amount = [&](double v) {
                return g.money ? session::SendTexts::money(v, currency)
                               : locale.toString(qint64(v));
            };
            Row r;
            r.name = g.money
                ? (g.daily ? tr("%1 · money today") : tr("%1 · money this month")).arg(p.name)
                : (g.daily ? tr("%1 · tokens today") : tr("%1 · tokens this month")).arg(p.name);
            r.fraction = *g.allowed > 0 ? g.used / *g.allowed : 1.0;
            r.percent = int(r.fraction * 100.0);
            const QDateTime first = tally.firstUse(p.name, !g.daily);
            const QDateTime end = g.daily ? tally.dayEnds() : tally.monthEnds();
            const auto reached = retry::projectLimitReached(g.used, *g.allowed,
                first.isValid() ? first.toMSecsSinceEpoch() : now.toMSecsSinceEpoch(),
                now.toMSecsSinceEpoch(), end.toMSecsSinceEpoch());
            if (r.fraction >= 1.0) {
                r.projection
                    = tr("Reached; it resets %1.")
                          .arg(g.daily ? locale.toString(end.time(), QLocale::ShortFormat)
                                       : locale.toString(end.date(), QLocale::ShortFormat));
            } else if (reached) {
                const QDateTime at = QDateTime::fromMSecsSinceEpoch(*reached);
                r.projection = g.daily ? tr("At this rate the daily limit is reached at %1.")
                                             .arg(locale.toString(at.time(), QLocale::ShortFormat))
                                       : tr("At this rate the monthly limit is reached on %1.")
                                             .arg(locale.toString(at.date(), QLocale::ShortFormat));
            } else if (g.used > 0) {
                r.projection = g.daily ? tr("At this rate it is not reached today.")
                                       : tr("At this rate it is not reached this month.");
            } else {
                r.projection = tr("Nothing used yet.");
            }
            r.figures
                = tr("%1 of %2 (%3 %)").arg(amount(g.used), amount(*g.allowed)).arg(r.percent);
            rows.append(r);
        }
    }
    QStringList lines;
    for (const Row &r : std::as_const(rows))
        lines.append(r.name + u": "_s + r.figures + u" · "_s + r.projection);
    const QString none
        = tr("No profile has a spending limit. Set one in Settings → Providers → Spending limits.");
    if (rows.isEmpty())
        lines.append(none);
    if (lines == m_lines && m_grid->count() > 0)
        return;
    m_lines = lines;

    while (QLayoutItem *item = m_grid->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (int i = 0; i < rows.size(); ++i) {
        const Row &r = rows.at(i);
        auto *label = new QLabel(r.name, this);
        auto *bar = new QProgressBar(this);
        bar->setRange(0, 1000);
        setProgressValue(bar, int(std::min(r.fraction, 1.0) * 1000.0));
        bar->setFormat(r.figures);
        bar->setTextVisible(true);
        // Its figures whole, however narrow the page: the note beside it wraps instead.
        bar->setMinimumWidth(bar->fontMetrics().horizontalAdvance(r.figures)
            + 2 * bar->fontMetrics().averageCharWidth());
        bar->setAccessibleName(r.name);
        // In the status bar's colours: past 80 % the rate limit's, at the limit the failure's.
        QPalette pal = bar->palette();
        if (r.percent >= 80)
            pal.setColor(QPalette::Highlight,
                categoryColor(r.percent >= 100 ? u"fatal"_s : u"rate_limit"_s, pal));
        bar->setPalette(pal);
        auto *note = new QLabel(r.projection, this);
        note->setWordWrap(true);
        m_grid->addWidget(label, i, 0);
        m_grid->addWidget(bar, i, 1);
        m_grid->addWidget(note, i, 2);
    }
    if (rows.isEmpty()) {
        auto *label = new QLabel(none, this);
        label->setWordWrap(true);
        label->setForegroundRole(QPalette::PlaceholderText);
        m_grid->addWidget(label, 0, 0, 1, 3);
    }
}

} // namespace capwatch::ui
