// The window's history loop (issue 14): a conversation sent in one window, stored, and opened in
// the next one as it was (transcript, retry log, timeline, context of the next send); Ctrl+N;
// a 2,000-message conversation filled without stalling the window; an open that fails. Every
// database is in a temporary folder; the demo runs time-scaled.

#include "history/historywriter.h"
#include "support/demowindow.h"
#include "support/historyfixture.h"
#include "support/longconversation.h"
#include "support/sanitizers.h"
#include "support/timingalone.h"
#include "support/windowwidgets.h"
#include "ui/conversation/conversationpresenter.h"
#include "ui/history/conversationlistmodel.h"
#include "ui/history/historycontroller.h"
#include "ui/history/historysidebar.h"
#include "ui/panel/retrypanel.h"
#include "ui/parking/parkingcontroller.h"
#include "ui/profiles/profilecontroller.h"
#include "ui/timeline/timelinewidget.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace capwatch;
using namespace capwatch::ui;
using namespace Qt::StringLiterals;
using namespace capwatch::testing::widgets;

namespace {

/// The view's text without the usage under the answers: what the provider reported of a live
/// answer is not stored, so a restored answer has none.
QString withoutUsage(QString text)
{
    static const QRegularExpression usage(u"(  \u00b7  )?\\d+ prompt \\+ \\d+ completion tokens"_s);
    return text.remove(usage);
}

/// A lane as the timeline draws it, for comparing two windows.
QString laneText(const TimelineLane &lane)
{
    return u"%1 %2 %3 %4"_s.arg(lane.request)
        .arg(int(lane.outcome))
        .arg(lane.segments.size())
        .arg(lane.endS(), 0, 'f', 3);
}

QStringList lanesOf(const MainWindow &window)
{
    QStringList out;
    for (const TimelineLane &lane : timeline(window)->lanes())
        out << laneText(lane);
    return out;
}

QStringList messagesOf(const demo::RecordedRequest &request)
{
    QStringList out;
    for (const QJsonValue &m : request.json().value(u"messages").toArray())
        out << m[u"role"].toString() + u": "_s + m[u"content"].toString();
    return out;
}

/// The prompts' and answers' sections of the view's Markdown, without error cards or notices.
QStringList turnsOf(const ConversationView *view)
{
    QStringList out;
    for (const QString &section : view->toMarkdown().split(u"\n\n## "_s)) {
        const QString body = section.startsWith(u"## "_s) ? section.mid(3) : section;
        if (body.startsWith(u"You"_s) || body.startsWith(u"Assistant"_s))
            out << body.trimmed();
    }
    return out;
}

/// A window on `path` with its history open.
struct HistoryWindow
{
    HistoryWindow(const QString &ini, const QString &path, double scale = 0.01)
        : w(ini, scale)
    {
        w.window->attachHistory(&writer, false);
        writer.open(path);
    }
    MainWindow &window() { return *w.window; }
    HistorySidebar &sidebar() { return *historySidebar(*w.window); }
    void sendAndWait(const QString &prompt)
    {
        w.send(prompt);
        QTRY_VERIFY_WITH_TIMEOUT(!w.window->session()->busy(), 15000);
    }

    history::HistoryWriter writer; ///< declared first: it outlives the window and flushes last
    testing::DemoWindow w;
};

} // namespace

class TestHistoryRestore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void theWholeLoop();
    void replacedExchangeIsNotRestored_data();
    void replacedExchangeIsNotRestored();
    void newConversationClears();
    void longConversationFillsInPieces();
    void aLongConversationOpensAtItsEnd();
    void openThatFailsSaysWhy();
    void restoredAnswersAreMarkedAgainstTheirOwnProfile();
    void aWaitingSendIsAnsweredInItsOwnConversation();
    void comingBackToACarriedSendShowsAndStopsIt();

private:
    QString db() { return m_dir.filePath(u"history-%1.sqlite"_s.arg(++m_n)); }
    QString ini() { return m_dir.filePath(u"settings-%1.ini"_s.arg(++m_n)); }

    QTemporaryDir m_dir;
    int m_n = 0;
};

