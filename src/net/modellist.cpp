#include "modellist.h"

#include "chatrequest.h"
#include "credentials.h"
#include "logging.h"
#include "retry/classifier.h"
#include "version.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>
#include <algorithm>
#include <nlohmann/json.hpp>

namespace capwatch::net {

using namespace Qt::StringLiterals;

namespace {

/// An error text of the provider's, as far as it is shown in a reason.
constexpr qsizetype kMaxReasonTextChars = 200;

/// An id as a list shows it: not empty, without control characters (a garbled list is worse
/// than a shorter one).
bool isShowableId(const std::string &id)
{
    return !id.empty() && std::none_of(id.begin(), id.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x20 || u == 0x7f;
    });
}

/// Case-insensitive order, ties broken by the exact text: equal ids end up side by side.
bool idLess(const QString &a, const QString &b)
{
    const int ci = a.compare(b, Qt::CaseInsensitive);
    return ci != 0 ? ci < 0 : a < b;
}

QString httpReason(int status, const QByteArray &body)
{
    QString reason = u"HTTP %1"_s.arg(status);
    const std::string_view phrase = retry::statusText(status);
    if (!phrase.empty()) {
        reason += u' ';
        reason += QString::fromLatin1(phrase.data(), qsizetype(phrase.size()));
    }
    const auto text = retry::extractErrorText(
        std::string_view(body.constData(), std::size_t(body.size())), true);
    if (text && !text->empty()) {
        QString shown = QString::fromStdString(*text).simplified();
        if (shown.size() > kMaxReasonTextChars)
            shown = shown.left(kMaxReasonTextChars - 1) + u'\u2026';
        reason += u": "_s + shown;
    }
    return reason;
}

} // namespace

QUrl modelsUrl(const QUrl &endpoint)
{
    if (!endpoint.isValid() || endpoint.host().isEmpty()
        || (endpoint.scheme() != u"http" && endpoint.scheme() != u"https"))
        return {};
    QUrl url = endpoint.adjusted(QUrl::RemoveUserInfo | QUrl::RemoveFragment);
    QString path = url.path();
    while (path.endsWith(u'/'))
        path.chop(1);
    constexpr QStringView kChat = u"/chat/completions";
    if (path.endsWith(kChat))
        path.chop(kChat.size());
    if (!path.endsWith(u"/models"))
        path += u"/models"_s;
    url.setPath(path);
    return url;
}

std::optional<QStringList> parseModelList(const QByteArray &body, QString *error)
{
    const auto fail = [error](const QString &why) -> std::optional<QStringList> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    if (body.size() > kMaxModelListBytes)
        return fail(u"the model list is larger than %1 MB"_s.arg(kMaxModelListBytes >> 20));
    const nlohmann::json doc = nlohmann::json::parse(body.begin(), body.end(), nullptr, false);
    if (doc.is_discarded())
        return fail(u"not a model list: the answer is not JSON"_s);
    const nlohmann::json *items = nullptr;
    if (doc.is_array()) {
        items = &doc;
    } else if (doc.is_object()) {
        const auto data = doc.find("data");
        if (data == doc.end() || !data->is_array())
            return fail(u"not a model list: no \"data\" array"_s);
        items = &*data;
    } else {
        return fail(u"not a model list: neither an object nor an array"_s);
    }
    QStringList ids;
    for (const nlohmann::json &item : *items) {
        if (!item.is_object())
            continue;
        const auto id = item.find("id");
        if (id == item.end() || !id->is_string()
            || !isShowableId(id->get_ref<const std::string &>()))
            continue;
        ids.append(QString::fromStdString(id->get<std::string>()));
    }
    if (ids.isEmpty() && !items->empty())
        return fail(u"not a model list: no entry has an \"id\""_s);
    std::sort(ids.begin(), ids.end(), idLess);
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

ModelLister::ModelLister(QObject *parent)
    : QObject(parent)
    , m_nam(new QNetworkAccessManager(this))
    , m_timer(new QTimer(this))
{
    m_nam->setAutoDeleteReplies(false);
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &ModelLister::onTimeout);
}

ModelLister::~ModelLister()
{
    dropReply();
}

void ModelLister::setTimeout(std::chrono::milliseconds timeout)
{
    if (timeout.count() > 0)
        m_timeout = timeout;
}

void ModelLister::fetch(const QUrl &endpoint, std::shared_ptr<CredentialProvider> credentials,
    const QList<std::pair<QByteArray, QByteArray>> &extraHeaders)
{
    cancel();
    const quint64 id = ++m_fetch;
    m_busy = true;
    m_endpoint = endpoint;
    const QUrl url = modelsUrl(endpoint);
    if (!url.isValid()) {
        finishLater(id,
            u"the endpoint '%1' is not an http(s) URL"_s.arg(
                endpoint.toString(QUrl::RemoveUserInfo)));
        return;
    }
    // One deadline for the whole fetch, the key's loading included (a keychain may not answer).
    m_timer->start(int(m_timeout.count()));
    if (!credentials) {
        start(id, url, {}, extraHeaders);
        return;
    }
    QPointer<ModelLister> self(this);
    credentials->load([self, id, url, extraHeaders](const Credential &c) {
        if (!self || id != self->m_fetch)
            return;
        // The key goes only to the URL it was loaded for, and only when it is to be sent there.
        QByteArray key;
        if (keyUse(c, url) == KeyUse::Key) {
            if (!isHeaderSafe(c.key)) {
                self->finishLater(id,
                    u"the API key from %1 contains characters that cannot be sent"_s.arg(c.source));
                return;
            }
            key = c.key;
        }
        self->start(id, url, key, extraHeaders);
    });
}

