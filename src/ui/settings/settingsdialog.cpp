#include "ui/settings/settingsdialog.h"

#include "net/chatrequest.h"
#include "ui/panel/categorycolors.h"
#include "ui/profiles/keychain.h"
#include "ui/profiles/providerspage.h"

#include <QAccessible>
#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPainter>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QStyle>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

namespace {

/// WCAG 2 relative luminance and contrast ratio.
double luminance(const QColor &c)
{
    const auto channel
        = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

double contrast(const QColor &a, const QColor &b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// The palette has no role for "error": this is the hue of Breeze's negative text, used only as
// a fifth of the background, so the palette's own colours decide light or dark.
const QColor kErrorTint(0xda, 0x44, 0x53);
const QColor kWarningTint(0xf6, 0x74, 0x00); // Breeze's neutral text
constexpr double kTint = 0.2;
constexpr double kMinContrast = 4.5; // WCAG AA for body text

} // namespace

InlineMessage::InlineMessage(QWidget *parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_text(new QLabel(this))
{
    setFrameShape(QFrame::NoFrame);
    m_text->setObjectName(u"messageText"_s);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *layout = new QHBoxLayout(this);
    const int margin = fontMetrics().height() / 2;
    layout->setContentsMargins(margin, margin, margin, margin);
    layout->setSpacing(margin);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
    updateLook();
    hide();
}

void InlineMessage::showMessage(Kind kind, const QString &text)
{
    m_kind = kind;
    m_text->setText(text);
    updateLook();
    show();
    updateGeometry(); // its height for a width changed with the text: now, not on the next layout
                      // pass
    if (kind == Kind::Error) {
        QAccessibleEvent alert(m_text, QAccessible::Alert);
        QAccessible::updateAccessibility(&alert);
    }
}

QString InlineMessage::text() const
{
    return m_text->text();
}

void InlineMessage::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(m_border, 1));
    painter.setBrush(m_background);
    const qreal radius = fontMetrics().height() / 4.0;
    painter.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), radius, radius);
}

void InlineMessage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        updateLook();
    QFrame::changeEvent(event);
}

void InlineMessage::updateLook()
{
    const QPalette p = palette();
    const QColor window = p.color(QPalette::Window);
    const QColor tint = m_kind == Kind::Error ? kErrorTint
        : m_kind == Kind::Warning             ? kWarningTint
                                              : p.color(QPalette::Highlight);
    m_background = blend(window, tint, kTint);
    m_border = blend(window, tint, 3 * kTint);
    QColor text = p.color(QPalette::WindowText);
    if (contrast(text, m_background)
        < kMinContrast) // a palette whose text barely reads on its window
        text = contrast(Qt::black, m_background) > contrast(Qt::white, m_background)
            ? QColor(Qt::black)
            : QColor(Qt::white);
    QPalette tp = m_text->palette();
    tp.setColor(QPalette::WindowText, text);
    tp.setColor(QPalette::Text, text);
    m_text->setPalette(tp);

    const int size = style()->pixelMetric(QStyle::PM_ToolBarIconSize, nullptr, this);
    const QIcon icon
        = style()->standardIcon(m_kind == Kind::Information ? QStyle::SP_MessageBoxInformation
                                                            : QStyle::SP_MessageBoxWarning,
            nullptr, this);
    m_icon->setPixmap(icon.pixmap(QSize(size, size), devicePixelRatioF()));
    update();
}

namespace {

/// The demo and, when it was configured, the single provider of before profiles as "Default".
session::ProfileSet profilesFrom(const ProviderSettings &p)
{
    session::ProfileSet set;
    set.profiles.append(set.demo());
    session::ProviderProfile d;
    d.id = u"default"_s;
    d.name = QCoreApplication::translate("capwatch::ui::SettingsDialog", "Default");
    d.endpoint = QUrl(p.endpoint);
    d.model = p.model;
    d.keySource = p.choiceKeySource();
    d.keyVariable = p.keyVariable;
    d.keyFile = p.keyFile;
    d.stream = p.stream;
    d.keychainName = u"api-key"_s; // where the single provider of before stored its key
    set.profiles.append(d);
    set.defaultProfile = p.useDemo ? set.demo().id : d.id;
    return set;
}

} // namespace

