#include "clicommon.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <cstdio>

namespace capwatch::cli {

void writeOut(const QByteArray &bytes)
{
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stdout);
    std::fflush(stdout);
}

void writeErr(const QByteArray &bytes)
{
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stderr);
    std::fflush(stderr);
}

namespace {

void writeTo(QIODevice *device, const QByteArray &bytes, bool toStderr)
{
    if (device)
        device->write(bytes);
    else if (toStderr)
        writeErr(bytes);
    else
        writeOut(bytes);
}

} // namespace

int argumentError(const QString &command, const QString &message, QIODevice *err)
{
    const QString prefix = command.isEmpty() ? QStringLiteral("capwatch-cli")
                                             : QStringLiteral("capwatch-cli ") + command;
    writeTo(err, (prefix + QStringLiteral(": error: ") + message + u'\n').toUtf8(), true);
    writeTo(err, (QStringLiteral("Try '") + prefix + QStringLiteral(" --help'.\n")).toUtf8(), true);
    return ExitBadArguments;
}

std::optional<int> parseCommand(const CommandSpec &spec, const QStringList &args,
    QCommandLineParser &parser, QIODevice *out, QIODevice *err)
{
    parser.setApplicationDescription(spec.summary);
    const QCommandLineOption help(QStringList { QStringLiteral("h"), QStringLiteral("help") },
        QCoreApplication::translate("cli", "Show this help."));
    parser.addOption(help);
    parser.addOptions(spec.options);
    if (!parser.parse(args))
        return argumentError(spec.name, parser.errorText(), err);
    if (parser.isSet(help)) {
        QString text = parser.helpText();
        text = text.mid(text.indexOf(u'\n') + 1); // Qt's own "Usage:" line names no command
        writeTo(out,
            (QStringLiteral("Usage: capwatch-cli ") + spec.synopsis + u'\n' + text).toUtf8(),
            false);
        return int(ExitOk);
    }
    if (!parser.positionalArguments().isEmpty())
        return argumentError(spec.name,
            QStringLiteral("unexpected argument '%1'")
                .arg(parser.positionalArguments().constFirst()),
            err);
    return std::nullopt;
}

} // namespace capwatch::cli
