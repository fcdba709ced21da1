#pragma once

// The typed values of a retry log record from their interfaces.md names, so tests can keep
// writing records the way the log files spell them.

#include "retry/classifier.h"
#include "retry/sendpolicy.h"

#include <QString>
#include <QtGlobal>
#include <optional>

namespace capwatch::test {

/// The value of `all` whose nameOf() is `name`; a name that none has is a mistake in the test.
template<typename Enum, std::size_t N> Enum named(QStringView name, const Enum (&all)[N])
{
    for (const Enum value : all) {
        if (const std::string_view n = retry::nameOf(value);
            name == QLatin1StringView(n.data(), qsizetype(n.size())))
            return value;
    }
    qFatal("no such name: %s", qPrintable(name.toString()));
}

/// `token_limit` and the other categories; empty: none.
inline std::optional<retry::Category> categoryNamed(QStringView name)
{
    using C = retry::Category;
    if (name.isEmpty())
        return std::nullopt;
    return named(name,
        { C::Success, C::TokenLimit, C::RateLimit, C::Transient, C::Auth, C::TooLarge, C::Billing,
            C::Fatal });
}

/// `retry-after` and the other wait sources; empty: None.
inline retry::WaitSource waitSourceNamed(QStringView name)
{
    using S = retry::WaitSource;
    return named(name,
        { S::None, S::RetryAfter, S::RetryAfterMs, S::RetryDelay, S::Message, S::RateLimitReset,
            S::Backoff, S::CredentialRefresh });
}

/// `budget_exhausted` and the other end reasons; empty: None.
inline retry::EndReason reasonNamed(QStringView name)
{
    using R = retry::EndReason;
    return named(name,
        { R::None, R::NotRetryable, R::AttemptsExhausted, R::BudgetExhausted, R::Timeout,
            R::AuthUnchanged, R::Cancelled });
}

} // namespace capwatch::test
