// A provider profile's policy end to end (issue 17, docs/retry-policy.md section 9): the
// ChatClient with a profile's limits against the demo provider, time-scaled. The headline
// scenario with a 5 s cap, a 12 s budget and 3 attempts waits 5 and 5 and gives up; a 0 s budget
// is one attempt; every record carries the profile; a profile's headers and key go to its own
// endpoint only.

#include "demo/demoprovider.h"
#include "net/chatclient.h"
#include "net/retrylog.h"

#include <QSignalSpy>
#include <QTest>
#include <memory>

using namespace capwatch;
using namespace capwatch::net;
using namespace capwatch::demo;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

constexpr double kScale = 0.01; // a 5 s wait takes 50 ms

retry::PolicyLimits headlineProfile()
{
    retry::PolicyLimits l;
    l.waitCap = 5s;
    l.budget = 12s;
    l.maxAttempts = 3;
    return l;
}

std::shared_ptr<CredentialProvider> keyed(const QByteArray &key)
{
    return std::make_shared<CallbackCredentialProvider>(
        u"keychain entry"_s, [key](const CredentialProvider::Done &done) {
            done({ key, u"keychain entry"_s, {} });
        });
}

struct Run
{
    explicit Run(ChatClient &client)
        : started(&client, &ChatClient::attemptStarted)
        , scheduled(&client, &ChatClient::retryScheduled)
        , gaveUp(&client, &ChatClient::gaveUp)
        , succeeded(&client, &ChatClient::succeeded)
    { }
    bool wait()
    {
        return QTest::qWaitFor([this] { return gaveUp.size() + succeeded.size() > 0; }, 20000);
    }
    SendSummary summary() const
    {
        const QSignalSpy &end = gaveUp.isEmpty() ? succeeded : gaveUp;
        return end.constFirst().at(1).value<SendSummary>();
    }
    QSignalSpy started;
    QSignalSpy scheduled;
    QSignalSpy gaveUp;
    QSignalSpy succeeded;
};

struct Provider
{
    explicit Provider(const QString &scenario)
    {
        DemoOptions options;
        options.scenario = scenario;
        options.timeScale = kScale;
        demo.setOptions(options);
        listening = demo.listen();
    }
    ChatRequest request() const
    {
        ChatRequest r;
        r.endpoint = demo.baseUrl();
        r.model = u"capwatch-demo"_s;
        r.messages = { { u"user"_s, u"Tell me about token caps."_s } };
        return r;
    }
    DemoProvider demo;
    bool listening = false;
};

} // namespace

class TestProfilePolicy final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void headlineWithAFiveSecondCap();
    void zeroBudgetIsOneAttempt();
    void everyRecordCarriesTheProfileItWasSentWith();
    void extraHeadersGoWithEveryAttempt();
    void oneProfilesKeyNeverReachesAnother();

private:
    std::unique_ptr<ChatClient> m_client;
    std::unique_ptr<RetryLog> m_log;
};

void TestProfilePolicy::init()
{
    m_log = std::make_unique<RetryLog>();
    m_client = std::make_unique<ChatClient>();
    m_client->setTimeScale(kScale);
    m_client->setRetryLog(m_log.get());
    m_client->setCredentialProvider(std::make_shared<NoCredentialProvider>());
}

