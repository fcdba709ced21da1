#include "profilescommand.h"

#include "net/chatrequest.h"
#include "retry/finalerror.h"
#include "retry/policylimits.h"
#include "session/settingsfile.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QSettings>

namespace capwatch::cli {

using namespace Qt::StringLiterals;

namespace {

using nlohmann::ordered_json;

QString seconds(retry::Millis ms)
{
    return QString::fromStdString(retry::formatSeconds(ms));
}

/// The policy numbers of a profile, each marked "(default)" when the profile does not set it.
QString policyText(const session::ProviderProfile &p)
{
    const session::PolicyOverrides &o = p.overrides;
    const retry::PolicyLimits l = p.limits();
    const auto mark = [](bool set) { return set ? QString() : u" (default)"_s; };
    const QStringList retried = session::retriedCategoryNames(l);
    const bool retrySet = o.retryTokenLimit || o.retryRateLimit || o.retryTransient;
    return u"max_wait %1 s%2, budget %3 s%4, max_attempts %5%6, backoff_base %7 s%8, "
           "header_timeout %9 s%10, retry %11%12"_s
               .arg(seconds(l.waitCap), mark(bool(o.waitCapS)), seconds(l.budget),
                   mark(bool(o.budgetS)))
               .arg(l.maxAttempts)
               .arg(mark(bool(o.maxAttempts)), seconds(l.backoffBase), mark(bool(o.backoffBaseS)),
                   seconds(l.headerTimeout), mark(bool(o.headerTimeoutS)),
                   retried.isEmpty() ? u"none"_s : retried.join(u", "_s), mark(retrySet));
}

QString modelOf(const session::ProviderProfile &p)
{
    if (!p.model.isEmpty())
        return p.model;
    if (p.builtInDemo)
        return QString::fromUtf16(net::kDemoModel);
    const QString d = net::defaultModelFor(p.endpoint);
    return d.isEmpty() ? u"(no model)"_s : d;
}

QString endpointOf(const session::ProviderProfile &p)
{
    if (p.builtInDemo)
        return u"(built-in demo)"_s;
    return p.endpoint.isEmpty() ? u"(no endpoint)"_s : net::displayEndpoint(p.endpoint);
}

QString keyOf(const session::ProviderProfile &p)
{
    return p.builtInDemo ? u"none"_s : session::keySourceSpec(p);
}

ordered_json profileJson(const session::ProviderProfile &p, bool isDefault)
{
    const retry::PolicyLimits l = p.limits();
    const session::PolicyOverrides &o = p.overrides;
    ordered_json j;
    j["id"] = utf8(p.id);
    j["name"] = utf8(p.name);
    j["default"] = isDefault;
    j["built_in"] = p.builtInDemo;
    j["endpoint"] = p.builtInDemo || p.endpoint.isEmpty()
        ? ordered_json(nullptr)
        : ordered_json(utf8(net::displayEndpoint(p.endpoint)));
    j["model"] = utf8(modelOf(p));
    j["key"] = utf8(keyOf(p));
    j["stream"] = p.stream;
    j["context_window"] = p.contextWindow ? ordered_json(*p.contextWindow) : ordered_json(nullptr);
    j["max_wait_s"] = secondsJson(l.waitCap);
    j["budget_s"] = secondsJson(l.budget);
    j["max_attempts"] = l.maxAttempts;
    j["backoff_base_s"] = secondsJson(l.backoffBase);
    j["header_timeout_s"] = secondsJson(l.headerTimeout);
    ordered_json retried = ordered_json::array();
    if (l.retryTokenLimit)
        retried.push_back("token_limit");
    if (l.retryRateLimit)
        retried.push_back("rate_limit");
    if (l.retryTransient)
        retried.push_back("transient");
    j["retry"] = std::move(retried);
    ordered_json set = ordered_json::array();
    if (o.waitCapS)
        set.push_back("max_wait");
    if (o.budgetS)
        set.push_back("budget");
    if (o.maxAttempts)
        set.push_back("max_attempts");
    if (o.backoffBaseS)
        set.push_back("backoff_base");
    if (o.headerTimeoutS)
        set.push_back("header_timeout");
    if (o.retryTokenLimit || o.retryRateLimit || o.retryTransient)
        set.push_back("retry");
    j["overrides"] = std::move(set);
    ordered_json headers = ordered_json::array();
    for (const auto &[name, value] : p.extraHeaders)
        headers.push_back(name.toStdString()); // names only: a header may carry a token
    j["headers"] = std::move(headers);
    j["fallback"] = p.fallback.isEmpty() ? ordered_json(nullptr) : ordered_json(utf8(p.fallback));
    j["fallback_auto"] = p.autoFallback;
    ordered_json models = ordered_json::array();
    for (const QString &m : p.cachedModels)
        models.push_back(utf8(m));
    j["models"] = std::move(models);
    return j;
}

} // namespace

std::optional<session::ProfileSet> readProfileFile(const QString &configPath, QString *error)
{
    if (!configPath.isEmpty()) {
        const QFileInfo info(configPath);
        if (!info.exists()) {
            *error = u"--config: %1: no such file"_s.arg(configPath);
            return std::nullopt;
        }
        if (!info.isFile() || !info.isReadable()) {
            *error = u"--config: %1: not a readable file"_s.arg(configPath);
            return std::nullopt;
        }
        QSettings settings(info.absoluteFilePath(), QSettings::IniFormat);
        return session::loadProfiles(settings);
    }
    QSettings settings(session::defaultSettingsPath(), QSettings::IniFormat);
    return session::loadProfiles(settings);
}

QByteArray issueLines(const QList<session::ProfileIssue> &issues)
{
    QByteArray out;
    for (const session::ProfileIssue &i : issues)
        out += ((i.severity == session::ProfileIssue::Severity::Error ? u"capwatch: error: "_s
                                                                      : u"capwatch: warning: "_s)
            + i.text() + u'\n')
                   .toUtf8();
    return out;
}

CommandSpec profilesSpec()
{
    const auto cliText = [](const char *s) { return QCoreApplication::translate("cli", s); };
    return {
        u"profiles"_s,
        cliText(QT_TRANSLATE_NOOP("cli",
            "List the provider profiles of the settings file (capwatch.conf), never a key.")),
        u"profiles list [--config PATH] [--json]"_s,
        {
            QCommandLineOption(u"config"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Read the profiles from this file instead of the window's settings file "
                    "(~/.config/capwatch/capwatch.conf).")),
                u"PATH"_s),
            QCommandLineOption(u"json"_s,
                cliText(QT_TRANSLATE_NOOP("cli", "Print a JSON array, one object a profile."))),
        },
        {},
        {},
    };
}

