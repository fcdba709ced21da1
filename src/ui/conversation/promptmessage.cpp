#include "ui/conversation/promptmessage.h"

#include "ui/panel/categorycolors.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

PromptMessage::PromptMessage(QWidget *parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_text(new QLabel(this))
    , m_button(new QPushButton(this))
    , m_close(new QToolButton(this))
{
    setObjectName(u"inlineMessage"_s);
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    const int pad = fontMetrics().height() / 2;
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(pad, pad / 2, pad / 2, pad / 2);
    m_text->setObjectName(u"inlineMessageText"_s);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_button->setObjectName(u"inlineMessageButton"_s);
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_button, 0, Qt::AlignVCenter);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    connect(m_button, &QPushButton::clicked, this, [this] { Q_EMIT actionTriggered(m_action); });
    connect(m_close, &QToolButton::clicked, this, [this] { Q_EMIT closeRequested(m_action); });
    hide();
    retranslate();
}

QString PromptMessage::shownText() const
{
    return isHidden() ? QString() : m_text->text();
}

void PromptMessage::showMessage(Kind kind, const QString &text, Action action)
{
    m_kind = kind;
    m_action = action;
    m_text->setText(text);
    const QStyle::StandardPixmap icon
        = kind == Kind::Warning ? QStyle::SP_MessageBoxWarning : QStyle::SP_MessageBoxInformation;
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, parentWidget());
    m_icon->setPixmap(style()->standardIcon(icon, nullptr, parentWidget()).pixmap(size, size));
    m_button->setVisible(action != Action::None);
    retranslate();
    restyle(window()->palette());
    show();
}

void PromptMessage::dismiss()
{
    m_action = Action::None;
    hide();
}

// The palette's own text colour on a background tinted from it: readable in light and dark.
void PromptMessage::restyle(const QPalette &window)
{
    const QColor tint
        = m_kind == Kind::Warning ? QColor(0xe0, 0x8a, 0x1e) : window.color(QPalette::Highlight);
    QPalette p = palette();
    p.setColor(QPalette::Window, blend(window.color(QPalette::Window), tint, 0.16));
    p.setColor(QPalette::WindowText, window.color(QPalette::WindowText));
    setPalette(p);
}

void PromptMessage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QFrame::changeEvent(event);
}

void PromptMessage::retranslate()
{
    setAccessibleName(tr("Message"));
    m_close->setToolTip(tr("Close the message"));
    m_close->setAccessibleName(tr("Close the message"));
    m_button->setAccessibleDescription(tr("Act on the message shown above the prompt"));
    m_button->setText(m_action == Action::CancelEdit ? tr("Cancel &editing")
            : m_action == Action::KeepDeclaredLimit  ? tr("&Keep this limit")
                                                     : tr("Pro&vider settings…"));
}

} // namespace capwatch::ui
