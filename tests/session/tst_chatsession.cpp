// The conversation without a widget: ChatSession against the embedded demo provider on its own
// thread, time-scaled. A whole retry cycle (to an answer, and to the end of the 120 s budget),
// a cancel during a wait, a failed send that keeps its prompt, and the latest send winning.
// This test links no Qt Widgets: the session works with no window at all.

#include "session/chatsession.h"
#include "support/demolocalprovider.h"
#include "support/sendsteps.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>
#include <optional>

using namespace capwatch;
using namespace capwatch::session;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

constexpr double kScale = 0.02; // a 60 s wait takes 1.2 s

demo::DemoOptions scenario(const QString &name)
{
    demo::DemoOptions o;
    o.scenario = name;
    return o;
}

/// A session on the demo, as the window sets one up.
struct Fixture
{
    explicit Fixture(const QString &name, double scale = kScale)
        : demo(scenario(name))
    {
        session.setTimeScale(scale);
        session.provider().setLocalProvider(&demo);
        ProviderChoice choice;
        choice.demo = true;
        session.setProvider(choice);
    }
    testing::ThreadedDemo demo;
    ChatSession session;
};

} // namespace

class TestChatSession final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void usesTheDemoThroughTheHook();
    void wholeRetryCycleToAnAnswer();
    void wholeRetryCycleUntilTheBudgetIsSpent();
    void cancelDuringAWait();
    void failedSendKeepsThePrompt();
    void latestSendWins();
    void editAndRegenerateReplaceTheLastExchange();
    void keychainFactoryGetsTheProfilesEntry();
    void sendRunsUnderTheProfilesLimits();
    void theEndStateComesWithItsOffersBeforeTheEnd();
};

void TestChatSession::usesTheDemoThroughTheHook()
{
    Fixture f(u"capped"_s);
    QVERIFY(f.session.provider().usingDemo());
    QVERIFY(f.session.provider().endpoint().isValid());
    QCOMPARE(f.session.provider().endpoint().host(), u"127.0.0.1"_s);
    QCOMPARE(f.session.provider().model(), u"capwatch-demo"_s);
    QCOMPARE(f.session.provider().keyStatus().kind, KeyStatus::Kind::NotNeeded);
    QVERIFY(!f.session.provider().needsPlainHttpConsent());

    // Leaving the demo lets it go; the endpoint and model are then the chosen ones.
    ProviderChoice other;
    other.endpoint = QUrl(u"https://api.example.invalid/v1"_s);
    other.model = u"  some-model  "_s;
    other.keySource = ProviderChoice::KeySource::Environment;
    other.keyVariable = u"CAPWATCH_TEST_UNSET_VARIABLE"_s;
    other.keySourceText = u"CAPWATCH_TEST_UNSET_VARIABLE"_s;
    f.session.setProvider(other);
    QVERIFY(!f.session.provider().usingDemo());
    QCOMPARE(f.session.provider().endpoint(), other.endpoint);
    QCOMPARE(f.session.provider().model(), u"some-model"_s);
    const KeyStatus key = f.session.provider().keyStatus();
    QCOMPARE(key.kind, KeyStatus::Kind::Missing);
    QCOMPARE(key.source, u"CAPWATCH_TEST_UNSET_VARIABLE"_s);
}

