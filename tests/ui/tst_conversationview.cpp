// The conversation pane: literal user text, streamed answers, Markdown on finish, no resource
// loading, literal error bodies, export, and a 20 MB stream.

#include "support/darkpalette.h"
#include "support/sanitizers.h"
#include "ui/conversation/conversationdocument.h"
#include "ui/conversation/conversationstyle.h"
#include "ui/conversation/conversationview.h"
#include "ui/conversation/markdownsanitizer.h"
#include "ui/conversation/transcripttext.h"

#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QDir>
#include <QElapsedTimer>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QImage>
#include <QPalette>
#include <QRandomGenerator>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>

using namespace capwatch::ui;
using namespace Qt::StringLiterals;

namespace {

struct Fragment
{
    QString text;
    QTextCharFormat format;
};

QList<Fragment> fragments(const QTextDocument *doc)
{
    QList<Fragment> out;
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it)
            out.append({ it.fragment().text(), it.fragment().charFormat() });
    }
    return out;
}

// The fragment containing needle (the view splits text by format only).
Fragment fragmentWith(const QTextDocument *doc, const QString &needle)
{
    const QList<Fragment> all = fragments(doc);
    for (const Fragment &f : all) {
        if (f.text.contains(needle))
            return f;
    }
    return {};
}

// Empty when `fragment` is drawn in a monospaced face, else what is not: the font the document
// really lays it out with (its format over the document's default font), measured, so that
// narrow and wide characters take one advance. QFontInfo::fixedPitch() would ask the font
// database's spacing property instead, which some monospaced families do not set (Noto Sans
// Mono, the "monospace" of many Debian desktops).
QString notMonospaced(const QTextDocument *doc, const Fragment &fragment)
{
    const QFont font = fragment.format.font().resolve(doc->defaultFont());
    const QFontMetricsF metrics(font);
    const qreal narrow = metrics.horizontalAdvance(u'i');
    for (const QChar c : u"W.m0_"_s) {
        if (metrics.horizontalAdvance(c) != narrow) {
            return u"%1 (%2): 'i' advances %3 px, '%4' %5 px"_s.arg(QFontInfo(font).family(),
                font.families().join(u", "_s), QString::number(narrow), QString(c),
                QString::number(metrics.horizontalAdvance(c)));
        }
    }
    return {};
}

int imageCount(const QTextDocument *doc)
{
    const QList<Fragment> all = fragments(doc);
    return int(std::count_if(
        all.cbegin(), all.cend(), [](const Fragment &f) { return f.format.isImageFormat(); }));
}

// What the view shows for its only assistant turn, below the caption.
QString shownAnswer(const ConversationView &view)
{
    const QString plain = view.document()->toPlainText();
    const QString caption = u"Assistant\n"_s;
    const qsizetype at = plain.indexOf(caption);
    return at < 0 ? QString() : plain.mid(at + caption.size());
}

// The view's own loadResource(), called as QTextDocument calls it. False if it cannot be called
// at all: then every check of what it returns would pass on an empty QVariant.
bool callLoadResource(ConversationView &view, const QUrl &url, QVariant *result)
{
    return QMetaObject::invokeMethod(&view, "loadResource", Qt::DirectConnection,
        Q_RETURN_ARG(QVariant, *result), Q_ARG(int, QTextDocument::ImageResource),
        Q_ARG(QUrl, url));
}

// What loadResource() gives for `url`, in `result`; fails the test when it cannot be called.
#define LOAD_RESOURCE(view, url, result)                                                           \
    QVariant result;                                                                               \
    QVERIFY2(callLoadResource(view, url, &result), "loadResource is not invocable")

// An exported conversation as a Markdown reader shows it: the lines of the first turn (Qt's
// reader makes a block of each line, hard breaks included), and whatever in them is formatted
// (a heading, list, quote, code, emphasis, link, image). A bare URL is linked, as GitHub does.
struct ReadBack
{
    QStringList lines;
    QStringList formatted;
};

ReadBack readBackFirstTurn(const QString &markdown)
{
    QTextDocument doc;
    doc.setMarkdown(markdown, QTextDocument::MarkdownDialectGitHub);
    ReadBack back;
    bool inTurn = false;
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        const QTextBlockFormat format = block.blockFormat();
        if (format.headingLevel() == 2 && !inTurn) {
            inTurn = true;
            continue;
        }
        if (!inTurn)
            continue;
        if (format.headingLevel() > 0)
            back.formatted << u"heading: "_s + block.text();
        if (block.textList())
            back.formatted << u"list: "_s + block.text();
        if (format.hasProperty(QTextFormat::BlockQuoteLevel))
            back.formatted << u"quote: "_s + block.text();
        if (format.hasProperty(QTextFormat::BlockCodeFence)
            || format.hasProperty(QTextFormat::BlockCodeLanguage) || format.nonBreakableLines())
            back.formatted << u"code: "_s + block.text();
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextCharFormat f = it.fragment().charFormat();
            const bool autolink = f.anchorHref() == it.fragment().text();
            if (f.fontWeight() > QFont::Normal || f.fontItalic() || f.fontStrikeOut()
                || (f.isAnchor() && !autolink) || f.isImageFormat() || f.fontFixedPitch())
                back.formatted << u"formatted: "_s + it.fragment().text();
        }
        QString text = block.text();
        text.replace(QChar::Nbsp, u' ');
        back.lines += text.split(QChar::LineSeparator);
    }
    back.lines.removeAll(QString());
    return back;
}

QByteArray pngBytes(const QImage &image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

QString dataUrl(const QByteArray &png)
{
    return u"data:image/png;base64,"_s + QString::fromLatin1(png.toBase64());
}

QPalette darkPalette()
{
    QPalette p = capwatch::testing::darkPalette();
    // Left at Qt's default blue on purpose: the view has to keep links readable anyway.
    p.setColor(QPalette::Link, QColor(0x00, 0x00, 0xff));
    return p;
}

const QString kDemoAnswer = uR"(## Retry budget

Your key is **token-capped**: every retry spends from the same *daily* budget.

1. Wait for the `Retry-After` header.
2. Back off exponentially, with jitter.
3. Stop when the budget is gone.

```python
for attempt in range(5):
    reply = send(request)
    if reply.status != 429:
        break
    sleep(backoff(attempt))
```

| Status | Retry? |
|--------|--------|
| 429 | after `Retry-After` |
| 500 | with backoff |
| 401 | never |

See the [provider docs](https://example.com/docs/rate-limits) for the limits.)"_s;

} // namespace

class TestConversationView final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void markdownPiecesEndWhereTheyMay();
    void longMarkdownIsRenderedInPieces();
    void userTextIsLiteral_data();
    void userTextIsLiteral();
    void streamingConcatenates();
    void finishRendersMarkdown();
    void imagesNeverLoad();
    void dataImages();
    void rawHtmlInMarkdownIsText();
    void linksOnlyHttp();
    void errorBodyIsLiteral();
    void exportMarkdown();
    void largeAnswerStaysPlain();
    void followsBottomOnlyWhenAtBottom();
    void clearForgetsTurns();
    void followsPalette();
    void stream20MB();
    void longLineStream();
    void streamedLineJoinsExactly();
    void lineTooLongToShowLive_data();
    void lineTooLongToShowLive();
    void statusLine();
    void actionLinks();
    void removeTurnsFrom();
    void copyLeavesOutLabels();
    void errorCardAboutParking();
    void usageUnderAnswer();
    void continuedAnswerIsRenderedWhole_data();
    void continuedAnswerIsRenderedWhole();
    void continuedWhileItsPiecesRender();
    void restoredSeamsAndEndLine();
    void leftOutTurnsGreyed();
    void trimAndResendLink();
    void screenshots();
};

void TestConversationView::userTextIsLiteral_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("html bold") << u"<b>bold</b> and <i>it</i>"_s;
    QTest::newRow("markdown") << u"**not bold** and _not it_\n# not a heading\n- not a list"_s;
    QTest::newRow("img") << u"<img src=\"http://example.com/x.png\" onerror=\"alert(1)\">"_s;
    QTest::newRow("link")
        << u"[click](https://example.com) <a href=\"https://example.com\">a</a>"_s;
    QTest::newRow("entities") << u"&lt;b&gt; &amp; &#60; Q&A"_s;
    QTest::newRow("hash") << u"# hash"_s;
    QTest::newRow("lists") << u"1. one\n2) two\n+ plus\n* star\n> quote"_s;
    QTest::newRow("setext") << u"Title\n===\nSub\n---"_s;
    QTest::newRow("indented") << u"    not code\n\tnor this"_s;
    QTest::newRow("fence") << u"```\nnot code\n```\n~~~"_s;
    QTest::newRow("table") << u"| a | b |\n|---|---|\n| 1 | 2 |"_s;
    QTest::newRow("paragraphs") << u"first line\nsecond line\n\nnew paragraph \\"_s;
}

