#pragma once

// The retry panel's "Provider window" part: what the provider's last report left of its limits,
// tokens and requests each with a bar, and "Resets in 34 s" counting down to the report's
// wall-clock reset. Its widgets sit in the panel's grid, aligned with the panel's own rows; this
// class fills them and keeps them current.

#include "history/historytypes.h"

#include <QObject>
#include <functional>
#include <optional>

class QFont;
class QLabel;
class QProgressBar;
class QTimer;
class QWidget;

namespace capwatch::ui {

class ProviderWindowPart final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProviderWindowPart)

public:
    /// Its widgets are made on `content` (the panel's grid places them); `titleFont` is the
    /// panel's title's, which the part's title takes one step smaller.
    ProviderWindowPart(QWidget *content, const QFont &titleFont, QObject *parent);

    QLabel *title() const { return m_title; }
    QLabel *none() const { return m_none; }
    QLabel *tokensLabel() const { return m_tokensLabel; }
    QProgressBar *tokensBar() const { return m_tokensBar; }
    QLabel *requestsLabel() const { return m_requestsLabel; }
    QProgressBar *requestsBar() const { return m_requestsBar; }
    QLabel *resetLabel() const { return m_resetLabel; }

    /// The clock the reset counts down on (the wall clock, or a test's).
    void setWallClock(std::function<QDateTime()> now);
    /// nullopt, or a report without any figure: one line, "The provider reports no window".
    /// Shown on the next turn, once for all the reports of one turn: a report comes as an
    /// attempt ends, in the turn that also ends the send, and the part's word-wrapped labels,
    /// their layout and paint (1-2 ms) are better in a turn of their own than added to that one.
    void setWindow(const std::optional<history::ProviderWindowRecord> &window);
    /// Its lines as shown (a pending report shown first).
    QString text();
    void retranslate();

Q_SIGNALS:
    /// A report that differs from the one before was shown: the label a screen reader should
    /// read (the tokens left, or "no window").
    void changed(QWidget *announce);

private:
    /// What setWindow() was given, shown.
    void show();
    void refresh();
    QString resetText(const QDateTime &now) const;

    std::optional<history::ProviderWindowRecord> m_window;
    std::function<QDateTime()> m_wallClock;
    bool m_changed = false; ///< since show() last ran
    QLabel *m_title;
    QLabel *m_none;
    QLabel *m_tokensLabel;
    QProgressBar *m_tokensBar;
    QLabel *m_requestsLabel;
    QProgressBar *m_requestsBar;
    QLabel *m_resetLabel;
    QTimer *m_countdown; ///< 1 s, only while a reset of the shown window is ahead
    QTimer *m_showTimer; ///< the next turn after setWindow()
};

} // namespace capwatch::ui
