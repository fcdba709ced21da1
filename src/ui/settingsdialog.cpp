#include "settingsdialog.h"

#include "net/chatrequest.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

SettingsDialog::SettingsDialog(const ProviderSettings &current, QWidget *parent)
    : QDialog(parent)
    , m_useDemo(new QCheckBox(tr("Use the &embedded demo provider (no account needed)"), this))
    , m_endpoint(new QLineEdit(current.endpoint, this))
    , m_model(new QLineEdit(current.model, this))
    , m_fromEnv(new QRadioButton(tr("Environment &variable:"), this))
    , m_fromFile(new QRadioButton(tr("Key &file:"), this))
    , m_fromKeychain(new QRadioButton(tr("System &keychain:"), this))
    , m_envVar(new QLineEdit(current.keyVariable, this))
    , m_keyFile(new QLineEdit(current.keyFile, this))
    , m_keychainKey(new QLineEdit(this))
    , m_stream(new QCheckBox(tr("&Stream answers as they are written"), this))
    , m_error(new QLabel(this))
{
    setWindowTitle(tr("Provider settings"));
    m_useDemo->setChecked(current.useDemo);
    m_stream->setChecked(current.stream);
    m_endpoint->setPlaceholderText(u"https://api.example.com/v1"_s);
    m_model->setPlaceholderText(tr("model name, e.g. gpt-4o-mini"));
    m_keychainKey->setEchoMode(QLineEdit::Password);
    m_keychainKey->setPlaceholderText(tr("paste a key to store it; leave empty to keep the stored one"));
    m_error->setWordWrap(true);
    m_error->setForegroundRole(QPalette::BrightText);
    m_error->hide();

    auto *group = new QButtonGroup(this);
    group->addButton(m_fromEnv);
    group->addButton(m_fromFile);
    group->addButton(m_fromKeychain);
    switch (current.keySource) {
    case ProviderSettings::KeySource::Environment:
        m_fromEnv->setChecked(true);
        break;
    case ProviderSettings::KeySource::KeyFile:
        m_fromFile->setChecked(true);
        break;
    case ProviderSettings::KeySource::Keychain:
        m_fromKeychain->setChecked(true);
        break;
    }

    auto *providerBox = new QGroupBox(tr("Provider"), this);
    auto *form = new QFormLayout(providerBox);
    auto *endpointLabel = new QLabel(tr("&Endpoint:"), providerBox);
    endpointLabel->setBuddy(m_endpoint);
    form->addRow(endpointLabel, m_endpoint);
    auto *modelLabel = new QLabel(tr("&Model:"), providerBox);
    modelLabel->setBuddy(m_model);
    form->addRow(modelLabel, m_model);

    auto *keyBox = new QGroupBox(tr("API key (never stored in the settings file)"), this);
    auto *keyForm = new QFormLayout(keyBox);
    keyForm->addRow(m_fromEnv, m_envVar);
    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(m_keyFile);
    auto *browse = new QPushButton(tr("&Browse…"), keyBox);
    fileRow->addWidget(browse);
    keyForm->addRow(m_fromFile, fileRow);
    keyForm->addRow(m_fromKeychain, m_keychainKey);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_useDemo);
    layout->addWidget(providerBox);
    layout->addWidget(keyBox);
    layout->addWidget(m_stream);
    layout->addWidget(m_error);
    layout->addWidget(buttons);

    m_useDemo->setAccessibleDescription(tr("Chat with the built-in capped provider instead of a real one"));
    m_endpoint->setAccessibleName(tr("Endpoint"));
    m_endpoint->setAccessibleDescription(tr("Base URL of an OpenAI-compatible API, or its chat/completions URL"));
    m_model->setAccessibleName(tr("Model"));
    m_model->setAccessibleDescription(tr("The model name the provider expects"));
    m_envVar->setAccessibleName(tr("Environment variable holding the key"));
    m_keyFile->setAccessibleName(tr("Key file path"));
    m_keychainKey->setAccessibleName(tr("Key to store in the system keychain"));
    browse->setAccessibleDescription(tr("Choose the key file"));

    connect(m_useDemo, &QCheckBox::toggled, this, &SettingsDialog::updateEnabled);
    connect(group, &QButtonGroup::buttonToggled, this, &SettingsDialog::updateEnabled);
    connect(browse, &QPushButton::clicked, this, &SettingsDialog::browseKeyFile);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (validate())
            accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    updateEnabled();
    setMinimumWidth(fontMetrics().averageCharWidth() * 70);
}

ProviderSettings SettingsDialog::provider() const
{
    ProviderSettings p;
    p.useDemo = m_useDemo->isChecked();
    p.endpoint = m_endpoint->text().trimmed();
    p.model = m_model->text().trimmed();
    p.keySource = m_fromFile->isChecked() ? ProviderSettings::KeySource::KeyFile
            : m_fromKeychain->isChecked() ? ProviderSettings::KeySource::Keychain
                                          : ProviderSettings::KeySource::Environment;
    p.keyVariable = m_envVar->text().trimmed();
    p.keyFile = m_keyFile->text().trimmed();
    p.stream = m_stream->isChecked();
    return p;
}

QByteArray SettingsDialog::keychainKey() const
{
    return m_fromKeychain->isChecked() ? m_keychainKey->text().trimmed().toUtf8() : QByteArray();
}

void SettingsDialog::updateEnabled()
{
    const bool real = !m_useDemo->isChecked();
    for (QWidget *w : std::initializer_list<QWidget *> { m_endpoint, m_model, m_fromEnv, m_fromFile,
                                                         m_fromKeychain })
        w->setEnabled(real);
    m_envVar->setEnabled(real && m_fromEnv->isChecked());
    m_keyFile->setEnabled(real && m_fromFile->isChecked());
    m_keychainKey->setEnabled(real && m_fromKeychain->isChecked());
}

void SettingsDialog::browseKeyFile()
{
    // Opened, not exec()'d: the window's timers (a retry's wait) keep running.
    auto *dialog = new QFileDialog(this, tr("Choose the key file"), m_keyFile->text());
    dialog->setObjectName(u"keyFileDialog"_s);
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        if (!path.isEmpty())
            m_keyFile->setText(path);
    });
    dialog->open();
}

bool SettingsDialog::validate()
{
    QString error;
    const ProviderSettings p = provider();
    if (!p.useDemo) {
        if (!net::chatCompletionsUrl(QUrl(p.endpoint)).isValid())
            error = tr("The endpoint must be an http:// or https:// URL.");
        else if (p.model.isEmpty())
            error = tr("Name the model the provider should use.");
        else if (p.keySource == ProviderSettings::KeySource::Environment && p.keyVariable.isEmpty())
            error = tr("Name the environment variable that holds the key.");
        else if (p.keySource == ProviderSettings::KeySource::KeyFile && p.keyFile.isEmpty())
            error = tr("Choose the key file.");
    }
    m_error->setText(error);
    m_error->setVisible(!error.isEmpty());
    return error.isEmpty();
}

} // namespace capwatch::ui
