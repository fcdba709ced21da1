#pragma once

// The notice across the top while the built-in demo provider is in use, with a way out to the
// provider settings.

#include <QFrame>

class QLabel;
class QPushButton;

namespace capwatch::ui {

class DemoBanner final : public QFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoBanner)

public:
    explicit DemoBanner(QWidget *parent = nullptr);
    /// Tints the background from `window` (the window's palette).
    void restyle(const QPalette &window);
    QPushButton *button() const { return m_button; }

Q_SIGNALS:
    void configureRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();

    QLabel *m_text;
    QPushButton *m_button;
};

} // namespace capwatch::ui
