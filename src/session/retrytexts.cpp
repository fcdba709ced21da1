#include "retrytexts.h"

#include <QLocale>
#include <cmath>

namespace capwatch::session {

using namespace Qt::StringLiterals;
using retry::Millis;

namespace {

/// Up to three decimals, nothing when whole: "7", "2.5", "0.084".
QString number(double value)
{
    return QLocale().toString(
        std::round(value * 1000.0) / 1000.0, 'f', QLocale::FloatingPointShortest);
}

Millis millis(double seconds)
{
    return Millis(std::llround(seconds * 1000.0));
}

constexpr double kEpsilonS = 0.0005; ///< half a millisecond: figures of the log are whole ms

} // namespace

QString RetryTexts::duration(Millis ms)
{
    const QLocale l;
    const qint64 v = ms.count();
    if (v <= 60'000 || v % 1000 != 0) {
        // Seconds, with the fraction a header or message gave (2.5 s, 0.084 s).
        return tr("%1 s").arg(
            v % 1000 == 0 ? l.toString(v / 1000) : l.toString(double(v) / 1000.0, 'g', 6));
    }
    const qint64 totalS = v / 1000;
    const qint64 h = totalS / 3600;
    const qint64 min = (totalS % 3600) / 60;
    const qint64 s = totalS % 60;
    if (h == 0)
        return s == 0 ? tr("%1 min").arg(l.toString(min))
                      : tr("%1 min %2 s").arg(l.toString(min), l.toString(s));
    if (s != 0)
        return tr("%1 h %2 min %3 s").arg(l.toString(h), l.toString(min), l.toString(s));
    return min == 0 ? tr("%1 h").arg(l.toString(h))
                    : tr("%1 h %2 min").arg(l.toString(h), l.toString(min));
}

QString RetryTexts::duration(double seconds)
{
    return duration(millis(seconds));
}

QString RetryTexts::seconds(double seconds)
{
    return tr("%1 s").arg(number(seconds));
}

double RetryTexts::tenths(double seconds)
{
    return std::round(seconds * 10.0) / 10.0;
}

QString RetryTexts::category(retry::Category category)
{
    switch (category) {
    case retry::Category::Success:
        return tr("success");
    case retry::Category::TokenLimit:
        return tr("token limit");
    case retry::Category::RateLimit:
        return tr("rate limit");
    case retry::Category::Transient:
        return tr("transient");
    case retry::Category::Auth:
        return tr("auth");
    case retry::Category::TooLarge:
        return tr("request too large");
    case retry::Category::Billing:
        return tr("out of credit");
    case retry::Category::Fatal:
        return tr("fatal");
    }
    return {};
}

QString RetryTexts::category(const QString &name)
{
    if (name == u"running" || name.isEmpty())
        return tr("running");
    if (name == u"cancelled")
        return tr("cancelled");
    if (name == u"parked")
        return tr("parked");
    if (name == u"paced")
        return tr("paced");
    for (const retry::Category c : { retry::Category::Success, retry::Category::TokenLimit,
             retry::Category::RateLimit, retry::Category::Transient, retry::Category::Auth,
             retry::Category::TooLarge, retry::Category::Billing, retry::Category::Fatal }) {
        if (const std::string_view n = retry::nameOf(c);
            name == QLatin1StringView(n.data(), qsizetype(n.size())))
            return category(c);
    }
    return name;
}

QString RetryTexts::waitSource(retry::WaitSource source)
{
    // The header names stay recognisable; translators may keep them as they are.
    switch (source) {
    case retry::WaitSource::RetryAfter:
        return tr("retry-after");
    case retry::WaitSource::RetryAfterMs:
        return tr("retry-after-ms");
    case retry::WaitSource::RetryDelay:
        return tr("retry delay");
    case retry::WaitSource::Message:
        return tr("message");
    case retry::WaitSource::RateLimitReset:
        return tr("rate-limit reset");
    case retry::WaitSource::Backoff:
        return tr("backoff");
    case retry::WaitSource::CredentialRefresh:
        return tr("new key");
    case retry::WaitSource::DeclaredLimit:
        return tr("declared limit");
    case retry::WaitSource::None:
        break;
    }
    return {};
}

QString RetryTexts::waitSourceSentence(retry::WaitSource source, Millis waitMs, Millis rawWaitMs)
{
    const QString wait = duration(waitMs);
    const QString raw = duration(rawWaitMs);
    const bool capped = rawWaitMs > waitMs;
    switch (source) {
    case retry::WaitSource::RetryAfter:
        return capped ? tr("retry-after header asked %1; capped to %2").arg(raw, wait)
                      : tr("retry-after header: %1").arg(wait);
    case retry::WaitSource::RetryAfterMs:
        return capped ? tr("retry-after-ms header asked %1; capped to %2").arg(raw, wait)
                      : tr("retry-after-ms header: %1").arg(wait);
    case retry::WaitSource::Message:
        return capped ? tr("provider asked %1; capped to %2").arg(raw, wait)
                      : tr("provider asked %1").arg(wait);
    case retry::WaitSource::RetryDelay:
        return capped ? tr("retryDelay in the error asked %1; capped to %2").arg(raw, wait)
                      : tr("retryDelay in the error: %1").arg(wait);
    case retry::WaitSource::RateLimitReset:
        return capped ? tr("rate-limit reset header asked %1; capped to %2").arg(raw, wait)
                      : tr("rate-limit reset header: %1").arg(wait);
    case retry::WaitSource::Backoff:
        return tr("backoff %1").arg(wait);
    case retry::WaitSource::CredentialRefresh:
        return tr("new key from the credential store: no wait");
    case retry::WaitSource::DeclaredLimit:
        return tr("the profile's declared limit: %1").arg(wait);
    case retry::WaitSource::None:
        break;
    }
    return {};
}

QString RetryTexts::waitSourceSentence(const net::RetryInfo &info)
{
    return waitSourceSentence(info.source, info.wait, info.rawWait);
}

QString RetryTexts::waitLabel(retry::WaitSource source, double waitS, double rawWaitS, double ranS)
{
    const QString name = waitSource(source);
    if (source == retry::WaitSource::CredentialRefresh)
        return name;
    if (ranS >= 0 && ranS < waitS - kEpsilonS)
        return tr("%1 %2 of %3").arg(name, seconds(tenths(ranS)), seconds(waitS));
    if (rawWaitS > waitS + kEpsilonS)
        return tr("%1 %2 → %3").arg(name, duration(rawWaitS), seconds(waitS));
    return tr("%1 %2").arg(name, seconds(waitS));
}

QString RetryTexts::paceSentence(Millis wait, bool tokensFull)
{
    // The header names stay as the provider sends them; translators may keep them.
    return tokensFull
        ? tr("x-ratelimit-reset-tokens header: %1 (pacing, outside the retry budget)")
              .arg(duration(wait))
        : tr("x-ratelimit-reset-requests header: %1 (pacing, outside the retry budget)")
              .arg(duration(wait));
}

QString RetryTexts::pacedLabel(double waitS, double ranS)
{
    if (ranS >= 0 && ranS < waitS - kEpsilonS)
        return tr("paced %1 of %2").arg(seconds(tenths(ranS)), seconds(waitS));
    return tr("paced %1").arg(seconds(waitS));
}

QString RetryTexts::reason(retry::EndReason reason)
{
    switch (reason) {
    case retry::EndReason::BudgetExhausted:
        return tr("budget exhausted");
    case retry::EndReason::AttemptsExhausted:
        return tr("attempts exhausted");
    case retry::EndReason::NotRetryable:
        return tr("not retryable");
    case retry::EndReason::Timeout:
        return tr("no response in time");
    case retry::EndReason::AuthUnchanged:
        return tr("key unchanged");
    case retry::EndReason::Cancelled:
        return tr("cancelled");
    case retry::EndReason::None:
        break;
    }
    return {};
}

QString RetryTexts::reasonSentence(
    retry::EndReason reason, const retry::PolicyLimits &limits, const QString &category)
{
    switch (reason) {
    case retry::EndReason::BudgetExhausted:
        return tr("budget exhausted (the %1 s of waiting are used up)")
            .arg(QLocale().toString(qint64(limits.budget.count() / 1000)));
    case retry::EndReason::AttemptsExhausted:
        return tr("all %1 attempts failed").arg(QLocale().toString(limits.maxAttempts));
    case retry::EndReason::NotRetryable:
        if (category == u"token_limit" && !limits.retryTokenLimit)
            return tr("this profile does not retry token limits");
        if (category == u"rate_limit" && !limits.retryRateLimit)
            return tr("this profile does not retry rate limits");
        return tr("the error is not one that waiting can fix");
    case retry::EndReason::Timeout:
        return tr("the provider did not answer in time");
    case retry::EndReason::AuthUnchanged:
        return tr("the key was rejected and no new key was found");
    case retry::EndReason::Cancelled:
        return tr("cancelled");
    case retry::EndReason::None:
        break;
    }
    return {};
}

QString RetryTexts::clockTime(const QDateTime &utc)
{
    return QLocale().toString(utc.toLocalTime().time(), u"HH:mm"_s);
}

QString RetryTexts::unpark(net::RetryRecord::Unpark unpark)
{
    switch (unpark) {
    case net::RetryRecord::Unpark::SentNow:
        return tr("sent now");
    case net::RetryRecord::Unpark::ResetReached:
        return tr("reset reached");
    case net::RetryRecord::Unpark::Cancelled:
        return tr("cancelled");
    case net::RetryRecord::Unpark::None:
        break;
    }
    return {};
}

QString RetryTexts::parkedLabel(const QDateTime &resetAt, net::RetryRecord::Unpark why)
{
    if (why != net::RetryRecord::Unpark::None)
        return tr("parked · %1").arg(unpark(why));
    if (!resetAt.isValid())
        return tr("parked");
    return tr("parked until %1").arg(clockTime(resetAt));
}

QString RetryTexts::event(net::RetryRecord::Event event)
{
    switch (event) {
    case net::RetryRecord::Event::AttemptStarted:
        return tr("Attempt started");
    case net::RetryRecord::Event::RetryScheduled:
        return tr("Retry scheduled");
    case net::RetryRecord::Event::Succeeded:
        return tr("Succeeded");
    case net::RetryRecord::Event::GaveUp:
        return tr("Gave up");
    case net::RetryRecord::Event::Cancelled:
        return tr("Cancelled");
    case net::RetryRecord::Event::Parked:
        return tr("Parked");
    case net::RetryRecord::Event::Unparked:
        return tr("Unparked");
    case net::RetryRecord::Event::Paced:
        return tr("Paced");
    case net::RetryRecord::Event::Fallback:
        return tr("Fallback");
    case net::RetryRecord::Event::Interrupted:
        return tr("Interrupted");
    }
    return {};
}

QString RetryTexts::status(int status)
{
    const std::string_view phrase = retry::statusText(status);
    if (phrase.empty())
        return QString::number(status);
    return QString(QString::number(status) + u' '
        + QString::fromLatin1(phrase.data(), qsizetype(phrase.size())));
}

} // namespace capwatch::session
