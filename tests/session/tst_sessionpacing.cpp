// Pacing and trimming without a widget (docs/retry-policy.md section 8): ChatSession with a
// ProviderMemory against the demo provider on its own thread, time-scaled. Twenty quick sends on
// the capped demo get no 422 once the first answer has told the window, and get the 422s
// without pacing; Send now and Cancel during a pacing wait; the window report survives into a new
// memory through the history; a conversation that outgrows the context scenario's window is
// offered a trim, answered without its oldest turns (absent from the request at the provider),
// and trimmed by itself with the automatic setting; an embedded demo that is a fallback files its
// window under the lane "demo", as the session's own demo does.

#include "history/historywriter.h"
#include "session/chatsession.h"
#include "session/providermemory.h"
#include "support/demolocalprovider.h"
#include "support/sendsteps.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>

using namespace capwatch;
using namespace capwatch::session;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

/// Counts the events of one type that reach an object.
class EventCounter final : public QObject
{
public:
    EventCounter(QObject *watched, QEvent::Type type, int *count)
        : m_type(type)
        , m_count(count)
    {
        watched->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == m_type)
            ++*m_count;
        return false;
    }

private:
    QEvent::Type m_type;
    int *m_count;
};

constexpr double kScale = 0.01; // the capped demo's 60 s window takes 0.6 s

demo::DemoOptions capped()
{
    demo::DemoOptions o;
    o.scenario = u"capped"_s;
    o.limit = 6000; // six sends of 1000 tokens a minute
    o.windowSeconds = 60;
    return o;
}

demo::DemoOptions context(qint64 window)
{
    demo::DemoOptions o;
    o.scenario = u"context"_s;
    o.contextWindow = window;
    return o;
}

struct Fixture
{
    explicit Fixture(const demo::DemoOptions &options)
        : demo(options)
    {
        session.setTimeScale(kScale);
        session.provider().setLocalProvider(&demo);
        session.context().setProviderMemory(&memory);
        ProviderChoice choice;
        choice.demo = true;
        session.setProvider(choice);
    }
    testing::ThreadedDemo demo;
    ProviderMemory memory;
    ChatSession session;

    /// Sends `prompt` and waits for its end; true when it was answered.
    bool ask(const QString &prompt, const SendOptions &options = {}, int timeoutMs = 20'000)
    {
        QSignalSpy ok(&session, &ChatSession::succeeded);
        QSignalSpy failed(&session, &ChatSession::gaveUp);
        if (session.send(prompt, options) == 0)
            return false;
        if (!QTest::qWaitFor([&] { return !ok.isEmpty() || !failed.isEmpty(); }, timeoutMs))
            return false;
        return !ok.isEmpty();
    }

    /// Five sends of 1,002 tokens ("fill N": 2 prompt tokens and the default 1,000 of the
    /// answer, each in a conversation of its own so that no transcript adds to it): the capped
    /// demo's window has 990 left, less than a send's estimate (its 1,000 and the prompt's), so
    /// the next send is paced.
    void fill()
    {
        for (int i = 0; i < 5; ++i) {
            session.newConversation();
            QVERIFY(ask(u"fill %1"_s.arg(i)));
        }
    }

    int records(net::RetryRecord::Event event, std::optional<int> status = {}) const
    {
        int n = 0;
        for (const net::RetryRecord &r : session.retryLog()->records())
            n += r.event == event && (!status || r.status == status);
        return n;
    }
};

/// The contents of the messages of a request as the provider received it.
QStringList contents(const demo::RecordedRequest &request)
{
    QStringList out;
    for (const QJsonValue &m : request.json().value(u"messages").toArray())
        out.append(m.toObject().value(u"content").toString());
    return out;
}

/// A turn's prompt of about 1,200 characters (300 tokens at the demo's 4 a token), numbered.
QString longPrompt(int n)
{
    return u"Turn %1: "_s.arg(n) + QString(1200, u'x');
}

} // namespace

