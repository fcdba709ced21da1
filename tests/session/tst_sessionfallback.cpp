// Profiles and the fallback of a capped send without a widget (issue 17, docs/session.md): a
// session on profile A (one demo provider, capped, key `key-A` from an environment variable,
// small limits) with the fallback B (a second demo provider that answers, key `key-B`). The
// send gives up capped and B is offered; sendToFallback() is answered by B; neither provider
// ever saw the other's key; the retry log has the `fallback` record; the stored answer names B;
// an automatic fallback sends by itself; a fallback that ends capped offers nothing further; a
// failure that is not a cap offers nothing; an automatic fallback that would put its key on plain
// HTTP is offered, not sent; the fallback's send is paced by its own lane's window and trimmed by
// its own context window, a trim after its context error resends to it, and a setProvider()
// during it does not cancel it. Both providers run on the test's thread, so every
// Authorization header they receive is seen here unmasked (chatRequestReceived).

#include "demo/demoprovider.h"
#include "history/historystore.h"
#include "history/historywriter.h"
#include "net/chatrequest.h"
#include "session/chatsession.h"
#include "session/providermemory.h"
#include "support/historywriting.h"
#include "support/sendsteps.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace capwatch;
using namespace capwatch::session;
using namespace Qt::StringLiterals;
using Event = net::RetryRecord::Event;

namespace {

constexpr double kScale = 0.02;

/// One demo provider on the test's thread, with every Authorization header it was sent.
struct Provider
{
    explicit Provider(const QString &scenario, qint64 contextWindow = 0)
    {
        demo::DemoOptions o;
        o.scenario = scenario;
        o.timeScale = kScale;
        if (contextWindow > 0)
            o.contextWindow = contextWindow;
        server.setOptions(o);
        QObject::connect(&server, &demo::DemoProvider::chatRequestReceived, &server,
            [this](int, const QByteArray &authorization) { seen.append(authorization); });
    }
    bool listen() { return server.listen(); }
    demo::DemoProvider server;
    QList<QByteArray> seen; ///< the Authorization header of every chat request, in order
};

ProviderChoice profileOf(const QString &id, const QString &name, const QUrl &endpoint,
    const QByteArray &variable, const retry::PolicyLimits &limits)
{
    ProviderChoice c;
    c.endpoint = endpoint;
    c.model = u"gpt-test"_s;
    c.keySource = ProviderChoice::KeySource::Environment;
    c.keyVariable = QString::fromLatin1(variable);
    c.keySourceText = c.keyVariable;
    c.profile = id;
    c.profileName = name;
    c.limits = limits;
    return c;
}

retry::PolicyLimits small()
{
    retry::PolicyLimits l;
    l.waitCap = retry::Millis(1000);
    l.budget = retry::Millis(2000);
    l.maxAttempts = 2;
    return l;
}

/// The lane a send to `endpoint` files its provider's reports under (ChatSession::lane()).
QString laneOf(const QUrl &endpoint)
{
    return history::HistoryStore::storableEndpoint(
        net::chatCompletionsUrl(endpoint).toString(QUrl::RemoveUserInfo));
}

/// A turn's prompt of about 1,200 characters (300 tokens at 4 a token), numbered.
QString longPrompt(int n)
{
    return u"Turn %1: "_s.arg(n) + QString(1200, u'x');
}

SendOptions shortAnswers()
{
    SendOptions o;
    o.maxTokens = 50;
    return o;
}

bool onlyKey(const QList<QByteArray> &seen, const QByteArray &key)
{
    if (seen.isEmpty())
        return false;
    for (const QByteArray &h : seen) {
        if (h != "Bearer " + key)
            return false;
    }
    return true;
}

} // namespace

class TestSessionFallback : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void cappedSendIsOfferedTheFallback_data();
    void cappedSendIsOfferedTheFallback();
    void fallbackAnswersWithItsOwnKeyAndIsRecorded();
    void automaticFallbackSendsWithoutACall();
    void fallbackThatEndsCappedOffersNothingFurther();
    void notCappedFailureOffersNoFallback_data();
    void notCappedFailureOffersNoFallback();
    void aLimitTheProfileDoesNotRetryOffersTheFallback_data();
    void aLimitTheProfileDoesNotRetryOffersTheFallback();
    void noFallbackSetOffersNothing();
    void progressCarriesTheProfilesNumbers();
    void profileContextWindowComesFirst();
    void storesAndRestoresTheProfiles();
    void automaticFallbackOverPlainHttpIsOfferedNotSent();
    void fallbackIsPacedByItsOwnLane();
    void fallbackIsTrimmedByItsOwnContextWindow();
    void trimAfterTheFallbacksContextErrorResendsToIt();
    void setProviderDuringTheFallbacksSendKeepsIt();

