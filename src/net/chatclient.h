#pragma once

// The retry driver: runs one chat send at a time through the retry policy's state machine,
// one HTTP attempt after another, with every wait a single-shot timer on the event loop.
// Nothing here blocks; everything is cancellable; every step is a typed signal and a record
// in the retry log.

#include "chatrequest.h"
#include "chatstream.h"
#include "credentials.h"
#include "retry/answerend.h"
#include "retry/declaredlimits.h"
#include "retry/providerwindow.h"
#include "retry/sendpolicy.h"
#include "retrylog.h"
#include "scaledclock.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>
#include <algorithm>
#include <memory>
#include <optional>

class QNetworkAccessManager;

namespace capwatch::net {

class ChatAttempt;

struct AttemptResult;

/// Policy seconds without a byte before an attempt is abandoned (a stalled first request or an
/// idle stream). Retries also have the policy's header timeout (60 s unless a profile says).
inline constexpr retry::Millis kIdleTimeout { 120'000 };

/// The least wall time the network timeouts last, whatever the time scale: `--time-scale`
/// shortens the policy's waits, but a silence shorter than this measures how busy the machine
/// is, not the provider (a sanitized test beside three others stalls for 100 ms). The idle
/// timeout's floor is twice the header timeout's, as its default is: where both are raised to
/// their floors, a hung retry still ends by its header timeout first, as it does unscaled.
inline constexpr qint64 kMinHeaderTimeoutWallMs = 1000;
inline constexpr qint64 kMinIdleTimeoutWallMs = 2000;

struct AttemptFailure
{
    int attempt = 0;
    int status = 0; ///< 0: no HTTP response
    retry::Category category = retry::Category::Fatal;
    std::optional<double> used;
    std::optional<double> limit;
    QString errorText; ///< the provider's error text, or the network error
    /// The classification rule that decided `category` (docs/rules.md): `builtin:too_large.phrase
    /// "prompt is too long"`, `rules.d/acme.json:7`; empty when no response was classified.
    QString rule;
};

struct RetryInfo
{
    int failedAttempt = 0;
    int nextAttempt = 0;
    retry::Millis wait { 0 };
    retry::Millis rawWait { 0 };
    retry::WaitSource source = retry::WaitSource::None;
    retry::Millis waitedTotal { 0 }; ///< scheduled so far, this wait included
    retry::Millis budgetLeft { 0 }; ///< the limits' budget minus waitedTotal
    QDateTime firesAt; ///< wall clock (UTC)
    qint64 wallWaitMs = 0; ///< the wait on the wall clock, after --time-scale
};

struct SendSummary
{
    enum class Outcome
    {
        Succeeded,
        GaveUp,
        Cancelled
    };
    Outcome outcome = Outcome::Succeeded;
    retry::EndReason reason = retry::EndReason::None;
    int attempts = 0;
    retry::Millis waited { 0 }; ///< waits actually spent (a cancelled wait: the part that ran)
    /// Cancelled during a wait: how much of that wait ran before the cancel.
    std::optional<retry::Millis> cutWait;
    int status = 0; ///< of the last attempt that ended; 0 if none
    bool networkError = false; ///< the send ended on a network or configuration problem
    bool incomplete = false; ///< an answer began and was cut off (the partial text was delivered)
    /// How the answer ended (issue 29): None when none began. An interrupted one (the stream
    /// broke, timed out or carried an error after content, or a cancel while it streamed) is
    /// never sent again by the client.
    retry::AnswerEnd answerEnd = retry::AnswerEnd::None;
    QString finishReason; ///< the provider's, of the answer; empty when it gave none
    qint64 answerChars = 0; ///< characters of answer text delivered by answerText()
    std::optional<Usage> usage;
    QString errorText;
    QString finalErrorText; ///< retry-policy section 5, for failures
};

/// What the session decided before a send (docs/retry-policy.md section 8.1): wait this long
/// before attempt 1 for the provider's window to reset. A zero wait sends at once. The window and
/// estimate figures go into the `paced` and `attempt_started` records.
struct PacePlan
{
    retry::Millis wait { 0 }; ///< policy time; scaled like every wait; never counted in the budget
    retry::WaitSource source = retry::WaitSource::None; ///< RateLimitReset when wait > 0
    bool tokensFull = true; ///< which part of the window is full (tokens, else requests)
    std::optional<qint64> estimatedTokens;
    std::optional<qint64> windowTokensLeft;
    std::optional<double> windowResetS;
    /// The profile's declared limit that holds it (source DeclaredLimit), with its count so far
    /// and its size: "Requests this minute: 2 of 2".
    retry::DeclaredKind declared = retry::DeclaredKind::None;
    std::int64_t declaredUsed = 0;
    std::int64_t declaredLimit = 0;
};

/// What one attempt's response said about the provider's window and, for an answer, its usage.
/// Emitted for every attempt that got an HTTP status (success or failure).
struct ProviderReport
{
    int attempt = 0;
    int status = 0;
    retry::WindowReport window; ///< empty when the response had no x-ratelimit-* header
    retry::UsageReport usage; ///< empty unless an answer reported it
    qint64 requestChars = 0; ///< net::requestChars() of the request that was answered
    QString endpoint; ///< displayEndpoint() of the request
    QString model;
    QDateTime receivedAt; ///< wall clock (UTC)
    double timeScale = 1.0; ///< the client's scale when it arrived (resets are policy time)
};

/// A request too large for the model's context (a too_large failure with its window): the
/// session offers trimming.
struct ContextOverflow
{
    qint64 requested = 0; ///< the provider's figure of the request
    qint64 contextWindow = 0;
};

class ChatClient final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChatClient)

public:
    explicit ChatClient(QObject *parent = nullptr);
    ~ChatClient() override;