class TestSessionPacing final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void twentyQuickSendsArePacedNotRefused();
    void withoutPacingTheyAreRefused();
    void sendNowEndsThePacingWait();
    void aResetBeyondAMinuteIsNotWaitedFor();
    void cancelDuringPacing();
    void theWindowReportOutlivesTheProcess();
    void theWindowReportIsReadWhenTheHistoryOpensLater();
    void theRatioIsLearnedAndKept();
    void aConversationOverTheContextIsTrimmedAndAnswered();
    void automaticTrimmingSaysWhatWasLeftOut();
    void theProvidersWindowOverrulesALargerSetting();
    void leftOutTurnsComeBackWithANewConversation();
    void aDemoFallbackReportsUnderTheDemoLane();
};

void TestSessionPacing::twentyQuickSendsArePacedNotRefused()
{
    Fixture f(capped());
    testing::SendSteps steps(&f.session);
    for (int i = 1; i <= 20; ++i)
        QVERIFY2(f.ask(u"Quick question %1"_s.arg(i)), qPrintable(u"send %1"_s.arg(i)));

    // One request a send: not one 422, so no retry, at the provider or in the log.
    QCOMPARE(f.demo.chats().size(), 20);
    QCOMPARE(f.records(net::RetryRecord::Event::RetryScheduled), 0);
    QCOMPARE(f.records(net::RetryRecord::Event::AttemptStarted, 422), 0);
    // Six sends fit a window; every later window was waited for: at least three times.
    const qsizetype paced = steps.pacings().size();
    QVERIFY2(paced >= 3, qPrintable(QString::number(paced)));
    QCOMPARE(f.records(net::RetryRecord::Event::Paced), paced);
    const QList<net::RetryRecord> &log = f.session.retryLog()->records();
    QList<qint64> lateness; // wall ms from a pacing wait's end to its attempt 1
    for (qsizetype i = 0; i < log.size(); ++i) {
        const net::RetryRecord &r = log.at(i);
        if (r.event != net::RetryRecord::Event::Paced)
            continue;
        QCOMPARE(r.waitSource, retry::WaitSource::RateLimitReset);
        QVERIFY(r.waitMs && *r.waitMs > 0 && *r.waitMs <= 60'000);
        QVERIFY(r.estimatedTokens && *r.estimatedTokens >= 1000);
        QVERIFY(r.windowTokensLeft && *r.windowTokensLeft < *r.estimatedTokens);
        QVERIFY(i + 1 < log.size());
        const net::RetryRecord &next = log.at(i + 1);
        QCOMPARE(next.event, net::RetryRecord::Event::AttemptStarted);
        const qint64 due = r.time.toMSecsSinceEpoch() + qint64(double(*r.waitMs) * kScale);
        lateness.append(next.time.toMSecsSinceEpoch() - due);
    }
    std::sort(lateness.begin(), lateness.end());
    QVERIFY(lateness.first() >= -1); // never early (the log's clock has whole ms)
    QVERIFY2(lateness.last() < 1000, qPrintable(QString::number(lateness.last())));
    qInfo("pacing: %d waits; attempt 1 started %lld ms (min) %lld ms (median) %lld ms (max) "
          "after the wait's end",
        int(lateness.size()), lateness.first(), lateness.at(lateness.size() / 2), lateness.last());
    // While pacing the panel's figures say so, and the budget is untouched.
    bool sawPacing = false;
    for (const SendState &p : steps.states()) {
        if (!p.pacing())
            continue;
        sawPacing = true;
        QCOMPARE(p.budgetLeft, retry::kRetryBudget);
        QVERIFY(p.waitLeft <= p.wait);
        QVERIFY(p.pace && p.pace->tokensFull);
    }
    QVERIFY(sawPacing);
}

void TestSessionPacing::withoutPacingTheyAreRefused()
{
    Fixture f(capped());
    f.session.context().setPacingEnabled(false);
    testing::SendSteps steps(&f.session);
    for (int i = 1; i <= 10; ++i)
        QVERIFY(f.ask(u"Quick question %1"_s.arg(i)));
    QCOMPARE(steps.pacings().size(), 0);
    // The seventh send of the minute is refused, and retried until the window frees.
    QVERIFY(f.records(net::RetryRecord::Event::RetryScheduled) >= 1);
    QVERIFY(f.demo.chats().size() > 10);
}

void TestSessionPacing::sendNowEndsThePacingWait()
{
    Fixture f(capped());
    f.fill();
    testing::SendSteps steps(&f.session);
    QVERIFY(f.session.send(u"now please"_s, {}) != 0);
    QTRY_COMPARE_WITH_TIMEOUT(steps.pacings().size(), 1, 2000);
    QCOMPARE(steps.attempts().size(), 0);
    QVERIFY(f.session.sendNow());
    QCOMPARE(steps.attempts().size(), 1); // started at once, not after the wait
    // The state says how long it paced: the part of the wait that ran, not the whole of it.
    const SendState now = f.session.sendState();
    QCOMPARE(now.phase, SendPhase::Sending);
    QVERIFY(now.pacedFor);
    QVERIFY(now.pace && *now.pacedFor < now.pace->wait);
    QVERIFY(!f.session.sendNow()); // nothing is pacing any more
    f.session.cancel();
}

void TestSessionPacing::aResetBeyondAMinuteIsNotWaitedFor()
{
    demo::DemoOptions o = capped();
    o.windowSeconds = 3000; // a full window resets in 50 min: far beyond a pacing wait
    o.limit = 2500; // "one" (1,001) and "two" after it (its transcript too) fit; "three" not
    Fixture f(o);
    QVERIFY(f.ask(u"one"_s));
    QVERIFY(f.ask(u"two"_s));
    testing::SendSteps steps(&f.session);
    QVERIFY(f.session.send(u"three"_s, {}) != 0);
    // Sent at once; the provider refuses it and the retry cycle takes over.
    QTRY_VERIFY_WITH_TIMEOUT(!steps.failures().isEmpty(), 5000);
    QCOMPARE(steps.pacings().size(), 0);
    QCOMPARE(steps.failures().first().status, 422);
    f.session.cancel();
}

void TestSessionPacing::cancelDuringPacing()
{
    Fixture f(capped());
    f.fill();
    const int before = f.demo.chats().size();
    testing::SendSteps steps(&f.session);
    QSignalSpy cancelled(&f.session, &ChatSession::cancelled);
    QVERIFY(f.session.send(u"cancel me"_s, {}) != 0);
    QTRY_COMPARE_WITH_TIMEOUT(steps.pacings().size(), 1, 2000);
    f.session.cancel();
    QCOMPARE(cancelled.size(), 1);
    QCOMPARE(f.session.failedPrompt(), u"cancel me"_s); // kept, for Retry now
    QTest::qWait(800); // past the pacing wait: nothing goes out
    QCOMPARE(f.demo.chats().size(), before);
}

void TestSessionPacing::theWindowReportOutlivesTheProcess()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"history.sqlite"_s);
    QDateTime resetAt;
    {
        Fixture f(capped());
        history::HistoryWriter writer;
        writer.open(path);
        f.session.setHistory(&writer);
        f.memory.setHistory(&writer);
        QTRY_VERIFY(f.memory.isLoaded());
        f.fill();
        const auto w = f.memory.window(f.session.provider().lane(), f.session.provider().model());
        QVERIFY(w);
        QCOMPARE(w->remainingTokens, std::optional<qint64>(6000 - 5 * 1002));
        QCOMPARE(w->limitTokens, std::optional<qint64>(6000));
        QVERIFY(w->tokensResetAt.isValid());
        resetAt = w->tokensResetAt;
        f.session.setHistory(nullptr);
    }
    // A new process: a new memory reads the report back and paces on it.
    history::HistoryWriter writer;
    writer.open(path);
    ProviderMemory memory;
    QSignalSpy loaded(&memory, &ProviderMemory::loaded);
    memory.setHistory(&writer);
    QVERIFY(!memory.isLoaded());
    QVERIFY(loaded.wait(5000));
    const auto w = memory.window(u"demo"_s, u"capwatch-demo"_s);
    QVERIFY(w);
    QCOMPARE(w->remainingTokens, std::optional<qint64>(6000 - 5 * 1002));
    QCOMPARE(w->tokensResetAt, resetAt);
    QVERIFY(w->receivedAt < resetAt);
    // Read on the memory's own clock, not the wall's: the reset is 0.6 s of wall time after
    // the first send, which a loaded machine may pass before this line (the check would then
    // be skipped). Read the moment the report came, the window is still ahead: it paces.
    QDateTime readAt = w->receivedAt;
    memory.setWallClock([&readAt] { return readAt; });
    const retry::PaceInput input
        = memory.paceInput(u"demo"_s, u"capwatch-demo"_s, 1010, true, kScale);
    QVERIFY(input.tokensResetLeft && input.tokensResetLeft->count() > 0);
    const retry::PaceDecision d = retry::decidePacing(input);
    QVERIFY2(d.pace, d.reason.c_str());
    // Read after its reset, the report no longer holds a send back.
    readAt = resetAt.addMSecs(1);
    const retry::PaceDecision after
        = retry::decidePacing(memory.paceInput(u"demo"_s, u"capwatch-demo"_s, 1010, true, kScale));
    QVERIFY2(!after.pace, after.reason.c_str());
}

