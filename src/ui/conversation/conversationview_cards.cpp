// ConversationView's cards: a failed send's error card, and the same card while its send is
// parked (docs/parking.md), with its links and its lines that tick.

#include "ui/conversation/conversationdocument.h"
#include "ui/conversation/conversationstyle.h"
#include "ui/conversation/conversationview.h"
#include "ui/conversation/conversationview_p.h"
#include "ui/conversation/transcripttext.h"

#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextDocumentFragment>
#include <QTextFrame>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace capwatch::ui {

using namespace transcript;

int ConversationView::addErrorTurn(
    const QString &title, const QString &body, const QString &decidedBy)
{
    Item &item = appendItem(Kind::Error);
    item.title = title;
    item.text = body;
    item.decidedBy = body.isEmpty() ? QString() : decidedBy;

    const Style s = styleFor(*this);
    QTextCursor cursor = startItem(item);
    cursor.beginEditBlock();
    QTextFrame *frame = insertTurnFrame(cursor, s, ErrorFrame, tr("Error"), ErrorCaptionChar);
    item.frame = frame;
    fillErrorCard(cursor, item);
    finishTurnFrame(*document(), s, frame);
    cursor.endEditBlock();
    return item.id;
}

void ConversationView::fillErrorCard(QTextCursor &cursor, const Item &item)
{
    const Style s = styleFor(*this);
    const Card &card = item.card;
    const auto nextBlock = [&](int blockRole, int charRole) {
        cursor.insertBlock(blockFormat(blockRole, s, false), charFormat(charRole, s));
    };
    if (card.parked) {
        if (!card.headline.isEmpty()) {
            nextBlock(CardHeadlineBlock, CardHeadlineChar);
            cursor.insertText(card.headline, charFormat(CardHeadlineChar, s));
        }
    } else if (!item.title.isEmpty()) {
        nextBlock(ErrorTitleBlock, ErrorTitleChar);
        cursor.insertText(item.title, charFormat(ErrorTitleChar, s));
    }
    if (!card.line.isEmpty()) {
        nextBlock(CardLineBlock, CardLineChar);
        cursor.insertText(card.line, charFormat(CardLineChar, s));
    }
    // The lead and what to do first; the raw failure (endpoint, status, body, end reason) only
    // when unfolded, below the links that fold it.
    if (!card.links.isEmpty() || !item.text.isEmpty()) {
        nextBlock(CardLinkBlock, ActionChar);
        insertCardLinks(cursor, item);
    }
    if (item.detailsShown) {
        const QStringView shownBody = withoutTrailingNewlines(item.text);
        if (!shownBody.isEmpty()) {
            QTextFrame *box = cursor.insertFrame(frameFormat(ErrorBodyFrame, s));
            cursor.setBlockFormat(blockFormat(ErrorBodyBlock, s, false));
            cursor.insertText(
                breakLongRuns(shownBody.first(std::min(shownBody.size(), kErrorBodyLimit))),
                charFormat(ErrorBodyChar, s));
            if (shownBody.size() > kErrorBodyLimit) {
                cursor.insertBlock(
                    blockFormat(ErrorBodyBlock, s, false), charFormat(NoticeChar, s));
                cursor.insertText(tr("… %n more characters not shown (the export has all of them)",
                                      nullptr, int(shownBody.size() - kErrorBodyLimit)),
                    charFormat(NoticeChar, s));
            }
            cursor.setPosition(box->lastPosition() + 1);
            cursor.setBlockFormat(blockFormat(FrameEndBlock, s, false));
        }
        if (!item.decidedBy.isEmpty()) {
            // Which rule read it, and the way to correct a misreading the day it is met.
            nextBlock(CardLinkBlock, NoticeChar);
            cursor.insertText(item.decidedBy, charFormat(NoticeChar, s));
            const QString separator = u"  \u00b7  "_s;
            cursor.insertText(separator, charFormat(CaptionChar, s));
            QTextCharFormat add = actionLinkFormat(s, Action::AddRule, item.id);
            add.setToolTip(tr("Make a rules file with this answer's text, to be read as another "
                              "kind of failure from the next start on"));
            cursor.insertText(tr("Wrong? Add a rule…"), add);
            cursor.insertText(separator, charFormat(CaptionChar, s));
            QTextCharFormat help = charFormat(ActionChar, s);
            help.setAnchor(true);
            help.setAnchorHref(kRulesDocs);
            help.setToolTip(kRulesDocs);
            cursor.insertText(tr("How rules work"), help);
        }
    }
}

void ConversationView::insertCardLinks(QTextCursor &cursor, const Item &item)
{
    const Style s = styleFor(*this);
    const QString separator = u"  \u00b7  "_s;
    bool first = true;
    QList<CardLink> links = item.card.links;
    if (!item.text.isEmpty()) {
        // U+25B8 / U+25BE: the disclosure triangles of a folded and an unfolded part.
        links.append({ Action::Details,
            item.detailsShown ? u"\u25be "_s + tr("Hide details") : u"\u25b8 "_s + tr("Details"),
            tr("The provider's answer as received, with the endpoint, the status and the "
               "attempts") });
        if (item.detailsShown)
            links.append({ Action::CopyDetails, tr("Copy details"),
                tr("Copy the provider's answer and the attempts as plain text") });
    }
    for (const CardLink &l : std::as_const(links)) {
        if (!first)
            cursor.insertText(separator, charFormat(CaptionChar, s));
        first = false;
        QTextCharFormat link = actionLinkFormat(s, l.action, item.id);
        link.setToolTip(l.toolTip);
        cursor.insertText(l.text, link);
    }
}