    /// Where the key comes from; default: the variable OPENAI_COMPAT_API_KEY.
    void setCredentialProvider(std::shared_ptr<CredentialProvider> provider);
    std::shared_ptr<CredentialProvider> credentialProvider() const { return m_credentials; }
    /// 0 < scale <= 1: every wait and timeout runs `scale` times as long on the wall clock.
    void setTimeScale(double scale);
    double timeScale() const { return m_clock.scale(); }
    void setRetryLog(RetryLog *log);
    /// The numbers of the policy from the next send on (a profile's, docs/retry-policy.md
    /// section 9); the send in flight keeps those it started with.
    void setPolicyLimits(const retry::PolicyLimits &limits) { m_limits = limits; }
    const retry::PolicyLimits &policyLimits() const { return m_limits; }
    /// The profile the next sends go to: stamped into the `profile` column of every record they
    /// write (the send in flight keeps the name it started with).
    void setProfileName(const QString &name) { m_profileName = name; }
    QString profileName() const { return m_profileName; }
    RetryLog *retryLog() const { return m_log; }

    /// Starts a send (cancelling one in flight). Returns its id, also its `request` number in
    /// the retry log.
    quint64 send(const ChatRequest &request);
    /// The same, paced first: with `pace.wait` > 0 the client logs `paced`, waits (a single-shot
    /// timer, scaled, cancellable with cancel()) and then starts attempt 1 with a fresh budget.
    quint64 send(const ChatRequest &request, const PacePlan &pace);
    /// While pacing: ends the pacing wait now and starts attempt 1 ("Send now"). False otherwise.
    bool sendNow();
    /// True while the current send waits before its first attempt.
    bool pacing() const;
    /// Policy time left of the pacing wait; 0 when not pacing.
    retry::Millis paceLeft() const;
    /// The plan of the current send (wait 0 when it was not paced).
    const PacePlan &pacePlan() const { return m_pace; }
    /// Cancels the send in flight, during a request or a wait. No-op when idle.
    void cancel();
    bool busy() const;
    quint64 currentSend() const { return m_sendId; }
    /// The next send's id (its `request` number) comes after `request`, so that sends added to
    /// a restored log never share a number, and so a timeline lane, with a restored one. Never
    /// lowers the count: a late result of an earlier send could otherwise match a new id. Call it
    /// while idle.
    void continueAfter(quint64 request) { m_sendId = std::max(m_sendId, request); }
    /// The state machine of the current (or last) send: live figures for the retry panel.
    const retry::SendPolicy *policy() const { return m_policy.get(); }

Q_SIGNALS:
    void sendStarted(quint64 send);
    /// The send waits for the provider's window before attempt 1 (after sendStarted()).
    void pacingStarted(quint64 send, const capwatch::net::PacePlan &plan);
    void attemptStarted(quint64 send, int attempt, int maxAttempts);
    /// After each attempt that got a status, before its attemptFailed()/succeeded().
    void providerReported(quint64 send, const capwatch::net::ProviderReport &report);
    /// A too_large failure that names the model's context window (before gaveUp()).
    void contextOverflowed(quint64 send, const capwatch::net::ContextOverflow &overflow);
    void answerStarted(quint64 send, int status);
    void answerText(quint64 send, const QString &text);
    void attemptFailed(quint64 send, const capwatch::net::AttemptFailure &failure);
    void retryScheduled(quint64 send, const capwatch::net::RetryInfo &info);
    void succeeded(quint64 send, const capwatch::net::SendSummary &summary);
    void gaveUp(quint64 send, const capwatch::net::SendSummary &summary);
    void cancelled(quint64 send, const capwatch::net::SendSummary &summary);

private:
    /// After the URL check: paces first when the plan says so, else loads the key and starts.
    void begin();
    void startPacing();
    void endPacing();
    /// Loads the credential, then starts attempt 1.
    void loadCredentialAndStart();
    void startAttempt();
    /// The HTTP request of the current attempt (also its resend without stream_options).
    void sendAttempt();
    /// A 400 refusing stream_options: true when the attempt was sent again without it.
    bool resendWithoutStreamUsage(const AttemptResult &result);
    void reportProvider(const AttemptResult &result);
    /// The attempt_started record of attempt `n`, with the plan's figures.
    void logAttemptStarted(int n);
    void onAttemptFinished(const AttemptResult &result);
    void applyDecision(const retry::Decision &decision);
    void onCredentialReloaded(quint64 sendId, const Credential &credential);
    void onWaitTimer();
    void onHeaderTimeout();
    void endSend(SendSummary::Outcome outcome, retry::EndReason reason);
    void configurationError(const QString &message);
    void dropAttempt();
    /// The log record of an event of the current send: its time, send and attempt and, for the
    /// events that follow a failed attempt (retry_scheduled, gave_up), that attempt's status,
    /// category, token figures and error. The caller adds what only its event knows.
    RetryRecord logRecord(RetryRecord::Event event, int attempt) const;

