#include "ui/panel/sendstatus.h"

#include "session/chatsession.h"
#include "session/sendtexts.h"

#include <QEvent>
#include <QStatusBar>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

SendStatus::SendStatus(session::ChatSession *session, QStatusBar *bar)
    : QLabel(bar)
{
    setObjectName(u"sendStatus"_s);
    setAccessibleName(tr("Send in flight"));
    bar->addPermanentWidget(this);
    hide();
    connect(session, &session::ChatSession::sendStateChanged, this, &SendStatus::render);
    // Another conversation: its send (if any) is not the one shown.
    connect(session, &session::ChatSession::conversationChanged, this,
        [this] { render(session::SendState {}); });
}

void SendStatus::render(const session::SendState &state)
{
    m_state = state;
    const QString text = session::SendTexts::statusBar(state);
    setText(text);
    setVisible(!text.isEmpty());
}

void SendStatus::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        setAccessibleName(tr("Send in flight"));
        render(m_state);
    }
    QLabel::changeEvent(event);
}

} // namespace capwatch::ui
