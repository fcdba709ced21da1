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

void ChatSession::offerPark(const net::SendSummary &summary)
{
    ParkOffer offer;
    offer.send = m_send;
    offer.parksInARow = m_parksInARow;
    const QDateTime failedAt = wallNow();
    offer.dueAt = failedAt;
    if (const retry::SendPolicy *policy = m_client->policy();
        policy && summary.outcome == net::SendSummary::Outcome::GaveUp) {
        const retry::WallTime at { retry::Millis(failedAt.toMSecsSinceEpoch()) };
        const retry::ParkDecision d
            = retry::decidePark(retry::parkInputOf(*policy, at, m_parksInARow));
        offer.parkable = d.park;
        offer.refusal = d.refusal;
        offer.resetIn = d.resetIn;
        offer.reason = QString::fromStdString(d.reason);
        // The provider's figure runs `scale` times as long, like every other wait of the run.
        offer.dueAt = failedAt.addMSecs(qint64(double(d.resetIn.count()) * m_timeScale));
    } else {
        offer.reason = u"Not parked: the send did not give up."_s;
    }
    m_offer = offer;
}

RetryRecord ChatSession::parkRecord(RetryRecord::Event event) const
{
    RetryRecord r;
    // The last record of the send that ended (its gave_up) names the failure it was parked on.
    const QList<RetryRecord> &records = m_log->records();
    bool copied = false;
    for (qsizetype i = records.size() - 1; i >= 0; --i) {
        if (quint64(records.at(i).request) == m_endedRequest) {
            r = records.at(i);
            copied = true;
            break;
        }
    }
    // An `unparked` record names the profile the prompt is taken out by (and sent with): this
    // session's, which is its conversation's own (a session of the lot's too, made for that
    // profile: WindowParking::makeSession()). So does one with nothing to copy.
    if (!copied || event == RetryRecord::Event::Unparked)
        r.profile = m_choice.profileName;
    r.request = int(m_endedRequest);
    r.attempt = std::max(r.attempt, m_endedAttempt);
    r.event = event;
    r.time = wallNow();
    r.waitMs.reset();
    r.waitedTotalMs.reset();
    r.budgetLeftMs.reset();
    r.rawWaitMs = qint64(m_offer.resetIn.count());
    r.resetAt = m_offer.dueAt;
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
    if (!m_offer.parkable || m_parked || busy() || m_failedPrompt.isEmpty()
        || m_offer.send != m_endedSend)
        return false;
    const RetryRecord record = parkRecord(RetryRecord::Event::Parked);
    m_parked = true;
    history::ParkedSend p;
    {
        p.conversation = m_conversation;
        p.message = m_endedStoredPrompt;
        p.send = m_endedStoredSend;
        p.provider = lane();
        p.model = m_model;
        ParkedOptions o;
        o.send = m_lastOptions;
        o.request = m_endedRequest;
        o.attempt = m_endedAttempt;
        p.options = o.toJson();
        p.parkedAt = wallNow();
        p.dueAt = m_offer.dueAt;
        p.resetAt = p.parkedAt.addMSecs(qint64(m_offer.resetIn.count()));
        p.parksInARow = m_parksInARow + 1;
        p.prompt = m_failedPrompt;
        if (m_lot)
            m_parkedId = m_lot->park(p, this);
        p.id = m_parkedId;
    }
    // After the park is queued for the disk: a view that reads the conversation again on
    // conversationUpdated() sees it parked.
    appendParkRecord(record, m_endedStoredSend);
    // Then the state: a view that reads the log or the history on it sees the park.
    if (m_current && m_current->id() == m_endedSend) {
        m_current->setParked(p, ParkedState::Waiting, wallNow());
        m_current->publish();
    }
    Q_EMIT parkedChanged(true);
    return true;
}

quint64 ChatSession::sendParked(RetryRecord::Unpark why, const SendOptions &options)
{
    if (!m_parked || busy() || m_failedPrompt.isEmpty())
        return 0;
    RetryRecord r = parkRecord(RetryRecord::Event::Unparked);
    r.unpark = why;
    appendParkRecord(r, m_endedStoredSend);
    m_parked = false;
    m_parkedId = {};
    ++m_parksInARow; // this cycle ends capped again: the next park counts one more
    m_reuseStoredPrompt = m_endedStoredPrompt; // the prompt is stored already
    Q_EMIT parkedChanged(false);
    const QString prompt = m_failedPrompt; // a copy: startSend() clears the failed prompt
    return startSend(prompt, options);
}

void ChatSession::cancelPark()
{
    if (!m_parked)
        return;
    RetryRecord r = parkRecord(RetryRecord::Event::Unparked);
    r.unpark = RetryRecord::Unpark::Cancelled;
    appendParkRecord(r, m_endedStoredSend);
    m_parked = false;
    m_parkedId = {};
    m_offer.parkable = false; // taken out: a failed prompt again, for Retry now
    unparkLastSend();
    Q_EMIT parkedChanged(false);
}

void ChatSession::unparkLastSend()
{
    if (!m_current || !m_current->state().isParked())
        return;
    m_current->setParked(std::nullopt);
    republish();
}

bool ChatSession::shows(const history::ParkedSend &parked) const
{
    return parked.conversation == m_conversation;
}

void ChatSession::adoptParked(const history::ParkedSend &parked)
{
    const ParkedOptions o = ParkedOptions::fromJson(parked.options);
    m_parked = true;
    m_parkedId = parked.id;
    m_failedPrompt = parked.prompt;
    m_parksInARow = std::max(0, parked.parksInARow - 1);
    m_endedStoredSend = parked.send;
    m_endedStoredPrompt = parked.message;
    m_endedRequest = o.request;
    m_endedAttempt = o.attempt;
    m_lastOptions = o.send;
    m_offer = {};
    m_offer.dueAt = parked.dueAt;
    m_offer.resetIn = retry::Millis(std::max<qint64>(0, parked.parkedAt.msecsTo(parked.resetAt)));
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
    return sendParked(why, m_lastOptions);
}

void ChatSession::logUnparked(const history::ParkedSend &parked, RetryRecord::Unpark why)
{
    if (!shows(parked))
        return;
    if (m_parkedId != parked.id) {
        // Not this session's parked prompt (another send is in flight or failed here): its
        // record is made from the stored park alone, leaving this session's state as it is.
        RetryRecord r = unparkedRecord(parked, why, wallNow());
        r.profile = m_choice.profileName; // it shows the conversation: its profile
        appendParkRecord(r, parked.send);
        return;
    }
    RetryRecord r = parkRecord(RetryRecord::Event::Unparked);
    r.unpark = why;
    appendParkRecord(r, m_endedStoredSend);
    m_parked = false;
    m_parkedId = {};
    if (why == RetryRecord::Unpark::Cancelled)
        m_offer.parkable = false; // taken out: a failed prompt again, for Retry now
    unparkLastSend();
    Q_EMIT parkedChanged(false);
}

} // namespace capwatch::session
