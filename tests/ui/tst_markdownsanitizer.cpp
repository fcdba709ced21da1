// The Markdown sanitizer on a bare QTextDocument, without a view: only http(s) links stay links,
// images never load (remote or local), data: images only when the host keeps them and only as
// small raster images, raw HTML is text. tst_conversationview checks the same rules through the
// view.

#include "ui/conversation/conversationstyle.h"
#include "ui/conversation/markdownsanitizer.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QImage>
#include <QPainter>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>

using namespace capwatch::ui;
using namespace Qt::StringLiterals;

namespace {

struct Fragment
{
    QString text;
    QTextCharFormat format;
};

QList<Fragment> fragments(const QTextDocument &doc)
{
    QList<Fragment> out;
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it)
            out.append({ it.fragment().text(), it.fragment().charFormat() });
    }
    return out;
}

Fragment fragmentWith(const QTextDocument &doc, const QString &needle)
{
    const QList<Fragment> all = fragments(doc);
    for (const Fragment &f : all) {
        if (f.text.contains(needle))
            return f;
    }
    return {};
}

QList<Fragment> images(const QTextDocument &doc)
{
    QList<Fragment> out;
    const QList<Fragment> all = fragments(doc);
    for (const Fragment &f : all) {
        if (f.format.isImageFormat())
            out.append(f);
    }
    return out;
}

QList<Fragment> anchors(const QTextDocument &doc)
{
    QList<Fragment> out;
    const QList<Fragment> all = fragments(doc);
    for (const Fragment &f : all) {
        if (f.format.isAnchor() || f.format.hasProperty(QTextFormat::AnchorHref))
            out.append(f);
    }
    return out;
}

transcript::Style testStyle()
{
    transcript::Style s;
    s.text = Qt::black;
    s.base = Qt::white;
    s.muted = Qt::gray;
    s.link = QColor(0x12, 0x34, 0x56);
    return s;
}

// A plain QTextDocument that notes what it is asked to load, and loads it as QTextDocument does.
class SpyDocument final : public QTextDocument
{
public:
    QList<QUrl> requested;

protected:
    QVariant loadResource(int type, const QUrl &name) override
    {
        requested.append(name);
        return QTextDocument::loadResource(type, name);
    }
};

// Lays the document out and paints it, as a view would: whatever it would load, it loads now.
void layOutAndPaint(QTextDocument &doc)
{
    doc.setTextWidth(600);
    QImage canvas(600, 400, QImage::Format_RGB32);
    canvas.fill(Qt::white);
    QPainter painter(&canvas);
    doc.drawContents(&painter);
}

QByteArray imageBytes(const QImage &image, const char *format)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, format);
    return bytes;
}

QUrl dataUrl(const QByteArray &mimeType, const QByteArray &bytes)
{
    return QUrl(u"data:"_s + QString::fromLatin1(mimeType) + u";base64,"_s
        + QString::fromLatin1(bytes.toBase64()));
}

QImage filled(int width, int height)
{
    QImage image(width, height, QImage::Format_RGB32);
    image.fill(Qt::darkGreen);
    return image;
}

} // namespace

class TestMarkdownSanitizer final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void activatableUrl_data();
    void activatableUrl();
    void linksOnlyHttp();
    void imagesBecomeAltText();
    void nothingLoadsFromDiskOrNetwork();
    void dataImagesOnlyWhenKept();
    void rawHtmlIsText();
    void decodeDataImage();
    void renderKeepsTheRules();
};

void TestMarkdownSanitizer::activatableUrl_data()
{
    QTest::addColumn<QString>("href");
    QTest::addColumn<QString>("expected"); // empty: not a link

    QTest::newRow("https") << u"https://example.com/x"_s << u"https://example.com/x"_s;
    QTest::newRow("http") << u"http://example.com/"_s << u"http://example.com/"_s;
    QTest::newRow("upper-case scheme") << u"HTTPS://example.com/"_s << u"https://example.com/"_s;
    QTest::newRow("www autolink") << u"www.example.org/a"_s << u"https://www.example.org/a"_s;
    QTest::newRow("javascript") << u"javascript:alert(1)"_s << QString();
    QTest::newRow("javascript, mixed case") << u"JavaScript:alert(1)"_s << QString();
    QTest::newRow("data") << u"data:text/html,<script>alert(1)</script>"_s << QString();
    QTest::newRow("file") << u"file:///etc/passwd"_s << QString();
    QTest::newRow("relative") << u"docs/a.md"_s << QString();
    QTest::newRow("absolute path") << u"/etc/passwd"_s << QString();
    QTest::newRow("no host") << u"http:foo"_s << QString();
    QTest::newRow("ftp") << u"ftp://example.com/"_s << QString();
    QTest::newRow("mailto") << u"mailto:a@example.com"_s << QString();
    QTest::newRow("empty") << QString() << QString();
}

