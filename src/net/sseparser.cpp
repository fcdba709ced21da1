#include "sseparser.h"

#include <cstring>
#include <utility>

namespace capwatch::net {

namespace {

constexpr QByteArrayView kBom("\xEF\xBB\xBF");

const char *findByte(const char *from, const char *to, char byte)
{
    // memchr is vectorised even in debug builds, which keeps a 20 MB stream in milliseconds.
    return static_cast<const char *>(std::memchr(from, byte, static_cast<size_t>(to - from)));
}

} // namespace

SseParser::SseParser(qsizetype maxEventBytes)
    : m_maxEventBytes(maxEventBytes)
{ }

bool SseParser::feed(QByteArrayView bytes, QList<SseEvent> &events)
{
    if (m_failed)
        return false;
    if (!m_bomChecked) {
        // The BOM may itself arrive split across feeds, so hold the first bytes until they
        // either complete it or stop matching it.
        const qsizetype take = std::min<qsizetype>(kBom.size() - m_bomProbe.size(), bytes.size());
        m_bomProbe.append(bytes.first(take));
        bytes = bytes.sliced(take);
        if (kBom.startsWith(m_bomProbe)) {
            if (m_bomProbe.size() < kBom.size())
                return true;
            m_bomProbe.clear();
            m_bomChecked = true;
        } else {
            m_bomChecked = true;
            const QByteArray head = std::exchange(m_bomProbe, {});
            if (!feedLines(head, events))
                return false;
        }
    }
    return feedLines(bytes, events);
}

bool SseParser::feedLines(QByteArrayView bytes, QList<SseEvent> &events)
{
    const char *p = bytes.data();
    const char *const end = p + bytes.size();
    if (m_skipLf && p < end) {
        if (*p == '\n')
            ++p;
        m_skipLf = false;
    }
    // The next LF is remembered across lines: searching for it afresh on every line would
    // rescan the rest of the chunk each time in a CR-only stream.
    const char *lf = nullptr;
    bool lfValid = false;
    while (p < end) {
        if (!lfValid || lf < p) {
            lf = findByte(p, end, '\n');
            if (!lf)
                lf = end;
            lfValid = true;
        }
        const char *cr = findByte(p, lf, '\r');
        const char *eol = cr ? cr : lf;
        if (m_line.size() + (eol - p) > m_maxEventBytes) {
            fail();
            return false;
        }
        if (eol == end) {
            m_line.append(p, end - p);
            return true;
        }
        bool ok;
        if (m_line.isEmpty()) {
            ok = processLine(QByteArrayView(p, eol), events);
        } else {
            m_line.append(p, eol - p);
            ok = processLine(m_line, events);
            m_line.clear();
        }
        if (!ok)
            return false;
        p = eol + 1;
        if (*eol == '\r') {
            if (p == end)
                m_skipLf = true;
            else if (*p == '\n')
                ++p;
        }
    }
    return true;
}

bool SseParser::processLine(QByteArrayView line, QList<SseEvent> &events)
{
    if (line.isEmpty()) {
        // Per spec an event without any data line is dropped, yet its id still counts.
        if (m_data.isEmpty()) {
            m_type.clear();
            return true;
        }
        m_data.chop(1);
        events.append(
            SseEvent { std::exchange(m_type, {}), std::exchange(m_data, {}), m_lastEventId });
        return true;
    }
    if (line.front() == ':')
        return true;

    QByteArrayView field = line;
    QByteArrayView value;
    if (const qsizetype colon = line.indexOf(':'); colon >= 0) {
        field = line.first(colon);
        value = line.sliced(colon + 1);
        if (value.startsWith(' '))
            value = value.sliced(1);
    }

    if (field == QByteArrayView("data")) {
        if (m_data.size() + value.size() + 1 + m_type.size() > m_maxEventBytes) {
            fail();
            return false;
        }
        if (m_data.isEmpty())
            m_data.reserve(value.size() + 1);
        m_data.append(value).append('\n');
    } else if (field == QByteArrayView("event")) {
        if (m_data.size() + value.size() > m_maxEventBytes) {
            fail();
            return false;
        }
        m_type = value.toByteArray();
    } else if (field == QByteArrayView("id")) {
        if (!value.contains('\0'))
            m_lastEventId = value.toByteArray();
    }
    // `retry:` and unknown fields are ignored: reconnection is the retry driver's decision.
    return true;
}

void SseParser::fail()
{
    m_failed = true;
    m_line.clear();
    m_data.clear();
    m_type.clear();
    m_bomProbe.clear();
}

bool SseParser::hasPendingData() const
{
    return !m_line.isEmpty() || !m_data.isEmpty() || !m_type.isEmpty() || !m_bomProbe.isEmpty();
}

bool SseParser::failed() const
{
    return m_failed;
}

void SseParser::reset()
{
    *this = SseParser(m_maxEventBytes);
}

} // namespace capwatch::net
