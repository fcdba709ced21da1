#pragma once

// The message above the prompt, for what the user can act on in place (no model set, editing the
// last prompt), KMessageWidget style: an icon, the palette's own text colour on a tinted
// background, an action button.

#include <QFrame>

class QLabel;
class QPushButton;
class QToolButton;

namespace capwatch::ui {

class PromptMessage final : public QFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PromptMessage)

public:
    enum class Kind
    {
        Information,
        Warning
    };
    enum class Action
    {
        None,
        OpenSettings,
        CancelEdit,
        KeepDeclaredLimit, ///< keep the limit a refusal implies as the profile's own
    };

    explicit PromptMessage(QWidget *parent = nullptr);

    /// Shows `text`; `action` decides the button.
    void showMessage(Kind kind, const QString &text, Action action);
    void dismiss();
    Action action() const { return m_action; }
    /// The text shown, or an empty string when hidden.
    QString shownText() const;
    /// Tints the background from `window` (the window's palette): readable in light and dark.
    void restyle(const QPalette &window);
    QPushButton *button() const { return m_button; }
    QToolButton *closeButton() const { return m_close; }

Q_SIGNALS:
    void actionTriggered(capwatch::ui::PromptMessage::Action action);
    void closeRequested(capwatch::ui::PromptMessage::Action action);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();

    QLabel *m_icon;
    QLabel *m_text;
    QPushButton *m_button;
    QToolButton *m_close;
    Kind m_kind = Kind::Information;
    Action m_action = Action::None;
};

} // namespace capwatch::ui
