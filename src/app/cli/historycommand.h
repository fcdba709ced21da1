#pragma once

#include "clicommon.h"
#include "history/historytypes.h"

#include <QString>
#include <QStringList>
#include <variant>

namespace capwatch::history {
class HistoryStore;
}

namespace capwatch::cli {

CommandSpec historySpec();
/// `capwatch-cli history list|show|export ...`; `args` starts with the program name. Reads the
/// history database and never writes, migrates or moves it; returns the exit code.
int runHistory(const QStringList &args);

/// The conversation `text` names in `store`: its whole UUID, or a prefix of at least 8 hex digits
/// that only one conversation's UUID starts with; else why not, in a sentence. `history show`
/// and `chat --continue` read IDs alike.
std::variant<capwatch::history::Conversation, QString> resolveConversationId(
    capwatch::history::HistoryStore *store, const QString &text);

} // namespace capwatch::cli
