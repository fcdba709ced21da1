#pragma once

// The embedded demo provider: an OpenAI-compatible chat server on 127.0.0.1 that enforces a token
// cap (and can play other failure scenarios), so the retry cycle can be watched without an
// account. It is also the fixture of the network tests, so everything it does is deterministic.
//
// Scenarios (named in scenarios.h; cycles count chat requests from 1):
//  capped           each request counts max_tokens (1000 if absent) against `limit` per rolling
//                   window; over it: 422 "Token limit exceeded: used N, limit M. Retry in X sec."
//                   More than requestLimit chat requests per window: 429 (see "The window")
//  headline         every request: 422 "... used 60323, limit 60000. Retry in 18 min."
//  rate-limited     1, 2: 429 + retry-after: 2; 3: success; and again
//  auth-expired     401 for the first key seen (or none); or, with acceptedKey, for any other key
//  validation       every request: a non-token 422 ({"detail":[...]})
//  flaky            1: 503 + retry-after: 1; 2: connection closed before any header; 3: success.
//                   HTTP clients resend such a request by themselves (QNetworkAccessManager does):
//                   an identical request within 2.5 policy s of a drop (half the shortest backoff)
//                   is taken for that resend and dropped too, so the caller sees the failure.
//  hang             the request is held, never answered, until the client or the provider goes
//  drop-mid-stream  a 200 whose stream (or body) is cut after a few chunks
//  firehose         answerBytes of answer in answerChunks chunks, as fast as the client reads
//  drip             a short streamed answer whose bytes arrive one a second (scaled)
//  huge-error       every request: a token-limit 422 whose body is 1.5 MiB (too large to classify)
//  bad-utf8         a streamed answer whose last chunks carry bytes that are not UTF-8
//  huge-headers     1: 422 headline + 100 KB of extra headers, retry-after: 1 last; 2, 3: success
//  redirect-loop    every request: 307 to itself
//  error-in-200     1: a 200 whose JSON body is an error without choices (a rate limit that says
//                   "Please try again in 2s.", code 429); 2, 3: success
//  error-in-stream  1: a 200 event stream whose first data event is an error ("overloaded"), then
//                   its end; 2, 3: success
//  context          a request whose estimate exceeds contextWindow (default 2000): OpenAI's 400
//                   context_length_exceeded, with the numbers ("This model's maximum context
//                   length is 2000 tokens. However, you requested 2400 tokens (1400 in the
//                   messages, 1000 in the completion). ..."); smaller requests succeed. The
//                   estimate, exactly (a client's trim plan relies on it): the characters
//                   (UTF-16 code units) of the text of EVERY message, whatever its role (system,
//                   user, assistant, ...), summed (a string content, or the `text` parts of an
//                   array joined; roles, names and other members not counted), divided by 4 and
//                   rounded up once for the sum; plus max_tokens (or max_completion_tokens), 1000
//                   when absent. A request that leaves out turns is smaller by their characters.
//  billing          every request: 402 "Insufficient Balance" (DeepSeek's shape)
//  reset            from the first chat request that gets this far (a valid one, after any
//                   headlineFirst) until resetAfterSeconds later: the headline's 422 with the time
//                   left, "Retry in N min." (N sec. under a minute); then success, for good. From
//                   the first request rather than from listen(): the first send sees the whole
//                   wait, however long the user took to type it.
//  length           answers wholeAnswer(prompt) in pieces of maxAnswerTokens tokens (4 characters
//                   each; default 100): a response carries the next N tokens and finish_reason
//                   "length" while more is left, and the one that reaches the end "stop". Usage
//                   counts the response's own characters / 4. maxAnswerTokens 0: every answer is
//                   empty, "length", usage completion_tokens = reasoning_tokens = max_tokens (256
//                   when absent). Streamed or not, new answer or continuation alike.
//  drop             a streamed first answer (wholeAnswer(prompt)) whose connection closes after
//                   dropAfterBytes of its event stream (no terminating chunk, no [DONE]); with
//                   DropWith::Error an error event follows its first content event and the stream
//                   ends. A whole body is cut after dropAfterBytes. A continuation is answered in
//                   full, "stop".
//  daily            answers requestsPerDay chat requests (default 5) per day of the policy clock
//                   (kDayMs, 86,400 policy seconds, counted from listen(), scaled by timeScale);
//                   over it, until the next day begins: OpenRouter's 429 {"error":{"message":
//                   "Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free
//                   model requests per day","code":429}}. No response of this scenario carries an
//                   x-ratelimit-* header, nor retry-after: only the words say what happened.
//                   Counted: the requests that get this far (valid ones, after any headlineFirst).
// costPerMillionTokens (any scenario): the usage of every answer (a whole body's, or a stream's
// usage chunk when include_usage is asked) ends with OpenRouter's "cost", (prompt_tokens +
// completion_tokens) * rate / 1e6, a number of credits.
// Continuations (length, drop; continuation.h): a request whose messages end with an assistant
// message P, or with P and then a user message that starts with "Continue exactly where"
// (trimmed), continues P. Its prompt is the nearest user message before P; its answer is
// continuationOverlap(P) (P's tail from its third-last word, at most 64 characters) followed by
// wholeAnswer(prompt) after its longest common prefix with P. The other scenarios answer a
// continuation as any request.
// messageLanguage ru or zh: capped, headline and reset (and headlineFirst) speak Russian or
// Chinese, as the reporter's provider did: 422 {"error":"Превышен лимит completion-токенов:
// использовано 60323, лимит 60000. Повторите попытку через 18 мин."}. Success bodies (streamed as
// chunked SSE or not) are friendly texts about the cap. Whatever the scenario, a chat request that
// would get an answer is first checked as real providers do: no messages, an empty (or blank) last
// user message, or no (or a blank) model get a 400 in OpenAI's shape
// {"error":{"message","type":"invalid_request_error","param","code":null}}; with
// refuseStreamOptions, so does a request with a `stream_options` member ("Unrecognized request
// argument supplied: stream_options", param and code null), as providers that do not know it do.
//
// The window, as OpenAI reports it: every response of a chat request (success, every error,
// streamed or not, the 400s above; not a dropped connection, a held `hang` or `daily`) carries
// x-ratelimit-limit-requests, x-ratelimit-limit-tokens, x-ratelimit-remaining-requests,
// x-ratelimit-remaining-tokens, x-ratelimit-reset-requests and x-ratelimit-reset-tokens.
// remaining = limit - what the rolling window (windowSeconds) holds once this request was
// counted; reset = the time until every counted entry has left the window (0s when empty), a Go
// duration in policy time ("59.98s", "6m0s", "20ms", "0s"; the texts and headers stay in policy
// seconds under timeScale). Tokens: each answered request counts its max_tokens (1000 if absent;
// never the prompt, so a client estimate that adds the prompt is conservative) against `limit`;
// in capped that is the enforced window (a 422 reports the window as it stands without the
// refused request), elsewhere the same window is only reported. Requests: every chat request
// (but a transparent resend, and one refused by this limit) counts 1 against requestLimit; in
// capped over it a 429 {"error":{"message":"Rate limit reached for requests ... Please try again
// in 1.5s. ...","type":"requests","param":null,"code":"rate_limit_exceeded"}} with retry-after
// (whole seconds, rounded up) comes before anything else is checked.

