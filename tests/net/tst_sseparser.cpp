// The SSE framing of streamed answers: WHATWG parsing rules, chunking independence, the size
// limit and linear speed on a large stream.

#include "net/sseparser.h"
#include "support/sanitizers.h"

#include <QElapsedTimer>
#include <QTest>
#include <algorithm>

using capwatch::net::SseEvent;
using capwatch::net::SseParser;

namespace {

/// One comparable line per event, so a mismatch prints which field differs.
QByteArray render(const SseEvent &event)
{
    return QByteArrayLiteral("type=") + event.type + QByteArrayLiteral(" id=") + event.id
        + QByteArrayLiteral(" data=") + event.data;
}

QByteArrayList render(const QList<SseEvent> &events)
{
    QByteArrayList out;
    out.reserve(events.size());
    for (const SseEvent &event : events)
        out.append(render(event));
    return out;
}

QByteArray ev(const QByteArray &data, const QByteArray &type = {}, const QByteArray &id = {})
{
    return render(SseEvent { type, data, id });
}

QList<SseEvent> parsePieces(const QByteArrayList &pieces, bool *pending = nullptr)
{
    SseParser parser;
    QList<SseEvent> events;
    for (const QByteArray &piece : pieces) {
        if (!parser.feed(piece, events))
            qFatal("feed failed unexpectedly");
    }
    if (pending)
        *pending = parser.hasPendingData();
    return events;
}

/// A stream using every feature at once, for the chunking tests.
QByteArray mixedStream()
{
    return QByteArrayLiteral("\xEF\xBB\xBF"
                             ": keep-alive\r\n"
                             "\r\n"
                             "retry: 3000\n"
                             "id: 1\r\n"
                             "event: delta\r"
                             "data: {\"content\":\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\"}\r\n"
                             "\r\n"
                             "data:first\n"
                             "data: second\r"
                             "data\r\n"
                             "unknown: field\n"
                             "\n"
                             "event: ping\n"
                             "\r"
                             "id\n"
                             "data:  two spaces\r"
                             "\r"
                             "data: [DONE]\r\n"
                             "\r\n");
}

QByteArrayList mixedStreamEvents()
{
    return {
        ev("{\"content\":\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\"}", "delta", "1"),
        ev("first\nsecond\n", {}, "1"),
        ev(" two spaces"),
        ev("[DONE]"),
    };
}

} // namespace

class TestSseParser final : public QObject
{
    Q_OBJECT

private slots:
    void parses_data();
    void parses();
    void independentOfChunking();
    void sizeLimit();
    void sizeLimitBoundsBufferedLine();
    void resetStartsANewStream();
    void largeStreamIsFast();
    void longLineInSmallChunksIsLinear();
};

