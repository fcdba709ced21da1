// Typed decoding of chat completion payloads: streamed chunks (deltas, finish, usage, errors,
// the [DONE] sentinel, garbage) and non-streaming answers.

#include "net/chatstream.h"

#include <QTest>

using capwatch::net::ChatAnswer;
using capwatch::net::ChatStreamUpdate;
using capwatch::net::decodeStreamEvent;
using capwatch::net::parseChatCompletion;
using capwatch::net::SseEvent;

namespace {

SseEvent dataEvent(const QByteArray &data, const QByteArray &type = {})
{
    return SseEvent { type, data, {} };
}

} // namespace

class TestChatStream final : public QObject
{
    Q_OBJECT

private slots:
    void content_data();
    void content();
    void usage_data();
    void usage();
    void streamError_data();
    void streamError();
    void malformed_data();
    void malformed();
    void completion_data();
    void completion();
    void completionWithoutErrorPointer();
};

void TestChatStream::content_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("finishReason");
    QTest::addColumn<bool>("done");

    QTest::newRow("delta") << QByteArray(
            R"({"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hello"},"finish_reason":null}]})")
                           << QStringLiteral("Hello") << QString() << false;
    QTest::newRow("role-only delta")
            << QByteArray(R"({"choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]})")
            << QString() << QString() << false;
    QTest::newRow("role and empty content")
            << QByteArray(R"({"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]})")
            << QString() << QString() << false;
    QTest::newRow("null content")
            << QByteArray(R"({"choices":[{"index":0,"delta":{"content":null},"finish_reason":null}]})")
            << QString() << QString() << false;
    QTest::newRow("empty delta")
            << QByteArray(R"({"choices":[{"index":0,"delta":{},"finish_reason":null}]})")
            << QString() << QString() << false;
    QTest::newRow("no delta at all") << QByteArray(R"({"choices":[{"index":0}]})") << QString()
                                     << QString() << false;
    QTest::newRow("finish_reason stop")
            << QByteArray(R"({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]})")
            << QString() << QStringLiteral("stop") << false;
    QTest::newRow("content and finish_reason length")
            << QByteArray(R"({"choices":[{"index":0,"delta":{"content":"end"},"finish_reason":"length"}]})")
            << QStringLiteral("end") << QStringLiteral("length") << false;
    QTest::newRow("unicode: raw and escaped")
            << QByteArray("{\"choices\":[{\"index\":0,\"delta\":{\"content\":"
                          "\"caf\xC3\xA9 \\u20ac \\ud83d\\ude00\\n\"}}]}")
            << QStringLiteral("café € \U0001F600\n") << QString() << false;
    QTest::newRow("choice index 0 picked among several")
            << QByteArray(R"({"choices":[{"index":1,"delta":{"content":"B"}},{"index":0,"delta":{"content":"A"},"finish_reason":"stop"}]})")
            << QStringLiteral("A") << QStringLiteral("stop") << false;
    QTest::newRow("only another choice") << QByteArray(R"({"choices":[{"index":1,"delta":{"content":"B"}}]})")
                                         << QString() << QString() << false;
    QTest::newRow("choice without index")
            << QByteArray(R"({"choices":[{"delta":{"content":"x"}}]})") << QStringLiteral("x")
            << QString() << false;
    QTest::newRow("content as text parts")
            << QByteArray(R"({"choices":[{"index":0,"delta":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}]})")
            << QStringLiteral("ab") << QString() << false;
    QTest::newRow("empty choices (azure filter results)")
            << QByteArray(R"({"choices":[],"prompt_filter_results":[]})") << QString() << QString()
            << false;
    QTest::newRow("usage null in a delta chunk")
            << QByteArray(R"({"choices":[{"index":0,"delta":{"content":"x"}}],"usage":null})")
            << QStringLiteral("x") << QString() << false;
    QTest::newRow("error null in a delta chunk")
            << QByteArray(R"({"choices":[{"index":0,"delta":{"content":"x"}}],"error":null})")
            << QStringLiteral("x") << QString() << false;
    QTest::newRow("[DONE]") << QByteArray("[DONE]") << QString() << QString() << true;
    QTest::newRow("[DONE] with white space") << QByteArray(" [DONE]\n") << QString() << QString()
                                             << true;
}

