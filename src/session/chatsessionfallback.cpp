// ChatSession: provider profiles and the fallback of a capped send (issue 17, docs/session.md).

#include "chatsession.h"

namespace capwatch::session {

// --- contract stubs: the session's owner replaces these (issue 17) ---

void ChatSession::setFallback(std::optional<ProviderChoice> fallback, bool automatic)
{
    m_fallback = std::move(fallback);
    m_autoFallback = automatic;
}

quint64 ChatSession::sendToFallback(const SendOptions &)
{
    return 0;
}

void ChatSession::offerFallback(const net::SendSummary &) { }

} // namespace capwatch::session
