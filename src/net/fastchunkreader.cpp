#include "fastchunkreader_p.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>
#include <utility>

namespace capwatch::net::detail {

namespace {

/// Reads the common chunk shape straight from the bytes, without building a DOM: a DOM parse
/// per chunk (nlohmann's lexer copies strings byte by byte, twice) cost ~95% of a fast stream's
/// CPU. It accepts exactly the JSON that nlohmann accepts (RFC 8259, well-formed UTF-8, paired
/// surrogates, finite numbers) and gives up on anything it cannot decode with certainty the way
/// decodeStreamEventGeneral would: errors, content parts, non-integer figures, duplicate or
/// escaped keys, deep nesting, every kind of malformed data. The general path then decides, so
/// callers never see which path ran.
class FastChunkReader final
{
public:
    explicit FastChunkReader(QByteArrayView data)
        : m_p(data.data())
        , m_end(data.data() + data.size())
    { }

    /// True when `update` holds the complete result; false: use the general path.
    bool read(ChatStreamUpdate &update)
    {
        if (!at('{'))
            return false;
        bool seenChoices = false;
        bool choicesArray = false;
        bool seenUsage = false;
        bool seenError = false;
        const bool ok = object([&](QByteArrayView key) {
            if (is(key, "choices")) {
                if (std::exchange(seenChoices, true))
                    return false;
                if (literal("null"))
                    return true;
                choicesArray = true;
                return choices(update);
            }
            if (is(key, "usage")) {
                if (std::exchange(seenUsage, true))
                    return false;
                return at('{') ? usage(update) : skipValue(1); // null or not an object: none
            }
            if (is(key, "error")) {
                if (std::exchange(seenError, true))
                    return false;
                return literal("null");
            }
            return skipValue(1);
        });
        skipWhitespace();
        // Neither choices nor usage: "not a chunk", which the general path words.
        return ok && m_p == m_end && (choicesArray || seenUsage);
    }

private:
    static constexpr int kMaxDepth = 64;
    /// The largest usage figure retry::usageFrom() takes: 2^53.
    static constexpr qint64 kMaxUsageFigure = qint64(1) << 53;

    struct Choice
    {
        bool hasIndex = false;
        bool indexIsZero = false;
        QString text;
        QString finishReason;
    };

    /// Bytes that may stand for themselves in a JSON string (ASCII, no control, `"` or `\`).
    static constexpr std::array<bool, 256> kPlain = [] {
        std::array<bool, 256> table {};
        for (int c = 0x20; c < 0x80; ++c)
            table[size_t(c)] = c != '"' && c != '\\';
        return table;
    }();

    bool at(char c) const { return m_p < m_end && *m_p == c; }

    /// Size first, then memcmp: QByteArrayView's == goes through an out-of-line call per key.
    template<size_t N> static bool is(QByteArrayView key, const char (&name)[N])
    {
        return key.size() == qsizetype(N - 1) && std::memcmp(key.data(), name, N - 1) == 0;
    }

    /// True when none of the eight bytes in `w` needs a closer look in a string: all ASCII,
    /// no control character, no quote, no backslash (bit tricks from "Bit Twiddling Hacks":
    /// each test is exact about whether any byte matches).
    static bool allPlain(quint64 w)
    {
        constexpr quint64 kOnes = 0x0101010101010101ULL;
        constexpr quint64 kHighs = 0x8080808080808080ULL;
        const auto hasZero = [](quint64 v) { return (v - kOnes) & ~v; };
        const quint64 below0x20 = (w - kOnes * 0x20) & ~w;
        return ((w | hasZero(w ^ (kOnes * '"')) | hasZero(w ^ (kOnes * '\\')) | below0x20) & kHighs)
            == 0;
    }

    /// Past the string bytes that stand for themselves, eight at a time while it can.
    void skipPlain()
    {
        while (m_end - m_p >= 8) {
            quint64 w;
            std::memcpy(&w, m_p, 8);
            if (!allPlain(w))
                break;
            m_p += 8;
        }
        while (m_p < m_end && kPlain[uchar(*m_p)])
            ++m_p;
    }

    void skipWhitespace()
    {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }

    bool literal(QByteArrayView word)
    {
        if (m_end - m_p < word.size() || QByteArrayView(m_p, word.size()) != word)
            return false;
        m_p += word.size();
        return true;
    }

