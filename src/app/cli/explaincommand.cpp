#include "explaincommand.h"

#include "common/userrules.h"
#include "retry/classifier.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QIODevice>
#include <chrono>
#include <cstdio>

namespace capwatch::cli {

namespace {

std::optional<int> parseInt(const QString &text, int min, int max)
{
    bool ok = false;
    const int value = text.toInt(&ok);
    if (!ok || value < min || value > max)
        return std::nullopt;
    return value;
}

int explainError(QIODevice *err, const QString &message)
{
    return argumentError(QStringLiteral("explain"), message, err);
}

} // namespace

CommandSpec explainSpec()
{
    return {
        QStringLiteral("explain"),
        QCoreApplication::translate(
            "cli", "Classify one provider response without sending anything."),
        QStringLiteral(
            "explain --status N [--header 'Name: value']... [--body TEXT | --body-file PATH] "
            "[--retry-index K] [--endpoint URL] [--rules FILE]..."),
        {
            QCommandLineOption(QStringLiteral("status"),
                QCoreApplication::translate("cli", "HTTP status of the response (100-999)."),
                QStringLiteral("N")),
            QCommandLineOption(QStringLiteral("header"),
                QCoreApplication::translate("cli",
                    "A response header, 'Name: value'. Repeatable. With a 2xx status, "
                    "'Content-Type: text/event-stream' reads the body as an event stream."),
                QStringLiteral("NAME: VALUE")),
            QCommandLineOption(QStringLiteral("body"),
                QCoreApplication::translate("cli",
                    "The response body. Without --body or --body-file it is read from standard "
                    "input."),
                QStringLiteral("TEXT")),
            QCommandLineOption(QStringLiteral("body-file"),
                QCoreApplication::translate(
                    "cli", "Read the response body from a file, byte for byte."),
                QStringLiteral("PATH")),
            QCommandLineOption(QStringLiteral("retry-index"),
                QCoreApplication::translate(
                    "cli", "Which retry the backoff is computed for (default 1)."),
                QStringLiteral("K"), QStringLiteral("1")),
            QCommandLineOption(QStringLiteral("endpoint"),
                QCoreApplication::translate("cli",
                    "The endpoint the response came from: rules scoped to an endpoint apply "
                    "only to its responses."),
                QStringLiteral("URL")),
            QCommandLineOption(QStringLiteral("rules"),
                QCoreApplication::translate("cli",
                    "Also use this rules file for this run, after those of "
                    "~/.config/capwatch/rules.d. Repeatable. A file with a problem is reported "
                    "and left out."),
                QStringLiteral("FILE")),
        },
        {},
        {},
    };
}

int runExplain(const QStringList &args, QIODevice *input, QIODevice *output, QIODevice *errors)
{
    const CommandSpec spec = explainSpec();
    QCommandLineParser parser;
    if (const auto done = parseCommand(spec, args, parser, output, errors))
        return *done;
    if (!parser.isSet(QStringLiteral("status")))
        return explainError(errors, QStringLiteral("--status is required"));
    const auto status = parseInt(parser.value(QStringLiteral("status")), 100, 999);
    if (!status)
        return explainError(errors,
            QStringLiteral("--status takes an HTTP status from 100 to 999, not '%1'")
                .arg(parser.value(QStringLiteral("status"))));
    const auto retryIndex = parseInt(parser.value(QStringLiteral("retry-index")), 1, 1000);
    if (!retryIndex)
        return explainError(errors,
            QStringLiteral("--retry-index takes a whole number from 1, not '%1'")
                .arg(parser.value(QStringLiteral("retry-index"))));
    if (parser.isSet(QStringLiteral("body")) && parser.isSet(QStringLiteral("body-file")))
        return explainError(
            errors, QStringLiteral("give the body with --body or --body-file, not both"));

    retry::Response response;
    response.status = *status;
    for (const QString &header : parser.values(QStringLiteral("header"))) {
        const qsizetype colon = header.indexOf(u':');
        if (colon <= 0)
            return explainError(
                errors, QStringLiteral("--header takes 'Name: value', not '%1'").arg(header));
        response.headers.emplace_back(header.left(colon).trimmed().toStdString(),
            header.mid(colon + 1).trimmed().toStdString());
    }

    QByteArray body;
    if (parser.isSet(QStringLiteral("body"))) {
        body = parser.value(QStringLiteral("body")).toUtf8();
    } else if (parser.isSet(QStringLiteral("body-file"))) {
        QFile file(parser.value(QStringLiteral("body-file")));
        if (!file.open(QIODevice::ReadOnly))
            return explainError(errors,
                QStringLiteral("cannot read '%1': %2").arg(file.fileName(), file.errorString()));
        body = file.readAll();
    } else {
        if (!input)
            return explainError(errors, QStringLiteral("cannot read standard input"));
        body = input->readAll();
    }
    response.body = std::string_view(body.constData(), static_cast<std::size_t>(body.size()));

    response.endpoint = parser.value(QStringLiteral("endpoint")).toStdString();

    // The user's rules files and --rules: a file with a problem is reported and left out, the
    // response is classified with the others (explain still answers, exit 0).
    const app::UserRulesLoad rules = app::loadUserRules(parser.values(QStringLiteral("rules")));
    for (const app::RulesLoadError &e : rules.errors)
        errors->write((QStringLiteral("capwatch-cli: rules: ") + e.text()
            + QStringLiteral(" (the file is left out)\n"))
                          .toUtf8());

    const retry::Classification c
        = retry::classify(response, *retryIndex, std::chrono::system_clock::now(), *rules.rules);
    nlohmann::ordered_json out;
    out["category"] = std::string(retry::nameOf(c.category));
    out["retryable"] = c.retryable;
    out["used"] = figureJson(c.used);
    out["limit"] = figureJson(c.limit);
    out["wait_s"] = c.wait ? secondsJson(*c.wait) : nlohmann::ordered_json(nullptr);
    out["raw_wait_s"] = c.rawWait ? secondsJson(*c.rawWait) : nlohmann::ordered_json(nullptr);
    out["wait_source"] = c.waitSource == retry::WaitSource::None
        ? nlohmann::ordered_json(nullptr)
        : nlohmann::ordered_json(std::string(retry::nameOf(c.waitSource)));
    out["reason"] = c.reason;
    out["rule"] = c.rule;
    // Replace invalid UTF-8 rather than throw: the reason never holds provider bytes, but be safe.
    output->write(QByteArray::fromStdString(
        out.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n"));
    return ExitOk;
}

int runExplain(const QStringList &args)
{
    // Unbuffered on the C streams, so the order with writeOut()/writeErr() elsewhere is kept.
    QFile in;
    const bool inOk = in.open(stdin, QIODevice::ReadOnly);
    QFile out;
    QFile err;
    if (!out.open(stdout, QIODevice::WriteOnly | QIODevice::Unbuffered)
        || !err.open(stderr, QIODevice::WriteOnly | QIODevice::Unbuffered))
        return ExitNetworkOrConfig;
    const int code = runExplain(args, inOk ? &in : nullptr, &out, &err);
    out.flush();
    err.flush();
    return code;
}

} // namespace capwatch::cli