SettingsDialog::SettingsDialog(
    const ProviderSettings &current, session::ParkingChoice parking, QWidget *parent)
    : SettingsDialog(profilesFrom(current),
        current.useDemo ? QString::fromUtf16(session::kDemoProfileId) : u"default"_s, parking,
        parent)
{ }

SettingsDialog::SettingsDialog(const session::ProfileSet &profiles, const QString &current,
    session::ParkingChoice parking, QWidget *parent)
    : QDialog(parent)
    , m_initial(profiles)
    , m_providers(new ProvidersPage(profiles, current, this))
    , m_tabs(new QTabWidget(this))
    , m_parkAsk(new QRadioButton(tr("&Ask each time"), this))
    , m_parkAutomatic(new QRadioButton(tr("&Park automatically until the reset"), this))
    , m_parkGiveUp(new QRadioButton(tr("&Give up"), this))
    , m_pacing(new QCheckBox(tr("Pa&ce sends so the provider's window is not exceeded"), this))
    , m_autoTrim(new QCheckBox(tr("&Leave out the oldest turns automatically"), this))
    , m_autoContinue(new QComboBox(this))
    , m_message(new InlineMessage(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Settings"));
    m_providers->setObjectName(u"providersPage"_s);
    m_tabs->setObjectName(u"settingsPages"_s);
    m_parkAsk->setObjectName(u"parkAsk"_s);
    m_parkAutomatic->setObjectName(u"parkAutomatic"_s);
    m_parkGiveUp->setObjectName(u"parkGiveUp"_s);
    m_message->setObjectName(u"message"_s);
    m_pacing->setObjectName(u"pacing"_s);
    m_autoTrim->setObjectName(u"autoTrim"_s);
    m_pacing->setChecked(true);
    m_autoTrim->setChecked(false);

    // Its own group, so the arrow keys move between its three choices.
    auto *parkingGroup = new QButtonGroup(this);
    parkingGroup->addButton(m_parkAsk);
    parkingGroup->addButton(m_parkAutomatic);
    parkingGroup->addButton(m_parkGiveUp);
    switch (parking) {
    case session::ParkingChoice::Ask:
        m_parkAsk->setChecked(true);
        break;
    case session::ParkingChoice::Automatic:
        m_parkAutomatic->setChecked(true);
        break;
    case session::ParkingChoice::GiveUp:
        m_parkGiveUp->setChecked(true);
        break;
    }
    auto *retriesPage = new QWidget(this);
    retriesPage->setObjectName(u"retriesPage"_s);
    auto *retriesBox = new QGroupBox(tr("Retries"), retriesPage);
    retriesBox->setObjectName(u"retries"_s);
    auto *retries = new QVBoxLayout(retriesBox);
    const QString question = tr("When the provider's reset is beyond the retry budget:");
    auto *questionLabel = new QLabel(question, retriesBox);
    questionLabel->setWordWrap(true);
    retries->addWidget(questionLabel);
    retries->addWidget(m_parkAsk);
    retries->addWidget(m_parkAutomatic);
    retries->addWidget(m_parkGiveUp);
    // Pacing and trimming after the parking choice: Tab reaches them in the order they read.
    retries->addWidget(m_pacing);
    retries->addWidget(m_autoTrim);
    // The rest of the sentence wraps under it: a check box does not, and the dialog has to fit a
    // small screen.
    auto *trimNote = new QLabel(tr("When a conversation outgrows the model's context; the "
                                   "conversation says what was left out."),
        retriesBox);
    trimNote->setObjectName(u"autoTrimNote"_s);
    trimNote->setWordWrap(true);
    trimNote->setIndent(style()->pixelMetric(QStyle::PM_IndicatorWidth, nullptr, m_autoTrim)
        + style()->pixelMetric(QStyle::PM_CheckBoxLabelSpacing, nullptr, m_autoTrim));
    retries->addWidget(trimNote);
    auto *note = new QLabel(tr("The numbers of the retry policy (waits, budget, attempts) are "
                               "each provider's: Providers, Retry policy."),
        retriesBox);
    note->setObjectName(u"policyNote"_s);
    note->setWordWrap(true);
    retries->addWidget(note);
    // Answers cut off at the output limit: continued by themselves, up to 3 times in a row.
    auto *answersBox = new QGroupBox(tr("Answers"), retriesPage);
    answersBox->setObjectName(u"answers"_s);
    auto *answers = new QVBoxLayout(answersBox);
    const QString continueQuestion
        = tr("Contin&ue answers cut off at the output limit by themselves:");
    auto *continueLabel = new QLabel(continueQuestion, answersBox);
    continueLabel->setWordWrap(true);
    continueLabel->setBuddy(m_autoContinue);
    m_autoContinue->setObjectName(u"autoContinue"_s);
    m_autoContinue->addItem(tr("Never"), 0);
    m_autoContinue->addItem(tr("Once"), 1);
    for (int times = 2; times <= session::kMaxAutoContinues; ++times)
        m_autoContinue->addItem(tr("Up to %1 times in a row").arg(times), times);
    m_autoContinue->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto *continueRow = new QHBoxLayout;
    continueRow->addWidget(m_autoContinue);
    continueRow->addStretch(1);
    answers->addWidget(continueLabel);
    answers->addLayout(continueRow);
    auto *continueNote = new QLabel(tr("An interrupted answer is never continued by itself: "
                                       "Continue under it goes on with it."),
        answersBox);
    continueNote->setObjectName(u"autoContinueNote"_s);
    continueNote->setWordWrap(true);
    answers->addWidget(continueNote);
    m_autoContinue->setAccessibleName(tr("Continue cut-off answers by themselves"));
    m_autoContinue->setAccessibleDescription(
        tr("How many times in a row an answer cut off at the output limit is continued without "
           "asking; what comes joins the same answer"));

    auto *retriesLayout = new QVBoxLayout(retriesPage);
    retriesLayout->addWidget(retriesBox);
    retriesLayout->addWidget(answersBox);
    retriesLayout->addStretch(1);
    // A check box does not wrap: never narrower than its sentence.
    m_autoTrim->setMinimumWidth(m_autoTrim->sizeHint().width());
    m_pacing->setMinimumWidth(m_pacing->sizeHint().width());

    m_tabs->addTab(m_providers, tr("Providers"));
    m_tabs->addTab(retriesPage, tr("Retries"));
    m_tabs->setDocumentMode(false);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_message);
    layout->addWidget(m_buttons);

    retriesBox->setAccessibleDescription(question);
    // The question goes with each choice, so a screen reader says what they are about.
    m_parkAsk->setAccessibleName(tr("Ask each time"));
    m_parkAsk->setAccessibleDescription(
        tr("%1 offer to send it again at the reset, beside Retry now").arg(question));
    m_parkAutomatic->setAccessibleName(tr("Park automatically until the reset"));
    m_parkAutomatic->setAccessibleDescription(
        tr("%1 wait for the reset and send it again then, without asking").arg(question));
    m_parkGiveUp->setAccessibleName(tr("Give up"));
    m_parkGiveUp->setAccessibleDescription(
        tr("%1 give up, as within the budget; Retry now sends it again").arg(question));

    m_pacing->setAccessibleName(tr("Pace sends"));
    m_pacing->setAccessibleDescription(
        tr("Before a send, wait up to 60 s for the provider's window to reset when its last "
           "report says the send will not fit"));
    m_autoTrim->setAccessibleName(tr("Leave out the oldest turns automatically"));
    m_autoTrim->setAccessibleDescription(
        tr("When a conversation outgrows the model's context, leave out its oldest turns "
           "without asking; the conversation says what was left out"));

    connect(m_providers, &ProvidersPage::edited, this, [this] {
        if (m_message->isVisible() && m_message->kind() == InlineMessage::Kind::Error
            && !m_providers->problem())
            m_message->hide();
    });
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::tryAccept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    // No wider than about 760 px at 100 %, usable in a 640 x 480 window: the editor scrolls.
    const int em = fontMetrics().averageCharWidth();
    // At least what the layout needs (a check box's sentence does not wrap): an explicit
    // minimum replaces the layout's own.
    layout->activate();
    setMinimumSize(std::max(std::min(em * 90, 620), layout->minimumSize().width()),
        std::max(std::min(fontMetrics().lineSpacing() * 30, 460), layout->minimumSize().height()));
    resize(std::max(minimumWidth(), std::min(760, em * 118)),
        std::max(minimumHeight(), std::min(660, fontMetrics().lineSpacing() * 38)));
}

