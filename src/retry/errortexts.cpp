#include "errortexts.h"

#include "jsonscan.h"
#include "textscan.h"

#include <cstdint>
#include <cstring>

namespace capwatch::retry {

namespace {

/// Where the parser is: only these places hold members the policy reads.
enum class Frame : std::uint8_t
{
    Top, ///< the top-level object
    Error, ///< the object at `error`
    Metadata, ///< the object at `error.metadata`
    Details, ///< the array at `error.details`
    DetailItem, ///< an object inside `error.details`
    TopArray, ///< a top-level array, before its first element
    Other, ///< anywhere else
};

class FieldsSax final : public JsonHandler
{
public:
    explicit FieldsSax(ErrorFields &out)
        : m_out(out)
    { }

    void null() override { valueStarts(Value::Null); }
    void boolean(bool val) override { valueStarts(val ? Value::Other : Value::False); }
    void number() override { valueStarts(Value::Other); }
    void string(std::string &val) override
    {
        if (m_stack.empty()) {
            m_out.shape = ErrorFields::Shape::String;
            m_out.bodyString = std::move(val);
            return;
        }
        valueStarts(Value::Other);
        if (std::string *slot = stringSlot())
            *slot = std::move(val);
        else if (std::optional<std::string> *opt = optionalStringSlot())
            *opt = std::move(val);
        else if (std::optional<JsonScalar> *scalar = scalarSlot())
            *scalar = JsonScalar { std::move(val), JsonScalar::Kind::String };
    }
    void startObject() override
    {
        if (m_stack.empty() || m_stack.back() == Frame::TopArray) {
            // The body, or the first element of a body that is an array.
            m_out.shape = ErrorFields::Shape::Object;
            if (!m_stack.empty()) {
                m_stack.back() = Frame::Other;
                m_out.inArray = true;
            }
            m_stack.push_back(Frame::Top);
            return;
        }
        valueStarts(Value::Other);
        const Frame parent = m_stack.back();
        Frame child = Frame::Other;
        if (parent == Frame::Top && m_key == "error")
            child = Frame::Error;
        else if (parent == Frame::Error && m_key == "metadata")
            child = Frame::Metadata;
        else if (parent == Frame::Details)
            child = Frame::DetailItem;
        m_stack.push_back(child);
        m_key.clear();
    }
    void startArray() override
    {
        if (m_stack.empty()) {
            m_out.shape = ErrorFields::Shape::Other;
            m_stack.push_back(Frame::TopArray);
            return;
        }
        valueStarts(Value::Other);
        const bool details = m_stack.back() == Frame::Error && m_key == "details";
        m_stack.push_back(details ? Frame::Details : Frame::Other);
        m_key.clear();
    }
    void endObject() override { end(); }
    void endArray() override { end(); }
    void key(std::string &val) override
    {
        // Keys of objects nobody reads are not kept: a 1 MiB body of them stays cheap.
        if (m_stack.back() != Frame::Other)
            m_key.swap(val);
    }
    void integer(std::string_view decimal) override
    {
        if (m_stack.empty()) {
            m_out.shape = ErrorFields::Shape::Other;
            return;
        }
        valueStarts(Value::Other);
        if (std::optional<JsonScalar> *scalar = scalarSlot())
            *scalar = JsonScalar { std::string(decimal), JsonScalar::Kind::Integer };
        else if (m_stack.back() == Frame::Error && m_out.errorIntegers.size() < 32)
            m_out.errorIntegers.emplace_back(m_key, std::string(decimal));
    }

private:
    void end()
    {
        m_stack.pop_back();
        m_key.clear();
    }

    enum class Value
    {
        Null,
        False,
        Other
    };

