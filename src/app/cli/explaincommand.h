#pragma once

#include "clicommon.h"

#include <QStringList>

QT_BEGIN_NAMESPACE
class QIODevice;
QT_END_NAMESPACE

namespace capwatch::cli {

CommandSpec explainSpec();
/// `capwatch-cli explain ...`; `args` starts with the program name. Reads standard input,
/// writes standard output and standard error.
int runExplain(const QStringList &args);
/// The same on the given devices: `in` is read only when neither --body nor --body-file is
/// given (null: reported as an unreadable standard input), `out` and `err` must be open for
/// writing. Never exits the process; returns the exit code.
int runExplain(const QStringList &args, QIODevice *in, QIODevice *out, QIODevice *err);

} // namespace capwatch::cli
