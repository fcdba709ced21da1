// The fuzzers' invariants (fuzz/*checks.h) in every CI run: on the inputs the fuzzers found
// failing (bytes inline, one row each, named after the artifact) and on the seed corpora
// (tests/data/responses.jsonl, fuzz/seeds/sse), so the invariants hold without a fuzzing run.

#include "../fuzz/classifierchecks.h"
#include "../fuzz/explainchecks.h"
#include "../fuzz/ssechecks.h"
#include "support/clirunner.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>
#include <chrono>
#include <vector>

using namespace Qt::StringLiterals;

namespace {

/// The clock of the seeds (a day in 2026), in seconds since 1970.
constexpr qint64 kSeedNow = 1795988429;

struct Case
{
    QString name;
    int status = 0;
    int retryIndex = 1;
    QByteArrayList headers; ///< `Name: value`
    QByteArray body;
};

QList<Case> corpusCases()
{
    QList<Case> cases;
    QFile corpus(QStringLiteral(CAPWATCH_TEST_DATA_DIR "/responses.jsonl"));
    if (!corpus.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(corpus.fileName()));
    while (!corpus.atEnd()) {
        const QJsonObject o = QJsonDocument::fromJson(corpus.readLine()).object();
        if (o.isEmpty())
            continue;
        Case c;
        c.name = o.value(u"name").toString();
        c.status = o.value(u"status").toInt();
        c.retryIndex = o.value(u"retry_index").toInt(1);
        const QJsonObject h = o.value(u"headers").toObject();
        for (auto it = h.begin(); it != h.end(); ++it)
            c.headers.append((it.key() + u": "_s + it.value().toString()).toUtf8());
        c.body = o.contains(u"body_b64")
            ? QByteArray::fromBase64(o.value(u"body_b64").toString().toLatin1())
            : o.value(u"body").toString().toUtf8();
        cases.append(c);
    }
    return cases;
}

/// A byte string literal with its NULs, as a QByteArray.
template<std::size_t N> QByteArray bytes(const char (&literal)[N])
{
    return QByteArray(literal, qsizetype(N - 1));
}

/// fuzz_explain_args' reading of its input: the arguments, split on NUL, after the program name.
QStringList explainArgs(const QByteArray &input)
{
    QStringList args;
    if (!input.isEmpty()) {
        for (const QByteArray &arg : input.split('\0'))
            args.append(QString::fromUtf8(arg));
    }
    return args;
}

} // namespace

class TestFuzzRegressions final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void classifier_data();
    void classifier();
    void sse_data();
    void sse();
    void explain_data();
    void explain();
};

