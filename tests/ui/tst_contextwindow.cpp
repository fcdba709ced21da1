// A conversation that outgrows the model's context, in the window (docs/retry-policy.md
// section 8.2, issue 16), offscreen, against the embedded demo's `context` scenario with a
// window of 2,000 tokens: the context error's card offers Trim and resend with the turns it
// leaves out greyed; sent, they are absent from the request body at the provider and still in
// the transcript, and the conversation names them. The automatic setting trims without asking
// and says so; the gauge above the prompt tells how full the next request is and offers Trim….

#include "demo/demoprovider.h"
#include "session/providermemory.h"
#include "support/demowindow.h"
#include "support/viewlinks.h"
#include "support/windowwidgets.h"
#include "ui/conversation/contextgauge.h"
#include "ui/conversation/conversationpresenter.h"
#include "ui/conversation/conversationview.h"
#include "ui/conversation/requestoptionsrow.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace capwatch;
using namespace capwatch::ui;
using namespace Qt::StringLiterals;
using namespace capwatch::testing::widgets;
using Action = ConversationView::Action;

namespace {

constexpr qint64 kContextWindow = 2000;

/// About 190 tokens of prompt (four characters a token): a few turns fill the window.
QString turnPrompt(int n)
{
    return u"Turn %1: "_s.arg(n) + QString(u"tell me more about caps "_s).repeated(30);
}

/// The window on the demo's `context` scenario, no cap in the way, answers of 100 tokens at most.
struct ContextWindow
{
    explicit ContextWindow(const QString &ini)
        : w(ini, 0.02)
    {
        w.uncapped();
        demo::DemoOptions o = w.demo.provider()->options();
        o.scenario = u"context"_s;
        o.contextWindow = kContextWindow;
        w.demo.provider()->setOptions(o);
        maxTokensBox(*w.window)->setValue(100);
    }
    MainWindow &window() { return *w.window; }
    session::ChatSession *session() { return w.window->session(); }
    ConversationView *view() { return conversation(*w.window); }
    ConversationPresenter *presenter() { return testing::widgets::presenter(*w.window); }
    ContextGauge *gauge() { return contextGauge(*w.window); }
    /// Sends `prompt` and waits for its end.
    bool send(const QString &prompt)
    {
        QSignalSpy ended(presenter(), &ConversationPresenter::sendEnded);
        w.send(prompt);
        return ended.wait(15000) || ended.count() > 0;
    }
    /// Clicks the last link with this text in the conversation, as a user would.
    bool click(const QString &text) { return testing::clickLink(view(), text); }
    /// The user messages of the last chat request the provider received.
    QStringList lastRequestPrompts() const
    {
        QStringList prompts;
        const QList<demo::RecordedRequest> chats = w.chats();
        if (chats.isEmpty())
            return prompts;
        for (const QJsonValue &m : chats.constLast().json().value(u"messages"_s).toArray()) {
            if (m[u"role"_s].toString() == u"user"_s)
                prompts << m[u"content"_s].toString();
        }
        return prompts;
    }

    testing::DemoWindow w;
};

/// The prompts that start with "Turn N:" in `texts`.
QList<int> turnsIn(const QStringList &texts)
{
    static const QRegularExpression turn(u"^Turn (\\d+):"_s);
    QList<int> out;
    for (const QString &t : texts) {
        if (const auto m = turn.match(t); m.hasMatch())
            out << m.captured(1).toInt();
    }
    return out;
}

} // namespace

class TestContextWindow final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void usageUnderTheAnswer();
    void trimAndResendAfterTheContextError();
    void automaticTrimSaysSo();
    void automaticTrimResendsAfterTheError();
    void gaugeOffersTrim();

private:
    QString ini() { return m_dir.filePath(u"settings-%1.ini"_s.arg(++m_n)); }

    QTemporaryDir m_dir;
    int m_n = 0;
};

