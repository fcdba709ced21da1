#include "ui/conversation/promptbox.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

PromptBox::PromptBox(QWidget *parent)
    : QWidget(parent)
    , m_editor(new QPlainTextEdit(this))
    , m_sendButton(new QPushButton(this))
    , m_stopButton(new QPushButton(this))
    , m_retryNowButton(new QPushButton(this))
{
    m_editor->setObjectName(u"promptEditor"_s);
    m_sendButton->setObjectName(u"sendButton"_s);
    m_stopButton->setObjectName(u"stopButton"_s);
    m_retryNowButton->setObjectName(u"retryNowButton"_s);
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    m_editor->setTabChangesFocus(true);
    m_editor->setMaximumHeight(fontMetrics().height() * 6);
    m_editor->installEventFilter(this);
    row->addWidget(m_editor, 1);
    auto *buttons = new QVBoxLayout;
    m_sendButton->setDefault(true);
    buttons->addWidget(m_sendButton);
    buttons->addWidget(m_stopButton);
    buttons->addWidget(m_retryNowButton);
    buttons->addStretch(1);
    row->addLayout(buttons);
    connect(m_sendButton, &QPushButton::clicked, this, &PromptBox::sendRequested);
    connect(m_stopButton, &QPushButton::clicked, this, &PromptBox::stopRequested);
    connect(m_retryNowButton, &QPushButton::clicked, this, &PromptBox::retryRequested);
    // No texts yet: see retranslate() in the header.
}

void PromptBox::setBusy(bool busy, bool canRetry)
{
    m_sendButton->setEnabled(!busy);
    m_stopButton->setEnabled(busy);
    m_retryNowButton->setVisible(canRetry && !busy);
}

void PromptBox::setText(const QString &text)
{
    m_editor->setPlainText(text);
    m_editor->moveCursor(QTextCursor::End);
}

bool PromptBox::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_editor && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter)
            && key->modifiers().testFlag(Qt::ControlModifier)
            && !key->modifiers().testFlag(Qt::ShiftModifier)) { // Ctrl+Shift+Enter: a card's
            Q_EMIT sendRequested();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void PromptBox::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void PromptBox::retranslate()
{
    m_editor->setPlaceholderText(tr("Ask something. Ctrl+Enter sends, Esc cancels."));
    m_sendButton->setText(tr("&Send"));
    m_stopButton->setText(tr("S&top"));
    m_retryNowButton->setText(tr("&Retry now"));
    m_editor->setAccessibleName(tr("Prompt"));
    m_editor->setAccessibleDescription(
        tr("Your message. Ctrl+Enter sends it, Esc cancels a send."));
    m_sendButton->setAccessibleDescription(tr("Send the prompt (Ctrl+Enter)"));
    m_stopButton->setAccessibleDescription(
        tr("Cancel the send in flight, including a retry wait (Esc)"));
    m_retryNowButton->setAccessibleDescription(tr("Send the last failed prompt again now"));
}

} // namespace capwatch::ui
