#pragma once

// The window's "Request options": a toggle over the system prompt, the answer's length limit and
// the temperature, sent with every request of the window and kept in the settings.

#include "session/sessiontypes.h"
#include "ui/settings/settings.h"

#include <QWidget>

class QDoubleSpinBox;
class QLabel;
class QPlainTextEdit;
class QSpinBox;
class QToolButton;

namespace capwatch::ui {

class RequestOptionsRow final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RequestOptionsRow)

public:
    /// Shows what `settings` saved and saves every change there.
    explicit RequestOptionsRow(Settings &settings, QWidget *parent = nullptr);

    RequestOptions options() const;
    /// What goes with the next prompt: unset where the provider's default applies.
    session::SendOptions sendOptions() const;

    QToolButton *toggle() const { return m_toggle; }
    QPlainTextEdit *systemPrompt() const { return m_systemPrompt; }
    QSpinBox *maxTokens() const { return m_maxTokens; }
    QDoubleSpinBox *temperature() const { return m_temperature; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    void save();

    Settings &m_settings;
    QToolButton *m_toggle;
    QWidget *m_panel;
    QLabel *m_systemLabel;
    QPlainTextEdit *m_systemPrompt;
    QLabel *m_maxTokensLabel;
    QSpinBox *m_maxTokens;
    QLabel *m_temperatureLabel;
    QDoubleSpinBox *m_temperature;
};

} // namespace capwatch::ui
