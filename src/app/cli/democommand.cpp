#include "democommand.h"

#include "demo/demoprovider.h"
#include "demo/scenarios.h"
#include "signalwatcher.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <cmath>

namespace capwatch::cli {

using namespace Qt::StringLiterals;

CommandSpec demoSpec()
{
    // QT_TRANSLATE_NOOP marks the texts for lupdate; translate() looks them up at run time.
    const auto cliText = [](const char *s) { return QCoreApplication::translate("cli", s); };
    // The scenarios' descriptions are the provider's words, English like its answers.
    QList<std::pair<QString, QString>> scenarios;
    for (const demo::ScenarioInfo &info : demo::scenarioTable())
        scenarios.append({ info.name.toString(), info.description.toString() });
    return {
        u"demo"_s,
        cliText(QT_TRANSLATE_NOOP(
            "cli", "Run the embedded capped provider on 127.0.0.1 until interrupted.")),
        u"demo [--port P] [--scenario NAME] [--limit N] [--window S] [--time-scale F] "
        u"[--headline-first N] "
        u"[--message-language LANG] [--context-window N] [--reset-after S] [--request-limit N] "
        u"[--refuse-stream-options] [--max-answer N] [--drop-after N] [--drop-with error|close] "
        u"[--cost-per-mtok X] [--requests-per-day N]"_s,
        {
            QCommandLineOption(u"port"_s,
                cliText(
                    QT_TRANSLATE_NOOP("cli", "Port on 127.0.0.1; 0 picks a free one (default).")),
                u"P"_s, u"0"_s),
            QCommandLineOption(u"scenario"_s,
                cliText(QT_TRANSLATE_NOOP("cli", "What the provider plays: %1 (default: capped)."))
                    .arg(demo::DemoProvider::scenarios().join(u", "_s)),
                u"NAME"_s, u"capped"_s),
            QCommandLineOption(u"limit"_s,
                cliText(QT_TRANSLATE_NOOP("cli", "Token cap per window (default: 6000).")), u"N"_s,
                u"6000"_s),
            QCommandLineOption(u"window"_s,
                cliText(QT_TRANSLATE_NOOP(
                    "cli", "Length of the rolling window in seconds (default: 60).")),
                u"S"_s, u"60"_s),
            QCommandLineOption(u"time-scale"_s,
                cliText(QT_TRANSLATE_NOOP(
                    "cli", "Run windows and delays F times as long (0 < F <= 1).")),
                u"F"_s, u"1"_s),
            QCommandLineOption(u"headline-first"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Answer the first N requests with the headline token-limit 422 (default: 0).")),
                u"N"_s, u"0"_s),
            QCommandLineOption(u"message-language"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                            "Language of the token-limit errors of capped and headline: %1 "
                            "(default: en)."))
                    .arg(demo::DemoProvider::messageLanguages().join(u", "_s)),
                u"LANG"_s, u"en"_s),
            QCommandLineOption(u"context-window"_s,
                cliText(QT_TRANSLATE_NOOP(
                    "cli", "Largest request in tokens for the context scenario (default: 2000).")),
                u"N"_s, u"2000"_s),
            QCommandLineOption(u"reset-after"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Seconds from the first request until the reset scenario's cap frees "
                    "(default: 180).")),
                u"S"_s, u"180"_s),
            QCommandLineOption(u"request-limit"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Chat requests per window, reported in every scenario and enforced in capped "
                    "(default: 1000).")),
                u"N"_s, u"1000"_s),
            QCommandLineOption(u"refuse-stream-options"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Answer a request with stream_options with a 400, as providers that do not "
                    "know it do."))),
            QCommandLineOption(u"max-answer"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Tokens of new text per answer in the length scenario; 0 gives empty answers "
                    "(default: 100).")),
                u"N"_s, u"100"_s),
            QCommandLineOption(u"drop-after"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Bytes of an answer the drop scenario sends before it closes the connection "
                    "(default: 680).")),
                u"N"_s, u"680"_s),
            QCommandLineOption(u"drop-with"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "How the drop scenario breaks a stream: close (the connection, default) or "
                    "error (an error event after the first words).")),
                u"HOW"_s, u"close"_s),
            QCommandLineOption(u"cost-per-mtok"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Report what each answer cost in its usage, as OpenRouter does: \"cost\", "
                    "its tokens times X credits per million tokens (default: no cost).")),
                u"X"_s),
            QCommandLineOption(u"requests-per-day"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Requests the daily scenario answers per day of the demo's clock, which "
                    "--time-scale shortens (default: 5).")),
                u"N"_s, u"5"_s),
        },
        cliText(QT_TRANSLATE_NOOP("cli", "Scenarios:")),
        scenarios,
    };
}

