#include "rulescommand.h"

#include "common/userrules.h"

#include <QCoreApplication>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace capwatch::cli {

namespace {

QString sourceOf(const std::string &origin)
{
    const QString o = QString::fromStdString(origin);
    return o.startsWith(u"builtin:"_s) ? u"builtin"_s : o;
}

QString quoted(const std::string &text)
{
    return u'"' + QString::fromStdString(text) + u'"';
}

QString scoped(const std::string &endpoint)
{
    return endpoint.empty() ? QString()
                            : u" (only for "_s + QString::fromStdString(endpoint) + u')';
}

/// One line per rule in force: what it is, a tab, where it came from.
QByteArray listRules(const retry::RuleSet &set)
{
    QByteArray out;
    const auto line = [&out](const QString &what, const std::string &origin) {
        out += (what + u'\t' + sourceOf(origin) + u'\n').toUtf8();
    };
    for (std::size_t c = 0; c < retry::kRuleCategoryCount; ++c) {
        const QString cat = QString::fromLatin1(retry::nameOf(retry::RuleCategory(c)));
        const retry::CategoryRules &r = set.categories[c];
        for (const retry::RuleStatus &s : r.statuses)
            line(cat + u".status "_s + QString::number(s.status), s.origin);
        for (const retry::RuleText &t : r.codes)
            line(cat + u".code "_s + quoted(t.text) + scoped(t.endpoint), t.origin);
        for (const retry::RuleText &t : r.keywords)
            line(cat + u".keyword "_s + quoted(t.text), t.origin);
        for (const retry::RuleText &t : r.phrases)
            line(cat + u".phrase "_s + quoted(t.text) + scoped(t.endpoint), t.origin);
        for (const retry::RuleFamily &f : r.families) {
            QStringList groups;
            for (const auto &g : f.groups) {
                QStringList words;
                for (const std::string &w : g)
                    words << QString::fromStdString(w);
                groups << u'(' + words.join(u" | "_s) + u')';
            }
            QString when;
            if (!f.statuses.empty() || !f.notStatuses.empty()) {
                QStringList s;
                for (const int v : f.statuses)
                    s << QString::number(v);
                for (const int v : f.notStatuses)
                    s << u"not "_s + QString::number(v);
                when = u" at "_s + s.join(u", "_s);
            }
            line(cat + u".family "_s + QString::fromStdString(f.name) + u": "_s
                    + groups.join(u" + "_s) + when + scoped(f.endpoint),
                f.origin);
        }
    }
    for (std::size_t w = 0; w < retry::kWordListCount; ++w) {
        for (const retry::RuleText &t : set.words[w])
            line(u"words."_s + QString::fromLatin1(retry::nameOf(retry::WordList(w))) + u' '
                    + quoted(t.text),
                t.origin);
    }
    for (std::size_t u = 0; u < retry::kUnitListCount; ++u) {
        for (const retry::RuleUnit &unit : set.units[u])
            line(u"units."_s + QString::fromLatin1(retry::nameOf(retry::UnitList(u))) + u' '
                    + quoted(unit.word) + u" = "_s + QString::number(unit.seconds) + u" s"_s,
                unit.origin);
    }
    // The header names and numbers are built in only.
    const std::string builtin = "builtin:";
    line(u"headers.retry_after "_s + quoted(set.retryAfterHeader), builtin);
    line(u"headers.retry_after_ms "_s + quoted(set.retryAfterMsHeader), builtin);
    for (const std::string &h : set.rateLimitResetHeaders)
        line(u"headers.ratelimit_reset "_s + quoted(h), builtin);
    line(u"headers.content_type "_s + quoted(set.contentTypeHeader), builtin);
    line(u"headers.event_stream "_s + quoted(set.eventStreamType), builtin);
    line(u"numbers.too_large_min_figure "_s + QString::number(set.tooLargeMinFigure), builtin);
    line(u"numbers.embedded_overloaded_status "_s + QString::number(set.embeddedOverloadedStatus),
        builtin);
    line(u"numbers.embedded_default_status "_s + QString::number(set.embeddedDefaultStatus),
        builtin);
    return out;
}

} // namespace

void reportRulesErrors(const QStringList &lines)
{
    for (const QString &l : lines)
        writeErr((u"capwatch-cli: rules: "_s + l + u" (the file is left out)\n"_s).toUtf8());
}

CommandSpec rulesSpec()
{
    const auto cliText = [](const char *s) { return QCoreApplication::translate("cli", s); };
    return {
        u"rules"_s,
        cliText(QT_TRANSLATE_NOOP("cli",
            "Check a rules file, or list the classification rules in force and where each came "
            "from.")),
        u"rules check FILE\nrules list [--rules FILE]..."_s,
        {
            QCommandLineOption(u"rules"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "list: also a rules file of this run, after those of "
                    "~/.config/capwatch/rules.d. Repeatable.")),
                u"FILE"_s),
        },
        {},
        {},
    };
}

int runRules(const QStringList &args)
{
    const CommandSpec spec = rulesSpec();
    QCommandLineParser parser;
    if (const auto done = parseCommandWithArguments(spec, args, parser, 2))
        return *done;
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty())
        return argumentError(spec.name, u"a subcommand is required (check, list)"_s);
    const QString sub = positional.first();
    if (sub == u"check") {
        if (positional.size() != 2)
            return argumentError(spec.name, u"check takes one FILE"_s);
        if (parser.isSet(u"rules"_s))
            return argumentError(spec.name, u"check takes no --rules"_s);
        const QList<app::RulesLoadError> errors = app::checkRulesFile(positional.at(1));
        for (const app::RulesLoadError &e : errors)
            writeErr((e.text() + u'\n').toUtf8());
        return errors.isEmpty() ? ExitOk : ExitBadArguments;
    }
    if (sub == u"list") {
        if (positional.size() != 1)
            return argumentError(spec.name, u"list takes no FILE (use --rules FILE)"_s);
        const app::UserRulesLoad load = app::loadUserRules(parser.values(u"rules"_s));
        QStringList errors;
        for (const app::RulesLoadError &e : load.errors)
            errors << e.text();
        reportRulesErrors(errors);
        writeOut(listRules(load.rules->set()));
        return ExitOk;
    }
    return argumentError(spec.name, u"unknown subcommand '%1' (check, list)"_s.arg(sub));
}

} // namespace capwatch::cli
