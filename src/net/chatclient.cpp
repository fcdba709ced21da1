#include "chatclient.h"

#include "chatattempt.h"
#include "logging.h"
#include "retry/finalerror.h"
#include "retrylog.h"

#include <QNetworkAccessManager>
#include <algorithm>
#include <chrono>
#include <cmath>

namespace capwatch::net {

using namespace Qt::StringLiterals;
using retry::Decision;
using retry::EndReason;

namespace {

qint64 steadyNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

QString seconds(retry::Millis ms)
{
    return QString::fromStdString(retry::formatSeconds(ms));
}

} // namespace

ChatClient::ChatClient(QObject *parent)
    : QObject(parent)
    , m_nam(new QNetworkAccessManager(this))
    , m_credentials(std::make_shared<EnvCredentialProvider>(u"OPENAI_COMPAT_API_KEY"_s))
{
    qRegisterMetaType<AttemptFailure>();
    qRegisterMetaType<RetryInfo>();
    qRegisterMetaType<SendSummary>();
    qRegisterMetaType<PacePlan>();
    qRegisterMetaType<ProviderReport>();
    qRegisterMetaType<ContextOverflow>();
    // Connections are not reused across sends: a provider that closed one during a retry wait
    // must not fail the next attempt with a stale socket.
    m_nam->setAutoDeleteReplies(false);
    m_waitTimer.setSingleShot(true);
    m_waitTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_waitTimer, &QTimer::timeout, this, &ChatClient::onWaitTimer);
    m_headerTimer.setSingleShot(true);
    m_headerTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_headerTimer, &QTimer::timeout, this, &ChatClient::onHeaderTimeout);
}

ChatClient::~ChatClient()
{
    dropAttempt();
}

void ChatClient::setCredentialProvider(std::shared_ptr<CredentialProvider> provider)
{
    m_credentials = std::move(provider);
}

void ChatClient::setTimeScale(double scale)
{
    if (scale > 0 && scale <= 1)
        m_clock = ScaledClock(scale);
}

void ChatClient::setRetryLog(RetryLog *log)
{
    m_log = log;
}

bool ChatClient::busy() const
{
    return m_active;
}

quint64 ChatClient::send(const ChatRequest &request)
{
    return send(request, PacePlan {});
}

quint64 ChatClient::send(const ChatRequest &request, const PacePlan &pace)
{
    cancel();
    ++m_sendId;
    m_request = request;
    // A provider that refused stream_options once gets requests without it from the start.
    if (m_refusesStreamUsage.contains(displayEndpoint(chatCompletionsUrl(m_request.endpoint))))
        m_request.streamUsage = false;
    m_key.clear();
    m_authSource.clear();
    // The key source of this send, kept for all its attempts: a provider set meanwhile (another
    // profile) never lends its key to this send's endpoint, on a 401 reload neither.
    m_sendCredentials = m_credentials;
    m_policy = std::make_unique<retry::SendPolicy>(m_clock, m_limits);
    m_sendProfile = m_profileName;
    m_active = true;
    m_lastStatus = 0;
    m_lastBody.clear();
    m_lastError.clear();
    m_lastWasNetwork = false;
    m_lastFailure.reset();
    m_usage.reset();
    m_incomplete = false;
    m_brokenAnswer = false;
    m_finishReason.clear();
    m_answerChars = 0;
    m_cutWait.reset();
    m_pace = pace;
    m_pacedRan.reset();
    m_pacing = false;
    m_streamUsageRetried = false;
    m_lastWindow = {};

    const quint64 id = m_sendId;
    Q_EMIT sendStarted(id);
    // Begin on the next turn of the event loop, so the caller holds the id before any signal.
    QTimer::singleShot(0, this, [this, id] {
        if (id == m_sendId && m_active)
            begin();
    });
    return id;
}

void ChatClient::begin()
{
    const QUrl url = chatCompletionsUrl(m_request.endpoint);
    if (!url.isValid()) {
        configurationError(u"the endpoint '%1' is not an http(s) URL"_s.arg(
            m_request.endpoint.toString(QUrl::RemoveUserInfo)));
        return;
    }
    if (m_pace.wait > retry::Millis(0))
        startPacing();
    else
        loadCredentialAndStart();
}