    /// An object at m_p; `member(key)` is called with m_p on each value and must consume it.
    /// Escaped keys give up, at any depth: they might spell a key that matters, and they are
    /// too rare to be worth telling the depths apart.
    template<typename Member> bool object(Member &&member)
    {
        ++m_p;
        skipWhitespace();
        if (at('}')) {
            ++m_p;
            return true;
        }
        for (;;) {
            skipWhitespace();
            if (!at('"'))
                return false;
            ++m_p;
            QByteArrayView key;
            bool escaped = false;
            if (!string(&key, &escaped, nullptr) || escaped)
                return false;
            skipWhitespace();
            if (!at(':'))
                return false;
            ++m_p;
            skipWhitespace();
            if (!member(key))
                return false;
            skipWhitespace();
            if (at(',')) {
                ++m_p;
                continue;
            }
            if (at('}')) {
                ++m_p;
                return true;
            }
            return false;
        }
    }

    bool choices(ChatStreamUpdate &update)
    {
        if (!at('['))
            return false; // "not an array": the general path words it
        ++m_p;
        skipWhitespace();
        if (at(']')) {
            ++m_p;
            return true;
        }
        // As firstChoice(): the first choice with index 0, else the first without an index.
        std::optional<Choice> zero;
        std::optional<Choice> unindexed;
        for (;;) {
            skipWhitespace();
            if (!at('{'))
                return false;
            Choice c;
            if (!choice(c))
                return false;
            if (c.hasIndex) {
                if (c.indexIsZero && !zero)
                    zero = std::move(c);
            } else if (!unindexed) {
                unindexed = std::move(c);
            }
            skipWhitespace();
            if (at(',')) {
                ++m_p;
                continue;
            }
            if (!at(']'))
                return false;
            ++m_p;
            break;
        }
        if (Choice *picked = zero ? &*zero : unindexed ? &*unindexed : nullptr) {
            update.text = std::move(picked->text);
            update.finishReason = std::move(picked->finishReason);
        }
        return true;
    }

    bool choice(Choice &c)
    {
        bool seenIndex = false;
        bool seenDelta = false;
        bool seenFinish = false;
        return object([&](QByteArrayView key) {
            if (is(key, "index")) {
                if (std::exchange(seenIndex, true))
                    return false;
                if (literal("null"))
                    return true;
                c.hasIndex = true;
                if (at('-') || (m_p < m_end && *m_p >= '0' && *m_p <= '9')) {
                    std::optional<qint64> value;
                    if (!number(&value) || !value)
                        return false; // a fractional index: leave the comparison to nlohmann
                    c.indexIsZero = *value == 0;
                    return true;
                }
                return skipValue(2); // not a number: never index 0
            }
            if (is(key, "delta")) {
                if (std::exchange(seenDelta, true))
                    return false;
                return at('{') ? delta(c) : skipValue(2);
            }
            if (is(key, "finish_reason")) {
                if (std::exchange(seenFinish, true))
                    return false;
                return at('"') ? text(&c.finishReason) : skipValue(2);
            }
            return skipValue(2);
        });
    }

    bool delta(Choice &c)
    {
        bool seenContent = false;
        return object([&](QByteArrayView key) {
            if (is(key, "content")) {
                if (std::exchange(seenContent, true) || at('['))
                    return false; // content parts are rare: the general path joins them
                return at('"') ? text(&c.text) : skipValue(3);
            }
            return skipValue(3);
        });
    }

    bool usage(ChatStreamUpdate &update)
    {
        Usage u;
        std::array<bool, 6> seen {};
        const std::array<qint64 *, 3> figures { &u.promptTokens, &u.completionTokens,
            &u.totalTokens };
        const bool ok = object([&](QByteArrayView key) {
            const int i = is(key, "prompt_tokens")     ? 0
                : is(key, "completion_tokens")         ? 1
                : is(key, "total_tokens")              ? 2
                : is(key, "prompt_tokens_details")     ? 3
                : is(key, "completion_tokens_details") ? 4
                : is(key, "cost")                      ? 5
                                                       : -1;
            if (i < 0)
                return skipValue(2);
            if (std::exchange(seen[size_t(i)], true))
                return false;
            if (i == 3)
                return details(&u.cachedTokens, "cached_tokens");
            if (i == 4)
                return details(&u.reasoningTokens, "reasoning_tokens");
            if (i == 5)
                return cost(&u.cost);
            return figure(figures[size_t(i)], 2);
        });
        if (ok)
            update.usage = u;
        return ok;
    }

    /// A whole figure at m_p as retry::usageFrom() takes it into `out` (left -1 when the value
    /// is not a number: null, a string...).
    bool figure(qint64 *out, int depth)
    {
        if (at('-') || (m_p < m_end && *m_p >= '0' && *m_p <= '9')) {
            std::optional<qint64> value;
            // Fractional, negative or huge figures: retry::usageFrom() rules on them.
            if (!number(&value) || !value || *value < 0 || *value > kMaxUsageFigure)
                return false;
            *out = *value;
            return true;
        }
        return skipValue(depth); // null, a string...: not reported
    }

