#pragma once

// What the session says about the conversation, shown in the ConversationView: the prompt's turn,
// the answer as it streams in, the status line while waiting, the error or notice at the end and
// the actions on the last exchange. The view's turn numbers live here, the messages in the
// session.

#include "session/chatsession.h"
#include "ui/conversation/conversationview.h"

#include <QElapsedTimer>
#include <QHash>
#include <QKeySequence>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <optional>
#include <vector>

namespace capwatch::ui {

/// One piece of a restore's fill adds messages until this much time went by, then lets the
/// event loop paint and take input (ConversationPresenter::fillPiece()). A short exchange costs
/// the view about 1 ms, so a piece stays inside one frame (16 ms) even when its last message is a
/// long one, and with the paint that follows it within half of one: 2,000 messages took 4.8 ms
/// at most per piece and 2.7 s in all (tst_responsiveness, 2-core machine, offscreen; with a
/// 4 ms box, 9.5 ms and 2.2 s). A piece ends before a message that would overrun the box, judged
/// by the last one: 3.0-3.9 ms at most per piece, 2.1-2.3 s in all.
inline constexpr qint64 kFillTimeBoxNs = 2'500'000;

class ConversationPresenter final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConversationPresenter)

public:
    ConversationPresenter(session::ChatSession *session, ConversationView *view, QObject *parent);

    /// Before a send: the last exchange retires, `prompt`'s turn shows (unless already shown).
    void showSend(const QString &prompt, bool showPrompt = true);
    /// After the send started.
    void sendShown();
    /// A prompt a limit held and parked before any request (`why`: "Tokens today: 420 of 500;
    /// this send may use up to 1,004"): its turn, and its parked card.
    void showHeld(const QString &prompt, const QString &why);
    /// The last exchange's turns go (an edited prompt takes their place).
    void dropLastExchange();
    /// The last answer's turn goes; the prompt's stays, for the answer asked again.
    void dropLastAnswer();
    bool hasLastPrompt() const { return m_lastExchange.user >= 0; }
    bool hasLastAnswer() const { return m_lastExchange.answer >= 0; }

    /// Shows a restored conversation in place of the view's: its turns are added a time box at a
    /// time (restoreFilled() at the end), so a long one never stalls the window. A later
    /// restore() or a new conversation drops an unfinished fill; a send finishes it first.
    void restore(const session::RestoredConversation &conversation);
    /// True while a restored conversation is still being added to the view.
    bool filling() const { return m_fillTimer.isActive(); }
    /// The longest one piece of the last fill held the GUI thread, in nanoseconds.
    qint64 longestFillPieceNs() const { return m_longestPieceNs; }

    // --- parking (docs/parking.md) ---
    /// Where the session's parked sends wait (the window's lot): the cards read their state and
    /// their links act on it. Not owned.
    void setParkingLot(session::ParkingLot *lot);
    /// Rewrites what changes with time (the Send at button's time left, the parked card's
    /// countdown) and with the lot (due, waits for its provider): on the window's one tick.
    void refreshParking();
    /// True while a card shows a figure that changes with time.
    bool showsCountdown() const;
    /// The newest card's first link (Send at, Send now, Retry now, ...), as if clicked; false
    /// when no card offers one. The window binds it to firstActionShortcut().
    bool triggerFirstCardAction();
    /// Ctrl+Shift+Enter (named in the first link's tooltip).
    static QKeySequence firstActionShortcut();
    /// The card of the last failed send while it offers something (Send at, Retry now), and
    /// the parked card; -1 when there is none.
    int failedCard() const { return m_cardTurn; }
    int parkedCard() const { return m_parkedTurn; }
    /// The lot's entry of the send parked in the conversation shown, if any.
    std::optional<history::ParkedSend> shownParked() const;

    // --- the context window (docs/retry-policy.md section 8.2; conversationpresenter_trim.cpp) ---
    /// Leaves the oldest `turns` answered turns out of requests (the gauge's Trim…): the session
    /// applies it, the view greys them and says so.
    void trimTo(int turns);
    /// The view's turns of the answered exchanges, oldest first: what the session's history
    /// holds (its left-out turns are the first of them).
    QList<int> answeredTurns(int exchanges) const;
    /// The card of the send that ended on a context error, while it shows its offer; -1: none.
    int trimCard() const { return m_trimTurn; }
    // --- profiles and the fallback (issue 17; conversationpresenter_fallback.cpp) ---
    /// The name of the conversation's profile: an answer another profile gave is marked "via
    /// <its name>" (a fallback's, live or restored).
    void setProfileName(const QString &name) { m_profileName = name; }
    QString profileName() const { return m_profileName; }
    /// The numbers of the policy the conversation's sends run under: the failed card's "all 3
    /// attempts failed".
    void setLimits(const retry::PolicyLimits &limits) { m_limits = limits; }
    /// The card of the capped send while it offers "Send to <fallback> instead"; -1: none.
    int fallbackCard() const { return m_fallbackTurn; }
    session::FallbackOffer fallbackOffer() const { return m_fallback; }
    /// "via Paid key", after `usage` when there is one; `usage` alone when `profile` is empty.
    static QString withProfile(const QString &usage, const QString &profile);
    /// The usage line with what it cost: "120 prompt + 80 completion tokens · $0.0004 estimated".
    static QString withCost(const QString &usage, const history::CostTotal &cost);

    /// An answer's usage as its line under the answer shows it; empty when nothing was reported.
    static QString usageText(const std::optional<net::Usage> &usage);