session::ProfileSet SettingsDialog::profiles() const
{
    return m_providers->profiles();
}

QString SettingsDialog::currentProfile() const
{
    return m_providers->currentProfile();
}

session::ParkingChoice SettingsDialog::parkingChoice() const
{
    return m_parkAutomatic->isChecked() ? session::ParkingChoice::Automatic
        : m_parkGiveUp->isChecked()     ? session::ParkingChoice::GiveUp
                                        : session::ParkingChoice::Ask;
}

void SettingsDialog::setPacing(bool enabled, bool autoTrim)
{
    m_pacing->setChecked(enabled);
    m_autoTrim->setChecked(autoTrim);
}

bool SettingsDialog::pacingEnabled() const
{
    return m_pacing->isChecked();
}

bool SettingsDialog::autoTrim() const
{
    return m_autoTrim->isChecked();
}

void SettingsDialog::setAutoContinue(int times)
{
    m_autoContinue->setCurrentIndex(std::clamp(times, 0, session::kMaxAutoContinues));
}

int SettingsDialog::autoContinue() const
{
    return m_autoContinue->currentData().toInt();
}

void SettingsDialog::setContextHint(const QString &profile, std::optional<qint64> learned)
{
    m_providers->setContextHint(profile, learned);
}

std::optional<qint64> SettingsDialog::contextWindow() const
{
    const session::ProfileSet set = profiles();
    const session::ProviderProfile *p = set.find(currentProfile());
    return p ? p->contextWindow : std::nullopt;
}

