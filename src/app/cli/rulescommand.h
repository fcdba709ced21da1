#pragma once

#include "clicommon.h"

#include <QStringList>

namespace capwatch::cli {

CommandSpec rulesSpec();
/// `capwatch-cli rules check FILE` and `capwatch-cli rules list [--rules FILE]...`.
int runRules(const QStringList &args);

/// Writes `capwatch-cli: rules: FILE:LINE: what is wrong (the file is left out)` for each file
/// of the user's rules that could not be used (every command that classifies says so once).
void reportRulesErrors(const QStringList &lines);

} // namespace capwatch::cli
