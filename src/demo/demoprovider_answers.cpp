// DemoProvider's answers to a chat request that got through every refusal: the capped window's
// answer or a scenario's, streamed or whole, dropped halfway, dripped a byte at a time, or the
// firehose.

#include "continuation.h"
#include "demoexchange.h"
#include "demoprovider.h"
#include "demoprovider_p.h"
#include "demorequest.h"
#include "scenarios.h"
#include "wireformat.h"

#include <QHttpServerResponder>
#include <algorithm>
#include <cmath>

namespace capwatch::demo {

using namespace wire;

namespace {

constexpr qint64 kFirehoseDefaultBytes = 20'000'000;
constexpr int kFirehoseDefaultChunks = 90'000;
// drop-mid-stream: the role chunk and three content chunks go out, then the connection dies.
constexpr qsizetype kDropAfterPieces = 4;
// drip: one byte of the body per policy second.
constexpr int kDripIntervalMs = 1000;
// length with maxAnswerTokens 0: the output budget a request without max_tokens spent on
// reasoning, as a small reasoning budget of a real provider.
constexpr qint64 kReasoningBudget = 256;

} // namespace

void DemoProvider::answer(const ChatCall &call, const DemoChatRequest &chat)
{
    QHttpServerResponder &responder = call.responder;
    const DemoOptions &o = call.options;
    const qint64 maxTokens = chat.maxTokens > 0 ? chat.maxTokens : kDefaultMaxTokens;
    // As real providers count a request against a token window: its prompt and the most its
    // answer may take (max_tokens), so what a client estimates the same way agrees with it.
    const qint64 counted = chat.promptTokens + maxTokens;
    QString text;
    const double now = policyNowMs();
    syncWindowLimits();
    if (call.scenario == Scenario::Capped) {
        const qint64 used = m_window.usedWith(now, counted);
        if (used > o.limit) {
            const auto seconds
                = std::max<qint64>(1, qint64(std::ceil(m_window.msUntilFits(now, counted) / 1000)));
            return call.reply(
                Status::UnprocessableEntity, cappedBody(o.messageLanguage, used, o.limit, seconds));
        }
        m_window.admit(now, counted);
        text = boundedAnswer(
            cappedAnswer(o.limit, o.windowSeconds, chat.promptTokens, maxTokens, used), maxTokens);
    } else if (call.scenario == Scenario::Firehose) {
        m_window.admit(now, counted); // reported, not enforced
        return answerFirehose(call, chat);
    } else if (call.scenario == Scenario::Length) {
        m_window.admit(now, counted);
        return answerLength(call, chat);
    } else if (call.scenario == Scenario::Drop) {
        m_window.admit(now, counted);
        return answerDrop(call, chat);
    } else {
        m_window.admit(now, counted);
        text = boundedAnswer(scenarioAnswer(o.scenario, call.index), maxTokens);
    }

    const int intervalMs = int(std::lround(o.chunkDelayMs * o.timeScale));
    const bool drop = call.scenario == Scenario::DropMidStream;
    if (!chat.stream) {
        const QByteArray body = completionBody(
            call.index, chat.model, text, chat.promptTokens, {}, o.costPerMillionTokens);
        if (!drop)
            return call.reply(Status::Ok, body);
        // The non-streaming variant of the drop: the body announced, half of it sent, then cut.
        return sendBodyCut(call, body, body.size() / 2);
    }

    const ChunkFormat format(call.index, chat.model, o.costPerMillionTokens);
    if (call.scenario == Scenario::Drip) {
        // The whole stream, one byte at a time, a policy second apart.
        const QByteArray wire = format.content(dripAnswer()) + format.stop() + ChunkFormat::done();
        QList<QByteArray> pieces;
        pieces.reserve(wire.size());
        for (const char byte : wire)
            pieces.append(httpChunk(QByteArrayView(&byte, 1)));
        pieces.last() += lastHttpChunk();
        call.log("200, stream dripping a byte a second");
        call.startStream();
        startExchange(std::move(responder))
            ->playTimed(std::move(pieces), int(std::lround(kDripIntervalMs * o.timeScale)), -1);
        return;
    }
    QList<QByteArray> pieces;
    pieces.append(httpChunk(format.role()));
    for (const QString &delta : deltas(text))
        pieces.append(httpChunk(format.content(delta)));
    if (call.scenario == Scenario::BadUtf8) {
        // Bytes that are not UTF-8 inside the JSON strings: a lone continuation byte, bytes
        // that never occur, a truncated sequence, an overlong form and an encoded surrogate.
        for (const QByteArrayView bad : { QByteArrayView("\x80 lone continuation, "),
                 QByteArrayView("\xff\xfe never valid, "), QByteArrayView("\xe2\x82 truncated, "),
                 QByteArrayView("\xc0\xaf overlong, "), QByteArrayView("\xed\xa0\x80 surrogate.") })
            pieces.append(httpChunk(QByteArray(format.contentPrefix() + '"' + bad.toByteArray()
                + '"' + ChunkFormat::contentSuffix())));
    }
    if (drop) {
        call.log("200, stream to be dropped");
        call.startStream();
        const qsizetype dropAt = std::min<qsizetype>(kDropAfterPieces, pieces.size());
        startExchange(std::move(responder))->playTimed(std::move(pieces), intervalMs, dropAt);
        return;
    }
    pieces.append(httpChunk(format.stop()));
    if (chat.includeUsage)
        pieces.append(httpChunk(format.usage(chat.promptTokens, tokensOf(text.toUtf8().size()))));
    pieces.append(httpChunk(ChunkFormat::done()) + lastHttpChunk());
    call.log("200, stream");
    call.startStream();
    startExchange(std::move(responder))->playTimed(std::move(pieces), intervalMs, -1);
}

void DemoProvider::answerLength(const ChatCall &call, const DemoChatRequest &chat)
{
    const qint64 limit = call.options.maxAnswerTokens;
    if (limit == 0) {
        // What a reasoning model that spent its whole output budget thinking sends: no text,
        // "length", and usage that says where the tokens went.
        const qint64 budget = chat.maxTokens > 0 ? chat.maxTokens : kReasoningBudget;
        return sendAnswer(call, chat, QString(), { "length", budget, budget });
    }
    const AnswerPart part
        = answerPart(wholeAnswer(chat.prompt), chat.continuation ? &chat.partial : nullptr, limit);
    sendAnswer(call, chat, part.content,
        { part.complete ? "stop" : "length", tokensOf(part.content.size()), -1 });
}

void DemoProvider::answerDrop(const ChatCall &call, const DemoChatRequest &chat)
{
    QHttpServerResponder &responder = call.responder;
    const DemoOptions &o = call.options;
    if (chat.continuation) {
        // Continue must be able to complete the answer: the rest, in full.
        const AnswerPart part = answerPart(wholeAnswer(chat.prompt), &chat.partial, -1);
        return sendAnswer(call, chat, part.content, { "stop", tokensOf(part.content.size()), -1 });
    }
    const QString text = wholeAnswer(chat.prompt);
    const Finish finish { "stop", tokensOf(text.size()), -1 };
    if (!chat.stream)
        return sendBodyCut(call,
            completionBody(
                call.index, chat.model, text, chat.promptTokens, finish, o.costPerMillionTokens),
            o.dropAfterBytes);

    const ChunkFormat format(call.index, chat.model, o.costPerMillionTokens);
    const QStringList parts = deltas(text);
    const int intervalMs = int(std::lround(o.chunkDelayMs * o.timeScale));
    if (o.dropWith == DropWith::Error) {
        // The first words, then the error a provider sends when generation fails, then the end
        // of the body: no finish_reason, no [DONE].
        call.log("200, stream broken by an error event");
        call.startStream();
        startExchange(std::move(responder))
            ->playTimed(
                { httpChunk(format.role()), httpChunk(format.content(parts.first())),
                    httpChunk(ChunkFormat::event(midStreamErrorEvent())) + lastHttpChunk() },
                intervalMs, -1);
        return;
    }
    QList<QByteArray> events { format.role() };
    for (const QString &delta : parts)
        events.append(format.content(delta));
    events.append(format.finish("stop"));
    if (chat.includeUsage)
        events.append(format.usage(chat.promptTokens, finish.completionTokens));
    events.append(ChunkFormat::done());
    qsizetype total = 0;
    for (const QByteArray &event : std::as_const(events))
        total += event.size();
    // At most all but the last byte: the stream is always cut, whatever the option says.
    qsizetype budget = std::min<qsizetype>(o.dropAfterBytes, total - 1);
    QList<QByteArray> pieces;
    for (const QByteArray &event : std::as_const(events)) {
        if (budget <= 0)
            break;
        const QByteArray sent = event.first(std::min(event.size(), budget));
        pieces.append(httpChunk(sent));
        budget -= sent.size();
    }
    call.log("200, stream to be dropped");
    call.startStream();
    const qsizetype dropAt = pieces.size();
    startExchange(std::move(responder))->playTimed(std::move(pieces), intervalMs, dropAt);
}

void DemoProvider::sendAnswer(
    const ChatCall &call, const DemoChatRequest &chat, const QString &text, const Finish &finish)
{
    const DemoOptions &o = call.options;
    if (!chat.stream)
        return call.reply(Status::Ok,
            completionBody(
                call.index, chat.model, text, chat.promptTokens, finish, o.costPerMillionTokens));
    const ChunkFormat format(call.index, chat.model, o.costPerMillionTokens);
    QList<QByteArray> pieces;
    pieces.append(httpChunk(format.role()));
    for (const QString &delta : deltas(text))
        pieces.append(httpChunk(format.content(delta)));
    pieces.append(httpChunk(format.finish(finish.reason)));
    if (chat.includeUsage) {
        const qint64 completion = finish.completionTokens >= 0 ? finish.completionTokens
                                                               : tokensOf(text.toUtf8().size());
        pieces.append(
            httpChunk(format.usage(chat.promptTokens, completion, finish.reasoningTokens)));
    }
    pieces.append(httpChunk(ChunkFormat::done()) + lastHttpChunk());
    call.log("200, stream");
    call.startStream();
    startExchange(std::move(call.responder))
        ->playTimed(std::move(pieces), int(std::lround(o.chunkDelayMs * o.timeScale)), -1);
}

void DemoProvider::sendBodyCut(const ChatCall &call, const QByteArray &body, qsizetype bytes)
{
    QHttpServerResponder &responder = call.responder;
    call.log("200, body cut");
    responder.writeStatusLine(Status::Ok);
    responder.writeHeader(QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json"));
    responder.writeHeader(QByteArrayLiteral("Content-Length"), QByteArray::number(body.size()));
    for (const auto &[name, value] : call.windowHeaders())
        responder.writeHeader(name, value);
    const qsizetype sent = std::clamp<qsizetype>(bytes, 0, body.size() - 1);
    const int intervalMs = int(std::lround(call.options.chunkDelayMs * call.options.timeScale));
    startExchange(std::move(responder))
        ->playTimed(sent > 0 ? QList<QByteArray> { body.first(sent) } : QList<QByteArray> {},
            intervalMs, sent > 0 ? 1 : 0);
}

void DemoProvider::answerFirehose(const ChatCall &call, const DemoChatRequest &chat)
{
    QHttpServerResponder &responder = call.responder;
    const DemoOptions &o = call.options;
    const qint64 bytes = o.answerBytes > 0 ? o.answerBytes : kFirehoseDefaultBytes;
    const int chunks = int(
        std::min<qint64>(o.answerChunks > 0 ? o.answerChunks : kFirehoseDefaultChunks, bytes));
    if (!chat.stream) {
        const QString source = firehoseText();
        QString text;
        text.reserve(bytes);
        while (text.size() < bytes)
            text += source;
        text.truncate(bytes);
        return call.reply(Status::Ok,
            completionBody(
                call.index, chat.model, text, chat.promptTokens, {}, o.costPerMillionTokens));
    }
    call.log("200, firehose stream");
    call.startStream();
    DemoExchange::Firehose f { ChunkFormat(call.index, chat.model, o.costPerMillionTokens), 0, 0, 0,
        0, {}, 0, {} };
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
}

} // namespace capwatch::demo
