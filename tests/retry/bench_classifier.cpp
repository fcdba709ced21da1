// Figures of classify() on a typical token-limit body and on bodies of 1 MiB (the largest that
// is classified) of every kind revision 2 reads: JSON error texts in English, Russian and
// Chinese, plain text, an error inside a 200 and in a 200 event stream. Printed: each kind's
// time at 1 MiB, and its cost per byte at 64 KiB, 256 KiB and 1 MiB. Checked: each 1 MiB body
// takes under 40 ms (the fastest of several runs, so a busy machine does not fail it; in an
// optimised build without AddressSanitizer, elsewhere only the figures are printed), and for
// every kind the cost per byte does not grow with the size (at most 3x from 64 KiB to 1 MiB: a
// quadratic scan would be 16x).

#include "retry/classifier.h"
#include "support/sanitizers.h"

#include <QElapsedTimer>
#include <QTest>
#include <algorithm>
#include <cstring>
#include <vector>

using namespace capwatch::retry;

namespace {

const auto kNow = std::chrono::system_clock::time_point(std::chrono::seconds(1'795'982'400));
constexpr qsizetype kOneMiB = 1024 * 1024;

#if defined(__OPTIMIZE__)
constexpr bool kOptimised = true; // the ci and release presets
#else
constexpr bool kOptimised = false; // dev (Debug): the 40 ms are for the optimised build
#endif

const QByteArray kDenseFiller = "used by gpt-4o 12 in 3x limit of 2.5s retry after v4 tokens, ";
const QByteArray kProseFiller = "The request could not be completed because the service is busy "
                                "for the configured deployment of this model. ";
const QByteArray kRussianFiller = "Превышен лимит токенов: использовано 12 из 3х, через 2.5с "
                                  "повторите, лимит 60 000 токенов. ";
const QByteArray kChineseFiller = "令牌超过限额：已使用12，限额3，请在2.5秒后重试。";

/// `head`, then `filler` repeated, then `tail`, exactly `size` bytes (spaces pad the rest).
QByteArray padded(
    qsizetype size, const QByteArray &head, const QByteArray &filler, const QByteArray &tail)
{
    QByteArray body = head;
    while (body.size() + filler.size() + tail.size() <= size)
        body += filler;
    body += QByteArray(size - body.size() - tail.size(), ' ');
    body += tail;
    return body;
}

/// A token-limit body of `size` bytes whose error text is padded with `filler`.
QByteArray bodyOfSize(qsizetype size, const QByteArray &filler = kDenseFiller)
{
    return padded(size, R"({"error":"Token limit exceeded: used 60323, limit 60000. )", filler,
        R"( Retry in 18 min."})");
}

Classification run(const QByteArray &body, int status = 422, const Headers &headers = {})
{
    Response r;
    r.status = status;
    r.headers = headers;
    r.body = std::string_view(body.constData(), std::size_t(body.size()));
    return classify(r, 1, kNow);
}

/// The fastest of `rounds` runs, in milliseconds.
double fastestMs(const QByteArray &body, int status, const Headers &headers, int rounds = 7)
{
    double best = 1e9;
    for (int i = 0; i < rounds; ++i) {
        QElapsedTimer t;
        t.start();
        run(body, status, headers);
        best = std::min(best, double(t.nsecsElapsed()) / 1e6);
    }
    return best;
}

struct Case
{
    int status;
    Headers headers;
    QByteArray body;
    Category category;
};

struct Kind
{
    const char *name;
    Case c;
};

/// Every kind of body, `size` bytes each.
std::vector<Kind> kinds(qsizetype size)
{
    const Headers none;
    return {
        { "422 dense English", { 422, none, bodyOfSize(size), Category::TokenLimit } },
        { "422 prose", { 422, none, bodyOfSize(size, kProseFiller), Category::TokenLimit } },
        { "422 Russian", { 422, none, bodyOfSize(size, kRussianFiller), Category::TokenLimit } },
        { "422 Chinese", { 422, none, bodyOfSize(size, kChineseFiller), Category::TokenLimit } },
        { "429 plain text",
            { 429, none,
                padded(size, "Too many requests. ", kDenseFiller, " Please retry after 3 seconds."),
                Category::RateLimit } },
        { "400 too_large at the end",
            { 400, none,
                padded(size, R"({"error":{"message":")", kProseFiller,
                    R"(maximum context length is 4097 tokens, you requested 4268."}})"),
                Category::TooLarge } },
        { "500 every text, double-encoded",
            { 500, none,
                padded(size, R"({"error":{"message":"{\"error\":\")", kDenseFiller,
                    R"(\"}","metadata":{"raw":"x"}},"detail":"busy"})"),
                Category::Transient } },
        { "200 with an error",
            { 200, none, padded(size, R"({"status":429,"message":")", kDenseFiller, R"("})"),
                Category::RateLimit } },
        { "200 stream, error first",
            { 200, { { "Content-Type", "text/event-stream" } },
                padded(size, R"(data: {"error":{"code":429,"message":")", kDenseFiller, "\"}}\n\n"),
                Category::RateLimit } },
    };
}

