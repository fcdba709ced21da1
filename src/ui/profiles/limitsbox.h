#pragma once

// Settings -> Providers -> a profile's limits, in two groups:
//  - "Spending limits": the user's own caps on the tokens and the money (in the price table's
//    currency, USD) the profile's sends use per calendar day and month, and what a send that
//    would cross one does: ask, park until the limit resets, or be refused;
//  - the limits the provider states (on its pricing page) but never sends in a header: requests
//    and tokens per minute and per day, which pacing keeps the sends within.
// Each number is a spin box whose lowest value reads "No limit", so a value out of its bounds
// cannot be entered. (These are limits, never "budgets": that word is the retry budget's.)

#include "session/profiles.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QSpinBox;

namespace capwatch::ui {

class LimitsBox final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LimitsBox)

public:
    explicit LimitsBox(QWidget *parent = nullptr);

    /// Shows the profile's spending limits, declared limits and limit action.
    void setProfile(const session::ProviderProfile &profile);
    retry::SpendLimits spendLimits() const;
    retry::DeclaredLimits declaredLimits() const;
    session::LimitAction limitAction() const;

    QSpinBox *tokensPerDay() const { return m_tokensDay; }
    QSpinBox *tokensPerMonth() const { return m_tokensMonth; }
    QDoubleSpinBox *costPerDay() const { return m_costDay; }
    QDoubleSpinBox *costPerMonth() const { return m_costMonth; }
    QComboBox *action() const { return m_action; }
    QSpinBox *requestsPerMinute() const { return m_rpm; }
    QSpinBox *tokensPerMinute() const { return m_tpm; }
    QSpinBox *requestsPerDay() const { return m_rpd; }
    QSpinBox *providerTokensPerDay() const { return m_tpd; }
    QSpinBox *providerInFlight() const { return m_inFlight; }

Q_SIGNALS:
    void edited();

private:
    QGroupBox *m_spendBox;
    QGroupBox *m_declaredBox;
    QSpinBox *m_tokensDay;
    QSpinBox *m_tokensMonth;
    QDoubleSpinBox *m_costDay;
    QDoubleSpinBox *m_costMonth;
    QComboBox *m_action;
    QSpinBox *m_rpm;
    QSpinBox *m_tpm;
    QSpinBox *m_rpd;
    QSpinBox *m_tpd;
    QSpinBox *m_inFlight;
    /// As setProfile() gave them: a figure a box cannot show exactly (more tokens than it holds,
    /// a cent's fraction) is kept as it was unless its box is changed.
    retry::SpendLimits m_spend;
    retry::DeclaredLimits m_declared;
};

} // namespace capwatch::ui
