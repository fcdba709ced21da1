#include "demoprovider.h"

#include "logging.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QHostAddress>
#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QMetaEnum>
#include <QMutexLocker>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <utility>

namespace capwatch::net {

namespace {

using Status = QHttpServerResponder::StatusCode;
using HeaderPairs = QList<std::pair<QByteArray, QByteArray>>;

constexpr qint64 kDefaultMaxTokens = 1000;
constexpr qint64 kFirehoseDefaultBytes = 20'000'000;
constexpr int kFirehoseDefaultChunks = 90'000;
// The firehose keeps at most this much queued in the socket, so memory stays bounded however
// slowly the client reads; it refills in batches of about kFirehoseBatch.
constexpr qint64 kFirehoseHighWater = 1024 * 1024;
constexpr qsizetype kFirehoseBatch = 64 * 1024;
// drop-mid-stream: the role chunk and three content chunks go out, then the connection dies.
constexpr qsizetype kDropAfterPieces = 4;
constexpr int kWordsPerChunk = 3;
// drip: one byte of the body per policy second.
constexpr int kDripIntervalMs = 1000;
// huge-error: an error body this large, over the 1 MiB that is classified.
constexpr qsizetype kHugeErrorBytes = 1536 * 1024;
// huge-headers: this much of extra response headers, in lines of about kFillerLineBytes (40
// large fields: Qt's HTTP client takes at most 100 fields, however small).
constexpr qsizetype kHugeHeaderBytes = 100 * 1024;
constexpr qsizetype kFillerLineBytes = 2560;

enum class Scenario
{
    Capped,
    Headline,
    RateLimited,
    AuthExpired,
    Validation,
    Flaky,
    Hang,
    DropMidStream,
    Firehose,
    Drip,
    HugeError,
    BadUtf8,
    HugeHeaders,
    RedirectLoop,
    ErrorIn200,
    ErrorInStream,
    Context,
    Billing,
    Unknown,
};

Scenario scenarioOf(const QString &name)
{
    static const QStringList names = DemoProvider::scenarios();
    const qsizetype i = names.indexOf(name);
    return i < 0 ? Scenario::Unknown : static_cast<Scenario>(i);
}

// Fixed bodies, byte for byte what the spec and the tests expect (member order included, which
// QJsonObject would sort).
QByteArray jsonString(const QString &text);

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

/// Russian plural of "second" after a whole number: 1, 21 секунду; 2-4, 22 секунды; else секунд.
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

/// JSON string literal (quotes included) of UTF-8 text. Hand-rolled because the firehose calls it
/// tens of thousands of times per answer.
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

/// OpenAI's error shape: {"error":{"message":..,"type":..,"param":..,"code":..}}, with
/// param and code null when empty.
QByteArray errorBody(const QString &message, const QString &param = {},
    const QByteArray &type = QByteArrayLiteral("invalid_request_error"), const QString &code = {})
{
    return QByteArrayLiteral(R"({"error":{"message":)") + jsonString(message)
        + QByteArrayLiteral(R"(,"type":)") + jsonString(QString::fromLatin1(type))
        + QByteArrayLiteral(R"(,"param":)")
        + (param.isEmpty() ? QByteArrayLiteral("null") : jsonString(param))
        + QByteArrayLiteral(R"(,"code":)")
        + (code.isEmpty() ? QByteArrayLiteral("null") : jsonString(code)) + '}' + '}';
}

/// Wire form of one chunk of a `Transfer-Encoding: chunked` body. The streams use chunked
/// framing, as real providers do, so the connection stays reusable and a stream cut short is an
/// error for the client rather than a clean end of body.
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

void sendJson(QHttpServerResponder &responder, Status status, const QByteArray &body,
    const HeaderPairs &extraHeaders = {})
{
    responder.writeStatusLine(status);
    responder.writeHeader(QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json"));
    responder.writeHeader(QByteArrayLiteral("Content-Length"), QByteArray::number(body.size()));
    for (const auto &[name, value] : extraHeaders)
        responder.writeHeader(name, value);
    responder.writeBody(body);
}

void writeStreamHeaders(QHttpServerResponder &responder)
{
    responder.writeStatusLine(Status::Ok);
    responder.writeHeader(
        QByteArrayLiteral("Content-Type"), QByteArrayLiteral("text/event-stream"));
    responder.writeHeader(QByteArrayLiteral("Cache-Control"), QByteArrayLiteral("no-cache"));
    responder.writeHeader(QByteArrayLiteral("Transfer-Encoding"), QByteArrayLiteral("chunked"));
}

qint64 tokensOf(qsizetype chars)
{
    return (chars + 3) / 4; // about 4 characters per token, as OpenAI's rule of thumb
}

struct ChatRequest
{
    QString model;
    qint64 maxTokens = -1; ///< -1: absent
    bool stream = false;
    bool includeUsage = false;
    qint64 promptTokens = 0;
    qsizetype promptChars = 0; ///< characters of all messages' text
};

struct InvalidRequest
{
    QString message; ///< empty: the request is valid
    QString param; ///< the member at fault, or empty
};

/// Text of a message's content: a string, or the text parts of an array joined; empty (not
/// null) for anything else.
QString contentText(const QJsonValue &content)
{
    QString text = QStringLiteral("");
    if (content.isString()) {
        text += content.toString();
    } else if (content.isArray()) {
        for (const QJsonValue &part : content.toArray())
            text += part.toObject().value(u"text").toString();
    }
    return text;
}

/// Checks a chat request as real providers do; on failure, what the 400 answer says.
InvalidRequest parseChatRequest(const QByteArray &body, ChatRequest &out)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return { QStringLiteral("The request body is not a JSON object."), {} };
    const QJsonObject root = doc.object();
    const QJsonValue messages = root.value(u"messages");
    if (!messages.isArray() || messages.toArray().isEmpty())
        return { QStringLiteral("'messages' must be a non-empty array."),
            QStringLiteral("messages") };
    qsizetype promptChars = 0;
    QString lastUser;
    bool hasUser = false;
    for (const QJsonValue &message : messages.toArray()) {
        if (!message.isObject())
            return { QStringLiteral("Each entry of 'messages' must be an object."),
                QStringLiteral("messages") };
        const QJsonObject object = message.toObject();
        const QString text = contentText(object.value(u"content"));
        promptChars += text.size();
        if (object.value(u"role").toString() == u"user") {
            hasUser = true;
            lastUser = text;
        }
    }
    // A user turn without text is refused, as real providers do (an empty prompt is a client
    // bug, never a question).
    if (hasUser && lastUser.trimmed().isEmpty())
        return { QStringLiteral("The last user message is empty: its 'content' must contain "
                                "text."),
            QStringLiteral("messages") };
    const QJsonValue model = root.value(u"model");
    if (!model.isString() || model.toString().trimmed().isEmpty())
        return { QStringLiteral("You must provide a model parameter."), QStringLiteral("model") };
    out.promptTokens = std::max<qint64>(1, tokensOf(promptChars));
    out.promptChars = promptChars;
    out.model = model.toString();
    // max_completion_tokens is the newer OpenAI name of the same limit.
    QJsonValue maxTokens = root.value(u"max_tokens");
    if (maxTokens.isUndefined() || maxTokens.isNull())
        maxTokens = root.value(u"max_completion_tokens");
    if (!maxTokens.isUndefined() && !maxTokens.isNull()) {
        const double value = maxTokens.toDouble(-1);
        if (!maxTokens.isDouble() || value < 1 || value != std::floor(value) || value > 1e12)
            return { QStringLiteral("'max_tokens' must be a positive integer."),
                QStringLiteral("max_tokens") };
        out.maxTokens = static_cast<qint64>(value);
    }
    out.stream = root.value(u"stream").toBool(false);
    out.includeUsage
        = root.value(u"stream_options").toObject().value(u"include_usage").toBool(false);
    return {};
}

QByteArray bearerKey(const QByteArray &authorization)
{
    const QByteArray value = authorization.trimmed();
    if (value.size() > 7 && value.first(7).toLower() == "bearer ")
        return value.sliced(7).trimmed();
    return {};
}

QByteArray keyHash(const QByteArray &key)
{
    return QCryptographicHash::hash(key, QCryptographicHash::Sha256);
}

/// Cuts text to about maxTokens tokens, at a word boundary when there is one.
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

/// The parts of a chunk object every event shares, in OpenAI's member order.
struct ChunkFormat
{
    QByteArray head; ///< `{"id":..,"object":..,"created":..,"model":..,`

