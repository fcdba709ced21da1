#include "providerwindow.h"

// TEMPORARY (helper "net"): the few functions the chat client calls, until the retry helper's
// providerwindow.cpp is merged; replaced wholesale by that one.

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

namespace capwatch::retry {

namespace {

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(
        out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

std::optional<std::int64_t> count(std::string_view text)
{
    text = trimmed(text);
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || n < 0)
        return std::nullopt;
    return n;
}

} // namespace

std::optional<Millis> parseResetDuration(std::string_view text)
{
    text = trimmed(text);
    if (text.empty())
        return std::nullopt;
    double totalMs = 0;
    std::size_t i = 0;
    bool plain = true;
    while (i < text.size()) {
        std::size_t j = i;
        while (j < text.size()
            && (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == '.'))
            ++j;
        if (j == i)
            return std::nullopt;
        double value = 0;
        const auto [end, ec] = std::from_chars(text.data() + i, text.data() + j, value);
        if (ec != std::errc() || end != text.data() + j)
            return std::nullopt;
        std::size_t k = j;
        while (k < text.size() && std::isalpha(static_cast<unsigned char>(text[k])))
            ++k;
        const std::string_view unit = text.substr(j, k - j);
        double factor = 0;
        if (unit.empty() && i == 0 && k == text.size())
            factor = 1000;
        else if (unit == "h")
            factor = 3'600'000;
        else if (unit == "m")
            factor = 60'000;
        else if (unit == "s")
            factor = 1000;
        else if (unit == "ms")
            factor = 1;
        else if (unit == "us")
            factor = 0.001;
        else if (unit == "ns")
            factor = 0.000001;
        else
            return std::nullopt;
        plain = plain && unit.empty();
        totalMs += value * factor;
        i = k;
    }
    if (!std::isfinite(totalMs) || totalMs > 24.0 * 3'600'000)
        return std::nullopt;
    return Millis(static_cast<std::int64_t>(std::ceil(totalMs)));
}

WindowReport windowReportFrom(const Headers &headers)
{
    WindowReport r;
    const auto set = [](auto &field, auto value) {
        if (!field && value)
            field = value;
    };
    for (const auto &[name, value] : headers) {
        const std::string n = lower(trimmed(name));
        if (n == "x-ratelimit-limit-requests")
            set(r.limitRequests, count(value));
        else if (n == "x-ratelimit-limit-tokens")
            set(r.limitTokens, count(value));
        else if (n == "x-ratelimit-remaining-requests")
            set(r.remainingRequests, count(value));
        else if (n == "x-ratelimit-remaining-tokens")
            set(r.remainingTokens, count(value));
        else if (n == "x-ratelimit-reset-requests")
            set(r.resetRequests, parseResetDuration(value));
        else if (n == "x-ratelimit-reset-tokens")
            set(r.resetTokens, parseResetDuration(value));
    }
    return r;
}

UsageReport usageFrom(const nlohmann::json &object)
{
    UsageReport r;
    if (!object.is_object())
        return r;
    const auto it = object.find("usage");
    if (it == object.end() || !it->is_object())
        return r;
    const auto figure = [&](const char *key) -> std::optional<std::int64_t> {
        const auto f = it->find(key);
        if (f == it->end())
            return std::nullopt;
        if (f->is_number_unsigned()) {
            const auto n = f->get<std::uint64_t>();
            if (n <= (std::uint64_t(1) << 53))
                return std::int64_t(n);
        } else if (f->is_number_integer()) {
            const auto n = f->get<std::int64_t>();
            if (n >= 0)
                return n;
        }
        return std::nullopt;
    };
    r.promptTokens = figure("prompt_tokens");
    r.completionTokens = figure("completion_tokens");
    r.totalTokens = figure("total_tokens");
    return r;
}

UsageReport usageFromJson(std::string_view json)
{
    const nlohmann::json parsed = nlohmann::json::parse(json, nullptr, false);
    return parsed.is_discarded() ? UsageReport {} : usageFrom(parsed);
}

bool refusesStreamUsage(int status, std::string_view body)
{
    if (status != 400)
        return false;
    const std::string text = lower(body);
    return text.find("stream_options") != std::string::npos
        || text.find("include_usage") != std::string::npos;
}

std::optional<std::int64_t> contextWindowFrom(const Classification &classification)
{
    if (classification.category != Category::TooLarge || !classification.limit)
        return std::nullopt;
    if (lower(classification.errorText).find("context") == std::string::npos)
        return std::nullopt;
    return static_cast<std::int64_t>(*classification.limit);
}

} // namespace capwatch::retry
