// Request building without a network: the URL, the headers, the JSON body.

#include "net/chatrequest.h"
#include "net/credentials.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

using namespace capwatch::net;
using namespace Qt::StringLiterals;

class TestChatRequest final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void endpointUrls_data();
    void endpointUrls();
    void bodyAndHeaders();
    void noKeyNoAuthorization();
    void loopback_data();
    void loopback();
    void displayEndpointDropsUserInfo();
    void temperatureInTheBody();
    void streamUsageOption_data();
    void streamUsageOption();
    void requestCharsCountsEveryContent_data();
    void requestCharsCountsEveryContent();
    void defaultModel_data();
    void defaultModel();
    void keyUse_data();
    void keyUse();
    void extraHeadersAsGiven();
    void extraHeadersThatAreDropped_data();
    void extraHeadersThatAreDropped();
};

void TestChatRequest::endpointUrls_data()
{
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<QString>("expected"); // empty: invalid
    QTest::newRow("base") << u"http://127.0.0.1:8080/v1"_s
                          << u"http://127.0.0.1:8080/v1/chat/completions"_s;
    QTest::newRow("base slash") << u"https://api.example.com/v1/"_s
                                << u"https://api.example.com/v1/chat/completions"_s;
    QTest::newRow("full") << u"http://h/v1/chat/completions"_s << u"http://h/v1/chat/completions"_s;
    QTest::newRow("full slash") << u"http://h/v1/chat/completions/"_s
                                << u"http://h/v1/chat/completions"_s;
    QTest::newRow("root") << u"http://h:1"_s << u"http://h:1/chat/completions"_s;
    QTest::newRow("query kept") << u"https://h/openai/v1?api-version=1"_s
                                << u"https://h/openai/v1/chat/completions?api-version=1"_s;
    QTest::newRow("ftp") << u"ftp://h/v1"_s << QString();
    QTest::newRow("no host") << u"http:///v1"_s << QString();
    QTest::newRow("garbage") << u"not a url"_s << QString();
}

void TestChatRequest::endpointUrls()
{
    QFETCH(QString, endpoint);
    QFETCH(QString, expected);
    const QUrl url = chatCompletionsUrl(QUrl(endpoint));
    QCOMPARE(url.isValid() ? url.toString() : QString(), expected);
}

void TestChatRequest::bodyAndHeaders()
{
    ChatRequest r;
    r.endpoint = QUrl(u"http://127.0.0.1:1/v1"_s);
    r.model = u"DeepSeek-V4-Flash"_s;
    r.messages = { { u"system"_s, u"Be brief."_s }, { u"user"_s, u"Grüße \"quoted\""_s } };
    r.maxTokens = 256;
    QCOMPARE(buildRequestBody(r),
        QByteArray("{\"model\":\"DeepSeek-V4-Flash\",\"messages\":[{\"role\":\"system\","
                   "\"content\":\"Be brief.\"},"
                   "{\"role\":\"user\",\"content\":\"Gr\xc3\xbc\xc3\x9f"
                   "e \\\"quoted\\\"\"}],\"max_tokens\":256,"
                   "\"stream\":true,\"stream_options\":{\"include_usage\":true}}"));
    const QNetworkRequest n = buildNetworkRequest(r, "sk-abc");
    QCOMPARE(n.url().toString(), u"http://127.0.0.1:1/v1/chat/completions"_s);
    QCOMPARE(n.rawHeader("Authorization"), QByteArray("Bearer sk-abc"));
    QCOMPARE(
        n.header(QNetworkRequest::ContentTypeHeader).toByteArray(), QByteArray("application/json"));
    QCOMPARE(n.rawHeader("Accept"), QByteArray("text/event-stream"));
    // The generated version.h: "capwatch/0.1.0", never an empty or unexpanded version.
    const QString agent = n.header(QNetworkRequest::UserAgentHeader).toString();
    QVERIFY2(QRegularExpression(u"^capwatch/\\d+\\.\\d+\\.\\d+$"_s).match(agent).hasMatch(),
        qPrintable(agent));
    QCOMPARE(n.attribute(QNetworkRequest::RedirectPolicyAttribute).toInt(),
        int(QNetworkRequest::SameOriginRedirectPolicy));

    r.stream = false;
    r.maxTokens.reset();
    const QJsonObject o = QJsonDocument::fromJson(buildRequestBody(r)).object();
    QCOMPARE(o.value(u"stream").toBool(true), false);
    QVERIFY(!o.contains(u"max_tokens"));
    QVERIFY(!o.contains(u"stream_options"));
    QCOMPARE(o.value(u"messages").toArray().size(), 2);
}

