#include "wireformat.h"

#include <QDateTime>
#include <QLocale>
#include <algorithm>
#include <cmath>

namespace capwatch::demo::wire {

QByteArray headlineBody(const QString &language)
{
    if (language == u"ru")
        return QStringLiteral(
            u"{\"error\":\"Превышен лимит completion-токенов: использовано 60323, "
            u"лимит 60000. Повторите попытку через 18 мин.\"}")
            .toUtf8();
    if (language == u"zh")
        return QStringLiteral(
            u"{\"error\":\"超过令牌限额：已使用60323，上限60000。请在18分钟后重试。\"}")
            .toUtf8();
    return QByteArrayLiteral(
        R"({"error":"Token limit exceeded: used 60323, limit 60000. Retry in 18 min."})");
}

QString russianSeconds(qint64 n)
{
    const qint64 lastTwo = n % 100;
    const qint64 last = n % 10;
    if (last == 1 && lastTwo != 11)
        return QStringLiteral(u"секунду");
    if (last >= 2 && last <= 4 && (lastTwo < 12 || lastTwo > 14))
        return QStringLiteral(u"секунды");
    return QStringLiteral(u"секунд");
}

/// capped's 422 body over the cap: used, limit and the seconds until the request fits.
QByteArray cappedBody(const QString &language, qint64 used, qint64 limit, qint64 seconds)
{
    QString text;
    if (language == u"ru")
        text = QStringLiteral(u"Превышен лимит completion-токенов: использовано %1, лимит %2. "
                              u"Повторите попытку через %3 %4.")
                   .arg(used)
                   .arg(limit)
                   .arg(seconds)
                   .arg(russianSeconds(seconds));
    else if (language == u"zh")
        text = QStringLiteral(u"超过令牌限额：已使用%1，上限%2。请在%3秒后重试。")
                   .arg(used)
                   .arg(limit)
                   .arg(seconds);
    else
        text = QStringLiteral("Token limit exceeded: used %1, limit %2. Retry in %3 sec.")
                   .arg(used)
                   .arg(limit)
                   .arg(seconds);
    return "{\"error\":" + jsonString(text) + '}';
}

QByteArray resetBody(const QString &language, double msLeft)
{
    constexpr qint64 used = 60323;
    constexpr qint64 limit = 60000;
    // Rounded up, so a client that waits what it is told never comes back before the reset.
    const auto seconds = std::max<qint64>(1, qint64(std::ceil(msLeft / 1000)));
    if (msLeft < 60'000)
        return cappedBody(language, used, limit, seconds);
    const auto minutes = qint64(std::ceil(msLeft / 60'000));
    QString text;
    if (language == u"ru")
        text = QStringLiteral(u"Превышен лимит completion-токенов: использовано %1, лимит %2. "
                              u"Повторите попытку через %3 мин.")
                   .arg(used)
                   .arg(limit)
                   .arg(minutes);
    else if (language == u"zh")
        text = QStringLiteral(u"超过令牌限额：已使用%1，上限%2。请在%3分钟后重试。")
                   .arg(used)
                   .arg(limit)
                   .arg(minutes);
    else
        text = QStringLiteral("Token limit exceeded: used %1, limit %2. Retry in %3 min.")
                   .arg(used)
                   .arg(limit)
                   .arg(minutes);
    return "{\"error\":" + jsonString(text) + '}';
}

/// error-in-200: a rate limit reported inside a 200, without choices (as some gateways do).
QByteArray errorIn200Body()
{
    return QByteArrayLiteral(
        R"({"error":{"message":"Rate limit reached for requests. Please try again in 2s.",)"
        R"("type":"rate_limit_error","param":null,"code":429}})");
}

/// error-in-stream: the first (and only) data event of a 200 event stream.
QByteArray errorInStreamEvent()
{
    return QByteArrayLiteral(
        R"({"error":{"message":"The server is currently overloaded, please try again later.",)"
        R"("type":"server_error","param":null,"code":null}})");
}

QByteArray midStreamErrorEvent()
{
    return QByteArrayLiteral(
        R"({"error":{"message":"The server had an error while processing your request. Sorry )"
        R"(about that!","type":"server_error","param":null,"code":null}})");
}

/// billing: DeepSeek's 402, byte for byte.
QByteArray billingBody()
{
    return QByteArrayLiteral(R"({"error":{"message":"Insufficient Balance","type":"unknown_error",)"
                             R"("param":null,"code":"invalid_request_error"}})");
}

QByteArray rateLimitBody()
{
    return QByteArrayLiteral(R"({"error":{"message":"Rate limit reached. Please try again in 2s.",)"
                             R"("type":"requests","code":"rate_limit_exceeded"}})");
}

QByteArray authBody()
{
    return QByteArrayLiteral(R"({"error":{"message":"Incorrect API key provided.",)"
                             R"("type":"invalid_request_error","code":"invalid_api_key"}})");
}

QByteArray validationBody()
{
    return QByteArrayLiteral(R"({"detail":[{"loc":["body","messages",0,"content"],)"
                             R"("msg":"field required","type":"value_error.missing"}]})");
}

QByteArray overloadedBody()
{
    return QByteArrayLiteral(
        R"({"error":{"message":"The server is currently overloaded, please try again later.",)"
        R"("type":"server_error","code":"overloaded"}})");
}

/// Over the 1 MiB that is classified: a token-limit text followed by more than a megabyte of
/// detail, so only its size keeps it from being taken for a token limit.
QByteArray hugeErrorBody()
{
    QByteArray body = QByteArrayLiteral(
        R"({"error":"Token limit exceeded: used 60323, limit 60000. Retry in 18 min. Details:)");
    const QByteArray filler = QByteArrayLiteral(" the provider explains at great length.");
    while (body.size() < kHugeErrorBytes)
        body += filler;
    body += QByteArrayLiteral(R"("})");
    return body;
}

