#pragma once

#include "settings.h"

#include <QDialog>

class QButtonGroup;
class QCheckBox;
class QLabel;
class QLineEdit;
class QRadioButton;

namespace capwatch::ui {

/// Where to chat: the endpoint, the model, where the key comes from, streaming, or the demo.
class SettingsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettingsDialog)

public:
    explicit SettingsDialog(const ProviderSettings &current, QWidget *parent = nullptr);

    ProviderSettings provider() const;
    /// A key typed for the keychain (empty: leave the stored key as it is).
    QByteArray keychainKey() const;

private:
    void updateEnabled();
    void browseKeyFile();
    bool validate();

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
    QLabel *m_error;
};

} // namespace capwatch::ui