Q_SIGNALS:
    /// "Wrong? Add a rule…" under a failed card: the provider's error text of its failure and
    /// the rule that read it.
    void addRuleRequested(const QString &errorText, const QString &rule);
    /// The "Send to <fallback> instead" of a capped send's card.
    void sendToFallbackRequested();
    /// The Trim and resend of a context error's card.
    void trimAndResendRequested();
    /// The view's action on the last exchange: ask again, or edit its prompt.
    void regenerateRequested();
    /// The Continue under the last answer, cut off or interrupted: go on with it.
    void continueRequested();
    void editRequested();
    void answerCopied();
    /// The send's end is shown.
    void sendEnded();
    /// The view shows another conversation (new, or restored): what the prompt offers changes.
    void conversationReplaced();
    /// A restored conversation is all in the view.
    void restoreFilled();
    /// What the conversation shown cost so far, as the usage ledger counts it (restored, then
    /// each send's as it ends); empty when another conversation is shown.
    void totalChanged(const capwatch::history::CostTotal &total);
    /// A card's Retry now.
    void retryNowRequested();
    /// The parked card's Send now (the window sends it, asking first when it waits for the
    /// consent to plain HTTP).
    void sendParkedNowRequested(const QUuid &id);
    /// The parked card's Edit: the prompt was taken out of the lot, for the prompt editor.
    void editParkedRequested(const QString &prompt);

