#include "chatsession.h"

#include "backgroundsends.h"
#include "chatsession_p.h"
#include "history/historystore.h"
#include "limitchecks.h"
#include "providermemory.h"
#include "sessionlogging.h"

#include <QTimer>
#include <algorithm>
#include <optional>
#include <utility>

namespace capwatch::session {

using namespace Qt::StringLiterals;

ChatSession::ChatSession(QObject *parent)
    : QObject(parent)
    , m_client(new net::ChatClient(this))
    , m_log(new net::RetryLog(this))
    , m_stored(new StoredConversation(this))
{
    wireClient();
    // Each record as it is logged, so a kill in the middle of a retry cycle loses at most one.
    connect(m_log, &net::RetryLog::recordAppended, this, [this](int row) {
        if (!m_current || row < 0 || row >= m_log->records().size())
            return;
        const net::RetryRecord &record = m_log->records().at(row);
        m_stored->addRecord(*m_current, record);
        suggestDeclaredAfter(record); // before the ledger counts the refusal
        // The attempt it ended, in the ledger: its own write, after the record.
        const Send::Route &route = m_current->route();
        const UsageLedger::SendFacts facts { m_current->state().profileName,
            m_current->state().lane, m_current->state().model, route.requestChars,
            m_planner.charsPerToken(route.lane), route.price };
        if (std::optional<history::UsageRecord> usage = m_ledger.record(record, facts)) {
            m_stored->addUsage(*m_current, *usage);
            m_current->addCost(*usage);
            // The limits count it: read back after the write, or here without a history.
            if (ProviderMemory *memory = m_planner.providerMemory())
                memory->tally().noteAppended(*usage);
        }
    });
    connect(m_stored, &StoredConversation::stored, this, &ChatSession::conversationStored);
    connect(m_stored, &StoredConversation::updated, this, &ChatSession::conversationUpdated);
}

ChatSession::~ChatSession()
{
    if (m_lot)
        m_lot->detach(this);
    m_client->cancel();
    if (m_current && std::exchange(m_current->route().holdsLocal, false))
        m_link.stopLocal();
}

void ChatSession::wireClient()
{
    m_client->setParent(this);
    m_client->setRetryLog(m_log);
    m_client->setTimeScale(m_timeScale);
    // What the responses say of the provider feeds the memory (pacing, context windows), filed
    // under the provider the request went to, even if another was chosen since. The steps of a
    // send reach the views through its Send (adopt()).
    connect(m_client, &net::ChatClient::providerReported, this,
        [this](quint64 send, const net::ProviderReport &report) {
            if (!current(send))
                return;
            m_planner.report(m_current->route().lane, report);
            m_ledger.report(report);
        });
    connect(
        m_client, &net::ChatClient::answerText, this, [this](quint64 send, const QString &text) {
            if (current(send))
                m_ledger.text(text.size());
        });
    connect(m_client, &net::ChatClient::contextOverflowed, this,
        [this](quint64 send, const net::ContextOverflow &overflow) {
            if (!current(send))
                return;
            Send::Route &route = m_current->route();
            m_planner.learnContextWindow(route.lane, overflow.contextWindow);
            route.overflowWindow = overflow.contextWindow;
            route.overflowExcess = std::max<qint64>(0, overflow.requested - route.estimate);
        });
}

void ChatSession::renewClient()
{
    if (busy())
        return;
    restoreClient(); // a fallback's key source and limits, and a demo it started, go first
    // A new client counts its sends from 1 (a conversation's sends are numbered from Send 1);
    // the old one is deleted with whatever late result of an earlier send it may still get.
    net::ChatClient *old = std::exchange(m_client, new net::ChatClient(this));
    disconnect(old, nullptr, this, nullptr);
    old->deleteLater();
    wireClient();
    applyToClient(m_link.choice());
}

void ChatSession::applyToClient(const ProviderChoice &choice)
{
    m_client->setCredentialProvider(m_link.credentialsFor(choice));
    m_client->setPolicyLimits(choice.limits);
    m_client->setProfileName(choice.profileName);
}

void ChatSession::restoreClient()
{
    if (!m_current || !std::exchange(m_current->route().onFallbackClient, false))
        return;
    applyToClient(m_link.choice());
    if (std::exchange(m_current->route().holdsLocal, false))
        m_link.stopLocal();
}

void ChatSession::configure(const SessionSetup &setup)
{
    setTimeScale(setup.timeScale);
    m_link.setLocalProvider(setup.localProvider);
    m_link.setKeychain(setup.keychain);
    m_planner.setProviderMemory(setup.memory);
    if (setup.memory) {
        disconnect(setup.memory, &ProviderMemory::inFlightChanged, this, nullptr);
        connect(
            setup.memory, &ProviderMemory::inFlightChanged, this, &ChatSession::onInFlightChanged);
    }
    m_planner.setPacingEnabled(setup.pacing);
    m_planner.setAutoTrim(setup.autoTrim);
    setParkingChoice(setup.parkingChoice);
}

void ChatSession::setTimeScale(double scale)
{
    m_timeScale = scale;
    m_client->setTimeScale(scale);
    m_link.setTimeScale(scale);
    m_planner.setTimeScale(scale);
}

void ChatSession::setProvider(const ProviderChoice &choice)
{
    const std::optional<ProviderChoice> went
        = m_current ? m_current->route().fallback : std::nullopt;
    QUrl heldDemo;
    if (choice.demo && !m_link.usingDemo()) {
        // A demo fallback's send runs on the local provider it started: the session's now.
        if (went && went->demo && m_current && std::exchange(m_current->route().holdsLocal, false))
            heldDemo = went->endpoint;
    } else if (!choice.demo && m_link.usingDemo()) {
        // Stopping the local provider ends a send to it; a fallback's send elsewhere goes on.
        const bool onFallback = busy() && m_current && m_current->route().onFallbackClient;
        if (!onFallback || (went && went->demo))
            m_client->cancel();
    }
    m_link.choose(choice, heldDemo);
    const bool fallbackSendRunning = busy() && m_current && m_current->route().onFallbackClient;
    // A fallback's send in flight goes on: the client keeps the key source, limits and profile
    // name that send began with, and finish() puts this choice in (restoreClient()).
    if (!fallbackSendRunning) {
        restoreClient();
        applyToClient(choice);
    }
    m_stored->setProfile(choice.profile);
    Q_EMIT providerChanged();
}

void ChatSession::setFallback(std::optional<ProviderChoice> fallback, bool automatic)
{
    m_link.setFallback(std::move(fallback), automatic);
    if (!m_link.fallback() && m_current) {
        FallbackOffer offer = m_current->state().fallback;
        offer.offered = false;
        m_current->setFallbackOffer(offer);
    }
}

bool ChatSession::busy() const
{
    return m_client->busy();
}

bool ChatSession::occupied() const
{
    return busy() || m_editing || opening();
}

bool ChatSession::opening() const
{
    return m_opening != 0 && m_opening == m_restoreToken;
}

SendState ChatSession::sendState() const
{
    if (m_current)
        return m_current->state();
    // Before any send: the numbers and the profile of the next one.
    SendState s;
    s.limits = m_client->policyLimits();
    s.budgetLeft = s.limits.budget;
    s.profile = m_link.choice().profile;
    s.profileName = m_link.choice().profileName;
    s.model = m_link.model();
    return s;
}

QString ChatSession::lastPrompt() const
{
    return m_hasLastExchange && m_history.size() >= 2 ? m_history.at(m_history.size() - 2).content
                                                      : QString();
}

bool ChatSession::beginEdit()
{
    if (busy() || !m_hasLastExchange || m_history.size() < 2)
        return false;
    m_editing = true;
    return true;
}

bool ChatSession::sendReplacesLastExchange() const
{
    return m_editing && m_hasLastExchange && m_history.size() >= 2;
}

quint64 ChatSession::send(const QString &prompt, const SendOptions &options)
{
    if (prompt.trimmed().isEmpty())
        return 0;
    cancel(); // the latest send wins
    if (sendReplacesLastExchange()) { // the edited prompt takes the place of the last one
        m_history.resize(m_history.size() - 2);
        m_stored->replaceLastExchange();
    }
    m_editing = false;
    return startSend(prompt, options, Launch());
}

quint64 ChatSession::retryFailed(const SendOptions &options)
{
    if (m_failedPrompt.isEmpty() || busy() || sendState().isParked())
        return 0;
    if (m_failedContinuation) // a continuation that failed is continued again
        return continueAnswer(options);
    const QString prompt = m_failedPrompt; // a copy: startSend() clears the failed prompt
    return startSend(prompt, options, Launch());
}

quint64 ChatSession::regenerate(const SendOptions &options)
{
    if (busy() || !m_hasLastExchange || m_history.size() < 2)
        return 0;
    m_editing = false;
    // The same conversation again, without the answer.
    const QString prompt = m_history.at(m_history.size() - 2).content;
    m_history.resize(m_history.size() - 2);
    m_stored->replaceLastExchange(); // its prompt is stored again, with the new send
    return startSend(prompt, options, Launch());
}

quint64 ChatSession::startSend(
    const QString &prompt, const SendOptions &options, const Launch &launch)
{
    ++m_restoreToken; // a send wins over a restore still being read
    m_hasLastExchange = false;
    m_failedPrompt.clear();
    m_autoContinuing = false;
    m_failedContinuation = false;
    // Continue goes on with the last answer; any other send leaves it behind.
    const std::optional<Continuable> continuing
        = launch.continuing ? m_continuable : std::optional<Continuable>();
    m_continuable.reset();
    // After a context error, the provider's own count and window: the next send (the resend of
    // the prompt that overflowed) plans with them, and only it.
    std::optional<qint64> excess;
    std::optional<qint64> named;
    if (m_current) {
        excess = std::exchange(m_current->route().resendExcess, std::nullopt);
        named = std::exchange(m_current->route().resendWindow, std::nullopt);
    }
    // Where this send goes: the fallback's endpoint, model and headers for sendToFallback()'s
    // one send (the client holds its key source and limits by now), else the session's own
    // provider (the client back from a fallback's first).
    const std::optional<ProviderChoice> &target = launch.fallback;
    if (!target)
        restoreClient();
    const ProviderChoice &to = target ? *target : m_link.choice();
    // A new prompt while one is parked: that one stays in the lot (its card, the queue) and goes
    // at its reset; the session's send is the new one from now on, with no offer yet.
    Send *send = new Send(m_client, prompt, options, to, target.has_value(), this);
    send->setParksInARow(launch.parksInARow);
    adopt(send);
    Send::Route &route = send->route();
    route.fallback = target;
    route.onFallbackClient = target.has_value();
    route.holdsLocal = launch.holdsLocal;
    // Paced and trimmed by the lane, model and context window of where the send goes.
    route.lane = target ? ProviderLink::laneOf(*target) : m_link.ownLane(launch.model);
    setLeftOut(m_leftOut); // an edit or a regenerate may have taken turns away
    trimBeforeSend(*send, excess.value_or(0), named);
    net::ChatRequest request;
    request.endpoint = target ? target->endpoint : m_link.endpoint();
    // A parked send goes with the model it was parked with, whatever is chosen now.
    request.model = target ? target->model : launch.model.isEmpty() ? m_link.model() : launch.model;
    request.stream = target ? target->demo || target->stream : m_link.usingDemo() || to.stream;
    request.extraHeaders = to.extraHeaders;
    if (options.systemPrompt)
        request.messages.append({ u"system"_s, *options.systemPrompt });
    // Left-out turns stay in the transcript and the history; only the request goes without them.
    request.messages += m_history.mid(qsizetype(m_leftOut) * 2);
    if (!continuing || !continuing->inHistory)
        request.messages.append({ u"user"_s, prompt });
    if (continuing) {
        // The answer so far as the assistant's turn (already there when it is the last
        // exchange), then the instruction to go on from it.
        if (!continuing->inHistory)
            request.messages.append({ u"assistant"_s, continuing->text });
        request.messages.append({ u"user"_s, QString::fromUtf16(kContinueInstruction) });
    }
    request.maxTokens = options.maxTokens;
    request.temperature = options.temperature;
    history::Conversation header; // a new stored conversation's
    header.endpoint
        = history::HistoryStore::storableEndpoint(m_link.endpoint().toString(QUrl::RemoveUserInfo));
    header.model = m_link.model();
    header.profile = m_link.profileId();
    // Queued before the request goes out (on the next turn of the loop).
    if (continuing) {
        send->continueFrom(continuing->text, continuing->seams, launch.continuationsInARow);
        m_continuingSend = send;
        m_continuingFrom = *continuing;
        m_stored->startContinuation(*send, continuing->promptRow, continuing->answerRow);
    } else {
        m_stored->startSend(*send, prompt, launch.storedPrompt, header);
    }
    // The whole answer for the transcript; else, bounded, what the history stores of it (the
    // CLI streams on), or nothing.
    // An answer that may be continued by itself is kept whole: its continuation sends it.
    send->setAnswerLimit(m_keepTranscript || options.autoContinue > 0 ? -1
            : send->rows().send.isNull()                              ? 0
                                                                      : kMaxStoredAnswerChars);
    send->setModel(request.model);
    send->setLane(route.lane.lane);
    route.lane.model = request.model;
    const net::PacePlan plan = m_planner.pacePlan(request, route.lane, to);
    route.estimate = plan.estimatedTokens.value_or(0);
    route.requestChars = net::requestChars(request.messages);
    route.price = to.priceOf(request.model);
    const quint64 id = m_client->send(request, plan);
    if (!send->rows().send.isNull())
        send->rows().request = id;
    return id;
}

void ChatSession::adopt(Send *send)
{
    if (m_current && !m_current->state().running())
        m_current->deleteLater(); // one in flight ends by itself (the latest send wins)
    m_current = send;
    // The latest send wins: nothing of an earlier one reaches the views.
    connect(send, &Send::changed, this, [this, send](const SendState &state) {
        // Out or not, for the profile's requests in flight (also once it is not the latest).
        if (ProviderMemory *memory = m_planner.providerMemory())
            memory->setInFlight(send, state.profileName,
                state.phase == SendPhase::Sending || state.phase == SendPhase::Streaming
                    || state.phase == SendPhase::Silent);
        if (send == m_current)
            Q_EMIT sendStateChanged(state);
    });
    connect(send, &Send::started, this, [this, send](quint64 id) {
        if (send == m_current)
            Q_EMIT sendStarted(id);
    });
    connect(send, &Send::text, this, [this, send](quint64 id, const QString &text) {
        if (send != m_current || !current(id))
            return;
        // The Send keeps the text itself (bounded as startSend() said); the history's answer
        // row is made at its first text.
        const Send::Rows &rows = send->rows();
        if (rows.open && !rows.send.isNull() && rows.answer.isNull() && !text.isEmpty())
            m_stored->startAnswer(*send);
        Q_EMIT answerText(id, text);
    });
    connect(send, &Send::ended, this,
        [this, send](quint64 id, const net::SendSummary &summary) { onEnded(send, id, summary); });
}

Send *ChatSession::ended() const
{
    if (!m_current || !(m_current->state().ended() || m_current->state().isParked()))
        return nullptr;
    return m_current;
}

void ChatSession::cancel()
{
    m_client->cancel();
}

void ChatSession::stop()
{
    QPointer<Send> stopped = busy() ? m_current : nullptr;
    if (stopped)
        stopped->setStoppedByUser(true);
    m_client->cancel();
    if (stopped)
        stopped->setStoppedByUser(false);
}

bool ChatSession::canContinue() const
{
    return m_continuable && retry::continuable(m_continuable->end) && !busy() && !opening()
        && !m_editing && !sendState().isParked();
}

quint64 ChatSession::continueAnswer(const SendOptions &options)
{
    if (!canContinue())
        return 0;
    Launch launch;
    launch.continuing = true;
    launch.continuationsInARow = m_continuable->inARow + 1;
    const QString prompt = m_continuable->prompt; // a copy: startSend() lets it go
    return startSend(prompt, options, launch);
}

bool ChatSession::sendNow()
{
    if (!m_client->pacing())
        return false;
    qCInfo(lcSession) << "send" << currentSend() << "sent now, without waiting for the window";
    return m_client->sendNow();
}

ContextPlanner::Turns ChatSession::turns() const
{
    // While editing, the next send replaces the last exchange: it is not part of that request.
    const int exchanges = int(m_history.size() / 2) - (sendReplacesLastExchange() ? 1 : 0);
    return { m_history, exchanges, m_leftOut };
}

void ChatSession::onInFlightChanged(const QString &profile)
{
    // Held for the requests in flight: it goes as soon as one of them is back.
    if (!m_current || !m_client->pacing() || !m_current->state().pace)
        return;
    const SendState &s = m_current->state();
    if (s.pace->declared != retry::DeclaredKind::InFlight || s.profileName != profile)
        return;
    ProviderMemory *memory = m_planner.providerMemory();
    if (memory && memory->inFlight(profile) < s.pace->declaredLimit) {
        qCInfo(lcSession) << "send" << currentSend() << "goes: a request in flight came back";
        m_client->sendNow();
    }
}

void ChatSession::suggestDeclaredAfter(const net::RetryRecord &record)
{
    if (!m_current)
        return;
    const ProviderChoice &to
        = m_current->route().fallback ? *m_current->route().fallback : m_link.choice();
    const ProviderMemory *memory = m_planner.providerMemory();
    if (!memory)
        return;
    if (const std::optional<retry::DeclaredSuggestion> s
        = limitchecks::suggestionAfter(record, to, memory->tally(), m_timeScale))
        m_current->suggestDeclared(*s, to.profile);
}

LimitHold ChatSession::limitHold(const QString &prompt, const SendOptions &options) const
{
    const ProviderChoice &to = m_link.choice();
    if (to.spend.empty() && to.declared.empty()) { // nothing to check: no gauge to measure
        LimitHold none;
        none.profileName = to.profileName;
        return none;
    }
    return limitchecks::holdOf(
        to, m_link.model(), contextGauge(prompt, options), options, m_planner);
}

ContextGauge ChatSession::contextGauge(const QString &prompt, const SendOptions &options) const
{
    // The next send goes to the session's own provider.
    return m_planner.gauge(turns(), prompt, options, m_link.ownLane());
}

TrimOffer ChatSession::trimOfferFor(const QString &prompt, const SendOptions &options) const
{
    return m_planner.trimOffer(turns(), prompt, options, m_link.ownLane(), 0);
}

void ChatSession::setLeftOut(int turns)
{
    const int all = int(m_history.size() / 2);
    // The last turn always goes: it is what the prompt answers.
    const int clamped = std::clamp(turns, 0, std::max(0, all - 1));
    if (clamped == m_leftOut)
        return;
    m_leftOut = clamped;
    qCInfo(lcSession) << "oldest turns left out of requests:" << m_leftOut;
    Q_EMIT leftOutChanged(m_leftOut, m_planner.leftOutTokens(this->turns(), m_link.ownLane()));
}

// --- history ---

void ChatSession::setHistory(history::HistoryWriter *writer)
{
    if (writer == m_stored->writer())
        return;
    // The send in flight and the conversation belong to the old database (or to none).
    if (m_current)
        m_current->rows() = {};
    m_stored->setWriter(writer);
}

void ChatSession::setCarrier(BackgroundSends *carrier)
{
    m_carrier = carrier;
}

void ChatSession::leaveSend()
{
    if (!busy())
        return;
    if (m_carrier) {
        if (std::unique_ptr<ChatSession> carried = carryOff()) {
            m_carrier->carry(std::move(carried));
            return;
        }
    }
    cancel();
}

std::unique_ptr<ChatSession> ChatSession::carryOff()
{
    if (!busy() || !m_current || !m_stored->writer() || m_stored->id().isNull()
        || (m_lot && m_lot->runsIn(this)))
        return nullptr;
    auto carried = std::make_unique<ChatSession>();
    ChatSession &c = *carried;
    // Wired as this one.
    c.setTimeScale(m_timeScale);
    c.m_keepTranscript = m_keepTranscript;
    c.m_parkingChoice = m_parkingChoice;
    c.m_planner.copySetupFrom(m_planner);
    c.m_planner.setResendsAfterTrim(true); // nobody shows it to resend a trimmed prompt by hand
    c.m_link.copySetupFrom(m_link);
    c.setProvider(m_link.choice()); // the demo's users are counted: each session stops it once
    c.driveFromLot(m_lot); // parks as this one would; it shows nothing the lot releases into

    // The client with the send in flight goes with it; this session takes the new one, which
    // talks to its provider as set (setProvider() above applied it).
    disconnect(m_client, nullptr, this, nullptr);
    disconnect(c.m_client, nullptr, &c, nullptr);
    std::swap(m_client, c.m_client);
    wireClient();
    c.wireClient();

    // The send and the conversation it belongs to.
    Send *send = m_current;
    m_current = nullptr;
    disconnect(send, nullptr, this, nullptr);
    send->setParent(&c);
    c.adopt(send);
    c.m_stored->takeFrom(*m_stored);
    c.m_history = std::exchange(m_history, {});
    c.m_leftOut = std::exchange(m_leftOut, 0);
    // The attempt in flight and the waits before it go on into the ledger from there, and a
    // continuation stays one.
    c.m_ledger = std::exchange(m_ledger, UsageLedger());
    c.m_continuingSend = std::exchange(m_continuingSend, nullptr);
    c.m_continuingFrom = m_continuingFrom;
    c.m_continuable = std::exchange(m_continuable, std::nullopt);
    m_failedPrompt.clear();
    m_hasLastExchange = false;
    m_editing = false;
    ++m_view;
    qCInfo(lcSession) << "send" << send->id() << "goes on in its own conversation"
                      << c.conversationId().toString(QUuid::WithoutBraces);
    return carried;
}

void ChatSession::forgetConversation()
{
    leaveSend(); // it goes on in its own conversation (or is cancelled without a carrier)
    if (m_current) // its state belongs to the conversation shown before
        m_current->deleteLater();
    m_current = nullptr;
    renewClient(); // its sends are numbered from Send 1
    if (m_leftOut != 0) {
        m_leftOut = 0;
        Q_EMIT leftOutChanged(0, 0);
    }
    m_history.clear();
    m_failedPrompt.clear();
    m_hasLastExchange = false;
    m_editing = false;
    m_continuable.reset();
    m_continuingSend = nullptr;
    m_autoContinuing = false;
    m_failedContinuation = false;
    m_stored->show({}, {}, {});
    ++m_view;
}

void ChatSession::newConversation()
{
    ++m_restoreToken; // a restore still being read is dropped
    forgetConversation();
    m_log->clear();
    Q_EMIT conversationChanged(QUuid());
}

void ChatSession::openConversation(const QUuid &id)
{
    const quint64 token = ++m_restoreToken;
    m_opening = token;
    const bool reading = m_stored->load(id, this, [this, id, token](StoredConversation::Loaded l) {
        if (token != m_restoreToken)
            return;
        m_opening = 0;
        applyRestore(id, std::move(l));
    });
    if (!reading) {
        QTimer::singleShot(0, this, [this, id, token] {
            if (token != m_restoreToken)
                return;
            m_opening = 0;
            Q_EMIT restoreFailed(id, u"history is off (--private)"_s);
        });
    }
}

void ChatSession::applyRestore(const QUuid &id, StoredConversation::Loaded loaded)
{
    if (!loaded.conversation) {
        Q_EMIT restoreFailed(id, u"no such conversation in the history"_s);
        return;
    }
    forgetConversation();
    // The context sent from now on: each user message answered in full, with its answer. An
    // answer cut off (or never finished) is shown but not sent, as for a failed send live; the
    // last prompt without a full answer is the one "Retry now" sends.
    std::pair<QUuid, QUuid> lastExchange; // what Regenerate or Edit and resend would replace
    const QList<history::Message> &messages = loaded.messages;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const history::Message &m = messages.at(i);
        if (m.role != history::Role::User)
            continue;
        const bool answered = i + 1 < messages.size()
            && messages.at(i + 1).role == history::Role::Assistant
            && messages.at(i + 1).state == history::MessageState::Complete;
        if (answered) {
            m_history.append({ u"user"_s, m.text });
            m_history.append({ u"assistant"_s, messages.at(i + 1).text });
            m_hasLastExchange = i + 2 == messages.size();
            if (m_hasLastExchange)
                lastExchange = { m.id, messages.at(i + 1).id };
            m_failedPrompt.clear();
            ++i;
        } else {
            m_hasLastExchange = false;
            m_failedPrompt = m.text;
        }
    }
    // The last answer, cut off or interrupted, can be continued (an answer stored before
    // schema 7 cut off with text: as interrupted).
    if (messages.size() >= 2 && messages.constLast().role == history::Role::Assistant
        && messages.at(messages.size() - 2).role == history::Role::User
        && !messages.constLast().text.isEmpty()) {
        const history::Message &a = messages.constLast();
        const retry::AnswerEnd end = a.end != retry::AnswerEnd::None ? a.end
            : a.state == history::MessageState::CutOff               ? retry::AnswerEnd::Interrupted
                                                                     : retry::AnswerEnd::None;
        if (retry::continuable(end)) {
            Continuable c;
            c.prompt = messages.at(messages.size() - 2).text;
            c.text = a.text;
            c.seams = a.seams;
            c.end = end;
            c.inHistory = a.state == history::MessageState::Complete;
            c.promptRow = messages.at(messages.size() - 2).id;
            c.answerRow = a.id;
            m_continuable = c;
        }
    }
    m_stored->show(id, loaded.conversation->profile,
        messages.isEmpty() ? QUuid() : messages.constLast().id, lastExchange);
    if (m_lot) { // a parked send of this conversation is this session's parked prompt
        const QList<history::ParkedSend> parked = m_lot->sendsOf(id);
        if (!parked.isEmpty() && !m_lot->isRunning(parked.constLast().id))
            adoptParked(parked.constLast());
    }
    quint64 highest = 0;
    for (const net::RetryRecord &r : std::as_const(loaded.records))
        highest = std::max(highest, quint64(std::max(0, r.request)));
    m_log->replace(std::move(loaded.records));
    m_client->continueAfter(highest); // new lanes never share a restored lane's number

    RestoredConversation restored;
    restored.id = id;
    restored.title = loaded.conversation->title;
    restored.endpoint = loaded.conversation->endpoint;
    restored.model = loaded.conversation->model;
    restored.profile = loaded.conversation->profile;
    restored.messages = std::move(loaded.messages);
    restored.sends = std::move(loaded.sends);
    restored.costs = std::move(loaded.costs);
    Q_EMIT conversationChanged(id);
    Q_EMIT conversationRestored(restored);
}

} // namespace capwatch::session
