#pragma once

// What the demo provider puts on the wire: its canned bodies (byte for byte what the spec and
// the tests expect, member order included, which QJsonObject would sort), OpenAI's chunk and
// completion formats, and chunked transfer framing. No server in here: every function is pure.
//
// The texts are the provider's words, as a real provider's are: English (or the Russian and
// Chinese of messageLanguage), never translated into the user's language.

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>
#include <utility>

namespace capwatch::demo::wire {

using HeaderPairs = QList<std::pair<QByteArray, QByteArray>>;

constexpr qint64 kDefaultMaxTokens = 1000;
/// huge-error: an error body this large, over the 1 MiB that is classified.
constexpr qsizetype kHugeErrorBytes = 1536 * 1024;
/// huge-headers: this much of extra response headers, in lines of about kFillerLineBytes (40
/// large fields: Qt's HTTP client takes at most 100 fields, however small).
constexpr qsizetype kHugeHeaderBytes = 100 * 1024;
constexpr qsizetype kFillerLineBytes = 2560;
constexpr int kWordsPerChunk = 3;

/// About 4 characters per token, as OpenAI's rule of thumb.
constexpr qint64 tokensOf(qsizetype chars)
{
    return (chars + 3) / 4;
}

/// JSON string literal (quotes included) of UTF-8 text. Hand-rolled because the firehose calls it
/// tens of thousands of times per answer.
void appendJsonString(QByteArray &out, QByteArrayView utf8);
QByteArray jsonString(const QString &text);

/// OpenAI's error shape: {"error":{"message":..,"type":..,"param":..,"code":..}}, with param and
/// code null when empty.
QByteArray errorBody(const QString &message, const QString &param = {},
    const QByteArray &type = QByteArrayLiteral("invalid_request_error"), const QString &code = {});

// The canned bodies of the scenarios.
QByteArray headlineBody(const QString &language);
/// capped's 422 body over the cap: used, limit and the seconds until the request fits.
QByteArray cappedBody(const QString &language, qint64 used, qint64 limit, qint64 seconds);
/// reset's 422 body: the headline's figures and the time left until the cap frees, rounded up, in
/// minutes from 60 s on (as the headline says "Retry in 18 min."), in seconds below.
QByteArray resetBody(const QString &language, double msLeft);
/// Russian plural of "second" after a whole number: 1, 21 секунду; 2-4, 22 секунды; else секунд.
QString russianSeconds(qint64 n);
QByteArray errorIn200Body();
QByteArray errorInStreamEvent();
/// drop with --drop-with error: the error event that follows the first words of a stream
/// (OpenAI's shape, type server_error).
QByteArray midStreamErrorEvent();
QByteArray billingBody();
QByteArray rateLimitBody();
QByteArray authBody();
QByteArray validationBody();
QByteArray overloadedBody();
QByteArray contextLengthBody(qint64 contextWindow, qint64 prompt, qint64 completion);
/// capped's 429 over the request limit, in OpenAI's words ("Rate limit reached for requests ...
/// Please try again in 1.5s."): type `requests`, code `rate_limit_exceeded`.
QByteArray requestLimitBody(qint64 limit, qint64 used, double windowSeconds, qint64 waitMs);
/// daily over --requests-per-day: OpenRouter's 429 for a free model's daily requests, in its words
/// ("Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests
/// per day"), code 429, without the metadata that would name a limit or a reset.
QByteArray dailyLimitBody();
/// OpenAI's 400 for a request member it does not know: "Unrecognized request argument supplied:
/// NAME", param and code null.
QByteArray unrecognizedArgumentBody(const QString &name);
/// Over the 1 MiB that is classified: a token-limit text followed by more than a megabyte of
/// detail, so only its size keeps it from being taken for a token limit.
QByteArray hugeErrorBody();
/// About kHugeHeaderBytes of harmless extra response headers.
HeaderPairs fillerHeaders();
QByteArray modelsBody();

/// A duration as Go's time.Duration prints it, which is how OpenAI writes its resets and
/// "try again in" times: `0s`, `20ms`, `1.5s`, `59.98s`, `6m0s`, `1h2m3.5s`. Whole milliseconds.
QByteArray goDuration(qint64 ms);

/// What one response says of the provider's window, in policy time.
struct WindowState
{
    qint64 limitRequests = 0;
    qint64 remainingRequests = 0;
    double resetRequestsMs = 0;
    qint64 limitTokens = 0;
    qint64 remainingTokens = 0;
    double resetTokensMs = 0;
};
/// The six `x-ratelimit-*` headers, in OpenAI's order; resets rounded up to whole ms.
HeaderPairs rateLimitHeaders(const WindowState &state);

// The answers.
QString cappedAnswer(
    qint64 limit, double windowSeconds, qint64 promptTokens, qint64 maxTokens, qint64 used);
QString scenarioAnswer(const QString &scenario, int index);
QString dripAnswer();
/// ASCII only, so the firehose may cut it at any byte.
QString firehoseText();
/// Cuts text to about maxTokens tokens, at a word boundary when there is one.
QString boundedAnswer(QString text, qint64 maxTokens);
/// Splits text into stream deltas of a few words each; their concatenation is the text.
QStringList deltas(const QString &text);

/// Wire form of one chunk of a `Transfer-Encoding: chunked` body. The streams use chunked
/// framing, as real providers do, so the connection stays reusable and a stream cut short is an
/// error for the client rather than a clean end of body.
QByteArray httpChunk(QByteArrayView data);
QByteArray lastHttpChunk();

/// How an answer ends: its finish_reason and the usage it reports.
struct Finish
{
    QByteArray reason = QByteArrayLiteral("stop"); ///< "stop" or "length"
    qint64 completionTokens = -1; ///< -1: tokensOf() the answer's UTF-8 bytes
    /// >= 0: usage has "completion_tokens_details":{"reasoning_tokens":N}.
    qint64 reasoningTokens = -1;
};

/// What usage says an answer cost, as OpenRouter reports it: `"cost"`, a number of credits
/// (USD), in the usage object, (prompt + completion tokens) * costPerMillionTokens / 1e6. Empty:
/// no cost member, as OpenAI.
using CostRate = std::optional<double>;

/// The parts of a chunk object every event shares, in OpenAI's member order.
struct ChunkFormat
{
    QByteArray head; ///< `{"id":..,"object":..,"created":..,"model":..,`
    CostRate costPerMillionTokens; ///< usage() adds "cost" when set

    ChunkFormat(int index, const QString &model, CostRate costPerMillionTokens = {});

    static QByteArray event(const QByteArray &json) { return "data: " + json + "\n\n"; }
    QByteArray role() const;
    QByteArray contentPrefix() const;
    static QByteArray contentSuffix();
    QByteArray content(const QString &text) const;
    QByteArray stop() const { return finish("stop"); }
    /// The last choice chunk: an empty delta and finish_reason `reason`.
    QByteArray finish(QByteArrayView reason) const;
    /// The usage chunk ("choices":[]); reasoning >= 0 adds completion_tokens_details, a cost
    /// rate "cost".
    QByteArray usage(qint64 prompt, qint64 completion, qint64 reasoning = -1) const;
    static QByteArray done() { return QByteArrayLiteral("data: [DONE]\n\n"); }
};

/// A whole (not streamed) chat.completion body; its usage has "cost" with a cost rate.
QByteArray completionBody(int index, const QString &model, const QString &text, qint64 prompt,
    const Finish &finish = {}, CostRate costPerMillionTokens = {});
/// The cost "cost" says: (prompt + completion) * costPerMillionTokens / 1e6.
double costOf(qint64 prompt, qint64 completion, double costPerMillionTokens);

} // namespace capwatch::demo::wire
