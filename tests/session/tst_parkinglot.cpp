// Parking without a widget (issue 15): ChatSession and ParkingLot against the embedded demo on
// its own thread, time-scaled. A send that gave up on "Retry in 3 min" is parked and answered
// after the reset; Ask, Send now, Cancel; parked sends survive a restart and a kill -9 and go
// out after it, one by one when their reset passed meanwhile; one provider's parked sends go
// out one after another; none goes into a session that is sending, editing or opening another
// conversation; re-parking stops after three; a 25 h reset is not parked; a suspend
// (the wall clock jumps, the monotonic one does not) releases within 2 s; and the figure: how
// soon after its reset a parked send goes out, over 100 parks.

#include "history/historystore.h"
#include "history/historywriter.h"
#include "session/chatsession.h"
#include "session/parkinglot.h"
#include "support/demolocalprovider.h"
#include "support/historywriting.h"
#include "support/loopbackserver.h"
#include "support/sendsteps.h"
#include "support/timingalone.h"

#include <QElapsedTimer>
#include <QNetworkProxy>
#include <QProcess>
#include <QScopeGuard>
#include <QSemaphore>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

using namespace capwatch;
using namespace capwatch::session;
using namespace Qt::StringLiterals;
using Event = net::RetryRecord::Event;
using Unpark = net::RetryRecord::Unpark;
using testing::flushed;
using testing::openedAt;

namespace {

// A 60 s wait takes 0.3 s, the 120 s budget 0.6 s, "Retry in 3 min" 0.9 s.
constexpr double kScale = 0.005;

demo::DemoOptions scenario(const QString &name, double resetAfter = 180)
{
    demo::DemoOptions o;
    o.scenario = name;
    o.resetAfterSeconds = resetAfter;
    return o;
}

ProviderChoice demoChoice()
{
    ProviderChoice c;
    c.demo = true;
    return c;
}

/// A profile on the demo (`endpoint` empty) or on `endpoint`.
session::ProviderProfile profileOn(
    const QString &id, const QString &name, const QUrl &endpoint = {})
{
    session::ProviderProfile p;
    p.id = id;
    p.name = name;
    p.builtInDemo = endpoint.isEmpty();
    p.endpoint = endpoint;
    return p;
}

/// How the lot makes its own sessions: as setUp() does, each talking to what `profiles` says of
/// its conversation's profile (none: the demo).
session::SessionSetup setupOf(
    session::LocalProvider &demo, const QList<session::ProviderProfile> &profiles = {})
{
    session::SessionSetup setup;
    setup.timeScale = kScale;
    setup.localProvider = &demo;
    session::ProfileSet set;
    set.profiles = profiles;
    setup.providers = session::ProviderResolver(set, {});
    return setup;
}

void setUp(ChatSession &s, session::LocalProvider &demo, history::HistoryWriter *writer)
{
    s.setTimeScale(kScale);
    s.provider().setLocalProvider(&demo);
    s.setProvider(demoChoice());
    s.setHistory(writer);
}

QList<Event> eventsOf(const net::RetryLog &log)
{
    QList<Event> out;
    for (const net::RetryRecord &r : log.records())
        out.append(r.event);
    return out;
}

int countOf(const net::RetryLog &log, Event event)
{
    const QList<Event> events = eventsOf(log);
    return int(std::count(events.cbegin(), events.cend(), event));
}

const net::RetryRecord *lastOf(const net::RetryLog &log, Event event)
{
    const QList<net::RetryRecord> &records = log.records();
    for (qsizetype i = records.size() - 1; i >= 0; --i) {
        if (records.at(i).event == event)
            return &records.at(i);
    }
    return nullptr;
}

/// Plain HTTP to a host that is not this machine (TEST-NET-1: nothing answers there), with the
/// key in CAPWATCH_TEST_PLAIN_KEY: a send needs the consent to plain HTTP first.
ProviderChoice plainHttpChoice()
{
    ProviderChoice plain;
    plain.endpoint = QUrl(u"http://192.0.2.1/v1"_s);
    plain.model = u"some-model"_s;
    plain.keyVariable = u"CAPWATCH_TEST_PLAIN_KEY"_s;
    return plain;
}

/// Every request of the process to a host that is not this machine goes through `proxy` (Qt
/// never sends loopback requests through a proxy): it sees what would have reached the host.
bool routedThrough(testing::LoopbackServer &proxy)
{
    if (!proxy.listen())
        return false;
    QNetworkProxy::setApplicationProxy(
        QNetworkProxy(QNetworkProxy::HttpProxy, u"127.0.0.1"_s, proxy.port()));
    return true;
}

/// A send parked on the demo and due now, of the conversation a session without a history
/// shows (none).
history::ParkedSend dueNow(const QString &prompt)
{
    history::ParkedSend p;
    p.prompt = prompt;
    p.provider = u"demo"_s;
    p.options = u"{}"_s;
    p.parkedAt = QDateTime::currentDateTimeUtc().addSecs(-60);
    p.dueAt = QDateTime::currentDateTimeUtc();
    p.resetAt = p.dueAt;
    return p;
}

/// The lot reads its wall clock at every look at its sends (at park(), then once a second), at
/// most twice a look: this many more reads, and it looked again at least three times.
constexpr int kThreeLooks = 6;

/// A wall clock for the lot that counts its reads in `reads`.
ParkingLot::WallClock countingClock(int &reads)
{
    return [&reads] {
        ++reads;
        return QDateTime::currentDateTimeUtc();
    };
}

/// A window's worth: a session on the demo, the lot it parks in, and sessions made for parked
/// sends of conversations it does not show.
struct Window
{
    Window(session::LocalProvider &demo, history::HistoryWriter *writer,
        ParkingChoice choice = ParkingChoice::Automatic)
    {
        setUp(session, demo, writer);
        session.setParkingChoice(choice);
        session.setParkingLot(&lot);
        lot.setHistory(writer);
        lot.setSessionSetup(setupOf(demo));
    }
    ParkingLot lot;
    ChatSession session;
};

/// Run as a child (CAPWATCH_PARK_CHILD=database path): parks one send, says "parked" once the
/// park is on disk, then runs until it is killed.
int parkChild(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    history::HistoryWriter writer;
    if (!openedAt(writer, qEnvironmentVariable("CAPWATCH_PARK_CHILD")))
        return 1;
    testing::ThreadedDemo demo(scenario(u"reset"_s, 3600)); // "Retry in 58 min."
    Window w(demo, &writer);
    QObject::connect(&w.lot, &ParkingLot::changed, &app, [&] {
        if (w.lot.count() == 1)
            writer.flush();
    });
    QObject::connect(&writer, &history::HistoryWriter::flushed, &app, [] {
        std::fputs("parked\n", stdout);
        std::fflush(stdout);
    });
    w.session.send(u"Survive a kill -9"_s, {});
    return app.exec();
}

} // namespace

