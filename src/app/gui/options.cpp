#include "options.h"

#include "common/manpage.h"
#include "version.h"

#include <QCoreApplication>
#include <cstring>

using namespace Qt::StringLiterals;

namespace capwatch::app {

QList<QCommandLineOption> GuiOptions::all() const
{
    return { endpoint, model, demo, prompt, timeScale, lang, privateRun, manPage };
}

GuiOptions guiOptions()
{
    GuiOptions o {
        QCommandLineOption(u"endpoint"_s,
            QCoreApplication::translate(
                "main", "Chat with this endpoint (base URL or .../chat/completions) for this run."),
            u"URL"_s),
        QCommandLineOption(u"model"_s,
            QCoreApplication::translate("main", "Use this model for this run."), u"NAME"_s),
        QCommandLineOption(u"demo"_s,
            QCoreApplication::translate(
                "main", "Chat with the embedded demo provider, whatever is configured.")),
        QCommandLineOption(u"prompt"_s,
            QCoreApplication::translate("main", "Send this prompt once the window is shown."),
            u"TEXT"_s),
        QCommandLineOption(u"time-scale"_s,
            QCoreApplication::translate("main",
                "Run every wait and timeout F times as long (0 < F <= 1); figures stay in policy "
                "seconds."),
            u"F"_s, u"1"_s),
        QCommandLineOption(u"lang"_s,
            QCoreApplication::translate(
                "main", "User interface language (de, zh_CN, ...); default: the system's."),
            u"CODE"_s),
        QCommandLineOption(u"private"_s,
            QCoreApplication::translate("main",
                "Keep nothing on disk for this run: its conversations are not added to the "
                "history.")),
        QCommandLineOption(u"man-page"_s,
            QCoreApplication::translate("main", "Print the man page (roff) and exit.")),
    };
    o.manPage.setFlags(QCommandLineOption::HiddenFromHelp);
    return o;
}

QString guiDescription()
{
    return QCoreApplication::translate("main",
        "A chat client for OpenAI-compatible providers with strict "
        "token caps, showing every retry as it happens.");
}

QString guiManPage()
{
    const GuiOptions options = guiOptions();
    ManPage page(u"capwatch"_s,
        u"desktop chat client for token-capped OpenAI-compatible providers"_s,
        QString::fromLatin1(kVersion), QString::fromLatin1(kReleaseDate));

    page.section(u"Synopsis"_s);
    QString arguments;
    for (const QCommandLineOption &option : options.all()) {
        if (option.flags().testFlag(QCommandLineOption::HiddenFromHelp))
            continue;
        arguments += u"[--"_s + option.names().constFirst();
        if (!option.valueName().isEmpty())
            arguments += u' ' + option.valueName();
        arguments += u"] "_s;
    }
    page.synopsis(u"capwatch"_s, arguments.trimmed());

    page.section(u"Description"_s);
    page.paragraph(guiDescription());
    page.paragraph(
        u"When a capped provider answers a request with a token-limit error (for example "
        "422 {\"error\":\"Token limit exceeded: used 60323, limit 60000. Retry in 18 min.\"}), "
        "capwatch waits as long as the provider asks (from the retry-after header, then the "
        "message, then a 5/10/20/40 s backoff), caps each wait at 60 s and all waits of a "
        "send at 120 s, and makes at most 5 attempts. The window shows the attempt, the "
        "used and limit tokens, the countdown to the next retry and the budget left; every "
        "wait can be cancelled with Esc."_s);
    page.paragraph(
        u"On first run, with no provider configured, capwatch starts an embedded demo "
        "provider on 127.0.0.1 that enforces a token cap of its own, so a real retry cycle "
        "can be watched without an account. Settings → Provider and retries points it at a "
        "real endpoint."_s);

    page.section(u"Options"_s);
    // What QCommandLineParser's addHelpOption() and addVersionOption() add, in its words.
    const auto qtText
        = [](const char *text) { return QCoreApplication::translate("QCommandLineParser", text); };
    page.options({
        QCommandLineOption({ u"h"_s, u"help"_s }, qtText("Displays help on commandline options.")),
        QCommandLineOption(u"help-all"_s, qtText("Displays help including Qt specific options.")),
        QCommandLineOption({ u"v"_s, u"version"_s }, qtText("Displays version information.")),
    });
    page.options(options.all());

    page.section(u"Environment"_s);
    page.item(u"OPENAI_COMPAT_API_KEY"_s,
        u"The API key, when the provider settings take it from the environment (the "
        "default; the variable's name can be changed there). Loopback endpoints need no key."_s);
    page.item(u"QT_LOGGING_RULES"_s,
        u"Qt logging rules; capwatch.retry.info=true logs every attempt and wait, "
        "capwatch.*.info=true everything capwatch logs."_s);

    page.section(u"Files"_s);
    page.item(u"~/.config/capwatch/capwatch.conf"_s,
        u"The settings: provider, model, key source, window layout. The API key itself is "
        "never stored there; it comes from the environment, a key file or the system "
        "keychain."_s);

    page.item(u"~/.local/share/capwatch/history.sqlite"_s,
        u"The history: conversations, their messages and retry logs (SQLite). A file that "
        "cannot be read is moved aside (history.sqlite.corrupt-DATE) and a new one started. "
        "--private writes nothing to it; Settings → History deletes old conversations or "
        "clears it."_s);

    page.section(u"Exit status"_s);
    page.item(u"0"_s, u"The window was closed, or --help or --version was shown."_s);
    page.item(u"2"_s, u"Bad command-line arguments."_s);

    page.section(u"Examples"_s);
    page.example(u"Watch a retry cycle against the embedded demo provider, 20 times faster:"_s,
        u"capwatch --demo --prompt \"Hello\" --time-scale 0.05"_s);
    page.example(u"Chat with a provider for this run only:"_s,
        u"capwatch --endpoint https://llm.example.org/v1 --model my-model"_s);

    page.section(u"See also"_s);
    page.seeAlso({ u"capwatch-cli"_s });
    return page.text();
}

bool wantsManPage(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--man-page") == 0)
            return true;
        if (std::strcmp(argv[i], "--") == 0)
            break;
    }
    return false;
}

} // namespace capwatch::app