    /// A details object of usage at m_p, whose member `name` is the figure kept in `out`.
    template<size_t N> bool details(qint64 *out, const char (&name)[N])
    {
        if (!at('{'))
            return skipValue(2); // null, an array...: not reported
        bool seenFigure = false;
        return object([&](QByteArrayView key) {
            if (!is(key, name))
                return skipValue(3);
            if (std::exchange(seenFigure, true))
                return false;
            return figure(out, 3);
        });
    }

    /// OpenRouter's `cost` at m_p: a finite number not below 0, whole or not.
    bool cost(std::optional<double> *out)
    {
        if (!at('-') && !(m_p < m_end && *m_p >= '0' && *m_p <= '9'))
            return skipValue(2); // null, a string...: not reported
        const char *const start = m_p;
        std::optional<qint64> whole;
        if (!number(&whole))
            return false;
        *out = retry::usageCost(std::string_view(start, size_t(m_p - start)));
        return true;
    }

    /// A string value at m_p (on its opening quote), decoded as the general path does.
    bool text(QString *out)
    {
        ++m_p;
        QByteArrayView raw;
        bool escaped = false;
        if (!string(&raw, &escaped, &m_scratch))
            return false;
        // The same conversion as QString::fromStdString() on nlohmann's unescaped bytes.
        *out = QString::fromUtf8(escaped ? QByteArrayView(m_scratch) : raw);
        return true;
    }

    /// The rest of a string whose opening quote was consumed. `raw`: the bytes between the
    /// quotes. When `unescaped` is given and the string had escapes, it receives the unescaped
    /// UTF-8.
    bool string(QByteArrayView *raw, bool *escaped, QByteArray *unescaped)
    {
        const char *const start = m_p;
        const char *run = m_p;
        *escaped = false;
        for (;;) {
            skipPlain();
            if (m_p == m_end)
                return false;
            const auto c = uchar(*m_p);
            if (c == '"') {
                *raw = QByteArrayView(start, m_p);
                if (*escaped && unescaped)
                    unescaped->append(run, m_p - run);
                ++m_p;
                return true;
            }
            if (c < 0x20)
                return false;
            if (c == '\\') {
                if (unescaped) {
                    if (!*escaped)
                        unescaped->clear();
                    unescaped->append(run, m_p - run);
                }
                *escaped = true;
                if (!escape(unescaped))
                    return false;
                run = m_p;
                continue;
            }
            if (!utf8Sequence())
                return false;
        }
    }

    /// A well-formed UTF-8 sequence of 2 to 4 bytes at m_p (Unicode table 3-7, as nlohmann
    /// checks it: no overlongs, no encoded surrogates, nothing above U+10FFFF).
    bool utf8Sequence()
    {
        const auto byte = [this](qsizetype i) { return uchar(m_p[i]); };
        const auto inRange = [](uchar b, uchar lo, uchar hi) { return b >= lo && b <= hi; };
        const uchar lead = byte(0);
        const qsizetype left = m_end - m_p;
        qsizetype length = 0;
        uchar lo = 0x80;
        uchar hi = 0xBF;
        if (inRange(lead, 0xC2, 0xDF)) {
            length = 2;
        } else if (inRange(lead, 0xE0, 0xEF)) {
            length = 3;
            lo = lead == 0xE0 ? 0xA0 : 0x80;
            hi = lead == 0xED ? 0x9F : 0xBF;
        } else if (inRange(lead, 0xF0, 0xF4)) {
            length = 4;
            lo = lead == 0xF0 ? 0x90 : 0x80;
            hi = lead == 0xF4 ? 0x8F : 0xBF;
        } else {
            return false;
        }
        if (left < length || !inRange(byte(1), lo, hi))
            return false;
        for (qsizetype i = 2; i < length; ++i) {
            if (!inRange(byte(i), 0x80, 0xBF))
                return false;
        }
        m_p += length;
        return true;
    }

    /// An escape at m_p (on its backslash); its UTF-8 is appended to `out` when given.
    bool escape(QByteArray *out)
    {
        ++m_p;
        if (m_p == m_end)
            return false;
        char plain = 0;
        switch (*m_p++) {
        case '"':
            plain = '"';
            break;
        case '\\':
            plain = '\\';
            break;
        case '/':
            plain = '/';
            break;
        case 'b':
            plain = '\b';
            break;
        case 'f':
            plain = '\f';
            break;
        case 'n':
            plain = '\n';
            break;
        case 'r':
            plain = '\r';
            break;
        case 't':
            plain = '\t';
            break;
        case 'u': {
            char32_t cp = 0;
            if (!hex4(&cp))
                return false;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                char32_t low = 0;
                if (!literal("\\u") || !hex4(&low) || low < 0xDC00 || low > 0xDFFF)
                    return false;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                return false;
            }
            if (out)
                appendUtf8(out, cp);
            return true;
        }
        default:
            return false;
        }
        if (out)
            out->append(plain);
        return true;
    }