void TestChatStream::content()
{
    QFETCH(QByteArray, data);
    QFETCH(QString, text);
    QFETCH(QString, finishReason);
    QFETCH(bool, done);

    const ChatStreamUpdate update = decodeStreamEvent(dataEvent(data));
    QCOMPARE(update.text, text);
    QCOMPARE(update.finishReason, finishReason);
    QCOMPARE(update.done, done);
    QVERIFY2(update.malformed.isEmpty(), qPrintable(update.malformed));
    QVERIFY(!update.error);
    QVERIFY(!update.usage);
}

void TestChatStream::usage_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<qint64>("prompt");
    QTest::addColumn<qint64>("completion");
    QTest::addColumn<qint64>("total");
    QTest::addColumn<QString>("finishReason");

    QTest::newRow("usage chunk with empty choices")
            << QByteArray(R"({"id":"c1","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":34,"total_tokens":46}})")
            << qint64(12) << qint64(34) << qint64(46) << QString();
    QTest::newRow("usage without choices")
            << QByteArray(R"({"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}})")
            << qint64(1) << qint64(2) << qint64(3) << QString();
    QTest::newRow("usage on the finishing chunk")
            << QByteArray(R"({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":6,"total_tokens":11}})")
            << qint64(5) << qint64(6) << qint64(11) << QStringLiteral("stop");
    QTest::newRow("missing and odd figures")
            << QByteArray(R"({"choices":[],"usage":{"prompt_tokens":7.0,"completion_tokens":"8"}})")
            << qint64(7) << qint64(-1) << qint64(-1) << QString();
    QTest::newRow("large figures")
            << QByteArray(R"({"choices":[],"usage":{"prompt_tokens":9000000000,"completion_tokens":0,"total_tokens":9000000000}})")
            << qint64(9'000'000'000) << qint64(0) << qint64(9'000'000'000) << QString();
}

void TestChatStream::usage()
{
    QFETCH(QByteArray, data);
    QFETCH(qint64, prompt);
    QFETCH(qint64, completion);
    QFETCH(qint64, total);
    QFETCH(QString, finishReason);

    const ChatStreamUpdate update = decodeStreamEvent(dataEvent(data));
    QVERIFY2(update.malformed.isEmpty(), qPrintable(update.malformed));
    QVERIFY(update.usage);
    QCOMPARE(update.usage->promptTokens, prompt);
    QCOMPARE(update.usage->completionTokens, completion);
    QCOMPARE(update.usage->totalTokens, total);
    QCOMPARE(update.finishReason, finishReason);
    QVERIFY(update.text.isEmpty());
    QVERIFY(!update.done);
}

void TestChatStream::streamError_data()
{
    QTest::addColumn<QByteArray>("type");
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("errorType");
    QTest::addColumn<QString>("code");

    QTest::newRow("openai shape") << QByteArray()
                                  << QByteArray(R"({"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}})")
                                  << QStringLiteral("The server had an error while processing your request.")
                                  << QStringLiteral("server_error") << QString();
    QTest::newRow("string code") << QByteArray()
                                 << QByteArray(R"({"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}})")
                                 << QStringLiteral("Rate limit reached") << QStringLiteral("requests")
                                 << QStringLiteral("rate_limit_exceeded");
    QTest::newRow("numeric code") << QByteArray()
                                  << QByteArray(R"({"error":{"message":"Overloaded","code":529}})")
                                  << QStringLiteral("Overloaded") << QString() << QStringLiteral("529");
    QTest::newRow("plain string") << QByteArray()
                                  << QByteArray(R"({"error":"Token limit exceeded: used 6100, limit 6000."})")
                                  << QStringLiteral("Token limit exceeded: used 6100, limit 6000.")
                                  << QString() << QString();
    QTest::newRow("error beside choices") << QByteArray()
                                          << QByteArray(R"({"choices":[],"error":{"message":"cut","type":"t"}})")
                                          << QStringLiteral("cut") << QStringLiteral("t") << QString();
    QTest::newRow("error event, plain text") << QByteArray("error")
                                             << QByteArray("upstream went away")
                                             << QStringLiteral("upstream went away") << QString()
                                             << QString();
    QTest::newRow("error event, bare error object")
            << QByteArray("error") << QByteArray(R"({"message":"overloaded","type":"overloaded_error"})")
            << QStringLiteral("overloaded") << QStringLiteral("overloaded_error") << QString();
}

