#pragma once

#include "clicommon.h"

#include <QStringList>

namespace capwatch::cli {

CommandSpec explainSpec();
/// `capwatch-cli explain ...`; `args` starts with the program name.
int runExplain(const QStringList &args);

} // namespace capwatch::cli
