#pragma once

#include <QChar>
#include <QString>
#include <QStringView>

// Plain text as the conversation pane lays it out: what counts as a line break, and how much of a
// long line is shown (QTextDocument lays a whole line out on every edit).
namespace capwatch::ui::transcript {

// A line break, QTextDocument's frame markers included.
[[nodiscard]] inline bool isLineBreak(QChar ch)
{
    return ch == u'\n' || ch == u'\r' || ch == QChar::ParagraphSeparator || ch == QChar(0xfdd0)
        || ch == QChar(0xfdd1); // QTextDocument's frame markers
}

[[nodiscard]] inline QStringView withoutTrailingNewlines(QStringView text)
{
    while (!text.isEmpty() && (text.back() == u'\n' || text.back() == u'\r'))
        text.chop(1);
    return text;
}

// Text inserted once (a prompt, an error body), as shown: only very long runs without a space are
// broken; everything else is kept as it is.
[[nodiscard]] QString breakLongRuns(QStringView text);

// The end of what may be shown live of streamed text[from, to): before the character that would
// make the current line, or its current run without a space, too long to lay out live.
// lineLength and runLength carry over from the text already shown.
[[nodiscard]] qsizetype displayableEnd(
    QStringView text, qsizetype from, qsizetype to, qsizetype &lineLength, qsizetype &runLength);

// Where the next piece of a long answer's Markdown may end, so that the pieces rendered one by one
// read as the whole would: just after a blank line at least `piece` characters after `from`,
// outside a fenced code block, before a line that starts with neither a space nor a tab (an
// indented line would be read as code, or lose the list item it continues), and with no code
// block or table on either side (frames, whose neighbours Qt makes). The end of the text when
// there is no such place. `from` is the start of the text or such a place.
[[nodiscard]] qsizetype markdownPieceEnd(QStringView text, qsizetype from, qsizetype piece);

// The block breaks QTextCursor::insertText() makes of `text` ("\r\n" is one).
[[nodiscard]] int blockBreaks(QStringView text);

} // namespace capwatch::ui::transcript
