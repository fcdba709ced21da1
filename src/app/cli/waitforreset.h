#pragma once

// `capwatch-cli chat --wait-for-reset[=MAX]` (interfaces.md, docs/parking.md): a send that gives
// up capped, with its provider's reset within MAX, waits for the reset in the terminal and is
// sent again. Here: the option's optional value, which QCommandLineParser cannot take, and the
// wait itself with its lines on standard error; chatcommand.cpp wires them to the session.

#include "retry/constants.h"

#include <QCommandLineOption>
#include <QDateTime>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <optional>

namespace capwatch::cli {

/// What the command line said of --wait-for-reset.
struct WaitForResetArgument
{
    bool given = false;
    std::optional<QString> max; ///< the text after `=`; none for the bare option
    /// A bare --wait-for-reset followed by a word (`--wait-for-reset 20m`): most likely a MAX
    /// meant with `=`, which the parser would take for an unexpected argument.
    QString nextWord;
};

/// `args` with `--wait-for-reset=MAX` made a bare `--wait-for-reset` (the flag the parser knows),
/// and what it said in `found`. The values of `options` that take one are skipped, so
/// `--prompt --wait-for-reset=5m` stays a prompt; nothing after `--` is looked at.
QStringList takeWaitForReset(
    const QStringList &args, const QList<QCommandLineOption> &options, WaitForResetArgument *found);

/// MAX: a whole number of seconds, minutes or hours (`90s`, `20m`, `2h`), from 1 s to parking's
/// 24 h; none for anything else (`5x`, `0`, `-1m`, `1.5h`).
std::optional<retry::Millis> parseResetMax(const QString &text);
/// MAX when none is given: 1h.
inline constexpr retry::Millis kDefaultResetMax { 60 * 60 * 1000 };

/// A duration as the lines say it, rounded up as the providers' "Retry in 18 min." is: "42 s",
/// "16 min", "2 h", "1 h 30 min".
QString resetDuration(retry::Millis ms);

/// The wait for a parked send's reset: a wall-clock deadline, checked by a precise single-shot
/// timer and again every second, so a suspend or a clock change keeps it at most about a second
/// past its time. Prints the parked line at the start and a countdown meanwhile: on a terminal
/// one line rewritten in place every second (cleared at the end), otherwise a line a minute.
class ResetWait final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ResetWait)

public:
    /// `terminal`: standard error is a terminal (the countdown rewrites its line).
    explicit ResetWait(bool terminal, QObject *parent = nullptr);
    ~ResetWait() override;

    /// Prints `capwatch: parked until 06:14:05 (in 16 min); Ctrl+C cancels` and waits until
    /// the wall clock reaches `dueAt` (UTC).
    void start(const QDateTime &dueAt);
    /// Stops waiting (Ctrl+C) and clears the countdown line; due() does not come.
    void stop();
    bool isWaiting() const { return m_dueAt.isValid(); }

Q_SIGNALS:
    /// The deadline is reached; the countdown line is cleared already.
    void due();

private:
    void check();
    void showCountdown(qint64 msLeft);
    void clearCountdown();

    bool m_terminal;
    QDateTime m_dueAt; ///< invalid: not waiting
    QDateTime m_startedAt;
    int m_minuteLines = 0; ///< not on a terminal: the lines a minute printed so far
    qsizetype m_countdownWidth = 0; ///< on a terminal: the countdown line shown, to clear
    QTimer m_due; ///< single shot, precise: the deadline
    QTimer m_recheck; ///< every second: the wall clock again, and the countdown
};

} // namespace capwatch::cli
