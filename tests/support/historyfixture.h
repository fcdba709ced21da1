#pragma once

// History databases for window tests, written with a HistoryStore on the test's thread before
// the window's writer opens them. Header-only.

#include "history/historystore.h"

#include <QDateTime>
#include <QString>
#include <QUuid>

namespace capwatch::testing {

struct FixtureConversation
{
    QString prompt;
    QString answer = QStringLiteral("An answer.");
    QDateTime when; ///< invalid: now
    bool retries = false; ///< a headline 422, a retry_scheduled record, then success
    bool unanswered = false; ///< the send gave up
};

/// Adds one conversation (prompt, answer, send and its records) to an open store; its id.
inline QUuid addFixtureConversation(history::HistoryStore &store, const FixtureConversation &f)
{
    const QDateTime when = f.when.isValid() ? f.when : QDateTime::currentDateTimeUtc();
    history::Conversation c;
    c.endpoint = QStringLiteral("http://127.0.0.1:8000/v1");
    c.model = QStringLiteral("capwatch-demo");
    c.created = when;
    c.updated = when;
    store.addConversation(c);
    history::Message user;
    user.conversation = c.id;
    user.text = f.prompt;
    user.created = when;
    user.ended = when;
    store.addMessage(user);
    history::Send send;
    send.conversation = c.id;
    send.message = user.id;
    send.started = when;
    store.addSend(send);
    history::RetryRecord first;
    first.time = when;
    first.request = 1;
    first.event = QStringLiteral("attempt_started");
    first.attempt = 1;
    store.addRetryRecord(send.id, first);
    if (f.retries) {
        history::RetryRecord scheduled = first;
        scheduled.event = QStringLiteral("retry_scheduled");
        scheduled.status = 422;
        scheduled.category = retry::Category::TokenLimit;
        scheduled.used = 60323;
        scheduled.limit = 60000;
        scheduled.waitMs = 60000;
        scheduled.rawWaitMs = 1080000;
        scheduled.waitSource = retry::WaitSource::Message;
        scheduled.waitedTotalMs = 0;
        scheduled.budgetLeftMs = 120000;
        store.addRetryRecord(send.id, scheduled);
    }
    if (!f.unanswered) {
        history::Message answer;
        answer.conversation = c.id;
        answer.role = history::Role::Assistant;
        answer.text = f.answer;
        answer.created = when;
        answer.ended = when;
        store.addMessage(answer);
    }
    store.finishSend(send.id,
        f.unanswered ? history::SendOutcome::GaveUp : history::SendOutcome::Succeeded,
        f.unanswered ? retry::EndReason::NotRetryable : retry::EndReason::None, f.retries ? 2 : 1,
        f.retries ? 60000 : 0, when);
    return c.id;
}

/// `count` conversations "Conversation N", one minute apart, the last one newest.
inline QList<QUuid> writeFixtureDatabase(
    const QString &path, int count, const QDateTime &newest = QDateTime::currentDateTimeUtc())
{
    history::HistoryStore store;
    store.open(path);
    QList<QUuid> ids;
    store.begin();
    for (int i = 0; i < count; ++i) {
        FixtureConversation f;
        f.prompt = QStringLiteral("Conversation %1 about token caps").arg(i);
        f.when = newest.addSecs(-60 * (count - 1 - i));
        ids.append(addFixtureConversation(store, f));
    }
    store.commit();
    store.close();
    return ids;
}

} // namespace capwatch::testing