QString SettingsDialog::contextHint() const
{
    return m_providers->contextHint();
}

void SettingsDialog::saveTo(Settings &settings) const
{
    settings.setProfiles(profiles());
    settings.setParkingChoice(parkingChoice());
    settings.setPacingEnabled(pacingEnabled());
    settings.setAutoTrim(autoTrim());
    settings.setAutoContinue(autoContinue());
}

QHash<QString, QByteArray> SettingsDialog::keychainKeys() const
{
    return m_providers->keychainKeys();
}

QByteArray SettingsDialog::keychainKey() const
{
    return keychainKeys().value(currentProfile());
}

void SettingsDialog::reject()
{
    ++m_keychainCheck; // a keychain answer still on its way no longer accepts the dialog
    m_steps.clear();
    QDialog::reject();
}

bool SettingsDialog::validate()
{
    const std::optional<ProvidersPage::Problem> problem = m_providers->problem();
    if (!problem) {
        m_message->hide();
        return true;
    }
    m_tabs->setCurrentWidget(m_providers);
    m_providers->showProblem(*problem);
    showMessage(InlineMessage::Kind::Error, problem->message);
    return false;
}

void SettingsDialog::showMessage(InlineMessage::Kind kind, const QString &text)
{
    m_message->showMessage(kind, text);
    // A top-level window does not grow by itself for wrapped text: make room for every line.
    layout()->activate();
    const int needed = layout()->hasHeightForWidth() ? layout()->totalHeightForWidth(width())
                                                     : layout()->totalMinimumSize().height();
    if (height() < needed)
        resize(width(), needed);
}

void SettingsDialog::setChecking(bool checking)
{
    m_providers->setBusy(checking);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!checking);
}

