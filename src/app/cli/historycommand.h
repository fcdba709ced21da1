#pragma once

#include "clicommon.h"

#include <QStringList>

namespace capwatch::cli {

CommandSpec historySpec();
/// `capwatch-cli history list|show|export ...`; `args` starts with the program name. Reads the
/// history database and never writes, migrates or moves it; returns the exit code.
int runHistory(const QStringList &args);

} // namespace capwatch::cli