private:
    /// Three answered turns of longPrompt() on a `capped` provider, then profile A on a
    /// `headline` one (m_c), so the next send ends capped with that history.
    void historyThenCapped();
    /// A session on profile A (scenario `a`) with the fallback B (scenario `b`).
    void setUp(const QString &a, const QString &b, bool automatic = false);
    /// Sends and waits for the give-up; the fallbackOffered() it emitted.
    FallbackOffer sendUntilGaveUp(const QString &prompt);

    std::unique_ptr<Provider> m_a;
    std::unique_ptr<Provider> m_b;
    std::unique_ptr<Provider> m_c;
    std::unique_ptr<ChatSession> m_session;
    ProviderChoice m_profileA;
    ProviderChoice m_profileB;
};

void TestSessionFallback::initTestCase()
{
    qRegisterMetaType<FallbackOffer>();
    qRegisterMetaType<TrimOffer>();
    qRegisterMetaType<net::PacePlan>();
    qputenv("CAPWATCH_TEST_KEY_A", "key-A");
    qputenv("CAPWATCH_TEST_KEY_B", "key-B");
}

void TestSessionFallback::init() { }

void TestSessionFallback::cleanup()
{
    m_session.reset();
    m_a.reset();
    m_b.reset();
    m_c.reset();
}

void TestSessionFallback::setUp(const QString &a, const QString &b, bool automatic)
{
    m_a = std::make_unique<Provider>(a);
    m_b = std::make_unique<Provider>(b);
    QVERIFY(m_a->listen());
    QVERIFY(m_b->listen());
    m_profileA
        = profileOf(u"a"_s, u"Free tier"_s, m_a->server.baseUrl(), "CAPWATCH_TEST_KEY_A", small());
    retry::PolicyLimits bLimits = small();
    bLimits.maxAttempts = 3;
    m_profileB
        = profileOf(u"b"_s, u"Paid tier"_s, m_b->server.baseUrl(), "CAPWATCH_TEST_KEY_B", bLimits);
    m_profileB.model = u"gpt-paid"_s;
    m_profileB.extraHeaders = { { "X-Tier", "paid" } };
    m_session = std::make_unique<ChatSession>();
    m_session->setTimeScale(kScale);
    m_session->setProvider(m_profileA);
    m_session->setFallback(m_profileB, automatic);
}

FallbackOffer TestSessionFallback::sendUntilGaveUp(const QString &prompt)
{
    QSignalSpy gaveUp(m_session.get(), &ChatSession::gaveUp);
    QSignalSpy offered(m_session.get(), &ChatSession::fallbackOffered);
    if (m_session->send(prompt, {}) == 0)
        return {};
    if (!QTest::qWaitFor([&] { return !offered.isEmpty(); }, 20000))
        return {};
    if (gaveUp.size() != 1)
        return {};
    return offered.first().at(0).value<FallbackOffer>();
}

void TestSessionFallback::cappedSendIsOfferedTheFallback_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("category");
    QTest::newRow("token limit, out of budget or attempts") << u"headline"_s << u"token_limit"_s;
    QTest::newRow("quota exhausted (billing)") << u"billing"_s << u"billing"_s;
}

void TestSessionFallback::cappedSendIsOfferedTheFallback()
{
    QFETCH(QString, scenario);
    QFETCH(QString, category);
    setUp(scenario, u"capped"_s);
    // The order of the signals: gaveUp, fallbackOffered, parkOffered.
    QStringList order;
    connect(m_session.get(), &ChatSession::gaveUp, this, [&] { order << u"gaveUp"_s; });
    connect(m_session.get(), &ChatSession::fallbackOffered, this,
        [&] { order << u"fallbackOffered"_s; });
    connect(m_session.get(), &ChatSession::parkOffered, this, [&] { order << u"parkOffered"_s; });
    const FallbackOffer offer = sendUntilGaveUp(u"hello"_s);
    QVERIFY(offer.offered);
    QVERIFY(!offer.automatic);
    QCOMPARE(offer.send, m_session->currentSend());
    QCOMPARE(offer.fromProfile, u"Free tier"_s);
    QCOMPARE(offer.toProfile, u"Paid tier"_s);
    QCOMPARE(offer.category, category);
    if (category == u"token_limit"_s)
        QVERIFY(offer.reason == retry::EndReason::BudgetExhausted
            || offer.reason == retry::EndReason::AttemptsExhausted);
    QTRY_COMPARE(order, (QStringList { u"gaveUp"_s, u"fallbackOffered"_s, u"parkOffered"_s }));
    QCOMPARE(m_session->sendState().fallback.offered, true);
    QCOMPARE(m_session->sendState().profileName, u"Free tier"_s);
    QVERIFY(!m_session->sendState().viaFallback);
    QVERIFY(m_b->seen.isEmpty()); // nothing went to B by itself
    QVERIFY(onlyKey(m_a->seen, "key-A"));
}

