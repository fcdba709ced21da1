#include "progresslines.h"

#include "clicommon.h"
#include "session/sendtexts.h"

namespace capwatch::cli {

using namespace Qt::StringLiterals;

namespace {

/// The capwatch.conf key of a declared limit.
QLatin1StringView declaredKeyOf(retry::DeclaredKind kind)
{
    switch (kind) {
    case retry::DeclaredKind::RequestsPerMinute:
    case retry::DeclaredKind::None:
        break;
    case retry::DeclaredKind::TokensPerMinute:
        return QLatin1StringView("provider_tpm");
    case retry::DeclaredKind::RequestsPerDay:
        return QLatin1StringView("provider_rpd");
    case retry::DeclaredKind::TokensPerDay:
        return QLatin1StringView("provider_tpd");
    case retry::DeclaredKind::InFlight:
        return QLatin1StringView("provider_in_flight");
    }
    return QLatin1StringView("provider_rpm");
}

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
    if (s.declaredSuggestion && !m_suggestion) {
        m_suggestion = true;
        progressLine(
            u"hint: the profile declares no limits; this refusal suggests %1=%2 in [profile.%3] "
            "of capwatch.conf, so that sends are paced before they are refused"_s
                .arg(declaredKeyOf(s.declaredSuggestion->kind))
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
