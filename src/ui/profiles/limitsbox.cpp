#include "ui/profiles/limitsbox.h"

#include "retry/price.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

namespace {

/// A QSpinBox holds an int: two billion is as far as it goes (the file takes up to 10^12).
constexpr int kMaxCount = 2'000'000'000;
constexpr int kMoneyDecimals = 2;
constexpr double kLeastMoney = 0.01;

void setUpCount(QSpinBox *spin, int step)
{
    spin->setRange(0, kMaxCount);
    spin->setSingleStep(step);
    spin->setGroupSeparatorShown(true);
    spin->setSpecialValueText(LimitsBox::tr("No limit"));
    spin->setCorrectionMode(QAbstractSpinBox::CorrectToNearestValue);
    spin->setValue(0);
}

void setUpMoney(QDoubleSpinBox *spin)
{
    spin->setDecimals(kMoneyDecimals);
    spin->setRange(0, retry::kMaxPricePerMTok);
    spin->setSingleStep(1);
    spin->setGroupSeparatorShown(true);
    // The price table's currency: the limits are compared with costs worked out from it.
    spin->setPrefix(u"USD "_s);
    spin->setSpecialValueText(LimitsBox::tr("No limit"));
    spin->setCorrectionMode(QAbstractSpinBox::CorrectToNearestValue);
    spin->setValue(0);
}

int shownCount(std::int64_t v)
{
    return int(std::clamp<std::int64_t>(v, 1, kMaxCount));
}

/// What a money box shows for `v` (QDoubleSpinBox rounds to its decimals the same way).
double shownMoney(double v)
{
    return QString::number(std::clamp(v, kLeastMoney, retry::kMaxPricePerMTok), 'f', kMoneyDecimals)
        .toDouble();
}

void setCount(QSpinBox *spin, std::optional<std::int64_t> v)
{
    spin->setValue(v ? shownCount(*v) : spin->minimum());
}

void setMoney(QDoubleSpinBox *spin, std::optional<double> v)
{
    spin->setValue(v ? shownMoney(*v) : spin->minimum());
}

std::optional<std::int64_t> countOf(const QSpinBox *spin, std::optional<std::int64_t> given)
{
    if (spin->value() <= spin->minimum())
        return std::nullopt;
    if (given && spin->value() == shownCount(*given))
        return given;
    return spin->value();
}

std::optional<double> moneyOf(const QDoubleSpinBox *spin, std::optional<double> given)
{
    if (spin->value() <= spin->minimum())
        return std::nullopt;
    if (given && std::abs(spin->value() - shownMoney(*given)) < 1e-9)
        return given;
    return spin->value();
}

/// A note at the top of a group: what its limits are.
QLabel *note(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setWordWrap(true);
    return label;
}

} // namespace

