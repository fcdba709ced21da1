#include "ui/profiles/policyoverridesbox.h"

#include "retry/constants.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

namespace {

int seconds(retry::Millis ms)
{
    return int(ms.count() / 1000);
}

/// A spin box of `bounds` whose value below them is "not overridden".
void setUp(
    QSpinBox *spin, const retry::Bounds &bounds, const QString &special, const QString &suffix)
{
    spin->setRange(int(bounds.min) - 1, int(bounds.max));
    spin->setSpecialValueText(special);
    spin->setSuffix(suffix);
    spin->setValue(spin->minimum());
    spin->setCorrectionMode(QAbstractSpinBox::CorrectToNearestValue);
}

void setValue(QSpinBox *spin, std::optional<int> value)
{
    spin->setValue(
        value ? std::clamp(*value, spin->minimum() + 1, spin->maximum()) : spin->minimum());
}

std::optional<int> valueOf(const QSpinBox *spin)
{
    if (spin->value() <= spin->minimum())
        return std::nullopt;
    return spin->value();
}

} // namespace

PolicyOverridesBox::PolicyOverridesBox(QWidget *parent)
    : QGroupBox(tr("Retry policy"), parent)
    , m_waitCap(new QSpinBox(this))
    , m_budget(new QSpinBox(this))
    , m_attempts(new QSpinBox(this))
    , m_backoffBase(new QSpinBox(this))
    , m_headerTimeout(new QSpinBox(this))
    , m_retryTokenLimit(new QCheckBox(tr("Retry token &limits"), this))
    , m_retryRateLimit(new QCheckBox(tr("Retr&y rate limits"), this))
    , m_retryTransient(new QCheckBox(tr("Retry server errors (&5xx)"), this))
{
    setObjectName(u"retryPolicy"_s);
    m_waitCap->setObjectName(u"waitCap"_s);
    m_budget->setObjectName(u"budget"_s);
    m_attempts->setObjectName(u"attempts"_s);
    m_backoffBase->setObjectName(u"backoffBase"_s);
    m_headerTimeout->setObjectName(u"headerTimeout"_s);
    m_retryTokenLimit->setObjectName(u"retryTokenLimit"_s);
    m_retryRateLimit->setObjectName(u"retryRateLimit"_s);
    m_retryTransient->setObjectName(u"retryTransient"_s);

    const QString s = tr(" s");
    const auto byDefault = [](int value) { return tr("Default (%1 s)").arg(value); };
    setUp(m_waitCap, retry::kWaitCapBounds, byDefault(seconds(retry::kWaitCap)), s);
    setUp(m_budget, retry::kBudgetBounds, byDefault(seconds(retry::kRetryBudget)), s);
    setUp(
        m_attempts, retry::kAttemptsBounds, tr("Default (%1)").arg(retry::kMaxAttempts), QString());
    setUp(m_backoffBase, retry::kBackoffBaseBounds, byDefault(seconds(retry::kBackoffBase)), s);
    setUp(m_headerTimeout, retry::kHeaderTimeoutBounds,
        byDefault(seconds(retry::kRetryHeaderTimeout)), s);

    auto *form = new QFormLayout;
    const auto row = [this, form](const QString &label, QSpinBox *spin, const QString &name,
                         const QString &description) {
        auto *l = new QLabel(label, this);
        l->setBuddy(spin);
        form->addRow(l, spin);
        spin->setAccessibleName(name);
        spin->setAccessibleDescription(description);
        spin->setToolTip(description);
    };
    row(tr("Per-&wait cap:"), m_waitCap, tr("Per-wait cap"),
        tr("The longest single wait before a retry, 1 to 600 s; the lowest value is the "
           "default of %1 s")
            .arg(seconds(retry::kWaitCap)));
    row(tr("Bud&get:"), m_budget, tr("Retry budget"),
        tr("All waits of one send together, 0 to 3600 s; 0 sends once and never retries; the "
           "lowest value is the default of %1 s")
            .arg(seconds(retry::kRetryBudget)));
    row(tr("A&ttempts:"), m_attempts, tr("Attempts"),
        tr("Requests of one send, the first included, 1 to 10; the lowest value is the default "
           "of %1")
            .arg(retry::kMaxAttempts));
    row(tr("Ba&ckoff base:"), m_backoffBase, tr("Backoff base"),
        tr("The first wait when the provider names none, doubled for each further retry, 1 to "
           "60 s; the lowest value is the default of %1 s")
            .arg(seconds(retry::kBackoffBase)));
    row(tr("&Header timeout:"), m_headerTimeout, tr("Header timeout of a retry"),
        tr("How long a retry waits for the provider's answer to begin, 10 to 300 s; the lowest "
           "value is the default of %1 s")
            .arg(seconds(retry::kRetryHeaderTimeout)));

    for (QCheckBox *box : { m_retryTokenLimit, m_retryRateLimit, m_retryTransient })
        box->setChecked(true);
    m_retryTokenLimit->setAccessibleDescription(
        tr("Wait and retry when the provider says the token cap is reached"));
    m_retryRateLimit->setAccessibleDescription(
        tr("Wait and retry when the provider says too many requests were sent"));
    m_retryTransient->setAccessibleDescription(
        tr("Wait and retry on server errors and network failures"));

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_retryTokenLimit);
    layout->addWidget(m_retryRateLimit);
    layout->addWidget(m_retryTransient);

    for (QSpinBox *spin : { m_waitCap, m_budget, m_attempts, m_backoffBase, m_headerTimeout })
        connect(spin, &QSpinBox::valueChanged, this, &PolicyOverridesBox::edited);
    for (QCheckBox *box : { m_retryTokenLimit, m_retryRateLimit, m_retryTransient })
        connect(box, &QCheckBox::toggled, this, &PolicyOverridesBox::edited);
}

void PolicyOverridesBox::setOverrides(const session::PolicyOverrides &o)
{
    const QSignalBlocker blocker(this);
    setValue(m_waitCap, o.waitCapS);
    setValue(m_budget, o.budgetS);
    setValue(m_attempts, o.maxAttempts);
    setValue(m_backoffBase, o.backoffBaseS);
    setValue(m_headerTimeout, o.headerTimeoutS);
    m_retryTokenLimit->setChecked(o.retryTokenLimit.value_or(true));
    m_retryRateLimit->setChecked(o.retryRateLimit.value_or(true));
    m_retryTransient->setChecked(o.retryTransient.value_or(true));
}

session::PolicyOverrides PolicyOverridesBox::overrides() const
{
    session::PolicyOverrides o;
    o.waitCapS = valueOf(m_waitCap);
    o.budgetS = valueOf(m_budget);
    o.maxAttempts = valueOf(m_attempts);
    o.backoffBaseS = valueOf(m_backoffBase);
    o.headerTimeoutS = valueOf(m_headerTimeout);
    // Checked is the default (retried): only an unchecked box overrides.
    if (!m_retryTokenLimit->isChecked())
        o.retryTokenLimit = false;
    if (!m_retryRateLimit->isChecked())
        o.retryRateLimit = false;
    if (!m_retryTransient->isChecked())
        o.retryTransient = false;
    return o;
}

} // namespace capwatch::ui
