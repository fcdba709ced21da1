// How late retries fire after their scheduled time, over many waits: capwatch's ChatClient
// against the embedded demo provider (scenario rate-limited: 429 + retry-after 2 s twice, then an
// answer), time-scaled so that each wait lasts WAIT_MS on the wall clock. The provider runs on
// a thread of its own, as a remote one would. Prints the lateness distribution; not a test.
//
//   bench_retrytiming [WAITS [WAIT_MS]]     defaults: 400 waits of 100 ms

#include "../support/demothread.h"
#include "demo/demoprovider.h"
#include "net/chatclient.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <vector>

using namespace capwatch::net;
using namespace capwatch::demo;
using namespace Qt::StringLiterals;

namespace {

double percentile(const std::vector<double> &sorted, double p)
{
    const auto i = std::size_t(
        std::min<double>(double(sorted.size() - 1), p / 100.0 * double(sorted.size())));
    return sorted[i];
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(u"capwatch.*.info=false"_s);
    const int waits = argc > 1 ? std::max(2, atoi(argv[1])) : 400;
    const double waitMs = argc > 2 ? std::max(1.0, atof(argv[2])) : 100.0;
    const double scale = waitMs / 2000.0; // the provider asks for 2 s

    DemoOptions options;
    options.scenario = u"rate-limited"_s;
    options.timeScale = scale;
    options.chunkDelayMs = 0;
    capwatch::testing::DemoThread provider(options);
    const QUrl url = provider.listen();
    if (!url.isValid()) {
        std::fprintf(stderr, "bench_retrytiming: the demo provider could not listen\n");
        return 1;
    }
    ChatClient client;
    client.setTimeScale(scale);
    client.setCredentialProvider(std::make_shared<NoCredentialProvider>());

    QElapsedTimer clock;
    clock.start();
    qint64 dueNs = -1;
    std::vector<double> lateMs;
    lateMs.reserve(std::size_t(waits));
    int sends = 0;
    bool failed = false;

    ChatRequest request;
    request.endpoint = url;
    request.model = u"capwatch-demo"_s;
    request.messages = { { u"user"_s, u"timing"_s } };
    request.maxTokens = 16;

    QObject::connect(
        &client, &ChatClient::retryScheduled, &app, [&](quint64, const RetryInfo &info) {
            dueNs = clock.nsecsElapsed() + info.wallWaitMs * 1'000'000;
        });
    QObject::connect(&client, &ChatClient::attemptStarted, &app, [&](quint64, int attempt, int) {
        if (attempt > 1 && dueNs >= 0)
            lateMs.push_back(double(clock.nsecsElapsed() - dueNs) / 1e6);
        dueNs = -1;
    });
    const auto next = [&] {
        if (int(lateMs.size()) >= waits) {
            app.quit();
            return;
        }
        ++sends;
        client.send(request);
    };
    QObject::connect(
        &client, &ChatClient::succeeded, &app, [&] { QTimer::singleShot(0, &app, next); });
    QObject::connect(&client, &ChatClient::gaveUp, &app, [&](quint64, const SendSummary &s) {
        std::fprintf(stderr, "bench_retrytiming: a send gave up: %s\n", qPrintable(s.errorText));
        failed = true;
        app.quit();
    });
    QTimer::singleShot(0, &app, next);
    app.exec();
    if (failed || lateMs.empty())
        return 1;

    std::sort(lateMs.begin(), lateMs.end());
    const auto early = std::count_if(lateMs.begin(), lateMs.end(), [](double v) { return v < 0; });
    double sum = 0;
    for (double v : lateMs)
        sum += v;
    std::printf(
        "retry timing: %zu waits of %.0f ms (%d sends), lateness after the scheduled time:\n",
        lateMs.size(), waitMs, sends);
    std::printf(
        "  early %lld, min %.3f ms, median %.3f ms, mean %.3f ms, p99 %.3f ms, max %.3f ms\n",
        static_cast<long long>(early), lateMs.front(), percentile(lateMs, 50),
        sum / double(lateMs.size()), percentile(lateMs, 99), lateMs.back());
    return 0;
}