    ChunkFormat(int index, const QString &model)
    {
        head = QByteArrayLiteral(R"({"id":"chatcmpl-demo-)") + QByteArray::number(index)
            + QByteArrayLiteral(R"(","object":"chat.completion.chunk","created":)")
            + QByteArray::number(QDateTime::currentSecsSinceEpoch())
            + QByteArrayLiteral(R"(,"model":)") + jsonString(model) + ',';
    }

    static QByteArray event(const QByteArray &json) { return "data: " + json + "\n\n"; }

    QByteArray role() const
    {
        return event(head
            + R"("choices":[{"index":0,"delta":{"role":"assistant","content":""},)"
              R"("finish_reason":null}]})");
    }
    QByteArray contentPrefix() const
    {
        return "data: " + head + R"("choices":[{"index":0,"delta":{"content":)";
    }
    static QByteArray contentSuffix()
    {
        return QByteArrayLiteral("},\"finish_reason\":null}]}\n\n");
    }
    QByteArray content(const QString &text) const
    {
        return contentPrefix() + jsonString(text) + contentSuffix();
    }
    QByteArray stop() const
    {
        return event(head + R"("choices":[{"index":0,"delta":{},"finish_reason":"stop"}]})");
    }
    QByteArray usage(qint64 prompt, qint64 completion) const
    {
        return event(head + R"("choices":[],"usage":{"prompt_tokens":)" + QByteArray::number(prompt)
            + R"(,"completion_tokens":)" + QByteArray::number(completion) + R"(,"total_tokens":)"
            + QByteArray::number(prompt + completion) + "}}");
    }
    static QByteArray done() { return QByteArrayLiteral("data: [DONE]\n\n"); }
};

QByteArray completionBody(int index, const QString &model, const QString &text, qint64 prompt)
{
    const qint64 completion = tokensOf(text.toUtf8().size());
    QByteArray body = QByteArrayLiteral(R"({"id":"chatcmpl-demo-)") + QByteArray::number(index)
        + QByteArrayLiteral(R"(","object":"chat.completion","created":)")
        + QByteArray::number(QDateTime::currentSecsSinceEpoch()) + QByteArrayLiteral(R"(,"model":)")
        + jsonString(model)
        + QByteArrayLiteral(R"(,"choices":[{"index":0,"message":{"role":"assistant","content":)");
    body.reserve(body.size() + text.size() + 200);
    appendJsonString(body, text.toUtf8());
    body += R"(},"finish_reason":"stop"}],"usage":{"prompt_tokens":)" + QByteArray::number(prompt)
        + R"(,"completion_tokens":)" + QByteArray::number(completion) + R"(,"total_tokens":)"
        + QByteArray::number(prompt + completion) + "}}";
    return body;
}

QString firehoseText()
{
    // ASCII only, so the firehose may cut it at any byte.
    return QStringLiteral("The capwatch demo provider is streaming a firehose answer to measure "
                          "how fast the client takes a long answer in. ");
}

QByteArray methodName(QHttpServerRequest::Method method)
{
    return QByteArray(QMetaEnum::fromType<QHttpServerRequest::Method>().valueToKey(int(method)))
        .toUpper();
}

} // namespace

QJsonObject RecordedRequest::json() const
{
    return QJsonDocument::fromJson(body).object();
}

QString RecordedRequest::lastUserMessage() const
{
    const QJsonArray messages = json().value(u"messages").toArray();
    for (qsizetype i = messages.size() - 1; i >= 0; --i) {
        const QJsonObject message = messages.at(i).toObject();
        if (message.value(u"role").toString() == u"user")
            return contentText(message.value(u"content"));
    }
    return {};
}

QByteArray RecordedRequest::header(QByteArrayView name) const
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

/// One response that outlives its route handler: a timed stream, the firehose, or a held
/// (`hang`) request. It owns the responder, and dies when the response is complete, when the
/// client goes away, or with the provider.
class DemoExchange final : public QObject
{
    Q_DISABLE_COPY_MOVE(DemoExchange)

public:
    struct Firehose
    {
        ChunkFormat format;
        qint64 totalBytes = 0;
        int totalChunks = 0;
        int nextChunk = 0;
        qint64 textOffset = 0;
        QByteArray loop; ///< the source text, repeated so any chunk is one slice of it
        qsizetype textLength = 0;
        QByteArray tail; ///< events after the last content chunk
    };

