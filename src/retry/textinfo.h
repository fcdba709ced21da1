#pragma once

// One provider error text as the classifier's text rules (sections 2 and 6 of
// docs/retry-policy.md) see it.

#include "textscan.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace capwatch::retry {

/// One error text as the text rules see it: lower-cased, its phrases found in one pass, and
/// its numbers and wait phrase worked out once, when first asked for.
class TextInfo
{
public:
    /// Takes the text and lower-cases it in place (no copy of a 1 MiB text); its phrases are
    /// those of `rules`, which must outlive it.
    TextInfo(std::string &&text, const Rules &rules);

    const std::string &lower() const { return m_lower; }
    const PhraseHits &hits() const { return m_hits; }
    const std::vector<NumberToken> &numbers() const;
    const std::optional<WaitHint> &waitHint(std::chrono::system_clock::time_point now) const;

private:
    std::string m_lower;
    PhraseHits m_hits;
    mutable std::optional<std::vector<NumberToken>> m_numbers;
    mutable std::optional<WaitHint> m_hint;
    mutable bool m_hintDone = false;
};

} // namespace capwatch::retry
