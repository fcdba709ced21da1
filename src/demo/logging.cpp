#include "logging.h"

#include <atomic>
#include <cstring>

Q_LOGGING_CATEGORY(lcDemo, "capwatch.demo")

namespace capwatch::demo {

namespace {

std::atomic<QLoggingCategory::CategoryFilter> g_previousFilter { nullptr };

void withoutRequestHeaders(QLoggingCategory *category)
{
    // The rules first (the previous filter applies them), then the exception.
    if (const auto previous = g_previousFilter.load())
        previous(category);
    if (std::strncmp(category->categoryName(), "qt.httpserver", 13) == 0)
        category->setEnabled(QtDebugMsg, false);
}

} // namespace

void keepRequestHeadersOutOfLogs()
{
    static std::atomic_flag installed = ATOMIC_FLAG_INIT;
    if (installed.test_and_set())
        return;
    g_previousFilter = QLoggingCategory::installFilter(withoutRequestHeaders);
    // Installing runs the filter over every category at once, before the previous filter was
    // known; a second time applies the rules too.
    QLoggingCategory::installFilter(withoutRequestHeaders);
}

} // namespace capwatch::demo
