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

private:
    std::unique_ptr<demo::DemoProvider> m_provider;
    int m_users = 0; ///< sessions that started it and did not stop it yet
};

} // namespace capwatch::app
