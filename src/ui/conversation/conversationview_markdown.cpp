// ConversationView's finished answers as Markdown: rendered at once when short, else a piece at
// a time (transcript::markdownPieceEnd() says where a piece may end), the plain text they
// streamed as staying shown where their Markdown is not yet.

#include "ui/conversation/conversationstyle.h"
#include "ui/conversation/conversationview.h"
#include "ui/conversation/conversationview_p.h"
#include "ui/conversation/markdownsanitizer.h"
#include "ui/conversation/transcripttext.h"

#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextDocumentFragment>
#include <QTextFrame>
#include <algorithm>

namespace capwatch::ui {

using namespace Qt::StringLiterals;
using namespace transcript;

namespace {

// Rendering an answer's Markdown costs about 0.8 ms a KiB (parse, style, insert, lay out: 8 KiB
// 5.6 ms, 64 KiB 48 ms, 256 KiB 250 ms), so a longer answer is rendered a piece of about this much
// at a time, one piece an event; its plain text stays shown where its Markdown is not yet.
constexpr qsizetype kMarkdownPiece = 3 * 1024;
// Every edit lays out again what follows it in the document, and a piece is an edit in front of
// the plain text not yet replaced: 0.05 ms a KiB of it (17 ms a piece with 250 KiB still plain).
// So no more than this much stays plain below the rendered part while the pieces go in; the rest
// goes at once, and comes back rendered.
constexpr int kPlainKeptChars = 16 * 1024;

/// Where the mark of a seam at `seam` goes in `text`: there, or when it begins a line, at the
/// end of the text before it (a mark in front of "# " or "- " would unmake a heading or a list
/// item); after a fence line (which would be one no more) at the start of the next line when
/// that begins with a letter; -1 for none.
qsizetype seamMarkAt(QStringView text, qsizetype seam)
{
    qsizetype at = seam;
    while (at > 0 && (text[at - 1] == u'\n' || text[at - 1] == u'\r'))
        --at;
    if (at == seam)
        return at;
    const qsizetype lineStart = text.first(at).lastIndexOf(u'\n') + 1;
    const QStringView line = text.sliced(lineStart, at - lineStart).trimmed();
    if (!line.startsWith(u"```") && !line.startsWith(u"~~~"))
        return at;
    qsizetype next = seam;
    while (next < text.size() && (text[next] == u'\n' || text[next] == u'\r'))
        ++next;
    return next < text.size() && text[next].isLetter() ? next : -1;
}

/// text[from, end) with the markers of the seams in it.
QString withSeamMarkers(
    QStringView text, qsizetype from, qsizetype end, const QList<qsizetype> &seams)
{
    QString out;
    qsizetype copied = from;
    for (const qsizetype seam : seams) {
        if (seam <= 0 || seam >= text.size())
            continue;
        const qsizetype at = seamMarkAt(text, seam);
        if (at < std::max(from, copied) || at >= end)
            continue;
        out += text.sliced(copied, at - copied);
        out += kSeamMarker;
        copied = at;
    }
    if (copied == from)
        return text.sliced(from, end - from).toString();
    out += text.sliced(copied, end - copied);
    return out;
}

/// The markers of seams in a rendered piece become their marks, in the format around them.
void markSeams(QTextDocument &doc, const Style &s)
{
    QTextCursor cursor(&doc);
    cursor.beginEditBlock();
    for (cursor = doc.find(QString(kSeamMarker)); !cursor.isNull();
         cursor = doc.find(QString(kSeamMarker), cursor)) {
        QTextCharFormat format = cursor.charFormat();
        format.merge(charFormat(SeamChar, s));
        format.setToolTip(seamToolTip());
        cursor.insertText(QString(kSeamGlyph), format);
    }
    cursor.endEditBlock();
}

} // namespace

void ConversationView::resetReopenedBody(Item &item)
{
    // What the answer was rendered as before, the mark and what came after it go: the joined
    // answer's Markdown is rendered whole, its plain text shown meanwhile (no more than the
    // render keeps plain anyway).
    const Style s = styleFor(*this);
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    cursor.setPosition(item.bodyStart.position());
    cursor.setPosition(item.bodyEnd.position(), QTextCursor::KeepAnchor);
    cursor.removeSelectedText();
    cursor.setBlockFormat(blockFormat(BodyBlock, s, true));
    cursor.setBlockCharFormat(QTextCharFormat());
    QStringView plain
        = QStringView(item.text).first(std::min<qsizetype>(item.text.size(), kPlainKeptChars));
    if (!plain.isEmpty() && plain.back().isHighSurrogate())
        plain.chop(1);
    cursor.insertText(plain.toString(), QTextCharFormat());
    item.bodyEnd.setPosition(cursor.position());
    cursor.endEditBlock();
    item.reopened = false;
}

void ConversationView::startMarkdown(Item &item)
{
    if (item.bodyStart.isNull()) {
        completeTurn(item);
        return;
    }
    if (item.reopened)
        resetReopenedBody(item);
    item.rendered = 0;
    item.renderEdge = QTextCursor(document());
    item.renderEdge.setPosition(item.bodyStart.position());
    if (item.bodyEnd.position() - item.bodyStart.position() > kPlainKeptChars) {
        QTextCursor tail(document());
        tail.setPosition(item.bodyStart.position() + kPlainKeptChars);
        tail.movePosition(QTextCursor::StartOfBlock);
        tail.setPosition(item.bodyEnd.position(), QTextCursor::KeepAnchor);
        tail.removeSelectedText();
    }
    m_rendering.append(item.id);
    // The first piece at once (a short answer is one piece), the others an event each.
    renderMarkdownPiece(item);
}

void ConversationView::renderMarkdownPiece(Item &item)
{
    const qsizetype from = item.rendered;
    const qsizetype end = transcript::markdownPieceEnd(item.text, from, kMarkdownPiece);
    const QStringView piece = QStringView(item.text).sliced(from, end - from);
    const bool last = end >= item.text.size();
    GuardedDocument scratch({});
    scratch.setDefaultFont(document()->defaultFont());
    const Style style = styleFor(*this);
    markdown::render(scratch,
        item.seams.isEmpty() ? piece.toString() : withSeamMarkers(item.text, from, end, item.seams),
        style, [this](const QUrl &source) { return cachedImage(source); });
    if (!item.seams.isEmpty())
        markSeams(scratch, style);

    const int edge = item.renderEdge.position();
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    cursor.setPosition(edge);
    if (last) {
        removeTooLongNotice(item, cursor);
        cursor.setPosition(edge);
        cursor.setPosition(item.bodyEnd.position(), QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
    } else if (edge < item.bodyEnd.position()) {
        // The plain lines this piece replaces: one block each, as the stream inserted them (a
        // piece ends after a line break); never past the body. What was left out (a line too
        // long to show live, the plain text over kPlainKeptChars) is rendered all the same, and
        // the last piece replaces whatever plain text is left.
        const int breaks = transcript::blockBreaks(piece);
        if (!cursor.movePosition(QTextCursor::NextBlock, QTextCursor::KeepAnchor, breaks)
            || cursor.position() > item.bodyEnd.position())
            cursor.setPosition(item.bodyEnd.position(), QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
    }
    const bool plainLeft = cursor.position() < item.bodyEnd.position();
    // The piece goes into a block of its own: in front of the plain text still to replace, or
    // after the pieces before it.
    const bool atBlockStart = cursor.atBlockStart();
    cursor.insertBlock();
    if (atBlockStart)
        cursor.movePosition(QTextCursor::PreviousCharacter);
    insertRendered(cursor, scratch, cursor.position());
    if (plainLeft) {
        item.renderEdge.setPosition(cursor.position() + 1);
    } else {
        if (atBlockStart) { // the block the plain text was in: nothing in it now
            QTextCursor separator(document());
            separator.setPosition(cursor.position());
            separator.deleteChar();
        }
        item.renderEdge.setPosition(cursor.position());
        item.bodyEnd.setPosition(cursor.position());
    }
    cursor.endEditBlock();
    if (!last) {
        item.rendered = end;
        if (!m_renderTimer.isActive())
            m_renderTimer.start();
        return;
    }
    item.rendered = -1;
    item.renderEdge = QTextCursor();
    item.flushed = item.text.size();
    m_rendering.removeAll(item.id);
    completeTurn(item);
}

void ConversationView::renderPendingMarkdown()
{
    // One piece of the oldest answer waiting; the timer comes back for the rest.
    while (!m_rendering.isEmpty()) {
        Item *next = item(m_rendering.constFirst());
        if (next && next->rendered >= 0) {
            renderMarkdownPiece(*next);
            return;
        }
        m_rendering.removeFirst(); // removed from the view meanwhile
    }
}

void ConversationView::removeTooLongNotice(Item &item, QTextCursor &cursor)
{
    if (item.noticeLength <= 0)
        return;
    // All of it is shown now: the "too long to show" notice goes.
    cursor.setPosition(item.bodyEnd.position());
    cursor.setPosition(item.bodyEnd.position() + int(item.noticeLength), QTextCursor::KeepAnchor);
    cursor.removeSelectedText();
    item.noticeLength = 0;
    item.truncated = false;
}

QString ConversationView::cachedImage(const QUrl &source)
{
    const QVariant decoded = loadResource(QTextDocument::ImageResource, source);
    if (decoded.isNull())
        return QString();
    // Cached under a short name of our own, so layout finds it and never looks further, and
    // the format does not carry a megabyte of URL.
    const QUrl name(u"capwatch-image:"_s + QString::number(++m_imageCount));
    document()->addResource(QTextDocument::ImageResource, name, decoded);
    return name.toString();
}

void ConversationView::insertRendered(
    QTextCursor &cursor, const QTextDocument &scratch, int pieceStart)
{
    cursor.removeSelectedText();
    cursor.insertFragment(QTextDocumentFragment(&scratch));
    // The fragment's first block goes into the block at the cursor, which keeps its own format:
    // a heading (or a quote) that begins the piece gets its own back.
    const QTextBlock firstRendered = scratch.begin();
    const QList<QTextFrame *> frames = scratch.rootFrame()->childFrames();
    const bool startsWithFrame
        = !frames.isEmpty() && frames.constFirst()->firstPosition() <= firstRendered.position() + 1;
    if (firstRendered.isValid() && !firstRendered.textList() && !startsWithFrame) {
        QTextCursor head(document());
        head.setPosition(pieceStart);
        head.setBlockFormat(firstRendered.blockFormat());
    }
    const QTextBlock last = cursor.block();
    if (last.length() == 1 && document()->characterAt(last.position() - 1) == QChar(0xfdd1)) {
        // The piece ended with a frame (code or table): shrink the block Qt keeps after it.
        cursor.setBlockFormat(blockFormat(FrameEndBlock, styleFor(*this), true));
    }
    // A fragment starting with a list item goes into a block of its own, leaving the block it
    // was inserted into empty in front of it.
    QTextCursor first(document());
    first.setPosition(pieceStart);
    if (first.block().length() == 1 && first.position() < cursor.position())
        first.deleteChar();
}

} // namespace capwatch::ui