void TestChatStream::streamError()
{
    QFETCH(QByteArray, type);
    QFETCH(QByteArray, data);
    QFETCH(QString, message);
    QFETCH(QString, errorType);
    QFETCH(QString, code);

    const ChatStreamUpdate update = decodeStreamEvent(dataEvent(data, type));
    QVERIFY(update.error);
    QCOMPARE(update.error->message, message);
    QCOMPARE(update.error->type, errorType);
    QCOMPARE(update.error->code, code);
    QCOMPARE(update.error->raw, data);
    QVERIFY2(update.malformed.isEmpty(), qPrintable(update.malformed));
    QVERIFY(update.text.isEmpty());
    QVERIFY(!update.done);
}

void TestChatStream::malformed_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QString>("mentions");

    const QString json = QStringLiteral("not valid JSON");
    const QString utf8 = QStringLiteral("not valid UTF-8");
    const QString notChunk = QStringLiteral("not a chat completion chunk");
    QTest::newRow("text") << QByteArray("hello sk-secret") << json;
    QTest::newRow("truncated json")
            << QByteArray(R"({"choices":[{"index":0,"delta":{"content":"sk-secret)") << json;
    QTest::newRow("trailing garbage") << QByteArray(R"({"choices":[]} sk-secret)") << json;
    QTest::newRow("empty data") << QByteArray() << QStringLiteral("empty");
    QTest::newRow("white space only") << QByteArray(" \n ") << QStringLiteral("empty");
    QTest::newRow("array") << QByteArray(R"(["sk-secret"])") << QStringLiteral("not a JSON object");
    QTest::newRow("number") << QByteArray("42") << QStringLiteral("not a JSON object");
    QTest::newRow("json string") << QByteArray(R"("sk-secret")") << QStringLiteral("not a JSON object");
    QTest::newRow("invalid utf-8 in a string")
            << QByteArray("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"sk-secret \xC3\x28\"}}]}")
            << utf8;
    QTest::newRow("truncated utf-8 sequence")
            << QByteArray("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"sk-secret \xE2\x82\"}}]}")
            << utf8;
    QTest::newRow("overlong utf-8")
            << QByteArray("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"sk-secret \xC0\xAF\"}}]}")
            << utf8;
    QTest::newRow("lone surrogate escape")
            << QByteArray(R"({"choices":[{"index":0,"delta":{"content":"sk-secret \ud800"}}]})")
            << json;
    QTest::newRow("choices not an array") << QByteArray(R"({"choices":{"index":0}})")
                                          << QStringLiteral("not an array");
    QTest::newRow("unrelated object") << QByteArray(R"({"hello":"sk-secret"})") << notChunk;
    QTest::newRow("deep nesting") << QByteArray(100'000, '[') << json;
}

void TestChatStream::malformed()
{
    QFETCH(QByteArray, data);
    QFETCH(QString, mentions);

    const ChatStreamUpdate update = decodeStreamEvent(dataEvent(data));
    QVERIFY(!update.malformed.isEmpty());
    QVERIFY2(update.malformed.contains(mentions), qPrintable(update.malformed));
    QVERIFY2(!update.malformed.contains(QStringLiteral("sk-secret")), qPrintable(update.malformed));
    QVERIFY(update.text.isEmpty());
    QVERIFY(!update.error);
    QVERIFY(!update.done);
    QVERIFY(!update.usage);
}

void TestChatStream::completion_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("finishReason");
    QTest::addColumn<QString>("model");
    QTest::addColumn<qint64>("totalTokens"); // -2: no usage
    QTest::addColumn<QString>("error");

    QTest::newRow("openai answer")
            << QByteArray(R"({"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4o-mini",
                 "choices":[{"index":0,"message":{"role":"assistant","content":"Hi there"},"logprobs":null,"finish_reason":"stop"}],
                 "usage":{"prompt_tokens":9,"completion_tokens":3,"total_tokens":12}})")
            << true << QStringLiteral("Hi there") << QStringLiteral("stop")
            << QStringLiteral("gpt-4o-mini") << qint64(12) << QString();
    QTest::newRow("no usage, no model")
            << QByteArray(R"({"choices":[{"index":0,"message":{"content":"x"},"finish_reason":"length"}]})")
            << true << QStringLiteral("x") << QStringLiteral("length") << QString() << qint64(-2)
            << QString();
    QTest::newRow("null content (tool call)")
            << QByteArray(R"({"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[]},"finish_reason":"tool_calls"}]})")
            << true << QString() << QStringLiteral("tool_calls") << QStringLiteral("m") << qint64(-2)
            << QString();
    QTest::newRow("content parts")
            << QByteArray(R"({"choices":[{"index":0,"message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}]})")
            << true << QStringLiteral("ab") << QString() << QString() << qint64(-2) << QString();
    QTest::newRow("utf-8 answer")
            << QByteArray("{\"choices\":[{\"index\":0,\"message\":{\"content\":\"\xE4\xBD\xA0\xE5\xA5\xBD\"}}]}")
            << true << QStringLiteral("你好") << QString() << QString() << qint64(-2) << QString();

    QTest::newRow("empty body") << QByteArray() << false << QString() << QString() << QString()
                                << qint64(-2) << QStringLiteral("empty");
    QTest::newRow("html") << QByteArray("<html>502 Bad Gateway</html>") << false << QString()
                          << QString() << QString() << qint64(-2) << QStringLiteral("not valid JSON");
    QTest::newRow("truncated") << QByteArray(R"({"choices":[{"index":0,"message":{"content":"x)")
                               << false << QString() << QString() << QString() << qint64(-2)
                               << QStringLiteral("not valid JSON");
    QTest::newRow("invalid utf-8")
            << QByteArray("{\"choices\":[{\"index\":0,\"message\":{\"content\":\"\xFF\"}}]}") << false
            << QString() << QString() << QString() << qint64(-2) << QStringLiteral("not valid UTF-8");
    QTest::newRow("array") << QByteArray("[]") << false << QString() << QString() << QString()
                           << qint64(-2) << QStringLiteral("not a JSON object");
    QTest::newRow("error object")
            << QByteArray(R"({"error":{"message":"Invalid model","type":"invalid_request_error"}})")
            << false << QString() << QString() << QString() << qint64(-2)
            << QStringLiteral("Invalid model");
    QTest::newRow("error string")
            << QByteArray(R"({"error":"Token limit exceeded"})") << false << QString() << QString()
            << QString() << qint64(-2) << QStringLiteral("Token limit exceeded");
    QTest::newRow("no choices") << QByteArray(R"({"model":"m"})") << false << QString()
                                << QString() << QString() << qint64(-2)
                                << QStringLiteral("no choices");
    QTest::newRow("empty choices") << QByteArray(R"({"choices":[]})") << false << QString()
                                   << QString() << QString() << qint64(-2)
                                   << QStringLiteral("no choices");
    QTest::newRow("no message") << QByteArray(R"({"choices":[{"index":0,"delta":{"content":"x"}}]})")
                                << false << QString() << QString() << QString() << qint64(-2)
                                << QStringLiteral("no message");
    QTest::newRow("no choice 0") << QByteArray(R"({"choices":[{"index":2,"message":{"content":"x"}}]})")
                                 << false << QString() << QString() << QString() << qint64(-2)
                                 << QStringLiteral("index 0");
}

