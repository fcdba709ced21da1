#pragma once

// capwatch-cli chat's progress lines on stderr: they render the send's one state
// (session::SendTexts words it, as the window's panel does): each failed attempt, the pacing and
// each wait once, as they come, and once a send's hint at the declared limit a rate-limit
// refusal implies.

#include "session/sendstate.h"

namespace capwatch::cli {

class ProgressLines final
{
public:
    /// Writes what `state` adds to the lines already written.
    void render(const session::SendState &state);

private:
    quint64 m_send = 0;
    int m_failure = 0;
    int m_wait = 0;
    bool m_pace = false;
    bool m_suggestion = false;
};

} // namespace capwatch::cli
