#include "answerend.h"

#include <algorithm>
#include <array>

namespace capwatch::retry {

namespace {

bool isSeamSpace(char16_t c)
{
    return c == u' ' || c == u'\t' || c == u'\n' || c == u'\r' || c == u'\f' || c == u'\v'
        || c == 0x00A0 || c == 0x3000;
}

bool equalsAsciiCaseless(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
        if (lower(a[i]) != lower(b[i]))
            return false;
    }
    return true;
}

} // namespace

std::string_view nameOf(AnswerEnd end)
{
    switch (end) {
    case AnswerEnd::None:
        break;
    case AnswerEnd::Complete:
        return "complete";
    case AnswerEnd::CutOff:
        return "cut_off";
    case AnswerEnd::Interrupted:
        return "interrupted";
    case AnswerEnd::Empty:
        return "empty";
    }
    return {};
}

AnswerEnd answerEndFromName(std::string_view name)
{
    for (AnswerEnd e :
        { AnswerEnd::Complete, AnswerEnd::CutOff, AnswerEnd::Interrupted, AnswerEnd::Empty }) {
        if (name == nameOf(e))
            return e;
    }
    return AnswerEnd::None;
}

bool isOutputLimit(std::string_view finishReason)
{
    static constexpr std::array<std::string_view, 4> kLimits { "length", "max_tokens",
        "max_output_tokens", "model_length" };
    for (std::string_view limit : kLimits) {
        if (equalsAsciiCaseless(finishReason, limit))
            return true;
    }
    return false;
}

AnswerEnd answerEndOf(const AnswerEndInput &in)
{
    if (in.answerChars > 0 && in.broken)
        return AnswerEnd::Interrupted;
    if (!in.answered)
        return AnswerEnd::None;
    if (in.answerChars <= 0)
        return AnswerEnd::Empty;
    return isOutputLimit(in.finishReason) ? AnswerEnd::CutOff : AnswerEnd::Complete;
}

std::size_t seamOverlap(std::u16string_view partial, std::u16string_view continuation)
{
    // Whitespace the continuation starts with before it repeats anything goes with the repeat.
    std::size_t lead = 0;
    while (lead < continuation.size() && isSeamSpace(continuation[lead]))
        ++lead;
    const std::u16string_view rest = continuation.substr(lead);
    const std::size_t most = std::min({ kMaxSeamOverlap, partial.size(), rest.size() });
    for (std::size_t n = most; n >= kMinSeamOverlap; --n) {
        const std::size_t from = partial.size() - n;
        if (from > 0 && !isSeamSpace(partial[from - 1]))
            continue; // not a word's start
        if (isSeamSpace(partial[from]))
            continue; // the repeat starts with the word, not the space before it
        if (partial.substr(from) != rest.substr(0, n))
            continue;
        const char16_t last = rest[n - 1];
        if (last >= 0xD800 && last <= 0xDBFF)
            continue; // never half a character
        return lead + n;
    }
    return 0;
}

} // namespace capwatch::retry
