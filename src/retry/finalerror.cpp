#include "finalerror.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace capwatch::retry {

std::string cutText(std::string_view text, std::size_t maxChars)
{
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        // Count code points by their lead bytes, so a cut never splits a character.
        if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80)
            continue;
        if (chars == maxChars)
            return std::string(text.substr(0, i)) + "\u2026";
        ++chars;
    }
    return std::string(text);
}

std::string formatSeconds(Millis ms)
{
    const long long v = ms.count();
    const long long whole = v / 1000;
    long long frac = v % 1000;
    std::string out;
    if (v < 0 && whole == 0)
        out.push_back('-');
    out.append(std::to_string(whole));
    if (frac != 0) {
        if (frac < 0)
            frac = -frac;
        char buf[8];
        std::snprintf(buf, sizeof buf, ".%03lld", frac);
        std::string f(buf);
        while (f.back() == '0')
            f.pop_back();
        out += f;
    }
    return out;
}

namespace {

/// A token figure: 4097, 2.5.
std::string figureText(double v)
{
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        return std::to_string(static_cast<long long>(v));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

} // namespace

std::optional<std::string> failureHint(
    Category category, std::optional<double> used, std::optional<double> limit)
{
    if (category == Category::Billing)
        return std::string("the provider says the account is out of credit");
    if (category != Category::TooLarge)
        return std::nullopt;
    std::string figures;
    if (limit)
        figures = "limit " + figureText(*limit);
    if (used)
        figures += (figures.empty() ? "" : ", ") + std::string("requested ") + figureText(*used);
    return "the request is larger than the model accepts"
        + (figures.empty() ? std::string() : " (" + figures + ")") + ": shorten the conversation";
}

std::string finalErrorText(const FailureReport &r)
{
    std::string out = "OpenAI-compatible chat request failed\n";
    out += "  endpoint: " + r.endpoint + "\n";
    out += "  model: " + r.model + "\n";
    out += "  auth: " + (r.authSource.empty() ? std::string("none") : r.authSource) + "\n";
    if (r.status > 0) {
        const std::string_view phrase = statusText(r.status);
        out += "  status: " + std::to_string(r.status)
            + (phrase.empty() ? std::string() : " " + std::string(phrase)) + "\n";
        out += "  response: "
            + (r.responseBody.empty() ? std::string("(empty)")
                                      : cutText(r.responseBody, kMaxShownResponseChars))
            + "\n";
        if (const auto hint = failureHint(r.category, r.used, r.limit))
            out += "  hint: " + *hint + "\n";
    } else {
        out += "  status: no response\n";
        out += "  error: "
            + (r.networkError.empty() ? std::string("unknown network error")
                                      : cutText(r.networkError, kMaxShownResponseChars))
            + "\n";
    }
    char waited[32];
    std::snprintf(waited, sizeof waited, "%.1f", static_cast<double>(r.waited.count()) / 1000.0);
    // One vocabulary for a send everywhere (issue 25.6): the panel's "Attempt 3 of 5", the CLI's
    // "attempt 3 of 5 failed", the timeline and the log count attempts, so this line does too.
    const int made = std::max(1, r.attempts);
    // A budget of 0 s allows no retry at all, whatever the attempts (section 9).
    const int allowed = r.budget > Millis(0) ? std::max(1, r.maxAttempts) : 1;
    out += "  attempts: " + std::to_string(made) + " of " + std::to_string(std::max(made, allowed))
        + ", waited " + waited + " s of the " + formatSeconds(r.budget) + " s budget; "
        + (r.reason == EndReason::Cancelled ? std::string("cancelled")
                                            : "gave up: " + std::string(nameOf(r.reason)));
    return out;
}

} // namespace capwatch::retry
