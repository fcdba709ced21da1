#include "ui/profiles/providerspage.h"

#include "net/chatrequest.h"
#include "net/modellist.h"
#include "retry/pricetable.h"
#include "ui/profiles/extraheaders.h"
#include "ui/profiles/limitsbox.h"
#include "ui/profiles/policyoverridesbox.h"
#include "ui/profiles/priceoverridesbox.h"
#include "ui/profiles/providerspage_p.h"
#include "ui/settings/settingsdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
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
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

QString modelCount(int n)
{
    return n == 1 ? ProvidersPage::tr("1 model") : ProvidersPage::tr("%n models", nullptr, n);
}

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
    , m_limits(new LimitsBox(m_editor))
    , m_prices(new PriceOverridesBox(m_editor))
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
    for (const auto &p : std::as_const(m_set.profiles)) {
        m_headerText.insert(p.id, extraheaders::toText(p.extraHeaders));
        m_priceRows.insert(p.id, pricerows::toRows(p.prices));
    }

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
    // The editor scrolls down, not sideways: the page, and so the dialog at its smallest, is as
    // wide as the editor's widest row (the model row, the key box; in German the key box) needs
    // beside the scroll bar. Cut at the right, its fields and arrows were out of sight.
    m_scroll->setMinimumWidth(m_editor->minimumSizeHint().width()
        + style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_scroll));

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
    // The profiles' lines whole ("Demo (built-in, default)", bold): at the dialog's smallest
    // up to 28 characters (in German the editor needs the rest of 640 px), when wider up to 40.
    const int em = fontMetrics().averageCharWidth();
    const int lines = m_list->sizeHintForColumn(0) + 2 * m_list->frameWidth() + 4;
    m_list->setMinimumWidth(std::clamp(lines, em * 18, em * 28));
    m_list->setMaximumWidth(std::clamp(lines, em * 28, em * 40));
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
    m_priceRows.insert(p.id, {});
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
    m_priceRows.insert(p.id, m_priceRows.value(source->id));
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
    m_priceRows.remove(gone.id);
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
        extraheaders::parse(m_headerText.value(p.id), &bad);
        if (bad > 0)
            return problem(
                tr("Line %1 of the extra headers is not \"Name: value\".").arg(bad), m_headers);
    }
    // The demo's prices too: they are its to set.
    pricerows::Problem price;
    pricerows::parse(m_priceRows.value(p.id), &price);
    switch (price.kind) {
    case pricerows::Problem::Kind::None:
        break;
    case pricerows::Problem::Kind::NoModel:
        return problem(
            tr("Row %1 of the prices names no model.").arg(price.row), m_prices->table());
    case pricerows::Problem::Kind::LongModel:
        return problem(tr("Row %1 of the prices: a model name is at most %2 characters.")
                           .arg(price.row)
                           .arg(retry::kMaxModelNameBytes),
            m_prices->table());
    case pricerows::Problem::Kind::NotAPrice:
        if (price.text.isEmpty())
            return problem(price.column == pricerows::InputColumn
                    ? tr("Row %1 of the prices needs an input price.").arg(price.row)
                    : tr("Row %1 of the prices needs an output price.").arg(price.row),
                m_prices->table());
        return problem(
            tr("Row %1 of the prices: “%2” is not a price from 0 to %3 per million tokens.")
                .arg(price.row)
                .arg(price.text, QLocale().toString(retry::kMaxPricePerMTok, 'f', 0)),
            m_prices->table());
    case pricerows::Problem::Kind::Twice:
        return problem(
            tr("Row %1 of the prices: “%2” has a price already.").arg(price.row).arg(price.text),
            m_prices->table());
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
    if (problem.field == m_prices->table()) {
        // The cell to correct, not only the table.
        pricerows::Problem price;
        pricerows::parse(m_priceRows.value(problem.profile), &price);
        m_prices->focusCell(price.row, price.column);
    }
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
        if (m_priceRows.contains(oldId))
            m_priceRows.insert(id, m_priceRows.take(oldId));
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
