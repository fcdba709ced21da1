#include "ui/conversation/markdownsanitizer.h"

#include "ui/conversation/conversationstyle.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QImageReader>
#include <QTextBlock>
#include <QTextCursor>

using namespace Qt::StringLiterals;

namespace capwatch::ui {

namespace {

constexpr qsizetype kDataImageLimit = 1024 * 1024;
// A small PNG can still decode to gigabytes.
constexpr qint64 kImagePixelLimit = 4096 * 4096;

const QTextDocument::MarkdownFeatures kMarkdownFeatures(
    QTextDocument::MarkdownDialectGitHub | QTextDocument::MarkdownNoHTML);

} // namespace

GuardedDocument::GuardedDocument(Loader loader, QObject *parent)
    : QTextDocument(parent)
    , m_loader(std::move(loader))
{
    setUndoRedoEnabled(false); // the undo stack would keep a second copy of every answer
}

QVariant GuardedDocument::loadResource(int type, const QUrl &name)
{
    return m_loader ? m_loader(type, name) : QVariant();
}

namespace markdown {

void parse(QTextDocument &doc, const QString &text)
{
    // Outside an edit block, Qt 6.4's importer has its cursor recompute its x position, which
    // itemizes the whole paragraph, after every piece of text: a 256 KiB paragraph took minutes
    // instead of milliseconds. (QTextCursor::insertMarkdown has the same problem.)
    QTextCursor batch(&doc);
    batch.beginEditBlock();
    doc.setMarkdown(text, kMarkdownFeatures);
    batch.endEditBlock();
}

QUrl activatableUrl(const QString &href)
{
    QUrl url(href, QUrl::StrictMode);
    // GitHub-style "www." autolinks arrive without a scheme.
    if (url.scheme().isEmpty() && href.startsWith(u"www."_s, Qt::CaseInsensitive))
        url = QUrl(u"https://"_s + href, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || url.host().isEmpty() || (scheme != u"http"_s && scheme != u"https"_s))
        return {};
    return url;
}

QImage decodeDataImage(const QUrl &url, int maxWidth)
{
    // QUrl keeps everything after "data:" as the path.
    const QByteArray path = url.path(QUrl::FullyEncoded).toLatin1();
    const qsizetype comma = path.indexOf(',');
    // Base64 and percent-encoding inflate; refuse before decoding anything large.
    if (comma < 0 || path.size() - comma > kDataImageLimit * 3)
        return {};
    const QList<QByteArray> header
        = QByteArray::fromPercentEncoding(path.left(comma)).toLower().split(';');
    static const QList<QByteArray> mimeTypes { "image/png", "image/jpeg", "image/gif", "image/webp",
        "image/bmp" };
    if (!mimeTypes.contains(header.value(0).trimmed()))
        return {};
    QByteArray payload = QByteArray::fromPercentEncoding(path.mid(comma + 1));
    if (header.contains("base64")) {
        auto decoded
            = QByteArray::fromBase64Encoding(payload, QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            return {};
        payload = std::move(decoded.decoded);
    }
    if (payload.size() > kDataImageLimit)
        return {};

    QBuffer buffer(&payload);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer);
    // The content decides the decoder, so vector formats that can reference files stay out.
    static const QList<QByteArray> formats { "png", "jpeg", "jpg", "gif", "webp", "bmp" };
    const QSize size = reader.size();
    if (!formats.contains(reader.format()) || !size.isValid()
        || qint64(size.width()) * size.height() > kImagePixelLimit)
        return {};
    QImage image = reader.read();
    if (!image.isNull() && image.width() > maxWidth)
        image = image.scaledToWidth(maxWidth, Qt::SmoothTransformation);
    return image;
}

void sanitize(QTextDocument &doc, const transcript::Style &s, const DataImageKeeper &keepDataImage)
{
    using namespace transcript;
    QTextCursor cursor(&doc);

    struct Span
    {
        int position;
        int length;
        QTextCharFormat format;
    };
    QList<Span> images;
    QList<Span> links;
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            const QTextCharFormat format = fragment.charFormat();
            if (format.isImageFormat())
                images.append({ fragment.position(), fragment.length(), format });
            else if (format.isAnchor() || format.hasProperty(QTextFormat::AnchorHref))
                links.append({ fragment.position(), fragment.length(), format });
        }
    }
    cursor.beginEditBlock();
    for (const Span &link : std::as_const(links)) {
        QTextCharFormat format = link.format;
        const QUrl url = activatableUrl(format.anchorHref());
        if (url.isValid()) {
            format.setAnchorHref(url.toString(QUrl::FullyEncoded));
            format.merge(charFormat(LinkChar, s));
            format.setToolTip(url.toDisplayString());
        } else {
            format.setAnchor(false);
            format.clearProperty(QTextFormat::AnchorHref);
            format.clearForeground();
            format.setToolTip(link.format.anchorHref());
        }
        cursor.setPosition(link.position);
        cursor.setPosition(link.position + link.length, QTextCursor::KeepAnchor);
        cursor.setCharFormat(format);
    }
    // Back to front, so replacing one image leaves the positions of the others valid.
    for (auto it = images.crbegin(); it != images.crend(); ++it) {
        const QTextImageFormat image = it->format.toImageFormat();
        cursor.setPosition(it->position);
        cursor.setPosition(it->position + it->length, QTextCursor::KeepAnchor);
        const QUrl source(image.name());
        if (source.scheme().compare(u"data"_s, Qt::CaseInsensitive) == 0) {
            const QString name = keepDataImage ? keepDataImage(source) : QString();
            if (!name.isEmpty()) {
                QTextImageFormat kept = image;
                kept.setName(name);
                cursor.setCharFormat(kept);
                continue;
            }
        }
        QTextCharFormat alt = charFormat(AltTextChar, s);
        alt.setToolTip(
            QCoreApplication::translate("capwatch::ui::ConversationView", "Image not loaded: %1")
                .arg(image.name().left(200)));
        cursor.insertText(image.stringProperty(QTextFormat::ImageAltText).simplified(), alt);
    }
    cursor.endEditBlock();
}

// Each step reads the structure first and then edits inside an edit block: outside one, every
// cursor move itemizes its whole paragraph (see parse()), and inside one the frame tree
// (childFrames(), frame iterators) is stale until the block ends.
void render(QTextDocument &doc, const QString &text, const transcript::Style &s,
    const DataImageKeeper &keepDataImage)
{
    parse(doc, text);
    // In this order: header cells are made bold before the images in them become alt text (which
    // is not bold), and quotes are muted except for the links and alt texts sanitize() marked.
    transcript::styleMarkdownTables(doc, s);
    sanitize(doc, s, keepDataImage);
    transcript::styleMarkdownBlocks(doc, s);
}

} // namespace markdown

} // namespace capwatch::ui
