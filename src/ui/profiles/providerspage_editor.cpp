// ProvidersPage's editor of the selected profile, on the right: its form and how it is wired,
// filled from a profile (load) and read back into it (commit), and which fields a profile lets
// the user change.

#include "net/chatrequest.h"
#include "ui/profiles/extraheaders.h"
#include "ui/profiles/limitsbox.h"
#include "ui/profiles/policyoverridesbox.h"
#include "ui/profiles/priceoverridesbox.h"
#include "ui/profiles/providerspage.h"
#include "ui/profiles/providerspage_p.h"
#include "ui/settings/settingsdialog.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

namespace {

/// The model a send of `p` asks for: the one named, the endpoint's default, the demo's.
QString modelOf(const session::ProviderProfile &p)
{
    if (p.builtInDemo)
        return QString::fromUtf16(net::kDemoModel);
    return p.model.isEmpty() ? net::defaultModelFor(p.endpoint) : p.model;
}

} // namespace

void ProvidersPage::buildEditor(QWidget *editor)
{
    m_name->setObjectName(u"profileName"_s);
    m_endpoint->setObjectName(u"endpoint"_s);
    m_model->setObjectName(u"model"_s);
    m_refresh->setObjectName(u"refreshModels"_s);
    m_modelStatus->setObjectName(u"modelStatus"_s);
    m_fromEnv->setObjectName(u"fromEnvironment"_s);
    m_fromFile->setObjectName(u"fromKeyFile"_s);
    m_fromKeychain->setObjectName(u"fromKeychain"_s);
    m_envVar->setObjectName(u"keyVariable"_s);
    m_keyFile->setObjectName(u"keyFile"_s);
    m_browse->setObjectName(u"browseKeyFile"_s);
    m_keychainKey->setObjectName(u"keychainKey"_s);
    m_stream->setObjectName(u"stream"_s);
    m_headers->setObjectName(u"extraHeaders"_s);
    m_contextWindow->setObjectName(u"contextWindow"_s);
    m_contextHint->setObjectName(u"contextHint"_s);
    m_fallback->setObjectName(u"fallback"_s);
    m_autoFallback->setObjectName(u"autoFallback"_s);
    m_issues->setObjectName(u"profileIssues"_s);
    m_builtIn->setObjectName(u"builtInNote"_s);

    m_builtIn->setWordWrap(true);
    m_builtIn->setText(tr("The built-in demo provider runs inside capwatch: it needs no account "
                          "and no key. Its retry policy, fallback, limits and prices can be "
                          "changed."));
    m_endpoint->setPlaceholderText(u"https://api.example.com/v1"_s);
    m_model->setEditable(true);
    m_model->setInsertPolicy(QComboBox::NoInsert);
    m_model->lineEdit()->setPlaceholderText(tr("model name, e.g. gpt-4o-mini"));
    m_model->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_model->setMinimumContentsLength(16);
    m_model->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_modelStatus->setWordWrap(true);
    m_keychainKey->setEchoMode(QLineEdit::Password);
    m_keychainKey->setPlaceholderText(
        tr("paste a key to store it; leave empty to keep the stored one"));
    m_headers->setPlaceholderText(tr("Name: value, one per line"));
    m_headers->setTabChangesFocus(true);
    m_headers->setFixedHeight(fontMetrics().lineSpacing() * 3 + 2 * m_headers->frameWidth() + 8);
    // Tokens; 0 is "Unknown": pacing and the gauge then know only what an error names. The
    // largest windows today are a few million tokens.
    m_contextWindow->setRange(0, 100'000'000);
    m_contextWindow->setSingleStep(1000);
    m_contextWindow->setGroupSeparatorShown(true);
    m_contextWindow->setSpecialValueText(tr("Unknown"));
    m_contextWindow->setSuffix(tr(" tokens"));
    m_contextHint->setWordWrap(true);
    m_contextHint->hide();

    auto *group = new QButtonGroup(this);
    group->addButton(m_fromEnv);
    group->addButton(m_fromFile);
    group->addButton(m_fromKeychain);

    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto *nameLabel = new QLabel(tr("&Name:"), editor);
    nameLabel->setBuddy(m_name);
    form->addRow(nameLabel, m_name);
    form->addRow(m_builtIn);
    auto *endpointLabel = new QLabel(tr("&Endpoint:"), editor);
    endpointLabel->setBuddy(m_endpoint);
    form->addRow(endpointLabel, m_endpoint);
    auto *modelLabel = new QLabel(tr("&Model:"), editor);
    modelLabel->setBuddy(m_model);
    auto *modelRow = new QHBoxLayout;
    modelRow->addWidget(m_model, 1);
    modelRow->addWidget(m_refresh);
    form->addRow(modelLabel, modelRow);
    form->addRow(QString(), m_modelStatus);

    auto *keyBox = new QGroupBox(tr("API key (never stored in the settings file)"), editor);
    keyBox->setObjectName(u"keyBox"_s);
    auto *keyForm = new QFormLayout(keyBox);
    keyForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    keyForm->addRow(m_fromEnv, m_envVar);
    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(m_keyFile, 1);
    fileRow->addWidget(m_browse);
    keyForm->addRow(m_fromFile, fileRow);
    keyForm->addRow(m_fromKeychain, m_keychainKey);

    auto *more = new QFormLayout;
    more->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto *headersLabel = new QLabel(tr("E&xtra headers:"), editor);
    headersLabel->setBuddy(m_headers);
    more->addRow(headersLabel, m_headers);
    auto *contextLabel = new QLabel(tr("C&ontext window:"), editor);
    contextLabel->setBuddy(m_contextWindow);
    more->addRow(contextLabel, m_contextWindow);
    more->addRow(QString(), m_contextHint);

    auto *fallbackBox = new QGroupBox(tr("When this provider is capped"), editor);
    fallbackBox->setObjectName(u"fallbackBox"_s);
    auto *fallbackForm = new QFormLayout(fallbackBox);
    fallbackForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto *fallbackLabel = new QLabel(tr("&Fallback:"), fallbackBox);
    fallbackLabel->setBuddy(m_fallback);
    fallbackForm->addRow(fallbackLabel, m_fallback);
    fallbackForm->addRow(m_autoFallback);

    auto *layout = new QVBoxLayout(editor);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(keyBox);
    layout->addWidget(m_stream);
    layout->addLayout(more);
    layout->addWidget(m_policy);
    layout->addWidget(fallbackBox);
    layout->addWidget(m_limits);
    layout->addWidget(m_prices);
    layout->addWidget(m_issues);
    layout->addStretch(1);

    m_name->setAccessibleName(tr("Profile name"));
    m_endpoint->setAccessibleName(tr("Endpoint"));
    m_endpoint->setAccessibleDescription(
        tr("Base URL of an OpenAI-compatible API, or its chat/completions URL"));
    m_model->setAccessibleName(tr("Model"));
    m_model->lineEdit()->setAccessibleName(tr("Model"));
    m_model->setAccessibleDescription(
        tr("The model name the provider expects: one it lists, or any name typed"));
    m_refresh->setAccessibleDescription(tr("Ask the provider again for the models it offers"));
    m_envVar->setAccessibleName(tr("Environment variable holding the key"));
    m_keyFile->setAccessibleName(tr("Key file path"));
    m_keychainKey->setAccessibleName(tr("Key to store in the system keychain"));
    m_browse->setAccessibleDescription(tr("Choose the key file"));
    m_headers->setAccessibleName(tr("Extra headers"));
    m_headers->setAccessibleDescription(
        tr("Sent with every request to this provider, one \"Name: value\" per line"));
    m_contextWindow->setAccessibleName(tr("Context window"));
    m_contextWindow->setAccessibleDescription(
        tr("The model's context window in tokens; 0 when unknown"));
    m_fallback->setAccessibleName(tr("Fallback profile"));
    m_fallback->setAccessibleDescription(
        tr("Where a send may go instead when this provider caps it"));
    m_autoFallback->setAccessibleName(tr("Send to the fallback automatically"));
    m_autoFallback->setAccessibleDescription(
        tr("When a send is capped, send it to the fallback without asking"));
    m_stream->setAccessibleName(tr("Stream answers"));

    const auto edited = [this] { commit(); };
    for (QLineEdit *e : { m_name, m_endpoint, m_envVar, m_keyFile, m_keychainKey })
        connect(e, &QLineEdit::textChanged, this, edited);
    connect(m_model, &QComboBox::editTextChanged, this, edited);
    connect(group, &QButtonGroup::buttonToggled, this, [this] {
        commit();
        updateEnabled();
    });
    connect(m_stream, &QCheckBox::toggled, this, edited);
    connect(m_headers, &QPlainTextEdit::textChanged, this, edited);
    connect(m_contextWindow, &QSpinBox::valueChanged, this, edited);
    connect(m_policy, &PolicyOverridesBox::edited, this, edited);
    connect(m_limits, &LimitsBox::edited, this, edited);
    connect(m_prices, &PriceOverridesBox::edited, this, edited);
    connect(m_fallback, &QComboBox::currentIndexChanged, this, [this] {
        commit();
        updateEnabled();
    });
    connect(m_autoFallback, &QCheckBox::toggled, this, edited);
    connect(m_browse, &QPushButton::clicked, this, &ProvidersPage::browseKeyFile);
    connect(m_refresh, &QPushButton::clicked, this, [this] { fetchModels(true); });
    connect(m_endpoint, &QLineEdit::editingFinished, this, [this] {
        const session::ProviderProfile *p = m_set.find(currentProfile());
        if (p && !p->builtInDemo && p->keySource != Source::Keychain)
            fetchModels(false);
    });
}

