#include "demolocalprovider.h"

#include "demo/demoprovider.h"

namespace capwatch::app {

DemoLocalProvider::DemoLocalProvider() = default;

DemoLocalProvider::~DemoLocalProvider() = default;

QUrl DemoLocalProvider::start(double timeScale, QString *error)
{
    m_provider = std::make_unique<demo::DemoProvider>();
    demo::DemoOptions o;
    o.timeScale = timeScale;
    m_provider->setOptions(o);
    if (m_provider->listen())
        return m_provider->baseUrl();
    *error = m_provider->errorString();
    return {};
}

void DemoLocalProvider::stop()
{
    m_provider.reset();
}

} // namespace capwatch::app
