// How a very fast stream is taken in: decoding cost per chunk, and memory that stays flat while
// the embedded provider's firehose streams 20 MB of answer as fast as the socket takes it.

#include "demo/demoprovider.h"
#include "net/chatclient.h"
#include "net/chatstream.h"
#include "support/demothread.h"
#include "support/sanitizers.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTest>
#include <unistd.h>

using namespace capwatch::net;
using namespace capwatch::demo;
using namespace Qt::StringLiterals;

namespace {

// Under AddressSanitizer the resident set says nothing about what the code keeps.
constexpr bool kResidentSetMeansSomething = !capwatch::testing::kUnderAsan;

/// Resident set of this process in bytes, or -1 where /proc is not available.
qint64 residentBytes()
{
    QFile statm(u"/proc/self/statm"_s);
    if (!statm.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    return fields.size() > 1 ? fields.at(1).toLongLong() * sysconf(_SC_PAGESIZE) : -1;
}

/// A chunk as the firehose sends it, with `textBytes` of ASCII answer.
QByteArray firehoseChunk(qsizetype textBytes)
{
    const QByteArray sentence("The capwatch demo provider is streaming a firehose answer. ");
    const QByteArray text = sentence.repeated(textBytes / sentence.size() + 1).left(textBytes);
    return R"({"id":"chatcmpl-demo-7","object":"chat.completion.chunk","created":1795988429,)"
           R"("model":"capwatch-demo","choices":[{"index":0,"delta":{"content":")"
        + text + R"("},"finish_reason":null}]})";
}

} // namespace

class TestStreamPerf final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void firehoseMemoryStaysFlat();
    void commonChunksDecodeWithoutTheDom();
};

void TestStreamPerf::firehoseMemoryStaysFlat()
{
    if (residentBytes() < 0)
        QSKIP("needs /proc/self/statm to read the resident set");
    DemoOptions options;
    options.scenario = u"firehose"_s;
    capwatch::testing::DemoThread server(options);
    const QUrl url = server.listen();
    QVERIFY(url.isValid());

    ChatClient client;
    client.setCredentialProvider(std::make_shared<NoCredentialProvider>());
    QObject context;
    qint64 chars = 0;
    qsizetype largestPiece = 0;
    int pieces = 0;
    const qint64 before = residentBytes();
    qint64 peak = before;
    bool done = false;
    QString outcome;
    connect(&client, &ChatClient::answerText, &context, [&](quint64, const QString &text) {
        chars += text.size();
        largestPiece = std::max(largestPiece, text.size());
        ++pieces;
        peak = std::max(peak, residentBytes());
    });
    const auto end = [&](const QString &how) {
        return [&, how] {
            done = true;
            outcome = how;
        };
    };
    connect(&client, &ChatClient::succeeded, &context, end(u"succeeded"_s));
    connect(&client, &ChatClient::gaveUp, &context, end(u"gave up"_s));

    ChatRequest request;
    request.endpoint = url;
    request.model = u"capwatch-demo"_s;
    request.messages = { { u"user"_s, u"bench"_s } };
    QElapsedTimer timer;
    timer.start();
    client.send(request);
    QTRY_VERIFY_WITH_TIMEOUT(done, 120'000);
    const qint64 ms = timer.elapsed();
    const qint64 growthKiB = (peak - before) / 1024;
    qInfo("20 MB answer in %d pieces (largest %lld chars) in %lld ms; resident set grew by "
          "%lld KiB",
        pieces, static_cast<long long>(largestPiece), static_cast<long long>(ms),
        static_cast<long long>(growthKiB));

    QCOMPARE(outcome, u"succeeded"_s);
    QCOMPARE(chars, 20'000'000);
    // Passed on as it arrives, in pieces of at most one decoding slice (64 KiB of the wire).
    QVERIFY2(pieces > 100, qPrintable(QString::number(pieces)));
    QVERIFY2(largestPiece <= 64 * 1024, qPrintable(QString::number(largestPiece)));
    // Without back-pressure Qt's HTTP thread takes in the whole 36 MB stream ahead of the
    // decoding (38 MiB of growth measured); with it, a few MiB whatever the answer's length.
    if (kResidentSetMeansSomething)
        QVERIFY2(growthKiB < 16 * 1024, qPrintable(QString::number(growthKiB)));
}

void TestStreamPerf::commonChunksDecodeWithoutTheDom()
{
    // The firehose's shape: 90,000 chunks of 222 bytes of text, 20 MB in all.
    constexpr int kChunks = 90'000;
    constexpr int kGeneralChunks = 9'000; // the general path is timed on a tenth
    const SseEvent event { {}, firehoseChunk(222), {} };

    const StreamDecodeCounts before = streamDecodeCounts();
    QElapsedTimer timer;
    timer.start();
    qint64 chars = 0;
    for (int i = 0; i < kChunks; ++i)
        chars += decodeStreamEvent(event).text.size();
    const qint64 fastMs = timer.restart();
    const StreamDecodeCounts after = streamDecodeCounts();
    for (int i = 0; i < kGeneralChunks; ++i)
        chars -= decodeStreamEventGeneral(event).text.size();
    const qint64 generalMs = timer.elapsed() * (kChunks / kGeneralChunks);
    qInfo("%d chunks: %lld ms; through the JSON DOM about %lld ms", kChunks,
        static_cast<long long>(fastMs), static_cast<long long>(generalMs));

    QCOMPARE(chars, qint64(kChunks - kGeneralChunks) * 222);
    // Every chunk took the fast path: none fell back to the DOM (which gives the same text, so
    // only the counts can tell).
    QCOMPARE(after.fast - before.fast, quint64(kChunks));
    QCOMPARE(after.general - before.general, quint64(0));
    // And the fast path is worth having: at least 3 times as fast as the DOM on these chunks.
    QVERIFY2(
        fastMs * 3 <= generalMs, qPrintable(u"fast %1 ms, DOM %2 ms"_s.arg(fastMs).arg(generalMs)));
    // A loose bound even for debug builds on a busy machine: the DOM takes several times this.
    QVERIFY2(fastMs < capwatch::testing::runawayBoundMs(1500), qPrintable(QString::number(fastMs)));
}

QTEST_GUILESS_MAIN(TestStreamPerf)
#include "tst_streamperf.moc"
