#pragma once

#include "clicommon.h"

#include <QStringList>

namespace capwatch::cli {

CommandSpec usageSpec();
/// `capwatch-cli usage [--since 7d|DATE] [--until DATE] [--by ...] [--format ...]`: the usage
/// ledger summed by day, model, profile or conversation. Reads the history database and never
/// writes, migrates or moves it; returns the exit code. `args` starts with the program name.
int runUsage(const QStringList &args);

} // namespace capwatch::cli
