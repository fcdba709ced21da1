#include "conversationpresenter.h"

#include "retrytexts.h"

#include <QApplication>
#include <QClipboard>

namespace capwatch::ui {

using session::ChatSession;

ConversationPresenter::ConversationPresenter(
    session::ChatSession *session, ConversationView *view, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_view(view)
{
    connect(m_session, &ChatSession::answerText, this,
        [this](quint64, const QString &text) { onAnswerText(text); });
    connect(m_session, &ChatSession::succeeded, this, &ConversationPresenter::onSucceeded);
    connect(m_session, &ChatSession::gaveUp, this,
        [this](quint64, const net::SendSummary &summary) { onGaveUp(summary); });
    connect(m_session, &ChatSession::cancelled, this, &ConversationPresenter::onCancelled);
    connect(m_session, &ChatSession::waitProgress, this, &ConversationPresenter::onProgress);
    connect(m_view, &ConversationView::actionRequested, this, &ConversationPresenter::onAction);
}

void ConversationPresenter::showSend(const QString &prompt, bool showPrompt)
{
    retireLastExchange();
    m_assistantTurn = -1;
    if (showPrompt)
        m_userTurn = m_view->addUserTurn(prompt);
}

void ConversationPresenter::sendShown()
{
    m_view->setStatusLine(tr("Waiting for the provider…"));
}

void ConversationPresenter::dropLastExchange()
{
    if (m_lastExchange.user >= 0)
        m_view->removeTurnsFrom(m_lastExchange.user);
    m_lastExchange = {};
}

void ConversationPresenter::dropLastAnswer()
{
    m_view->removeTurnsFrom(m_lastExchange.answer);
    m_view->setTurnActions(m_lastExchange.user, {});
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
    case ConversationView::Action::Edit:
        if (turn == m_lastExchange.user)
            Q_EMIT editRequested();
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
}

void ConversationPresenter::onAnswerText(const QString &text)
{
    if (m_assistantTurn < 0)
        m_assistantTurn = m_view->beginAssistantTurn(); // the status line gives way
    m_view->appendAssistantText(m_assistantTurn, text);
}

int ConversationPresenter::endTurn(bool incomplete)
{
    const int turn = m_assistantTurn;
    m_view->setStatusLine({});
    if (turn >= 0) {
        m_view->finishAssistantTurn(turn, incomplete);
        m_view->setTurnActions(turn, { ConversationView::Action::Copy });
    }
    m_assistantTurn = -1;
    return turn;
}

void ConversationPresenter::onSucceeded()
{
    const int answerTurn = endTurn(false);
    // The last exchange can be asked again or edited, until another send starts.
    m_lastExchange = { m_userTurn, answerTurn };
    if (answerTurn >= 0) {
        m_view->setTurnActions(
            answerTurn, { ConversationView::Action::Copy, ConversationView::Action::Regenerate });
    }
    m_view->setTurnActions(m_userTurn, { ConversationView::Action::Edit });
    Q_EMIT sendEnded();
}

void ConversationPresenter::onGaveUp(const net::SendSummary &summary)
{
    endTurn(summary.incomplete || m_assistantTurn >= 0);
    m_view->addErrorTurn(tr("The send failed: %1").arg(RetryTexts::reasonSentence(summary.reason)),
        summary.finalErrorText);
    Q_EMIT sendEnded();
}

void ConversationPresenter::onCancelled()
{
    endTurn(true);
    m_view->addNotice(tr("Cancelled. Your prompt is back in the editor."));
    Q_EMIT sendEnded();
}

void ConversationPresenter::onProgress(const session::WaitProgress &progress)
{
    if (!m_session->busy() || m_assistantTurn >= 0)
        return;
    if (!progress.waiting) {
        m_view->setStatusLine(tr("Waiting for the provider…"));
        return;
    }
    const int seconds = int((progress.left.count() + 999) / 1000);
    m_view->setStatusLine(progress.failureCategory.isEmpty()
            ? tr("Retrying in %n s", nullptr, seconds)
            : tr("Retrying in %n s: %1", nullptr, seconds)
                  .arg(RetryTexts::category(progress.failureCategory)));
}

} // namespace capwatch::ui
