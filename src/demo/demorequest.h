#pragma once

// A chat request as the demo provider reads it: checked as real providers check one (the 400s
// of an empty prompt, no messages or no model), with what the scenarios need of it.

#include <QByteArray>
#include <QJsonValue>
#include <QString>

namespace capwatch::demo {

/// Named apart from net::ChatRequest, the client's request: this is what the server read.
struct DemoChatRequest
{
    QString model;
    qint64 maxTokens = -1; ///< -1: absent
    bool stream = false;
    bool includeUsage = false;
    bool hasStreamOptions = false; ///< a `stream_options` member, whatever its value
    qint64 promptTokens = 0;
    /// UTF-16 code units of the text of every message (any role), summed: the context
    /// scenario's estimate is ceil(promptChars / 4) (demoprovider.h).
    qsizetype promptChars = 0;
    /// The prompt the answer is to: the last user message, or for a continuation the nearest
    /// user message before its partial answer (empty when there is none).
    QString prompt;
    /// The request continues a cut answer (continuation.h): its messages end with an assistant
    /// message (a prefilled turn), or with an assistant message and then a user message that
    /// starts with kContinuePrefix once trimmed.
    bool continuation = false;
    QString partial; ///< a continuation's assistant message: the answer so far
};

struct InvalidRequest
{
    QString message; ///< empty: the request is valid
    QString param; ///< the member at fault, or empty
};

/// Checks a chat request as real providers do; on failure, what the 400 answer says.
InvalidRequest parseChatRequest(const QByteArray &body, DemoChatRequest &out);

/// Text of a message's content: a string, or the text parts of an array joined; empty (not
/// null) for anything else.
QString contentText(const QJsonValue &content);

/// The key of a `Bearer` Authorization value, or empty.
QByteArray bearerKey(const QByteArray &authorization);
/// What the provider keeps of a key it must recognise: a hash, never the key.
QByteArray keyHash(const QByteArray &key);

} // namespace capwatch::demo