void TestProfilePolicy::headlineWithAFiveSecondCap()
{
    Provider provider(u"headline"_s);
    QVERIFY(provider.listening);
    m_client->setPolicyLimits(headlineProfile());
    m_client->setProfileName(u"Free tier"_s);
    Run run(*m_client);
    m_client->send(provider.request());
    QVERIFY(run.wait());

    QCOMPARE(run.gaveUp.size(), 1);
    const SendSummary s = run.summary();
    QCOMPARE(s.reason, retry::EndReason::AttemptsExhausted);
    QCOMPARE(s.attempts, 3);
    QCOMPARE(s.waited, 10s);
    QCOMPARE(s.status, 422);
    QCOMPARE(provider.demo.chatRequests(), 3);

    // The panel's figures: attempt n of 3, waits of 5 s with the raw 1080 s, the budget left.
    QCOMPARE(run.started.size(), 3);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(run.started.at(i).at(1).toInt(), i + 1);
        QCOMPARE(run.started.at(i).at(2).toInt(), 3);
    }
    QCOMPARE(run.scheduled.size(), 2);
    const RetryInfo first = run.scheduled.at(0).at(1).value<RetryInfo>();
    const RetryInfo second = run.scheduled.at(1).at(1).value<RetryInfo>();
    QCOMPARE(first.wait, 5s);
    QCOMPARE(first.rawWait, 1080s);
    QCOMPARE(first.budgetLeft, 7s);
    QCOMPARE(second.wait, 5s);
    QCOMPARE(second.waitedTotal, 10s);
    QCOMPARE(second.budgetLeft, 2s);
    QCOMPARE(m_client->policy()->limits(), headlineProfile());

    // The final text with the profile's numbers.
    QVERIFY2(s.finalErrorText.endsWith(u"\n  attempts: 3 of 3, waited 10.0 s of the 12 s "
                                       u"budget; gave up: attempts_exhausted"_s),
        qPrintable(s.finalErrorText));

    // The log: budget_left 7 then 2, the end with its reason, every record the profile's.
    const QList<RetryRecord> &log = m_log->records();
    QStringList events;
    for (const RetryRecord &r : log) {
        events.append(RetryRecord::eventName(r.event));
        QCOMPARE(r.profile, u"Free tier"_s);
        QVERIFY(r.fallbackTo.isEmpty());
    }
    QCOMPARE(events,
        (QStringList { u"attempt_started"_s, u"retry_scheduled"_s, u"attempt_started"_s,
            u"retry_scheduled"_s, u"attempt_started"_s, u"gave_up"_s }));
    QCOMPARE(log[1].waitMs.value_or(-1), 5000);
    QCOMPARE(log[1].rawWaitMs.value_or(-1), 1080000);
    QCOMPARE(log[1].budgetLeftMs.value_or(-1), 7000);
    QCOMPARE(log[3].budgetLeftMs.value_or(-1), 2000);
    QCOMPARE(log[3].waitedTotalMs.value_or(-1), 10000);
    QCOMPARE(log[5].reason, retry::EndReason::AttemptsExhausted);
    QVERIFY(toJsonLine(log[5]).endsWith(
        R"("profile":"Free tier","fallback_to":null,"answer_end":null})"));
}

void TestProfilePolicy::zeroBudgetIsOneAttempt()
{
    Provider provider(u"headline"_s);
    QVERIFY(provider.listening);
    retry::PolicyLimits limits;
    limits.budget = 0s;
    m_client->setPolicyLimits(limits);
    Run run(*m_client);
    m_client->send(provider.request());
    QVERIFY(run.wait());
    QCOMPARE(run.gaveUp.size(), 1);
    QCOMPARE(run.summary().reason, retry::EndReason::BudgetExhausted);
    QCOMPARE(run.summary().attempts, 1);
    QCOMPARE(run.scheduled.size(), 0);
    QCOMPARE(provider.demo.chatRequests(), 1);
    QVERIFY2(run.summary().finalErrorText.endsWith(u"attempts: 1 of 1, waited 0.0 s of the 0 s "
                                                   u"budget; gave up: budget_exhausted"_s),
        qPrintable(run.summary().finalErrorText));
    QCOMPARE(m_log->records().size(), 2);
    QVERIFY(!m_log->records().constLast().budgetLeftMs);
}

