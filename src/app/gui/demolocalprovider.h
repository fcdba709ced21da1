#pragma once

// The embedded demo provider behind the session's LocalProvider hook: only the program knows
// the demo server; the session and the window just ask for "the local provider".

#include "session/localprovider.h"

#include <memory>

namespace capwatch::demo {
class DemoProvider;
}

namespace capwatch::app {

class DemoLocalProvider final : public session::LocalProvider
{
public:
    DemoLocalProvider();
    ~DemoLocalProvider() override;

    QUrl start(double timeScale, QString *error) override;
    void stop() override;

    /// Until release(), a start() takes the demo's port and gives its URL at once, and the
    /// server behind it is built at release(): the window holds it until its first paint. A
    /// request that comes first waits for it in the port's backlog.
    void hold();
    void release();

private:
    std::unique_ptr<demo::DemoProvider> m_provider;
    bool m_held = false;
    int m_users = 0; ///< sessions that started it and did not stop it yet
};

} // namespace capwatch::app
