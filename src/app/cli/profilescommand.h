#pragma once

#include "clicommon.h"
#include "session/profiles.h"

#include <optional>

namespace capwatch::cli {

/// The profiles of `--config PATH` (a file that must exist) or, without it, of the settings file
/// the window uses (session::defaultSettingsPath(); missing: the demo alone). Null with `error`
/// set when the named file cannot be read.
std::optional<session::ProfileSet> readProfileFile(const QString &configPath, QString *error);

/// `capwatch: warning: <issue>` / `capwatch: error: <issue>` lines, for stderr.
QByteArray issueLines(const QList<session::ProfileIssue> &issues);

CommandSpec profilesSpec();
/// `capwatch-cli profiles list [--config PATH] [--json]`.
int runProfiles(const QStringList &args);

} // namespace capwatch::cli