void TestConversationView::userTextIsLiteral()
{
    QFETCH(QString, text);
    ConversationView view;
    const int id = view.addUserTurn(text);
    QVERIFY(id > 0);
    QCOMPARE(view.turnCount(), 1);
    QVERIFY2(
        view.document()->toPlainText().contains(text), qPrintable(view.document()->toPlainText()));
    QCOMPARE(imageCount(view.document()), 0);
    const QList<Fragment> all = fragments(view.document());
    for (const Fragment &f : all) {
        if (f.text == u"You"_s)
            continue;
        QVERIFY2(f.format.fontWeight() <= QFont::Normal, qPrintable(f.text));
        QVERIFY(!f.format.fontItalic());
        QVERIFY(!f.format.isAnchor());
    }
    // Exported, the text reads back as typed: escaped, not interpreted as Markdown.
    const ReadBack back = readBackFirstTurn(view.toMarkdown());
    QVERIFY2(back.formatted.isEmpty(), qPrintable(back.formatted.join(u"; "_s)));
    QString typed = text;
    typed.replace(u'\t', u"    "_s); // a leading tab is kept as four (non-breaking) spaces
    QStringList lines = typed.split(u'\n');
    lines.removeAll(QString());
    QCOMPARE(back.lines, lines);
}

void TestConversationView::streamingConcatenates()
{
    ConversationView view;
    const int turn = view.beginAssistantTurn();
    QCOMPARE(view.turnCount(), 1);

    // A surrogate pair split across deltas must never show half of itself.
    view.appendAssistantText(turn, u"Hel"_s);
    view.appendAssistantText(turn, u"lo wo"_s);
    view.appendAssistantText(turn, u"rld \xd83d"_s);
    QTRY_COMPARE(view.flushCount(), 1);
    QCOMPARE(shownAnswer(view), u"Hello world "_s);

    view.appendAssistantText(turn, u"\xde00 ok\nsecond li"_s);
    view.appendAssistantText(turn, u"ne\n\nthird"_s);
    QTRY_COMPARE(view.flushCount(), 2);
    const QString expected = u"Hello world \U0001F600 ok\nsecond line\n\nthird"_s;
    QCOMPARE(shownAnswer(view), expected);
    QCOMPARE(view.assistantText(turn), expected);

    // Many deltas between two timer ticks are one edit.
    const int before = view.flushCount();
    QString more;
    for (int i = 0; i < 500; ++i) {
        const QString delta = QString::number(i) + u' ';
        more += delta;
        view.appendAssistantText(turn, delta);
    }
    QTRY_COMPARE(view.flushCount(), before + 1);
    QCOMPARE(shownAnswer(view), expected + more);
    QCOMPARE(view.assistantText(turn), expected + more);
}

void TestConversationView::finishRendersMarkdown()
{
    ConversationView view;
    const int turn = view.beginAssistantTurn();
    view.appendAssistantText(turn, u"Some **bo"_s);
    view.appendAssistantText(
        turn, u"ld** and *it*\n\n# Title\n\n- one\n- two\n\n```\ncode line\n```\n"_s);
    QTRY_COMPARE(view.flushCount(), 1);
    QVERIFY(shownAnswer(view).contains(u"**bold**"_s)); // streamed as plain text
    QCOMPARE(fragmentWith(view.document(), u"bold"_s).format.fontWeight(), QFont::Normal);

    view.finishAssistantTurn(turn, false);
    const QString shown = shownAnswer(view);
    QVERIFY2(!shown.contains(u"**"_s), qPrintable(shown));
    QVERIFY(shown.contains(u"Title"_s));
    QVERIFY(fragmentWith(view.document(), u"bold"_s).format.fontWeight() >= QFont::Bold);
    QVERIFY(fragmentWith(view.document(), u"it"_s).format.fontItalic());
    const Fragment code = fragmentWith(view.document(), u"code line"_s);
    const QString codeFont = notMonospaced(view.document(), code);
    QVERIFY2(codeFont.isEmpty(), qPrintable(codeFont));
    QVERIFY(!shown.contains(u"(incomplete)"_s));
    // Raw text is kept as received, for export.
    QVERIFY(view.assistantText(turn).startsWith(u"Some **bold** and *it*"_s));
    // Finished turns take no more text.
    QTest::ignoreMessage(QtWarningMsg, "text for finished assistant turn 1 dropped");
    view.appendAssistantText(turn, u"late"_s);
    QVERIFY(!view.assistantText(turn).contains(u"late"_s));
}

void TestConversationView::imagesNeverLoad()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString local = dir.filePath(u"probe.png"_s);
    QImage red(8, 8, QImage::Format_RGB32);
    red.fill(Qt::red);
    QVERIFY(red.save(local));
    const QUrl remote(u"http://example.com/a.png"_s);
    const QUrl fileUrl = QUrl::fromLocalFile(local);

    ConversationView view;
    view.resize(700, 500);
    view.show();
    const int turn = view.beginAssistantTurn();
    view.appendAssistantText(turn,
        u"Remote ![remote alt](http://example.com/a.png) file ![file alt]("_s + fileUrl.toString()
            + u") path ![](" + local + u") <img src=\"" + local + u"\">"_s);
    view.finishAssistantTurn(turn, false);
    view.grab(); // lay out and paint everything

    QCOMPARE(imageCount(view.document()), 0);
    const QString shown = shownAnswer(view);
    QVERIFY2(shown.contains(u"remote alt"_s) && shown.contains(u"file alt"_s), qPrintable(shown));
    // Qt's image handler caches whatever it manages to load; nothing may be there.
    QVERIFY(view.document()->resource(QTextDocument::ImageResource, remote).isNull());
    QVERIFY(view.document()->resource(QTextDocument::ImageResource, fileUrl).isNull());
    QVERIFY(view.document()->resource(QTextDocument::ImageResource, QUrl(local)).isNull());
    LOAD_RESOURCE(view, remote, fromRemote);
    QVERIFY(fromRemote.isNull());
    LOAD_RESOURCE(view, fileUrl, fromFileUrl);
    QVERIFY(fromFileUrl.isNull());
    LOAD_RESOURCE(view, QUrl(local), fromPath);
    QVERIFY(fromPath.isNull());
    QVERIFY(view.document()->resource(QTextDocument::StyleSheetResource, fileUrl).isNull());
}

void TestConversationView::dataImages()
{
    QImage small(24, 16, QImage::Format_RGB32);
    small.fill(Qt::darkGreen);
    const QString smallUrl = dataUrl(pngBytes(small));

    ConversationView view;
    view.resize(700, 500);
    const int turn = view.beginAssistantTurn();
    view.appendAssistantText(turn, u"An inline image: ![green](" + smallUrl + u")"_s);
    view.finishAssistantTurn(turn, false);
    view.grab();
    QCOMPARE(imageCount(view.document()), 1);
    const QString name = fragments(view.document()).last().format.toImageFormat().name();
    QVERIFY(!name.startsWith(u"data:"_s));
    const QVariant cached = view.document()->resource(QTextDocument::ImageResource, QUrl(name));
    QCOMPARE(cached.value<QImage>().size(), QSize(24, 16));
    LOAD_RESOURCE(view, QUrl(smallUrl), loadedSmall);
    QCOMPARE(loadedSmall.value<QImage>().size(), QSize(24, 16));

    // Over 1 MiB of image data: not decoded.
    QImage noise(800, 800, QImage::Format_RGB32);
    auto *rng = QRandomGenerator::global();
    for (int y = 0; y < noise.height(); ++y) {
        auto *line = reinterpret_cast<quint32 *>(noise.scanLine(y));
        for (int x = 0; x < noise.width(); ++x)
            line[x] = rng->generate() | 0xff000000u;
    }
    const QByteArray big = pngBytes(noise);
    QVERIFY(big.size() > 1024 * 1024);
    LOAD_RESOURCE(view, QUrl(dataUrl(big)), loadedBig);
    QVERIFY(loadedBig.isNull());
    // Not an allowed raster type.
    const QString svg = u"data:image/svg+xml;base64,"_s
        + QString::fromLatin1(QByteArray("<svg xmlns='http://www.w3.org/2000/svg'/>").toBase64());
    LOAD_RESOURCE(view, QUrl(svg), loadedSvg);
    QVERIFY(loadedSvg.isNull());
}

void TestConversationView::rawHtmlInMarkdownIsText()
{
    ConversationView view;
    const int turn = view.beginAssistantTurn();
    const QString html
        = u"Look: <b>x</b> <img src=x onerror=alert(1)> <script>alert(1)</script>\n\n<div style=\"color:red\">block</div>"_s;
    view.appendAssistantText(turn, html);
    view.finishAssistantTurn(turn, false);
    const QString shown = shownAnswer(view);
    QVERIFY2(shown.contains(u"<b>x</b>"_s), qPrintable(shown));
    QVERIFY(shown.contains(u"<img src=x onerror=alert(1)>"_s));
    QVERIFY(shown.contains(u"<script>alert(1)</script>"_s));
    QVERIFY(shown.contains(u"<div style=\"color:red\">block</div>"_s));
    QCOMPARE(imageCount(view.document()), 0);
    const QList<Fragment> all = fragments(view.document());
    for (const Fragment &f : all) {
        if (f.text == u"Assistant"_s)
            continue;
        QVERIFY2(f.format.fontWeight() <= QFont::Normal, qPrintable(f.text));
        QVERIFY(!f.format.hasProperty(QTextFormat::ForegroundBrush));
    }
}

