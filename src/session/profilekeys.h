#pragma once

// The names of the settings file's profile sections and keys (docs/interfaces.md
// "capwatch.conf") and the rules for a profile id and a header name, shared by the reader of the
// file (profilereader.cpp), its writer and the profiles' own checks (profiles.cpp).

#include "profiles.h"

#include <QLatin1StringView>
#include <QString>
#include <optional>

namespace capwatch::session::profilekeys {

inline const QString kProfilesGroup = QStringLiteral("profiles");
inline const QString kProfilePrefix = QStringLiteral("profile.");
inline const QString kHeaderPrefix = QStringLiteral("header.");
/// `price.<model>`: a profile's own price of a model.
inline const QString kPricePrefix = QStringLiteral("price.");

/// The largest count a spending limit or a declared provider limit may be.
inline constexpr qint64 kMaxLimitCount = 1'000'000'000'000;

/// A limit the profile declares for its provider, as the file spells it: one table for the
/// reader, the writer, capwatch-cli's hint and the window's "Keep this limit".
struct DeclaredKey
{
    retry::DeclaredKind kind;
    QLatin1StringView key;
    std::optional<std::int64_t> retry::DeclaredLimits::*field;
};

inline const DeclaredKey kDeclaredKeys[] = {
    { retry::DeclaredKind::RequestsPerMinute, QLatin1StringView("provider_rpm"),
        &retry::DeclaredLimits::requestsPerMinute },
    { retry::DeclaredKind::TokensPerMinute, QLatin1StringView("provider_tpm"),
        &retry::DeclaredLimits::tokensPerMinute },
    { retry::DeclaredKind::RequestsPerDay, QLatin1StringView("provider_rpd"),
        &retry::DeclaredLimits::requestsPerDay },
    { retry::DeclaredKind::TokensPerDay, QLatin1StringView("provider_tpd"),
        &retry::DeclaredLimits::tokensPerDay },
    { retry::DeclaredKind::InFlight, QLatin1StringView("provider_in_flight"),
        &retry::DeclaredLimits::inFlight },
};

/// The entry of `kind`; null for None.
inline const DeclaredKey *declaredKeyOf(retry::DeclaredKind kind)
{
    for (const DeclaredKey &k : kDeclaredKeys)
        if (k.kind == kind)
            return &k;
    return nullptr;
}

/// A number of the policy as the file spells it, with its bounds and its default.
struct NumberKey
{
    QLatin1StringView key;
    retry::Bounds bounds;
    std::optional<int> PolicyOverrides::*field;
    qint64 defaultValue;
    bool seconds;
};

inline const NumberKey kNumberKeys[] = {
    { QLatin1StringView("max_wait"), retry::kWaitCapBounds, &PolicyOverrides::waitCapS,
        retry::kWaitCap.count() / 1000, true },
    { QLatin1StringView("budget"), retry::kBudgetBounds, &PolicyOverrides::budgetS,
        retry::kRetryBudget.count() / 1000, true },
    { QLatin1StringView("max_attempts"), retry::kAttemptsBounds, &PolicyOverrides::maxAttempts,
        retry::kMaxAttempts, false },
    { QLatin1StringView("backoff_base"), retry::kBackoffBaseBounds, &PolicyOverrides::backoffBaseS,
        retry::kBackoffBase.count() / 1000, true },
    { QLatin1StringView("header_timeout"), retry::kHeaderTimeoutBounds,
        &PolicyOverrides::headerTimeoutS, retry::kRetryHeaderTimeout.count() / 1000, true },
};

/// An HTTP header name: one or more token characters (RFC 9110).
bool isHeaderName(const QString &name);
/// Letters, digits, '-' and '_', at least one.
bool isProfileId(const QString &id);

} // namespace capwatch::session::profilekeys