void TestSessionFallback::fallbackAnswersWithItsOwnKeyAndIsRecorded()
{
    setUp(u"headline"_s, u"capped"_s);
    const FallbackOffer offer = sendUntilGaveUp(u"what is a token cap?"_s);
    QVERIFY(offer.offered);
    const quint64 capped = offer.send;
    const int requestsToA = m_a->server.chatRequests();
    QCOMPARE(requestsToA, 2); // the profile's 2 attempts (or fewer: its budget)

    QSignalSpy succeeded(m_session.get(), &ChatSession::succeeded);
    QSignalSpy answer(m_session.get(), &ChatSession::answerText);
    const quint64 id = m_session->sendToFallback({});
    QVERIFY(id != 0);
    QVERIFY(m_session->sendState().viaFallback);
    QCOMPARE(m_session->sendState().profileName, u"Paid tier"_s);
    QVERIFY(!m_session->sendState().fallback.offered); // taken: a second call sends nothing
    QCOMPARE(m_session->sendToFallback({}), quint64(0));
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.size(), 1, 20000);
    QVERIFY(!answer.isEmpty());
    QVERIFY(m_session->failedPrompt().isEmpty());
    QCOMPARE(m_session->history().size(), 2);
    QCOMPARE(m_session->history().at(0).content, u"what is a token cap?"_s);

    // B got the prompt once, with its own key, model and headers; A never saw key-B, B never
    // saw key-A (every request of each).
    QCOMPARE(m_b->server.chatRequests(), 1);
    QCOMPARE(m_a->server.chatRequests(), requestsToA);
    QVERIFY2(onlyKey(m_b->seen, "key-B"), m_b->seen.join(", ").constData());
    QVERIFY2(onlyKey(m_a->seen, "key-A"), m_a->seen.join(", ").constData());
    const demo::RecordedRequest atB = m_b->server.recordedRequests().constLast();
    QCOMPARE(atB.lastUserMessage(), u"what is a token cap?"_s);
    QCOMPARE(atB.json().value(u"model"_s).toString(), u"gpt-paid"_s);
    // The fallback profile's own extra headers go with its request.
    QCOMPARE(atB.header("x-tier"), QByteArray("paid"));

    // The retry log: the capped send's gave_up, then its fallback record, then B's fresh cycle.
    const QList<net::RetryRecord> &records = m_session->retryLog()->records();
    qsizetype fallbackAt = -1;
    for (qsizetype i = 0; i < records.size(); ++i) {
        if (records.at(i).event == Event::Fallback)
            fallbackAt = i;
    }
    QVERIFY(fallbackAt > 0);
    const net::RetryRecord &f = records.at(fallbackAt);
    QCOMPARE(quint64(f.request), capped);
    QCOMPARE(f.attempt, 2);
    QCOMPARE(f.profile, u"Free tier"_s);
    QCOMPARE(f.fallbackTo, u"Paid tier"_s);
    QVERIFY(f.reason == offer.reason);
    QCOMPARE(records.at(fallbackAt - 1).event, Event::GaveUp);
    QCOMPARE(quint64(records.at(fallbackAt + 1).request), id);
    QCOMPARE(records.at(fallbackAt + 1).attempt, 1);
    QCOMPARE(records.constLast().event, Event::Succeeded);

    // Later sends go to A again, with key-A and A's limits.
    QSignalSpy gaveUp(m_session.get(), &ChatSession::gaveUp);
    m_session->send(u"again"_s, {});
    QTRY_COMPARE_WITH_TIMEOUT(gaveUp.size(), 1, 20000);
    QVERIFY(!m_session->sendState().viaFallback);
    QCOMPARE(m_session->sendState().profileName, u"Free tier"_s);
    QCOMPARE(m_b->server.chatRequests(), 1);
    QCOMPARE(m_a->server.chatRequests(), requestsToA + 2);
    QVERIFY(onlyKey(m_a->seen, "key-A"));
    QCOMPARE(m_session->sendState().limits.maxAttempts, 2);
}

void TestSessionFallback::automaticFallbackSendsWithoutACall()
{
    setUp(u"headline"_s, u"capped"_s, true);
    QVERIFY(!m_session->provider().fallbackNeedsPlainHttpConsent()); // http, but to this machine
    QSignalSpy succeeded(m_session.get(), &ChatSession::succeeded);
    QSignalSpy parked(m_session.get(), &ChatSession::parkedChanged);
    m_session->setParkingChoice(ParkingChoice::Automatic); // not also parked
    quint64 busyWhenOffered = 0;
    connect(m_session.get(), &ChatSession::fallbackOffered, this,
        [&](const FallbackOffer &) { busyWhenOffered = m_session->busy() ? 1 : 2; });
    const FallbackOffer offer = sendUntilGaveUp(u"automatic"_s);
    QVERIFY(offer.offered);
    QVERIFY(offer.automatic);
    QCOMPARE(busyWhenOffered, quint64(1)); // the fallback's send had already started
    QVERIFY(m_session->sendState().viaFallback);
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.size(), 1, 20000);
    QCOMPARE(m_b->server.chatRequests(), 1);
    QVERIFY(onlyKey(m_b->seen, "key-B"));
    QVERIFY(onlyKey(m_a->seen, "key-A"));
    QVERIFY(parked.isEmpty());
    QVERIFY(!m_session->sendState().isParked());
}