int runDemo(const QStringList &args)
{
    const CommandSpec spec = demoSpec();
    QCommandLineParser parser;
    if (const auto done = parseCommand(spec, args, parser))
        return *done;

    demo::DemoOptions options;
    bool ok = false;
    const uint port = parser.value(u"port"_s).toUInt(&ok);
    if (!ok || port > 65535)
        return argumentError(spec.name, u"--port takes a number from 0 to 65535"_s);
    options.scenario = parser.value(u"scenario"_s);
    if (!demo::DemoProvider::scenarios().contains(options.scenario))
        return argumentError(spec.name,
            u"unknown scenario '%1' (one of: %2)"_s.arg(
                options.scenario, demo::DemoProvider::scenarios().join(u", "_s)));
    options.limit = parser.value(u"limit"_s).toLongLong(&ok);
    if (!ok || options.limit < 1)
        return argumentError(spec.name, u"--limit takes a positive whole number"_s);
    options.windowSeconds = parser.value(u"window"_s).toDouble(&ok);
    if (!ok || !(options.windowSeconds > 0))
        return argumentError(spec.name, u"--window takes a positive number of seconds"_s);
    options.timeScale = parser.value(u"time-scale"_s).toDouble(&ok);
    if (!ok || !(options.timeScale > 0) || options.timeScale > 1)
        return argumentError(spec.name, u"--time-scale takes a number F with 0 < F <= 1"_s);

    options.headlineFirst = parser.value(u"headline-first"_s).toInt(&ok);
    if (!ok || options.headlineFirst < 0)
        return argumentError(spec.name, u"--headline-first takes a whole number from 0"_s);

    options.messageLanguage = parser.value(u"message-language"_s);
    if (!demo::DemoProvider::messageLanguages().contains(options.messageLanguage))
        return argumentError(spec.name,
            u"unknown message language '%1' (one of: %2)"_s.arg(
                options.messageLanguage, demo::DemoProvider::messageLanguages().join(u", "_s)));
    options.contextWindow = parser.value(u"context-window"_s).toLongLong(&ok);
    if (!ok || options.contextWindow < 1)
        return argumentError(spec.name, u"--context-window takes a positive whole number"_s);
    options.resetAfterSeconds = parser.value(u"reset-after"_s).toDouble(&ok);
    if (!ok || !(options.resetAfterSeconds > 0))
        return argumentError(spec.name, u"--reset-after takes a positive number of seconds"_s);
    options.requestLimit = parser.value(u"request-limit"_s).toLongLong(&ok);
    if (!ok || options.requestLimit < 1)
        return argumentError(spec.name, u"--request-limit takes a positive whole number"_s);
    options.refuseStreamOptions = parser.isSet(u"refuse-stream-options"_s);
    options.maxAnswerTokens = parser.value(u"max-answer"_s).toLongLong(&ok);
    if (!ok || options.maxAnswerTokens < 0)
        return argumentError(spec.name, u"--max-answer takes a whole number from 0"_s);
    options.dropAfterBytes = parser.value(u"drop-after"_s).toLongLong(&ok);
    if (!ok || options.dropAfterBytes < 0)
        return argumentError(spec.name, u"--drop-after takes a whole number from 0"_s);
    const QString dropWith = parser.value(u"drop-with"_s);
    if (dropWith == u"close")
        options.dropWith = demo::DropWith::Close;
    else if (dropWith == u"error")
        options.dropWith = demo::DropWith::Error;
    else
        return argumentError(
            spec.name, u"unknown --drop-with '%1' (one of: close, error)"_s.arg(dropWith));

    if (parser.isSet(u"cost-per-mtok"_s)) {
        const double cost = parser.value(u"cost-per-mtok"_s).toDouble(&ok);
        if (!ok || !std::isfinite(cost) || cost < 0)
            return argumentError(spec.name, u"--cost-per-mtok takes a number from 0"_s);
        options.costPerMillionTokens = cost;
    }
    options.requestsPerDay = parser.value(u"requests-per-day"_s).toLongLong(&ok);
    if (!ok || options.requestsPerDay < 1)
        return argumentError(spec.name, u"--requests-per-day takes a positive whole number"_s);

    demo::DemoProvider provider;
    provider.setOptions(options);
    if (!provider.listen(quint16(port))) {
        writeErr(u"capwatch-cli demo: error: %1\n"_s.arg(provider.errorString()).toUtf8());
        return ExitNetworkOrConfig;
    }
    writeOut(u"listening on %1\n"_s.arg(provider.baseUrl().toString()).toUtf8());
    writeErr(u"capwatch demo provider: scenario %1, cap %2 tokens per %3 s; Ctrl+C stops it\n"_s
                 .arg(options.scenario)
                 .arg(options.limit)
                 .arg(options.windowSeconds)
                 .toUtf8());

    SignalWatcher watcher;
    QObject::connect(
        &watcher, &SignalWatcher::interrupted, &provider, [] { QCoreApplication::quit(); });
    QCoreApplication::exec();
    return ExitOk;
}

} // namespace capwatch::cli