void TestConversationView::linksOnlyHttp()
{
    ConversationView view;
    view.resize(700, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const int turn = view.beginAssistantTurn();
    view.appendAssistantText(turn,
        u"[site](https://example.com/x) [js](javascript:alert(1)) "
        "[file](file:///etc/passwd) [rel](docs/a.md) www.example.org"_s);
    view.finishAssistantTurn(turn, false);

    QCOMPARE(
        fragmentWith(view.document(), u"site"_s).format.anchorHref(), u"https://example.com/x"_s);
    for (const QString &text : { u"js"_s, u"file"_s, u"rel"_s })
        QVERIFY2(!fragmentWith(view.document(), text).format.isAnchor(), qPrintable(text));

    QSignalSpy spy(&view, &ConversationView::externalLinkActivated);
    // A real click on the link.
    QTextCursor site = view.document()->find(u"site"_s);
    QVERIFY(!site.isNull());
    site.setPosition(site.selectionStart() + 1);
    const QPoint at = view.cursorRect(site).center();
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, at);
    QTRY_COMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toUrl(), QUrl(u"https://example.com/x"_s));
    // Whatever else reaches anchorClicked is not passed on.
    Q_EMIT view.anchorClicked(QUrl(u"javascript:alert(1)"_s));
    Q_EMIT view.anchorClicked(QUrl(u"file:///etc/passwd"_s));
    QCOMPARE(spy.count(), 1);
}

void TestConversationView::errorBodyIsLiteral()
{
    ConversationView view;
    const QString body
        = u"<html><script>alert(1)</script><b>Bad gateway</b></html>\n{\"error\": \"**x**\"}"_s;
    const int card = view.addErrorTurn(u"HTTP 502 <b>Bad Gateway</b>"_s, body);
    QCOMPARE(view.turnCount(), 1);
    QVERIFY(!view.document()->toPlainText().contains(u"<script>"_s)); // folded under Details
    view.setErrorDetailsShown(card, true);
    const QString plain = view.document()->toPlainText();
    QVERIFY2(plain.contains(body), qPrintable(plain));
    QVERIFY(plain.contains(u"HTTP 502 <b>Bad Gateway</b>"_s));
    const Fragment script = fragmentWith(view.document(), u"<script>"_s);
    const QString bodyFont = notMonospaced(view.document(), script);
    QVERIFY2(bodyFont.isEmpty(), qPrintable(bodyFont));
    QVERIFY(script.format.fontWeight() <= QFont::Normal);
    QCOMPARE(imageCount(view.document()), 0);
}

void TestConversationView::exportMarkdown()
{
    ConversationView view;
    view.addUserTurn(u"How do I retry <b>politely</b>?\n"_s);
    const int turn = view.beginAssistantTurn();
    view.appendAssistantText(turn, u"Use **backoff**:\n\n```py\nsleep(2 ** n"_s);
    view.finishAssistantTurn(turn, true);
    view.addNotice(u"Cancelled"_s);
    view.addErrorTurn(u"HTTP 429"_s, u"{\"error\": \"slow down ``` now\"}"_s);
    QCOMPARE(view.turnCount(), 3);
    QVERIFY(view.document()->toPlainText().contains(u"(incomplete)"_s));

    const QString expected = uR"(## You

How do I retry \<b\>politely\</b\>?

## Assistant

Use **backoff**:

```py
sleep(2 ** n
```

*(incomplete)*

*Cancelled*

## Error

HTTP 429

````
{"error": "slow down ``` now"}
````
)"_s;
    QCOMPARE(view.toMarkdown(), expected);

    // Read back, the export has the three turns as headings and the error body as code.
    QTextDocument back;
    back.setMarkdown(view.toMarkdown());
    QStringList headings;
    for (QTextBlock block = back.begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() == 2)
            headings << block.text();
    }
    QCOMPARE(headings, (QStringList { u"You"_s, u"Assistant"_s, u"Error"_s }));
    QVERIFY(back.toPlainText().contains(u"{\"error\": \"slow down ``` now\"}"_s));
}

void TestConversationView::largeAnswerStaysPlain()
{
    ConversationView view;
    const int turn = view.beginAssistantTurn();
    QString text;
    while (text.size() <= 300 * 1024)
        text += u"A line with **bold** in it.\n"_s;
    view.appendAssistantText(turn, text);
    QElapsedTimer timer;
    timer.start();
    view.finishAssistantTurn(turn, false);
    QTRY_VERIFY_WITH_TIMEOUT(view.isSettled(), capwatch::testing::runawayBoundMs(10000));
    qInfo("finishing a %lld KiB answer: %lld ms", qlonglong(text.size() / 1024), timer.elapsed());
    QCOMPARE(shownAnswer(view), text);
    QCOMPARE(fragmentWith(view.document(), u"bold"_s).format.fontWeight(), QFont::Normal);

    // Just under the limit, and one single paragraph (the worst case for Qt 6.4's importer):
    // rendered; report how long that takes.
    ConversationView rendered;
    const int second = rendered.beginAssistantTurn();
    rendered.appendAssistantText(second, text.left(250 * 1024));
    timer.restart();
    rendered.finishAssistantTurn(second, false);
    const qint64 renderMs = timer.elapsed();
    qInfo("rendering a 250 KiB answer of one paragraph as Markdown (one piece): %lld ms", renderMs);
    QVERIFY(renderMs < capwatch::testing::runawayBoundMs(5000));
    QVERIFY(fragmentWith(rendered.document(), u"bold"_s).format.fontWeight() >= QFont::Bold);
}

