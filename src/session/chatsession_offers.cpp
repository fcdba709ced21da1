// ChatSession: what follows a send's end. The offers of a send that gave up (the fallback, the
// park, the trim) in the order the views are told them, and the ways back out: a send to the
// fallback, a trimmed resend, a parked prompt that goes out again at its reset
// (docs/parking.md, docs/session.md).

#include "chatsession.h"
#include "chatsession_p.h"
#include "history/historystore.h"
#include "parkedoptions.h"
#include "sessionlogging.h"
#include "storedrecords.h"

#include <utility>

namespace capwatch::session {

using namespace Qt::StringLiterals;
using net::RetryRecord;

namespace {

/// Ended capped: out of budget or attempts on a token or rate limit, or a billing failure. A
/// token or rate limit the profile does not retry (its category turned off in `limits`) ends
/// the send at once as not_retryable: capped too, as a 0 s budget's one attempt is, since going
/// elsewhere at once is what turning the retries off asks.
bool endedCapped(
    const net::SendSummary &summary, const QString &category, const retry::PolicyLimits &limits)
{
    if (summary.outcome != net::SendSummary::Outcome::GaveUp)
        return false;
    if (category == u"billing"_s)
        return true;
    const bool tokenLimit = category == u"token_limit"_s;
    const bool rateLimit = category == u"rate_limit"_s;
    if (summary.reason == retry::EndReason::NotRetryable)
        return (tokenLimit && !limits.retryTokenLimit) || (rateLimit && !limits.retryRateLimit);
    const bool exhausted = summary.reason == retry::EndReason::BudgetExhausted
        || summary.reason == retry::EndReason::AttemptsExhausted;
    return exhausted && (tokenLimit || rateLimit);
}

/// The last record `log` has of `request` (its gave_up), or an empty one.
RetryRecord lastRecordOf(const net::RetryLog &log, quint64 request, bool *found = nullptr)
{
    const QList<RetryRecord> &records = log.records();
    for (qsizetype i = records.size() - 1; i >= 0; --i) {
        if (quint64(records.at(i).request) == request) {
            if (found)
                *found = true;
            return records.at(i);
        }
    }
    if (found)
        *found = false;
    return {};
}

/// A `parked` or `unparked` record of `ended`, from the last record `log` has of it (its
/// gave_up names the failure it was parked on). `profile`: of the session that takes it out.
RetryRecord parkRecord(const net::RetryLog &log, const Send &ended, RetryRecord::Event event,
    const QString &profile, const QDateTime &now)
{
    const quint64 request = ended.request();
    bool copied = false;
    RetryRecord r = lastRecordOf(log, request, &copied);
    // An `unparked` record names the profile the prompt is taken out by (and sent with): this
    // session's, which is its conversation's own (a session of the lot's too, made for that
    // profile). So does one with nothing to copy.
    if (!copied || event == RetryRecord::Event::Unparked)
        r.profile = profile;
    r.request = int(request);
    r.attempt = std::max(r.attempt, ended.attemptsMade());
    r.event = event;
    r.time = now;
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

/// The wall clock parking reads (UTC).
QDateTime wallNow()
{
    return QDateTime::currentDateTimeUtc();
}

} // namespace

void ChatSession::onEnded(Send *send, quint64 id, const net::SendSummary &summary)
{
    if (send != m_current || !current(id)) {
        send->deleteLater(); // superseded while it ran
        return;
    }
    const std::optional<ParkOffer> early = std::exchange(send->parkWhenEnded(), std::nullopt);
    if (early && summary.outcome == net::SendSummary::Outcome::Cancelled) {
        // parkNow(): the user stopped the cycle to send at the reset. It ends as given up (its
        // prompt is the failed one) with the offer made during the wait, and is parked at once.
        net::SendSummary stopped = summary;
        stopped.outcome = net::SendSummary::Outcome::GaveUp;
        finish(send, stopped);
        send->setEndPhase(SendPhase::GaveUp);
        send->setOffers(*early, {});
        send->publish();
        Q_EMIT gaveUp(id, stopped);
        if (current(id))
            park();
        Q_EMIT parkOffered(send->state().park);
        return;
    }
    finish(send, summary);
    send->publish();
    switch (summary.outcome) {
    case net::SendSummary::Outcome::Succeeded:
        m_autoContinuing = autoContinue(send);
        Q_EMIT succeeded(id, summary);
        if (std::exchange(m_autoContinuing, false) && current(id)
            && continueAnswer(send->options()) != 0)
            qCInfo(lcSession).noquote() << u"send %1 ended cut off: continued by itself (%2 of "
                                           "at most %3)"_s.arg(id)
                                               .arg(send->state().continuationsInARow + 1)
                                               .arg(send->options().autoContinue);
        return;
    case net::SendSummary::Outcome::Cancelled:
        Q_EMIT cancelled(id, summary);
        return;
    case net::SendSummary::Outcome::GaveUp:
        break;
    }
    // `send` keeps its offers whatever a handler of gaveUp() starts meanwhile (a Send that is
    // replaced is deleted later, never at once).
    Q_EMIT gaveUp(id, summary);
    // Before parkOffered(): an automatic fallback goes now, and is not also parked.
    offerFallback(send, id);
    // In a lot, a parked send that ends capped again goes back in, whatever the choice: it was
    // parked by the user or the setting already (up to kMaxParksInARow). Without one
    // (capwatch-cli) the caller decides on the offer.
    const bool again = send->parksInARow() > 0 && m_lot;
    if (current(id) && send->state().park.parkable
        && (again || m_parkingChoice == ParkingChoice::Automatic))
        park();
    // Also when another send began: the lot waits for this one's end.
    Q_EMIT parkOffered(send->state().park);
    offerTrim(send, id);
}

bool ChatSession::autoContinue(Send *ended)
{
    // Cut off at the output limit, never interrupted (that is the user's call), at most
    // autoContinue in a row, and only while each continuation adds something.
    const SendState &s = ended->state();
    const int most = std::min(ended->options().autoContinue, kMaxAutoContinues);
    return s.answerEnd == retry::AnswerEnd::CutOff && s.continuationsInARow < most && m_continuable
        && (!s.continuation || ended->continuationChars() > 0);
}

void ChatSession::noteContinuable(Send *ended, const net::SendSummary &summary)
{
    const SendState &s = ended->state();
    const bool continuation = ended == m_continuingSend;
    if (continuation && s.answerEnd == retry::AnswerEnd::None) {
        m_continuable = m_continuingFrom; // failed before a word: the same answer, as it was
        return;
    }
    // The whole answer is needed to go on from it (capwatch-cli keeps it only then).
    if (!retry::continuable(s.answerEnd) || ended->answer().isEmpty() || ended->answerCut()) {
        m_continuable.reset();
        return;
    }
    Continuable c;
    c.prompt = ended->prompt();
    c.text = ended->answer();
    c.seams = s.seams;
    c.end = s.answerEnd;
    const bool succeeded = summary.outcome == net::SendSummary::Outcome::Succeeded;
    c.inHistory = m_keepTranscript && (succeeded || (continuation && m_continuingFrom.inHistory));
    c.promptRow = ended->rows().prompt;
    c.answerRow = ended->rows().answer;
    c.inARow = continuation ? s.continuationsInARow : 0;
    m_continuable = c;
}

void ChatSession::finish(Send *ended, const net::SendSummary &summary)
{
    m_stored->endSend(*ended, summary, m_keepTranscript);
    const bool continuation = ended == m_continuingSend;
    const bool wasInHistory = continuation && m_continuingFrom.inHistory;
    noteContinuable(ended, summary);
    if (continuation)
        m_continuingSend = nullptr;
    if (!m_keepTranscript)
        ended->dropAnswer(); // the history's writer holds it now; nothing else here needs it
    const bool gaveUp = summary.outcome == net::SendSummary::Outcome::GaveUp;
    // The park: the policy decides from the refusal the send gave up on (docs/parking.md).
    ParkOffer park;
    park.send = ended->id();
    park.parksInARow = ended->parksInARow();
    const QDateTime failedAt = wallNow();
    park.dueAt = failedAt;
    if (const retry::SendPolicy *policy = m_client->policy(); policy && gaveUp) {
        const retry::WallTime at { retry::Millis(failedAt.toMSecsSinceEpoch()) };
        const retry::ParkDecision d
            = retry::decidePark(retry::parkInputOf(*policy, at, ended->parksInARow()));
        park.parkable = d.park;
        park.refusal = d.refusal;
        park.resetIn = d.resetIn;
        park.reason = QString::fromStdString(d.reason);
        // The provider's figure runs `scale` times as long, like every other wait of the run.
        park.dueAt = failedAt.addMSecs(qint64(double(d.resetIn.count()) * m_timeScale));
    } else {
        park.reason = u"Not parked: the send did not give up."_s;
    }
    const bool viaFallback = ended->state().viaFallback;
    if (viaFallback && park.parkable) {
        // Parked, it would go to the session's own provider at the fallback's reset.
        park.parkable = false;
        park.refusal = retry::ParkRefusal::NotCapped;
        park.reason = u"Not parked: the send went to the fallback profile."_s;
    }
    // The fallback: one hop (a send to the fallback that ends capped is offered nothing further),
    // judged by the numbers the send ran with (its policy's), not the profile's as edited since.
    FallbackOffer fallback;
    fallback.send = ended->id();
    fallback.fromProfile = ended->state().profileName;
    fallback.reason = summary.reason;
    fallback.category = ended->state().failureCategory();
    if (m_link.fallback())
        fallback.toProfile = m_link.fallback()->profileName;
    const retry::PolicyLimits &ranWith
        = m_client->policy() ? m_client->policy()->limits() : m_client->policyLimits();
    fallback.offered
        = m_link.fallback() && !viaFallback && endedCapped(summary, fallback.category, ranWith);
    ended->setOffers(park, fallback);
    const bool joined = continuation && ended->state().answerEnd != retry::AnswerEnd::None;
    if (summary.outcome == net::SendSummary::Outcome::Succeeded) {
        if (m_keepTranscript) {
            if (wasInHistory && !m_history.isEmpty()) { // the continued answer is the last one
                m_history.last().content = ended->answer();
            } else {
                m_history.append({ u"user"_s, ended->prompt() });
                m_history.append({ u"assistant"_s, ended->answer() });
            }
            m_hasLastExchange = true;
        }
    } else if (wasInHistory) {
        // A continuation of an answered exchange that did not end: the exchange stays answered,
        // with what the continuation added.
        if (joined && m_keepTranscript && !m_history.isEmpty())
            m_history.last().content = ended->answer();
        m_hasLastExchange = true;
        if (!joined) { // nothing came: it may be retried or parked, as a continuation again
            m_failedPrompt = ended->prompt();
            m_failedContinuation = true;
        }
    } else {
        m_failedPrompt = ended->prompt();
        m_failedContinuation = continuation && !joined;
    }
    if (viaFallback)
        restoreClient(); // later sends go to the session's own provider
}

// --- the fallback ---

void ChatSession::offerFallback(Send *ended, quint64 send)
{
    // A handler of gaveUp() may have started another send: the offer is still told.
    FallbackOffer offer = ended->state().fallback;
    if (offer.offered && m_link.autoFallback() && current(send) && !busy()) {
        if (m_link.fallbackNeedsPlainHttpConsent()) {
            // Not by itself: the offer goes out with `automatic` false, so the caller asks.
            qCInfo(lcSession).noquote()
                << u"send %1 ended capped on %2: its fallback %3 needs consent to plain HTTP, "
                   "so it is offered, not sent"_s.arg(send)
                       .arg(offer.fromProfile, offer.toProfile);
        } else {
            qCInfo(lcSession).noquote()
                << u"send %1 ended capped on %2: sent to its fallback %3"_s.arg(send).arg(
                       offer.fromProfile, offer.toProfile);
            offer.automatic = sendToFallback(ended->options()) != 0;
        }
    }
    Q_EMIT fallbackOffered(offer);
}

quint64 ChatSession::startFallbackSend(const QString &prompt, const SendOptions &options,
    const QUuid &reuse, const std::function<void()> &beforeStart)
{
    // No caller skips the question: the key goes over plain HTTP only once it was allowed.
    if (m_link.fallbackNeedsPlainHttpConsent())
        return 0;
    Launch launch;
    launch.fallback = m_link.prepareFallback(launch.holdsLocal);
    if (!launch.fallback)
        return 0;
    launch.storedPrompt = reuse;
    if (beforeStart)
        beforeStart();
    // A fresh cycle with the fallback's own key source, limits and profile name: swapped in
    // before the send, so no credential of the capped profile is loaded for it.
    applyToClient(*launch.fallback);
    return startSend(prompt, options, launch);
}

quint64 ChatSession::sendToFallback(const SendOptions &options)
{
    Send *const e = ended();
    if (!m_link.fallback() || !e || !e->state().fallback.offered || busy()
        || m_failedPrompt.isEmpty() || e->state().isParked())
        return 0;
    const FallbackOffer offered = e->state().fallback;
    const quint64 request = e->request();
    const int attempts = e->attemptsMade();
    const QUuid storedSend = e->rows().send;
    const QString to = m_link.fallback()->profileName;
    const QString prompt = m_failedPrompt; // a copy: startSend() clears the failed prompt
    // The same prompt: one more send of its stored message, after the capped send's `fallback`
    // record (its request and attempt, the failure it ended on, its reason; stored with it).
    return startFallbackSend(prompt, options, e->rows().prompt, [&] {
        RetryRecord r = lastRecordOf(*m_log, request);
        r.request = int(request);
        r.attempt = std::max(r.attempt, attempts);
        r.event = RetryRecord::Event::Fallback;
        r.time = wallNow();
        r.waitMs.reset();
        r.rawWaitMs.reset();
        r.waitedTotalMs.reset();
        r.budgetLeftMs.reset();
        r.resetAt = {};
        r.unpark = RetryRecord::Unpark::None;
        r.reason = offered.reason;
        r.profile = offered.fromProfile;
        r.fallbackTo = to;
        appendEndedRecord(r, storedSend);
    });
}

// --- trimming (docs/retry-policy.md section 8.2) ---

quint64 ChatSession::trimAndResend(const SendOptions &options)
{
    Send *const e = ended();
    if (!e || !e->state().trim.offered || busy() || e->state().isParked()
        || m_failedPrompt.isEmpty())
        return 0;
    setLeftOut(e->state().trim.plan.leftOut);
    e->setTrimOffer({});
    // The offer is about the send that ended: after a send to the fallback, its prompt goes to
    // that same fallback again (still one hop), never back to the profile that ended capped.
    if (!e->state().viaFallback)
        return retryFailed(options);
    const std::optional<ProviderChoice> &went = e->route().fallback;
    if (!m_link.fallback() || !went || m_link.fallback()->profile != went->profile)
        return 0;
    qCInfo(lcSession).noquote() << u"the trimmed prompt goes to the fallback %1 again"_s.arg(
        went->profileName);
    const QString prompt = m_failedPrompt; // a copy: startSend() clears the failed prompt
    return startFallbackSend(prompt, options, {});
}

void ChatSession::trimBeforeSend(const Send &send, qint64 excess, std::optional<qint64> named)
{
    if (!m_planner.autoTrim())
        return;
    // After a context error the provider's own count and window are known: the resend of its
    // prompt plans with them; later sends with the estimate alone.
    TrimOffer offer = m_planner.trimOffer(
        turns(), send.prompt(), send.options(), send.route().lane, excess, named);
    if (!offer.offered)
        return;
    setLeftOut(offer.plan.leftOut);
    offer.automatic = true;
    qCInfo(lcSession) << "left out" << offer.plan.leftOut << "oldest turns by itself to fit"
                      << offer.contextWindow << "tokens";
    Q_EMIT trimOffered(offer);
}

void ChatSession::offerTrim(Send *ended, quint64 send)
{
    if (!current(send) || !ended->route().overflowExcess || busy() || m_failedPrompt.isEmpty())
        return;
    Send::Route &route = ended->route();
    route.resendExcess = std::exchange(route.overflowExcess, std::nullopt);
    route.resendWindow = std::exchange(route.overflowWindow, std::nullopt);
    // With the window of the provider that overflowed (the fallback's after a send to it).
    TrimOffer offer = m_planner.trimOffer(turns(), m_failedPrompt, ended->options(), route.lane,
        *route.resendExcess, route.resendWindow);
    offer.send = send;
    offer.automatic = m_planner.autoTrim() && offer.offered;
    ended->setTrimOffer(offer);
    ended->publish();
    Q_EMIT trimOffered(offer);
    if (!offer.automatic || !m_planner.resendsAfterTrim())
        return; // the caller resends
    // Not from inside the client's own signal: on the next turn of the loop, if nothing else
    // was sent meanwhile.
    QMetaObject::invokeMethod(
        this,
        [this, send, options = ended->options()] {
            if (current(send) && m_current->state().trim.send == send)
                trimAndResend(options);
        },
        Qt::QueuedConnection);
}

// --- parking (docs/parking.md) ---

void ChatSession::driveFromLot(ParkingLot *lot)
{
    m_lot = lot;
}

void ChatSession::leaveLot()
{
    m_lot = nullptr;
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

void ChatSession::appendEndedRecord(const RetryRecord &record, const QUuid &storedSend)
{
    m_log->append(record); // not stored as the send's own: that send has ended
    m_stored->addEndedRecord(storedSend, record);
}

bool ChatSession::park()
{
    Send *const e = ended();
    if (!e || e->state().isParked() || !e->state().park.parkable || busy()
        || m_failedPrompt.isEmpty())
        return false;
    const ParkOffer &offer = e->state().park;
    const RetryRecord record = parkRecord(
        *m_log, *e, RetryRecord::Event::Parked, m_link.choice().profileName, wallNow());
    history::ParkedSend p;
    p.conversation = m_stored->id();
    p.message = e->rows().prompt;
    p.send = e->rows().send;
    p.provider = m_link.lane();
    p.model = m_link.model();
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
    appendEndedRecord(record, e->rows().send);
    // Then the state: a view that reads the log or the history on it sees the park.
    e->publish();
    Q_EMIT parkedChanged(true);
    return true;
}

bool ChatSession::parkNow()
{
    if (!m_current || !m_current->state().waiting() || !m_current->state().earlyPark.parkable)
        return false;
    QPointer<Send> waiting = m_current;
    waiting->parkWhenEnded() = waiting->state().earlyPark;
    m_client->cancel(); // ends the send at once: onEnded() parks it
    if (waiting)
        waiting->parkWhenEnded().reset();
    return sendState().isParked();
}

quint64 ChatSession::sendParked(RetryRecord::Unpark why, const SendOptions &options)
{
    Send *const e = ended();
    if (!e || !e->state().isParked() || busy() || m_failedPrompt.isEmpty())
        return 0;
    RetryRecord r = parkRecord(
        *m_log, *e, RetryRecord::Event::Unparked, m_link.choice().profileName, wallNow());
    r.unpark = why;
    appendEndedRecord(r, e->rows().send);
    Launch launch;
    launch.parksInARow = e->parksInARow() + 1; // ends capped again: the next park counts one more
    launch.storedPrompt = e->rows().prompt; // the prompt is stored already
    launch.model = e->state().parked->model;
    // A parked continuation goes on with its answer, not the prompt anew.
    if (parkedIsContinuation(*e)) {
        launch.continuing = true;
        launch.continuationsInARow = m_continuable->inARow + 1;
    }
    // Its first attempt counts the time it waited in the lot (the usage ledger).
    m_ledger.setParkedBeforeNext(
        std::max<qint64>(0, e->state().parked->parkedAt.msecsTo(wallNow())));
    e->setParked(std::nullopt);
    Q_EMIT parkedChanged(false);
    const QString prompt = m_failedPrompt; // a copy: startSend() clears the failed prompt
    return startSend(prompt, options, launch);
}

bool ChatSession::parkedIsContinuation(const Send &parked) const
{
    if (!m_continuable || !retry::continuable(m_continuable->end)
        || m_continuable->prompt != m_failedPrompt)
        return false;
    // Live: the continuation that failed was parked. Read back with its conversation: the
    // parked prompt's stored row is the continuable answer's prompt.
    return m_failedContinuation
        || (!parked.rows().prompt.isNull() && parked.rows().prompt == m_continuable->promptRow);
}

void ChatSession::cancelPark()
{
    Send *const e = ended();
    if (!e || !e->state().isParked())
        return;
    RetryRecord r = parkRecord(
        *m_log, *e, RetryRecord::Event::Unparked, m_link.choice().profileName, wallNow());
    r.unpark = RetryRecord::Unpark::Cancelled;
    appendEndedRecord(r, e->rows().send);
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

bool ChatSession::parkUntilLimitResets(
    const QString &prompt, const SendOptions &options, const LimitHold &hold)
{
    if (!hold.holds || !hold.resetsAt.isValid() || busy() || !m_lot || prompt.trimmed().isEmpty())
        return false;
    ++m_restoreToken; // as a send: it wins over a restore still being read
    m_hasLastExchange = false;
    m_continuable.reset();
    history::Conversation header;
    header.endpoint
        = history::HistoryStore::storableEndpoint(m_link.endpoint().toString(QUrl::RemoveUserInfo));
    header.model = m_link.model();
    header.profile = m_link.profileId();
    history::ParkedSend p;
    p.message = m_stored->storeHeldPrompt(prompt, header);
    p.conversation = m_stored->id();
    p.provider = m_link.lane();
    p.model = m_link.model();
    ParkedOptions o;
    o.send = options;
    p.options = o.toJson();
    p.parkedAt = wallNow();
    p.dueAt = hold.resetsAt.toUTC();
    p.resetAt = p.dueAt;
    p.parksInARow = 1;
    p.prompt = prompt;
    qCInfo(lcSession).noquote() << u"parked until %1, before any request: %2"_s.arg(
        p.dueAt.toString(Qt::ISODate),
        QString::fromLatin1(
            hold.spending ? retry::nameOf(hold.check.limit) : retry::nameOf(hold.declared.holds)));
    p.id = m_lot->park(p, this);
    adoptParked(p);
    m_current->publish();
    Q_EMIT parkedChanged(true);
    return true;
}

void ChatSession::adoptParked(const history::ParkedSend &parked)
{
    if (m_current)
        m_current->deleteLater();
    m_failedPrompt = parked.prompt;
    m_current = Send::fromParked(parked, m_client->policyLimits(), this);
}

quint64 ChatSession::runParked(const history::ParkedSend &parked, RetryRecord::Unpark why)
{
    // Not into a send, an edit of the last exchange or an opening of another conversation: the
    // send would replace what the user is doing (a send wins over a restore being read).
    if (occupied() || parked.conversation != m_stored->id())
        return 0;
    // Its key is for its own provider: a parked send never goes anywhere else.
    if (parked.provider != m_link.lane()) {
        qCInfo(lcSession).noquote()
            << u"a parked send waits for its provider (%1)"_s.arg(parked.provider);
        return 0;
    }
    // Nor over plain HTTP to another host without the consent given in this run (the window
    // asks it before a send of its own; nothing asks here).
    if (m_link.needsPlainHttpConsent()) {
        qCInfo(lcSession) << "a parked send waits for the consent to plain HTTP";
        return 0;
    }
    adoptParked(parked);
    return sendParked(why, m_current->options());
}

void ChatSession::logUnparked(const history::ParkedSend &parked, RetryRecord::Unpark why)
{
    if (parked.conversation != m_stored->id())
        return;
    Send *const e = ended();
    if (!e || !e->state().isParked() || e->state().parked->id != parked.id) {
        // Not this session's parked prompt (another send is in flight or failed here): its
        // record is made from the stored park alone, leaving this session's state as it is.
        RetryRecord r = unparkedRecord(parked, why, wallNow());
        r.profile = m_link.choice().profileName; // it shows the conversation: its profile
        appendEndedRecord(r, parked.send);
        return;
    }
    RetryRecord r = parkRecord(
        *m_log, *e, RetryRecord::Event::Unparked, m_link.choice().profileName, wallNow());
    r.unpark = why;
    appendEndedRecord(r, e->rows().send);
    unparkLastSend(why == RetryRecord::Unpark::Cancelled);
    Q_EMIT parkedChanged(false);
}

} // namespace capwatch::session
