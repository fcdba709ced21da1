// The names of the categories and wait sources as interfaces.md spells them (the log, explain,
// the history), and what each category means for a retry.

#include "classifier.h"

namespace capwatch::retry {

bool isRetryable(Category category)
{
    return category == Category::TokenLimit || category == Category::RateLimit
        || category == Category::Transient || category == Category::Auth;
}

std::string_view nameOf(Category category)
{
    switch (category) {
    case Category::Success:
        return "success";
    case Category::TokenLimit:
        return "token_limit";
    case Category::RateLimit:
        return "rate_limit";
    case Category::Transient:
        return "transient";
    case Category::Auth:
        return "auth";
    case Category::TooLarge:
        return "too_large";
    case Category::Billing:
        return "billing";
    case Category::Fatal:
        return "fatal";
    }
    return "fatal";
}

std::string_view nameOf(WaitSource source)
{
    switch (source) {
    case WaitSource::None:
        return "";
    case WaitSource::RetryAfter:
        return "retry-after";
    case WaitSource::RetryAfterMs:
        return "retry-after-ms";
    case WaitSource::RetryDelay:
        return "retry-delay";
    case WaitSource::Message:
        return "message";
    case WaitSource::RateLimitReset:
        return "ratelimit-reset";
    case WaitSource::Backoff:
        return "backoff";
    case WaitSource::CredentialRefresh:
        return "credential-refresh";
    case WaitSource::DeclaredLimit:
        return "declared-limit";
    }
    return "";
}

std::optional<Category> categoryNamed(std::string_view name)
{
    for (const Category c :
        { Category::Success, Category::TokenLimit, Category::RateLimit, Category::Transient,
            Category::Auth, Category::TooLarge, Category::Billing, Category::Fatal }) {
        if (nameOf(c) == name)
            return c;
    }
    return std::nullopt;
}

std::optional<WaitSource> waitSourceNamed(std::string_view name)
{
    for (const WaitSource s : { WaitSource::RetryAfter, WaitSource::RetryAfterMs,
             WaitSource::RetryDelay, WaitSource::Message, WaitSource::RateLimitReset,
             WaitSource::Backoff, WaitSource::CredentialRefresh, WaitSource::DeclaredLimit }) {
        if (nameOf(s) == name)
            return s;
    }
    return std::nullopt;
}

} // namespace capwatch::retry
