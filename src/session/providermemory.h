#pragma once

// What capwatch learned about each provider and model (docs/retry-policy.md section 8): the last
// report of its window, the characters a token of its `usage` answers, and its context window.
// One per process, shared by every session (the window's, the parking lot's, capwatch-cli's).
// The window reports are stored with the history, so a new window or a new capwatch-cli process
// paces too; the ratio and the context windows in the settings file.

#include "history/historytypes.h"
#include "net/chatclient.h"
#include "retry/providerwindow.h"
#include "settingsfilewriter.h"
#include "usagetally.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>
#include <functional>
#include <optional>

class QSettings;

namespace capwatch::history {
class HistoryWriter;
}

namespace capwatch::session {

class ProviderMemory final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProviderMemory)

public:
    explicit ProviderMemory(QObject *parent = nullptr);
    ~ProviderMemory() override;

    /// Where the ratios and context windows live (group `providers`); not owned, may be null
    /// (memory only). Read at once.
    void setSettings(QSettings *settings);
    /// Where window reports are stored; not owned, may be null. Reads the stored reports through
    /// the writer's queue (loaded() when done) and stores every later report.
    void setHistory(history::HistoryWriter *writer);
    /// True once the stored reports were read (at once without a writer). A send made before
    /// that paces only on what this process saw.
    bool isLoaded() const { return m_loaded && m_tally.isLoaded(); }
    /// A send of `profile` (a profile's name) is out (Sending, Streaming) or no longer; a send
    /// destroyed while out counts no more. Counted within this process.
    void setInFlight(QObject *send, const QString &profile, bool inFlight);
    qint64 inFlight(const QString &profile) const;
    /// What the usage ledger says each profile used (spending and declared limits).
    UsageTally &tally() { return m_tally; }
    const UsageTally &tally() const { return m_tally; }
    /// The wall clock (UTC) the age of a report is read with; tests move it. Default: now.
    void setWallClock(std::function<QDateTime()> clock);

    /// A report of `provider` (a lane: "demo" or the stored endpoint) and `model`: a non-empty
    /// window replaces the last one (and is stored); a usage with prompt tokens teaches the ratio.
    void report(const QString &provider, const QString &model, const net::ProviderReport &report);
    /// The last window report, or nullopt.
    std::optional<history::ProviderWindowRecord> window(
        const QString &provider, const QString &model) const;
    /// The pacing input of a request of `estimatedTokens` now: the last report with the policy
    /// time left until its resets (the wall time left divided by the report's time scale).
    /// `timeScale` is the asking session's: the wall time left divided by it is the policy time
    /// its client waits.
    retry::PaceInput paceInput(const QString &provider, const QString &model,
        qint64 estimatedTokens, bool enabled, double timeScale = 1.0) const;

    /// Characters a token for this provider and model (kDefaultCharsPerToken until learned).
    retry::LearnedRatio ratio(const QString &provider, const QString &model) const;

    /// The model's context window: the one set in Settings, else the one a context error named,
    /// else nullopt.
    std::optional<qint64> contextWindow(const QString &provider, const QString &model) const;
    /// Settings: nullopt (or <= 0) forgets it.
    std::optional<qint64> userContextWindow(const QString &provider, const QString &model) const;
    void setUserContextWindow(
        const QString &provider, const QString &model, std::optional<qint64> tokens);
    /// A context_overflow answer named it.
    void learnContextWindow(const QString &provider, const QString &model, qint64 tokens);

Q_SIGNALS:
    void loaded();
    /// A new window report of this provider and model (the panel's "Provider window").
    void windowChanged(const QString &provider, const QString &model);
    /// A send of `profile` went out or came back (a send paced for the requests in flight may go).
    void inFlightChanged(const QString &profile);
    /// A learned ratio or a context window changed (the context gauge).
    void estimatesChanged(const QString &provider, const QString &model);

private:
    /// Reads the stored reports through the writer's queue (the database is open by then).
    void readStored();
    static QString keyOf(const QString &provider, const QString &model);
    /// The settings group of a key: `providers/<percent-encoded key>`.
    static QString groupOf(const QString &key);
    QDateTime now() const;
    void readSettings();
    void writeSetting(const QString &key, const QString &name, const QVariant &value);

    void emitLoadedWhenDone();

    QSettings *m_settings = nullptr;
    UsageTally m_tally;
    QHash<const QObject *, QString> m_inFlight; ///< each send out, and its profile
    SettingsFileWriter m_fileWriter; ///< writes what is learned into m_settings's file
    QPointer<history::HistoryWriter> m_writer;
    std::function<QDateTime()> m_clock;
    bool m_loaded = true;
    QHash<QString, history::ProviderWindowRecord> m_windows;
    QHash<QString, retry::LearnedRatio> m_ratios;
    QHash<QString, qint64> m_learnedContext;
    QHash<QString, qint64> m_userContext;
};

} // namespace capwatch::session
