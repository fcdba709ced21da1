#pragma once

// The embedded demo provider behind the session's LocalProvider hook, as src/app/gui gives it to
// the window: DemoHook runs it on the test's thread (window tests switch its scenario and read
// what it received), ThreadedDemo on a thread of its own (session tests). Header-only.

#include "demo/demoprovider.h"
#include "demothread.h"
#include "session/localprovider.h"

#include <QList>
#include <memory>

namespace capwatch::testing {

class DemoHook final : public session::LocalProvider
{
public:
    QUrl start(double timeScale, QString *error) override
    {
        if (m_provider && m_users++ > 0) // shared, as src/app/gui's is
            return m_provider->baseUrl();
        m_users = 1;
        m_provider = std::make_unique<demo::DemoProvider>();
        demo::DemoOptions o;
        o.timeScale = timeScale;
        m_provider->setOptions(o);
        if (m_provider->listen())
            return m_provider->baseUrl();
        *error = m_provider->errorString();
        return {};
    }
    void stop() override
    {
        if (--m_users <= 0) {
            m_users = 0;
            m_provider.reset();
        }
    }
    /// While the session uses the demo; null before and after.
    demo::DemoProvider *provider() const { return m_provider.get(); }

private:
    std::unique_ptr<demo::DemoProvider> m_provider;
    int m_users = 0;
};

class ThreadedDemo final : public session::LocalProvider
{
public:
    explicit ThreadedDemo(demo::DemoOptions options)
        : m_options(std::move(options))
    { }
    QUrl start(double timeScale, QString *error) override
    {
        if (m_thread && m_users++ > 0) // shared, as src/app/gui's is
            return m_url;
        m_users = 1;
        demo::DemoOptions o = m_options;
        o.timeScale = timeScale;
        m_thread = std::make_unique<DemoThread>(o);
        m_url = m_thread->listen();
        if (!m_url.isValid())
            *error = QStringLiteral("the demo provider did not listen");
        return m_url;
    }
    void stop() override
    {
        if (--m_users <= 0) {
            m_users = 0;
            m_thread.reset();
        }
    }
    /// The chat requests it received, in order.
    QList<demo::RecordedRequest> chats() const
    {
        QList<demo::RecordedRequest> out;
        if (!m_thread)
            return out;
        for (const demo::RecordedRequest &r : m_thread->recordedRequests()) {
            if (r.method == "POST" && r.path.endsWith("/chat/completions"))
                out.append(r);
        }
        return out;
    }
    /// When each of chats() reached the provider (wall time, UTC), in the same order.
    QList<QDateTime> chatArrivals() const
    {
        return m_thread ? m_thread->chatArrivals() : QList<QDateTime>();
    }

private:
    demo::DemoOptions m_options;
    std::unique_ptr<DemoThread> m_thread;
    QUrl m_url;
    int m_users = 0;
};

} // namespace capwatch::testing
