#pragma once

// The reason phrases of HTTP statuses, for the texts that name a status: "422 Unprocessable
// Entity".

#include <string_view>

namespace capwatch::retry {

/// The reason phrase of an HTTP status ("Unprocessable Entity"), or empty when unknown.
std::string_view statusText(int status);

} // namespace capwatch::retry