void TestSessionFallback::fallbackThatEndsCappedOffersNothingFurther()
{
    setUp(u"headline"_s, u"headline"_s);
    QVERIFY(sendUntilGaveUp(u"one hop"_s).offered);
    QSignalSpy gaveUp(m_session.get(), &ChatSession::gaveUp);
    QSignalSpy offered(m_session.get(), &ChatSession::fallbackOffered);
    QVERIFY(m_session->sendToFallback({}) != 0);
    QTRY_COMPARE_WITH_TIMEOUT(offered.size(), 1, 20000);
    QCOMPARE(gaveUp.size(), 1);
    const FallbackOffer second = offered.first().at(0).value<FallbackOffer>();
    QVERIFY(!second.offered);
    QCOMPARE(second.fromProfile, u"Paid tier"_s);
    QCOMPARE(second.category, u"token_limit"_s);
    QCOMPARE(m_session->sendToFallback({}), quint64(0));
    QVERIFY(!m_session->sendState().park.parkable); // parked, it would go back to A
    QCOMPARE(m_b->server.chatRequests(), 3); // B's own 3 attempts
    QVERIFY(onlyKey(m_b->seen, "key-B"));
    QVERIFY(onlyKey(m_a->seen, "key-A"));
    // One fallback record only.
    int fallbacks = 0;
    for (const net::RetryRecord &r : m_session->retryLog()->records())
        fallbacks += r.event == Event::Fallback ? 1 : 0;
    QCOMPARE(fallbacks, 1);
}

void TestSessionFallback::aLimitTheProfileDoesNotRetryOffersTheFallback_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("category");
    QTest::newRow("a 429, rate limits not retried") << u"rate-limited"_s << u"rate_limit"_s;
    QTest::newRow("a token-limit 422, token limits not retried")
        << u"headline"_s << u"token_limit"_s;
}

void TestSessionFallback::aLimitTheProfileDoesNotRetryOffersTheFallback()
{
    // A profile that turns a category's retries off ends such a failure at once (not_retryable);
    // it is still a cap, so the fallback is offered, as after a 0 s budget's one attempt.
    QFETCH(QString, scenario);
    QFETCH(QString, category);
    setUp(scenario, u"capped"_s);
    if (category == u"rate_limit"_s)
        m_profileA.limits.retryRateLimit = false;
    else
        m_profileA.limits.retryTokenLimit = false;
    m_session->setProvider(m_profileA);
    const FallbackOffer offer = sendUntilGaveUp(u"no waiting here"_s);
    QVERIFY(offer.offered);
    QVERIFY(offer.reason == retry::EndReason::NotRetryable);
    QCOMPARE(offer.category, category);
    QCOMPARE(offer.toProfile, u"Paid tier"_s);
    QCOMPARE(m_a->server.chatRequests(), 1); // not retried
    QVERIFY(m_b->seen.isEmpty());

    QSignalSpy succeeded(m_session.get(), &ChatSession::succeeded);
    QVERIFY(m_session->sendToFallback({}) != 0);
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.size(), 1, 20000);
    QCOMPARE(m_b->server.chatRequests(), 1);
    QVERIFY(onlyKey(m_b->seen, "key-B"));
    QVERIFY(onlyKey(m_a->seen, "key-A"));
}

void TestSessionFallback::notCappedFailureOffersNoFallback_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<bool>("transientOff");
    QTest::newRow("401") << u"auth-expired"_s << false;
    QTest::newRow("a 422 that is not a token limit") << u"validation"_s << false;
    // Only token and rate limits count as capped when the profile does not retry them.
    QTest::newRow("a 503, transient errors not retried") << u"flaky"_s << true;
}

void TestSessionFallback::notCappedFailureOffersNoFallback()
{
    QFETCH(QString, scenario);
    QFETCH(bool, transientOff);
    setUp(scenario, u"capped"_s, true);
    if (transientOff) {
        m_profileA.limits.retryTransient = false;
        m_session->setProvider(m_profileA);
    }
    const FallbackOffer offer = sendUntilGaveUp(u"not a cap"_s);
    QVERIFY(!offer.offered);
    QVERIFY(!offer.automatic);
    QCOMPARE(offer.toProfile, u"Paid tier"_s);
    QVERIFY(!m_session->busy());
    QCOMPARE(m_session->sendToFallback({}), quint64(0));
    QVERIFY(m_b->seen.isEmpty());
    QCOMPARE(m_b->server.chatRequests(), 0);
}

