// Continue in the window (issue 29), offscreen, against the embedded demo's length and drop
// scenarios: how an answer ended, under it; Continue joining what comes to the same answer after a
// seam; a restored cut-off answer offering it; continuing by itself; the export and the retry log.

#include "demo/demoprovider.h"
#include "history/historywriter.h"
#include "support/demowindow.h"
#include "support/viewlinks.h"
#include "support/windowwidgets.h"
#include "ui/conversation/conversationpresenter.h"
#include "ui/conversation/conversationview.h"
#include "ui/history/historycontroller.h"
#include "ui/panel/retrypanel.h"
#include "ui/timeline/retrylogmodel.h"
#include "ui/timeline/timelinewidget.h"
#include "ui/window/mainwindow.h"

#include <QFile>
#include <QLocale>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace capwatch;
using namespace capwatch::ui;
using namespace Qt::StringLiterals;
using namespace capwatch::testing::widgets;
using capwatch::testing::clickLink;
using Action = ConversationView::Action;

namespace {

constexpr double kScale = 0.02;
/// The mark a seam is shown as (never part of the answer's text).
constexpr QChar kSeam(0x00a6);

struct ContinueWindow
{
    ContinueWindow(const QString &ini, const QString &db, const QString &scenario)
        : w(ini, kScale)
    {
        w.window->attachHistory(&writer, false);
        writer.open(db);
        w.setScenario(scenario);
        w.uncapped();
    }
    MainWindow &window() { return *w.window; }
    ConversationView *view() { return conversation(*w.window); }
    int answer() { return view()->lastAssistantTurn(); }
    void sendAndWait(const QString &prompt)
    {
        w.send(prompt);
        QTRY_VERIFY_WITH_TIMEOUT(!w.window->session()->busy(), 15000);
        QTRY_VERIFY(view()->isSettled());
    }
    /// Clicks the Continue under the last answer and waits for the continuation's end.
    bool continueAndWait()
    {
        QSignalSpy ended(presenter(*w.window), &ConversationPresenter::sendEnded);
        if (!clickLink(view(), u"Continue"_s))
            return false;
        if (!w.window->session()->busy() && ended.isEmpty())
            return false;
        if (!ended.wait(15000) && ended.isEmpty())
            return false;
        return QTest::qWaitFor([this] { return view()->isSettled(); }, 5000);
    }
    /// How often the seam's mark is in the document.
    qsizetype seamsShown() { return view()->document()->toPlainText().count(kSeam); }

    history::HistoryWriter writer; ///< declared first: it outlives the window and flushes last
    testing::DemoWindow w;
};

} // namespace

class TestContinueWindow final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cutOffAnswerIsContinuedIntoOneAnswer();
    void interruptedAnswerIsKeptAndContinued();
    void restoredCutOffAnswerOffersContinue();
    void cutOffAnswersAreContinuedByThemselves();
    void continuingRendersTheJoinedMarkdown();

private:
    QString ini() { return m_dir.filePath(u"settings-%1.ini"_s.arg(++m_n)); }
    QString db() { return m_dir.filePath(u"history-%1.sqlite"_s.arg(++m_n)); }

    QTemporaryDir m_dir;
    int m_n = 0;
};