void TestChatSession::wholeRetryCycleToAnAnswer()
{
    // rate-limited: 429 + retry-after: 2 twice, then the answer. Every step reaches the views in
    // order, each wait ticks down, and the exchange joins the history.
    Fixture f(u"rate-limited"_s, 0.25); // a 2 s wait takes 0.5 s: ten ticks
    QSignalSpy started(&f.session, &ChatSession::sendStarted);
    testing::SendSteps steps(&f.session);
    QSignalSpy text(&f.session, &ChatSession::answerText);
    QSignalSpy succeeded(&f.session, &ChatSession::succeeded);

    const quint64 id = f.session.send(u"How do caps work?"_s, {});
    QVERIFY(id > 0);
    QCOMPARE(f.session.currentSend(), id);
    QVERIFY(f.session.busy());
    QCOMPARE(started.count(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 1, 10000);
    QVERIFY(!f.session.busy());
    QCOMPARE(succeeded.first().at(0).toULongLong(), id);
    QCOMPARE(steps.attempts().size(), 3);
    QCOMPARE(steps.failures().size(), 2);
    QCOMPARE(steps.retries().size(), 2);
    for (const net::RetryInfo &info : steps.retries()) {
        QCOMPARE(info.wait, 2000ms);
        QCOMPARE(info.source, retry::WaitSource::RetryAfter);
    }

    // The ticker: during each wait the countdown falls and the budget with it; the attempt the
    // wait leads to and the cause of the failure ride along.
    const QList<SendState> all = steps.states();
    const QList<SendState> waiting = steps.waiting();
    for (const SendState &p : all)
        QCOMPARE(p.send, id);
    QVERIFY2(waiting.size() >= 10, qPrintable(QString::number(waiting.size())));
    for (qsizetype i = 1; i < waiting.size(); ++i) {
        const SendState &a = waiting.at(i - 1);
        const SendState &b = waiting.at(i);
        QCOMPARE(b.wait, 2000ms);
        QCOMPARE(b.source, retry::WaitSource::RetryAfter);
        QCOMPARE(b.failureCategory(), u"rate_limit"_s);
        QVERIFY(b.waitLeft + b.waitElapsed() <= b.wait);
        if (a.attempt == b.attempt) {
            QVERIFY(b.waitLeft <= a.waitLeft);
            QVERIFY(b.budgetLeft <= a.budgetLeft);
        } else {
            QCOMPARE(b.attempt, a.attempt + 1);
        }
    }
    QCOMPARE(waiting.first().attempt, 2);
    QCOMPARE(waiting.last().attempt, 3);
    // The last word: answered on attempt 3, not waiting, the two waits spent of the budget.
    const SendState last = all.last();
    QCOMPARE(last.phase, SendPhase::Succeeded);
    QCOMPARE(last.attempt, 3);
    QVERIFY(!last.waiting());
    QCOMPARE(last.waitLeft, 0ms);
    QCOMPARE(last.budgetLeft, retry::kRetryBudget - 4000ms);
    QCOMPARE(f.session.sendState().budgetLeft, last.budgetLeft);

    // The history holds the exchange, the answer as it streamed in.
    QString answer;
    for (const QList<QVariant> &t : text)
        answer += t.at(1).toString();
    QVERIFY(!answer.isEmpty());
    QCOMPARE(f.session.history().size(), 2);
    QCOMPARE(f.session.history().at(0).role, u"user"_s);
    QCOMPARE(f.session.history().at(0).content, u"How do caps work?"_s);
    QCOMPARE(f.session.history().at(1).role, u"assistant"_s);
    QCOMPARE(f.session.history().at(1).content, answer);
    QVERIFY(f.session.hasLastExchange());
    QCOMPARE(f.session.lastPrompt(), u"How do caps work?"_s);
    QVERIFY(f.session.failedPrompt().isEmpty());

    // The retry log has the cycle; the next send carries the history.
    QCOMPARE(f.session.retryLog()->records().last().event, net::RetryRecord::Event::Succeeded);
    f.session.send(u"And then?"_s, {});
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 2, 10000);
    const demo::RecordedRequest second = f.demo.chats().last();
    const QJsonArray messages = second.json().value(u"messages"_s).toArray();
    QCOMPARE(messages.size(), 3);
    QCOMPARE(messages.at(1).toObject().value(u"content"_s).toString(), answer);
    QCOMPARE(second.lastUserMessage(), u"And then?"_s);
}

