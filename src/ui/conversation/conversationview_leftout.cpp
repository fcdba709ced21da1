// ConversationView's left-out turns (docs/retry-policy.md section 8.2): the oldest turns a
// request leaves out to fit the model's context window stay in the conversation, greyed, with
// one muted line where they end.

#include "ui/conversation/conversationstyle.h"
#include "ui/conversation/conversationview.h"

#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <algorithm>

namespace capwatch::ui {

using namespace transcript;

std::pair<int, int> ConversationView::itemRange(const Item &item) const
{
    const auto next = std::upper_bound(m_items.cbegin(), m_items.cend(), item.id,
        [](int value, const Item &i) { return value < i.id; });
    int end = document()->characterCount() - 1;
    if (next != m_items.cend())
        end = next->start.position();
    else if (!m_statusStart.isNull())
        end = m_statusStart.position();
    return { item.start.position(), end };
}

void ConversationView::applyDim(const Item &item, bool dimmed)
{
    const Style s = styleFor(*this);
    const auto [from, to] = itemRange(item);
    struct Change
    {
        int position;
        int length;
        QTextCharFormat format;
    };
    QList<Change> changes;
    for (QTextBlock block = document()->findBlock(from); block.isValid() && block.position() < to;
         block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (fragment.position() < from || fragment.position() >= to)
                continue;
            QTextCharFormat format = fragment.charFormat();
            if (dimmed) {
                format.setForeground(s.muted);
                format.setProperty(kDimProperty, true);
            } else {
                if (!format.hasProperty(kDimProperty))
                    continue;
                format.clearProperty(kDimProperty);
                format.clearForeground();
                // The colour its role gives it, if any (captions, links).
                const QTextCharFormat role = charFormat(format.intProperty(kRoleProperty), s);
                if (role.hasProperty(QTextFormat::ForegroundBrush))
                    format.setForeground(role.foreground());
            }
            changes.append({ fragment.position(), fragment.length(), format });
        }
    }
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    for (const Change &change : std::as_const(changes)) {
        cursor.setPosition(change.position);
        cursor.setPosition(change.position + change.length, QTextCursor::KeepAnchor);
        cursor.setCharFormat(change.format);
    }
    cursor.endEditBlock();
}

void ConversationView::setDimmedTurns(const QList<int> &turns)
{
    for (Item &item : m_items) {
        const bool dimmed
            = (item.kind == Kind::User || item.kind == Kind::Assistant) && turns.contains(item.id);
        if (dimmed == item.dimmed)
            continue;
        item.dimmed = dimmed;
        applyDim(item, dimmed);
    }
}

QList<int> ConversationView::dimmedTurns() const
{
    QList<int> out;
    for (const Item &item : m_items) {
        if (item.dimmed)
            out.append(item.id);
    }
    return out;
}

void ConversationView::removeNote()
{
    if (m_noteStart.isNull())
        return;
    QTextCursor cursor(document());
    cursor.setPosition(m_noteStart.position());
    cursor.setPosition(m_noteStart.position() + m_noteLength, QTextCursor::KeepAnchor);
    cursor.removeSelectedText();
    m_noteStart = QTextCursor();
    m_noteText.clear();
    m_noteAfter = -1;
}

void ConversationView::setLeftOutNote(int afterTurn, const QString &text)
{
    if (text == m_noteText && afterTurn == m_noteAfter)
        return;
    removeNote();
    const auto next = std::upper_bound(m_items.cbegin(), m_items.cend(), afterTurn,
        [](int value, const Item &i) { return value < i.id; });
    if (text.isEmpty() || !item(afterTurn) || next == m_items.cend())
        return; // nothing after it: no turn is left out before the last one
    // In the next item's spacer block: that block stays the spacer above the note, a new one
    // below it separates it from the next item (whose start stays in front, so removing that
    // item removes the note too).
    const Style s = styleFor(*this);
    QTextCursor cursor(document());
    cursor.setPosition(next->start.position());
    cursor.beginEditBlock();
    cursor.insertBlock(blockFormat(NoticeBlock, s, true), charFormat(NoticeChar, s));
    cursor.insertText(text, charFormat(NoticeChar, s));
    cursor.insertBlock(blockFormat(SpacerBlock, s, false), QTextCharFormat());
    cursor.endEditBlock();
    m_noteStart = QTextCursor(document());
    m_noteStart.setPosition(next->start.position());
    m_noteStart.setKeepPositionOnInsert(true);
    m_noteLength = int(text.size()) + 2;
    m_noteText = text;
    m_noteAfter = afterTurn;
}

} // namespace capwatch::ui