void TestFuzzRegressions::classifier_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("retryIndex");
    QTest::addColumn<QByteArrayList>("headers");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<qint64>("now");

    // Found by fuzz_classifier (crash-993a8a42...): a wait value past long long; llround() made
    // it LLONG_MIN, a negative wait (textscan.cpp, toMillis).
    QTest::newRow("fuzz: negative wait hint from 29 digits")
        << 404 << 2 << QByteArrayList {}
        << bytes("{\"error\": 422, \"message\": \"token\016 ilmt]}222222222222222222222222222 "
                 "sec2222222222222222222\000\315\233\014k}")
        << kSeedNow;
    // The same cause through classify(): messages asking for 10^20 s and 10^300 min.
    QTest::newRow("token limit asking 10^20 s")
        << 422 << 1 << QByteArrayList {}
        << QByteArray(R"({"error":"Token limit exceeded: used 60323, limit 60000. )"
                      R"(Retry after 99999999999999999999 seconds."})")
        << kSeedNow;
    QTest::newRow("429 asking 10^300 min")
        << 429 << 1 << QByteArrayList {}
        << QByteArray(R"({"error":"slow down","message":"retry in 1)") + QByteArray(300, '0')
            + QByteArray(R"( minutes"})")
        << kSeedNow;
    // The header path has the same conversion (classifier.cpp, waitFromHeaders).
    QTest::newRow("retry-after 10^20 s")
        << 429 << 1 << QByteArrayList { "Retry-After: 99999999999999999999" } << QByteArray("{}")
        << kSeedNow;
    QTest::newRow("retry-after-ms 10^400")
        << 503 << 1 << QByteArrayList { "retry-after-ms: 1" + QByteArray(400, '0') } << QByteArray()
        << kSeedNow;
    // Found by fuzz_classifier (crash-a2bd5d3d...): an HTTP-date after 2262 overflowed the
    // conversion to system_clock's nanoseconds (httpdate.cpp, build).
    QTest::newRow("fuzz: asctime date in 4335")
        << 429 << 676
        << QByteArrayList { " RETRY-AFTER : " + QByteArray(24, '\t') + "Sun Nov  6 08:49:37 4335",
               " RETRY-AFTER : " }
        << QByteArray() << qint64(151614217);
    QTest::newRow("retry-after year 9999")
        << 422 << 1 << QByteArrayList { "Retry-After: Fri, 31 Dec 9999 23:59:59 GMT" }
        << QByteArray(R"({"error":"Token limit exceeded: used 60323, limit 60000."})") << kSeedNow;
    QTest::newRow("retry-after year 0000")
        << 429 << 1 << QByteArrayList { "Retry-After: Sat, 01 Jan 0000 00:00:00 GMT" }
        << QByteArray() << kSeedNow;
    QTest::newRow("retry-after RFC 850 year 69 (2069)")
        << 503 << 1 << QByteArrayList { "Retry-After: Sunday, 06-Nov-69 08:49:37 GMT" }
        << QByteArray() << kSeedNow;

    // Found by fuzz_classifier (crash-59dc5a65...): nlohmann::json ends its input at a NUL
    // between tokens; the policy's JSON reader does not take this body for JSON (jsonscan.h).
    QTest::newRow("fuzz: NUL after the JSON of a 200")
        << 200 << 1 << QByteArrayList {}
        << bytes("{\"status\": 429, \"message\": \"Too many requests\", \"code\": \"503\"}\000")
        << kSeedNow;

    // Every reference response, and its body under the other statuses that read bodies, as an
    // error inside a 200 and as the first event of a 200 stream.
    const QByteArrayList stream { "Content-Type: text/event-stream" };
    for (const Case &c : corpusCases()) {
        QTest::newRow(qPrintable(u"corpus: "_s + c.name))
            << c.status << c.retryIndex << c.headers << c.body << kSeedNow;
        for (const int status : { 429, 503, 401, 404, 400, 402, 413, 200, 0 }) {
            QTest::newRow(qPrintable(u"corpus as %1: "_s.arg(status) + c.name))
                << status << 2 << c.headers << c.body << kSeedNow;
        }
        QTest::newRow(qPrintable(u"corpus as a 200 stream: "_s + c.name))
            << 200 << 1 << stream << c.body << kSeedNow;
    }

    // Revision 2's extra seeds (fuzz/seeds/classifier), as make-seeds.sh uses them.
    const QDir seeds(QStringLiteral(CAPWATCH_TEST_DATA_DIR "/../../fuzz/seeds/classifier"));
    const QStringList files = seeds.entryList(QDir::Files, QDir::Name);
    QVERIFY2(files.size() >= 10, qPrintable(seeds.absolutePath()));
    const QByteArrayList resets { "x-ratelimit-reset-tokens: 6m0s",
        "x-rate-limit-reset-requests: 1.5" };
    for (const QString &name : files) {
        QFile file(seeds.filePath(name));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray body = file.readAll();
        for (const int status : { 422, 429, 503, 401, 400, 402, 413, 200 }) {
            QTest::newRow(qPrintable(u"seed %1 as %2"_s.arg(name).arg(status)))
                << status << 2 << QByteArrayList {} << body << kSeedNow;
        }
        QTest::newRow(qPrintable(u"seed %1 as a 200 stream"_s.arg(name)))
            << 200 << 1 << stream << body << kSeedNow;
        QTest::newRow(qPrintable(u"seed %1 with reset headers"_s.arg(name)))
            << 429 << 1 << resets << body << kSeedNow;
    }
}

void TestFuzzRegressions::classifier()
{
    QFETCH(int, status);
    QFETCH(int, retryIndex);
    QFETCH(QByteArrayList, headers);
    QFETCH(QByteArray, body);
    QFETCH(qint64, now);

    capwatch::retry::Response r;
    r.status = status;
    if (status == 0)
        r.network = capwatch::retry::NetworkFailure::BrokenBeforeHeaders;
    for (const QByteArray &header : std::as_const(headers)) {
        const qsizetype colon = header.indexOf(':');
        r.headers.emplace_back(
            header.left(colon).toStdString(), header.mid(colon + 1).toStdString());
    }
    r.body = std::string_view(body.constData(), std::size_t(body.size()));
    const std::string violation = capwatch::fuzz::classificationViolation(
        r, retryIndex, std::chrono::system_clock::time_point(std::chrono::seconds(now)));
    QVERIFY2(violation.empty(), violation.c_str());
}

