// ConversationPresenter's parking (docs/parking.md): the failed send's card offers "Send at 06:14
// (in 16 min)" beside Retry now, or says why it was not parked; parked, the same card shows the
// countdown to the reset with Send now, Edit and Cancel; when the prompt goes out the card gives
// way to the live send, so the answer appears where the card was.

#include "session/parkingtexts.h"
#include "ui/conversation/conversationpresenter.h"

#include <algorithm>

namespace capwatch::ui {

using session::ParkingChoice;
using Action = ConversationView::Action;

void ConversationPresenter::setParkingLot(session::ParkingLot *lot)
{
    if (m_lot)
        m_lot->disconnect(this);
    m_lot = lot;
    if (!lot)
        return;
    // Anything the lot did: a Cancel or Edit taking the parked prompt out ends with changed().
    connect(lot, &session::ParkingLot::changed, this, [this] {
        if (m_unparking && !m_session->busy())
            parkCancelled();
        refreshParking();
    });
}

std::optional<history::ParkedSend> ConversationPresenter::shownParked() const
{
    if (!m_lot)
        return std::nullopt;
    // The one this session took as its parked prompt: the conversation's last not in flight.
    const QList<history::ParkedSend> parked = m_lot->sendsOf(m_session->conversationId());
    for (auto it = parked.crbegin(); it != parked.crend(); ++it) {
        if (!m_lot->isRunning(it->id))
            return *it;
    }
    return std::nullopt;
}

ConversationView::Card ConversationPresenter::withShortcut(ConversationView::Card card)
{
    if (!card.links.isEmpty()) {
        ConversationView::CardLink &first = card.links.first();
        const QString keys = firstActionShortcut().toString(QKeySequence::NativeText);
        first.toolTip = first.toolTip.isEmpty() ? keys : tr("%1 (%2)").arg(first.toolTip, keys);
    }
    return card;
}

QKeySequence ConversationPresenter::firstActionShortcut()
{
    return QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Return);
}

bool ConversationPresenter::triggerFirstCardAction()
{
    // The newest card first: a parked send's, else the failed send's.
    for (const int turn : { m_parkedTurn, m_cardTurn }) {
        if (turn < 0)
            continue;
        const QList<ConversationView::CardLink> links = m_view->errorCard(turn).links;
        if (links.isEmpty())
            continue;
        onAction(links.first().action, turn);
        return true;
    }
    return false;
}

bool ConversationPresenter::showsCountdown() const
{
    if (m_parkedTurn >= 0)
        return true;
    const QList<ConversationView::CardLink> links = m_view->errorCard(m_cardTurn).links;
    return std::any_of(links.cbegin(), links.cend(),
        [](const ConversationView::CardLink &l) { return l.action == Action::SendAt; });
}

void ConversationPresenter::setFailedCard(int turn)
{
    m_cardTurn = turn;
    m_cardLine.clear();
    m_parkClicked = false;
    m_offersRetry = false;
}

void ConversationPresenter::clearParking()
{
    m_cardTurn = -1;
    m_parkedTurn = -1;
    m_cardLine.clear();
    m_parkedLine.clear();
    m_parkedPrompt.clear();
    m_parkClicked = false;
    m_offersRetry = false;
    m_unparking = false;
}

void ConversationPresenter::onParkOffered(const session::ParkOffer &offer)
{
    if (m_cardTurn < 0)
        return;
    // The setting's "Give up" is the behaviour before parking: no word about it.
    m_cardLine = m_session->parkingChoice() == ParkingChoice::GiveUp
        ? QString()
        : session::ParkingTexts::refusal(offer);
    refreshParking();
}

void ConversationPresenter::onParkedChanged(bool parked)
{
    if (parked) {
        enterParked(m_cardTurn);
        return;
    }
    // Sent (sendStarted follows at once) or taken out (the lot's changed() follows).
    if (m_parkedTurn >= 0)
        m_unparking = true;
}

void ConversationPresenter::enterParked(int card)
{
    if (card < 0)
        return;
    const session::ParkOffer offer = m_session->sendState().park;
    if (m_parkClicked)
        m_parkedLine = tr("It goes out by itself when the provider's limit resets.");
    else if (offer.parksInARow > 0)
        m_parkedLine
            = tr("Parked again: the limit had not reset yet. It goes out at the new reset.");
    else if (m_session->parkingChoice() == ParkingChoice::Automatic && m_cardTurn == card
        && offer.send != 0)
        m_parkedLine = tr("Parked automatically (Settings → Retries): it goes out by itself "
                          "when the provider's limit resets.");
    else
        m_parkedLine = tr("It goes out by itself when the provider's limit resets.");
    m_parkedTurn = card;
    m_cardTurn = card;
    m_parkedPrompt = m_session->failedPrompt();
    m_parkClicked = false;
    m_unparking = false;
    refreshParking();
}

void ConversationPresenter::showHeld(const QString &prompt, const QString &why)
{
    showSend(prompt);
    setFailedCard(m_view->addErrorTurn(tr("Not sent yet: %1.").arg(why), {}));
    enterParked(m_cardTurn);
    m_parkedLine = tr("Held by a limit: %1. It goes out by itself when the limit resets.").arg(why);
    refreshParking();
}

