#include "historycommand.h"

#include "history/historystore.h"
#include "historyreading.h"
#include "session/storedrecords.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtEndian>
#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <variant>

namespace capwatch::cli {

using namespace Qt::StringLiterals;

namespace {

constexpr int kDefaultLimit = 20;
constexpr int kShortIdLength = 8; ///< also the shortest prefix `show` accepts
constexpr int kPageSize = 500;

using session::exportCsvHeader;
using session::exportCsvRow;
using session::exportJsonLine;

const QString kCommand = u"history"_s;

QString cliText(const char *text)
{
    return QCoreApplication::translate("cli", text);
}

/// The database the window and `chat` share.
QString defaultDatabasePath()
{
    return session::defaultHistoryPath();
}

/// A message for a database that cannot be read; exits with the configuration-error code.
int databaseError(const QString &path, const QString &reason)
{
    return historyReadError(kCommand, path, reason);
}

QString shortId(const QUuid &id)
{
    return id.toString(QUuid::WithoutBraces).left(kShortIdLength);
}

QString fullId(const QUuid &id)
{
    return id.toString(QUuid::WithoutBraces);
}

QString localTime(const QDateTime &t, const QString &format)
{
    return t.isValid() ? t.toLocalTime().toString(format) : u"-"_s;
}

QString utcTime(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODateWithMs) : QString();
}

QString seconds(qint64 ms)
{
    return QString::number(double(ms) / 1000.0, 'g', 15);
}

QString figure(double value)
{
    return QString::number(value, 'g', 15);
}

/// R: a retry was scheduled; U: a send did not succeed (or has not ended).
QString marks(const history::Conversation &c)
{
    return QString(c.hasRetries ? u'R' : u'-') + QString(c.hasUnanswered ? u'U' : u'-');
}

QByteArray jsonLine(const nlohmann::ordered_json &value)
{
    return QByteArray::fromStdString(
        value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
}

/// Standard output, buffered: an export writes a line per record.
class Output final
{
public:
    Output() { m_file.open(stdout, QIODevice::WriteOnly); }
    ~Output() { m_file.flush(); }
    Output(const Output &) = delete;
    Output &operator=(const Output &) = delete;
    QIODevice *device() { return &m_file; }
    void write(const QString &text) { m_file.write(text.toUtf8()); }

private:
    QFile m_file;
};

int runList(history::HistoryStore *store, int limit, bool json)
{
    const QList<history::Conversation> conversations
        = store ? store->conversations(limit).conversations : QList<history::Conversation>();
    Output out;
    if (json) {
        if (conversations.isEmpty()) {
            out.write(u"[]\n"_s);
            return ExitOk;
        }
        // One object a line: valid JSON for jq, and each conversation greppable on its own.
        out.write(u"[\n"_s);
        for (qsizetype i = 0; i < conversations.size(); ++i) {
            const history::Conversation &c = conversations.at(i);
            nlohmann::ordered_json o;
            o["id"] = utf8(fullId(c.id));
            o["title"] = utf8(c.title);
            o["endpoint"] = utf8(c.endpoint);
            o["model"] = utf8(c.model);
            o["created"] = utf8(utcTime(c.created));
            o["updated"] = utf8(utcTime(c.updated));
            o["has_retries"] = c.hasRetries;
            o["has_unanswered"] = c.hasUnanswered;
            o["messages"] = store->messageCount(c.id);
            out.device()->write(jsonLine(o).append(i + 1 < conversations.size() ? ",\n" : "\n"));
        }
        out.write(u"]\n"_s);
        return ExitOk;
    }
    if (conversations.isEmpty())
        return ExitOk;
    qsizetype modelWidth = 5;
    for (const history::Conversation &c : conversations)
        modelWidth = std::max(modelWidth, c.model.size());
    const QString row = u"%1  %2  %3  %4  %5"_s;
    out.write(row.arg(u"ID"_s.leftJustified(kShortIdLength), u"UPDATED"_s.leftJustified(16),
                  u"MARKS"_s, u"MODEL"_s.leftJustified(modelWidth), u"TITLE"_s)
        + u'\n');
    for (const history::Conversation &c : conversations)
        out.write(row.arg(shortId(c.id), localTime(c.updated, u"yyyy-MM-dd HH:mm"_s),
                      marks(c).leftJustified(5), c.model.leftJustified(modelWidth), c.title)
            + u'\n');
    return ExitOk;
}

} // namespace

/// The conversation an ID names: a whole UUID, or a prefix of at least 8 hex digits that only
/// one conversation's UUID starts with.
std::variant<history::Conversation, QString> resolveConversationId(
    history::HistoryStore *store, const QString &text)
{
    QString key = text.trimmed().toLower();
    if (key.startsWith(u'{'))
        key.remove(0, 1);
    if (key.endsWith(u'}'))
        key.chop(1);
    int hexDigits = 0;
    bool wellFormed = key.size() <= 36;
    for (const QChar c : key) {
        if (c.isDigit() || (c >= u'a' && c <= u'f'))
            ++hexDigits;
        else if (c != u'-')
            wellFormed = false;
    }
    if (!wellFormed || hexDigits < kShortIdLength)
        return u"'%1' is not a conversation ID: give its UUID or at least its first %2 hex digits"_s
            .arg(text)
            .arg(kShortIdLength);
    const auto unknown = [&text] { return u"no conversation has the ID '%1'"_s.arg(text); };
    if (!store)
        return unknown();
    if (const QUuid id = QUuid::fromString(key); !id.isNull() && key.size() == 36) {
        if (std::optional<history::Conversation> c = store->conversation(id))
            return *c;
        return unknown();
    }
    // The store looks conversations up by whole UUIDs only, so a prefix walks the list.
    QList<history::Conversation> matches;
    history::PageCursor cursor;
    for (;;) {
        const history::ConversationPage page = store->conversations(kPageSize, cursor);
        for (const history::Conversation &c : page.conversations) {
            if (fullId(c.id).startsWith(key))
                matches.append(c);
        }
        if (!page.hasMore)
            break;
        cursor = page.next;
    }
    if (matches.isEmpty())
        return unknown();
    if (matches.size() > 1) {
        QString list;
        for (const history::Conversation &c : matches)
            list += u"\n  "_s + fullId(c.id) + u"  "_s + c.title;
        return u"the ID '%1' matches %2 conversations; give more of it:%3"_s.arg(text)
            .arg(matches.size())
            .arg(list);
    }
    return matches.constFirst();
}

namespace {

std::variant<history::Conversation, int> resolve(history::HistoryStore *store, const QString &text)
{
    auto found = resolveConversationId(store, text);
    if (QString *error = std::get_if<QString>(&found))
        return argumentError(kCommand, *error);
    return std::get<history::Conversation>(std::move(found));
}

QString roleLabel(const history::Message &m)
{
    QString label = history::nameOf(m.role);
    if (m.state == history::MessageState::CutOff)
        label += u", cut off"_s;
    else if (m.state == history::MessageState::Pending)
        label += u", unfinished"_s;
    return label;
}

/// One retry record in words, on one line.
QString describe(const history::RetryRecord &r)
{
    QStringList parts;
    if (r.status)
        parts.append(u"status %1"_s.arg(*r.status));
    if (r.category)
        parts.append(QString::fromLatin1(retry::nameOf(*r.category)));
    if (r.used)
        parts.append(u"used "_s + figure(*r.used));
    if (r.limit)
        parts.append(u"limit "_s + figure(*r.limit));
    if (r.waitMs) {
        QString wait = u"wait %1 s"_s.arg(seconds(*r.waitMs));
        if (r.waitSource != retry::WaitSource::None)
            wait += u" ("_s + QString::fromLatin1(retry::nameOf(r.waitSource)) + u')';
        parts.append(wait);
    }
    if (r.waitedTotalMs)
        parts.append(u"waited %1 s"_s.arg(seconds(*r.waitedTotalMs)));
    if (r.budgetLeftMs)
        parts.append(u"%1 s of the budget left"_s.arg(seconds(*r.budgetLeftMs)));
    if (r.reason != retry::EndReason::None)
        parts.append(QString::fromLatin1(retry::nameOf(r.reason)));
    if (!r.unpark.isEmpty())
        parts.append(r.unpark);
    if (r.resetAt.isValid())
        parts.append(u"reset at "_s + localTime(r.resetAt, u"yyyy-MM-dd HH:mm:ss"_s));
    QString line
        = u"  %1  request %2, attempt %3: %4"_s.arg(localTime(r.time, u"yyyy-MM-dd HH:mm:ss.zzz"_s))
              .arg(r.request)
              .arg(r.attempt)
              .arg(r.event);
    if (!parts.isEmpty())
        line += u", "_s + parts.join(u", "_s);
    if (!r.error.isEmpty())
        line += u": "_s + r.error.simplified();
    return line;
}

int runShow(history::HistoryStore *store, const QString &idText, const QString &format)
{
    const auto resolved = resolve(store, idText);
    if (const int *code = std::get_if<int>(&resolved))
        return *code;
    const auto &c = std::get<history::Conversation>(resolved);
    const QList<history::StoredRetryRecord> records = store->retryRecords(c.id);
    Output out;
    if (format == u"csv") {
        out.device()->write(exportCsvHeader().append("\r\n"));
        for (const history::StoredRetryRecord &r : records)
            out.device()->write(exportCsvRow(r).append("\r\n"));
        return ExitOk;
    }
    if (format == u"jsonl") {
        for (const history::StoredRetryRecord &r : records)
            out.device()->write(exportJsonLine(r).append('\n'));
        return ExitOk;
    }

    const QString when = u"yyyy-MM-dd HH:mm:ss"_s;
    out.write(u"Title:     %1\nID:        %2\nEndpoint:  %3\nModel:     %4\nCreated:   %5\n"
              "Updated:   %6\n"_s.arg(c.title, fullId(c.id), c.endpoint, c.model,
                  localTime(c.created, when), localTime(c.updated, when)));
    int replaced = 0;
    for (const history::Message &m : store->messages(c.id)) {
        if (m.state == history::MessageState::Replaced) { // as the window restores it
            ++replaced;
            continue;
        }
        // How an answer ended and where it was continued (issue 29), after its time.
        QString ending;
        switch (m.end) {
        case retry::AnswerEnd::CutOff:
            ending = u", cut off at the output limit"_s;
            break;
        case retry::AnswerEnd::Interrupted:
            ending = u", interrupted"_s;
            break;
        case retry::AnswerEnd::Empty:
            ending = u", empty"_s;
            break;
        case retry::AnswerEnd::None:
        case retry::AnswerEnd::Complete:
            break;
        }
        if (!m.seams.isEmpty())
            ending += m.seams.size() == 1 ? u", continued once"_s
                                          : u", continued %1 times"_s.arg(m.seams.size());
        out.write(u"\n[%1, %2%3]\n"_s.arg(roleLabel(m), localTime(m.created, when), ending));
        out.write(m.text.endsWith(u'\n') ? m.text : m.text + u'\n');
    }
    if (replaced > 0)
        out.write(u"\n(%1 replaced by Regenerate or Edit and resend, not shown)\n"_s.arg(
            replaced == 1 ? u"1 message"_s : u"%1 messages"_s.arg(replaced)));
    const QList<history::Send> sends = store->sends(c.id);
    out.write(u"\nSends:\n"_s);
    if (sends.isEmpty())
        out.write(u"  none\n"_s);
    for (const history::Send &s : sends) {
        const QString outcome = s.outcome == history::SendOutcome::Running
            ? u"not ended"_s
            : history::nameOf(s.outcome);
        QString line = u"  %1  %2"_s.arg(localTime(s.started, when), outcome);
        if (s.reason != retry::EndReason::None)
            line += u" ("_s + QString::fromLatin1(retry::nameOf(s.reason)) + u')';
        line += u", %1 %2, waited %3 s\n"_s.arg(s.attempts)
                    .arg(s.attempts == 1 ? u"attempt"_s : u"attempts"_s)
                    .arg(seconds(s.waitedMs));
        out.write(line);
    }
    out.write(u"\nRetry log:\n"_s);
    if (records.isEmpty())
        out.write(u"  none\n"_s);
    for (const history::StoredRetryRecord &r : records)
        out.write(describe(r.record) + u'\n');
    return ExitOk;
}

/// `YYYY-MM-DD` (local midnight) or an ISO 8601 date and time (Z or an offset; none: local).
std::optional<QDateTime> parseDate(const QString &text)
{
    if (text.size() == 10) {
        const QDate date = QDate::fromString(text, Qt::ISODate);
        if (!date.isValid())
            return std::nullopt;
        return QDateTime(date, QTime(0, 0));
    }
    if (!text.contains(u'T'))
        return std::nullopt;
    const QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!time.isValid())
        return std::nullopt;
    return time;
}

int runExport(history::HistoryStore *store, const QString &databasePath, bool csv,
    const QDateTime &since, const QDateTime &until, const QString &outPath)
{
    QSaveFile file(outPath);
    Output out;
    QIODevice *device = out.device();
    if (!outPath.isEmpty()) {
        if (!file.open(QIODevice::WriteOnly))
            return argumentError(
                kCommand, u"cannot write '%1': %2"_s.arg(outPath, file.errorString()));
        device = &file;
    }
    bool written = true;
    const auto write = [&](const QByteArray &line) {
        written = device->write(line) == line.size();
        return written;
    };
    if (csv)
        write(exportCsvHeader().append("\r\n"));
    const bool read = !store || !written
        || store->forEachRetryRecord(since, until, [&](const history::StoredRetryRecord &r) {
               return write(csv ? exportCsvRow(r).append("\r\n") : exportJsonLine(r).append('\n'));
           });
    if (!read)
        return databaseError(databasePath, store->lastError());
    if (!outPath.isEmpty()) {
        if (!written || !file.commit()) {
            writeErr(u"capwatch-cli history: error: cannot write '%1': %2\n"_s
                         .arg(outPath, file.errorString())
                         .toUtf8());
            return ExitNetworkOrConfig;
        }
    } else if (!written) {
        return ExitNetworkOrConfig;
    }
    return ExitOk;
}

} // namespace

