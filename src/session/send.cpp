#include "send.h"

#include "net/chatclient.h"
#include "parkedoptions.h"
#include "retry/parking.h"
#include "retry/sendpolicy.h"

#include <algorithm>

namespace capwatch::session {

Send::Send(net::ChatClient *client, const QString &prompt, const SendOptions &options,
    const ProviderChoice &to, bool viaFallback, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_prompt(prompt)
    , m_options(options)
    , m_profileId(to.profile)
{
    m_state.limits = client->policyLimits();
    m_state.budgetLeft = m_state.limits.budget;
    m_state.profileName = to.profileName;
    m_state.profile = to.profile;
    m_state.viaFallback = viaFallback;

    using net::ChatClient;
    connect(client, &ChatClient::sendStarted, this, [this](quint64 send) {
        if (m_bound)
            return;
        // The first send the client starts after this was made is this one.
        m_bound = true;
        m_state.send = send;
        m_state.phase = SendPhase::Sending;
        if (const retry::SendPolicy *policy = m_client->policy())
            m_state.limits = policy->limits();
        m_state.budgetLeft = m_state.limits.budget;
        publish();
        Q_EMIT started(send);
    });
    connect(
        client, &ChatClient::pacingStarted, this, [this](quint64 send, const net::PacePlan &plan) {
            if (!mine(send) || plan.wait.count() <= 0)
                return;
            m_state.phase = SendPhase::Pacing;
            if (plan.wait.count() > 0)
                m_state.pace = plan;
            m_state.wait = plan.wait;
            m_state.rawWait = plan.wait;
            m_state.waitLeft = plan.wait;
            m_state.source = plan.source;
            readLive();
            m_tick.start();
            publish();
        });
    connect(client, &ChatClient::attemptStarted, this, [this](quint64 send, int attempt, int) {
        if (!mine(send))
            return;
        m_tick.stop();
        if (m_state.phase == SendPhase::Pacing && m_state.pace)
            m_state.pacedFor = m_state.waitElapsed(); // Send now may have cut it short
        m_state.phase = SendPhase::Sending;
        m_state.attempt = attempt;
        heard();
        m_state.wait = m_state.rawWait = m_state.waitLeft = retry::Millis(0);
        m_state.source = retry::WaitSource::None;
        m_state.earlyPark = {};
        readLive();
        publish();
    });
    connect(client, &ChatClient::answerStarted, this, [this](quint64 send, int) {
        if (!mine(send))
            return;
        m_state.phase = SendPhase::Streaming;
        heard();
        publish();
    });
    connect(client, &ChatClient::answerText, this, [this](quint64 send, const QString &text) {
        if (!mine(send))
            return;
        if (m_state.phase == SendPhase::Silent) { // a word again: no longer silent
            m_state.phase = SendPhase::Streaming;
            m_state.silentFor = retry::Millis(0);
            publish();
        }
        m_heard.start(); // a clock read a piece: no timer restarted per piece
        if (m_seamPending) {
            // Held until enough came to tell the repeat at the seam from new text.
            m_seamBuffer += text;
            if (m_seamBuffer.size() >= qsizetype(retry::kMaxSeamOverlap) + 64)
                settleSeam();
            return;
        }
        takeText(text);
    });
    connect(client, &ChatClient::attemptFailed, this,
        [this](quint64 send, const net::AttemptFailure &failure) {
            if (!mine(send))
                return;
            m_state.lastFailure = failure;
            if (failure.used || failure.limit) {
                m_state.used = failure.used;
                m_state.limit = failure.limit;
            }
            publish();
        });
    connect(client, &ChatClient::retryScheduled, this,
        [this](quint64 send, const net::RetryInfo &info) {
            if (!mine(send))
                return;
            m_silence.stop();
            m_state.silentFor = retry::Millis(0);
            m_state.phase = SendPhase::Waiting;
            // While waiting, the send already speaks of the attempt the wait leads to.
            m_state.attempt = info.nextAttempt;
            m_state.wait = info.wait;
            m_state.rawWait = info.rawWait;
            m_state.waitLeft = info.wait;
            m_state.source = info.source;
            m_state.lastWait = info;
            m_state.budgetLeft = info.budgetLeft;
            offerEarlyPark(info);
            readLive();
            m_tick.start();
            publish();
        });
    connect(client, &ChatClient::succeeded, this, [this](quint64 send, const net::SendSummary &s) {
        if (mine(send))
            end(SendPhase::Succeeded, s);
    });
    connect(client, &ChatClient::gaveUp, this, [this](quint64 send, const net::SendSummary &s) {
        if (mine(send))
            end(SendPhase::GaveUp, s);
    });
    connect(client, &ChatClient::cancelled, this, [this](quint64 send, const net::SendSummary &s) {
        if (mine(send))
            end(SendPhase::Cancelled, s);
    });

    m_tick.setInterval(50);
    m_tick.setTimerType(Qt::PreciseTimer);
    connect(&m_tick, &QTimer::timeout, this, &Send::onTick);
    connect(&m_silence, &QTimer::timeout, this, &Send::checkSilence);
}

void Send::heard()
{
    m_heard.start();
    m_state.silentFor = retry::Millis(0);
    if (!m_silence.isActive()) {
        const double scale = m_client ? m_client->timeScale() : 1.0;
        m_silence.start(std::max(20, int(1000.0 * scale)));
    }
}

void Send::checkSilence()
{
    const bool out = m_state.phase == SendPhase::Sending || m_state.phase == SendPhase::Streaming
        || m_state.phase == SendPhase::Silent;
    if (!out || !m_heard.isValid()) {
        m_silence.stop();
        return;
    }
    const double scale = m_client ? m_client->timeScale() : 1.0;
    const retry::Millis quiet(qint64(double(m_heard.elapsed()) / scale));
    if (quiet < kSilentAfter)
        return;
    if (m_state.phase != SendPhase::Silent)
        m_beforeSilence = m_state.phase;
    m_state.phase = SendPhase::Silent;
    m_state.silentFor = quiet;
    publish();
}

Send::Send(QObject *parent)
    : QObject(parent)
{ }

Send *Send::fromParked(
    const history::ParkedSend &parked, const retry::PolicyLimits &limits, QObject *parent)
{
    const ParkedOptions o = ParkedOptions::fromJson(parked.options);
    auto *send = new Send(parent);
    send->m_prompt = parked.prompt;
    send->m_options = o.send;
    send->m_request = o.request;
    send->m_attemptsMade = o.attempt;
    send->m_parksInARow = std::max(0, parked.parksInARow - 1);
    send->m_rows.send = parked.send;
    send->m_rows.prompt = parked.message;
    send->m_rows.request = o.request;
    SendState &s = send->m_state;
    s.limits = limits;
    s.budgetLeft = limits.budget;
    s.model = parked.model;
    s.attempt = o.attempt;
    s.park.dueAt = parked.dueAt;
    s.park.resetIn = retry::Millis(std::max<qint64>(0, parked.parkedAt.msecsTo(parked.resetAt)));
    send->m_endPhase = SendPhase::GaveUp;
    send->setParked(parked);
    return send;
}

Send::~Send() = default;

void Send::readLive()
{
    if (!m_client || m_client->currentSend() != m_state.send)
        return;
    if (m_state.phase == SendPhase::Pacing) {
        if (m_client->pacing())
            m_state.waitLeft = m_client->paceLeft();
        m_state.budgetLeft = m_state.limits.budget; // pacing never spends the budget
        return;
    }
    const retry::SendPolicy *policy = m_client->policy();
    if (!policy)
        return;
    m_state.budgetLeft = policy->budgetLeft();
    if (m_state.phase == SendPhase::Waiting && policy->state() == retry::SendPolicy::State::Waiting)
        m_state.waitLeft = policy->waitLeft();
}

void Send::onTick()
{
    if (m_state.phase != SendPhase::Waiting && m_state.phase != SendPhase::Pacing) {
        m_tick.stop();
        return;
    }
    readLive();
    publish();
}

void Send::continueFrom(const QString &partial, const QList<qsizetype> &seams, int inARow)
{
    m_answer = partial;
    m_continuedFrom = partial.size();
    m_seamPending = true;
    m_seamBuffer.clear();
    m_state.continuation = true;
    m_state.continuationsInARow = inARow;
    m_state.seams = seams;
    m_state.answerChars = partial.size();
}

void Send::takeText(const QString &text)
{
    if (m_answerLimit < 0) {
        m_answer += text;
    } else if (!text.isEmpty()) {
        qsizetype take = std::min(text.size(), m_answerLimit - m_answer.size());
        if (take < text.size()) {
            m_answerCut = true;
            if (take > 0 && text.at(take - 1).isHighSurrogate()) // never half a character
                --take;
        }
        if (take > 0)
            m_answer += QStringView(text).first(take);
    }
    Q_EMIT this->text(m_state.send, text);
}

void Send::settleSeam()
{
    if (!std::exchange(m_seamPending, false))
        return;
    // The partial answer's end is all the overlap can reach.
    const QStringView before = QStringView(m_answer).first(m_continuedFrom);
    const QStringView tail
        = before.last(std::min(before.size(), qsizetype(retry::kMaxSeamOverlap)));
    const std::size_t overlap = retry::seamOverlap({ tail.utf16(), std::size_t(tail.size()) },
        { QStringView(m_seamBuffer).utf16(), std::size_t(m_seamBuffer.size()) });
    const QString joined = std::exchange(m_seamBuffer, QString()).mid(qsizetype(overlap));
    if (!joined.isEmpty())
        takeText(joined);
}

void Send::end(SendPhase phase, const net::SendSummary &summary)
{
    settleSeam(); // a short continuation: all of it came
    m_tick.stop();
    m_silence.stop();
    m_state.silentFor = retry::Millis(0);
    readLive();
    if (m_state.phase == SendPhase::Pacing && m_state.pace)
        m_state.pacedFor = m_state.waitElapsed();
    if (m_state.phase == SendPhase::Waiting && summary.cutWait)
        m_state.waitLeft = m_state.wait - *summary.cutWait;
    m_state.phase = phase;
    m_endPhase = phase;
    m_attemptsMade = summary.attempts;
    // A cancelled send keeps the attempt it was at (or the one its wait led to).
    if (phase != SendPhase::Cancelled && summary.attempts > 0)
        m_state.attempt = summary.attempts;
    m_state.reason = summary.reason;
    if (phase == SendPhase::GaveUp)
        noteLastAsked();
    m_state.finalErrorText = summary.finalErrorText;
    m_state.cutWait = summary.cutWait;
    m_state.incomplete = summary.incomplete;
    m_state.usage = summary.usage;
    m_state.finishReason = summary.finishReason;
    m_state.answerEnd = summary.answerEnd;
    if (m_state.continuation) {
        // The joined answer's end: a continuation that says nothing more ends it as its finish
        // reason says; one that failed before any word leaves it as it was.
        const qsizetype added = m_answer.size() - m_continuedFrom;
        if (summary.answerEnd == retry::AnswerEnd::Empty)
            m_state.answerEnd = retry::isOutputLimit(summary.finishReason.toStdString())
                ? retry::AnswerEnd::CutOff
                : retry::AnswerEnd::Complete;
        if (added > 0 && summary.answerEnd != retry::AnswerEnd::None)
            m_state.seams.append(m_continuedFrom);
        m_state.answerChars = m_answer.size();
    } else {
        m_state.answerChars = summary.answerChars;
    }
    if (phase == SendPhase::Succeeded) {
        // The figures of a refused attempt no longer describe the send: the answer got through.
        m_state.used.reset();
        m_state.limit.reset();
        if (summary.usage && summary.usage->totalTokens >= 0)
            m_state.answerTokens = summary.usage->totalTokens;
    }
    Q_EMIT ended(m_state.send, summary);
}

void Send::noteLastAsked()
{
    // The refusal it gave up on, if no wait followed it: what that one asked for.
    const retry::SendPolicy *policy = m_client ? m_client->policy() : nullptr;
    if (!policy || !policy->lastError() || !m_state.lastFailure)
        return;
    const retry::Classification &c = *policy->lastError();
    const int failed = m_state.lastFailure->attempt;
    if ((m_state.lastWait && m_state.lastWait->failedAttempt >= failed) || !c.rawWait
        || c.waitSource == retry::WaitSource::None)
        return;
    net::RetryInfo asked;
    asked.failedAttempt = failed;
    asked.rawWait = *c.rawWait;
    asked.wait = c.wait.value_or(*c.rawWait);
    asked.source = c.waitSource;
    m_state.lastAsked = asked;
}

void Send::offerEarlyPark(const net::RetryInfo &info)
{
    m_state.earlyPark = {};
    if (!m_state.lastFailure || !info.firesAt.isValid())
        return;
    // The wall clock and the time scale as the client took them for this wait.
    const QDateTime failedAt = info.firesAt.addMSecs(-info.wallWaitMs);
    const double scale
        = info.wait.count() > 0 ? double(info.wallWaitMs) / double(info.wait.count()) : 1.0;
    retry::ParkInput in;
    in.duringCycle = true;
    // This wait, and what the budget and the attempts left after the next one can still wait.
    const int retriesLeft = std::max(0, m_state.limits.maxAttempts - info.nextAttempt);
    in.reachable = info.wait
        + std::min(info.budgetLeft, retry::Millis(m_state.limits.waitCap.count() * retriesLeft));
    in.category = m_state.lastFailure->category;
    in.waitSource = info.source;
    in.rawWait = info.rawWait;
    in.failedAt = retry::WallTime { retry::Millis(failedAt.toMSecsSinceEpoch()) };
    in.parkedInARow = m_parksInARow;
    const retry::ParkDecision d = retry::decidePark(in);
    if (!d.park)
        return;
    ParkOffer &o = m_state.earlyPark;
    o.send = m_state.send;
    o.parkable = true;
    o.refusal = retry::ParkRefusal::None;
    o.resetIn = d.resetIn;
    o.parksInARow = m_parksInARow;
    o.reason = QString::fromStdString(d.reason);
    o.dueAt = failedAt.addMSecs(qint64(double(d.resetIn.count()) * scale));
}

void Send::setOffers(const ParkOffer &park, const FallbackOffer &fallback)
{
    m_state.park = park;
    m_state.fallback = fallback;
}

void Send::setTrimOffer(const TrimOffer &trim)
{
    m_state.trim = trim;
}

void Send::setParked(
    const std::optional<history::ParkedSend> &parked, ParkedState state, const QDateTime &now)
{
    m_state.parked = parked;
    m_state.now = now;
    m_state.phase = parked ? phaseOf(state) : m_endPhase;
}

void Send::publish()
{
    m_shown = true;
    Q_EMIT changed(m_state);
}

void Send::addCost(const history::UsageRecord &row)
{
    m_state.cost += history::CostTotal::ofAttempt(row.cost, row.costSource, row.currency,
        row.status && *row.status >= 200 && *row.status < 300 && row.category.isEmpty(),
        row.promptTokens.value_or(0) + row.completionTokens.value_or(0));
}

} // namespace capwatch::session