class TestParkingLot final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void resetInThreeMinutesIsParkedAndAnswered();
    void askOffersTheResetAndParksOnlyWhenTold();
    void sendNowGoesBeforeTheReset();
    void goesWithTheModelItWasParkedWith();
    void cancelLeavesTheFailedPrompt();
    void interruptedStaysParkedStopTakesItOut();
    void aPromptSentMeanwhileKeepsTheOrder();
    void optionsGoOutAgain();
    void survivesARestart();
    void survivesAKill();
    void goesWithItsConversationsProfile();
    void profileChosenMeanwhileIsTheOneSentWith();
    void plainHttpWaitsForTheConsent();
    void theLotTellsItWaitsForTheConsent();
    void notReleasedIntoASend();
    void notReleasedIntoAnEdit();
    void notReleasedIntoAnOpening();
    void resetsPassedWhileClosedGoOneByOne();
    void oneProviderOneAtATime();
    void reparkingStopsAfterThree();
    void resetInTwentyFiveHoursIsNotParked();
    void suspendReleasesWithinTwoSeconds();
    void unstoredParkStaysWithItsConversation();
    void releasedOnTimeOverAHundredParks();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString path() const { return m_dir->filePath(u"history.sqlite"_s); }
};

void TestParkingLot::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestParkingLot::resetInThreeMinutesIsParkedAndAnswered()
{
    testing::ThreadedDemo demo(scenario(u"reset"_s));
    history::HistoryWriter writer;
    QVERIFY(openedAt(writer, path()));
    Window w(demo, &writer);
    QSignalSpy parked(&w.session, &ChatSession::parkedChanged);
    QSignalSpy answered(&w.session, &ChatSession::succeeded);
    QSignalSpy released(&w.lot, &ParkingLot::released);
    QSignalSpy finished(&w.lot, &ParkingLot::finished);

    QElapsedTimer sinceSend;
    sinceSend.start();
    w.session.send(u"Wait for the reset"_s, {});
    QVERIFY(parked.wait(10000));
    const double policyMsSinceSend = double(sinceSend.nsecsElapsed()) / 1e6 / kScale;
    QVERIFY(w.session.sendState().isParked());
    QCOMPARE(w.lot.count(), 1);
    const history::ParkedSend p = w.lot.sends().constFirst();
    QCOMPARE(p.prompt, u"Wait for the reset"_s);
    QCOMPARE(p.provider, u"demo"_s);
    QCOMPARE(p.parksInARow, 1);
    const net::RetryRecord *parkedRecord = lastOf(*w.session.retryLog(), Event::Parked);
    QVERIFY(parkedRecord);
    QCOMPARE(parkedRecord->resetAt, p.dueAt);
    // The demo's reset is 180 s after the first request; 120 s went on the in-line retries, so
    // the provider said "Retry in 1 min." (60 s, rounded up as providers do), less what the
    // round trips took. Those are not bounded by a figure (at scale 0.005 a loaded or sanitized
    // machine turns 30 ms of them into 6 s of policy time): at most what passed since the send.
    QVERIFY2(parkedRecord->rawWaitMs && *parkedRecord->rawWaitMs >= 180'000 - policyMsSinceSend
            && *parkedRecord->rawWaitMs <= 61'000,
        qPrintable(u"%1 ms, %2 ms since the send"_s.arg(parkedRecord->rawWaitMs.value_or(-1))
                       .arg(policyMsSinceSend)));
    QCOMPARE(parkedRecord->reason, retry::EndReason::BudgetExhausted);

    QVERIFY(answered.wait(10000));
    QCOMPARE(released.size(), 1);
    QCOMPARE(released.first().at(1).value<Unpark>(), Unpark::ResetReached);
    // Never before its reset, measured where it counts: when the first request after the park
    // reached the provider (the attempts before it, capped, came before the reset).
    const QList<Event> sofar = eventsOf(*w.session.retryLog());
    const qsizetype beforePark = std::count(
        sofar.cbegin(), sofar.cbegin() + sofar.indexOf(Event::Parked), Event::AttemptStarted);
    const QList<QDateTime> arrivals = demo.chatArrivals();
    QCOMPARE(arrivals.size(), demo.chats().size());
    QVERIFY2(beforePark >= 1 && arrivals.size() > beforePark,
        qPrintable(u"%1 requests, %2 before the park"_s.arg(arrivals.size()).arg(beforePark)));
    QVERIFY(arrivals.at(beforePark - 1) < p.dueAt);
    QVERIFY2(arrivals.at(beforePark) >= p.dueAt,
        qPrintable(u"reached the provider %1 ms before its reset"_s.arg(
            arrivals.at(beforePark).msecsTo(p.dueAt))));
    QVERIFY(finished.wait(2000) || finished.size() == 1);
    QCOMPARE(finished.first().at(1).value<net::SendSummary::Outcome>(),
        net::SendSummary::Outcome::Succeeded);
    QCOMPARE(finished.first().at(2).toBool(), false);
    QCOMPARE(w.lot.count(), 0);
    QVERIFY(!w.session.sendState().isParked());
    QVERIFY(w.session.failedPrompt().isEmpty());
    QCOMPARE(w.session.history().size(), 2); // the prompt and its answer, once

    const QList<Event> events = eventsOf(*w.session.retryLog());
    const qsizetype at = events.indexOf(Event::Parked);
    QCOMPARE(events.mid(at - 1),
        (QList<Event> { Event::GaveUp, Event::Parked, Event::Unparked, Event::AttemptStarted,
            Event::Succeeded }));
    QCOMPARE(lastOf(*w.session.retryLog(), Event::Unparked)->unpark, Unpark::ResetReached);

    // Stored: one user message (not one per send), two sends, the park gone from the disk.
    QVERIFY(flushed(writer));
    history::HistoryStore store;
    QVERIFY(store.open(path()).persistent());
    const QUuid id = w.session.conversationId();
    const QList<history::Message> messages = store.messages(id);
    QCOMPARE(messages.size(), 2);
    QCOMPARE(messages.at(0).text, u"Wait for the reset"_s);
    QCOMPARE(messages.at(1).state, history::MessageState::Complete);
    QCOMPARE(store.sends(id).size(), 2);
    QCOMPARE(store.sends(id).at(1).message, messages.at(0).id);
    QCOMPARE(store.sends(id).at(1).outcome, history::SendOutcome::Succeeded);
    QVERIFY(store.parkedSends().isEmpty());
    QStringList stored;
    for (const history::StoredRetryRecord &r : store.retryRecords(id))
        stored << r.record.event;
    QVERIFY2(stored.join(u' ').contains(u"gave_up parked unparked attempt_started"_s),
        qPrintable(stored.join(u' ')));
}