/// One row per kind, its body of 1 MiB.
void addKindRows()
{
    QTest::addColumn<Case>("c");
    for (const Kind &k : kinds(kOneMiB))
        QTest::newRow(k.name) << k.c;
}

/// The kind of the current row, `size` bytes.
Case currentKindOfSize(qsizetype size)
{
    for (const Kind &k : kinds(size)) {
        if (std::strcmp(k.name, QTest::currentDataTag()) == 0)
            return k.c;
    }
    return {};
}

} // namespace

Q_DECLARE_METATYPE(Case)

class BenchClassifier final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void typicalBody();
    void oneMiBBody();
    void oneMiBEachKind_data();
    void oneMiBEachKind();
    void costGrowsLinearly_data();
    void costGrowsLinearly();
};

void BenchClassifier::typicalBody()
{
    const QByteArray body
        = R"({"error":"Token limit exceeded: used 60323, limit 60000. Retry in 18 min."})";
    QCOMPARE(run(body).category, Category::TokenLimit);
    QBENCHMARK
    {
        run(body);
    }
}

void BenchClassifier::oneMiBBody()
{
    // Dense with numbers, units and near-misses on every line: the scanners' worst honest case.
    const QByteArray body = bodyOfSize(kOneMiB);
    QCOMPARE(run(body).category, Category::TokenLimit);
    QBENCHMARK
    {
        run(body);
    }
}

void BenchClassifier::oneMiBEachKind_data()
{
    addKindRows();
}

void BenchClassifier::oneMiBEachKind()
{
    QFETCH(Case, c);
    QCOMPARE(c.body.size(), kOneMiB);
    QCOMPARE(run(c.body, c.status, c.headers).category, c.category);
    const double ms = fastestMs(c.body, c.status, c.headers);
    qInfo("classify 1 MiB (%s): %.3f ms", QTest::currentDataTag(), ms);
    if (!kOptimised || capwatch::testing::kUnderAsan)
        return; // figures only: unoptimised code or every access checked costs many times more
    QVERIFY2(ms < 40.0, qPrintable(QStringLiteral("%1 ms").arg(ms)));
}

void BenchClassifier::costGrowsLinearly_data()
{
    addKindRows();
}

void BenchClassifier::costGrowsLinearly()
{
    // Time per byte at growing sizes, the fastest of several rounds each; a scan that is not
    // linear (a search restarted at each match, a copy per hit) shows as growth here.
    QFETCH(Case, c);
    QList<double> nsPerByte;
    QString line;
    for (const qsizetype size : { 64 * 1024, 256 * 1024, 1024 * 1024 }) {
        // The same kind of body at this size: its head and tail around less filler.
        const Case sized = currentKindOfSize(size);
        QCOMPARE(run(sized.body, sized.status, sized.headers).category, c.category);
        const double ms
            = fastestMs(sized.body, sized.status, sized.headers, size < kOneMiB ? 21 : 7);
        nsPerByte.append(ms * 1e6 / double(size));
        line += QStringLiteral(" %1").arg(nsPerByte.last(), 6, 'f', 2);
    }
    qInfo("classify ns/byte at 64 KiB / 256 KiB / 1 MiB (%s):%s", QTest::currentDataTag(),
        qPrintable(line));
    QVERIFY2(nsPerByte.last() <= 3 * nsPerByte.first(),
        qPrintable(QStringLiteral("%1 ns/byte at 1 MiB against %2 at 64 KiB")
                       .arg(nsPerByte.last())
                       .arg(nsPerByte.first())));
}

QTEST_GUILESS_MAIN(BenchClassifier)
#include "bench_classifier.moc"
