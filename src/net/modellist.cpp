#include "modellist.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTimer>

// Contract stub: the net layer's owner replaces it with the real fetch (issue 17).

namespace capwatch::net {

QUrl modelsUrl(const QUrl &)
{
    return {};
}

std::optional<QStringList> parseModelList(const QByteArray &, QString *error)
{
    if (error)
        *error = QStringLiteral("not implemented");
    return std::nullopt;
}

ModelLister::ModelLister(QObject *parent)
    : QObject(parent)
    , m_nam(new QNetworkAccessManager(this))
{ }

ModelLister::~ModelLister() = default;

void ModelLister::fetch(const QUrl &endpoint, std::shared_ptr<CredentialProvider>,
    const QList<std::pair<QByteArray, QByteArray>> &)
{
    const quint64 id = ++m_fetch;
    QTimer::singleShot(0, this, [this, id, endpoint] {
        if (id == m_fetch)
            Q_EMIT failed(endpoint, QStringLiteral("not implemented"));
    });
}

void ModelLister::cancel()
{
    ++m_fetch;
}

bool ModelLister::busy() const
{
    return false;
}

} // namespace capwatch::net
