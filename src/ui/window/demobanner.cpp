#include "ui/window/demobanner.h"

#include "ui/panel/categorycolors.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace capwatch::ui {

DemoBanner::DemoBanner(QWidget *parent)
    : QFrame(parent)
    , m_text(new QLabel(this))
    , m_button(new QPushButton(this))
{
    setAutoFillBackground(true);
    setFrameShape(QFrame::NoFrame);
    auto *layout = new QHBoxLayout(this);
    const int pad = fontMetrics().height() / 2;
    layout->setContentsMargins(pad * 2, pad, pad * 2, pad);
    m_text->setWordWrap(true);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_button);
    connect(m_button, &QPushButton::clicked, this, &DemoBanner::configureRequested);
    retranslate();
}

void DemoBanner::restyle(const QPalette &window)
{
    QPalette p = palette();
    p.setColor(QPalette::Window,
        blend(window.color(QPalette::Window), window.color(QPalette::Highlight), 0.18));
    setPalette(p);
}

void DemoBanner::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QFrame::changeEvent(event);
}

void DemoBanner::retranslate()
{
    m_text->setText(tr("You are chatting with capwatch's built-in demo provider, no account "
                       "needed. It allows 6,000 tokens a minute: after a few quick messages "
                       "capwatch holds the next one until the window has room, and Send now "
                       "sends it anyway, into a real retry cycle."));
    m_button->setText(tr("&Configure a provider…"));
    setAccessibleName(tr("Demo provider notice"));
    m_button->setAccessibleDescription(tr("Open the provider settings"));
}

} // namespace capwatch::ui
