#pragma once

#include "settings.h"

#include <QDialog>
#include <QFrame>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;

namespace capwatch::ui {

/// A message shown in place, KMessageWidget style: an icon and the text in the palette's own
/// text colour on a background tinted from the palette, so it reads in light and dark themes.
class InlineMessage final : public QFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InlineMessage)

public:
    enum class Kind
    {
        Information,
        Error
    };

    explicit InlineMessage(QWidget *parent = nullptr);

    void showMessage(Kind kind, const QString &text);
    Kind kind() const { return m_kind; }
    QString text() const;

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void updateLook();

    QLabel *m_icon;
    QLabel *m_text;
    Kind m_kind = Kind::Information;
    QColor m_background;
    QColor m_border;
};

/// Settings: where to chat (the endpoint, the model, where the key comes from, streaming, or the
/// demo) and, under Retries, what a send whose provider's reset is beyond the retry budget does
/// (docs/parking.md). OK keeps the dialog open until the input is usable: a bad field, or a
/// keychain that cannot store (or, newly chosen, read) the key, is explained in the dialog and
/// nothing is accepted.
class SettingsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettingsDialog)

public:
    SettingsDialog(
        const ProviderSettings &current, session::ParkingChoice parking, QWidget *parent = nullptr);

    ProviderSettings provider() const;
    session::ParkingChoice parkingChoice() const;
    /// Settings -> Retries: pacing before a send, and automatic trimming (docs/retry-policy.md
    /// section 8). Call before open(); both default as Settings does (on, off).
    void setPacing(bool enabled, bool autoTrim);
    bool pacingEnabled() const;
    bool autoTrim() const;
    /// The context window of `model`: what the user set (nullopt: unknown, shown as 0
    /// "Unknown"), and what a context error taught (a hint line under the box; nullopt: none).
    /// Call before open(); without a call the box stays at "Unknown" for the model field's model.
    void setContextWindow(
        const QString &model, std::optional<qint64> userTokens, std::optional<qint64> learned);
    /// The context window chosen; nullopt when it is 0 ("Unknown").
    std::optional<qint64> contextWindow() const;
    /// The model the context window is of (setContextWindow()'s; the model field's at first):
    /// editing the model field does not move it to another model.
    QString contextModel() const { return m_contextModel; }
    /// The hint under the context window box as shown; empty when hidden.
    QString contextHint() const;
    /// Writes what is chosen (the provider, the parking choice, pacing and automatic trimming)
    /// into `settings`. The context window is the provider memory's to keep (contextWindow()).
    void saveTo(Settings &settings) const;
    /// A key typed for the keychain (empty: leave the stored key as it is). It is already in
    /// the keychain once the dialog is accepted.
    QByteArray keychainKey() const;

public Q_SLOTS:
    void reject() override;

private:
    void updateEnabled();
    void browseKeyFile();
    bool validate();
    /// OK: validates, then (for the keychain) stores or checks the key, then accepts.
    void tryAccept();
    void showMessage(InlineMessage::Kind kind, const QString &text);
    void setChecking(bool checking);

    ProviderSettings m_initial;
    QCheckBox *m_useDemo;
    QLineEdit *m_endpoint;
    QLineEdit *m_model;
    QRadioButton *m_fromEnv;
    QRadioButton *m_fromFile;
    QRadioButton *m_fromKeychain;
    QLineEdit *m_envVar;
    QLineEdit *m_keyFile;
    QLineEdit *m_keychainKey;
    QCheckBox *m_stream;
    QRadioButton *m_parkAsk;
    QRadioButton *m_parkAutomatic;
    QRadioButton *m_parkGiveUp;
    QCheckBox *m_pacing;
    QCheckBox *m_autoTrim;
    QLabel *m_contextLabel;
    QSpinBox *m_contextWindow;
    QLabel *m_contextHint;
    QString m_contextModel;
    QWidget *m_fields;
    InlineMessage *m_message;
    QDialogButtonBox *m_buttons;
    quint64 m_keychainCheck = 0; ///< bumped per check; an answer for an older one is dropped
};

} // namespace capwatch::ui