void TestChatSession::wholeRetryCycleUntilTheBudgetIsSpent()
{
    // headline: "Retry in 18 min." every time, capped to 60 s; two waits spend the 120 s.
    Fixture f(u"headline"_s);
    testing::SendSteps steps(&f.session);
    QSignalSpy gaveUp(&f.session, &ChatSession::gaveUp);
    f.session.send(u"Over the cap"_s, {});
    QTRY_COMPARE_WITH_TIMEOUT(gaveUp.count(), 1, 15000);
    QCOMPARE(steps.retries().size(), 2);
    const auto summary = gaveUp.first().at(1).value<net::SendSummary>();
    QCOMPARE(summary.reason, retry::EndReason::BudgetExhausted);
    QCOMPARE(summary.attempts, 3);
    const SendState last = steps.states().last();
    QCOMPARE(last.phase, SendPhase::GaveUp);
    QCOMPARE(last.reason, retry::EndReason::BudgetExhausted);
    QCOMPARE(last.budgetLeft, 0ms);
    QCOMPARE(last.failureCategory(), u"token_limit"_s);
    QCOMPARE(last.used, 60323.0);
    QCOMPARE(last.limit, 60000.0);
    // A failed send keeps its prompt, for "Retry now".
    QCOMPARE(f.session.failedPrompt(), u"Over the cap"_s);
    QVERIFY(f.session.history().isEmpty());
    QVERIFY(!f.session.hasLastExchange());
}

void TestChatSession::cancelDuringAWait()
{
    Fixture f(u"headline"_s);
    testing::SendSteps steps(&f.session);
    QSignalSpy cancelled(&f.session, &ChatSession::cancelled);
    const quint64 id = f.session.send(u"Cancel me"_s, {});
    QTRY_COMPARE_WITH_TIMEOUT(steps.retries().size(), 1, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(f.session.sendState().waitLeft <= 45s, 5000);
    f.session.cancel();
    QCOMPARE(cancelled.count(), 1);
    QCOMPARE(cancelled.first().at(0).toULongLong(), id);
    const auto summary = cancelled.first().at(1).value<net::SendSummary>();
    QVERIFY(summary.cutWait);
    QVERIFY(*summary.cutWait >= 15s && *summary.cutWait < 60s);
    QVERIFY(!f.session.busy());

    // The views hear once more, no longer waiting, with the budget as far as the wait ran; then
    // the ticker is quiet.
    const SendState last = steps.states().last();
    QCOMPARE(last.phase, SendPhase::Cancelled);
    QVERIFY(!last.waiting());
    QCOMPARE(last.cutWait, summary.cutWait);
    QCOMPARE(last.budgetLeft, retry::kRetryBudget - *summary.cutWait);
    const qsizetype ticks = steps.states().size();
    QSignalSpy sentinel(&f.session, &ChatSession::sendStarted);
    QVERIFY(!sentinel.wait(300));
    QCOMPARE(steps.states().size(), ticks);

    QCOMPARE(f.session.failedPrompt(), u"Cancel me"_s);
    QVERIFY(f.session.history().isEmpty());
    QCOMPARE(f.session.retryLog()->records().last().event, net::RetryRecord::Event::Cancelled);
    QCOMPARE(f.demo.chats().size(), 1); // nothing was sent after the cancel
}

void TestChatSession::failedSendKeepsThePrompt()
{
    // validation: a 422 that is no token limit, not retried.
    Fixture f(u"validation"_s);
    QSignalSpy gaveUp(&f.session, &ChatSession::gaveUp);
    SendOptions options;
    options.systemPrompt = u"Be brief."_s;
    options.maxTokens = 64;
    f.session.send(u"Keep me"_s, options);
    QTRY_COMPARE_WITH_TIMEOUT(gaveUp.count(), 1, 10000);
    QCOMPARE(gaveUp.first().at(1).value<net::SendSummary>().reason, retry::EndReason::NotRetryable);
    QCOMPARE(f.session.failedPrompt(), u"Keep me"_s);
    QVERIFY(f.session.history().isEmpty());

    // Sent again, the same prompt goes out with the options of now.
    const quint64 again = f.session.retryFailed({});
    QVERIFY(again > 0);
    QVERIFY(f.session.failedPrompt().isEmpty()); // in flight again
    QTRY_COMPARE_WITH_TIMEOUT(gaveUp.count(), 2, 10000);
    QCOMPARE(f.session.failedPrompt(), u"Keep me"_s);
    const QList<demo::RecordedRequest> chats = f.demo.chats();
    QCOMPARE(chats.size(), 2);
    QCOMPARE(chats.at(0).lastUserMessage(), u"Keep me"_s);
    QCOMPARE(chats.at(1).lastUserMessage(), u"Keep me"_s);
    const QJsonObject first = chats.at(0).json();
    QCOMPARE(first.value(u"max_tokens"_s).toInt(), 64);
    QCOMPARE(first.value(u"messages"_s).toArray().at(0).toObject().value(u"role"_s).toString(),
        u"system"_s);
    QVERIFY(!chats.at(1).json().contains(u"max_tokens"_s));
    QCOMPARE(chats.at(1).json().value(u"messages"_s).toArray().size(), 1);
}

void TestChatSession::latestSendWins()
{
    // drip: an answer a byte a (scaled) second. The first send is superseded while it streams;
    // nothing of it reaches the views after that, and only the second joins the history.
    Fixture f(u"drip"_s);
    QSignalSpy text(&f.session, &ChatSession::answerText);
    QSignalSpy succeeded(&f.session, &ChatSession::succeeded);
    QSignalSpy cancelled(&f.session, &ChatSession::cancelled);
    testing::SendSteps steps(&f.session);
    const quint64 first = f.session.send(u"First"_s, {});
    QTRY_VERIFY_WITH_TIMEOUT(!text.isEmpty(), 10000);
    const quint64 second = f.session.send(u"Second"_s, {});
    QVERIFY(second > first);
    QCOMPARE(f.session.currentSend(), second);
    QCOMPARE(cancelled.count(), 1);
    QCOMPARE(cancelled.first().at(0).toULongLong(), first);
    const qsizetype before = text.count();
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 1, 20000);
    QCOMPARE(succeeded.first().at(0).toULongLong(), second);
    QString answer;
    for (qsizetype i = before; i < text.count(); ++i) {
        QCOMPARE(text.at(i).at(0).toULongLong(), second);
        answer += text.at(i).at(1).toString();
    }
    for (const SendState &state : steps.states()) {
        const quint64 send = state.send;
        QVERIFY(send == first || send == second);
    }
    QCOMPARE(steps.states().last().send, second);
    QCOMPARE(f.session.history().size(), 2);
    QCOMPARE(f.session.history().at(0).content, u"Second"_s);
    QCOMPARE(f.session.history().at(1).content, answer);
    QVERIFY(f.session.failedPrompt().isEmpty());
}

