#include "demolocalprovider.h"

#include "demo/demoprovider.h"

namespace capwatch::app {

DemoLocalProvider::DemoLocalProvider() = default;

DemoLocalProvider::~DemoLocalProvider() = default;

QUrl DemoLocalProvider::start(double timeScale, QString *error)
{
    if (m_provider && m_users > 0) {
        ++m_users;
        return m_provider->baseUrl();
    }
    m_provider = std::make_unique<demo::DemoProvider>();
    demo::DemoOptions o;
    o.timeScale = timeScale;
    m_provider->setOptions(o);
    if (m_held ? m_provider->reserve() : m_provider->listen()) {
        m_users = 1;
        return m_provider->baseUrl();
    }
    *error = m_provider->errorString();
    return {};
}

void DemoLocalProvider::hold()
{
    m_held = true;
}

void DemoLocalProvider::release()
{
    m_held = false;
    if (m_provider)
        m_provider->serve();
}

void DemoLocalProvider::stop()
{
    if (m_users > 1) {
        --m_users;
        return;
    }
    m_users = 0;
    m_provider.reset();
}

} // namespace capwatch::app