void TestChatRequest::noKeyNoAuthorization()
{
    ChatRequest r;
    r.endpoint = QUrl(u"http://127.0.0.1:1/v1"_s);
    QVERIFY(!buildNetworkRequest(r, {}).hasRawHeader("Authorization"));
}

void TestChatRequest::loopback_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<bool>("loopback");
    QTest::newRow("127.0.0.1") << u"http://127.0.0.1:1/v1"_s << true;
    QTest::newRow("127.8.9.10") << u"http://127.8.9.10/v1"_s << true;
    QTest::newRow("::1") << u"http://[::1]:8080/v1"_s << true;
    QTest::newRow("localhost") << u"http://LocalHost/v1"_s << true;
    QTest::newRow("private") << u"http://192.168.1.2/v1"_s << false;
    QTest::newRow("name") << u"https://api.example.com/v1"_s << false;
    QTest::newRow("localhost.evil") << u"http://localhost.example.com/v1"_s << false;
}

void TestChatRequest::loopback()
{
    QFETCH(QString, url);
    QFETCH(bool, loopback);
    QCOMPARE(isLoopback(QUrl(url)), loopback);
}

void TestChatRequest::displayEndpointDropsUserInfo()
{
    QCOMPARE(displayEndpoint(QUrl(u"https://user:pass@h/v1/chat/completions?key=1"_s)),
        u"https://h/v1/chat/completions"_s);
}

void TestChatRequest::temperatureInTheBody()
{
    ChatRequest r;
    r.endpoint = QUrl(u"http://127.0.0.1:1/v1"_s);
    r.model = u"m"_s;
    r.messages = { { u"user"_s, u"Hi"_s } };
    r.stream = false;
    r.temperature = 0.7;
    QCOMPARE(buildRequestBody(r),
        QByteArray(
            R"({"model":"m","messages":[{"role":"user","content":"Hi"}],"temperature":0.7,"stream":false})"));
    r.temperature = 0;
    r.maxTokens = 10;
    QCOMPARE(buildRequestBody(r),
        QByteArray(
            R"({"model":"m","messages":[{"role":"user","content":"Hi"}],"max_tokens":10,"temperature":0.0,"stream":false})"));
}

void TestChatRequest::streamUsageOption_data()
{
    QTest::addColumn<bool>("stream");
    QTest::addColumn<bool>("streamUsage");
    QTest::addColumn<QByteArray>("tail");

    QTest::newRow("stream, usage asked")
        << true << true << QByteArray(R"("stream":true,"stream_options":{"include_usage":true}})");
    QTest::newRow("stream, usage refused before")
        << true << false << QByteArray(R"("stream":true})");
    QTest::newRow("whole answer") << false << true << QByteArray(R"("stream":false})");
    QTest::newRow("whole answer, no usage") << false << false << QByteArray(R"("stream":false})");
}

void TestChatRequest::streamUsageOption()
{
    QFETCH(bool, stream);
    QFETCH(bool, streamUsage);
    QFETCH(QByteArray, tail);
    ChatRequest r;
    r.endpoint = QUrl(u"http://127.0.0.1:1/v1"_s);
    r.model = u"m"_s;
    r.messages = { { u"user"_s, u"hi"_s } };
    r.stream = stream;
    r.streamUsage = streamUsage;
    QCOMPARE(buildRequestBody(r),
        QByteArray(R"({"model":"m","messages":[{"role":"user","content":"hi"}],)" + tail));
}

