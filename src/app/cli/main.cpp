// capwatch-cli: the headless twin of capwatch. Same engine, no display needed.

#include "clicommon.h"
#include "chatcommand.h"
#include "democommand.h"
#include "explaincommand.h"

#include <QCoreApplication>
#include <QLoggingCategory>

using namespace capwatch::cli;

namespace {

QList<CommandSpec> commands()
{
    return { explainSpec(), chatSpec(), demoSpec() };
}

QString usage()
{
    QString text = QStringLiteral("Usage: capwatch-cli COMMAND [OPTIONS]\n\n")
            + QCoreApplication::translate("cli", "capwatch-cli talks to OpenAI-compatible providers that enforce token caps, "
                                                 "and retries token-limit errors the way the capwatch retry policy says.")
            + QStringLiteral("\n\n") + QCoreApplication::translate("cli", "Commands:") + u'\n';
    for (const CommandSpec &spec : commands())
        text += QStringLiteral("  %1  %2\n").arg(spec.name, -8).arg(spec.summary);
    text += u'\n' + QCoreApplication::translate("cli", "Options:") + u'\n'
            + QStringLiteral("  -h, --help     ") + QCoreApplication::translate("cli", "Show this help.") + u'\n'
            + QStringLiteral("  -v, --version  ") + QCoreApplication::translate("cli", "Show the version.") + u'\n'
            + u'\n' + QCoreApplication::translate("cli", "'capwatch-cli COMMAND --help' describes a command.")
            + u'\n';
    return text;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("capwatch-cli"));
    QCoreApplication::setOrganizationName(QStringLiteral("capwatch"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CAPWATCH_VERSION));

    // stderr carries capwatch's own progress lines; the capwatch.* categories' info lines are
    // there for QT_LOGGING_RULES="capwatch.*.info=true" (the environment overrides this).
    QLoggingCategory::setFilterRules(QStringLiteral("capwatch.*.info=false"));

    QStringList args = QCoreApplication::arguments();
    if (args.size() < 2)
        return argumentError(QString(), QStringLiteral("a command is required (explain, chat, demo)"));
    const QString command = args.at(1);
    if (command == u"--help" || command == u"-h" || command == u"help") {
        writeOut(usage().toUtf8());
        return ExitOk;
    }
    if (command == u"--version" || command == u"-v") {
        writeOut((QStringLiteral("capwatch-cli ") + QCoreApplication::applicationVersion() + u'\n').toUtf8());
        return ExitOk;
    }
    args.removeAt(1);
    if (command == u"explain")
        return runExplain(args);
    if (command == u"chat")
        return runChat(args);
    if (command == u"demo")
        return runDemo(args);
    return argumentError(QString(), QStringLiteral("unknown command '%1'").arg(command));
}
