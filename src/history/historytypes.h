#pragma once

// The values the history database holds, as plain structs. Ids are UUIDs the caller may make
// itself (QUuid::createUuid()), so the GUI thread knows an id before the row is written and two
// processes never hand out the same one; the database's own integer keys stay inside the store.

#include "retry/answerend.h"
#include "retry/classifier.h"
#include "retry/sendpolicy.h"

#include <QDateTime>
#include <QList>
#include <QMap>
#include <QString>
#include <QUuid>
#include <optional>

namespace capwatch::history {

enum class Role
{
    User,
    Assistant,
    System
};

enum class MessageState
{
    Pending, ///< stored before its text is final (an answer that is still streaming)
    Complete,
    CutOff, ///< the answer ended early: cancelled, failed, or the program died while it streamed
    /// Replaced in the window (Regenerate, Edit and resend): kept with its text and send, but
    /// neither shown when the conversation is restored nor sent as context (docs/history.md)
    Replaced
};

enum class SendOutcome
{
    Running, ///< not ended: still running, or the process that ran it died
    Succeeded,
    GaveUp,
    Cancelled
};

QString nameOf(Role role);
QString nameOf(MessageState state);
QString nameOf(SendOutcome outcome); ///< empty for Running
std::optional<Role> roleFromName(const QString &name);
std::optional<MessageState> messageStateFromName(const QString &name);
std::optional<SendOutcome> sendOutcomeFromName(const QString &name); ///< empty name: Running
/// The interfaces.md names of the retry policy's enums, and back.
std::optional<retry::Category> categoryFromName(const QString &name);
retry::WaitSource waitSourceFromName(const QString &name); ///< None for an unknown name
retry::EndReason endReasonFromName(const QString &name); ///< None for an unknown name

/// Where an attempt's cost comes from (the `cost_source` column): the provider said what it
/// billed (`usage.cost`), the price table estimated it, or it is not known (cost NULL).
enum class CostSource
{
    Unknown,
    Provider,
    PriceTable
};
QString costSourceName(CostSource source); ///< unknown, provider, price_table
CostSource costSourceFromName(QStringView name); ///< Unknown for a name it does not know

/// What the usage ledger counts for one prompt of a conversation (all its sends: the answer,
/// refused attempts, continuations), or for a whole conversation.
struct CostTotal
{
    double billed = 0; ///< the provider's usage.cost
    double estimated = 0; ///< priced from the price table or the profile's prices
    qint64 unpriced = 0; ///< answered attempts with no known price
    qint64 attempts = 0;
    qint64 tokens = 0; ///< prompt + completion, reported or estimated
    QString currency; ///< of `estimated` ("USD"); empty when nothing was estimated

    /// One attempt's: billed when the provider said what it cost (`source` Provider), estimated
    /// when it was priced, else an unpriced attempt when it was answered (a refusal is not
    /// billed by the providers capwatch knows).
    static CostTotal ofAttempt(std::optional<double> cost, CostSource source,
        const QString &currency, bool answered, qint64 tokens);

    bool known() const { return billed > 0 || estimated > 0; }
    double amount() const { return billed + estimated; }
    CostTotal &operator+=(const CostTotal &other);
    bool operator==(const CostTotal &) const = default;
};

struct Conversation
{
    QUuid id; ///< null: the store makes one
    QString title; ///< empty: the first words of the first user message, when it is stored
    QString endpoint; ///< stored without user info, query or fragment (they can hold a key)
    QString model;
    QDateTime created; ///< invalid: now
    QDateTime updated; ///< invalid: created; moves on with every message and send
    bool hasRetries = false; ///< read only: a retry was scheduled in one of its sends
    bool hasUnanswered = false; ///< read only: a send that did not succeed (or has not ended)
    bool hasParked = false; ///< read only: a parked send of it is stored (ParkedSend)
    /// The id of the provider profile the conversation belongs to (schema v4); empty: stored
    /// before profiles, or without one. Changed by HistoryStore::setConversationProfile().
    QString profile;
    /// Read only: what the usage ledger counted for it (billed and estimated; the list's
    /// tooltip). Rows stay when it is deleted.
    CostTotal cost;

    bool operator==(const Conversation &) const = default;
};

struct Message
{
    QUuid id; ///< null: the store makes one
    QUuid conversation;
    Role role = Role::User;
    QString text;
    MessageState state = MessageState::Complete;
    QDateTime created; ///< invalid: now
    QDateTime ended; ///< when the text became final; invalid while Pending
    /// An answer: the name of the profile that gave it (schema v4); empty for a prompt or when
    /// stored before profiles.
    QString profile;
    /// An answer: what it used, as the provider reported it (schema v5); unset when it did not
    /// say, or stored before.
    std::optional<qint64> promptTokens;
    std::optional<qint64> completionTokens;
    /// An answer: how it ended (schema v7); None for a prompt, a Pending answer or one stored
    /// before.
    retry::AnswerEnd end = retry::AnswerEnd::None;
    /// An answer: the character offsets where a continuation was joined to it (schema v7).
    QList<qsizetype> seams;

