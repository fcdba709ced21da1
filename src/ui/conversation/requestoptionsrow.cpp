#include "ui/conversation/requestoptionsrow.h"

#include "net/chatrequest.h"

#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

RequestOptionsRow::RequestOptionsRow(Settings &settings, QWidget *parent)
    : QWidget(parent)
    , m_settings(settings)
    , m_toggle(new QToolButton(this))
    , m_panel(new QWidget(this))
    , m_systemLabel(new QLabel(m_panel))
    , m_systemPrompt(new QPlainTextEdit(m_panel))
    , m_maxTokensLabel(new QLabel(m_panel))
    , m_maxTokens(new QSpinBox(m_panel))
    , m_temperatureLabel(new QLabel(m_panel))
    , m_temperature(new QDoubleSpinBox(m_panel))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_toggle->setObjectName(u"requestOptionsToggle"_s);
    m_toggle->setCheckable(true);
    m_toggle->setAutoRaise(true);
    m_toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    layout->addWidget(m_toggle, 0, Qt::AlignLeft);

    auto *grid = new QGridLayout(m_panel);
    grid->setContentsMargins(fontMetrics().height(), 0, 0, 0);
    m_systemPrompt->setObjectName(u"systemPrompt"_s);
    m_systemPrompt->setTabChangesFocus(true);
    m_systemPrompt->setFixedHeight(fontMetrics().height() * 3);
    m_systemLabel->setBuddy(m_systemPrompt);
    m_maxTokens->setObjectName(u"maxTokens"_s);
    m_maxTokens->setRange(0, 1'000'000);
    m_maxTokens->setSingleStep(256);
    m_maxTokens->setGroupSeparatorShown(true);
    m_maxTokensLabel->setBuddy(m_maxTokens);
    m_temperature->setObjectName(u"temperature"_s);
    // The lowest value, one step below 0, stands for the provider's default.
    m_temperature->setDecimals(1);
    m_temperature->setSingleStep(0.1);
    m_temperature->setRange(net::kMinTemperature - 0.1, net::kMaxTemperature);
    m_temperatureLabel->setBuddy(m_temperature);
    grid->addWidget(m_systemLabel, 0, 0, Qt::AlignTop);
    grid->addWidget(m_systemPrompt, 0, 1, 1, 4);
    grid->addWidget(m_maxTokensLabel, 1, 0);
    grid->addWidget(m_maxTokens, 1, 1);
    grid->addWidget(m_temperatureLabel, 1, 2);
    grid->addWidget(m_temperature, 1, 3);
    grid->setColumnStretch(4, 1);
    layout->addWidget(m_panel);

    const RequestOptions saved = m_settings.requestOptions();
    m_systemPrompt->setPlainText(saved.systemPrompt);
    m_maxTokens->setValue(saved.maxTokens);
    m_temperature->setValue(saved.temperature < 0 ? m_temperature->minimum() : saved.temperature);
    m_toggle->setChecked(saved.shown);
    m_panel->setVisible(saved.shown);
    m_toggle->setArrowType(saved.shown ? Qt::DownArrow : Qt::RightArrow);
    connect(m_toggle, &QToolButton::toggled, this, [this](bool shown) {
        m_panel->setVisible(shown);
        m_toggle->setArrowType(shown ? Qt::DownArrow : Qt::RightArrow);
        save();
    });
    connect(m_systemPrompt, &QPlainTextEdit::textChanged, this, &RequestOptionsRow::save);
    connect(m_maxTokens, &QSpinBox::valueChanged, this, &RequestOptionsRow::save);
    connect(m_temperature, &QDoubleSpinBox::valueChanged, this, &RequestOptionsRow::save);
    retranslate();
}

RequestOptions RequestOptionsRow::options() const
{
    RequestOptions o;
    o.systemPrompt = m_systemPrompt->toPlainText();
    o.maxTokens = m_maxTokens->value();
    o.temperature = m_temperature->value() < net::kMinTemperature ? -1.0 : m_temperature->value();
    o.shown = m_toggle->isChecked();
    return o;
}

session::SendOptions RequestOptionsRow::sendOptions() const
{
    const RequestOptions o = options();
    session::SendOptions send;
    if (!o.systemPrompt.trimmed().isEmpty())
        send.systemPrompt = o.systemPrompt;
    if (o.maxTokens > 0)
        send.maxTokens = o.maxTokens;
    if (o.temperature >= net::kMinTemperature)
        send.temperature = o.temperature;
    // Settings → Retries: the window continues answers cut off at the output limit by itself.
    send.autoContinue = m_settings.autoContinue();
    return send;
}

void RequestOptionsRow::save()
{
    m_settings.setRequestOptions(options());
}

void RequestOptionsRow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void RequestOptionsRow::retranslate()
{
    m_toggle->setText(tr("Request &options"));
    m_toggle->setAccessibleName(tr("Request options"));
    m_toggle->setAccessibleDescription(
        tr("Show or hide the system prompt, the answer's length limit and the temperature"));
    m_systemLabel->setText(tr("S&ystem prompt:"));
    m_systemPrompt->setAccessibleName(tr("System prompt"));
    m_systemPrompt->setAccessibleDescription(tr("Sent before the conversation with every request"));
    m_systemPrompt->setPlaceholderText(tr("None"));
    m_maxTokensLabel->setText(tr("&Max tokens:"));
    m_maxTokens->setAccessibleName(tr("Max tokens"));
    m_maxTokens->setAccessibleDescription(
        tr("The longest answer, in tokens; Default leaves it to the provider"));
    m_maxTokens->setSpecialValueText(tr("Default"));
    m_temperatureLabel->setText(tr("Tem&perature:"));
    m_temperature->setAccessibleName(tr("Temperature"));
    m_temperature->setAccessibleDescription(
        tr("Sampling temperature, 0 to 2; Default leaves it to the provider"));
    m_temperature->setSpecialValueText(tr("Default"));
}

} // namespace capwatch::ui
