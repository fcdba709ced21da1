#pragma once

// The Insights view's spending limits (docs/insights.md): a gauge for each limit a profile has
// (tokens or money, per day or month), from the usage ledger as the status bar counts it
// (UsageTally), with where it goes at this rate: "At this rate the daily limit is reached at
// 16:40", or that it is not reached before it resets.

#include <QPointer>
#include <QWidget>

class QGridLayout;
class QLabel;

namespace capwatch::session {
struct ProfileSet;
class UsageTally;
} // namespace capwatch::session

namespace capwatch::ui {

class SpendGauges final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SpendGauges)

public:
    explicit SpendGauges(QWidget *parent = nullptr);

    /// Shows `profiles`' limits against `tally` (not owned).
    void refresh(const session::ProfileSet &profiles, const session::UsageTally &tally);
    /// Each gauge's line as shown ("Demo · tokens today: 1,234 of 5,000 (25 %) · ..."), for tests
    /// and screen readers.
    QStringList lines() const { return m_lines; }

private:
    QGridLayout *m_grid;
    QStringList m_lines;
};

} // namespace capwatch::ui