void TestChatSession::editAndRegenerateReplaceTheLastExchange()
{
    Fixture f(u"capped"_s);
    QSignalSpy succeeded(&f.session, &ChatSession::succeeded);
    f.session.send(u"One"_s, {});
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 1, 10000);
    f.session.send(u"Two"_s, {});
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 2, 10000);
    QCOMPARE(f.session.history().size(), 4);

    // Asked again: the same conversation without the last answer.
    QVERIFY(f.session.regenerate({}) > 0);
    QCOMPARE(f.session.history().size(), 2);
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 3, 10000);
    QCOMPARE(f.session.history().size(), 4);
    QCOMPARE(f.demo.chats().last().lastUserMessage(), u"Two"_s);
    QCOMPARE(f.demo.chats().last().json().value(u"messages"_s).toArray().size(), 3);

    // Edited: the new prompt takes the last one's place, its answer goes with it.
    QVERIFY(f.session.beginEdit());
    QVERIFY(f.session.editing());
    QCOMPARE(f.session.lastPrompt(), u"Two"_s);
    QVERIFY(f.session.sendReplacesLastExchange());
    f.session.send(u"Two, edited"_s, {});
    QVERIFY(!f.session.editing());
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.count(), 4, 10000);
    QCOMPARE(f.session.history().size(), 4);
    QCOMPARE(f.session.history().at(0).content, u"One"_s);
    QCOMPARE(f.session.history().at(2).content, u"Two, edited"_s);
    QCOMPARE(f.demo.chats().last().json().value(u"messages"_s).toArray().size(), 3);
}

