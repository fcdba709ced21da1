// The status bar's spend line: today's use of the profile in use against its spending limit,
// counted from the usage ledger's tally; a limit passing 50, 80 and 100 % in this run warns once
// per threshold and period, and a threshold already passed when it first looks is not announced.

#include "history/historytypes.h"
#include "session/chatsession.h"
#include "session/providermemory.h"
#include "ui/panel/spendstatus.h"

#include <QLocale>
#include <QMainWindow>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>

using namespace capwatch;
using namespace Qt::StringLiterals;

namespace {

history::UsageRecord row(const QString &profile, qint64 prompt, qint64 completion,
    std::optional<double> cost = {}, history::CostSource source = history::CostSource::Unknown)
{
    history::UsageRecord r;
    r.profile = profile;
    r.promptTokens = prompt;
    r.completionTokens = completion;
    r.cost = cost;
    r.costSource = source;
    r.status = 200;
    return r;
}

struct Fixture
{
    Fixture(const retry::SpendLimits &limits)
    {
        session::SessionSetup setup;
        setup.memory = &memory;
        chat.configure(setup);
        session::ProviderChoice choice;
        choice.endpoint = QUrl(u"http://127.0.0.1:9/v1"_s);
        choice.model = u"m"_s;
        choice.profile = u"p"_s;
        choice.profileName = u"P"_s;
        choice.spend = limits;
        chat.setProvider(choice);
        status = new ui::SpendStatus(&chat, &memory.tally(), window.statusBar());
    }
    session::ProviderMemory memory; // no history: the tally counts what it is told
    session::ChatSession chat;
    QMainWindow window;
    ui::SpendStatus *status = nullptr;
};

} // namespace

class TestSpendStatus final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void withoutLimitsShowsTodaysUseOnceThereIsAny()
    {
        Fixture f({});
        QVERIFY(f.status->isHidden());
        f.memory.tally().noteAppended(
            row(u"P"_s, 1000, 234, 0.0123, history::CostSource::PriceTable));
        QVERIFY(!f.status->isHidden());
        QCOMPARE(f.status->text(), u"Today: $0.012 · 1,234 tokens"_s);
        QVERIFY(f.status->toolTip().contains(u"Estimated from prices: $0.012"_s));
        // Another profile's use is not this one's.
        f.memory.tally().noteAppended(row(u"Other"_s, 5000, 0));
        QCOMPARE(f.status->text(), u"Today: $0.012 · 1,234 tokens"_s);
    }

    void warnsOncePerThresholdAsALimitFills()
    {
        retry::SpendLimits limits;
        limits.tokensDay = 1000;
        Fixture f(limits);
        QSignalSpy warnings(f.status, &ui::SpendStatus::limitWarning);
        QCOMPARE(f.status->text(), u"Today: 0 of 1,000 tokens"_s);
        f.memory.tally().noteAppended(row(u"P"_s, 300, 100));
        QCOMPARE(f.status->text(), u"Today: 400 of 1,000 tokens"_s);
        QCOMPARE(warnings.size(), 0);
        f.memory.tally().noteAppended(row(u"P"_s, 100, 50));
        QCOMPARE(warnings.size(), 1);
        QCOMPARE(warnings.at(0).at(2).toInt(), 50);
        QCOMPARE(warnings.at(0).at(0).toString(), u"50 % of a spending limit used: P"_s);
        QCOMPARE(warnings.at(0).at(1).toString(), u"Today: 550 of 1,000 tokens"_s);
        f.memory.tally().noteAppended(row(u"P"_s, 10, 0)); // still past 50 only: no repeat
        QCOMPARE(warnings.size(), 1);
        f.memory.tally().noteAppended(row(u"P"_s, 300, 0));
        QCOMPARE(warnings.size(), 2);
        QCOMPARE(warnings.at(1).at(2).toInt(), 80);
        f.memory.tally().noteAppended(row(u"P"_s, 200, 0));
        QCOMPARE(warnings.size(), 3);
        QCOMPARE(warnings.at(2).at(2).toInt(), 100);
        QCOMPARE(warnings.at(2).at(0).toString(), u"Spending limit reached: P"_s);
        f.memory.tally().noteAppended(row(u"P"_s, 200, 0));
        QCOMPARE(warnings.size(), 3);
    }

    void aThresholdPassedBeforeItLookedIsNotAnnounced()
    {
        retry::SpendLimits limits;
        limits.costDay = 1.0;
        session::ProviderMemory memory;
        memory.tally().noteAppended(row(u"P"_s, 10, 10, 0.85, history::CostSource::Provider));
        session::ChatSession chat;
        session::SessionSetup setup;
        setup.memory = &memory;
        chat.configure(setup);
        session::ProviderChoice choice;
        choice.endpoint = QUrl(u"http://127.0.0.1:9/v1"_s);
        choice.profileName = u"P"_s;
        choice.spend = limits;
        chat.setProvider(choice);
        QMainWindow window;
        auto *status = new ui::SpendStatus(&chat, &memory.tally(), window.statusBar());
        QSignalSpy warnings(status, &ui::SpendStatus::limitWarning);
        QCOMPARE(status->text(), u"Today: $0.850 of $1.00"_s);
        QVERIFY(status->toolTip().contains(u"Billed by the provider: $0.850"_s));
        memory.tally().noteAppended(row(u"P"_s, 10, 10, 0.05, history::CostSource::Provider));
        QCOMPARE(warnings.size(), 0); // 90 %: still the 80 % it started past
        memory.tally().noteAppended(row(u"P"_s, 10, 10, 0.2, history::CostSource::Provider));
        QCOMPARE(warnings.size(), 1);
        QCOMPARE(warnings.at(0).at(2).toInt(), 100);
    }
};

QTEST_MAIN(TestSpendStatus)
#include "tst_spendstatus.moc"