void TestSseParser::parses_data()
{
    QTest::addColumn<QByteArrayList>("pieces");
    QTest::addColumn<QByteArrayList>("expected");
    QTest::addColumn<bool>("pending");

    // Line ends.
    QTest::newRow("lf") << QByteArrayList { "data: hello\n\n" } << QByteArrayList { ev("hello") }
                        << false;
    QTest::newRow("crlf") << QByteArrayList { "data: hello\r\n\r\n" }
                          << QByteArrayList { ev("hello") } << false;
    QTest::newRow("lone cr") << QByteArrayList { "data: hello\r\r" }
                             << QByteArrayList { ev("hello") } << false;
    QTest::newRow("mixed line ends") << QByteArrayList { "data: a\rdata: b\ndata: c\r\n\n" }
                                     << QByteArrayList { ev("a\nb\nc") } << false;
    QTest::newRow("cr|lf split between chunks")
        << QByteArrayList { "data: a\r", "\n\r", "\n" } << QByteArrayList { ev("a") } << false;
    QTest::newRow("cr|cr split: two line ends")
        << QByteArrayList { "data: a\r", "\rdata: b\r", "\r" }
        << QByteArrayList { ev("a"), ev("b") } << false;
    QTest::newRow("cr then empty chunk then lf")
        << QByteArrayList { "data: a\r", "", "\n", "\n" } << QByteArrayList { ev("a") } << false;

    // Chunk boundaries inside fields and characters.
    QTest::newRow("split inside field name")
        << QByteArrayList { "da", "ta: x\n\n" } << QByteArrayList { ev("x") } << false;
    QTest::newRow("split inside value")
        << QByteArrayList { "data: hel", "lo\n", "\n" } << QByteArrayList { ev("hello") } << false;
    QTest::newRow("split inside utf-8 sequence")
        << QByteArrayList { "data: caf\xC3", "\xA9 \xF0\x9F", "\x98\x80\n\n" }
        << QByteArrayList { ev("caf\xC3\xA9 \xF0\x9F\x98\x80") } << false;

    // Byte order mark.
    QTest::newRow("bom") << QByteArrayList { "\xEF\xBB\xBF"
                                             "data: x\n\n" }
                         << QByteArrayList { ev("x") } << false;
    QTest::newRow("bom split") << QByteArrayList { "\xEF", "\xBB",
        "\xBF"
        "data: x\n\n" } << QByteArrayList { ev("x") }
                               << false;
    QTest::newRow("only the first bom is stripped") << QByteArrayList { "\xEF\xBB\xBF\xEF\xBB\xBF"
                                                                        "data: x\n\ndata: y\n\n" }
                                                    << QByteArrayList { ev("y") } << false;
    QTest::newRow("short first chunk is not a bom")
        << QByteArrayList { "d", "ata: x\n\n" } << QByteArrayList { ev("x") } << false;
    QTest::newRow("bom later in the stream is data")
        << QByteArrayList { "data: \xEF\xBB\xBFx\n\n" } << QByteArrayList { ev("\xEF\xBB\xBFx") }
        << false;

    // Fields.
    QTest::newRow("multi-line data") << QByteArrayList { "data: a\ndata: b\ndata: c\n\n" }
                                     << QByteArrayList { ev("a\nb\nc") } << false;
    QTest::newRow("data without space")
        << QByteArrayList { "data:a\n\n" } << QByteArrayList { ev("a") } << false;
    QTest::newRow("only one leading space removed")
        << QByteArrayList { "data:  a\n\n" } << QByteArrayList { ev(" a") } << false;
    QTest::newRow("trailing space kept")
        << QByteArrayList { "data: a \n\n" } << QByteArrayList { ev("a ") } << false;
    QTest::newRow("colon in value")
        << QByteArrayList { "data: a: b\n\n" } << QByteArrayList { ev("a: b") } << false;
    QTest::newRow("empty data line dispatches empty data")
        << QByteArrayList { "data:\n\n" } << QByteArrayList { ev("") } << false;
    QTest::newRow("data field without colon")
        << QByteArrayList { "data\n\n" } << QByteArrayList { ev("") } << false;
    QTest::newRow("two empty data lines")
        << QByteArrayList { "data\ndata\n\n" } << QByteArrayList { ev("\n") } << false;
    QTest::newRow("field names are case-sensitive")
        << QByteArrayList { "Data: x\n\n" } << QByteArrayList {} << false;
    QTest::newRow("space before colon is part of the name")
        << QByteArrayList { "data : x\n\n" } << QByteArrayList {} << false;
    QTest::newRow("unknown fields ignored")
        << QByteArrayList { "foo: bar\nretry: 10\ndata: x\nbaz\n\n" } << QByteArrayList { ev("x") }
        << false;
    QTest::newRow("comments ignored")
        << QByteArrayList { ": keep-alive\n\n:\ndata: x\n: in the middle\ndata: y\n\n" }
        << QByteArrayList { ev("x\ny") } << false;
    QTest::newRow("comment-only stream")
        << QByteArrayList { ": a\n: b\r\n:c\r" } << QByteArrayList {} << false;

    // Event type and id.
    QTest::newRow("event type") << QByteArrayList { "event: delta\ndata: x\n\n" }
                                << QByteArrayList { ev("x", "delta") } << false;
    QTest::newRow("event type resets after dispatch")
        << QByteArrayList { "event: a\ndata: 1\n\ndata: 2\n\n" }
        << QByteArrayList { ev("1", "a"), ev("2") } << false;
    QTest::newRow("last event type wins") << QByteArrayList { "event: a\nevent: b\ndata: 1\n\n" }
                                          << QByteArrayList { ev("1", "b") } << false;
    QTest::newRow("event without data not dispatched, type reset")
        << QByteArrayList { "event: ping\n\ndata: x\n\n" } << QByteArrayList { ev("x") } << false;
    QTest::newRow("id persists across events")
        << QByteArrayList { "id: 7\ndata: a\n\ndata: b\n\n" }
        << QByteArrayList { ev("a", {}, "7"), ev("b", {}, "7") } << false;
    QTest::newRow("id set by an event without data")
        << QByteArrayList { "id: 9\n\ndata: a\n\n" } << QByteArrayList { ev("a", {}, "9") }
        << false;
    QTest::newRow("bare id clears it") << QByteArrayList { "id: 7\ndata: a\n\nid\ndata: b\n\n" }
                                       << QByteArrayList { ev("a", {}, "7"), ev("b") } << false;
    QTest::newRow("id with NUL ignored")
        << QByteArrayList { QByteArrayLiteral("id: 1\ndata: a\n\nid: 2\0x\ndata: b\n\n") }
        << QByteArrayList { ev("a", {}, "1"), ev("b", {}, "1") } << false;

    // Dispatch and truncation.
    QTest::newRow("blank lines only")
        << QByteArrayList { "\n\r\n\r\n\n" } << QByteArrayList {} << false;
    QTest::newRow("several events in one chunk")
        << QByteArrayList { "data: 1\n\ndata: 2\n\ndata: 3\n\n" }
        << QByteArrayList { ev("1"), ev("2"), ev("3") } << false;
    QTest::newRow("no blank line: not dispatched, pending")
        << QByteArrayList { "data: x\n" } << QByteArrayList {} << true;
    QTest::newRow("unterminated line pending")
        << QByteArrayList { "data: x" } << QByteArrayList {} << true;
    QTest::newRow("unterminated comment pending")
        << QByteArrayList { ": keep" } << QByteArrayList {} << true;
    QTest::newRow("pending event type")
        << QByteArrayList { "event: x\n" } << QByteArrayList {} << true;
    QTest::newRow("cr at the very end completes the event")
        << QByteArrayList { "data: x\r\r" } << QByteArrayList { ev("x") } << false;
    QTest::newRow("partial bom pending")
        << QByteArrayList { "\xEF\xBB" } << QByteArrayList {} << true;
    QTest::newRow("empty stream") << QByteArrayList {} << QByteArrayList {} << false;
}