void TestSessionFallback::noFallbackSetOffersNothing()
{
    setUp(u"headline"_s, u"capped"_s);
    m_session->setFallback(std::nullopt, false);
    const FallbackOffer offer = sendUntilGaveUp(u"no fallback"_s);
    QVERIFY(!offer.offered);
    QCOMPARE(m_session->sendToFallback({}), quint64(0));
    QCOMPARE(m_b->server.chatRequests(), 0);
}

void TestSessionFallback::progressCarriesTheProfilesNumbers()
{
    setUp(u"headline"_s, u"capped"_s);
    // Before any send: the next send's numbers.
    QCOMPARE(m_session->sendState().limits.maxAttempts, 2);
    QCOMPARE(m_session->sendState().budgetLeft, retry::Millis(2000));
    QCOMPARE(m_session->sendState().profileName, u"Free tier"_s);
    QList<SendState> seen;
    connect(m_session.get(), &ChatSession::sendStateChanged, this,
        [&](const SendState &p) { seen.append(p); });
    QVERIFY(sendUntilGaveUp(u"numbers"_s).offered);
    QVERIFY(!seen.isEmpty());
    for (const SendState &p : std::as_const(seen)) {
        QCOMPARE(p.limits.maxAttempts, 2);
        QCOMPARE(p.limits.budget, retry::Millis(2000));
        QCOMPARE(p.profileName, u"Free tier"_s);
        QVERIFY(p.budgetLeft <= retry::Millis(2000));
    }
    seen.clear();
    QSignalSpy succeeded(m_session.get(), &ChatSession::succeeded);
    QVERIFY(m_session->sendToFallback({}) != 0);
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.size(), 1, 20000);
    QVERIFY(!seen.isEmpty());
    for (const SendState &p : std::as_const(seen)) {
        QCOMPARE(p.limits.maxAttempts, 3); // B's, a fresh budget
        QVERIFY(p.viaFallback);
        QCOMPARE(p.profileName, u"Paid tier"_s);
    }
}

void TestSessionFallback::profileContextWindowComesFirst()
{
    setUp(u"capped"_s, u"capped"_s);
    QCOMPARE(m_session->contextGauge(u"x"_s, {}).contextWindow, std::nullopt);
    ProviderChoice a = m_profileA;
    a.contextWindow = 1234;
    m_session->setProvider(a);
    QCOMPARE(m_session->contextGauge(u"x"_s, {}).contextWindow, std::optional<qint64>(1234));
}

void TestSessionFallback::storesAndRestoresTheProfiles()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"history.sqlite"_s);
    history::HistoryWriter writer;
    QVERIFY(testing::openedAt(writer, path));
    setUp(u"headline"_s, u"capped"_s);
    m_session->setHistory(&writer);
    const FallbackOffer offer = sendUntilGaveUp(u"stored with profiles"_s);
    QVERIFY(offer.offered);
    QSignalSpy succeeded(m_session.get(), &ChatSession::succeeded);
    QVERIFY(m_session->sendToFallback({}) != 0);
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.size(), 1, 20000);
    const QUuid id = m_session->conversationId();
    QVERIFY(!id.isNull());
    QVERIFY(testing::flushed(writer));

    {
        history::HistoryStore store;
        QVERIFY(store.open(path).persistent());
        const std::optional<history::Conversation> c = store.conversation(id);
        QVERIFY(c);
        QCOMPARE(c->profile, u"a"_s); // the session's own profile (its id)
        const QList<history::Message> messages = store.messages(id);
        QCOMPARE(messages.size(), 2); // the prompt once: the fallback's send reuses it
        QCOMPARE(messages.at(0).profile, QString());
        QCOMPARE(messages.at(1).role, history::Role::Assistant);
        QCOMPARE(messages.at(1).profile, u"Paid tier"_s);
        const QList<history::Send> sends = store.sends(id);
        QCOMPARE(sends.size(), 2);
        QCOMPARE(sends.at(1).message, messages.at(0).id);
        // The fallback record is stored with the capped send.
        const QList<history::StoredRetryRecord> records = store.retryRecords(id);
        int found = 0;
        for (const history::StoredRetryRecord &r : records) {
            if (r.record.event != u"fallback"_s)
                continue;
            ++found;
            QCOMPARE(r.send, sends.at(0).id);
            QCOMPARE(r.record.profile, u"Free tier"_s);
            QCOMPARE(r.record.fallbackTo, u"Paid tier"_s);
        }
        QCOMPARE(found, 1);
    }

    // Choosing another profile for the stored conversation stores its id, without moving it.
    const QDateTime updated = [&] {
        history::HistoryStore store;
        store.open(path);
        return store.conversation(id)->updated;
    }();
    ProviderChoice other = m_profileB;
    m_session->setProvider(other);
    QVERIFY(testing::flushed(writer));
    {
        history::HistoryStore store;
        QVERIFY(store.open(path).persistent());
        QCOMPARE(store.conversation(id)->profile, u"b"_s);
        QCOMPARE(store.conversation(id)->updated, updated);
    }

    // A fresh session restores the profile and the answer's mark.
    ChatSession fresh;
    fresh.setHistory(&writer);
    QSignalSpy restored(&fresh, &ChatSession::conversationRestored);
    fresh.openConversation(id);
    QTRY_COMPARE_WITH_TIMEOUT(restored.size(), 1, 10000);
    const RestoredConversation r = restored.first().at(0).value<RestoredConversation>();
    QCOMPARE(r.profile, u"b"_s);
    QCOMPARE(r.messages.size(), 2);
    QCOMPARE(r.messages.at(1).profile, u"Paid tier"_s);
    bool restoredFallback = false;
    for (const net::RetryRecord &rec : fresh.retryLog()->records()) {
        if (rec.event == Event::Fallback) {
            restoredFallback = true;
            QCOMPARE(rec.profile, u"Free tier"_s);
            QCOMPARE(rec.fallbackTo, u"Paid tier"_s);
        }
    }
    QVERIFY(restoredFallback);
    m_session->setHistory(nullptr);
    fresh.setHistory(nullptr);
}