void TestParkingLot::askOffersTheResetAndParksOnlyWhenTold()
{
    testing::ThreadedDemo demo(scenario(u"reset"_s));
    Window w(demo, nullptr, ParkingChoice::Ask);
    QSignalSpy offered(&w.session, &ChatSession::parkOffered);
    QSignalSpy gaveUp(&w.session, &ChatSession::gaveUp);
    const QDateTime sentAt = QDateTime::currentDateTimeUtc();
    QElapsedTimer sinceSend;
    sinceSend.start();
    w.session.send(u"Ask me first"_s, {});
    QVERIFY(offered.wait(10000));
    const double policyMsSinceSend = double(sinceSend.nsecsElapsed()) / 1e6 / kScale;
    QCOMPARE(gaveUp.size(), 1); // the offer comes right after the give-up
    const ParkOffer offer = offered.first().at(0).value<ParkOffer>();
    QVERIFY(offer.parkable);
    QCOMPARE(offer.refusal, retry::ParkRefusal::None);
    QCOMPARE(offer.parksInARow, 0);
    // 60 s left of the 180 s, less the time the requests took: "Retry in 59 sec." or so. The
    // round trips are bounded by what passed since the send, not by a figure: at scale 0.005 a
    // loaded or sanitized machine turns 30 ms of them into 6 s of policy time.
    QVERIFY2(offer.resetIn >= retry::Millis(qint64(180'000 - policyMsSinceSend))
            && offer.resetIn <= retry::Millis(60'000),
        qPrintable(
            u"%1 ms, %2 ms since the send"_s.arg(offer.resetIn.count()).arg(policyMsSinceSend)));
    // Due at the provider's reset (0.9 s after its first request, which came after `sentAt`),
    // and no later than the offer's "about a minute" (0.3 s here) after now; a ms for rounding.
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QVERIFY2(offer.dueAt >= sentAt.addMSecs(qint64(180'000 * kScale) - 1),
        qPrintable(QString::number(sentAt.msecsTo(offer.dueAt))));
    QVERIFY2(offer.dueAt <= now.addMSecs(qint64(60'000 * kScale) + 1),
        qPrintable(QString::number(now.msecsTo(offer.dueAt))));
    QTest::qWait(50);
    QCOMPARE(w.lot.count(), 0); // Ask: nothing parked until the user says so
    QVERIFY(!w.session.sendState().isParked());

    QVERIFY(w.session.park());
    QCOMPARE(w.lot.count(), 1);
    QVERIFY(!w.session.park()); // once
    QSignalSpy answered(&w.session, &ChatSession::succeeded);
    QVERIFY(answered.wait(10000));
    QCOMPARE(w.lot.count(), 0);
}

void TestParkingLot::sendNowGoesBeforeTheReset()
{
    // The reset is 10 min after the first request: parked for 8 min (2.4 s here).
    testing::ThreadedDemo demo(scenario(u"reset"_s, 600));
    Window w(demo, nullptr);
    QSignalSpy parked(&w.session, &ChatSession::parkedChanged);
    w.session.send(u"Now, please"_s, {});
    QVERIFY(parked.wait(10000));
    const history::ParkedSend p = w.lot.sends().constFirst();
    testing::SendSteps steps(&w.session);
    QVERIFY(w.lot.sendNow(p.id));
    QTRY_VERIFY_WITH_TIMEOUT(!steps.attempts().isEmpty(), 2000);
    QVERIFY(QDateTime::currentDateTimeUtc() < p.dueAt);
    QCOMPARE(lastOf(*w.session.retryLog(), Event::Unparked)->unpark, Unpark::SentNow);
    QVERIFY(w.lot.isRunning(p.id));
    QVERIFY(!w.lot.cancel(p.id)); // running: it is a send now, cancelled as one
    // Still capped before the reset: it ends capped and is parked again (park 2 of 3).
    QSignalSpy finished(&w.lot, &ParkingLot::finished);
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.first().at(2).toBool(), true);
    QCOMPARE(w.lot.count(), 1);
    QCOMPARE(w.lot.sends().constFirst().parksInARow, 2);
    w.session.cancel(); // nothing in flight: a no-op
    QVERIFY(w.lot.cancel(w.lot.sends().constFirst().id));
}

void TestParkingLot::goesWithTheModelItWasParkedWith()
{
    // docs/parking.md: a parked send goes with the model it was parked with, whatever model is
    // chosen when it goes out.
    testing::ThreadedDemo demo(scenario(u"reset"_s, 600));
    Window w(demo, nullptr);
    QSignalSpy parked(&w.session, &ChatSession::parkedChanged);
    w.session.send(u"With the model of then"_s, {});
    QVERIFY(parked.wait(10000));
    const history::ParkedSend p = w.lot.sends().constFirst();
    QVERIFY(!p.model.isEmpty());
    ProviderChoice other = demoChoice();
    other.model = u"another-model"_s;
    w.session.setProvider(other);
    QCOMPARE(w.session.provider().model(), u"another-model"_s);
    testing::SendSteps steps(&w.session);
    QVERIFY(w.lot.sendNow(p.id));
    QTRY_VERIFY_WITH_TIMEOUT(!steps.attempts().isEmpty(), 2000);
    QCOMPARE(w.session.sendState().model, p.model);
    w.session.stop();
}

void TestParkingLot::cancelLeavesTheFailedPrompt()
{
    testing::ThreadedDemo demo(scenario(u"reset"_s, 600));
    Window w(demo, nullptr);
    QSignalSpy parked(&w.session, &ChatSession::parkedChanged);
    w.session.send(u"Never mind"_s, {});
    QVERIFY(parked.wait(10000));
    const QUuid id = w.lot.sends().constFirst().id;
    QSignalSpy changed(&w.lot, &ParkingLot::changed);
    QVERIFY(w.lot.cancel(id));
    QCOMPARE(w.lot.count(), 0);
    QVERIFY(!changed.isEmpty());
    QVERIFY(!w.session.sendState().isParked());
    QCOMPARE(w.session.failedPrompt(), u"Never mind"_s);
    QCOMPARE(lastOf(*w.session.retryLog(), Event::Unparked)->unpark, Unpark::Cancelled);
    QVERIFY(!w.lot.cancel(id));
    // Nothing goes out at the reset any more; Retry now still sends it.
    const int before = int(demo.chats().size());
    QTest::qWait(300);
    QCOMPARE(int(demo.chats().size()), before);
    QVERIFY(w.session.retryFailed({}) != 0);
}

void TestParkingLot::interruptedStaysParkedStopTakesItOut()
{
    testing::ThreadedDemo demo(scenario(u"reset"_s, 600));
    history::HistoryWriter writer;
    QVERIFY(openedAt(writer, path()));
    Window w(demo, &writer);
    QSignalSpy parked(&w.session, &ChatSession::parkedChanged);
    w.session.send(u"Interrupt me"_s, {});
    QVERIFY(parked.wait(10000));
    const QUuid id = w.lot.sends().constFirst().id;
    const QUuid conversation = w.session.conversationId();

    // Going out (Send now), then the window switches to a new conversation: not a Stop.
    QSignalSpy released(&w.lot, &ParkingLot::released);
    testing::SendSteps steps(&w.session);
    QVERIFY(w.lot.sendNow(id));
    QTRY_VERIFY_WITH_TIMEOUT(!steps.attempts().isEmpty(), 2000);
    w.session.newConversation();
    QCOMPARE(w.lot.count(), 1); // still parked, and still stored
    QVERIFY(flushed(writer));
    {
        history::HistoryStore store;
        QVERIFY(store.open(path()).persistent());
        QCOMPARE(store.parkedSends().size(), 1);
    }
    // It goes again, in a session of the lot's own, since the window shows another one.
    QTRY_COMPARE_WITH_TIMEOUT(released.size(), 2, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(!w.lot.isRunning(w.lot.sends().value(0).id), 10000);

    // Shown again and sent from the window, the user's Stop takes it out for good.
    w.session.openConversation(conversation);
    QSignalSpy restored(&w.session, &ChatSession::conversationRestored);
    QVERIFY(restored.wait(5000));
    QVERIFY(w.session.sendState().isParked());
    const QUuid again = w.lot.sends().constFirst().id;
    steps.clear();
    QVERIFY(w.lot.sendNow(again));
    QTRY_VERIFY_WITH_TIMEOUT(!steps.attempts().isEmpty(), 2000);
    w.session.stop();
    QTRY_COMPARE_WITH_TIMEOUT(w.lot.count(), 0, 2000);
    QCOMPARE(w.session.failedPrompt(), u"Interrupt me"_s);
}

void TestParkingLot::aPromptSentMeanwhileKeepsTheOrder()
{
    // P1 parked; P2 sent and failed meanwhile; P1 answered at the reset. Restored, each answer
    // follows its own prompt: P2 (failed), P1, its answer.
    testing::ThreadedDemo demo(scenario(u"reset"_s, 300));
    history::HistoryWriter writer;
    QVERIFY(openedAt(writer, path()));
    Window w(demo, &writer, ParkingChoice::Ask);
    QSignalSpy offered(&w.session, &ChatSession::parkOffered);
    w.session.send(u"First, parked"_s, {});
    QVERIFY(offered.wait(10000));
    QVERIFY(w.session.park());
    w.session.send(u"Second, meanwhile"_s, {});
    QVERIFY(offered.wait(10000)); // gave up too; Ask: not parked
    QSignalSpy finished(&w.lot, &ParkingLot::finished);
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.first().at(1).value<net::SendSummary::Outcome>(),
        net::SendSummary::Outcome::Succeeded);
    QVERIFY(flushed(writer));

    ChatSession reader;
    reader.setHistory(&writer);
    QSignalSpy restored(&reader, &ChatSession::conversationRestored);
    reader.openConversation(w.session.conversationId());
    QVERIFY(restored.wait(5000));
    QStringList shown;
    for (const history::Message &m : restored.first().at(0).value<RestoredConversation>().messages)
        shown << m.text.left(6);
    QCOMPARE(shown.size(), 3);
    QCOMPARE(shown.at(0), u"Second"_s);
    QCOMPARE(shown.at(1), u"First,"_s);
    QVERIFY(reader.history().size() == 2); // the answered exchange is the context
    QCOMPARE(reader.history().at(0).content, u"First, parked"_s);
}

void TestParkingLot::optionsGoOutAgain()
{
    testing::ThreadedDemo demo(scenario(u"reset"_s));
    history::HistoryWriter writer;
    QVERIFY(openedAt(writer, path()));
    Window w(demo, &writer);
    SendOptions options;
    options.systemPrompt = u"Be brief."_s;
    options.maxTokens = 77;
    options.temperature = 0.25;
    QSignalSpy answered(&w.session, &ChatSession::succeeded);
    w.session.send(u"With options"_s, options);
    QVERIFY(answered.wait(10000));
    const QList<demo::RecordedRequest> chats = demo.chats();
    QVERIFY(chats.size() >= 2);
    QCOMPARE(chats.constLast().body, chats.constFirst().body); // the same request again
    QVERIFY(chats.constLast().body.contains("\"max_tokens\":77"));
    QVERIFY(chats.constLast().body.contains("Be brief."));
}

void TestParkingLot::survivesARestart()
{
    testing::ThreadedDemo demo(scenario(u"reset"_s, 600)); // due 2.4 s after the park
    QString error;
    QVERIFY(demo.start(kScale, &error).isValid()); // the provider's cap outlives the window
    QUuid conversation;
    QDateTime due;
    {
        history::HistoryWriter writer;
        QVERIFY(openedAt(writer, path()));
        Window w(demo, &writer);
        QSignalSpy parked(&w.session, &ChatSession::parkedChanged);
        w.session.send(u"Across a restart"_s, {});
        QVERIFY(parked.wait(10000));
        conversation = w.session.conversationId();
        due = w.lot.sends().constFirst().dueAt;
        QVERIFY(flushed(writer));
    } // the window closes: writer, lot and session are gone; the demo's cap goes on
    const int before = int(demo.chats().size());

    history::HistoryWriter writer;
    QVERIFY(openedAt(writer, path()));
    Window w(demo, &writer); // shows a new, empty conversation
    QSignalSpy restored(&w.lot, &ParkingLot::restored);
    QSignalSpy finished(&w.lot, &ParkingLot::finished);
    QVERIFY(restored.wait(5000));
    QCOMPARE(restored.first().at(0).toInt(), 1);
    QCOMPARE(w.lot.sends().constFirst().conversation, conversation);
    QCOMPARE(w.lot.sends().constFirst().prompt, u"Across a restart"_s);
    QCOMPARE(int(demo.chats().size()), before); // not before its reset
    QVERIFY(finished.wait(10000));
    QVERIFY(QDateTime::currentDateTimeUtc() >= due);
    QCOMPARE(finished.first().at(1).value<net::SendSummary::Outcome>(),
        net::SendSummary::Outcome::Succeeded);
    QVERIFY(w.session.conversationId().isNull()); // sent in a session of its own
    QVERIFY(flushed(writer));
    history::HistoryStore store;
    QVERIFY(store.open(path()).persistent());
    const QList<history::Message> messages = store.messages(conversation);
    QCOMPARE(messages.size(), 2);
    QCOMPARE(messages.at(1).state, history::MessageState::Complete);
    QVERIFY(store.parkedSends().isEmpty());
    demo.stop();
}

void TestParkingLot::goesWithItsConversationsProfile()
{
    testing::ThreadedDemo demo(scenario(u"reset"_s, 600)); // due 2.4 s after the park
    QString error;
    QVERIFY(demo.start(kScale, &error).isValid()); // the provider's cap outlives the window
    ProviderChoice work = demoChoice();
    work.profile = u"work"_s;
    work.profileName = u"Work"_s;
    QUuid conversation;
    {
        history::HistoryWriter writer;
        QVERIFY(openedAt(writer, path()));
        Window w(demo, &writer);
        w.session.setProvider(work);
        QSignalSpy parked(&w.session, &ChatSession::parkedChanged);
        w.session.send(u"With Work's key"_s, {});
        QVERIFY(parked.wait(10000));
        conversation = w.session.conversationId();
        QCOMPARE(w.lot.profileOf(w.lot.sends().constFirst().id), u"work"_s);
        QVERIFY(flushed(writer));
    }

    // Read back: the profile stored with its conversation. While that profile talks to another
    // provider it waits, and no session is made; once it talks to its own again, the session
    // is made for that profile.
    history::HistoryWriter writer;
    QVERIFY(openedAt(writer, path()));
    Window w(demo, &writer);
    ProviderChoice elsewhere;
    elsewhere.endpoint = QUrl(u"http://127.0.0.1:9/v1"_s);
    elsewhere.profile = u"work"_s;
    elsewhere.profileName = u"Work"_s;
    // Work talks to another provider now; the default profile (the demo) would be the parked
    // send's own: waiting proves the lot resolved the conversation's profile, not the default.
    w.lot.setSessionSetup(setupOf(demo, { profileOn(u"work"_s, u"Work"_s, elsewhere.endpoint) }));
    QSignalSpy restored(&w.lot, &ParkingLot::restored);
    QSignalSpy finished(&w.lot, &ParkingLot::finished);
    QSignalSpy released(&w.lot, &ParkingLot::released);
    QVERIFY(restored.wait(5000));
    const QUuid id = w.lot.sends().constFirst().id;
    QCOMPARE(w.lot.profileOf(id), u"work"_s);
    QTRY_VERIFY_WITH_TIMEOUT(w.lot.waitsForProvider(id), 10000);
    QVERIFY(!w.lot.isRunning(id)); // no session made for it meanwhile
    QVERIFY(released.isEmpty());
    // Work is back on the demo (the window applied its settings): it goes, with Work.
    w.lot.setSessionSetup(setupOf(demo, { profileOn(u"work"_s, u"Work"_s) }));
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.first().at(1).value<net::SendSummary::Outcome>(),
        net::SendSummary::Outcome::Succeeded);
    QCOMPARE(released.size(), 1);
    QVERIFY(flushed(writer));
    history::HistoryStore store;
    QVERIFY(store.open(path()).persistent());
    const QList<history::StoredRetryRecord> records = store.retryRecords(conversation);
    const auto unparked = std::find_if(records.cbegin(), records.cend(),
        [](const history::StoredRetryRecord &r) { return r.record.event == u"unparked"_s; });
    QVERIFY(unparked != records.cend());
    QCOMPARE(unparked->record.profile, u"Work"_s); // finding 14: named, not empty
    demo.stop();
}

void TestParkingLot::profileChosenMeanwhileIsTheOneSentWith()
{
    // Parked under Work; another profile on the same provider is stored for the conversation
    // while no session shows it. The lot's session is made for Work, finds Personal stored when
    // it opens the conversation, and is made again for Personal, which sends it.
    testing::ThreadedDemo demo(scenario(u"reset"_s));
    history::HistoryWriter writer;
    QVERIFY(openedAt(writer, path()));
    Window w(demo, &writer);
    ProviderChoice work = demoChoice();
    work.profile = u"work"_s;
    work.profileName = u"Work"_s;
    w.lot.setSessionSetup(
        setupOf(demo, { profileOn(u"work"_s, u"Work"_s), profileOn(u"home"_s, u"Personal"_s) }));
    w.session.setProvider(work);
    QSignalSpy parked(&w.session, &ChatSession::parkedChanged);
    QSignalSpy finished(&w.lot, &ParkingLot::finished);
    w.session.send(u"Sent with the profile stored last"_s, {});
    QVERIFY(parked.wait(10000));
    const QUuid conversation = w.session.conversationId();
    const QUuid id = w.lot.sends().constFirst().id;
    QCOMPARE(w.lot.profileOf(id), u"work"_s);
    w.session.newConversation();
    writer.setConversationProfile(conversation, u"home"_s);

    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.first().at(1).value<net::SendSummary::Outcome>(),
        net::SendSummary::Outcome::Succeeded);
    QVERIFY(flushed(writer));
    history::HistoryStore store;
    QVERIFY(store.open(path()).persistent());
    const QList<history::Message> messages = store.messages(conversation);
    QVERIFY(!messages.isEmpty());
    QCOMPARE(messages.last().role, history::Role::Assistant);
    QCOMPARE(messages.last().profile, u"Personal"_s);
}

void TestParkingLot::plainHttpWaitsForTheConsent()
{
    // A parked send to a host that is not this machine, over plain HTTP, with a key: not sent
    // until the consent is given in this session (TEST-NET-1: nothing answers there).
    qputenv("CAPWATCH_TEST_PLAIN_KEY", "sk-plain-0123456789");
    ChatSession s;
    const ProviderChoice plain = plainHttpChoice();
    s.setProvider(plain);
    QVERIFY(s.provider().needsPlainHttpConsent());
    history::ParkedSend p;
    p.id = QUuid::createUuid();
    p.provider = ParkingLot::laneOf(plain);
    QCOMPARE(p.provider, s.provider().lane());
    p.prompt = u"Not without consent"_s;
    p.parkedAt = QDateTime::currentDateTimeUtc();
    p.dueAt = p.parkedAt;
    p.resetAt = p.parkedAt;
    testing::LoopbackServer proxy(QByteArray {}); // holds every request
    QVERIFY(routedThrough(proxy));
    const auto restore = qScopeGuard(
        [] { QNetworkProxy::setApplicationProxy(QNetworkProxy(QNetworkProxy::NoProxy)); });
    QCOMPARE(s.runParked(p, Unpark::ResetReached), quint64(0));
    QVERIFY(!s.busy());
    s.provider().allowPlainHttp();
    QVERIFY(s.runParked(p, Unpark::ResetReached) != 0);
    QVERIFY(s.busy());
    // What reached the host: the parked prompt, with the key.
    QTRY_COMPARE_WITH_TIMEOUT(proxy.heads().size(), 1, 10000);
    const QByteArray differs = proxy.firstRequestDiffers(
        "http://192.0.2.1/v1/chat/completions", "sk-plain-0123456789", "Not without consent");
    QVERIFY2(differs.isEmpty(), differs.constData());
    QCOMPARE(proxy.connections(), 1);
    s.stop();
    qunsetenv("CAPWATCH_TEST_PLAIN_KEY");
}

void TestParkingLot::theLotTellsItWaitsForTheConsent()
{
    // Due, on its own provider, but plain HTTP to another machine with a key: the lot says it
    // waits for the consent (not for its provider to be chosen again), and Send now after the
    // consent sends it. (TEST-NET-1: nothing answers there.)
    qputenv("CAPWATCH_TEST_PLAIN_KEY", "sk-plain-0123456789");
    ParkingLot lot;
    ChatSession s;
    const ProviderChoice plain = plainHttpChoice();
    s.setProvider(plain);
    s.setParkingLot(&lot);
    history::ParkedSend p;
    p.provider = ParkingLot::laneOf(plain);
    p.prompt = u"Not without consent"_s;
    p.parkedAt = QDateTime::currentDateTimeUtc();
    p.dueAt = p.parkedAt;
    p.resetAt = p.parkedAt;
    testing::LoopbackServer proxy(QByteArray {}); // holds every request
    QVERIFY(routedThrough(proxy));
    const auto restore = qScopeGuard(
        [] { QNetworkProxy::setApplicationProxy(QNetworkProxy(QNetworkProxy::NoProxy)); });
    const QUuid id = lot.park(p, &s);
    QSignalSpy changed(&lot, &ParkingLot::changed); // after park()'s own
    QTRY_VERIFY_WITH_TIMEOUT(lot.waitsForConsent(id), 5000);
    QVERIFY(!lot.waitsForProvider(id));
    QVERIFY(!lot.isRunning(id));
    QVERIFY(!s.busy());
    QVERIFY(!changed.isEmpty()); // the queue and the card hear of it
    QCOMPARE(proxy.connections(), 0); // nothing left for the host

    s.provider().allowPlainHttp();
    QVERIFY(lot.sendNow(id));
    QTRY_VERIFY_WITH_TIMEOUT(lot.isRunning(id), 5000);
    QVERIFY(!lot.waitsForConsent(id));
    QVERIFY(s.busy());
    // Sent: the request reached the host, with its key.
    QTRY_COMPARE_WITH_TIMEOUT(proxy.heads().size(), 1, 10000);
    const QByteArray differs = proxy.firstRequestDiffers(
        "http://192.0.2.1/v1/chat/completions", "sk-plain-0123456789", "Not without consent");
    QVERIFY2(differs.isEmpty(), differs.constData());
    s.stop();
    qunsetenv("CAPWATCH_TEST_PLAIN_KEY");
}

void TestParkingLot::survivesAKill()
{
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"CAPWATCH_PARK_CHILD"_s, path());
    child.setProcessEnvironment(env);
    child.start(QCoreApplication::applicationFilePath(), {});
    QVERIFY(child.waitForStarted(10000));
    QByteArray out;
    QElapsedTimer t;
    t.start();
    while (!out.contains("parked") && t.elapsed() < 20000 && child.state() == QProcess::Running) {
        child.waitForReadyRead(500);
        out += child.readAllStandardOutput();
    }
    QVERIFY2(out.contains("parked"), out.constData());
    child.kill(); // SIGKILL: nothing is closed or flushed any more
    QVERIFY(child.waitForFinished(10000));
    QCOMPARE(child.exitStatus(), QProcess::CrashExit);

    // Started again an hour later (the wall clock moved on): the reset passed while closed.
    testing::ThreadedDemo demo(scenario(u"capped"_s));
    history::HistoryWriter writer;
    QVERIFY(openedAt(writer, path()));
    Window w(demo, &writer);
    w.lot.setWallClock([] { return QDateTime::currentDateTimeUtc().addSecs(3600); });
    QSignalSpy finished(&w.lot, &ParkingLot::finished);
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.first().at(0).value<history::ParkedSend>().prompt, u"Survive a kill -9"_s);
    QCOMPARE(finished.first().at(1).value<net::SendSummary::Outcome>(),
        net::SendSummary::Outcome::Succeeded);
    QCOMPARE(demo.chats().size(), 1);
}

void TestParkingLot::notReleasedIntoASend()
{
    // docs/parking.md, "Not in the middle of something": a due parked send of the conversation
    // shown is not released into the session while it sends; it goes once that send ended.
    testing::ThreadedDemo demo(scenario(u"hang"_s)); // each request held until it is cancelled
    Window w(demo, nullptr);
    w.session.setTimeScale(1.0); // no header timeout ends the held send during the test
    int reads = 0;
    w.lot.setWallClock(countingClock(reads));
    w.session.send(u"Busy with this"_s, {});
    QTRY_COMPARE_WITH_TIMEOUT(demo.chats().size(), 1, 10000);
    QVERIFY(w.session.busy());

    QSignalSpy released(&w.lot, &ParkingLot::released);
    const QUuid id = w.lot.park(dueNow(u"Parked meanwhile"_s));
    const int afterPark = reads;
    QTRY_VERIFY_WITH_TIMEOUT(!released.isEmpty() || reads >= afterPark + kThreeLooks, 10000);
    QVERIFY(released.isEmpty());
    QVERIFY(!w.lot.isRunning(id));
    QVERIFY(!w.lot.waitsForProvider(id)); // it waits for the send, not for its provider
    QCOMPARE(demo.chats().size(), 1);
    QVERIFY(w.session.busy()); // with its own send still

    w.session.stop(); // the user's Stop of their own send: the session is free
    QTRY_COMPARE_WITH_TIMEOUT(demo.chats().size(), 2, 10000);
    QCOMPARE(demo.chats().constLast().lastUserMessage(), u"Parked meanwhile"_s);
    QCOMPARE(released.size(), 1);
    QCOMPARE(released.first().at(0).value<history::ParkedSend>().id, id);
    QVERIFY(w.lot.isRunning(id));
    w.session.stop();
}

void TestParkingLot::notReleasedIntoAnEdit()
{
    // Not while the last exchange is being edited (Edit and resend): sent then, it would take
    // the edit's place. Once the edit is over (here: cancelled), the next look sends it.
    testing::ThreadedDemo demo(scenario(u"capped"_s));
    Window w(demo, nullptr);
    int reads = 0;
    w.lot.setWallClock(countingClock(reads));
    QSignalSpy answered(&w.session, &ChatSession::succeeded);
    w.session.send(u"First question"_s, {});
    QVERIFY(answered.wait(10000));
    QVERIFY(w.session.beginEdit());

    QSignalSpy released(&w.lot, &ParkingLot::released);
    const QUuid id = w.lot.park(dueNow(u"Parked meanwhile"_s));
    const int afterPark = reads;
    QTRY_VERIFY_WITH_TIMEOUT(!released.isEmpty() || reads >= afterPark + kThreeLooks, 10000);
    QVERIFY(released.isEmpty());
    QVERIFY(!w.lot.isRunning(id));
    QVERIFY(!w.lot.waitsForProvider(id));
    QCOMPARE(demo.chats().size(), 1);
    QVERIFY(w.session.editing());
    QVERIFY(w.session.sendReplacesLastExchange());

    w.session.endEdit(); // Cancel editing: nothing else tells the lot, its next look sends it
    QTRY_COMPARE_WITH_TIMEOUT(answered.size(), 2, 10000);
    QCOMPARE(released.size(), 1);
    const QList<demo::RecordedRequest> chats = demo.chats();
    QCOMPARE(chats.size(), 2);
    QCOMPARE(chats.constLast().lastUserMessage(), u"Parked meanwhile"_s);
    QVERIFY(chats.constLast().body.contains("First question")); // after the exchange, kept
    QCOMPARE(w.session.history().size(), 4);
    QCOMPARE(w.session.history().at(2).content, u"Parked meanwhile"_s);
}

void TestParkingLot::notReleasedIntoAnOpening()
{
    // Not while another conversation is being opened: a send would win over that restore and
    // drop it. Once the other conversation shows, the parked send goes in a session of the
    // lot's, since its own conversation is not shown any more.
    testing::ThreadedDemo demo(scenario(u"capped"_s));
    history::HistoryWriter writer;
    QVERIFY(openedAt(writer, path()));
    Window w(demo, &writer);
    QSignalSpy readBack(&w.lot, &ParkingLot::restored);
    QVERIFY(readBack.wait(5000) || readBack.size() == 1);
    int reads = 0;
    w.lot.setWallClock(countingClock(reads));
    QSignalSpy answered(&w.session, &ChatSession::succeeded);
    w.session.send(u"In the first conversation"_s, {});
    QVERIFY(answered.wait(10000));
    const QUuid first = w.session.conversationId();
    QVERIFY(!first.isNull());
    history::Conversation c;
    c.endpoint = u"http://127.0.0.1/v1"_s;
    c.model = u"capwatch-demo"_s;
    const QUuid other = writer.addConversation(c);
    history::Message inOther;
    inOther.conversation = other;
    inOther.text = u"In the other conversation"_s;
    writer.addMessage(inOther);
    history::Message prompt; // the parked prompt, stored in the first conversation
    prompt.conversation = first;
    prompt.text = u"Parked meanwhile"_s;
    history::ParkedSend p = dueNow(prompt.text);
    p.conversation = first;
    p.message = writer.addMessage(prompt);

    // The history's thread held: the other conversation is being read until the test says.
    QSemaphore gate;
    auto letGo = qScopeGuard([&gate] { gate.release(); }); // never left stuck by a failure
    writer.read(
        this,
        [&gate](history::HistoryStore &) {
            gate.acquire();
            return 0;
        },
        [](int) {});
    QSignalSpy restored(&w.session, &ChatSession::conversationRestored);
    w.session.openConversation(other);
    QVERIFY(w.session.opening());

    QSignalSpy released(&w.lot, &ParkingLot::released);
    QSignalSpy finished(&w.lot, &ParkingLot::finished);
    const QUuid id = w.lot.park(p);
    const int afterPark = reads;
    QTRY_VERIFY_WITH_TIMEOUT(!released.isEmpty() || reads >= afterPark + kThreeLooks, 10000);
    QVERIFY(released.isEmpty());
    QVERIFY(!w.lot.isRunning(id));
    QVERIFY(!w.lot.waitsForProvider(id));
    QCOMPARE(demo.chats().size(), 1);
    QCOMPARE(w.session.conversationId(), first); // still shown while the other is read

    letGo.dismiss();
    gate.release();
    QVERIFY(restored.wait(10000));
    QCOMPARE(restored.first().at(0).value<RestoredConversation>().id, other);
    QCOMPARE(w.session.conversationId(), other); // the opening was not dropped
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
    QCOMPARE(finished.first().at(0).value<history::ParkedSend>().id, id);
    QCOMPARE(finished.first().at(1).value<net::SendSummary::Outcome>(),
        net::SendSummary::Outcome::Succeeded);
    QCOMPARE(released.size(), 1);
    const QList<demo::RecordedRequest> chats = demo.chats();
    QCOMPARE(chats.size(), 2);
    QCOMPARE(chats.constLast().lastUserMessage(), u"Parked meanwhile"_s);
    QCOMPARE(w.session.conversationId(), other);
    QVERIFY(w.session.history().isEmpty()); // the other's prompt has no answer: nothing sent
}

void TestParkingLot::resetsPassedWhileClosedGoOneByOne()
{
    // Three conversations, each of a profile of its own on a provider of its own, each with a
    // send parked until a reset that passed while closed. Sends of three providers could go out
    // side by side (one at a time is the rule of one provider): these go one by one because
    // they were due at start-up, whatever their provider.
    std::vector<std::unique_ptr<testing::ThreadedDemo>> providers;
    QList<session::ProviderProfile> profiles;
    for (int i = 0; i < 3; ++i) {
        providers.push_back(std::make_unique<testing::ThreadedDemo>(scenario(u"capped"_s)));
        QString error;
        const QUrl url = providers.back()->start(kScale, &error);
        QVERIFY2(url.isValid(), qPrintable(error));
        profiles << profileOn(u"p%1"_s.arg(i), u"Provider %1"_s.arg(i), url);
    }
    testing::ThreadedDemo demo(scenario(u"capped"_s)); // the window's own, sent nothing
    const session::SessionSetup setup = setupOf(demo, profiles);
    QStringList lanes;
    {
        history::HistoryStore store;
        QVERIFY(store.open(path()).persistent());
        for (int i = 0; i < 3; ++i) {
            const ProviderChoice choice = setup.providers.choice(profiles.at(i).id);
            history::Conversation c;
            c.endpoint = choice.endpoint.toString();
            c.model = u"capwatch-demo"_s;
            c.profile = profiles.at(i).id;
            QVERIFY(store.addConversation(c));
            history::Message m;
            m.conversation = c.id;
            m.text = u"Closed %1"_s.arg(i);
            QVERIFY(store.addMessage(m));
            history::ParkedSend p;
            p.conversation = c.id;
            p.message = m.id;
            p.provider = ParkingLot::laneOf(choice);
            p.model = u"capwatch-demo"_s;
            p.options = u"{}"_s;
            p.parkedAt = QDateTime::currentDateTimeUtc().addSecs(-3600 + i);
            p.dueAt = QDateTime::currentDateTimeUtc().addSecs(-1800 + i);
            p.resetAt = p.dueAt;
            QVERIFY(store.addParkedSend(p));
            lanes << p.provider;
        }
    }
    QCOMPARE(QSet<QString>(lanes.cbegin(), lanes.cend()).size(), 3); // three providers
    history::HistoryWriter writer;
    QVERIFY(openedAt(writer, path()));
    Window w(demo, &writer);
    w.lot.setSessionSetup(setup);
    QStringList order; // "released N" / "ended N", as they happen
    connect(&w.lot, &ParkingLot::released, this,
        [&](const history::ParkedSend &p) { order << u"released "_s + p.prompt.right(1); });
    connect(&w.lot, &ParkingLot::finished, this,
        [&](const history::ParkedSend &p) { order << u"ended "_s + p.prompt.right(1); });
    QTRY_COMPARE_WITH_TIMEOUT(order.size(), 6, 15000);
    QCOMPARE(order,
        (QStringList { u"released 0"_s, u"ended 0"_s, u"released 1"_s, u"ended 1"_s,
            u"released 2"_s, u"ended 2"_s }));
    for (int i = 0; i < 3; ++i) {
        const QList<demo::RecordedRequest> chats = providers.at(i)->chats();
        QCOMPARE(chats.size(), 1); // each to its own provider
        QCOMPARE(chats.constFirst().lastUserMessage(), u"Closed %1"_s.arg(i));
    }
    QCOMPARE(demo.chats().size(), 0);
}

void TestParkingLot::oneProviderOneAtATime()
{
    // Three conversations park on the demo, all due in the same second.
    testing::ThreadedDemo demo(scenario(u"capped"_s));
    history::HistoryWriter writer;
    QVERIFY(openedAt(writer, path()));
    Window w(demo, &writer);
    QSignalSpy restored(&w.lot, &ParkingLot::restored);
    QVERIFY(restored.wait(5000) || restored.size() == 1);
    const QDateTime due = QDateTime::currentDateTimeUtc().addMSecs(400);
    for (int i = 0; i < 3; ++i) {
        history::Conversation c;
        c.endpoint = u"http://127.0.0.1/v1"_s;
        c.model = u"capwatch-demo"_s;
        const QUuid conversation = writer.addConversation(c);
        history::Message m;
        m.conversation = conversation;
        m.text = u"Same provider %1"_s.arg(i);
        const QUuid message = writer.addMessage(m);
        history::ParkedSend p;
        p.conversation = conversation;
        p.message = message;
        p.provider = u"demo"_s;
        p.dueAt = due;
        p.resetAt = due;
        p.prompt = m.text;
        w.lot.park(p);
    }
    QCOMPARE(w.lot.count(), 3);
    int running = 0;
    int mostAtOnce = 0;
    QList<QDateTime> releasedAt;
    connect(&w.lot, &ParkingLot::released, this, [&] {
        releasedAt << QDateTime::currentDateTimeUtc();
        mostAtOnce = std::max(mostAtOnce, ++running);
    });
    connect(&w.lot, &ParkingLot::finished, this, [&] { --running; });
    QTRY_COMPARE_WITH_TIMEOUT(w.lot.count(), 0, 15000);
    QCOMPARE(releasedAt.size(), 3);
    QCOMPARE(mostAtOnce, 1); // the next only after the previous one ended
    QVERIFY(releasedAt.first() >= due);
    QCOMPARE(demo.chats().size(), 3);
}

void TestParkingLot::reparkingStopsAfterThree()
{
    // Every request: "Retry in 18 min." (5.4 s here); each reset comes and the cap does not go.
    testing::ThreadedDemo demo(scenario(u"headline"_s));
    Window w(demo, nullptr);
    // A wall clock that runs 18 min ahead after each park: the reset comes at once.
    qint64 ahead = 0;
    w.lot.setWallClock([&ahead] { return QDateTime::currentDateTimeUtc().addMSecs(ahead); });
    connect(&w.lot, &ParkingLot::changed, this, [&] {
        if (w.lot.count() > 0)
            ahead += 6000;
    });
    QList<ParkOffer> offers;
    connect(&w.session, &ChatSession::parkOffered, this, [&](const ParkOffer &o) { offers << o; });
    w.session.send(u"Three times and no more"_s, {});
    QTRY_VERIFY_WITH_TIMEOUT(offers.size() == 4, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!w.session.busy(), 5000);
    QCOMPARE(offers.at(0).parksInARow, 0);
    QCOMPARE(offers.at(2).parksInARow, 2);
    QVERIFY(offers.at(2).parkable);
    QVERIFY(!offers.at(3).parkable);
    QCOMPARE(offers.at(3).refusal, retry::ParkRefusal::ReparkedTooOften);
    QVERIFY(offers.at(3).reason.contains(u"3 times"_s));
    QCOMPARE(countOf(*w.session.retryLog(), Event::Parked), 3);
    QCOMPARE(countOf(*w.session.retryLog(), Event::Unparked), 3);
    QCOMPARE(countOf(*w.session.retryLog(), Event::GaveUp), 4);
    QCOMPARE(w.lot.count(), 0);
    QVERIFY(!w.session.sendState().isParked());
    QCOMPARE(w.session.failedPrompt(), u"Three times and no more"_s);
}

void TestParkingLot::resetInTwentyFiveHoursIsNotParked()
{
    testing::ThreadedDemo demo(scenario(u"reset"_s, 25 * 3600));
    Window w(demo, nullptr); // Automatic, and still not parked
    QSignalSpy offered(&w.session, &ChatSession::parkOffered);
    w.session.send(u"Tomorrow is too late"_s, {});
    QVERIFY(offered.wait(10000));
    const ParkOffer offer = offered.first().at(0).value<ParkOffer>();
    QVERIFY(!offer.parkable);
    QCOMPARE(offer.refusal, retry::ParkRefusal::TooFar);
    QVERIFY2(offer.reason.contains(u"more than 24 h"_s), qPrintable(offer.reason));
    QVERIFY(offer.resetIn > retry::kMaxParkWait);
    QCOMPARE(w.lot.count(), 0);
    QCOMPARE(countOf(*w.session.retryLog(), Event::Parked), 0);
    QVERIFY(!w.session.park());
}

void TestParkingLot::suspendReleasesWithinTwoSeconds()
{
    CAPWATCH_TIMING_RUNS_ALONE();
    // Parked for an hour of wall time; the machine sleeps for that hour: the monotonic timer
    // (an hour away) stopped meanwhile, the wall clock did not.
    testing::ThreadedDemo demo(scenario(u"capped"_s));
    Window w(demo, nullptr);
    qint64 slept = 0;
    w.lot.setWallClock([&slept] { return QDateTime::currentDateTimeUtc().addMSecs(slept); });
    history::ParkedSend p;
    p.prompt = u"After the sleep"_s;
    p.provider = u"demo"_s;
    p.dueAt = QDateTime::currentDateTimeUtc().addSecs(3600);
    p.resetAt = p.dueAt;
    p.options = u"{}"_s;
    w.lot.park(p);
    QCOMPARE(w.lot.count(), 1);
    QSignalSpy released(&w.lot, &ParkingLot::released);
    QTest::qWait(1200);
    QCOMPARE(released.size(), 0); // an hour to go
    QElapsedTimer woke;
    slept = 3600 * 1000; // wake up
    woke.start();
    QVERIFY(released.wait(2500));
    QVERIFY2(woke.elapsed() <= 2000, qPrintable(QString::number(woke.elapsed())));
    QSignalSpy answered(&w.session, &ChatSession::succeeded);
    QVERIFY(answered.wait(5000));
}

void TestParkingLot::unstoredParkStaysWithItsConversation()
{
    // No history (--private): the parked prompt belongs to the conversation it was parked in.
    // After New conversation it must not go out as the first message of the new one.
    testing::ThreadedDemo demo(scenario(u"reset"_s));
    Window w(demo, nullptr);
    QSignalSpy parked(&w.session, &ChatSession::parkedChanged);
    w.session.send(u"Only here"_s, {});
    QVERIFY(parked.wait(10000));
    const int before = int(demo.chats().size());
    const QDateTime due = w.lot.sends().constFirst().dueAt;
    w.session.newConversation();
    QTRY_VERIFY_WITH_TIMEOUT(QDateTime::currentDateTimeUtc() > due.addMSecs(500), 5000);
    QTest::qWait(1200); // a recheck of the wall clock came
    QCOMPARE(int(demo.chats().size()), before);
    QVERIFY(w.session.history().isEmpty());
    QCOMPARE(w.lot.count(), 1); // still in the queue, where it can be cancelled
    QVERIFY(w.lot.cancel(w.lot.sends().constFirst().id));
}

void TestParkingLot::releasedOnTimeOverAHundredParks()
{
    CAPWATCH_TIMING_RUNS_ALONE();
    // The figure of docs/performance.md: 100 parks due 10-60 ms ahead, each sent; how late
    // after its due time the request went out (its attempt 1 started), never early.
    testing::ThreadedDemo demo(scenario(u"capped"_s));
    Window w(demo, nullptr);
    QList<qint64> lateMs;
    QList<QDateTime> dueAt;
    for (int i = 0; i < 100; ++i) {
        history::ParkedSend p;
        p.prompt = u"Park %1"_s.arg(i);
        p.provider = u"demo"_s;
        p.options = u"{\"max_tokens\":1}"_s;
        p.dueAt = QDateTime::currentDateTimeUtc().addMSecs(10 + (i * 37) % 50);
        p.resetAt = p.dueAt;
        // The wall time its attempt 1 started, taken in the slot (not when the test looks).
        QDateTime attemptAt;
        const QMetaObject::Connection c = connect(&w.session, &ChatSession::sendStateChanged,
            &w.session, [&attemptAt](const SendState &s) {
                if (!attemptAt.isValid() && s.phase == SendPhase::Sending && s.attempt == 1)
                    attemptAt = QDateTime::currentDateTimeUtc();
            });
        QSignalSpy answered(&w.session, &ChatSession::succeeded);
        QSignalSpy states(&w.session, &ChatSession::sendStateChanged);
        w.lot.park(p);
        // An event loop of its own (not QTRY's sleeps): the lot's timer fires on time.
        while (!attemptAt.isValid() && states.wait(5000)) { }
        QVERIFY(attemptAt.isValid());
        disconnect(c);
        lateMs << p.dueAt.msecsTo(attemptAt);
        dueAt << p.dueAt;
        QVERIFY(answered.size() == 1 || answered.wait(5000));
        QTRY_COMPARE_WITH_TIMEOUT(w.lot.count(), 0, 2000);
    }
    std::sort(lateMs.begin(), lateMs.end());
    const qint64 p50 = lateMs.at(49);
    const qint64 p99 = lateMs.at(98);
    std::printf("parking: 100 parks sent %lld ms (min) %lld ms (median) %lld ms (p99) %lld ms "
                "(max) after their due time\n",
        static_cast<long long>(lateMs.constFirst()), static_cast<long long>(p50),
        static_cast<long long>(p99), static_cast<long long>(lateMs.constLast()));
    QVERIFY(lateMs.constFirst() >= 0); // never before its reset
    // Nor did any request reach the provider before its reset.
    const QList<QDateTime> arrivals = demo.chatArrivals();
    QCOMPARE(arrivals.size(), dueAt.size());
    for (qsizetype i = 0; i < arrivals.size(); ++i)
        QVERIFY2(arrivals.at(i) >= dueAt.at(i), qPrintable(QString::number(i)));
    QVERIFY2(p99 <= 1000, qPrintable(QString::number(p99)));
}

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsSet("CAPWATCH_PARK_CHILD"))
        return parkChild(argc, argv);
    QCoreApplication app(argc, argv);
    TestParkingLot test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_parkinglot.moc"
