#pragma once

// The values a ChatSession takes and gives: what to talk to, what to send with a prompt, the
// key's status and the progress of a wait. Typed, never worded: the ui words them.

#include "history/historytypes.h"
#include "retry/classifier.h"
#include "retry/constants.h"
#include "retry/declaredlimits.h"
#include "retry/parking.h"
#include "retry/policylimits.h"
#include "retry/price.h"
#include "retry/providerwindow.h"
#include "retry/spendlimits.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QUrl>
#include <QUuid>
#include <optional>

namespace capwatch::session {

/// Where a send goes, as pacing and trimming read the provider memory: the lane its provider's
/// reports are filed under ("demo" for the embedded demo), its model and the context window its
/// profile sets.
struct SendLane
{
    QString lane;
    QString model;
    std::optional<qint64> contextWindow;
};

/// What the window does with a send that would cross a spending limit (`limit_action`).
enum class LimitAction
{
    Ask, ///< "Send anyway / Send when the limit resets / Cancel" (the default)
    Park, ///< parked until the limit resets, without asking
    Refuse, ///< not sent; the prompt stays in the editor
};

/// What the session talks to, as chosen: the demo, or an endpoint and where its key comes from.
struct ProviderChoice
{
    enum class KeySource
    {
        Environment,
        KeyFile,
        Keychain
    };

    bool demo = false; ///< the local provider; endpoint and key source are then not used
    QUrl endpoint;
    /// Trimmed by the session; empty: capwatch-demo for the demo, else net::defaultModelFor().
    QString model;
    bool stream = true;
    KeySource keySource = KeySource::Environment;
    QString keyVariable = QStringLiteral("OPENAI_COMPAT_API_KEY");
    QString keyFile;
    /// Where the key comes from, for display ("OPENAI_COMPAT_API_KEY", "system keychain").
    QString keySourceText;

    // From the provider profile (session/profiles.h, issue 17); the defaults are the single
    // provider of before profiles.
    QString profile; ///< the profile's id; empty: none (a CLI send with --endpoint alone)
    QString profileName; ///< its name, for display and the `profile` log column
    /// The keychain entry of KeySource::Keychain: one per profile (empty: the entry of before
    /// profiles).
    QString keychainEntry;
    retry::PolicyLimits limits; ///< the profile's numbers of the retry policy
    QList<std::pair<QByteArray, QByteArray>> extraHeaders;
    /// The profile's context window, when set: it comes before a learned one (section 8.2).
    std::optional<qint64> contextWindow;
    /// The user's own caps on what the profile spends (checked before each send).
    retry::SpendLimits spend;
    /// The limits the provider publishes but never states in a header (pacing honours them).
    retry::DeclaredLimits declared;
    LimitAction limitAction = LimitAction::Ask;
    /// The profile's own prices, by model name: they win over the price table's.
    QList<std::pair<QString, retry::Price>> prices;

