// The model list of an endpoint (issue 17): its URL, the parsing of the OpenAI list, and the
// fetch against the demo provider's /v1/models and a few lines of server for what the demo never
// answers (garbage, a hold, a redirect to another host, an oversized list).

#include "demo/demoprovider.h"
#include "net/credentials.h"
#include "net/modellist.h"
#include "support/loopbackserver.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <memory>

using namespace capwatch;
using namespace capwatch::net;
using namespace capwatch::demo;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using capwatch::testing::httpResponse;
using capwatch::testing::LoopbackServer;

namespace {

std::shared_ptr<CredentialProvider> keyed(const QByteArray &key)
{
    return std::make_shared<CallbackCredentialProvider>(
        u"test key"_s, [key](const CredentialProvider::Done &done) {
            done({ key, u"test key"_s, {} });
        });
}

/// One fetch to its end: true when exactly one of listed() / failed() came.
struct Fetch
{
    explicit Fetch(ModelLister &lister)
        : listed(&lister, &ModelLister::listed)
        , failed(&lister, &ModelLister::failed)
    { }
    bool wait(int timeoutMs = 10000)
    {
        return QTest::qWaitFor([this] { return listed.size() + failed.size() > 0; }, timeoutMs)
            && listed.size() + failed.size() == 1;
    }
    QStringList models() const
    {
        return listed.isEmpty() ? QStringList() : listed.constFirst().at(1).toStringList();
    }
    QString reason() const
    {
        return failed.isEmpty() ? QString() : failed.constFirst().at(1).toString();
    }
    QSignalSpy listed;
    QSignalSpy failed;
};

} // namespace

class TestModelList final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void modelsUrl_data();
    void modelsUrl();
    void parse_data();
    void parse();
    void parseRefusesMoreThan4MB();
    void listsTheDemoModels();
    void keyOnlyWhereItIsSent();
    void notFoundFails();
    void garbageFails();
    void heldRequestTimesOut();
    void aKeyThatNeverComesTimesOut();
    void redirectToAnotherHostIsNotFollowed();
    void oversizedListFails();
    void invalidEndpointFailsLater();
    void aNewFetchDropsTheOldOne();
};

void TestModelList::modelsUrl_data()
{
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<QString>("expected");
    QTest::newRow("base") << u"http://127.0.0.1:8080/v1"_s << u"http://127.0.0.1:8080/v1/models"_s;
    QTest::newRow("base with slash")
        << u"https://api.example.com/v1/"_s << u"https://api.example.com/v1/models"_s;
    QTest::newRow("chat completions") << u"https://api.example.com/openai/v1/chat/completions"_s
                                      << u"https://api.example.com/openai/v1/models"_s;
    QTest::newRow("chat completions/")
        << u"https://h/v1/chat/completions/"_s << u"https://h/v1/models"_s;
    QTest::newRow("no path") << u"http://h:11434"_s << u"http://h:11434/models"_s;
    QTest::newRow("already models") << u"http://h/v1/models"_s << u"http://h/v1/models"_s;
    QTest::newRow("query kept") << u"https://h/v1?api-version=2024-06-01"_s
                                << u"https://h/v1/models?api-version=2024-06-01"_s;
    QTest::newRow("user info dropped") << u"http://user:secret@h/v1"_s << u"http://h/v1/models"_s;
    QTest::newRow("ftp") << u"ftp://h/v1"_s << QString();
    QTest::newRow("no host") << u"http:///v1"_s << QString();
    QTest::newRow("empty") << QString() << QString();
}

void TestModelList::modelsUrl()
{
    QFETCH(QString, endpoint);
    QFETCH(QString, expected);
    const QUrl url = net::modelsUrl(QUrl(endpoint));
    QCOMPARE(url.isValid() ? url.toString() : QString(), expected);
}

void TestModelList::parse_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QStringList>("models"); // empty with an error
    QTest::addColumn<QString>("error");
    QTest::newRow("openai") << QByteArray(R"({"object":"list","data":[{"id":"gpt-4o","object":)"
                                          R"("model"},{"id":"b-model"},{"id":"A-model"},)"
                                          R"({"id":"gpt-4o"}]})")
                            << QStringList { u"A-model"_s, u"b-model"_s, u"gpt-4o"_s } << QString();
    QTest::newRow("bare array") << QByteArray(R"([{"id":"z"},{"id":"y","owned_by":"me"}])")
                                << QStringList { u"y"_s, u"z"_s } << QString();
    QTest::newRow("case apart") << QByteArray(R"([{"id":"m"},{"id":"M"},{"id":"m"}])")
                                << QStringList { u"M"_s, u"m"_s } << QString();
    QTest::newRow("empty list") << QByteArray(R"({"data":[]})") << QStringList() << QString();
    QTest::newRow("odd entries skipped")
        << QByteArray(R"({"data":[{"id":7},"x",{"name":"n"},{"id":""},{"id":"ok"}]})")
        << QStringList { u"ok"_s } << QString();
    QTest::newRow("unicode") << QByteArray(R"({"data":[{"id":"模型"}]})")
                             << QStringList { u"模型"_s } << QString();
    QTest::newRow("html") << QByteArray("<html><body>Not here</body></html>") << QStringList()
                          << u"not a model list: the answer is not JSON"_s;
    QTest::newRow("empty body") << QByteArray() << QStringList()
                                << u"not a model list: the answer is not JSON"_s;
    QTest::newRow("no data") << QByteArray(R"({"object":"list"})") << QStringList()
                             << u"not a model list: no \"data\" array"_s;
    QTest::newRow("data not an array") << QByteArray(R"({"data":{"id":"x"}})") << QStringList()
                                       << u"not a model list: no \"data\" array"_s;
    QTest::newRow("a string") << QByteArray(R"("gpt-4o")") << QStringList()
                              << u"not a model list: neither an object nor an array"_s;
    QTest::newRow("no ids") << QByteArray(R"({"data":[{"name":"a"},{"name":"b"}]})")
                            << QStringList() << u"not a model list: no entry has an \"id\""_s;
}