int runProfiles(const QStringList &args)
{
    const CommandSpec spec = profilesSpec();
    QCommandLineParser parser;
    if (const auto done = parseCommandWithArguments(spec, args, parser, 1))
        return *done;
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty())
        return argumentError(spec.name, u"a subcommand is required (list)"_s);
    if (positional.first() != u"list")
        return argumentError(
            spec.name, u"unknown subcommand '%1' (list)"_s.arg(positional.first()));
    QString error;
    const std::optional<session::ProfileSet> set
        = readProfileFile(parser.value(u"config"_s), &error);
    if (!set)
        return argumentError(spec.name, error);
    writeErr(issueLines(set->issues));

    if (parser.isSet(u"json"_s)) {
        QByteArray out = "[";
        for (qsizetype i = 0; i < set->profiles.size(); ++i) {
            const session::ProviderProfile &p = set->profiles.at(i);
            out += (i == 0 ? "" : ",\n")
                + QByteArray::fromStdString(
                    profileJson(p, p.id == set->defaultProfile)
                        .dump(-1, ' ', false, ordered_json::error_handler_t::replace));
        }
        writeOut(out + "]\n");
    } else {
        QByteArray out;
        for (const session::ProviderProfile &p : set->profiles) {
            QString fallback = p.fallback.isEmpty() ? u"none"_s : p.fallback;
            if (!p.fallback.isEmpty() && p.autoFallback)
                fallback += u" (automatic)"_s;
            out += u"%1 %2  %3  %4  %5  key %6  %7  fallback %8\n"_s
                       .arg(p.id == set->defaultProfile ? u"*"_s : u" "_s, p.id,
                           u'"' + p.name + u'"', endpointOf(p), modelOf(p), keyOf(p), policyText(p),
                           fallback)
                       .toUtf8();
        }
        writeOut(out);
    }
    for (const session::ProfileIssue &i : set->issues) {
        if (i.severity == session::ProfileIssue::Severity::Error)
            return ExitBadArguments;
    }
    return ExitOk;
}

} // namespace capwatch::cli
