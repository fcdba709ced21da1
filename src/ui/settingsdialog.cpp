#include "settingsdialog.h"

#include "categorycolors.h"
#include "keychain.h"
#include "net/chatrequest.h"

#include <QAccessible>
#include <QButtonGroup>
#include <QCheckBox>
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
#include <QVBoxLayout>
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
    const QColor tint = m_kind == Kind::Error ? kErrorTint : p.color(QPalette::Highlight);
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
    const QIcon icon = style()->standardIcon(
        m_kind == Kind::Error ? QStyle::SP_MessageBoxWarning : QStyle::SP_MessageBoxInformation,
        nullptr, this);
    m_icon->setPixmap(icon.pixmap(QSize(size, size), devicePixelRatioF()));
    update();
}

SettingsDialog::SettingsDialog(
    const ProviderSettings &current, session::ParkingChoice parking, QWidget *parent)
    : QDialog(parent)
    , m_initial(current)
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
    , m_parkAsk(new QRadioButton(tr("&Ask each time"), this))
    , m_parkAutomatic(new QRadioButton(tr("&Park automatically until the reset"), this))
    , m_parkGiveUp(new QRadioButton(tr("&Give up"), this))
    , m_pacing(new QCheckBox(tr("Pa&ce sends so the provider's window is not exceeded"), this))
    , m_autoTrim(new QCheckBox(
          tr("&Leave out the oldest turns automatically when a conversation outgrows the model's "
             "context"),
          this))
    , m_contextLabel(new QLabel(this))
    , m_contextWindow(new QSpinBox(this))
    , m_contextHint(new QLabel(this))
    , m_fields(new QWidget(this))
    , m_message(new InlineMessage(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Settings"));
    m_useDemo->setObjectName(u"useDemo"_s);
    m_endpoint->setObjectName(u"endpoint"_s);
    m_model->setObjectName(u"model"_s);
    m_fromEnv->setObjectName(u"fromEnvironment"_s);
    m_fromFile->setObjectName(u"fromKeyFile"_s);
    m_fromKeychain->setObjectName(u"fromKeychain"_s);
    m_envVar->setObjectName(u"keyVariable"_s);
    m_keyFile->setObjectName(u"keyFile"_s);
    m_keychainKey->setObjectName(u"keychainKey"_s);
    m_stream->setObjectName(u"stream"_s);
    m_parkAsk->setObjectName(u"parkAsk"_s);
    m_parkAutomatic->setObjectName(u"parkAutomatic"_s);
    m_parkGiveUp->setObjectName(u"parkGiveUp"_s);
    m_message->setObjectName(u"message"_s);
    m_pacing->setObjectName(u"pacing"_s);
    m_autoTrim->setObjectName(u"autoTrim"_s);
    m_contextWindow->setObjectName(u"contextWindow"_s);
    m_contextHint->setObjectName(u"contextHint"_s);
    m_pacing->setChecked(true);
    m_autoTrim->setChecked(false);
    // Tokens; 0 is "Unknown": pacing and the gauge then know only what an error names. The
    // largest windows today are a few million tokens.
    m_contextWindow->setRange(0, 100'000'000);
    m_contextWindow->setSingleStep(1000);
    m_contextWindow->setGroupSeparatorShown(true);
    m_contextWindow->setSpecialValueText(tr("Unknown"));
    m_contextWindow->setSuffix(tr(" tokens"));
    m_contextLabel->setBuddy(m_contextWindow);
    m_contextLabel->setWordWrap(true);
    m_contextHint->setWordWrap(true);
    m_contextHint->hide();
    m_useDemo->setChecked(current.useDemo);
    m_stream->setChecked(current.stream);
    m_endpoint->setPlaceholderText(u"https://api.example.com/v1"_s);
    m_model->setPlaceholderText(tr("model name, e.g. gpt-4o-mini"));
    m_keychainKey->setEchoMode(QLineEdit::Password);
    m_keychainKey->setPlaceholderText(
        tr("paste a key to store it; leave empty to keep the stored one"));

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

    auto *providerBox = new QGroupBox(tr("Provider"), m_fields);
    auto *form = new QFormLayout(providerBox);
    auto *endpointLabel = new QLabel(tr("&Endpoint:"), providerBox);
    endpointLabel->setBuddy(m_endpoint);
    form->addRow(endpointLabel, m_endpoint);
    auto *modelLabel = new QLabel(tr("&Model:"), providerBox);
    modelLabel->setBuddy(m_model);
    form->addRow(modelLabel, m_model);

    auto *keyBox = new QGroupBox(tr("API key (never stored in the settings file)"), m_fields);
    auto *keyForm = new QFormLayout(keyBox);
    keyForm->addRow(m_fromEnv, m_envVar);
    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(m_keyFile);
    auto *browse = new QPushButton(tr("&Browse…"), keyBox);
    fileRow->addWidget(browse);
    keyForm->addRow(m_fromFile, fileRow);
    keyForm->addRow(m_fromKeychain, m_keychainKey);

    // Its own group, under the provider's, so Tab reaches it after them and the arrow keys move
    // between its three choices.
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
    auto *retriesBox = new QGroupBox(tr("Retries"), m_fields);
    retriesBox->setObjectName(u"retries"_s);
    auto *retries = new QVBoxLayout(retriesBox);
    const QString question = tr("When the provider's reset is beyond the retry budget:");
    auto *questionLabel = new QLabel(question, retriesBox);
    questionLabel->setWordWrap(true);
    retries->addWidget(questionLabel);
    retries->addWidget(m_parkAsk);
    retries->addWidget(m_parkAutomatic);
    retries->addWidget(m_parkGiveUp);
    // Pacing and context after the parking choice: Tab reaches them in the order they read.
    retries->addWidget(m_pacing);
    retries->addWidget(m_autoTrim);
    // A check box does not wrap: the dialog is as wide as its sentence, never cutting it.
    m_autoTrim->setMinimumWidth(m_autoTrim->sizeHint().width());
    m_pacing->setMinimumWidth(m_pacing->sizeHint().width());
    auto *contextRow = new QHBoxLayout;
    contextRow->addWidget(m_contextLabel, 1);
    contextRow->addWidget(m_contextWindow);
    retries->addLayout(contextRow);
    retries->addWidget(m_contextHint);

    auto *fields = new QVBoxLayout(m_fields);
    fields->setContentsMargins(0, 0, 0, 0);
    fields->addWidget(m_useDemo);
    fields->addWidget(providerBox);
    fields->addWidget(keyBox);
    fields->addWidget(m_stream);
    fields->addWidget(retriesBox);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_fields);
    layout->addWidget(m_message);
    layout->addWidget(m_buttons);

    m_useDemo->setAccessibleDescription(
        tr("Chat with the built-in capped provider instead of a real one"));
    m_endpoint->setAccessibleName(tr("Endpoint"));
    m_endpoint->setAccessibleDescription(
        tr("Base URL of an OpenAI-compatible API, or its chat/completions URL"));
    m_model->setAccessibleName(tr("Model"));
    m_model->setAccessibleDescription(tr("The model name the provider expects"));
    m_envVar->setAccessibleName(tr("Environment variable holding the key"));
    m_keyFile->setAccessibleName(tr("Key file path"));
    m_keychainKey->setAccessibleName(tr("Key to store in the system keychain"));
    browse->setAccessibleDescription(tr("Choose the key file"));
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
    setContextWindow(current.model, std::nullopt, std::nullopt);

    connect(m_useDemo, &QCheckBox::toggled, this, &SettingsDialog::updateEnabled);
    connect(group, &QButtonGroup::buttonToggled, this, &SettingsDialog::updateEnabled);
    connect(browse, &QPushButton::clicked, this, &SettingsDialog::browseKeyFile);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::tryAccept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    updateEnabled();
    // At least as wide as the layout needs: an explicit minimum replaces the layout's own.
    setMinimumWidth(std::max(fontMetrics().averageCharWidth() * 70, layout->minimumSize().width()));
}

