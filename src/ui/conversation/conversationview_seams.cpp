// ConversationView's continued answers (issue 29): an answer that ended cut off or interrupted is
// opened again for Continue, what the continuation adds streams in after a seam mark, and the
// marks of a restored answer's seams; the line that says how an answer ended.

#include "ui/conversation/conversationstyle.h"
#include "ui/conversation/conversationview.h"
#include "ui/conversation/conversationview_p.h"

#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

namespace capwatch::ui {

using namespace transcript;

QString ConversationView::turnEnd(int turn) const
{
    const Item *item = assistantItem(turn);
    return item && item->finished ? item->endLine : QString();
}

void ConversationView::setAnswerSeams(int turn, const QList<qsizetype> &seams)
{
    Item *item = assistantItem(turn);
    if (!item || item->finished)
        return;
    QList<qsizetype> ascending;
    for (const qsizetype at : seams) {
        if (at > 0 && (ascending.isEmpty() || at > ascending.constLast()))
            ascending.append(at);
    }
    item->seams = ascending;
    // Those already behind the text shown stay unmarked while it streams (the Markdown marks
    // them all).
    item->seamsShown = 0;
    while (
        item->seamsShown < item->seams.size() && item->seams.at(item->seamsShown) < item->flushed)
        ++item->seamsShown;
}

QList<qsizetype> ConversationView::answerSeams(int turn) const
{
    const Item *item = assistantItem(turn);
    return item ? item->seams : QList<qsizetype>();
}

bool ConversationView::continueAssistantTurn(int turn)
{
    Item *item = assistantItem(turn);
    if (!item || !item->finished || item->text.isEmpty())
        return false;
    const Style s = styleFor(*this);
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    item->reopenedWhole = false;
    if (item->rendered >= 0) {
        // Its Markdown was still going in, a piece at a time: what is rendered stays, the plain
        // text after it streams in again, then what the continuation adds.
        m_rendering.removeAll(item->id);
        if (m_rendering.isEmpty())
            m_renderTimer.stop();
        cursor.setPosition(item->renderEdge.position());
        cursor.setPosition(item->bodyEnd.position(), QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
        item->bodyEnd.setPosition(cursor.position());
        item->flushed = item->rendered;
        item->rendered = -1;
        item->renderEdge = QTextCursor();
        item->lineLength = 0;
        item->runLength = 0;
    } else if (!item->actionBlock.isNull()) {
        // Complete: its links and end line go while it streams again.
        int end = item->actionBlock.position();
        if (item->actionLine) {
            cursor.setPosition(end);
            cursor.movePosition(QTextCursor::PreviousCharacter);
            cursor.movePosition(QTextCursor::NextBlock, QTextCursor::KeepAnchor);
            cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
            cursor.removeSelectedText();
            end = cursor.position();
        }
        if (!item->endLine.isEmpty()) {
            cursor.setPosition(end - 1 - int(item->endLine.size()));
            cursor.setPosition(end, QTextCursor::KeepAnchor);
            cursor.removeSelectedText();
            end = cursor.position();
        }
        // The body begins in the block after its caption, which follows the spacer it starts at.
        const QTextBlock caption = document()->findBlock(item->start.position() + 1);
        item->bodyStart = QTextCursor(document());
        item->bodyStart.setPosition(caption.position() + caption.length());
        item->bodyStart.setKeepPositionOnInsert(true);
        item->bodyEnd = QTextCursor(document());
        item->bodyEnd.setPosition(end - int(item->noticeLength));
        item->bodyEnd.setKeepPositionOnInsert(true);
        item->actionBlock = QTextCursor();
        item->actionLine = false;
        item->reopenedWhole = item->flushed >= item->text.size();
        item->lineLength = 0;
        item->runLength = 0;
        // Rendered Markdown may end in a code block or a table: what follows goes into a line of
        // its own, not into the hairline Qt keeps after a frame.
        cursor.setPosition(item->bodyEnd.position());
        if (cursor.blockFormat().intProperty(kRoleProperty) == FrameEndBlock
            || document()->characterAt(cursor.position() - 1) == QChar(0xfdd1)) {
            cursor.insertBlock(blockFormat(BodyBlock, s, true), QTextCharFormat());
            item->bodyEnd.setPosition(cursor.position());
        }
    }
    cursor.endEditBlock();
    item->finished = false;
    item->endLine.clear();
    item->reopened = true;
    item->reopenedAt = item->text.size();
    if (item->seams.isEmpty() || item->seams.constLast() < item->text.size())
        item->seams.append(item->text.size());
    // The marks of the text still to stream in again are drawn as it does.
    item->seamsShown = 0;
    while (
        item->seamsShown < item->seams.size() && item->seams.at(item->seamsShown) < item->flushed)
        ++item->seamsShown;
    return true;
}

void ConversationView::insertSeam(QTextCursor &cursor)
{
    QTextCharFormat format = cursor.charFormat();
    format.merge(charFormat(SeamChar, styleFor(*this)));
    format.setToolTip(seamToolTip());
    cursor.insertText(QString(kSeamGlyph), format);
}

QString seamToolTip()
{
    return ConversationView::tr("Continued here: the words after this mark came with Continue");
}

} // namespace capwatch::ui