void TestSessionFallback::historyThenCapped()
{
    const SendOptions options = shortAnswers();
    for (int i = 1; i <= 3; ++i) {
        QSignalSpy succeeded(m_session.get(), &ChatSession::succeeded);
        QVERIFY(m_session->send(longPrompt(i), options) != 0);
        QTRY_COMPARE_WITH_TIMEOUT(succeeded.size(), 1, 20000);
    }
    QCOMPARE(m_session->history().size(), 6);
    m_c = std::make_unique<Provider>(u"headline"_s);
    QVERIFY(m_c->listen());
    m_profileA.endpoint = m_c->server.baseUrl();
    m_session->setProvider(m_profileA);
}

void TestSessionFallback::automaticFallbackOverPlainHttpIsOfferedNotSent()
{
    setUp(u"headline"_s, u"capped"_s, true);
    // A fallback on the LAN, over plain HTTP, with a key: never contacted by this test (the
    // address is TEST-NET-1), since nothing may go there without consent.
    ProviderChoice lan = m_profileB;
    lan.endpoint = QUrl(u"http://192.0.2.20:8000/v1"_s);
    m_session->setFallback(lan, true);
    QVERIFY(m_session->provider().fallbackNeedsPlainHttpConsent());
    QSignalSpy started(m_session.get(), &ChatSession::sendStarted);
    const FallbackOffer offer = sendUntilGaveUp(u"over the LAN"_s);
    QVERIFY(offer.offered);
    QVERIFY(!offer.automatic); // offered, so the window shows "Send to Paid tier instead"
    QCOMPARE(offer.toProfile, u"Paid tier"_s);
    QVERIFY(!m_session->busy());
    QVERIFY(!m_session->sendState().viaFallback);
    QCOMPARE(started.size(), 1); // the capped send only
    QVERIFY(m_session->sendState().fallback.offered);
    // No caller skips the question: the session itself refuses until it is allowed.
    QCOMPARE(m_session->sendToFallback({}), quint64(0));
    QVERIFY(!m_session->busy());
    QCOMPARE(started.size(), 1);
    for (const net::RetryRecord &r : m_session->retryLog()->records())
        QVERIFY(r.event != Event::Fallback);
    QVERIFY(onlyKey(m_a->seen, "key-A"));

    m_session->provider().allowFallbackPlainHttp();
    QVERIFY(!m_session->provider().fallbackNeedsPlainHttpConsent());
    // The consent is for that endpoint: another plain-HTTP host asks again; one without a key
    // does not.
    lan.endpoint = QUrl(u"http://192.0.2.21:8000/v1"_s);
    m_session->setFallback(lan, true);
    QVERIFY(m_session->provider().fallbackNeedsPlainHttpConsent());
    lan.keyVariable = u"CAPWATCH_TEST_NO_SUCH_KEY"_s;
    m_session->setFallback(lan, true);
    QVERIFY(!m_session->provider().fallbackNeedsPlainHttpConsent());
}

