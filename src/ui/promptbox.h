#pragma once

// The prompt editor and its buttons: Send (also Ctrl+Enter), Stop, and Retry now after a failed
// send.

#include <QWidget>

class QPlainTextEdit;
class QPushButton;

namespace capwatch::ui {

class PromptBox final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PromptBox)

public:
    explicit PromptBox(QWidget *parent = nullptr);

    QPlainTextEdit *editor() const { return m_editor; }
    QPushButton *sendButton() const { return m_sendButton; }
    QPushButton *stopButton() const { return m_stopButton; }
    QPushButton *retryNowButton() const { return m_retryNowButton; }
    /// Send while idle, Stop while busy, Retry now while a failed prompt waits.
    void setBusy(bool busy, bool canRetry);
    /// Puts `text` in the editor with the cursor at its end, where typing goes on.
    void setText(const QString &text);

Q_SIGNALS:
    void sendRequested();
    void stopRequested();
    void retryRequested();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void retranslate();

    QPlainTextEdit *m_editor;
    QPushButton *m_sendButton;
    QPushButton *m_stopButton;
    QPushButton *m_retryNowButton;
};

} // namespace capwatch::ui