void TestContinueWindow::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void TestContinueWindow::cutOffAnswerIsContinuedIntoOneAnswer()
{
    ContinueWindow c(ini(), db(), u"length"_s);
    const QString whole = demo::DemoProvider::wholeAnswer(u"hi"_s);
    c.sendAndWait(u"hi"_s);
    QCOMPARE(retryPanel(c.window())->state(), RetryPanel::State::Succeeded);
    ConversationView *view = c.view();
    QCOMPARE(view->turnCount(), 2);
    const int answer = c.answer();
    const QString partial = view->assistantText(answer);
    QVERIFY(!partial.isEmpty());
    QVERIFY(whole.startsWith(partial.trimmed().left(40)));
    QVERIFY2(partial.size() < whole.size(), qPrintable(partial));
    // Under it: how it ended, and Continue beside Copy and Regenerate.
    QVERIFY2(view->turnEnd(answer).startsWith(u"Cut off at the output limit · "_s),
        qPrintable(view->turnEnd(answer)));
    QVERIFY(view->toPlainText().contains(view->turnEnd(answer)));
    QCOMPARE(view->turnActions(answer),
        (QList<Action> { Action::Copy, Action::Regenerate, Action::Continue }));
    QVERIFY(c.window().session()->canContinue());
    // The export has the end line in place of the old "(incomplete)".
    QVERIFY(view->toMarkdown().contains(u"*Cut off at the output limit · "_s));

    QVERIFY(c.continueAndWait());
    // One answer, the whole of it, with a seam where the continuation was joined.
    QCOMPARE(view->turnCount(), 2);
    QCOMPARE(c.answer(), answer);
    QCOMPARE(view->assistantText(answer), whole);
    QCOMPARE(view->answerSeams(answer), QList<qsizetype> { partial.size() });
    QCOMPARE(c.seamsShown(), 1);
    // Complete now: no end line, no Continue.
    QCOMPARE(view->turnEnd(answer), QString());
    QCOMPARE(view->turnActions(answer), (QList<Action> { Action::Copy, Action::Regenerate }));
    QVERIFY(!c.window().session()->canContinue());
    QVERIFY(!view->toPlainText().contains(u"Cut off at the output limit"_s));
    // The export reads whole: the answer as received, no seam, no end line.
    const QString markdown = view->toMarkdown();
    QVERIFY2(markdown.contains(whole.trimmed()), qPrintable(markdown));
    QVERIFY(!markdown.contains(kSeam));
    QVERIFY(!markdown.contains(u"Cut off"_s));
    QVERIFY(c.w.chats().size() == 2);
}

void TestContinueWindow::interruptedAnswerIsKeptAndContinued()
{
    ContinueWindow c(ini(), db(), u"drop"_s);
    const QString whole = demo::DemoProvider::wholeAnswer(u"hi"_s);
    c.sendAndWait(u"hi"_s);
    ConversationView *view = c.view();
    const int answer = c.answer();
    QVERIFY(answer >= 0);
    const QString partial = view->assistantText(answer);
    QVERIFY(!partial.isEmpty());
    QVERIFY2(whole.startsWith(partial), qPrintable(partial));
    QCOMPARE(view->turnEnd(answer),
        u"Interrupted after %1 characters"_s.arg(QLocale().toString(partial.size())));
    QCOMPARE(view->turnActions(answer), (QList<Action> { Action::Copy, Action::Continue }));
    QVERIFY(view->toMarkdown().contains(u"*Interrupted after "_s));
    // The retry log has the interrupted event and the answer's end; the timeline says so.
    const QList<net::RetryRecord> &records = c.window().session()->retryLog()->records();
    QVERIFY(std::any_of(records.cbegin(), records.cend(),
        [](const net::RetryRecord &r) { return r.event == net::RetryRecord::Event::Interrupted; }));
    QCOMPARE(records.constLast().answerEnd, retry::AnswerEnd::Interrupted);
    QVERIFY2(timeline(c.window())->accessibleDescription().contains(u"interrupted"_s),
        qPrintable(timeline(c.window())->accessibleDescription()));

    QVERIFY(c.continueAndWait());
    QCOMPARE(c.answer(), answer);
    QCOMPARE(view->assistantText(answer), whole);
    QCOMPARE(c.seamsShown(), 1);
    QCOMPARE(view->turnEnd(answer), QString());
    // Answered now: it can be asked again, its prompt edited; nothing is left to retry.
    QCOMPARE(view->turnActions(answer), (QList<Action> { Action::Copy, Action::Regenerate }));
    QCOMPARE(view->turnActions(view->lastUserTurn()), QList<Action> { Action::Edit });
    QVERIFY(c.window().session()->failedPrompt().isEmpty());
    QVERIFY(promptEditor(c.window())->toPlainText().isEmpty());
}

