// Rules users add, as the window meets them (docs/rules.md): a phrase in a user's rules file
// turns a response the built-in rules call fatal into too_large in a real send, the failed card
// says which rule decided under its Details, "Wrong? Add a rule…" drafts a rules file in the
// user's rules.d, and files left out at start are said once above the prompt.

#include "retry/rules.h"
#include "retry/rulesparser.h"
#include "support/loopbackserver.h"
#include "support/viewlinks.h"
#include "support/windowwidgets.h"
#include "ui/conversation/conversationview.h"
#include "ui/conversation/rulesdraft.h"
#include "ui/settings/settings.h"
#include "ui/window/mainwindow.h"

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace capwatch;
using namespace Qt::StringLiterals;
using ui::ConversationView;
using ui::LaunchOptions;
using ui::MainWindow;
using ui::Settings;

namespace {

constexpr char kAnswer[] = "{\"error\":{\"message\":\"The widget stack is full (4711 of 4096)\"}}";

/// A window talking to `server`, which refuses every request with kAnswer as a 400.
struct Window
{
    Window(const QString &ini, const testing::LoopbackServer &server)
        : settings(ini)
    {
        ui::ProviderSettings p;
        p.useDemo = false;
        p.endpoint = server.url().toString();
        p.model = u"m"_s;
        settings.setProvider(p);
        LaunchOptions o;
        o.timeScale = 0.01;
        window = std::make_unique<MainWindow>(settings, o);
        window->show();
    }
    /// Sends `prompt` and waits for its failed card; returns its plain text.
    QString sendAndFail(const QString &prompt)
    {
        testing::widgets::promptEditor(*window)->setPlainText(prompt);
        window->controller()->sendPrompt();
        ConversationView *view = testing::widgets::conversation(*window);
        if (!QTest::qWaitFor([&] { return !window->session()->busy() && card() >= 0; }, 10000))
            return {};
        return view->errorCardText(card());
    }
    /// The newest failed card's turn; -1 when there is none.
    int card() const
    {
        ConversationView *view = testing::widgets::conversation(*window);
        for (int turn = view->turnCount() + 8; turn > 0; --turn) {
            if (!view->errorCardText(turn).isEmpty())
                return turn;
        }
        return -1;
    }

    Settings settings;
    std::unique_ptr<MainWindow> window;
};

} // namespace

class TestRulesWindow final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void aUserPhraseMakesAFatalAnswerTooLargeInARealSend();
    void addARuleDraftsAValidFileWithTheAnswersText();
    void filesLeftOutAreSaidOnceAbovethePrompt();

private:
    QTemporaryDir m_dir;
    testing::LoopbackServer m_server { testing::httpResponse("400 Bad Request", kAnswer) };
};

void TestRulesWindow::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(m_server.listen());
    QStandardPaths::setTestModeEnabled(true);
}

void TestRulesWindow::cleanup()
{
    retry::Rules::install(nullptr); // the built-in rules again
}