void TestModelList::parse()
{
    QFETCH(QByteArray, body);
    QFETCH(QStringList, models);
    QFETCH(QString, error);
    QString why;
    const auto ids = parseModelList(body, &why);
    if (error.isEmpty()) {
        QVERIFY2(ids, qPrintable(why));
        QCOMPARE(*ids, models);
    } else {
        QVERIFY(!ids);
        QCOMPARE(why, error);
    }
    parseModelList(body); // without an error pointer too
}

void TestModelList::parseRefusesMoreThan4MB()
{
    QByteArray body = R"({"data":[{"id":"a"}],"pad":")";
    body += QByteArray(kMaxModelListBytes - body.size() - 2, 'x') + "\"}";
    QCOMPARE(body.size(), kMaxModelListBytes);
    QCOMPARE(parseModelList(body).value_or(QStringList()), QStringList { u"a"_s });
    body.insert(body.size() - 2, 'x');
    QString why;
    QVERIFY(!parseModelList(body, &why));
    QCOMPARE(why, u"the model list is larger than 4 MB"_s);
}

void TestModelList::listsTheDemoModels()
{
    DemoProvider demo;
    QVERIFY(demo.listen());
    ModelLister lister;
    Fetch fetch(lister);
    lister.fetch(demo.baseUrl(), std::make_shared<NoCredentialProvider>(),
        { { "X-Title", "capwatch" }, { "Authorization", "Bearer smuggled" } });
    QVERIFY(lister.busy());
    QCOMPARE(fetch.listed.size() + fetch.failed.size(), 0); // never before fetch() returns
    QVERIFY(fetch.wait());
    QCOMPARE(fetch.models(), QStringList { u"capwatch-demo"_s });
    QCOMPARE(fetch.listed.constFirst().at(0).toUrl(), demo.baseUrl());
    QVERIFY(!lister.busy());

    const QList<RecordedRequest> requests = demo.recordedRequests();
    QCOMPARE(requests.size(), 1);
    QCOMPARE(requests[0].method, QByteArray("GET"));
    QCOMPARE(requests[0].path, QByteArray("/v1/models"));
    QCOMPARE(requests[0].header("X-Title"), QByteArray("capwatch"));
    QCOMPARE(requests[0].header("Accept"), QByteArray("application/json"));
    // Loopback without a key: no Authorization at all, the profile's smuggled one dropped.
    QVERIFY(requests[0].header("Authorization").isNull());
    QVERIFY(!demo.sawKey("smuggled"));
    QCOMPARE(demo.chatRequests(), 0);
}

void TestModelList::keyOnlyWhereItIsSent()
{
    DemoProvider demo;
    QVERIFY(demo.listen());
    ModelLister lister;
    {
        Fetch fetch(lister);
        lister.fetch(demo.baseUrl(), keyed("sk-list-key"));
        QVERIFY(fetch.wait());
        QCOMPARE(fetch.models(), QStringList { u"capwatch-demo"_s });
    }
    QVERIFY(demo.sawKey("sk-list-key"));
    QCOMPARE(demo.recordedRequests().constLast().header("Authorization"), QByteArray("Bearer ***"));

    // A key that cannot travel in a header is never sent, and says so.
    Fetch bad(lister);
    lister.fetch(demo.baseUrl(), keyed("sk with space"));
    QVERIFY(bad.wait());
    QCOMPARE(bad.reason(), u"the API key from test key contains characters that cannot be sent"_s);
    QCOMPARE(demo.recordedRequests().size(), 1);
}

void TestModelList::notFoundFails()
{
    DemoProvider demo;
    QVERIFY(demo.listen());
    ModelLister lister;
    Fetch fetch(lister);
    QUrl other = demo.baseUrl();
    other.setPath(u"/other/v1"_s);
    lister.fetch(other, std::make_shared<NoCredentialProvider>());
    QVERIFY(fetch.wait());
    QVERIFY2(fetch.reason().startsWith(u"HTTP 404 Not Found: Invalid URL (GET /other/v1/models)"_s),
        qPrintable(fetch.reason()));
    QCOMPARE(fetch.failed.constFirst().at(0).toUrl(), other);
    QCOMPARE(demo.recordedRequests().constLast().path, QByteArray("/other/v1/models"));
}