void TestProfilePolicy::everyRecordCarriesTheProfileItWasSentWith()
{
    Provider provider(u"rate-limited"_s); // 429, 429, then an answer
    QVERIFY(provider.listening);
    m_client->setProfileName(u"Paid"_s);
    Run run(*m_client);
    connect(m_client.get(), &ChatClient::retryScheduled, this,
        [this] { m_client->setProfileName(u"Local"_s); }); // for the next send only
    m_client->send(provider.request());
    QVERIFY(run.wait());
    QCOMPARE(run.succeeded.size(), 1);
    QVERIFY(m_log->records().size() >= 5);
    for (const RetryRecord &r : m_log->records())
        QCOMPARE(r.profile, u"Paid"_s);

    m_log->clear();
    Run next(*m_client);
    m_client->setProfileName(QString());
    m_client->send(provider.request());
    QVERIFY(next.wait());
    QCOMPARE(next.succeeded.size(), 1);
    // The loop below checks every record: there must be some (at least the attempt and its end).
    const QList<RetryRecord> &records = m_log->records();
    QVERIFY2(records.size() >= 2, qPrintable(QString::number(records.size())));
    QCOMPARE(records.constFirst().event, RetryRecord::Event::AttemptStarted);
    QCOMPARE(records.constLast().event, RetryRecord::Event::Succeeded);
    for (const RetryRecord &r : records) {
        QVERIFY(r.profile.isEmpty());
        // The send's last record says how its answer ended; the others carry no end.
        QVERIFY(toJsonLine(r).endsWith(r.event == RetryRecord::Event::Succeeded
                ? R"("profile":null,"fallback_to":null,"answer_end":"complete"})"
                : R"("profile":null,"fallback_to":null,"answer_end":null})"));
    }
}

void TestProfilePolicy::extraHeadersGoWithEveryAttempt()
{
    Provider provider(u"rate-limited"_s);
    QVERIFY(provider.listening);
    m_client->setCredentialProvider(keyed("sk-profile-one"));
    ChatRequest request = provider.request();
    request.extraHeaders = { { "X-Title", "capwatch" }, { "authorization", "Bearer sk-other" },
        { "X-Bad", "a\r\nInjected: yes" } };
    Run run(*m_client);
    m_client->send(request);
    QVERIFY(run.wait());
    const QList<RecordedRequest> requests = provider.demo.recordedRequests();
    QCOMPARE(requests.size(), 3);
    for (const RecordedRequest &r : requests) {
        QCOMPARE(r.header("X-Title"), QByteArray("capwatch"));
        QVERIFY(r.header("X-Bad").isNull());
        QVERIFY(r.header("Injected").isNull());
    }
    QVERIFY(provider.demo.sawKey("sk-profile-one"));
    QVERIFY(!provider.demo.sawKey("sk-other"));
    QCOMPARE(provider.demo.requestsWithoutKey(), 0);
}

void TestProfilePolicy::oneProfilesKeyNeverReachesAnother()
{
    // Two profiles, each with its own provider and key: a capped send on the first, then the
    // same prompt to the second (what a fallback does).
    Provider first(u"headline"_s);
    Provider second(u"capped"_s);
    QVERIFY(first.listening && second.listening);
    m_client->setPolicyLimits(headlineProfile());
    m_client->setProfileName(u"Free tier"_s);
    m_client->setCredentialProvider(keyed("key-of-free-tier"));
    Run capped(*m_client);
    m_client->send(first.request());
    QVERIFY(capped.wait());
    QCOMPARE(capped.gaveUp.size(), 1);

    m_client->setPolicyLimits({});
    m_client->setProfileName(u"Paid"_s);
    m_client->setCredentialProvider(keyed("key-of-paid"));
    Run answered(*m_client);
    m_client->send(second.request());
    QVERIFY(answered.wait());
    QCOMPARE(answered.succeeded.size(), 1);

    QVERIFY(first.demo.sawKey("key-of-free-tier"));
    QVERIFY(!first.demo.sawKey("key-of-paid"));
    QVERIFY(second.demo.sawKey("key-of-paid"));
    QVERIFY(!second.demo.sawKey("key-of-free-tier"));
    QCOMPARE(first.demo.chatRequests(), 3);
    QCOMPARE(second.demo.chatRequests(), 1);
    // The log tells the two sends apart by profile.
    QCOMPARE(m_log->records().constFirst().profile, u"Free tier"_s);
    QCOMPARE(m_log->records().constLast().profile, u"Paid"_s);
}

QTEST_GUILESS_MAIN(TestProfilePolicy)
#include "tst_profilepolicy.moc"
