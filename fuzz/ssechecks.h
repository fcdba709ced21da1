#pragma once

// The invariants fuzz_sse checks, shared with tests/net/tst_fuzzregressions.cpp: SSE framing does
// not depend on how the bytes are chunked, the fast stream decoder agrees with the general one,
// and nothing throws or crashes on any bytes.

#include "net/chatstream.h"
#include "net/sseparser.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>
#include <algorithm>
#include <string>
#include <vector>

namespace capwatch::fuzz {

struct SseRun
{
    QList<net::SseEvent> events;
    bool allFeedsOk = true;
    bool failed = false;
    bool pending = false;
};

/// Parses `stream` in pieces of the given sizes (cycled; empty: in one piece).
inline SseRun runSse(
    QByteArrayView stream, qsizetype maxEventBytes, const std::vector<qsizetype> &pieceSizes)
{
    SseRun run;
    net::SseParser parser(maxEventBytes);
    if (pieceSizes.empty()) {
        run.allFeedsOk = parser.feed(stream, run.events);
    } else {
        qsizetype at = 0;
        for (std::size_t i = 0; at < stream.size(); ++i) {
            const qsizetype n = std::min(
                std::max<qsizetype>(pieceSizes[i % pieceSizes.size()], 1), stream.size() - at);
            // Keep feeding after a failure: a failed parser must stay failed and quiet.
            if (!parser.feed(stream.sliced(at, n), run.events))
                run.allFeedsOk = false;
            at += n;
        }
    }
    run.failed = parser.failed();
    run.pending = parser.hasPendingData();
    return run;
}

/// Empty when the two decodings agree in every field a caller can see; else what differs.
inline std::string updateDifferences(const net::ChatStreamUpdate &a, const net::ChatStreamUpdate &b)
{
    std::string out;
    const auto check = [&out](bool same, const char *what) {
        if (!same)
            out += out.empty() ? what : std::string(", ") + what;
    };
    check(a.text == b.text, "text");
    check(a.finishReason == b.finishReason, "finishReason");
    check(a.done == b.done, "done");
    check(a.malformed == b.malformed, "malformed");
    check(a.usage.has_value() == b.usage.has_value(), "usage presence");
    if (a.usage && b.usage) {
        check(a.usage->promptTokens == b.usage->promptTokens, "promptTokens");
        check(a.usage->completionTokens == b.usage->completionTokens, "completionTokens");
        check(a.usage->totalTokens == b.usage->totalTokens, "totalTokens");
        check(a.usage->cachedTokens == b.usage->cachedTokens, "cachedTokens");
        check(a.usage->reasoningTokens == b.usage->reasoningTokens, "reasoningTokens");
        check(a.usage->cost == b.usage->cost, "cost");
    }
    check(a.error.has_value() == b.error.has_value(), "error presence");
    if (a.error && b.error) {
        check(a.error->message == b.error->message, "error message");
        check(a.error->type == b.error->type, "error type");
        check(a.error->code == b.error->code, "error code");
        check(a.error->raw == b.error->raw, "error raw");
    }
    return out;
}

/// Runs the parser and the decoders on `stream`; returns an empty string when every invariant
/// holds, else which one broke.
inline std::string sseViolation(
    QByteArrayView stream, qsizetype maxEventBytes, const std::vector<qsizetype> &pieceSizes)
{
    const SseRun whole = runSse(stream, maxEventBytes, {});
    const SseRun pieces = runSse(stream, maxEventBytes, pieceSizes);
    if (whole.events.size() != pieces.events.size())
        return "chunking changed the number of events: " + std::to_string(whole.events.size())
            + " whole, " + std::to_string(pieces.events.size()) + " in pieces";
    for (qsizetype i = 0; i < whole.events.size(); ++i) {
        const net::SseEvent &a = whole.events.at(i);
        const net::SseEvent &b = pieces.events.at(i);
        if (a.type != b.type || a.data != b.data || a.id != b.id)
            return "chunking changed event " + std::to_string(i);
    }
    if (whole.allFeedsOk != pieces.allFeedsOk || whole.failed != pieces.failed)
        return "chunking changed whether the parser failed";
    if (whole.failed == whole.allFeedsOk)
        return "feed() result disagrees with failed()";
    if (whole.pending != pieces.pending)
        return "chunking changed hasPendingData()";
    if (whole.failed && whole.pending)
        return "a failed parser still holds pending data";

    for (qsizetype i = 0; i < whole.events.size(); ++i) {
        const net::SseEvent &event = whole.events.at(i);
        const std::string diff = updateDifferences(
            net::decodeStreamEvent(event), net::decodeStreamEventGeneral(event));
        if (!diff.empty())
            return "event " + std::to_string(i) + ": decodeStreamEvent() and "
                + "decodeStreamEventGeneral() differ in " + diff;
        (void)net::parseChatCompletion(event.data, nullptr);
    }

    QString error;
    if (!net::parseChatCompletion(stream, &error) && error.isEmpty())
        return "parseChatCompletion() failed without saying why";
    return {};
}

} // namespace capwatch::fuzz
