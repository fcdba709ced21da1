#pragma once

#include "net/jsonnumbers.h"
#include "retry/constants.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QIODevice>
#include <QList>
#include <QString>
#include <QStringList>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

namespace capwatch::cli {

/// Exit codes of capwatch-cli (interfaces.md).
enum ExitCode
{
    ExitOk = 0,
    ExitBadArguments = 2,
    ExitProviderError = 3,
    ExitNetworkOrConfig = 4,
    /// A spending limit of the profile (or a daily limit it declares for its provider) would be
    /// crossed: nothing was sent (chat; --ignore-spend-limit sends anyway).
    ExitLimitReached = 5,
    /// The answer came, but cut off at the output limit or interrupted (issue 29): what came
    /// is on stdout (and stored), and `chat --continue ID` goes on with it.
    ExitAnswerCutOff = 6,
    ExitCancelled = 130,
};

/// One subcommand: its name, a one-line summary, its options; the options serve the parser,
/// --help and the man page alike.
struct CommandSpec
{
    QString name;
    QString summary;
    /// One line per form of the command (history's subcommands), each starting with the name.
    QString synopsis;
    QList<QCommandLineOption> options;
    /// A list after the options in --help and the man page (the demo's scenarios): its title,
    /// then a name and a description a line.
    QString listTitle;
    QList<std::pair<QString, QString>> list;
};

/// Sets up `parser` with the spec's options plus --help and parses `args`. Returns an exit
/// code when the command is already done (help shown, or an argument error reported).
/// Help goes to `out`, errors to `err`; null means standard output / standard error.
std::optional<int> parseCommand(const CommandSpec &spec, const QStringList &args,
    QCommandLineParser &parser, QIODevice *out = nullptr, QIODevice *err = nullptr);
/// The same for a command that takes up to `maxPositional` positional arguments (history's
/// subcommand and conversation ID), which the command then checks itself.
std::optional<int> parseCommandWithArguments(const CommandSpec &spec, const QStringList &args,
    QCommandLineParser &parser, int maxPositional);

/// Writes `capwatch-cli <command>: error: <message>` and a hint to `err` (null: stderr);
/// returns ExitBadArguments.
int argumentError(const QString &command, const QString &message, QIODevice *err = nullptr);
/// The spellings ("-o", "--out") of the options that take a value, which may come as the next
/// argument: what a pass over the arguments before the parser must step over.
QStringList optionsTakingValue(const QList<QCommandLineOption> &options);
/// `args` with `flag=VALUE` made a plain `flag` (so the parser, which knows it as a flag, takes
/// it) and VALUE in `value`: a flag whose value is optional (--continue-cut-off[=N]). An option's
/// value that happens to read so (--prompt --continue-cut-off=2) stays a value, as does anything
/// after `--`.
QStringList takeEqualsValue(const QStringList &args, const QList<QCommandLineOption> &options,
    const QString &flag, std::optional<QString> *value);

void writeOut(const QByteArray &bytes);
void writeErr(const QByteArray &bytes);

/// A text for a JSON value: its UTF-8 bytes.
std::string utf8(const QString &s);

// The JSON numbers of `explain` are those of the retry log.
using net::figureJson;
using net::secondsJson;

} // namespace capwatch::cli