void ConversationView::setErrorDetailsShown(int turn, bool shown)
{
    Item *target = item(turn);
    if (!target || target->kind != Kind::Error || !target->frame || target->text.isEmpty()
        || target->detailsShown == shown)
        return;
    target->detailsShown = shown;
    rebuildErrorCard(*target);
}

bool ConversationView::errorDetailsShown(int turn) const
{
    const Item *target = item(turn);
    return target && target->kind == Kind::Error && target->detailsShown;
}

void ConversationView::setErrorCard(int turn, const Card &card)
{
    Item *target = item(turn);
    if (!target || target->kind != Kind::Error || !target->frame || target->card == card)
        return;
    // Which lines there are: when that changes the frame is filled again, else only the lines
    // whose words changed are rewritten (a countdown ticks in a card with a 64 KiB error).
    const auto shape = [](const Card &c) {
        return std::tuple { c.parked, c.headline.isEmpty(), c.line.isEmpty(), c.links.isEmpty() };
    };
    const Card before = std::exchange(target->card, card);
    target->actions.clear();
    for (const CardLink &l : card.links)
        target->actions.append(l.action);
    if (shape(before) != shape(card))
        rebuildErrorCard(*target);
    else
        updateErrorCard(*target, before);
}

ConversationView::Card ConversationView::errorCard(int turn) const
{
    const Item *target = item(turn);
    return target && target->kind == Kind::Error ? target->card : Card();
}

QString ConversationView::errorCardText(int turn) const
{
    const Item *target = item(turn);
    if (!target || target->kind != Kind::Error || !target->frame)
        return {};
    QTextCursor cursor(document());
    cursor.setPosition(target->frame->firstPosition());
    cursor.setPosition(target->frame->lastPosition(), QTextCursor::KeepAnchor);
    return cursor.selection().toPlainText();
}

void ConversationView::rebuildErrorCard(Item &item)
{
    const Style s = styleFor(*this);
    QTextFrame *frame = item.frame;
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    cursor.setPosition(frame->firstPosition());
    cursor.setPosition(frame->lastPosition(), QTextCursor::KeepAnchor);
    cursor.removeSelectedText();
    frame->setFrameFormat(frameFormat(item.card.parked ? ParkedFrame : ErrorFrame, s));
    const int captionRole = item.card.parked ? ParkedCaptionChar : ErrorCaptionChar;
    cursor.setBlockFormat(blockFormat(CaptionBlock, s, false));
    cursor.setBlockCharFormat(charFormat(captionRole, s));
    cursor.insertText(item.card.parked ? tr("Parked") : tr("Error"), charFormat(captionRole, s));
    fillErrorCard(cursor, item);
    cursor.endEditBlock();
}

void ConversationView::updateErrorCard(const Item &item, const Card &before)
{
    const Style s = styleFor(*this);
    const Card &card = item.card;
    // The frame's own lines that change, last first: rewriting one moves only those after it.
    QList<std::pair<int, int>> lines; // position, role
    for (auto it = item.frame->begin(); !it.atEnd(); ++it) {
        if (it.currentFrame())
            continue;
        const int role = it.currentBlock().blockFormat().intProperty(kRoleProperty);
        if ((role == CardHeadlineBlock && card.headline != before.headline)
            || (role == CardLineBlock && card.line != before.line)
            || (role == CardLinkBlock && card.links != before.links))
            lines.append({ it.currentBlock().position(), role });
    }
    // A link reached with Tab is the view's selection: it stays selected when its words are
    // rewritten ("Send at 06:14 (in 40 s)" each second), so Enter still activates it.
    QString focusedLink;
    if (const QTextCursor focused = textCursor(); focused.hasSelection()) {
        QTextCursor inside(document());
        inside.setPosition(focused.selectionStart() + 1);
        if (inside.block().blockFormat().intProperty(kRoleProperty) == CardLinkBlock)
            focusedLink = inside.charFormat().anchorHref();
    }
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    bool linksRewritten = false;
    for (auto it = lines.crbegin(); it != lines.crend(); ++it) {
        cursor.setPosition(it->first);
        cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
        if (it->second == CardHeadlineBlock) {
            cursor.insertText(card.headline, charFormat(CardHeadlineChar, s));
        } else if (it->second == CardLineBlock) {
            cursor.insertText(card.line, charFormat(CardLineChar, s));
        } else {
            insertCardLinks(cursor, item);
            linksRewritten = true;
        }
    }
    cursor.endEditBlock();
    if (focusedLink.isEmpty() || !linksRewritten)
        return;
    // The block moved with the lines rewritten before it: find it again from the frame.
    for (auto it = item.frame->begin(); !it.atEnd(); ++it) {
        const QTextBlock block = it.currentBlock();
        if (it.currentFrame() || block.blockFormat().intProperty(kRoleProperty) != CardLinkBlock)
            continue;
        for (auto f = block.begin(); !f.atEnd(); ++f) {
            if (f.fragment().charFormat().anchorHref() != focusedLink)
                continue;
            QTextCursor select(document());
            select.setPosition(f.fragment().position());
            select.setPosition(
                f.fragment().position() + f.fragment().length(), QTextCursor::KeepAnchor);
            setTextCursor(select);
            return;
        }
    }
}

} // namespace capwatch::ui
