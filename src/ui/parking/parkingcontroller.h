#pragma once

// The window side of parking (docs/parking.md): the window's one ParkingLot, which holds the
// parked sends of every conversation and sends each at its provider's reset; the sessions it
// makes for a conversation the window does not show, wired like the window's own; the Queue tab;
// the one tick that moves every countdown (the cards', the panel's, the queue's); and what the
// window does when a parked send ends: the hook for a notification and the sidebar's mark, and
// a reload when the answer came in a session of the lot's own.

#include "history/historywriter.h"
#include "session/backgroundsends.h"
#include "session/chatsession.h"
#include "session/parkinglot.h"
#include "session/providerresolver.h"

#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>
#include <QUuid>
#include <memory>

class QPlainTextEdit;
class QTabWidget;

namespace capwatch::ui {

class ConversationController;
class ConversationPresenter;
class HistoryController;
class DesktopNotifier;
class HistorySidebar;
class ParkedQueueModel;
class ParkedQueueView;
class RetryPanel;

class ParkingController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ParkingController)

public:
    /// The window's parts this works with, all of the window's, none null.
    struct Parts
    {
        ConversationPresenter *presenter;
        RetryPanel *panel;
        QTabWidget *tabs; ///< gets the Queue tab
        QPlainTextEdit *editor; ///< the prompt editor
        HistorySidebar *sidebar;
        ConversationController *controller; ///< the actions on the conversation shown
        session::ChatSession *session; ///< the window's
        HistoryController *history; ///< opens a parked send's conversation
        session::ProviderMemory *memory; ///< what the window learned of its providers
        double timeScale = 1.0; ///< this run's --time-scale
    };

    /// After the window's presenter, panel and tabs exist: attaches the window's session to a
    /// new lot and adds the Queue tab. `demo` is what the window's session was wired with;
    /// `window` is raised when a notification is clicked and parents the keychain's questions.
    ParkingController(QWidget *window, session::LocalProvider *demo, const Parts &parts);

    session::ParkingLot *lot() const { return m_lot; }
    ParkedQueueModel *queueModel() const { return m_model; }
    ParkedQueueView *queueView() const { return m_view; }
    /// Tells of a parked send that ended in the background (parkedSendEnded()).
    DesktopNotifier *notifier() const { return m_notifier; }
    /// The sends that go on in a conversation the window stopped showing (issue 25, point 4).
    session::BackgroundSends *carried() const { return m_carried; }
    /// The one tick, for tests: running while anything is parked or a card counts down.
    const QTimer &tick() const { return m_tick; }

    /// What the Queue's buttons and the cards' links do.
    /// Send now. One whose key would go over plain HTTP to another machine asks for the consent
    /// first when its conversation is shown (and sends on "Send anyway"); one of another
    /// conversation waiting for it opens that conversation, which then asks (not while a send
    /// goes out in the window). False when nothing was sent (yet).
    bool sendNow(const QUuid &id);
    bool cancel(const QUuid &id) { return m_lot->cancel(id); }
    /// Opens a parked send's conversation in the window.
    void openConversation(const QUuid &conversation);
    /// True while the lot holds a send of the conversation shown: parked in the window's
    /// session, or going out in a session of the lot's own (then Retry now would send it twice).
    bool holdsShown() const;
    /// The session sending the shown conversation's parked prompt when it is one of the lot's
    /// own (the window opened the conversation while it was going out), or carrying a send the
    /// window left when it showed another conversation: the window then sends nothing in it
    /// (two sessions would interleave its messages), its Stop stops that one, and the panel
    /// shows that send.
    session::ChatSession *shownSentElsewhere() const;
    /// The window's Stop: the shown conversation's send, in the window's session or elsewhere.
    void stop();
    /// What quitting now would do to sends not done (parked ones, ones in flight anywhere);
    /// empty when nothing (issue 25.13).
    QString quitQuestion() const;

Q_SIGNALS:
    /// A parked send ended while the window was not active, or in another conversation than
    /// the one shown: for a desktop notification and the sidebar's unread mark. `answered`: it
    /// succeeded; `parkedAgain`: it ended capped again and waits for the next reset.
    void parkedSendEnded(
        const QUuid &conversation, const QString &title, bool answered, bool parkedAgain);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

public:
    /// What the lot makes a session for a parked send of a conversation the window does not show
    /// with: wired as the window's, talking to what `providers` resolves for its conversation's
    /// profile. The window calls it whenever its provider or settings are applied.
    void updateSessionSetup(const session::ProviderResolver &providers);

private:
    void onTick();
    void onLotChanged();
    void onParkedChanged(bool parked);
    void onFinished(
        const history::ParkedSend &parked, net::SendSummary::Outcome outcome, bool parkedAgain);
    void editPrompt(const QString &prompt);
    void updatePanel();
    void updateTicking();
    void updateTabText();
    void fetchTitles();
    /// Opens `conversation` again once the window's session is idle, if it still shows it.
    void reloadWhenIdle(const QUuid &conversation);
    /// A desktop notification and the sidebar's unread mark for a parked send that ended.
    void tell(const QUuid &conversation, const QString &title, bool answered, bool parkedAgain);
    /// The sidebar's parked marks follow the lot.
    void markParked();
    /// The sidebar's sending marks follow the carried sends; the panel shows the shown one's.
    void onCarriedChanged();
    void onCarriedEnded(const QUuid &conversation, net::SendSummary::Outcome outcome, bool parked);

    QWidget *m_window;
    Parts m_parts;
    session::ChatSession *m_session;
    session::LocalProvider *m_demo;
    session::ParkingLot *m_lot;
    session::BackgroundSends *m_carried;
    QSet<QUuid> m_markedSending; ///< conversations the sidebar shows as sending
    ParkedQueueModel *m_model;
    ParkedQueueView *m_view;
    QPointer<history::HistoryWriter> m_writer;
    QTimer m_tick;
    QSet<QUuid> m_runsHere; ///< released into the window's own session
    QSet<QUuid> m_titlesAsked; ///< conversations whose title was read for the queue
    DesktopNotifier *m_notifier;
    QUuid m_told; ///< the conversation of the last notification: a click on it opens it
    QUuid m_askAfterOpen; ///< a parked send whose conversation the Queue's Send now opened
    QSet<QUuid> m_markedParked; ///< conversations the sidebar shows as parked
};

} // namespace capwatch::ui
