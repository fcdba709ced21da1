#pragma once

// The actions on the conversation shown, and the prompt between them: Send, Stop, Retry now,
// Regenerate, Continue, Edit and resend, Send to the fallback, Trim and resend, Send now and Send
// at on a waiting send, and the question before a key goes over plain HTTP. It keeps the prompt's
// buttons as the session and its parked sends allow. One per shown conversation, as Konsole's
// SessionController is per session and view: the window lays out widgets and menus and hands
// their signals here; the rules of a send are the session's, and its state is SendState.

#include "session/sendstate.h"
#include "session/sessiontypes.h"
#include "ui/conversation/promptmessage.h"

#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>
#include <functional>

class QMessageBox;
class QWidget;

namespace capwatch::session {
class ChatSession;
}

namespace capwatch::ui {

class ConversationPresenter;
class PromptBox;
class ProviderStatus;
class RequestOptionsRow;
class RetryPanel;
class ParkingController;
class ProfileController;

class ConversationController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConversationController)

public:
    /// What it works with, all of the window's and none null.
    struct Parts
    {
        session::ChatSession *session;
        ConversationPresenter *presenter;
        PromptBox *prompt;
        PromptMessage *message;
        RequestOptionsRow *options;
        ProviderStatus *status;
        ProfileController *profiles;
        RetryPanel *panel;
    };
    /// `window`: the parent of the questions it asks.
    ConversationController(const Parts &parts, QWidget *window);
    /// The parked sends of every conversation (made after this): Stop takes a parked send going
    /// out out of the lot, and the buttons follow a send of the shown conversation that goes
    /// out in a session of the lot's.
    void setParking(ParkingController *parking);

    /// Sends the prompt editor's text (Ctrl+Enter).
    void sendPrompt();
    /// Sends the last failed prompt again.
    void retryNow();
    /// Leaves out the oldest turns the context error's card offers to, and sends again.
    void trimAndResend();
    /// Sends the capped prompt to the profile's fallback.
    void sendToFallback();
    /// Stops the send in flight (Esc), or leaves editing the last prompt.
    void cancelSend();
    /// Asks again for the last answer: the same conversation without that answer.
    void regenerateLast();
    /// Goes on with the last answer, cut off or interrupted: what comes joins that answer.
    void continueAnswer();
    /// Puts the last prompt back in the editor; sending it replaces that prompt and its answer.
    void editLastPrompt();
    /// Stops editing the last prompt; the editor gets back what it held before.
    void cancelEdit();
    /// Calls `then` once the key of the provider shown may go over plain HTTP: at once when no
    /// consent is needed (or it was given in this run), else after "Send anyway" in the warning
    /// it asks with (without blocking; cancelled: never).
    void whenPlainHttpAllowed(const std::function<void()> &then);
    /// Puts the failed prompt back into an empty editor (not a parked one: that waits in its
    /// card) and sets the prompt's buttons: after a send ends, is parked or is taken out.
    void restorePrompt();
    /// Send, Stop and Retry now as the session and its parked sends allow.
    void updateButtons();
    /// "Wrong? Add a rule…": drafts a rules file with `errorText` in the user's rules.d, says
    /// where, and opens it. Returns its path (empty when it could not be written).
    QString addRule(const QString &errorText, const QString &rule);

Q_SIGNALS:
    /// The provider settings should open: no model is set, or the message above the prompt
    /// asked for them.
    void settingsRequested();

private:
    /// Shows `prompt`'s turn (unless already shown), calls `send`, then shows it waiting.
    void startSend(
        const QString &prompt, const std::function<void()> &send, bool showPrompt = true);
    /// False (and says why, asking for the settings) when no model is set.
    bool modelIsSet();
    /// False when the user must first agree to send the key unencrypted: asks (without
    /// blocking) and, on "Send anyway", calls `resume`.
    bool plainHttpAllowed(const std::function<void()> &resume);
    /// False when a send of `prompt` would cross a limit of the profile (session::LimitHold) and
    /// the profile says to ask (asks, without blocking: "Send anyway" calls `resume`, which then
    /// passes; "Send when the limit resets" parks a new prompt), to park (parks it at once) or to
    /// refuse (says so above the prompt). `canPark`: a new prompt, which can be parked.
    bool limitAllowed(
        const QString &prompt, const std::function<void()> &resume, bool canPark = false);
    /// Parks `prompt` until `hold` resets, before any request; shown as the conversation's next
    /// turn, waiting in its card.
    void parkUntilReset(const QString &prompt, const session::LimitHold &hold);
    /// A send refused for its rate on a profile that declares no limits: offers, once per
    /// profile and kind in a run, to keep the limit the refusal implies (one click).
    void offerSuggestedLimit(const session::SendState &state);
    void keepSuggestedLimit();
    /// "3 requests a minute", "1,000 tokens a day".
    static QString declaredText(const retry::DeclaredSuggestion &suggestion);
    void onMessageAction(PromptMessage::Action action);
    /// The prompt editor's text is `prompt` (the failed one it holds): it is cleared.
    void takeFromEditor(const QString &prompt);

    Parts m_parts;
    QWidget *m_window;
    QPointer<ParkingController> m_parking;
    QString m_draftBeforeEdit;
    QPointer<QMessageBox> m_plainHttpWarning;
    QPointer<QMessageBox> m_limitQuestion;
    bool m_limitBypass = false; ///< "Send anyway": the next limitAllowed() passes
    QSet<QString> m_suggested; ///< "profile/kind" offered in this run
    /// The suggestion the message above the prompt offers: the profile's id and the limit.
    std::optional<std::pair<QString, retry::DeclaredSuggestion>> m_suggestion;
};

} // namespace capwatch::ui