void ProvidersPage::load(int row)
{
    m_row = row;
    if (row < 0 || row >= m_set.profiles.size())
        return;
    m_loading = true;
    const session::ProviderProfile &p = m_set.profiles.at(row);
    m_name->setText(p.name);
    m_builtIn->setVisible(p.builtInDemo);
    m_endpoint->setText(p.builtInDemo ? QString() : p.endpoint.toString());
    m_model->clear();
    if (p.builtInDemo) {
        m_model->addItem(QString::fromUtf16(net::kDemoModel));
        m_model->setEditText(QString::fromUtf16(net::kDemoModel));
    } else {
        m_model->addItems(p.cachedModels);
        m_model->setEditText(p.model);
    }
    switch (p.keySource) {
    case Source::Environment:
        m_fromEnv->setChecked(true);
        break;
    case Source::KeyFile:
        m_fromFile->setChecked(true);
        break;
    case Source::Keychain:
        m_fromKeychain->setChecked(true);
        break;
    }
    m_envVar->setText(p.keyVariable);
    m_keyFile->setText(p.keyFile);
    m_keychainKey->setText(QString::fromUtf8(m_keys.value(p.id)));
    m_stream->setChecked(p.stream);
    m_headers->setPlainText(m_headerText.value(p.id));
    m_contextWindow->setValue(int(std::clamp<qint64>(
        p.contextWindow.value_or(0), m_contextWindow->minimum(), m_contextWindow->maximum())));
    if (m_hints.contains(p.id)) {
        m_contextHint->setText(
            tr("The provider named %1 tokens.").arg(QLocale().toString(m_hints.value(p.id))));
        m_contextHint->show();
        m_contextWindow->setAccessibleDescription(
            tr("The model's context window in tokens; 0 when unknown. %1")
                .arg(m_contextHint->text()));
    } else {
        m_contextHint->clear();
        m_contextHint->hide();
        m_contextWindow->setAccessibleDescription(
            tr("The model's context window in tokens; 0 when unknown"));
    }
    m_policy->setOverrides(p.overrides);
    m_limits->setProfile(p);
    m_prices->setRows(m_priceRows.value(p.id));
    m_prices->setModel(modelOf(p));
    fillFallback(p);
    m_autoFallback->setChecked(p.autoFallback);
    QStringList issues;
    for (const session::ProfileIssue &issue : m_set.issuesOf(p.id))
        issues << issue.text();
    if (issues.isEmpty())
        m_issues->hide();
    else
        m_issues->showMessage(InlineMessage::Kind::Warning,
            tr("The settings file has problems with this profile:\n%1").arg(issues.join(u'\n')));
    m_loading = false;
    updateEnabled();
    m_modelStatus->clear();
    m_modelStatus->setVisible(!p.builtInDemo);
    if (!p.builtInDemo) {
        if (!p.cachedModels.isEmpty())
            m_modelStatus->setText(modelCount(int(p.cachedModels.size())));
        // Opening a profile asks its endpoint for the models, except through a keychain, which
        // may ask to be unlocked: that waits for Refresh.
        if (p.keySource != Source::Keychain)
            fetchModels(false);
        else if (p.cachedModels.isEmpty())
            m_modelStatus->setText(tr("Refresh asks the provider for its models."));
    }
}

