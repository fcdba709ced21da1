#include "parkingtexts.h"

#include "retry/constants.h"

#include <QLocale>
#include <QStringList>
#include <algorithm>

namespace capwatch::session {

using namespace Qt::StringLiterals;

namespace {

/// Milliseconds from `now` to `at`, never below zero.
qint64 msUntil(const QDateTime &at, const QDateTime &now)
{
    return std::max<qint64>(0, now.msecsTo(at));
}

/// Hours and minutes, the minutes rounded up: "25 h", "2 h 5 min", "16 min".
QString hoursMinutes(qint64 ms)
{
    const QLocale l;
    const qint64 minutes = (ms + 59'999) / 60'000;
    const qint64 h = minutes / 60;
    const qint64 min = minutes % 60;
    if (h == 0)
        return ParkingTexts::tr("%1 min").arg(l.toString(min));
    if (min == 0)
        return ParkingTexts::tr("%1 h").arg(l.toString(h));
    return ParkingTexts::tr("%1 h %2 min").arg(l.toString(h), l.toString(min));
}

} // namespace

ParkedState parkedState(const ParkingLot &lot, const history::ParkedSend &parked)
{
    if (lot.isRunning(parked.id))
        return ParkedState::Sending;
    if (lot.waitsForConsent(parked.id))
        return ParkedState::WaitsForConsent;
    if (lot.waitsForProvider(parked.id))
        return ParkedState::WaitsForProvider;
    if (lot.isQueued(parked.id))
        return ParkedState::Due;
    return ParkedState::Waiting;
}

QString ParkingTexts::clockTime(const QDateTime &at, const QDateTime &now)
{
    const QDateTime local = at.toLocalTime();
    const QString time = local.toString(u"HH:mm"_s);
    const qint64 days = now.toLocalTime().date().daysTo(local.date());
    if (days <= 0)
        return time;
    if (days == 1)
        return tr("%1 tomorrow").arg(time);
    return tr("%1 on %2").arg(time, QLocale().toString(local.date(), QLocale::ShortFormat));
}

QString ParkingTexts::inAbout(const QDateTime &at, const QDateTime &now)
{
    const qint64 ms = msUntil(at, now);
    if (ms == 0)
        return tr("now");
    if (ms < 60'000)
        return tr("in %1 s").arg(QLocale().toString((ms + 999) / 1000));
    return tr("in %1").arg(hoursMinutes(ms));
}

QString ParkingTexts::countdown(const QDateTime &at, const QDateTime &now)
{
    const qint64 s = (msUntil(at, now) + 999) / 1000;
    const qint64 h = s / 3600;
    const qint64 min = (s % 3600) / 60;
    if (h > 0)
        return u"%1:%2:%3"_s.arg(h).arg(min, 2, 10, QChar(u'0')).arg(s % 60, 2, 10, QChar(u'0'));
    return u"%1:%2"_s.arg(min).arg(s % 60, 2, 10, QChar(u'0'));
}

QString ParkingTexts::sendAt(const QDateTime &dueAt, const QDateTime &now)
{
    return tr("Send at %1 (%2)").arg(clockTime(dueAt, now), inAbout(dueAt, now));
}

QString ParkingTexts::parkedUntil(const QDateTime &dueAt, const QDateTime &now)
{
    return tr("Parked until %1, in %2").arg(clockTime(dueAt, now), countdown(dueAt, now));
}

QString ParkingTexts::quitQuestion(
    int parked, const QDateTime &firstDue, int inFlight, const QDateTime &now)
{
    QStringList parts;
    const QString at = firstDue.isValid() ? clockTime(firstDue, now) : QString();
    if (parked == 1) {
        parts << (at.isEmpty()
                ? tr("1 send is parked: it goes out at the next start of capwatch.")
                : tr("1 send is parked: it goes out at the next start of capwatch, at %1 or "
                     "later.")
                      .arg(at));
    } else if (parked > 1) {
        parts << (at.isEmpty()
                ? tr("%n sends are parked: they go out at the next start of capwatch.", nullptr,
                    parked)
                : tr("%n sends are parked: they go out at the next start of capwatch, the "
                     "first at %1 or later.",
                    nullptr, parked)
                      .arg(at));
    }
    if (inFlight == 1)
        parts << tr("1 send is in flight: quitting stops it; its prompt stays in the history.");
    else if (inFlight > 1)
        parts << tr("%n sends are in flight: quitting stops them; their prompts stay in the "
                    "history.",
            nullptr, inFlight);
    return parts.join(u' ');
}

QString ParkingTexts::parkOf(int parksInARow)
{
    return tr("park %1 of %2")
        .arg(QLocale().toString(parksInARow), QLocale().toString(retry::kMaxParksInARow));
}

QString ParkingTexts::panelLine(
    const history::ParkedSend &parked, ParkedState state, const QDateTime &now)
{
    if (const QString waiting = waitingFor(parked, state); !waiting.isEmpty())
        return tr("%1 · %2").arg(waiting, parkOf(parked.parksInARow));
    if (state == ParkedState::Sending)
        return tr("Sending at the reset · %1").arg(parkOf(parked.parksInARow));
    return tr("Parked until %1 · in %2 · %3")
        .arg(
            clockTime(parked.dueAt, now), countdown(parked.dueAt, now), parkOf(parked.parksInARow));
}

QString ParkingTexts::refusal(const ParkOffer &offer)
{
    using retry::ParkRefusal;
    switch (offer.refusal) {
    case ParkRefusal::NoProviderWait:
        return tr("Not parked: the provider did not say when the limit resets");
    case ParkRefusal::TooFar:
        return tr("Not parked: the limit resets in %1, more than %2 away")
            .arg(hoursMinutes(offer.resetIn.count()), hoursMinutes(retry::kMaxParkWait.count()));
    case ParkRefusal::ReparkedTooOften:
        return tr("Not parked again: it was parked %n times in a row already", nullptr,
            retry::kMaxParksInARow);
    case ParkRefusal::None:
    case ParkRefusal::NotCapped:
    case ParkRefusal::NotLimited:
        break;
    }
    return {};
}

QString ParkingTexts::waitingFor(const history::ParkedSend &parked, ParkedState state)
{
    switch (state) {
    case ParkedState::Due:
        return tr("Due: waiting for the previous send to this provider");
    case ParkedState::WaitsForProvider:
        return parked.provider == u"demo"
            ? tr("Waiting for the demo provider to be chosen again")
            : tr("Waiting for %1 to be chosen again").arg(provider(parked.provider));
    case ParkedState::WaitsForConsent:
        return tr("Waiting for your consent to send the key unencrypted to %1")
            .arg(provider(parked.provider));
    case ParkedState::Waiting:
    case ParkedState::Sending:
        break;
    }
    return {};
}

QString ParkingTexts::stateName(ParkedState state)
{
    switch (state) {
    case ParkedState::Waiting:
        return tr("waiting");
    case ParkedState::Due:
        return tr("due");
    case ParkedState::Sending:
        return tr("sending");
    case ParkedState::WaitsForProvider:
        return tr("waits for provider");
    case ParkedState::WaitsForConsent:
        return tr("waits for consent");
    }
    return {};
}

QString ParkingTexts::provider(const QString &lane)
{
    if (lane == u"demo")
        return tr("Demo provider");
    // The lane is the chat completions URL; the endpoint as entered ends before that path.
    constexpr QStringView path = u"/chat/completions";
    return lane.endsWith(path) ? lane.chopped(path.size()) : lane;
}

QString ParkingTexts::title(const history::ParkedSend &parked)
{
    const QString title = parked.title.trimmed();
    return title.isEmpty() ? excerpt(parked.prompt, 40) : title;
}

QString ParkingTexts::excerpt(const QString &prompt, int chars)
{
    QString line = prompt.trimmed().section(u'\n', 0, 0).simplified();
    if (line.size() <= chars)
        return line;
    // At a word break when there is one in the last third, so no word is cut in half.
    qsizetype cut = line.lastIndexOf(u' ', chars);
    if (cut < chars * 2 / 3)
        cut = chars;
    return line.left(cut).trimmed() + u'…';
}

} // namespace capwatch::session