void TestChatRequest::requestCharsCountsEveryContent_data()
{
    QTest::addColumn<QList<ChatMessage>>("messages");
    QTest::addColumn<qint64>("chars");

    QTest::newRow("none") << QList<ChatMessage>() << qint64(0);
    QTest::newRow("empty content") << QList<ChatMessage> { { u"user"_s, QString() } } << qint64(0);
    QTest::newRow("system, user and answer")
        << QList<ChatMessage> { { u"system"_s, u"Be brief."_s }, { u"user"_s, u"Hello"_s },
               { u"assistant"_s, u"Hi there!"_s } }
        << qint64(9 + 5 + 9);
    // UTF-16 code units, as QString::size() counts them; roles are not counted.
    QTest::newRow("umlauts and an emoji")
        << QList<ChatMessage> { { u"user"_s, u"Grüße 😀"_s } } << qint64(8);
}

void TestChatRequest::requestCharsCountsEveryContent()
{
    QFETCH(QList<ChatMessage>, messages);
    QFETCH(qint64, chars);
    QCOMPARE(requestChars(messages), chars);
}

void TestChatRequest::defaultModel_data()
{
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<QString>("model");
    QTest::newRow("demo") << u"http://127.0.0.1:40453/v1"_s << u"capwatch-demo"_s;
    QTest::newRow("localhost") << u"http://localhost:8080/v1/chat/completions"_s
                               << u"capwatch-demo"_s;
    QTest::newRow("::1") << u"http://[::1]:1/v1"_s << u"capwatch-demo"_s;
    QTest::newRow("remote") << u"https://api.example.com/v1"_s << QString();
    QTest::newRow("private network") << u"http://192.168.1.2/v1"_s << QString();
    QTest::newRow("not a URL") << u"not a url"_s << QString();
}

void TestChatRequest::defaultModel()
{
    QFETCH(QString, endpoint);
    QFETCH(QString, model);
    QCOMPARE(defaultModelFor(QUrl(endpoint)), model);
}

void TestChatRequest::keyUse_data()
{
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<int>("use");
    QTest::addColumn<QString>("auth");
    QTest::newRow("loopback, no key") << QByteArray() << u"http://127.0.0.1:1/v1/chat/completions"_s
                                      << int(KeyUse::NotNeeded) << u"none (loopback endpoint)"_s;
    QTest::newRow("loopback, a key")
        << QByteArray("sk-1") << u"http://127.0.0.1:1/v1/chat/completions"_s << int(KeyUse::Key)
        << u"MY_KEY"_s;
    QTest::newRow("remote, a key")
        << QByteArray("sk-1") << u"https://api.example.com/v1/chat/completions"_s
        << int(KeyUse::Key) << u"MY_KEY"_s;
    QTest::newRow("remote, no key")
        << QByteArray() << u"https://api.example.com/v1/chat/completions"_s << int(KeyUse::Missing)
        << u"MY_KEY"_s;
}

void TestChatRequest::keyUse()
{
    QFETCH(QByteArray, key);
    QFETCH(QString, endpoint);
    QFETCH(int, use);
    QFETCH(QString, auth);
    const Credential c { key, u"MY_KEY"_s, {} };
    QCOMPARE(int(capwatch::net::keyUse(c, QUrl(endpoint))), use);
    QCOMPARE(authSourceText(c, QUrl(endpoint)), auth);
}

void TestChatRequest::extraHeadersAsGiven()
{
    ChatRequest r;
    r.endpoint = QUrl(u"https://api.example.com/v1"_s);
    r.extraHeaders = { { "X-Title", "capwatch" }, { "OpenAI-Organization", "org-123" },
        { "HTTP-Referer", "https://example.org/app?a=b c" } };
    const QNetworkRequest n = buildNetworkRequest(r, "sk-abc");
    QCOMPARE(n.rawHeader("X-Title"), QByteArray("capwatch"));
    QCOMPARE(n.rawHeader("OpenAI-Organization"), QByteArray("org-123"));
    QCOMPARE(n.rawHeader("HTTP-Referer"), QByteArray("https://example.org/app?a=b c"));
    QCOMPARE(n.rawHeader("Authorization"), QByteArray("Bearer sk-abc"));
    QCOMPARE(n.rawHeaderList().size(), 7); // Content-Type, Accept, User-Agent, Authorization
    // A User-Agent of the profile's replaces capwatch's.
    r.extraHeaders = { { "User-Agent", "my-gateway/2" } };
    QCOMPARE(buildNetworkRequest(r, {}).rawHeader("User-Agent"), QByteArray("my-gateway/2"));
}