void TestMarkdownSanitizer::activatableUrl()
{
    QFETCH(QString, href);
    QFETCH(QString, expected);
    const QUrl url = markdown::activatableUrl(href);
    if (expected.isEmpty()) {
        QVERIFY2(!url.isValid(), qPrintable(url.toString()));
    } else {
        QVERIFY(url.isValid());
        QCOMPARE(url.toString(QUrl::FullyEncoded), expected);
    }
}

void TestMarkdownSanitizer::linksOnlyHttp()
{
    QTextDocument doc;
    markdown::parse(doc,
        u"[site](https://example.com/x) [js](javascript:alert(1)) "
        "[data](data:text/html;base64,PHNjcmlwdD4=) [file](file:///etc/passwd) [rel](docs/a.md) "
        "<https://example.net/auto> [Upper](HTTPS://EXAMPLE.COM/u)"_s);
    QVERIFY(!anchors(doc).isEmpty());
    const transcript::Style s = testStyle();
    markdown::sanitize(doc, s, {});

    const Fragment site = fragmentWith(doc, u"site"_s);
    QVERIFY(site.format.isAnchor());
    QCOMPARE(site.format.anchorHref(), u"https://example.com/x"_s);
    QCOMPARE(site.format.foreground().color(), s.link);
    QVERIFY(site.format.fontUnderline());
    QCOMPARE(site.format.toolTip(), u"https://example.com/x"_s);
    QCOMPARE(
        fragmentWith(doc, u"example.net"_s).format.anchorHref(), u"https://example.net/auto"_s);
    QCOMPARE(fragmentWith(doc, u"Upper"_s).format.anchorHref(), u"https://example.com/u"_s);

    // Everything else is plain text: no anchor, no target left to activate, no link colour; the
    // target is still there to read, as a tooltip.
    const QList<std::pair<QString, QString>> dropped { { u"js"_s, u"javascript:alert(1)"_s },
        { u"data"_s, u"data:text/html;base64,PHNjcmlwdD4="_s },
        { u"file"_s, u"file:///etc/passwd"_s }, { u"rel"_s, u"docs/a.md"_s } };
    for (const auto &[text, href] : dropped) {
        const Fragment f = fragmentWith(doc, text);
        QVERIFY2(!f.format.isAnchor(), qPrintable(text));
        QVERIFY2(!f.format.hasProperty(QTextFormat::AnchorHref), qPrintable(text));
        QVERIFY2(!f.format.hasProperty(QTextFormat::ForegroundBrush), qPrintable(text));
        QCOMPARE(f.format.toolTip(), href);
    }
    // Only the three http(s) links are links now.
    QCOMPARE(anchors(doc).size(), 3);
}

void TestMarkdownSanitizer::imagesBecomeAltText()
{
    QTextDocument doc;
    const QString longUrl = u"http://example.com/"_s + QString(300, u'a') + u".png"_s;
    markdown::parse(doc,
        u"Remote ![remote alt](http://example.com/a.png) file ![file alt](file:///etc/hostname) "
        "relative ![relative   alt](img/x.png) long ![long alt]("_s
            + longUrl + u")"_s);
    QCOMPARE(images(doc).size(), 4);
    const transcript::Style s = testStyle();
    int asked = 0;
    markdown::sanitize(doc, s, [&asked](const QUrl &) {
        ++asked;
        return u"never"_s;
    });

    QCOMPARE(asked, 0); // only data: images are offered to the host
    QCOMPARE(images(doc).size(), 0);
    const QString plain = doc.toPlainText();
    QVERIFY2(plain.contains(u"remote alt"_s) && plain.contains(u"file alt"_s)
            && plain.contains(u"relative alt"_s), // simplified
        qPrintable(plain));
    const Fragment remote = fragmentWith(doc, u"remote alt"_s);
    QVERIFY(remote.format.fontItalic());
    QCOMPARE(remote.format.foreground().color(), s.muted);
    QCOMPARE(remote.format.toolTip(), u"Image not loaded: http://example.com/a.png"_s);
    QCOMPARE(fragmentWith(doc, u"long alt"_s).format.toolTip(),
        u"Image not loaded: "_s + longUrl.left(200));
}