CommandSpec historySpec()
{
    return {
        kCommand,
        cliText(QT_TRANSLATE_NOOP(
            "cli", "List, show and export the conversations and retry logs capwatch keeps.")),
        u"history list [--limit N] [--json] [--database PATH]\n"
        u"history show ID [--format jsonl|csv] [--database PATH]\n"
        u"history export --format jsonl|csv [--since DATE] [--until DATE] [--out PATH] "
        u"[--database PATH]"_s,
        {
            QCommandLineOption(u"database"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "The history database (default: the window's, history.sqlite in "
                    "capwatch's data folder). It is only read: never created, migrated or "
                    "moved.")),
                u"PATH"_s),
            QCommandLineOption(u"limit"_s,
                cliText(QT_TRANSLATE_NOOP(
                    "cli", "list: how many conversations, newest first (default: 20).")),
                u"N"_s, QString::number(kDefaultLimit)),
            QCommandLineOption(u"json"_s,
                cliText(QT_TRANSLATE_NOOP("cli", "list: a JSON array instead of the table."))),
            QCommandLineOption(u"format"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "export (required), show: the retry records as jsonl (JSON Lines) or csv.")),
                u"FORMAT"_s),
            QCommandLineOption(u"since"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "export: records from DATE on, YYYY-MM-DD (local midnight) or an ISO 8601 "
                    "date and time (with Z or an offset; without, local time).")),
                u"DATE"_s),
            QCommandLineOption(u"until"_s,
                cliText(QT_TRANSLATE_NOOP(
                    "cli", "export: records before DATE, written as for --since.")),
                u"DATE"_s),
            QCommandLineOption(u"out"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "export: write the file PATH, complete or not at all, instead of standard "
                    "output.")),
                u"PATH"_s),
        },
        cliText(QT_TRANSLATE_NOOP("cli", "Subcommands:")),
        {
            { u"list"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "The newest conversations: ID (its first 8 digits), last update (local "
                    "time), marks (R: retried, U: unanswered), model, title.")) },
            { u"show"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "One conversation by its ID (the UUID, or a unique prefix of at least 8 "
                    "digits): header, transcript, sends and retry log.")) },
            { u"export"_s,
                cliText(QT_TRANSLATE_NOOP("cli",
                    "Every retry record from --since until --until, oldest first: the retry "
                    "log's columns, then conversation.")) },
        },
    };
}

