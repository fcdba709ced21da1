#include "httpdate.h"

#include <array>
#include <cstdint>

namespace capwatch::retry {

namespace {

constexpr std::array<std::string_view, 12> kMonths { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
    "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
constexpr std::array<std::string_view, 7> kDays { "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun" };
constexpr std::array<std::string_view, 7> kLongDays { "Monday", "Tuesday", "Wednesday", "Thursday",
    "Friday", "Saturday", "Sunday" };

/// A tiny cursor over the text; every reader fails the whole parse by returning false.
class Cursor
{
public:
    explicit Cursor(std::string_view s)
        : m_s(s)
    { }

    bool literal(std::string_view what)
    {
        if (!m_s.substr(m_pos).starts_with(what))
            return false;
        m_pos += what.size();
        return true;
    }
    bool digits(int count, int *out)
    {
        int value = 0;
        for (int i = 0; i < count; ++i) {
            if (m_pos >= m_s.size() || m_s[m_pos] < '0' || m_s[m_pos] > '9')
                return false;
            value = value * 10 + (m_s[m_pos++] - '0');
        }
        *out = value;
        return true;
    }
    template<std::size_t N> bool oneOf(const std::array<std::string_view, N> &names, int *index)
    {
        for (std::size_t i = 0; i < N; ++i) {
            if (literal(names[i])) {
                *index = static_cast<int>(i);
                return true;
            }
        }
        return false;
    }
    bool atEnd() const { return m_pos == m_s.size(); }
    char peek() const { return m_pos < m_s.size() ? m_s[m_pos] : '\0'; }

private:
    std::string_view m_s;
    std::size_t m_pos = 0;
};

bool time(Cursor &c, int *h, int *m, int *s)
{
    return c.digits(2, h) && c.literal(":") && c.digits(2, m) && c.literal(":") && c.digits(2, s);
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

bool isLeap(int y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

std::optional<std::chrono::system_clock::time_point> build(
    int year, int month, int day, int h, int m, int s)
{
    static constexpr std::array<int, 12> kLengths { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30,
        31 };
    if (month < 1 || month > 12 || day < 1 || h > 23 || m > 59 || s > 60)
        return std::nullopt;
    const int length
        = kLengths[static_cast<std::size_t>(month - 1)] + (month == 2 && isLeap(year) ? 1 : 0);
    if (day > length)
        return std::nullopt;
    const std::int64_t days
        = daysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
    const std::int64_t seconds = days * 86400 + h * 3600 + m * 60 + s;
    // A date the clock cannot hold (libstdc++ counts nanoseconds: 1677 to 2262) saturates at
    // the clock's ends: converting it overflowed.
    using TimePoint = std::chrono::system_clock::time_point;
    constexpr std::int64_t kLast
        = std::chrono::duration_cast<std::chrono::seconds>(TimePoint::max().time_since_epoch())
              .count();
    constexpr std::int64_t kFirst
        = std::chrono::duration_cast<std::chrono::seconds>(TimePoint::min().time_since_epoch())
              .count();
    if (seconds >= kLast)
        return TimePoint::max();
    if (seconds <= kFirst)
        return TimePoint::min();
    return TimePoint(std::chrono::seconds(seconds));
}

std::optional<std::chrono::system_clock::time_point> imfFixdate(std::string_view text)
{
    Cursor c(text);
    int wd = 0, day = 0, mon = 0, year = 0, h = 0, m = 0, s = 0;
    if (c.oneOf(kDays, &wd) && c.literal(", ") && c.digits(2, &day) && c.literal(" ")
        && c.oneOf(kMonths, &mon) && c.literal(" ") && c.digits(4, &year) && c.literal(" ")
        && time(c, &h, &m, &s) && c.literal(" GMT") && c.atEnd())
        return build(year, mon + 1, day, h, m, s);
    return std::nullopt;
}

std::optional<std::chrono::system_clock::time_point> rfc850(std::string_view text)
{
    Cursor c(text);
    int wd = 0, day = 0, mon = 0, yy = 0, h = 0, m = 0, s = 0;
    if (c.oneOf(kLongDays, &wd) && c.literal(", ") && c.digits(2, &day) && c.literal("-")
        && c.oneOf(kMonths, &mon) && c.literal("-") && c.digits(2, &yy) && c.literal(" ")
        && time(c, &h, &m, &s) && c.literal(" GMT") && c.atEnd()) {
        // RFC 9110: a two-digit year more than 50 years in the future is in the past century.
        const int year = yy < 70 ? 2000 + yy : 1900 + yy;
        return build(year, mon + 1, day, h, m, s);
    }
    return std::nullopt;
}

std::optional<std::chrono::system_clock::time_point> asctime(std::string_view text)
{
    Cursor c(text);
    int wd = 0, day = 0, mon = 0, year = 0, h = 0, m = 0, s = 0;
    if (!(c.oneOf(kDays, &wd) && c.literal(" ") && c.oneOf(kMonths, &mon) && c.literal(" ")))
        return std::nullopt;
    if (c.peek() == ' ') {
        if (!(c.literal(" ") && c.digits(1, &day)))
            return std::nullopt;
    } else if (!c.digits(2, &day)) {
        return std::nullopt;
    }
    if (c.literal(" ") && time(c, &h, &m, &s) && c.literal(" ") && c.digits(4, &year) && c.atEnd())
        return build(year, mon + 1, day, h, m, s);
    return std::nullopt;
}

} // namespace

std::optional<std::chrono::system_clock::time_point> parseHttpDate(std::string_view text)
{
    if (auto t = imfFixdate(text))
        return t;
    if (auto t = rfc850(text))
        return t;
    return asctime(text);
}

} // namespace capwatch::retry