void TestMarkdownSanitizer::nothingLoadsFromDiskOrNetwork()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString local = dir.filePath(u"probe.png"_s);
    QVERIFY(filled(8, 8).save(local));
    const QUrl fileUrl = QUrl::fromLocalFile(local);
    const QUrl remote(u"http://127.0.0.1:9/a.png"_s);

    const QString answer = u"![remote](http://127.0.0.1:9/a.png) ![file]("_s + fileUrl.toString()
        + u") ![path]("_s + local + u") <img src=\""_s + local + u"\">"_s;

    // A bare QTextDocument reads local files by itself (QTextDocument::loadResource): unsanitized,
    // laying the answer out asks for the remote image and reads the local one.
    SpyDocument unsafe;
    markdown::parse(unsafe, answer);
    layOutAndPaint(unsafe);
    QVERIFY(unsafe.requested.contains(fileUrl));
    QVERIFY(unsafe.requested.contains(remote));
    QVERIFY(!unsafe.resource(QTextDocument::ImageResource, fileUrl).isNull());

    // Sanitized, nothing is left that it would ask for.
    SpyDocument doc;
    markdown::parse(doc, answer);
    markdown::sanitize(doc, testStyle(), {});
    layOutAndPaint(doc);
    QCOMPARE(images(doc).size(), 0);
    QVERIFY2(doc.requested.isEmpty(), qPrintable(doc.requested.value(0).toString()));

    // The view's documents ask their loader for every resource, and it is never asked here.
    QList<QUrl> requested;
    GuardedDocument guarded([&requested](int, const QUrl &name) {
        requested.append(name);
        return QVariant();
    });
    markdown::parse(
        guarded, u"![remote](http://127.0.0.1:9/a.png) ![file]("_s + fileUrl.toString() + u")"_s);
    markdown::sanitize(guarded, testStyle(), {});
    layOutAndPaint(guarded);
    QVERIFY2(requested.isEmpty(), qPrintable(requested.value(0).toString()));

    // Without a loader, a GuardedDocument loads nothing at all, even for an image left in it.
    GuardedDocument bare({});
    QTextCursor cursor(&bare);
    QTextImageFormat image;
    image.setName(fileUrl.toString());
    cursor.insertImage(image);
    layOutAndPaint(bare);
    QVERIFY(bare.resource(QTextDocument::ImageResource, fileUrl).isNull());
}

void TestMarkdownSanitizer::dataImagesOnlyWhenKept()
{
    const QUrl green = dataUrl("image/png", imageBytes(filled(24, 16), "PNG"));
    const QUrl red = dataUrl("image/png", imageBytes(filled(8, 8), "PNG"));
    QTextDocument doc;
    markdown::parse(doc,
        u"Kept ![green]("_s + green.toString() + u") refused ![red]("_s + red.toString()
            + u") remote ![remote](http://example.com/a.png)"_s);
    QCOMPARE(images(doc).size(), 3);

    QList<QUrl> offered;
    markdown::sanitize(doc, testStyle(), [&](const QUrl &source) {
        offered.append(source);
        if (source != green)
            return QString();
        doc.addResource(QTextDocument::ImageResource, QUrl(u"capwatch-image:1"_s),
            markdown::decodeDataImage(source, 600));
        return u"capwatch-image:1"_s;
    });

    QCOMPARE(offered.size(), 2); // the two data: images, never the remote one
    QVERIFY(offered.contains(green) && offered.contains(red));
    const QList<Fragment> kept = images(doc);
    QCOMPARE(kept.size(), 1);
    // Kept under the host's name: the format does not carry the data, and layout never looks
    // further than the document's cache.
    QCOMPARE(kept.first().format.toImageFormat().name(), u"capwatch-image:1"_s);
    QVERIFY(doc.toPlainText().contains(u"red"_s));
    QVERIFY(doc.toPlainText().contains(u"remote"_s));

    // Without a host that keeps them, data: images are alt text too.
    QTextDocument plain;
    markdown::parse(plain, u"![green]("_s + green.toString() + u")"_s);
    markdown::sanitize(plain, testStyle(), {});
    QCOMPARE(images(plain).size(), 0);
    QCOMPARE(plain.toPlainText(), u"green"_s);
}