void ModelLister::start(quint64 id, const QUrl &url, const QByteArray &key,
    const QList<std::pair<QByteArray, QByteArray>> &extraHeaders)
{
    QNetworkRequest request(url);
    setExtraHeaders(request, extraHeaders);
    request.setRawHeader(QByteArrayLiteral("Accept"), QByteArrayLiteral("application/json"));
    if (!request.hasRawHeader("User-Agent"))
        request.setHeader(QNetworkRequest::UserAgentHeader,
            QByteArray(QByteArray("capwatch/") + capwatch::kVersion));
    if (!key.isEmpty())
        request.setRawHeader(QByteArrayLiteral("Authorization"), "Bearer " + key);
    // As the chat request: never to another origin, so the key stays with its endpoint.
    request.setAttribute(
        QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::SameOriginRedirectPolicy);
    request.setMaximumRedirectsAllowed(5);
    request.setAttribute(
        QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    request.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);

    m_body.clear();
    m_tooLarge = false;
    QNetworkReply *reply = m_nam->get(request);
    m_reply = reply;
    connect(reply, &QNetworkReply::readyRead, this, [this, reply, id] {
        if (reply != m_reply || id != m_fetch)
            return;
        m_body += reply->read(kMaxModelListBytes + 1 - m_body.size());
        if (m_body.size() > kMaxModelListBytes) {
            m_tooLarge = true;
            reply->abort(); // finished() follows and reports it
        }
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply, id] {
        if (reply == m_reply && id == m_fetch)
            onFinished();
    });
    qCInfo(lcNet).noquote() << u"listing the models of %1"_s.arg(displayEndpoint(url));
}

void ModelLister::onFinished()
{
    QNetworkReply *reply = m_reply;
    m_timer->stop();
    if (!m_tooLarge && reply->bytesAvailable() > 0)
        m_body += reply->read(kMaxModelListBytes + 1 - m_body.size());
    if (m_body.size() > kMaxModelListBytes)
        m_tooLarge = true;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QNetworkReply::NetworkError error = reply->error();
    const QString errorString = reply->errorString();
    dropReply();

    if (m_tooLarge) {
        finish(u"the model list is larger than %1 MB"_s.arg(kMaxModelListBytes >> 20));
        return;
    }
    if (error == QNetworkReply::InsecureRedirectError) {
        finish(u"redirected to another host, which is not followed"_s);
        return;
    }
    if (error == QNetworkReply::TooManyRedirectsError) {
        finish(u"too many redirects"_s);
        return;
    }
    if (status > 0 && (status < 200 || status >= 300)) {
        finish(httpReason(status, m_body));
        return;
    }
    if (error != QNetworkReply::NoError) {
        finish(errorString.isEmpty() ? u"network error"_s : errorString);
        return;
    }
    QString why;
    if (const auto ids = parseModelList(m_body, &why)) {
        finish({}, *ids);
        return;
    }
    finish(why);
}

void ModelLister::onTimeout()
{
    if (!m_busy)
        return;
    dropReply();
    finish(u"timed out after %1 s"_s.arg(double(m_timeout.count()) / 1000.0));
}

void ModelLister::finish(const QString &reason, const QStringList &models)
{
    m_busy = false;
    m_timer->stop();
    m_body.clear();
    const QUrl endpoint = m_endpoint;
    if (reason.isEmpty()) {
        qCInfo(lcNet).noquote() << u"%1 models listed"_s.arg(models.size());
        Q_EMIT listed(endpoint, models);
    } else {
        qCInfo(lcNet).noquote() << u"no model list: %1"_s.arg(reason);
        Q_EMIT failed(endpoint, reason);
    }
}

void ModelLister::finishLater(quint64 id, const QString &reason)
{
    QTimer::singleShot(0, this, [this, id, reason] {
        if (id == m_fetch && m_busy)
            finish(reason);
    });
}

void ModelLister::dropReply()
{
    m_timer->stop();
    if (!m_reply)
        return;
    QNetworkReply *reply = m_reply;
    m_reply = nullptr;
    reply->disconnect(this);
    reply->abort();
    reply->deleteLater();
}

void ModelLister::cancel()
{
    ++m_fetch;
    m_busy = false;
    dropReply();
}

bool ModelLister::busy() const
{
    return m_busy;
}

} // namespace capwatch::net