void TestChatRequest::extraHeadersThatAreDropped_data()
{
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<QByteArray>("value");
    QTest::newRow("Authorization") << QByteArray("Authorization") << QByteArray("Bearer other");
    QTest::newRow("authorization") << QByteArray("authorization") << QByteArray("Bearer other");
    QTest::newRow("AUTHORIZATION") << QByteArray("AUTHORIZATION") << QByteArray("Basic eDp5");
    QTest::newRow("Proxy-Authorization") << QByteArray("proxy-Authorization") << QByteArray("x");
    QTest::newRow("Content-Type") << QByteArray("Content-type") << QByteArray("text/plain");
    QTest::newRow("Content-Length") << QByteArray("CONTENT-LENGTH") << QByteArray("0");
    QTest::newRow("Host") << QByteArray("host") << QByteArray("evil.example");
    QTest::newRow("Accept") << QByteArray("accept") << QByteArray("*/*");
    QTest::newRow("CR in value") << QByteArray("X-A") << QByteArray("1\r\nAuthorization: x");
    QTest::newRow("LF in value") << QByteArray("X-A") << QByteArray("1\nX-B: 2");
    QTest::newRow("NUL in value") << QByteArray("X-A") << QByteArray("1\0002", 3);
    QTest::newRow("CR in name") << QByteArray("X-A\r") << QByteArray("1");
    QTest::newRow("LF in name") << QByteArray("X\nA") << QByteArray("1");
    QTest::newRow("NUL in name") << QByteArray("X\0A", 3) << QByteArray("1");
    QTest::newRow("colon in name") << QByteArray("X-A: 1") << QByteArray("1");
    QTest::newRow("space in name") << QByteArray("X A") << QByteArray("1");
    QTest::newRow("empty name") << QByteArray() << QByteArray("1");
}

void TestChatRequest::extraHeadersThatAreDropped()
{
    QFETCH(QByteArray, name);
    QFETCH(QByteArray, value);
    QVERIFY(!isAllowedExtraHeader(name, value));
    ChatRequest r;
    r.endpoint = QUrl(u"https://api.example.com/v1"_s);
    r.extraHeaders = { { "X-Before", "1" }, { name, value }, { "X-After", "2" } };
    const QNetworkRequest withKey = buildNetworkRequest(r, "sk-abc");
    QCOMPARE(withKey.rawHeader("Authorization"), QByteArray("Bearer sk-abc"));
    QCOMPARE(withKey.rawHeader("Content-Type"), QByteArray("application/json"));
    QCOMPARE(withKey.rawHeader("Accept"), QByteArray("text/event-stream"));
    QVERIFY(!withKey.hasRawHeader("Host"));
    QVERIFY(!withKey.hasRawHeader("Content-Length"));
    QVERIFY(!withKey.hasRawHeader("Proxy-Authorization"));
    QCOMPARE(withKey.rawHeader("X-Before"), QByteArray("1")); // the others still go
    QCOMPARE(withKey.rawHeader("X-After"), QByteArray("2"));
    QCOMPARE(withKey.rawHeaderList().size(), 6);
    for (const QByteArray &header : withKey.rawHeaderList()) {
        const QByteArray v = withKey.rawHeader(header);
        QVERIFY(!v.contains('\r') && !v.contains('\n') && !v.contains('\0'));
    }
    // Without a key, a profile's header cannot slip an Authorization in either.
    QVERIFY(!buildNetworkRequest(r, {}).hasRawHeader("Authorization"));
}

QTEST_GUILESS_MAIN(TestChatRequest)
#include "tst_chatrequest.moc"