    /// A new value begins at the current key: what an earlier duplicate of the key left is
    /// dropped. `error: null` and `error: false` are no error; `choices: null` is no choices.
    void valueStarts(Value v)
    {
        if (m_stack.empty()) {
            m_out.shape = ErrorFields::Shape::Other;
            return;
        }
        switch (m_stack.back()) {
        case Frame::Top:
            if (m_key == "error") {
                m_out.error.reset();
                m_out.errorMessage.reset();
                m_out.metadataRaw.reset();
                m_out.errorCode.reset();
                m_out.errorIntegers.clear();
                m_out.errorStatus.reset();
                m_out.errorType.reset();
                m_out.retryDelays.clear();
                m_out.hasError = v == Value::Other;
            } else if (m_key == "choices") {
                m_out.hasChoices = v != Value::Null;
            } else if (std::optional<std::string> *opt = optionalStringSlot()) {
                opt->reset();
            } else if (std::optional<JsonScalar> *scalar = scalarSlot()) {
                scalar->reset();
            }
            break;
        case Frame::Error:
            if (m_key == "metadata")
                m_out.metadataRaw.reset();
            else if (m_key == "details")
                m_out.retryDelays.clear();
            else if (std::optional<std::string> *opt = optionalStringSlot())
                opt->reset();
            else if (std::optional<JsonScalar> *scalar = scalarSlot())
                scalar->reset();
            break;
        case Frame::Metadata:
            if (m_key == "raw")
                m_out.metadataRaw.reset();
            break;
        case Frame::TopArray:
            m_stack.back() = Frame::Other; // an array whose first element is no object
            break;
        case Frame::Details:
        case Frame::DetailItem:
        case Frame::Other:
            break;
        }
    }

    std::string *stringSlot()
    {
        if (m_stack.back() == Frame::DetailItem && m_key == "retryDelay")
            return &m_out.retryDelays.emplace_back();
        return nullptr;
    }

    std::optional<std::string> *optionalStringSlot()
    {
        switch (m_stack.back()) {
        case Frame::Top:
            if (m_key == "error")
                return &m_out.error;
            if (m_key == "message")
                return &m_out.message;
            if (m_key == "detail")
                return &m_out.detail;
            return nullptr;
        case Frame::Error:
            return m_key == "message" ? &m_out.errorMessage : nullptr;
        case Frame::Metadata:
            return m_key == "raw" ? &m_out.metadataRaw : nullptr;
        default:
            return nullptr;
        }
    }

    std::optional<JsonScalar> *scalarSlot()
    {
        switch (m_stack.back()) {
        case Frame::Top:
            if (m_key == "status")
                return &m_out.status;
            if (m_key == "code")
                return &m_out.code;
            if (m_key == "type")
                return &m_out.type;
            if (m_key == "error_type")
                return &m_out.errorTypeTop;
            return nullptr;
        case Frame::Error:
            if (m_key == "code")
                return &m_out.errorCode;
            if (m_key == "status")
                return &m_out.errorStatus;
            if (m_key == "type")
                return &m_out.errorType;
            return nullptr;
        default:
            return nullptr;
        }
    }

