#pragma once

#include "ui/settings/settings.h"

#include <QDialog>
#include <QFrame>
#include <QHash>
#include <optional>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;
class QTabWidget;

namespace capwatch::ui {

class ProvidersPage;

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
        Warning, ///< read anyway, but worth knowing (a settings file's clamped value)
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

/// Settings: Providers (the provider profiles, issue 17: each with its endpoint, model, key
/// source, extra headers, context window, retry policy and fallback) and Retries (what a send
/// whose provider's reset is beyond the retry budget does, docs/parking.md; pacing; automatic
/// trimming; continuing answers cut off at the output limit by themselves). OK keeps the dialog
/// open until the input is usable: a bad field of any profile, or a keychain that cannot store (or,
/// newly chosen, read) a profile's key, is explained in the dialog and nothing is accepted.
class SettingsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettingsDialog)

public:
    /// `current`: the id of the profile selected at first (the conversation's).
    SettingsDialog(const session::ProfileSet &profiles, const QString &current,
        session::ParkingChoice parking, QWidget *parent = nullptr);
    /// The single provider of before profiles, as a profile set (the demo and "Default" made
    /// from it, selected unless `current.useDemo`). For callers not yet on profiles.
    SettingsDialog(
        const ProviderSettings &current, session::ParkingChoice parking, QWidget *parent = nullptr);

    /// The profiles as chosen (ids of profiles added here settled once OK was pressed).
    session::ProfileSet profiles() const;
    /// The id of the profile selected (when OK was pressed).
    QString currentProfile() const;
    ProvidersPage *providersPage() const { return m_providers; }
    session::ParkingChoice parkingChoice() const;
    /// Settings -> Retries: pacing before a send, and automatic trimming (docs/retry-policy.md
    /// section 8). Call before open(); both default as Settings does (on, off).
    void setPacing(bool enabled, bool autoTrim);
    bool pacingEnabled() const;
    bool autoTrim() const;
    /// Settings -> Retries -> Answers: how many times in a row an answer cut off at the output
    /// limit is continued by itself (0-3; 0: never).
    void setAutoContinue(int times);
    int autoContinue() const;
    /// What a context error taught of `profile`'s context window: a hint line under its box
    /// (nullopt: none). The box itself is the profile's contextWindow.
    void setContextHint(const QString &profile, std::optional<qint64> learned);
    /// The context window of the profile selected; nullopt when it is 0 ("Unknown").
    std::optional<qint64> contextWindow() const;
    /// The hint under the context window box as shown; empty when hidden.
    QString contextHint() const;
    /// Writes what is chosen (the profiles, the parking choice, pacing and automatic trimming)
    /// into `settings`.
    void saveTo(Settings &settings) const;
    /// Keys typed for the keychain, by profile id (none: leave the stored keys as they are).
    /// They are already in the keychain once the dialog is accepted.
    QHash<QString, QByteArray> keychainKeys() const;
    /// The key typed for the selected profile's keychain entry (empty: none typed).
    QByteArray keychainKey() const;

public Q_SLOTS:
    void reject() override;

private:
    bool validate();
    /// OK: validates, then (for the keychain) stores or checks the keys, then accepts.
    void tryAccept();
    void runKeychainStep();
    void showMessage(InlineMessage::Kind kind, const QString &text);
    void setChecking(bool checking);

    struct KeychainStep
    {
        QString profile; ///< id; empty for the deletion of a deleted profile's entry
        QString entry;
        QByteArray key; ///< to store; empty: check that a key is stored (or delete)
        bool remove = false;
    };

    session::ProfileSet m_initial;
    ProvidersPage *m_providers;
    QTabWidget *m_tabs;
    QRadioButton *m_parkAsk;
    QRadioButton *m_parkAutomatic;
    QRadioButton *m_parkGiveUp;
    QCheckBox *m_pacing;
    QCheckBox *m_autoTrim;
    QComboBox *m_autoContinue;
    InlineMessage *m_message;
    QDialogButtonBox *m_buttons;
    QList<KeychainStep> m_steps; ///< of the OK in progress
    quint64 m_keychainCheck = 0; ///< bumped per OK; an answer for an older one is dropped
};

} // namespace capwatch::ui