void TestModelList::garbageFails()
{
    LoopbackServer server(
        httpResponse("200 OK", "<html>a gateway's login page</html>", "text/html"));
    QVERIFY(server.listen());
    ModelLister lister;
    Fetch fetch(lister);
    lister.fetch(server.url(), std::make_shared<NoCredentialProvider>());
    QVERIFY(fetch.wait());
    QCOMPARE(fetch.reason(), u"not a model list: the answer is not JSON"_s);
    QCOMPARE(server.heads().size(), 1);
    QVERIFY(server.heads()[0].startsWith("GET /v1/models HTTP/1.1\r\n"));
}

void TestModelList::heldRequestTimesOut()
{
    LoopbackServer server(QByteArray {});
    QVERIFY(server.listen());
    ModelLister lister;
    lister.setTimeout(300ms);
    Fetch fetch(lister);
    lister.fetch(server.url(), std::make_shared<NoCredentialProvider>());
    QVERIFY(fetch.wait());
    QCOMPARE(fetch.reason(), u"timed out after 0.3 s"_s);
    QVERIFY(!lister.busy());
    QCOMPARE(kModelListTimeout, 15s);
}

void TestModelList::aKeyThatNeverComesTimesOut()
{
    DemoProvider demo;
    QVERIFY(demo.listen());
    ModelLister lister;
    lister.setTimeout(300ms);
    Fetch fetch(lister);
    // A keychain that never answers: the fetch still ends, and nothing was asked.
    auto silent = std::make_shared<CallbackCredentialProvider>(
        u"keychain entry"_s, [](const CredentialProvider::Done &) {});
    lister.fetch(demo.baseUrl(), silent);
    QVERIFY(fetch.wait());
    QCOMPARE(fetch.reason(), u"timed out after 0.3 s"_s);
    QVERIFY(demo.recordedRequests().isEmpty());
}

void TestModelList::redirectToAnotherHostIsNotFollowed()
{
    DemoProvider demo;
    QVERIFY(demo.listen());
    // The same port, another origin: `localhost` is not `127.0.0.1`.
    const QByteArray elsewhere
        = "http://localhost:" + QByteArray::number(demo.port()) + "/v1/models";
    LoopbackServer server(
        httpResponse("302 Found", "{}", "application/json", "Location: " + elsewhere + "\r\n"));
    QVERIFY(server.listen());
    ModelLister lister;
    Fetch fetch(lister);
    lister.fetch(server.url(), keyed("sk-stays-home"));
    QVERIFY(fetch.wait());
    QCOMPARE(fetch.reason(), u"redirected to another host, which is not followed"_s);
    QVERIFY(server.heads()[0].contains("\r\nAuthorization: Bearer sk-stays-home"));
    QVERIFY(demo.recordedRequests().isEmpty());
}

void TestModelList::oversizedListFails()
{
    QByteArray body = R"({"data":[{"id":"a"}],"pad":")";
    body += QByteArray(kMaxModelListBytes, 'x') + "\"}";
    LoopbackServer server(httpResponse("200 OK", body));
    QVERIFY(server.listen());
    ModelLister lister;
    Fetch fetch(lister);
    lister.fetch(server.url(), std::make_shared<NoCredentialProvider>());
    QVERIFY(fetch.wait(20000));
    QCOMPARE(fetch.reason(), u"the model list is larger than 4 MB"_s);
}

void TestModelList::invalidEndpointFailsLater()
{
    ModelLister lister;
    Fetch fetch(lister);
    lister.fetch(QUrl(u"ftp://example.com/v1"_s), std::make_shared<NoCredentialProvider>());
    QCOMPARE(fetch.failed.size(), 0);
    QVERIFY(fetch.wait());
    QCOMPARE(fetch.reason(), u"the endpoint 'ftp://example.com/v1' is not an http(s) URL"_s);
}

void TestModelList::aNewFetchDropsTheOldOne()
{
    LoopbackServer held(QByteArray {});
    QVERIFY(held.listen());
    DemoProvider demo;
    QVERIFY(demo.listen());
    ModelLister lister;
    lister.setTimeout(300ms);
    Fetch fetch(lister);
    lister.fetch(held.url(), std::make_shared<NoCredentialProvider>());
    QTRY_COMPARE(held.heads().size(), 1);
    lister.fetch(demo.baseUrl(), std::make_shared<NoCredentialProvider>());
    QVERIFY(fetch.wait());
    QCOMPARE(fetch.models(), QStringList { u"capwatch-demo"_s });
    // Past the first fetch's timeout: still the one result.
    lister.fetch(held.url(), std::make_shared<NoCredentialProvider>());
    lister.cancel();
    QVERIFY(!lister.busy());
    QTest::qWait(600);
    QCOMPARE(fetch.listed.size(), 1);
    QCOMPARE(fetch.failed.size(), 0);
}

QTEST_GUILESS_MAIN(TestModelList)
#include "tst_modellist.moc"
