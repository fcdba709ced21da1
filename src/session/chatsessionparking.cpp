// ChatSession's parking (docs/parking.md): the offer made when a send gives up capped, the
// `parked` and `unparked` records, and the way back out: sent by the caller (capwatch-cli), or
// by the ParkingLot at the reset.

#include "chatsession.h"
#include "history/historystore.h"
#include "parkedoptions.h"
#include "sessionlogging.h"
#include "storedrecords.h"

namespace capwatch::session {

using namespace Qt::StringLiterals;
using net::RetryRecord;

void ChatSession::setWallClock(WallClock clock)
{
    m_wallClock = std::move(clock);
}

QDateTime ChatSession::wallNow() const
{
    return m_wallClock ? m_wallClock() : QDateTime::currentDateTimeUtc();
}

void ChatSession::setParkingChoice(ParkingChoice choice)
{
    m_parkingChoice = choice;
}

void ChatSession::setParkingLot(ParkingLot *lot)
{
    if (m_lot == lot)
        return;
    if (m_lot)
        m_lot->detach(this);
    m_lot = lot;
    if (m_lot)
        m_lot->attach(this);
}

QString ChatSession::lane() const
{
    if (m_demo)
        return u"demo"_s;
    return history::HistoryStore::storableEndpoint(
        net::chatCompletionsUrl(m_endpoint).toString(QUrl::RemoveUserInfo));
}

ParkOffer ChatSession::parkOfferFor(const Send &ended, const net::SendSummary &summary) const
{
    ParkOffer offer;
    offer.send = ended.id();
    offer.parksInARow = ended.parksInARow();
    const QDateTime failedAt = wallNow();
    offer.dueAt = failedAt;
    if (const retry::SendPolicy *policy = m_client->policy();
        policy && summary.outcome == net::SendSummary::Outcome::GaveUp) {
        const retry::WallTime at { retry::Millis(failedAt.toMSecsSinceEpoch()) };
        const retry::ParkDecision d
            = retry::decidePark(retry::parkInputOf(*policy, at, ended.parksInARow()));
        offer.parkable = d.park;
        offer.refusal = d.refusal;
        offer.resetIn = d.resetIn;
        offer.reason = QString::fromStdString(d.reason);
        // The provider's figure runs `scale` times as long, like every other wait of the run.
        offer.dueAt = failedAt.addMSecs(qint64(double(d.resetIn.count()) * m_timeScale));
    } else {
        offer.reason = u"Not parked: the send did not give up."_s;
    }
    return offer;
}

RetryRecord ChatSession::parkRecord(const Send &ended, RetryRecord::Event event) const
{
    const quint64 request = ended.request();
    RetryRecord r;
    // The last record of the send that ended (its gave_up) names the failure it was parked on.
    const QList<RetryRecord> &records = m_log->records();
    bool copied = false;
    for (qsizetype i = records.size() - 1; i >= 0; --i) {
        if (quint64(records.at(i).request) == request) {
            r = records.at(i);
            copied = true;
            break;
        }
    }
    // An `unparked` record names the profile the prompt is taken out by (and sent with): this
    // session's, which is its conversation's own (a session of the lot's too, made for that
    // profile: ParkingLot::makeSession()). So does one with nothing to copy.
    if (!copied || event == RetryRecord::Event::Unparked)
        r.profile = m_choice.profileName;
    r.request = int(request);
    r.attempt = std::max(r.attempt, ended.attemptsMade());
    r.event = event;
    r.time = wallNow();
    r.waitMs.reset();
    r.waitedTotalMs.reset();
    r.budgetLeftMs.reset();
    r.rawWaitMs = qint64(ended.state().park.resetIn.count());
    r.resetAt = ended.state().park.dueAt;
    r.unpark = RetryRecord::Unpark::None;
    if (event == RetryRecord::Event::Unparked)
        r.reason = retry::EndReason::None;
    return r;
}

void ChatSession::appendParkRecord(RetryRecord record, const QUuid &storedSend)
{
    m_log->append(record); // not stored by storeRecord(): that send has ended
    if (m_writer && !storedSend.isNull()) {
        m_writer->addRetryRecord(storedSend, toStored(record));
        Q_EMIT conversationUpdated(m_conversation);
    }
}

bool ChatSession::park()
{
    Send *const e = ended();
    if (!e || e->state().isParked() || !e->state().park.parkable || busy()
        || m_failedPrompt.isEmpty())
        return false;
    const ParkOffer &offer = e->state().park;
    const RetryRecord record = parkRecord(*e, RetryRecord::Event::Parked);
    history::ParkedSend p;
    p.conversation = m_conversation;
    p.message = e->rows().prompt;
    p.send = e->rows().send;
    p.provider = lane();
    p.model = m_model;
    ParkedOptions o;
    o.send = e->options();
    o.request = e->request();
    o.attempt = e->attemptsMade();
    p.options = o.toJson();
    p.parkedAt = wallNow();
    p.dueAt = offer.dueAt;
    p.resetAt = p.parkedAt.addMSecs(qint64(offer.resetIn.count()));
    p.parksInARow = e->parksInARow() + 1;
    p.prompt = m_failedPrompt;
    e->setParked(p, ParkedState::Waiting, wallNow()); // parked before the lot looks at it
    if (m_lot) {
        p.id = m_lot->park(p, this);
        e->setParked(p, ParkedState::Waiting, wallNow());
    }
    // After the park is queued for the disk: a view that reads the conversation again on
    // conversationUpdated() sees it parked.
    appendParkRecord(record, e->rows().send);
    // Then the state: a view that reads the log or the history on it sees the park.
    e->publish();
    Q_EMIT parkedChanged(true);
    return true;
}

bool ChatSession::parkNow()
{
    if (!m_current || !m_current->state().waiting() || !m_current->state().earlyPark.parkable)
        return false;
    m_parkWhenEnded = m_current->state().earlyPark;
    m_client->cancel(); // ends the send at once: onEnded() parks it
    m_parkWhenEnded.reset();
    return isParked();
}

quint64 ChatSession::sendParked(RetryRecord::Unpark why, const SendOptions &options)
{
    Send *const e = ended();
    if (!e || !e->state().isParked() || busy() || m_failedPrompt.isEmpty())
        return 0;
    RetryRecord r = parkRecord(*e, RetryRecord::Event::Unparked);
    r.unpark = why;
    appendParkRecord(r, e->rows().send);
    Launch launch;
    launch.parksInARow = e->parksInARow() + 1; // ends capped again: the next park counts one more
    launch.storedPrompt = e->rows().prompt; // the prompt is stored already
    launch.model = e->state().parked->model;
    e->setParked(std::nullopt);
    Q_EMIT parkedChanged(false);
    const QString prompt = m_failedPrompt; // a copy: startSend() clears the failed prompt
    return startSend(prompt, options, std::move(launch));
}

void ChatSession::cancelPark()
{
    Send *const e = ended();
    if (!e || !e->state().isParked())
        return;
    RetryRecord r = parkRecord(*e, RetryRecord::Event::Unparked);
    r.unpark = RetryRecord::Unpark::Cancelled;
    appendParkRecord(r, e->rows().send);
    unparkLastSend(true);
    Q_EMIT parkedChanged(false);
}

void ChatSession::unparkLastSend(bool cancelled)
{
    Send *const e = ended();
    if (!e || !e->state().isParked())
        return;
    if (cancelled) { // taken out: a failed prompt again, for Retry now
        ParkOffer offer = e->state().park;
        offer.parkable = false;
        e->setParkOffer(offer);
    }
    e->setParked(std::nullopt);
    if (e->shown()) // one taken over from the lot was never shown: nothing to show again
        e->publish();
}

bool ChatSession::shows(const history::ParkedSend &parked) const
{
    return parked.conversation == m_conversation;
}

void ChatSession::adoptParked(const history::ParkedSend &parked)
{
    dropLastSend();
    m_failedPrompt = parked.prompt;
    m_current = Send::fromParked(parked, m_client->policyLimits(), this);
}

quint64 ChatSession::runParked(const history::ParkedSend &parked, RetryRecord::Unpark why)
{
    if (busy() || !shows(parked))
        return 0;
    // Its key is for its own provider: a parked send never goes anywhere else.
    if (parked.provider != lane()) {
        qCInfo(lcSession).noquote()
            << u"a parked send waits for its provider (%1)"_s.arg(parked.provider);
        return 0;
    }
    // Nor over plain HTTP to another host without the consent given in this run (the window
    // asks it before a send of its own; nothing asks here).
    if (needsPlainHttpConsent()) {
        qCInfo(lcSession) << "a parked send waits for the consent to plain HTTP";
        return 0;
    }
    adoptParked(parked);
    return sendParked(why, m_current->options());
}

void ChatSession::logUnparked(const history::ParkedSend &parked, RetryRecord::Unpark why)
{
    if (!shows(parked))
        return;
    Send *const e = ended();
    if (!e || !e->state().isParked() || e->state().parked->id != parked.id) {
        // Not this session's parked prompt (another send is in flight or failed here): its
        // record is made from the stored park alone, leaving this session's state as it is.
        RetryRecord r = unparkedRecord(parked, why, wallNow());
        r.profile = m_choice.profileName; // it shows the conversation: its profile
        appendParkRecord(r, parked.send);
        return;
    }
    RetryRecord r = parkRecord(*e, RetryRecord::Event::Unparked);
    r.unpark = why;
    appendParkRecord(r, e->rows().send);
    unparkLastSend(why == RetryRecord::Unpark::Cancelled);
    Q_EMIT parkedChanged(false);
}

} // namespace capwatch::session
