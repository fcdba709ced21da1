#include "scenarios.h"

#include <algorithm>
#include <array>

namespace capwatch::demo {

namespace {

constexpr std::array kScenarios {
    ScenarioInfo { Scenario::Capped, u"capped",
        u"each request counts its prompt tokens (characters / 4) and max_tokens (1000 if absent) "
        u"against the cap per rolling window, as real providers do; "
        u"over it: 422 \"Token limit exceeded: used N, limit M. Retry in X sec.\"; over "
        u"--request-limit requests per window: 429" },
    ScenarioInfo { Scenario::Headline, u"headline",
        u"every request: 422 \"Token limit exceeded: used 60323, limit 60000. Retry in 18 min.\"" },
    ScenarioInfo { Scenario::RateLimited, u"rate-limited",
        u"requests 1 and 2 of every 3: 429 with retry-after: 2; the third succeeds" },
    ScenarioInfo { Scenario::AuthExpired, u"auth-expired",
        u"401 for the first key seen (or none), or for any key but the accepted one" },
    ScenarioInfo { Scenario::Validation, u"validation",
        u"every request: a 422 that is not a token limit ({\"detail\":[...]})" },
    ScenarioInfo { Scenario::Flaky, u"flaky",
        u"1: 503 with retry-after: 1; 2: the connection closes before any header; 3: success" },
    ScenarioInfo { Scenario::Hang, u"hang", u"the request is held and never answered" },
    ScenarioInfo { Scenario::DropMidStream, u"drop-mid-stream",
        u"a 200 whose stream (or body) is cut after a few chunks" },
    ScenarioInfo { Scenario::Firehose, u"firehose",
        u"a long answer in many chunks, as fast as the client reads" },
    ScenarioInfo {
        Scenario::Drip, u"drip", u"a short streamed answer whose bytes arrive one a second" },
    ScenarioInfo { Scenario::HugeError, u"huge-error",
        u"every request: a token-limit 422 whose body is 1.5 MiB (too large to classify)" },
    ScenarioInfo { Scenario::BadUtf8, u"bad-utf8",
        u"a streamed answer whose last chunks carry bytes that are not UTF-8" },
    ScenarioInfo { Scenario::HugeHeaders, u"huge-headers",
        u"1: the headline 422 after 100 KB of extra headers, retry-after: 1 last; 2, 3: success" },
    ScenarioInfo { Scenario::RedirectLoop, u"redirect-loop", u"every request: 307 to itself" },
    ScenarioInfo { Scenario::ErrorIn200, u"error-in-200",
        u"1: a 200 whose JSON body is a rate-limit error without choices; 2, 3: success" },
    ScenarioInfo { Scenario::ErrorInStream, u"error-in-stream",
        u"1: a 200 event stream whose first data event is an error; 2, 3: success" },
    ScenarioInfo { Scenario::Context, u"context",
        u"a request larger than the context window (--context-window, default 2000 tokens; "
        u"characters of every message / 4 + max_tokens or 1000): OpenAI's 400 "
        u"context_length_exceeded" },
    ScenarioInfo { Scenario::Billing, u"billing",
        u"every request: 402 \"Insufficient Balance\" (DeepSeek's shape)" },
    ScenarioInfo { Scenario::Reset, u"reset",
        u"from the first request until --reset-after S (default 180): 422 \"Token limit exceeded: "
        u"used 60323, limit 60000. Retry in N min.\" (N sec. under a minute) naming the time "
        u"left; then success" },
    ScenarioInfo { Scenario::Length, u"length",
        u"the whole answer in pieces of --max-answer N tokens (default 100, 4 characters each): "
        u"every response but the one that reaches its end stops with finish_reason \"length\"; "
        u"a continuation gets the rest, a few words back; --max-answer 0: an empty answer whose "
        u"output budget went to reasoning" },
    ScenarioInfo { Scenario::Drop, u"drop",
        u"a streamed answer's connection closes after --drop-after N bytes of its event stream "
        u"(default 680: a few words), or with --drop-with error an error event follows its first "
        u"words; a whole body is cut too; a continuation is answered in full" },
    ScenarioInfo { Scenario::Daily, u"daily",
        u"answers --requests-per-day N requests (default 5) per day of the demo's clock (86400 "
        u"s from its start, run --time-scale times as long); over it: 429 \"Rate limit exceeded: "
        u"free-models-per-day. ...\" (OpenRouter's words) until the next day; no response of it "
        u"carries an x-ratelimit-* or retry-after header" },
};

} // namespace

std::span<const ScenarioInfo> scenarioTable()
{
    return kScenarios;
}

std::optional<Scenario> scenarioNamed(QStringView name)
{
    const auto it = std::find_if(kScenarios.begin(), kScenarios.end(),
        [name](const ScenarioInfo &info) { return info.name == name; });
    if (it == kScenarios.end())
        return std::nullopt;
    return it->scenario;
}

QString scenarioName(Scenario scenario)
{
    const auto it = std::find_if(kScenarios.begin(), kScenarios.end(),
        [scenario](const ScenarioInfo &info) { return info.scenario == scenario; });
    return it == kScenarios.end() ? QString() : it->name.toString();
}

QStringList scenarioNames()
{
    QStringList names;
    names.reserve(qsizetype(kScenarios.size()));
    for (const ScenarioInfo &info : kScenarios)
        names.append(info.name.toString());
    return names;
}

} // namespace capwatch::demo