void TestConversationView::followsBottomOnlyWhenAtBottom()
{
    ConversationView view;
    view.resize(700, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QScrollBar *bar = view.verticalScrollBar();
    const int turn = view.beginAssistantTurn();
    for (int i = 0; i < 60; ++i)
        view.appendAssistantText(turn, u"line %1\n"_s.arg(i));
    QTRY_VERIFY(bar->maximum() > 0);
    QTRY_COMPARE(bar->value(), bar->maximum());

    bar->setValue(0); // the user scrolls up to read
    const int flushes = view.flushCount();
    for (int i = 0; i < 60; ++i)
        view.appendAssistantText(turn, u"more %1\n"_s.arg(i));
    QTRY_VERIFY(view.flushCount() > flushes);
    QCOMPARE(bar->value(), 0);

    bar->setValue(bar->maximum()); // and back down
    const int maximum = bar->maximum();
    for (int i = 0; i < 60; ++i)
        view.appendAssistantText(turn, u"again %1\n"_s.arg(i));
    QTRY_VERIFY(bar->maximum() > maximum);
    QTRY_COMPARE(bar->value(), bar->maximum());
}

void TestConversationView::clearForgetsTurns()
{
    ConversationView view;
    view.addUserTurn(u"hi"_s);
    const int turn = view.beginAssistantTurn();
    view.appendAssistantText(turn, u"hello"_s);
    view.clearConversation();
    QCOMPARE(view.turnCount(), 0);
    QVERIFY(view.toMarkdown().isEmpty());
    QVERIFY(view.document()->toPlainText().trimmed().isEmpty());
    // A late delta for the old turn goes nowhere.
    view.appendAssistantText(turn, u"late"_s);
    QVERIFY(view.assistantText(turn).isEmpty());
    const int fresh = view.beginAssistantTurn();
    QVERIFY(fresh != turn);
    view.appendAssistantText(fresh, u"new"_s);
    view.finishAssistantTurn(fresh, false);
    QCOMPARE(shownAnswer(view), u"new"_s);
}

void TestConversationView::followsPalette()
{
    ConversationView view;
    view.addUserTurn(u"hi"_s);
    view.addErrorTurn(u"HTTP 500"_s, u"oops"_s);
    const auto frameLightness = [&view](int index) {
        return view.document()
            ->rootFrame()
            ->childFrames()
            .at(index)
            ->frameFormat()
            .background()
            .color()
            .lightness();
    };
    QPalette light;
    light.setColor(QPalette::Base, Qt::white);
    light.setColor(QPalette::Text, Qt::black);
    view.setPalette(light);
    QVERIFY(frameLightness(0) > 200);
    QVERIFY(frameLightness(1) > 200);
    view.setPalette(darkPalette());
    QVERIFY(frameLightness(0) < 80);
    QVERIFY(frameLightness(1) < 80);
    const QColor caption = fragmentWith(view.document(), u"You"_s).format.foreground().color();
    QVERIFY(caption.lightness() > 100);
}

void TestConversationView::stream20MB()
{
    ConversationView view;
    view.resize(700, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.addUserTurn(u"Write a lot."_s);
    const int turn = view.beginAssistantTurn();

    // 90,000 deltas of about 233 characters, lines of about 80, like real prose.
    const QString words
        = u"lorem ipsum dolor sit amet, consectetur adipiscing elit sed do eiusmod "_s;
    QList<QString> deltas;
    deltas.reserve(90000);
    qsizetype total = 0;
    int column = 0;
    for (int i = 0; i < 90000; ++i) {
        QString delta;
        while (delta.size() < 225) {
            const QStringView word = QStringView(words).sliced((i * 7 + delta.size()) % 60, 8);
            delta += word;
            column += int(word.size());
            if (column > 80) {
                delta += u'\n';
                column = 0;
            }
        }
        total += delta.size();
        deltas.append(delta);
    }
    QVERIFY(total * 1 >= 20'000'000);

    QElapsedTimer timer;
    timer.start();
    qint64 appendNs = 0;
    QElapsedTimer step;
    for (const QString &delta : std::as_const(deltas)) {
        step.start();
        view.appendAssistantText(turn, delta);
        appendNs += step.nsecsElapsed();
        // As in the app: every delta arrives in its own event-loop turn.
        QCoreApplication::processEvents();
    }
    view.finishAssistantTurn(turn, false);
    // The bound is for a runaway (a re-layout of everything per flush takes minutes).
    const qint64 boundMs = capwatch::testing::runawayBoundMs(10'000);
    QTRY_VERIFY_WITH_TIMEOUT(view.isSettled(), 2 * boundMs);
    const qint64 totalMs = timer.elapsed();
    qInfo("20 MB stream: %lld chars in %lld deltas, %lld ms total (appends %lld ms), %d flushes",
        qlonglong(total), qlonglong(deltas.size()), totalMs, appendNs / 1'000'000,
        view.flushCount());
    const QString raw = view.assistantText(turn);
    QCOMPARE(raw.size(), total);
    // The live view stops at a display limit far beyond any real answer and says so; the full
    // text stays available. What it shows is exactly the start of the answer.
    const QString shown = shownAnswer(view);
    const qsizetype notice = shown.lastIndexOf(u"\nThis answer is too long to show in full"_s);
    QVERIFY(notice > 1'000'000);
    QCOMPARE(shown.left(notice), raw.left(notice));
    QVERIFY2(totalMs < boundMs, "20 MB took too long");
    // Bounded: at most one edit per tick (30 ms while text arrives, 10 ms while a backlog is
    // shown; plus the final flush), nowhere near one per delta.
    QVERIFY(view.flushCount() >= 1);
    QVERIFY2(view.flushCount() <= totalMs / 8 + 2, qPrintable(QString::number(view.flushCount())));
    QVERIFY(view.flushCount() < 1000);
}

void TestConversationView::longLineStream()
{
    // An answer without line breaks (a base64 blob) must not re-lay out everything per flush.
    ConversationView view;
    view.resize(700, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const int turn = view.beginAssistantTurn();
    const QString delta = QString(250, u'x');
    // Flushes are time-boxed, so the view takes a few seconds to catch up with 2 MiB of text;
    // re-laying out the whole line per flush would take minutes. The bound is for that runaway.
    const qint64 boundMs = capwatch::testing::runawayBoundMs(10'000);
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < 16000; ++i) {
        view.appendAssistantText(turn, delta);
        QCoreApplication::processEvents();
    }
    view.finishAssistantTurn(turn, false);
    QTRY_VERIFY_WITH_TIMEOUT(view.isSettled(), 2 * boundMs);
    const qint64 totalMs = timer.elapsed();
    qInfo("4 MB without line breaks: %lld ms, %d flushes", totalMs, view.flushCount());
    QCOMPARE(view.assistantText(turn).size(), 4'000'000);
    QVERIFY2(totalMs < boundMs, "4 MB without line breaks took too long");
    // Shown live as far as a run without spaces lays out quickly, exactly as received (no line
    // break of the view's own), and then a notice: the export has all of it.
    const QString shown = shownAnswer(view);
    const qsizetype notice = shown.indexOf(u"\nThis answer is too long to show in full"_s);
    QCOMPARE(notice, 8 * 1024);
    QCOMPARE(shown.left(notice), QString(8 * 1024, u'x'));
}

namespace {

// Prose without a line break, as the demo's firehose streams it.
QString proseLine(qsizetype size)
{
    const QString sentence
        = u"The capwatch demo provider is streaming a firehose answer to measure "
          "how fast the client takes a long answer in. "_s;
    QString text;
    while (text.size() < size)
        text += sentence;
    text.truncate(size);
    return text;
}

// Appends `text` in deltas of `delta` characters, each in its own event-loop turn as in the app.
void stream(ConversationView &view, int turn, const QString &text, qsizetype delta = 233)
{
    for (qsizetype at = 0; at < text.size(); at += delta) {
        view.appendAssistantText(turn, text.mid(at, delta));
        QCoreApplication::processEvents();
    }
}

} // namespace

void TestConversationView::streamedLineJoinsExactly()
{
    // 15 KiB without a line break (just under the live limit of a line) arrive in two parts, each
    // shown by flushes of 4 KiB pieces: what is shown is the answer itself, with no line break
    // inserted where one piece meets the next, within a flush or from one flush to the next.
    ConversationView view;
    view.resize(700, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QString answer = proseLine(15 * 1024);
    const qsizetype firstPart = 7 * 1024 + 100; // not on a piece's boundary
    const int turn = view.beginAssistantTurn();
    stream(view, turn, answer.left(firstPart));
    QTRY_COMPARE(shownAnswer(view).size(), firstPart);
    const int firstFlushes = view.flushCount();
    QVERIFY(firstFlushes >= 1);
    stream(view, turn, answer.sliced(firstPart));
    QTRY_COMPARE(shownAnswer(view).size(), answer.size());
    QVERIFY2(view.flushCount() > firstFlushes, qPrintable(QString::number(view.flushCount())));
    QCOMPARE(shownAnswer(view), answer);
    QCOMPARE(view.document()->toPlainText(), u"\nAssistant\n"_s + answer);
    view.finishAssistantTurn(turn, false);
    QTRY_VERIFY(view.isSettled());
    QCOMPARE(shownAnswer(view), answer);
}

void TestConversationView::lineTooLongToShowLive_data()
{
    QTest::addColumn<QString>("answer");
    QTest::addColumn<int>("shownLive"); // characters shown while it streams
    QTest::addColumn<bool>("allInTheEnd"); // rendered in full once finished (Markdown limit)
    QTest::newRow("100 KiB of prose") << proseLine(100 * 1024) << 16 * 1024 << true;
    QTest::newRow("300 KiB of prose") << proseLine(300 * 1024) << 16 * 1024 << false;
    QTest::newRow("40 KiB without spaces") << QString(40 * 1024, u'x') << 8 * 1024 << true;
}

void TestConversationView::lineTooLongToShowLive()
{
    QFETCH(QString, answer);
    QFETCH(int, shownLive);
    QFETCH(bool, allInTheEnd);
    ConversationView view;
    view.resize(700, 500);
    const int turn = view.beginAssistantTurn();
    stream(view, turn, answer, 4000);
    QTRY_VERIFY(view.isSettled());
    const QString notice
        = u"This answer is too long to show in full. All of it is kept: export the "
          "conversation to read the rest."_s;
    // As far as it lays out quickly, exactly the answer; then the notice instead of the rest.
    QCOMPARE(shownAnswer(view), answer.left(shownLive) + u'\n' + notice);

    QElapsedTimer timer;
    timer.start();
    view.finishAssistantTurn(turn, false);
    QTRY_VERIFY_WITH_TIMEOUT(view.isSettled(), capwatch::testing::runawayBoundMs(10000));
    qInfo("finishing: %lld ms", timer.elapsed());
    QCOMPARE(shownAnswer(view), allInTheEnd ? answer : answer.left(shownLive) + u'\n' + notice);
    QCOMPARE(view.assistantText(turn), answer);
    QVERIFY(view.toMarkdown().contains(answer));
}

void TestConversationView::statusLine()
{
    ConversationView view;
    view.addUserTurn(u"Hello"_s);
    view.setStatusLine(u"Waiting for the provider…"_s);
    QCOMPARE(view.statusLine(), u"Waiting for the provider…"_s);
    QVERIFY(view.document()->toPlainText().endsWith(u"Hello\n\nWaiting for the provider…"_s));
    const Fragment line = fragmentWith(view.document(), u"Waiting"_s);
    QVERIFY(line.format.fontItalic()); // quiet: muted italics

    // Updated in place: one line, never two.
    view.setStatusLine(u"Retrying in 34 s: token limit"_s);
    view.setStatusLine(u"Retrying in 33 s: token limit"_s);
    QVERIFY(view.document()->toPlainText().endsWith(u"Hello\n\nRetrying in 33 s: token limit"_s));
    QVERIFY(!view.document()->toPlainText().contains(u"34 s"_s));
    QVERIFY(!view.document()->toPlainText().contains(u"Waiting"_s));
    // Not a turn, not exported.
    QCOMPARE(view.turnCount(), 1);
    QCOMPARE(view.toMarkdown(), u"## You\n\nHello\n"_s);

    // The answer replaces it.
    const int turn = view.beginAssistantTurn();
    QVERIFY(view.statusLine().isEmpty());
    view.appendAssistantText(turn, u"Hi there"_s);
    view.finishAssistantTurn(turn, false);
    QVERIFY(!view.document()->toPlainText().contains(u"Retrying"_s));
    QCOMPARE(shownAnswer(view), u"Hi there"_s);

    // And an empty text removes it, leaving the document as it was.
    const QString before = view.document()->toPlainText();
    view.setStatusLine(u"Waiting for the provider…"_s);
    view.setStatusLine({});
    QCOMPARE(view.document()->toPlainText(), before);
}

void TestConversationView::actionLinks()
{
    ConversationView view;
    view.resize(700, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const int prompt = view.addUserTurn(u"Question"_s);
    const int answer = view.beginAssistantTurn();
    view.appendAssistantText(answer, u"Answer **one**"_s);
    // Links for a turn still streaming wait until it is complete.
    view.setTurnActions(
        answer, { ConversationView::Action::Copy, ConversationView::Action::Regenerate });
    view.setTurnActions(prompt, { ConversationView::Action::Edit, ConversationView::Action::Copy });
    QCOMPARE(view.turnActions(prompt),
        QList<ConversationView::Action> { ConversationView::Action::Edit });
    QVERIFY(!view.document()->toPlainText().contains(u"Regenerate"_s));
    view.finishAssistantTurn(answer, false);
    QCOMPARE(view.document()->toPlainText(),
        u"\nYou  ·  Edit and resend\nQuestion\n\nAssistant\nAnswer one\nCopy  ·  Regenerate"_s);
    QCOMPARE(fragmentWith(view.document(), u"Regenerate"_s).format.anchorHref(),
        u"capwatch-action:regenerate/%1"_s.arg(answer));

    // A real click on a link asks for its action.
    QSignalSpy spy(&view, &ConversationView::actionRequested);
    QTextCursor link = view.document()->find(u"Regenerate"_s);
    QVERIFY(!link.isNull());
    link.setPosition(link.selectionStart() + 2);
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, view.cursorRect(link).center());
    QTRY_COMPARE(spy.count(), 1);
    QCOMPARE(
        spy.at(0).at(0).value<ConversationView::Action>(), ConversationView::Action::Regenerate);
    QCOMPARE(spy.at(0).at(1).toInt(), answer);
    // A link for an action the turn does not offer (any longer) does nothing.
    Q_EMIT view.anchorClicked(QUrl(u"capwatch-action:edit/%1"_s.arg(answer)));
    Q_EMIT view.anchorClicked(QUrl(u"capwatch-action:copy/999"_s));
    QCOMPARE(spy.count(), 1);

    // Fewer links, and none: the line goes.
    view.setTurnActions(answer, { ConversationView::Action::Copy });
    view.setTurnActions(prompt, {});
    QCOMPARE(view.document()->toPlainText(), u"\nYou\nQuestion\n\nAssistant\nAnswer one\nCopy"_s);
    view.setTurnActions(answer, {});
    QCOMPARE(view.document()->toPlainText(), u"\nYou\nQuestion\n\nAssistant\nAnswer one"_s);
    Q_EMIT view.anchorClicked(QUrl(u"capwatch-action:copy/%1"_s.arg(answer)));
    QCOMPARE(spy.count(), 1);
    // Links are never exported.
    QCOMPARE(view.toMarkdown(), u"## You\n\nQuestion\n\n## Assistant\n\nAnswer **one**\n"_s);
}

void TestConversationView::removeTurnsFrom()
{
    ConversationView view;
    view.addUserTurn(u"First"_s);
    const int one = view.beginAssistantTurn();
    view.appendAssistantText(one, u"Answer 1"_s);
    view.finishAssistantTurn(one, false);
    view.setTurnActions(one, { ConversationView::Action::Copy });
    const QString afterOne = view.document()->toPlainText();
    const int second = view.addUserTurn(u"Second"_s);
    const int two = view.beginAssistantTurn();
    view.appendAssistantText(two, u"Answer 2"_s);
    view.finishAssistantTurn(two, false);
    view.addNotice(u"A notice"_s);
    QCOMPARE(view.turnCount(), 4);
    QCOMPARE(view.lastUserTurn(), second);
    QCOMPARE(view.lastAssistantTurn(), two);

    // Regenerate: the answer and what follows go; the prompt stays.
    view.removeTurnsFrom(two);
    QCOMPARE(view.turnCount(), 3);
    QCOMPARE(view.lastAssistantTurn(), one);
    QVERIFY(view.assistantText(two).isEmpty());
    QCOMPARE(
        view.toMarkdown(), u"## You\n\nFirst\n\n## Assistant\n\nAnswer 1\n\n## You\n\nSecond\n"_s);
    const int again = view.beginAssistantTurn();
    view.appendAssistantText(again, u"Answer 2b"_s);
    view.finishAssistantTurn(again, false);
    QCOMPARE(view.assistantText(again), u"Answer 2b"_s);
    QVERIFY(view.document()->toPlainText().endsWith(u"You\nSecond\n\nAssistant\nAnswer 2b"_s));

    // Edit and resend: the prompt goes too, and the document is as it was before it.
    view.removeTurnsFrom(second);
    QCOMPARE(view.turnCount(), 2);
    QCOMPARE(view.document()->toPlainText(), afterOne);
    QCOMPARE(view.lastUserTurn(), 1);
    view.addUserTurn(u"Second, edited"_s);
    QCOMPARE(view.toMarkdown(),
        u"## You\n\nFirst\n\n## Assistant\n\nAnswer 1\n\n## You\n\nSecond, edited\n"_s);
    QCOMPARE(view.userText(view.lastUserTurn()), u"Second, edited"_s);
}

void TestConversationView::copyLeavesOutLabels()
{
    ConversationView view;
    view.addUserTurn(u"What is 2 + 2?"_s);
    const int turn = view.beginAssistantTurn();
    view.appendAssistantText(turn, u"It is **4**.\n\nSecond paragraph."_s);
    view.finishAssistantTurn(turn, false);
    view.setTurnActions(
        turn, { ConversationView::Action::Copy, ConversationView::Action::Regenerate });
    view.setStatusLine(u"Waiting for the provider…"_s);

    QApplication::clipboard()->clear();
    view.selectAll();
    view.copy();
    QCOMPARE(QApplication::clipboard()->text(), u"What is 2 + 2?\n\nIt is 4.\nSecond paragraph."_s);

    // Only the answer selected, from its caption on.
    QTextCursor answer = view.document()->find(u"Assistant"_s);
    answer.movePosition(QTextCursor::StartOfBlock);
    answer.setPosition(
        view.document()->find(u"paragraph."_s).selectionEnd(), QTextCursor::KeepAnchor);
    view.setTextCursor(answer);
    view.copy();
    QCOMPARE(QApplication::clipboard()->text(), u"It is 4.\nSecond paragraph."_s);
}

void TestConversationView::errorCardAboutParking()
{
    using Card = ConversationView::Card;
    using Action = ConversationView::Action;
    ConversationView view;
    view.resize(600, 400);
    view.addUserTurn(u"Summarise it"_s);
    const int card = view.addErrorTurn(u"The send failed: budget exhausted"_s,
        u"status: 422\nresponse: Token limit exceeded. Retry in 16 min."_s);
    view.addNotice(u"after the card"_s); // the card is rewritten in place, wherever it is
    const QString body = u"status: 422\nresponse: Token limit exceeded. Retry in 16 min."_s;
    // The lead sentence first; the raw failure folded under Details (issue 25.11).
    const QString details = u"\u25b8 Details"_s;
    QCOMPARE(view.errorCardText(card), u"Error\nThe send failed: budget exhausted\n"_s + details);
    QVERIFY(!view.errorDetailsShown(card));
    QSignalSpy asked(&view, &ConversationView::actionRequested);
    Q_EMIT view.anchorClicked(QUrl(u"capwatch-action:details/%1"_s.arg(card)));
    QVERIFY(view.errorDetailsShown(card));
    // Unfolded: the box ends with the (empty) block Qt keeps after a frame.
    QCOMPARE(view.errorCardText(card),
        u"Error\nThe send failed: budget exhausted\n\u25be Hide details  \u00b7  Copy details\n"_s
            + body + u'\n');
    QApplication::clipboard()->clear();
    Q_EMIT view.anchorClicked(QUrl(u"capwatch-action:copy-details/%1"_s.arg(card)));
    QCOMPARE(QApplication::clipboard()->text(), body);
    Q_EMIT view.anchorClicked(QUrl(u"capwatch-action:details/%1"_s.arg(card)));
    QVERIFY(!view.errorDetailsShown(card));
    QCOMPARE(view.errorCardText(card), u"Error\nThe send failed: budget exhausted\n"_s + details);
    QCOMPARE(asked.size(), 0); // the view's own links ask nobody

    // The failed card's offer: a line and links under the error, which stays.
    Card offer;
    offer.links = { { Action::SendAt, u"Send at 06:14 (in 16 min)"_s, u"park it"_s },
        { Action::RetryNow, u"Retry now"_s, {} } };
    view.setErrorCard(card, offer);
    QCOMPARE(view.errorCardText(card),
        u"Error\nThe send failed: budget exhausted\nSend at 06:14 (in 16 min)  \u00b7  Retry now  "
        u"\u00b7  "_s
            + details);
    QCOMPARE(fragmentWith(view.document(), u"Send at"_s).format.anchorHref(),
        u"capwatch-action:send-at/%1"_s.arg(card));
    QCOMPARE(fragmentWith(view.document(), u"Send at"_s).format.toolTip(), u"park it"_s);
    QSignalSpy spy(&view, &ConversationView::actionRequested);
    Q_EMIT view.anchorClicked(QUrl(u"capwatch-action:send-at/%1"_s.arg(card)));
    Q_EMIT view.anchorClicked(QUrl(u"capwatch-action:send-now/%1"_s.arg(card))); // not offered
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.at(0).at(0).value<Action>(), Action::SendAt);

    // A link reached with Tab stays selected while its words tick.
    QTextCursor link = view.document()->find(u"Send at 06:14 (in 16 min)"_s);
    view.setTextCursor(link);
    offer.links[0].text = u"Send at 06:14 (in 15 min)"_s;
    view.setErrorCard(card, offer);
    QCOMPARE(view.textCursor().selectedText(), u"Send at 06:14 (in 15 min)"_s);
    QVERIFY(view.textCursor().charFormat().isAnchor());

    // Parked: its own colour and caption, the headline in place of the error, other links.
    Card parked;
    parked.parked = true;
    parked.headline = u"Parked until 06:14, in 15:42"_s;
    parked.line = u"It goes out by itself (park 1 of 3)"_s;
    parked.links = { { Action::SendNow, u"Send now"_s, {} }, { Action::EditParked, u"Edit"_s, {} },
        { Action::CancelPark, u"Cancel"_s, {} } };
    view.setErrorCard(card, parked);
    QCOMPARE(view.errorCardText(card),
        u"Parked\nParked until 06:14, in 15:42\nIt goes out by itself (park 1 of 3)\n"
        u"Send now  \u00b7  Edit  \u00b7  Cancel  \u00b7  "_s
            + details);
    QCOMPARE(view.errorCard(card), parked);
    const QTextFrame *frame = view.document()->rootFrame()->childFrames().at(1);
    QVERIFY(frame->childFrames().isEmpty()); // the error's body box is gone with it
    const QColor parkedBg = frame->frameFormat().background().color();
    QVERIFY(parkedBg
        != view.document()->rootFrame()->childFrames().at(0)->frameFormat().background().color());
    // The countdown ticks: only its line is rewritten.
    parked.headline = u"Parked until 06:14, in 15:41"_s;
    view.setErrorCard(card, parked);
    QVERIFY(view.errorCardText(card).startsWith(u"Parked\nParked until 06:14, in 15:41\n"_s));
    QVERIFY(view.toPlainText().endsWith(u"after the card"_s));
    // Copied, the card's links are labels: left out.
    QApplication::clipboard()->clear();
    view.selectAll();
    view.copy();
    const QString copied = QApplication::clipboard()->text();
    QVERIFY2(copied.contains(u"Parked until 06:14, in 15:41"_s), qPrintable(copied));
    QVERIFY2(!copied.contains(u"Send now"_s), qPrintable(copied));
    // It follows the palette like the other cards.
    view.setPalette(darkPalette());
    QVERIFY(view.document()
                ->rootFrame()
                ->childFrames()
                .at(1)
                ->frameFormat()
                .background()
                .color()
                .lightness()
        < 80);

    // Taken out: the error again, as it was added, with what the card offers now.
    Card failed;
    failed.links = { { Action::RetryNow, u"Retry now"_s, {} } };
    view.setErrorCard(card, failed);
    QCOMPARE(view.errorCardText(card),
        u"Error\nThe send failed: budget exhausted\nRetry now  \u00b7  "_s + details);
    view.setErrorCard(card, {});
    QCOMPARE(view.errorCardText(card), u"Error\nThe send failed: budget exhausted\n"_s + details);
    QCOMPARE(view.toMarkdown().count(u"Token limit exceeded"_s), 1); // the export keeps the error
}

void TestConversationView::usageUnderAnswer()
{
    using Action = ConversationView::Action;
    ConversationView view;
    view.addUserTurn(u"Question"_s);
    const int answer = view.beginAssistantTurn();
    view.appendAssistantText(answer, u"Answer"_s);
    view.finishAssistantTurn(answer, false);
    view.setTurnActions(answer, { Action::Copy, Action::Regenerate });
    view.setTurnUsage(answer, u"120 prompt + 45 completion tokens"_s);
    QCOMPARE(view.turnUsage(answer), u"120 prompt + 45 completion tokens"_s);
    QCOMPARE(view.document()->toPlainText(),
        u"\nYou\nQuestion\n\nAssistant\nAnswer\nCopy  ·  Regenerate  ·  120 prompt + 45 "
        "completion tokens"_s);
    // Small and quiet: muted, smaller than the text, not a link.
    const Fragment usage = fragmentWith(view.document(), u"completion tokens"_s);
    QCOMPARE(usage.format.foreground().color(), capwatch::ui::transcript::styleFor(view).muted);
    QVERIFY(!usage.format.isAnchor());
    QVERIFY(usage.format.fontPointSize() < view.font().pointSizeF());
    // It stays when the links change, and goes alone.
    view.setTurnActions(answer, { Action::Copy });
    QVERIFY(
        view.document()->toPlainText().endsWith(u"Copy  ·  120 prompt + 45 completion tokens"_s));
    view.setTurnActions(answer, {});
    QVERIFY(
        view.document()->toPlainText().endsWith(u"Answer\n120 prompt + 45 completion tokens"_s));
    view.setTurnUsage(answer, {});
    QCOMPARE(view.document()->toPlainText(), u"\nYou\nQuestion\n\nAssistant\nAnswer"_s);
    // Only answers have one; never exported nor copied.
    view.setTurnUsage(answer, u"7 prompt tokens"_s);
    view.setTurnUsage(1, u"not on a prompt"_s);
    QVERIFY(!view.document()->toPlainText().contains(u"not on a prompt"_s));
    QCOMPARE(view.toMarkdown(), u"## You\n\nQuestion\n\n## Assistant\n\nAnswer\n"_s);
    QApplication::clipboard()->clear();
    view.selectAll();
    view.copy();
    QCOMPARE(QApplication::clipboard()->text(), u"Question\n\nAnswer"_s);
}

void TestConversationView::leftOutTurnsGreyed()
{
    using Action = ConversationView::Action;
    ConversationView view;
    const QColor muted = capwatch::ui::transcript::styleFor(view).muted;
    const int u1 = view.addUserTurn(u"First question"_s);
    const int a1 = view.beginAssistantTurn();
    view.appendAssistantText(a1, u"First **answer**"_s);
    view.finishAssistantTurn(a1, false);
    view.setTurnActions(a1, { Action::Copy });
    const int u2 = view.addUserTurn(u"Second question"_s);
    const int a2 = view.beginAssistantTurn();
    view.appendAssistantText(a2, u"Second answer"_s);
    view.finishAssistantTurn(a2, false);
    const QString before = view.document()->toPlainText();
    const QColor linkColour = fragmentWith(view.document(), u"Copy"_s).format.foreground().color();

    view.setDimmedTurns({ u1, a1 });
    QCOMPARE(view.dimmedTurns(), (QList<int> { u1, a1 }));
    QCOMPARE(fragmentWith(view.document(), u"First question"_s).format.foreground().color(), muted);
    QCOMPARE(fragmentWith(view.document(), u"answer"_s).format.foreground().color(), muted);
    QCOMPARE(fragmentWith(view.document(), u"Copy"_s).format.foreground().color(), muted);
    QVERIFY(!fragmentWith(view.document(), u"Second question"_s)
                 .format.hasProperty(QTextFormat::ForegroundBrush));
    QVERIFY(!fragmentWith(view.document(), u"Second answer"_s)
                 .format.hasProperty(QTextFormat::ForegroundBrush));
    // A palette change keeps them greyed, in the new muted colour.
    view.setPalette(darkPalette());
    const QColor darkMuted = capwatch::ui::transcript::styleFor(view).muted;
    QVERIFY(darkMuted != muted);
    QCOMPARE(
        fragmentWith(view.document(), u"First question"_s).format.foreground().color(), darkMuted);
    view.setPalette(QPalette());

    // The note where they end, before the next prompt.
    const QString note = u"1 oldest turns (~40 tokens) are left out of requests to fit the "
                         "context window."_s;
    view.setLeftOutNote(a1, note);
    QCOMPARE(view.leftOutNote(), note);
    QCOMPARE(view.leftOutNoteAfter(), a1);
    QCOMPARE(view.document()->toPlainText(),
        u"\nYou\nFirst question\n\nAssistant\nFirst answer\nCopy\n\n"_s + note
            + u"\n\nYou\nSecond question\n\nAssistant\nSecond answer"_s);
    QVERIFY(fragmentWith(view.document(), u"left out of requests"_s).format.fontItalic());
    // Rewritten in place, and gone without a trace.
    view.setLeftOutNote(a1, u"2 oldest turns"_s);
    QCOMPARE(view.document()->toPlainText().count(u"oldest turns"_s), 1);
    view.setLeftOutNote(-1, {});
    QCOMPARE(view.document()->toPlainText(), before);
    QVERIFY(view.leftOutNote().isEmpty());

    // Shown as usual again: their own colours back.
    view.setDimmedTurns({});
    QVERIFY(view.dimmedTurns().isEmpty());
    QVERIFY(!fragmentWith(view.document(), u"First question"_s)
                 .format.hasProperty(QTextFormat::ForegroundBrush));
    QCOMPARE(fragmentWith(view.document(), u"Copy"_s).format.foreground().color(), linkColour);
    QCOMPARE(view.document()->toPlainText(), before);

    // Removing the turns after the note removes it too; the view goes on as before.
    view.setLeftOutNote(a1, note);
    view.removeTurnsFrom(u2);
    QVERIFY(view.leftOutNote().isEmpty());
    QVERIFY(!view.document()->toPlainText().contains(u"oldest"_s));
    const int u3 = view.addUserTurn(u"Third"_s);
    QCOMPARE(view.userText(u3), u"Third"_s);
    QVERIFY(view.document()->toPlainText().endsWith(u"Copy\n\nYou\nThird\n"_s));
    // A note after the last item has nothing to stand before: none.
    view.setLeftOutNote(u3, note);
    QVERIFY(view.leftOutNote().isEmpty());
}

void TestConversationView::trimAndResendLink()
{
    using Action = ConversationView::Action;
    ConversationView view;
    view.addUserTurn(u"A long prompt"_s);
    const int card = view.addErrorTurn(u"The send failed: request too large"_s,
        u"status: 400\nresponse: This model's maximum context length is 2000 tokens."_s);
    ConversationView::Card offer;
    offer.line = u"This conversation is larger than the model's context window."_s;
    offer.links = { { Action::TrimAndResend, u"Trim and resend"_s, u"leave out"_s },
        { Action::RetryNow, u"Retry now"_s, {} } };
    view.setErrorCard(card, offer);
    QVERIFY(view.errorCardText(card).endsWith(
        u"context window.\nTrim and resend  \u00b7  Retry now  \u00b7  \u25b8 Details"_s));
    QCOMPARE(fragmentWith(view.document(), u"Trim and resend"_s).format.anchorHref(),
        u"capwatch-action:trim-and-resend/%1"_s.arg(card));
    QSignalSpy spy(&view, &ConversationView::actionRequested);
    Q_EMIT view.anchorClicked(QUrl(u"capwatch-action:trim-and-resend/%1"_s.arg(card)));
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.at(0).at(0).value<Action>(), Action::TrimAndResend);
    // Gone from the card: the link does nothing.
    view.setErrorCard(card, {});
    Q_EMIT view.anchorClicked(QUrl(u"capwatch-action:trim-and-resend/%1"_s.arg(card)));
    QCOMPARE(spy.size(), 1);
}

namespace {
QString longMarkdown(qsizetype atLeast);
}

void TestConversationView::screenshots()
{
    const QString dir = qEnvironmentVariable("CAPWATCH_SHOT_DIR");
    if (dir.isEmpty())
        QSKIP("set CAPWATCH_SHOT_DIR to write screenshots");

    const auto fill = [](ConversationView &view) {
        view.addUserTurn(u"How should capwatch retry when the provider says <b>429</b>?"_s);
        const int answer = view.beginAssistantTurn();
        for (qsizetype i = 0; i < kDemoAnswer.size(); i += 7)
            view.appendAssistantText(answer, kDemoAnswer.mid(i, 7));
        view.finishAssistantTurn(answer, false);
        view.addUserTurn(u"And if the stream stops halfway?"_s);
        const int cut = view.beginAssistantTurn();
        view.appendAssistantText(
            cut, u"Then the answer is kept as far as it got, and marked so you know it"_s);
        view.finishAssistantTurn(cut, true);
        view.addNotice(u"Cancelled"_s);
        view.addErrorTurn(u"HTTP 429 Too Many Requests"_s,
            u"{\"error\": {\"message\": \"Rate limit reached for requests\", "
            "\"type\": \"requests\", \"code\": \"rate_limit_exceeded\"}}"_s);
    };

    for (const bool dark : { false, true }) {
        ConversationView view;
        if (dark)
            view.setPalette(darkPalette());
        view.resize(700, 500);
        fill(view);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTRY_VERIFY(view.isSettled()); // a long answer's Markdown goes in a piece at a time
        view.verticalScrollBar()->setValue(0);
        const QString top
            = QDir(dir).filePath(dark ? u"conversation-dark.png"_s : u"conversation.png"_s);
        QVERIFY(view.grab().save(top));
        view.verticalScrollBar()->setValue(view.verticalScrollBar()->maximum());
        const QString bottom
            = QDir(dir).filePath(dark ? u"conversation-dark-end.png"_s : u"conversation-end.png"_s);
        QVERIFY(view.grab().save(bottom));
        qInfo("wrote %s and %s", qPrintable(top), qPrintable(bottom));
    }

    // A long answer rendered in pieces, where two pieces meet (about 3 KiB in).
    ConversationView view;
    view.resize(700, 500);
    const int turn = view.beginAssistantTurn();
    view.appendAssistantText(turn, longMarkdown(24 * 1024));
    view.finishAssistantTurn(turn, false);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY(view.isSettled());
    view.scrollToAnchor(QString());
    view.verticalScrollBar()->setValue(view.verticalScrollBar()->maximum() / 8);
    const QString pieces = QDir(dir).filePath(u"conversation-long.png"_s);
    QVERIFY(view.grab().save(pieces));
    qInfo("wrote %s", qPrintable(pieces));
}

namespace {

/// A long answer of every kind of block: headings, paragraphs, a loose ordered list whose item
/// goes on indented after a blank line, fenced code with blank lines inside, a table, a quote.
QString longMarkdown(qsizetype atLeast)
{
    QString text;
    for (int i = 0; text.size() < atLeast; ++i) {
        text += u"## Part %1\n\nA paragraph with *emphasis*, `code` and a "
                u"[link](https://example.com/%1)"
                u", long enough to wrap in the view as an answer's paragraphs do.\n\n"
                u"1. The first point\n\n2. The second point\n\n    which goes on, indented.\n\n"
                u"```cpp\nint part%1()\n{\n\n    return %1;\n}\n```\n\n"
                u"| a | b |\n|---|---|\n| %1 | %2 |\n\n> A quote %1.\n\n"_s.arg(i)
                    .arg(i * 2);
    }
    return text;
}

} // namespace

void TestConversationView::markdownPiecesEndWhereTheyMay()
{
    using transcript::markdownPieceEnd;
    // After a blank line, once the piece is long enough; the end when there is no such place.
    const QString text = u"one\n\ntwo\n\nthree\n"_s;
    QCOMPARE(markdownPieceEnd(text, 0, 1), 5); // "two" begins a piece
    QCOMPARE(markdownPieceEnd(text, 5, 1), 10);
    QCOMPARE(markdownPieceEnd(text, 10, 1), text.size());
    QCOMPARE(markdownPieceEnd(text, 0, 6), 10);
    // Never inside a fenced block, blank lines and all, nor before an indented line, nor next to
    // a code block or a table (frames).
    const QString fenced = u"a\n\n```\nx\n\ny\n```\n\n    indented\n\nb\n"_s;
    QCOMPARE(markdownPieceEnd(fenced, 0, 2), fenced.indexOf(u"b\n"_s));
    const QString tildes = u"~~~~\n\n```\n\n~~~~\n\nnext\n\nafter\n"_s; // ``` does not close ~~~~
    QCOMPARE(markdownPieceEnd(tildes, 0, 1), tildes.indexOf(u"after"_s));
    const QString table = u"p\n\n| a | b |\n|---|---|\n\nq\n\nr\n"_s;
    QCOMPARE(markdownPieceEnd(table, 0, 1), table.indexOf(u"r\n"_s));
    // Pieces of a long answer put together are the answer.
    const QString answer = longMarkdown(20 * 1024);
    qsizetype from = 0;
    int pieces = 0;
    while (from < answer.size()) {
        const qsizetype end = markdownPieceEnd(answer, from, 3 * 1024);
        QVERIFY(end > from);
        QVERIFY(end == answer.size() || end - from >= 3 * 1024);
        from = end;
        ++pieces;
    }
    QVERIFY2(pieces >= 6, qPrintable(QString::number(pieces)));
    QCOMPARE(transcript::blockBreaks(u"a\r\nb\nc\rd"_s), 3);
}

void TestConversationView::longMarkdownIsRenderedInPieces()
{
    ConversationView view;
    view.resize(900, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QString answer = longMarkdown(64 * 1024);
    QVERIFY(answer.size() < 256 * 1024); // rendered as Markdown, not left plain
    const int turn = view.beginAssistantTurn();
    view.appendAssistantText(turn, answer);
    QTRY_VERIFY(view.isSettled()); // streamed: the plain text is on screen

    // Rendered all at once, 64 KiB took about 50 ms of the GUI thread; the finish renders one
    // piece now and the rest an event each.
    QElapsedTimer clock;
    clock.start();
    view.finishAssistantTurn(turn, false);
    const qint64 finishMs = clock.elapsed();
    QVERIFY(!view.isSettled());
    view.setTurnActions(turn, { ConversationView::Action::Copy }); // as the presenter does
    QTRY_VERIFY_WITH_TIMEOUT(view.isSettled(), capwatch::testing::runawayBoundMs(10000));
    qInfo("64 KiB of Markdown: the finish took %lld ms of the GUI thread, all pieces %lld ms",
        finishMs, clock.elapsed());

    // What the pieces make reads as the whole rendered at once.
    GuardedDocument whole({});
    whole.setDefaultFont(view.document()->defaultFont());
    markdown::render(
        whole, answer, transcript::styleFor(view), [](const QUrl &) { return QString(); });
    QString shown = shownAnswer(view);
    QVERIFY2(shown.endsWith(u"\nCopy"_s), qPrintable(shown.right(40))); // the links, once done
    shown.chop(5);
    QCOMPARE(shown, whole.toPlainText());
    const auto headings = [](const QTextDocument &doc) {
        int n = 0;
        for (QTextBlock b = doc.begin(); b.isValid(); b = b.next())
            n += b.blockFormat().headingLevel() > 0 ? 1 : 0;
        return n;
    };
    QCOMPARE(headings(*view.document()), headings(whole));
    // Block by block, the same look: the answer's blocks end where the links begin.
    QTextBlock piece
        = view.document()->findBlock(view.document()->toPlainText().indexOf(u"Part 0"_s));
    for (QTextBlock b = whole.begin(); b.isValid(); b = b.next(), piece = piece.next()) {
        QVERIFY(piece.isValid());
        QCOMPARE(piece.text(), b.text());
        QCOMPARE(piece.blockFormat().headingLevel(), b.blockFormat().headingLevel());
        QCOMPARE(piece.blockFormat().topMargin(), b.blockFormat().topMargin());
        QCOMPARE(piece.blockFormat().bottomMargin(), b.blockFormat().bottomMargin());
        QCOMPARE(piece.blockFormat().leftMargin(), b.blockFormat().leftMargin());
        QCOMPARE(bool(piece.textList()), bool(b.textList()));
    }
    QCOMPARE(view.assistantText(turn), answer);
}

namespace {

constexpr QChar kSeamMark(0x00a6);

/// What the view shows of its only answer as rendered, without the seams' marks and the links.
QString shownWithoutSeams(const ConversationView &view)
{
    QString shown = shownAnswer(view);
    shown.remove(kSeamMark);
    if (shown.endsWith(u"\nCopy"_s))
        shown.chop(5);
    return shown;
}

QString renderedAlone(const ConversationView &view, const QString &markdown)
{
    GuardedDocument whole({});
    whole.setDefaultFont(view.document()->defaultFont());
    markdown::render(
        whole, markdown, transcript::styleFor(view), [](const QUrl &) { return QString(); });
    return whole.toPlainText();
}

} // namespace

void TestConversationView::continuedAnswerIsRenderedWhole_data()
{
    QTest::addColumn<QString>("first");
    QTest::addColumn<QString>("rest");
    QTest::newRow("mid sentence") << u"Use **exponential"_s << u" backoff** and jitter.\n\nDone."_s;
    QTest::newRow("in a code block")
        << u"Try this:\n\n```py\nsleep(2 ** n"_s << u")\n```\n\nThat waits longer each time."_s;
    QTest::newRow("after a fence")
        << u"Try this:\n\n```py\nsleep(2 ** n)\n```\n"_s << u"\nThat waits longer each time."_s;
    QTest::newRow("at a heading") << u"# Title\n\nSome text\n\n"_s << u"## Next\n\nMore text."_s;
    QTest::newRow("in a list") << u"- one\n- tw"_s << u"o\n- three"_s;
}

void TestConversationView::continuedAnswerIsRenderedWhole()
{
    QFETCH(QString, first);
    QFETCH(QString, rest);
    ConversationView view;
    view.resize(700, 600);
    const int turn = view.beginAssistantTurn();
    view.appendAssistantText(turn, first);
    view.finishAssistantTurn(turn, u"Cut off at the output limit · 20 tokens"_s);
    view.setTurnActions(
        turn, { ConversationView::Action::Copy, ConversationView::Action::Continue });
    QTRY_VERIFY(view.isSettled());
    QCOMPARE(view.turnEnd(turn), u"Cut off at the output limit · 20 tokens"_s);
    QVERIFY(view.document()->toPlainText().contains(u"Cut off at the output limit · 20 tokens"_s));
    QVERIFY(view.document()->toPlainText().contains(u"Continue"_s));

    // Opened again: the end line and the links go while it streams; the rest follows a seam.
    QVERIFY(view.continueAssistantTurn(turn));
    QVERIFY(!view.continueAssistantTurn(turn)); // not while it streams
    QCOMPARE(view.turnEnd(turn), QString());
    QVERIFY(!view.document()->toPlainText().contains(u"Cut off"_s));
    QVERIFY(!view.document()->toPlainText().contains(u"Continue"_s));
    view.appendAssistantText(turn, rest);
    QTRY_VERIFY(view.isSettled());
    QCOMPARE(view.document()->toPlainText().count(kSeamMark), 1);
    QVERIFY(view.document()->toPlainText().contains(rest.left(3)));
    view.finishAssistantTurn(turn, QString());
    view.setTurnActions(turn, { ConversationView::Action::Copy });
    QTRY_VERIFY(view.isSettled());

    // One answer, rendered as the joined Markdown would be on its own, its seam marked.
    const QString joined = first + rest;
    QCOMPARE(view.assistantText(turn), joined);
    QCOMPARE(view.answerSeams(turn), QList<qsizetype> { first.size() });
    QCOMPARE(view.document()->toPlainText().count(kSeamMark), 1);
    QCOMPARE(shownWithoutSeams(view), renderedAlone(view, joined));
    QCOMPARE(view.turnEnd(turn), QString());
    // Copied and exported whole, without the mark.
    const QString copied
        = transcript::selectedText(*view.document(), 0, view.document()->characterCount() - 1);
    QVERIFY(!copied.contains(kSeamMark));
    QVERIFY(!view.toMarkdown().contains(kSeamMark));
    QVERIFY(view.toMarkdown().contains(joined));
}

void TestConversationView::continuedWhileItsPiecesRender()
{
    ConversationView view;
    view.resize(900, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QString answer = longMarkdown(48 * 1024);
    const int turn = view.beginAssistantTurn();
    view.appendAssistantText(turn, answer);
    QTRY_VERIFY(view.isSettled());
    view.finishAssistantTurn(turn, u"Cut off at the output limit"_s);
    QVERIFY(!view.isSettled()); // its pieces are still going in
    QVERIFY(view.continueAssistantTurn(turn));
    const QString rest = u"\n\nAnd that is **all**."_s;
    view.appendAssistantText(turn, rest);
    QTRY_VERIFY(view.isSettled());
    view.finishAssistantTurn(turn, QString());
    view.setTurnActions(turn, { ConversationView::Action::Copy });
    QTRY_VERIFY_WITH_TIMEOUT(view.isSettled(), capwatch::testing::runawayBoundMs(10000));
    QCOMPARE(view.assistantText(turn), answer + rest);
    QCOMPARE(shownWithoutSeams(view), renderedAlone(view, answer + rest));
    QCOMPARE(view.document()->toPlainText().count(kSeamMark), 1);
}

void TestConversationView::restoredSeamsAndEndLine()
{
    // A restored answer: its seams given before it is finished, its end line with it.
    ConversationView view;
    const QString answer = u"First part, then the second part, then the third."_s;
    const int turn = view.beginAssistantTurn();
    view.appendAssistantText(turn, answer);
    view.setAnswerSeams(turn, { 12, 33 });
    view.finishAssistantTurn(turn, u"Interrupted after 50 characters"_s);
    view.setTurnActions(
        turn, { ConversationView::Action::Copy, ConversationView::Action::Continue });
    QTRY_VERIFY(view.isSettled());
    QCOMPARE(view.answerSeams(turn), (QList<qsizetype> { 12, 33 }));
    QCOMPARE(view.document()->toPlainText().count(kSeamMark), 2);
    QCOMPARE(shownWithoutSeams(view).section(u'\n', 0, 0), answer);
    QVERIFY(view.document()->toPlainText().contains(u"Interrupted after 50 characters"_s));
    QCOMPARE(view.turnActions(turn),
        (QList<ConversationView::Action> {
            ConversationView::Action::Copy, ConversationView::Action::Continue }));
    const QString markdown = view.toMarkdown();
    QVERIFY(markdown.contains(answer));
    QVERIFY(markdown.contains(u"*Interrupted after 50 characters*"_s));
}

QTEST_MAIN(TestConversationView)
#include "tst_conversationview.moc"
