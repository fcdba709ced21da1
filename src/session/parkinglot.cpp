#include "parkinglot.h"

#include "chatsession.h"
#include "history/historystore.h"
#include "history/historywriter.h"
#include "net/chatrequest.h"
#include "parkedoptions.h"
#include "sessionlogging.h"
#include "storedrecords.h"

#include <algorithm>
#include <limits>

namespace capwatch::session {

using namespace Qt::StringLiterals;
using net::RetryRecord;
using Outcome = net::SendSummary::Outcome;

namespace {

bool goesBefore(const history::ParkedSend &a, const history::ParkedSend &b)
{
    if (a.dueAt != b.dueAt)
        return a.dueAt < b.dueAt;
    return a.parkedAt < b.parkedAt;
}

} // namespace

ParkingLot::ParkingLot(QObject *parent)
    : QObject(parent)
{
    m_due.setSingleShot(true);
    m_due.setTimerType(Qt::PreciseTimer);
    connect(&m_due, &QTimer::timeout, this, &ParkingLot::check);
    // A monotonic timer stops while the computer sleeps: the wall clock is read again every
    // second, so a reset that passed during a suspend is seen within a second of waking.
    m_recheck.setInterval(1000);
    connect(&m_recheck, &QTimer::timeout, this, &ParkingLot::check);
}

ParkingLot::~ParkingLot()
{
    for (const QPointer<ChatSession> &s : std::as_const(m_sessions)) {
        if (s)
            s->leaveLot();
    }
    // Sessions made for a send end with it: their send is cancelled, the park stays stored
    // (it is removed only once its send has ended), so the next start sends it again.
    for (auto &e : m_parked) {
        if (e->own) {
            disconnect(e->own.get(), nullptr, this, nullptr);
            e->own->leaveLot();
        }
    }
    m_parked.clear();
}

void ParkingLot::setWallClock(WallClock clock)
{
    m_clock = std::move(clock);
    check();
}

QDateTime ParkingLot::wallNow() const
{
    return m_clock ? m_clock() : QDateTime::currentDateTimeUtc();
}

void ParkingLot::setRecheckInterval(int ms)
{
    m_recheck.setInterval(std::max(1, ms));
}

void ParkingLot::setSessionSetup(std::optional<SessionSetup> setup)
{
    m_setup = std::move(setup);
}

std::unique_ptr<ChatSession> ParkingLot::makeSession(const QString &profile) const
{
    if (!m_setup)
        return nullptr;
    // Like the window's own session, the same history and parking choice; but the provider of
    // the parked send's own conversation (its key source, headers, numbers and lane), whatever
    // conversation a window shows.
    auto s = std::make_unique<ChatSession>();
    s->configure(*m_setup);
    const ProviderChoice choice = m_setup->providers.choice(profile);
    s->setProvider(choice);
    s->setHistory(m_writer);
    // The consent to send the key over plain HTTP, given in this run by a session that talks to
    // that endpoint with that key, holds for a parked send there; without it they wait
    // (ChatSession::runParked()) until their conversation is shown and asks.
    const bool consented = std::any_of(
        m_sessions.cbegin(), m_sessions.cend(), [&choice](const QPointer<ChatSession> &shown) {
            return shown && shown->provider().consentsToPlainHttp(choice);
        });
    if (consented)
        s->provider().allowPlainHttp();
    return s;
}

QString ParkingLot::laneOf(const ProviderChoice &choice)
{
    if (choice.demo)
        return u"demo"_s;
    return history::HistoryStore::storableEndpoint(
        net::chatCompletionsUrl(choice.endpoint).toString(QUrl::RemoveUserInfo));
}

void ParkingLot::setHistory(history::HistoryWriter *writer)
{
    m_writer = writer;
    const quint64 token = ++m_readToken;
    if (!writer)
        return;
    // With each the profile stored with its conversation: what it is sent with.
    using Stored = std::pair<QList<history::ParkedSend>, QHash<QUuid, QString>>;
    writer->read(
        this,
        [](history::HistoryStore &store) {
            Stored stored { store.parkedSends(), {} };
            for (const history::ParkedSend &p : std::as_const(stored.first)) {
                if (stored.second.contains(p.conversation))
                    continue;
                const std::optional<history::Conversation> c = store.conversation(p.conversation);
                stored.second.insert(p.conversation, c ? c->profile : QString());
            }
            return stored;
        },
        [this, token](Stored stored) {
            if (token != m_readToken)
                return;
            const QDateTime now = wallNow();
            int added = 0;
            for (history::ParkedSend &p : stored.first) {
                if (entry(p.id))
                    continue;
                auto e = std::make_unique<Entry>();
                // Due while capwatch was closed: these go one by one, whatever their provider.
                e->overdueAtStart = p.dueAt <= now;
                e->profile = stored.second.value(p.conversation);
                e->parked = std::move(p);
                insert(std::move(e));
                ++added;
            }
            qCInfo(lcSession) << "parking:" << added << "parked sends read back";
            Q_EMIT restored(added);
            Q_EMIT changed();
            check();
        });
}

void ParkingLot::attach(ChatSession *session)
{
    if (!session || m_sessions.contains(session))
        return;
    m_sessions.append(session);
    connect(session, &QObject::destroyed, this, [this, session] {
        m_sessions.removeAll(session);
        m_sessions.removeAll(nullptr);
    });
    watch(session);
}

void ParkingLot::detach(ChatSession *session)
{
    m_sessions.removeAll(session);
    disconnect(session, nullptr, this, nullptr);
    // A send running in it ends as far as the lot is concerned; it stays stored and goes again.
    for (auto &e : m_parked) {
        if (e->running && e->runner == session && !e->own) {
            e->running = false;
            e->runner = nullptr;
            e->send = 0;
        }
    }
    QTimer::singleShot(0, this, &ParkingLot::check);
}

void ParkingLot::watch(ChatSession *session)
{
    connect(session, &ChatSession::succeeded, this,
        [this, session](
            quint64 send, const net::SendSummary &) { ended(session, send, Outcome::Succeeded); });
    // Not gaveUp(): parkOffered() follows it once the session parked the send again, if it did.
    connect(session, &ChatSession::parkOffered, this,
        [this, session](const ParkOffer &offer) { ended(session, offer.send, Outcome::GaveUp); });
    connect(session, &ChatSession::cancelled, this,
        [this, session](
            quint64 send, const net::SendSummary &) { ended(session, send, Outcome::Cancelled); });
}

QList<history::ParkedSend> ParkingLot::sends() const
{
    QList<history::ParkedSend> out;
    out.reserve(qsizetype(m_parked.size()));
    for (const auto &e : m_parked)
        out.append(e->parked);
    return out;
}

QList<history::ParkedSend> ParkingLot::sendsOf(const QUuid &conversation) const
{
    QList<history::ParkedSend> out;
    for (const auto &e : m_parked) {
        if (e->parked.conversation == conversation)
            out.append(e->parked);
    }
    return out;
}

std::optional<history::ParkedSend> ParkingLot::find(const QUuid &id) const
{
    if (const Entry *e = entry(id))
        return e->parked;
    return std::nullopt;
}

bool ParkingLot::isRunning(const QUuid &id) const
{
    const Entry *e = entry(id);
    return e && e->running;
}

ChatSession *ParkingLot::runnerOf(const QUuid &id) const
{
    const Entry *e = entry(id);
    return e && e->running ? e->runner.data() : nullptr;
}

bool ParkingLot::runsIn(const ChatSession *session) const
{
    return std::any_of(m_parked.cbegin(), m_parked.cend(),
        [session](const std::unique_ptr<Entry> &e) { return e->running && e->runner == session; });
}

bool ParkingLot::waitsForProvider(const QUuid &id) const
{
    const Entry *e = entry(id);
    return e && e->waitsForProvider;
}

bool ParkingLot::waitsForConsent(const QUuid &id) const
{
    const Entry *e = entry(id);
    return e && e->waitsForConsent;
}

QString ParkingLot::profileOf(const QUuid &id) const
{
    const Entry *e = entry(id);
    return e ? e->profile : QString();
}

bool ParkingLot::isQueued(const QUuid &id) const
{
    const Entry *e = entry(id);
    return e && !e->running && (e->sendNow || e->parked.dueAt <= wallNow());
}

QUuid ParkingLot::park(history::ParkedSend parked, ChatSession *origin)
{
    if (parked.id.isNull())
        parked.id = QUuid::createUuid();
    if (!parked.parkedAt.isValid())
        parked.parkedAt = wallNow();
    if (m_writer && !parked.conversation.isNull())
        m_writer->addParkedSend(parked);
    auto e = std::make_unique<Entry>();
    e->parked = std::move(parked);
    // The profile its send went to, which is its conversation's (ChatSession::setProvider()
    // stores it with the conversation).
    e->profile = origin ? origin->provider().profileId() : QString();
    e->fromOrigin = origin != nullptr;
    e->origin = origin;
    e->originView = origin ? origin->viewToken() : 0;
    const QUuid id = e->parked.id;
    qCInfo(lcSession).noquote() << u"parking: parked until %1 (%2 in a row)"_s
                                       .arg(e->parked.dueAt.toString(Qt::ISODateWithMs))
                                       .arg(e->parked.parksInARow);
    insert(std::move(e));
    Q_EMIT changed();
    // Not from inside the send's own end: a reset already past goes on the next turn.
    QTimer::singleShot(0, this, &ParkingLot::check);
    return id;
}

void ParkingLot::insert(std::unique_ptr<Entry> e)
{
    const auto at = std::upper_bound(m_parked.begin(), m_parked.end(), e,
        [](const std::unique_ptr<Entry> &a, const std::unique_ptr<Entry> &b) {
            return goesBefore(a->parked, b->parked);
        });
    m_parked.insert(at, std::move(e));
    arm();
}

bool ParkingLot::sendNow(const QUuid &id)
{
    Entry *e = entry(id);
    if (!e || e->running)
        return false;
    e->sendNow = true;
    Q_EMIT changed();
    check();
    return true;
}

bool ParkingLot::cancel(const QUuid &id)
{
    Entry *e = entry(id);
    if (!e || e->running)
        return false;
    const history::ParkedSend parked = e->parked;
    if (ChatSession *s = showing(*e)) {
        s->logUnparked(parked, RetryRecord::Unpark::Cancelled);
    } else if (m_writer && !parked.send.isNull()) { // stored with its send all the same
        RetryRecord r = unparkedRecord(parked, RetryRecord::Unpark::Cancelled, wallNow());
        if (m_setup)
            r.profile = m_setup->providers.choice(e->profile).profileName;
        m_writer->addRetryRecord(parked.send, toStored(r));
    }
    remove(id);
    Q_EMIT changed();
    return true;
}

void ParkingLot::retire(std::unique_ptr<ChatSession> session)
{
    // It may be inside one of its own signals: deleted later, and with the lot at the latest
    // (before whatever it used, such as the local provider, is gone).
    disconnect(session.get(), nullptr, this, nullptr);
    session->leaveLot();
    session->setParent(this);
    session.release()->deleteLater();
}

void ParkingLot::remove(const QUuid &id)
{
    const auto it = std::find_if(m_parked.begin(), m_parked.end(),
        [&id](const std::unique_ptr<Entry> &e) { return e->parked.id == id; });
    if (it == m_parked.end())
        return;
    if (m_writer && !(*it)->parked.conversation.isNull()) // only those are stored
        m_writer->removeParkedSend(id);
    if ((*it)->own)
        retire(std::move((*it)->own));
    m_parked.erase(it);
    arm();
}

ParkingLot::Entry *ParkingLot::entry(const QUuid &id)
{
    for (auto &e : m_parked) {
        if (e->parked.id == id)
            return e.get();
    }
    return nullptr;
}

const ParkingLot::Entry *ParkingLot::entry(const QUuid &id) const
{
    return const_cast<ParkingLot *>(this)->entry(id);
}

ChatSession *ParkingLot::showing(const Entry &entry) const
{
    const QUuid &conversation = entry.parked.conversation;
    if (conversation.isNull() && entry.fromOrigin) {
        // Not stored: only the session it was parked in, while it shows that conversation.
        ChatSession *s = entry.origin;
        return s && m_sessions.contains(s) && s->viewToken() == entry.originView
                && s->conversationId().isNull()
            ? s
            : nullptr;
    }
    for (const QPointer<ChatSession> &s : m_sessions) {
        if (s && s->conversationId() == conversation)
            return s;
    }
    return nullptr;
}

bool ParkingLot::laneBusy(const QString &provider) const
{
    return std::any_of(m_parked.cbegin(), m_parked.cend(),
        [&provider](const auto &e) { return e->running && e->parked.provider == provider; });
}

void ParkingLot::check()
{
    const QDateTime now = wallNow();
    const bool anyRunning
        = std::any_of(m_parked.cbegin(), m_parked.cend(), [](const auto &e) { return e->running; });
    bool startedOverdue = false;
    // A copy of the ids: release() may remove entries (a conversation gone).
    QList<QUuid> ids;
    for (const auto &e : m_parked)
        ids.append(e->parked.id);
    for (const QUuid &id : std::as_const(ids)) {
        Entry *e = entry(id);
        if (!e || e->running || (!e->sendNow && e->parked.dueAt > now))
            continue;
        if (laneBusy(e->parked.provider))
            continue; // one at a time per provider
        if (e->overdueAtStart && (anyRunning || startedOverdue))
            continue; // the sends due while capwatch was closed go one by one
        if (release(
                *e, e->sendNow ? RetryRecord::Unpark::SentNow : RetryRecord::Unpark::ResetReached)
            && e->overdueAtStart)
            startedOverdue = true;
    }
    arm();
}

bool ParkingLot::release(Entry &e, RetryRecord::Unpark why)
{
    if (ChatSession *s = showing(e)) {
        // After the send it is busy with (ended() checks again), or the edit or the opening of
        // another conversation it is in the middle of (the recheck, within a second).
        if (s->occupied())
            return false;
        return runIn(e, s, why);
    }
    if (!m_setup || e.parked.conversation.isNull())
        return false; // nothing can send it until a session shows it
    const auto waitForProvider = [this, &e] {
        if (!e.waitsForProvider || e.waitsForConsent) {
            e.waitsForProvider = true;
            e.waitsForConsent = false;
            Q_EMIT changed();
        }
        return false;
    };
    // Its conversation's profile talks to another provider now (edited, deleted, or another
    // profile chosen for the conversation): it waits for its own, without a session made and its
    // conversation read every second. Whatever the window shows does not matter.
    if (laneOf(m_setup->providers.choice(e.profile)) != e.parked.provider)
        return waitForProvider();
    std::unique_ptr<ChatSession> own = makeSession(e.profile);
    if (!own)
        return false;
    if (own->provider().lane() != e.parked.provider) {
        retire(std::move(own));
        return waitForProvider();
    }
    if (own->provider().needsPlainHttpConsent()) {
        // Its key would go over plain HTTP and no consent covers it: it waits for one, without
        // its conversation read every second (nor, read back overdue, holding up the others).
        retire(std::move(own));
        if (!e.waitsForConsent || e.waitsForProvider) {
            e.waitsForConsent = true;
            e.waitsForProvider = false;
            Q_EMIT changed();
        }
        return false;
    }
    ChatSession *s = own.get();
    e.own = std::move(own);
    e.running = true; // its lane is taken while the conversation is read
    e.runner = s;
    s->driveFromLot(this); // not attached: it shows nothing, the lot drives it
    watch(s);
    const QUuid id = e.parked.id;
    connect(s, &ChatSession::conversationRestored, this,
        [this, id, s, why](const RestoredConversation &conversation) {
            Entry *opened = entry(id);
            if (!opened || opened->runner != s)
                return;
            opened->running = false; // runIn() takes the lane again once it is sent
            if (conversation.profile != opened->profile) {
                // Another profile was chosen for the conversation since: the session talks to the
                // old one. Made again for the stored one on the next check.
                qCInfo(lcSession) << "parking: the conversation's profile changed; made again";
                opened->profile = conversation.profile;
                opened->runner = nullptr;
                retire(std::move(opened->own));
                Q_EMIT changed();
                QTimer::singleShot(0, this, &ParkingLot::check);
                return;
            }
            // Not sent (its lane, or a consent to plain HTTP missing): it waits.
            if (!runIn(*opened, s, why)) {
                opened->runner = nullptr;
                retire(std::move(opened->own));
                Q_EMIT changed();
            }
        });
    connect(s, &ChatSession::restoreFailed, this, [this, id] {
        qCWarning(lcSession) << "parking: the conversation of a parked send is gone; dropped";
        remove(id);
        Q_EMIT changed();
    });
    s->openConversation(e.parked.conversation);
    Q_EMIT changed();
    return true;
}

bool ParkingLot::runIn(Entry &e, ChatSession *session, RetryRecord::Unpark why)
{
    const history::ParkedSend parked = e.parked;
    const quint64 send = session->runParked(parked, why);
    if (send == 0) {
        // On its own provider but without the consent to plain HTTP (ChatSession::runParked()):
        // it waits for that, which the window asks for when the user sends it now.
        const bool consent = session->provider().lane() == parked.provider
            && session->provider().needsPlainHttpConsent();
        const bool news = e.waitsForConsent != consent || e.waitsForProvider == consent;
        e.waitsForConsent = consent;
        e.waitsForProvider = !consent;
        if (news)
            Q_EMIT changed();
        return false;
    }
    Entry *still = entry(parked.id); // runParked() emitted signals: look it up again
    if (!still)
        return true;
    still->waitsForProvider = false;
    still->waitsForConsent = false;
    still->running = true;
    still->runner = session;
    still->send = send;
    Q_EMIT released(parked, why);
    Q_EMIT changed();
    return true;
}

void ParkingLot::ended(ChatSession *session, quint64 send, Outcome outcome)
{
    Entry *e = nullptr;
    for (auto &candidate : m_parked) {
        if (candidate->running && candidate->runner == session && candidate->send == send)
            e = candidate.get();
    }
    if (!e) { // a send of the session's own ended: a due park of its conversation may go now
        QTimer::singleShot(0, this, &ParkingLot::check);
        return;
    }
    if (outcome == Outcome::Cancelled && !session->sendState().stoppedByUser) {
        // Cancelled by a provider change, a switch of conversation or quitting, not by the
        // user's Stop: still parked (and still stored), it goes again, where it can.
        qCInfo(lcSession) << "parking: a parked send was interrupted; it stays parked";
        e->running = false;
        e->runner = nullptr;
        e->send = 0;
        if (e->own)
            retire(std::move(e->own));
        Q_EMIT changed();
        QTimer::singleShot(0, this, &ParkingLot::check);
        return;
    }
    const history::ParkedSend parked = e->parked;
    // Parked again by the session's own gave-up handler: a newer entry of the same message.
    const bool parkedAgain = std::any_of(m_parked.cbegin(), m_parked.cend(), [&](const auto &o) {
        return o.get() != e && o->parked.message == parked.message
            && o->parked.conversation == parked.conversation
            && o->parked.parksInARow > parked.parksInARow;
    });
    remove(parked.id);
    Q_EMIT finished(parked, outcome, parkedAgain);
    Q_EMIT changed();
    QTimer::singleShot(0, this, &ParkingLot::check); // the next of its provider
}

void ParkingLot::arm()
{
    const QDateTime now = wallNow();
    qint64 soonest = std::numeric_limits<qint64>::max();
    bool waiting = false;
    for (const auto &e : m_parked) {
        if (e->running)
            continue;
        waiting = true;
        // One already due waits for its provider's previous send (ended() checks again) or
        // for its provider to be chosen (the recheck): never a zero timer.
        if (const qint64 in = now.msecsTo(e->parked.dueAt); !e->sendNow && in > 0)
            soonest = std::min(soonest, in);
    }
    if (!waiting) {
        m_due.stop();
        m_recheck.stop();
        return;
    }
    if (!m_recheck.isActive())
        m_recheck.start();
    if (soonest != std::numeric_limits<qint64>::max())
        m_due.start(int(std::min<qint64>(soonest, std::numeric_limits<int>::max())));
}

} // namespace capwatch::session