void TestContinueWindow::restoredCutOffAnswerOffersContinue()
{
    ContinueWindow c(ini(), db(), u"length"_s);
    c.sendAndWait(u"hi"_s);
    const QUuid id = c.window().session()->conversationId();
    QVERIFY(!id.isNull());
    const QString end = c.view()->turnEnd(c.answer());
    QVERIFY(!end.isEmpty());

    // Another conversation, then this one again: how its answer ended, and Continue.
    c.window().session()->newConversation();
    QTRY_COMPARE(c.view()->turnCount(), 0);
    QSignalSpy filled(presenter(c.window()), &ConversationPresenter::restoreFilled);
    c.window().historyController()->openConversation(id);
    QTRY_COMPARE_WITH_TIMEOUT(filled.size(), 1, 10000);
    QTRY_VERIFY(c.view()->isSettled());
    ConversationView *view = c.view();
    const int answer = c.answer();
    QCOMPARE(view->turnEnd(answer), end);
    QCOMPARE(view->turnActions(answer),
        (QList<Action> { Action::Copy, Action::Regenerate, Action::Continue }));

    QVERIFY(c.continueAndWait());
    QCOMPARE(view->assistantText(answer), demo::DemoProvider::wholeAnswer(u"hi"_s));
    QCOMPARE(view->turnCount(), 2);

    // Restored once more: the joined answer, complete, its seam shown.
    const QList<qsizetype> seams = view->answerSeams(answer);
    QCOMPARE(seams.size(), 1);
    c.window().session()->newConversation();
    QTRY_COMPARE(c.view()->turnCount(), 0);
    c.window().historyController()->openConversation(id);
    QTRY_COMPARE_WITH_TIMEOUT(filled.size(), 2, 10000);
    QTRY_VERIFY(c.view()->isSettled());
    QCOMPARE(view->assistantText(c.answer()), demo::DemoProvider::wholeAnswer(u"hi"_s));
    QCOMPARE(view->answerSeams(c.answer()), seams);
    QCOMPARE(c.seamsShown(), 1);
    QCOMPARE(view->turnEnd(c.answer()), QString());
    QVERIFY(!view->turnActions(c.answer()).contains(Action::Continue));
}

void TestContinueWindow::cutOffAnswersAreContinuedByThemselves()
{
    ContinueWindow c(ini(), db(), u"length"_s);
    c.w.settings.setAutoContinue(1);
    c.sendAndWait(u"hi"_s);
    // The session's own continuation follows the cut-off answer at once.
    QTRY_VERIFY_WITH_TIMEOUT(!c.window().session()->busy() && c.w.chats().size() == 2, 15000);
    QTRY_VERIFY(c.view()->isSettled());
    QCOMPARE(c.w.chats().size(), 2);
    ConversationView *view = c.view();
    QCOMPARE(view->turnCount(), 2);
    QCOMPARE(view->assistantText(c.answer()), demo::DemoProvider::wholeAnswer(u"hi"_s));
    QCOMPARE(c.seamsShown(), 1);
    QCOMPARE(view->turnEnd(c.answer()), QString());
    QCOMPARE(view->turnActions(c.answer()), (QList<Action> { Action::Copy, Action::Regenerate }));
}

void TestContinueWindow::continuingRendersTheJoinedMarkdown()
{
    // A long answer with Markdown, cut several times: each continuation joins it, and the joined
    // answer is rendered whole (its headings and code blocks too).
    ContinueWindow c(ini(), db(), u"length"_s);
    demo::DemoOptions o = c.w.demo.provider()->options();
    o.maxAnswerTokens = 20;
    c.w.demo.provider()->setOptions(o);
    const QString prompt = u"Explain token caps with a code example"_s;
    const QString whole = demo::DemoProvider::wholeAnswer(prompt);
    c.sendAndWait(prompt);
    ConversationView *view = c.view();
    const int answer = c.answer();
    int rounds = 0;
    while (view->turnActions(answer).contains(Action::Continue) && rounds < 20) {
        QVERIFY(c.continueAndWait());
        ++rounds;
    }
    QVERIFY(rounds >= 2);
    QCOMPARE(view->turnCount(), 2);
    QCOMPARE(view->assistantText(answer), whole);
    QCOMPARE(view->answerSeams(answer).size(), rounds);
    QCOMPARE(c.seamsShown(), view->answerSeams(answer).size());
    QCOMPARE(view->turnEnd(answer), QString());
    // Shown as Markdown: the raw marks of the answer are not in the document (when it has any).
    const QString shown = view->toPlainText();
    if (whole.contains(u"**"_s))
        QVERIFY(!shown.contains(u"**"_s));
    if (whole.contains(u"```"_s))
        QVERIFY(!shown.contains(u"```"_s));
}

QTEST_MAIN(TestContinueWindow)
#include "tst_continuewindow.moc"
