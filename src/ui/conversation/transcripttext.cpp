#include "ui/conversation/transcripttext.h"

#include <utility>

namespace capwatch::ui::transcript {

namespace {

// QTextDocument lays a block (one line of an answer) out as a whole on every edit, so appending
// to a line costs time in proportion to its length: about 13 ms for 64 KiB of prose on a 2-core
// machine, 2.5-4 ms for 16 KiB (a tick of the live view must stay within a frame, and
// the longest GUI-thread stall under 8 ms). Wrapping a run without spaces is quadratic on top:
// 56 ms for 32 KiB, 215 ms for 64 KiB, about 3.5 ms for 8 KiB. Breaking lines of our own would
// change the answer (and what is copied from it), so a line is shown live up to these lengths
// (16 KiB is some 2,500 words without a line break) and the rest of such an answer waits for the
// finish (Markdown) or the export; a notice says so.
constexpr qsizetype kLineDisplayLimit = 16 * 1024;
constexpr qsizetype kRunDisplayLimit = 8 * 1024;
// Text inserted once (a prompt, an error body) is laid out once; only a run without any space
// this long, which no reader takes for a sentence, is broken for display.
constexpr qsizetype kHardLineLimit = 4096;

} // namespace

// Text inserted once, as shown: runs of kHardLineLimit characters without a space are broken
// (see kHardLineLimit); everything else is kept as it is.
QString breakLongRuns(QStringView text)
{
    QString shown;
    qsizetype copied = 0;
    qsizetype run = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i].isSpace() || isLineBreak(text[i])) {
            run = 0;
            continue;
        }
        if (++run < kHardLineLimit || (text[i].isHighSurrogate() && i + 1 < text.size()))
            continue; // never split a surrogate pair
        shown += text.sliced(copied, i + 1 - copied);
        shown += u'\n';
        copied = i + 1;
        run = 0;
    }
    if (copied == 0)
        return text.toString();
    shown += text.sliced(copied);
    return shown;
}

// The end of what may be shown live of text[from, to): before the character that would make the
// current line longer than kLineDisplayLimit or its current run without a space longer than
// kRunDisplayLimit. lineLength and runLength carry over from the text already shown.
qsizetype displayableEnd(
    QStringView text, qsizetype from, qsizetype to, qsizetype &lineLength, qsizetype &runLength)
{
    for (qsizetype i = from; i < to; ++i) {
        const QChar ch = text[i];
        if (isLineBreak(ch)) {
            lineLength = 0;
            runLength = 0;
            continue;
        }
        if (lineLength >= kLineDisplayLimit || runLength >= kRunDisplayLimit)
            return i;
        ++lineLength;
        runLength = ch.isSpace() ? 0 : runLength + 1;
    }
    return to;
}

namespace {

// A fence of a fenced code block: up to three spaces, then at least three ` or ~. Returns the
// fence's character and length, or a null character.
std::pair<QChar, qsizetype> fenceOf(QStringView line)
{
    qsizetype i = 0;
    while (i < line.size() && i < 3 && line[i] == u' ')
        ++i;
    if (i >= line.size() || (line[i] != u'`' && line[i] != u'~'))
        return { QChar(), 0 };
    const QChar ch = line[i];
    qsizetype n = 0;
    while (i + n < line.size() && line[i + n] == ch)
        ++n;
    return n >= 3 ? std::pair { ch, n } : std::pair { QChar(), qsizetype(0) };
}

} // namespace

qsizetype markdownPieceEnd(QStringView text, qsizetype from, qsizetype piece)
{
    QChar fence; // the open fence's character, null outside a fenced block
    qsizetype fenceLength = 0;
    bool blankBefore = false; // the line before this one was blank...
    bool frameBefore = false; // ...and the one before that ended a code block or a table row
    for (qsizetype start = from; start < text.size();) {
        qsizetype end = text.indexOf(u'\n', start);
        if (end < 0)
            end = text.size();
        const QStringView line = text.sliced(start, end - start);
        if (!fence.isNull()) {
            const auto [ch, n] = fenceOf(line);
            const bool closes = ch == fence && n >= fenceLength && line.trimmed().size() == n;
            if (closes) {
                fence = QChar();
                fenceLength = 0;
            }
            blankBefore = false;
            frameBefore = closes;
        } else {
            const auto [ch, n] = fenceOf(line);
            // A code block and a table are frames in the document: a piece neither starts nor
            // ends with one, so that pieces join as the whole would (a frame's neighbours are
            // blocks Qt makes of its own).
            const bool tableRow = line.contains(u'|');
            if (blankBefore && !frameBefore && start - from >= piece && !line.isEmpty()
                && line[0] != u' ' && line[0] != u'\t' && ch.isNull() && !tableRow)
                return start;
            fence = ch;
            fenceLength = n;
            const bool blank = line.trimmed().isEmpty();
            if (!blank)
                frameBefore = tableRow;
            blankBefore = blank;
        }
        start = end + 1;
    }
    return text.size();
}

int blockBreaks(QStringView text)
{
    int breaks = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar ch = text[i];
        if (ch == u'\r' && i + 1 < text.size() && text[i + 1] == u'\n')
            continue; // counted at its \n
        if (isLineBreak(ch))
            ++breaks;
    }
    return breaks;
}

} // namespace capwatch::ui::transcript
