#include "ui/profiles/providerspage.h"

#include "net/chatrequest.h"
#include "net/credentials.h"
#include "net/modellist.h"
#include "ui/profiles/keychain.h"
#include "ui/profiles/plainhttpwarning.h"
#include "ui/profiles/policyoverridesbox.h"
#include "ui/settings/settingsdialog.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

namespace capwatch::ui {

using namespace Qt::StringLiterals;
using Source = session::ProviderChoice::KeySource;

namespace {

QString headerText(const QList<std::pair<QByteArray, QByteArray>> &headers)
{
    QStringList lines;
    for (const auto &[name, value] : headers)
        lines << QString::fromUtf8(name) + u": "_s + QString::fromUtf8(value);
    return lines.join(u'\n');
}

/// "Name: value" per line; blank lines are skipped. `badLine` (1-based) is the first line that
/// is not a header, 0 when none.
QList<std::pair<QByteArray, QByteArray>> parseHeaders(const QString &text, int *badLine)
{
    QList<std::pair<QByteArray, QByteArray>> out;
    *badLine = 0;
    const QStringList lines = text.split(u'\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines.at(i).trimmed();
        if (line.isEmpty())
            continue;
        const qsizetype colon = line.indexOf(u':');
        const QString name = colon > 0 ? line.left(colon).trimmed() : QString();
        bool token = !name.isEmpty();
        for (const QChar ch : name)
            token = token && ch.unicode() > 32 && ch.unicode() < 127 && ch != u'(' && ch != u')'
                && ch != u',' && ch != u'/' && ch != u'"';
        if (!token) {
            if (*badLine == 0)
                *badLine = int(i + 1);
            continue;
        }
        out.append({ name.toLatin1(), line.mid(colon + 1).trimmed().toUtf8() });
    }
    return out;
}

QString modelCount(int n)
{
    return n == 1 ? ProvidersPage::tr("1 model") : ProvidersPage::tr("%n models", nullptr, n);
}

} // namespace

ProvidersPage::ProvidersPage(
    const session::ProfileSet &profiles, const QString &current, QWidget *parent)
    : QWidget(parent)
    , m_set(profiles)
    , m_list(new QListWidget(this))
    , m_add(new QPushButton(tr("&Add"), this))
    , m_duplicate(new QPushButton(tr("D&uplicate"), this))
    , m_delete(new QPushButton(tr("&Delete"), this))
    , m_default(new QPushButton(tr("Set as default"), this))
    , m_scroll(new QScrollArea(this))
    , m_editor(new QWidget)
    , m_name(new QLineEdit(m_editor))
    , m_builtIn(new QLabel(m_editor))
    , m_endpoint(new QLineEdit(m_editor))
    , m_model(new QComboBox(m_editor))
    , m_refresh(new QPushButton(tr("&Refresh"), m_editor))
    , m_modelStatus(new QLabel(m_editor))
    , m_fromEnv(new QRadioButton(tr("Environment &variable:"), m_editor))
    , m_fromFile(new QRadioButton(tr("Key f&ile:"), m_editor))
    , m_fromKeychain(new QRadioButton(tr("System &keychain:"), m_editor))
    , m_envVar(new QLineEdit(m_editor))
    , m_keyFile(new QLineEdit(m_editor))
    , m_browse(new QPushButton(tr("&Browse…"), m_editor))
    , m_keychainKey(new QLineEdit(m_editor))
    , m_stream(new QCheckBox(tr("&Stream answers as they are written"), m_editor))
    , m_headers(new QPlainTextEdit(m_editor))
    , m_contextWindow(new QSpinBox(m_editor))
    , m_contextHint(new QLabel(m_editor))
    , m_policy(new PolicyOverridesBox(m_editor))
    , m_fallback(new QComboBox(m_editor))
    , m_autoFallback(new QCheckBox(tr("Send to the fallback automatically"), m_editor))
    , m_issues(new InlineMessage(m_editor))
    , m_lister(new net::ModelLister(this))
{
    if (m_set.profiles.isEmpty() || !m_set.profiles.first().builtInDemo) {
        // Always there, always first (loadProfiles() gives it; a hand-made set may not).
        m_set.profiles.removeIf([](const session::ProviderProfile &p) { return p.builtInDemo; });
        m_set.profiles.prepend(profiles.demo());
    }
    if (!m_set.find(m_set.defaultProfile))
        m_set.defaultProfile = m_set.profiles.first().id;
    m_initial = m_set;
    for (const auto &p : std::as_const(m_set.profiles))
        m_headerText.insert(p.id, headerText(p.extraHeaders));

    m_list->setObjectName(u"profileList"_s);
    m_add->setObjectName(u"addProfile"_s);
    m_duplicate->setObjectName(u"duplicateProfile"_s);
    m_delete->setObjectName(u"deleteProfile"_s);
    m_default->setObjectName(u"defaultProfile"_s);
    m_scroll->setObjectName(u"profileEditor"_s);

    auto *listLabel = new QLabel(tr("&Profiles:"), this);
    listLabel->setBuddy(m_list);
    m_list->setAccessibleName(tr("Provider profiles"));
    m_list->setAccessibleDescription(
        tr("The providers capwatch can send to; the selected one is edited on the right. "
           "Delete removes it"));
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setMinimumWidth(fontMetrics().averageCharWidth() * 18);
    m_list->setMaximumWidth(fontMetrics().averageCharWidth() * 28);
    m_add->setAccessibleDescription(tr("Add a provider profile"));
    m_duplicate->setAccessibleDescription(tr("Add a copy of the selected profile"));
    m_delete->setAccessibleDescription(
        tr("Delete the selected profile; the built-in demo cannot be deleted"));
    m_default->setAccessibleDescription(tr("New conversations start with the selected profile"));
    // Delete on the list deletes the selected profile (not the demo).
    m_list->installEventFilter(this);

    auto *left = new QVBoxLayout;
    left->addWidget(listLabel);
    left->addWidget(m_list, 1);
    // One column, as wide as its longest label: the editor gets the width at the dialog's
    // smallest size (640 x 480 usable) instead of a second column of buttons.
    for (QPushButton *button : { m_add, m_duplicate, m_delete, m_default })
        left->addWidget(button);

    buildEditor(m_editor);
    m_scroll->setWidget(m_editor);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_scroll->setFocusPolicy(Qt::NoFocus);

    auto *layout = new QHBoxLayout(this);
    layout->addLayout(left);
    layout->addWidget(m_scroll, 1);

    // Tab order: the list, its buttons, then the editor top to bottom.
    QWidget::setTabOrder(m_list, m_add);
    QWidget::setTabOrder(m_add, m_duplicate);
    QWidget::setTabOrder(m_duplicate, m_delete);
    QWidget::setTabOrder(m_delete, m_default);
    QWidget::setTabOrder(m_default, m_name);

    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        commit();
        load(row);
    });
    connect(m_add, &QPushButton::clicked, this, &ProvidersPage::addProfile);
    connect(m_duplicate, &QPushButton::clicked, this, &ProvidersPage::duplicateProfile);
    connect(m_delete, &QPushButton::clicked, this, &ProvidersPage::deleteProfile);
    connect(m_default, &QPushButton::clicked, this, &ProvidersPage::makeDefault);
    connect(
        m_lister, &net::ModelLister::listed, this, [this](const QUrl &, const QStringList &models) {
            session::ProviderProfile *p = m_set.find(m_modelsFor);
            if (!p)
                return;
            p->cachedModels = models;
            if (currentProfile() != m_modelsFor)
                return;
            showModels(models);
            m_modelStatus->setText(models.isEmpty()
                    ? tr("This provider has no model list: type the model name")
                    : modelCount(int(models.size())));
        });
    connect(m_lister, &net::ModelLister::failed, this, [this](const QUrl &, const QString &reason) {
        const session::ProviderProfile *p = m_set.find(m_modelsFor);
        if (!p || currentProfile() != m_modelsFor)
            return;
        // The reason tells a wrong key (401) from a timeout or a provider without the list.
        m_modelStatus->setText(p->cachedModels.isEmpty()
                ? tr("No model list (%1): type the model name").arg(reason)
                : tr("%1 from the last list; the provider does not answer now (%2)")
                      .arg(modelCount(int(p->cachedModels.size())), reason));
    });

    fillList();
    const session::ProviderProfile *start = m_set.find(current);
    if (!start)
        start = m_set.find(m_set.defaultProfile);
    selectProfile(start ? start->id : m_set.profiles.first().id);
}

