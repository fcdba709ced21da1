#pragma once

// The invariants fuzz_explain_args checks on what `capwatch-cli explain` answered, shared with
// tests/net/tst_fuzzregressions.cpp (which runs the real program): exit code 0 with one JSON line
// (or the help) and nothing on stderr, or exit code 2 with an error on stderr and nothing on
// stdout; the JSON holds the same invariants as the classification.

#include <QByteArray>
#include <algorithm>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace capwatch::fuzz {

inline std::string explainViolation(int exitCode, const QByteArray &out, const QByteArray &err)
{
    if (exitCode == 2) {
        if (!out.isEmpty())
            return "exit code 2 with output on stdout";
        if (!err.startsWith("capwatch-cli explain: error: ")
            || !err.endsWith("Try 'capwatch-cli explain --help'.\n"))
            return "exit code 2 without the argument error message";
        return {};
    }
    if (exitCode != 0)
        return "exit code " + std::to_string(exitCode);
    if (!err.isEmpty())
        return "exit code 0 with output on stderr";
    if (out.startsWith("Usage: capwatch-cli explain "))
        return {};
    if (!out.endsWith('\n') || out.count('\n') != 1)
        return "not exactly one line of output";

    const auto json = nlohmann::ordered_json::parse(
        std::string_view(out.constData(), std::size_t(out.size())), nullptr, false);
    if (json.is_discarded() || !json.is_object())
        return "output is not a JSON object";
    static const char *const keys[] = { "category", "retryable", "used", "limit", "wait_s",
        "raw_wait_s", "wait_source", "reason", "rule" };
    std::size_t k = 0;
    for (const auto &item : json.items()) {
        if (k >= std::size(keys) || item.key() != keys[k])
            return "unexpected key '" + item.key() + "'";
        ++k;
    }
    if (k != std::size(keys))
        return "missing keys";

    const auto &category = json["category"];
    if (!category.is_string())
        return "category is not a string";
    const std::string cat = category.get<std::string>();
    const bool known = cat == "success" || cat == "token_limit" || cat == "rate_limit"
        || cat == "transient" || cat == "auth" || cat == "too_large" || cat == "billing"
        || cat == "fatal";
    if (!known)
        return "unknown category '" + cat + "'";
    if (!json["retryable"].is_boolean())
        return "retryable is not a boolean";
    const bool retryable = json["retryable"].get<bool>();
    if (retryable
        != (cat == "token_limit" || cat == "rate_limit" || cat == "transient" || cat == "auth"))
        return "retryable disagrees with the category";
    const auto &wait = json["wait_s"];
    const auto &raw = json["raw_wait_s"];
    if (wait.is_null() != raw.is_null() || wait.is_null() != json["wait_source"].is_null())
        return "wait_s, raw_wait_s and wait_source are not null together";
    if (retryable && wait.is_null())
        return "retryable without a wait";
    if (!wait.is_null()) {
        if (!wait.is_number() || !raw.is_number())
            return "wait_s or raw_wait_s is not a number";
        const double w = wait.get<double>();
        const double rw = raw.get<double>();
        if (!(w >= 0 && w <= 60))
            return "wait_s " + std::to_string(w) + " outside 0..60";
        if (!(rw >= w))
            return "raw_wait_s below wait_s";
    }
    if ((cat == "too_large" || cat == "billing") && !wait.is_null())
        return cat + " with a wait";
    if (!json["wait_source"].is_null()) {
        static const char *const sources[] = { "retry-after", "retry-after-ms", "retry-delay",
            "message", "ratelimit-reset", "backoff", "credential-refresh" };
        const auto &source = json["wait_source"];
        if (!source.is_string()
            || std::find(std::begin(sources), std::end(sources), source.get<std::string>())
                == std::end(sources))
            return "unknown wait_source";
    }
    if ((!json["used"].is_null() || !json["limit"].is_null()) && cat != "token_limit"
        && cat != "rate_limit" && cat != "too_large")
        return "used/limit outside token_limit, rate_limit and too_large";
    if (cat == "rate_limit" && json["used"].is_null() != json["limit"].is_null())
        return "a rate limit with only one of used and limit";
    if (!json["reason"].is_string() || json["reason"].get<std::string>().empty())
        return "no reason";
    // Issue 28: the rule that decided, built-in or a user's file and line.
    if (!json["rule"].is_string() || json["rule"].get<std::string>().empty())
        return "no rule";
    return {};
}

} // namespace capwatch::fuzz
