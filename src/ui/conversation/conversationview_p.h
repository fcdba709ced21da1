#pragma once

// What conversationview.cpp, conversationview_actions.cpp (a turn's links) and
// conversationview_cards.cpp (the error and parked cards) share.

#include "ui/conversation/conversationstyle.h"
#include "ui/conversation/conversationview.h"

#include <QString>
#include <QTextCharFormat>

namespace capwatch::ui {

// Error bodies can be whole HTML error pages; the export keeps all of it.
inline constexpr qsizetype kErrorBodyLimit = 64 * 1024;

/// The scheme of the links a turn's actions are (`capwatch-action:copy/3`).
inline const QString kActionScheme = QStringLiteral("capwatch-action");

/// An action's name in its link.
QString actionName(ConversationView::Action action);
/// The format of the link of `action` on the item `itemId` (its text and tooltip set apart).
QTextCharFormat actionLinkFormat(
    const transcript::Style &s, ConversationView::Action action, int itemId);

/// Where "How rules work" under a failed card's details leads.
inline const QString kRulesDocs
    = QStringLiteral("https://github.com/capwatch/capwatch/blob/main/docs/rules.md");

inline constexpr ConversationView::Action kActions[] = { ConversationView::Action::Copy,
    ConversationView::Action::Regenerate, ConversationView::Action::Edit,
    ConversationView::Action::RetryNow, ConversationView::Action::SendAt,
    ConversationView::Action::SendNow, ConversationView::Action::EditParked,
    ConversationView::Action::CancelPark, ConversationView::Action::TrimAndResend,
    ConversationView::Action::SendToFallback, ConversationView::Action::Details,
    ConversationView::Action::CopyDetails, ConversationView::Action::AddRule };

} // namespace capwatch::ui
