#include "chatrequest.h"

#include "version.h"

#include <QHostAddress>
#include <nlohmann/json.hpp>

namespace capwatch::net {

using namespace Qt::StringLiterals;

QUrl chatCompletionsUrl(const QUrl &endpoint)
{
    if (!endpoint.isValid() || endpoint.host().isEmpty()
        || (endpoint.scheme() != u"http" && endpoint.scheme() != u"https"))
        return {};
    QUrl url = endpoint;
    url.setFragment(QString());
    QString path = url.path();
    while (path.endsWith(u'/'))
        path.chop(1);
    if (!path.endsWith(u"/chat/completions"))
        path += u"/chat/completions"_s;
    url.setPath(path);
    return url;
}

qint64 requestChars(const QList<ChatMessage> &messages)
{
    qint64 chars = 0;
    for (const ChatMessage &m : messages)
        chars += m.content.size();
    return chars;
}

QByteArray buildRequestBody(const ChatRequest &request)
{
    nlohmann::ordered_json body;
    body["model"] = request.model.toStdString();
    nlohmann::ordered_json messages = nlohmann::ordered_json::array();
    for (const ChatMessage &m : request.messages)
        messages.push_back(
            { { "role", m.role.toStdString() }, { "content", m.content.toStdString() } });
    body["messages"] = std::move(messages);
    if (request.maxTokens)
        body["max_tokens"] = *request.maxTokens;
    if (request.temperature)
        body["temperature"] = *request.temperature;
    body["stream"] = request.stream;
    if (request.stream && request.streamUsage)
        body["stream_options"] = { { "include_usage", true } };
    return QByteArray::fromStdString(
        body.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
}

QNetworkRequest buildNetworkRequest(const ChatRequest &request, const QByteArray &apiKey)
{
    QNetworkRequest r(chatCompletionsUrl(request.endpoint));
    r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    r.setRawHeader(QByteArrayLiteral("Accept"),
        request.stream ? QByteArrayLiteral("text/event-stream")
                       : QByteArrayLiteral("application/json"));
    r.setHeader(
        QNetworkRequest::UserAgentHeader, QByteArray(QByteArray("capwatch/") + capwatch::kVersion));
    if (!apiKey.isEmpty())
        r.setRawHeader(QByteArrayLiteral("Authorization"), "Bearer " + apiKey);
    // Follow redirects only within the same origin, so the key never travels elsewhere, and
    // only a few times, so a redirect loop ends with a clear error.
    r.setAttribute(
        QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::SameOriginRedirectPolicy);
    r.setMaximumRedirectsAllowed(5);
    // Streamed answers must arrive as they are produced, not be buffered for decompression.
    r.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    r.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);
    return r;
}

QString defaultModelFor(const QUrl &endpoint)
{
    const QUrl target = chatCompletionsUrl(endpoint);
    return target.isValid() && isLoopback(target) ? QString::fromUtf16(kDemoModel) : QString();
}

bool isLoopback(const QUrl &url)
{
    const QString host = url.host();
    if (host.compare(u"localhost", Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

QString displayEndpoint(const QUrl &url)
{
    return url.adjusted(QUrl::RemoveUserInfo | QUrl::RemoveQuery | QUrl::RemoveFragment).toString();
}

} // namespace capwatch::net
