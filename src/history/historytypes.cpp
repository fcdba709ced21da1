#include "historytypes.h"

#include <array>

namespace capwatch::history {

using namespace Qt::StringLiterals;

namespace {

QString fromView(std::string_view name)
{
    return QString::fromLatin1(name.data(), qsizetype(name.size()));
}

} // namespace

QString nameOf(Role role)
{
    switch (role) {
    case Role::User:
        return u"user"_s;
    case Role::Assistant:
        return u"assistant"_s;
    case Role::System:
        return u"system"_s;
    }
    return {};
}

QString nameOf(MessageState state)
{
    switch (state) {
    case MessageState::Pending:
        return u"pending"_s;
    case MessageState::Complete:
        return u"complete"_s;
    case MessageState::CutOff:
        return u"cut_off"_s;
    case MessageState::Replaced:
        return u"replaced"_s;
    }
    return {};
}

QString nameOf(SendOutcome outcome)
{
    switch (outcome) {
    case SendOutcome::Running:
        return {};
    case SendOutcome::Succeeded:
        return u"succeeded"_s;
    case SendOutcome::GaveUp:
        return u"gave_up"_s;
    case SendOutcome::Cancelled:
        return u"cancelled"_s;
    }
    return {};
}

std::optional<Role> roleFromName(const QString &name)
{
    for (const Role r : { Role::User, Role::Assistant, Role::System })
        if (nameOf(r) == name)
            return r;
    return std::nullopt;
}

std::optional<MessageState> messageStateFromName(const QString &name)
{
    for (const MessageState s : { MessageState::Pending, MessageState::Complete,
             MessageState::CutOff, MessageState::Replaced })
        if (nameOf(s) == name)
            return s;
    return std::nullopt;
}

std::optional<SendOutcome> sendOutcomeFromName(const QString &name)
{
    for (const SendOutcome o : { SendOutcome::Running, SendOutcome::Succeeded, SendOutcome::GaveUp,
             SendOutcome::Cancelled })
        if (nameOf(o) == name)
            return o;
    return std::nullopt;
}

std::optional<retry::Category> categoryFromName(const QString &name)
{
    using retry::Category;
    static constexpr std::array all { Category::Success, Category::TokenLimit, Category::RateLimit,
        Category::Transient, Category::Auth, Category::TooLarge, Category::Billing,
        Category::Fatal };
    for (const Category c : all)
        if (fromView(retry::nameOf(c)) == name)
            return c;
    return std::nullopt;
}

retry::WaitSource waitSourceFromName(const QString &name)
{
    using retry::WaitSource;
    static constexpr std::array all { WaitSource::RetryAfter, WaitSource::RetryAfterMs,
        WaitSource::RetryDelay, WaitSource::Message, WaitSource::RateLimitReset,
        WaitSource::Backoff, WaitSource::CredentialRefresh };
    for (const WaitSource s : all)
        if (fromView(retry::nameOf(s)) == name)
            return s;
    return WaitSource::None;
}

retry::EndReason endReasonFromName(const QString &name)
{
    using retry::EndReason;
    static constexpr std::array all { EndReason::NotRetryable, EndReason::AttemptsExhausted,
        EndReason::BudgetExhausted, EndReason::Timeout, EndReason::AuthUnchanged,
        EndReason::Cancelled };
    for (const EndReason r : all)
        if (fromView(retry::nameOf(r)) == name)
            return r;
    return EndReason::None;
}

} // namespace capwatch::history
