#pragma once

// Clicking a link in the conversation view (a card's Send now, Retry now, Trim and resend) as a
// user would: with the mouse, where the link is drawn. Header-only.

#include "ui/conversation/conversationview.h"

#include <QString>
#include <QTest>
#include <QTextCursor>
#include <QTextDocument>

namespace capwatch::testing {

/// Clicks the last link with this text in the conversation. False when there is none.
inline bool clickLink(ui::ConversationView *view, const QString &text)
{
    // The last link with that text (the same words may stand in plain text after it).
    QTextCursor found = view->document()->find(
        text, view->document()->characterCount(), QTextDocument::FindBackward);
    while (!found.isNull() && !found.charFormat().isAnchor())
        found = view->document()->find(text, found.selectionStart(), QTextDocument::FindBackward);
    if (found.isNull())
        return false;
    found.setPosition(found.selectionStart() + 1);
    view->setTextCursor(found);
    view->ensureCursorVisible();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->cursorRect(found).center());
    return true;
}

} // namespace capwatch::testing
