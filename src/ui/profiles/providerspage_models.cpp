// ProvidersPage's model list: the selected profile's endpoint asked for its models (GET
// /v1/models) with that profile's key, never over plain HTTP to another machine unless the user
// agreed.

#include "net/chatrequest.h"
#include "net/credentials.h"
#include "net/modellist.h"
#include "ui/profiles/keychain.h"
#include "ui/profiles/plainhttpwarning.h"
#include "ui/profiles/providerspage.h"
#include "ui/profiles/providerspage_p.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QLabel>
#include <QMessageBox>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

std::shared_ptr<net::CredentialProvider> ProvidersPage::credentialsFor(
    const session::ProviderProfile &p)
{
    switch (p.keySource) {
    case Source::Environment:
        if (p.keyVariable.isEmpty())
            return std::make_shared<net::NoCredentialProvider>();
        return std::make_shared<net::EnvCredentialProvider>(p.keyVariable);
    case Source::KeyFile:
        return std::make_shared<net::FileCredentialProvider>(p.keyFile);
    case Source::Keychain: {
        const QByteArray typed = m_keys.value(p.id).trimmed();
        if (typed.isEmpty())
            return Keychain::provider(this, p.keychainEntry());
        const QString source = tr("system keychain");
        return std::make_shared<net::CallbackCredentialProvider>(
            source, [typed, source](net::CredentialProvider::Done done) {
                done({ typed, source, {} });
            });
    }
    }
    return std::make_shared<net::NoCredentialProvider>();
}

bool ProvidersPage::keyWouldBeSent(const session::ProviderProfile &p)
{
    if (p.builtInDemo)
        return false;
    // A keychain answers later and may ask to be unlocked: it counts as a key.
    if (p.keySource == Source::Keychain)
        return true;
    // The environment and a key file answer at once; should one ever answer later, assume a key.
    auto hasKey = std::make_shared<std::optional<bool>>();
    credentialsFor(p)->load([hasKey](const net::Credential &c) { *hasKey = !c.key.isEmpty(); });
    return hasKey->value_or(true);
}

void ProvidersPage::fetchModels(bool explicitRefresh)
{
    commit();
    const session::ProviderProfile *p = m_set.find(currentProfile());
    if (!p || p->builtInDemo)
        return;
    if (!net::chatCompletionsUrl(p->endpoint).isValid()) {
        m_lister->cancel();
        if (explicitRefresh)
            m_modelStatus->setText(
                tr("Enter the endpoint first: its model list comes from there."));
        return;
    }
    // The key never travels unencrypted to another machine unasked (as a send, MainWindow's
    // plainHttpAllowed()): opening the profile or leaving its endpoint does not ask for the list
    // there, Refresh asks the user first.
    const QUrl target = net::modelsUrl(p->endpoint);
    const QString consent = p->id + u'\n' + net::displayEndpoint(target);
    if (target.scheme() == u"http" && !net::isLoopback(target)
        && !m_plainHttpConsent.contains(consent) && keyWouldBeSent(*p)) {
        m_lister->cancel();
        if (!explicitRefresh) {
            m_modelStatus->setText(
                tr("Not asked for its models: the endpoint uses plain HTTP, and the key would "
                   "travel unencrypted. Refresh asks first."));
            return;
        }
        if (m_plainHttpWarning) {
            m_plainHttpWarning->raise();
            m_plainHttpWarning->activateWindow();
            return;
        }
        const QString id = p->id;
        m_modelStatus->setText(tr("Waiting for your answer: send the key unencrypted?"));
        m_plainHttpWarning = PlainHttpWarning::ask(this, target, [this, id, consent] {
            m_plainHttpConsent.insert(consent);
            if (currentProfile() == id)
                fetchModels(true); // its endpoint changed meanwhile: asked again
        });
        QMessageBox *box = m_plainHttpWarning;
        connect(box, &QMessageBox::finished, this, [this, box, id] {
            const QAbstractButton *clicked = box->clickedButton();
            if (currentProfile() == id && (!clicked || clicked->objectName() != u"sendAnyway"_s))
                m_modelStatus->setText(tr("Not asked for its models: the key stays unsent."));
        });
        return;
    }
    m_modelsFor = p->id;
    m_modelStatus->setText(tr("Asking the provider for its models…"));
    // The key of this profile, to this profile's endpoint only (ModelLister checks keyUse()).
    m_lister->fetch(p->endpoint, credentialsFor(*p), p->extraHeaders);
}

void ProvidersPage::showModels(const QStringList &models)
{
    const QString typed = m_model->currentText();
    const bool wasLoading = m_loading;
    m_loading = true;
    m_model->clear();
    m_model->addItems(models);
    m_model->setEditText(typed);
    m_loading = wasLoading;
}

} // namespace capwatch::ui
