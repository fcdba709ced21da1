#include "progresslines.h"

#include "clicommon.h"
#include "session/profilekeys.h"
#include "session/sendtexts.h"

namespace capwatch::cli {

using namespace Qt::StringLiterals;

namespace {

void progressLine(const QString &text)
{
    writeErr((u"capwatch: "_s + text + u'\n').toUtf8());
}

} // namespace

void ProgressLines::render(const session::SendState &s)
{
    if (s.send != m_send) {
        m_send = s.send;
        m_failure = m_wait = 0;
        m_pace = false;
    }
    if (s.lastFailure && s.lastFailure->attempt != m_failure) {
        m_failure = s.lastFailure->attempt;
        progressLine(session::SendTexts::attemptFailedLine(s));
    }
    // Refused for its rate on a profile that declares no limits: the key that would have paced
    // it, once.
    if (const auto *key = s.declaredSuggestion
            ? session::profilekeys::declaredKeyOf(s.declaredSuggestion->kind)
            : nullptr;
        key && !m_suggestion) {
        m_suggestion = true;
        progressLine(
            u"hint: the profile declares no limits; this refusal suggests %1=%2 in [profile.%3] "
            "of capwatch.conf, so that sends are paced before they are refused"_s.arg(key->key)
                .arg(s.declaredSuggestion->value)
                .arg(s.suggestionProfile));
    }
    if (s.phase == session::SendPhase::Pacing && s.pace && !m_pace) {
        m_pace = true;
        progressLine(session::SendTexts::pacingLine(s));
    }
    if (s.phase == session::SendPhase::Waiting && s.lastWait && s.lastWait->nextAttempt != m_wait) {
        m_wait = s.lastWait->nextAttempt;
        progressLine(session::SendTexts::waitingLine(s));
    }
}

} // namespace capwatch::cli