void ChatClient::startPacing()
{
    m_pacing = true;
    const qint64 wallMs = m_clock.toWall(m_pace.wait);
    m_paceDeadlineNs = steadyNs() + wallMs * 1'000'000;
    qCInfo(lcRetry).noquote() << u"request %1: pacing %2 s before attempt 1 (%3)"_s.arg(m_sendId)
                                     .arg(seconds(m_pace.wait))
                                     .arg(m_pace.source == retry::WaitSource::DeclaredLimit
                                             ? u"a limit the profile declares is reached"_s
                                             : u"the provider's window is full"_s);
    if (m_log) {
        RetryRecord rec = logRecord(RetryRecord::Event::Paced, 1);
        rec.waitMs = m_pace.wait.count();
        rec.waitSource = m_pace.source == retry::WaitSource::None
            ? retry::WaitSource::RateLimitReset
            : m_pace.source;
        // Pacing never spends the retry budget.
        rec.waitedTotalMs = 0;
        rec.budgetLeftMs = m_policy->limits().budget.count();
        rec.estimatedTokens = m_pace.estimatedTokens;
        rec.windowTokensLeft = m_pace.windowTokensLeft;
        rec.windowResetS = m_pace.windowResetS;
        m_log->append(rec);
    }
    // Armed first: a slot of pacingStarted may cancel, send now or start another send.
    m_waitTimer.start(int(wallMs));
    Q_EMIT pacingStarted(m_sendId, m_pace);
}

void ChatClient::endPacing()
{
    // What attempt 1's record says was paced: all of it, or the part before Send now.
    m_pacedRan = m_pace.wait - paceLeft();
    m_waitTimer.stop();
    m_pacing = false;
    loadCredentialAndStart();
}

bool ChatClient::sendNow()
{
    if (!m_active || !m_pacing)
        return false;
    qCInfo(lcRetry).noquote() << u"request %1: sent now, before the pacing wait ended"_s.arg(
        m_sendId);
    endPacing();
    return true;
}

bool ChatClient::pacing() const
{
    return m_active && m_pacing;
}

retry::Millis ChatClient::paceLeft() const
{
    if (!pacing())
        return retry::Millis(0);
    const qint64 leftNs = m_paceDeadlineNs - steadyNs();
    if (leftNs <= 0)
        return retry::Millis(0);
    const double policyMs = double(leftNs) / 1'000'000.0 / m_clock.scale();
    return std::min(m_pace.wait, retry::Millis(qint64(std::ceil(policyMs))));
}

void ChatClient::loadCredentialAndStart()
{
    const quint64 id = m_sendId;
    QPointer<ChatClient> self(this);
    m_sendCredentials->load([self, id](const Credential &c) {
        if (!self || id != self->m_sendId || !self->m_active)
            return;
        const QUrl target = chatCompletionsUrl(self->m_request.endpoint);
        if (keyUse(c, target) == KeyUse::Missing) {
            self->configurationError(
                u"no API key (%1)"_s.arg(c.error.isEmpty() ? c.source : c.error));
            return;
        }
        if (!isHeaderSafe(c.key)) {
            self->configurationError(
                u"the API key from %1 contains characters that cannot be sent"_s.arg(c.source));
            return;
        }
        self->m_key = c.key;
        self->m_authSource = authSourceText(c, target);
        self->startAttempt();
    });
}

void ChatClient::startAttempt()
{
    const int n = m_policy->startAttempt();
    qCInfo(lcRetry).noquote() << u"request %1: attempt %2 of %3 to %4"_s.arg(m_sendId)
                                     .arg(n)
                                     .arg(m_policy->limits().maxAttempts)
                                     .arg(displayEndpoint(chatCompletionsUrl(m_request.endpoint)));
    logAttemptStarted(n);
    sendAttempt();
}

void ChatClient::logAttemptStarted(int n)
{
    if (m_log) {
        RetryRecord rec = logRecord(RetryRecord::Event::AttemptStarted, n);
        // After pacing, the time it actually waited (policy time): less than the `paced`
        // record's plan when Send now cut it short (issue 25.9).
        if (n == 1 && m_pacedRan)
            rec.waitMs = m_pacedRan->count();
        rec.estimatedTokens = m_pace.estimatedTokens;
        rec.windowTokensLeft = m_pace.windowTokensLeft;
        rec.windowResetS = m_pace.windowResetS;
        m_log->append(rec);
    }
    Q_EMIT attemptStarted(m_sendId, n, m_policy->limits().maxAttempts);
}

