#pragma once

// The embedded demo provider on a thread of its own, so that it serves as fast as a separate
// process would while the test's own thread reads (in one thread, reading would pace writing).
// Header-only, for tests and benchmarks.

#include "demo/demoprovider.h"

#include <QDateTime>
#include <QList>
#include <QMutex>
#include <QMutexLocker>
#include <QSemaphore>
#include <QThread>
#include <QUrl>
#include <utility>

namespace capwatch::testing {

class DemoThread final : public QThread
{
public:
    explicit DemoThread(demo::DemoOptions options)
        : m_options(std::move(options))
    { }
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

    /// What the provider received so far (a copy, safe from any thread); after the thread has
    /// ended, what it had received by then.
    QList<demo::RecordedRequest> recordedRequests() const
    {
        const QMutexLocker lock(&m_providerMutex);
        return m_provider ? m_provider->recordedRequests() : m_finalRecords;
    }

    void clearRecordedRequests()
    {
        const QMutexLocker lock(&m_providerMutex);
        if (m_provider)
            m_provider->clearRecordedRequests();
        m_finalRecords.clear();
        const QMutexLocker arrivals(&m_arrivalsMutex);
        m_arrivals.clear();
    }

    /// The wall time (UTC) each chat request reached the provider, taken on the provider's
    /// thread as it arrived, in the order of recordedRequests()' chat requests: "not before" is
    /// measured where it counts, not when the test hears of the answer.
    QList<QDateTime> chatArrivals() const
    {
        const QMutexLocker lock(&m_arrivalsMutex);
        return m_arrivals;
    }

protected:
    void run() override
    {
        demo::DemoProvider provider;
        provider.setOptions(m_options);
        QObject::connect(&provider, &demo::DemoProvider::chatRequestReceived, &provider, [this] {
            const QMutexLocker lock(&m_arrivalsMutex);
            m_arrivals.append(QDateTime::currentDateTimeUtc());
        });
        if (provider.listen())
            m_url = provider.baseUrl();
        {
            const QMutexLocker lock(&m_providerMutex);
            m_provider = &provider;
        }
        m_ready.release();
        exec();
        const QMutexLocker lock(&m_providerMutex);
        m_finalRecords = provider.recordedRequests();
        m_provider = nullptr;
    }

private:
    mutable QMutex m_providerMutex; // guards m_provider and m_finalRecords
    demo::DemoProvider *m_provider = nullptr; // lives on this thread's stack while it runs
    QList<demo::RecordedRequest> m_finalRecords;
    mutable QMutex m_arrivalsMutex; // guards m_arrivals, written on the provider's thread
    QList<QDateTime> m_arrivals;
    demo::DemoOptions m_options;
    QSemaphore m_ready;
    QUrl m_url;
};

} // namespace capwatch::testing
