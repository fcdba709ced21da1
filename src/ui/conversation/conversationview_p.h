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

/// What a seam between an answer and its continuation is shown as: a thin mark in the link
/// colour on a faint tint (transcript::SeamChar), never part of the answer's text.
inline constexpr QChar kSeamGlyph = QChar(0x00a6);
/// Stands for a seam in the Markdown of an answer while it is parsed (then it becomes the glyph):
/// a character of the private use area, so nothing Markdown reads.
inline constexpr QChar kSeamMarker = QChar(0xe01e);
/// The tooltip of a seam.
QString seamToolTip();

/// Where "How rules work" under a failed card's details leads.
inline const QString kRulesDocs
    = QStringLiteral("https://github.com/capwatch/capwatch/blob/main/docs/rules.md");

inline constexpr ConversationView::Action kActions[]
    = { ConversationView::Action::Copy, ConversationView::Action::Regenerate,
          ConversationView::Action::Continue, ConversationView::Action::Edit,
          ConversationView::Action::RetryNow, ConversationView::Action::SendAt,
          ConversationView::Action::SendNow, ConversationView::Action::EditParked,
          ConversationView::Action::CancelPark, ConversationView::Action::TrimAndResend,
          ConversationView::Action::SendToFallback, ConversationView::Action::Details,
          ConversationView::Action::CopyDetails, ConversationView::Action::AddRule };

} // namespace capwatch::ui
