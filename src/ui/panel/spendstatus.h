#pragma once

// The status bar's line on what the profile in use spent today, against its spending limit when
// it has one: "Today: 1,234 of 5,000 tokens", "Today: $0.41 of $1.00", "Today: $0.012 · 1,234
// tokens". Counted from the usage ledger (UsageTally), so a capwatch-cli's sends count too. When
// a limit passes 50, 80 or 100 % while capwatch runs, it warns once per threshold and period
// (limitWarning(): the window shows it in the status bar and as a desktop notification); a
// threshold already passed when capwatch starts is shown in the line's colour, not announced.

#include "retry/spendlimits.h"

#include <QHash>
#include <QLabel>
#include <QPointer>

class QStatusBar;

namespace capwatch::session {
class ChatSession;
class UsageTally;
} // namespace capwatch::session

namespace capwatch::ui {

class SpendStatus final : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SpendStatus)

public:
    /// Added to `bar` as a permanent widget, following `session`'s profile and `tally`.
    SpendStatus(session::ChatSession *session, session::UsageTally *tally, QStatusBar *bar);

    /// Reads the tally again and shows it (the tally's changed() and a new profile call it).
    void refresh();

Q_SIGNALS:
    /// A spending limit of the profile in use passed `percent` (50, 80, 100) in this run.
    void limitWarning(const QString &title, const QString &text, int percent);

protected:
    void changeEvent(QEvent *event) override;

private:
    QPointer<session::ChatSession> m_session;
    QPointer<session::UsageTally> m_tally;
    /// The highest threshold seen per profile, limit and period ("Demo/tokens_day/2026-12-07").
    QHash<QString, int> m_seen;
};

} // namespace capwatch::ui
