#include "usagecommand.h"

#include "history/historystore.h"
#include "historyreading.h"
#include "session/storedrecords.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTimeZone>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

namespace capwatch::cli {

using namespace Qt::StringLiterals;

namespace {

const QString kUsageCommand = u"usage"_s;
constexpr int kDefaultDays = 30;

QString usageCliText(const char *text)
{
    return QCoreApplication::translate("cli", text);
}

/// How the sends ended (the insights' "outcomes of sends").
struct Outcomes
{
    qint64 firstTime = 0; ///< answered at its first attempt
    qint64 afterRetries = 0; ///< answered after refused attempts, never parked
    qint64 parkedThenAnswered = 0;
    qint64 notAnswered = 0; ///< gave up, cancelled, or still waiting

    qint64 sends() const { return firstTime + afterRetries + parkedThenAnswered + notAnswered; }
};

/// One send's attempts: the group of its first, and how all of them went.
struct SendTrack
{
    QString group;
    bool startedBefore = false; ///< it has an attempt before the span: counted in an earlier one
    qint64 attempts = 0;
    bool answered = false;
    bool parked = false;

    void add(const history::UsageRecord &u)
    {
        ++attempts;
        answered
            = answered || (u.status && *u.status >= 200 && *u.status < 300 && u.category.isEmpty());
        parked = parked || u.parkedMs > 0;
    }
    void countIn(Outcomes &o) const
    {
        if (!answered)
            ++o.notAnswered;
        else if (parked)
            ++o.parkedThenAnswered;
        else if (attempts > 1)
            ++o.afterRetries;
        else
            ++o.firstTime;
    }
};

/// A send as the ledger knows it: its stored send; a row without one counts by its conversation
/// and number.
QString sendKeyOf(const history::UsageRecord &u)
{
    return u.send.isNull() ? u.conversation.toString() + u'#' + QString::number(u.request)
                           : u.send.toString();
}

/// One group's sums (or the total's): its attempts' figures, and the sends whose first attempt
/// is in it.
struct Sums
{
    qint64 attempts = 0;
    qint64 promptTokens = 0;
    qint64 completionTokens = 0;
    qint64 cachedTokens = 0;
    qint64 reasoningTokens = 0;
    double costBilled = 0;
    double costEstimated = 0;
    std::set<QString> currencies; ///< of the estimated costs
    qint64 unpriced = 0; ///< attempts whose cost is unknown
    qint64 waitedMs = 0;
    qint64 pacedMs = 0;
    qint64 parkedMs = 0;
    std::map<QString, qint64> refusals; ///< by category
    /// Retry waits by where they came from: how many, and their milliseconds.
    std::map<QString, std::pair<qint64, qint64>> waitSources;
    qint64 estimatedRows = 0;
    Outcomes outcomes;

