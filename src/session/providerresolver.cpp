#include "providerresolver.h"

#include <utility>

namespace capwatch::session {

ProviderResolver::ProviderResolver(
    ProfileSet profiles, RunFlags flags, std::optional<ProviderChoice> legacy)
    : m_profiles(std::move(profiles))
    , m_flags(std::move(flags))
    , m_legacy(std::move(legacy))
{ }

const ProviderProfile &ProviderResolver::find(const ProfileSet &profiles, const QString &id)
{
    if (const ProviderProfile *p = id.isEmpty() ? nullptr : profiles.find(id))
        return *p;
    if (const ProviderProfile *p = profiles.find(profiles.defaultProfile))
        return *p;
    return profiles.demo();
}

const ProviderProfile &ProviderResolver::profile(const QString &id) const
{
    return m_flags.forceDemo ? m_profiles.demo() : find(m_profiles, id);
}

ProviderChoice ProviderResolver::choice(const QString &id) const
{
    if (m_legacy)
        return *m_legacy;
    ProviderChoice choice = profile(id).choice();
    if (!m_flags.forceDemo && !m_flags.endpoint.isEmpty()) {
        choice.demo = false;
        choice.endpoint = QUrl(m_flags.endpoint);
    }
    // --model names the model for this run, the demo's too.
    if (!m_flags.model.trimmed().isEmpty())
        choice.model = m_flags.model;
    return choice;
}

std::optional<ProviderChoice> ProviderResolver::fallback(const QString &id, bool *automatic) const
{
    if (automatic)
        *automatic = false;
    const ProviderProfile &own = profile(id);
    const ProviderProfile *fallback
        = own.fallback.isEmpty() ? nullptr : m_profiles.find(own.fallback);
    if (!fallback || !m_flags.endpoint.isEmpty() || fallback->id == own.id)
        return std::nullopt;
    if (automatic)
        *automatic = own.autoFallback;
    return fallback->choice();
}

} // namespace capwatch::session
