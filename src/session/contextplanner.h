#pragma once

// How a conversation's next request measures against its model's context and its provider's
// window (docs/retry-policy.md section 8): the tokens of each earlier turn, the gauge under the
// prompt, the plan of the oldest turns to leave out when a request would not fit, and how long a
// send waits before attempt 1 so that the provider's token window is never overrun. It reads
// what the process learned of its providers (ProviderMemory) and keeps nothing of a send.

#include "net/chatclient.h"
#include "sessiontypes.h"

#include <QList>
#include <QPointer>
#include <cstdint>
#include <optional>
#include <vector>

namespace capwatch::session {

class ProviderMemory;

class ContextPlanner final
{
public:
    /// What is learned about providers, shared by the sessions of a process; not owned. Null:
    /// no pacing, no learning, no context window but what a context error named here.
    void setProviderMemory(ProviderMemory *memory);
    ProviderMemory *providerMemory() const;
    /// Pacing before a send (on by default; Settings -> Retries).
    void setPacingEnabled(bool enabled) { m_pacingEnabled = enabled; }
    bool pacingEnabled() const { return m_pacingEnabled; }
    /// Leaves out the oldest turns by itself when a send would not fit (off by default).
    void setAutoTrim(bool automatic) { m_autoTrim = automatic; }
    bool autoTrim() const { return m_autoTrim; }
    /// With automatic trimming, a send that ended on a context error is trimmed and sent again
    /// by the session itself (true, the default), or only offered with `automatic` set, for the
    /// caller to resend (the window, which keeps its editor and buttons in step with every send).
    void setResendsAfterTrim(bool resends) { m_resendsAfterTrim = resends; }
    bool resendsAfterTrim() const { return m_resendsAfterTrim; }
    /// The provider's waits run `scale` times as long on the wall clock.
    void setTimeScale(double scale) { m_timeScale = scale; }
    /// Everything as `other` has it, but resending after a trim (nobody shows the copy).
    void copySetupFrom(const ContextPlanner &other);

    /// The earlier turns a request is planned over: the answered exchanges (a user message and
    /// its answer each) of the first `exchanges` of `messages`, the oldest `leftOut` not sent.
    struct Turns
    {
        const QList<net::ChatMessage> &messages;
        int exchanges = 0;
        int leftOut = 0;
    };
    /// Each turn's estimated tokens, oldest first.
    std::vector<std::int64_t> turnTokens(const Turns &turns, const SendLane &to) const;
    /// The tokens of the left-out turns.
    qint64 leftOutTokens(const Turns &turns, const SendLane &to) const;
    /// The request a send of `prompt` with `options` would make, against the context window.
    ContextGauge gauge(const Turns &turns, const QString &prompt, const SendOptions &options,
        const SendLane &to) const;
    /// The plan that makes the request fit. `excess`: how much more the provider counted than
    /// the estimate; `named`: the window a context error named (the smaller of it and the known
    /// one is planned with).
    TrimOffer trimOffer(const Turns &turns, const QString &prompt, const SendOptions &options,
        const SendLane &to, qint64 excess, std::optional<qint64> named = {}) const;
    /// How long `request` waits before attempt 1, and its estimate: for its provider's window
    /// (what the provider reported), and for the limits `profile` declares (counted from the
    /// usage ledger), the longer of the two. A declared day that is full holds it past
    /// retry::kMaxPaceWait: not paced (limitHold() tells before the send).
    net::PacePlan pacePlan(
        const net::ChatRequest &request, const SendLane &to, const ProviderChoice &profile) const;
    /// What the declared limits of `profile` say of a request of `estimatedTokens` now.
    retry::DeclaredDecision declaredDecision(
        const ProviderChoice &profile, qint64 estimatedTokens) const;

    /// What a response said of its provider (filed under the lane the request went to).
    void report(const SendLane &to, const net::ProviderReport &report);
    /// A context error named the model's window.
    void learnContextWindow(const SendLane &to, qint64 window);

    /// The learned characters a token of `to`'s provider and model (the default before any).
    double charsPerToken(const SendLane &to) const;

private:
    std::optional<qint64> knownContextWindow(const SendLane &to) const;
    qint64 fixedTokens(const QString &prompt, const SendOptions &options, const SendLane &to) const;

    QPointer<ProviderMemory> m_memory;
    bool m_pacingEnabled = true;
    bool m_autoTrim = false;
    bool m_resendsAfterTrim = true;
    double m_timeScale = 1.0;
    std::optional<qint64> m_ownContextWindow; ///< named by an error, without a memory
};

} // namespace capwatch::session