void TestHistoryRestore::initTestCase()
{
    QVERIFY(m_dir.isValid());
    qputenv("XDG_DATA_HOME", m_dir.filePath(u"data"_s).toUtf8());
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void TestHistoryRestore::theWholeLoop()
{
    const QString path = db();
    QString shownText;
    QString shownMarkdown;
    QString log;
    QStringList lanes;
    QUuid id;
    {
        auto first = std::make_unique<HistoryWindow>(ini(), path);
        first->w.headlineOnceThen(u"capped"_s); // the first prompt meets the cap once
        first->sendAndWait(u"How do token caps work?"_s);
        QCOMPARE(retryPanel(first->window())->state(), RetryPanel::State::Succeeded);
        first->sendAndWait(u"And what is a headline limit?"_s);
        QCOMPARE(first->w.demo.provider()->chatRequests(), 3);
        id = first->window().session()->conversationId();
        QVERIFY(!id.isNull());
        // The sidebar follows the session: the conversation is listed, highlighted.
        QTRY_COMPARE(first->sidebar().model()->rowCount(), 1);
        QTRY_VERIFY(
            first->sidebar().model()->index(0).data(ConversationListModel::IsOpenRole).toBool());
        // The answers' usage lines too: stored with them (issue 25.10).
        shownText = conversation(first->window())->toPlainText();
        QVERIFY2(withoutUsage(shownText) != shownText, qPrintable(shownText));
        shownMarkdown = conversation(first->window())->toMarkdown();
        log = QString::fromUtf8(
            first->window().session()->retryLog()->serialize(net::LogFormat::JsonLines));
        lanes = lanesOf(first->window());
        QCOMPARE(lanes.size(), 2);
        first->window().close();
    } // the writer writes what was queued, then closes

    HistoryWindow second(ini(), path);
    QTRY_COMPARE(second.sidebar().model()->rowCount(), 1);
    const QModelIndex row = second.sidebar().model()->index(0);
    QCOMPARE(row.data(ConversationListModel::IdRole).toUuid(), id);
    QVERIFY(row.data(ConversationListModel::HasRetriesRole).toBool());
    QVERIFY(!row.data(ConversationListModel::HasUnansweredRole).toBool());
    QVERIFY(conversation(second.window())->toPlainText().trimmed().isEmpty());

    QSignalSpy filled(presenter(second.window()), &ConversationPresenter::restoreFilled);
    second.window().historyController()->openConversation(id);
    QTRY_COMPARE_WITH_TIMEOUT(filled.size(), 1, 10000);
    QCOMPARE(second.window().session()->conversationId(), id);
    QCOMPARE(conversation(second.window())->toPlainText(), shownText);
    QCOMPARE(conversation(second.window())->toMarkdown(), shownMarkdown);
    QCOMPARE(QString::fromUtf8(
                 second.window().session()->retryLog()->serialize(net::LogFormat::JsonLines)),
        log);
    QCOMPARE(lanesOf(second.window()), lanes);
    // The last exchange can be asked again or edited, as after the live send.
    ConversationView *view = conversation(second.window());
    QCOMPARE(view->turnActions(view->lastAssistantTurn()),
        (QList<ConversationView::Action> {
            ConversationView::Action::Copy, ConversationView::Action::Regenerate }));
    QCOMPARE(view->turnActions(view->lastUserTurn()),
        QList<ConversationView::Action> { ConversationView::Action::Edit });
    QVERIFY(second.window().session()->failedPrompt().isEmpty());
    QVERIFY(retryNowButton(second.window())->isHidden());

    // The exports are of the restored conversation.
    QTemporaryDir out;
    QVERIFY(second.window().exportConversation(out.filePath(u"c.md"_s)));
    QVERIFY(second.window().exportRetryLog(out.filePath(u"l.jsonl"_s), net::LogFormat::JsonLines));
    QFile md(out.filePath(u"c.md"_s));
    QFile jsonl(out.filePath(u"l.jsonl"_s));
    QVERIFY(md.open(QIODevice::ReadOnly) && jsonl.open(QIODevice::ReadOnly));
    QVERIFY(QString::fromUtf8(md.readAll()).endsWith(shownMarkdown));
    QCOMPARE(QString::fromUtf8(jsonl.readAll()), log);

    // A third prompt carries the restored exchanges as its context.
    second.w.uncapped();
    second.sendAndWait(u"One more?"_s);
    const QList<demo::RecordedRequest> chats = second.w.chats();
    QCOMPARE(chats.size(), 1);
    const QStringList context = messagesOf(chats.constLast());
    QCOMPARE(context.size(), 5);
    QCOMPARE(context.at(0), u"user: How do token caps work?"_s);
    QVERIFY(context.at(1).startsWith(u"assistant: "_s));
    QCOMPARE(context.at(2), u"user: And what is a headline limit?"_s);
    QVERIFY(context.at(3).startsWith(u"assistant: "_s));
    QCOMPARE(context.at(4), u"user: One more?"_s);
    // Its send goes on in the same conversation, on a lane of its own.
    QCOMPARE(second.window().session()->conversationId(), id);
    QCOMPARE(timeline(second.window())->lanes().size(), 3);
    QCOMPARE(timeline(second.window())->lanes().constLast().request, 3);
}

void TestHistoryRestore::replacedExchangeIsNotRestored_data()
{
    QTest::addColumn<QString>("action");
    QTest::newRow("regenerate") << u"regenerate"_s;
    QTest::newRow("edit and resend") << u"edit"_s;
    QTest::newRow("retry now") << u"retry"_s;
}

void TestHistoryRestore::replacedExchangeIsNotRestored()
{
    QFETCH(QString, action);
    const QString path = db();
    QString shownText;
    QString shownMarkdown;
    QStringList shownTurns;
    QStringList prompts;
    QString log;
    QStringList expected; // what the live window sends next
    QUuid id;
    {
        auto first = std::make_unique<HistoryWindow>(ini(), path);
        first->w.uncapped();
        first->sendAndWait(u"First"_s);
        ConversationPresenter *presenter = testing::widgets::presenter(first->window());
        if (action == u"retry") {
            first->w.setScenario(u"validation"_s); // fails at once, with an error card
            first->sendAndWait(u"Second"_s);
            QVERIFY(retryNowButton(first->window())->isVisible());
            first->w.setScenario(u"capped"_s);
            QTest::mouseClick(retryNowButton(first->window()), Qt::LeftButton);
        } else {
            first->sendAndWait(u"Secnd"_s);
            if (action == u"regenerate") {
                Q_EMIT presenter->regenerateRequested(); // the answer's "Regenerate" link
            } else {
                Q_EMIT presenter->editRequested(); // the prompt's "Edit and resend" link
                QCOMPARE(promptEditor(first->window())->toPlainText(), u"Secnd"_s);
                first->w.send(u"Second"_s);
            }
        }
        QTRY_VERIFY_WITH_TIMEOUT(!first->window().session()->busy(), 15000);
        QCOMPARE(retryPanel(first->window())->state(), RetryPanel::State::Succeeded);
        id = first->window().session()->conversationId();
        ConversationView *view = conversation(first->window());
        shownText = view->toPlainText(); // with the usage lines: stored too
        shownMarkdown = view->toMarkdown();
        shownTurns = turnsOf(view);
        QCOMPARE(shownTurns.size(), action == u"retry" ? 5 : 4);
        log = QString::fromUtf8(
            first->window().session()->retryLog()->serialize(net::LogFormat::JsonLines));
        for (const net::ChatMessage &m : first->window().session()->history())
            expected << m.role + u": "_s + m.content;
        expected << u"user: Third"_s;
        first->window().close();
    }

    HistoryWindow second(ini(), path);
    QSignalSpy filled(presenter(second.window()), &ConversationPresenter::restoreFilled);
    second.window().historyController()->openConversation(id);
    QTRY_COMPARE_WITH_TIMEOUT(filled.size(), 1, 10000);
    ConversationView *view = conversation(second.window());
    QCOMPARE(turnsOf(view), shownTurns);
    if (action != u"retry") { // a failed send's error card is restored only when it is the last
        QCOMPARE(view->toPlainText(), shownText);
        QCOMPARE(view->toMarkdown(), shownMarkdown);
    }
    QCOMPARE(QString::fromUtf8(
                 second.window().session()->retryLog()->serialize(net::LogFormat::JsonLines)),
        log);
    QCOMPARE(view->turnActions(view->lastUserTurn()),
        QList<ConversationView::Action> { ConversationView::Action::Edit });
    QVERIFY(retryNowButton(second.window())->isHidden());

    second.w.uncapped();
    second.sendAndWait(u"Third"_s);
    QCOMPARE(second.w.chats().size(), 1);
    QCOMPARE(messagesOf(second.w.chats().constLast()), expected);
}

void TestHistoryRestore::newConversationClears()
{
    HistoryWindow w(ini(), db());
    QVERIFY(QTest::qWaitForWindowActive(&w.window()));
    w.w.uncapped();
    w.sendAndWait(u"The first conversation"_s);
    w.sendAndWait(u"Its second send"_s);
    const QUuid first = w.window().session()->conversationId();
    QTRY_COMPARE(w.sidebar().model()->rowCount(), 1);
    QVERIFY(conversation(w.window())->turnCount() > 0);
    QVERIFY(!timeline(w.window())->lanes().isEmpty());

    QTest::keyClick(&w.window(), Qt::Key_N, Qt::ControlModifier);
    QCOMPARE(conversation(w.window())->turnCount(), 0);
    QVERIFY(conversation(w.window())->toPlainText().trimmed().isEmpty());
    QCOMPARE(w.window().session()->retryLog()->records().size(), 0);
    QVERIFY(timeline(w.window())->lanes().isEmpty());
    QCOMPARE(retryPanel(w.window())->state(), RetryPanel::State::Idle);
    QVERIFY(promptEditor(w.window())->hasFocus());
    QVERIFY(w.window().session()->conversationId().isNull());

    w.sendAndWait(u"The second conversation"_s);
    const QUuid second = w.window().session()->conversationId();
    QVERIFY(!second.isNull() && second != first);
    // Its sends are numbered from Send 1 (issue 25, point 10), not after the first one's.
    QCOMPARE(timeline(w.window())->lanes().size(), 1);
    QCOMPARE(timeline(w.window())->lanes().constLast().request, 1);
    QCOMPARE(w.window().session()->retryLog()->records().constFirst().request, 1);
    QTRY_COMPARE(w.sidebar().model()->rowCount(), 2);
    QTRY_COMPARE(
        w.sidebar().model()->index(0).data(ConversationListModel::IdRole).toUuid(), second);
    QVERIFY(w.sidebar().model()->index(0).data(ConversationListModel::IsOpenRole).toBool());
    QCOMPARE(conversation(w.window())->turnCount(), 2);
}

void TestHistoryRestore::longConversationFillsInPieces()
{
    // Its figure is a wall-clock time (the longest piece of the fill): it runs alone. Beside three
    // other sanitized tests and a busy machine, one piece once took 208 ms of wall time (9-10 ms
    // alone under ASan, 2-4 ms in the ci build).
    CAPWATCH_TIMING_RUNS_ALONE();
    const QString path = db();
    constexpr int kExchanges = 1000; // 2,000 messages
    QUuid longId;
    QUuid shortId;
    {
        history::HistoryStore store;
        QVERIFY(store.open(path).persistent());
        shortId = testing::addFixtureConversation(store, { u"A short one"_s });
        longId = testing::addLongConversation(store, kExchanges);
        QVERIFY(!longId.isNull());
    }
    HistoryWindow w(ini(), path);
    QTRY_COMPARE(w.sidebar().model()->rowCount(), 2);
    ConversationPresenter *presenter = testing::widgets::presenter(w.window());
    QSignalSpy filled(presenter, &ConversationPresenter::restoreFilled);

    // The longest the event loop went without turning, measured from outside, as
    // tst_responsiveness does: a 1 ms timer that notes every gap between its ticks.
    qint64 longestGapNs = 0;
    QElapsedTimer sinceTick;
    QTimer probe;
    probe.setInterval(1);
    connect(&probe, &QTimer::timeout, this, [&] {
        longestGapNs = std::max(longestGapNs, sinceTick.nsecsElapsed());
        sinceTick.restart();
    });
    QElapsedTimer total;
    total.start();
    sinceTick.start();
    probe.start();
    w.window().historyController()->openConversation(longId);
    QTRY_COMPARE_WITH_TIMEOUT(filled.size(), 1, 60000);
    probe.stop();
    const qint64 totalMs = total.elapsed();
    qInfo("2,000 messages: filled in %lld ms, longest piece %.2f ms, longest event-loop gap "
          "%.2f ms (read included)",
        totalMs, double(presenter->longestFillPieceNs()) / 1e6, double(longestGapNs) / 1e6);
    QCOMPARE(conversation(w.window())->turnCount(), 2 * kExchanges);
    QVERIFY(conversation(w.window())->toPlainText().contains(u"Answer 999: a cap counts"_s));
    // A frame is 16 ms; the bound is generous for a loaded CI machine (and wider under ASan).
    QVERIFY2(presenter->longestFillPieceNs() < capwatch::testing::runawayBoundMs(50) * 1'000'000,
        qPrintable(QString::number(presenter->longestFillPieceNs())));

    // Latest wins: a short conversation opened while the long one still fills replaces it.
    w.window().historyController()->openConversation(longId);
    QTRY_VERIFY_WITH_TIMEOUT(presenter->filling(), 10000);
    w.window().historyController()->openConversation(shortId);
    QTRY_COMPARE_WITH_TIMEOUT(w.window().session()->conversationId(), shortId, 10000);
    QTRY_VERIFY(!presenter->filling());
    QCOMPARE(conversation(w.window())->turnCount(), 2);
    QVERIFY(conversation(w.window())->toPlainText().contains(u"A short one"_s));
    QVERIFY(!conversation(w.window())->toPlainText().contains(u"Question 999"_s));
}

// While a stored conversation fills in, the view stays put (following every piece to the bottom
// repainted all of it each time, 3-6 ms a piece in the real window); filled, it shows the end, as
// a chat opens, unless the reader scrolled meanwhile.
void TestHistoryRestore::aLongConversationOpensAtItsEnd()
{
    const QString path = db();
    QUuid longId;
    {
        history::HistoryStore store;
        QVERIFY(store.open(path).persistent());
        longId = testing::addLongConversation(store, 400);
        QVERIFY(!longId.isNull());
    }
    HistoryWindow w(ini(), path);
    QTRY_COMPARE(w.sidebar().model()->rowCount(), 1);
    ConversationPresenter *presenter = testing::widgets::presenter(w.window());
    QScrollBar *bar = conversation(w.window())->verticalScrollBar();

    // Left alone: at the top while it fills, at the end once filled.
    QSignalSpy filled(presenter, &ConversationPresenter::restoreFilled);
    int followedWhileFilling = 0;
    connect(bar, &QScrollBar::valueChanged, this, [&](int value) {
        if (presenter->filling() && value > 0)
            ++followedWhileFilling;
    });
    w.window().historyController()->openConversation(longId);
    QTRY_VERIFY_WITH_TIMEOUT(presenter->filling(), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(filled.size(), 1, 60000);
    QCOMPARE(followedWhileFilling, 0);
    QVERIFY(bar->maximum() > 0);
    QTRY_COMPARE(bar->value(), bar->maximum());
    QVERIFY(conversation(w.window())->toPlainText().contains(u"Answer 399"_s));
    // ...and it follows what comes after, as any conversation at its end.
    const int before = bar->maximum();
    conversation(w.window())->addNotice(u"One more line."_s);
    QTRY_VERIFY(bar->maximum() > before);
    QTRY_COMPARE(bar->value(), bar->maximum());

    // Scrolled while it fills: where the reader put it.
    w.window().historyController()->openConversation(longId);
    QTRY_VERIFY_WITH_TIMEOUT(presenter->filling(), 10000);
    QTRY_VERIFY(bar->maximum() > 40);
    bar->setValue(40);
    QTRY_COMPARE_WITH_TIMEOUT(filled.size(), 2, 60000);
    QCOMPARE(bar->value(), 40);
}

void TestHistoryRestore::openThatFailsSaysWhy()
{
    const QString path = db();
    const QList<QUuid> ids = testing::writeFixtureDatabase(path, 2);
    HistoryWindow w(ini(), path);
    QTRY_COMPARE(w.sidebar().model()->rowCount(), 2);
    {
        // Behind the window's back: another program deletes the conversation.
        history::HistoryStore store;
        QVERIFY(store.open(path).persistent());
        QVERIFY(store.deleteConversation(ids.first()));
    }
    QSignalSpy failed(w.window().session(), &session::ChatSession::restoreFailed);
    w.window().historyController()->openConversation(ids.first());
    QTRY_COMPARE(failed.size(), 1);
    QVERIFY(inlineMessage(w.window())->isVisible());
    QVERIFY2(w.window().inlineMessageText().startsWith(u"The conversation could not be opened: "_s),
        qPrintable(w.window().inlineMessageText()));
    QVERIFY(w.window().historyController()->currentConversation().isNull());
    // The next open that works takes the message away.
    QSignalSpy filled(presenter(w.window()), &ConversationPresenter::restoreFilled);
    w.window().historyController()->openConversation(ids.at(1));
    QTRY_COMPARE(filled.size(), 1);
    QVERIFY(inlineMessage(w.window())->isHidden());
}

void TestHistoryRestore::restoredAnswersAreMarkedAgainstTheirOwnProfile()
{
    // Conversation A is on "Paid key"; B is on "Free tier", and one of its answers came from
    // its fallback "Paid key". Both profiles are loopback endpoints nothing is sent to.
    const QString path = db();
    QUuid a;
    QUuid b;
    {
        history::HistoryStore store;
        QVERIFY(store.open(path).persistent());
        const auto add = [&store](const QString &profile,
                             const QList<std::pair<QString, QString>> &exchanges) {
            history::Conversation c;
            c.endpoint = u"http://127.0.0.1:9/v1"_s;
            c.model = u"capwatch-demo"_s;
            c.profile = profile;
            store.addConversation(c);
            for (const auto &[prompt, by] : exchanges) {
                history::Message user;
                user.conversation = c.id;
                user.text = prompt;
                store.addMessage(user);
                history::Message answer;
                answer.conversation = c.id;
                answer.role = history::Role::Assistant;
                answer.text = u"Answer to "_s + prompt;
                answer.profile = by;
                store.addMessage(answer);
            }
            return c.id;
        };
        a = add(u"paid"_s, { { u"A question"_s, u"Paid key"_s } });
        b = add(u"free"_s,
            { { u"B first"_s, u"Free tier"_s }, { u"B capped"_s, u"Paid key"_s },
                { u"B after"_s, u"Free tier"_s } });
        QVERIFY(!a.isNull() && !b.isNull());
    }

    session::ProfileSet profiles;
    session::ProviderProfile free;
    free.id = u"free"_s;
    free.name = u"Free tier"_s;
    free.endpoint = QUrl(u"http://127.0.0.1:9/v1"_s);
    free.model = u"capwatch-demo"_s;
    free.keyVariable.clear();
    free.fallback = u"paid"_s;
    session::ProviderProfile paid = free;
    paid.id = u"paid"_s;
    paid.name = u"Paid key"_s;
    paid.endpoint = QUrl(u"http://127.0.0.1:10/v1"_s);
    paid.fallback.clear();
    profiles.profiles = { free, paid };
    profiles.defaultProfile = free.id;

    history::HistoryWriter writer; // outlives the window
    Settings settings(ini());
    LaunchOptions options;
    options.timeScale = 0.01;
    MainWindow window(settings, options);
    window.profileController()->setProfiles(profiles);
    window.attachHistory(&writer, false);
    writer.open(path);
    window.show();
    QTRY_COMPARE(historySidebar(window)->model()->rowCount(), 2);
    ConversationPresenter *presenter = testing::widgets::presenter(window);
    QSignalSpy filled(presenter, &ConversationPresenter::restoreFilled);

    window.historyController()->openConversation(a);
    QTRY_COMPARE(filled.size(), 1);
    QCOMPARE(window.profileController()->currentId(), u"paid"_s);
    QString text = conversation(window)->toPlainText();
    QVERIFY2(text.contains(u"Answer to A question"_s), qPrintable(text));
    QVERIFY2(!text.contains(u"via "_s), qPrintable(text)); // Paid key's own answer

    // B opened while A (Paid key) is shown: its own answers are Free tier's, the fallback's
    // answer is marked.
    window.historyController()->openConversation(b);
    QTRY_COMPARE(filled.size(), 2);
    QCOMPARE(window.profileController()->currentId(), u"free"_s);
    QCOMPARE(presenter->profileName(), u"Free tier"_s);
    text = conversation(window)->toPlainText();
    QVERIFY2(text.contains(u"Answer to B after"_s), qPrintable(text));
    QVERIFY2(!text.contains(u"via Free tier"_s), qPrintable(text));
    QCOMPARE(text.count(u"via Paid key"_s), 1);
    const qsizetype mark = text.indexOf(u"via Paid key"_s);
    QVERIFY(text.indexOf(u"Answer to B capped"_s) < mark);
    QVERIFY(mark < text.indexOf(u"B after"_s));
}

namespace {

/// Two stored conversations, B answered, then a send in A that waits to retry (the headline 422:
/// a 60 s wait, 3 s of wall time at 0.05). Returns A and B.
std::pair<QUuid, QUuid> sendWaitingInA(HistoryWindow &w)
{
    w.w.uncapped();
    w.sendAndWait(u"B: another conversation"_s);
    const QUuid b = w.window().session()->conversationId();
    w.window().historyController()->newConversation();
    w.w.setScenario(u"headline"_s);
    w.w.send(u"A: the question that waits"_s);
    const QUuid a = w.window().session()->conversationId();
    [&] {
        QVERIFY(!a.isNull() && !b.isNull() && a != b);
        QTRY_COMPARE_WITH_TIMEOUT(
            retryPanel(w.window())->state(), RetryPanel::State::Waiting, 10000);
    }();
    return { a, b };
}

bool rowSays(HistorySidebar &sidebar, const QUuid &id, int role)
{
    const int row = sidebar.model()->rowOf(id);
    return row >= 0 && sidebar.model()->index(row).data(role).toBool();
}

} // namespace

void TestHistoryRestore::aWaitingSendIsAnsweredInItsOwnConversation()
{
    // Issue 25, point 4: opening another conversation while a send waits to retry never cancels
    // it, and its prompt never lands in the conversation just opened.
    HistoryWindow w(ini(), db(), 0.05);
    const auto [a, b] = sendWaitingInA(w);
    QSignalSpy filled(presenter(w.window()), &ConversationPresenter::restoreFilled);
    session::BackgroundSends *carried = w.window().parkingController()->carried();

    w.window().historyController()->openConversation(b);
    QTRY_COMPARE_WITH_TIMEOUT(filled.size(), 1, 10000);
    QCOMPARE(w.window().session()->conversationId(), b);
    QVERIFY(!w.window().session()->busy());
    QVERIFY(w.window().session()->failedPrompt().isEmpty());
    QVERIFY(promptEditor(w.window())->toPlainText().isEmpty()); // the prompt stayed in A
    QVERIFY(sendButton(w.window())->isEnabled()); // B is free to send
    QVERIFY(carried->of(a));
    QVERIFY(carried->of(a)->busy());
    QTRY_VERIFY(rowSays(w.sidebar(), a, ConversationListModel::IsSendingRole));
    QVERIFY(!rowSays(w.sidebar(), b, ConversationListModel::IsSendingRole));

    // The provider lets the next attempt through: the answer lands in A, not in the window.
    w.w.setScenario(u"capped"_s);
    QTRY_COMPARE_WITH_TIMEOUT(carried->count(), 0, 20000);
    QTRY_VERIFY(!rowSays(w.sidebar(), a, ConversationListModel::IsSendingRole));
    QVERIFY(rowSays(w.sidebar(), a, ConversationListModel::IsUnreadRole));
    QCOMPARE(w.window().session()->conversationId(), b);
    QCOMPARE(conversation(w.window())->turnCount(), 2); // B's own exchange only
    QVERIFY(!conversation(w.window())->toPlainText().contains(u"A: the question"_s));

    w.window().historyController()->openConversation(a);
    QTRY_COMPARE_WITH_TIMEOUT(filled.size(), 2, 10000);
    QCOMPARE(conversation(w.window())->turnCount(), 2);
    QVERIFY(conversation(w.window())->toPlainText().contains(u"A: the question that waits"_s));
    QVERIFY(w.window().session()->hasLastExchange()); // answered: it can be regenerated
    QVERIFY(w.window().session()->failedPrompt().isEmpty());
    // Its whole cycle is in its own log: the refusals, the waits, the answer.
    const QList<net::RetryRecord> &records = w.window().session()->retryLog()->records();
    QVERIFY(std::any_of(records.cbegin(), records.cend(), [](const net::RetryRecord &r) {
        return r.event == net::RetryRecord::Event::RetryScheduled;
    }));
    QCOMPARE(records.constLast().event, net::RetryRecord::Event::Succeeded);
}

void TestHistoryRestore::comingBackToACarriedSendShowsAndStopsIt()
{
    HistoryWindow w(ini(), db(), 0.05);
    const auto [a, b] = sendWaitingInA(w);
    QSignalSpy filled(presenter(w.window()), &ConversationPresenter::restoreFilled);
    session::BackgroundSends *carried = w.window().parkingController()->carried();
    w.window().historyController()->openConversation(b);
    QTRY_COMPARE_WITH_TIMEOUT(filled.size(), 1, 10000);
    QVERIFY(carried->of(a));

    // Back in A while its send still waits: the window sends nothing there (two sessions would
    // interleave its messages), the panel counts its wait down, and Stop stops it.
    w.window().historyController()->openConversation(a);
    QTRY_COMPARE_WITH_TIMEOUT(filled.size(), 2, 10000);
    QVERIFY(carried->of(a));
    QTRY_VERIFY(stopButton(w.window())->isEnabled());
    QVERIFY(!sendButton(w.window())->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(retryPanel(w.window())->state(), RetryPanel::State::Waiting, 10000);
    QVERIFY(retryPanel(w.window())->attemptText().contains(u"of"_s));

    QTest::mouseClick(stopButton(w.window()), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(carried->count(), 0, 10000);
    // Read back once it ended: its prompt is the failed one, for Retry now, in A alone.
    QTRY_COMPARE_WITH_TIMEOUT(filled.size(), 3, 10000);
    QCOMPARE(w.window().session()->conversationId(), a);
    QCOMPARE(w.window().session()->failedPrompt(), u"A: the question that waits"_s);
    QTRY_VERIFY(sendButton(w.window())->isEnabled());
    QVERIFY(!stopButton(w.window())->isEnabled());
}

QTEST_MAIN(TestHistoryRestore)
#include "tst_historyrestore.moc"
