#pragma once

// A strict, streaming JSON reader (RFC 8259, UTF-8) for error bodies: no document is built, the
// nesting depth only costs a byte per level, and strings are scanned in runs. It accepts what
// nlohmann::json::accept() accepts (a leading UTF-8 BOM included; the fuzzer compares the two),
// at a fraction of its cost on a 1 MiB body, with one exception: nlohmann takes a NUL byte
// between tokens for the end of the input (`{"error":"x"}\0junk` passes there); JSON has no
// NUL outside strings, so such a body is not JSON here.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace capwatch::retry {

class JsonHandler
{
public:
    virtual ~JsonHandler() = default;
    virtual void null() = 0;
    virtual void boolean(bool value) = 0;
    /// An integer that fits 64 bits (signed when negative), in canonical decimal.
    virtual void integer(std::string_view decimal) = 0;
    /// Any other number (a fraction, an exponent, or too large for 64 bits).
    virtual void number() = 0;
    /// The decoded string; the handler may move from it.
    virtual void string(std::string &value) = 0;
    virtual void key(std::string &name) = 0;
    virtual void startObject() = 0;
    virtual void endObject() = 0;
    virtual void startArray() = 0;
    virtual void endArray() = 0;

    /// While scanJson() runs: the offset of the first byte of the value or key being reported
    /// (a rules file names the line of each entry; a number's literal starts there).
    std::size_t tokenOffset() const { return m_tokenOffset ? *m_tokenOffset : 0; }
    /// Set by scanJson() to where it keeps that offset.
    void setTokenOffsetSource(const std::size_t *source) { m_tokenOffset = source; }

private:
    const std::size_t *m_tokenOffset = nullptr;
};

/// Reads `text` as one JSON value (white space around it allowed), calling `handler` for each
/// event. Returns false at the first error; the events before it have been delivered, and
/// `errorOffset` (when given) is where the scan stopped.
bool scanJson(std::string_view text, JsonHandler &handler, std::size_t *errorOffset = nullptr);

} // namespace capwatch::retry
