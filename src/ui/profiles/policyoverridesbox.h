#pragma once

// Settings -> Providers -> a profile's "Retry policy" (issue 17): the profile's overrides of
// docs/retry-policy.md's numbers. Each number is a spin box whose lowest value reads "Default
// (60 s)" (not overridden), so a value out of its bounds cannot be entered; the categories are
// check boxes, checked (retried) by default.

#include "session/profiles.h"

#include <QGroupBox>

class QCheckBox;
class QSpinBox;

namespace capwatch::ui {

class PolicyOverridesBox final : public QGroupBox
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PolicyOverridesBox)

public:
    explicit PolicyOverridesBox(QWidget *parent = nullptr);

    void setOverrides(const session::PolicyOverrides &overrides);
    session::PolicyOverrides overrides() const;

    QSpinBox *waitCap() const { return m_waitCap; }
    QSpinBox *budget() const { return m_budget; }
    QSpinBox *attempts() const { return m_attempts; }
    QSpinBox *backoffBase() const { return m_backoffBase; }
    QSpinBox *headerTimeout() const { return m_headerTimeout; }

Q_SIGNALS:
    void edited();

private:
    QSpinBox *m_waitCap;
    QSpinBox *m_budget;
    QSpinBox *m_attempts;
    QSpinBox *m_backoffBase;
    QSpinBox *m_headerTimeout;
    QCheckBox *m_retryTokenLimit;
    QCheckBox *m_retryRateLimit;
    QCheckBox *m_retryTransient;
};

} // namespace capwatch::ui
