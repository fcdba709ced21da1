#include "ui/conversation/conversationtotal.h"

#include "session/sendtexts.h"

#include <QEvent>
#include <QLocale>
#include <QTimer>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

ConversationTotal::ConversationTotal(QWidget *parent)
    : QLabel(parent)
    , m_render(new QTimer(this))
{
    m_render->setSingleShot(true);
    m_render->setInterval(0);
    connect(m_render, &QTimer::timeout, this, &ConversationTotal::render);
    setObjectName(u"conversationTotal"_s);
    setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.9);
    setFont(f);
    setForegroundRole(QPalette::PlaceholderText);
    hide();
}

void ConversationTotal::setTotal(const history::CostTotal &total)
{
    const bool shows = total.attempts > 0;
    m_total = total;
    // Shown or hidden at once: the line moves the conversation below it, and a conversation
    // opened should be laid out and painted once, with it or without it. A new figure only is
    // shown on the next turn: a send's end changes it, in a turn that has the send's end to show
    // already, and a selectable label's new text (its text control, its layout) costs about 1 ms.
    if (shows == isHidden() || !shows) {
        m_render->stop();
        render();
    } else {
        m_render->start();
    }
}

void ConversationTotal::render()
{
    if (m_total.attempts == 0) {
        hide();
        return;
    }
    const QString tokens = QLocale().toString(m_total.tokens);
    const QString cost = session::SendTexts::cost(m_total);
    setText(cost.isEmpty() ? tr("This conversation: %1 tokens").arg(tokens)
                           : tr("This conversation: %1 · %2 tokens").arg(cost, tokens));
    QString tip = tr("What the usage ledger counted for this conversation. Attempts: %1; tokens "
                     "(prompt and completion): %2.")
                      .arg(m_total.attempts)
                      .arg(tokens);
    if (m_total.unpriced > 0)
        tip += u' ' + tr("Answered attempts with no known price: %1.").arg(m_total.unpriced);
    setToolTip(tip);
    show();
}

void ConversationTotal::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        render();
    QLabel::changeEvent(event);
}

} // namespace capwatch::ui
