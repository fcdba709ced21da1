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
#include <memory>
#include <optional>
#include <utility>

class QNetworkAccessManager;
class QNetworkReply;

namespace capwatch::net {

/// `{base}/models` for a base URL, or for a URL that ends in `/chat/completions`; invalid for an
/// invalid or non-HTTP(S) endpoint.
QUrl modelsUrl(const QUrl &endpoint);

/// The ids of a model list body, sorted and without duplicates; nullopt (and `error` set) when
/// the body is not the list. At most 4 MB is read.
std::optional<QStringList> parseModelList(const QByteArray &body, QString *error = nullptr);

class ModelLister final : public QObject
{
    Q_OBJECT

public:
    explicit ModelLister(QObject *parent = nullptr);
    ~ModelLister() override;

    /// Asks `endpoint` for its models with the key `credentials` loads (only to that endpoint,
    /// and only when net::keyUse() says so) and `extraHeaders`. A fetch in flight is dropped.
    /// Times out after 15 s. Exactly one of listed() / failed() follows, later.
    void fetch(const QUrl &endpoint, std::shared_ptr<CredentialProvider> credentials,
        const QList<std::pair<QByteArray, QByteArray>> &extraHeaders = {});
    void cancel();
    bool busy() const;

Q_SIGNALS:
    void listed(const QUrl &endpoint, const QStringList &models);
    /// Why there is no list: "HTTP 404", "not a model list", "timed out", a network error.
    void failed(const QUrl &endpoint, const QString &reason);

private:
    QNetworkAccessManager *m_nam;
    QPointer<QNetworkReply> m_reply;
    quint64 m_fetch = 0;
};

} // namespace capwatch::net
