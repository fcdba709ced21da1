#pragma once

// The session's hook for a provider on this machine: the app's embedded demo. The session asks
// for it when the demo is chosen and lets it go when not, without knowing what serves it, so
// neither the session nor the window links the demo server.

#include <QString>
#include <QUrl>

namespace capwatch::session {

class LocalProvider
{
public:
    LocalProvider() = default;
    virtual ~LocalProvider() = default;
    LocalProvider(const LocalProvider &) = delete;
    LocalProvider &operator=(const LocalProvider &) = delete;

    /// Starts serving on loopback, every wait `timeScale` times as long. Returns the base URL,
    /// or an invalid URL and `error` saying why it could not start. Several sessions may use
    /// it at once (the window's and one sending a parked prompt): a start() while it serves
    /// returns the same URL, and it serves until as many stop() calls came.
    virtual QUrl start(double timeScale, QString *error) = 0;
    /// Stops serving after the last user's stop(); a later start() serves again.
    virtual void stop() = 0;
};

} // namespace capwatch::session
