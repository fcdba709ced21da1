#pragma once

// How an answer ended (issue 29, docs/interfaces.md "How an answer ended"): complete, cut off at
// the provider's output limit, interrupted after its first words, or empty. Decided once, when
// the send ends, from what the provider said (its finish reason) and what came (the characters
// of the answer, whether the stream broke); stored with the answer, shown under it, logged and
// exported. And where a continuation of a cut-off answer overlaps the text before it.

#include <cstdint>
#include <optional>
#include <string_view>

namespace capwatch::retry {

enum class AnswerEnd
{
    None, ///< no answer began (a refusal, a network error before the first word)
    Complete,
    CutOff, ///< the finish reason says the output limit ("length", "max_tokens", ...)
    /// The stream dropped, timed out or carried an error after content, or the user stopped it:
    /// what came is kept, and never sent again by itself.
    Interrupted,
    Empty, ///< answered with no content at all
};

/// complete, cut_off, interrupted, empty; empty text for None.
std::string_view nameOf(AnswerEnd end);
/// The reverse of nameOf(); None for an unknown or empty name.
AnswerEnd answerEndFromName(std::string_view name);

/// A finish reason that means the provider's output limit: `length` (OpenAI and most
/// compatible providers), `max_tokens` (Anthropic's, also through gateways),
/// `max_output_tokens`, `model_length`; any case.
bool isOutputLimit(std::string_view finishReason);

struct AnswerEndInput
{
    bool answered = false; ///< the send succeeded (its answer ended as the provider meant)
    /// An answer had begun and then the stream broke, timed out or carried an error, or the
    /// user stopped it.
    bool broken = false;
    std::string_view finishReason;
    std::int64_t answerChars = 0; ///< characters of answer text that came
};

AnswerEnd answerEndOf(const AnswerEndInput &in);

/// Whether Continue may follow an answer that ended so: cut off or interrupted.
inline bool continuable(AnswerEnd end)
{
    return end == AnswerEnd::CutOff || end == AnswerEnd::Interrupted;
}

/// The characters at the start of `continuation` that repeat the end of `partial` (a model
/// asked to go on often says the last words again): the longest such overlap of at least
/// kMinSeamOverlap characters, at most kMaxSeamOverlap, that starts in `partial` at a word's
/// start (after whitespace, or at its very start) and does not end inside a surrogate pair; 0
/// when there is none. Whitespace at the start of `continuation` before the repeat is part of it.
inline constexpr std::size_t kMinSeamOverlap = 4;
inline constexpr std::size_t kMaxSeamOverlap = 400;
std::size_t seamOverlap(std::u16string_view partial, std::u16string_view continuation);

} // namespace capwatch::retry
