#pragma once

// The live retry panel: the heart of capwatch. It shows the current send's cycle as it
// happens (attempt n of 5, used/limit tokens, the countdown to the next retry, the budget left
// of the 120 s, where the wait came from, the state) and keeps its last state afterwards.

#include "session/chatsession.h"
#include "session/parkingtexts.h"

#include <QPointer>
#include <QWidget>
#include <functional>
#include <optional>

class QAccessibleEvent;
class QGridLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QTimer;

namespace capwatch::ui {

class ProviderWindowPart;

class RetryPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RetryPanel)

public:
    /// Where the shown send is: session::SendPhase (the panel has no states of its own).
    using State = session::SendPhase;

    explicit RetryPanel(QWidget *parent = nullptr);
    /// Shows `session`'s current send (its sendStateChanged(): every step and every tick).
    void setSession(session::ChatSession *session);
    /// Shows `state`: all the panel says of a send comes from it (SendTexts words it).
    void render(const session::SendState &state);

    /// The numbers of the policy of the profile the panel's sends go to (issue 17): "attempt 2
    /// of 3", the budget bar's whole, "of 12 s", before any send. Once a send started, its own
    /// numbers (ChatSession::progress().limits, its SendPolicy's) are shown instead.
    void setLimits(const retry::PolicyLimits &limits);
    /// The limits shown now.
    retry::PolicyLimits limits() const;

    State state() const { return m_state.phase; }
    /// The send state shown (the limits as shown: the profile's before any send).
    session::SendState shown() const;
    /// The texts as shown, for tests and the accessible tree.
    QString stateText() const;
    /// The category of the send's latest failed attempt in words, with its HTTP status:
    /// "request too large (HTTP 400)"; "–" before any failure.
    QString failureText() const;
    QString attemptText() const;
    QString tokensText() const;
    QString countdownText() const;
    QString budgetText() const;
    QString sourceText() const;
    /// While the conversation's send is parked: in its own colour, "Parked until 06:14 · in
    /// 15:42 · park 1 of 3", and the time to the reset in place of the next retry's. Called again
    /// on every tick; the next send (or another conversation) ends it.
    void showParked(
        const history::ParkedSend &parked, session::ParkedState state, const QDateTime &now);
    /// Taken out without sending (Cancel, Edit): the send's own end again.
    void clearParked();

    /// The "Provider window" part: tokens and requests left of the limits with a bar, and
    /// "resets in 34 s" counting down (to the report's wall-clock reset). nullopt, or a report
    /// without any figure: one line, "The provider reports no window".
    void setProviderWindow(const std::optional<history::ProviderWindowRecord> &window);
    QString providerWindowText() const; ///< as shown, for tests
    /// "Pacing: sending in 12 s (the provider's window is full)"; empty when not pacing.
    QString pacingText() const;
    /// The wall clock the provider window's reset counts down on (UTC); for tests. Default:
    /// QDateTime::currentDateTimeUtc().
    void setWallClock(std::function<QDateTime()> now);

    /// Seconds as the panel shows them.
    double shownCountdownS() const;
    double shownBudgetLeftS() const;

    /// Sees every accessibility event the panel sends, as a screen reader bridge would; the
    /// platform only delivers them while an assistive technology is active.
    using AnnouncementObserver = void (*)(QAccessibleEvent *event);
    static void setAnnouncementObserver(AnnouncementObserver observer);

    /// As tall as all its rows (the provider window and the wait's source included), so that
    /// the window's layout gives it that when there is room; it scrolls only when there is not.
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void stateChanged(capwatch::session::SendPhase state);
    /// The panel's "Send now" while pacing was clicked (the window calls ChatSession::sendNow()).
    void sendNowRequested();
    /// The panel's "Send at 14:09" while a retry waits for a reset its budget cannot reach (the
    /// window calls ChatSession::parkNow(), issue 25.12).
    void sendAtRequested();

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    /// Captions on one line when the panel is wide enough for the longest of them beside a bar
    /// and a figure; wrapped in a narrow panel, so that the figures stay in view.
    void fitCaptions();
    void refresh();
    void retranslate();
    void announce(QWidget *what);
    void refreshParked();
    /// `state` as it ended: a parked state without its park.
    static session::SendState endOf(const session::SendState &state);
    void refreshPacing();
    void refreshSendAt();

    QPointer<session::ChatSession> m_session;
    /// The send shown: the session's, or a parked one (showParked()).
    session::SendState m_state;
    bool m_narrow = false; ///< fitCaptions(): captions wrapped, the figures' bars hidden
    /// Where a part of a captioned row goes: wide, in its cell; narrow, across the whole width,
    /// a caption's figure or bar on the row below it, so that a long caption (German's) and a
    /// long figure never share a line and no column's minimum adds to another's.
    struct Placement
    {
        QWidget *widget;
        int row;
        int column;
        int columnSpan;
        int narrowRow;
        Qt::Alignment align;
    };
    QList<Placement> m_placements;
    QGridLayout *m_grid = nullptr;
    void placeRows();
    /// What the panel showed before showParked() put a parked send in its place.
    std::optional<session::SendState> m_beforePark;
    retry::PolicyLimits m_limits;
    std::function<QDateTime()> m_wallClock; ///< Send at's time to the reset

    QScrollArea *m_scroll;
    QWidget *m_content;
    QLabel *m_title;
    QLabel *m_stateLabel;
    QLabel *m_failureCaption;
    QLabel *m_failureLabel;
    QLabel *m_attemptCaption;
    QLabel *m_attemptLabel;
    QProgressBar *m_attemptBar;
    QLabel *m_tokensCaption;
    QLabel *m_tokensLabel;
    QProgressBar *m_tokensBar;
    QLabel *m_countdownCaption;
    QLabel *m_countdownLabel;
    QProgressBar *m_countdownBar;
    QLabel *m_budgetCaption;
    QLabel *m_budgetLabel;
    QProgressBar *m_budgetBar;
    QLabel *m_sourceCaption;
    QLabel *m_sourceLabel;
    QPushButton *m_sendNow;
    QPushButton *m_sendAt; ///< while waiting for a reset out of the budget's reach
    ProviderWindowPart *m_window
        = nullptr; ///< the "Provider window" part, in the grid with the rest
};

} // namespace capwatch::ui