void TestSessionPacing::theWindowReportIsReadWhenTheHistoryOpensLater()
{
    // The window attaches its history before it opens it (its sidebar fills on opened()): the
    // stored reports must be read from the opened database, not from none (issue 25, point 2).
    QTemporaryDir dir;
    const QString path = dir.filePath(u"history.sqlite"_s);
    const QDateTime receivedAt = QDateTime::currentDateTimeUtc();
    {
        history::HistoryWriter writer;
        writer.open(path);
        history::ProviderWindowRecord w;
        w.provider = u"demo"_s;
        w.model = u"capwatch-demo"_s;
        w.receivedAt = receivedAt;
        w.remainingTokens = 250;
        w.limitTokens = 6000;
        w.tokensResetAt = receivedAt.addSecs(3600);
        writer.saveProviderWindow(w);
    }
    history::HistoryWriter writer;
    ProviderMemory memory;
    QSignalSpy loaded(&memory, &ProviderMemory::loaded);
    memory.setHistory(&writer); // before open(), as MainWindow::attachHistory() does
    QVERIFY(!writer.openQueued());
    writer.open(path);
    QVERIFY(loaded.wait(5000));
    QVERIFY(memory.isLoaded());
    const auto w = memory.window(u"demo"_s, u"capwatch-demo"_s);
    QVERIFY2(w, "the stored report was not read");
    QCOMPARE(w->remainingTokens, std::optional<qint64>(250));
    QCOMPARE(w->limitTokens, std::optional<qint64>(6000));
}