    DemoExchange(DemoProvider *provider, quint64 id, QHttpServerResponder &&responder)
        : QObject(provider)
        , m_provider(provider)
        , m_id(id)
        , m_socket(responder.socket())
        , m_responder(std::move(responder))
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        if (m_socket) {
            connect(m_socket.data(), &QAbstractSocket::disconnected, this,
                [this] { m_provider->finishExchange(m_id, "client went away"); });
            connect(m_socket.data(), &QObject::destroyed, this,
                [this] { m_provider->finishExchange(m_id, "connection closed"); });
        }
    }

    bool connected() const
    {
        return m_socket && m_socket->state() == QAbstractSocket::ConnectedState;
    }

    /// Writes pieces (already framed body bytes) one per interval, the first at once. With
    /// dropAfter >= 0 the connection is aborted instead of writing piece dropAfter.
    void playTimed(QList<QByteArray> pieces, int intervalMs, qsizetype dropAfter)
    {
        m_pieces = std::move(pieces);
        m_dropAfter = dropAfter;
        m_timer.setInterval(intervalMs);
        connect(&m_timer, &QTimer::timeout, this, [this] { writeNextPiece(); });
        writeNextPiece();
        if (!m_stopped)
            m_timer.start();
    }

    void playFirehose(Firehose firehose)
    {
        m_firehose = std::make_unique<Firehose>(std::move(firehose));
        if (!m_socket)
            return;
        connect(m_socket.data(), &QIODevice::bytesWritten, this, [this] { pumpFirehose(); });
        pumpFirehose();
    }

