// ChatClient's handling of an attempt that ended: the key cut out of what the provider said, the
// provider's report, the resend without stream_options, and the answer or the failure handed to
// the retry policy.

#include "chatattempt.h"
#include "chatclient.h"
#include "logging.h"

#include <algorithm>
#include <cmath>

namespace capwatch::net {

using namespace Qt::StringLiterals;
using retry::Decision;
using retry::EndReason;

namespace {

/// Keys this short could not be told from ordinary text; cutting them out would garble it.
constexpr qsizetype kShortestRemovedKey = 8;
constexpr QByteArrayView kKeyRemoved = "[key removed]";

/// `text` without `key`: also its beginning where a cut-off text ends in it.
QByteArray withoutKey(QByteArray text, const QByteArray &key)
{
    if (key.size() < kShortestRemovedKey)
        return text;
    text.replace(key, kKeyRemoved);
    for (qsizetype n = std::min(text.size(), key.size() - 1); n >= kShortestRemovedKey; --n) {
        if (text.endsWith(QByteArrayView(key).first(n))) {
            text.chop(n);
            text += kKeyRemoved;
            break;
        }
    }
    return text;
}

} // namespace

void ChatClient::onAttemptFinished(const AttemptResult &attemptResult)
{
    // Some providers quote the key they refuse ("Incorrect API key provided: sk-..."). Their body
    // and error text go on into the log, the final error text and the window: not the key.
    AttemptResult result = attemptResult;
    result.body = withoutKey(result.body, m_key);
    result.errorText = QString::fromUtf8(withoutKey(result.errorText.toUtf8(), m_key));
    m_headerTimer.stop();
    dropAttempt();
    if (result.usage)
        m_usage = result.usage;
    m_lastStatus = result.status;
    m_lastWasNetwork = result.kind == AttemptResult::Kind::NetworkError
        || result.kind == AttemptResult::Kind::StreamBroken;
    if (result.status > 0) {
        const quint64 id = m_sendId;
        reportProvider(result);
        if (id != m_sendId || !m_active)
            return; // a slot cancelled it or started another send
    }
    if (resendWithoutStreamUsage(result))
        return;

    if (result.kind == AttemptResult::Kind::Answered) {
        m_finishReason = result.finishReason;
        m_policy->succeeded();
        qCInfo(lcRetry).noquote() << u"request %1: attempt %2 answered (%3)"_s.arg(m_sendId)
                                         .arg(m_policy->attempt())
                                         .arg(result.status);
        if (m_log) {
            RetryRecord rec = logRecord(RetryRecord::Event::Succeeded, m_policy->attempt());
            rec.status = result.status;
            rec.category = retry::Category::Success;
            const std::string finish = m_finishReason.toStdString();
            rec.answerEnd = retry::answerEndOf({ true, false, finish, m_answerChars });
            m_log->append(rec);
        }
        endSend(SendSummary::Outcome::Succeeded, EndReason::None);
        return;
    }

    if (result.kind == AttemptResult::Kind::StreamBroken
        || result.kind == AttemptResult::Kind::StreamError) {
        // An answer had begun: never retried, the partial text stays with the caller.
        m_incomplete = result.kind == AttemptResult::Kind::StreamBroken;
        m_brokenAnswer = m_answerChars > 0;
        m_lastError = result.errorText;
        m_lastBody = result.body;
        retry::Classification c;
        c.category = retry::Category::Fatal;
        c.errorText = result.errorText.toStdString();
        c.reason = "the answer failed after it had begun";
        const Decision d = m_policy->attemptFailed(c);
        AttemptFailure f;
        f.attempt = m_policy->attempt();
        f.status = result.status;
        f.category = retry::Category::Fatal;
        f.errorText = result.errorText;
        m_lastFailure = f;
        Q_EMIT attemptFailed(m_sendId, f);
        applyDecision(d);
        return;
    }

    retry::Response response;
    response.status = result.kind == AttemptResult::Kind::HttpError ? result.status : 0;
    response.headers = result.headers;
    response.body = std::string_view(result.body.constData(), std::size_t(result.body.size()));
    response.network = result.network;
    response.networkError = result.errorText.toStdString();
    response.endpoint = m_request.endpoint.toString(QUrl::RemoveUserInfo).toStdString();
    const Decision d = m_policy->attemptFailed(response);
    const retry::Classification &c = *m_policy->lastError();

    AttemptFailure f;
    f.attempt = m_policy->attempt();
    f.status = response.status;
    f.category = c.category;
    f.used = c.used;
    f.limit = c.limit;
    f.errorText = QString::fromUtf8(c.errorText);
    f.rule = QString::fromStdString(c.rule);
    if (f.errorText.isEmpty())
        f.errorText = result.status > 0 ? QString::fromUtf8(result.body) : result.errorText;
    m_lastFailure = f;
    m_lastBody = result.body;
    m_lastError = f.errorText;
    qCInfo(lcRetry).noquote()
        << u"request %1: attempt %2 failed: %3 %4%5"_s.arg(m_sendId).arg(f.attempt).arg(
               f.status > 0 ? QString::number(f.status) : u"network error"_s,
               QString::fromLatin1(retry::nameOf(c.category)),
               c.used || c.limit
                   ? u", used %1 of limit %2"_s.arg(c.used.value_or(-1)).arg(c.limit.value_or(-1))
                   : QString());
    const quint64 id = m_sendId;
    Q_EMIT attemptFailed(m_sendId, f);
    if (c.category == retry::Category::TooLarge && id == m_sendId && m_active) {
        if (const auto window = retry::contextWindowFrom(c)) {
            ContextOverflow overflow;
            // The provider's figure, from its text: only a plain count is taken.
            constexpr double kMaxCount = 9007199254740992.0; // 2^53
            if (c.used && std::isfinite(*c.used) && *c.used >= 0 && *c.used <= kMaxCount)
                overflow.requested = qint64(std::llround(*c.used));
            overflow.contextWindow = *window;
            Q_EMIT contextOverflowed(m_sendId, overflow);
        }
    }
    if (id != m_sendId || !m_active)
        return; // a slot cancelled it or started another send
    applyDecision(d);
}

void ChatClient::reportProvider(const AttemptResult &result)
{
    ProviderReport report;
    report.attempt = m_policy->attempt();
    report.status = result.status;
    report.window = retry::windowReportFrom(result.headers);
    if (result.usage)
        report.usage = usageReportOf(*result.usage);
    report.requestChars = requestChars(m_request.messages);
    report.endpoint = displayEndpoint(m_request.endpoint);
    report.model = m_request.model;
    // The resets count from when the headers came, not from the end of a long answer.
    report.receivedAt
        = result.headersAt.isValid() ? result.headersAt : QDateTime::currentDateTimeUtc();
    report.timeScale = m_clock.scale();
    m_lastWindow = report.window;
    Q_EMIT providerReported(m_sendId, report);
}

bool ChatClient::resendWithoutStreamUsage(const AttemptResult &result)
{
    if (result.kind != AttemptResult::Kind::HttpError || result.errorInSuccess || !m_request.stream
        || !m_request.streamUsage || m_streamUsageRetried
        || !retry::refusesStreamUsage(result.status,
            std::string_view(result.body.constData(), std::size_t(result.body.size()))))
        return false;
    // Not a policy attempt: no wait, no budget. The log shows the same attempt started again.
    m_refusesStreamUsage.insert(displayEndpoint(chatCompletionsUrl(m_request.endpoint)));
    m_request.streamUsage = false;
    m_streamUsageRetried = true;
    const int n = m_policy->attempt();
    qCInfo(lcRetry).noquote()
        << u"request %1: attempt %2 refused stream_options (%3); sent again without it"_s
               .arg(m_sendId)
               .arg(n)
               .arg(result.status);
    logAttemptStarted(n);
    sendAttempt();
    return true;
}

} // namespace capwatch::net