void SettingsDialog::tryAccept()
{
    if (!validate())
        return;
    m_providers->settleNewIds();
    // Nothing is accepted (so nothing is saved) until the keychain did its part: a keychain that
    // fails leaves the previous key sources in use and says why, here, where another can be
    // chosen. Each profile has its own entry: a typed key is stored there; a profile newly on
    // the keychain without a typed key must find one there.
    using ChoiceSource = session::ProviderChoice::KeySource;
    const session::ProfileSet set = profiles();
    const QHash<QString, QByteArray> typed = keychainKeys();
    m_steps.clear();
    // In three rounds: the checks (nothing changed yet if one fails), then the removals, then
    // the writes, so a key typed now is never deleted by the removal of an entry of a profile
    // deleted or taken off the keychain here.
    QList<KeychainStep> writes;
    for (const session::ProviderProfile &p : set.profiles) {
        if (p.builtInDemo || p.keySource != ChoiceSource::Keychain)
            continue;
        const session::ProviderProfile *before = m_initial.find(p.id);
        // A profile on another entry than before (a new one, or one that took a deleted
        // profile's id) is newly on the keychain too: its entry must hold a key.
        const bool newlyKeychain = !before || before->id != p.id || before->builtInDemo
            || before->keySource != ChoiceSource::Keychain
            || before->keychainEntry() != p.keychainEntry();
        const QByteArray key = typed.value(p.id);
        if (!key.isEmpty())
            writes.append({ p.id, p.keychainEntry(), key, false });
        else if (newlyKeychain)
            m_steps.append({ p.id, p.keychainEntry(), QByteArray(), false });
    }
    for (const QString &entry : m_providers->removedKeychainEntries())
        m_steps.append({ QString(), entry, QByteArray(), true });
    m_steps += writes;
    ++m_keychainCheck;
    if (m_steps.isEmpty()) {
        accept();
        return;
    }
    setChecking(true);
    runKeychainStep();
}

void SettingsDialog::runKeychainStep()
{
    if (m_steps.isEmpty()) {
        setChecking(false);
        m_message->hide();
        accept();
        return;
    }
    const KeychainStep step = m_steps.first();
    const quint64 check = m_keychainCheck;
    const session::ProfileSet set = profiles();
    const session::ProviderProfile *p = set.find(step.profile);
    const QString name = p ? p->name : QString();
    const bool several = set.profiles.size() > 2;
    const auto failed = [this, step](const QString &text) {
        m_steps.clear();
        setChecking(false);
        showMessage(InlineMessage::Kind::Error, text);
        m_tabs->setCurrentWidget(m_providers);
        m_providers->selectProfile(step.profile);
    };
    if (step.remove) {
        // A deleted profile's key: gone with it; a keychain that cannot delete it says nothing
        // here (the key stays where it was, used by no profile).
        Keychain::write(this, step.entry, QByteArray(), [this, check](const QString &) {
            if (check != m_keychainCheck)
                return;
            m_steps.removeFirst();
            runKeychainStep();
        });
        return;
    }
    if (!step.key.isEmpty()) {
        showMessage(InlineMessage::Kind::Information,
            several ? tr("Storing the key of “%1” in the system keychain…").arg(name)
                    : tr("Storing the key in the system keychain…"));
        Keychain::write(
            this, step.entry, step.key, [this, check, failed, several, name](const QString &error) {
                if (check != m_keychainCheck)
                    return;
                if (!error.isEmpty()) {
                    const QString text = several
                        ? tr("The key of “%1” was not stored: %2. Your settings are unchanged: "
                             "choose another key source, or try again.")
                              .arg(name, error)
                        : tr("The key was not stored: %1. Your settings are unchanged: choose "
                             "another key source, or try again.")
                              .arg(error);
                    failed(text);
                    return;
                }
                m_steps.removeFirst();
                runKeychainStep();
            });
        return;
    }
    showMessage(InlineMessage::Kind::Information,
        several ? tr("Checking the system keychain for “%1”…").arg(name)
                : tr("Checking the system keychain…"));
    Keychain::read(this, step.entry,
        [this, check, failed, several, name](const QByteArray &stored, const QString &error) {
            if (check != m_keychainCheck)
                return;
            if (!error.isEmpty() || stored.isEmpty()) {
                const QString why = error.isEmpty() ? tr("the stored key is empty") : error;
                failed(several ? tr("The system keychain cannot be used for “%1”: %2. Your "
                                    "settings are unchanged: paste a key to store it, or choose "
                                    "another key source.")
                                     .arg(name, why)
                               : tr("The system keychain cannot be used: %1. Your settings are "
                                    "unchanged: paste a key to store it, or choose another key "
                                    "source.")
                                     .arg(why));
                if (auto *field = m_providers->findChild<QWidget *>(u"keychainKey"_s))
                    field->setFocus();
                return;
            }
            m_steps.removeFirst();
            runKeychainStep();
        });
}

} // namespace capwatch::ui