void ChatClient::sendAttempt()
{
    m_lastWindow = {};
    m_attempt
        = new ChatAttempt(m_nam, buildNetworkRequest(m_request, m_key), buildRequestBody(m_request),
            std::max(m_clock.toWall(kIdleTimeout), kMinIdleTimeoutWallMs), this);
    ChatAttempt *attempt = m_attempt;
    const quint64 id = m_sendId;
    connect(attempt, &ChatAttempt::headersReceived, this, [this, attempt, id](int status) {
        if (attempt != m_attempt)
            return;
        m_policy->headersReceived();
        m_headerTimer.stop();
        if (status >= 200 && status < 300)
            Q_EMIT answerStarted(id, status);
    });
    connect(attempt, &ChatAttempt::textReceived, this, [this, attempt, id](const QString &text) {
        if (attempt == m_attempt) {
            m_answerChars += text.size();
            Q_EMIT answerText(id, text);
        }
    });
    connect(attempt, &ChatAttempt::finished, this, [this, attempt](const AttemptResult &result) {
        if (attempt == m_attempt)
            onAttemptFinished(result);
    });
    m_attemptWall.start();
    if (const auto deadline = m_policy->headerDeadline())
        m_headerTimer.start(int(m_clock.toWall(*deadline - m_clock.now())));
    attempt->start();
}

void ChatClient::dropAttempt()
{
    if (!m_attempt)
        return;
    ChatAttempt *attempt = m_attempt;
    m_attempt = nullptr;
    attempt->disconnect(this);
    attempt->abort();
    attempt->deleteLater();
}

RetryRecord ChatClient::logRecord(RetryRecord::Event event, int attempt) const
{
    RetryRecord rec;
    rec.time = QDateTime::currentDateTimeUtc();
    rec.request = int(m_sendId);
    rec.event = event;
    rec.attempt = attempt;
    rec.profile = m_sendProfile;
    const bool afterFailure
        = event == RetryRecord::Event::RetryScheduled || event == RetryRecord::Event::GaveUp;
    if (afterFailure && m_lastFailure) {
        if (m_lastFailure->status > 0)
            rec.status = m_lastFailure->status;
        rec.category = m_lastFailure->category;
        rec.used = m_lastFailure->used;
        rec.limit = m_lastFailure->limit;
        rec.error = m_lastFailure->errorText;
    }
    if (afterFailure || event == RetryRecord::Event::Succeeded) {
        rec.windowTokensLeft = m_lastWindow.remainingTokens;
        if (m_lastWindow.resetTokens)
            rec.windowResetS = double(m_lastWindow.resetTokens->count()) / 1000.0;
    }
    return rec;
}

void ChatClient::applyDecision(const Decision &d)
{
    switch (d.action) {
    case Decision::Action::Retry: {
        RetryInfo info;
        info.failedAttempt = m_policy->attempt();
        info.nextAttempt = d.nextAttempt;
        info.wait = d.wait;
        info.rawWait = d.rawWait;
        info.source = d.source;
        info.waitedTotal = d.waitedTotal;
        info.budgetLeft = d.budgetLeft;
        info.wallWaitMs = m_clock.toWall(d.wait);
        info.firesAt = QDateTime::currentDateTimeUtc().addMSecs(info.wallWaitMs);
        m_waitDeadlineNs = steadyNs() + info.wallWaitMs * 1'000'000;
        qCInfo(lcRetry).noquote()
            << u"request %1: retry %2 in %3 s (raw %4 s from %5), %6 s of the budget left"_s
                   .arg(m_sendId)
                   .arg(info.failedAttempt)
                   .arg(seconds(d.wait), seconds(d.rawWait),
                       QString::fromLatin1(retry::nameOf(d.source)), seconds(d.budgetLeft));
        if (m_log) {
            RetryRecord rec = logRecord(RetryRecord::Event::RetryScheduled, info.failedAttempt);
            rec.waitMs = d.wait.count();
            rec.rawWaitMs = d.rawWait.count();
            rec.waitSource = d.source;
            rec.waitedTotalMs = d.waitedTotal.count();
            rec.budgetLeftMs = d.budgetLeft.count();
            m_log->append(rec);
        }
        Q_EMIT retryScheduled(m_sendId, info);
        m_waitTimer.start(int(info.wallWaitMs));
        return;
    }
    case Decision::Action::ReloadCredential: {
        qCInfo(lcRetry).noquote() << u"request %1: reloading the credential from %2"_s.arg(m_sendId)
                                         .arg(m_sendCredentials->source());
        QPointer<ChatClient> self(this);
        const quint64 id = m_sendId;
        m_sendCredentials->load([self, id](const Credential &c) {
            if (self)
                self->onCredentialReloaded(id, c);
        });
        return;
    }
    case Decision::Action::GiveUp:
        endSend(SendSummary::Outcome::GaveUp, d.reason);
        return;
    }
}