private:
    struct Exchange
    {
        int user = -1; ///< the prompt's turn in the view
        int answer = -1; ///< the answer's turn, or -1 if it had no text
    };

    void onAction(ConversationView::Action action, int turn);
    /// `card` with the first link's tooltip naming firstActionShortcut().
    static ConversationView::Card withShortcut(ConversationView::Card card);
    void onAnswerText(const QString &text);
    void onSucceeded(const session::SendState &state);
    void onGaveUp(const session::SendState &state);
    void onCancelled(const session::SendState &state);
    void onProgress(const session::SendState &state);
    /// Ends the answer in progress (or the one a continuation went on with) with `endLine` under
    /// it; returns its turn (or -1).
    int endTurn(const QString &endLine);
    /// The line under an answer of `state`'s send: how it ended, when it did not end complete.
    QString endLineOf(const session::SendState &state, bool incomplete) const;
    /// After a send ended: the answer's links (Continue while the session can go on with it)
    /// and usage, and the exchange's when the session counts it answered.
    void showAnswerEnded(int turn, int user, const session::SendState &state);
    /// A continuation of the last answer started: that answer's turn takes what it adds.
    void beginContinuation();
    /// The last failed send's card stops offering what it offered for its prompt.
    void retireFailedCard();
    /// The last exchange's actions go: it is not the last one any more.
    void retireLastExchange();
    /// Empties the view and drops an unfinished fill.
    void clearView();
    /// Adds restored messages until the time box (`boxNs`) is used up; `all`: every one left.
    void fillPiece(bool all = false, qint64 boxNs = kFillTimeBoxNs);
    void addRestored(const history::Message &message);
    void endFill();
    // Parking (conversationpresenter_parking.cpp).
    void onParkAction(ConversationView::Action action);
    void onParkOffered(const session::ParkOffer &offer);
    void onParkedChanged(bool parked);
    void enterParked(int card);
    /// The parked prompt went out (ChatSession::sendStarted after an unpark): the card gives way
    /// to the live send.
    void parkedWentOut();
    /// Taken out without sending (Cancel, Edit): a failed card again, with Retry now.
    void parkCancelled();
    /// The error card of the send that just failed, with nothing offered yet.
    void setFailedCard(int turn);
    void clearParking();
    // Trimming (conversationpresenter_trim.cpp).
    void onTrimOffered(const session::TrimOffer &offer);
    void onLeftOutChanged(int turns, qint64 tokens);
    /// Greys the left-out turns (and those an offer would leave out) and writes the note.
    void refreshLeftOut();
    /// The context error card's line and link, when its send made an offer.
    void addTrimOffer(ConversationView::Card &card) const;
    void clearTrim();
    // The fallback (conversationpresenter_fallback.cpp).
    void onFallbackOffered(const session::FallbackOffer &offer);
    void addFallbackOffer(ConversationView::Card &card) const;
    void clearFallback();
    /// The profile that gave the answer when it is not the conversation's; else empty.
    QString answeringProfile() const;

    /// A restored conversation's last send that failed, as far as the history tells it.
    session::SendState restoredEnd(const history::Send &last) const;

    session::ChatSession *m_session;
    ConversationView *m_view;
    int m_userTurn = -1; ///< the prompt of the send in flight
    int m_assistantTurn = -1;
    Exchange m_lastExchange; ///< the last answered exchange, while nothing came after it
    /// The last answer that ended (answered or not) and its prompt, while it is the last one:
    /// what Continue goes on with.
    Exchange m_endedAnswer;
    int m_continuedTurn = -1; ///< the answer the continuation in flight goes on with
    QString m_continuedEnd; ///< its end line before, kept when the continuation adds nothing

    session::RestoredConversation m_restored; ///< what the fill adds to the view
    QUuid m_restoredPrompt; ///< the last user message the fill added: its answer's costs
    history::CostTotal m_total; ///< of the conversation shown (totalChanged())
    void addToTotal(const history::CostTotal &cost);
    qsizetype m_fillNext = 0; ///< its next message
    QTimer m_fillTimer;
    qint64 m_longestPieceNs = 0;

    QPointer<session::ParkingLot> m_lot;
    int m_cardTurn = -1; ///< the last failed send's card, while it offers Send at or Retry now
    int m_parkedTurn = -1; ///< the card in its parked look
    QString m_cardLine; ///< the failed card's line: why it was not parked
    QString m_parkedLine; ///< the parked card's line: how it was parked
    QString m_parkedPrompt; ///< the parked card's prompt, shown again should it go out below
    bool m_parkClicked = false; ///< Send at was clicked: parked by the user, not the setting
    bool m_offersRetry = false; ///< the failed card's Retry now (a parking card's only)
    bool m_unparking = false; ///< parkedChanged(false) came: sent, or taken out?
    /// The send last rendered: seen running, its end shown.
    struct Seen
    {
        quint64 send = 0;
        bool running = false;
        bool ended = false;
    };
    Seen m_seen;
    /// The failed cards whose failure a rule read: its error text and that rule.
    QHash<int, std::pair<QString, QString>> m_ruleFailures;

    std::vector<Exchange> m_answered; ///< the answered exchanges shown, oldest first
    session::TrimOffer m_trim; ///< the offer of the last send's context error
    int m_trimTurn = -1; ///< its card, while it offers Trim and resend
    bool m_autoTrimmed = false; ///< the turns left out were left out by the setting
    qint64 m_leftOutTokens = 0;

    QString m_profileName;
    retry::PolicyLimits m_limits;
    session::FallbackOffer m_fallback; ///< the capped send's offer, while its card shows it
    int m_fallbackTurn = -1;
};

} // namespace capwatch::ui
