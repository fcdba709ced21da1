#pragma once

// Provider profiles (issue 17): named providers, each with its endpoint, model, key source,
// extra headers, context window, its own numbers of the retry policy and an optional fallback.
// Stored in the INI settings file (`capwatch.conf`, docs/interfaces.md "capwatch.conf"), which
// a person may read and edit: a value that cannot be read is reported with the file, the line
// and the key; a number out of its bounds is clamped, with a warning that says so.
//
// No key is ever stored here: a profile names where its key comes from.

#include "sessiontypes.h"

#include <QByteArrayView>
#include <QList>
#include <QSettings>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <optional>
#include <utility>

namespace capwatch::session {

/// The built-in profile of the embedded demo provider: always there, never deleted.
inline constexpr char16_t kDemoProfileId[] = u"demo";

/// A profile's overrides of the policy; unset: the default of docs/retry-policy.md.
struct PolicyOverrides
{
    std::optional<int> maxAttempts; ///< retry::kAttemptsBounds
    std::optional<int> waitCapS; ///< retry::kWaitCapBounds
    std::optional<int> budgetS; ///< retry::kBudgetBounds
    std::optional<int> backoffBaseS; ///< retry::kBackoffBaseBounds
    std::optional<int> headerTimeoutS; ///< retry::kHeaderTimeoutBounds
    std::optional<bool> retryTokenLimit;
    std::optional<bool> retryRateLimit;
    std::optional<bool> retryTransient;

    /// The limits with these overrides applied to the defaults (values assumed within bounds).
    retry::PolicyLimits limits() const;
    bool operator==(const PolicyOverrides &) const = default;
};

struct ProviderProfile
{
    /// The section key: `[profile.<id>]`; letters, digits, `-` and `_`, made from the name by
    /// makeProfileId(). Stable: renaming a profile keeps its id (and its keychain entry).
    QString id;
    QString name; ///< shown everywhere; unique (case-insensitively) among the profiles
    bool builtInDemo = false; ///< the embedded demo: endpoint and key source are not used
    QUrl endpoint;
    QString model; ///< empty: net::defaultModelFor(endpoint)
    /// Environment, KeyFile, Keychain; `none` in the file reads as Environment with an empty
    /// variable (a loopback endpoint needs no key).
    ProviderChoice::KeySource keySource = ProviderChoice::KeySource::Environment;
    QString keyVariable = QStringLiteral("OPENAI_COMPAT_API_KEY");
    QString keyFile;
    bool stream = true;
    QList<std::pair<QByteArray, QByteArray>> extraHeaders; ///< never Authorization
    std::optional<qint64> contextWindow;
    PolicyOverrides overrides;
    /// `spend_tokens_day`, `spend_tokens_month`, `spend_cost_day`, `spend_cost_month`.
    retry::SpendLimits spend;
    /// `provider_rpm`, `provider_tpm`, `provider_rpd`, `provider_tpd`.
    retry::DeclaredLimits declared;
    /// `limit_action`: ask (the default), park or refuse.
    LimitAction limitAction = LimitAction::Ask;
    /// `price.<model>=INPUT,OUTPUT[,CACHED]` per million tokens, in the price table's currency.
    QList<std::pair<QString, retry::Price>> prices;
    QString fallback; ///< id of the fallback profile; empty: none
    bool autoFallback = false; ///< send to the fallback without asking
    /// The models GET /v1/models listed when the profile was last opened (cached in the file).
    QStringList cachedModels;
    /// `keychain_entry=` in the file: the profile's own keychain entry, given once (a new
    /// profile gets newKeychainEntry(), `profile/<random>`, when it first uses the keychain) and
    /// never reused by another profile, so a new profile never finds an old profile's key.
    /// Empty: none given yet (keychainEntry() then names the entry of before this key).
    QString keychainName;

