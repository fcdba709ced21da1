#include "tokenwindow.h"

namespace capwatch::demo {

TokenWindow::TokenWindow(qint64 limit, double windowMs)
    : m_limit(limit)
    , m_windowMs(windowMs)
{ }

void TokenWindow::expire(double nowMs)
{
    while (!m_entries.empty() && m_entries.front().atMs + m_windowMs <= nowMs) {
        m_used -= m_entries.front().tokens;
        m_entries.pop_front();
    }
}

qint64 TokenWindow::usedWith(double nowMs, qint64 tokens)
{
    expire(nowMs);
    return m_used + tokens;
}

void TokenWindow::admit(double nowMs, qint64 tokens)
{
    expire(nowMs);
    m_entries.push_back({ nowMs, tokens });
    m_used += tokens;
}

double TokenWindow::msUntilFits(double nowMs, qint64 tokens)
{
    expire(nowMs);
    qint64 remaining = m_used;
    if (remaining + tokens <= m_limit)
        return 0;
    // The oldest entries leave first: the request fits once enough of them have.
    for (const Entry &entry : m_entries) {
        remaining -= entry.tokens;
        if (remaining + tokens <= m_limit)
            return entry.atMs + m_windowMs - nowMs;
    }
    return m_windowMs;
}

double TokenWindow::msUntilEmpty(double nowMs)
{
    expire(nowMs);
    return m_entries.empty() ? 0 : m_entries.back().atMs + m_windowMs - nowMs;
}

qint64 TokenWindow::remaining(double nowMs)
{
    expire(nowMs);
    return m_used >= m_limit ? 0 : m_limit - m_used;
}

void TokenWindow::clear()
{
    m_entries.clear();
    m_used = 0;
}

} // namespace capwatch::demo