    QNetworkAccessManager *m_nam;
    retry::PolicyLimits m_limits;
    QString m_profileName;
    QString m_sendProfile; ///< m_profileName when the current send started
    std::shared_ptr<CredentialProvider> m_credentials;
    std::shared_ptr<CredentialProvider> m_sendCredentials; ///< m_credentials when the send began
    ScaledClock m_clock;
    QPointer<RetryLog> m_log;

    quint64 m_sendId = 0;
    ChatRequest m_request;
    QByteArray m_key;
    QString m_authSource;
    std::unique_ptr<retry::SendPolicy> m_policy;
    ChatAttempt *m_attempt = nullptr;
    QTimer m_waitTimer;
    QTimer m_headerTimer;
    QElapsedTimer m_attemptWall; ///< since the attempt's request went out
    qint64 m_waitDeadlineNs = 0; ///< steady clock, wall
    bool m_active = false;
    // The last attempt that ended, for the final error text and the log.
    int m_lastStatus = 0;
    QByteArray m_lastBody;
    QString m_lastError;
    bool m_lastWasNetwork = false;
    std::optional<AttemptFailure> m_lastFailure;
    std::optional<Usage> m_usage;
    bool m_incomplete = false;
    bool m_brokenAnswer = false; ///< an answer began, then broke or carried an error
    QString m_finishReason;
    qint64 m_answerChars = 0;
    std::optional<retry::Millis> m_cutWait;
    PacePlan m_pace;
    std::optional<retry::Millis> m_pacedRan; ///< the pacing wait that ran before attempt 1
    bool m_pacing = false;
    /// Endpoints (displayEndpoint()) that refused stream_options with a 400: sent without it.
    QSet<QString> m_refusesStreamUsage;
    bool m_streamUsageRetried = false; ///< the current send already resent without the option
    /// What the last attempt's response said about the window (empty before one answered).
    retry::WindowReport m_lastWindow;
    qint64 m_paceDeadlineNs = 0; ///< steady clock, wall
};

} // namespace capwatch::net

Q_DECLARE_METATYPE(capwatch::net::AttemptFailure)
Q_DECLARE_METATYPE(capwatch::net::RetryInfo)
Q_DECLARE_METATYPE(capwatch::net::SendSummary)
Q_DECLARE_METATYPE(capwatch::net::PacePlan)
Q_DECLARE_METATYPE(capwatch::net::ProviderReport)
Q_DECLARE_METATYPE(capwatch::net::ContextOverflow)
