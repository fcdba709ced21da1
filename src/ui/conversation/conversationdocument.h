#pragma once

#include <QString>
#include <QTextCursor>

QT_BEGIN_NAMESPACE
class QTextDocument;
class QTextFrame;
QT_END_NAMESPACE

// The structure of the conversation's document: an empty spacer block in front of every item,
// prompts and errors in a frame that starts with a caption, and labels (captions, action links,
// the status line) told apart from what was said by the roles of their formats.
namespace capwatch::ui::transcript {

struct Style;

// A cursor at the end of the document, in an empty spacer block that separates items;
// `inserted` says whether the block is new (or the one Qt keeps after a frame).
[[nodiscard]] QTextCursor endSpacer(QTextDocument &doc, const Style &s, bool *inserted = nullptr);
// Removes everything from a spacer endSpacer() gave to the end of the document.
void removeToEnd(QTextDocument &doc, const Style &s, const QTextCursor &start, bool spacerInserted);

// A frame with its caption at the cursor; the cursor is left at the end of the caption.
QTextFrame *insertTurnFrame(
    QTextCursor &cursor, const Style &s, int frameRole, const QString &caption, int captionRole);
// Makes the block Qt keeps after the frame the spacer before the next item.
void finishTurnFrame(QTextDocument &doc, const Style &s, QTextFrame *frame);

// The plain text of doc[from, to) as copied: without captions, action links and the status line,
// and without the empty lines of spacers at either end.
[[nodiscard]] QString selectedText(const QTextDocument &doc, int from, int to);

} // namespace capwatch::ui::transcript