ProvidersPage::~ProvidersPage() = default;

bool ProvidersPage::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_list && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Delete && key->modifiers() == Qt::NoModifier) {
            deleteProfile();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

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
                          "and no key. Its retry policy and fallback can be changed."));
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

QString ProvidersPage::currentProfile() const
{
    return m_row >= 0 && m_row < m_set.profiles.size() ? m_set.profiles.at(m_row).id : QString();
}

void ProvidersPage::selectProfile(const QString &id)
{
    for (int i = 0; i < m_set.profiles.size(); ++i) {
        if (m_set.profiles.at(i).id == id) {
            m_list->setCurrentRow(i);
            if (m_row != i) { // the same row again: setCurrentRow() says nothing
                commit();
                load(i);
            }
            return;
        }
    }
}

QHash<QString, QByteArray> ProvidersPage::keychainKeys() const
{
    QHash<QString, QByteArray> out;
    for (const auto &p : m_set.profiles) {
        const QByteArray key = m_keys.value(p.id).trimmed();
        if (!p.builtInDemo && p.keySource == Source::Keychain && !key.isEmpty())
            out.insert(p.id, key);
    }
    return out;
}

QStringList ProvidersPage::removedKeychainEntries() const
{
    QStringList out = m_removedEntries;
    for (const session::ProviderProfile &before : m_initial.profiles) {
        if (before.builtInDemo || before.keySource != Source::Keychain
            || m_deletedIds.contains(before.id))
            continue;
        const session::ProviderProfile *now = m_set.find(before.id);
        if (now && now->id == before.id && now->keySource != Source::Keychain)
            out << before.keychainEntry(); // left the keychain
    }
    // An entry a profile uses (on the keychain) stays, whatever happened to another profile.
    out.removeIf([this](const QString &entry) {
        return std::any_of(m_set.profiles.cbegin(), m_set.profiles.cend(),
            [&entry](const session::ProviderProfile &p) {
                return !p.builtInDemo && p.keySource == Source::Keychain
                    && p.keychainEntry() == entry;
            });
    });
    out.removeDuplicates();
    return out;
}

