#pragma once

// What a conversation of a profile talks to in this run: the profile set, with the run's own
// flags over it (--demo, --endpoint, --model win for the run), and the single provider of before
// profiles while the settings file has no profile made from it. The window resolves its
// conversations with it, and so does the parking lot for a parked send's own conversation.

#include "profiles.h"
#include "sessiontypes.h"

#include <optional>

namespace capwatch::session {

class ProviderResolver
{
public:
    /// This run's command line over the profiles.
    struct RunFlags
    {
        bool forceDemo = false; ///< --demo
        QString endpoint; ///< --endpoint
        QString model; ///< --model (the demo's too)
    };

    ProviderResolver() = default;
    /// `legacy`: the provider of before profiles, used for every profile while set.
    ProviderResolver(
        ProfileSet profiles, RunFlags flags, std::optional<ProviderChoice> legacy = std::nullopt);

    const ProfileSet &profiles() const { return m_profiles; }
    const RunFlags &flags() const { return m_flags; }

    /// The profile `id` names; missing or unknown: the default profile, else the demo (--demo:
    /// the demo).
    const ProviderProfile &profile(const QString &id) const;
    /// The profile `id` names among `profiles`; missing or unknown: the default one, else the
    /// demo (what profile() reads without the run's flags).
    static const ProviderProfile &find(const ProfileSet &profiles, const QString &id);
    /// What a conversation of profile `id` talks to, with this run's flags.
    ProviderChoice choice(const QString &id) const;
    /// The fallback of profile `id`: none when this run's --endpoint replaced its provider, or it
    /// names itself or no profile. `automatic`: sent to without asking.
    std::optional<ProviderChoice> fallback(const QString &id, bool *automatic = nullptr) const;

private:
    ProfileSet m_profiles;
    RunFlags m_flags;
    std::optional<ProviderChoice> m_legacy;
};

} // namespace capwatch::session
