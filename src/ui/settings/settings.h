#pragma once

// A small typed wrapper over QSettings. Everything a user configures lives here, except the
// API key: that is in the environment, a key file, or the system keychain, never in settings.

#include "session/profiles.h"
#include "session/sessiontypes.h"

#include <QDateTime>
#include <QSettings>
#include <QString>
#include <memory>

namespace capwatch::ui {

struct ProviderSettings
{
    enum class KeySource
    {
        Environment,
        KeyFile,
        Keychain
    };

    QString endpoint;
    QString model;
    KeySource keySource = KeySource::Environment;
    QString keyVariable = QStringLiteral("OPENAI_COMPAT_API_KEY");
    QString keyFile;
    bool stream = true;
    bool useDemo = true;

    /// "OPENAI_COMPAT_API_KEY", "key file ~/.key", "system keychain": for the status line.
    QString keySourceText() const;
    /// The same source as a profile's or a send's.
    session::ProviderChoice::KeySource choiceKeySource() const;
    bool operator==(const ProviderSettings &) const = default;
};

/// The window's "Request options", sent with every request of the window.
struct RequestOptions
{
    QString systemPrompt; ///< empty: no system message
    int maxTokens = 0; ///< 0: the provider's default
    double temperature = -1; ///< below 0: the provider's default
    bool shown = false; ///< the row is expanded
    bool operator==(const RequestOptions &) const = default;
};

class Settings final
{
public:
    /// The file capwatch-cli reads too: session::defaultSettingsPath() (capwatch.conf).
    Settings();
    /// For tests: a settings file of its own.
    explicit Settings(const QString &iniPath);

    /// True once the user saved a provider (or the demo) at least once.
    bool isConfigured() const;
    ProviderSettings provider() const;
    void setProvider(const ProviderSettings &provider);

    /// Settings -> Providers (issue 17): the provider profiles of this file
    /// (session::loadProfiles(): the demo, and a "Default" made from provider() when it was
    /// configured before profiles), and their save.
    session::ProfileSet profiles() const;
    void setProfiles(const session::ProfileSet &profiles);

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray &geometry);
    /// The main window's splitter (sidebar, conversation, retry column), QSplitter::saveState().
    QByteArray windowSplitter() const;
    void setWindowSplitter(const QByteArray &state);

    /// The Insights page's range (`today`, `week`, `month`, `quarter`, `all`; empty: never
    /// chosen) and what its tokens are stacked by (`model`, `profile`), as the window last
    /// closed with them. Dates are not kept: they are a question of the moment.
    QString insightsRange() const;
    QString insightsSplit() const;
    void setInsightsView(const QString &range, const QString &split);

    QString lastExportDir() const;
    void setLastExportDir(const QString &dir);

    /// Settings → History: delete conversations not updated for this many days (1-3650) at
    /// start-up and when changed; 0: keep everything (the default).
    /// When the window last read every page of its history and found them sound (UTC; invalid:
    /// never). HistoryController::openOptions() reads every page again a day after.
    QDateTime historyPagesCheckedAt() const;
    void setHistoryPagesCheckedAt(const QDateTime &when);

    int historyRetentionDays() const;
    void setHistoryRetentionDays(int days);

    /// Settings → Retries: what a send whose provider's reset is beyond the retry budget does
    /// (docs/parking.md). Stored as `ask`, `park` or `give-up`; missing or unknown: Ask.
    session::ParkingChoice parkingChoice() const;
    void setParkingChoice(session::ParkingChoice choice);

    /// Settings → Retries: pace a send until the provider's window resets when its last report
    /// says the send will not fit (docs/retry-policy.md section 8.1). `retries/pacing`, default
    /// true.
    bool pacingEnabled() const;
    void setPacingEnabled(bool enabled);
    /// Whether quitting with sends parked or in flight asks first (`window/ask_before_quit`,
    /// default true; the question's "Don't ask again" clears it).
    bool askBeforeQuit() const;
    void setAskBeforeQuit(bool ask);
    /// Settings → Retries: leave out the oldest turns by itself when a conversation outgrows the
    /// model's context (section 8.2). `context/autoTrim`, default false.
    bool autoTrim() const;
    void setAutoTrim(bool automatic);
    /// The settings file itself: session::ProviderMemory keeps its learned ratios and context
    /// windows there (group `providers`).
    QSettings *store() const { return m_settings.get(); }

    /// Settings → Retries → Answers: an answer cut off at the output limit is continued by
    /// itself up to this many times in a row (SendOptions::autoContinue, 0-3; 0: never, the
    /// default). `request/autoContinue`; a value out of range is clamped.
    int autoContinue() const;
    void setAutoContinue(int times);

    RequestOptions requestOptions() const;
    void setRequestOptions(const RequestOptions &options);

    void sync();
    QString fileName() const;

private:
    std::unique_ptr<QSettings> m_settings;
};

} // namespace capwatch::ui