void TestMarkdownSanitizer::rawHtmlIsText()
{
    QTextDocument doc;
    const QString html = u"Look: <b>x</b> <img src=x onerror=alert(1)> "
                         "<a href=\"javascript:alert(1)\">click</a> <script>alert(1)</script>"_s;
    markdown::parse(doc, html);
    markdown::sanitize(doc, testStyle(), {});
    QCOMPARE(doc.toPlainText(), html);
    QCOMPARE(images(doc).size(), 0);
    QCOMPARE(anchors(doc).size(), 0);
    QVERIFY(fragmentWith(doc, u"<b>x</b>"_s).format.fontWeight() <= QFont::Normal);
}

void TestMarkdownSanitizer::decodeDataImage()
{
    const QImage small
        = markdown::decodeDataImage(dataUrl("image/png", imageBytes(filled(24, 16), "PNG")), 600);
    QCOMPARE(small.size(), QSize(24, 16));
    // Percent-encoded rather than base64, and a MIME type in capitals.
    const QByteArray png = imageBytes(filled(5, 5), "PNG");
    const QUrl percent(
        u"data:IMAGE/PNG,"_s + QString::fromLatin1(png.toPercentEncoding()), QUrl::StrictMode);
    QCOMPARE(markdown::decodeDataImage(percent, 600).size(), QSize(5, 5));
    // Scaled down to the width it is shown at.
    QCOMPARE(
        markdown::decodeDataImage(dataUrl("image/png", imageBytes(filled(400, 100), "PNG")), 100)
            .size(),
        QSize(100, 25));

    // Not an allowed raster type, by its MIME type or by its content.
    const QByteArray svg = "<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'/>";
    QVERIFY(markdown::decodeDataImage(dataUrl("image/svg+xml", svg), 600).isNull());
    QVERIFY(markdown::decodeDataImage(dataUrl("image/png", svg), 600).isNull());
    QVERIFY(markdown::decodeDataImage(dataUrl("text/html", png), 600).isNull());
    // Broken base64, no comma, not a data: URL's payload at all.
    QVERIFY(markdown::decodeDataImage(QUrl(u"data:image/png;base64,%%%%"_s), 600).isNull());
    QVERIFY(markdown::decodeDataImage(QUrl(u"data:image/png;base64"_s), 600).isNull());
    // More than 1 MiB of image data.
    QImage noise(800, 800, QImage::Format_RGB32);
    for (int y = 0; y < noise.height(); ++y) {
        auto *line = reinterpret_cast<quint32 *>(noise.scanLine(y));
        for (int x = 0; x < noise.width(); ++x)
            line[x] = QRandomGenerator::global()->generate() | 0xff000000u;
    }
    const QByteArray big = imageBytes(noise, "PNG");
    QVERIFY(big.size() > 1024 * 1024);
    QVERIFY(markdown::decodeDataImage(dataUrl("image/png", big), 600).isNull());
    // A small file that would decode to more than 4096 x 4096 pixels.
    QImage huge(4097, 4097, QImage::Format_Mono);
    huge.fill(0);
    const QByteArray bomb = imageBytes(huge, "PNG");
    QVERIFY(bomb.size() < 1024 * 1024);
    QVERIFY(markdown::decodeDataImage(dataUrl("image/png", bomb), 600).isNull());
}

void TestMarkdownSanitizer::renderKeepsTheRules()
{
    // The whole pipeline the view runs on a finished answer: parse, style, sanitize.
    QTextDocument doc;
    int asked = 0;
    markdown::render(doc,
        u"> quoted [js](javascript:alert(1)) and [site](https://example.com/)\n\n"
        "| a | ![img](http://example.com/i.png) |\n|---|---|\n| 1 | 2 |\n\n"
        "<img src=\"http://example.com/x.png\">"_s,
        testStyle(), [&asked](const QUrl &) {
            ++asked;
            return QString();
        });
    QCOMPARE(asked, 0);
    QCOMPARE(images(doc).size(), 0);
    QCOMPARE(anchors(doc).size(), 1);
    QCOMPARE(fragmentWith(doc, u"site"_s).format.anchorHref(), u"https://example.com/"_s);
    QVERIFY(!fragmentWith(doc, u"js"_s).format.isAnchor());
    QVERIFY(doc.toPlainText().contains(u"img"_s));
    QVERIFY(doc.toPlainText().contains(u"<img src=\"http://example.com/x.png\">"_s));
}

QTEST_MAIN(TestMarkdownSanitizer)
#include "tst_markdownsanitizer.moc"
