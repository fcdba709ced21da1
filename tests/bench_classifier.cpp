// Figures, not pass/fail: classifying a typical token-limit body and bodies up to 1 MiB.

#include "retry/classifier.h"

#include <QElapsedTimer>
#include <QTest>

using namespace capwatch::retry;

namespace {

const auto kNow = std::chrono::system_clock::time_point(std::chrono::seconds(1'795'982'400));

const QByteArray kDenseFiller = "used by gpt-4o 12 in 3x limit of 2.5s retry after v4 tokens, ";
const QByteArray kProseFiller = "The request could not be completed because the prompt is too long "
                                "for the configured context of this deployment. ";

/// A token-limit body of `size` bytes whose error text is padded with `filler`.
QByteArray bodyOfSize(qsizetype size, const QByteArray &filler = kDenseFiller)
{
    const QByteArray head = R"({"error":"Token limit exceeded: used 60323, limit 60000. )";
    const QByteArray tail = R"( Retry in 18 min."})";
    QByteArray body = head;
    while (body.size() + filler.size() + tail.size() <= size)
        body += filler;
    body += QByteArray(size - body.size() - tail.size(), ' ');
    body += tail;
    return body;
}

Classification run(const QByteArray &body)
{
    Response r;
    r.status = 422;
    r.body = std::string_view(body.constData(), std::size_t(body.size()));
    return classify(r, 1, kNow);
}

} // namespace

class BenchClassifier final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void typicalBody();
    void oneMiBBody();
    void oneMiBProseBody();
    void costGrowsLinearly();
};

void BenchClassifier::typicalBody()
{
    const QByteArray body =
            R"({"error":"Token limit exceeded: used 60323, limit 60000. Retry in 18 min."})";
    QCOMPARE(run(body).category, Category::TokenLimit);
    QBENCHMARK {
        run(body);
    }
}

void BenchClassifier::oneMiBBody()
{
    // Dense with numbers, units and near-misses on every line: the scanners' worst honest case.
    const QByteArray body = bodyOfSize(1024 * 1024);
    QCOMPARE(run(body).category, Category::TokenLimit);
    QBENCHMARK {
        run(body);
    }
}

void BenchClassifier::oneMiBProseBody()
{
    const QByteArray body = bodyOfSize(1024 * 1024, kProseFiller);
    QCOMPARE(run(body).category, Category::TokenLimit);
    QBENCHMARK {
        run(body);
    }
}

void BenchClassifier::costGrowsLinearly()
{
    // Prints time per byte for growing sizes; the figure should stay roughly flat.
    for (const qsizetype size : { 64 * 1024, 256 * 1024, 1024 * 1024 }) {
        const QByteArray body = bodyOfSize(size);
        QElapsedTimer t;
        t.start();
        const int rounds = 5;
        for (int i = 0; i < rounds; ++i)
            QCOMPARE(run(body).category, Category::TokenLimit);
        const double ms = double(t.nsecsElapsed()) / 1e6 / rounds;
        qInfo("classify %7lld bytes: %8.3f ms, %6.2f ns/byte", qlonglong(size), ms,
              ms * 1e6 / double(size));
    }
}

QTEST_GUILESS_MAIN(BenchClassifier)
#include "bench_classifier.moc"