    void add(const history::UsageRecord &u)
    {
        if (u.waitedMs > 0 && !u.waitSource.isEmpty()) {
            auto &[waits, ms] = waitSources[u.waitSource];
            ++waits;
            ms += u.waitedMs;
        }
        ++attempts;
        promptTokens += u.promptTokens.value_or(0);
        completionTokens += u.completionTokens.value_or(0);
        cachedTokens += u.cachedTokens.value_or(0);
        reasoningTokens += u.reasoningTokens.value_or(0);
        if (u.cost && u.costSource == history::CostSource::Provider) {
            costBilled += *u.cost;
        } else if (u.cost && u.costSource == history::CostSource::PriceTable) {
            costEstimated += *u.cost;
            currencies.insert(u.currency.isEmpty() ? u"USD"_s : u.currency);
        } else {
            ++unpriced;
        }
        waitedMs += u.waitedMs;
        pacedMs += u.pacedMs;
        parkedMs += u.parkedMs;
        if (!u.category.isEmpty())
            ++refusals[u.category];
        if (u.estimated)
            ++estimatedRows;
    }
    QString currency() const
    {
        QStringList names;
        for (const QString &c : currencies)
            names.append(c);
        return names.join(u'+');
    }
    QString waitSourceText() const
    {
        QStringList parts;
        for (const auto &[source, figures] : waitSources)
            parts.append(u"%1:%2/%3s"_s.arg(source)
                             .arg(figures.first)
                             .arg(QString::number(double(figures.second) / 1000.0, 'f', 1)));
        return parts.join(u' ');
    }
    QString outcomeText() const
    {
        return u"first:%1 retried:%2 parked:%3 not_answered:%4"_s.arg(outcomes.firstTime)
            .arg(outcomes.afterRetries)
            .arg(outcomes.parkedThenAnswered)
            .arg(outcomes.notAnswered);
    }
    QString refusalText() const
    {
        QStringList parts;
        for (const auto &[category, n] : refusals)
            parts.append(u"%1:%2"_s.arg(category).arg(n));
        return parts.join(u' ');
    }
};

QString spanSeconds(qint64 ms)
{
    return QString::number(double(ms) / 1000.0, 'f', 1);
}

QString money(double amount)
{
    return QString::number(amount, 'f', 6);
}

nlohmann::ordered_json toJson(const Sums &s)
{
    nlohmann::ordered_json j;
    j["sends"] = s.outcomes.sends();
    j["attempts"] = s.attempts;
    j["prompt_tokens"] = s.promptTokens;
    j["completion_tokens"] = s.completionTokens;
    j["cached_tokens"] = s.cachedTokens;
    j["reasoning_tokens"] = s.reasoningTokens;
    j["cost_billed"] = s.costBilled;
    j["cost_estimated"] = s.costEstimated;
    j["currency"] = s.currency().toStdString();
    j["unpriced_attempts"] = s.unpriced;
    j["waited_s"] = double(s.waitedMs) / 1000.0;
    j["paced_s"] = double(s.pacedMs) / 1000.0;
    j["parked_s"] = double(s.parkedMs) / 1000.0;
    nlohmann::ordered_json refusals = nlohmann::ordered_json::object();
    for (const auto &[category, n] : s.refusals)
        refusals[category.toStdString()] = n;
    j["refusals"] = refusals;
    nlohmann::ordered_json sources = nlohmann::ordered_json::object();
    for (const auto &[source, figures] : s.waitSources)
        sources[source.toStdString()]
            = { { "waits", figures.first }, { "waited_s", double(figures.second) / 1000.0 } };
    j["wait_sources"] = sources;
    const Outcomes &o = s.outcomes;
    j["outcomes"] = { { "first_time", o.firstTime }, { "after_retries", o.afterRetries },
        { "parked_then_answered", o.parkedThenAnswered }, { "not_answered", o.notAnswered } };
    j["estimated_rows"] = s.estimatedRows;
    return j;
}

const QStringList kColumns { u"group"_s, u"sends"_s, u"attempts"_s, u"prompt_tokens"_s,
    u"completion_tokens"_s, u"cached_tokens"_s, u"reasoning_tokens"_s, u"cost_billed"_s,
    u"cost_estimated"_s, u"currency"_s, u"waited_s"_s, u"paced_s"_s, u"parked_s"_s, u"refusals"_s,
    u"wait_sources"_s, u"outcomes"_s, u"estimated_rows"_s };

QStringList cellsOf(const QString &group, const Sums &s)
{
    return { group, QString::number(s.outcomes.sends()), QString::number(s.attempts),
        QString::number(s.promptTokens), QString::number(s.completionTokens),
        QString::number(s.cachedTokens), QString::number(s.reasoningTokens), money(s.costBilled),
        money(s.costEstimated), s.currency(), spanSeconds(s.waitedMs), spanSeconds(s.pacedMs),
        spanSeconds(s.parkedMs), s.refusalText(), s.waitSourceText(), s.outcomeText(),
        QString::number(s.estimatedRows) };
}

QString csvCell(const QString &text)
{
    QString cell = text;
    if (!cell.isEmpty() && QStringView(u"=+-@").contains(cell.front()))
        cell.prepend(u'\'');
    if (cell.contains(u',') || cell.contains(u'"') || cell.contains(u'\n'))
        return u'"' + QString(cell).replace(u'"', u"\"\""_s) + u'"';
    return cell;
}

/// `7d`, `24h`: that long before `now`; `YYYY-MM-DD`: that day's local midnight.
std::optional<QDateTime> sinceOf(const QString &text, const QDateTime &now)
{
    if (text.size() >= 2 && (text.endsWith(u'd') || text.endsWith(u'h'))) {
        bool ok = false;
        const qint64 n = QStringView(text).chopped(1).toLongLong(&ok);
        if (!ok || n < 0 || n > 100'000)
            return std::nullopt;
        return text.endsWith(u'd') ? now.addDays(-n) : now.addSecs(-n * 3600);
    }
    const QDate day = QDate::fromString(text, Qt::ISODate);
    if (!day.isValid() || text.size() != 10)
        return std::nullopt;
    return day.startOfDay(QTimeZone::systemTimeZone()).toUTC();
}

QString groupOf(const history::UsageRecord &u, const QString &by)
{
    if (by == u"model")
        return u.model.isEmpty() ? u"-"_s : u.model;
    if (by == u"profile")
        return u.profile.isEmpty() ? u"-"_s : u.profile;
    if (by == u"conversation")
        return u.conversation.isNull() ? u"-"_s : u.conversation.toString(QUuid::WithoutBraces);
    return u.time.toLocalTime().date().toString(Qt::ISODate);
}

} // namespace

CommandSpec usageSpec()
{
    return {
        kUsageCommand,
        usageCliText(QT_TRANSLATE_NOOP("cli",
            "Sum the usage ledger: sends, attempts, tokens, cost, time lost to waits, refusals.")),
        u"usage [--since 7d|DATE] [--until DATE] [--by day|model|profile|conversation] "
        u"[--format table|json|csv] [--database PATH]"_s,
        {
            QCommandLineOption(u"since"_s,
                usageCliText(QT_TRANSLATE_NOOP("cli",
                    "Attempts from then on: 7d, 24h, 30d (that long ago) or YYYY-MM-DD (local "
                    "midnight). Default: 30d.")),
                u"WHEN"_s),
            QCommandLineOption(u"until"_s,
                usageCliText(QT_TRANSLATE_NOOP("cli",
                    "Attempts up to the end of DATE, YYYY-MM-DD (local time). Default: now.")),
                u"DATE"_s),
            QCommandLineOption(u"by"_s,
                usageCliText(QT_TRANSLATE_NOOP(
                    "cli", "Group by day (local), model, profile or conversation (default: day).")),
                u"GROUP"_s, u"day"_s),
            QCommandLineOption(u"format"_s,
                usageCliText(QT_TRANSLATE_NOOP("cli",
                    "table (aligned, the default), json (one object: groups and total, exact "
                    "numbers) or csv.")),
                u"FORMAT"_s, u"table"_s),
            QCommandLineOption(u"database"_s,
                usageCliText(QT_TRANSLATE_NOOP("cli",
                    "The history database (default: the window's, history.sqlite in "
                    "capwatch's data folder). It is only read: never created, migrated or "
                    "moved.")),
                u"PATH"_s),
        },
        {},
        {},
    };
}

int runUsage(const QStringList &args)
{
    const CommandSpec spec = usageSpec();
    QCommandLineParser parser;
    if (const auto done = parseCommand(spec, args, parser))
        return *done;
    const QString by = parser.value(u"by"_s);
    if (!QStringList { u"day"_s, u"model"_s, u"profile"_s, u"conversation"_s }.contains(by))
        return argumentError(
            kUsageCommand, u"--by takes day, model, profile or conversation, not '%1'"_s.arg(by));
    const QString format = parser.value(u"format"_s);
    if (!QStringList { u"table"_s, u"json"_s, u"csv"_s }.contains(format))
        return argumentError(
            kUsageCommand, u"--format takes table, json or csv, not '%1'"_s.arg(format));
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QString sinceText = parser.isSet(u"since"_s) ? parser.value(u"since"_s)
                                                       : QString::number(kDefaultDays) + u'd';
    const std::optional<QDateTime> since = sinceOf(sinceText, now);
    if (!since)
        return argumentError(kUsageCommand,
            u"--since takes a span such as 7d or 24h, or YYYY-MM-DD, not '%1'"_s.arg(sinceText));
    QDateTime until;
    if (parser.isSet(u"until"_s)) {
        const QString text = parser.value(u"until"_s);
        const QDate day = QDate::fromString(text, Qt::ISODate);
        if (!day.isValid() || text.size() != 10)
            return argumentError(kUsageCommand, u"--until takes YYYY-MM-DD, not '%1'"_s.arg(text));
        until = day.addDays(1).startOfDay(QTimeZone::systemTimeZone()).toUTC();
        if (*since >= until)
            return argumentError(kUsageCommand, u"--since must be earlier than --until"_s);
    }

    const QString path
        = parser.isSet(u"database"_s) ? parser.value(u"database"_s) : session::defaultHistoryPath();
    history::HistoryStore store;
    std::unique_ptr<QTemporaryDir> copies; // made only to upgrade a copy of an older file
    const Opened opened = openForReading(kUsageCommand, path, store, copies);
    if (opened == Opened::Failed)
        return ExitNetworkOrConfig;

    std::map<QString, Sums> groups;
    Sums total;
    if (opened == Opened::Ready) {
        // A send counts once, in the group of its first attempt (its day, model, profile or
        // conversation), with how all its attempts went: the insights' rule (docs/history.md).
        std::map<QString, SendTrack> sends;
        std::set<QUuid> conversations;
        const bool read = store.forEachUsage(*since, until, [&](const history::UsageRecord &u) {
            const QString group = groupOf(u, by);
            groups[group].add(u);
            total.add(u);
            auto [track, first] = sends.try_emplace(sendKeyOf(u));
            if (first)
                track->second.group = group;
            track->second.add(u);
            conversations.insert(u.conversation);
            return true;
        });
        // Their attempts outside the span, through the index by conversation: one before it
        // means the send was counted in an earlier span; those after it count in how it ended.
        const bool around = read
            && store.forEachUsageAround(QList<QUuid>(conversations.cbegin(), conversations.cend()),
                *since, until, [&](const history::UsageRecord &u) {
                    const auto track = sends.find(sendKeyOf(u));
                    if (track == sends.end())
                        return true;
                    if (u.time < *since)
                        track->second.startedBefore = true;
                    else
                        track->second.add(u);
                    return true;
                });
        if (!around)
            return historyReadError(kUsageCommand, path, store.lastError());
        for (const auto &[key, track] : sends) {
            if (track.startedBefore)
                continue;
            track.countIn(groups[track.group].outcomes);
            track.countIn(total.outcomes);
        }
    }

    QByteArray out;
    if (format == u"json") {
        nlohmann::ordered_json j;
        j["since"] = since->toString(Qt::ISODateWithMs).toStdString();
        j["until"] = until.isValid() ? until.toString(Qt::ISODateWithMs).toStdString() : "";
        j["by"] = by.toStdString();
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const auto &[group, sums] : groups) {
            nlohmann::ordered_json g;
            g["group"] = group.toStdString();
            g.update(toJson(sums));
            list.push_back(g);
        }
        j["groups"] = list;
        j["total"] = toJson(total);
        out = QByteArray::fromStdString(
                  j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace))
            + '\n';
    } else {
        QList<QStringList> rows { kColumns };
        rows.front().front() = by;
        for (const auto &[group, sums] : groups)
            rows.append(cellsOf(group, sums));
        rows.append(cellsOf(u"total"_s, total));
        if (format == u"csv") {
            for (const QStringList &row : rows) {
                QStringList cells;
                for (const QString &cell : row)
                    cells.append(csvCell(cell));
                out += cells.join(u',').toUtf8() + "\r\n";
            }
        } else {
            QList<qsizetype> widths(kColumns.size(), 0);
            for (const QStringList &row : rows)
                for (qsizetype i = 0; i < row.size(); ++i)
                    widths[i] = std::max(widths[i], row.at(i).size());
            for (const QStringList &row : rows) {
                QString line;
                for (qsizetype i = 0; i < row.size(); ++i) {
                    // The group and the refusals read left to right; figures align right.
                    const bool left = i == 0 || kColumns.at(i) == u"refusals"
                        || kColumns.at(i) == u"currency" || kColumns.at(i) == u"wait_sources"
                        || kColumns.at(i) == u"outcomes";
                    line += left ? row.at(i).leftJustified(widths[i])
                                 : row.at(i).rightJustified(widths[i]);
                    if (i + 1 < row.size())
                        line += u"  "_s;
                }
                out += line.trimmed().toUtf8() + '\n';
            }
        }
    }
    writeOut(out);
    return ExitOk;
}

} // namespace capwatch::cli