void TestSseParser::parses()
{
    QFETCH(QByteArrayList, pieces);
    QFETCH(QByteArrayList, expected);
    QFETCH(bool, pending);

    bool actualPending = false;
    QCOMPARE(render(parsePieces(pieces, &actualPending)), expected);
    QCOMPARE(actualPending, pending);
}

void TestSseParser::independentOfChunking()
{
    const QByteArray stream = mixedStream();
    const QByteArrayList expected = mixedStreamEvents();
    QCOMPARE(render(parsePieces({ stream })), expected);

    QByteArrayList bytes;
    for (char c : stream)
        bytes.append(QByteArray(1, c));
    bool pending = true;
    QCOMPARE(render(parsePieces(bytes, &pending)), expected);
    QVERIFY(!pending);

    for (qsizetype split = 0; split <= stream.size(); ++split) {
        const QByteArrayList pieces { stream.first(split), stream.sliced(split) };
        const QByteArrayList actual = render(parsePieces(pieces, &pending));
        if (actual != expected || pending)
            QFAIL(qPrintable(QStringLiteral("differs when split at byte %1").arg(split)));
    }
}

void TestSseParser::sizeLimit()
{
    QList<SseEvent> events;

    SseParser exact(64);
    // 6 bytes of "data: " plus 58: a 64-byte line, and 59 bytes of event with the joining LF.
    QVERIFY(
        exact.feed(QByteArray(QByteArrayLiteral("data: ") + QByteArray(58, 'a') + "\n\n"), events));
    QCOMPARE(events.size(), 1);
    QCOMPARE(events.at(0).data, QByteArray(58, 'a'));
    QVERIFY(!exact.failed());

    SseParser longLine(64);
    events.clear();
    QVERIFY(!longLine.feed(
        QByteArray(QByteArrayLiteral("data: ") + QByteArray(59, 'a') + "\n\n"), events));
    QVERIFY(longLine.failed());
    QVERIFY(events.isEmpty());
    QVERIFY(!longLine.feed("data: ok\n\n", events));
    QVERIFY(events.isEmpty());
    QVERIFY(!longLine.hasPendingData());

    // Every line is short, the event is not.
    SseParser longEvent(64);
    events.clear();
    const QByteArray line = QByteArrayLiteral("data: ") + QByteArray(25, 'b') + '\n';
    QVERIFY(longEvent.feed(QByteArray("data: small\n\n" + line + line), events));
    QCOMPARE(events.size(), 1);
    QVERIFY(!longEvent.feed(line, events));
    QVERIFY(longEvent.failed());
    QCOMPARE(events.size(), 1);
}

