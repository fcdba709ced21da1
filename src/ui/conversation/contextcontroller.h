#pragma once

// The provider's window and the model's context beside the conversation shown
// (docs/retry-policy.md section 8): the window's one ProviderMemory (shared by its session and
// the parking lot's), the retry panel's "Provider window" part kept on the last report of the
// provider and model talked to, and the context gauge above the prompt (debounced while typing)
// with its Trim…. The actions (Send now, Trim and resend) are the ConversationController's.

#include "session/providermemory.h"

#include <QObject>
#include <QTimer>
#include <utility>

class QPlainTextEdit;

namespace capwatch::session {
class ChatSession;
}

namespace capwatch::history {
class HistoryWriter;
}

namespace capwatch::ui {

class ContextGauge;
class ConversationPresenter;
class RequestOptionsRow;
class RetryPanel;
class Settings;

class ContextController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ContextController)

public:
    /// Before the window's session is wired: the memory reads its ratios and context windows
    /// from `settings`.
    ContextController(session::ChatSession *session, Settings &settings, QObject *parent);

    /// The window's parts this works with, all of the window's, none null.
    struct Parts
    {
        QPlainTextEdit *editor; ///< the prompt editor
        RequestOptionsRow *options;
        ContextGauge *gauge;
        RetryPanel *panel;
        ConversationPresenter *presenter;
    };

    session::ProviderMemory *memory() const { return m_memory; }
    /// After the window's widgets, presenter and parking exist: keeps `parts` and connects them.
    void attach(const Parts &parts);
    /// The window's history: the memory stores its window reports there and reads the stored
    /// ones (a new window paces on what the last one saw).
    void setHistory(history::HistoryWriter *writer);

    /// Now, not debounced: the gauge and the panel's provider window.
    void updateGauge();
    void updateProviderWindow();

private:
    /// What the prompt editor and the request options would send now.
    QString prompt() const;
    /// The lane and model whose provider window the panel shows: the last send's (a fallback's
    /// after a send to it), else the session's own.
    std::pair<QString, QString> shownWindow() const;

    session::ChatSession *m_session;
    Parts m_parts {};
    session::ProviderMemory *m_memory;
    QTimer m_debounce; ///< typing: the gauge follows once the keys pause
    /// A send's end: the gauge follows on the next turn, not in the one that shows the end.
    QTimer m_afterSend;
    std::pair<quint64, bool> m_seen { 0, false }; ///< the send last rendered, and whether it ended
};

} // namespace capwatch::ui
