// ConversationPresenter's context window (docs/retry-policy.md section 8.2): the usage under an
// answer, the oldest turns left out of requests greyed with a note where they end, and the card
// of a send that ended on a context error offering Trim and resend, with the turns it would
// leave out greyed as a preview while it shows.

#include "session/sendtexts.h"
#include "ui/conversation/conversationpresenter.h"

#include <QLocale>
#include <algorithm>

namespace capwatch::ui {

using Action = ConversationView::Action;

QString ConversationPresenter::usageText(const std::optional<net::Usage> &usage)
{
    if (!usage)
        return {};
    const QLocale locale;
    const qint64 prompt = usage->promptTokens;
    const qint64 completion = usage->completionTokens;
    if (prompt >= 0 && completion >= 0)
        return tr("%1 prompt + %2 completion tokens")
            .arg(locale.toString(prompt), locale.toString(completion));
    if (prompt >= 0)
        return tr("%1 prompt tokens").arg(locale.toString(prompt));
    if (completion >= 0)
        return tr("%1 completion tokens").arg(locale.toString(completion));
    if (usage->totalTokens >= 0)
        return tr("%1 tokens").arg(locale.toString(usage->totalTokens));
    return {};
}

QString ConversationPresenter::withCost(const QString &usage, const history::CostTotal &cost)
{
    const QString money = session::SendTexts::cost(cost);
    if (money.isEmpty())
        return usage; // an unknown price shows tokens only
    return usage.isEmpty() ? money : tr("%1 · %2").arg(usage, money);
}

QList<int> ConversationPresenter::answeredTurns(int exchanges) const
{
    QList<int> turns;
    const auto count = std::min<std::size_t>(std::max(exchanges, 0), m_answered.size());
    for (std::size_t i = 0; i < count; ++i) {
        turns.append(m_answered[i].user);
        if (m_answered[i].answer >= 0)
            turns.append(m_answered[i].answer);
    }
    return turns;
}

void ConversationPresenter::trimTo(int turns)
{
    m_autoTrimmed = false;
    m_session->setLeftOut(turns);
}

void ConversationPresenter::onTrimOffered(const session::TrimOffer &offer)
{
    if (offer.automatic) { // applied: the note says how
        // After a context error the controller sends the prompt again (its trimAndResend()): it
        // shows again below the card, as after the card's Trim and resend.
        m_autoTrimmed = true;
        refreshLeftOut();
        return;
    }
    if (offer.send == 0 || m_cardTurn < 0)
        return;
    m_trim = offer;
    m_trimTurn = m_cardTurn;
    refreshParking(); // the card's line and link
    refreshLeftOut(); // the preview
}

void ConversationPresenter::onLeftOutChanged(int turns, qint64 tokens)
{
    m_leftOutTokens = tokens;
    if (turns == 0)
        m_autoTrimmed = false;
    refreshLeftOut();
}

void ConversationPresenter::clearTrim()
{
    const bool previewed = m_trimTurn >= 0;
    m_trim = {};
    m_trimTurn = -1;
    if (previewed)
        refreshLeftOut();
}

void ConversationPresenter::addTrimOffer(ConversationView::Card &card) const
{
    const QLocale locale;
    const QString size = locale.toString(m_trim.plan.tokensBefore);
    const QString window = locale.toString(m_trim.contextWindow);
    if (!m_trim.offered) {
        card.line = tr("This conversation is larger than the model's context window (%1 of %2 "
                       "tokens), and leaving out older turns would not make it fit: shorten the "
                       "prompt or lower the maximum tokens.")
                        .arg(size, window);
        return;
    }
    // Worded in full for one turn: English has no plural forms without a translation file.
    const int turns = m_trim.plan.leftOut;
    const QString which
        = turns == 1 ? tr("the oldest turn") : tr("the %n oldest turns", nullptr, turns);
    card.line = tr("This conversation is larger than the model's context window (%1 of %2 "
                   "tokens). Trim and resend leaves out %3 (~%4 tokens); they stay in the "
                   "conversation.")
                    .arg(size, window, which, locale.toString(m_trim.plan.leftOutTokens));
    card.links.append({ Action::TrimAndResend, tr("Trim and resend"),
        tr("Leave out the oldest turns from requests and send the prompt again") });
}

void ConversationPresenter::refreshLeftOut()
{
    const int applied = m_session->leftOut();
    int dimmed = applied;
    if (m_trimTurn >= 0 && m_trim.offered)
        dimmed = std::max(dimmed, m_trim.plan.leftOut); // the offer's preview
    m_view->setDimmedTurns(answeredTurns(dimmed));

    if (applied <= 0 || std::size_t(applied) > m_answered.size()) {
        m_view->setLeftOutNote(-1, {});
        return;
    }
    const Exchange &last = m_answered[std::size_t(applied) - 1];
    const qint64 tokens = m_leftOutTokens > 0
        ? m_leftOutTokens
        : m_session->contextGauge({}, session::SendOptions()).leftOutTokens;
    const QString count = QLocale().toString(tokens);
    QString note;
    if (applied == 1)
        note = m_autoTrimmed
            ? tr("The oldest turn (~%1 tokens) was left out automatically to fit the context "
                 "window.")
            : tr("The oldest turn (~%1 tokens) is left out of requests to fit the context "
                 "window.");
    else
        note = m_autoTrimmed
            ? tr("%n oldest turns (~%1 tokens) were left out automatically to fit the context "
                 "window.",
                nullptr, applied)
            : tr("%n oldest turns (~%1 tokens) are left out of requests to fit the context "
                 "window.",
                nullptr, applied);
    note = note.arg(count);
    m_view->setLeftOutNote(last.answer >= 0 ? last.answer : last.user, note);
}

} // namespace capwatch::ui