LimitsBox::LimitsBox(QWidget *parent)
    : QWidget(parent)
{
    // Made in reading order, each in its group: that is the Tab order.
    m_spendBox = new QGroupBox(tr("Spending limits"), this);
    auto *spendNote = note(tr("Checked before each send against the most it could use, counting "
                              "all of this profile's sends (capwatch-cli's too) per calendar day "
                              "and month. A cost needs the model's price."),
        m_spendBox);
    m_tokensDay = new QSpinBox(m_spendBox);
    m_tokensMonth = new QSpinBox(m_spendBox);
    m_costDay = new QDoubleSpinBox(m_spendBox);
    m_costMonth = new QDoubleSpinBox(m_spendBox);
    m_action = new QComboBox(m_spendBox);
    m_declaredBox = new QGroupBox(tr("Limits the provider states but never sends"), this);
    auto *declaredNote = note(tr("The provider's published rate limits, which its answers do not "
                                 "tell: capwatch paces sends to stay within them. A send that "
                                 "would pass a daily one is held as a spending limit holds it."),
        m_declaredBox);
    m_rpm = new QSpinBox(m_declaredBox);
    m_tpm = new QSpinBox(m_declaredBox);
    m_rpd = new QSpinBox(m_declaredBox);
    m_tpd = new QSpinBox(m_declaredBox);
    m_inFlight = new QSpinBox(m_declaredBox);

    setObjectName(u"limits"_s);
    m_spendBox->setObjectName(u"spendLimits"_s);
    m_declaredBox->setObjectName(u"declaredLimits"_s);
    spendNote->setObjectName(u"spendLimitsNote"_s);
    declaredNote->setObjectName(u"declaredLimitsNote"_s);
    m_tokensDay->setObjectName(u"spendTokensDay"_s);
    m_tokensMonth->setObjectName(u"spendTokensMonth"_s);
    m_costDay->setObjectName(u"spendCostDay"_s);
    m_costMonth->setObjectName(u"spendCostMonth"_s);
    m_action->setObjectName(u"limitAction"_s);
    m_rpm->setObjectName(u"providerRpm"_s);
    m_tpm->setObjectName(u"providerTpm"_s);
    m_rpd->setObjectName(u"providerRpd"_s);
    m_tpd->setObjectName(u"providerTpd"_s);
    m_inFlight->setObjectName(u"providerInFlight"_s);

    setUpCount(m_tokensDay, 10'000);
    setUpCount(m_tokensMonth, 100'000);
    setUpMoney(m_costDay);
    setUpMoney(m_costMonth);
    setUpCount(m_rpm, 1);
    setUpCount(m_tpm, 1'000);
    setUpCount(m_rpd, 1);
    setUpCount(m_tpd, 10'000);
    setUpCount(m_inFlight, 1);
    m_action->addItem(tr("Ask"), int(session::LimitAction::Ask));
    m_action->addItem(tr("Park until it resets"), int(session::LimitAction::Park));
    m_action->addItem(tr("Refuse"), int(session::LimitAction::Refuse));

    const auto row = [](QFormLayout *form, const QString &label, QWidget *field,
                         const QString &name, const QString &description) {
        auto *l = new QLabel(label, field->parentWidget());
        l->setBuddy(field);
        form->addRow(l, field);
        field->setAccessibleName(name);
        field->setAccessibleDescription(description);
        field->setToolTip(description);
    };
    // A label too long for the page at its narrowest puts its field under it.
    auto *spendForm = new QFormLayout;
    spendForm->setRowWrapPolicy(QFormLayout::WrapLongRows);
    row(spendForm, tr("Tokens per day:"), m_tokensDay, tr("Spending limit: tokens per day"),
        tr("The most tokens (prompt and answer) this profile's sends may use in a calendar day"));
    row(spendForm, tr("Tokens per month:"), m_tokensMonth, tr("Spending limit: tokens per month"),
        tr("The most tokens (prompt and answer) this profile's sends may use in a calendar "
           "month"));
    row(spendForm, tr("Cost per day:"), m_costDay, tr("Spending limit: cost per day"),
        tr("The most this profile's sends may cost in a calendar day, in USD, by the model's "
           "price"));
    row(spendForm, tr("Cost per month:"), m_costMonth, tr("Spending limit: cost per month"),
        tr("The most this profile's sends may cost in a calendar month, in USD, by the model's "
           "price"));
    row(spendForm, tr("When a send would cross a limit:"), m_action,
        tr("When a send would cross a limit"),
        tr("Ask: offer to send anyway or when the limit resets. Park: hold the send until the "
           "limit resets, without asking. Refuse: do not send; the prompt stays in the editor"));
    auto *spendLayout = new QVBoxLayout(m_spendBox);
    spendLayout->addWidget(spendNote);
    spendLayout->addLayout(spendForm);

    auto *declaredForm = new QFormLayout;
    declaredForm->setRowWrapPolicy(QFormLayout::WrapLongRows);
    row(declaredForm, tr("Requests per minute:"), m_rpm,
        tr("Provider's limit: requests per minute"),
        tr("The most requests the provider takes in any 60 seconds"));
    row(declaredForm, tr("Tokens per minute:"), m_tpm, tr("Provider's limit: tokens per minute"),
        tr("The most tokens the provider takes in any 60 seconds"));
    row(declaredForm, tr("Requests per day:"), m_rpd, tr("Provider's limit: requests per day"),
        tr("The most requests the provider takes in a day (until midnight, local time)"));
    row(declaredForm, tr("Tokens per day:"), m_tpd, tr("Provider's limit: tokens per day"),
        tr("The most tokens the provider takes in a day (until midnight, local time)"));
    row(declaredForm, tr("Requests at once:"), m_inFlight,
        tr("Provider's limit: requests in flight"),
        tr("The most requests the provider takes at the same time (counted within one capwatch "
           "window or capwatch-cli run)"));
    auto *declaredLayout = new QVBoxLayout(m_declaredBox);
    declaredLayout->addWidget(declaredNote);
    declaredLayout->addLayout(declaredForm);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_spendBox);
    layout->addWidget(m_declaredBox);

    for (QSpinBox *spin : { m_tokensDay, m_tokensMonth, m_rpm, m_tpm, m_rpd, m_tpd, m_inFlight })
        connect(spin, &QSpinBox::valueChanged, this, &LimitsBox::edited);
    for (QDoubleSpinBox *spin : { m_costDay, m_costMonth })
        connect(spin, &QDoubleSpinBox::valueChanged, this, &LimitsBox::edited);
    connect(m_action, &QComboBox::currentIndexChanged, this, &LimitsBox::edited);
}

void LimitsBox::setProfile(const session::ProviderProfile &p)
{
    const QSignalBlocker blocker(this);
    m_spend = p.spend;
    m_declared = p.declared;
    setCount(m_tokensDay, p.spend.tokensDay);
    setCount(m_tokensMonth, p.spend.tokensMonth);
    setMoney(m_costDay, p.spend.costDay);
    setMoney(m_costMonth, p.spend.costMonth);
    m_action->setCurrentIndex(std::max(0, m_action->findData(int(p.limitAction))));
    setCount(m_rpm, p.declared.requestsPerMinute);
    setCount(m_tpm, p.declared.tokensPerMinute);
    setCount(m_rpd, p.declared.requestsPerDay);
    setCount(m_tpd, p.declared.tokensPerDay);
    setCount(m_inFlight, p.declared.inFlight);
}

retry::SpendLimits LimitsBox::spendLimits() const
{
    retry::SpendLimits s;
    s.tokensDay = countOf(m_tokensDay, m_spend.tokensDay);
    s.tokensMonth = countOf(m_tokensMonth, m_spend.tokensMonth);
    s.costDay = moneyOf(m_costDay, m_spend.costDay);
    s.costMonth = moneyOf(m_costMonth, m_spend.costMonth);
    return s;
}

retry::DeclaredLimits LimitsBox::declaredLimits() const
{
    retry::DeclaredLimits d;
    d.requestsPerMinute = countOf(m_rpm, m_declared.requestsPerMinute);
    d.tokensPerMinute = countOf(m_tpm, m_declared.tokensPerMinute);
    d.requestsPerDay = countOf(m_rpd, m_declared.requestsPerDay);
    d.tokensPerDay = countOf(m_tpd, m_declared.tokensPerDay);
    d.inFlight = countOf(m_inFlight, m_declared.inFlight);
    return d;
}

session::LimitAction LimitsBox::limitAction() const
{
    return session::LimitAction(m_action->currentData().toInt());
}

} // namespace capwatch::ui
