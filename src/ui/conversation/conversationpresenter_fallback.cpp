// ConversationPresenter's fallback (issue 17): a send that ended capped offers "Send to <fallback>
// instead" on its card, or says it was sent there by itself; an answer a fallback gave is marked
// with the profile that gave it.

#include "ui/conversation/conversationpresenter.h"

namespace capwatch::ui {

using Action = ConversationView::Action;

QString ConversationPresenter::withProfile(const QString &usage, const QString &profile)
{
    if (profile.isEmpty())
        return usage;
    const QString via = tr("via %1").arg(profile);
    return usage.isEmpty() ? via : tr("%1 · %2").arg(via, usage);
}

QString ConversationPresenter::answeringProfile() const
{
    const QString sent = m_session->sendState().profileName;
    if (m_session->sendState().viaFallback)
        return sent.isEmpty() ? m_fallback.toProfile : sent;
    return !sent.isEmpty() && !m_profileName.isEmpty() && sent != m_profileName ? sent : QString();
}

void ConversationPresenter::onFallbackOffered(const session::FallbackOffer &offer)
{
    if (!offer.offered)
        return;
    if (offer.automatic) {
        // The session sent it there already: the prompt shows again with the answer to come.
        m_view->addNotice(
            tr("%1 was capped; sent to %2 instead").arg(offer.fromProfile, offer.toProfile));
        const int card = m_cardTurn;
        m_fallback = offer;
        if (card >= 0 && card != m_parkedTurn) {
            ConversationView::Card plain;
            plain.line = m_cardLine;
            m_view->setErrorCard(card, plain);
        }
        m_cardTurn = -1;
        const int lastUser = m_view->lastUserTurn();
        const QString prompt = lastUser >= 0 ? m_view->userText(lastUser) : QString();
        retireLastExchange();
        m_assistantTurn = -1;
        if (!prompt.isEmpty())
            m_userTurn = m_view->addUserTurn(prompt);
        m_view->setStatusLine(tr("Waiting for %1…").arg(offer.toProfile));
        return;
    }
    if (m_cardTurn < 0)
        return;
    m_fallback = offer;
    m_fallbackTurn = m_cardTurn;
    refreshParking();
}

void ConversationPresenter::addFallbackOffer(ConversationView::Card &card) const
{
    if (!m_fallback.offered || m_fallback.automatic)
        return;
    card.links.append({ Action::SendToFallback, tr("Send to %1 instead").arg(m_fallback.toProfile),
        tr("Send the prompt to the profile %1, with its own endpoint, key and limits")
            .arg(m_fallback.toProfile) });
}

void ConversationPresenter::clearFallback()
{
    m_fallbackTurn = -1;
    // The offer stays for answeringProfile() while the fallback's send runs.
    if (!m_session->sendState().viaFallback)
        m_fallback = {};
}

} // namespace capwatch::ui
