#pragma once

// The embedded demo provider on a thread of its own, so that it serves as fast as a separate
// process would while the test's own thread reads (in one thread, reading would pace writing).
// Header-only, for tests and benchmarks.

#include "net/demoprovider.h"

#include <QSemaphore>
#include <QThread>
#include <QUrl>

#include <utility>

namespace capwatch::testing {

class DemoThread final : public QThread
{
public:
    explicit DemoThread(net::DemoOptions options)
        : m_options(std::move(options))
    {
    }
    ~DemoThread() override
    {
        quit();
        wait();
    }

    /// Starts the thread and the provider; its base URL, or an invalid URL if it could not listen.
    QUrl listen()
    {
        start();
        m_ready.acquire();
        return m_url;
    }

protected:
    void run() override
    {
        net::DemoProvider provider;
        provider.setOptions(m_options);
        if (provider.listen())
            m_url = provider.baseUrl();
        m_ready.release();
        exec();
    }

private:
    net::DemoOptions m_options;
    QSemaphore m_ready;
    QUrl m_url;
};

} // namespace capwatch::testing