QMessageBox *ProvidersPage::plainHttpWarning() const
{
    return m_plainHttpWarning;
}

const session::ProviderProfile *ProvidersPage::initialOf(const QString &id) const
{
    if (m_newIds.contains(id) || m_deletedIds.contains(id))
        return nullptr;
    const session::ProviderProfile *p = m_initial.find(id);
    return p && p->id == id ? p : nullptr;
}

void ProvidersPage::setContextHint(const QString &id, std::optional<qint64> learned)
{
    if (learned && *learned > 0)
        m_hints.insert(id, *learned);
    else
        m_hints.remove(id);
    if (id == currentProfile())
        load(m_row);
}

QString ProvidersPage::contextHint() const
{
    return m_contextHint->isHidden() ? QString() : m_contextHint->text();
}

void ProvidersPage::fillList()
{
    const QSignalBlocker blocker(m_list);
    m_list->clear();
    for (int i = 0; i < m_set.profiles.size(); ++i) {
        m_list->addItem(QString());
        updateItem(i);
    }
    if (m_row >= 0)
        m_list->setCurrentRow(m_row);
}

void ProvidersPage::updateItem(int row)
{
    QListWidgetItem *item = m_list->item(row);
    if (!item || row >= m_set.profiles.size())
        return;
    const session::ProviderProfile &p = m_set.profiles.at(row);
    const QString name = p.name.isEmpty() ? tr("(no name)") : p.name;
    const bool isDefault = p.id == m_set.defaultProfile;
    QString text = name;
    if (p.builtInDemo && isDefault)
        text = tr("%1 (built-in, default)").arg(name);
    else if (p.builtInDemo)
        text = tr("%1 (built-in)").arg(name);
    else if (isDefault)
        text = tr("%1 (default)").arg(name);
    item->setText(text);
    QFont f = item->font();
    f.setBold(isDefault);
    item->setFont(f);
    if (!m_set.issuesOf(p.id).isEmpty())
        item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
    else
        item->setIcon(QIcon());
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
        p.extraHeaders = parseHeaders(m_headers->toPlainText(), &bad);
    }
    p.stream = m_stream->isChecked();
    p.contextWindow = m_contextWindow->value() > 0 ? std::optional<qint64>(m_contextWindow->value())
                                                   : std::nullopt;
    p.overrides = m_policy->overrides();
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

