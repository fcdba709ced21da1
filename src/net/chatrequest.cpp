#include "chatrequest.h"

#include "version.h"

#include <QHostAddress>
#include <algorithm>
#include <iterator>
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

namespace {

/// Headers capwatch sets itself, or that would carry a credential or change the framing: a
/// profile's extra headers never replace them.
constexpr QByteArrayView kReservedHeaders[]
    = { "authorization", "proxy-authorization", "content-type", "content-length", "host", "accept",
          "accept-encoding", "connection", "transfer-encoding" };

/// RFC 9110 token characters: what a header name may consist of.
bool isTokenChar(char c)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    return QByteArrayView("!#$%&'*+-.^_`|~").contains(c);
}

} // namespace

bool isAllowedExtraHeader(const QByteArray &name, const QByteArray &value)
{
    if (name.isEmpty() || !std::all_of(name.begin(), name.end(), isTokenChar))
        return false;
    if (value.contains('\r') || value.contains('\n') || value.contains('\0'))
        return false;
    return !isReservedHeaderName(name);
}

bool isReservedHeaderName(QByteArrayView name)
{
    const QByteArrayView trimmed = name.trimmed();
    return std::any_of(std::begin(kReservedHeaders), std::end(kReservedHeaders),
        [trimmed](QByteArrayView reserved) {
            return trimmed.compare(reserved, Qt::CaseInsensitive) == 0;
        });
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
    setExtraHeaders(r, request.extraHeaders);
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

void setExtraHeaders(
    QNetworkRequest &request, const QList<std::pair<QByteArray, QByteArray>> &headers)
{
    for (const auto &[name, value] : headers) {
        if (isAllowedExtraHeader(name, value))
            request.setRawHeader(name, value);
    }
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