void TestSessionPacing::theRatioIsLearnedAndKept()
{
    QTemporaryDir dir;
    QSettings settings(dir.filePath(u"capwatch.conf"_s), QSettings::IniFormat);
    // A QSettings with changes writes its whole file on the next turn of the event loop (an
    // UpdateRequest to itself): on the GUI thread that was 6-29 ms after every answer. What is
    // learned is written on a thread of its own, and the window's own QSettings stays clean.
    int updateRequests = 0;
    EventCounter watch(&settings, QEvent::UpdateRequest, &updateRequests);
    {
        Fixture f(capped());
        f.memory.setSettings(&settings);
        QVERIFY(f.ask(u"A prompt of some length, to learn from."_s));
        const retry::LearnedRatio r = f.memory.ratio(u"demo"_s, u"capwatch-demo"_s);
        QCOMPARE(r.samples, 1);
        // The demo counts a token a 4 characters, rounded up: near 4.
        QVERIFY2(r.charsPerToken > 3.0 && r.charsPerToken <= 4.0,
            qPrintable(QString::number(r.charsPerToken)));
        QCoreApplication::processEvents(); // where the deferred write would run
        QCOMPARE(updateRequests, 0);
    }
    // In the file once the memory is gone (its writes are waited for), for any reader.
    QSettings reader(dir.filePath(u"capwatch.conf"_s), QSettings::IniFormat);
    QCOMPARE(reader.value(u"providers/demo%0Acapwatch-demo/ratioSamples"_s).toInt(), 1);
    settings.sync();
    ProviderMemory again;
    again.setSettings(&settings);
    QCOMPARE(again.ratio(u"demo"_s, u"capwatch-demo"_s).samples, 1);
}

