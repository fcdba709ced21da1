#include "ui/conversation/conversationpresenter.h"

#include "session/parkingtexts.h"
#include "session/retrytexts.h"
#include "session/sendtexts.h"
#include "ui/window/uilogging.h"

#include <QApplication>
#include <QClipboard>

namespace capwatch::ui {

using session::ChatSession;

namespace {

// The first piece comes in the turn that shows the conversation (the view emptied, the sidebar's
// choice, the panel): half the box, so that the two together stay within half a frame.
constexpr qint64 kFirstFillTimeBoxNs = kFillTimeBoxNs / 2;

} // namespace

ConversationPresenter::ConversationPresenter(
    session::ChatSession *session, ConversationView *view, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_view(view)
{
    connect(m_session, &ChatSession::answerText, this,
        [this](quint64, const QString &text) { onAnswerText(text); });
    connect(m_session, &ChatSession::trimOffered, this, &ConversationPresenter::onTrimOffered);
    connect(
        m_session, &ChatSession::leftOutChanged, this, &ConversationPresenter::onLeftOutChanged);
    connect(m_session, &ChatSession::sendStateChanged, this, &ConversationPresenter::onProgress);
    connect(m_view, &ConversationView::actionRequested, this, &ConversationPresenter::onAction);
    connect(m_session, &ChatSession::conversationRestored, this, &ConversationPresenter::restore);
    connect(m_session, &ChatSession::parkOffered, this, &ConversationPresenter::onParkOffered);
    connect(
        m_session, &ChatSession::fallbackOffered, this, &ConversationPresenter::onFallbackOffered);
    connect(m_session, &ChatSession::parkedChanged, this, &ConversationPresenter::onParkedChanged);
    connect(m_session, &ChatSession::conversationChanged, this, [this](const QUuid &id) {
        if (!id.isNull())
            return; // a restore: conversationRestored() follows
        clearView();
        Q_EMIT conversationReplaced();
    });
    // Interval 0: the next piece as soon as the event loop has painted and handled input.
    m_fillTimer.setInterval(0);
    connect(&m_fillTimer, &QTimer::timeout, this, [this] { fillPiece(); });
}

void ConversationPresenter::showSend(const QString &prompt, bool showPrompt)
{
    // The send carries every restored turn as context, so the view shows them all before it.
    if (filling())
        fillPiece(true);
    retireLastExchange();
    retireFailedCard();
    m_assistantTurn = -1;
    m_continuedTurn = -1;
    clearTrim();
    clearFallback(); // its preview goes; what a trim left out stays greyed
    if (showPrompt)
        m_userTurn = m_view->addUserTurn(prompt);
}

void ConversationPresenter::retireFailedCard()
{
    // What the last failed card offered was for its prompt; a parked card stays as it is.
    if (m_cardTurn >= 0 && m_cardTurn != m_parkedTurn) {
        ConversationView::Card card;
        card.line = m_cardLine;
        m_view->setErrorCard(m_cardTurn, card);
    }
    m_cardTurn = -1;
}

void ConversationPresenter::beginContinuation()
{
    // The restored turns come first, as before any send.
    if (filling())
        fillPiece(true);
    const Exchange continued = m_endedAnswer;
    if (continued.answer < 0)
        return;
    retireLastExchange();
    retireFailedCard();
    clearTrim();
    clearFallback();
    m_continuedEnd = m_view->turnEnd(continued.answer);
    m_view->setTurnActions(continued.answer, { ConversationView::Action::Copy });
    if (!m_view->continueAssistantTurn(continued.answer))
        return;
    m_continuedTurn = continued.answer;
    m_endedAnswer = continued;
    m_userTurn = continued.user;
    m_assistantTurn = -1;
}

void ConversationPresenter::sendShown()
{
    m_view->setStatusLine(tr("Waiting for the provider…"));
}

void ConversationPresenter::dropLastExchange()
{
    m_endedAnswer = {};
    if (m_lastExchange.user >= 0) {
        m_view->removeTurnsFrom(m_lastExchange.user);
        if (!m_answered.empty() && m_answered.back().user == m_lastExchange.user)
            m_answered.pop_back();
    }
    m_lastExchange = {};
}

void ConversationPresenter::dropLastAnswer()
{
    m_endedAnswer = {};
    m_view->removeTurnsFrom(m_lastExchange.answer);
    m_view->setTurnActions(m_lastExchange.user, {});
    if (!m_answered.empty() && m_answered.back().user == m_lastExchange.user)
        m_answered.pop_back();
    m_userTurn = m_lastExchange.user;
    m_lastExchange = {};
}

void ConversationPresenter::onAction(ConversationView::Action action, int turn)
{
    switch (action) {
    case ConversationView::Action::Copy:
        QApplication::clipboard()->setText(m_view->assistantText(turn));
        Q_EMIT answerCopied();
        break;
    case ConversationView::Action::Regenerate:
        if (turn == m_lastExchange.answer)
            Q_EMIT regenerateRequested();
        break;
    case ConversationView::Action::Continue:
        if (turn == m_endedAnswer.answer && m_session->canContinue())
            Q_EMIT continueRequested();
        break;
    case ConversationView::Action::Edit:
        if (turn == m_lastExchange.user)
            Q_EMIT editRequested();
        break;
    case ConversationView::Action::RetryNow:
    case ConversationView::Action::SendAt:
        if (turn == 0 && action == ConversationView::Action::SendAt)
            m_session->parkNow(); // the status line's, during the cycle
        else if (turn == m_cardTurn)
            onParkAction(action);
        break;
    case ConversationView::Action::SendNow:
    case ConversationView::Action::EditParked:
    case ConversationView::Action::CancelPark:
        if (turn == m_parkedTurn)
            onParkAction(action);
        break;
    case ConversationView::Action::SendToFallback:
        if (turn == m_fallbackTurn && m_fallback.offered)
            Q_EMIT sendToFallbackRequested();
        break;
    case ConversationView::Action::Details:
    case ConversationView::Action::CopyDetails:
        break; // the view's own links: it folds and copies, and never asks
    case ConversationView::Action::AddRule:
        if (const auto it = m_ruleFailures.constFind(turn); it != m_ruleFailures.cend())
            Q_EMIT addRuleRequested(it->first, it->second);
        break;

    case ConversationView::Action::TrimAndResend:
        if (turn == m_trimTurn && m_trim.offered) {
            m_autoTrimmed = false;
            Q_EMIT trimAndResendRequested();
        }
        break;
    }
}

void ConversationPresenter::retireLastExchange()
{
    if (m_lastExchange.answer >= 0)
        m_view->setTurnActions(m_lastExchange.answer, { ConversationView::Action::Copy });
    if (m_lastExchange.user >= 0)
        m_view->setTurnActions(m_lastExchange.user, {});
    m_lastExchange = {};
    // Continue goes on with the last answer only.
    if (m_endedAnswer.answer >= 0)
        m_view->setTurnActions(m_endedAnswer.answer, { ConversationView::Action::Copy });
    m_endedAnswer = {};
}

void ConversationPresenter::onAnswerText(const QString &text)
{
    if (m_assistantTurn < 0 && m_continuedTurn < 0 && m_session->sendState().continuation)
        beginContinuation();
    if (m_assistantTurn < 0) {
        if (m_continuedTurn >= 0) {
            m_assistantTurn = m_continuedTurn; // it joins the answer it continues
            m_view->setStatusLine({});
        } else {
            m_assistantTurn = m_view->beginAssistantTurn(); // the status line gives way
        }
    }
    m_view->appendAssistantText(m_assistantTurn, text);
}

int ConversationPresenter::endTurn(const QString &endLine)
{
    const int turn = m_continuedTurn >= 0 ? m_continuedTurn : m_assistantTurn;
    m_view->setStatusLine({});
    if (turn >= 0) {
        m_view->finishAssistantTurn(turn, endLine);
        m_view->setTurnActions(turn, { ConversationView::Action::Copy });
    }
    m_assistantTurn = -1;
    m_continuedTurn = -1;
    return turn;
}

QString ConversationPresenter::endLineOf(const session::SendState &state, bool incomplete) const
{
    // A continuation that failed before its first word leaves the answer as it was.
    if (state.continuation && state.answerEnd == retry::AnswerEnd::None)
        return m_continuedEnd;
    if (state.answerEnd != retry::AnswerEnd::None)
        return session::SendTexts::answerEnd(state);
    return incomplete ? ConversationView::tr("(incomplete)") : QString();
}

void ConversationPresenter::showAnswerEnded(int turn, int user, const session::SendState &state)
{
    // Answered when the session says so: a send that succeeded, or a continuation of an
    // answered exchange whatever its end. It can be asked again or edited until another send.
    const bool answered = m_session->hasLastExchange();
    if (answered) {
        m_lastExchange = { user, turn };
        if (m_answered.empty() || m_answered.back().user != user)
            m_answered.push_back(m_lastExchange);
        m_view->setTurnActions(user, { ConversationView::Action::Edit });
    }
    m_endedAnswer = turn >= 0 ? Exchange { user, turn } : Exchange {};
    if (turn < 0)
        return;
    QList<ConversationView::Action> actions { ConversationView::Action::Copy };
    if (answered)
        actions.append(ConversationView::Action::Regenerate);
    if (m_session->canContinue())
        actions.append(ConversationView::Action::Continue);
    m_view->setTurnActions(turn, actions);
    if (answered)
        m_view->setTurnUsage(
            turn, withProfile(withCost(usageText(state.usage), state.cost), answeringProfile()));
}

void ConversationPresenter::onSucceeded(const session::SendState &state)
{
    addToTotal(state.cost);
    const int user = m_continuedTurn >= 0 ? m_endedAnswer.user : m_userTurn;
    const int answerTurn = endTurn(endLineOf(state, false));
    m_userTurn = user;
    showAnswerEnded(answerTurn, user, state);
    Q_EMIT sendEnded();
}

void ConversationPresenter::onGaveUp(const session::SendState &state)
{
    addToTotal(state.cost);
    const int user = m_continuedTurn >= 0 ? m_endedAnswer.user : m_userTurn;
    const int answerTurn = endTurn(endLineOf(state, state.incomplete || m_assistantTurn >= 0));
    m_userTurn = user;
    showAnswerEnded(answerTurn, user, state);
    // One sentence on what happened and what comes next; the raw failure under Details.
    session::SendState ended = state;
    // A send out of attempts made all it had: its own count, a fallback's included.
    if (state.reason == retry::EndReason::AttemptsExhausted && state.attempt > 0)
        ended.limits.maxAttempts = state.attempt;
    const int card = m_view->addErrorTurn(session::SendTexts::failedLead(ended),
        state.finalErrorText, session::SendTexts::decidedBy(state));
    if (state.lastFailure)
        m_ruleFailures.insert(card, { state.lastFailure->errorText, state.lastFailure->rule });
    setFailedCard(card);
    Q_EMIT sendEnded();
}

session::SendState ConversationPresenter::restoredEnd(const history::Send &last) const
{
    // What the history kept of a send that ended failed: its reason, and the category and
    // status of its last refusal (the newest record that has one, in the session's log).
    session::SendState s;
    s.phase = session::SendPhase::GaveUp;
    s.reason = last.reason;
    s.limits = m_limits;
    s.attempt = last.attempts;
    const QList<net::RetryRecord> &records = m_session->retryLog()->records();
    for (auto it = records.crbegin(); it != records.crend(); ++it) {
        if (!it->category)
            continue;
        net::AttemptFailure failure;
        failure.attempt = it->attempt;
        failure.status = it->status.value_or(0);
        failure.category = *it->category;
        s.lastFailure = failure;
        break;
    }
    return s;
}

void ConversationPresenter::onCancelled(const session::SendState &state)
{
    addToTotal(state.cost);
    const int user = m_continuedTurn >= 0 ? m_endedAnswer.user : m_userTurn;
    const int answerTurn = endTurn(endLineOf(state, true));
    m_userTurn = user;
    showAnswerEnded(answerTurn, user, state);
    m_view->addNotice(tr("Cancelled. Your prompt is back in the editor."));
    Q_EMIT sendEnded();
}

void ConversationPresenter::onProgress(const session::SendState &state)
{
    // A send seen running is shown ending once: its end as it came (a parked send taken out of
    // the lot shows its old end again, and that is no new end).
    if (state.send != m_seen.send)
        m_seen = { state.send, false, false };
    if (state.running() && !m_seen.running) {
        m_seen.running = true;
        if (m_unparking)
            parkedWentOut(); // the parked prompt went out in this session
        // Continue, the session's own after a cut-off answer, or a parked continuation out again.
        if (state.continuation && m_continuedTurn < 0)
            beginContinuation();
    }
    if (state.ended() && m_seen.running && !m_seen.ended) {
        m_seen.ended = true;
        if (state.phase == session::SendPhase::Succeeded)
            onSucceeded(state);
        else if (state.phase == session::SendPhase::GaveUp)
            onGaveUp(state);
        else
            onCancelled(state);
        return;
    }
    if (!m_session->busy() || m_assistantTurn >= 0)
        return;
    // While a retry waits for a reset out of the budget's reach: Send at, at once (25.12).
    QList<ConversationView::CardLink> links;
    if (state.waiting() && state.earlyPark.parkable) {
        links.append({ ConversationView::Action::SendAt,
            session::ParkingTexts::sendAt(state.earlyPark.dueAt, QDateTime::currentDateTimeUtc()),
            session::SendTexts::earlyParkWhy(state) });
    }
    m_view->setStatusLine(session::SendTexts::statusLine(state), links);
}

} // namespace capwatch::ui

namespace capwatch::ui {

void ConversationPresenter::addToTotal(const history::CostTotal &cost)
{
    if (cost == history::CostTotal {})
        return;
    m_total += cost;
    Q_EMIT totalChanged(m_total);
}

void ConversationPresenter::clearView()
{
    m_fillTimer.stop();
    m_restored = {};
    m_restoredPrompt = {};
    if (m_total != history::CostTotal {}) {
        m_total = {};
        Q_EMIT totalChanged(m_total);
    }
    m_fillNext = 0;
    m_view->clearConversation();
    clearParking();
    clearTrim();
    m_fallbackTurn = -1;
    m_fallback = {};
    m_answered.clear();
    m_autoTrimmed = false;
    m_seen = {};
    m_ruleFailures.clear();
    m_userTurn = -1;
    m_assistantTurn = -1;
    m_continuedTurn = -1;
    m_lastExchange = {};
    m_endedAnswer = {};
}

void ConversationPresenter::restore(const session::RestoredConversation &conversation)
{
    clearView();
    m_restored = conversation;
    m_total = conversation.costs.value(QUuid());
    Q_EMIT totalChanged(m_total);
    m_longestPieceNs = 0;
    m_view->beginFill();
    fillPiece(false, kFirstFillTimeBoxNs);
    Q_EMIT conversationReplaced();
}

void ConversationPresenter::fillPiece(bool all, qint64 boxNs)
{
    QElapsedTimer piece;
    piece.start();
    const QList<history::Message> &messages = m_restored.messages;
    // A message more only when the one before, taken again, would still end inside the box: a
    // piece ends before a message that would overrun it, not after (at least one a piece).
    qint64 last = 0;
    while (
        m_fillNext < messages.size() && (all || last == 0 || piece.nsecsElapsed() + last < boxNs)) {
        const qint64 before = piece.nsecsElapsed();
        addRestored(messages.at(m_fillNext++));
        last = std::max<qint64>(piece.nsecsElapsed() - before, 1);
    }
    if (m_fillNext >= messages.size())
        endFill();
    else if (!m_fillTimer.isActive())
        m_fillTimer.start();
    if (!all)
        m_longestPieceNs = std::max(m_longestPieceNs, piece.nsecsElapsed());
}

void ConversationPresenter::addRestored(const history::Message &message)
{
    if (message.role == history::Role::User) {
        retireLastExchange();
        m_userTurn = m_view->addUserTurn(message.text);
        m_restoredPrompt = message.id;
        return;
    }
    // As the session reads it: a prompt with its full answer is an answered exchange.
    const bool complete = message.state == history::MessageState::Complete;
    if (message.text.isEmpty()) {
        if (complete && m_userTurn >= 0)
            m_answered.push_back({ m_userTurn, -1 });
        return; // live, an answer without text has no turn either
    }
    const int turn = m_view->beginAssistantTurn();
    m_view->appendAssistantText(turn, message.text);
    m_view->setAnswerSeams(turn, message.seams);
    // How it ended, as stored: an answer stored before that was told cut off with text is as
    // interrupted as the session takes it; a pending one (the process died mid-answer) is as
    // cut off as a cancelled one.
    const retry::AnswerEnd end = message.end != retry::AnswerEnd::None ? message.end
        : message.state == history::MessageState::CutOff ? retry::AnswerEnd::Interrupted
                                                         : retry::AnswerEnd::None;
    m_view->finishAssistantTurn(turn,
        end != retry::AnswerEnd::None
            ? session::SendTexts::answerEnd(end, message.completionTokens, message.text.size())
            : !complete ? ConversationView::tr("(incomplete)")
                        : QString());
    m_view->setTurnActions(turn, { ConversationView::Action::Copy });
    m_endedAnswer = { m_userTurn, turn };
    // What it used, as stored (issue 25.10), and the profile that gave it when that is not the
    // conversation's (a fallback's answer): the line it had when it arrived.
    std::optional<net::Usage> usage;
    if (message.promptTokens || message.completionTokens) {
        usage.emplace();
        usage->promptTokens = message.promptTokens.value_or(-1);
        usage->completionTokens = message.completionTokens.value_or(-1);
    }
    const bool otherProfile = !message.profile.isEmpty() && message.profile != m_profileName;
    m_view->setTurnUsage(turn,
        withProfile(withCost(usageText(usage), m_restored.costs.value(m_restoredPrompt)),
            otherProfile ? message.profile : QString()));
    if (complete) {
        m_lastExchange = { m_userTurn, turn };
        if (m_userTurn >= 0)
            m_answered.push_back(m_lastExchange);
    }
}

void ConversationPresenter::endFill()
{
    m_fillTimer.stop();
    m_view->endFill();
    qCDebug(lcUi) << "restored" << m_restored.messages.size() << "messages, longest piece"
                  << m_longestPieceNs / 1000 << "us";
    // The session decides what the last exchange is: an answered one is asked again or edited as
    // after a live send, an unanswered prompt is offered to "Retry now".
    if (m_session->hasLastExchange() && m_lastExchange.user >= 0) {
        if (m_lastExchange.answer >= 0) {
            m_view->setTurnActions(m_lastExchange.answer,
                { ConversationView::Action::Copy, ConversationView::Action::Regenerate });
        }
        m_view->setTurnActions(m_lastExchange.user, { ConversationView::Action::Edit });
    } else {
        m_lastExchange = {};
    }
    // The last answer, cut off or interrupted, can be continued.
    if (m_endedAnswer.answer >= 0 && m_session->canContinue()) {
        QList<ConversationView::Action> actions = m_view->turnActions(m_endedAnswer.answer);
        actions.append(ConversationView::Action::Continue);
        m_view->setTurnActions(m_endedAnswer.answer, actions);
    }
    if (!m_session->failedPrompt().isEmpty() && !m_restored.sends.isEmpty()) {
        const history::Send &last = m_restored.sends.constLast();
        if (last.outcome == history::SendOutcome::Cancelled && !m_session->sendState().isParked()) {
            m_view->addNotice(tr("Cancelled. Your prompt is back in the editor."));
        } else { // gave up, or still running when the program that sent it ended
            setFailedCard(
                m_view->addErrorTurn(session::SendTexts::failedLead(restoredEnd(last)), {}));
            if (m_session->sendState().isParked())
                enterParked(m_cardTurn);
            else
                refreshParking(); // one sending at the reset in a session of the lot's own
        }
    }
    m_restored = {};
    m_fillNext = 0;
    refreshLeftOut(); // a trim in force in the session
    Q_EMIT restoreFilled();
}

} // namespace capwatch::ui