    void stop()
    {
        m_stopped = true;
        m_timer.stop();
        if (m_socket)
            disconnect(m_socket.data(), nullptr, this, nullptr);
    }

private:
    void writeNextPiece()
    {
        if (!connected())
            return;
        if (m_next == m_dropAfter) {
            m_timer.stop();
            // Deliberately cut the connection: what was written so far goes out first, then the
            // socket dies without the end of the body.
            QPointer<QTcpSocket> socket = m_socket;
            socket->flush();
            m_provider->finishExchange(m_id, "dropped mid-stream");
            if (socket)
                socket->abort();
            return;
        }
        if (m_next >= m_pieces.size())
            return;
        m_responder.writeBody(m_pieces.at(m_next++));
        if (m_next == m_pieces.size() && m_dropAfter < 0) {
            m_timer.stop();
            m_provider->finishExchange(m_id, nullptr);
        }
    }

    void pumpFirehose()
    {
        Firehose &f = *m_firehose;
        if (!connected() || f.nextChunk > f.totalChunks)
            return;
        const QByteArray prefix = f.format.contentPrefix() + '"';
        const QByteArray suffix = '"' + ChunkFormat::contentSuffix();
        const qint64 base = f.totalBytes / f.totalChunks;
        const qint64 extra = f.totalBytes % f.totalChunks;
        while (connected() && m_socket->bytesToWrite() < kFirehoseHighWater) {
            QByteArray batch;
            batch.reserve(kFirehoseBatch + 4096);
            while (batch.size() < kFirehoseBatch && f.nextChunk < f.totalChunks) {
                const qint64 size = base + (f.nextChunk < extra ? 1 : 0);
                batch += prefix;
                batch += QByteArrayView(f.loop).sliced(f.textOffset, size);
                batch += suffix;
                f.textOffset = (f.textOffset + size) % f.textLength;
                ++f.nextChunk;
            }
            const bool last = f.nextChunk == f.totalChunks;
            if (last)
                batch += f.tail;
            m_responder.writeBody(httpChunk(batch));
            if (last) {
                ++f.nextChunk; // past the end: nothing more to pump
                m_responder.writeBody(lastHttpChunk());
                m_provider->finishExchange(m_id, nullptr);
                return;
            }
        }
    }

    DemoProvider *m_provider;
    quint64 m_id;
    QPointer<QTcpSocket> m_socket;
    QHttpServerResponder m_responder;
    QTimer m_timer;
    QList<QByteArray> m_pieces;
    qsizetype m_next = 0;
    qsizetype m_dropAfter = -1;
    std::unique_ptr<Firehose> m_firehose;
    bool m_stopped = false;
};

DemoProvider::DemoProvider(QObject *parent)
    : QObject(parent)
    , m_server(new QHttpServer)
{
    // Clients send it their keys: Qt HTTP Server's request dumps must never print them.
    keepRequestHeadersOutOfLogs();
    m_clock.start();
    m_server->route(QStringLiteral("/v1/chat/completions"),
        [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
            handleChat(request, std::move(responder));
        });
    m_server->route(QStringLiteral("/v1/models"),
        [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
            handleModels(request, std::move(responder));
        });
    m_server->setMissingHandler(
        [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
            handleMissing(request, std::move(responder));
        });
}

DemoProvider::~DemoProvider()
{
    // Held responses first (their timers must not fire into a dying server), then the server,
    // which closes every connection still open.
    for (const auto &[id, exchange] : m_exchanges) {
        exchange->stop();
        delete exchange;
    }
    m_exchanges.clear();
    m_server.reset();
}

QStringList DemoProvider::scenarios()
{
    // Same order as the Scenario enum.
    return { QStringLiteral("capped"), QStringLiteral("headline"), QStringLiteral("rate-limited"),
        QStringLiteral("auth-expired"), QStringLiteral("validation"), QStringLiteral("flaky"),
        QStringLiteral("hang"), QStringLiteral("drop-mid-stream"), QStringLiteral("firehose"),
        QStringLiteral("drip"), QStringLiteral("huge-error"), QStringLiteral("bad-utf8"),
        QStringLiteral("huge-headers"), QStringLiteral("redirect-loop"),
        QStringLiteral("error-in-200"), QStringLiteral("error-in-stream"),
        QStringLiteral("context"), QStringLiteral("billing") };
}

QStringList DemoProvider::messageLanguages()
{
    return { QStringLiteral("en"), QStringLiteral("ru"), QStringLiteral("zh") };
}

QString DemoProvider::validate(const DemoOptions &options)
{
    if (scenarioOf(options.scenario) == Scenario::Unknown)
        return tr("Unknown demo scenario \"%1\" (known: %2)")
            .arg(options.scenario, scenarios().join(QStringLiteral(", ")));
    if (options.limit <= 0)
        return tr("The token limit must be positive.");
    if (!(options.windowSeconds > 0))
        return tr("The window must be longer than 0 s.");
    if (!(options.timeScale > 0 && options.timeScale <= 1))
        return tr("The time scale must be in (0, 1].");
    if (options.chunkDelayMs < 0 || options.answerBytes < 0 || options.answerChunks < 0)
        return tr("Delays and sizes must not be negative.");
    if (!messageLanguages().contains(options.messageLanguage))
        return tr("Unknown message language \"%1\" (known: %2)")
            .arg(options.messageLanguage, messageLanguages().join(QStringLiteral(", ")));
    if (options.contextWindow <= 0)
        return tr("The context window must be positive.");
    return {};
}