    /// The keychain entry (QtKeychain key, service `capwatch`) of this profile's key:
    /// keychainName when given; else, for a profile of a file written before it, `profile/<id>`,
    /// or `api-key` (the entry of before profiles) for the id `default`; the demo: none.
    QString keychainEntry() const;
    retry::PolicyLimits limits() const { return overrides.limits(); }
    /// What a ChatSession talks to for this profile (profile, name, limits, headers, context
    /// window and keychain entry filled in).
    ProviderChoice choice() const;
    bool operator==(const ProviderProfile &) const = default;
};

/// A problem of the settings file, with where it is. `line` is 1-based; 0 when unknown.
struct ProfileIssue
{
    enum class Severity
    {
        Warning, ///< read anyway: clamped to its bounds, or an unknown key ignored
        Error, ///< the value was not read (the default is used); a CLI using the profile exits 2
    };
    Severity severity = Severity::Error;
    QString file;
    int line = 0;
    QString section; ///< `profile.free-tier`
    QString key; ///< `max_wait`
    QString message; ///< "600 is the most; 900 was clamped to 600"
    /// `capwatch.conf:14: [profile.free-tier] max_wait: 600 is the most; 900 was clamped to 600`
    /// (the file's whole path).
    QString text() const;
};

struct ProfileSet
{
    QList<ProviderProfile> profiles; ///< in the file's order; the demo first
    QString defaultProfile; ///< id of the profile a new conversation starts with
    QList<ProfileIssue> issues; ///< of the last load

    /// By id, then by name (case-insensitively); null when none.
    const ProviderProfile *find(QStringView idOrName) const;
    ProviderProfile *find(QStringView idOrName);
    const ProviderProfile &demo() const; ///< always there after loadProfiles()
    /// The issues of one profile (its section), for the CLI and the Providers page.
    QList<ProfileIssue> issuesOf(const QString &id) const;
    bool hasErrors(const QString &id) const;
};

/// An id for `name` not used by `set`: lower-case letters, digits and `-`; `profile` when the
/// name has none of them; `-2`, `-3` ... appended when taken.
QString makeProfileId(const QString &name, const ProfileSet &set);

/// Reads the profiles from `settings` (an INI QSettings; `[profiles]` and `[profile.*]`). A file
/// without profiles gives the demo and, when the single provider of before (`provider/*`) was
/// configured, a profile "Default" made from it (the default profile: the demo when
/// `provider/useDemo` was set). Never fails: what cannot be read is in `issues`.
ProfileSet loadProfiles(QSettings &settings);
/// Writes `set` back (the demo's section too: its policy overrides), removing sections of
/// profiles no longer in it. Keys stay out: only key sources are written.
void saveProfiles(QSettings &settings, const ProfileSet &set);

/// Where a profile's key comes from, as the file spells it: `env:VARIABLE`, `file:PATH`,
/// `keychain` or `none` (never a key).
QString keySourceSpec(const ProviderProfile &profile);
/// The categories `limits` retries, by their names in the file (`token_limit`, `rate_limit`,
/// `transient`), in that order; empty when none is.
QStringList retriedCategoryNames(const retry::PolicyLimits &limits);

/// net::isReservedHeaderName(): the headers a profile's extra headers may not replace
/// (Authorization, Content-Type, Accept, Host, ...; a User-Agent may replace capwatch's).
bool isReservedHeader(QByteArrayView name);

// defaultSettingsPath(), the file the profiles are read from when none is named: settingsfile.h.

/// A fresh keychain entry for a profile: `profile/` and a random UUID (never one in use).
QString newKeychainEntry();

/// What profileProblem() finds, and which of the profile's values it is about.
struct ProfileProblem
{
    enum class Field
    {
        None, ///< no problem
        Name,
        Id,
        Endpoint,
        Headers,
        Fallback,
    };
    Field field = Field::None;
    QString message; ///< translated; empty when there is no problem

    bool isEmpty() const { return field == Field::None; }
};

/// Why a profile cannot be saved as it is (the Providers page refuses it): an empty or taken
/// name, an endpoint that is not http(s), an extra header capwatch sets itself, a fallback to
/// itself or to a profile that does not exist. isEmpty() when it can.
ProfileProblem profileProblem(const ProviderProfile &profile, const ProfileSet &set);

} // namespace capwatch::session
