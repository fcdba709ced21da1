#pragma once

// The conversation's context gauge (docs/retry-policy.md section 8.2), one line above the
// prompt: the estimated tokens of the next request against the model's context window, with a
// small bar; in the warning colour, with "Trim…", when the next send would not fit.

#include "session/sessiontypes.h"

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace capwatch::ui {

class ContextGauge final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ContextGauge)

public:
    explicit ContextGauge(QWidget *parent = nullptr);

    /// Shows `gauge`; `canTrim`: leaving out more of the oldest turns would help (Trim…).
    void setGauge(const session::ContextGauge &gauge, bool canTrim);
    session::ContextGauge gauge() const { return m_gauge; }
    /// As shown, for tests and screen readers.
    QString text() const;
    bool warns() const { return !m_gauge.fits; }
    QPushButton *trimButton() const { return m_trim; }
    QProgressBar *bar() const { return m_bar; }

Q_SIGNALS:
    /// Trim…: leave out the oldest turns so that the next send fits.
    void trimRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void render();

    session::ContextGauge m_gauge;
    bool m_canTrim = false;
    QLabel *m_text;
    QProgressBar *m_bar;
    QPushButton *m_trim;
};

} // namespace capwatch::ui