void TestSessionPacing::aConversationOverTheContextIsTrimmedAndAnswered()
{
    Fixture f(context(2000));
    SendOptions options;
    options.systemPrompt = u"You are terse."_s;
    options.maxTokens = 200;
    // Each turn is about 300 tokens of prompt plus a short answer: the fifth does not fit.
    int answered = 0;
    QSignalSpy offers(&f.session, &ChatSession::trimOffered);
    for (int i = 1; i <= 8 && offers.isEmpty(); ++i) {
        if (f.ask(longPrompt(i), options))
            ++answered;
    }
    QVERIFY2(!offers.isEmpty(), "no trim offer");
    QVERIFY(answered >= 3);
    const auto offer = offers.last().at(0).value<TrimOffer>();
    QVERIFY(offer.offered);
    QVERIFY(!offer.automatic);
    QCOMPARE(offer.contextWindow, qint64(2000));
    QVERIFY(offer.plan.leftOut >= 1);
    QVERIFY(offer.plan.tokensAfter <= 2000);
    QCOMPARE(f.session.contextGauge(QString(), options).contextWindow, std::optional<qint64>(2000));
    // The failed request at the provider had every turn.
    const QList<demo::RecordedRequest> before = f.demo.chats();
    QVERIFY(contents(before.last()).join(u'\n').contains(u"Turn 1: "_s));

    QSignalSpy leftOut(&f.session, &ChatSession::leftOutChanged);
    QSignalSpy ok(&f.session, &ChatSession::succeeded);
    QVERIFY(f.session.trimAndResend(options) != 0);
    QVERIFY(ok.wait(10'000));
    QCOMPARE(leftOut.size(), 1);
    QCOMPARE(leftOut.first().at(0).toInt(), offer.plan.leftOut);
    QCOMPARE(f.session.leftOut(), offer.plan.leftOut);
    // At the provider: the system prompt, the turns after the left-out ones, the prompt.
    const QStringList sent = contents(f.demo.chats().last());
    QCOMPARE(sent.first(), u"You are terse."_s);
    for (int turn = 1; turn <= offer.plan.leftOut; ++turn)
        QVERIFY(!sent.join(u'\n').contains(u"Turn %1: "_s.arg(turn)));
    QVERIFY(sent.last().startsWith(u"Turn %1: "_s.arg(answered + 1)));
    // The transcript keeps every turn.
    QVERIFY(f.session.history().first().content.startsWith(u"Turn 1: "_s));
    QCOMPARE(f.session.history().size(), (answered + 1) * 2);
}

void TestSessionPacing::automaticTrimmingSaysWhatWasLeftOut()
{
    Fixture f(context(2000));
    f.session.context().setAutoTrim(true);
    SendOptions options;
    options.maxTokens = 200;
    QSignalSpy offers(&f.session, &ChatSession::trimOffered);
    QSignalSpy answers(&f.session, &ChatSession::succeeded);
    QSignalSpy failures(&f.session, &ChatSession::gaveUp);
    for (int i = 1; i <= 8; ++i) {
        f.session.send(longPrompt(i), options);
        QVERIFY(QTest::qWaitFor([&] { return answers.size() == i; }, 10'000));
    }
    // Every prompt was answered: the first overflow was trimmed and resent by itself, and the
    // later sends were trimmed before they went (the window is known by then).
    QCOMPARE(failures.size(), 1);
    QCOMPARE(answers.size(), 8);
    QVERIFY(!offers.isEmpty());
    for (const QList<QVariant> &args : offers)
        QVERIFY(args.at(0).value<TrimOffer>().automatic);
    QVERIFY(f.session.leftOut() >= 1);
    const ContextGauge g = f.session.contextGauge(longPrompt(9), options);
    QCOMPARE(g.leftOut, f.session.leftOut());
    QVERIFY(g.leftOutTokens > 0);
    QVERIFY(!contents(f.demo.chats().last()).join(u'\n').contains(u"Turn 1: "_s));
}

void TestSessionPacing::theProvidersWindowOverrulesALargerSetting()
{
    Fixture f(context(2000));
    // The user believes the model takes 8000; the provider says 2000 when it refuses.
    f.memory.setUserContextWindow(u"demo"_s, u"capwatch-demo"_s, 8000);
    SendOptions options;
    options.maxTokens = 200;
    QSignalSpy offers(&f.session, &ChatSession::trimOffered);
    for (int i = 1; i <= 8 && offers.isEmpty(); ++i)
        f.ask(longPrompt(i), options);
    QVERIFY(!offers.isEmpty());
    const auto offer = offers.last().at(0).value<TrimOffer>();
    QVERIFY(offer.offered);
    QCOMPARE(offer.contextWindow, qint64(2000));
    QSignalSpy ok(&f.session, &ChatSession::succeeded);
    QVERIFY(f.session.trimAndResend(options) != 0);
    QVERIFY(ok.wait(10'000));
    // An offer is about the send that made it: none is left after the next send.
    QVERIFY(!f.session.sendState().trim.offered);
}

void TestSessionPacing::leftOutTurnsComeBackWithANewConversation()
{
    Fixture f(context(2000));
    SendOptions options;
    options.maxTokens = 200;
    for (int i = 1; i <= 3; ++i)
        QVERIFY(f.ask(longPrompt(i), options));
    // While the last prompt is edited, the exchange it replaces is not part of the next request.
    QCOMPARE(f.session.contextGauge(u"short"_s, options).turns, 3);
    QVERIFY(f.session.beginEdit());
    QCOMPARE(f.session.contextGauge(u"short"_s, options).turns, 2);
    f.session.endEdit();
    QSignalSpy leftOut(&f.session, &ChatSession::leftOutChanged);
    f.session.setLeftOut(10); // all but the last turn at most
    QCOMPARE(f.session.leftOut(), 2);
    f.session.newConversation();
    QCOMPARE(f.session.leftOut(), 0);
    QCOMPARE(leftOut.size(), 2);
    QCOMPARE(leftOut.last().at(0).toInt(), 0);
}

void TestSessionPacing::aDemoFallbackReportsUnderTheDemoLane()
{
    // The session's own provider: a demo server on a URL of its own, capped from the first
    // request; its fallback: the embedded demo (the local provider, on a random port).
    demo::DemoProvider own;
    demo::DemoOptions o;
    o.scenario = u"headline"_s;
    o.timeScale = kScale;
    own.setOptions(o);
    QVERIFY(own.listen());
    testing::ThreadedDemo local(capped());
    ProviderMemory memory;
    ChatSession session;
    session.setTimeScale(kScale);
    session.provider().setLocalProvider(&local);
    session.context().setProviderMemory(&memory);
    ProviderChoice choice;
    choice.endpoint = own.baseUrl();
    choice.model = u"gpt-test"_s;
    choice.profileName = u"Own"_s;
    choice.limits.waitCap = retry::Millis(1000);
    choice.limits.budget = retry::Millis(2000);
    choice.limits.maxAttempts = 2;
    session.setProvider(choice);
    ProviderChoice fallback;
    fallback.demo = true;
    fallback.profileName = u"Demo"_s;
    session.setFallback(fallback, true);

    QSignalSpy ok(&session, &ChatSession::succeeded);
    QVERIFY(session.send(u"to the demo instead"_s, {}) != 0);
    QTRY_COMPARE_WITH_TIMEOUT(ok.size(), 1, 20000);
    QVERIFY(session.sendState().viaFallback);
    QCOMPARE(session.sendState().profileName, u"Demo"_s);
    QCOMPARE(own.chatRequests(), 2); // the capped profile's 2 attempts, not the answer
    // One lane for the embedded demo, whatever port it ran on: the next run paces by it.
    QVERIFY(memory.window(u"demo"_s, QString::fromUtf16(net::kDemoModel)));
}

QTEST_GUILESS_MAIN(TestSessionPacing)
#include "tst_sessionpacing.moc"
