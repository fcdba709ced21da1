#include "demoprovider.h"

#include "continuation.h"
#include "demoexchange.h"
#include "demoprovider_p.h"
#include "demorequest.h"
#include "logging.h"
#include "scenarios.h"
#include "wireformat.h"

#include <QHostAddress>
#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMetaEnum>
#include <QMutexLocker>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <utility>

namespace capwatch::demo {

using namespace wire;

namespace {

QByteArray methodName(QHttpServerRequest::Method method)
{
    return QByteArray(QMetaEnum::fromType<QHttpServerRequest::Method>().valueToKey(int(method)))
        .toUpper();
}

} // namespace

DemoProvider::DemoProvider(QObject *parent)
    : QObject(parent)
    , m_window(m_options.limit, m_options.windowSeconds * 1000)
    , m_requestWindow(m_options.requestLimit, m_options.windowSeconds * 1000)
{
    m_clock.start();
}

void DemoProvider::buildServer()
{
    // Clients send it their keys: Qt HTTP Server's request dumps must never print them.
    keepRequestHeadersOutOfLogs();
    m_server = std::make_unique<QHttpServer>();
    m_server->route(QStringLiteral("/v1/chat/completions"),
        [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
            handleChat(request, std::move(responder));
        });
    m_server->route(QStringLiteral("/v1/models"),
        [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
            handleModels(request, std::move(responder));
        });
    m_server->setMissingHandler(
        [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
            handleMissing(request, std::move(responder));
        });
}

DemoProvider::~DemoProvider()
{
    // Held responses first (their timers must not fire into a dying server), then the server,
    // which closes every connection still open.
    for (const auto &[id, exchange] : m_exchanges) {
        exchange->stop();
        delete exchange;
    }
    m_exchanges.clear();
    m_server.reset();
}

QStringList DemoProvider::scenarios()
{
    return scenarioNames();
}

QStringList DemoProvider::messageLanguages()
{
    return { QStringLiteral("en"), QStringLiteral("ru"), QStringLiteral("zh") };
}

QString DemoProvider::wholeAnswer(const QString &prompt)
{
    return demo::wholeAnswer(prompt);
}

QString DemoProvider::continuationOverlap(const QString &partial)
{
    return demo::continuationOverlap(partial);
}

QString DemoProvider::validate(const DemoOptions &options)
{
    // The provider's own words, like its error bodies: English (see wireformat.h).
    if (!scenarioNamed(options.scenario))
        return QStringLiteral("Unknown demo scenario \"%1\" (known: %2)")
            .arg(options.scenario, scenarios().join(QStringLiteral(", ")));
    if (options.limit <= 0)
        return QStringLiteral("The token limit must be positive.");
    if (options.requestLimit <= 0)
        return QStringLiteral("The request limit must be positive.");
    if (!(options.windowSeconds > 0))
        return QStringLiteral("The window must be longer than 0 s.");
    if (!(options.timeScale > 0 && options.timeScale <= 1))
        return QStringLiteral("The time scale must be in (0, 1].");
    if (options.chunkDelayMs < 0 || options.answerBytes < 0 || options.answerChunks < 0)
        return QStringLiteral("Delays and sizes must not be negative.");
    if (!messageLanguages().contains(options.messageLanguage))
        return QStringLiteral("Unknown message language \"%1\" (known: %2)")
            .arg(options.messageLanguage, messageLanguages().join(QStringLiteral(", ")));
    if (options.contextWindow <= 0)
        return QStringLiteral("The context window must be positive.");
    if (!(options.resetAfterSeconds > 0))
        return QStringLiteral("The reset must come later than 0 s.");
    if (options.maxAnswerTokens < 0 || options.dropAfterBytes < 0)
        return QStringLiteral("The answer limit and the drop point must not be negative.");
    if (options.costPerMillionTokens
        && !(std::isfinite(*options.costPerMillionTokens) && *options.costPerMillionTokens >= 0))
        return QStringLiteral("The cost per million tokens must be a number from 0.");
    if (options.requestsPerDay <= 0)
        return QStringLiteral("The requests per day must be positive.");
    return {};
}

void DemoProvider::setOptions(const DemoOptions &options)
{
    if (m_tcpServer) {
        const QString error = validate(options);
        if (!error.isEmpty()) {
            qCWarning(lcDemo, "demo options refused: %ls", qUtf16Printable(error));
            return;
        }
    }
    m_options = options;
}

const DemoOptions &DemoProvider::options() const
{
    return m_options;
}

bool DemoProvider::listen(quint16 port)
{
    if (!reserve(port))
        return false;
    serve();
    return true;
}

bool DemoProvider::reserve(quint16 port)
{
    if (m_tcpServer) {
        m_errorString = QStringLiteral("The demo provider is already listening.");
        return false;
    }
    m_errorString = validate(m_options);
    if (!m_errorString.isEmpty())
        return false;
    // A child until serve() hands it to the HTTP server.
    auto tcpServer = std::make_unique<QTcpServer>(this);
    if (!tcpServer->listen(QHostAddress::LocalHost, port)) {
        m_errorString = QStringLiteral("Cannot listen on 127.0.0.1:%1: %2")
                            .arg(QString::number(port), tcpServer->errorString());
        return false;
    }
    tcpServer->pauseAccepting();
    m_tcpServer = tcpServer.release();
    m_clock.restart();
    m_window.clear();
    m_requestWindow.clear();
    m_resetFromMs = -1;
    m_day = 0;
    m_answeredToday = 0;
    qCInfo(lcDemo, "demo provider listening on http://127.0.0.1:%u/v1, scenario %ls",
        unsigned(m_tcpServer->serverPort()), qUtf16Printable(m_options.scenario));
    return true;
}

void DemoProvider::serve()
{
    if (!m_tcpServer || m_server)
        return;
    buildServer();
    m_server->bind(m_tcpServer); // takes ownership
    m_tcpServer->resumeAccepting();
}

bool DemoProvider::isServing() const
{
    return m_server != nullptr;
}

bool DemoProvider::isListening() const
{
    return m_tcpServer && m_tcpServer->isListening();
}

QString DemoProvider::errorString() const
{
    return m_errorString;
}

quint16 DemoProvider::port() const
{
    return m_tcpServer ? m_tcpServer->serverPort() : 0;
}

QUrl DemoProvider::baseUrl() const
{
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(QStringLiteral("127.0.0.1"));
    url.setPort(port());
    url.setPath(QStringLiteral("/v1"));
    return url;
}

int DemoProvider::chatRequests() const
{
    return m_chatRequests;
}

int DemoProvider::openResponses() const
{
    return int(m_exchanges.size());
}

QList<RecordedRequest> DemoProvider::recordedRequests() const
{
    const QMutexLocker lock(&m_recordedMutex);
    return QList<RecordedRequest>(m_recorded.cbegin(), m_recorded.cend());
}

void DemoProvider::clearRecordedRequests()
{
    const QMutexLocker lock(&m_recordedMutex);
    m_recorded.clear();
}

bool DemoProvider::sawKey(const QByteArray &key) const
{
    if (key.isEmpty())
        return false;
    const QByteArray hash = keyHash(key);
    const QMutexLocker lock(&m_recordedMutex);
    return std::any_of(m_recorded.cbegin(), m_recorded.cend(),
        [&hash](const RecordedRequest &r) { return r.keyHash == hash; });
}

int DemoProvider::requestsWithoutKey() const
{
    const QMutexLocker lock(&m_recordedMutex);
    return int(std::count_if(m_recorded.cbegin(), m_recorded.cend(),
        [](const RecordedRequest &r) { return r.keyHash.isEmpty(); }));
}

void DemoProvider::record(const QHttpServerRequest &request)
{
    RecordedRequest recorded;
    recorded.method = methodName(request.method());
    recorded.path = request.url().path().toUtf8();
    for (const auto &[name, value] : request.headers()) {
        if (name.compare("authorization", Qt::CaseInsensitive) != 0) {
            recorded.headers.append({ name, value });
            continue;
        }
        // The key never goes into the record, only the scheme and the key's hash.
        const bool bearer = value.trimmed().toLower().startsWith("bearer");
        if (const QByteArray key = bearerKey(value); !key.isEmpty() && recorded.keyHash.isEmpty())
            recorded.keyHash = keyHash(key);
        recorded.headers.append(
            { name, bearer ? QByteArrayLiteral("Bearer ***") : QByteArrayLiteral("***") });
    }
    const QByteArray body = request.body();
    recorded.bodyCut = body.size() > kRecordedBodyLimit;
    recorded.body = recorded.bodyCut ? body.first(kRecordedBodyLimit) : body;
    const QMutexLocker lock(&m_recordedMutex);
    m_recorded.push_back(std::move(recorded));
    while (qsizetype(m_recorded.size()) > kRecordedRequestLimit)
        m_recorded.pop_front();
}

void DemoProvider::setPolicyClock(std::function<double()> nowMs)
{
    m_policyClock = std::move(nowMs);
}

double DemoProvider::policyNowMs() const
{
    if (m_policyClock)
        return m_policyClock();
    return double(m_clock.nsecsElapsed()) / 1e6 / m_options.timeScale;
}

DemoExchange *DemoProvider::startExchange(QHttpServerResponder &&responder)
{
    const quint64 id = m_nextExchangeId++;
    auto *exchange = new DemoExchange(
        std::move(responder), [this, id](const char *why) { finishExchange(id, why); }, this);
    m_exchanges.emplace(id, exchange);
    return exchange;
}

void DemoProvider::finishExchange(quint64 id, const char *why)
{
    const auto it = m_exchanges.find(id);
    if (it == m_exchanges.end())
        return;
    DemoExchange *exchange = it->second;
    m_exchanges.erase(it);
    exchange->stop();
    // Often called from the exchange's own timer or socket signal.
    exchange->deleteLater();
    if (why)
        qCInfo(lcDemo, "response %llu ended: %s", static_cast<unsigned long long>(id), why);
}

void DemoProvider::handleModels(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    record(request);
    if (request.method() != QHttpServerRequest::Method::Get) {
        sendJson(responder, Status::MethodNotAllowed,
            errorBody(QStringLiteral("Only GET is allowed on /v1/models.")),
            { { QByteArrayLiteral("Allow"), QByteArrayLiteral("GET") } });
        return;
    }
    qCInfo(lcDemo, "GET /v1/models -> 200");
    sendJson(responder, Status::Ok, modelsBody());
}

void DemoProvider::handleMissing(
    const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    record(request);
    const QString method = QString::fromLatin1(methodName(request.method()));
    qCInfo(
        lcDemo, "%ls %ls -> 404", qUtf16Printable(method), qUtf16Printable(request.url().path()));
    sendJson(responder, Status::NotFound,
        errorBody(QStringLiteral("Invalid URL (%1 %2)").arg(method, request.url().path())));
}

void DemoProvider::handleChat(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    record(request);
    if (request.method() != QHttpServerRequest::Method::Post) {
        sendJson(responder, Status::MethodNotAllowed,
            errorBody(QStringLiteral("Only POST is allowed on /v1/chat/completions.")),
            { { QByteArrayLiteral("Allow"), QByteArrayLiteral("POST") } });
        return;
    }
    const int index = ++m_chatRequests;
    const QByteArray authorization = request.value(QByteArrayLiteral("Authorization"));
    Q_EMIT chatRequestReceived(index, authorization);

    // Read after the signal: a slot may have changed the options.
    ChatCall call { this, request, responder, m_options, index,
        scenarioNamed(m_options.scenario).value_or(Scenario::Capped), 0, authorization, {} };
    if (isTransparentResend(call))
        return call.dropConnection("transparent resend of a dropped request, dropped too");
    // Cycles count requests, not resends, so they are deterministic per provider.
    call.position = (++m_cycleRequests - 1) % 3;

    if (refuseOverRequestLimit(call) || refuseBeforeBody(call))
        return;
    DemoChatRequest chat;
    const InvalidRequest invalid = parseChatRequest(request.body(), chat);
    if (!invalid.message.isEmpty())
        return call.reply(Status::BadRequest, errorBody(invalid.message, invalid.param));
    if (m_options.refuseStreamOptions && chat.hasStreamOptions)
        return call.reply(
            Status::BadRequest, unrecognizedArgumentBody(QStringLiteral("stream_options")));
    if (refuseAfterParse(call, chat))
        return;
    answer(call, chat);
}

void DemoProvider::syncWindowLimits()
{
    const double windowMs = m_options.windowSeconds * 1000;
    m_window.setLimits(m_options.limit, windowMs);
    m_requestWindow.setLimits(m_options.requestLimit, windowMs);
}

WindowState DemoProvider::windowState()
{
    const double now = policyNowMs();
    syncWindowLimits();
    WindowState state;
    state.limitRequests = m_requestWindow.limit();
    state.remainingRequests = m_requestWindow.remaining(now);
    state.resetRequestsMs = m_requestWindow.msUntilEmpty(now);
    state.limitTokens = m_window.limit();
    state.remainingTokens = m_window.remaining(now);
    state.resetTokensMs = m_window.msUntilEmpty(now);
    return state;
}

HeaderPairs DemoProvider::windowHeaders()
{
    return rateLimitHeaders(windowState());
}

HeaderPairs DemoProvider::headlineWindowHeaders(double resetMs)
{
    WindowState state = windowState();
    // "used 60323, limit 60000. Retry in 18 min." (reset: the minutes it names)
    state.limitTokens = 60'000;
    state.remainingTokens = 0;
    state.resetTokensMs = resetMs;
    return rateLimitHeaders(state);
}

bool DemoProvider::refuseOverRequestLimit(const ChatCall &call)
{
    const double now = policyNowMs();
    syncWindowLimits();
    if (call.scenario != Scenario::Capped || m_requestWindow.fits(now, 1)) {
        m_requestWindow.admit(now, 1);
        return false;
    }
    const auto waitMs = qint64(std::ceil(m_requestWindow.msUntilFits(now, 1)));
    const qint64 retryAfter = std::max<qint64>(1, (waitMs + 999) / 1000);
    call.reply(Status::TooManyRequests,
        requestLimitBody(
            m_requestWindow.limit(), m_requestWindow.used(), call.options.windowSeconds, waitMs),
        { { QByteArrayLiteral("retry-after"), QByteArray::number(retryAfter) } });
    return true;
}

bool DemoProvider::isTransparentResend(ChatCall &call)
{
    // flaky: HTTP clients (QNetworkAccessManager among them) transparently resend a request whose
    // connection closed before any response header, so a single drop would never reach the
    // caller. A byte-identical repeat that comes after the drop sooner than nine tenths of the
    // shortest backoff the retry policy allows after a dropped connection (5 s, scaled; at most
    // 1 s) is such a resend: it is dropped too and does not advance the cycle. (Half of it was too
    // little: on a loaded machine Qt's resend came 130 ms after the drop at scale 0.05.)
    if (call.scenario == Scenario::Flaky)
        call.fingerprint = keyHash(call.authorization + '\n' + call.request.body());
    if (m_droppedFingerprint.isEmpty())
        return false;
    const double graceMs = std::min(1000.0, 4500 * call.options.timeScale);
    if (call.fingerprint == m_droppedFingerprint && m_clock.elapsed() - m_droppedAtMs <= graceMs) {
        m_droppedAtMs = m_clock.elapsed();
        return true;
    }
    m_droppedFingerprint.clear();
    return false;
}

bool DemoProvider::refuseBeforeBody(const ChatCall &call)
{
    const DemoOptions &o = call.options;
    // The headline 422 for the first requests of any scenario: one retry cycle, then the
    // scenario's own behaviour (demos, and tests of a cycle that ends in a long answer).
    if (call.index <= o.headlineFirst) {
        call.replyHeadline(headlineBody(o.messageLanguage));
        return true;
    }
    // Failures that come before the body is even looked at, as from a gateway in front of the
    // model.
    switch (call.scenario) {
    case Scenario::Headline:
        call.replyHeadline(headlineBody(o.messageLanguage));
        return true;
    case Scenario::Validation:
        call.reply(Status::UnprocessableEntity, validationBody());
        return true;
    case Scenario::RateLimited:
        if (call.position >= 2)
            return false;
        call.reply(Status::TooManyRequests, rateLimitBody(),
            { { QByteArrayLiteral("retry-after"), QByteArrayLiteral("2") } });
        return true;
    case Scenario::Flaky:
        if (call.position == 0) {
            call.reply(Status::ServiceUnavailable, overloadedBody(),
                { { QByteArrayLiteral("retry-after"), QByteArrayLiteral("1") } });
            return true;
        }
        if (call.position == 1) {
            m_droppedFingerprint = call.fingerprint;
            m_droppedAtMs = m_clock.elapsed();
            call.dropConnection("connection dropped before any header");
            return true;
        }
        return false;
    case Scenario::AuthExpired:
        if (keyAccepted(call))
            return false;
        call.reply(Status::Unauthorized, authBody());
        return true;
    case Scenario::HugeError:
        call.reply(Status::UnprocessableEntity, hugeErrorBody());
        return true;
    case Scenario::HugeHeaders: {
        if (call.position != 0)
            return false;
        // The one header that matters comes last, after 100 KB of others.
        HeaderPairs headers = fillerHeaders();
        headers.append({ QByteArrayLiteral("retry-after"), QByteArrayLiteral("1") });
        call.replyHeadline(headlineBody(o.messageLanguage), headers);
        return true;
    }
    case Scenario::RedirectLoop:
        // To itself, for ever: a client must give up after a few hops.
        call.reply(Status::TemporaryRedirect,
            errorBody(QStringLiteral("Moved to %1").arg(call.request.url().path())),
            { { QByteArrayLiteral("Location"), call.request.url().path().toUtf8() } });
        return true;
    case Scenario::Billing:
        call.reply(Status::PaymentRequired, billingBody());
        return true;
    case Scenario::Hang:
        call.log("held, never answered");
        startExchange(std::move(call.responder));
        return true;
    default:
        return false;
    }
}

bool DemoProvider::keyAccepted(const ChatCall &call)
{
    const QByteArray key = bearerKey(call.authorization);
    if (!call.options.acceptedKey.isEmpty())
        return key == call.options.acceptedKey;
    if (key.isEmpty())
        return false;
    const QByteArray hash = keyHash(key);
    if (m_expiredKeyHash.isEmpty())
        m_expiredKeyHash = hash;
    return hash != m_expiredKeyHash;
}

bool DemoProvider::refuseAfterParse(const ChatCall &call, const DemoChatRequest &chat)
{
    switch (call.scenario) {
    case Scenario::Context: {
        const qint64 prompt = tokensOf(chat.promptChars);
        const qint64 completion = chat.maxTokens > 0 ? chat.maxTokens : kDefaultMaxTokens;
        if (prompt + completion <= call.options.contextWindow)
            return false;
        call.reply(
            Status::BadRequest, contextLengthBody(call.options.contextWindow, prompt, completion));
        return true;
    }
    case Scenario::Reset: {
        const double now = policyNowMs();
        if (m_resetFromMs < 0)
            m_resetFromMs = now;
        // Elapsed first: (from + wait) - now can come out a hair over the wait at the first
        // request (9385.958677423489 + 30000 - itself is 30000.000000000004), and "31 sec" would
        // be said where 30 was meant.
        const double msLeft = call.options.resetAfterSeconds * 1000 - (now - m_resetFromMs);
        if (msLeft <= 0)
            return false;
        call.replyHeadline(resetBody(call.options.messageLanguage, msLeft), {}, msLeft);
        return true;
    }
    case Scenario::Daily: {
        // Days of the policy clock from listen(): at each boundary the count starts again, as
        // OpenRouter's free-model count does at UTC midnight.
        const auto day = qint64(std::floor(policyNowMs() / kDayMs));
        if (day != m_day) {
            m_day = day;
            m_answeredToday = 0;
        }
        if (m_answeredToday < call.options.requestsPerDay) {
            ++m_answeredToday;
            return false;
        }
        // Only the words: no retry-after, and no x-ratelimit-* (call.windowHeaders()).
        call.reply(Status::TooManyRequests, dailyLimitBody());
        return true;
    }
    case Scenario::ErrorIn200:
        // JSON even when a stream was asked for, as such gateways do.
        if (call.position != 0)
            return false;
        call.reply(Status::Ok, errorIn200Body());
        return true;
    case Scenario::ErrorInStream:
        if (call.position != 0)
            return false;
        call.log("200, stream whose first event is an error");
        call.startStream();
        startExchange(std::move(call.responder))
            ->playTimed(
                { httpChunk(ChunkFormat::event(errorInStreamEvent())) + lastHttpChunk() }, 0, -1);
        return true;
    default:
        return false;
    }
}

} // namespace capwatch::demo
