#pragma once

// Settings -> Providers (issue 17): the provider profiles on the left (the built-in demo first),
// Add, Duplicate, Delete and Set as default under them, and the selected profile's editor on
// the right: name, endpoint, model (from the endpoint's GET /v1/models, free text always
// allowed; a key goes over plain HTTP to another machine only once the user agreed, asked by
// Refresh), where the key comes from (a profile on the keychain has its own entry, given once:
// ProviderProfile::keychainName), extra headers, the context window, the retry policy's
// overrides, the fallback, the spending limits and the limits the provider states (LimitsBox)
// and the profile's own prices (PriceOverridesBox). The page edits a copy: nothing is saved
// until the dialog is accepted.

#include "session/profiles.h"
#include "ui/profiles/pricerows.h"

#include <QHash>
#include <QPointer>
#include <QSet>
#include <QWidget>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QMessageBox;
class QPlainTextEdit;
class QPushButton;
class QRadioButton;
class QScrollArea;
class QSpinBox;

namespace capwatch::net {
class ModelLister;
class CredentialProvider;
} // namespace capwatch::net

namespace capwatch::ui {

class InlineMessage;
class LimitsBox;
class PolicyOverridesBox;
class PriceOverridesBox;

class ProvidersPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProvidersPage)

public:
    ProvidersPage(
        const session::ProfileSet &profiles, const QString &current, QWidget *parent = nullptr);
    ~ProvidersPage() override;

    /// The profiles as edited (the field being typed in included).
    session::ProfileSet profiles() const { return m_set; }
    /// The id of the profile selected.
    QString currentProfile() const;
    void selectProfile(const QString &id);
    /// "Add": a new profile ("New provider"), selected, its name ready to type over. The demo
    /// banner's "Configure a provider…" opens the dialog with one.
    void addNewProfile() { addProfile(); }
    /// Keys typed for the keychain, by profile id (only profiles whose key source is the
    /// keychain; empty: keep the stored one).
    QHash<QString, QByteArray> keychainKeys() const;
    /// Keychain entries whose keys go once the dialog is accepted: those of the profiles deleted
    /// here (whatever their key source now: an entry left from an earlier keychain goes too) and
    /// of the profiles that left the keychain here. Never an entry a profile still uses.
    QStringList removedKeychainEntries() const;
    /// What a context error taught of a profile's context window: a hint under its box.
    void setContextHint(const QString &id, std::optional<qint64> learned);
    QString contextHint() const;

    struct Problem
    {
        QString profile; ///< its id
        QString message;
        QWidget *field = nullptr; ///< the field to correct, once the profile is selected
    };
    /// The plain-HTTP question of Refresh (null when none is open).
    QMessageBox *plainHttpWarning() const;

    /// The first problem of any profile (the selected one first); nullopt: all can be saved.
    std::optional<Problem> problem() const;
    /// Selects the profile of `problem` and focuses its field.
    void showProblem(const Problem &problem);
    /// Gives the profiles added here their ids from their final names (`[profile.work]`).
    void settleNewIds();
    /// Shows "checking" while the dialog waits for the keychain: nothing can be edited.
    void setBusy(bool busy);

    QListWidget *list() const { return m_list; }
    QComboBox *modelBox() const { return m_model; }

Q_SIGNALS:
    void edited();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void buildEditor(QWidget *editor);
    void fillList();
    void updateItem(int row);
    void load(int row);
    void commit();
    void fillFallback(const session::ProviderProfile &p);
    void updateEnabled();
    void addProfile();
    void duplicateProfile();
    void deleteProfile();
    void makeDefault();
    void browseKeyFile();
    void fetchModels(bool explicitRefresh);
    void showModels(const QStringList &models);
    std::shared_ptr<net::CredentialProvider> credentialsFor(const session::ProviderProfile &p);
    /// Whether a model list request of `p` would carry a key (a keychain always counts).
    bool keyWouldBeSent(const session::ProviderProfile &p);
    /// The profile `id` as it was when the page opened; null for one added here.
    const session::ProviderProfile *initialOf(const QString &id) const;
    std::optional<Problem> problemOf(const session::ProviderProfile &p) const;
    QString uniqueName(const QString &base) const;

    session::ProfileSet m_set;
    session::ProfileSet m_initial; ///< as the page opened
    int m_row = -1;
    bool m_loading = false;
    QHash<QString, QByteArray> m_keys; ///< typed keychain keys, by profile id
    QHash<QString, QString> m_headerText; ///< the extra headers as typed, by profile id
    QHash<QString, QList<pricerows::Row>> m_priceRows; ///< the prices as typed, by profile id
    QHash<QString, qint64> m_hints; ///< learned context windows, by profile id
    QStringList m_newIds; ///< profiles added here
    QStringList m_removedEntries; ///< of the profiles deleted here
    QStringList m_deletedIds; ///< ids of m_initial deleted here (a new profile may reuse one)
    /// Plain HTTP allowed by the user for a profile's model list: "<id>\n<models URL>".
    QSet<QString> m_plainHttpConsent;
    QPointer<QMessageBox> m_plainHttpWarning;
    QString m_modelsFor; ///< id of the profile the model list in flight is for

    QListWidget *m_list;
    QPushButton *m_add;
    QPushButton *m_duplicate;
    QPushButton *m_delete;
    QPushButton *m_default;
    QScrollArea *m_scroll;
    QWidget *m_editor;
    QLineEdit *m_name;
    QLabel *m_builtIn;
    QLineEdit *m_endpoint;
    QComboBox *m_model;
    QPushButton *m_refresh;
    QLabel *m_modelStatus;
    QRadioButton *m_fromEnv;
    QRadioButton *m_fromFile;
    QRadioButton *m_fromKeychain;
    QLineEdit *m_envVar;
    QLineEdit *m_keyFile;
    QPushButton *m_browse;
    QLineEdit *m_keychainKey;
    QCheckBox *m_stream;
    QPlainTextEdit *m_headers;
    QSpinBox *m_contextWindow;
    QLabel *m_contextHint;
    PolicyOverridesBox *m_policy;
    QComboBox *m_fallback;
    QCheckBox *m_autoFallback;
    LimitsBox *m_limits;
    PriceOverridesBox *m_prices;
    InlineMessage *m_issues;
    net::ModelLister *m_lister;
};

} // namespace capwatch::ui
