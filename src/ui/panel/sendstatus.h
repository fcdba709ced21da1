#pragma once

// The status bar's line on the send in flight: "Attempt 3 of 5 · retry in 42.0 s", "Pacing:
// sending in 12 s (…)". It renders the session's SendState as the retry panel does (SendTexts
// words both), and is empty while nothing is in flight.

#include "session/sendstate.h"

#include <QLabel>
#include <QPointer>

class QStatusBar;

namespace capwatch::session {
class ChatSession;
}

namespace capwatch::ui {

class SendStatus final : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SendStatus)

public:
    /// Added to `bar` as a permanent widget, following `session`.
    SendStatus(session::ChatSession *session, QStatusBar *bar);

    /// Shows `state`.
    void render(const session::SendState &state);

protected:
    void changeEvent(QEvent *event) override;

private:
    session::SendState m_state;
};

} // namespace capwatch::ui
