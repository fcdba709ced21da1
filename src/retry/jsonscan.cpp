#include "jsonscan.h"

#include "textscan_p.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <system_error>
#include <vector>

namespace capwatch::retry {

namespace {

constexpr bool isWs(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

void appendUtf8(std::string &out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

class Scanner
{
public:
    Scanner(std::string_view s, JsonHandler &h)
        : m_s(s)
        , m_h(h)
    { }

    bool scan(std::size_t *errorOffset);

private:
    bool run()
    {
        m_h.setTokenOffsetSource(&m_token);
        if (m_s.starts_with("\xEF\xBB\xBF"))
            m_i = 3;
        else if (!m_s.empty() && static_cast<unsigned char>(m_s[0]) == 0xEF)
            return false; // a broken BOM
        enum class State
        {
            Value,
            ArrayValueOrEnd,
            ObjectKeyOrEnd,
            ObjectKey,
            AfterValue
        };
        State st = State::Value;
        for (;;) {
            skipWs();
            switch (st) {
            case State::ArrayValueOrEnd:
                if (peek() == ']') {
                    ++m_i;
                    m_stack.pop_back();
                    m_h.endArray();
                    st = State::AfterValue;
                    break;
                }
                [[fallthrough]];
            case State::Value:
                if (!value(st))
                    return false;
                break;
            case State::ObjectKeyOrEnd:
                if (peek() == '}') {
                    ++m_i;
                    m_stack.pop_back();
                    m_h.endObject();
                    st = State::AfterValue;
                    break;
                }
                [[fallthrough]];
            case State::ObjectKey:
                m_token = m_i;
                if (peek() != '"' || !string())
                    return false;
                m_h.key(m_buffer);
                skipWs();
                if (peek() != ':')
                    return false;
                ++m_i;
                st = State::Value;
                break;
            case State::AfterValue:
                if (m_stack.empty())
                    return m_i == m_s.size();
                if (peek() == ',') {
                    ++m_i;
                    st = m_stack.back() == kObject ? State::ObjectKey : State::Value;
                } else if (m_stack.back() == kObject && peek() == '}') {
                    ++m_i;
                    m_stack.pop_back();
                    m_h.endObject();
                } else if (m_stack.back() == kArray && peek() == ']') {
                    ++m_i;
                    m_stack.pop_back();
                    m_h.endArray();
                } else {
                    return false;
                }
                break;
            }
        }
    }

private:
    static constexpr char kObject = 'o';
    static constexpr char kArray = 'a';

    char peek() const { return m_i < m_s.size() ? m_s[m_i] : '\0'; }

    void skipWs()
    {
        while (m_i < m_s.size() && isWs(m_s[m_i]))
            ++m_i;
    }

    template<typename State> bool value(State &st)
    {
        m_token = m_i;
        if (m_i >= m_s.size())
            return false;
        const char c = m_s[m_i];
        if (c == '{') {
            ++m_i;
            m_stack.push_back(kObject);
            m_h.startObject();
            st = State::ObjectKeyOrEnd;
            return true;
        }
        if (c == '[') {
            ++m_i;
            m_stack.push_back(kArray);
            m_h.startArray();
            st = State::ArrayValueOrEnd;
            return true;
        }
        st = State::AfterValue;
        if (c == '"') {
            if (!string())
                return false;
            m_h.string(m_buffer);
            return true;
        }
        if (c == '-' || detail::isDigit(c))
            return number();
        if (m_s.substr(m_i).starts_with("true")) {
            m_i += 4;
            m_h.boolean(true);
            return true;
        }
        if (m_s.substr(m_i).starts_with("false")) {
            m_i += 5;
            m_h.boolean(false);
            return true;
        }
        if (m_s.substr(m_i).starts_with("null")) {
            m_i += 4;
            m_h.null();
            return true;
        }
        return false;
    }

    bool number()
    {
        const std::size_t begin = m_i;
        const bool negative = peek() == '-';
        if (negative)
            ++m_i;
        if (peek() == '0') {
            ++m_i;
        } else if (detail::isDigit(peek())) {
            while (detail::isDigit(peek()))
                ++m_i;
        } else {
            return false;
        }
        const std::size_t intEnd = m_i;
        bool integral = true;
        if (peek() == '.') {
            ++m_i;
            if (!detail::isDigit(peek()))
                return false;
            while (detail::isDigit(peek()))
                ++m_i;
            integral = false;
        }
        if (peek() == 'e' || peek() == 'E') {
            ++m_i;
            if (peek() == '+' || peek() == '-')
                ++m_i;
            if (!detail::isDigit(peek()))
                return false;
            while (detail::isDigit(peek()))
                ++m_i;
            integral = false;
        }
        if (!integral) {
            if (overflows(m_s.substr(begin, m_i - begin)))
                return false;
            m_h.number();
            return true;
        }
        // As nlohmann::json reads it: int64 when negative, uint64 otherwise, else a float.
        const std::string_view digits
            = m_s.substr(begin + (negative ? 1 : 0), intEnd - begin - (negative ? 1 : 0));
        std::uint64_t v = 0;
        const std::uint64_t max = negative ? (std::uint64_t(1) << 63) : ~std::uint64_t(0);
        for (const char d : digits) {
            const auto digit = static_cast<std::uint64_t>(d - '0');
            if (v > (max - digit) / 10) {
                if (overflows(m_s.substr(begin, m_i - begin)))
                    return false;
                m_h.number();
                return true;
            }
            v = v * 10 + digit;
        }
        std::string decimal = (negative && v != 0 ? "-" : "") + std::to_string(v);
        m_h.integer(decimal);
        return true;
    }

    /// A number literal (valid JSON) too large for a double: nlohmann::json rejects it
    /// ("number overflow"); one that underflows to 0 or a subnormal is fine.
    static bool overflows(std::string_view literal)
    {
        double value = 0;
        const auto [end, ec]
            = std::from_chars(literal.data(), literal.data() + literal.size(), value);
        (void)end;
        if (ec != std::errc::result_out_of_range)
            return false;
        // Out of range either way: too large when the first significant digit stands at a
        // positive power of ten.
        std::size_t i = literal.starts_with('-') ? 1 : 0;
        long long magnitude = 0;
        bool significant = false;
        for (; i < literal.size() && detail::isDigit(literal[i]); ++i) {
            significant = significant || literal[i] != '0';
            if (significant)
                ++magnitude;
        }
        if (i < literal.size() && literal[i] == '.') {
            for (++i; i < literal.size() && detail::isDigit(literal[i]); ++i) {
                if (significant)
                    continue;
                if (literal[i] != '0')
                    significant = true;
                else
                    --magnitude;
            }
        }
        long long exponent = 0;
        if (i < literal.size() && (literal[i] == 'e' || literal[i] == 'E')) {
            ++i;
            const bool negative = i < literal.size() && literal[i] == '-';
            if (i < literal.size() && (literal[i] == '-' || literal[i] == '+'))
                ++i;
            for (; i < literal.size(); ++i)
                exponent = std::min(exponent * 10 + (literal[i] - '0'), 1'000'000'000LL);
            if (negative)
                exponent = -exponent;
        }
        return magnitude + exponent > 0;
    }

    /// The string at m_i (at its opening quote), decoded into m_buffer.
    bool string()
    {
        ++m_i;
        const std::size_t begin = m_i;
        m_buffer.clear();
        const std::size_t n = m_s.size();
        bool reserved = false;
        for (;;) {
            // A run of plain characters (ASCII and valid UTF-8), appended at once.
            const std::size_t runBegin = m_i;
            while (m_i < n) {
                m_i = plainAsciiEnd(m_i);
                if (m_i >= n)
                    break;
                const auto c = static_cast<unsigned char>(m_s[m_i]);
                if (c >= 0x80) {
                    const std::size_t len = utf8Length(m_i);
                    if (len == 0)
                        break;
                    m_i += len;
                    continue;
                }
                if (c < 0x20 || c == '"' || c == '\\')
                    break;
                ++m_i;
            }
            m_buffer.append(m_s.data() + runBegin, m_i - runBegin);
            if (m_i >= n)
                return false;
            const auto c = static_cast<unsigned char>(m_s[m_i]);
            if (c == '"') {
                ++m_i;
                return true;
            }
            if (c < 0x20)
                return false;
            if (c == '\\') {
                // Decoded, the string is no longer than it is here: room for that at once, so
                // that a long text with escapes is not copied as it grows (a 1 MiB one was
                // copied into 2 MiB, fresh pages each time).
                if (!reserved)
                    m_buffer.reserve(closingQuote(begin) - begin);
                reserved = true;
                if (!escape())
                    return false;
                continue;
            }
            return false; // invalid UTF-8
        }
    }

    /// The offset of the quote that ends the string whose text starts at `begin`, or the end
    /// of the input: the first quote after an even run of backslashes (an odd one escapes it).
    std::size_t closingQuote(std::size_t begin) const
    {
        for (std::size_t from = begin; from < m_s.size();) {
            const void *hit = std::memchr(m_s.data() + from, '"', m_s.size() - from);
            if (!hit)
                break;
            const auto quote
                = static_cast<std::size_t>(static_cast<const char *>(hit) - m_s.data());
            std::size_t run = quote;
            while (run > begin && m_s[run - 1] == '\\')
                --run;
            if ((quote - run) % 2 == 0)
                return quote;
            from = quote + 1;
        }
        return m_s.size();
    }

    /// The first byte at or after i that is not plain ASCII inside a string (a control
    /// character, a quote, a backslash or a byte from 0x80 up), or the end. With SSE2 16 bytes
    /// are tested at once (the byte loop alone was 7% of classifying a 1 MiB stream).
    std::size_t plainAsciiEnd(std::size_t i) const
    {
        const auto plain
            = [](unsigned char c) { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\'; };
        // A text in another script stops at almost every byte: no block test then.
        if (i < m_s.size() && !plain(static_cast<unsigned char>(m_s[i])))
            return i;
#if defined(__SSE2__)
        using namespace detail;
        // Signed compares: bytes from 0x80 up are negative, below 0x20.
        const __m128i space = _mm_set1_epi8(0x20);
        const __m128i quote = _mm_set1_epi8('"');
        const __m128i backslash = _mm_set1_epi8('\\');
        for (; i + 16 <= m_s.size(); i += 16) {
            const __m128i v = load16(m_s.data() + i);
            const unsigned stop = maskOf(_mm_or_si128(_mm_cmplt_epi8(v, space),
                _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash))));
            if (stop != 0)
                return i + std::size_t(std::countr_zero(stop));
        }
#endif
        while (i < m_s.size() && plain(static_cast<unsigned char>(m_s[i])))
            ++i;
        return i;
    }

    /// The length of the valid UTF-8 sequence at i (RFC 3629), or 0.
    std::size_t utf8Length(std::size_t i) const
    {
        const auto at = [&](std::size_t k) {
            return i + k < m_s.size() ? static_cast<unsigned char>(m_s[i + k]) : 0u;
        };
        const unsigned c = at(0);
        const auto cont
            = [](unsigned b, unsigned lo = 0x80, unsigned hi = 0xBF) { return b >= lo && b <= hi; };
        if (c >= 0xC2 && c <= 0xDF)
            return cont(at(1)) ? 2 : 0;
        if (c == 0xE0)
            return cont(at(1), 0xA0) && cont(at(2)) ? 3 : 0;
        if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF)
            return cont(at(1)) && cont(at(2)) ? 3 : 0;
        if (c == 0xED)
            return cont(at(1), 0x80, 0x9F) && cont(at(2)) ? 3 : 0;
        if (c == 0xF0)
            return cont(at(1), 0x90) && cont(at(2)) && cont(at(3)) ? 4 : 0;
        if (c >= 0xF1 && c <= 0xF3)
            return cont(at(1)) && cont(at(2)) && cont(at(3)) ? 4 : 0;
        if (c == 0xF4)
            return cont(at(1), 0x80, 0x8F) && cont(at(2)) && cont(at(3)) ? 4 : 0;
        return 0;
    }

    /// Four hex digits at m_i.
    int hex4()
    {
        if (m_i + 4 > m_s.size())
            return -1;
        int v = 0;
        for (int k = 0; k < 4; ++k) {
            const int h = hexValue(m_s[m_i + std::size_t(k)]);
            if (h < 0)
                return -1;
            v = v * 16 + h;
        }
        m_i += 4;
        return v;
    }

    bool escape()
    {
        ++m_i; // the backslash
        if (m_i >= m_s.size())
            return false;
        const char e = m_s[m_i++];
        switch (e) {
        case '"':
            m_buffer += '"';
            return true;
        case '\\':
            m_buffer += '\\';
            return true;
        case '/':
            m_buffer += '/';
            return true;
        case 'b':
            m_buffer += '\b';
            return true;
        case 'f':
            m_buffer += '\f';
            return true;
        case 'n':
            m_buffer += '\n';
            return true;
        case 'r':
            m_buffer += '\r';
            return true;
        case 't':
            m_buffer += '\t';
            return true;
        case 'u':
            break;
        default:
            return false;
        }
        const int first = hex4();
        if (first < 0)
            return false;
        std::uint32_t cp = std::uint32_t(first);
        if (cp >= 0xDC00 && cp <= 0xDFFF)
            return false; // a low surrogate alone
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (!m_s.substr(m_i).starts_with("\\u"))
                return false;
            m_i += 2;
            const int second = hex4();
            if (second < 0xDC00 || second > 0xDFFF)
                return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (std::uint32_t(second) - 0xDC00);
        }
        appendUtf8(m_buffer, cp);
        return true;
    }

    std::string_view m_s;
    JsonHandler &m_h;
    std::size_t m_i = 0;
    std::size_t m_token = 0; ///< JsonHandler::tokenOffset()
    std::vector<char> m_stack;
    std::string m_buffer;
};

} // namespace

bool Scanner::scan(std::size_t *errorOffset)
{
    const bool ok = run();
    m_h.setTokenOffsetSource(nullptr);
    if (!ok && errorOffset)
        *errorOffset = std::min(m_i, m_s.size());
    return ok;
}

bool scanJson(std::string_view text, JsonHandler &handler, std::size_t *errorOffset)
{
    return Scanner(text, handler).scan(errorOffset);
}

} // namespace capwatch::retry