    /// The price of `model`: the profile's own, else the price table's; none when unknown.
    std::optional<retry::Price> priceOf(const QString &modelName) const;
};

/// The fallback of a send that ended capped (issue 17): which profile the prompt may go to
/// instead, and whether the session sends it there by itself.
struct FallbackOffer
{
    quint64 send = 0; ///< the capped send; 0: none
    bool offered = false; ///< a fallback is named, the send ended capped, and it was not itself one
    bool automatic = false; ///< the profile says so: the session already sent it
    QString fromProfile; ///< name of the capped profile
    QString toProfile; ///< name of the fallback
    retry::EndReason reason = retry::EndReason::None; ///< of the capped send
    /// The category that made it capped: token_limit, rate_limit or quota_exhausted's billing.
    QString category;
};

/// What goes with a prompt besides the conversation; unset: the provider's default.
struct SendOptions
{
    std::optional<QString> systemPrompt;
    std::optional<int> maxTokens;
    std::optional<double> temperature;
    /// An answer cut off at the output limit is continued by itself up to this many times in a
    /// row (0: never; at most kMaxAutoContinues), as long as each continuation adds something.
    /// An interrupted one never is: only Continue goes on from it.
    int autoContinue = 0;
};

/// The most continuations in a row an answer gets by itself (SendOptions::autoContinue).
inline constexpr int kMaxAutoContinues = 3;
/// The instruction a continuation ends its request with, after the partial answer as the
/// assistant's turn (docs/session.md, "Continue").
inline constexpr char16_t kContinueInstruction[]
    = u"Continue exactly where your previous answer stopped. Do not repeat anything you already "
      u"wrote.";

/// What a send now would authenticate with (net::keyUse, as the final error text's "auth:").
struct KeyStatus
{
    enum class Kind
    {
        Named, ///< a keychain: it answers later and may ask to be unlocked, so it is not read
        Key,
        NotNeeded, ///< no key, and none needed: a loopback endpoint
        Missing,
    };
    Kind kind = Kind::Missing;
    QString source;
};

/// The next request against the model's context window (section 8.2): what the gauge shows.
struct ContextGauge
{
    qint64 tokens = 0; ///< estimated: system prompt, the turns sent, the prompt, the completion
    std::optional<qint64> contextWindow; ///< unknown until set in Settings or named by an error
    int turns = 0; ///< earlier turns (exchanges) of the conversation
    int leftOut = 0; ///< of them, the oldest left out of the request
    qint64 leftOutTokens = 0;
    bool fits = true; ///< false only when the window is known and tokens exceed it
};

/// A send checked before it goes against the profile's spending limits and the daily limits it
/// declares for its provider (docs/session.md, "Spending limits"): held when it would cross one.
struct LimitHold
{
    bool holds = false;
    /// A spending limit of the user's (`check`); else a declared provider limit (`declared`).
    bool spending = false;
    retry::SpendCheck check;
    retry::DeclaredDecision declared;
    qint64 worstTokens = 0; ///< the estimated prompt plus max_tokens (or the reserve)
    std::optional<double> worstCost; ///< priced; none when the model's price is unknown
    QString currency; ///< of worstCost and the money limits ("USD")
    QDateTime resetsAt; ///< local: when the period of the limit ends (00:00, the 1st)
    QString profileName;
};

/// Trim and resend (section 8.2): which oldest turns a send leaves out to fit.
struct TrimOffer
{
    quint64 send = 0; ///< the send that overflowed; 0 for an offer before a send
    bool offered = false; ///< a plan that fits exists
    bool automatic = false; ///< applied without asking (the setting), the send already went
    qint64 contextWindow = 0;
    retry::TrimPlan plan;
};

/// What to do with a send whose provider's reset is beyond the retry budget (Settings ->
/// Retries, docs/parking.md).
enum class ParkingChoice
{
    Ask, ///< offer "Send at 06:14" beside Retry now
    Automatic, ///< park it at once
    GiveUp, ///< neither: it gave up, as before parking existed
};

/// Whether the send that just ended may be parked, and until when (retry::decidePark() on its
/// last failure, stamped with the wall time it arrived).
struct ParkOffer
{
    quint64 send = 0; ///< the send it is about; 0: none ended yet
    bool parkable = false;
    retry::ParkRefusal refusal = retry::ParkRefusal::NotCapped;
    /// UTC wall time: when a parked send goes out. The provider's reset at time scale 1;
    /// under --time-scale F the raw wait runs F times as long, like every other wait.
    QDateTime dueAt;
    retry::Millis resetIn { 0 }; ///< the provider's figure, unscaled ("Retry in 18 min")
    int parksInARow = 0; ///< parks of this send before this offer
    QString reason; ///< one English sentence (retry::ParkDecision::reason)
};

/// A conversation as read back from the history (ChatSession::openConversation()). Its retry
/// records are not here: they are in the session's retryLog() when this is emitted.
struct RestoredConversation
{
    QUuid id;
    QString title;
    QString endpoint;
    QString model;
    /// The id of the provider profile the conversation was last sent with (schema v4): the
    /// window switches its provider to it. Empty: stored before profiles, or without one.
    QString profile;
    /// In order, with their state (Complete / CutOff / Pending). Every exchange stored is here,
    /// also one that Regenerate or Edit replaced in the window (docs/session.md). An answer's
    /// history::Message::profile names the profile that gave it (a fallback's, too).
    QList<history::Message> messages;
    /// In order; a send's `message` is the user message it sent.
    QList<history::Send> sends;
    /// What the usage ledger counted, by the user message whose sends spent it (the answer
    /// after it shows it), and the whole conversation's under a null key.
    QHash<QUuid, history::CostTotal> costs;
};

} // namespace capwatch::session

Q_DECLARE_METATYPE(capwatch::session::ParkOffer)
Q_DECLARE_METATYPE(capwatch::session::RestoredConversation)
Q_DECLARE_METATYPE(capwatch::session::ContextGauge)
Q_DECLARE_METATYPE(capwatch::session::TrimOffer)
Q_DECLARE_METATYPE(capwatch::session::FallbackOffer)
