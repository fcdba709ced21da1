#pragma once

// The demo provider's scenarios, named in one table: the name on the command line, the value the
// handler switches on, and the line `capwatch-cli demo --help` shows. Cycles count chat requests
// from 1.

#include <QString>
#include <QStringList>
#include <QStringView>
#include <optional>
#include <span>

namespace capwatch::demo {

enum class Scenario
{
    Capped,
    Headline,
    RateLimited,
    AuthExpired,
    Validation,
    Flaky,
    Hang,
    DropMidStream,
    Firehose,
    Drip,
    HugeError,
    BadUtf8,
    HugeHeaders,
    RedirectLoop,
    ErrorIn200,
    ErrorInStream,
    Context,
    Billing,
    Reset,
    Length,
    Drop,
    Daily,
};

struct ScenarioInfo
{
    Scenario scenario;
    QStringView name;
    /// One line for --help, in English: the provider's behaviour, not a translated text.
    QStringView description;
};

/// Every scenario, in the order --help lists them.
std::span<const ScenarioInfo> scenarioTable();
/// The scenario of that name, or nothing.
std::optional<Scenario> scenarioNamed(QStringView name);
QString scenarioName(Scenario scenario);
QStringList scenarioNames();

} // namespace capwatch::demo
