#include "clicommon.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <algorithm>
#include <cstdio>

namespace capwatch::cli {

using namespace Qt::StringLiterals;

void writeOut(const QByteArray &bytes)
{
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stdout);
    std::fflush(stdout);
}

QStringList optionsTakingValue(const QList<QCommandLineOption> &options)
{
    QStringList out;
    for (const QCommandLineOption &o : options) {
        if (o.valueName().isEmpty())
            continue;
        for (const QString &name : o.names())
            out << (name.size() == 1 ? u"-"_s : u"--"_s) + name;
    }
    return out;
}

QStringList takeEqualsValue(const QStringList &args, const QList<QCommandLineOption> &options,
    const QString &flag, std::optional<QString> *value)
{
    const QStringList takesValue = optionsTakingValue(options);
    QStringList out;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &arg = args.at(i);
        if (i > 0 && arg == u"--") { // the first is the program
            out << args.mid(i);
            break;
        }
        if (i > 0 && arg.startsWith(flag + u'=')) {
            *value = arg.mid(flag.size() + 1);
            out << flag;
            continue;
        }
        out << arg;
        if (i > 0 && takesValue.contains(arg) && i + 1 < args.size())
            out << args.at(++i);
    }
    return out;
}

void writeErr(const QByteArray &bytes)
{
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stderr);
    std::fflush(stderr);
}

std::string utf8(const QString &s)
{
    return s.toStdString();
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

/// "  name  description", the description wrapped at spaces to 79 columns as Qt wraps options.
QString listEntry(const QString &name, const QString &description, qsizetype width)
{
    const qsizetype indent = width + 4;
    const qsizetype room = std::max<qsizetype>(20, 79 - indent);
    QString out = QStringLiteral("  ") + name.leftJustified(width) + QStringLiteral("  ");
    QString line;
    for (const QString &word : description.split(u' ', Qt::SkipEmptyParts)) {
        if (!line.isEmpty() && line.size() + 1 + word.size() > room) {
            out += line + u'\n' + QString(indent, u' ');
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
    }
    return out + line + u'\n';
}

std::optional<int> parse(const CommandSpec &spec, const QStringList &args,
    QCommandLineParser &parser, QIODevice *out, QIODevice *err, int maxPositional)
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
        if (!spec.list.isEmpty()) {
            qsizetype width = 0;
            for (const auto &[name, description] : spec.list)
                width = std::max(width, name.size());
            text += u'\n' + spec.listTitle + u'\n';
            for (const auto &[name, description] : spec.list)
                text += listEntry(name, description, width);
        }
        const QString program = QStringLiteral("capwatch-cli ");
        QString usage = QStringLiteral("Usage: ");
        for (const QString &form : spec.synopsis.split(u'\n')) {
            if (usage.size() > 7)
                usage += QStringLiteral("       ");
            usage += program + form + u'\n';
        }
        writeTo(out, (usage + text).toUtf8(), false);
        return int(ExitOk);
    }
    if (parser.positionalArguments().size() > maxPositional)
        return argumentError(spec.name,
            QStringLiteral("unexpected argument '%1'")
                .arg(parser.positionalArguments().at(maxPositional)),
            err);
    return std::nullopt;
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
    return parse(spec, args, parser, out, err, 0);
}

std::optional<int> parseCommandWithArguments(
    const CommandSpec &spec, const QStringList &args, QCommandLineParser &parser, int maxPositional)
{
    return parse(spec, args, parser, nullptr, nullptr, maxPositional);
}

} // namespace capwatch::cli