void ConversationPresenter::parkedWentOut()
{
    m_unparking = false;
    const int card = std::exchange(m_parkedTurn, -1);
    m_cardTurn = -1;
    if (card < 0)
        return;
    retireLastExchange();
    m_assistantTurn = -1;
    if (m_view->lastItem() == card) {
        m_view->removeTurnsFrom(card); // the answer comes in its place
    } else {
        // Something was sent after it meanwhile: the prompt goes out after that, so it shows
        // there again, and its card says where it went.
        ConversationView::Card sent;
        sent.parked = true;
        sent.headline = tr("Sent again: see below");
        m_view->setErrorCard(card, sent);
        m_userTurn = m_view->addUserTurn(m_parkedPrompt);
    }
    m_view->setStatusLine(tr("Waiting for the provider…"));
}

void ConversationPresenter::parkCancelled()
{
    m_unparking = false;
    const int card = std::exchange(m_parkedTurn, -1);
    if (card < 0)
        return;
    m_cardTurn = card;
    m_cardLine.clear();
    m_offersRetry = true; // one click back to where it was before parking: Retry now
    refreshParking();
}

void ConversationPresenter::onParkAction(Action action)
{
    switch (action) {
    case Action::RetryNow:
        Q_EMIT retryNowRequested();
        break;
    case Action::SendAt:
        m_parkClicked = true;
        if (!m_session->park())
            m_parkClicked = false;
        break;
    case Action::SendNow:
        // Through the window: one waiting for the consent to plain HTTP asks for it first.
        if (const auto parked = shownParked(); parked && m_lot)
            Q_EMIT sendParkedNowRequested(parked->id);
        break;
    case Action::EditParked:
        if (const auto parked = shownParked(); parked && m_lot) {
            const QString prompt = parked->prompt;
            if (m_lot->cancel(parked->id))
                Q_EMIT editParkedRequested(prompt);
        }
        break;
    case Action::CancelPark:
        if (const auto parked = shownParked(); parked && m_lot)
            m_lot->cancel(parked->id);
        break;
    case Action::Copy:
    case Action::Regenerate:
    case Action::Continue:
    case Action::Edit:
    case Action::TrimAndResend:
    case Action::SendToFallback:
    case Action::Details:
    case Action::CopyDetails:
    case Action::AddRule:
        break;
    }
}

void ConversationPresenter::refreshParking()
{
    if (m_unparking && !m_session->busy() && !m_session->sendState().isParked())
        parkCancelled(); // taken out another way than through the lot
    const QDateTime now = m_lot ? m_lot->wallNow() : QDateTime::currentDateTimeUtc();
    if (m_parkedTurn >= 0) {
        const std::optional<history::ParkedSend> parked = shownParked();
        const session::ParkedState state
            = parked ? session::parkedState(*m_lot, *parked) : session::ParkedState::Waiting;
        ConversationView::Card card;
        card.parked = true;
        const QDateTime due = parked ? parked->dueAt : m_session->sendState().park.dueAt;
        const QString waiting
            = parked ? session::ParkingTexts::waitingFor(*parked, state) : QString();
        card.headline = waiting.isEmpty() ? session::ParkingTexts::parkedUntil(due, now) : waiting;
        // Waiting for the consent, it does not go by itself: the line says what does send it.
        const QString line = state == session::ParkedState::WaitsForConsent
            ? tr("It goes out once you agree: Send now asks first.")
            : m_parkedLine;
        card.line = parked
            ? tr("%1 (%2)").arg(line, session::ParkingTexts::parkOf(parked->parksInARow))
            : line;
        if (state != session::ParkedState::Sending) {
            card.links = {
                { Action::SendNow, tr("Send now"),
                    state == session::ParkedState::WaitsForConsent
                        ? tr("Asks first: the key would go over plain HTTP, unencrypted")
                        : tr("Send it now, before the reset: the provider may refuse it again") },
                { Action::EditParked, tr("Edit"),
                    tr("Take it out of the queue and put it in the prompt editor") },
                { Action::CancelPark, tr("Cancel"),
                    tr("Take it out of the queue: it stays a failed send you can retry") },
            };
        }
        m_view->setErrorCard(m_parkedTurn, withShortcut(card));
    }
    if (m_cardTurn >= 0 && m_cardTurn != m_parkedTurn) {
        ConversationView::Card card;
        card.line = m_cardLine;
        const QUuid shown = m_session->conversationId();
        const bool runningElsewhere = m_lot && !shown.isNull() && !m_session->busy()
            && !shownParked() && !m_lot->sendsOf(shown).isEmpty();
        if (runningElsewhere) {
            card.line = tr("Sending now that the limit reset; the answer shows here when it "
                           "comes.");
        } else if (!m_session->busy() && !m_session->failedPrompt().isEmpty()
            && !m_session->sendState().isParked()) {
            const session::ParkOffer offer = m_session->sendState().park;
            // Once its time has passed, "Send at 13:47 (now)" is only a late Retry now.
            const bool resetPassed = offer.parkable && offer.dueAt.isValid() && offer.dueAt <= now;
            if (offer.parkable && !resetPassed && m_session->parkingChoice() == ParkingChoice::Ask)
                card.links.append({ Action::SendAt, session::ParkingTexts::sendAt(offer.dueAt, now),
                    tr("Park it: it goes out by itself when the provider's limit resets") });
            if (m_cardTurn == m_trimTurn)
                addTrimOffer(card);
            if (m_cardTurn == m_fallbackTurn)
                addFallbackOffer(card);
            if (resetPassed)
                card.links.append({ Action::RetryNow, tr("Send now"),
                    tr("The provider's limit has reset: send the prompt now") });
            else if (m_offersRetry || !card.links.isEmpty())
                card.links.append(
                    { Action::RetryNow, tr("Retry now"), tr("Send the failed prompt again now") });
        }
        m_view->setErrorCard(m_cardTurn, withShortcut(card));
    }
}

} // namespace capwatch::ui
