#include "ui/conversation/conversationdocument.h"

#include "ui/conversation/conversationstyle.h"

#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <algorithm>

namespace capwatch::ui::transcript {

QTextCursor endSpacer(QTextDocument &doc, const Style &s, bool *inserted)
{
    QTextCursor cursor(&doc);
    cursor.movePosition(QTextCursor::End);
    const QTextBlock last = cursor.block();
    if (inserted)
        *inserted = false;
    if (last.length() == 1 && last.blockFormat().intProperty(kRoleProperty) == SpacerBlock)
        return cursor; // left behind by the previous item's frame
    if (doc.isEmpty()) {
        cursor.setBlockFormat(blockFormat(SpacerBlock, s, false));
    } else {
        cursor.insertBlock(blockFormat(SpacerBlock, s, false), QTextCharFormat());
        if (inserted)
            *inserted = true;
    }
    return cursor;
}

void removeToEnd(QTextDocument &doc, const Style &s, const QTextCursor &start, bool spacerInserted)
{
    QTextCursor cursor(&doc);
    cursor.beginEditBlock();
    if (spacerInserted) {
        // The spacer goes too: the document ends as before it.
        cursor.setPosition(start.position() - 1);
        cursor.movePosition(QTextCursor::End, QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
    } else {
        // The spacer was the block Qt keeps after a frame: it stays, as it was.
        cursor.setPosition(start.position());
        cursor.movePosition(QTextCursor::End, QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
        cursor.setBlockFormat(blockFormat(SpacerBlock, s, false));
        cursor.setBlockCharFormat(QTextCharFormat());
    }
    cursor.endEditBlock();
}

QTextFrame *insertTurnFrame(
    QTextCursor &cursor, const Style &s, int frameRole, const QString &caption, int captionRole)
{
    QTextFrame *frame = cursor.insertFrame(frameFormat(frameRole, s));
    cursor.setBlockFormat(blockFormat(CaptionBlock, s, false));
    cursor.setBlockCharFormat(charFormat(captionRole, s));
    cursor.insertText(caption, charFormat(captionRole, s));
    return frame;
}

void finishTurnFrame(QTextDocument &doc, const Style &s, QTextFrame *frame)
{
    // Qt keeps a block after every frame; it becomes the spacer before the next item.
    QTextCursor after(&doc);
    after.setPosition(frame->lastPosition() + 1);
    after.setBlockFormat(blockFormat(SpacerBlock, s, false));
    after.setBlockCharFormat(QTextCharFormat());
}

QString selectedText(const QTextDocument &doc, int from, int to)
{
    QString text;
    bool firstBlock = true;
    for (QTextBlock block = doc.findBlock(from); block.isValid() && block.position() < to;
         block = block.next()) {
        const int role = block.blockFormat().intProperty(kRoleProperty);
        if (role == CaptionBlock || role == ActionBlock || role == StatusBlock
            || role == CardLinkBlock)
            continue;
        QString line;
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            const int charRole = fragment.charFormat().intProperty(kRoleProperty);
            if (charRole == CaptionChar || charRole == ErrorCaptionChar || charRole == ActionChar
                || charRole == StatusChar || charRole == ParkedCaptionChar || charRole == SeamChar)
                continue;
            const int start = std::max(from, fragment.position());
            const int end = std::min(to, fragment.position() + fragment.length());
            if (start < end)
                line += fragment.text().mid(start - fragment.position(), end - start);
        }
        if (!firstBlock)
            text += u'\n';
        firstBlock = false;
        text += line;
    }
    // QTextDocument's own separators and non-breaking spaces, as toPlainText() gives them; no
    // empty lines from the spacers at either end.
    text.replace(QChar::LineSeparator, u'\n').replace(QChar::Nbsp, u' ');
    while (text.startsWith(u'\n'))
        text.remove(0, 1);
    while (text.endsWith(u'\n'))
        text.chop(1);
    text.remove(QChar(0xfdd0)).remove(QChar(0xfdd1)).remove(QChar::ObjectReplacementCharacter);
    return text;
}

} // namespace capwatch::ui::transcript
