#include "ui/panel/providerwindowpart.h"

#include "session/retrytexts.h"
#include "ui/panel/categorycolors.h"
#include "ui/panel/progressvalue.h"

#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <utility>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

namespace {

/// "4,000 of 6,000", "4,000", or empty without a figure left.
QString leftOf(std::optional<qint64> left, std::optional<qint64> limit)
{
    if (!left)
        return {};
    return limit ? ProviderWindowPart::tr("%1 of %2", "what is left of the provider's limit")
                       .arg(QLocale().toString(*left), QLocale().toString(*limit))
                 : QLocale().toString(*left);
}

/// The share left as a bar value (0..1000), or -1 when the limit is not known.
int shareLeft(std::optional<qint64> left, std::optional<qint64> limit)
{
    if (!left || !limit || *limit <= 0)
        return -1;
    return int(1000 * std::clamp<qint64>(*left, 0, *limit) / *limit);
}

qint64 secondsUntil(const QDateTime &at, const QDateTime &now)
{
    return (now.msecsTo(at) + 999) / 1000;
}

} // namespace

ProviderWindowPart::ProviderWindowPart(QWidget *content, const QFont &titleFont, QObject *parent)
    : QObject(parent)
    , m_wallClock([] { return QDateTime::currentDateTimeUtc(); })
    , m_title(new QLabel(content))
    , m_none(new QLabel(content))
    , m_tokensLabel(new QLabel(content))
    , m_tokensBar(newPanelBar(content))
    , m_requestsLabel(new QLabel(content))
    , m_requestsBar(newPanelBar(content))
    , m_resetLabel(new QLabel(content))
    , m_countdown(new QTimer(this))
    , m_showTimer(new QTimer(this))
{
    // A title of its own, as the panel's, one step smaller; its figures in the panel's
    // small-print size so the part stays compact.
    QFont smaller = titleFont;
    smaller.setPointSizeF(titleFont.pointSizeF() / 1.15);
    m_title->setFont(smaller);
    m_title->setWordWrap(true);
    for (QLabel *l : { m_none, m_tokensLabel, m_requestsLabel, m_resetLabel }) {
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_countdown->setInterval(1000);
    connect(m_countdown, &QTimer::timeout, this, &ProviderWindowPart::refresh);
    m_showTimer->setSingleShot(true);
    m_showTimer->setInterval(0);
    connect(m_showTimer, &QTimer::timeout, this, &ProviderWindowPart::show);
}

void ProviderWindowPart::setWallClock(std::function<QDateTime()> now)
{
    m_wallClock = std::move(now);
    refresh();
}

void ProviderWindowPart::setWindow(const std::optional<history::ProviderWindowRecord> &window)
{
    m_changed = m_changed || window != m_window;
    m_window = window;
    m_showTimer->start();
}

void ProviderWindowPart::show()
{
    m_showTimer->stop();
    refresh();
    if (std::exchange(m_changed, false))
        Q_EMIT changed(m_tokensLabel->isHidden() ? m_none : m_tokensLabel);
}

QString ProviderWindowPart::text()
{
    if (m_showTimer->isActive()) // as it is about to be shown
        show();
    QStringList lines;
    for (const QLabel *l : { m_none, m_tokensLabel, m_requestsLabel, m_resetLabel }) {
        if (!l->isHidden())
            lines << l->text();
    }
    return lines.join(u'\n');
}

void ProviderWindowPart::retranslate()
{
    m_title->setText(tr("Provider window"));
    m_none->setAccessibleName(tr("Provider window"));
    m_tokensLabel->setAccessibleName(tr("Tokens left in the provider's window"));
    m_tokensBar->setAccessibleName(tr("Share of the provider's token limit left"));
    m_requestsLabel->setAccessibleName(tr("Requests left in the provider's window"));
    m_requestsBar->setAccessibleName(tr("Share of the provider's request limit left"));
    m_resetLabel->setAccessibleName(tr("Provider window reset"));
    refresh();
}

QString ProviderWindowPart::resetText(const QDateTime &now) const
{
    const QDateTime tokens = m_window->tokensResetAt;
    const QDateTime requests = m_window->requestsResetAt;
    const auto in = [&](const QDateTime &at) {
        return session::RetryTexts::duration(retry::Millis(1000 * secondsUntil(at, now)));
    };
    const auto ahead = [&](const QDateTime &at) { return at.isValid() && now < at; };
    if (tokens.isValid() && requests.isValid() && std::abs(tokens.msecsTo(requests)) >= 1000) {
        // Two resets apart: both, each as far as it has got.
        const QString t = ahead(tokens) ? tr("tokens in %1").arg(in(tokens)) : tr("tokens renewed");
        const QString r
            = ahead(requests) ? tr("requests in %1").arg(in(requests)) : tr("requests renewed");
        return tr("Resets: %1 · %2").arg(t, r);
    }
    const QDateTime at = tokens.isValid() ? tokens : requests;
    if (!at.isValid())
        return {};
    return ahead(at) ? tr("Resets in %1").arg(in(at))
                     : tr("Window renewed since this report: the figures are out of date");
}

void ProviderWindowPart::refresh()
{
    const QDateTime now = m_wallClock();
    // What is left is the news; a limit alone says nothing of it (and is never guessed from).
    const bool reported = m_window && (m_window->remainingTokens || m_window->remainingRequests);
    m_none->setVisible(!reported);
    m_none->setText(tr("The provider reports no window."));
    const QString tokens
        = reported ? leftOf(m_window->remainingTokens, m_window->limitTokens) : QString();
    const QString requests
        = reported ? leftOf(m_window->remainingRequests, m_window->limitRequests) : QString();
    m_tokensLabel->setVisible(!tokens.isEmpty());
    m_tokensLabel->setText(tr("Tokens left: %1").arg(tokens));
    m_requestsLabel->setVisible(!requests.isEmpty());
    m_requestsLabel->setText(tr("Requests left: %1").arg(requests));
    const auto setBar = [](QProgressBar *b, int share) {
        b->setVisible(share >= 0);
        setProgressValue(b, std::max(share, 0));
        // Nearly spent: the token-limit colour, as the panel's own tokens bar over the cap.
        QPalette pal = b->parentWidget()->palette();
        if (share >= 0 && share < 100)
            pal.setColor(QPalette::Highlight, categoryColor(u"token_limit"_s, pal));
        b->setPalette(pal);
    };
    setBar(
        m_tokensBar, reported ? shareLeft(m_window->remainingTokens, m_window->limitTokens) : -1);
    setBar(m_requestsBar,
        reported ? shareLeft(m_window->remainingRequests, m_window->limitRequests) : -1);
    m_tokensBar->setAccessibleDescription(m_tokensLabel->text());
    m_requestsBar->setAccessibleDescription(m_requestsLabel->text());
    const QString reset = reported ? resetText(now) : QString();
    m_resetLabel->setVisible(!reset.isEmpty());
    m_resetLabel->setText(reset);

    const auto ahead = [&](const QDateTime &at) { return at.isValid() && now < at; };
    const bool counting
        = reported && (ahead(m_window->tokensResetAt) || ahead(m_window->requestsResetAt));
    if (counting && !m_countdown->isActive())
        m_countdown->start();
    else if (!counting)
        m_countdown->stop();
}

} // namespace capwatch::ui