    bool operator==(const Message &) const = default;
};

/// How an answer ended and where continuations were joined to it (schema v7).
struct AnswerEnding
{
    retry::AnswerEnd end = retry::AnswerEnd::None; ///< None: NULL (not known)
    QList<qsizetype> seams; ///< character offsets, ascending; empty: NULL
};
/// The `seams` column: "[412,900]"; empty for none.
QString seamsText(const QList<qsizetype> &seams);
/// The reverse of seamsText(); offsets that are not ascending non-negative integers are left out.
QList<qsizetype> seamsFromText(const QString &text);

/// What an answer used, as its provider reported it; an unset figure is stored as NULL.
struct MessageUsage
{
    std::optional<qint64> promptTokens;
    std::optional<qint64> completionTokens;
};

/// One per user message: how its retry cycle ended.
struct Send
{
    QUuid id; ///< null: the store makes one
    QUuid conversation;
    QUuid message; ///< the user message it sent
    SendOutcome outcome = SendOutcome::Running;
    retry::EndReason reason = retry::EndReason::None;
    int attempts = 0;
    qint64 waitedMs = 0;
    QDateTime started; ///< invalid: now
    QDateTime ended;

    bool operator==(const Send &) const = default;
};

/// The fields of the retry log (interfaces.md, net::RetryRecord). The event is kept as its
/// interfaces.md name, so later events (parked, paced, ...) need no migration.
struct RetryRecord
{
    QDateTime time; ///< UTC, milliseconds
    int request = 0;
    QString event; ///< `attempt_started`, `retry_scheduled`, `succeeded`, `gave_up`, ...
    int attempt = 0;
    std::optional<int> status;
    std::optional<retry::Category> category;
    std::optional<double> used;
    std::optional<double> limit;
    std::optional<qint64> waitMs;
    std::optional<qint64> rawWaitMs;
    retry::WaitSource waitSource = retry::WaitSource::None;
    std::optional<qint64> waitedTotalMs;
    std::optional<qint64> budgetLeftMs;
    retry::EndReason reason = retry::EndReason::None;
    /// For `unparked`: why it left the queue (`sent_now`, `reset_reached`, `cancelled`), kept in
    /// the `reason` column in place of `reason`.
    QString unpark;
    QString error;
    QDateTime resetAt; ///< when a parked send may go again; invalid: none
    /// The provider window columns (schema v3, net::RetryRecord): null when not reported.
    std::optional<qint64> windowTokensLeft;
    std::optional<double> windowResetS;
    std::optional<qint64> estimatedTokens;
    /// The profile columns (schema v4, net::RetryRecord): empty when stored before profiles.
    QString profile;
    QString fallbackTo;
    retry::AnswerEnd answerEnd = retry::AnswerEnd::None; ///< schema v7; None: null

    bool operator==(const RetryRecord &) const = default;
};

/// A retry record as read back, with the conversation and send it belongs to.
struct StoredRetryRecord
{
    QUuid conversation;
    QUuid send;
    RetryRecord record;

    bool operator==(const StoredRetryRecord &) const = default;
};

/// A send parked until its provider's cap resets (docs/parking.md): stored when it is parked,
/// removed when it goes out or is cancelled, so it survives a quit, a restart and a crash.
struct ParkedSend
{
    QUuid id; ///< null: the store makes one
    QUuid conversation;
    QUuid message; ///< the user message (the prompt) it sends again
    QUuid send; ///< the send that gave up and was parked; may be null
    QString provider; ///< its lane: "demo", or the endpoint stored as storableEndpoint() makes it
    QString model;
    /// A JSON object the session writes and reads (system prompt, max_tokens, ...)
    QString options;
    QDateTime parkedAt; ///< invalid: now
    QDateTime dueAt; ///< UTC, ms: when it goes out
    QDateTime resetAt; ///< UTC, ms: the provider's reset (equal to dueAt at time scale 1)
    int parksInARow = 1; ///< 1 for the first park of a send, up to 3
    QString prompt; ///< read only: the text of `message`
    QString title; ///< read only: the conversation's title

    bool operator==(const ParkedSend &) const = default;
};

/// The last report of a provider's window for one endpoint and model (schema v3,
/// docs/retry-policy.md section 8.1): kept so that a new window or a new capwatch-cli process
/// paces too. One row per (provider, model): a later report replaces it.
struct ProviderWindowRecord
{
    QString provider; ///< "demo", or the endpoint as storableEndpoint() makes it
    QString model;
    QDateTime receivedAt; ///< UTC, ms; invalid: now (when stored)
    /// UTC wall times, ms: receivedAt + the reset, scaled by the time scale of the run that got
    /// it (as a parked send's dueAt). Invalid: not reported.
    QDateTime tokensResetAt;
    QDateTime requestsResetAt;
    std::optional<qint64> limitTokens;
    std::optional<qint64> remainingTokens;
    std::optional<qint64> limitRequests;
    std::optional<qint64> remainingRequests;
    /// Of the run that got it: time left / timeScale is policy time. Stored and read as 1 when
    /// not above 0.
    double timeScale = 1.0;