/// About kHugeHeaderBytes of harmless extra response headers.
HeaderPairs fillerHeaders()
{
    HeaderPairs headers;
    const QByteArray value(kFillerLineBytes - 24, 'x');
    for (qsizetype n = 0; n * kFillerLineBytes < kHugeHeaderBytes; ++n)
        headers.append(
            { "x-capwatch-filler-" + QByteArray::number(n).rightJustified(2, '0'), value });
    return headers;
}

QByteArray modelsBody()
{
    return QByteArrayLiteral(
        R"({"object":"list","data":[{"id":"capwatch-demo","object":"model"}]})");
}

QByteArray contextLengthBody(qint64 contextWindow, qint64 prompt, qint64 completion)
{
    // OpenAI's words: what the messages take plus what the answer may take.
    return errorBody(QStringLiteral("This model's maximum context length is %1 tokens. However, "
                                    "you requested %2 tokens (%3 in the messages, %4 in the "
                                    "completion). Please reduce the length of the messages or "
                                    "completion.")
                         .arg(contextWindow)
                         .arg(prompt + completion)
                         .arg(prompt)
                         .arg(completion),
        QStringLiteral("messages"), QByteArrayLiteral("invalid_request_error"),
        QStringLiteral("context_length_exceeded"));
}

QByteArray requestLimitBody(qint64 limit, qint64 used, double windowSeconds, qint64 waitMs)
{
    return errorBody(QStringLiteral("Rate limit reached for requests in organization org-demo on "
                                    "requests per %1 s: Limit %2, Used %3, Requested 1. Please "
                                    "try again in %4. Visit "
                                    "https://platform.openai.com/account/rate-limits to learn "
                                    "more.")
                         .arg(windowSeconds)
                         .arg(limit)
                         .arg(used)
                         .arg(QString::fromLatin1(goDuration(waitMs))),
        {}, QByteArrayLiteral("requests"), QStringLiteral("rate_limit_exceeded"));
}

QByteArray dailyLimitBody()
{
    // OpenRouter's 429 once an account's free-model requests of the day are used, as users
    // quote it (https://github.com/Gitlawb/openclaude/issues/936,
    // https://github.com/Aider-AI/aider/issues/3936). Its metadata.headers (X-RateLimit-Limit,
    // -Remaining, -Reset) are left out: the daily scenario tells nothing but the words.
    return QByteArrayLiteral(R"({"error":{"message":"Rate limit exceeded: free-models-per-day. )"
                             R"(Add 10 credits to unlock 1000 free model requests per day",)"
                             R"("code":429}})");
}

QByteArray unrecognizedArgumentBody(const QString &name)
{
    return errorBody(QStringLiteral("Unrecognized request argument supplied: %1").arg(name));
}

QByteArray goDuration(qint64 ms)
{
    if (ms <= 0)
        return QByteArrayLiteral("0s");
    if (ms < 1000)
        return QByteArray::number(ms) + "ms";
    QByteArray out;
    const qint64 hours = ms / 3'600'000;
    const qint64 minutes = ms / 60'000 % 60;
    if (hours > 0)
        out += QByteArray::number(hours) + 'h';
    if (hours > 0 || minutes > 0)
        out += QByteArray::number(minutes) + 'm';
    out += QByteArray::number(ms / 1000 % 60);
    if (const qint64 fraction = ms % 1000; fraction > 0) {
        QByteArray digits = QByteArray::number(fraction).rightJustified(3, '0');
        while (digits.endsWith('0'))
            digits.chop(1);
        out += '.' + digits;
    }
    return out + 's';
}