void TestSseParser::sizeLimitBoundsBufferedLine()
{
    // A line that never ends must fail once it outgrows the limit, not grow without bound.
    SseParser parser(1000);
    QList<SseEvent> events;
    const QByteArray piece(100, 'x');
    int accepted = 0;
    while (parser.feed(piece, events) && accepted < 100)
        ++accepted;
    QCOMPARE(accepted, 10);
    QVERIFY(parser.failed());
}

void TestSseParser::resetStartsANewStream()
{
    SseParser parser(32);
    QList<SseEvent> events;
    QVERIFY(parser.feed("id: 5\ndata: a\n\ndata: partial", events));
    QVERIFY(parser.hasPendingData());
    parser.reset();
    QVERIFY(!parser.hasPendingData());
    QVERIFY(parser.feed("\xEF\xBB\xBF"
                        "data: b\n\n",
        events));
    QCOMPARE(render(events), (QByteArrayList { ev("a", {}, "5"), ev("b") }));

    QVERIFY(!parser.feed(QByteArray(40, 'z'), events));
    parser.reset();
    QVERIFY(!parser.failed());
    QVERIFY(parser.feed("data: c\n\n", events));
    QCOMPARE(events.size(), 3);
}

void TestSseParser::largeStreamIsFast()
{
    constexpr int kEvents = 90'000;
    constexpr qsizetype kTarget = 20 * 1024 * 1024;
    const QByteArray head = QByteArrayLiteral(
        "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"model\":\"demo\","
        "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"");
    const QByteArray tail = QByteArrayLiteral("\"},\"finish_reason\":null}]}\r\n\r\n");
    const qsizetype padding = kTarget / kEvents - head.size() - tail.size() + 1;
    const QByteArray event = head + QByteArray(padding, 'w') + tail;
    QByteArray stream;
    stream.reserve(event.size() * kEvents + 64);
    stream += ": keep-alive\n\n";
    for (int i = 0; i < kEvents; ++i)
        stream += event;
    QVERIFY(stream.size() >= kTarget);

    // Consumed per read, as the network layer does: the figure is the parser's, not the cost of
    // keeping 20 MB of events alive at once.
    SseParser parser;
    QList<SseEvent> events;
    qsizetype count = 0;
    qsizetype dataBytes = 0;
    QByteArray last;
    bool ok = true;
    QElapsedTimer timer;
    timer.start();
    constexpr qsizetype kChunk = 16 * 1024; // a typical socket read
    for (qsizetype at = 0; at < stream.size() && ok; at += kChunk) {
        ok = parser.feed(
            QByteArrayView(stream).sliced(at, std::min(kChunk, stream.size() - at)), events);
        for (const SseEvent &e : std::as_const(events))
            dataBytes += e.data.size();
        count += events.size();
        if (!events.isEmpty())
            last = events.constLast().data;
        events.clear();
    }
    const qint64 ms = timer.elapsed();
    qInfo("parsed %lld bytes, %lld events in %lld ms", static_cast<long long>(stream.size()),
        static_cast<long long>(count), static_cast<long long>(ms));

    QVERIFY(ok);
    QCOMPARE(count, kEvents);
    const QByteArray payload = event.sliced(6, event.size() - 6 - 4);
    QCOMPARE(dataBytes, payload.size() * kEvents);
    QCOMPARE(last, payload);
    QVERIFY(!parser.hasPendingData());
    QVERIFY2(ms < capwatch::testing::runawayBoundMs(1000),
        "a 20 MB stream must parse in well under a second");
}

void TestSseParser::longLineInSmallChunksIsLinear()
{
    // An 8 MB data line in 64-byte reads: quadratic buffering would take minutes.
    constexpr qsizetype kSize = 8 * 1024 * 1024;
    SseParser parser;
    QList<SseEvent> events;
    const QByteArray chunk(64, 'q');
    QElapsedTimer timer;
    timer.start();
    QVERIFY(parser.feed("data: ", events));
    for (qsizetype fed = 0; fed < kSize; fed += chunk.size())
        QVERIFY(parser.feed(chunk, events));
    QVERIFY(parser.feed("\n\n", events));
    const qint64 ms = timer.elapsed();
    qInfo("one %lld-byte line in 64-byte chunks: %lld ms", static_cast<long long>(kSize),
        static_cast<long long>(ms));
    QCOMPARE(events.size(), 1);
    QCOMPARE(events.at(0).data.size(), kSize);
    QVERIFY2(ms < capwatch::testing::runawayBoundMs(2000), "buffering a long line must be linear");
}

QTEST_GUILESS_MAIN(TestSseParser)
#include "tst_sseparser.moc"
