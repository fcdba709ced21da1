// ConversationView's actions: the links of a turn (Copy, Regenerate, Continue, Edit and resend)
// in the caption of a prompt or on the line under a complete answer, with the answer's usage, and
// the names and formats of the links the cards use too.

#include "ui/conversation/conversationstyle.h"
#include "ui/conversation/conversationview.h"
#include "ui/conversation/conversationview_p.h"

#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

using namespace Qt::StringLiterals;

namespace capwatch::ui {

using namespace transcript;

QString actionName(ConversationView::Action action)
{
    switch (action) {
    case ConversationView::Action::Copy:
        return u"copy"_s;
    case ConversationView::Action::Regenerate:
        return u"regenerate"_s;
    case ConversationView::Action::Continue:
        return u"continue"_s;
    case ConversationView::Action::Edit:
        return u"edit"_s;
    case ConversationView::Action::RetryNow:
        return u"retry-now"_s;
    case ConversationView::Action::SendAt:
        return u"send-at"_s;
    case ConversationView::Action::SendNow:
        return u"send-now"_s;
    case ConversationView::Action::EditParked:
        return u"edit-parked"_s;
    case ConversationView::Action::CancelPark:
        return u"cancel-park"_s;
    case ConversationView::Action::TrimAndResend:
        return u"trim-and-resend"_s;
    case ConversationView::Action::SendToFallback:
        return u"send-to-fallback"_s;
    case ConversationView::Action::Details:
        return u"details"_s;
    case ConversationView::Action::CopyDetails:
        return u"copy-details"_s;
    case ConversationView::Action::AddRule:
        return u"add-rule"_s;
    }
    return {};
}

QTextCharFormat actionLinkFormat(const Style &s, ConversationView::Action action, int itemId)
{
    QTextCharFormat link = transcript::charFormat(transcript::ActionChar, s);
    link.setAnchor(true);
    link.setAnchorHref(kActionScheme + u':' + actionName(action) + u'/' + QString::number(itemId));
    return link;
}

void ConversationView::setTurnActions(int turn, const QList<Action> &actions)
{
    Item *target = item(turn);
    if (!target || (target->kind != Kind::User && target->kind != Kind::Assistant))
        return;
    QList<Action> allowed;
    for (const Action action : actions) {
        const bool fits = target->kind == Kind::User
            ? action == Action::Edit
            : action == Action::Copy || action == Action::Regenerate || action == Action::Continue;
        if (fits && !allowed.contains(action))
            allowed.append(action);
    }
    if (allowed == target->actions)
        return;
    target->actions = allowed;
    renderActions(*target);
}

QList<ConversationView::Action> ConversationView::turnActions(int turn) const
{
    const Item *target = item(turn);
    return target ? target->actions : QList<Action>();
}

// The caption of a prompt ("You", then its links), or the line of links under a complete answer.
void ConversationView::renderActions(Item &item)
{
    if (item.actionBlock.isNull())
        return; // an answer still streaming: completeTurn() renders them
    const Style s = styleFor(*this);
    QTextCursor cursor(document());
    cursor.setPosition(item.actionBlock.position());
    cursor.beginEditBlock();
    // An answer's line holds its links and its usage.
    const bool wantsLine = !item.actions.isEmpty() || !item.usage.isEmpty();
    if (item.kind == Kind::Assistant && !item.actionLine) {
        if (!wantsLine) {
            cursor.endEditBlock();
            return;
        }
        // The line of links is made when there is a first one to show.
        cursor.insertBlock(blockFormat(ActionBlock, s, true), QTextCharFormat());
        item.actionBlock.setPosition(cursor.position());
        item.actionLine = true;
    } else if (item.kind == Kind::Assistant && !wantsLine) {
        // No links left: the line goes, back to the end of the answer.
        cursor.movePosition(QTextCursor::PreviousCharacter);
        cursor.movePosition(QTextCursor::NextBlock, QTextCursor::KeepAnchor);
        cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
        item.actionBlock.setPosition(cursor.position());
        item.actionLine = false;
        cursor.endEditBlock();
        return;
    }
    cursor.movePosition(QTextCursor::StartOfBlock);
    cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
    cursor.removeSelectedText();
    const QString separator = u"  \u00b7  "_s;
    bool first = true;
    if (item.kind == Kind::User) {
        cursor.insertText(tr("You"), charFormat(CaptionChar, s));
        first = false;
    }
    for (const Action action : std::as_const(item.actions)) {
        if (!first)
            cursor.insertText(separator, charFormat(CaptionChar, s));
        first = false;
        QTextCharFormat link = actionLinkFormat(s, action, item.id);
        QString text;
        switch (action) {
        case Action::Copy:
            text = tr("Copy");
            link.setToolTip(tr("Copy this answer as received (Markdown)"));
            break;
        case Action::Regenerate:
            text = tr("Regenerate");
            link.setToolTip(tr("Ask again for an answer to the same conversation"));
            break;
        case Action::Continue:
            text = tr("Continue");
            link.setToolTip(tr("Ask the model to go on where this answer stopped; what it adds "
                               "joins this answer"));
            break;
        case Action::Edit:
            text = tr("Edit and resend");
            link.setToolTip(
                tr("Put this prompt back in the editor; sending replaces it and its answer"));
            break;
        case Action::RetryNow:
        case Action::SendAt:
        case Action::SendNow:
        case Action::EditParked:
        case Action::CancelPark:
        case Action::TrimAndResend:
        case Action::SendToFallback:
        case Action::Details:
        case Action::CopyDetails:
        case Action::AddRule:
            break; // a card's links: insertCardLinks(), never set here
        }
        cursor.insertText(text, link);
    }
    if (item.kind == Kind::Assistant && !item.usage.isEmpty()) {
        if (!first)
            cursor.insertText(separator, charFormat(CaptionChar, s));
        cursor.insertText(item.usage, charFormat(UsageChar, s));
    }
    cursor.endEditBlock();
    if (item.dimmed)
        applyDim(item, true); // the line was written anew
}

void ConversationView::setTurnUsage(int turn, const QString &text)
{
    Item *target = assistantItem(turn);
    if (!target || target->usage == text)
        return;
    target->usage = text;
    renderActions(*target);
}

QString ConversationView::turnUsage(int turn) const
{
    const Item *target = assistantItem(turn);
    return target ? target->usage : QString();
}

} // namespace capwatch::ui