#include "recordedrequest.h"
#include "tokenwindow.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QList>
#include <QMutex>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <QtGlobal>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <utility>

class QHttpServer;
class QHttpServerRequest;
class QHttpServerResponder;
class QTcpServer;

namespace capwatch::demo::wire {
struct Finish;
struct WindowState;
} // namespace capwatch::demo::wire

namespace capwatch::demo {

/// drop: how a first (not continued) streamed answer is cut.
enum class DropWith
{
    Close, ///< the connection closes after dropAfterBytes of the event stream
    Error, ///< an error event follows the first content event, then the stream ends
};

struct DemoOptions
{
    QString scenario = QStringLiteral("capped");
    qint64 limit = 6000; ///< token cap per window
    double windowSeconds = 60; ///< rolling window, policy seconds
    /// 0 < F <= 1: every delay/window runs F times as long on the wall clock; texts stay in
    /// policy seconds.
    double timeScale = 1.0;
    int chunkDelayMs = 20; ///< policy ms between streamed chunks (scaled)
    qint64 answerBytes = 0; ///< >0: the `firehose` scenario streams this many bytes of answer ...
    int answerChunks = 0; ///< ... in this many chunks, as fast as possible (benchmarks)
    /// auth-expired: the only key accepted (empty: any key but the first one seen).
    QByteArray acceptedKey;
    /// The first N chat requests get the headline token-limit 422, whatever the scenario.
    int headlineFirst = 0;
    /// en, ru or zh: the language of the token-limit 422s (capped, headline, reset,
    /// headlineFirst).
    QString messageLanguage = QStringLiteral("en");
    /// context: the most tokens a request may ask for (prompt estimate + max_tokens).
    qint64 contextWindow = 2000;
    /// Chat requests per window: reported in every scenario, enforced (429) in capped.
    qint64 requestLimit = 1000;
    /// A request with a `stream_options` member gets OpenAI's 400 for an unknown argument.
    bool refuseStreamOptions = false;
    /// reset: policy seconds from the first chat request until the cap frees (scaled).
    double resetAfterSeconds = 180;
    /// length: the most tokens (4 characters each) of new text a response carries; the
    /// response that reaches the end of the whole answer stops with "stop", every other one
    /// with "length". The default makes the answer to a short prompt ("hi") need exactly one
    /// continuation. 0: every answer is empty, its output budget spent on reasoning.
    qint64 maxAnswerTokens = 100;
    /// drop: the bytes of a first answer's event stream (or whole body) that go out before the
    /// connection closes. The default lets the role chunk and two content chunks (six words)
    /// through and cuts the third one, for a model name of up to about 40 characters (each
    /// event repeats it) and a short prompt.
    qint64 dropAfterBytes = 680;
    DropWith dropWith = DropWith::Close;
    /// Set: every answer's usage has OpenRouter's "cost" (credits, USD), (prompt_tokens +
    /// completion_tokens) * this / 1e6, streamed (in the usage chunk, when include_usage is
    /// asked) or not. Unset (the default): no cost, as OpenAI. From 0, finite.
    std::optional<double> costPerMillionTokens;
    /// daily: the chat requests answered per day of the policy clock (kDayMs from listen(),
    /// scaled by timeScale like every window); over it a 429 in OpenRouter's words, without any
    /// header that says a limit or a reset.
    qint64 requestsPerDay = 5;
};

class DemoExchange;
struct DemoChatRequest;

class DemoProvider final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoProvider)