QString ProvidersPage::uniqueName(const QString &base) const
{
    QString name = base;
    for (int n = 2;
         m_set.find(name) && m_set.find(name)->name.compare(name, Qt::CaseInsensitive) == 0; ++n)
        name = tr("%1 %2").arg(base).arg(n);
    return name;
}

void ProvidersPage::addProfile()
{
    commit();
    session::ProviderProfile p;
    p.name = uniqueName(tr("New provider"));
    p.id = session::makeProfileId(p.name, m_set);
    m_set.profiles.append(p);
    m_newIds << p.id;
    m_headerText.insert(p.id, QString());
    fillList();
    selectProfile(p.id);
    m_name->setFocus();
    m_name->selectAll();
    Q_EMIT edited();
}

void ProvidersPage::duplicateProfile()
{
    commit();
    const session::ProviderProfile *source = m_set.find(currentProfile());
    if (!source || source->builtInDemo)
        return;
    session::ProviderProfile p = *source;
    p.name = uniqueName(tr("%1 (copy)").arg(source->name));
    p.id = session::makeProfileId(p.name, m_set);
    m_headerText.insert(p.id, m_headerText.value(source->id));
    // A copy has its own keychain entry, and no key: a key typed (or stored) for the original
    // belongs to the original's provider, and the copy is usually pointed at another one.
    p.keychainName = p.keySource == Source::Keychain ? session::newKeychainEntry() : QString();
    m_set.profiles.insert(m_row + 1, p);
    m_newIds << p.id;
    fillList();
    selectProfile(p.id);
    m_name->setFocus();
    m_name->selectAll();
    Q_EMIT edited();
}

void ProvidersPage::deleteProfile()
{
    const int row = m_row;
    if (row < 0 || row >= m_set.profiles.size() || m_set.profiles.at(row).builtInDemo)
        return;
    const session::ProviderProfile gone = m_set.profiles.takeAt(row);
    if (!m_newIds.removeOne(gone.id)) {
        // Whatever its source now: an entry from an earlier keychain use goes with it too.
        if (const session::ProviderProfile *before = initialOf(gone.id))
            m_removedEntries << before->keychainEntry();
        m_removedEntries << gone.keychainEntry();
        m_deletedIds << gone.id;
    }
    m_keys.remove(gone.id);
    m_headerText.remove(gone.id);
    if (m_set.defaultProfile == gone.id)
        m_set.defaultProfile = m_set.demo().id;
    for (auto &p : m_set.profiles) {
        if (p.fallback == gone.id) {
            p.fallback.clear();
            p.autoFallback = false;
        }
    }
    m_row = -1;
    fillList();
    const int next = std::min<int>(row, int(m_set.profiles.size()) - 1);
    m_list->setCurrentRow(next);
    if (m_row != next)
        load(next);
    m_list->setFocus();
    Q_EMIT edited();
}

