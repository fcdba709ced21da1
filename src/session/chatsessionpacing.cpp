#include "chatsession.h"

namespace capwatch::session {

void ChatSession::setProviderMemory(ProviderMemory *memory)
{
    m_memory = memory;
}

} // namespace capwatch::session
