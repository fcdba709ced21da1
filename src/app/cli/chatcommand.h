#pragma once

#include "clicommon.h"

namespace capwatch::cli {

CommandSpec chatSpec();
/// `capwatch-cli chat ...`: runs the event loop until the send ends; returns the exit code.
int runChat(const QStringList &args);

} // namespace capwatch::cli