HeaderPairs rateLimitHeaders(const WindowState &state)
{
    const auto duration = [](double ms) { return goDuration(qint64(std::ceil(ms))); };
    return {
        { QByteArrayLiteral("x-ratelimit-limit-requests"),
            QByteArray::number(state.limitRequests) },
        { QByteArrayLiteral("x-ratelimit-limit-tokens"), QByteArray::number(state.limitTokens) },
        { QByteArrayLiteral("x-ratelimit-remaining-requests"),
            QByteArray::number(state.remainingRequests) },
        { QByteArrayLiteral("x-ratelimit-remaining-tokens"),
            QByteArray::number(state.remainingTokens) },
        { QByteArrayLiteral("x-ratelimit-reset-requests"), duration(state.resetRequestsMs) },
        { QByteArrayLiteral("x-ratelimit-reset-tokens"), duration(state.resetTokensMs) },
    };
}

QString cappedAnswer(
    qint64 limit, double windowSeconds, qint64 promptTokens, qint64 maxTokens, qint64 used)
{
    return QStringLiteral(
        "Hello from the capwatch demo provider! This answer comes from a small server on "
        "127.0.0.1 that plays an OpenAI-compatible provider with a token cap, so no account or "
        "key is needed. It allows %1 tokens per rolling %2-second window, and every request "
        "counts its prompt and its max_tokens against that cap, as real providers do: this one "
        "counted %3 (%4 + %5), so %6 of the %1 tokens in the window are now used. When the next "
        "request would not fit, capwatch holds it until the window has room (Send now sends it "
        "anyway); sent into a full window, it gets a 422 \"Token limit exceeded\" error that "
        "says when to retry, and capwatch waits and retries on its own.")
        .arg(QString::number(limit), QString::number(windowSeconds),
            QString::number(promptTokens + maxTokens), QString::number(promptTokens),
            QString::number(maxTokens), QString::number(used));
}

QString scenarioAnswer(const QString &scenario, int index)
{
    return QStringLiteral(
        "Hello from the capwatch demo provider! This answer comes from a small server on "
        "127.0.0.1 playing the \"%1\" scenario, and this is request #%2. A real provider would "
        "answer your prompt here; this one only shows that the request got through whatever the "
        "scenario put in its way.")
        .arg(scenario, QString::number(index));
}

QString dripAnswer()
{
    return QStringLiteral("Drip, drip: this answer arrived one byte a second.");
}

QString firehoseText()
{
    return QStringLiteral("The capwatch demo provider is streaming a firehose answer to measure "
                          "how fast the client takes a long answer in. ");
}

void appendJsonString(QByteArray &out, QByteArrayView utf8)
{
    static constexpr char hex[] = "0123456789abcdef";
    out.append('"');
    qsizetype plainFrom = 0;
    for (qsizetype i = 0; i < utf8.size(); ++i) {
        const auto c = static_cast<unsigned char>(utf8[i]);
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        out.append(utf8.sliced(plainFrom, i - plainFrom));
        plainFrom = i + 1;
        switch (c) {
        case '"':
            out.append("\\\"");
            break;
        case '\\':
            out.append("\\\\");
            break;
        case '\n':
            out.append("\\n");
            break;
        case '\r':
            out.append("\\r");
            break;
        case '\t':
            out.append("\\t");
            break;
        default:
            out.append("\\u00");
            out.append(hex[c >> 4]);
            out.append(hex[c & 0xf]);
        }
    }
    out.append(utf8.sliced(plainFrom));
    out.append('"');
}

QByteArray jsonString(const QString &text)
{
    QByteArray out;
    appendJsonString(out, text.toUtf8());
    return out;
}

QByteArray errorBody(
    const QString &message, const QString &param, const QByteArray &type, const QString &code)
{
    return QByteArrayLiteral(R"({"error":{"message":)") + jsonString(message)
        + QByteArrayLiteral(R"(,"type":)") + jsonString(QString::fromLatin1(type))
        + QByteArrayLiteral(R"(,"param":)")
        + (param.isEmpty() ? QByteArrayLiteral("null") : jsonString(param))
        + QByteArrayLiteral(R"(,"code":)")
        + (code.isEmpty() ? QByteArrayLiteral("null") : jsonString(code)) + '}' + '}';
}

QByteArray httpChunk(QByteArrayView data)
{
    QByteArray out = QByteArray::number(data.size(), 16);
    out.reserve(out.size() + data.size() + 4);
    out.append("\r\n");
    out.append(data);
    out.append("\r\n");
    return out;
}

QByteArray lastHttpChunk()
{
    return QByteArrayLiteral("0\r\n\r\n");
}

