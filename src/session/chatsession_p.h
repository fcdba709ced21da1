#pragma once

// What ChatSession's own files share and nobody else sees.

#include "backgroundsends.h"
#include "chatsession.h"
#include "parkinglot.h"

namespace capwatch::session {

struct ChatSession::Launch
{
    std::optional<ProviderChoice> fallback; ///< prepared (prepareFallback()); else its own
    bool holdsLocal = false; ///< the fallback's demo was started for it
    QUuid storedPrompt; ///< its user message is stored already (the same prompt again)
    QString model; ///< a parked send goes with the model it was parked with
    int parksInARow = 0; ///< a parked send out again: one more than when it was parked
    /// Continue: the answer it goes on with (ChatSession::m_continuable), and which
    /// continuation of it in a row this is.
    bool continuing = false;
    int continuationsInARow = 0;
};

} // namespace capwatch::session