    ErrorFields &m_out;
    std::vector<Frame> m_stack;
    std::string m_key;
};

/// Only a string that starts like an object is parsed again (gateways double-encode errors).
bool looksLikeObject(std::string_view s)
{
    for (const char c : s) {
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
            continue;
        return c == '{';
    }
    return false;
}

void addOwnTexts(
    ErrorFields &f, std::vector<std::string> &texts, std::vector<bool> &encoded, bool decodeNested)
{
    for (std::optional<std::string> *t :
        { &f.error, &f.errorMessage, &f.message, &f.detail, &f.metadataRaw }) {
        if (!t->has_value())
            continue;
        std::optional<ErrorFields> inner;
        if (decodeNested && looksLikeObject(**t)) {
            inner = readErrorFields(**t);
            if (inner->shape != ErrorFields::Shape::Object)
                inner.reset();
        }
        texts.push_back(std::move(**t));
        encoded.push_back(false);
        if (inner) {
            const std::size_t at = texts.size() - 1;
            addOwnTexts(*inner, texts, encoded, false);
            encoded[at] = texts.size() > at + 1;
        }
    }
}

/// The first `c` in `s[from, to)`, or `to`.
std::size_t findByte(std::string_view s, char c, std::size_t from, std::size_t to)
{
    if (from >= to)
        return to; // memchr is not for an empty range (its pointer may be null)
    const void *hit = std::memchr(s.data() + from, c, to - from);
    return hit ? std::size_t(static_cast<const char *>(hit) - s.data()) : to;
}

std::optional<int> statusIn(const std::optional<JsonScalar> &v)
{
    if (!v)
        return std::nullopt;
    // An integer's decimal text or a string: exactly three digits either way.
    const std::string &t = v->text;
    if (t.size() != 3)
        return std::nullopt;
    for (const char c : t) {
        if (c < '0' || c > '9')
            return std::nullopt;
    }
    const int value = (t[0] - '0') * 100 + (t[1] - '0') * 10 + (t[2] - '0');
    if (value < 400 || value > 599)
        return std::nullopt;
    return value;
}

} // namespace

ErrorFields readErrorFields(std::string_view json)
{
    ErrorFields out;
    FieldsSax sax(out);
    if (!scanJson(json, sax))
        return ErrorFields {};
    return out;
}

bool isValidUtf8(std::string_view s)
{
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t len = 0;
        std::uint32_t cp = 0;
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            cp = c & 0x07;
        } else {
            return false;
        }
        if (i + len > s.size())
            return false;
        for (std::size_t k = 1; k < len; ++k) {
            const auto cc = static_cast<unsigned char>(s[i + k]);
            if ((cc & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (cc & 0x3F);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF
            || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += len;
    }
    return true;
}

ErrorTexts collectErrorTexts(std::string_view body)
{
    return textsFromFields(readErrorFields(body), body);
}

ErrorTexts textsFromFields(ErrorFields &&f, std::string_view body)
{
    ErrorTexts out;
    switch (f.shape) {
    case ErrorFields::Shape::Object:
        // The strict 422 rule (section 2) still needs the body itself to be the object.
        out.jsonObject = !f.inArray;
        out.hasStrictText = !f.inArray && (f.error || f.errorMessage); // put first below
        for (const std::optional<JsonScalar> *c :
            { &f.errorCode, &f.errorType, &f.code, &f.type, &f.errorTypeTop }) {
            if (c->has_value())
                out.codes.push_back(asciiLower((*c)->text));
        }
        out.retryDelays = std::move(f.retryDelays);
        out.errorIntegers = std::move(f.errorIntegers);
        addOwnTexts(f, out.texts, out.encodesObject, true);
        break;
    case ErrorFields::Shape::String:
        out.texts.push_back(std::move(*f.bodyString));
        break;
    case ErrorFields::Shape::Other:
        break;
    case ErrorFields::Shape::NotJson:
        if (isValidUtf8(body))
            out.texts.emplace_back(body);
        break;
    }
    out.encodesObject.resize(out.texts.size(), false);
    return out;
}

std::optional<int> statusInFields(const ErrorFields &f)
{
    for (const std::optional<JsonScalar> *v :
        { &f.status, &f.errorCode, &f.errorStatus, &f.code }) {
        if (const auto s = statusIn(*v))
            return *s;
    }
    return std::nullopt;
}

int statusWithoutField(const std::vector<std::string> &texts, const Rules &rules)
{
    for (const std::string &t : texts) {
        if (saysOverloaded(scanPhrases(lowerCase(t), rules)))
            return rules.set().embeddedOverloadedStatus;
    }
    return rules.set().embeddedDefaultStatus;
}

int effectiveStatus(const ErrorFields &f, const std::vector<std::string> &texts, const Rules &rules)
{
    if (const auto s = statusInFields(f))
        return *s;
    return statusWithoutField(texts, rules);
}

std::optional<std::string> firstStreamEventData(std::string_view s)
{
    if (s.starts_with("\xEF\xBB\xBF"))
        s.remove_prefix(3);
    std::string data;
    bool hasData = false;
    std::size_t i = 0;
    // Lines end at `\n`, `\r` or both, found with memchr (a byte loop was 5% of classifying a
    // 1 MiB stream whose first event is one line). The next `\n` is kept: a stream of `\r`
    // lines does not search for it again at each line.
    std::size_t newline = findByte(s, '\n', 0, s.size());
    while (i < s.size()) {
        if (newline < i)
            newline = findByte(s, '\n', i, s.size());
        const std::size_t e = findByte(s, '\r', i, newline);
        const std::string_view line = s.substr(i, e - i);
        i = e;
        if (i < s.size())
            i += (s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n') ? 2 : 1;
        if (line.empty()) {
            if (hasData)
                return data;
            continue;
        }
        if (line.front() == ':')
            continue;
        const std::size_t colon = line.find(':');
        const std::string_view field = line.substr(0, colon);
        if (field != "data")
            continue;
        std::string_view value
            = colon == std::string_view::npos ? std::string_view() : line.substr(colon + 1);
        if (value.starts_with(' '))
            value.remove_prefix(1);
        if (hasData)
            data += '\n';
        data += value;
        hasData = true;
    }
    if (hasData)
        return data;
    return std::nullopt;
}

} // namespace capwatch::retry