    bool hex4(char32_t *value)
    {
        if (m_end - m_p < 4)
            return false;
        for (int i = 0; i < 4; ++i) {
            const char c = *m_p++;
            char32_t digit;
            if (c >= '0' && c <= '9')
                digit = char32_t(c - '0');
            else if (c >= 'a' && c <= 'f')
                digit = char32_t(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                digit = char32_t(c - 'A' + 10);
            else
                return false;
            *value = *value << 4 | digit;
        }
        return true;
    }

    static void appendUtf8(QByteArray *out, char32_t cp)
    {
        if (cp < 0x80) {
            out->append(char(cp));
        } else if (cp < 0x800) {
            out->append(char(0xC0 | (cp >> 6)));
            out->append(char(0x80 | (cp & 0x3F)));
        } else if (cp < 0x10000) {
            out->append(char(0xE0 | (cp >> 12)));
            out->append(char(0x80 | ((cp >> 6) & 0x3F)));
            out->append(char(0x80 | (cp & 0x3F)));
        } else {
            out->append(char(0xF0 | (cp >> 18)));
            out->append(char(0x80 | ((cp >> 12) & 0x3F)));
            out->append(char(0x80 | ((cp >> 6) & 0x3F)));
            out->append(char(0x80 | (cp & 0x3F)));
        }
    }

    /// A number at m_p. `integer` receives its value when it is an integer of at most 18
    /// digits (longer ones may become floats in nlohmann); fractions and exponents are only
    /// checked to be finite doubles, as nlohmann requires.
    bool number(std::optional<qint64> *integer)
    {
        const auto isDigit = [this] { return m_p < m_end && *m_p >= '0' && *m_p <= '9'; };
        const char *const start = m_p;
        const bool negative = at('-');
        if (negative)
            ++m_p;
        const char *const digits = m_p;
        if (at('0')) {
            ++m_p;
        } else if (isDigit()) {
            while (isDigit())
                ++m_p;
        } else {
            return false;
        }
        const char *const digitsEnd = m_p;
        bool isInteger = true;
        if (at('.')) {
            ++m_p;
            if (!isDigit())
                return false;
            while (isDigit())
                ++m_p;
            isInteger = false;
        }
        if (at('e') || at('E')) {
            ++m_p;
            if (at('+') || at('-'))
                ++m_p;
            if (!isDigit())
                return false;
            while (isDigit())
                ++m_p;
            isInteger = false;
        }
        if (isInteger) {
            if (digitsEnd - digits > 18)
                return false;
            qint64 value = 0;
            for (const char *d = digits; d < digitsEnd; ++d)
                value = value * 10 + (*d - '0');
            *integer = negative ? -value : value;
            return true;
        }
        double value = 0;
        const auto [end, error] = std::from_chars(start, m_p, value);
        return error == std::errc() && end == m_p && std::isfinite(value);
    }

    /// Any value at m_p, checked but not kept.
    bool skipValue(int depth)
    {
        if (depth > kMaxDepth || m_p == m_end)
            return false;
        switch (*m_p) {
        case '{':
            return object([&](QByteArrayView) { return skipValue(depth + 1); });
        case '[':
            ++m_p;
            skipWhitespace();
            if (at(']')) {
                ++m_p;
                return true;
            }
            for (;;) {
                skipWhitespace();
                if (!skipValue(depth + 1))
                    return false;
                skipWhitespace();
                if (at(',')) {
                    ++m_p;
                    continue;
                }
                if (!at(']'))
                    return false;
                ++m_p;
                return true;
            }
        case '"': {
            ++m_p;
            QByteArrayView raw;
            bool escaped = false;
            return string(&raw, &escaped, nullptr);
        }
        case 't':
            return literal("true");
        case 'f':
            return literal("false");
        case 'n':
            return literal("null");
        default: {
            std::optional<qint64> ignored;
            return number(&ignored);
        }
        }
    }

    const char *m_p;
    const char *const m_end;
    QByteArray m_scratch; ///< unescaped bytes of the string being decoded
};
} // namespace

bool readCommonChunk(QByteArrayView data, ChatStreamUpdate &update)
{
    return FastChunkReader(data).read(update);
}

} // namespace capwatch::net::detail