void ChatClient::onCredentialReloaded(quint64 sendId, const Credential &credential)
{
    if (sendId != m_sendId || !m_active
        || m_policy->state() != retry::SendPolicy::State::ReloadingCredential)
        return;
    const bool changed
        = !credential.key.isEmpty() && credential.key != m_key && isHeaderSafe(credential.key);
    if (changed) {
        m_key = credential.key;
        m_authSource = credential.source;
    }
    applyDecision(m_policy->credentialReloaded(changed));
}

void ChatClient::onWaitTimer()
{
    if (m_active && m_pacing) {
        const qint64 leftNs = m_paceDeadlineNs - steadyNs();
        if (leftNs > 0) {
            m_waitTimer.start(int((leftNs + 999'999) / 1'000'000));
            return;
        }
        endPacing();
        return;
    }
    if (!m_active || m_policy->state() != retry::SendPolicy::State::Waiting)
        return;
    // Never early: should the timer fire before the deadline, wait out the rest.
    const qint64 leftNs = m_waitDeadlineNs - steadyNs();
    if (leftNs > 0) {
        m_waitTimer.start(int((leftNs + 999'999) / 1'000'000));
        return;
    }
    startAttempt();
}

void ChatClient::onHeaderTimeout()
{
    if (!m_active || !m_attempt || m_attempt->headersSeen())
        return;
    if (const auto deadline = m_policy->headerDeadline(); deadline && m_clock.now() < *deadline) {
        m_headerTimer.start(int(m_clock.toWall(*deadline - m_clock.now())));
        return;
    }
    // Past the (scaled) deadline, but not yet past the floor of a header timeout.
    if (const qint64 waited = m_attemptWall.elapsed(); waited < kMinHeaderTimeoutWallMs) {
        m_headerTimer.start(int(kMinHeaderTimeoutWallMs - waited));
        return;
    }
    dropAttempt();
    qCInfo(lcRetry).noquote()
        << u"request %1: attempt %2 got no response headers in %3 s; abandoned"_s.arg(m_sendId)
               .arg(m_policy->attempt())
               .arg(seconds(m_policy->limits().headerTimeout));
    applyDecision(m_policy->headerTimedOut());
}

void ChatClient::cancel()
{
    if (!m_active)
        return;
    const bool waiting = m_policy->state() == retry::SendPolicy::State::Waiting;
    if (m_pacing) // the part of the pacing wait that ran, in policy time
        m_cutWait = m_pace.wait - paceLeft();
    m_pacing = false;
    m_waitTimer.stop();
    m_headerTimer.stop();
    dropAttempt();
    m_policy->cancel();
    if (waiting) {
        // The policy froze what was waited: the earlier waits plus the part of this one that ran.
        const retry::Millis earlier = m_policy->waitedTotal() - m_policy->lastDecision().wait;
        m_cutWait = std::max(retry::Millis(0), m_policy->waitedSoFar() - earlier);
    }
    endSend(SendSummary::Outcome::Cancelled, EndReason::Cancelled);
}

void ChatClient::configurationError(const QString &message)
{
    m_lastError = message;
    m_lastWasNetwork = true;
    AttemptFailure f;
    f.status = 0;
    f.category = retry::Category::Fatal;
    f.errorText = message;
    m_lastFailure = f;
    endSend(SendSummary::Outcome::GaveUp, EndReason::NotRetryable);
}

void ChatClient::endSend(SendSummary::Outcome outcome, EndReason reason)
{
    m_active = false;
    m_pacing = false;
    m_waitTimer.stop();
    m_headerTimer.stop();

    SendSummary s;
    s.outcome = outcome;
    s.reason = reason;
    s.attempts = m_policy->attempt();
    s.waited = m_policy->waitedSoFar();
    s.status = m_lastStatus;
    s.networkError = m_lastWasNetwork;
    s.incomplete = m_incomplete;
    s.finishReason = m_finishReason;
    s.answerChars = m_answerChars;
    // A cancel while the answer streams stops it as a dropped stream would: what came is kept.
    const std::string finishReason = m_finishReason.toStdString();
    s.answerEnd = retry::answerEndOf({ outcome == SendSummary::Outcome::Succeeded,
        m_brokenAnswer || outcome == SendSummary::Outcome::Cancelled, finishReason,
        m_answerChars });
    if (s.answerEnd == retry::AnswerEnd::Interrupted && !m_brokenAnswer)
        s.incomplete = true;
    s.usage = m_usage;
    s.errorText = m_lastError;
    s.cutWait = m_cutWait;

    if (outcome != SendSummary::Outcome::Succeeded) {
        retry::FailureReport report;
        report.endpoint = displayEndpoint(chatCompletionsUrl(m_request.endpoint)).toStdString();
        if (report.endpoint.empty())
            report.endpoint = m_request.endpoint.toString(QUrl::RemoveUserInfo).toStdString();
        report.model = m_request.model.toStdString();
        report.authSource = (m_authSource.isEmpty()
                ? (m_sendCredentials ? m_sendCredentials : m_credentials)->source()
                : m_authSource)
                                .toStdString();
        report.status = m_lastStatus;
        report.networkError = m_lastError.toStdString();
        report.responseBody
            = m_lastBody.isEmpty() ? m_lastError.toStdString() : m_lastBody.toStdString();
        report.attempts = s.attempts;
        report.waited = s.waited;
        report.reason = reason;
        report.maxAttempts = m_policy->limits().maxAttempts;
        report.budget = m_policy->limits().budget;
        if (m_lastFailure) { // too_large and billing add the hint line (policy 6.7)
            report.category = m_lastFailure->category;
            report.used = m_lastFailure->used;
            report.limit = m_lastFailure->limit;
        }
        s.finalErrorText = QString::fromUtf8(retry::finalErrorText(report));
    }

    if (m_log && s.answerEnd == retry::AnswerEnd::Interrupted) {
        // Before the send's end: what stopped the answer, and how much of it came.
        RetryRecord rec = logRecord(RetryRecord::Event::Interrupted, s.attempts);
        if (m_lastStatus > 0)
            rec.status = m_lastStatus;
        rec.error = outcome == SendSummary::Outcome::Cancelled
            ? u"cancelled after %1 characters of the answer"_s.arg(m_answerChars)
            : u"%1 (after %2 characters of the answer)"_s.arg(m_lastError).arg(m_answerChars);
        rec.answerEnd = s.answerEnd;
        m_log->append(rec);
    }
    if (m_log && outcome != SendSummary::Outcome::Succeeded) {
        RetryRecord rec
            = logRecord(outcome == SendSummary::Outcome::Cancelled ? RetryRecord::Event::Cancelled
                                                                   : RetryRecord::Event::GaveUp,
                s.attempts);
        rec.reason = reason;
        rec.answerEnd = s.answerEnd;
        if (outcome == SendSummary::Outcome::Cancelled) {
            // What the cancel left: the part of the wait that ran, and the waits really spent
            // (interfaces.md, the retry log).
            if (s.cutWait)
                rec.waitMs = s.cutWait->count();
            rec.waitedTotalMs = s.waited.count();
            rec.budgetLeftMs = (m_policy->limits().budget - s.waited).count();
        }
        m_log->append(rec);
    }

    const quint64 id = m_sendId;
    switch (outcome) {
    case SendSummary::Outcome::Succeeded:
        Q_EMIT succeeded(id, s);
        break;
    case SendSummary::Outcome::GaveUp:
        qCInfo(lcRetry).noquote() << u"request %1: gave up after %2 attempts: %3"_s.arg(id)
                                         .arg(s.attempts)
                                         .arg(QString::fromLatin1(retry::nameOf(reason)));
        Q_EMIT gaveUp(id, s);
        break;
    case SendSummary::Outcome::Cancelled:
        qCInfo(lcRetry).noquote() << u"request %1: cancelled"_s.arg(id);
        Q_EMIT cancelled(id, s);
        break;
    }
}

} // namespace capwatch::net
