#pragma once

#include <QImage>
#include <QString>
#include <QTextDocument>
#include <QUrl>
#include <QVariant>
#include <functional>

// Answers come from the network: nothing in them may read a file, fetch a resource or run a link
// the user did not ask for. These are the pieces that make parsed Markdown safe to show.
namespace capwatch::ui {

namespace transcript {
struct Style;
}

// A document that loads only what its loader gives (nothing without one): QTextDocument's own
// fallback reads local files. The view's document and the scratch documents Markdown is parsed
// into are these.
class GuardedDocument final : public QTextDocument
{
    Q_DISABLE_COPY_MOVE(GuardedDocument)

public:
    using Loader = std::function<QVariant(int, const QUrl &)>;

    explicit GuardedDocument(Loader loader, QObject *parent = nullptr);

protected:
    QVariant loadResource(int type, const QUrl &name) override;

private:
    Loader m_loader;
};

namespace markdown {

// Replaces the document's content with the Markdown parsed as GitHub does, but raw HTML shown as
// the text it is.
void parse(QTextDocument &doc, const QString &text);

// The URL a link may open: http and https with a host; GitHub-style "www." autolinks get https.
// Anything else (javascript:, data:, file:, relative paths) gives an invalid QUrl.
[[nodiscard]] QUrl activatableUrl(const QString &href);

// The image of a data: URL, if it is a raster image (PNG, JPEG, GIF, WebP, BMP by content, not
// just by its MIME type) of at most 1 MiB and 4096 x 4096 pixels, scaled down to maxWidth; a null
// image otherwise.
[[nodiscard]] QImage decodeDataImage(const QUrl &url, int maxWidth);

// Asked for each data: image (never for any other): the name the image is now cached under in the
// document that will show it, or an empty string to show its alt text instead.
using DataImageKeeper = std::function<QString(const QUrl &source)>;

// Makes freshly parsed Markdown safe: only http(s) links stay links (in the style's link colour,
// the URL as tooltip); other links become plain text with their target as tooltip. Images become
// their alt text (Qt would otherwise read local files named by them), except data: images that
// keepDataImage keeps.
void sanitize(QTextDocument &doc, const transcript::Style &s, const DataImageKeeper &keepDataImage);

// Markdown as the conversation shows a finished answer: parse(), then sanitize() and the view's
// look (transcript::styleMarkdownTables() and styleMarkdownBlocks()), replacing the document's
// content. Links, images and headings are safe and consistent with the view; everything gets the
// turn's inset.
void render(QTextDocument &doc, const QString &text, const transcript::Style &s,
    const DataImageKeeper &keepDataImage);

} // namespace markdown

} // namespace capwatch::ui
