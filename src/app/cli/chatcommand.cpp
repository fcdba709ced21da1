#include "chatcommand.h"

#include "gui/demolocalprovider.h"
#include "history/historystore.h"
#include "history/historywriter.h"
#include "historycommand.h"
#include "net/chatclient.h"
#include "net/retrylog.h"
#include "profilescommand.h"
#include "progresslines.h"
#include "retry/finalerror.h"
#include "retry/sendpolicy.h"
#include "session/chatsession.h"
#include "session/providermemory.h"
#include "session/sendtexts.h"
#include "session/settingsfile.h"
#include "session/storedrecords.h"
#include "signalwatcher.h"
#include "waitforreset.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QSettings>
#include <QTimer>
#include <memory>
#include <unistd.h>

namespace capwatch::cli {

using namespace Qt::StringLiterals;

namespace {

/// One of the policy flags: its name, bounds and where it goes.
struct PolicyFlag
{
    QLatin1StringView name;
    retry::Bounds bounds;
    std::optional<int> session::PolicyOverrides::*field;
};

const PolicyFlag kPolicyFlags[] = {
    { "max-wait"_L1, retry::kWaitCapBounds, &session::PolicyOverrides::waitCapS },
    { "budget"_L1, retry::kBudgetBounds, &session::PolicyOverrides::budgetS },
    { "max-attempts"_L1, retry::kAttemptsBounds, &session::PolicyOverrides::maxAttempts },
    { "backoff-base"_L1, retry::kBackoffBaseBounds, &session::PolicyOverrides::backoffBaseS },
};

/// The policy flags over `overrides`; the first bad value's message, else empty.
QString applyPolicyFlags(const QCommandLineParser &parser, session::PolicyOverrides &overrides)
{
    for (const PolicyFlag &flag : kPolicyFlags) {
        const QString name = QString(flag.name);
        if (!parser.isSet(name))
            continue;
        const QString text = parser.value(name).trimmed();
        bool ok = false;
        const qint64 v = text.toLongLong(&ok);
        if (!ok)
            return u"--%1: '%2' is not a whole number"_s.arg(name, text);
        if (!flag.bounds.contains(v))
            return u"--%1: %2 is out of range %3-%4"_s.arg(name, text)
                .arg(flag.bounds.min)
                .arg(flag.bounds.max);
        overrides.*flag.field = int(v);
    }
    return {};
}

} // namespace

CommandSpec chatSpec()
{
    // QT_TRANSLATE_NOOP marks the texts for lupdate; translate() looks them up at run time.
    const auto cliText = [](const char *s) { return QCoreApplication::translate("cli", s); };
    return {
        u"chat"_s,
        cliText(QT_TRANSLATE_NOOP("cli",
            "Send one prompt to an OpenAI-compatible endpoint, retrying by the capwatch policy.")),
        u"chat (--endpoint URL | --profile NAME) [--config PATH] [--model NAME] [--prompt TEXT] "
        u"[--system TEXT] [--max-tokens N] "
        "[--temperature T] [--api-key-env VAR] [--api-key-file PATH] [--no-stream] [--log PATH] [--time-scale F] [--private] [--history-database PATH] [--wait-for-reset[=MAX]] [--no-pacing] [--max-wait S] [--budget S] [--max-attempts N] [--backoff-base S] [--fallback] [--continue-cut-off[=N]] [--continue ID] [--ignore-spend-limit]"_s,
        {
            QCommandLineOption(u"endpoint"_s,
                cliText(QT_TRANSLATE_NOOP(
                    "cli", "Base URL (http://host:port/v1) or the full .../chat/completions URL.")),
                u"URL"_s),
            QCommandLineOption(u"profile"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "A provider profile of the settings file, by id or name: its endpoint, "
                    "model, key source, headers, context window and retry numbers (the flags "
                    "given here win). 'demo' runs the embedded demo provider in-process.")),
                u"NAME"_s),
            QCommandLineOption(u"config"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Read --profile from this settings file instead of the window's "
                    "(~/.config/capwatch/capwatch.conf).")),
                u"PATH"_s),
            QCommandLineOption(u"max-wait"_s,
                cliText(QT_TRANSLATE_NOOP(
                    "cli", "Longest single wait, 1 to 600 s (default: the profile's, else 60).")),
                u"S"_s),
            QCommandLineOption(u"budget"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "All waits of the send together, 0 to 3600 s; 0: no retries (default: the "
                    "profile's, else 120).")),
                u"S"_s),
            QCommandLineOption(u"max-attempts"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Attempts, the first included, 1 to 10 (default: the profile's, else 5).")),
                u"N"_s),
            QCommandLineOption(u"backoff-base"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "First backoff wait, doubled each retry, 1 to 60 s (default: the "
                    "profile's, else 5).")),
                u"S"_s),
            QCommandLineOption(u"fallback"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "When the send ends capped, send it once to the profile's fallback (a "
                    "profile with fallback_auto=true does so without this flag)."))),
            QCommandLineOption(u"model"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Model name; required unless the endpoint is loopback (the demo provider), "
                    "where it defaults to capwatch-demo.")),
                u"NAME"_s),
            QCommandLineOption(u"prompt"_s,
                cliText(
                    QT_TRANSLATE_NOOP("cli", "The prompt; read from standard input when absent.")),
                u"TEXT"_s),
            QCommandLineOption(u"system"_s,
                cliText(QT_TRANSLATE_NOOP("cli", "A system message sent before the prompt.")),
                u"TEXT"_s),
            QCommandLineOption(u"max-tokens"_s,
                cliText(QT_TRANSLATE_NOOP("cli", "Largest answer, in tokens.")), u"N"_s),
            QCommandLineOption(u"temperature"_s,
                cliText(QT_TRANSLATE_NOOP(
                    "cli", "Sampling temperature, 0 to 2 (default: the provider's).")),
                u"T"_s),
            QCommandLineOption(u"api-key-env"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Environment variable holding the key (default: OPENAI_COMPAT_API_KEY).")),
                u"VAR"_s, u"OPENAI_COMPAT_API_KEY"_s),
            QCommandLineOption(u"api-key-file"_s,
                cliText(
                    QT_TRANSLATE_NOOP("cli", "File holding the key; read again after a 401/403.")),
                u"PATH"_s),
            QCommandLineOption(u"no-stream"_s,
                cliText(QT_TRANSLATE_NOOP(
                    "cli", "Ask for the whole answer at once instead of a stream."))),
            QCommandLineOption(u"log"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Append the retry log here: JSON Lines, or CSV when PATH ends in .csv.")),
                u"PATH"_s),
            QCommandLineOption(u"time-scale"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Run every wait and timeout F times as long (0 < F <= 1); figures stay in "
                    "policy seconds.")),
                u"F"_s, u"1"_s),
            QCommandLineOption(u"private"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Keep nothing on disk: the send is not stored in the history database."))),
            QCommandLineOption(u"history-database"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Store the send in this history database instead of the one capwatch and "
                    "capwatch-cli share (~/.local/share/capwatch/history.sqlite).")),
                u"PATH"_s),
            QCommandLineOption(u"no-pacing"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Send at once even when the provider's last report says its window is full "
                    "(by default the send waits, up to 60 s, for the window to reset)."))),
            QCommandLineOption(u"ignore-spend-limit"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Send even when the send would cross a spending limit of the profile, or a "
                    "daily limit it declares for its provider (by default it is not sent, and "
                    "capwatch-cli exits 5)."))),
            // Its optional =N is taken out before parsing (takeEqualsValue).
            QCommandLineOption(u"continue-cut-off"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Also as --continue-cut-off=N (1 to 3, default 3): when the answer is cut off "
                    "at the output limit, ask the model to go on from where it stopped, up to N "
                    "times in a row; each continuation is joined to the same answer."))),
            QCommandLineOption(u"continue"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Instead of a prompt: go on with the last answer of stored conversation ID "
                    "(its UUID or first 8 hex digits), when it was cut off or interrupted; what "
                    "comes is joined to it in the history.")),
                u"ID"_s),
            // Its optional =MAX is taken out before parsing (takeWaitForReset).
            QCommandLineOption(u"wait-for-reset"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Also as --wait-for-reset=MAX (90s, 20m, 2h; default 1h, at most 24h): when "
                    "the send gives up at its provider's limit and the limit resets within MAX, "
                    "wait for the reset and send it again; Ctrl+C cancels."))),
        },
        {},
        {},
    };
}

