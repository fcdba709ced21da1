#pragma once

// Section 6.2 of the retry policy: where the error texts and error codes of a response come
// from, read in one streaming pass over the body (no document is built, so any nesting depth is
// flat and fast). Also the pieces of section 6.6 that read a body: the effective status of an
// error inside a 2xx, and the first data event of an event stream.

#include "rules.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capwatch::retry {

/// A member that can hold an error code or a status: a string, or an integer in decimal.
struct JsonScalar
{
    enum class Kind
    {
        String,
        Integer
    };
    std::string text;
    Kind kind = Kind::String;
};

/// The members of one JSON value that the policy reads. Later duplicate keys replace earlier
/// ones, as a JSON document would.
struct ErrorFields
{
    enum class Shape
    {
        NotJson,
        Object,
        String,
        Other
    };
    Shape shape = Shape::NotJson;
    bool inArray = false; ///< the object is the first element of an array body
    std::optional<std::string> error; ///< `error` when it is a string
    std::optional<std::string> errorMessage; ///< `error.message` when a string
    std::optional<std::string> message; ///< top-level `message` when a string
    std::optional<std::string> detail; ///< top-level `detail` when a string
    std::optional<std::string> metadataRaw; ///< `error.metadata.raw` when a string
    std::optional<std::string> bodyString; ///< the whole value, when it is a JSON string
    bool hasError = false; ///< an `error` member that is neither null nor false
    bool hasChoices = false; ///< a `choices` member that is not null
    std::optional<JsonScalar> status; ///< top-level `status`
    std::optional<JsonScalar> errorCode; ///< `error.code`
    std::optional<JsonScalar> errorStatus; ///< `error.status`
    std::optional<JsonScalar> errorType; ///< `error.type`
    std::optional<JsonScalar> code; ///< top-level `code`
    std::optional<JsonScalar> type; ///< top-level `type`
    std::optional<JsonScalar> errorTypeTop; ///< top-level `error_type`
    std::vector<std::string> retryDelays; ///< `retryDelay` strings of `error.details[]` objects
    /// Integer members of `error` (name, decimal), at most 32: llama.cpp's `n_prompt_tokens`.
    std::vector<std::pair<std::string, std::string>> errorIntegers;
};

/// Reads the fields of `json`; shape NotJson when it does not parse (strictly, in full). A JSON
/// array is read as its first element when that is an object (Google's stream endpoints answer
/// `[{"error": ...}]`; revision 3), else its shape is Other.
ErrorFields readErrorFields(std::string_view json);

struct ErrorTexts
{
    bool jsonObject = false; ///< the body is a JSON object
    /// Section 2, step 3: `texts.front()` is `error` (a string) or else `error.message` of a
    /// JSON object, the only text the strict 422 rule reads.
    bool hasStrictText = false;
    /// Section 6.2, in its order, original case: `error`, `error.message`, `message`,
    /// `detail`, `error.metadata.raw` (each followed by the texts of a JSON object it encodes,
    /// one level deep); or the JSON-string body; or the plain-text UTF-8 body.
    std::vector<std::string> texts;
    /// Per text: it is itself a JSON object whose error texts follow it (a double-encoded
    /// upstream error): the rules read those, not its JSON (revision 3).
    std::vector<bool> encodesObject;
    /// `error.code`, `error.type`, `code`, `type`, `error_type`, lower-cased (ASCII).
    std::vector<std::string> codes;
    std::vector<std::string> retryDelays; ///< `error.details[].retryDelay`, in order
    std::vector<std::pair<std::string, std::string>> errorIntegers; ///< see ErrorFields
};

/// The error texts and codes of a response body. The caller enforces the size limit.
ErrorTexts collectErrorTexts(std::string_view body);
/// The same from fields already read (moved from: the texts are not copied).
ErrorTexts textsFromFields(ErrorFields &&fields, std::string_view body);

/// Strict UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF).
bool isValidUtf8(std::string_view bytes);

/// Section 6.6: the first integer from 400 to 599 (or string of three such digits) among
/// `status`, `error.code`, `error.status`, `code`; else 500 when an error text says
/// `overloaded`, else 400.
int effectiveStatus(const ErrorFields &fields, const std::vector<std::string> &texts,
    const Rules &rules = Rules::builtinRules());
/// The status part of effectiveStatus(): nullopt when no member holds one.
std::optional<int> statusInFields(const ErrorFields &fields);
/// The fallback part: 500 when an error text says `overloaded`, else 400.
int statusWithoutField(
    const std::vector<std::string> &texts, const Rules &rules = Rules::builtinRules());

/// The data of the first event of an event stream that has data (`data:` lines joined with
/// `\n`), or nullopt when the stream has none. The end of the text ends a pending event.
std::optional<std::string> firstStreamEventData(std::string_view stream);

} // namespace capwatch::retry
