#include "chatcommand.h"

#include "history/historywriter.h"
#include "net/chatclient.h"
#include "net/retrylog.h"
#include "retry/finalerror.h"
#include "session/chatsession.h"
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

QString seconds(retry::Millis ms)
{
    return QString::fromStdString(retry::formatSeconds(ms));
}

/// A pacing wait in whole seconds, rounded up ("30 s" for 29.943 s): it is a countdown to a
/// reset, not a figure of the policy.
QString wholeSeconds(retry::Millis ms)
{
    return QString::number((ms.count() + 999) / 1000);
}

QString figure(std::optional<double> v)
{
    return v ? QString::number(*v, 'f', *v == double(qint64(*v)) ? 0 : 3) : u"?"_s;
}

QString sourceInWords(const net::RetryInfo &info)
{
    const QString asked = seconds(info.rawWait);
    switch (info.source) {
    case retry::WaitSource::RetryAfter:
        return info.rawWait > info.wait ? u"retry-after header asked %1 s; capped"_s.arg(asked)
                                        : u"from the retry-after header"_s;
    case retry::WaitSource::RetryAfterMs:
        return info.rawWait > info.wait ? u"retry-after-ms header asked %1 s; capped"_s.arg(asked)
                                        : u"from the retry-after-ms header"_s;
    case retry::WaitSource::Message:
        return info.rawWait > info.wait ? u"provider asked %1 s; capped"_s.arg(asked)
                                        : u"as the provider asked"_s;
    case retry::WaitSource::RetryDelay:
        return info.rawWait > info.wait ? u"retryDelay asked %1 s; capped"_s.arg(asked)
                                        : u"from the provider's retryDelay"_s;
    case retry::WaitSource::RateLimitReset:
        return info.rawWait > info.wait ? u"rate-limit reset header asked %1 s; capped"_s.arg(asked)
                                        : u"from the rate-limit reset header"_s;
    case retry::WaitSource::Backoff:
        return u"backoff"_s;
    case retry::WaitSource::CredentialRefresh:
        return u"the reloaded key differs"_s;
    case retry::WaitSource::None:
        break;
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
        u"chat --endpoint URL [--model NAME] [--prompt TEXT] [--system TEXT] [--max-tokens N] "
        "[--temperature T] [--api-key-env VAR] [--api-key-file PATH] [--no-stream] [--log PATH] [--time-scale F] [--private] [--history-database PATH] [--wait-for-reset[=MAX]]"_s,
        {
            QCommandLineOption(u"endpoint"_s,
                cliText(QT_TRANSLATE_NOOP(
                    "cli", "Base URL (http://host:port/v1) or the full .../chat/completions URL.")),
                u"URL"_s),
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
    const QStringList parsedArgs = takeWaitForReset(args, spec.options, &waitArgument);
    if (!waitArgument.nextWord.isEmpty())
        return argumentError(spec.name,
            QCoreApplication::translate("cli",
                "--wait-for-reset takes MAX after an equals sign (--wait-for-reset=%1), not as "
                "the next argument")
                .arg(waitArgument.nextWord));
    QCommandLineParser parser;
    if (const auto done = parseCommand(spec, parsedArgs, parser))
        return *done;

    if (!parser.isSet(u"endpoint"_s))
        return argumentError(spec.name, u"--endpoint is required"_s);
    // What the one turn talks to and sends: endpoint, model and stream here, the rest below.
    net::ChatRequest request;
    session::SendOptions options;
    request.endpoint = QUrl(parser.value(u"endpoint"_s), QUrl::StrictMode);
    request.model = parser.isSet(u"model"_s) ? parser.value(u"model"_s).trimmed()
                                             : net::defaultModelFor(request.endpoint);
    // A bad URL is the client's configuration error (exit 4), reported before anything is sent.
    if (request.model.isEmpty() && net::chatCompletionsUrl(request.endpoint).isValid()) {
        return argumentError(spec.name,
            parser.isSet(u"model"_s) ? u"--model takes a model name"_s
                                     : u"no model: give --model NAME (only a loopback endpoint, "
                                       "such as capwatch-cli demo, defaults to capwatch-demo)"_s);
    }
    request.stream = !parser.isSet(u"no-stream"_s);
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

    // The send is stored as it happens, through the same writer (and so the same code) as the
    // window's. Made before the session, so it outlives it: its destructor writes whatever is
    // still queued, on every way out (an answer, a give-up, Ctrl+C).
    std::unique_ptr<history::HistoryWriter> history;
    QObject historyContext;
    if (keepsHistory) {
        history = std::make_unique<history::HistoryWriter>();
        // A database that cannot be used never stops the send: it goes on in memory.
        QObject::connect(history.get(), &history::HistoryWriter::opened, &historyContext,
            [](const history::OpenResult &result) {
                if (result.status != history::OpenResult::Status::Opened
                    && result.status != history::OpenResult::Status::Created)
                    writeErr((u"capwatch: history: "_s + result.message() + u'\n').toUtf8());
            });
        QObject::connect(history.get(), &history::HistoryWriter::writeFailed, &historyContext,
            [](const QString &error) {
                writeErr((u"capwatch: history: "_s + error + u'\n').toUtf8());
            });
    }

    // The one turn goes through the same session as the window's, so the two cannot drift; it
    // keeps nothing of the answer, which streams through to stdout however long it is.
    session::ChatSession chat;
    chat.setKeepTranscript(false);
    chat.setTimeScale(scale);
    chat.setHistory(history.get()); // a new conversation for this run's one send
    // What the window and earlier runs learned of the provider: its last window report (with
    // the history), the characters a token and context windows (the window's settings file).
    QSettings learned(u"capwatch"_s, u"capwatch"_s);
    session::ProviderMemory memory;
    memory.setSettings(keepsHistory ? &learned : nullptr);
    chat.setProviderMemory(&memory);
    chat.setPacingEnabled(!parser.isSet(u"no-pacing"_s));
    if (parser.isSet(u"log"_s)) {
        QString error;
        auto writer = net::RetryLogWriter::open(parser.value(u"log"_s), &error);
        if (!writer)
            return argumentError(spec.name, error);
        chat.retryLog()->addWriter(std::move(writer));
    }

    QString prompt = parser.value(u"prompt"_s);
    if (!parser.isSet(u"prompt"_s)) {
        QFile in;
        if (in.open(stdin, QIODevice::ReadOnly))
            prompt = QString::fromUtf8(in.readAll());
    }
    if (prompt.trimmed().isEmpty())
        return argumentError(spec.name, u"no prompt: give --prompt or text on standard input"_s);
    if (parser.isSet(u"system"_s))
        options.systemPrompt = parser.value(u"system"_s);

    session::ProviderChoice provider;
    provider.endpoint = request.endpoint;
    provider.model = request.model;
    provider.stream = request.stream;
    if (parser.isSet(u"api-key-file"_s)) {
        provider.keySource = session::ProviderChoice::KeySource::KeyFile;
        provider.keyFile = parser.value(u"api-key-file"_s);
    } else {
        provider.keySource = session::ProviderChoice::KeySource::Environment;
        provider.keyVariable = parser.value(u"api-key-env"_s);
    }
    chat.setProvider(provider);

    const QUrl target = net::chatCompletionsUrl(request.endpoint);
    if (target.isValid() && target.scheme() == u"http" && !net::isLoopback(target))
        writeErr(
            u"capwatch: warning: the key goes to %1 over plain HTTP, readable by anyone on the way\n"_s
                .arg(target.host())
                .toUtf8());

    const bool stdoutIsTty = ::isatty(STDOUT_FILENO) == 1;
    int exitCode = ExitOk;
    bool endsWithNewline = true;
    QObject context;

    QObject::connect(
        &chat, &session::ChatSession::answerText, &context, [&](quint64, const QString &text) {
            const QByteArray bytes = text.toUtf8();
            writeOut(bytes);
            if (!bytes.isEmpty())
                endsWithNewline = bytes.endsWith('\n');
        });
    QObject::connect(&chat, &session::ChatSession::attemptFailed, &context,
        [&](quint64, const net::AttemptFailure &f) {
            QString line
                = u"capwatch: attempt %1 of %2 failed: "_s.arg(f.attempt).arg(retry::kMaxAttempts);
            if (f.status > 0)
                line += QString::number(f.status) + u' '
                    + QString::fromLatin1(retry::statusText(f.status)) + u", "_s;
            line += QString::fromLatin1(retry::nameOf(f.category));
            if (f.used || f.limit)
                line += u" (used %1, limit %2)"_s.arg(figure(f.used), figure(f.limit));
            if (f.status == 0 && !f.errorText.isEmpty())
                line += u": "_s + f.errorText;
            writeErr((line + u'\n').toUtf8());
        });
    QObject::connect(&chat, &session::ChatSession::pacingStarted, &context,
        [&](quint64, const net::PacePlan &plan) {
            writeErr((u"capwatch: "_s
                + (plan.tokensFull
                        ? QCoreApplication::translate("cli",
                            "pacing: sending in %1 s, when the provider's window resets (it has "
                            "%2 tokens left, this request needs about %3)")
                              .arg(wholeSeconds(plan.wait))
                              .arg(plan.windowTokensLeft.value_or(0))
                              .arg(plan.estimatedTokens.value_or(0))
                        : QCoreApplication::translate("cli",
                            "pacing: sending in %1 s, when the provider's request limit resets")
                              .arg(wholeSeconds(plan.wait)))
                + u'\n')
                         .toUtf8());
        });
    QObject::connect(&chat, &session::ChatSession::retryScheduled, &context,
        [&](quint64, const net::RetryInfo &info) {
            writeErr(
                u"capwatch: waiting %1 s (%2) before attempt %3 of %4; %5 s of the %6 s budget left\n"_s
                    .arg(seconds(info.wait), sourceInWords(info))
                    .arg(info.nextAttempt)
                    .arg(retry::kMaxAttempts)
                    .arg(seconds(info.budgetLeft))
                    .arg(retry::kRetryBudget.count() / 1000)
                    .toUtf8());
        });
    QObject::connect(
        &chat, &session::ChatSession::succeeded, &context, [&](quint64, const net::SendSummary &s) {
            if (stdoutIsTty && !endsWithNewline)
                writeOut("\n");
            QString line = u"capwatch: answered on attempt %1 of %2"_s.arg(s.attempts)
                               .arg(retry::kMaxAttempts);
            if (s.usage && s.usage->totalTokens >= 0)
                line += u" (%1 tokens)"_s.arg(s.usage->totalTokens);
            writeErr((line + u'\n').toUtf8());
            exitCode = ExitOk;
            QCoreApplication::quit();
        });
    QObject::connect(
        &chat, &session::ChatSession::gaveUp, &context, [&](quint64, const net::SendSummary &s) {
            if (stdoutIsTty && !endsWithNewline)
                writeOut("\n");
            if (s.incomplete)
                writeErr(u"capwatch: the answer is incomplete: %1\n"_s.arg(s.errorText).toUtf8());
            writeErr((s.finalErrorText + u'\n').toUtf8());
            exitCode = s.networkError ? ExitNetworkOrConfig : ExitProviderError;
            if (!resetMax) // else the park offer that follows decides
                QCoreApplication::quit();
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
        if (chat.isParked()) {
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
    if (history)
        history->open(parser.isSet(u"history-database"_s) ? parser.value(u"history-database"_s)
                                                          : session::defaultHistoryPath());
    memory.setHistory(history.get());
    // The stored window reports are read first (one turn of the history's queue), so that a
    // run right after another paces on what that one was told.
    if (memory.isLoaded())
        chat.send(prompt, options);
    else
        QObject::connect(
            &memory, &session::ProviderMemory::loaded, &context,
            [&] { chat.send(prompt, options); }, Qt::SingleShotConnection);
    QCoreApplication::exec();
    return exitCode;
}

} // namespace capwatch::cli