void TestContextWindow::initTestCase()
{
    QVERIFY(m_dir.isValid());
    qputenv("XDG_DATA_HOME", m_dir.filePath(u"data"_s).toUtf8());
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void TestContextWindow::usageUnderTheAnswer()
{
    ContextWindow c(ini());
    QVERIFY(c.send(u"How many tokens is this?"_s));
    const int answer = c.view()->lastAssistantTurn();
    QVERIFY(answer >= 0);
    // The demo counts the prompt's characters / 4 and the answer's: both reported.
    static const QRegularExpression usage(u"^\\d+ prompt \\+ \\d+ completion tokens$"_s);
    QVERIFY2(usage.match(c.view()->turnUsage(answer)).hasMatch(),
        qPrintable(c.view()->turnUsage(answer)));
    QVERIFY(c.view()->document()->toPlainText().contains(c.view()->turnUsage(answer)));
}

void TestContextWindow::trimAndResendAfterTheContextError()
{
    ContextWindow c(ini());
    QVERIFY(c.gauge()->text().endsWith(u"tokens (context window unknown)"_s));

    // Turn after turn until the provider says the conversation is larger than its window.
    int sent = 0;
    while (c.presenter()->trimCard() < 0 && sent < 12)
        QVERIFY(c.send(turnPrompt(++sent)));
    const int card = c.presenter()->trimCard();
    QVERIFY2(card >= 0, "no context error after 12 turns");
    QVERIFY(sent >= 3);
    const session::TrimOffer offer = c.session()->sendState().trim;
    QVERIFY(offer.offered);
    QCOMPARE(offer.contextWindow, kContextWindow);
    const int leftOut = offer.plan.leftOut;
    QVERIFY(leftOut >= 1 && leftOut < sent - 1);

    // The card says what it leaves out; the turns it would leave out are greyed meanwhile.
    const QString cardText = c.view()->errorCardText(card);
    QVERIFY2(cardText.contains(u"This conversation is larger than the model's context window ("_s),
        qPrintable(cardText));
    QVERIFY2(
        cardText.contains(u"of 2,000 tokens). Trim and resend leaves out "_s
            + (leftOut == 1 ? u"the oldest turn (~"_s : u"the %1 oldest turns (~"_s.arg(leftOut))),
        qPrintable(cardText));
    QVERIFY(cardText.contains(u"they stay in the conversation."_s));
    QVERIFY(cardText.contains(u"Trim and resend  \u00b7  Retry now"_s));
    QCOMPARE(c.view()->dimmedTurns(), c.presenter()->answeredTurns(leftOut));
    QVERIFY(c.view()->leftOutNote().isEmpty()); // only offered yet
    // The window is known now: the gauge counts against it.
    QTRY_VERIFY(c.gauge()->text().contains(u" of 2,000 tokens"_s));

    const int chatsBefore = int(c.w.chats().size());
    QVERIFY(c.click(u"Trim and resend"_s));
    QTRY_VERIFY_WITH_TIMEOUT(!c.session()->busy() && int(c.w.chats().size()) > chatsBefore, 15000);
    QTRY_VERIFY(!c.session()->busy());
    QVERIFY(c.view()->lastAssistantTurn() > card); // answered below the card
    QCOMPARE(c.session()->leftOut(), leftOut);

    // Absent from the request, present in the transcript.
    QList<int> expected;
    for (int n = leftOut + 1; n <= sent; ++n)
        expected << n;
    QCOMPARE(turnsIn(c.lastRequestPrompts()), expected);
    const QString transcript = c.view()->toMarkdown();
    for (int n = 1; n <= sent; ++n)
        QVERIFY2(transcript.contains(u"Turn %1:"_s.arg(n)), qPrintable(QString::number(n)));

    // Named in the window: greyed, and one note where they end.
    QCOMPARE(c.view()->dimmedTurns(), c.presenter()->answeredTurns(leftOut));
    const QString note = c.view()->leftOutNote();
    QVERIFY2(note.startsWith(
                 leftOut == 1 ? u"The oldest turn (~"_s : u"%1 oldest turns (~"_s.arg(leftOut)),
        qPrintable(note));
    QVERIFY(note.contains(u" left out of requests to fit the context window."_s));
    QVERIFY(c.view()->document()->toPlainText().contains(note));
    const QList<int> greyed = c.presenter()->answeredTurns(leftOut);
    QCOMPARE(c.view()->leftOutNoteAfter(), greyed.constLast());
    QTRY_VERIFY(c.gauge()->text().contains(u"oldest turn"_s));
    QVERIFY(c.gauge()->text().endsWith(u" left out)"_s));

    // A new conversation sends everything again.
    c.session()->newConversation();
    QTRY_VERIFY(c.view()->dimmedTurns().isEmpty());
    QVERIFY(c.view()->leftOutNote().isEmpty());
}

void TestContextWindow::automaticTrimSaysSo()
{
    ContextWindow c(ini());
    c.w.settings.setAutoTrim(true);
    c.session()->context().setAutoTrim(true);
    // The model's window as set in Settings: known before any error.
    c.window().providerMemory()->setUserContextWindow(
        c.session()->provider().lane(), c.session()->provider().model(), kContextWindow);
    QTRY_VERIFY(c.gauge()->text().contains(u" of 2,000 tokens"_s));

    for (int n = 1; n <= 8; ++n)
        QVERIFY(c.send(turnPrompt(n)));
    // Never asked, never refused: every request fit.
    QCOMPARE(c.presenter()->trimCard(), -1);
    QVERIFY(c.session()->leftOut() > 0);
    QCOMPARE(c.view()->lastAssistantTurn(), c.presenter()->answeredTurns(8).constLast());
    const QList<int> prompts = turnsIn(c.lastRequestPrompts());
    QVERIFY(!prompts.contains(1));
    QCOMPARE(prompts.constLast(), 8);
    const QString note = c.view()->leftOutNote();
    QVERIFY2(
        note.contains(u" left out automatically to fit the context window."_s), qPrintable(note));
    QCOMPARE(c.view()->dimmedTurns(), c.presenter()->answeredTurns(c.session()->leftOut()));
}

void TestContextWindow::automaticTrimResendsAfterTheError()
{
    ContextWindow c(ini());
    c.w.settings.setAutoTrim(true);
    c.session()->context().setAutoTrim(true);
    // The window unknown: the first request too large is refused, then trimmed and sent again.
    int sent = 0;
    while (c.session()->leftOut() == 0 && sent < 12)
        QVERIFY(c.send(turnPrompt(++sent)));
    QVERIFY(c.session()->leftOut() > 0);
    QTRY_VERIFY_WITH_TIMEOUT(!c.session()->busy(), 15000);
    QCOMPARE(c.presenter()->trimCard(), -1); // nothing to ask
    // The prompt shows again below the error, and its answer below it.
    const QString last = turnPrompt(sent);
    QCOMPARE(c.view()->userText(c.view()->lastUserTurn()), last);
    QVERIFY(c.view()->lastAssistantTurn() > c.view()->lastUserTurn());
    QCOMPARE(turnsIn(c.lastRequestPrompts()).constLast(), sent);
    QVERIFY(!turnsIn(c.lastRequestPrompts()).contains(1));
    QVERIFY(c.view()->leftOutNote().contains(u" left out automatically"_s));
    // Resent through the window: the answered prompt is not left in the editor to go twice.
    QVERIFY(promptEditor(c.window())->toPlainText().isEmpty());
}

void TestContextWindow::gaugeOffersTrim()
{
    ContextWindow c(ini());
    c.window().providerMemory()->setUserContextWindow(
        c.session()->provider().lane(), c.session()->provider().model(), kContextWindow);
    for (int n = 1; n <= 3; ++n)
        QVERIFY(c.send(turnPrompt(n)));
    QTRY_VERIFY(c.gauge()->text().startsWith(u"Context: "_s));
    QVERIFY(c.gauge()->text().endsWith(u" of 2,000 tokens"_s));
    QVERIFY(!c.gauge()->warns());
    QVERIFY(!c.gauge()->trimButton()->isVisible());

    // A long prompt typed: the gauge follows once the keys pause, in the warning colour.
    // Just past the window: some 150 tokens more than it has left.
    const qint64 left = kContextWindow - c.gauge()->gauge().tokens;
    c.w.type(u"Turn 4: "_s + QString(u"caps "_s).repeated(int((left + 150) * 4 / 5)));
    QTRY_VERIFY(c.gauge()->warns());
    QVERIFY(c.gauge()->text().endsWith(u"tokens: the next send does not fit"_s));
    QVERIFY(c.gauge()->trimButton()->isVisible());
    QVERIFY(c.view()->dimmedTurns().isEmpty());

    c.gauge()->trimButton()->click();
    QVERIFY(c.session()->leftOut() > 0);
    QCOMPARE(c.view()->dimmedTurns(), c.presenter()->answeredTurns(c.session()->leftOut()));
    QVERIFY(c.view()->leftOutNote().contains(u" left out of requests"_s));
    QTRY_VERIFY(!c.gauge()->warns());
    QVERIFY(c.gauge()->text().endsWith(u" left out)"_s));
}

QTEST_MAIN(TestContextWindow)
#include "tst_contextwindow.moc"
