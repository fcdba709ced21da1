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
    /// Sets the texts; a language change calls it again by itself. The constructor leaves them
    /// out and the window calls this once the box is in its splitter column: the buttons' nested
    /// column keeps the width measured while they were blank (a button's text invalidates only
    /// the box's own layout) until the window is first laid out, after the splitter has taken
    /// the hints for its initial split. Texts set first made the left column 42 px wider.
    void retranslate();

Q_SIGNALS:
    void sendRequested();
    void stopRequested();
    void retryRequested();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    QPlainTextEdit *m_editor;
    QPushButton *m_sendButton;
    QPushButton *m_stopButton;
    QPushButton *m_retryNowButton;
};

} // namespace capwatch::ui
