#include "chatstream.h"

#include "fastchunkreader_p.h"
#include "retry/providerwindow.h"

#include <QStringDecoder>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

namespace capwatch::net {

namespace {

using nlohmann::json;

bool isValidUtf8(QByteArrayView bytes)
{
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString ignored = decoder.decode(bytes);
    Q_UNUSED(ignored);
    return !decoder.hasError();
}

/// Parses without letting an exception out; `what` names the payload in the description.
/// The description never quotes the input: nlohmann's own message does ("last read: ..."),
/// so it is not used.
std::optional<json> parseJson(QByteArrayView bytes, const QString &what, QString *why)
{
    if (bytes.trimmed().isEmpty()) {
        *why = QStringLiteral("%1 is empty").arg(what);
        return std::nullopt;
    }
    try {
        return json::parse(bytes.begin(), bytes.end());
    } catch (const json::parse_error &e) {
        if (isValidUtf8(bytes)) {
            *why = QStringLiteral("%1 is not valid JSON (error at byte %2)")
                       .arg(what)
                       .arg(static_cast<qulonglong>(e.byte));
            return std::nullopt;
        }
    } catch (const std::exception &) {
        *why = QStringLiteral("%1 could not be parsed").arg(what);
        return std::nullopt;
    }
    // nlohmann rejects ill-formed UTF-8 inside strings. Rather than lose the whole event, each
    // ill-formed sequence becomes U+FFFD (as a browser shows it) and the rest is kept.
    const QByteArray repaired = QString::fromUtf8(bytes).toUtf8();
    try {
        return json::parse(repaired.begin(), repaired.end());
    } catch (const json::parse_error &) {
        *why = QStringLiteral("%1 is not valid UTF-8 nor JSON").arg(what);
    } catch (const std::exception &) {
        *why = QStringLiteral("%1 could not be parsed").arg(what);
    }
    return std::nullopt;
}

QString toQString(const json &value)
{
    if (!value.is_string())
        return {};
    return QString::fromStdString(value.get_ref<const std::string &>());
}

const json *member(const json &object, const char *key)
{
    if (!object.is_object())
        return nullptr;
    const auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
}

QString stringMember(const json &object, const char *key)
{
    const json *value = member(object, key);
    return value ? toQString(*value) : QString();
}

/// Content is a string, null, or (some providers) an array of `{"type":"text","text":...}` parts.
QString contentText(const json *content)
{
    if (!content)
        return {};
    if (content->is_string())
        return toQString(*content);
    QString text;
    if (content->is_array()) {
        for (const json &part : *content)
            text += part.is_string() ? toQString(part) : stringMember(part, "text");
    }
    return text;
}

/// Present when the object has a `usage` object; its figures by retry::usageFrom(), the one rule
/// of what counts as reported.
std::optional<Usage> usageIn(const json &object)
{
    const json *usage = member(object, "usage");
    if (!usage || !usage->is_object())
        return std::nullopt;
    return usageOf(retry::usageFrom(object));
}

QString codeText(const json *code)
{
    if (!code)
        return {};
    if (code->is_string())
        return toQString(*code);
    if (code->is_number_integer() && !code->is_number_unsigned())
        return QString::number(code->get<std::int64_t>());
    if (code->is_number_unsigned())
        return QString::number(code->get<std::uint64_t>());
    if (code->is_number_float())
        return QString::number(code->get<double>());
    return {};
}

StreamError errorOf(const json &error, const QByteArray &raw)
{
    StreamError result;
    result.raw = raw;
    if (error.is_string()) {
        result.message = toQString(error);
    } else if (error.is_object()) {
        result.message = stringMember(error, "message");
        result.type = stringMember(error, "type");
        result.code = codeText(member(error, "code"));
    } else {
        result.message = QString::fromStdString(error.dump());
    }
    return result;
}

/// The choice with index 0; a provider that omits `index` gets its first choice taken.
const json *firstChoice(const json &choices)
{
    if (!choices.is_array())
        return nullptr;
    for (const json &choice : choices) {
        const json *index = member(choice, "index");
        if (index && index->is_number() && *index == 0)
            return &choice;
    }
    for (const json &choice : choices) {
        if (choice.is_object() && !member(choice, "index"))
            return &choice;
    }
    return nullptr;
}

std::atomic<quint64> g_fastDecodes { 0 };
std::atomic<quint64> g_generalDecodes { 0 };

} // namespace

Usage usageOf(const retry::UsageReport &report)
{
    return { report.promptTokens.value_or(-1), report.completionTokens.value_or(-1),
        report.totalTokens.value_or(-1), report.cachedTokens.value_or(-1),
        report.reasoningTokens.value_or(-1), report.cost };
}

retry::UsageReport usageReportOf(const Usage &usage)
{
    const auto figure
        = [](qint64 n) { return n >= 0 ? std::optional<std::int64_t>(n) : std::nullopt; };
    return { figure(usage.promptTokens), figure(usage.completionTokens), figure(usage.totalTokens),
        figure(usage.cachedTokens), figure(usage.reasoningTokens), usage.cost };
}

StreamDecodeCounts streamDecodeCounts()
{
    return { g_fastDecodes.load(std::memory_order_relaxed),
        g_generalDecodes.load(std::memory_order_relaxed) };
}

ChatStreamUpdate decodeStreamEvent(const SseEvent &event)
{
    // An `error` event may carry plain text, which only the general path turns into an error.
    if (event.type != QByteArrayView("error")) {
        ChatStreamUpdate update;
        if (detail::readCommonChunk(QByteArrayView(event.data).trimmed(), update)) {
            g_fastDecodes.fetch_add(1, std::memory_order_relaxed);
            return update;
        }
    }
    g_generalDecodes.fetch_add(1, std::memory_order_relaxed);
    return decodeStreamEventGeneral(event);
}

ChatStreamUpdate decodeStreamEventGeneral(const SseEvent &event)
{
    ChatStreamUpdate update;
    const QByteArrayView data = QByteArrayView(event.data).trimmed();
    if (data == QByteArrayView("[DONE]")) {
        update.done = true;
        return update;
    }
    const bool errorEvent = event.type == QByteArrayView("error");

    QString why;
    const std::optional<json> parsed = parseJson(data, QStringLiteral("event data"), &why);
    if (!parsed) {
        // Some providers send `event: error` with a plain-text message.
        if (errorEvent && !data.isEmpty())
            update.error = StreamError { QString::fromUtf8(data), {}, {}, event.data };
        else
            update.malformed = why;
        return update;
    }
    if (!parsed->is_object()) {
        update.malformed = QStringLiteral("event data is not a JSON object");
        return update;
    }
    const json &chunk = *parsed;

    if (const json *error = member(chunk, "error"))
        update.error = errorOf(*error, event.data);
    else if (errorEvent)
        update.error = errorOf(chunk, event.data);

    const json *choices = member(chunk, "choices");
    if (choices && !choices->is_array()) {
        update.malformed = QStringLiteral("event data has a `choices` that is not an array");
        return update;
    }
    if (const json *choice = choices ? firstChoice(*choices) : nullptr) {
        if (const json *delta = member(*choice, "delta"))
            update.text = contentText(member(*delta, "content"));
        update.finishReason = stringMember(*choice, "finish_reason");
    }
    update.usage = usageIn(chunk);

    if (!choices && !update.usage && !update.error && !chunk.contains("usage"))
        update.malformed = QStringLiteral("event data is not a chat completion chunk");
    return update;
}

std::optional<ChatAnswer> parseChatCompletion(QByteArrayView body, QString *error)
{
    QString why;
    const auto failure = [&](const QString &description) -> std::optional<ChatAnswer> {
        if (error)
            *error = description;
        return std::nullopt;
    };

    const std::optional<json> parsed = parseJson(body, QStringLiteral("the response body"), &why);
    if (!parsed)
        return failure(why);
    if (!parsed->is_object())
        return failure(QStringLiteral("the response body is not a JSON object"));
    const json &completion = *parsed;

    if (const json *providerError = member(completion, "error")) {
        const StreamError e = errorOf(*providerError, {});
        return failure(e.message.isEmpty()
                ? QStringLiteral("the provider answered with an error")
                : QStringLiteral("the provider answered with an error: %1").arg(e.message));
    }
    const json *choices = member(completion, "choices");
    if (!choices || !choices->is_array() || choices->empty())
        return failure(QStringLiteral("the response has no choices"));
    const json *choice = firstChoice(*choices);
    if (!choice)
        return failure(QStringLiteral("the response has no choice with index 0"));
    const json *message = member(*choice, "message");
    if (!message || !message->is_object())
        return failure(QStringLiteral("the first choice has no message"));

    ChatAnswer answer;
    answer.text = contentText(member(*message, "content"));
    answer.finishReason = stringMember(*choice, "finish_reason");
    answer.usage = usageIn(completion);
    answer.model = stringMember(completion, "model");
    return answer;
}

} // namespace capwatch::net