int runChat(const QStringList &args)
{
    const CommandSpec spec = chatSpec();
    WaitForResetArgument waitArgument;
    std::optional<QString> continueCutOffValue;
    const QStringList parsedArgs = takeWaitForReset(
        takeEqualsValue(args, spec.options, u"--continue-cut-off"_s, &continueCutOffValue),
        spec.options, &waitArgument);
    if (!waitArgument.nextWord.isEmpty())
        return argumentError(spec.name,
            QCoreApplication::translate("cli",
                "--wait-for-reset takes MAX after an equals sign (--wait-for-reset=%1), not as "
                "the next argument")
                .arg(waitArgument.nextWord));
    QCommandLineParser parser;
    if (const auto done = parseCommand(spec, parsedArgs, parser))
        return *done;

    // --profile: what the send talks to comes from the settings file; flags given here win.
    const bool profileGiven = parser.isSet(u"profile"_s);
    if (!profileGiven && parser.isSet(u"config"_s))
        return argumentError(
            spec.name, u"--config names the file --profile is read from: give --profile too"_s);
    if (!profileGiven && parser.isSet(u"fallback"_s))
        return argumentError(
            spec.name, u"--fallback sends to a profile's fallback: give --profile too"_s);
    std::optional<session::ProfileSet> profiles;
    const session::ProviderProfile *profile = nullptr;
    const session::ProviderProfile *fallback = nullptr; // used: automatic or --fallback
    if (profileGiven) {
        QString error;
        profiles = readProfileFile(parser.value(u"config"_s), &error);
        if (!profiles)
            return argumentError(spec.name, error);
        const QString wanted = parser.value(u"profile"_s).trimmed();
        profile = profiles->find(wanted);
        if (!profile) {
            QStringList ids;
            for (const session::ProviderProfile &p : std::as_const(profiles->profiles))
                ids << p.id;
            return argumentError(spec.name,
                u"--profile: no profile '%1' in %2 (there are: %3)"_s.arg(wanted,
                    parser.isSet(u"config"_s) ? parser.value(u"config"_s)
                                              : session::defaultSettingsPath(),
                    ids.join(u", "_s)));
        }
        if (parser.isSet(u"fallback"_s) && profile->fallback.isEmpty())
            return argumentError(
                spec.name, u"--fallback: profile '%1' names no fallback"_s.arg(profile->id));
        if (parser.isSet(u"fallback"_s) || profile->autoFallback)
            fallback = profiles->find(profile->fallback);
        // The chosen profile's issues, and its fallback's when that may be sent to: warnings
        // are told and the send goes on; an error stops it, as a bad flag would.
        QList<session::ProfileIssue> issues = profiles->issuesOf(profile->id);
        if (fallback)
            issues += profiles->issuesOf(fallback->id);
        QStringList errors;
        QList<session::ProfileIssue> warnings;
        for (const session::ProfileIssue &i : std::as_const(issues)) {
            if (i.severity == session::ProfileIssue::Severity::Error)
                errors << i.text();
            else
                warnings << i;
        }
        writeErr(issueLines(warnings));
        if (!errors.isEmpty())
            return argumentError(
                spec.name, errors.join(u"\ncapwatch-cli "_s + spec.name + u": error: "_s));
    }
    if (!profile && !parser.isSet(u"endpoint"_s))
        return argumentError(spec.name, u"--endpoint or --profile is required"_s);
    // The limits of the send: the profile's numbers, then the flags'.
    session::PolicyOverrides overrides = profile ? profile->overrides : session::PolicyOverrides {};
    if (const QString problem = applyPolicyFlags(parser, overrides); !problem.isEmpty())
        return argumentError(spec.name, problem);

    // What the one turn talks to and sends: endpoint, model and stream here, the rest below.
    net::ChatRequest request;
    session::SendOptions options;
    const bool endpointGiven = parser.isSet(u"endpoint"_s);
    const bool useDemo = profile && profile->builtInDemo && !endpointGiven;
    request.endpoint
        = endpointGiven ? QUrl(parser.value(u"endpoint"_s), QUrl::StrictMode) : profile->endpoint;
    // A profile's key and headers go to its own endpoint only: --endpoint naming another one
    // sends with the key the flags name (or OPENAI_COMPAT_API_KEY), as without a profile.
    const bool profileEndpoint = profile && !profile->builtInDemo
        && (!endpointGiven || request.endpoint == profile->endpoint);
    if (parser.isSet(u"model"_s))
        request.model = parser.value(u"model"_s).trimmed();
    else if (profile && !profile->model.isEmpty() && (profileEndpoint || useDemo))
        request.model = profile->model;
    else if (useDemo)
        request.model = QString::fromUtf16(net::kDemoModel);
    else
        request.model = net::defaultModelFor(request.endpoint);
    // A bad URL is the client's configuration error (exit 4), reported before anything is sent.
    if (request.model.isEmpty() && net::chatCompletionsUrl(request.endpoint).isValid()) {
        return argumentError(spec.name,
            parser.isSet(u"model"_s) ? u"--model takes a model name"_s
                                     : u"no model: give --model NAME (only a loopback endpoint, "
                                       "such as capwatch-cli demo, defaults to capwatch-demo)"_s);
    }
    request.stream = !parser.isSet(u"no-stream"_s) && (!profileEndpoint || profile->stream);
    if (parser.isSet(u"max-tokens"_s)) {
        bool ok = false;
        const int n = parser.value(u"max-tokens"_s).toInt(&ok);
        if (!ok || n < 1)
            return argumentError(spec.name, u"--max-tokens takes a positive whole number"_s);
        options.maxTokens = n;
    }
    if (parser.isSet(u"temperature"_s)) {
        bool ok = false;
        const double t = parser.value(u"temperature"_s).toDouble(&ok);
        if (!ok || !(t >= net::kMinTemperature && t <= net::kMaxTemperature))
            return argumentError(spec.name, u"--temperature takes a number from 0 to 2"_s);
        options.temperature = t;
    }
    bool scaleOk = false;
    const double scale = parser.value(u"time-scale"_s).toDouble(&scaleOk);
    if (!scaleOk || !(scale > 0) || scale > 1)
        return argumentError(spec.name, u"--time-scale takes a number F with 0 < F <= 1"_s);
    if (parser.isSet(u"api-key-env"_s) && parser.isSet(u"api-key-file"_s))
        return argumentError(
            spec.name, u"give the key with --api-key-env or --api-key-file, not both"_s);
    // Set: --wait-for-reset, compared with the provider's figure (unscaled, as it says it).
    std::optional<retry::Millis> resetMax;
    const QString resetMaxText = waitArgument.max.value_or(u"1h"_s);
    if (waitArgument.given) {
        resetMax = waitArgument.max ? parseResetMax(*waitArgument.max) : kDefaultResetMax;
        if (!resetMax)
            return argumentError(spec.name,
                QCoreApplication::translate("cli",
                    "--wait-for-reset=MAX takes a whole number of seconds, minutes or hours "
                    "from 1s to 24h, such as 90s, 20m or 2h, not '%1'")
                    .arg(resetMaxText));
    }
    const bool keepsHistory = !parser.isSet(u"private"_s);
    if (!keepsHistory && parser.isSet(u"history-database"_s))
        return argumentError(spec.name, u"--private stores nothing: drop --history-database"_s);
    // --continue-cut-off[=N]: continued by itself, up to N times in a row.
    if (parser.isSet(u"continue-cut-off"_s) || continueCutOffValue) {
        bool ok = true;
        const int n = continueCutOffValue ? continueCutOffValue->toInt(&ok) : 3;
        if (!ok || n < 1 || n > session::kMaxAutoContinues)
            return argumentError(spec.name,
                u"--continue-cut-off=N takes a whole number from 1 to %1, not '%2'"_s
                    .arg(session::kMaxAutoContinues)
                    .arg(continueCutOffValue.value_or(QString())));
        options.autoContinue = n;
    }
    // --continue ID: the stored conversation's last answer, instead of a prompt.
    const bool continuing = parser.isSet(u"continue"_s);
    if (continuing && !keepsHistory)
        return argumentError(spec.name,
            u"--continue goes on with a stored answer: --private has none to go on with"_s);
    if (continuing && parser.isSet(u"prompt"_s))
        return argumentError(
            spec.name, u"--continue goes on with the stored answer: drop --prompt"_s);

    // The send is stored as it happens, through the same writer (and so the same code) as the
    // window's. Made before the session, so it outlives it: its destructor writes whatever is
    // still queued, on every way out (an answer, a give-up, Ctrl+C).
    std::unique_ptr<history::HistoryWriter> history;
    QObject historyContext;
    if (keepsHistory) {
        history = std::make_unique<history::HistoryWriter>();
        // A database that cannot be used never stops the send: it goes on in memory. Nor does
        // one that could not be made private to this user, which is said too.
        QObject::connect(history.get(), &history::HistoryWriter::opened, &historyContext,
            [](const history::OpenResult &result) {
                if ((result.status != history::OpenResult::Status::Opened
                        && result.status != history::OpenResult::Status::Created)
                    || !result.privacyProblems.isEmpty())
                    writeErr((u"capwatch: history: "_s + result.message() + u'\n').toUtf8());
            });
        QObject::connect(history.get(), &history::HistoryWriter::writeFailed, &historyContext,
            [](const QString &error) {
                writeErr((u"capwatch: history: "_s + error + u'\n').toUtf8());
            });
    }

    // The one turn goes through the same session as the window's, so the two cannot drift; it
    // keeps nothing of the answer, which streams through to stdout however long it is.
    // The embedded demo, in-process on loopback, for a profile (or a fallback) that is the demo.
    std::unique_ptr<app::DemoLocalProvider> localDemo;
    if (useDemo || (fallback && fallback->builtInDemo))
        localDemo = std::make_unique<app::DemoLocalProvider>();
    session::ChatSession chat;
    chat.provider().setLocalProvider(localDemo.get());
    chat.setKeepTranscript(false);
    chat.setTimeScale(scale);
    chat.setHistory(history.get()); // a new conversation for this run's one send
    // What the window and earlier runs learned of the provider: its last window report (with
    // the history), the characters a token and context windows (the window's settings file).
    QSettings learned(session::defaultSettingsPath(), QSettings::IniFormat);
    session::ProviderMemory memory;
    memory.setSettings(keepsHistory ? &learned : nullptr);
    chat.context().setProviderMemory(&memory);
    chat.context().setPacingEnabled(!parser.isSet(u"no-pacing"_s));
    if (parser.isSet(u"log"_s)) {
        QString error;
        auto writer = net::RetryLogWriter::open(parser.value(u"log"_s), &error);
        if (!writer)
            return argumentError(spec.name, error);
        chat.retryLog()->addWriter(std::move(writer));
    }

    QString prompt = parser.value(u"prompt"_s);
    if (!parser.isSet(u"prompt"_s) && !continuing) {
        QFile in;
        if (in.open(stdin, QIODevice::ReadOnly))
            prompt = QString::fromUtf8(in.readAll());
    }
    if (prompt.trimmed().isEmpty() && !continuing)
        return argumentError(spec.name, u"no prompt: give --prompt or text on standard input"_s);
    if (parser.isSet(u"system"_s))
        options.systemPrompt = parser.value(u"system"_s);

    session::ProviderChoice provider = profile ? profile->choice() : session::ProviderChoice {};
    provider.demo = useDemo;
    provider.endpoint = request.endpoint;
    provider.model = request.model;
    provider.stream = request.stream;
    provider.limits = overrides.limits();
    const bool keyFlag = parser.isSet(u"api-key-file"_s) || parser.isSet(u"api-key-env"_s);
    if (!profileEndpoint && !useDemo) {
        provider.extraHeaders.clear();
        provider.contextWindow = profile && request.endpoint == profile->endpoint
            ? profile->contextWindow
            : std::nullopt;
    }
    if (parser.isSet(u"api-key-file"_s)) {
        provider.keySource = session::ProviderChoice::KeySource::KeyFile;
        provider.keyFile = parser.value(u"api-key-file"_s);
        if (profile)
            provider.keySourceText = u"key file "_s + provider.keyFile;
    } else if (keyFlag || !profileEndpoint) {
        provider.keySource = session::ProviderChoice::KeySource::Environment;
        provider.keyVariable = parser.value(u"api-key-env"_s);
        provider.keychainEntry.clear();
        if (profile)
            provider.keySourceText = provider.keyVariable;
    } else if (provider.keySource == session::ProviderChoice::KeySource::Keychain) {
        // QtKeychain is the window's: the CLI links no keychain backend.
        writeErr(u"capwatch-cli chat: error: profile '%1' keeps its key in the system keychain, "
                 "which capwatch-cli cannot read; give --api-key-env VAR or --api-key-file PATH\n"_s
                     .arg(profile->id)
                     .toUtf8());
        return ExitNetworkOrConfig;
    }
    chat.setProvider(provider);
    // The numbers the progress lines name: the send's, then its fallback's.
    std::optional<session::ProviderChoice> fallbackChoice;
    if (fallback) {
        fallbackChoice = fallback->choice();
        if (fallbackChoice->keySource == session::ProviderChoice::KeySource::Keychain) {
            writeErr(u"capwatch-cli chat: error: the fallback '%1' keeps its key in the system "
                     "keychain, which capwatch-cli cannot read\n"_s.arg(fallback->id)
                         .toUtf8());
            return ExitNetworkOrConfig;
        }
        chat.setFallback(fallbackChoice, profile->autoFallback);
        // As for the profile's own endpoint below: a terminal run warns instead of asking.
        if (chat.provider().fallbackNeedsPlainHttpConsent()) {
            writeErr(u"capwatch: warning: the fallback's key goes to %1 over plain HTTP, readable "
                     "by anyone on the way\n"_s
                         .arg(net::chatCompletionsUrl(fallbackChoice->endpoint).host())
                         .toUtf8());
            chat.provider().allowFallbackPlainHttp();
        }
    }

    const QUrl target = net::chatCompletionsUrl(request.endpoint);
    if (target.isValid() && target.scheme() == u"http" && !net::isLoopback(target))
        writeErr(
            u"capwatch: warning: the key goes to %1 over plain HTTP, readable by anyone on the way\n"_s
                .arg(target.host())
                .toUtf8());

    const bool stdoutIsTty = ::isatty(STDOUT_FILENO) == 1;
    int exitCode = ExitOk;
    bool endsWithNewline = true;
    bool fallbackStarted = false; // the capped send went on to its fallback
    quint64 cappedSend = 0;
    QObject context;

    QObject::connect(
        &chat, &session::ChatSession::answerText, &context, [&](quint64, const QString &text) {
            const QByteArray bytes = text.toUtf8();
            writeOut(bytes);
            if (!bytes.isEmpty())
                endsWithNewline = bytes.endsWith('\n');
        });
    // The progress lines render the send's one state, as the window's panel does.
    ProgressLines progress;
    QObject::connect(&chat, &session::ChatSession::sendStateChanged, &context,
        [&progress](const session::SendState &s) { progress.render(s); });
    QObject::connect(
        &chat, &session::ChatSession::succeeded, &context, [&](quint64, const net::SendSummary &) {
            const session::SendState &state = chat.sendState();
            const bool goesOn = chat.autoContinuing(); // its continuation joins the same output
            if (stdoutIsTty && !endsWithNewline && !goesOn)
                writeOut("\n");
            QString line = u"capwatch: "_s + session::SendTexts::answeredLine(state);
            if (fallbackStarted)
                line += u" by the fallback %1"_s.arg(fallbackChoice->profileName);
            writeErr((line + u'\n').toUtf8());
            const QString ending = session::SendTexts::answerEndLine(state);
            if (goesOn) {
                writeErr(u"capwatch: %1; continuing (%2 of %3)\n"_s.arg(ending)
                             .arg(state.continuationsInARow + 1)
                             .arg(options.autoContinue)
                             .toUtf8());
                return;
            }
            if (!ending.isEmpty())
                writeErr((u"capwatch: "_s + ending + u'\n').toUtf8());
            exitCode = retry::continuable(state.answerEnd) ? ExitAnswerCutOff : ExitOk;
            QCoreApplication::quit();
        });
    QObject::connect(&chat, &session::ChatSession::gaveUp, &context,
        [&](quint64 send, const net::SendSummary &s) {
            if (stdoutIsTty && !endsWithNewline)
                writeOut("\n");
            const session::SendState &state = chat.sendState();
            if (state.answerEnd == retry::AnswerEnd::Interrupted)
                writeErr(u"capwatch: %1: %2\n"_s
                             .arg(session::SendTexts::answerEndLine(state), s.errorText)
                             .toUtf8());
            writeErr((s.finalErrorText + u'\n').toUtf8());
            exitCode = state.answerEnd == retry::AnswerEnd::Interrupted ? ExitAnswerCutOff
                : s.networkError                                        ? ExitNetworkOrConfig
                                                                        : ExitProviderError;
            if (fallback && !fallbackStarted) {
                // The session offers the fallback right after this (fallbackOffered); when it
                // did not start one by the next turn of the loop, this give-up is the end.
                cappedSend = send;
                QTimer::singleShot(0, &context, [&] {
                    if (!fallbackStarted && !resetMax)
                        QCoreApplication::quit();
                });
                return;
            }
            if (!resetMax) // else the park offer that follows decides
                QCoreApplication::quit();
        });
    // --fallback or fallback_auto: a capped give-up goes once to the profile's fallback.
    QObject::connect(&chat, &session::ChatSession::fallbackOffered, &context,
        [&](const session::FallbackOffer &offer) {
            if (!fallback || fallbackStarted || !offer.offered)
                return;
            const QString reason = offer.category == u"billing"
                ? u"quota_exhausted"_s
                : QString::fromLatin1(retry::nameOf(offer.reason));
            writeErr(u"capwatch: fallback: sending to %1 instead (%2 ended %3)\n"_s
                         .arg(offer.toProfile, offer.fromProfile, reason)
                         .toUtf8());
            fallbackStarted = true;
            endsWithNewline = true;
            if (!offer.automatic && chat.sendToFallback(options) == 0) {
                fallbackStarted = false; // nothing went: the give-up stands
                if (!resetMax)
                    QCoreApplication::quit();
            }
        });
    QObject::connect(
        &chat, &session::ChatSession::cancelled, &context, [&](quint64, const net::SendSummary &s) {
            if (stdoutIsTty && !endsWithNewline)
                writeOut("\n");
            writeErr((s.finalErrorText + u'\n').toUtf8());
            exitCode = ExitCancelled;
            QCoreApplication::quit();
        });

    // --wait-for-reset: the session offers to park the send that just gave up; parked, it is
    // waited for here (no parking lot: the terminal is the queue) and sent at the reset.
    ResetWait resetWait(::isatty(STDERR_FILENO) == 1);
    if (resetMax) {
        QObject::connect(&chat, &session::ChatSession::parkOffered, &context,
            [&](const session::ParkOffer &offer) {
                if (fallbackStarted && offer.send == cappedSend)
                    return; // it went to the fallback instead
                if (!offer.parkable) { // not capped, no reset named, parked too often: as before
                    QString reason = offer.reason;
                    if (!reason.isEmpty())
                        reason[0] = reason[0].toLower();
                    writeErr((u"capwatch: "_s + reason + u'\n').toUtf8());
                    QCoreApplication::quit();
                    return;
                }
                if (offer.resetIn > *resetMax) {
                    writeErr((u"capwatch: "_s
                        + QCoreApplication::translate(
                            "cli", "not parked: the limit resets in %1, beyond --wait-for-reset=%2")
                              .arg(resetDuration(offer.resetIn), resetMaxText)
                        + u'\n')
                                 .toUtf8());
                    QCoreApplication::quit(); // with the give-up's exit code, nothing parked
                    return;
                }
                if (!chat.park()) { // without a lot the session never parks on its own
                    QCoreApplication::quit(); // with the give-up's exit code
                    return;
                }
                resetWait.start(offer.dueAt);
            });
        QObject::connect(&resetWait, &ResetWait::due, &context, [&] {
            writeErr((u"capwatch: "_s
                + QCoreApplication::translate("cli", "the limit has reset; sending again") + u'\n')
                         .toUtf8());
            endsWithNewline = true;
            if (chat.sendParked(net::RetryRecord::Unpark::ResetReached, options) == 0)
                QCoreApplication::quit(); // with the give-up's exit code
        });
    }

    SignalWatcher watcher;
    QObject::connect(&watcher, &SignalWatcher::interrupted, &context, [&](int) {
        if (chat.sendState().isParked()) {
            resetWait.stop();
            chat.cancelPark();
            writeErr((u"capwatch: "_s
                + QCoreApplication::translate("cli", "cancelled while parked; not sent again")
                + u'\n')
                         .toUtf8());
            exitCode = ExitCancelled;
            QCoreApplication::quit();
            return;
        }
        chat.cancel();
    });

    // Opened once every argument is known good, so a rejected command line makes no file.
    // Without reading every page first (PRAGMA quick_check): that takes a second or more per
    // 100 MB of history, a year of use is hundreds, and the send waits for the open (the stored
    // window reports come first). A file that is not a database, truncated or of another
    // version is still found before it is used; a damaged page shows as a write error, said on
    // stderr, and the answer is not lost. The window checks every page when it opens the file.
    if (history) {
        history::OpenOptions quick;
        quick.checkIntegrity = false;
        // Nor copies the answer from the log into the file at exit, with two syncs (a 1 MB
        // answer: 8 ms of a 34 ms tail): the window does as it closes, and any writer once the
        // log passes 1,000 pages.
        quick.checkpointOnClose = false;
        history->open(parser.isSet(u"history-database"_s) ? parser.value(u"history-database"_s)
                                                          : session::defaultHistoryPath(),
            quick);
    }
    memory.setHistory(history.get());
    // --continue ID: the conversation is read back, and its last answer continued.
    const QString continueId = parser.value(u"continue"_s);
    QObject::connect(&chat, &session::ChatSession::conversationRestored, &context,
        [&](const session::RestoredConversation &restored) {
            if (!continuing)
                return;
            if (chat.continueAnswer(options) != 0)
                return;
            writeErr(u"capwatch-cli chat: error: --continue: the last answer of %1 was not cut "
                     "off or interrupted: there is nothing to go on with\n"_s
                         .arg(restored.id.toString(QUuid::WithoutBraces))
                         .toUtf8());
            exitCode = ExitBadArguments;
            QCoreApplication::quit();
        });
    QObject::connect(&chat, &session::ChatSession::restoreFailed, &context,
        [&](const QUuid &, const QString &reason) {
            writeErr(u"capwatch-cli chat: error: --continue: %1\n"_s.arg(reason).toUtf8());
            exitCode = ExitBadArguments;
            QCoreApplication::quit();
        });
    const bool ignoreLimits = parser.isSet(u"ignore-spend-limit"_s);
    const auto start = [&] {
        if (!continuing) {
            // The profile's spending limits, and the daily limits it declares, before anything
            // goes: counted from the ledger every capwatch process appends to.
            if (const session::LimitHold hold = chat.limitHold(prompt, options);
                hold.holds && !ignoreLimits) {
                writeErr((u"capwatch: "_s
                    + QCoreApplication::translate("cli",
                        "not sent: %1 (profile %2); the limit resets at %3. "
                        "--ignore-spend-limit sends anyway")
                          .arg(session::SendTexts::limitHold(hold), hold.profileName,
                              session::SendTexts::limitResets(hold))
                    + u'\n')
                             .toUtf8());
                exitCode = ExitLimitReached;
                // Queued: without a history to read first this runs before the event loop.
                QMetaObject::invokeMethod(
                    QCoreApplication::instance(), &QCoreApplication::quit, Qt::QueuedConnection);
                return;
            }
            chat.send(prompt, options);
            return;
        }
        history->read(
            &context,
            [continueId](
                history::HistoryStore &store) { return resolveConversationId(&store, continueId); },
            [&](const std::variant<history::Conversation, QString> &found) {
                if (const QString *error = std::get_if<QString>(&found)) {
                    writeErr(
                        (u"capwatch-cli chat: error: --continue: "_s + *error + u'\n').toUtf8());
                    exitCode = ExitBadArguments;
                    QCoreApplication::quit();
                    return;
                }
                chat.openConversation(std::get<history::Conversation>(found).id);
            });
    };
    // The stored window reports are read first (one turn of the history's queue), so that a
    // run right after another paces on what that one was told.
    if (memory.isLoaded())
        start();
    else
        QObject::connect(
            &memory, &session::ProviderMemory::loaded, &context, start, Qt::SingleShotConnection);
    QCoreApplication::exec();
    return exitCode;
}

} // namespace capwatch::cli