ProviderSettings SettingsDialog::provider() const
{
    ProviderSettings p;
    p.useDemo = m_useDemo->isChecked();
    p.endpoint = m_endpoint->text().trimmed();
    p.model = m_model->text().trimmed();
    p.keySource = m_fromFile->isChecked() ? ProviderSettings::KeySource::KeyFile
        : m_fromKeychain->isChecked()     ? ProviderSettings::KeySource::Keychain
                                          : ProviderSettings::KeySource::Environment;
    p.keyVariable = m_envVar->text().trimmed();
    p.keyFile = m_keyFile->text().trimmed();
    p.stream = m_stream->isChecked();
    return p;
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

void SettingsDialog::setContextWindow(
    const QString &model, std::optional<qint64> userTokens, std::optional<qint64> learned)
{
    m_contextModel = model;
    const QString name = model.isEmpty() ? tr("the model") : model;
    m_contextLabel->setText(tr("Con&text window of %1:").arg(name));
    m_contextWindow->setAccessibleName(tr("Context window of %1").arg(name));
    m_contextWindow->setValue(int(std::clamp<qint64>(
        userTokens.value_or(0), m_contextWindow->minimum(), m_contextWindow->maximum())));
    if (learned && *learned > 0) {
        m_contextHint->setText(
            tr("The provider named %1 tokens.").arg(QLocale().toString(*learned)));
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
}

std::optional<qint64> SettingsDialog::contextWindow() const
{
    if (m_contextWindow->value() <= 0)
        return std::nullopt;
    return m_contextWindow->value();
}

QString SettingsDialog::contextHint() const
{
    return m_contextHint->isHidden() ? QString() : m_contextHint->text();
}

void SettingsDialog::saveTo(Settings &settings) const
{
    settings.setProvider(provider());
    settings.setParkingChoice(parkingChoice());
    settings.setPacingEnabled(pacingEnabled());
    settings.setAutoTrim(autoTrim());
}

QByteArray SettingsDialog::keychainKey() const
{
    return m_fromKeychain->isChecked() ? m_keychainKey->text().trimmed().toUtf8() : QByteArray();
}

void SettingsDialog::reject()
{
    ++m_keychainCheck; // a keychain answer still on its way no longer accepts the dialog
    QDialog::reject();
}

void SettingsDialog::updateEnabled()
{
    const bool real = !m_useDemo->isChecked();
    for (QWidget *w : std::initializer_list<QWidget *> {
             m_endpoint, m_model, m_fromEnv, m_fromFile, m_fromKeychain })
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
    QWidget *culprit = nullptr;
    const ProviderSettings p = provider();
    if (!p.useDemo) {
        if (!net::chatCompletionsUrl(QUrl(p.endpoint)).isValid()) {
            error = tr("The endpoint must be an http:// or https:// URL.");
            culprit = m_endpoint;
        } else if (p.model.isEmpty()) {
            error = tr("Name the model the provider should use.");
            culprit = m_model;
        } else if (p.keySource == ProviderSettings::KeySource::Environment
            && p.keyVariable.isEmpty()) {
            error = tr("Name the environment variable that holds the key.");
            culprit = m_envVar;
        } else if (p.keySource == ProviderSettings::KeySource::KeyFile && p.keyFile.isEmpty()) {
            error = tr("Choose the key file.");
            culprit = m_keyFile;
        }
    }
    if (error.isEmpty()) {
        m_message->hide();
        return true;
    }
    showMessage(InlineMessage::Kind::Error, error);
    culprit->setFocus();
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
    m_fields->setEnabled(!checking);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!checking);
}

void SettingsDialog::tryAccept()
{
    if (!validate())
        return;
    const ProviderSettings p = provider();
    const QByteArray key = keychainKey();
    const bool newlyKeychain
        = m_initial.useDemo || m_initial.keySource != ProviderSettings::KeySource::Keychain;
    if (p.useDemo || p.keySource != ProviderSettings::KeySource::Keychain
        || (key.isEmpty() && !newlyKeychain)) {
        accept();
        return;
    }
    // Nothing is accepted (so nothing is saved) until the keychain did its part: a keychain that
    // fails leaves the previous key source in use and says why, here, where another can be chosen.
    const quint64 check = ++m_keychainCheck;
    setChecking(true);
    if (!key.isEmpty()) {
        showMessage(
            InlineMessage::Kind::Information, tr("Storing the key in the system keychain…"));
        Keychain::write(this, key, [this, check](const QString &error) {
            if (check != m_keychainCheck)
                return;
            setChecking(false);
            if (!error.isEmpty()) {
                showMessage(InlineMessage::Kind::Error,
                    tr("The key was not stored: %1. Your settings are unchanged: choose "
                       "another key source, or try again.")
                        .arg(error));
                return;
            }
            m_message->hide();
            accept();
        });
        return;
    }
    showMessage(InlineMessage::Kind::Information, tr("Checking the system keychain…"));
    Keychain::read(this, [this, check](const QByteArray &stored, const QString &error) {
        if (check != m_keychainCheck)
            return;
        setChecking(false);
        if (!error.isEmpty() || stored.isEmpty()) {
            showMessage(InlineMessage::Kind::Error,
                tr("The system keychain cannot be used: %1. Your settings are unchanged: "
                   "paste a key to store it, or choose another key source.")
                    .arg(error.isEmpty() ? tr("the stored key is empty") : error));
            m_keychainKey->setFocus();
            return;
        }
        m_message->hide();
        accept();
    });
}

} // namespace capwatch::ui