void ProvidersPage::fillFallback(const session::ProviderProfile &p)
{
    m_fallback->clear();
    m_fallback->addItem(tr("None"), QString());
    for (const auto &other : std::as_const(m_set.profiles)) {
        if (other.id != p.id)
            m_fallback->addItem(other.name, other.id);
    }
    m_fallback->setCurrentIndex(std::max(0, m_fallback->findData(p.fallback)));
}

void ProvidersPage::commit()
{
    if (m_loading || m_row < 0 || m_row >= m_set.profiles.size())
        return;
    session::ProviderProfile &p = m_set.profiles[m_row];
    p.name = m_name->text().trimmed();
    if (!p.builtInDemo) {
        p.endpoint = QUrl(m_endpoint->text().trimmed());
        p.model = m_model->currentText().trimmed();
        p.keySource = m_fromFile->isChecked() ? Source::KeyFile
            : m_fromKeychain->isChecked()     ? Source::Keychain
                                              : Source::Environment;
        p.keyVariable = m_envVar->text().trimmed();
        p.keyFile = m_keyFile->text().trimmed();
        if (p.keySource == Source::Keychain && p.keychainName.isEmpty()) {
            // Its own entry from now on: the one it had on the keychain when the page opened,
            // else a fresh one, never an entry a deleted or earlier profile left behind.
            const session::ProviderProfile *before = initialOf(p.id);
            p.keychainName = before && before->keySource == Source::Keychain
                ? before->keychainEntry()
                : session::newKeychainEntry();
        }
        m_keys.insert(p.id, m_keychainKey->text().trimmed().toUtf8());
        m_headerText.insert(p.id, m_headers->toPlainText());
        int bad = 0;
        p.extraHeaders = extraheaders::parse(m_headers->toPlainText(), &bad);
    }
    p.stream = m_stream->isChecked();
    p.contextWindow = m_contextWindow->value() > 0 ? std::optional<qint64>(m_contextWindow->value())
                                                   : std::nullopt;
    p.overrides = m_policy->overrides();
    p.spend = m_limits->spendLimits();
    p.declared = m_limits->declaredLimits();
    p.limitAction = m_limits->limitAction();
    m_priceRows.insert(p.id, m_prices->rows());
    pricerows::Problem priceProblem;
    p.prices = pricerows::parse(m_priceRows.value(p.id), &priceProblem);
    m_prices->setModel(modelOf(p));
    p.fallback = m_fallback->currentData().toString();
    p.autoFallback = !p.fallback.isEmpty() && m_autoFallback->isChecked();
    updateItem(m_row);
    Q_EMIT edited();
}

void ProvidersPage::updateEnabled()
{
    const session::ProviderProfile *p = m_set.find(currentProfile());
    const bool real = p && !p->builtInDemo;
    for (QWidget *w : std::initializer_list<QWidget *> { m_name, m_endpoint, m_model, m_refresh,
             m_fromEnv, m_fromFile, m_fromKeychain, m_headers })
        w->setEnabled(real);
    m_envVar->setEnabled(real && m_fromEnv->isChecked());
    m_keyFile->setEnabled(real && m_fromFile->isChecked());
    m_browse->setEnabled(real && m_fromFile->isChecked());
    m_keychainKey->setEnabled(real && m_fromKeychain->isChecked());
    m_autoFallback->setEnabled(m_fallback->currentIndex() > 0);
    m_delete->setEnabled(real);
    m_duplicate->setEnabled(real);
    m_default->setEnabled(p && p->id != m_set.defaultProfile);
}

void ProvidersPage::browseKeyFile()
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

} // namespace capwatch::ui