    bool operator==(const ProviderWindowRecord &) const = default;
};

/// One attempt in the usage ledger (schema v8, docs/history.md): written when the attempt ended,
/// kept when its conversation is deleted, cleared only on request.
struct UsageRecord
{
    QDateTime time; ///< UTC, ms: when the attempt ended; invalid: now (when stored)
    QString profile; ///< the profile's name; empty without one
    QString endpoint; ///< "demo", or the endpoint as storableEndpoint() makes it
    QString model;
    QUuid conversation; ///< null: none stored; its UUID stays when it is deleted
    QUuid send; ///< the stored send; null: none
    int request = 0; ///< the retry log's number of its send
    int attempt = 0;
    std::optional<int> status; ///< null: no HTTP status (a network error)
    QString category; ///< retry::Category's name of a refusal; empty: none (an answer)
    std::optional<qint64> promptTokens;
    std::optional<qint64> completionTokens;
    std::optional<qint64> cachedTokens;
    std::optional<qint64> reasoningTokens;
    bool estimated = false; ///< the tokens are estimated, not reported
    std::optional<double> cost; ///< null: unknown
    CostSource costSource = CostSource::Unknown;
    QString currency; ///< the price table's currency; empty for the provider's credits
    qint64 waitedMs = 0; ///< the retry wait before this attempt
    /// Where that wait came from (retry::WaitSource's name: `retry-after`, `message`,
    /// `backoff`, ...); empty when there was none (schema v10).
    QString waitSource;
    qint64 pacedMs = 0; ///< the pacing wait before it (attempt 1)
    qint64 parkedMs = 0; ///< how long its send was parked before it went out again

    bool operator==(const UsageRecord &) const = default;
};

/// One usage row as the spending and declared limits count it (HistoryStore::usageTicks()).
struct UsageTick
{
    qint64 id = 0; ///< the row's, growing: a later read asks for the rows after the last one
    qint64 timeMs = 0; ///< UTC, when the attempt ended
    QString profile;
    qint64 tokens = 0; ///< prompt + completion, reported or estimated
    std::optional<double> cost;
    CostSource costSource = CostSource::Unknown;
    QString currency;
    bool answered = false; ///< a 2xx that was no refusal
    bool operator==(const UsageTick &) const = default;
};

/// What the insights sum (HistoryStore::insights()): local days of the usage ledger, all of it or
/// one profile's (by name) or one model's. Whole days, as the Insights view's ranges are.
struct InsightsQuery
{
    QDate from; ///< the first day; invalid: from the ledger's first
    QDate to; ///< the last day, included; invalid: to today
    QString profile; ///< empty: every profile
    QString model; ///< empty: every model
};

/// The ledger's rows of one local day, model, profile and endpoint, summed.
struct InsightsDay
{
    QDate day;
    QString model;
    QString profile;
    QString endpoint;
    qint64 attempts = 0;
    qint64 promptTokens = 0;
    qint64 completionTokens = 0;
    double billed = 0; ///< the provider's usage.cost
    double estimated = 0; ///< priced
    qint64 waitedMs = 0; ///< retry waits
    qint64 pacedMs = 0;
    qint64 parkedMs = 0;
};

/// The insights of a span: everything the charts draw, from SQL on the history's worker.
struct Insights
{
    QList<InsightsDay> days; ///< by day, then model
    QMap<QString, qint64> refusals; ///< attempts refused, by category
    /// Retry waits by where they came from: how many, and their milliseconds.
    QMap<QString, std::pair<qint64, qint64>> waitSources;
    // The sends, by how they ended (capwatch-cli usage's `outcomes`).
    qint64 firstTime = 0;
    qint64 afterRetries = 0;
    qint64 parkedThenAnswered = 0;
    qint64 notAnswered = 0;
    /// Every profile and model in the ledger, whatever the query (the view's filters), sorted.
    QStringList profiles;
    QStringList models;
    QDate firstDay; ///< the ledger's first day (the range "All"); invalid when it is empty
};

/// Where the next page of the conversation list starts (keyset paging: a conversation created
/// or updated meanwhile never shifts a later page). Default: the first page.
struct PageCursor
{
    qint64 updatedMs = 0;
    qint64 key = 0;
    bool atStart = true;
};

struct ConversationPage
{
    QList<Conversation> conversations; ///< newest (by `updated`) first
    PageCursor next;
    bool hasMore = false; ///< for canFetchMore()
};

struct SearchHit
{
    QUuid conversation;
    QString title;
    QUuid message; ///< the newest message of the conversation that matched
    QString snippet; ///< text around the match, the matched words between [ and ]
};

} // namespace capwatch::history
