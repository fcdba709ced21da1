#pragma once

// The usage ledger as a send's steps make it (docs/history.md, "The usage ledger"): one row per
// attempt, made when the attempt ended (its outcome known) from the retry log's records of the
// send and the provider's report of the attempt. The tokens are the provider's; an attempt it did
// not report (a refusal, a dropped stream) is estimated with the learned ratio and marked so. The
// cost is the provider's `usage.cost` (billed), else the price table's (estimated), else unknown.

#include "history/historytypes.h"
#include "net/chatclient.h"
#include "net/retrylog.h"
#include "retry/price.h"

#include <optional>

namespace capwatch::session {

class UsageLedger final
{
public:
    /// What the ledger needs of the send beside its records.
    struct SendFacts
    {
        QString profile;
        QString lane; ///< "demo" or the endpoint
        QString model;
        qint64 requestChars = 0; ///< net::requestChars() of its request
        double charsPerToken = 4.0; ///< the learned ratio of its provider and model
        /// Its model's price (the profile's own, else the price table's); none: unknown.
        std::optional<retry::Price> price;
    };

    /// The next send went out of the parking lot after waiting this long there.
    void setParkedBeforeNext(qint64 ms) { m_parkedNext = ms; }
    /// The provider's report of the attempt in flight.
    void report(const net::ProviderReport &report);
    /// Characters of answer text the attempt in flight delivered.
    void text(qsizetype chars) { m_open.chars += chars; }
    /// A record of the send: a row when it ended an attempt.
    std::optional<history::UsageRecord> record(
        const net::RetryRecord &record, const SendFacts &facts);

private:
    struct Attempt
    {
        bool open = false;
        int request = 0;
        int attempt = 0;
        qint64 waitedMs = 0;
        QString waitSource; ///< of that wait
        qint64 pacedMs = 0;
        qint64 parkedMs = 0;
        qsizetype chars = 0;
        std::optional<net::ProviderReport> report;
    };
    history::UsageRecord rowOf(const net::RetryRecord &end, const SendFacts &facts) const;

    Attempt m_open;
    int m_request = 0; ///< the send the pending waits are of
    qint64 m_pendingWait = 0; ///< the retry wait the next attempt comes after
    QString m_pendingWaitSource;
    qint64 m_pendingPace = 0;
    qint64 m_pendingParked = 0;
    qint64 m_parkedNext = 0;
};

} // namespace capwatch::session
