#pragma once

// The words of parking (docs/parking.md), in the UI language, in one place: the failed card's
// "Send at 06:14 (in 16 min)", the parked card's "Parked until 06:14, in 15:42", why a send was
// not parked, where a parked send stands in the queue. The card, the retry panel and the Queue
// tab take their words from here, so a parked send reads the same everywhere. Times are shown
// in local time; every figure is computed from the wall clock passed in, never kept.

#include "history/historytypes.h"
#include "parkinglot.h"
#include "sendstate.h"
#include "sessiontypes.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QString>

namespace capwatch::session {

/// Where `parked` stands in `lot` now.
ParkedState parkedState(const ParkingLot &lot, const history::ParkedSend &parked);

class ParkingTexts final
{
    Q_DECLARE_TR_FUNCTIONS(capwatch::session::ParkingTexts)

public:
    ParkingTexts() = delete;

    /// The local time of `at`, HH:mm: "06:14"; "06:14 tomorrow" when that is another day than
    /// `now`'s, and with the date further away.
    static QString clockTime(const QDateTime &at, const QDateTime &now);
    /// How long until `at`, rounded up, as a button says it: "in 16 min", "in 2 h 5 min";
    /// under a minute "in 40 s"; "now" once it passed.
    static QString inAbout(const QDateTime &at, const QDateTime &now);
    /// The countdown to `at`, rounded up to the second: "15:42", "1:05:42"; "0:00" once passed.
    static QString countdown(const QDateTime &at, const QDateTime &now);

    /// The failed card's button: "Send at 06:14 (in 16 min)".
    static QString sendAt(const QDateTime &dueAt, const QDateTime &now);
    /// "Parked until 06:14, in 15:42".
    static QString parkedUntil(const QDateTime &dueAt, const QDateTime &now);
    /// "park 1 of 3".
    static QString parkOf(int parksInARow);
    /// What quitting now does to the sends that are not done, for the question asked then:
    /// "2 sends are parked: they go out at the next start of capwatch, the first at 06:14 or
    /// later." and/or "1 send is in flight: quitting stops it; its prompt stays in the
    /// history." Empty when there is nothing to say.
    static QString quitQuestion(
        int parked, const QDateTime &firstDue, int inFlight, const QDateTime &now);
    /// The panel's line: "Parked until 06:14 · in 15:42 · park 1 of 3", or what it waits for.
    static QString panelLine(
        const history::ParkedSend &parked, ParkedState state, const QDateTime &now);
    /// Why a send that gave up capped was not parked, in words built from the refusal and its
    /// figures: "Not parked: the limit resets in 25 h, more than 24 h away". Empty for a send
    /// that was never a candidate (not capped, not a limit).
    static QString refusal(const ParkOffer &offer);

    /// What a due send waits for: "Due: waiting for the previous send to this provider",
    /// "Waiting for the demo provider to be chosen again"; empty while Waiting or Sending.
    static QString waitingFor(const history::ParkedSend &parked, ParkedState state);
    /// The state in one or two words, for the queue's column: "waiting", "due", "sending",
    /// "waits for provider".
    static QString stateName(ParkedState state);
    /// The provider of a parked send, for display: "demo provider", "api.example.com".
    static QString provider(const QString &lane);
    /// A conversation's title for lists: its title, else its prompt's first words.
    static QString title(const history::ParkedSend &parked);
    /// The prompt's first line, cut to about `chars` characters with an ellipsis.
    static QString excerpt(const QString &prompt, int chars = 60);
};

} // namespace capwatch::session
