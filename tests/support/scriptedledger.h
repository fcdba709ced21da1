#pragma once

// A usage ledger written by a script, for the tests that hold the insights, the Insights view and
// `capwatch-cli usage` to each other (tst_usagecli, tst_insightswindow): three days from `first`,
// two profiles and two models, answers billed and priced, refusals with their waits, a park, and
// a send that is refused at 23:59 and answered after midnight under another profile and model (a
// fallback). Header-only.

#include "history/historystore.h"

#include <QDate>
#include <QList>
#include <QUuid>

namespace capwatch::testing {

class ScriptedLedger
{
public:
    ScriptedLedger(history::HistoryStore &store, QDate first)
        : m_store(store)
        , m_first(first)
    { }

    /// One send on day `day` (0: `first`), an attempt per status: refusals (429 rate_limit, 422
    /// token_limit) waited 1.5 s more each time, from `retry-after` and `backoff` in turn; the
    /// answer (200) billed or priced at `cost`; parked a minute before its first attempt when
    /// `parked`. False when a row could not be written.
    bool send(int day, const QString &profile, const QString &model, const QList<int> &statuses,
        bool parked, double cost, history::CostSource source)
    {
        using namespace Qt::StringLiterals;
        const QUuid id = QUuid::createUuid();
        ++m_request;
        for (int a = 0; a < statuses.size(); ++a) {
            history::UsageRecord u;
            u.time = m_first.addDays(day).startOfDay().addSecs(3600 + 60 * m_request + a);
            u.profile = profile;
            u.endpoint = u"https://api.example.com/v1"_s;
            u.model = model;
            u.conversation = QUuid::createUuid();
            u.send = id;
            u.request = m_request;
            u.attempt = a + 1;
            u.status = statuses.at(a);
            u.promptTokens = 100 + 10 * a;
            u.completionTokens = statuses.at(a) == 200 ? 40 : 0;
            if (statuses.at(a) == 429)
                u.category = u"rate_limit"_s;
            else if (statuses.at(a) == 422)
                u.category = u"token_limit"_s;
            if (a > 0) {
                u.waitedMs = 1500 * a;
                u.waitSource = a % 2 ? u"retry-after"_s : u"backoff"_s;
            }
            if (a == 0 && parked)
                u.parkedMs = 60'000;
            if (statuses.at(a) == 200) {
                u.cost = cost;
                u.costSource = source;
                if (source == history::CostSource::PriceTable)
                    u.currency = u"USD"_s;
            }
            u.pacedMs = a == 0 ? 250 : 0;
            if (!m_store.addUsage(u))
                return false;
        }
        return true;
    }

    /// The script: six sends over the three days, then the fallback across the second midnight
    /// (refused at 23:59 of the second day under Free and llama, answered at 00:01 of the third
    /// under Work and gpt-4o-mini after a 120 s wait): one send, counted on the second day under
    /// Free and llama, answered after retries.
    bool write()
    {
        using namespace Qt::StringLiterals;
        using history::CostSource;
        bool ok = send(0, u"Work"_s, u"gpt-4o-mini"_s, { 200 }, false, 0.25, CostSource::Provider)
            && send(
                0, u"Free"_s, u"llama"_s, { 429, 429, 200 }, false, 0.125, CostSource::PriceTable)
            && send(1, u"Free"_s, u"llama"_s, { 422, 422, 422, 422, 422 }, false, 0, {})
            && send(1, u"Work"_s, u"gpt-4o-mini"_s, { 200 }, true, 0.5, CostSource::Provider)
            && send(2, u"Work"_s, u"llama"_s, { 429, 200 }, false, 0.0625, CostSource::PriceTable)
            && send(2, u"Free"_s, u"gpt-4o-mini"_s, { 200 }, false, 0.03125, CostSource::Provider);
        history::UsageRecord refused;
        refused.time = QDateTime(m_first.addDays(1), QTime(23, 59)).toUTC();
        refused.profile = u"Free"_s;
        refused.endpoint = u"https://api.example.com/v1"_s;
        refused.model = u"llama"_s;
        refused.conversation = QUuid::createUuid();
        refused.send = QUuid::createUuid();
        refused.request = 99;
        refused.attempt = 1;
        refused.status = 429;
        refused.category = u"rate_limit"_s;
        refused.promptTokens = 100;
        history::UsageRecord answered = refused;
        answered.time = QDateTime(m_first.addDays(2), QTime(0, 1)).toUTC();
        answered.profile = u"Work"_s;
        answered.model = u"gpt-4o-mini"_s;
        answered.attempt = 2;
        answered.status = 200;
        answered.category.clear();
        answered.completionTokens = 40;
        answered.cost = 0.015625;
        answered.costSource = CostSource::Provider;
        answered.waitedMs = 120'000;
        answered.waitSource = u"retry-after"_s;
        return ok && m_store.addUsage(refused) && m_store.addUsage(answered);
    }

private:
    history::HistoryStore &m_store;
    QDate m_first;
    int m_request = 0;
};

} // namespace capwatch::testing
