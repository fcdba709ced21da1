#pragma once

#include "clicommon.h"

namespace capwatch::cli {

CommandSpec demoSpec();
/// `capwatch-cli demo ...`: serves until SIGINT/SIGTERM; returns the exit code.
int runDemo(const QStringList &args);

} // namespace capwatch::cli
