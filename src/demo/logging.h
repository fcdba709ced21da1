#pragma once

#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcDemo)

namespace capwatch::demo {

/// Qt HTTP Server's debug messages (qt.httpserver*) print every request received with all its
/// headers, an Authorization header's key included. A process that runs the demo provider calls
/// this once: those messages then stay off whatever the logging rules (QT_LOGGING_RULES) say.
void keepRequestHeadersOutOfLogs();

} // namespace capwatch::demo
