#include "ui/conversation/conversationcontroller.h"

#include "net/chatrequest.h"
#include "session/chatsession.h"
#include "session/profiles.h"
#include "session/sendtexts.h"
#include "ui/conversation/conversationpresenter.h"
#include "ui/conversation/limitquestion.h"
#include "ui/conversation/promptbox.h"
#include "ui/conversation/requestoptionsrow.h"
#include "ui/conversation/rulesdraft.h"
#include "ui/panel/providerstatus.h"
#include "ui/panel/retrypanel.h"
#include "ui/parking/parkingcontroller.h"
#include "ui/profiles/plainhttpwarning.h"
#include "ui/profiles/profilecontroller.h"

#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>

namespace capwatch::ui {

using session::ChatSession;

ConversationController::ConversationController(const Parts &parts, QWidget *window)
    : QObject(window)
    , m_parts(parts)
    , m_window(window)
{
    ChatSession *session = parts.session;
    PromptBox *prompt = parts.prompt;
    connect(prompt, &PromptBox::sendRequested, this, &ConversationController::sendPrompt);
    connect(prompt, &PromptBox::stopRequested, this, &ConversationController::cancelSend);
    connect(prompt, &PromptBox::retryRequested, this, &ConversationController::retryNow);
    connect(parts.message, &PromptMessage::actionTriggered, this,
        &ConversationController::onMessageAction);
    connect(
        parts.message, &PromptMessage::closeRequested, this, [this](PromptMessage::Action action) {
            if (action == PromptMessage::Action::CancelEdit)
                cancelEdit();
            else
                m_parts.message->dismiss();
        });

    ConversationPresenter *presenter = parts.presenter;
    connect(
        presenter, &ConversationPresenter::sendEnded, this, &ConversationController::restorePrompt);
    connect(presenter, &ConversationPresenter::conversationReplaced, this,
        &ConversationController::restorePrompt);
    connect(presenter, &ConversationPresenter::regenerateRequested, this,
        &ConversationController::regenerateLast);
    connect(presenter, &ConversationPresenter::continueRequested, this,
        &ConversationController::continueAnswer);
    connect(presenter, &ConversationPresenter::editRequested, this,
        &ConversationController::editLastPrompt);
    connect(presenter, &ConversationPresenter::sendToFallbackRequested, this,
        &ConversationController::sendToFallback);
    connect(presenter, &ConversationPresenter::trimAndResendRequested, this,
        &ConversationController::trimAndResend);
    connect(presenter, &ConversationPresenter::retryNowRequested, this,
        &ConversationController::retryNow);
    connect(presenter, &ConversationPresenter::addRuleRequested, this,
        &ConversationController::addRule);

    connect(parts.panel, &RetryPanel::sendNowRequested, session, [session] { session->sendNow(); });
    connect(session, &ChatSession::sendStateChanged, this,
        &ConversationController::offerSuggestedLimit);
    connect(parts.panel, &RetryPanel::sendAtRequested, session, [session] { session->parkNow(); });
    // Automatic trimming after a context error: resent here, so that the editor, the buttons and
    // the conversation follow it as they follow Trim and resend.
    session->context().setResendsAfterTrim(false);
    connect(session, &ChatSession::trimOffered, this, [this](const session::TrimOffer &offer) {
        if (offer.automatic && offer.send != 0)
            QMetaObject::invokeMethod(
                this, &ConversationController::trimAndResend, Qt::QueuedConnection);
    });
}

void ConversationController::setParking(ParkingController *parking)
{
    m_parking = parking;
}

void ConversationController::sendPrompt()
{
    ChatSession *session = m_parts.session;
    const QString text = m_parts.prompt->editor()->toPlainText();
    if (text.trimmed().isEmpty() || session->busy())
        return;
    // Else the prompt stays in the editor meanwhile.
    if (!modelIsSet() || !plainHttpAllowed([this] { sendPrompt(); })
        || !limitAllowed(
            text, [this] { sendPrompt(); }, true))
        return;
    // The edited prompt takes the place of the last one, and its answer goes with it.
    if (session->sendReplacesLastExchange())
        m_parts.presenter->dropLastExchange();
    if (m_parts.message->action() == PromptMessage::Action::CancelEdit)
        m_parts.message->dismiss();
    m_parts.prompt->editor()->clear();
    startSend(text, [this, text] { m_parts.session->send(text, m_parts.options->sendOptions()); });
}

void ConversationController::takeFromEditor(const QString &prompt)
{
    // The failed prompt is the one in the editor unless the user typed something else.
    if (m_parts.prompt->editor()->toPlainText() == prompt)
        m_parts.prompt->editor()->clear();
}

void ConversationController::retryNow()
{
    const QString prompt = m_parts.session->failedPrompt();
    if (prompt.isEmpty() || m_parts.session->busy())
        return;
    if (!modelIsSet() || !plainHttpAllowed([this] { retryNow(); })
        || !limitAllowed(prompt, [this] { retryNow(); }))
        return;
    takeFromEditor(prompt);
    startSend(prompt, [this] { m_parts.session->retryFailed(m_parts.options->sendOptions()); });
}

void ConversationController::trimAndResend()
{
    ChatSession *session = m_parts.session;
    const QString prompt = session->failedPrompt();
    if (prompt.isEmpty() || session->busy() || !session->sendState().trim.offered)
        return;
    if (!modelIsSet() || !plainHttpAllowed([this] { trimAndResend(); }))
        return;
    takeFromEditor(prompt);
    startSend(prompt, [this] { m_parts.session->trimAndResend(m_parts.options->sendOptions()); });
}

void ConversationController::sendToFallback()
{
    ChatSession *session = m_parts.session;
    const QString prompt = session->failedPrompt();
    if (prompt.isEmpty() || session->busy() || !session->sendState().fallback.offered)
        return;
    // The fallback's own endpoint and key: asked as for a send to the session's own provider,
    // naming the fallback's endpoint. Until "Send anyway" nothing is sent and the prompt stays
    // where it is; "Send anyway" comes back here.
    if (session->provider().fallbackNeedsPlainHttpConsent()) {
        if (m_plainHttpWarning) {
            m_plainHttpWarning->raise();
            m_plainHttpWarning->activateWindow();
            return;
        }
        const session::ProviderProfile *fallback = m_parts.profiles->fallback();
        const QUrl target = fallback ? net::chatCompletionsUrl(fallback->endpoint) : QUrl();
        m_plainHttpWarning = PlainHttpWarning::ask(m_window, target, [this, target] {
            // The consent is for the endpoint asked about: a fallback changed meanwhile asks
            // again.
            const session::ProviderProfile *now = m_parts.profiles->fallback();
            if (now && net::chatCompletionsUrl(now->endpoint) == target)
                m_parts.session->provider().allowFallbackPlainHttp();
            sendToFallback();
        });
        return;
    }
    takeFromEditor(prompt);
    startSend(prompt, [this] { m_parts.session->sendToFallback(m_parts.options->sendOptions()); });
}

void ConversationController::regenerateLast()
{
    ChatSession *session = m_parts.session;
    if (session->busy() || !m_parts.presenter->hasLastAnswer() || !session->hasLastExchange())
        return;
    if (!modelIsSet() || !plainHttpAllowed([this] { regenerateLast(); })
        || !limitAllowed(session->lastPrompt(), [this] { regenerateLast(); }))
        return;
    if (session->editing())
        cancelEdit();
    // The same conversation again, without the answer: the prompt's turn stays where it is.
    m_parts.presenter->dropLastAnswer();
    startSend(
        {}, [this] { m_parts.session->regenerate(m_parts.options->sendOptions()); }, false);
}

void ConversationController::continueAnswer()
{
    ChatSession *session = m_parts.session;
    if (session->busy() || !session->canContinue())
        return;
    if (!modelIsSet() || !plainHttpAllowed([this] { continueAnswer(); })
        || !limitAllowed(session->lastPrompt(), [this] { continueAnswer(); }))
        return;
    // An interrupted answer's prompt came back to the editor as a failed one: Continue answers
    // it now.
    takeFromEditor(session->failedPrompt());
    m_parts.status->updateKey(); // a key file or variable may have changed since
    // The presenter sees the send start as a continuation and opens the answer again.
    if (session->continueAnswer(m_parts.options->sendOptions()) == 0)
        return;
    m_parts.presenter->sendShown();
    updateButtons();
}

void ConversationController::editLastPrompt()
{
    ChatSession *session = m_parts.session;
    if (session->busy() || !m_parts.presenter->hasLastPrompt() || !session->hasLastExchange())
        return;
    if (!session->editing())
        m_draftBeforeEdit = m_parts.prompt->editor()->toPlainText();
    session->beginEdit();
    m_parts.prompt->setText(session->lastPrompt());
    m_parts.prompt->editor()->setFocus();
    m_parts.message->showMessage(PromptMessage::Kind::Information,
        tr("Editing your last prompt: sending it replaces that prompt and its answer."),
        PromptMessage::Action::CancelEdit);
}

void ConversationController::cancelEdit()
{
    if (!m_parts.session->editing())
        return;
    m_parts.session->endEdit();
    m_parts.prompt->setText(m_draftBeforeEdit);
    m_draftBeforeEdit.clear();
    m_parts.message->dismiss();
}

void ConversationController::cancelSend()
{
    if (!m_parts.session->busy() && m_parts.session->editing()) {
        cancelEdit();
        return;
    }
    // A parked send going out is taken out of the lot.
    m_parking ? m_parking->stop() : m_parts.session->stop();
}

QString ConversationController::addRule(const QString &errorText, const QString &rule)
{
    QString error;
    const QString path = RulesDraft::write(errorText, rule, QDateTime::currentDateTime(), &error);
    if (path.isEmpty()) {
        m_parts.message->showMessage(PromptMessage::Kind::Warning,
            tr("No rules file was made: %1").arg(error), PromptMessage::Action::None);
        return {};
    }
    m_parts.message->showMessage(PromptMessage::Kind::Information,
        tr("A rules file with this answer's text was made: %1. Put its words under the kind of "
           "failure they mean; capwatch reads it from its next start.")
            .arg(QDir::toNativeSeparators(path)),
        PromptMessage::Action::None);
    QDesktopServices::openUrl(QUrl::fromLocalFile(path));
    return path;
}

bool ConversationController::modelIsSet()
{
    const session::ProviderLink &provider = m_parts.session->provider();
    if (!provider.model().isEmpty())
        return true;
    const QString endpoint = net::displayEndpoint(net::chatCompletionsUrl(provider.endpoint()));
    m_parts.message->showMessage(PromptMessage::Kind::Warning,
        tr("No model is set for %1, so nothing was sent. Enter the model's name in the "
           "provider settings; your prompt stays in the editor.")
            .arg(endpoint.isEmpty() ? provider.endpoint().toString() : endpoint),
        PromptMessage::Action::OpenSettings);
    Q_EMIT settingsRequested();
    return false;
}

void ConversationController::onMessageAction(PromptMessage::Action action)
{
    switch (action) {
    case PromptMessage::Action::OpenSettings:
        Q_EMIT settingsRequested();
        break;
    case PromptMessage::Action::CancelEdit:
        cancelEdit();
        break;
    case PromptMessage::Action::KeepDeclaredLimit:
        keepSuggestedLimit();
        break;
    case PromptMessage::Action::None:
        break;
    }
}

bool ConversationController::plainHttpAllowed(const std::function<void()> &resume)
{
    if (!m_parts.session->provider().needsPlainHttpConsent())
        return true;
    if (m_plainHttpWarning) {
        m_plainHttpWarning->raise();
        m_plainHttpWarning->activateWindow();
        return false;
    }
    const QUrl target = net::chatCompletionsUrl(m_parts.session->provider().endpoint());
    m_plainHttpWarning = PlainHttpWarning::ask(m_window, target, [this, resume, target] {
        // For the endpoint it named: another provider chosen meanwhile asks on its own send.
        if (net::chatCompletionsUrl(m_parts.session->provider().endpoint()) != target)
            return;
        m_parts.session->provider().allowPlainHttp();
        resume();
    });
    return false;
}

bool ConversationController::limitAllowed(
    const QString &prompt, const std::function<void()> &resume, bool canPark)
{
    if (std::exchange(m_limitBypass, false))
        return true;
    const session::LimitHold hold
        = m_parts.session->limitHold(prompt, m_parts.options->sendOptions());
    if (!hold.holds)
        return true;
    if (m_limitQuestion) {
        m_limitQuestion->raise();
        m_limitQuestion->activateWindow();
        return false;
    }
    const session::LimitAction action = m_parts.session->provider().choice().limitAction;
    if (action == session::LimitAction::Park && canPark) {
        parkUntilReset(prompt, hold);
        return false;
    }
    if (action == session::LimitAction::Refuse
        || (action == session::LimitAction::Park && !canPark)) {
        // The prompt stays where it is: in the editor, or the failed one in its card.
        m_parts.message->showMessage(PromptMessage::Kind::Warning,
            tr("Not sent: %1 The limit resets at %2.")
                .arg(LimitQuestion::text(hold), session::SendTexts::limitResets(hold)),
            PromptMessage::Action::None);
        return false;
    }
    m_limitQuestion = LimitQuestion::ask(
        m_window, hold, canPark, [this, prompt, hold, resume](LimitQuestion::Answer answer) {
            switch (answer) {
            case LimitQuestion::Answer::SendAnyway:
                m_limitBypass = true;
                resume();
                m_limitBypass = false; // not taken: nothing was sent (busy, no prompt)
                break;
            case LimitQuestion::Answer::SendAtReset:
                parkUntilReset(prompt, hold);
                break;
            case LimitQuestion::Answer::Cancel:
                break;
            }
        });
    return false;
}

void ConversationController::parkUntilReset(const QString &prompt, const session::LimitHold &hold)
{
    ChatSession *session = m_parts.session;
    if (prompt.trimmed().isEmpty() || session->busy())
        return;
    if (session->sendReplacesLastExchange())
        session->endEdit(); // parked as a new prompt: the last exchange stays
    takeFromEditor(prompt);
    if (!session->parkUntilLimitResets(prompt, m_parts.options->sendOptions(), hold)) {
        m_parts.prompt->setText(prompt); // nowhere to park it: it stays the user's
        return;
    }
    m_parts.presenter->showHeld(prompt, session::SendTexts::limitHold(hold));
    updateButtons();
    m_parts.message->showMessage(PromptMessage::Kind::Information,
        tr("Parked until the limit resets at %1: %2.")
            .arg(session::SendTexts::limitResets(hold), session::SendTexts::limitHold(hold)),
        PromptMessage::Action::None);
}

QString ConversationController::declaredText(const retry::DeclaredSuggestion &s)
{
    const QString n = QLocale().toString(s.value);
    switch (s.kind) {
    case retry::DeclaredKind::RequestsPerMinute:
        return tr("%1 requests a minute").arg(n);
    case retry::DeclaredKind::TokensPerMinute:
        return tr("%1 tokens a minute").arg(n);
    case retry::DeclaredKind::RequestsPerDay:
        return tr("%1 requests a day").arg(n);
    case retry::DeclaredKind::TokensPerDay:
        return tr("%1 tokens a day").arg(n);
    case retry::DeclaredKind::InFlight:
        return tr("%1 requests at once").arg(n);
    case retry::DeclaredKind::None:
        break;
    }
    return {};
}

void ConversationController::offerSuggestedLimit(const session::SendState &state)
{
    if (!state.declaredSuggestion || state.suggestionProfile.isEmpty())
        return;
    // Once per profile and kind of limit in a run: a refusal that comes again is not news.
    const QString key = state.suggestionProfile + u'/'
        + QString::fromLatin1(retry::nameOf(state.declaredSuggestion->kind));
    if (m_suggested.contains(key))
        return;
    m_suggested.insert(key);
    const session::ProviderProfile *profile
        = m_parts.profiles->profiles().find(state.suggestionProfile);
    if (!profile || !profile->declared.empty())
        return;
    m_suggestion = { state.suggestionProfile, *state.declaredSuggestion };
    const retry::DeclaredSuggestion &s = *state.declaredSuggestion;
    m_parts.message->showMessage(PromptMessage::Kind::Information,
        (s.fromText ? tr("%1 hit a rate limit and declares no limits; the provider's words "
                         "suggest %2. Keep it, and capwatch paces sends before they are "
                         "refused.")
                    : tr("%1 hit a rate limit and declares no limits; the sends before it "
                         "suggest %2. Keep it, and capwatch paces sends before they are "
                         "refused."))
            .arg(profile->name, declaredText(s)),
        PromptMessage::Action::KeepDeclaredLimit);
}

void ConversationController::keepSuggestedLimit()
{
    if (!m_suggestion)
        return;
    const auto [profile, s] = *std::exchange(m_suggestion, std::nullopt);
    if (!m_parts.profiles->keepDeclaredLimit(profile, s))
        return;
    m_parts.message->showMessage(PromptMessage::Kind::Information,
        tr("Kept: %1 for %2. Change it in Settings → Providers.")
            .arg(declaredText(s), m_parts.profiles->profiles().find(profile)->name),
        PromptMessage::Action::None);
}

void ConversationController::whenPlainHttpAllowed(const std::function<void()> &then)
{
    if (plainHttpAllowed(then))
        then();
}

void ConversationController::startSend(
    const QString &prompt, const std::function<void()> &send, bool showPrompt)
{
    m_parts.presenter->showSend(prompt, showPrompt);
    m_parts.status->updateKey(); // a key file or variable may have changed since
    send();
    m_parts.presenter->sendShown();
    updateButtons();
}

void ConversationController::restorePrompt()
{
    // Nothing typed is lost: the failed prompt returns only into an empty editor, with the
    // cursor at its end, where typing goes on.
    if (m_parts.prompt->editor()->toPlainText().trimmed().isEmpty()
        && !m_parts.session->sendState().isParked())
        m_parts.prompt->setText(m_parts.session->failedPrompt());
    updateButtons();
}

void ConversationController::updateButtons()
{
    ChatSession *session = m_parts.session;
    // A parked prompt waits in its card, or goes out in a session of the lot's: not to retry.
    const bool parked = session->sendState().isParked() || (m_parking && m_parking->holdsShown());
    const bool busy = session->busy() || (m_parking && m_parking->shownSentElsewhere());
    m_parts.prompt->setBusy(busy, !session->failedPrompt().isEmpty() && !parked);
    // The profile changes for the next send, not the one in flight.
    m_parts.profiles->combo()->setEnabled(!busy && m_parts.profiles->switchable());
}

} // namespace capwatch::ui
