#include "usageledger.h"

#include <cmath>

namespace capwatch::session {

using namespace Qt::StringLiterals;
using Event = net::RetryRecord::Event;

void UsageLedger::report(const net::ProviderReport &report)
{
    if (m_open.open)
        m_open.report = report;
}

std::optional<history::UsageRecord> UsageLedger::record(
    const net::RetryRecord &record, const SendFacts &facts)
{
    // Parking and fallback records close a send that ended; they are no attempt.
    if (record.event == Event::Parked || record.event == Event::Unparked
        || record.event == Event::Fallback)
        return std::nullopt;
    if (record.request != m_request) { // a new send: nothing pending of the last one
        m_request = record.request;
        m_pendingWait = m_pendingPace = 0;
        m_pendingWaitSource.clear();
        m_pendingParked = std::exchange(m_parkedNext, 0);
    }
    std::optional<history::UsageRecord> row;
    switch (record.event) {
    case Event::Paced:
        m_pendingPace = record.waitMs.value_or(0);
        break;
    case Event::AttemptStarted:
        if (m_open.open) // an attempt that ended without a record of its end
            row = rowOf(record, facts);
        m_open = {};
        m_open.open = true;
        m_open.request = record.request;
        m_open.attempt = record.attempt;
        m_open.waitedMs = std::exchange(m_pendingWait, 0);
        m_open.waitSource = std::exchange(m_pendingWaitSource, QString());
        m_open.pacedMs = std::exchange(m_pendingPace, 0);
        m_open.parkedMs = std::exchange(m_pendingParked, 0);
        break;
    case Event::RetryScheduled:
        if (m_open.open)
            row = rowOf(record, facts);
        m_open = {};
        m_pendingWait = record.waitMs.value_or(0);
        m_pendingWaitSource = record.waitSource == retry::WaitSource::None
            ? QString()
            : QString::fromLatin1(retry::nameOf(record.waitSource));
        break;
    case Event::Succeeded:
    case Event::GaveUp:
    case Event::Cancelled:
        if (m_open.open)
            row = rowOf(record, facts);
        m_open = {};
        break;
    case Event::Interrupted: // the send's gave_up or cancelled ends the attempt
    case Event::Parked:
    case Event::Unparked:
    case Event::Fallback:
        break;
    }
    return row;
}

history::UsageRecord UsageLedger::rowOf(const net::RetryRecord &end, const SendFacts &facts) const
{
    history::UsageRecord u;
    u.time = end.time.isValid() ? end.time : QDateTime::currentDateTimeUtc();
    u.profile = end.profile.isEmpty() ? facts.profile : end.profile;
    u.endpoint = facts.lane;
    u.model = facts.model;
    u.request = m_open.request;
    u.attempt = m_open.attempt;
    const net::ProviderReport *report = m_open.report ? &*m_open.report : nullptr;
    // The status of the attempt: its end's record, else its report (a cancel mid-stream).
    if (end.event != Event::AttemptStarted && end.status)
        u.status = end.status;
    else if (report)
        u.status = report->status;
    if (end.event != Event::AttemptStarted && end.category && end.event != Event::Succeeded
        && end.event != Event::Cancelled)
        u.category = QString::fromLatin1(retry::nameOf(*end.category));
    if (report && !report->model.isEmpty())
        u.model = report->model;
    u.waitedMs = m_open.waitedMs;
    u.waitSource = m_open.waitSource;
    u.pacedMs = m_open.pacedMs;
    u.parkedMs = m_open.parkedMs;

    const retry::UsageReport usage = report ? report->usage : retry::UsageReport {};
    if (usage.promptTokens || usage.completionTokens) {
        u.promptTokens = usage.promptTokens;
        u.completionTokens = usage.completionTokens;
        u.cachedTokens = usage.cachedTokens;
        u.reasoningTokens = usage.reasoningTokens;
    } else {
        // Not reported: the request through the learned ratio, and the text that came, if any.
        const qint64 chars
            = report && report->requestChars > 0 ? report->requestChars : facts.requestChars;
        u.promptTokens = retry::estimatePromptTokens(chars, facts.charsPerToken);
        u.completionTokens
            = m_open.chars > 0 ? retry::estimatePromptTokens(m_open.chars, facts.charsPerToken) : 0;
        u.estimated = true;
    }
    if (usage.cost) {
        u.cost = *usage.cost;
        u.costSource = history::CostSource::Provider;
    } else if (const bool answered = u.status && *u.status >= 200 && *u.status < 300; answered) {
        // A refusal is not billed by the providers capwatch knows; only an answer is priced.
        if (const std::optional<retry::Price> price = facts.price) {
            const retry::Cost cost = retry::costOf(*price,
                { u.promptTokens.value_or(0), u.completionTokens.value_or(0),
                    u.cachedTokens.value_or(0) });
            u.cost = cost.amount;
            u.costSource = history::CostSource::PriceTable;
            u.currency = QString::fromStdString(cost.currency);
        }
    }
    return u;
}

} // namespace capwatch::session
