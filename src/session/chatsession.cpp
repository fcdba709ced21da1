#include "chatsession.h"

#include "backgroundsends.h"
#include "history/historystore.h"
#include "sessionlogging.h"

#include <optional>
#include <utility>

namespace capwatch::session {

using namespace Qt::StringLiterals;

ChatSession::ChatSession(QObject *parent)
    : QObject(parent)
    , m_client(new net::ChatClient(this))
    , m_log(new net::RetryLog(this))
{
    wireClient();
    // Each record as it is logged, so a kill in the middle of a retry cycle loses at most one.
    connect(m_log, &net::RetryLog::recordAppended, this, &ChatSession::storeRecord);
}

void ChatSession::wireClient()
{
    m_client->setParent(this);
    m_client->setRetryLog(m_log);
    m_client->setTimeScale(m_timeScale);
    // What the responses say of the provider feeds the memory (pacing, context windows); the
    // steps of a send reach the views through its Send (adopt()).
    connect(m_client, &net::ChatClient::providerReported, this, &ChatSession::onProviderReported);
    connect(m_client, &net::ChatClient::contextOverflowed, this, &ChatSession::onContextOverflow);
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
    applyToClient(m_choice);
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
    if (!busy() || !m_current || !m_writer || m_conversation.isNull()
        || (m_lot && m_lot->runsIn(this)))
        return nullptr;
    auto carried = std::make_unique<ChatSession>();
    ChatSession &c = *carried;
    // Wired as this one.
    c.m_timeScale = m_timeScale;
    c.m_client->setTimeScale(m_timeScale);
    c.m_local = m_local;
    c.m_keychain = m_keychain;
    c.m_keepTranscript = m_keepTranscript;
    c.m_wallClock = m_wallClock;
    c.m_parkingChoice = m_parkingChoice;
    c.m_memory = m_memory;
    c.m_pacingEnabled = m_pacingEnabled;
    c.m_autoTrim = m_autoTrim;
    c.m_resendsAfterTrim = true; // nobody shows it to resend a trimmed prompt by hand
    c.m_fallback = m_fallback;
    c.m_autoFallback = m_autoFallback;
    c.m_plainHttpConsent = m_plainHttpConsent;
    c.setProvider(m_choice); // the demo's users are counted: each session stops it once
    c.driveFromLot(m_lot); // parks as this one would; it shows nothing the lot releases into
    c.m_writer = m_writer;

    // The client with the send in flight goes with it; this session takes the new one, which
    // talks to its provider as set (setProvider() above applied it).
    disconnect(m_client, nullptr, this, nullptr);
    disconnect(c.m_client, nullptr, &c, nullptr);
    std::swap(m_client, c.m_client);
    wireClient();
    c.wireClient();
    c.m_clientOnFallback = std::exchange(m_clientOnFallback, false);
    c.m_fallbackStartedLocal = std::exchange(m_fallbackStartedLocal, false);

    // The send and the conversation it belongs to.
    Send *send = m_current;
    m_current = nullptr;
    disconnect(send, nullptr, this, nullptr);
    send->setParent(&c);
    c.adopt(send);
    c.m_history = std::exchange(m_history, {});
    c.m_conversation = std::exchange(m_conversation, {});
    c.m_conversationProfile = std::exchange(m_conversationProfile, {});
    c.m_lastStoredMessage = std::exchange(m_lastStoredMessage, {});
    c.m_lastStoredPrompt = std::exchange(m_lastStoredPrompt, {});
    c.m_lastStoredAnswer = std::exchange(m_lastStoredAnswer, {});
    c.m_leftOut = std::exchange(m_leftOut, 0);
    c.m_sessionContextWindow = m_sessionContextWindow;
    m_failedPrompt.clear();
    m_hasLastExchange = false;
    m_editing = false;
    ++m_view;
    qCInfo(lcSession) << "send" << send->id() << "goes on in its own conversation"
                      << c.m_conversation.toString(QUuid::WithoutBraces);
    return carried;
}

void ChatSession::adopt(Send *send)
{
    if (m_current && !m_current->state().running())
        m_current->deleteLater(); // one in flight ends by itself (the latest send wins)
    m_current = send;
    // The latest send wins: nothing of an earlier one reaches the views.
    connect(send, &Send::changed, this, [this, send](const SendState &state) {
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
        keepAnswerText(text);
        Q_EMIT answerText(id, text);
    });
    connect(send, &Send::ended, this,
        [this, send](quint64 id, const net::SendSummary &summary) { onEnded(send, id, summary); });
}

void ChatSession::onEnded(Send *send, quint64 id, const net::SendSummary &summary)
{
    if (send != m_current || !current(id)) {
        send->deleteLater(); // superseded while it ran
        return;
    }
    if (m_parkWhenEnded && summary.outcome == net::SendSummary::Outcome::Cancelled) {
        // parkNow(): the user stopped the cycle to send at the reset. It ends as given up (its
        // prompt is the failed one) with the offer made during the wait, and is parked at once.
        const ParkOffer early = *std::exchange(m_parkWhenEnded, std::nullopt);
        net::SendSummary stopped = summary;
        stopped.outcome = net::SendSummary::Outcome::GaveUp;
        finish(send, stopped);
        send->setOffers(early, {});
        send->publish();
        Q_EMIT gaveUp(id, stopped);
        if (current(id))
            park();
        Q_EMIT parkOffered(send->state().park);
        return;
    }
    m_parkWhenEnded.reset();
    finish(send, summary);
    send->publish();
    switch (summary.outcome) {
    case net::SendSummary::Outcome::Succeeded:
        Q_EMIT succeeded(id, summary);
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

Send *ChatSession::ended() const
{
    if (!m_current || !(m_current->state().ended() || m_current->state().isParked()))
        return nullptr;
    return m_current;
}

ChatSession::~ChatSession()
{
    if (m_lot)
        m_lot->detach(this);
    m_client->cancel();
    if ((m_demo || m_fallbackStartedLocal) && m_local)
        m_local->stop();
}

void ChatSession::configure(const SessionSetup &setup)
{
    setTimeScale(setup.timeScale);
    setLocalProvider(setup.localProvider);
    setKeychain(setup.keychain);
    setProviderMemory(setup.memory);
    setParkingChoice(setup.parkingChoice);
    setPacingEnabled(setup.pacing);
    setAutoTrim(setup.autoTrim);
}

void ChatSession::setTimeScale(double scale)
{
    m_timeScale = scale;
    m_client->setTimeScale(scale);
}

void ChatSession::setLocalProvider(LocalProvider *provider)
{
    m_local = provider;
}

void ChatSession::setKeychain(KeychainFactory make)
{
    m_keychain = std::move(make);
}

void ChatSession::setKeepTranscript(bool keep)
{
    m_keepTranscript = keep;
}

void ChatSession::setProvider(const ProviderChoice &choice)
{
    m_choice = choice;
    if (choice.demo && !m_demo) {
        m_demo = true;
        if (const std::optional<ProviderChoice> fallback = sendFallback();
            std::exchange(m_fallbackStartedLocal, false) && fallback) {
            // A demo fallback's send runs on the local provider it started: the session's now.
            m_endpoint = fallback->endpoint;
        } else {
            QString error = u"no local provider"_s;
            m_endpoint = m_local ? m_local->start(m_timeScale, &error) : QUrl();
            if (!m_endpoint.isValid())
                qCWarning(lcSession) << "the demo provider could not start:" << error;
        }
    } else if (!choice.demo && m_demo) {
        // Stopping the local provider ends a send to it; a fallback's send elsewhere goes on.
        if (!fallbackSendRunning() || sendFallback().value_or(ProviderChoice {}).demo)
            m_client->cancel();
        if (m_local)
            m_local->stop();
        m_demo = false;
    }

    if (!m_demo)
        m_endpoint = choice.endpoint;
    // A fallback's send in flight goes on: the client keeps the key source, limits and profile
    // name that send began with, and finish() puts this choice in (restoreClient()).
    if (!fallbackSendRunning()) {
        restoreClient();
        applyToClient(choice);
    }
    if (m_writer && !m_conversation.isNull() && choice.profile != m_conversationProfile) {
        m_conversationProfile = choice.profile; // `updated` stays: it is not a new message
        m_writer->setConversationProfile(m_conversation, choice.profile);
    }
    // The demo serves capwatch-demo; any other endpoint needs a model named (net's one rule).
    const QString named = choice.model.trimmed();
    m_model = !named.isEmpty() ? named
        : m_demo               ? QString::fromUtf16(net::kDemoModel)
                               : net::defaultModelFor(m_endpoint);
    Q_EMIT providerChanged();
}

net::Credential ChatSession::loadNow() const
{
    net::Credential loaded;
    if (const std::shared_ptr<net::CredentialProvider> credentials = m_client->credentialProvider())
        credentials->load([&loaded](const net::Credential &c) { loaded = c; });
    return loaded;
}

KeyStatus ChatSession::keyStatus() const
{
    // The keychain answers later and may ask to be unlocked: it is named, not read.
    if (!m_demo && m_choice.keySource == ProviderChoice::KeySource::Keychain)
        return { KeyStatus::Kind::Named, m_choice.keySourceText };
    const net::Credential loaded = loadNow();
    const QString source = m_demo ? loaded.source : m_choice.keySourceText;
    switch (net::keyUse(loaded, net::chatCompletionsUrl(m_endpoint))) {
    case net::KeyUse::Key:
        return { KeyStatus::Kind::Key, source };
    case net::KeyUse::NotNeeded:
        return { KeyStatus::Kind::NotNeeded, source };
    case net::KeyUse::Missing:
        break;
    }
    return { KeyStatus::Kind::Missing, source };
}

bool ChatSession::keyWouldBeSent() const
{
    if (m_demo)
        return false;
    // A configured keychain counts as a key: it answers later and may ask to be unlocked.
    if (m_choice.keySource == ProviderChoice::KeySource::Keychain)
        return true;
    const std::shared_ptr<net::CredentialProvider> credentials = m_client->credentialProvider();
    if (!credentials)
        return false;
    // The environment and key file answer at once; should one ever answer later, assume a key.
    auto hasKey = std::make_shared<std::optional<bool>>();
    credentials->load([hasKey](const net::Credential &c) { *hasKey = !c.key.isEmpty(); });
    return hasKey->value_or(true);
}

bool ChatSession::needsPlainHttpConsent() const
{
    const QUrl target = net::chatCompletionsUrl(m_endpoint);
    if (!target.isValid() || target.scheme() != u"http" || net::isLoopback(target))
        return false;
    return !m_plainHttpConsent.contains(net::displayEndpoint(target)) && keyWouldBeSent();
}

void ChatSession::allowPlainHttp()
{
    m_plainHttpConsent.insert(net::displayEndpoint(net::chatCompletionsUrl(m_endpoint)));
}

bool ChatSession::consentsToPlainHttp(const ProviderChoice &c) const
{
    const ProviderChoice &own = m_choice;
    const bool same = own.demo == c.demo && own.endpoint == c.endpoint
        && own.keySource == c.keySource && own.keyVariable == c.keyVariable
        && own.keyFile == c.keyFile && own.keychainEntry == c.keychainEntry;
    return same && !needsPlainHttpConsent();
}

bool ChatSession::busy() const
{
    return m_client->busy();
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
        storeReplacedExchange();
    }
    m_editing = false;
    return startSend(prompt, options, Launch());
}

quint64 ChatSession::retryFailed(const SendOptions &options)
{
    if (m_failedPrompt.isEmpty() || busy() || isParked())
        return 0;
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
    storeReplacedExchange(); // its prompt is stored again, with the new send
    return startSend(prompt, options, Launch());
}

quint64 ChatSession::startSend(const QString &prompt, const SendOptions &options, Launch launch)
{
    ++m_restoreToken; // a send wins over a restore still being read
    m_restorePending = false;
    m_hasLastExchange = false;
    m_failedPrompt.clear();
    // After a context error, the provider's own count and window: the next send (the resend of
    // the prompt that overflowed) plans with them, and only it.
    std::optional<qint64> excess;
    std::optional<qint64> named;
    if (m_current) {
        excess = std::exchange(m_current->route().resendExcess, std::nullopt);
        named = std::exchange(m_current->route().resendWindow, std::nullopt);
    }
    // Where this send goes: the fallback's endpoint, model and headers for sendToFallback()'s
    // one send, else the session's own provider (the client back from a fallback's first).
    const std::optional<ProviderChoice> &target = launch.fallback;
    if (!target)
        restoreClient();
    const ProviderChoice &to = target ? *target : m_choice;
    // Made with the client's limits for this send (the fallback's are applied by now). A new
    // prompt while one is parked: that one stays in the lot (its card, the queue) and goes at
    // its reset; the session's send is the new one from now on, with no offer yet.
    Send *send = new Send(m_client, prompt, options, to, target.has_value(), this);
    send->setParksInARow(launch.parksInARow);
    adopt(send);
    Send::Route &route = send->route();
    route.fallback = target;
    // Paced and trimmed by the lane, model and context window of where the send goes.
    route.lane = target ? laneOf(*target) : ownLane(launch.model);
    setLeftOut(m_leftOut); // an edit or a regenerate may have taken turns away
    trimBeforeSend(prompt, options, route.lane, excess.value_or(0), named);
    net::ChatRequest request;
    request.endpoint = target ? target->endpoint : m_endpoint;
    // A parked send goes with the model it was parked with, whatever is chosen now.
    request.model = target ? target->model : launch.model.isEmpty() ? m_model : launch.model;
    request.stream = target ? target->demo || target->stream : m_demo || m_choice.stream;
    request.extraHeaders = to.extraHeaders;
    if (options.systemPrompt)
        request.messages.append({ u"system"_s, *options.systemPrompt });
    // Left-out turns stay in the transcript and the history; only the request goes without them.
    request.messages += m_history.mid(qsizetype(m_leftOut) * 2);
    request.messages.append({ u"user"_s, prompt });
    request.maxTokens = options.maxTokens;
    request.temperature = options.temperature;
    storeSendStart(prompt,
        launch.storedPrompt); // queued before the request goes out (on the next turn of the loop)
    // The whole answer for the transcript; else, bounded, what the history stores of it (the
    // CLI streams on), or nothing.
    send->setAnswerLimit(m_keepTranscript ? -1
            : send->rows().send.isNull()  ? 0
                                          : kMaxStoredAnswerChars + 1);
    send->setModel(request.model);
    send->setLane(route.lane.lane);
    route.lane.model = request.model;
    const net::PacePlan plan = pacePlanFor(request, route.lane);
    route.estimate = plan.estimatedTokens.value_or(0);
    const quint64 id = m_client->send(request, plan);
    if (!send->rows().send.isNull())
        send->rows().request = id;
    return id;
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

void ChatSession::finish(Send *ended, const net::SendSummary &summary)
{
    storeSendEnd(summary);
    ParkOffer park = parkOfferFor(*ended, summary);
    const bool viaFallback = ended->state().viaFallback;
    if (viaFallback && park.parkable) {
        // Parked, it would go to the session's own provider at the fallback's reset.
        park.parkable = false;
        park.refusal = retry::ParkRefusal::NotCapped;
        park.reason = u"Not parked: the send went to the fallback profile."_s;
    }
    ended->setOffers(park, fallbackOfferFor(summary, *ended));
    if (summary.outcome == net::SendSummary::Outcome::Succeeded) {
        if (m_keepTranscript) {
            m_history.append({ u"user"_s, ended->prompt() });
            m_history.append({ u"assistant"_s, ended->answer() });
            m_hasLastExchange = true;
        }
    } else {
        m_failedPrompt = ended->prompt();
    }
    if (viaFallback)
        restoreClient(); // later sends go to the session's own provider
}

SendState ChatSession::sendState() const
{
    if (m_current)
        return m_current->state();
    // Before any send: the numbers and the profile of the next one.
    SendState s;
    s.limits = m_client->policyLimits();
    s.budgetLeft = s.limits.budget;
    s.profileName = m_choice.profileName;
    s.model = m_model;
    return s;
}

} // namespace capwatch::session
