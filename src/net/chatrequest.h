#pragma once

// What one chat send asks for, and how it becomes an HTTP request. Pure functions: request
// building is tested without a network.

#include <QByteArray>
#include <QList>
#include <QNetworkRequest>
#include <QString>
#include <QUrl>
#include <optional>
#include <utility>

namespace capwatch::net {

struct ChatMessage
{
    QString role; ///< system, user, assistant
    QString content;
};

struct ChatRequest
{
    QUrl endpoint; ///< a base URL (`http://host:port/v1`) or the full `.../chat/completions` URL
    QString model;
    QList<ChatMessage> messages;
    std::optional<int> maxTokens;
    std::optional<double> temperature; ///< 0 to 2; absent: the provider's default
    bool stream = true;
    /// With stream: ask for `usage` in the stream (`stream_options: {"include_usage": true}`).
    /// The client clears it for a provider that refused the option with a 400 naming it.
    bool streamUsage = true;
    /// A profile's extra headers (name, value), sent as given with every attempt. Never
    /// Authorization or another header capwatch sets itself: buildNetworkRequest() drops those.
    QList<std::pair<QByteArray, QByteArray>> extraHeaders;
};

/// Characters of every message's content: what the token estimate of a request counts.
qint64 requestChars(const QList<ChatMessage> &messages);

/// The model the embedded demo provider serves.
inline constexpr char16_t kDemoModel[] = u"capwatch-demo";

/// The model a send to `endpoint` uses when none is configured: `capwatch-demo` for a loopback
/// endpoint (where the demo provider runs, embedded or `capwatch-cli demo`), none for any other.
/// An empty result means the send must not go out. The one rule of the window and the CLI.
QString defaultModelFor(const QUrl &endpoint);

/// The lowest and highest temperature a request may carry (the OpenAI range).
inline constexpr double kMinTemperature = 0.0;
inline constexpr double kMaxTemperature = 2.0;

/// The URL the request is POSTed to: `{base}/chat/completions`, or the URL itself when it
/// already ends in `/chat/completions`. Invalid or non-HTTP(S) URLs give an invalid QUrl.
QUrl chatCompletionsUrl(const QUrl &endpoint);

/// The JSON body: model, messages, max_tokens and temperature when set, stream (+ usage in
/// the stream).
QByteArray buildRequestBody(const ChatRequest &request);

/// The HTTP request; the key goes into the Authorization header and nowhere else. The extra
/// headers go in as given (setExtraHeaders()): a User-Agent among them replaces capwatch's.
QNetworkRequest buildNetworkRequest(const ChatRequest &request, const QByteArray &apiKey);

/// Whether a profile's extra header may be sent: its name is an HTTP token that is none of
/// isReservedHeaderName(), and neither name nor value holds CR, LF or NUL.
bool isAllowedExtraHeader(const QByteArray &name, const QByteArray &value);
/// The names isAllowedExtraHeader() refuses whatever the value: the headers capwatch sets itself
/// (Authorization, Proxy-Authorization, Content-Type, Content-Length, Host, Accept) and the
/// connection's own (Accept-Encoding, Connection, Transfer-Encoding). Case-insensitive; the one
/// list the request, the settings file and the Providers page check.
bool isReservedHeaderName(QByteArrayView name);

/// Sets the allowed ones of `headers` on `request`, as given; drops the others.
void setExtraHeaders(
    QNetworkRequest &request, const QList<std::pair<QByteArray, QByteArray>> &headers);

/// True for 127.0.0.0/8, ::1 and `localhost`: such endpoints need no key.
bool isLoopback(const QUrl &url);

/// An endpoint for display and logs: scheme, host, port and path, never user info or query.
QString displayEndpoint(const QUrl &url);

} // namespace capwatch::net
