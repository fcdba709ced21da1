#include "clicommon.h"

#include <cmath>
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

int argumentError(const QString &command, const QString &message)
{
    const QString prefix = command.isEmpty() ? QStringLiteral("capwatch-cli")
                                             : QStringLiteral("capwatch-cli ") + command;
    writeErr((prefix + QStringLiteral(": error: ") + message + u'\n').toUtf8());
    writeErr((QStringLiteral("Try '") + prefix + QStringLiteral(" --help'.\n")).toUtf8());
    return ExitBadArguments;
}

nlohmann::ordered_json secondsJson(retry::Millis ms)
{
    if (ms.count() % 1000 == 0)
        return ms.count() / 1000;
    return static_cast<double>(ms.count()) / 1000.0;
}

nlohmann::ordered_json figureJson(std::optional<double> value)
{
    if (!value)
        return nullptr;
    double whole = 0;
    if (std::modf(*value, &whole) == 0.0 && std::fabs(whole) < 9.0e15)
        return static_cast<long long>(whole);
    return *value;
}

} // namespace capwatch::cli