public:
    explicit DemoProvider(QObject *parent = nullptr);
    ~DemoProvider() override;

    /// The names of scenarioTable(): capped, headline, rate-limited, ...
    static QStringList scenarios();
    /// daily: the length of the demo's day in policy ms (a day of 86,400 policy seconds, which
    /// --time-scale shortens on the wall clock as every window).
    static constexpr double kDayMs = 86'400'000;
    /// en, ru, zh.
    static QStringList messageLanguages();
    /// The whole answer `length` and `drop` give to `prompt` (a request's last user message, or
    /// a continuation's original prompt): what a client that continued a cut answer to the end
    /// must hold. See continuation.h.
    static QString wholeAnswer(const QString &prompt);
    /// What a continuation of the answer so far, `partial`, repeats before the rest: the tail of
    /// partial from its third-last word, at most 64 characters (continuation.h).
    static QString continuationOverlap(const QString &partial);

    /// Call before listen(), which validates the options. Called while listening (a slot of
    /// chatRequestReceived may rotate acceptedKey), the new options apply from the request being
    /// handled on; an invalid set is refused with a warning. Keep timeScale as it was: the
    /// window already recorded is in policy time.
    void setOptions(const DemoOptions &options);
    const DemoOptions &options() const;
    /// The time the windows and the reset count in, in policy ms: by default the wall clock
    /// since listen(), divided by timeScale. A test passes its own (a frozen time it moves on)
    /// to assert the window's arithmetic without racing the wall clock; empty: the default.
    void setPolicyClock(std::function<double()> nowMs);

    /// Listens on 127.0.0.1 only (0: any free port). False + errorString() on failure (invalid
    /// options, port in use, already listening). The same as reserve() then serve().
    bool listen(quint16 port = 0);
    /// Takes the port, as listen() does, and accepts no connection yet: one that comes waits in
    /// the port's backlog until serve(). The HTTP server is not built before serve(): Qt HTTP
    /// Server loads the TLS backend (OpenSSL, 4.4 MiB resident) when it is built, which a window
    /// that starts with the demo has no need of before its first paint.
    bool reserve(quint16 port = 0);
    /// Builds the HTTP server on the reserved port and accepts the connections that waited.
    /// Nothing without a reserve(); nothing the second time.
    void serve();
    bool isServing() const;
    bool isListening() const;
    QString errorString() const;
    quint16 port() const;
    QUrl baseUrl() const; ///< http://127.0.0.1:P/v1
    int chatRequests() const; ///< POST /v1/chat/completions received so far

    /// Every request received (any path or method), oldest first. Bounded: the last
    /// kRecordedRequestLimit are kept, bodies over kRecordedBodyLimit stored cut. Thread-safe.
    QList<RecordedRequest> recordedRequests() const;
    void clearRecordedRequests();
    /// Whether any recorded request (any path) carried `key` as its Bearer key. A test of a
    /// fallback asserts with it that one profile's key never reached another's provider.
    bool sawKey(const QByteArray &key) const;
    /// How many recorded requests carried no Bearer key at all.
    int requestsWithoutKey() const;
    static constexpr qsizetype kRecordedRequestLimit = 1000;
    static constexpr qsizetype kRecordedBodyLimit = 1024 * 1024;

    /// Responses still held open: streams in progress and `hang` requests. Falls back to 0 once
    /// they finish or their clients go away (tests use it to prove nothing is kept).
    int openResponses() const;

