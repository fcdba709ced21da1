#include "waitforreset.h"

#include "clicommon.h"

#include <QCoreApplication>
#include <algorithm>
#include <limits>

namespace capwatch::cli {

using namespace Qt::StringLiterals;

namespace {

const QString kOption = u"--wait-for-reset"_s;

QDateTime wallNow()
{
    return QDateTime::currentDateTimeUtc();
}

/// What is left as a countdown shows it, rounded up: "15:59", "1:02:03".
QString clock(qint64 msLeft)
{
    const qint64 total = (std::max<qint64>(msLeft, 0) + 999) / 1000;
    const qint64 h = total / 3600;
    const QString mmss
        = u"%1:%2"_s.arg(qlonglong((total % 3600) / 60), h > 0 ? 2 : 1, 10, QChar(u'0'))
              .arg(qlonglong(total % 60), 2, 10, QChar(u'0'));
    return h > 0 ? QString::number(h) + u':' + mmss : mmss;
}

} // namespace

QStringList takeWaitForReset(
    const QStringList &args, const QList<QCommandLineOption> &options, WaitForResetArgument *found)
{
    // The options whose value may come as the next argument, as the parser takes it.
    const QStringList takesValue = optionsTakingValue(options);
    QStringList out;
    out.reserve(args.size());
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &arg = args.at(i);
        if (i == 0) { // the program
            out << arg;
        } else if (arg == u"--") {
            out << args.mid(i);
            break;
        } else if (arg == kOption) {
            found->given = true;
            if (i + 1 < args.size() && !args.at(i + 1).startsWith(u'-'))
                found->nextWord = args.at(i + 1);
            out << arg;
        } else if (arg.startsWith(kOption + u'=')) {
            found->given = true;
            found->max = arg.mid(kOption.size() + 1);
            out << kOption;
        } else {
            out << arg;
            if (takesValue.contains(arg) && i + 1 < args.size())
                out << args.at(++i);
        }
    }
    return out;
}

std::optional<retry::Millis> parseResetMax(const QString &text)
{
    if (text.size() < 2)
        return std::nullopt;
    const QChar unit = text.back();
    const qint64 perUnit = unit == u's' ? 1000
        : unit == u'm'                  ? 60'000
        : unit == u'h'                  ? 3'600'000
                                        : 0;
    const QStringView digits = QStringView(text).chopped(1);
    if (perUnit == 0 || !std::all_of(digits.begin(), digits.end(), [](QChar c) {
            return c >= u'0' && c <= u'9';
        }))
        return std::nullopt; // no sign, no fraction, no space
    bool ok = false;
    const qlonglong n = digits.toLongLong(&ok);
    if (!ok || n < 1 || n > retry::kMaxParkWait.count() / perUnit)
        return std::nullopt;
    return retry::Millis(n * perUnit);
}

QString resetDuration(retry::Millis ms)
{
    // As the parking rule words its reasons (parking.cpp), in the user's language.
    const qint64 seconds = (std::max<qint64>(ms.count(), 0) + 999) / 1000;
    if (seconds < 60)
        return QCoreApplication::translate("cli", "%1 s").arg(seconds);
    const qint64 minutes = (seconds + 59) / 60;
    if (minutes < 60)
        return QCoreApplication::translate("cli", "%1 min").arg(minutes);
    if (minutes % 60 == 0)
        return QCoreApplication::translate("cli", "%1 h").arg(minutes / 60);
    return QCoreApplication::translate("cli", "%1 h %2 min").arg(minutes / 60).arg(minutes % 60);
}

ResetWait::ResetWait(bool terminal, QObject *parent)
    : QObject(parent)
    , m_terminal(terminal)
{
    m_due.setSingleShot(true);
    m_due.setTimerType(Qt::PreciseTimer);
    m_recheck.setInterval(1000);
    connect(&m_due, &QTimer::timeout, this, &ResetWait::check);
    connect(&m_recheck, &QTimer::timeout, this, &ResetWait::check);
}

ResetWait::~ResetWait()
{
    clearCountdown();
}

void ResetWait::start(const QDateTime &dueAt)
{
    m_dueAt = dueAt.toUTC();
    m_startedAt = wallNow();
    m_minuteLines = 0;
    const qint64 left = std::max<qint64>(0, m_startedAt.msecsTo(m_dueAt));
    writeErr((u"capwatch: "_s
        + QCoreApplication::translate("cli", "parked until %1 (in %2); Ctrl+C cancels")
              .arg(
                  m_dueAt.toLocalTime().toString(u"HH:mm:ss"_s), resetDuration(retry::Millis(left)))
        + u'\n')
                 .toUtf8());
    // Never due() from here: the caller is still in the session's signal.
    m_due.start(int(std::min<qint64>(left, std::numeric_limits<int>::max())));
    m_recheck.start();
    showCountdown(left);
}

void ResetWait::stop()
{
    m_due.stop();
    m_recheck.stop();
    m_dueAt = {};
    clearCountdown();
}

void ResetWait::check()
{
    if (!m_dueAt.isValid())
        return;
    const qint64 left = wallNow().msecsTo(m_dueAt);
    if (left <= 0) {
        stop();
        Q_EMIT due();
        return;
    }
    // The timer counts monotonic time, which stands still in a suspend and ignores a clock set
    // forward: armed again with what the wall clock says is left.
    m_due.start(int(std::min<qint64>(left, std::numeric_limits<int>::max())));
    showCountdown(left);
}

void ResetWait::showCountdown(qint64 msLeft)
{
    if (m_terminal) {
        const QString line = u"capwatch: "_s
            + QCoreApplication::translate("cli", "sending in %1").arg(clock(msLeft));
        // Padded over a longer line before it (1:00:00 becomes 59:59).
        writeErr((u'\r' + line.leftJustified(m_countdownWidth)).toUtf8());
        m_countdownWidth = std::max(m_countdownWidth, line.size());
        return;
    }
    // A log or a pipe gets a line a minute (one after a suspend that skipped several).
    const qint64 minutes = m_startedAt.msecsTo(wallNow()) / 60'000;
    if (minutes <= m_minuteLines)
        return;
    m_minuteLines = int(minutes);
    writeErr((u"capwatch: "_s
        + QCoreApplication::translate("cli", "still parked; sending in %1")
              .arg(resetDuration(retry::Millis(msLeft)))
        + u'\n')
                 .toUtf8());
}

void ResetWait::clearCountdown()
{
    if (!m_terminal || m_countdownWidth == 0)
        return;
    writeErr((u'\r' + QString(m_countdownWidth, u' ') + u'\r').toUtf8());
    m_countdownWidth = 0;
}

} // namespace capwatch::cli
