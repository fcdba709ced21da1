// capwatch-cli: the headless twin of capwatch. Same engine, no display needed.

#include "chatcommand.h"
#include "clicommon.h"
#include "common/manpage.h"
#include "common/userrules.h"
#include "democommand.h"
#include "explaincommand.h"
#include "historycommand.h"
#include "profilescommand.h"
#include "rulescommand.h"
#include "usagecommand.h"
#include "version.h"

#include <QCoreApplication>
#include <QLocale>
#include <QLoggingCategory>
#include <QTranslator>

using namespace capwatch::cli;

namespace {

QList<CommandSpec> commands()
{
    return { explainSpec(), chatSpec(), demoSpec(), historySpec(), profilesSpec(), rulesSpec(),
        usageSpec() };
}

QString description()
{
    return QCoreApplication::translate("cli",
        "capwatch-cli talks to OpenAI-compatible providers that enforce token caps, "
        "and retries token-limit errors the way the capwatch retry policy says.");
}

QString usage()
{
    QString text = QStringLiteral("Usage: capwatch-cli COMMAND [OPTIONS]\n\n") + description()
        + QStringLiteral("\n\n") + QCoreApplication::translate("cli", "Commands:") + u'\n';
    for (const CommandSpec &spec : commands())
        text += QStringLiteral("  %1  %2\n").arg(spec.name, -9).arg(spec.summary);
    text += u'\n' + QCoreApplication::translate("cli", "Options:") + u'\n'
        + QStringLiteral("  -h, --help     ")
        + QCoreApplication::translate("cli", "Show this help.") + u'\n'
        + QStringLiteral("  -v, --version  ")
        + QCoreApplication::translate("cli", "Show the version.") + u'\n' + u'\n'
        + QCoreApplication::translate("cli", "'capwatch-cli COMMAND --help' describes a command.")
        + u'\n';
    return text;
}

/// `capwatch-cli COMMAND ...` with the command's name in bold like the program's.
void commandSynopsis(capwatch::app::ManPage &page, const CommandSpec &spec)
{
    const QString program = QStringLiteral("capwatch-cli ") + spec.name;
    for (const QString &form : spec.synopsis.split(u'\n')) {
        if (form.startsWith(spec.name + u' '))
            page.synopsis(program, form.mid(spec.name.size() + 1));
        else
            page.synopsis(QStringLiteral("capwatch-cli"), form);
    }
}

/// capwatch-cli(1), from the same command specs the parsers use.
QString manPage()
{
    using capwatch::app::ManPage;
    ManPage page(QStringLiteral("capwatch-cli"),
        QStringLiteral("headless client for token-capped OpenAI-compatible providers"),
        QString::fromLatin1(capwatch::kVersion), QString::fromLatin1(capwatch::kReleaseDate));

    page.section(QStringLiteral("Synopsis"));
    page.synopsis(QStringLiteral("capwatch-cli"), QStringLiteral("COMMAND [OPTIONS]"));
    for (const CommandSpec &spec : commands())
        commandSynopsis(page, spec);
    page.synopsis(QStringLiteral("capwatch-cli"), QStringLiteral("--help | --version"));

    page.section(QStringLiteral("Description"));
    page.paragraph(description());
    page.paragraph(QStringLiteral(
        "It uses the engine of the capwatch desktop client without a display and does not need "
        "Qt Widgets. A token-limit error is recognised strictly (every other 422 is left "
        "alone); the wait comes from the retry-after header, then the message, then a "
        "5/10/20/40 s backoff, is capped at 60 s per wait and 120 s per send, and a send makes "
        "at most 5 attempts. A provider profile of the settings file (chat --profile) may set "
        "other numbers within bounds, and the flags --max-wait, --budget, --max-attempts and "
        "--backoff-base override them for one run."));

    page.section(QStringLiteral("Commands"));
    for (const CommandSpec &spec : commands()) {
        page.subsection(spec.name);
        commandSynopsis(page, spec);
        page.paragraph(spec.summary);
        page.options(spec.options);
        if (!spec.list.isEmpty()) {
            page.paragraph(spec.listTitle);
            for (const auto &[name, description] : spec.list)
                page.item(name, description);
        }
    }

    page.section(QStringLiteral("Options"));
    page.paragraph(QStringLiteral("Every command also takes:"));
    page.options({ QCommandLineOption({ QStringLiteral("h"), QStringLiteral("help") },
        QCoreApplication::translate("cli", "Show this help.")) });
    page.paragraph(QStringLiteral("Without a command:"));
    page.options({ QCommandLineOption({ QStringLiteral("v"), QStringLiteral("version") },
        QCoreApplication::translate("cli", "Show the version.")) });

    page.section(QStringLiteral("Exit status"));
    page.item(QString::number(ExitOk),
        QStringLiteral("Success: the answer was printed (chat), the "
                       "response was classified (explain), the history was listed, shown or "
                       "exported (history; also when there is no history yet), the usage was "
                       "summed (usage)."));
    page.item(QString::number(ExitBadArguments),
        QStringLiteral("Bad arguments: unknown command or option, missing or malformed "
                       "value, unreadable file; an unknown or ambiguous conversation ID "
                       "(history); an unknown profile or a profile whose settings have an "
                       "error (chat --profile; profiles list after listing). A message naming "
                       "the file, line and key goes to standard error."));
    page.item(QString::number(ExitProviderError),
        QStringLiteral("The provider's error ended the send, after any retries (chat)."));
    page.item(QString::number(ExitNetworkOrConfig),
        QStringLiteral("Network or configuration error: unreachable endpoint, bad URL, no "
                       "key (chat); a history database made by a newer capwatch, or one "
                       "that cannot be read (history, usage), which is left as it is."));
    page.item(QString::number(ExitLimitReached),
        QStringLiteral("Not sent: the send's worst case (its estimated prompt plus max_tokens) "
                       "would cross a spending limit of the profile (spend_tokens_day, "
                       "spend_tokens_month, spend_cost_day, spend_cost_month), or a daily "
                       "limit the profile declares for its provider (provider_rpd, provider_tpd) "
                       "is reached. No request was made; --ignore-spend-limit sends anyway "
                       "(chat)."));
    page.item(QString::number(ExitAnswerCutOff),
        QStringLiteral("The answer came but stopped early: cut off at the provider's output "
                       "limit, or interrupted (the stream dropped, timed out or carried an "
                       "error after its first words). It is printed as far as it arrived and "
                       "stored; chat --continue ID goes on with it (chat)."));
    page.item(QString::number(ExitCancelled), QStringLiteral("Cancelled with Ctrl+C (SIGINT)."));

    page.section(QStringLiteral("Environment"));
    page.item(QStringLiteral("OPENAI_COMPAT_API_KEY"),
        QStringLiteral("The API key for chat, unless --api-key-env names another variable or "
                       "--api-key-file gives a file. Loopback endpoints need no key."));
    page.item(QStringLiteral("XDG_CONFIG_HOME"),
        QStringLiteral("Where chat --profile and profiles list find the settings file without "
                       "--config: $XDG_CONFIG_HOME/capwatch/capwatch.conf, by default under "
                       "~/.config; the file the desktop client keeps its settings and provider "
                       "profiles in. The user's classification rules are read from "
                       "$XDG_CONFIG_HOME/capwatch/rules.d/*.json (chat, explain, rules list)."));
    page.item(QStringLiteral("XDG_DATA_HOME"),
        QStringLiteral("Where history finds the window's database without --database: "
                       "$XDG_DATA_HOME/capwatch/history.sqlite, by default under "
                       "~/.local/share."));
    page.item(QStringLiteral("QT_LOGGING_RULES"),
        QStringLiteral("Qt logging rules. capwatch.retry.info=true adds a line per attempt "
                       "and wait on standard error; capwatch.*.info=true everything "
                       "capwatch logs."));

    page.section(QStringLiteral("Examples"));
    page.example(QStringLiteral("Classify a provider's token-limit error:"),
        QStringLiteral("capwatch-cli explain --status 422 \\\n"
                       "    --body '{\"error\":\"Token limit exceeded: used 60323, limit "
                       "60000. Retry in 18 min.\"}'"));
    page.example(QStringLiteral("Run the demo provider in one terminal:"),
        QStringLiteral("capwatch-cli demo --scenario headline"));
    page.example(QStringLiteral("Chat with it from another terminal, on the port it printed, 20 "
                                "times faster, logging every retry as CSV:"),
        QStringLiteral("capwatch-cli chat --endpoint http://127.0.0.1:40453/v1 \\\n"
                       "    --prompt \"Hello\" --time-scale 0.05 --log retries.csv"));
    page.example(QStringLiteral("Chat with a real provider, the key in the environment:"),
        QStringLiteral("OPENAI_COMPAT_API_KEY=... capwatch-cli chat \\\n"
                       "    --endpoint https://llm.example.org/v1 --model my-model \\\n"
                       "    --prompt \"Hello\""));
    page.example(QStringLiteral("Send with the profile \"free-tier\" of the settings file, with a "
                                "shorter budget, to its fallback when it ends capped:"),
        QStringLiteral("capwatch-cli chat --profile free-tier --budget 30 --fallback \\\n"
                       "    --prompt \"Hello\""));
    page.example(QStringLiteral("Check a rules file, then put it in force and see where each rule "
                                "comes from:"),
        QStringLiteral("capwatch-cli rules check acme.json && \\\n"
                       "    cp acme.json ~/.config/capwatch/rules.d/ && capwatch-cli rules list"));
    page.example(QStringLiteral("List the profiles (never a key):"),
        QStringLiteral("capwatch-cli profiles list"));
    page.example(QStringLiteral("Export every retry of November as CSV, for a spreadsheet:"),
        QStringLiteral("capwatch-cli history export --format csv \\\n"
                       "    --since 2026-11-01 --until 2026-12-01 --out retries.csv"));

    page.section(QStringLiteral("See also"));
    page.seeAlso({ QStringLiteral("capwatch") });
    return page.text();
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("capwatch-cli"));
    QCoreApplication::setOrganizationName(QStringLiteral("capwatch"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(capwatch::kVersion));

    // stderr carries capwatch's own progress lines; the capwatch.* categories' info and debug
    // lines are there for QT_LOGGING_RULES="capwatch.*.info=true" (the environment overrides
    // this). Debug is off too: the history store's "probing ..." is not for every `history list`.
    QLoggingCategory::setFilterRules(
        QStringLiteral("capwatch.*.info=false\ncapwatch.*.debug=false"));

    // Help texts follow the system locale (LANGUAGE, LC_ALL, LANG); JSON, logs and exit codes
    // never change with it.
    QTranslator translator;
    if (translator.load(
            QLocale(), QStringLiteral("capwatch"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(&translator);

    QStringList args = QCoreApplication::arguments();
    if (args.size() < 2)
        return argumentError(QString(),
            QStringLiteral(
                "a command is required (explain, chat, demo, history, profiles, rules, usage)"));
    const QString command = args.at(1);
    if (command == u"--help" || command == u"-h" || command == u"help") {
        writeOut(usage().toUtf8());
        return ExitOk;
    }
    if (command == u"--man-page") { // hidden: the build makes capwatch-cli.1 with it
        writeOut(manPage().toUtf8());
        return ExitOk;
    }
    if (command == u"--version" || command == u"-v") {
        writeOut((QStringLiteral("capwatch-cli ") + QCoreApplication::applicationVersion() + u'\n')
                     .toUtf8());
        return ExitOk;
    }
    args.removeAt(1);
    if (command == u"explain")
        return runExplain(args);
    if (command == u"chat") {
        // The user's rules files, read once for this send (explain reads them itself, with
        // its --rules).
        QStringList errors;
        for (const capwatch::app::RulesLoadError &e : capwatch::app::installUserRules())
            errors << e.text();
        reportRulesErrors(errors);
        return runChat(args);
    }
    if (command == u"demo")
        return runDemo(args);
    if (command == u"history")
        return runHistory(args);
    if (command == u"usage")
        return runUsage(args);
    if (command == u"profiles")
        return runProfiles(args);
    if (command == u"rules")
        return runRules(args);
    return argumentError(QString(), QStringLiteral("unknown command '%1'").arg(command));
}