Q_SIGNALS:
    /// Emitted synchronously when a chat request arrives, BEFORE it is answered (tests rotate
    /// keys in a slot). Index is 1-based, as chatRequests().
    void chatRequestReceived(int index, const QByteArray &authorizationHeader);

private:
    struct ChatCall;

    static QString validate(const DemoOptions &options);
    void buildServer();
    void record(const QHttpServerRequest &request);
    void handleModels(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    void handleMissing(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    // A chat request goes through these steps in turn; each returns true when it answered.
    void handleChat(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    /// flaky: the client's own resend of a request whose connection was dropped.
    bool isTransparentResend(ChatCall &call);
    /// The scenarios that fail before the body is read, as a gateway in front of a model would.
    bool refuseBeforeBody(const ChatCall &call);
    bool keyAccepted(const ChatCall &call);
    /// The scenarios that fail on what the (valid) request asks for.
    bool refuseAfterParse(const ChatCall &call, const DemoChatRequest &chat);
    /// Counts the request in the requests window; capped over requestLimit: the 429.
    bool refuseOverRequestLimit(const ChatCall &call);
    /// The windows take the options' limits (which may change while listening).
    void syncWindowLimits();
    /// The windows as they stand now.
    wire::WindowState windowState();
    /// The x-ratelimit-* headers of the window as it stands now.
    QList<std::pair<QByteArray, QByteArray>> windowHeaders();
    /// The window a fixed 422 tells of ("used 60323, limit 60000. Retry in ..."): 60,000
    /// tokens, none left, for `resetMs` (the requests part is the demo's own). A response never
    /// contradicts its own body.
    QList<std::pair<QByteArray, QByteArray>> headlineWindowHeaders(double resetMs);
    void answer(const ChatCall &call, const DemoChatRequest &chat);
    void answerFirehose(const ChatCall &call, const DemoChatRequest &chat);
    /// length: the next piece of the whole answer, "length" until it reaches the end.
    void answerLength(const ChatCall &call, const DemoChatRequest &chat);
    /// drop: a first answer cut (or broken by an error event); a continuation in full.
    void answerDrop(const ChatCall &call, const DemoChatRequest &chat);
    /// A 200 with `text`, streamed (timed chunks, usage when asked, [DONE]) or whole.
    void sendAnswer(const ChatCall &call, const DemoChatRequest &chat, const QString &text,
        const wire::Finish &finish);
    /// A 200 JSON body announced whole (Content-Length) of which `bytes` go out (at most all
    /// but its last byte) before the connection closes.
    void sendBodyCut(const ChatCall &call, const QByteArray &body, qsizetype bytes);
    double policyNowMs() const;
    DemoExchange *startExchange(QHttpServerResponder &&responder);
    void finishExchange(quint64 id, const char *why);

    DemoOptions m_options;
    QString m_errorString;
    std::unique_ptr<QHttpServer> m_server;
    QTcpServer *m_tcpServer = nullptr; // owned by m_server
    QElapsedTimer m_clock;
    std::function<double()> m_policyClock; // empty: m_clock scaled
    TokenWindow m_window; // tokens, policy ms: enforced in capped, reported everywhere
    TokenWindow m_requestWindow; // chat requests, policy ms: enforced in capped
    double m_resetFromMs = -1; // reset: policy ms of the first request, -1 before it
    qint64 m_day = 0; // daily: the day of the policy clock m_answeredToday counts in
    qint64 m_answeredToday = 0; // daily: the chat requests answered in m_day
    QByteArray m_expiredKeyHash; // auth-expired: hash of the first key seen, never the key
    std::map<quint64, DemoExchange *> m_exchanges; // children; finished ones go by deleteLater
    quint64 m_nextExchangeId = 1;
    int m_chatRequests = 0;
    int m_cycleRequests = 0; // chat requests less transparent resends of a dropped one
    QByteArray m_droppedFingerprint; // flaky: hash of the request last dropped
    qint64 m_droppedAtMs = 0; // wall ms on m_clock
    mutable QMutex m_recordedMutex; // guards m_recorded: tests read it from other threads
    std::deque<RecordedRequest> m_recorded;
};

} // namespace capwatch::demo
