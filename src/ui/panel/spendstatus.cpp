#include "ui/panel/spendstatus.h"

#include "session/chatsession.h"
#include "session/sendtexts.h"
#include "session/usagetally.h"
#include "ui/panel/categorycolors.h"

#include <QEvent>
#include <QLocale>
#include <QStatusBar>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

SpendStatus::SpendStatus(session::ChatSession *session, session::UsageTally *tally, QStatusBar *bar)
    : QLabel(bar)
    , m_session(session)
    , m_tally(tally)
{
    setObjectName(u"spendStatus"_s);
    setAccessibleName(tr("Usage today"));
    bar->addPermanentWidget(this);
    hide();
    connect(tally, &session::UsageTally::changed, this, &SpendStatus::refresh);
    connect(tally, &session::UsageTally::loaded, this, &SpendStatus::refresh);
    connect(session, &session::ChatSession::providerChanged, this, &SpendStatus::refresh);
    refresh();
}

void SpendStatus::refresh()
{
    if (!m_session || !m_tally)
        return;
    const session::ProviderChoice &choice = m_session->provider().choice();
    const QString profile = choice.profileName;
    const session::UsageTally::Spent day = m_tally->today(profile);
    const session::UsageTally::Spent month = m_tally->thisMonth(profile);
    const retry::SpendLimits &limits = choice.spend;
    const QLocale locale;
    const QString currency = u"USD"_s;
    const QString money = session::SendTexts::money(day.amount(), currency);
    const QString tokens = locale.toString(day.tokens);

    QString text;
    int percent = 0;
    if (limits.empty()) {
        if (day.attempts == 0) {
            hide();
            return;
        }
        text = day.amount() > 0 ? tr("Today: %1 · %2 tokens").arg(money, tokens)
                                : tr("Today: %1 tokens").arg(tokens);
    } else {
        const retry::SpendCheck check = retry::checkSpend(limits,
            { day.tokens, month.tokens, day.amount(), month.amount() }, { 0, std::nullopt });
        percent = retry::spendThreshold(check.fraction);
        const QString used = retry::isMoney(check.limit)
            ? session::SendTexts::money(check.used, currency)
            : locale.toString(qint64(check.used));
        const QString allowed = retry::isMoney(check.limit)
            ? session::SendTexts::money(check.allowed, currency)
            : locale.toString(qint64(check.allowed));
        switch (check.limit) {
        case retry::SpendLimitKind::TokensDay:
            text = tr("Today: %1 of %2 tokens").arg(used, allowed);
            break;
        case retry::SpendLimitKind::TokensMonth:
            text = tr("This month: %1 of %2 tokens").arg(used, allowed);
            break;
        case retry::SpendLimitKind::CostDay:
            text = tr("Today: %1 of %2").arg(used, allowed);
            break;
        case retry::SpendLimitKind::CostMonth:
            text = tr("This month: %1 of %2").arg(used, allowed);
            break;
        case retry::SpendLimitKind::None:
            break;
        }
        // Once per threshold and period: the first figure of a period is where it starts from.
        const QDate today = m_tally->now().date();
        const QString period = retry::isDaily(check.limit) ? today.toString(Qt::ISODate)
                                                           : today.toString(u"yyyy-MM"_s);
        const QString key
            = profile + u'/' + QString::fromLatin1(retry::nameOf(check.limit)) + u'/' + period;
        const auto seen = m_seen.constFind(key);
        if (seen == m_seen.constEnd()) {
            m_seen.insert(key, percent);
        } else if (percent > *seen) {
            m_seen.insert(key, percent);
            const QString title = percent >= 100
                ? tr("Spending limit reached: %1").arg(profile)
                : tr("%1 % of a spending limit used: %2").arg(percent).arg(profile);
            Q_EMIT limitWarning(title, text, percent);
        }
    }
    QString tip
        = tr("%1 today. Requests: %2; tokens: %3").arg(profile).arg(day.attempts).arg(tokens);
    if (day.billed > 0)
        tip += u'\n'
            + tr("Billed by the provider: %1").arg(session::SendTexts::money(day.billed, {}));
    if (day.estimated > 0)
        tip += u'\n'
            + tr("Estimated from prices: %1")
                  .arg(session::SendTexts::money(day.estimated, currency));
    if (day.unpriced > 0)
        tip += u'\n' + tr("Attempts with no known price: %1").arg(day.unpriced);
    setToolTip(tip);
    setText(text);
    // In the category colours: past 80 % the rate limit's, at the limit the failure's.
    const QPalette base = parentWidget() ? parentWidget()->palette() : palette();
    QPalette p = base;
    p.setColor(QPalette::WindowText,
        percent >= 100      ? categoryColor(u"fatal"_s, base)
            : percent >= 80 ? categoryColor(u"rate_limit"_s, base)
                            : base.color(QPalette::WindowText));
    setPalette(p);
    show();
}

void SpendStatus::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        setAccessibleName(tr("Usage today"));
        refresh();
    }
    QLabel::changeEvent(event);
}

} // namespace capwatch::ui