void TestFuzzRegressions::sse_data()
{
    QTest::addColumn<QByteArray>("stream");

    const QDir seeds(QStringLiteral(CAPWATCH_TEST_DATA_DIR "/../../fuzz/seeds/sse"));
    const QStringList files = seeds.entryList(QDir::Files, QDir::Name);
    QVERIFY2(!files.isEmpty(), qPrintable(seeds.absolutePath()));
    for (const QString &name : files) {
        QFile file(seeds.filePath(name));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QTest::newRow(qPrintable(u"seed "_s + name)) << file.readAll();
    }
    for (const Case &c : corpusCases())
        QTest::newRow(qPrintable(u"corpus body: "_s + c.name)) << c.body;
}

void TestFuzzRegressions::sse()
{
    QFETCH(QByteArray, stream);
    // The chunkings fuzz_sse draws from, the event size limit unlimited and tight.
    const std::vector<std::vector<qsizetype>> chunkings {
        { 1 },
        { 2 },
        { 3, 1, 4, 1, 5, 9, 2, 6 },
        { 7, 64 },
        { 4096 },
    };
    for (const qsizetype limit : { qsizetype(16 * 1024 * 1024), qsizetype(64), qsizetype(1) }) {
        for (const auto &pieces : chunkings) {
            const std::string violation = capwatch::fuzz::sseViolation(stream, limit, pieces);
            QVERIFY2(violation.empty(),
                qPrintable(QString::fromStdString(violation)
                    + u" (limit %1, first piece %2)"_s.arg(limit).arg(pieces.front())));
        }
    }
}

void TestFuzzRegressions::explain_data()
{
    QTest::addColumn<QStringList>("args");

    // Found by fuzz_explain_args (crash-91090e82...): a 422 asking 10^19 s gave
    // "wait_s":-9223372036854776 (textscan.cpp, toMillis). The input as the fuzzer had it.
    QTest::newRow("fuzz: negative wait_s")
        << explainArgs(bytes("--status\0"
                             "422\0--retry-index\0"
                             "1\0--body\0"
                             "{\"error\": \"=oken limit 999999999999999999999999999999999999999999"
                             "\276"
                             "9999999999999999999second99999999000. Please wait 45 sec.\"}"));

    for (const Case &c : corpusCases()) {
        QStringList args { u"--status"_s, QString::number(c.status), u"--retry-index"_s,
            QString::number(c.retryIndex) };
        for (const QByteArray &header : std::as_const(c.headers))
            args << u"--header"_s << QString::fromUtf8(header);
        args << u"--body"_s << QString::fromUtf8(c.body);
        QTest::newRow(qPrintable(u"corpus: "_s + c.name)) << args;
    }
    QTest::newRow("help") << QStringList { u"--help"_s };
    QTest::newRow("no status") << QStringList { u"--body"_s, u"{}"_s };
    QTest::newRow("bad header") << QStringList { u"--status"_s, u"422"_s, u"--header"_s,
        u"Retry-After 5"_s, u"--body"_s, u"{}"_s };
    QTest::newRow("stray argument")
        << QStringList { u"--status=429"_s, u"--body={}"_s, u"extra"_s };
}

void TestFuzzRegressions::explain()
{
    QFETCH(QStringList, args);
    capwatch::testing::CliOptions options; // an empty standard input, as the fuzzer gives it
    options.timeoutMs = 30000;
    const capwatch::testing::CliRun run
        = capwatch::testing::runCli(QStringList { u"explain"_s } + args, options);
    QVERIFY2(run.started, "capwatch-cli did not start (is it built?)");
    QVERIFY(run.finished);
    QCOMPARE(run.status, QProcess::NormalExit);
    const QByteArray out = run.out;
    const QByteArray err = run.err;
    const std::string violation = capwatch::fuzz::explainViolation(run.exitCode, out, err);
    QVERIFY2(violation.empty(),
        qPrintable(QString::fromStdString(violation) + u"\nstdout: "_s + QString::fromUtf8(out)
            + u"\nstderr: "_s + QString::fromUtf8(err)));
}

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "tst_fuzzregressions.moc"
