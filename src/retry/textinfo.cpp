#include "textinfo.h"

#include <utility>

namespace capwatch::retry {

TextInfo::TextInfo(std::string &&text, const Rules &rules)
    : m_lower(std::move(text))
{
    lowerInPlace(m_lower);
    m_hits = scanPhrases(m_lower, rules);
}

const std::vector<NumberToken> &TextInfo::numbers() const
{
    if (!m_numbers)
        m_numbers = findNumbers(m_lower);
    return *m_numbers;
}

const std::optional<WaitHint> &TextInfo::waitHint(std::chrono::system_clock::time_point now) const
{
    if (!m_hintDone) {
        m_hint = findWaitHint(m_lower, now, &m_hits);
        m_hintDone = true;
    }
    return m_hint;
}

} // namespace capwatch::retry
