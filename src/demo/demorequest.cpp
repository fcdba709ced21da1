#include "demorequest.h"

#include "continuation.h"
#include "wireformat.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>

namespace capwatch::demo {

QString contentText(const QJsonValue &content)
{
    QString text = QStringLiteral("");
    if (content.isString()) {
        text += content.toString();
    } else if (content.isArray()) {
        for (const QJsonValue &part : content.toArray())
            text += part.toObject().value(u"text").toString();
    }
    return text;
}

namespace {

QString roleOf(const QJsonValue &message)
{
    return message.toObject().value(u"role").toString();
}

/// The prompt of the answer, and whether the request continues a cut one (demorequest.h).
void readContinuation(const QJsonArray &messages, const QString &lastUser, DemoChatRequest &out)
{
    const qsizetype last = messages.size() - 1;
    qsizetype partialAt = -1;
    if (roleOf(messages.at(last)) == u"assistant") {
        partialAt = last;
    } else if (last >= 1 && roleOf(messages.at(last)) == u"user"
        && roleOf(messages.at(last - 1)) == u"assistant"
        && contentText(messages.at(last).toObject().value(u"content"))
               .trimmed()
               .startsWith(kContinuePrefix)) {
        partialAt = last - 1;
    }
    out.continuation = partialAt >= 0;
    if (!out.continuation) {
        out.prompt = lastUser;
        return;
    }
    out.partial = contentText(messages.at(partialAt).toObject().value(u"content"));
    out.prompt.clear();
    for (qsizetype i = partialAt - 1; i >= 0; --i) {
        if (roleOf(messages.at(i)) == u"user") {
            out.prompt = contentText(messages.at(i).toObject().value(u"content"));
            break;
        }
    }
}

} // namespace

InvalidRequest parseChatRequest(const QByteArray &body, DemoChatRequest &out)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return { QStringLiteral("The request body is not a JSON object."), {} };
    const QJsonObject root = doc.object();
    const QJsonValue messages = root.value(u"messages");
    if (!messages.isArray() || messages.toArray().isEmpty())
        return { QStringLiteral("'messages' must be a non-empty array."),
            QStringLiteral("messages") };
    qsizetype promptChars = 0;
    QString lastUser;
    bool hasUser = false;
    for (const QJsonValue &message : messages.toArray()) {
        if (!message.isObject())
            return { QStringLiteral("Each entry of 'messages' must be an object."),
                QStringLiteral("messages") };
        const QJsonObject object = message.toObject();
        const QString text = contentText(object.value(u"content"));
        promptChars += text.size();
        if (object.value(u"role").toString() == u"user") {
            hasUser = true;
            lastUser = text;
        }
    }
    // A user turn without text is refused, as real providers do (an empty prompt is a client
    // bug, never a question).
    if (hasUser && lastUser.trimmed().isEmpty())
        return { QStringLiteral("The last user message is empty: its 'content' must contain "
                                "text."),
            QStringLiteral("messages") };
    readContinuation(messages.toArray(), lastUser, out);
    const QJsonValue model = root.value(u"model");
    if (!model.isString() || model.toString().trimmed().isEmpty())
        return { QStringLiteral("You must provide a model parameter."), QStringLiteral("model") };
    out.promptTokens = std::max<qint64>(1, wire::tokensOf(promptChars));
    out.promptChars = promptChars;
    out.model = model.toString();
    // max_completion_tokens is the newer OpenAI name of the same limit.
    QJsonValue maxTokens = root.value(u"max_tokens");
    if (maxTokens.isUndefined() || maxTokens.isNull())
        maxTokens = root.value(u"max_completion_tokens");
    if (!maxTokens.isUndefined() && !maxTokens.isNull()) {
        const double value = maxTokens.toDouble(-1);
        if (!maxTokens.isDouble() || value < 1 || value != std::floor(value) || value > 1e12)
            return { QStringLiteral("'max_tokens' must be a positive integer."),
                QStringLiteral("max_tokens") };
        out.maxTokens = static_cast<qint64>(value);
    }
    out.stream = root.value(u"stream").toBool(false);
    out.hasStreamOptions = root.contains(u"stream_options");
    out.includeUsage
        = root.value(u"stream_options").toObject().value(u"include_usage").toBool(false);
    return {};
}

QByteArray bearerKey(const QByteArray &authorization)
{
    const QByteArray value = authorization.trimmed();
    if (value.size() > 7 && value.first(7).toLower() == "bearer ")
        return value.sliced(7).trimmed();
    return {};
}

QByteArray keyHash(const QByteArray &key)
{
    return QCryptographicHash::hash(key, QCryptographicHash::Sha256);
}

} // namespace capwatch::demo
