#include "ui/conversation/conversationstyle.h"

#include "session/parkingtexts.h"
#include "ui/panel/categorycolors.h"

#include <QFontDatabase>
#include <QPalette>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>
#include <QWidget>
#include <algorithm>
#include <cmath>

namespace capwatch::ui::transcript {

namespace {

qreal luminance(const QColor &c)
{
    const auto channel
        = [](float v) { return v <= 0.03928f ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

qreal contrast(const QColor &a, const QColor &b)
{
    const qreal la = luminance(a);
    const qreal lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// Custom dark palettes often keep the default blue link colour, which is unreadable on them.
QColor readable(QColor colour, const QColor &text, const QColor &base)
{
    for (int i = 0; i < 6 && contrast(colour, base) < 4.5; ++i)
        colour = blend(colour, text, 0.25);
    return colour;
}

void setRelativeSize(QTextCharFormat &format, const QFont &font, qreal factor)
{
    if (font.pointSizeF() > 0)
        format.setFontPointSize(font.pointSizeF() * factor);
    else
        format.setProperty(QTextFormat::FontPixelSize, qRound(font.pixelSize() * factor));
}

// Header cells carry the tint as their own format, so restyle() can update them.
void styleHeaderRow(QTextTable *table, const Style &s)
{
    for (int column = 0; column < table->columns(); ++column) {
        QTextTableCell cell = table->cellAt(0, column);
        if (cell.row() != 0 || cell.column() != column)
            continue;
        QTextCharFormat format = cell.format();
        format.setBackground(s.codeBg);
        cell.setFormat(format);
    }
}

void styleTable(QTextTableFormat &f, const Style &s)
{
    f.setProperty(kRoleProperty, TableFrame);
    f.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
    f.setBorder(s.border);
    f.setBorderBrush(s.codeBorder);
    f.setBorderCollapse(true);
    f.setCellSpacing(0);
    f.setCellPadding(s.gap * 1.5);
    f.setTopMargin(s.gap);
    f.setBottomMargin(s.gap * 2);
}

} // namespace

Style styleFor(const QWidget &widget)
{
    Style s;
    const QFontMetricsF metrics(widget.font());
    s.em = metrics.height();
    s.pad = std::round(s.em * 0.6);
    s.hpad = s.pad + s.border;
    s.spacer = std::round(s.em * 0.9);
    s.gap = std::round(s.em * 0.25);

    const QPalette &palette = widget.palette();
    s.text = palette.color(QPalette::Text);
    s.base = palette.color(QPalette::Base);
    const QColor highlight = palette.color(QPalette::Highlight);
    const QColor red(0xd8, 0x3b, 0x3b);
    s.muted = blend(s.text, s.base, 0.42);
    s.link = readable(palette.color(QPalette::Link), s.text, s.base);
    s.userBg = blend(s.base, highlight, 0.10);
    s.userBorder = blend(s.base, highlight, 0.28);
    s.errorBg = blend(s.base, red, 0.09);
    s.errorBorder = blend(s.base, red, 0.45);
    s.warning = readable(blend(s.text, red, 0.75), s.text, s.errorBg);
    s.codeBg = blend(s.base, s.text, 0.05);
    s.codeBorder = blend(s.base, s.text, 0.14);
    const QColor parked = parkedColor(palette);
    s.parkedBg = blend(s.base, parked, 0.09);
    s.parkedBorder = blend(s.base, parked, 0.45);
    s.parked = readable(parked, s.text, s.parkedBg);
    s.font = widget.font();
    s.monoFamilies = QFontDatabase::systemFont(QFontDatabase::FixedFont).families();
    return s;
}

QTextCharFormat charFormat(int role, const Style &s)
{
    QTextCharFormat f;
    f.setProperty(kRoleProperty, role);
    switch (role) {
    case CaptionChar:
    case ErrorCaptionChar:
    case ParkedCaptionChar:
        f.setFontWeight(QFont::Bold);
        setRelativeSize(f, s.font, 0.88);
        f.setForeground(role == CaptionChar ? s.muted
                : role == ErrorCaptionChar  ? s.warning
                                            : s.parked);
        break;
    case CardHeadlineChar:
        f.setFontWeight(QFont::DemiBold);
        break;
    case CardLineChar:
        setRelativeSize(f, s.font, 0.92);
        f.setForeground(s.muted);
        break;
    case UsageChar:
        setRelativeSize(f, s.font, 0.85);
        f.setForeground(s.muted);
        break;
    case SeamChar:
        // Quiet, but found: the link colour on a faint tint of it, in light and dark palettes;
        // not bold, which reads as "!" at small sizes.
        f.setForeground(s.link);
        f.setBackground(blend(s.base, s.link, 0.16));
        break;
    case NoticeChar:
    case IncompleteChar:
    case StatusChar:
        f.setFontItalic(true);
        setRelativeSize(f, s.font, 0.92);
        f.setForeground(role == IncompleteChar ? s.warning : s.muted);
        break;
    case ActionChar:
        setRelativeSize(f, s.font, 0.88);
        f.setForeground(s.link);
        break;
    case LinkChar:
        f.setForeground(s.link);
        f.setFontUnderline(true);
        break;
    case AltTextChar:
        f.setFontItalic(true);
        f.setForeground(s.muted);
        break;
    case QuoteChar:
        f.setForeground(s.muted);
        break;
    case ErrorTitleChar:
        f.setFontWeight(QFont::DemiBold);
        break;
    case ErrorBodyChar:
        f.setFontFamilies(s.monoFamilies);
        f.setFontFixedPitch(true);
        break;
    default:
        break;
    }
    return f;
}

QTextBlockFormat blockFormat(int role, const Style &s, bool padded)
{
    QTextBlockFormat f;
    f.setProperty(kRoleProperty, role);
    if (padded) {
        f.setLeftMargin(s.hpad);
        f.setRightMargin(s.hpad);
        f.setProperty(kPadProperty, s.hpad);
    }
    switch (role) {
    case SpacerBlock:
        f.setLineHeight(s.spacer, QTextBlockFormat::FixedHeight);
        break;
    case CaptionBlock:
        f.setBottomMargin(s.gap);
        break;
    case NoticeBlock:
        f.setAlignment(Qt::AlignHCenter);
        break;
    case IncompleteBlock:
    case ActionBlock:
    case StatusBlock:
    case CardLineBlock:
    case CardLinkBlock:
        f.setTopMargin(s.gap);
        break;
    case ErrorTitleBlock:
        f.setBottomMargin(s.gap * 2);
        break;
    case FrameEndBlock:
        // The block Qt keeps after every frame; it should not look like an empty line.
        f.setLineHeight(1, QTextBlockFormat::FixedHeight);
        break;
    default:
        break;
    }
    return f;
}

QTextFrameFormat frameFormat(int role, const Style &s)
{
    QTextFrameFormat f;
    f.setProperty(kRoleProperty, role);
    f.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
    f.setBorder(s.border);
    f.setPadding(s.pad);
    f.setMargin(0);
    switch (role) {
    case UserFrame:
        f.setBackground(s.userBg);
        f.setBorderBrush(s.userBorder);
        break;
    case ErrorFrame:
        f.setBackground(s.errorBg);
        f.setBorderBrush(s.errorBorder);
        break;
    case ParkedFrame:
        f.setBackground(s.parkedBg);
        f.setBorderBrush(s.parkedBorder);
        break;
    case ErrorBodyFrame:
        f.setBackground(s.base);
        f.setBorderBrush(s.errorBorder);
        f.setPadding(s.gap * 2);
        break;
    case CodeFrame:
        f.setBackground(s.codeBg);
        f.setBorderBrush(s.codeBorder);
        f.setPadding(s.gap * 2);
        f.setTopMargin(s.gap);
        f.setBottomMargin(s.gap * 2);
        f.setLeftMargin(s.hpad);
        f.setRightMargin(s.hpad);
        f.setProperty(kPadProperty, s.hpad);
        break;
    default:
        break;
    }
    return f;
}

void styleMarkdownTables(QTextDocument &doc, const Style &s)
{
    QTextCursor cursor(&doc);
    QList<QTextTable *> tables;
    for (QTextFrame *frame : doc.rootFrame()->childFrames()) {
        if (auto *table = qobject_cast<QTextTable *>(frame))
            tables.append(table);
    }
    cursor.beginEditBlock();
    for (QTextTable *table : std::as_const(tables)) {
        QTextTableFormat format = table->format();
        styleTable(format, s);
        table->setFormat(format);
        styleHeaderRow(table, s);
        // Back to front, so an edit leaves the cells still to visit where they were.
        for (int row = table->rows() - 1; row >= 0; --row) {
            for (int column = table->columns() - 1; column >= 0; --column) {
                const QTextTableCell cell = table->cellAt(row, column);
                if (cell.row() != row || cell.column() != column)
                    continue; // covered by a merged cell
                // Qt 6.4's importer starts a table that follows a code block with an empty
                // block in the first cell, and that cell's text then misses the header's bold.
                QTextCursor first = cell.firstCursorPosition();
                if (first.block().length() == 1 && first.position() < cell.lastPosition())
                    first.deleteChar();
                if (row == 0) { // GitHub tables always have a header row
                    QTextCursor header = table->cellAt(row, column).firstCursorPosition();
                    header.setPosition(
                        table->cellAt(row, column).lastPosition(), QTextCursor::KeepAnchor);
                    QTextCharFormat bold;
                    bold.setFontWeight(QFont::Bold);
                    header.mergeCharFormat(bold);
                }
            }
        }
    }
    cursor.endEditBlock();
}

void styleMarkdownBlocks(QTextDocument &doc, const Style &s)
{
    QTextCursor cursor(&doc);

    // Headings, quotes and code blocks.
    const auto isCode = [&doc](const QTextBlock &block) {
        const QTextBlockFormat format = block.blockFormat();
        return (format.hasProperty(QTextFormat::BlockCodeLanguage)
                   || format.hasProperty(QTextFormat::BlockCodeFence))
            && QTextCursor(block).currentFrame() == doc.rootFrame();
    };
    QList<std::pair<int, QTextBlockFormat>> blockFormats;
    QList<std::pair<int, int>> codeRuns;
    QList<std::pair<int, int>> quoted; // text in block quotes, links aside
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        QTextBlockFormat format = block.blockFormat();
        if (const int level = format.headingLevel(); level > 0) {
            format.setTopMargin(std::round(s.em * (level <= 2 ? 0.8 : 0.6)));
            format.setBottomMargin(s.gap);
            blockFormats.append({ block.position(), format });
        } else if (format.hasProperty(QTextFormat::BlockQuoteLevel)) {
            format.setLeftMargin(
                std::round(s.em * 1.5) * format.intProperty(QTextFormat::BlockQuoteLevel));
            format.setRightMargin(0);
            blockFormats.append({ block.position(), format });
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                if (!it.fragment().charFormat().hasProperty(kRoleProperty))
                    quoted.append({ it.fragment().position(), it.fragment().length() });
            }
        } else if (isCode(block)) {
            const int start = block.position();
            QTextBlock last = block;
            while (last.next().isValid() && isCode(last.next()))
                last = last.next();
            codeRuns.append({ start, last.position() + last.length() - 1 });
            block = last;
        }
    }
    cursor.beginEditBlock();
    for (const auto &[position, format] : std::as_const(blockFormats)) {
        cursor.setPosition(position);
        cursor.setBlockFormat(format);
        if (const int level = format.headingLevel(); level > 0) {
            // Qt sizes H1 at 2.4 times the body text, far too loud for a chat answer.
            cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
            QTextCharFormat size;
            size.setProperty(QTextFormat::FontSizeAdjustment, level == 1 ? 2 : level == 2 ? 1 : 0);
            cursor.mergeCharFormat(size);
            cursor.mergeBlockCharFormat(size);
        }
    }
    for (const auto &[position, length] : std::as_const(quoted)) {
        cursor.setPosition(position);
        cursor.setPosition(position + length, QTextCursor::KeepAnchor);
        cursor.mergeCharFormat(charFormat(QuoteChar, s));
    }
    // Code wraps rather than widening the whole conversation, and each run is boxed in a frame.
    // Back to front, so a new frame leaves the runs still to box where they were.
    for (auto it = codeRuns.crbegin(); it != codeRuns.crend(); ++it) {
        cursor.setPosition(it->first);
        cursor.setPosition(it->second, QTextCursor::KeepAnchor);
        QTextBlockFormat wrap;
        wrap.setNonBreakableLines(false);
        cursor.mergeBlockFormat(wrap);
        cursor.insertFrame(frameFormat(CodeFrame, s));
    }
    cursor.endEditBlock();

    // The inset that lines root-level text up with the text inside turn frames.
    QList<std::pair<QTextTable *, QTextTableFormat>> tableFormats;
    blockFormats.clear();
    for (auto it = doc.rootFrame()->begin(); !it.atEnd(); ++it) {
        if (QTextFrame *frame = it.currentFrame()) {
            if (auto *table = qobject_cast<QTextTable *>(frame)) {
                QTextTableFormat format = table->format();
                format.setLeftMargin(s.hpad);
                format.setRightMargin(s.hpad);
                format.setProperty(kPadProperty, s.hpad);
                tableFormats.append({ table, format });
            }
            continue;
        }
        const QTextBlock block = it.currentBlock();
        QTextBlockFormat format = block.blockFormat();
        // Qt keeps an empty block before a frame inserted at a block's start and after every
        // frame; they should not look like blank lines.
        if (block.length() == 1
            && (doc.characterAt(block.position()) == QChar(0xfdd0)
                || doc.characterAt(block.position() - 1) == QChar(0xfdd1)))
            format = blockFormat(FrameEndBlock, s, false);
        format.setLeftMargin(format.leftMargin() + s.hpad);
        format.setRightMargin(format.rightMargin() + s.hpad);
        format.setProperty(kPadProperty, s.hpad);
        if (!format.hasProperty(kRoleProperty))
            format.setProperty(kRoleProperty, MarkdownBlock);
        blockFormats.append({ block.position(), format });
    }
    cursor.beginEditBlock();
    for (const auto &[table, format] : std::as_const(tableFormats))
        table->setFormat(format);
    for (const auto &[position, format] : std::as_const(blockFormats)) {
        cursor.setPosition(position);
        cursor.setBlockFormat(format);
    }
    cursor.endEditBlock();
}

void restyle(QTextDocument &document, const Style &s)
{
    QTextDocument *doc = &document;
    doc->setDefaultFont(s.font);
    doc->setDocumentMargin(std::round(s.em * 0.5));
    doc->setIndentWidth(std::round(s.em * 1.6));

    // The frame tree is stale inside an edit block: collect it first.
    QList<QTextFrame *> frames;
    for (QList<QTextFrame *> pending = doc->rootFrame()->childFrames(); !pending.isEmpty();) {
        QTextFrame *frame = pending.takeLast();
        pending += frame->childFrames();
        frames.append(frame);
    }
    QTextCursor cursor(doc);
    cursor.beginEditBlock();
    for (QTextFrame *frame : std::as_const(frames)) {
        const int role = frame->frameFormat().intProperty(kRoleProperty);
        if (auto *table = qobject_cast<QTextTable *>(frame); table && role == TableFrame) {
            QTextTableFormat format = table->format();
            const qreal oldPad = format.doubleProperty(kPadProperty);
            styleTable(format, s);
            if (format.hasProperty(kPadProperty)) {
                format.setLeftMargin(format.leftMargin() - oldPad + s.hpad);
                format.setRightMargin(format.rightMargin() - oldPad + s.hpad);
                format.setProperty(kPadProperty, s.hpad);
            }
            table->setFormat(format);
            styleHeaderRow(table, s);
        } else if (role != NoRole) {
            frame->setFrameFormat(frameFormat(role, s));
        }
    }

    struct Change
    {
        int position;
        int length;
        int role;
    };
    QList<Change> chars;
    QList<std::pair<int, QTextBlockFormat>> blocks;
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        const QTextBlockFormat format = block.blockFormat();
        const int role = format.intProperty(kRoleProperty);
        const bool padded = format.hasProperty(kPadProperty);
        if (role == MarkdownBlock) {
            const qreal oldPad = format.doubleProperty(kPadProperty);
            if (oldPad != s.hpad) {
                QTextBlockFormat updated = format;
                updated.setLeftMargin(format.leftMargin() - oldPad + s.hpad);
                updated.setRightMargin(format.rightMargin() - oldPad + s.hpad);
                updated.setProperty(kPadProperty, s.hpad);
                blocks.append({ block.position(), updated });
            }
        } else if (role != NoRole) {
            blocks.append({ block.position(), blockFormat(role, s, padded) });
        }
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (const int charRole = fragment.charFormat().intProperty(kRoleProperty))
                chars.append({ fragment.position(), fragment.length(), charRole });
        }
    }
    for (const auto &[position, format] : std::as_const(blocks)) {
        cursor.setPosition(position);
        cursor.setBlockFormat(format);
    }
    for (const Change &change : std::as_const(chars)) {
        cursor.setPosition(change.position);
        cursor.setPosition(change.position + change.length, QTextCursor::KeepAnchor);
        cursor.mergeCharFormat(charFormat(change.role, s));
    }
    cursor.endEditBlock();
}

} // namespace capwatch::ui::transcript