void DemoProvider::setOptions(const DemoOptions &options)
{
    if (m_tcpServer) {
        const QString error = validate(options);
        if (!error.isEmpty()) {
            qCWarning(lcDemo, "demo options refused: %ls", qUtf16Printable(error));
            return;
        }
    }
    m_options = options;
}

const DemoOptions &DemoProvider::options() const
{
    return m_options;
}

bool DemoProvider::listen(quint16 port)
{
    if (m_tcpServer) {
        m_errorString = tr("The demo provider is already listening.");
        return false;
    }
    m_errorString = validate(m_options);
    if (!m_errorString.isEmpty())
        return false;
    auto tcpServer = std::make_unique<QTcpServer>();
    if (!tcpServer->listen(QHostAddress::LocalHost, port)) {
        m_errorString = tr("Cannot listen on 127.0.0.1:%1: %2")
                            .arg(QString::number(port), tcpServer->errorString());
        return false;
    }
    m_tcpServer = tcpServer.release();
    m_server->bind(m_tcpServer); // takes ownership
    m_clock.restart();
    m_window.clear();
    qCInfo(lcDemo, "demo provider listening on http://127.0.0.1:%u/v1, scenario %ls",
        unsigned(m_tcpServer->serverPort()), qUtf16Printable(m_options.scenario));
    return true;
}

bool DemoProvider::isListening() const
{
    return m_tcpServer && m_tcpServer->isListening();
}

QString DemoProvider::errorString() const
{
    return m_errorString;
}

quint16 DemoProvider::port() const
{
    return m_tcpServer ? m_tcpServer->serverPort() : 0;
}

QUrl DemoProvider::baseUrl() const
{
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(QStringLiteral("127.0.0.1"));
    url.setPort(port());
    url.setPath(QStringLiteral("/v1"));
    return url;
}

int DemoProvider::chatRequests() const
{
    return m_chatRequests;
}

int DemoProvider::openResponses() const
{
    return int(m_exchanges.size());
}

QList<RecordedRequest> DemoProvider::recordedRequests() const
{
    const QMutexLocker lock(&m_recordedMutex);
    return QList<RecordedRequest>(m_recorded.cbegin(), m_recorded.cend());
}

void DemoProvider::clearRecordedRequests()
{
    const QMutexLocker lock(&m_recordedMutex);
    m_recorded.clear();
}

void DemoProvider::record(const QHttpServerRequest &request)
{
    RecordedRequest recorded;
    recorded.method = methodName(request.method());
    recorded.path = request.url().path().toUtf8();
    for (const auto &[name, value] : request.headers()) {
        if (name.compare("authorization", Qt::CaseInsensitive) != 0) {
            recorded.headers.append({ name, value });
            continue;
        }
        // The key never goes into the record, only the scheme.
        const bool bearer = value.trimmed().toLower().startsWith("bearer");
        recorded.headers.append(
            { name, bearer ? QByteArrayLiteral("Bearer ***") : QByteArrayLiteral("***") });
    }
    const QByteArray body = request.body();
    recorded.bodyCut = body.size() > kRecordedBodyLimit;
    recorded.body = recorded.bodyCut ? body.first(kRecordedBodyLimit) : body;
    const QMutexLocker lock(&m_recordedMutex);
    m_recorded.push_back(std::move(recorded));
    while (qsizetype(m_recorded.size()) > kRecordedRequestLimit)
        m_recorded.pop_front();
}

double DemoProvider::policyNowMs() const
{
    return double(m_clock.nsecsElapsed()) / 1e6 / m_options.timeScale;
}

void DemoProvider::expireWindow(double nowMs)
{
    const double windowMs = m_options.windowSeconds * 1000;
    while (!m_window.empty() && m_window.front().atMs + windowMs <= nowMs)
        m_window.pop_front();
}

qint64 DemoProvider::windowTokens() const
{
    qint64 sum = 0;
    for (const WindowEntry &entry : m_window)
        sum += entry.tokens;
    return sum;
}

double DemoProvider::msUntilFits(double nowMs, qint64 tokens) const
{
    const double windowMs = m_options.windowSeconds * 1000;
    qint64 remaining = windowTokens();
    for (const WindowEntry &entry : m_window) {
        remaining -= entry.tokens;
        if (remaining + tokens <= m_options.limit)
            return entry.atMs + windowMs - nowMs;
    }
    // Larger than the whole cap: it never fits; name a full window, as a real cap would.
    return windowMs;
}

DemoExchange *DemoProvider::startExchange(QHttpServerResponder &&responder)
{
    const quint64 id = m_nextExchangeId++;
    auto *exchange = new DemoExchange(this, id, std::move(responder));
    m_exchanges.emplace(id, exchange);
    return exchange;
}

