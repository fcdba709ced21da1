#pragma once

// Typed decoding of OpenAI chat completion payloads, streamed and not. Nothing here throws:
// whatever a provider sends becomes a value the caller can act on.

#include "retry/providerwindow.h"
#include "sseparser.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QtGlobal>
#include <optional>

namespace capwatch::net {

/// An answer's `usage`, as retry::usageFrom() reads it: a figure is reported only when it is a
/// whole non-negative number (at most 2^53).
struct Usage
{
    qint64 promptTokens = -1; ///< -1: not reported
    qint64 completionTokens = -1;
    qint64 totalTokens = -1;
    qint64 cachedTokens = -1; ///< usage.prompt_tokens_details.cached_tokens
    qint64 reasoningTokens = -1; ///< usage.completion_tokens_details.reasoning_tokens
    std::optional<double> cost; ///< usage.cost (OpenRouter): what the answer was billed
};
Usage usageOf(const retry::UsageReport &report);
retry::UsageReport usageReportOf(const Usage &usage);

struct StreamError
{
    QString message;
    QString type;
    QString code; ///< numeric codes are given in decimal
    QByteArray raw; ///< the event's data as received
};

struct ChatStreamUpdate
{
    QString text; ///< content delta(s) to append (may be empty)
    QString finishReason; ///< non-empty once a choice reports finish_reason
    std::optional<Usage> usage; ///< when the provider sent usage
    std::optional<StreamError> error; ///< an `error` object (or string) inside the stream
    bool done = false; ///< the `[DONE]` sentinel
    /// Non-empty: this event's data was not valid JSON / not a chunk; a short description
    /// that never quotes the data (so it cannot leak anything echoed into it).
    QString malformed;
};

/// Decodes the data of one SSE event of a streamed chat completion
/// (`{"choices":[{"delta":{"content":"..."},"finish_reason":null}], "usage":...}`).
/// Only choice index 0 is read. An event of type `error` whose data is not JSON becomes an
/// error with that data as message.
ChatStreamUpdate decodeStreamEvent(const SseEvent &event);
/// The same decoding through a full JSON parse, for any shape. decodeStreamEvent() reads the
/// common shape without it and falls back to this; tests hold the two to the same results.
ChatStreamUpdate decodeStreamEventGeneral(const SseEvent &event);

/// How many events decodeStreamEvent() has decoded on each path since the process started
/// (relaxed atomic counters, any thread): tests and benchmarks check that the common shapes
/// take the fast path, which no result could tell.
struct StreamDecodeCounts
{
    quint64 fast = 0; ///< read by the fast reader
    quint64 general = 0; ///< handed to decodeStreamEventGeneral()
};
StreamDecodeCounts streamDecodeCounts();

struct ChatAnswer
{
    QString text;
    QString finishReason;
    std::optional<Usage> usage;
    QString model;
};

/// Parses a non-streaming chat completion body; on failure returns nullopt and sets *error
/// (a short human description) when error is not null.
std::optional<ChatAnswer> parseChatCompletion(QByteArrayView body, QString *error);

} // namespace capwatch::net
