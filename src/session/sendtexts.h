#pragma once

// A send's state in words, one function per figure: the retry panel, the failed card's status
// line, the status bar, the Queue and capwatch-cli's progress lines all take their words from
// here, given the same SendState, so one send never reads "attempt 3 of 5" in one place and
// something else in another. In the UI language; capwatch-cli's lines keep the category names
// of interfaces.md (token_limit), as its other output does.

#include "sendstate.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QString>

namespace capwatch::session {

class SendTexts final
{
    Q_DECLARE_TR_FUNCTIONS(capwatch::session::SendTexts)

public:
    SendTexts() = delete;

    /// The state in a sentence (the panel's first line): "Waiting to send attempt 3",
    /// "Answered after 2 retries", "Gave up: budget exhausted (…)", "Parked until 06:14 · …".
    static QString phase(const SendState &s);
    /// The phase in one or two words, for a column: "waiting to retry", "gave up"; a parked
    /// send's standing: "waiting", "due", "sending", "waits for provider".
    static QString phaseName(const SendState &s);
    /// The attempt as a figure of the policy's maximum: "3 of 5"; "–" before attempt 1.
    static QString attemptOf(const SendState &s);
    /// The same with its word, where no caption says it: "Attempt 3 of 5"; empty before one.
    static QString attempt(const SendState &s);
    /// The latest failure's category in words, with its HTTP status: "token limit (HTTP 422)";
    /// "–" before any.
    static QString failure(const SendState &s);
    /// "60,323 / 60,000" as the latest refusal named them; after an answer "412 used by the
    /// answer"; "–" when nothing was said.
    static QString tokens(const SendState &s);
    /// The countdown of the wait in progress, to a tenth: "42.3 s"; a parked send's to its reset:
    /// "15:42"; "–" when nothing counts down.
    static QString countdown(const SendState &s);
    /// What is left of the retry budget: "62.0 s of 120 s".
    static QString budget(const SendState &s);
    /// Where the latest wait came from: "provider asked 18 min; capped to 60 s", "x-ratelimit-…
    /// (pacing, outside the retry budget)"; with "; cancelled after 14.7 s" when a cancel cut it.
    static QString source(const SendState &s);
    /// While pacing: "Pacing: sending in 12 s (the provider's window is full)"; else empty.
    static QString pacing(const SendState &s);
    /// A declared limit and how much of it is used: "Requests this minute: 2 of 2", "Requests
    /// today: 50 of 50, resets at 00:00" (the reset when given).
    static QString declaredLimit(
        retry::DeclaredKind kind, qint64 used, qint64 limit, const QDateTime &resets = {});
    /// While pacing, why the send is held and what Send now does (the card's line, the panel's
    /// Send now tooltip); else empty.
    static QString pacingWhy(const SendState &s);
    /// A limit that holds a send before it goes: "Tokens today: 0 of 500; this send may use up
    /// to 1,256", "Requests today: 50 of 50, resets at 00:00". Empty when it does not hold.
    static QString limitHold(const LimitHold &hold);
    /// When the limit that holds it resets: "00:00", or the date of the 1st of next month.
    static QString limitResets(const LimitHold &hold);
    /// What the ledger counted, saying where each part comes from: "$0.0012 billed", "$0.0012
    /// estimated", "$0.0015 ($0.0012 billed, $0.0003 estimated)"; empty when no price is known
    /// (only tokens are shown then).
    static QString cost(const history::CostTotal &total);
    /// An amount of money: "$0.0042", "0.31 EUR"; the precision follows its size.
    static QString money(double amount, const QString &currency);
    /// The line under a prompt whose answer has not begun: "Waiting for the provider…",
    /// "Retrying in 42 s: token limit".
    static QString statusLine(const SendState &s);
    /// The status bar's summary of a send in flight: "Attempt 3 of 5 · retry in 42 s", "Pacing:
    /// sending in 12 s"; empty when it is not in flight.
    static QString statusBar(const SendState &s);

    /// The failed card's first line: one sentence on what happened and what comes next ("Out of
    /// credit at this provider: top up the account, then retry.", "Capped until 14:09: all 3
    /// attempts failed.", "The request is larger than the model accepts: trim the conversation
    /// or shorten the prompt."). The raw failure (section 5's text) goes under Details.
    static QString failedLead(const SendState &s);
    /// The rule that read the latest failure: "Decided by rules.d/acme.json:7"; empty when no
    /// rule decided (a network failure, a broken stream).
    static QString decidedBy(const SendState &s);
    /// While a retry waits for a reset its budget cannot reach (SendState::earlyPark): why
    /// "Send at 14:09" is offered and what it does; else empty.
    static QString earlyParkWhy(const SendState &s);

    // capwatch-cli's progress lines on stderr, without the "capwatch: " prefix.
    /// "attempt 1 of 5 failed: 422 Unprocessable Entity, token_limit (used 60323, limit 60000)".
    static QString attemptFailedLine(const SendState &s);
    /// "waiting 60 s (provider asked 18 min; capped to 60 s) before attempt 2 of 5; 60 s of the
    /// 120 s budget left".
    static QString waitingLine(const SendState &s);
    /// While pacing: "pacing: sending in 12 s, when the provider's window resets (it has 800
    /// tokens left, this request needs about 2400)"; else empty.
    static QString pacingLine(const SendState &s);
    /// "answered on attempt 3 of 5 (412 tokens)".
    static QString answeredLine(const SendState &s);

    /// How an answer ended, for the line under it (issue 29): "Cut off at the output limit ·
    /// 4,096 tokens", "Interrupted after 1,234 characters", "Empty answer: the output budget
    /// (256 tokens) went to reasoning"; empty for a complete answer (and for None).
    /// `completionTokens`: of the last response, when the provider said.
    static QString answerEnd(
        retry::AnswerEnd end, std::optional<qint64> completionTokens, qsizetype chars);
    /// The same for a send that ended (its usage, its whole answer).
    static QString answerEnd(const SendState &s);
    /// capwatch-cli's line for an answer that did not end complete: "the answer was cut off at
    /// the output limit (4096 tokens)", "the answer was interrupted after 1234 characters: …";
    /// empty for a complete one.
    static QString answerEndLine(const SendState &s);
};

} // namespace capwatch::session
