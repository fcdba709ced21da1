// A second process for tst_historystore: writes COUNT messages and COUNT retry records into the
// history database at DB, each its own transaction, and prints one line per committed write
// ("m <uuid>", "r <request>") so the test knows exactly what was written before it killed or
// joined this process. The first line says how the database was opened ("o opened", "o created",
// "o recovered"). After each record a usage row ("g <request>"). With `park` it first parks two
// sends of its prompt and removes the first
// ("p <uuid>", "u <uuid>", "p <uuid>"), so a test can kill it with one parked send stored.
//
//   historyhelper DB COUNT TAG [park]

#include "history/historystore.h"

#include <QCoreApplication>
#include <cstdio>

using namespace capwatch::history;
using namespace Qt::StringLiterals;

namespace {

void say(const QString &line)
{
    std::fputs(qPrintable(line + u'\n'), stdout);
    std::fflush(stdout);
}

/// The `n`th park of the send: due `n` seconds after 10:00 on 1 November 2026.
ParkedSend parkedOf(
    const QUuid &conversation, const QUuid &message, const QUuid &send, const QString &tag, int n)
{
    ParkedSend p;
    p.conversation = conversation;
    p.message = message;
    p.send = send;
    p.provider = u"demo"_s;
    p.model = tag;
    p.options = u"{\"max_tokens\":%1}"_s.arg(n);
    p.dueAt = QDateTime(QDate(2026, 11, 1), QTime(10, 0), Qt::UTC).addSecs(n);
    p.resetAt = p.dueAt;
    p.parksInARow = n;
    return p;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() != 4 && (args.size() != 5 || args.at(4) != u"park"_s)) {
        std::fputs("usage: historyhelper DB COUNT TAG [park]\n", stderr);
        return 2;
    }
    const bool park = args.size() == 5;
    const int count = args.at(2).toInt();
    const QString tag = args.at(3);

    HistoryStore store;
    const OpenResult opened = store.open(args.at(1));
    if (!opened.persistent()) {
        std::fprintf(stderr, "%s\n", qPrintable(opened.message()));
        return 1;
    }
    switch (opened.status) {
    case OpenResult::Status::Opened:
        say(u"o opened"_s);
        break;
    case OpenResult::Status::Created:
        say(u"o created"_s);
        break;
    default:
        say(u"o recovered"_s);
        break;
    }
    Conversation c;
    c.endpoint = u"http://127.0.0.1:1/v1"_s;
    c.model = tag;
    Message prompt { {}, {}, Role::User, u"prompt of "_s + tag };
    Send send;
    if (!store.addConversation(c) || !(prompt.conversation = c.id, store.addMessage(prompt))
        || !(send.conversation = c.id, send.message = prompt.id, store.addSend(send))) {
        std::fprintf(stderr, "%s\n", qPrintable(store.lastError()));
        return 1;
    }
    say(u"c "_s + c.id.toString(QUuid::WithoutBraces));
    if (park) {
        const auto failed = [&store] {
            std::fprintf(stderr, "%s\n", qPrintable(store.lastError()));
            return 1;
        };
        ParkedSend first = parkedOf(c.id, prompt.id, send.id, tag, 1);
        ParkedSend second = parkedOf(c.id, prompt.id, send.id, tag, 2);
        if (!store.addParkedSend(first))
            return failed();
        say(u"p "_s + first.id.toString(QUuid::WithoutBraces));
        if (!store.removeParkedSend(first.id))
            return failed();
        say(u"u "_s + first.id.toString(QUuid::WithoutBraces));
        if (!store.addParkedSend(second))
            return failed();
        say(u"p "_s + second.id.toString(QUuid::WithoutBraces));
    }
    for (int i = 1; i <= count; ++i) {
        Message m { {}, c.id, Role::Assistant, u"answer %1 of %2"_s.arg(i).arg(tag) };
        if (!store.addMessage(m)) {
            std::fprintf(stderr, "%s\n", qPrintable(store.lastError()));
            return 1;
        }
        say(u"m "_s + m.id.toString(QUuid::WithoutBraces));
        RetryRecord r;
        r.time = QDateTime::currentDateTimeUtc();
        r.request = i;
        r.event = u"retry_scheduled"_s;
        r.attempt = 1;
        r.status = 422;
        r.category = capwatch::retry::Category::TokenLimit;
        r.waitMs = 1000;
        r.error = u"Token limit exceeded"_s;
        if (!store.addRetryRecord(send.id, r)) {
            std::fprintf(stderr, "%s\n", qPrintable(store.lastError()));
            return 1;
        }
        say(u"r "_s + QString::number(i));
        UsageRecord usage;
        usage.endpoint = c.endpoint;
        usage.model = tag;
        usage.conversation = c.id;
        usage.send = send.id;
        usage.request = i;
        usage.attempt = 1;
        usage.status = 422;
        usage.category = u"token_limit"_s;
        usage.promptTokens = 100 + i;
        usage.estimated = true;
        if (!store.addUsage(usage)) {
            std::fprintf(stderr, "%s\n", qPrintable(store.lastError()));
            return 1;
        }
        say(u"g "_s + QString::number(i));
    }
    return 0;
}
