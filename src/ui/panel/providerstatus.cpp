#include "ui/panel/providerstatus.h"

#include "session/chatsession.h"

#include <QLabel>
#include <QStatusBar>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

ProviderStatus::ProviderStatus(session::ChatSession *session, QStatusBar *bar)
    : QObject(bar)
    , m_session(session)
    , m_profile(new QLabel(bar))
    , m_endpoint(new QLabel(bar))
    , m_model(new QLabel(bar))
    , m_key(new QLabel(bar))
{
    bar->addWidget(m_profile);
    m_profile->hide();
    bar->addWidget(m_endpoint, 1);
    bar->addPermanentWidget(m_model);
    bar->addPermanentWidget(m_key);
}

void ProviderStatus::retranslate()
{
    m_profile->setAccessibleName(tr("Provider profile"));
    m_endpoint->setAccessibleName(tr("Endpoint"));
    m_model->setAccessibleName(tr("Model"));
    m_key->setAccessibleName(tr("Key source"));
}

void ProviderStatus::update()
{
    const QUrl endpoint = m_session->provider().endpoint();
    const QString shown = m_session->provider().usingDemo()
        ? tr("embedded demo provider (%1)").arg(endpoint.toString())
        : net::displayEndpoint(net::chatCompletionsUrl(endpoint));
    m_endpoint->setText(m_runEndpoint && !m_session->provider().usingDemo()
            ? tr("Endpoint: %1 (this run)").arg(shown)
            : tr("Endpoint: %1").arg(shown));
    m_model->setText(m_session->provider().model().isEmpty()
            ? tr("Model: not set")
            : tr("Model: %1").arg(m_session->provider().model()));
    updateKey();
}

void ProviderStatus::setProfileName(const QString &name)
{
    m_profile->setText(name.isEmpty() ? QString() : tr("Profile: %1").arg(name));
    m_profile->setVisible(!name.isEmpty());
}

void ProviderStatus::setRunEndpoint(bool thisRun)
{
    m_runEndpoint = thisRun;
    update();
}

void ProviderStatus::updateKey()
{
    m_key->setText(keyText());
}

QString ProviderStatus::keyText() const
{
    const session::KeyStatus key = m_session->provider().keyStatus();
    switch (key.kind) {
    case session::KeyStatus::Kind::Named:
    case session::KeyStatus::Kind::Key:
        return tr("Key: %1").arg(key.source);
    case session::KeyStatus::Kind::NotNeeded:
        return tr("Key: none (loopback endpoint)");
    case session::KeyStatus::Kind::Missing:
        return tr("Key: missing (%1)").arg(key.source);
    }
    return {};
}

QString ProviderStatus::text() const
{
    const QString profile = m_profile->text().isEmpty() ? QString() : m_profile->text() + u" | "_s;
    return profile + m_endpoint->text() + u" | "_s + m_model->text() + u" | "_s + m_key->text();
}

} // namespace capwatch::ui