int runHistory(const QStringList &args)
{
    const CommandSpec spec = historySpec();
    QCommandLineParser parser;
    if (const auto done = parseCommandWithArguments(spec, args, parser, 2))
        return *done;
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty())
        return argumentError(kCommand, u"a subcommand is required (list, show, export)"_s);
    const QString sub = positional.constFirst();
    QStringList allowed { u"database"_s, u"help"_s };
    if (sub == u"list")
        allowed << u"limit"_s << u"json"_s;
    else if (sub == u"show")
        allowed << u"format"_s;
    else if (sub == u"export")
        allowed << u"format"_s << u"since"_s << u"until"_s << u"out"_s;
    else
        return argumentError(
            kCommand, u"unknown subcommand '%1' (one of: list, show, export)"_s.arg(sub));
    for (const QString &name : parser.optionNames()) {
        if (!allowed.contains(name))
            return argumentError(kCommand, u"--%1 does not apply to 'history %2'"_s.arg(name, sub));
    }
    if (sub == u"show" && positional.size() < 2)
        return argumentError(kCommand, u"'history show' needs a conversation ID"_s);
    if (sub != u"show" && positional.size() > 1)
        return argumentError(kCommand, u"unexpected argument '%1'"_s.arg(positional.at(1)));

    int limit = kDefaultLimit;
    if (sub == u"list") {
        bool ok = false;
        limit = parser.value(u"limit"_s).toInt(&ok);
        if (!ok || limit < 1)
            return argumentError(kCommand,
                u"--limit takes a whole number from 1, not '%1'"_s.arg(parser.value(u"limit"_s)));
    }
    const QString format = parser.value(u"format"_s);
    if (sub == u"export" && !parser.isSet(u"format"_s))
        return argumentError(kCommand, u"'history export' needs --format jsonl or --format csv"_s);
    if (parser.isSet(u"format"_s) && format != u"jsonl" && format != u"csv")
        return argumentError(kCommand, u"--format takes jsonl or csv, not '%1'"_s.arg(format));
    QDateTime since;
    QDateTime until;
    const std::pair<QString, QDateTime *> bounds[]
        = { { u"since"_s, &since }, { u"until"_s, &until } };
    for (const auto &[name, bound] : bounds) {
        if (!parser.isSet(name))
            continue;
        const std::optional<QDateTime> date = parseDate(parser.value(name));
        if (!date)
            return argumentError(kCommand,
                u"--%1 takes YYYY-MM-DD or an ISO 8601 date and time such as "
                "2026-11-29T20:05:00Z, not '%2'"_s.arg(name, parser.value(name)));
        *bound = *date;
    }
    if (since.isValid() && until.isValid() && since >= until)
        return argumentError(kCommand, u"--since must be earlier than --until"_s);
    if (parser.isSet(u"out"_s) && parser.value(u"out"_s).isEmpty())
        return argumentError(kCommand, u"--out takes a file name"_s);

    const QString path
        = parser.isSet(u"database"_s) ? parser.value(u"database"_s) : defaultDatabasePath();
    history::HistoryStore store;
    std::unique_ptr<QTemporaryDir> copies; // made only to upgrade a copy of an older file
    const Opened opened = openForReading(kCommand, path, store, copies);
    if (opened == Opened::Failed)
        return ExitNetworkOrConfig;
    history::HistoryStore *reading = opened == Opened::Ready ? &store : nullptr;
    if (sub == u"list")
        return runList(reading, limit, parser.isSet(u"json"_s));
    if (sub == u"show")
        return runShow(reading, positional.at(1), format);
    return runExport(reading, path, format == u"csv", since, until, parser.value(u"out"_s));
}

} // namespace capwatch::cli
