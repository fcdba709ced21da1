#pragma once

#include <chrono>
#include <optional>
#include <string_view>

namespace capwatch::retry {

/// Parses an HTTP-date (RFC 9110 section 5.6.7): the IMF-fixdate form
/// `Sun, 06 Nov 1994 08:49:37 GMT` and the two obsolete forms recipients must accept
/// (RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT` and asctime `Sun Nov  6 08:49:37 1994`).
std::optional<std::chrono::system_clock::time_point> parseHttpDate(std::string_view text);

} // namespace capwatch::retry