QString boundedAnswer(QString text, qint64 maxTokens)
{
    const qint64 maxChars = maxTokens * 4;
    if (text.size() <= maxChars)
        return text;
    const qsizetype space = text.lastIndexOf(u' ', maxChars);
    text.truncate(space > 0 ? space : maxChars);
    return text;
}

/// Splits text into stream deltas of a few words each; their concatenation is the text.
QStringList deltas(const QString &text)
{
    QStringList out;
    qsizetype from = 0;
    int words = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == u' ' && ++words == kWordsPerChunk) {
            out.append(text.sliced(from, i + 1 - from));
            from = i + 1;
            words = 0;
        }
    }
    if (from < text.size())
        out.append(text.sliced(from));
    return out;
}

ChunkFormat::ChunkFormat(int index, const QString &model, CostRate costPerMillionTokens)
    : costPerMillionTokens(costPerMillionTokens)
{
    head = QByteArrayLiteral(R"({"id":"chatcmpl-demo-)") + QByteArray::number(index)
        + QByteArrayLiteral(R"(","object":"chat.completion.chunk","created":)")
        + QByteArray::number(QDateTime::currentSecsSinceEpoch()) + QByteArrayLiteral(R"(,"model":)")
        + jsonString(model) + ',';
}

QByteArray ChunkFormat::role() const
{
    return event(head
        + R"("choices":[{"index":0,"delta":{"role":"assistant","content":""},)"
          R"("finish_reason":null}]})");
}

QByteArray ChunkFormat::contentPrefix() const
{
    return "data: " + head + R"("choices":[{"index":0,"delta":{"content":)";
}

QByteArray ChunkFormat::contentSuffix()
{
    return QByteArrayLiteral("},\"finish_reason\":null}]}\n\n");
}

QByteArray ChunkFormat::content(const QString &text) const
{
    return contentPrefix() + jsonString(text) + contentSuffix();
}

QByteArray ChunkFormat::finish(QByteArrayView reason) const
{
    return event(head + R"("choices":[{"index":0,"delta":{},"finish_reason":")"
        + reason.toByteArray() + R"("}]})");
}

namespace {

/// The members of a usage object, OpenAI's order: `"prompt_tokens":..}` without the `{`; with a
/// cost rate, OpenRouter's "cost" last.
QByteArray usageMembers(qint64 prompt, qint64 completion, qint64 reasoning, CostRate rate)
{
    QByteArray out = R"("prompt_tokens":)" + QByteArray::number(prompt) + R"(,"completion_tokens":)"
        + QByteArray::number(completion) + R"(,"total_tokens":)"
        + QByteArray::number(prompt + completion);
    if (reasoning >= 0)
        out += R"(,"completion_tokens_details":{"reasoning_tokens":)"
            + QByteArray::number(reasoning) + '}';
    // OpenRouter's usage accounting (https://openrouter.ai/docs/use-cases/usage-accounting):
    // "cost", a JSON number, "the total amount charged to your account" in credits, in the usage
    // object of a whole response and of a stream's last chunk. The shortest text that reads back
    // as the same double, so a client can check it to the last bit.
    if (rate)
        out += R"(,"cost":)"
            + QByteArray::number(
                costOf(prompt, completion, *rate), 'g', QLocale::FloatingPointShortest);
    return out + '}';
}

} // namespace

QByteArray ChunkFormat::usage(qint64 prompt, qint64 completion, qint64 reasoning) const
{
    return event(head + R"("choices":[],"usage":{)"
        + usageMembers(prompt, completion, reasoning, costPerMillionTokens) + '}');
}

double costOf(qint64 prompt, qint64 completion, double costPerMillionTokens)
{
    return double(prompt + completion) * costPerMillionTokens / 1e6;
}

QByteArray completionBody(int index, const QString &model, const QString &text, qint64 prompt,
    const Finish &finish, CostRate costPerMillionTokens)
{
    const qint64 completion
        = finish.completionTokens >= 0 ? finish.completionTokens : tokensOf(text.toUtf8().size());
    QByteArray body = QByteArrayLiteral(R"({"id":"chatcmpl-demo-)") + QByteArray::number(index)
        + QByteArrayLiteral(R"(","object":"chat.completion","created":)")
        + QByteArray::number(QDateTime::currentSecsSinceEpoch()) + QByteArrayLiteral(R"(,"model":)")
        + jsonString(model)
        + QByteArrayLiteral(R"(,"choices":[{"index":0,"message":{"role":"assistant","content":)");
    body.reserve(body.size() + text.size() + 200);
    appendJsonString(body, text.toUtf8());
    body += R"(},"finish_reason":")" + finish.reason + R"("}],"usage":{)"
        + usageMembers(prompt, completion, finish.reasoningTokens, costPerMillionTokens) + '}';
    return body;
}

} // namespace capwatch::demo::wire
