#pragma once

// The models an OpenAI-compatible endpoint offers: `GET {base}/models`, the standard list
// (`{"object":"list","data":[{"id":"gpt-4o",...},...]}`). Asked when a provider profile is opened
// in Settings; the answer is the profile's to cache. A provider without the list (404, not JSON)
// answers failed(), and the user types the model.

#include "credentials.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QUrl>
#include <chrono>
#include <memory>
#include <optional>
#include <utility>

class QNetworkAccessManager;
class QNetworkReply;
class QTimer;

namespace capwatch::net {

/// `{base}/models` for a base URL, or for a URL that ends in `/chat/completions`; invalid for an
/// invalid or non-HTTP(S) endpoint.
QUrl modelsUrl(const QUrl &endpoint);

/// The largest model list read: a longer answer is refused, not cut.
inline constexpr qsizetype kMaxModelListBytes = 4 * 1024 * 1024;
/// How long a fetch may take before it fails "timed out".
inline constexpr std::chrono::milliseconds kModelListTimeout { 15'000 };

/// The ids of a model list body, sorted (case-insensitively) and without duplicates; nullopt
/// (and `error` set) when the body is not the list. The OpenAI shape `{"data":[{"id":..},..]}`
/// and a bare array of such objects are lists; entries without a string `id` are skipped. A
/// body over kMaxModelListBytes is refused.
std::optional<QStringList> parseModelList(const QByteArray &body, QString *error = nullptr);

class ModelLister final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ModelLister)

public:
    explicit ModelLister(QObject *parent = nullptr);
    ~ModelLister() override;

    /// Asks `endpoint` for its models with the key `credentials` loads (only to that endpoint,
    /// and only when net::keyUse() says so) and `extraHeaders`. A fetch in flight is dropped.
    /// Times out after 15 s. Exactly one of listed() / failed() follows, later.
    void fetch(const QUrl &endpoint, std::shared_ptr<CredentialProvider> credentials,
        const QList<std::pair<QByteArray, QByteArray>> &extraHeaders = {});
    /// Drops the fetch in flight: neither listed() nor failed() follows for it.
    void cancel();
    bool busy() const;
    /// Tests: another timeout than kModelListTimeout (wall time).
    void setTimeout(std::chrono::milliseconds timeout);

Q_SIGNALS:
    void listed(const QUrl &endpoint, const QStringList &models);
    /// Why there is no list: "HTTP 404 Not Found: <the provider's text>", "not a model list: ...",
    /// "timed out after 15 s", "redirected to another host, which is not followed", "the model
    /// list is larger than 4 MB", a network error.
    void failed(const QUrl &endpoint, const QString &reason);

private:
    void start(quint64 id, const QUrl &url, const QByteArray &key,
        const QList<std::pair<QByteArray, QByteArray>> &extraHeaders);
    void onFinished();
    void onTimeout();
    /// Emits the one result of the current fetch: listed() when `reason` is empty.
    void finish(const QString &reason, const QStringList &models = {});
    /// failed() on the next turn of the event loop, unless the fetch was dropped by then.
    void finishLater(quint64 id, const QString &reason);
    void dropReply();

    QNetworkAccessManager *m_nam;
    QTimer *m_timer;
    QPointer<QNetworkReply> m_reply;
    quint64 m_fetch = 0;
    bool m_busy = false;
    bool m_tooLarge = false;
    QUrl m_endpoint;
    QByteArray m_body;
    std::chrono::milliseconds m_timeout = kModelListTimeout;
};

} // namespace capwatch::net