void DemoProvider::finishExchange(quint64 id, const char *why)
{
    const auto it = m_exchanges.find(id);
    if (it == m_exchanges.end())
        return;
    DemoExchange *exchange = it->second;
    m_exchanges.erase(it);
    exchange->stop();
    // Often called from the exchange's own timer or socket signal.
    exchange->deleteLater();
    if (why)
        qCInfo(lcDemo, "response %llu ended: %s", static_cast<unsigned long long>(id), why);
}

void DemoProvider::handleModels(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    record(request);
    if (request.method() != QHttpServerRequest::Method::Get) {
        sendJson(responder, Status::MethodNotAllowed,
            errorBody(QStringLiteral("Only GET is allowed on /v1/models.")),
            { { QByteArrayLiteral("Allow"), QByteArrayLiteral("GET") } });
        return;
    }
    qCInfo(lcDemo, "GET /v1/models -> 200");
    sendJson(responder, Status::Ok, modelsBody());
}

void DemoProvider::handleMissing(
    const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    record(request);
    const QString method = QString::fromLatin1(methodName(request.method()));
    qCInfo(
        lcDemo, "%ls %ls -> 404", qUtf16Printable(method), qUtf16Printable(request.url().path()));
    sendJson(responder, Status::NotFound,
        errorBody(QStringLiteral("Invalid URL (%1 %2)").arg(method, request.url().path())));
}