void TestChatSession::keychainFactoryGetsTheProfilesEntry()
{
    // Each profile's key has its own keychain entry: the factory is asked for that one.
    ChatSession session;
    QStringList asked;
    session.provider().setKeychain([&asked](const QString &entry) {
        asked.append(entry);
        return std::shared_ptr<net::CredentialProvider>();
    });
    ProviderChoice paid;
    paid.endpoint = QUrl(u"https://api.example.invalid/v1"_s);
    paid.keySource = ProviderChoice::KeySource::Keychain;
    paid.keySourceText = u"system keychain"_s;
    paid.profile = u"paid"_s;
    paid.profileName = u"Paid"_s;
    paid.keychainEntry = u"profile/paid"_s;
    session.setProvider(paid);
    QCOMPARE(asked, QStringList { u"profile/paid"_s });
    QCOMPARE(session.provider().keyStatus().kind, KeyStatus::Kind::Named);
}

void TestChatSession::sendRunsUnderTheProfilesLimits()
{
    // rate-limited: two 429s before the answer. A profile with one attempt gives up after the
    // first, and the progress and attempt counts say "of 1".
    Fixture f(u"rate-limited"_s);
    ProviderChoice one;
    one.demo = true;
    one.profile = u"demo"_s;
    one.profileName = u"Demo"_s;
    one.limits.maxAttempts = 1;
    one.limits.budget = retry::Millis(30'000);
    f.session.setProvider(one);
    QCOMPARE(f.session.sendState().limits.maxAttempts, 1);
    QCOMPARE(f.session.sendState().budgetLeft, retry::Millis(30'000));
    testing::SendSteps steps(&f.session);
    QSignalSpy gaveUp(&f.session, &ChatSession::gaveUp);
    f.session.send(u"only once"_s, {});
    QTRY_COMPARE_WITH_TIMEOUT(gaveUp.count(), 1, 10000);
    QCOMPARE(steps.attempts().size(), 1);
    const auto summary = gaveUp.first().at(1).value<net::SendSummary>();
    QCOMPARE(summary.reason, retry::EndReason::AttemptsExhausted);
    QCOMPARE(f.session.sendState().profileName, u"Demo"_s);
    const SendState last = steps.states().last();
    QCOMPARE(last.limits.maxAttempts, 1);
    QCOMPARE(last.profileName, u"Demo"_s);
    QCOMPARE(f.demo.chats().size(), 1);
}

void TestChatSession::theEndStateComesWithItsOffersBeforeTheEnd()
{
    // The views hear the end with what is offered after it (a park at the provider's reset)
    // before the session's gaveUp(); a park is a state of its own, published once its record
    // is in the log; taken out again, the send shows its end.
    Fixture f(u"headline"_s);
    QList<SendState> seen;
    connect(&f.session, &ChatSession::sendStateChanged, &f.session,
        [&seen](const SendState &s) { seen.append(s); });
    std::optional<SendState> atGaveUp;
    connect(&f.session, &ChatSession::gaveUp, &f.session, [&] { atGaveUp = seen.last(); });
    QSignalSpy gaveUp(&f.session, &ChatSession::gaveUp);
    f.session.send(u"Over the cap"_s, {});
    QTRY_COMPARE_WITH_TIMEOUT(gaveUp.count(), 1, 15000);
    QVERIFY(atGaveUp);
    QCOMPARE(atGaveUp->phase, SendPhase::GaveUp);
    QCOMPARE(atGaveUp->reason, retry::EndReason::BudgetExhausted);
    QVERIFY(atGaveUp->park.parkable);
    QCOMPARE(atGaveUp->park.resetIn, retry::Millis(18 * 60'000));
    QVERIFY(!atGaveUp->fallback.offered); // none is named

    qsizetype recordsAtPark = -1;
    connect(&f.session, &ChatSession::sendStateChanged, &f.session, [&](const SendState &s) {
        if (s.isParked())
            recordsAtPark = f.session.retryLog()->records().size();
    });
    QVERIFY(f.session.park());
    QCOMPARE(f.session.sendState().phase, SendPhase::Parked);
    QVERIFY(f.session.sendState().parked);
    QVERIFY(recordsAtPark > 0);
    QCOMPARE(f.session.retryLog()->records().at(recordsAtPark - 1).event,
        net::RetryRecord::Event::Parked);
    f.session.cancelPark();
    QCOMPARE(f.session.sendState().phase, SendPhase::GaveUp);
    QVERIFY(!f.session.sendState().isParked());
}

QTEST_GUILESS_MAIN(TestChatSession)
#include "tst_chatsession.moc"