void TestSessionFallback::fallbackIsPacedByItsOwnLane()
{
    setUp(u"headline"_s, u"capped"_s);
    ProviderMemory memory;
    m_session->context().setProviderMemory(&memory);
    QVERIFY(sendUntilGaveUp(u"paced at the fallback"_s).offered);
    QVERIFY(!memory.window(laneOf(m_b->server.baseUrl()), u"gpt-paid"_s));
    // Then B's lane says: no tokens left, reset in 40 s (0.8 s on the wall at this scale).
    net::ProviderReport report;
    report.status = 200;
    report.window.limitTokens = 6000;
    report.window.remainingTokens = 0;
    report.window.resetTokens = retry::Millis(40'000);
    report.model = u"gpt-paid"_s;
    report.receivedAt = QDateTime::currentDateTimeUtc();
    report.timeScale = kScale;
    memory.report(laneOf(m_b->server.baseUrl()), u"gpt-paid"_s, report);

    testing::SendSteps steps(m_session.get());
    QSignalSpy succeeded(m_session.get(), &ChatSession::succeeded);
    const quint64 id = m_session->sendToFallback({});
    QVERIFY(id != 0);
    QTRY_COMPARE_WITH_TIMEOUT(steps.pacings().size(), 1, 5000);
    const net::PacePlan plan = steps.pacings().first();
    QVERIFY(plan.wait > retry::Millis(20'000)); // 40 s less the report's age
    QVERIFY(plan.wait <= retry::Millis(40'000));
    QCOMPARE(plan.windowTokensLeft, std::optional<std::int64_t>(0));
    QCOMPARE(m_b->server.chatRequests(), 0); // it waits for B's window
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.size(), 1, 20000);
    QCOMPARE(m_b->server.chatRequests(), 1);

    int paced = 0;
    for (const net::RetryRecord &r : m_session->retryLog()->records()) {
        if (r.event != Event::Paced)
            continue;
        ++paced;
        QCOMPARE(quint64(r.request), id);
        QCOMPARE(r.profile, u"Paid tier"_s);
        QCOMPARE(r.windowTokensLeft, std::optional<std::int64_t>(0));
    }
    QCOMPARE(paced, 1); // the capped send on A was not paced by B's window
    // B's own answer is filed under B's lane, not A's.
    QVERIFY(memory.window(laneOf(m_b->server.baseUrl()), u"gpt-paid"_s));
    m_session->context().setProviderMemory(nullptr);
}

void TestSessionFallback::fallbackIsTrimmedByItsOwnContextWindow()
{
    setUp(u"capped"_s, u"capped"_s);
    m_session->context().setAutoTrim(true);
    historyThenCapped();
    // A sets no context window: its request is not trimmed. B's window holds less than the
    // whole conversation, more than the last turns with the prompt.
    const ContextGauge own = m_session->contextGauge(u"short"_s, shortAnswers());
    QCOMPARE(own.contextWindow, std::nullopt);
    QVERIFY(own.tokens > 900);
    m_profileB.contextWindow = own.tokens - 100;
    m_session->setFallback(m_profileB, false);

    QSignalSpy gaveUp(m_session.get(), &ChatSession::gaveUp);
    QSignalSpy offered(m_session.get(), &ChatSession::fallbackOffered);
    QSignalSpy trims(m_session.get(), &ChatSession::trimOffered);
    QVERIFY(m_session->send(u"short"_s, shortAnswers()) != 0);
    QTRY_COMPARE_WITH_TIMEOUT(offered.size(), 1, 20000);
    QVERIFY(offered.first().at(0).value<FallbackOffer>().offered);
    QVERIFY(trims.isEmpty()); // A's send went whole
    QCOMPARE(m_session->leftOut(), 0);

    QSignalSpy succeeded(m_session.get(), &ChatSession::succeeded);
    QVERIFY(m_session->sendToFallback(shortAnswers()) != 0);
    QCOMPARE(trims.size(), 1);
    const TrimOffer trim = trims.first().at(0).value<TrimOffer>();
    QVERIFY(trim.automatic);
    QCOMPARE(trim.contextWindow, *m_profileB.contextWindow);
    QVERIFY(trim.plan.leftOut >= 1);
    QCOMPARE(m_session->leftOut(), trim.plan.leftOut);
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.size(), 1, 20000);
    // At B the oldest turn is absent: 3 turns less those left out, and the prompt.
    const demo::RecordedRequest atB = m_b->server.recordedRequests().constLast();
    const QJsonArray messages = atB.json().value(u"messages"_s).toArray();
    QCOMPARE(messages.size(), (3 - trim.plan.leftOut) * 2 + 1);
    QVERIFY(!messages.first().toObject().value(u"content"_s).toString().startsWith(u"Turn 1:"_s));
}

void TestSessionFallback::trimAfterTheFallbacksContextErrorResendsToIt()
{
    // B answers only what fits its context; the session knows nothing of that window before
    // its context error.
    m_a = std::make_unique<Provider>(u"capped"_s);
    QVERIFY(m_a->listen());
    m_profileA
        = profileOf(u"a"_s, u"Free tier"_s, m_a->server.baseUrl(), "CAPWATCH_TEST_KEY_A", small());
    m_session = std::make_unique<ChatSession>();
    m_session->setTimeScale(kScale);
    m_session->setProvider(m_profileA);
    m_session->context().setAutoTrim(true);
    historyThenCapped();
    const ContextGauge own = m_session->contextGauge(u"short"_s, shortAnswers());
    QVERIFY(own.tokens > 900);
    m_b = std::make_unique<Provider>(u"context"_s, own.tokens - 100);
    QVERIFY(m_b->listen());
    m_profileB
        = profileOf(u"b"_s, u"Paid tier"_s, m_b->server.baseUrl(), "CAPWATCH_TEST_KEY_B", small());
    m_session->setFallback(m_profileB, true); // automatic: the fallback's send goes at once

    QSignalSpy succeeded(m_session.get(), &ChatSession::succeeded);
    QSignalSpy gaveUp(m_session.get(), &ChatSession::gaveUp);
    QSignalSpy trims(m_session.get(), &ChatSession::trimOffered);
    QSignalSpy offered(m_session.get(), &ChatSession::fallbackOffered);
    QVERIFY(m_session->send(u"short"_s, shortAnswers()) != 0);
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.size(), 1, 30000);
    const int toCapped = m_c->server.chatRequests();
    QCOMPARE(gaveUp.size(), 2); // capped on A, then B's context error
    QVERIFY(offered.first().at(0).value<FallbackOffer>().automatic);
    QCOMPARE(trims.size(), 1);
    const TrimOffer trim = trims.first().at(0).value<TrimOffer>();
    QVERIFY(trim.automatic);
    QCOMPARE(trim.contextWindow, own.tokens - 100);
    // The trimmed prompt went to B again (one hop kept), never back to the capped profile.
    QCOMPARE(m_b->server.chatRequests(), 2);
    QCOMPARE(m_c->server.chatRequests(), toCapped);
    QVERIFY(m_session->sendState().viaFallback);
    QCOMPARE(m_session->sendState().profileName, u"Paid tier"_s);
    QVERIFY(onlyKey(m_b->seen, "key-B"));
    QVERIFY(onlyKey(m_c->seen, "key-A"));
    const QJsonArray messages
        = m_b->server.recordedRequests().constLast().json().value(u"messages"_s).toArray();
    QCOMPARE(messages.size(), (3 - trim.plan.leftOut) * 2 + 1);
    QCOMPARE(offered.size(), 2); // B's context error: not capped, nothing further offered
    QVERIFY(!offered.at(1).at(0).value<FallbackOffer>().offered);
}

void TestSessionFallback::setProviderDuringTheFallbacksSendKeepsIt()
{
    setUp(u"headline"_s, u"capped"_s);
    QVERIFY(sendUntilGaveUp(u"kept"_s).offered);
    QSignalSpy succeeded(m_session.get(), &ChatSession::succeeded);
    QSignalSpy cancelled(m_session.get(), &ChatSession::cancelled);
    QVERIFY(!(m_session->busy() && m_session->sendState().viaFallback));
    QVERIFY(m_session->sendToFallback({}) != 0);
    QVERIFY((m_session->busy() && m_session->sendState().viaFallback));
    QCOMPARE(m_session->sendState().profile, u"b"_s);
    // Settings OK (or a retranslate) applies the own profile again, here with other numbers.
    ProviderChoice a = m_profileA;
    a.limits.maxAttempts = 4;
    m_session->setProvider(a);
    QVERIFY(m_session->busy());
    QVERIFY((m_session->busy() && m_session->sendState().viaFallback));
    QCOMPARE(m_session->sendState().limits.maxAttempts, 3); // still B's send
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.size(), 1, 20000);
    QVERIFY(cancelled.isEmpty());
    QCOMPARE(m_session->sendState().profileName, u"Paid tier"_s);
    QCOMPARE(m_b->server.chatRequests(), 1);
    QVERIFY(onlyKey(m_b->seen, "key-B"));
    QCOMPARE(m_session->history().size(), 2);
    QVERIFY(!(m_session->busy() && m_session->sendState().viaFallback));

    // Then the own client holds the choice set meanwhile: A, key-A, its new numbers.
    QSignalSpy gaveUp(m_session.get(), &ChatSession::gaveUp);
    QVERIFY(m_session->send(u"again"_s, {}) != 0);
    QCOMPARE(m_session->sendState().limits.maxAttempts, 4);
    QTRY_COMPARE_WITH_TIMEOUT(gaveUp.size(), 1, 20000);
    QCOMPARE(m_session->sendState().profileName, u"Free tier"_s);
    QCOMPARE(m_b->server.chatRequests(), 1);
    QVERIFY(onlyKey(m_a->seen, "key-A"));
}

QTEST_GUILESS_MAIN(TestSessionFallback)
#include "tst_sessionfallback.moc"