void TestChatStream::completion()
{
    QFETCH(QByteArray, body);
    QFETCH(bool, ok);
    QFETCH(QString, text);
    QFETCH(QString, finishReason);
    QFETCH(QString, model);
    QFETCH(qint64, totalTokens);
    QFETCH(QString, error);

    QString actualError;
    const std::optional<ChatAnswer> answer = parseChatCompletion(body, &actualError);
    QCOMPARE(answer.has_value(), ok);
    if (!ok) {
        QVERIFY2(actualError.contains(error), qPrintable(actualError));
        return;
    }
    QVERIFY(actualError.isEmpty());
    QCOMPARE(answer->text, text);
    QCOMPARE(answer->finishReason, finishReason);
    QCOMPARE(answer->model, model);
    QCOMPARE(answer->usage ? answer->usage->totalTokens : qint64(-2), totalTokens);
}

void TestChatStream::completionWithoutErrorPointer()
{
    QVERIFY(!parseChatCompletion("{", nullptr));
    QVERIFY(!parseChatCompletion(R"({"choices":[]})", nullptr));
    QVERIFY(parseChatCompletion(R"({"choices":[{"message":{"content":"x"}}]})", nullptr));
}

QTEST_GUILESS_MAIN(TestChatStream)
#include "tst_chatstream.moc"