void ProvidersPage::makeDefault()
{
    commit();
    m_set.defaultProfile = currentProfile();
    for (int i = 0; i < m_set.profiles.size(); ++i)
        updateItem(i);
    updateEnabled();
    Q_EMIT edited();
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

std::optional<ProvidersPage::Problem> ProvidersPage::problemOf(
    const session::ProviderProfile &p) const
{
    const auto problem = [&p](const QString &message, QWidget *field) {
        return std::optional<Problem>(Problem { p.id, message, field });
    };
    // The fields first, each with its own words and its own field to correct.
    if (!p.builtInDemo) {
        if (!net::chatCompletionsUrl(p.endpoint).isValid())
            return problem(tr("The endpoint must be an http:// or https:// URL."), m_endpoint);
        if (p.model.isEmpty() && net::defaultModelFor(p.endpoint).isEmpty())
            return problem(tr("Name the model the provider should use."), m_model);
        if (p.keySource == Source::Environment && p.keyVariable.isEmpty()
            && !net::isLoopback(p.endpoint))
            return problem(tr("Name the environment variable that holds the key."), m_envVar);
        if (p.keySource == Source::KeyFile && p.keyFile.isEmpty())
            return problem(tr("Choose the key file."), m_keyFile);
        int bad = 0;
        parseHeaders(m_headerText.value(p.id), &bad);
        if (bad > 0)
            return problem(
                tr("Line %1 of the extra headers is not \"Name: value\".").arg(bad), m_headers);
    }
    // Then what the profiles' own rules say (a name taken, a header capwatch sets itself, a
    // fallback that is not a profile).
    using Field = session::ProfileProblem::Field;
    session::ProfileProblem shared = session::profileProblem(p, m_set);
    if (shared.isEmpty() && p.name.isEmpty())
        shared = { Field::Name, tr("Give the profile a name.") };
    if (shared.isEmpty()) {
        // Only an earlier profile counts: the later of two is the one to rename.
        for (const auto &other : m_set.profiles) {
            if (other.id == p.id)
                break;
            if (other.name.compare(p.name, Qt::CaseInsensitive) == 0)
                shared
                    = { Field::Name, tr("Another profile is already named “%1”.").arg(other.name) };
        }
    }
    if (shared.isEmpty())
        return std::nullopt;
    // By what the problem is about, never by its (translated) words.
    QWidget *field = m_name;
    switch (shared.field) {
    case Field::Endpoint:
        field = m_endpoint;
        break;
    case Field::Headers:
        field = m_headers;
        break;
    case Field::Fallback:
        field = m_fallback;
        break;
    case Field::None:
    case Field::Name:
    case Field::Id:
        break;
    }
    return problem(shared.message, field);
}

std::optional<ProvidersPage::Problem> ProvidersPage::problem() const
{
    if (const session::ProviderProfile *current = m_set.find(currentProfile())) {
        if (auto p = problemOf(*current))
            return p;
    }
    // The newest first: a profile added or copied here is the likelier one to correct.
    for (auto it = m_set.profiles.crbegin(); it != m_set.profiles.crend(); ++it) {
        if (auto found = problemOf(*it))
            return found;
    }
    return std::nullopt;
}

void ProvidersPage::showProblem(const Problem &problem)
{
    selectProfile(problem.profile);
    if (problem.field)
        problem.field->setFocus();
}

void ProvidersPage::settleNewIds()
{
    commit();
    for (const QString &oldId : std::as_const(m_newIds)) {
        session::ProfileSet others = m_set;
        others.profiles.removeIf(
            [&oldId](const session::ProviderProfile &p) { return p.id == oldId; });
        session::ProviderProfile *p = m_set.find(oldId);
        if (!p || p->id != oldId)
            continue;
        const QString id = session::makeProfileId(p->name, others);
        if (id == oldId)
            continue;
        p->id = id;
        for (auto &other : m_set.profiles) {
            if (other.fallback == oldId)
                other.fallback = id;
        }
        if (m_set.defaultProfile == oldId)
            m_set.defaultProfile = id;
        if (m_keys.contains(oldId))
            m_keys.insert(id, m_keys.take(oldId));
        if (m_headerText.contains(oldId))
            m_headerText.insert(id, m_headerText.take(oldId));
        if (m_modelsFor == oldId)
            m_modelsFor = id;
    }
    m_newIds.clear();
    // The fallback combo holds ids: it holds the new ones from now on.
    if (m_row >= 0 && m_row < m_set.profiles.size()) {
        m_loading = true;
        fillFallback(m_set.profiles.at(m_row));
        m_loading = false;
    }
}

void ProvidersPage::setBusy(bool busy)
{
    m_list->setEnabled(!busy);
    m_editor->setEnabled(!busy);
    for (QPushButton *b : { m_add, m_duplicate, m_delete, m_default })
        b->setEnabled(!busy);
    if (!busy)
        updateEnabled();
}

} // namespace capwatch::ui