void DemoProvider::handleChat(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    record(request);
    if (request.method() != QHttpServerRequest::Method::Post) {
        sendJson(responder, Status::MethodNotAllowed,
            errorBody(QStringLiteral("Only POST is allowed on /v1/chat/completions.")),
            { { QByteArrayLiteral("Allow"), QByteArrayLiteral("POST") } });
        return;
    }
    const int index = ++m_chatRequests;
    const QByteArray authorization = request.value(QByteArrayLiteral("Authorization"));
    Q_EMIT chatRequestReceived(index, authorization);

    // Read after the signal: a slot may have changed the options.
    const DemoOptions &o = m_options;
    const Scenario scenario = scenarioOf(o.scenario);
    const auto log = [&](const char *outcome) {
        qCInfo(lcDemo, "chat #%d [%ls] -> %s", index, qUtf16Printable(o.scenario), outcome);
    };
    const auto reply = [&](Status status, const QByteArray &body, const HeaderPairs &headers = {}) {
        log(QByteArray::number(int(status)).constData());
        sendJson(responder, status, body, headers);
    };

    const auto dropConnection = [&](const char *why) {
        log(why);
        // Not from inside the handler: QtHttpServer is still using this socket's request.
        QPointer<QTcpSocket> socket = responder.socket();
        QTimer::singleShot(0, this, [socket] {
            if (socket)
                socket->abort();
        });
    };

    // flaky: HTTP clients (QNetworkAccessManager among them) transparently resend a request whose
    // connection closed before any response header, so a single drop would never reach the
    // caller. A byte-identical repeat that comes right after the drop, sooner than half the
    // shortest backoff the retry policy allows (5 s, scaled), is such a resend: it is dropped
    // too and does not advance the cycle.
    const QByteArray fingerprint = scenario == Scenario::Flaky
        ? keyHash(authorization + '\n' + request.body())
        : QByteArray();
    if (!m_droppedFingerprint.isEmpty()) {
        const double graceMs = std::min(1000.0, 2500 * o.timeScale);
        if (fingerprint == m_droppedFingerprint && m_clock.elapsed() - m_droppedAtMs <= graceMs) {
            m_droppedAtMs = m_clock.elapsed();
            return dropConnection("transparent resend of a dropped request, dropped too");
        }
        m_droppedFingerprint.clear();
    }
    // Cycles count requests, not resends, so they are deterministic per provider.
    const int position = (++m_cycleRequests - 1) % 3;

    // The headline 422 for the first requests of any scenario: one retry cycle, then the
    // scenario's own behaviour (demos, and tests of a cycle that ends in a long answer).
    if (index <= o.headlineFirst)
        return reply(Status::UnprocessableEntity, headlineBody(o.messageLanguage));

    // Failures that come before the body is even looked at, as from a gateway in front of the
    // model.
    switch (scenario) {
    case Scenario::Headline:
        return reply(Status::UnprocessableEntity, headlineBody(o.messageLanguage));
    case Scenario::Validation:
        return reply(Status::UnprocessableEntity, validationBody());
    case Scenario::RateLimited:
        if (position < 2)
            return reply(Status::TooManyRequests, rateLimitBody(),
                { { QByteArrayLiteral("retry-after"), QByteArrayLiteral("2") } });
        break;
    case Scenario::Flaky:
        if (position == 0)
            return reply(Status::ServiceUnavailable, overloadedBody(),
                { { QByteArrayLiteral("retry-after"), QByteArrayLiteral("1") } });
        if (position == 1) {
            m_droppedFingerprint = fingerprint;
            m_droppedAtMs = m_clock.elapsed();
            return dropConnection("connection dropped before any header");
        }
        break;
    case Scenario::AuthExpired: {
        const QByteArray key = bearerKey(authorization);
        bool accepted = false;
        if (!o.acceptedKey.isEmpty()) {
            accepted = key == o.acceptedKey;
        } else if (!key.isEmpty()) {
            const QByteArray hash = keyHash(key);
            if (m_expiredKeyHash.isEmpty())
                m_expiredKeyHash = hash;
            accepted = hash != m_expiredKeyHash;
        }
        if (!accepted)
            return reply(Status::Unauthorized, authBody());
        break;
    }
    case Scenario::HugeError:
        return reply(Status::UnprocessableEntity, hugeErrorBody());
    case Scenario::HugeHeaders:
        if (position == 0) {
            // The one header that matters comes last, after 100 KB of others.
            HeaderPairs headers = fillerHeaders();
            headers.append({ QByteArrayLiteral("retry-after"), QByteArrayLiteral("1") });
            return reply(Status::UnprocessableEntity, headlineBody(o.messageLanguage), headers);
        }
        break;
    case Scenario::RedirectLoop:
        // To itself, for ever: a client must give up after a few hops.
        return reply(Status::TemporaryRedirect,
            errorBody(QStringLiteral("Moved to %1").arg(request.url().path())),
            { { QByteArrayLiteral("Location"), request.url().path().toUtf8() } });
    case Scenario::Billing:
        return reply(Status::PaymentRequired, billingBody());
    case Scenario::Hang:
        log("held, never answered");
        startExchange(std::move(responder));
        return;
    default:
        break;
    }

    ChatRequest chat;
    const InvalidRequest invalid = parseChatRequest(request.body(), chat);
    if (!invalid.message.isEmpty())
        return reply(Status::BadRequest, errorBody(invalid.message, invalid.param));

    switch (scenario) {
    case Scenario::Context: {
        // OpenAI's estimate and words: what the messages take plus what the answer may take.
        const qint64 prompt = tokensOf(chat.promptChars);
        const qint64 completion = chat.maxTokens > 0 ? chat.maxTokens : kDefaultMaxTokens;
        if (prompt + completion > o.contextWindow)
            return reply(Status::BadRequest,
                errorBody(QStringLiteral("This model's maximum context length is %1 tokens. "
                                         "However, you requested %2 tokens (%3 in the messages, "
                                         "%4 in the completion). Please reduce the length of "
                                         "the messages or completion.")
                              .arg(o.contextWindow)
                              .arg(prompt + completion)
                              .arg(prompt)
                              .arg(completion),
                    QStringLiteral("messages"), QByteArrayLiteral("invalid_request_error"),
                    QStringLiteral("context_length_exceeded")));
        break;
    }
    case Scenario::ErrorIn200:
        // JSON even when a stream was asked for, as such gateways do.
        if (position == 0)
            return reply(Status::Ok, errorIn200Body());
        break;
    case Scenario::ErrorInStream:
        if (position == 0) {
            log("200, stream whose first event is an error");
            writeStreamHeaders(responder);
            startExchange(std::move(responder))
                ->playTimed(
                    { httpChunk(ChunkFormat::event(errorInStreamEvent())) + lastHttpChunk() }, 0,
                    -1);
            return;
        }
        break;
    default:
        break;
    }

    QString text;
    if (scenario == Scenario::Capped) {
        const qint64 counted = chat.maxTokens > 0 ? chat.maxTokens : kDefaultMaxTokens;
        const double now = policyNowMs();
        expireWindow(now);
        const qint64 used = windowTokens() + counted;
        if (used > o.limit) {
            const auto seconds
                = std::max<qint64>(1, qint64(std::ceil(msUntilFits(now, counted) / 1000)));
            return reply(
                Status::UnprocessableEntity, cappedBody(o.messageLanguage, used, o.limit, seconds));
        }
        m_window.push_back({ now, counted });
        text = tr("Hello from the capwatch demo provider! This answer comes from a small server on "
                  "127.0.0.1 that plays an OpenAI-compatible provider with a token cap, so no "
                  "account or key is needed. It allows %1 tokens per rolling %2-second window, "
                  "and every request counts its max_tokens against that cap: this one counted %3, "
                  "so %4 of the %1 tokens in the window are now used. Once the window is full, "
                  "the next request gets a 422 \"Token limit exceeded\" error that says when to "
                  "retry, and capwatch waits and retries on its own.")
                   .arg(QString::number(o.limit), QString::number(o.windowSeconds),
                       QString::number(counted), QString::number(used));
    } else if (scenario == Scenario::Firehose) {
        const qint64 bytes = o.answerBytes > 0 ? o.answerBytes : kFirehoseDefaultBytes;
        const int chunks = int(
            std::min<qint64>(o.answerChunks > 0 ? o.answerChunks : kFirehoseDefaultChunks, bytes));
        if (chat.stream) {
            log("200, firehose stream");
            writeStreamHeaders(responder);
            DemoExchange::Firehose f { ChunkFormat(index, chat.model), 0, 0, 0, 0, {}, 0, {} };
            f.totalBytes = bytes;
            f.totalChunks = chunks;
            const QByteArray source = firehoseText().toLatin1();
            f.textLength = source.size();
            const qint64 longest = bytes / chunks + 1;
            while (f.loop.size() < f.textLength + longest)
                f.loop += source;
            f.tail = f.format.stop();
            if (chat.includeUsage)
                f.tail += f.format.usage(chat.promptTokens, tokensOf(bytes));
            f.tail += ChunkFormat::done();
            // The role chunk goes first, as in every stream.
            responder.writeBody(httpChunk(f.format.role()));
            startExchange(std::move(responder))->playFirehose(std::move(f));
            return;
        }
        const QString source = firehoseText();
        text.reserve(bytes);
        while (text.size() < bytes)
            text += source;
        text.truncate(bytes);
    } else {
        text = tr("Hello from the capwatch demo provider! This answer comes from a small server on "
                  "127.0.0.1 playing the \"%1\" scenario, and this is request #%2. A real provider "
                  "would answer your prompt here; this one only shows that the request got "
                  "through whatever the scenario put in its way.")
                   .arg(o.scenario, QString::number(index));
    }
    if (scenario != Scenario::Firehose)
        text = boundedAnswer(text, chat.maxTokens > 0 ? chat.maxTokens : kDefaultMaxTokens);

    const int intervalMs = int(std::lround(o.chunkDelayMs * o.timeScale));
    const bool drop = scenario == Scenario::DropMidStream;
    if (!chat.stream) {
        const QByteArray body = completionBody(index, chat.model, text, chat.promptTokens);
        if (!drop)
            return reply(Status::Ok, body);
        // The non-streaming variant of the drop: the body announced, half of it sent, then cut.
        log("200, body dropped halfway");
        responder.writeStatusLine(Status::Ok);
        responder.writeHeader(
            QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json"));
        responder.writeHeader(QByteArrayLiteral("Content-Length"), QByteArray::number(body.size()));
        startExchange(std::move(responder))
            ->playTimed({ body.first(body.size() / 2) }, intervalMs, 1);
        return;
    }

    const ChunkFormat format(index, chat.model);
    if (scenario == Scenario::Drip) {
        // The whole stream, one byte at a time, a policy second apart.
        const QByteArray wire = format.content(tr("Drip, drip: this answer arrived one byte a "
                                                  "second."))
            + format.stop() + ChunkFormat::done();
        QList<QByteArray> pieces;
        pieces.reserve(wire.size());
        for (const char byte : wire)
            pieces.append(httpChunk(QByteArrayView(&byte, 1)));
        pieces.last() += lastHttpChunk();
        log("200, stream dripping a byte a second");
        writeStreamHeaders(responder);
        startExchange(std::move(responder))
            ->playTimed(std::move(pieces), int(std::lround(kDripIntervalMs * o.timeScale)), -1);
        return;
    }
    QList<QByteArray> pieces;
    pieces.append(httpChunk(format.role()));
    for (const QString &delta : deltas(text))
        pieces.append(httpChunk(format.content(delta)));
    if (scenario == Scenario::BadUtf8) {
        // Bytes that are not UTF-8 inside the JSON strings: a lone continuation byte, bytes
        // that never occur, a truncated sequence, an overlong form and an encoded surrogate.
        for (const QByteArrayView bad : { QByteArrayView("\x80 lone continuation, "),
                 QByteArrayView("\xff\xfe never valid, "), QByteArrayView("\xe2\x82 truncated, "),
                 QByteArrayView("\xc0\xaf overlong, "), QByteArrayView("\xed\xa0\x80 surrogate.") })
            pieces.append(httpChunk(QByteArray(format.contentPrefix() + '"' + bad.toByteArray()
                + '"' + ChunkFormat::contentSuffix())));
    }
    if (drop) {
        log("200, stream to be dropped");
        writeStreamHeaders(responder);
        const qsizetype dropAt = std::min<qsizetype>(kDropAfterPieces, pieces.size());
        startExchange(std::move(responder))->playTimed(std::move(pieces), intervalMs, dropAt);
        return;
    }
    pieces.append(httpChunk(format.stop()));
    if (chat.includeUsage)
        pieces.append(httpChunk(format.usage(chat.promptTokens, tokensOf(text.toUtf8().size()))));
    pieces.append(httpChunk(ChunkFormat::done()) + lastHttpChunk());
    log("200, stream");
    writeStreamHeaders(responder);
    startExchange(std::move(responder))->playTimed(std::move(pieces), intervalMs, -1);
}

} // namespace capwatch::net