void TestRulesWindow::aUserPhraseMakesAFatalAnswerTooLargeInARealSend()
{
    {
        // The built-in rules read it as fatal: no rule decided, nothing to trim.
        Window w(m_dir.filePath(u"a.ini"_s), m_server);
        const QString text = w.sendAndFail(u"Stack it"_s);
        QVERIFY2(!text.isEmpty(), "no failed card");
        QCOMPARE(w.window->session()->sendState().failureCategory(), u"fatal"_s);
        QVERIFY2(!text.contains(u"larger than the model accepts"_s), qPrintable(text));
    }
    const retry::ParsedRules p
        = retry::parseRules("{\"format\": 1,\n\"categories\": {\"too_large\": {\"phrases\": "
                            "[\"widget stack is full\"]}}}",
            "rules.d/acme.json", retry::RulesKind::User);
    QVERIFY2(p.rules, p.problem.text().c_str());
    retry::Rules::install(retry::Rules::withAdditions({ &*p.rules }));

    Window w(m_dir.filePath(u"b.ini"_s), m_server);
    const QString text = w.sendAndFail(u"Stack it again"_s);
    QVERIFY2(!text.isEmpty(), "no failed card");
    const session::SendState state = w.window->session()->sendState();
    QCOMPARE(state.failureCategory(), u"too_large"_s);
    QCOMPARE(state.lastFailure->rule, u"rules.d/acme.json:2"_s);
    QVERIFY2(text.contains(u"larger than the model accepts"_s), qPrintable(text));
    // Never retried: a request that can never fit is sent once.
    QCOMPARE(state.attempt, 1);

    // The rule is under Details (with the way to correct it), not before they are unfolded.
    ConversationView *view = testing::widgets::conversation(*w.window);
    QVERIFY(!view->toPlainText().contains(u"Decided by rules.d/acme.json:2"_s));
    view->setErrorDetailsShown(w.card(), true);
    QVERIFY(view->toPlainText().contains(u"Decided by rules.d/acme.json:2"_s));
    QVERIFY(view->toPlainText().contains(u"Wrong? Add a rule…"_s));
    QVERIFY(view->toPlainText().contains(u"How rules work"_s));
    // The panel's Last failure row says it too.
    const auto *failure
        = testing::widgets::retryPanel(*w.window)->findChild<QLabel *>(u"failureValue"_s);
    QVERIFY(failure);
    QCOMPARE(failure->toolTip(), u"Decided by rules.d/acme.json:2"_s);
}

void TestRulesWindow::addARuleDraftsAValidFileWithTheAnswersText()
{
    Window w(m_dir.filePath(u"c.ini"_s), m_server);
    QVERIFY(!w.sendAndFail(u"Stack it"_s).isEmpty());
    ConversationView *view = testing::widgets::conversation(*w.window);
    view->setErrorDetailsShown(w.card(), true);
    const QDir rulesDir(ui::RulesDraft::directory());
    const QStringList before = rulesDir.entryList({ u"*.json"_s }, QDir::Files);
    QVERIFY(testing::clickLink(view, u"Wrong? Add a rule…"_s));
    QStringList after = rulesDir.entryList({ u"*.json"_s }, QDir::Files);
    QCOMPARE(after.size(), before.size() + 1);
    for (const QString &old : before)
        after.removeOne(old);
    QFile draft(rulesDir.filePath(after.constFirst()));
    QVERIFY(draft.open(QIODevice::ReadOnly));
    const QByteArray text = draft.readAll();
    // The provider's words, as the failure gave them, and the rule that read them.
    QVERIFY2(text.contains("The widget stack is full (4711 of 4096)"), text.constData());
    QVERIFY2(text.contains("builtin:fatal"), text.constData());
    // A file capwatch reads as it is (the user moves the words where they belong).
    const retry::ParsedRules parsed
        = retry::parseRules(text.toStdString(), "rules.d/draft.json", retry::RulesKind::User);
    QVERIFY2(parsed.rules, parsed.problem.text().c_str());
    // The window says where it is.
    QVERIFY2(w.window->inlineMessageText().contains(after.constFirst()),
        qPrintable(w.window->inlineMessageText()));
}

void TestRulesWindow::filesLeftOutAreSaidOnceAbovethePrompt()
{
    Window w(m_dir.filePath(u"d.ini"_s), m_server);
    QVERIFY(w.window->inlineMessageText().isEmpty());
    w.window->showRulesProblems(
        { u"rules.d/broken.json:4: not valid JSON here"_s, u"rules.d/big.json:1: over 1 MiB"_s });
    const QString shown = w.window->inlineMessageText();
    QVERIFY2(shown.contains(u"rules.d/broken.json:4: not valid JSON here"_s), qPrintable(shown));
    QVERIFY2(shown.contains(u"rules.d/big.json:1: over 1 MiB"_s), qPrintable(shown));
    QVERIFY2(shown.contains(u"built-in rules"_s), qPrintable(shown));
}

QTEST_MAIN(TestRulesWindow)
#include "tst_ruleswindow.moc"
