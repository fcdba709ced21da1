// Typed decoding of chat completion payloads: streamed chunks (deltas, finish, usage, errors,
// the [DONE] sentinel, garbage) and non-streaming answers.

#include "../fuzz/ssechecks.h"
#include "net/chatstream.h"

#include <QRandomGenerator>
#include <QTest>

using capwatch::net::ChatAnswer;
using capwatch::net::ChatStreamUpdate;
using capwatch::net::decodeStreamEvent;
using capwatch::net::decodeStreamEventGeneral;
using capwatch::net::parseChatCompletion;
using capwatch::net::SseEvent;
using namespace Qt::StringLiterals;

namespace {

SseEvent dataEvent(const QByteArray &data, const QByteArray &type = {})
{
    return SseEvent { type, data, {} };
}

/// Empty when the two decodings agree in every field a caller can see; else what differs (the
/// fuzzer's own comparison, fuzz/ssechecks.h).
QString differences(const ChatStreamUpdate &a, const ChatStreamUpdate &b)
{
    return QString::fromStdString(capwatch::fuzz::updateDifferences(a, b));
}

/// Chunks as providers send them, the seeds of the mutation test.
QByteArrayList seedChunks()
{
    return {
        R"({"id":"chatcmpl-demo-7","object":"chat.completion.chunk","created":1795988429,"model":"capwatch-demo","choices":[{"index":0,"delta":{"content":"The capwatch demo provider"},"finish_reason":null}]})",
        R"({"id":"c","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"system_fingerprint":"fp_1"})",
        R"({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":34,"total_tokens":46,"prompt_tokens_details":{"cached_tokens":0}}})",
        "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"caf\xC3\xA9 \\u20ac \\ud83d\\ude00 "
        "\\\"q\\\" \\n\\t\\/ \xF0\x9F\x98\x80\"}}]}",
        R"({"choices":[{"index":1,"delta":{"content":"B"}},{"index":0,"delta":{"content":"A"},"finish_reason":"length"}]})",
        R"({"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":-1,"total_tokens":6},"error":null})",
        R"({"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":3,"total_tokens":12,"prompt_tokens_details":{"cached_tokens":4},"completion_tokens_details":{"reasoning_tokens":2},"cost":0.000123}})",
        // (moc mistakes \" inside a raw string for the end of it, so the escapes are spelt out)
        "{\"choices\":[{\"delta\":{\"content\":\"x\",\"tool_calls\":[{\"index\":0,\"function\":"
        "{\"arguments\":\"{\\\"a\\\":[1,2.5e3,true,false,null]}\"}}]},\"logprobs\":{\"content\":"
        "[{\"token\":\"x\",\"logprob\":-0.25}]}}]}",
    };
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
    void usageCostAndDetails();
    void streamError_data();
    void streamError();
    void malformed_data();
    void malformed();
    void invalidUtf8IsReplacedNotDropped_data();
    void invalidUtf8IsReplacedNotDropped();
    void completion_data();
    void completion();
    void completionWithoutErrorPointer();
    void fastPathAgreesWithGeneral_data();
    void fastPathAgreesWithGeneral();
    void fastPathAgreesOnMutations();
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
    QTest::newRow("role-only delta") << QByteArray(
        R"({"choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]})")
                                     << QString() << QString() << false;
    QTest::newRow("role and empty content")
        << QByteArray(R"({"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]})")
        << QString() << QString() << false;
    QTest::newRow("null content") << QByteArray(
        R"({"choices":[{"index":0,"delta":{"content":null},"finish_reason":null}]})")
                                  << QString() << QString() << false;
    QTest::newRow("empty delta") << QByteArray(
        R"({"choices":[{"index":0,"delta":{},"finish_reason":null}]})")
                                 << QString() << QString() << false;
    QTest::newRow("no delta at all")
        << QByteArray(R"({"choices":[{"index":0}]})") << QString() << QString() << false;
    QTest::newRow("finish_reason stop")
        << QByteArray(R"({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]})") << QString()
        << QStringLiteral("stop") << false;
    QTest::newRow("content and finish_reason length")
        << QByteArray(
               R"({"choices":[{"index":0,"delta":{"content":"end"},"finish_reason":"length"}]})")
        << QStringLiteral("end") << QStringLiteral("length") << false;
    QTest::newRow("unicode: raw and escaped")
        << QByteArray("{\"choices\":[{\"index\":0,\"delta\":{\"content\":"
                      "\"caf\xC3\xA9 \\u20ac \\ud83d\\ude00\\n\"}}]}")
        << QStringLiteral("café € \U0001F600\n") << QString() << false;
    QTest::newRow("choice index 0 picked among several") << QByteArray(
        R"({"choices":[{"index":1,"delta":{"content":"B"}},{"index":0,"delta":{"content":"A"},"finish_reason":"stop"}]})")
                                                         << QStringLiteral("A")
                                                         << QStringLiteral("stop") << false;
    QTest::newRow("only another choice")
        << QByteArray(R"({"choices":[{"index":1,"delta":{"content":"B"}}]})") << QString()
        << QString() << false;
    QTest::newRow("choice without index")
        << QByteArray(R"({"choices":[{"delta":{"content":"x"}}]})") << QStringLiteral("x")
        << QString() << false;
    QTest::newRow("content as text parts") << QByteArray(
        R"({"choices":[{"index":0,"delta":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}]})")
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
    QTest::newRow("[DONE] with white space")
        << QByteArray(" [DONE]\n") << QString() << QString() << true;
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

    QTest::newRow("usage chunk with empty choices") << QByteArray(
        R"({"id":"c1","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":34,"total_tokens":46}})")
                                                    << qint64(12) << qint64(34) << qint64(46)
                                                    << QString();
    QTest::newRow("usage without choices")
        << QByteArray(R"({"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}})")
        << qint64(1) << qint64(2) << qint64(3) << QString();
    QTest::newRow("usage on the finishing chunk") << QByteArray(
        R"({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":6,"total_tokens":11}})")
                                                  << qint64(5) << qint64(6) << qint64(11)
                                                  << QStringLiteral("stop");
    // The figures follow retry::usageFrom(): whole non-negative numbers up to 2^53, else -1.
    QTest::newRow("missing and odd figures")
        << QByteArray(R"({"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":"8"}})")
        << qint64(7) << qint64(-1) << qint64(-1) << QString();
    QTest::newRow("fractional figure")
        << QByteArray(R"({"choices":[],"usage":{"prompt_tokens":7.5,"completion_tokens":2}})")
        << qint64(-1) << qint64(2) << qint64(-1) << QString();
    QTest::newRow("negative figure")
        << QByteArray(R"({"choices":[],"usage":{"prompt_tokens":-3,"total_tokens":4}})")
        << qint64(-1) << qint64(-1) << qint64(4) << QString();
    QTest::newRow("null and object figures") << QByteArray(
        R"({"choices":[],"usage":{"prompt_tokens":null,"completion_tokens":{"n":1},"total_tokens":true}})")
                                             << qint64(-1) << qint64(-1) << qint64(-1) << QString();
    QTest::newRow("over 2^53") << QByteArray(
        R"({"choices":[],"usage":{"prompt_tokens":9007199254740992,"total_tokens":9007199254740993}})")
                               << qint64(9'007'199'254'740'992) << qint64(-1) << qint64(-1)
                               << QString();
    QTest::newRow("large figures") << QByteArray(
        R"({"choices":[],"usage":{"prompt_tokens":9000000000,"completion_tokens":0,"total_tokens":9000000000}})")
                                   << qint64(9'000'000'000) << qint64(0) << qint64(9'000'000'000)
                                   << QString();
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

    QTest::newRow("openai shape")
        << QByteArray()
        << QByteArray(
               R"({"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}})")
        << QStringLiteral("The server had an error while processing your request.")
        << QStringLiteral("server_error") << QString();
    QTest::newRow("string code")
        << QByteArray()
        << QByteArray(
               R"({"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}})")
        << QStringLiteral("Rate limit reached") << QStringLiteral("requests")
        << QStringLiteral("rate_limit_exceeded");
    QTest::newRow("numeric code") << QByteArray()
                                  << QByteArray(R"({"error":{"message":"Overloaded","code":529}})")
                                  << QStringLiteral("Overloaded") << QString()
                                  << QStringLiteral("529");
    QTest::newRow("plain string")
        << QByteArray() << QByteArray(R"({"error":"Token limit exceeded: used 6100, limit 6000."})")
        << QStringLiteral("Token limit exceeded: used 6100, limit 6000.") << QString() << QString();
    QTest::newRow("error beside choices")
        << QByteArray() << QByteArray(R"({"choices":[],"error":{"message":"cut","type":"t"}})")
        << QStringLiteral("cut") << QStringLiteral("t") << QString();
    QTest::newRow("error event, plain text")
        << QByteArray("error") << QByteArray("upstream went away")
        << QStringLiteral("upstream went away") << QString() << QString();
    QTest::newRow("error event, bare error object")
        << QByteArray("error")
        << QByteArray(R"({"message":"overloaded","type":"overloaded_error"})")
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
    const QString utf8 = QStringLiteral("not valid UTF-8 nor JSON");
    const QString notChunk = QStringLiteral("not a chat completion chunk");
    QTest::newRow("text") << QByteArray("hello sk-secret") << json;
    QTest::newRow("truncated json")
        << QByteArray(R"({"choices":[{"index":0,"delta":{"content":"sk-secret)") << json;
    QTest::newRow("trailing garbage") << QByteArray(R"({"choices":[]} sk-secret)") << json;
    QTest::newRow("empty data") << QByteArray() << QStringLiteral("empty");
    QTest::newRow("white space only") << QByteArray(" \n ") << QStringLiteral("empty");
    QTest::newRow("array") << QByteArray(R"(["sk-secret"])") << QStringLiteral("not a JSON object");
    QTest::newRow("number") << QByteArray("42") << QStringLiteral("not a JSON object");
    QTest::newRow("json string") << QByteArray(R"("sk-secret")")
                                 << QStringLiteral("not a JSON object");
    // Ill-formed UTF-8 where JSON is not expected at all stays malformed.
    QTest::newRow("invalid utf-8 outside any string")
        << QByteArray("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"sk-secret\"}}]}\xC3\x28")
        << utf8;
    QTest::newRow("lone surrogate escape")
        << QByteArray(R"({"choices":[{"index":0,"delta":{"content":"sk-secret \ud800"}}]})")
        << json;
    QTest::newRow("choices not an array")
        << QByteArray(R"({"choices":{"index":0}})") << QStringLiteral("not an array");
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

void TestChatStream::invalidUtf8IsReplacedNotDropped_data()
{
    QTest::addColumn<QByteArray>("content"); // raw bytes inside the JSON string
    QTest::addColumn<QString>("text");

    QTest::newRow("bad pair") << QByteArray("caf\xC3\x28 ok") << QStringLiteral("caf\uFFFD( ok");
    QTest::newRow("truncated sequence")
        << QByteArray("euro \xE2\x82") << QStringLiteral("euro \uFFFD\uFFFD");
    QTest::newRow("lone continuation") << QByteArray("\x80 lone") << QStringLiteral("\uFFFD lone");
    QTest::newRow("never valid") << QByteArray("x\xFF\xFEy") << QStringLiteral("x\uFFFD\uFFFDy");
    QTest::newRow("overlong") << QByteArray("a\xC0\xAF"
                                            "b")
                              << QStringLiteral("a\uFFFD\uFFFDb");
    QTest::newRow("valid neighbours kept")
        << QByteArray("\xE4\xBD\xA0\xFF\xE5\xA5\xBD") << QStringLiteral("你\uFFFD好");
}

void TestChatStream::invalidUtf8IsReplacedNotDropped()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, text);

    const QByteArray data = R"({"choices":[{"index":0,"delta":{"content":")" + content
        + R"("},"finish_reason":null}]})";
    const ChatStreamUpdate update = decodeStreamEvent(dataEvent(data));
    QVERIFY2(update.malformed.isEmpty(), qPrintable(update.malformed));
    QCOMPARE(update.text, text);
    // The general decoder agrees.
    QCOMPARE(decodeStreamEventGeneral(dataEvent(data)).text, text);
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

    QTest::newRow("openai answer") << QByteArray(
        R"({"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4o-mini",
                 "choices":[{"index":0,"message":{"role":"assistant","content":"Hi there"},"logprobs":null,"finish_reason":"stop"}],
                 "usage":{"prompt_tokens":9,"completion_tokens":3,"total_tokens":12}})")
                                   << true << QStringLiteral("Hi there") << QStringLiteral("stop")
                                   << QStringLiteral("gpt-4o-mini") << qint64(12) << QString();
    QTest::newRow("no usage, no model") << QByteArray(
        R"({"choices":[{"index":0,"message":{"content":"x"},"finish_reason":"length"}]})")
                                        << true << QStringLiteral("x") << QStringLiteral("length")
                                        << QString() << qint64(-2) << QString();
    QTest::newRow("null content (tool call)") << QByteArray(
        R"({"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[]},"finish_reason":"tool_calls"}]})")
                                              << true << QString() << QStringLiteral("tool_calls")
                                              << QStringLiteral("m") << qint64(-2) << QString();
    QTest::newRow("content parts") << QByteArray(
        R"({"choices":[{"index":0,"message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}]})")
                                   << true << QStringLiteral("ab") << QString() << QString()
                                   << qint64(-2) << QString();
    QTest::newRow("utf-8 answer") << QByteArray(
        "{\"choices\":[{\"index\":0,\"message\":{\"content\":\"\xE4\xBD\xA0\xE5\xA5\xBD\"}}]}")
                                  << true << QStringLiteral("你好") << QString() << QString()
                                  << qint64(-2) << QString();

    QTest::newRow("empty body") << QByteArray() << false << QString() << QString() << QString()
                                << qint64(-2) << QStringLiteral("empty");
    QTest::newRow("html") << QByteArray("<html>502 Bad Gateway</html>") << false << QString()
                          << QString() << QString() << qint64(-2)
                          << QStringLiteral("not valid JSON");
    QTest::newRow("truncated") << QByteArray(R"({"choices":[{"index":0,"message":{"content":"x)")
                               << false << QString() << QString() << QString() << qint64(-2)
                               << QStringLiteral("not valid JSON");
    QTest::newRow("invalid utf-8 is replaced, the rest kept")
        << QByteArray("{\"choices\":[{\"index\":0,\"message\":{\"content\":\"a\xFF b\"}}]}") << true
        << QStringLiteral("a\uFFFD b") << QString() << QString() << qint64(-2) << QString();
    QTest::newRow("array") << QByteArray("[]") << false << QString() << QString() << QString()
                           << qint64(-2) << QStringLiteral("not a JSON object");
    QTest::newRow("error object") << QByteArray(
        R"({"error":{"message":"Invalid model","type":"invalid_request_error"}})")
                                  << false << QString() << QString() << QString() << qint64(-2)
                                  << QStringLiteral("Invalid model");
    QTest::newRow("error string") << QByteArray(R"({"error":"Token limit exceeded"})") << false
                                  << QString() << QString() << QString() << qint64(-2)
                                  << QStringLiteral("Token limit exceeded");
    QTest::newRow("no choices") << QByteArray(R"({"model":"m"})") << false << QString() << QString()
                                << QString() << qint64(-2) << QStringLiteral("no choices");
    QTest::newRow("empty choices")
        << QByteArray(R"({"choices":[]})") << false << QString() << QString() << QString()
        << qint64(-2) << QStringLiteral("no choices");
    QTest::newRow("no message") << QByteArray(
        R"({"choices":[{"index":0,"delta":{"content":"x"}}]})")
                                << false << QString() << QString() << QString() << qint64(-2)
                                << QStringLiteral("no message");
    QTest::newRow("no choice 0") << QByteArray(
        R"({"choices":[{"index":2,"message":{"content":"x"}}]})")
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

void TestChatStream::usageCostAndDetails()
{
    // OpenRouter's last chunk: the cost it billed, and the details objects of OpenAI's usage. The
    // three readers take the same figures, and the stream reader takes them without the DOM.
    const QByteArray data
        = R"({"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":3,"total_tokens":12,"prompt_tokens_details":{"cached_tokens":4},"completion_tokens_details":{"reasoning_tokens":2},"cost":0.000123}})";
    const capwatch::net::StreamDecodeCounts before = capwatch::net::streamDecodeCounts();
    const ChatStreamUpdate u = decodeStreamEvent(dataEvent(data));
    QCOMPARE(capwatch::net::streamDecodeCounts().fast - before.fast, quint64(1));
    QVERIFY(u.usage);
    QCOMPARE(u.usage->cachedTokens, qint64(4));
    QCOMPARE(u.usage->reasoningTokens, qint64(2));
    QVERIFY(u.usage->cost);
    QCOMPARE(*u.usage->cost, 0.000123);
    const capwatch::retry::UsageReport report
        = capwatch::retry::usageFromJson(std::string_view(data.constData(), size_t(data.size())));
    QVERIFY(report == capwatch::net::usageReportOf(*u.usage));
    const ChatStreamUpdate general = decodeStreamEventGeneral(dataEvent(data));
    QVERIFY(general.usage);
    QVERIFY(capwatch::net::usageReportOf(*general.usage) == report);
}

void TestChatStream::fastPathAgreesWithGeneral_data()
{
    // decodeStreamEvent() reads the common shape without a DOM and hands anything else to the
    // general decoder; these are the places where a hand-written reader could go wrong.
    QTest::addColumn<QByteArray>("type");
    QTest::addColumn<QByteArray>("data");

    // Names and data are taken as QByteArray so that concatenations are done before the call
    // (with QT_USE_QSTRINGBUILDER, `+` builds a lazy expression, not a QByteArray).
    const auto row
        = [](const QByteArray &name, const QByteArray &data, const QByteArray &type = {}) {
              QTest::newRow(name.constData()) << type << data;
          };
    const auto chunk = [](const QByteArray &content) -> QByteArray {
        return R"({"choices":[{"index":0,"delta":{"content":)" + content
            + R"(},"finish_reason":null}]})";
    };
    for (const QByteArray &seed : seedChunks())
        row("seed " + seed.left(60), seed);

    // Strings: escapes, UTF-8, control characters.
    row("all simple escapes", chunk("\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\""));
    row("u escapes", chunk(R"("\u0041\u00e9\u20AC\uD83D\uDE00")"));
    row("u escape of NUL", chunk(R"("a\u0000b")"));
    row("lone high surrogate", chunk(R"("\ud800")"));
    row("high surrogate then letter", chunk(R"("\ud800\u0041")"));
    row("high surrogate then newline escape", chunk(R"("\ud800\n")"));
    row("lone low surrogate", chunk(R"("\udc00")"));
    row("bad escape", chunk(R"("\x41")"));
    row("bad hex", chunk(R"("\u12g4")"));
    row("short hex", chunk(R"("\u12")"));
    row("escape at the end", chunk("\"abc\\"));
    row("raw control character",
        chunk("\"a\x01"
              "b\""));
    row("raw tab", chunk("\"a\tb\""));
    row("raw DEL",
        chunk("\"a\x7f"
              "b\""));
    row("utf-8 two to four bytes",
        chunk("\"\xC2\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF\""));
    row("overlong two bytes", chunk("\"\xC1\xBF\""));
    row("overlong three bytes", chunk("\"\xE0\x80\xAF\""));
    row("encoded surrogate", chunk("\"\xED\xA0\x80\""));
    row("above U+10FFFF", chunk("\"\xF4\x90\x80\x80\""));
    row("F5 lead byte", chunk("\"\xF5\x80\x80\x80\""));
    row("lone continuation byte", chunk("\"a\x80\""));
    row("sequence cut by the quote", chunk("\"\xE2\x82\""));
    row("noncharacters", chunk("\"\xEF\xBF\xBE\xEF\xBF\xBF\""));
    row("BOM inside content", chunk("\"\xEF\xBB\xBFx\""));
    row("BOM before the object", "\xEF\xBB\xBF" + chunk(R"("x")"));
    row("unterminated string", R"({"choices":[{"index":0,"delta":{"content":"abc)");
    row("long plain content", chunk('"' + QByteArray(5000, 'w') + '"'));
    row("escaped quotes between plain runs", chunk("\"abcdefgh\\\"ijklmnop\\\"q\""));

    // Numbers.
    for (const char *n : { "0", "-0", "01", "1.5", "-1.5e3", "1E+5", "1e400", "-1e400", "1e-400",
             "1.", ".5", "-", "+1", "1e", "123456789012345678", "1234567890123456789",
             "12345678901234567890", "99999999999999999999999", "0.0" }) {
        const QByteArray number(n);
        row("created " + number,
            R"({"created":)" + number + R"(,"choices":[{"index":0,"delta":{"content":"x"}}]})");
        row("index " + number,
            R"({"choices":[{"index":)" + number + R"(,"delta":{"content":"x"}}]})");
        row("prompt_tokens " + number,
            R"({"choices":[],"usage":{"prompt_tokens":)" + number + "}}");
    }

    // Choices, deltas, content and finish_reason of every type.
    for (const char *v : { "null", "true", "false", "5", "\"0\"", "[]", "{}", "[0]", "\"x\"" }) {
        const QByteArray value(v);
        row("choices " + value, R"({"choices":)" + value + "}");
        row("choice " + value, R"({"choices":[)" + value + "]}");
        row("index of " + value,
            R"({"choices":[{"index":)" + value + R"(,"delta":{"content":"x"}}]})");
        row("delta " + value, R"({"choices":[{"index":0,"delta":)" + value + "}]}");
        row("content " + value, chunk(value));
        row("finish_reason " + value, R"({"choices":[{"index":0,"finish_reason":)" + value + "}]}");
        row("usage " + value, R"({"choices":[],"usage":)" + value + "}");
        row("usage figure " + value, R"({"usage":{"total_tokens":)" + value + "}}");
        row("error " + value, R"({"choices":[],"error":)" + value + "}");
    }
    row("no index among several",
        R"({"choices":[{"delta":{"content":"a"}},{"delta":{"content":"b"}}]})");
    row("index 0 after one without",
        R"({"choices":[{"delta":{"content":"a"}},{"index":0,"delta":{"content":"b"}}]})");
    row("two with index 0",
        R"({"choices":[{"index":0,"delta":{"content":"a"}},{"index":0,"delta":{"content":"b"}}]})");
    row("index null", R"({"choices":[{"index":null,"delta":{"content":"a"}}]})");
    row("index after delta",
        R"({"choices":[{"delta":{"content":"a"},"index":1},{"delta":{"content":"b"}}]})");
    row("content parts", chunk(R"([{"type":"text","text":"a"},"b",{"text":5}])"));

    // Keys: duplicates (nlohmann keeps the last) and escapes (that spell a key that matters).
    row("duplicate choices",
        R"({"choices":[{"index":0,"delta":{"content":"a"}}],"choices":[{"index":0,"delta":{"content":"b"}}]})");
    row("duplicate content", R"({"choices":[{"index":0,"delta":{"content":"a","content":"b"}}]})");
    row("duplicate index", R"({"choices":[{"index":1,"index":0,"delta":{"content":"a"}}]})");
    row("duplicate delta", R"({"choices":[{"index":0,"delta":{"content":"a"},"delta":{}}]})");
    row("duplicate finish_reason",
        R"({"choices":[{"index":0,"finish_reason":"stop","finish_reason":null}]})");
    row("duplicate usage", R"({"usage":{"total_tokens":1},"usage":null})");
    row("duplicate figure", R"({"usage":{"total_tokens":1,"total_tokens":2}})");
    row("duplicate error", R"({"choices":[],"error":null,"error":"boom"})");
    row("duplicate unrelated key",
        R"({"id":"a","id":"b","choices":[{"index":0,"delta":{"content":"x"}}]})");
    row("escaped choices key", R"({"choic\u0065s":[{"index":0,"delta":{"content":"x"}}]})");
    row("escaped content key", R"({"choices":[{"index":0,"delta":{"cont\u0065nt":"x"}}]})");
    row("escaped unrelated key",
        R"({"choices":[{"index":0,"delta":{"content":"x"}}],"m\u006fdel":"m"})");
    row("non-ASCII key", "{\"mod\xC3\xA9l\":1,\"choices\":[]}");

    // Syntax, white space, nesting, event types.
    row("every kind of white space",
        " {\t\"choices\" :\r\n[ {\"index\" : 0 , \"delta\":{ \"content\" : \"x\" } } ] }\n");
    row("vertical tab inside", "{\"choices\":\v[]}");
    row("form feed around", "\f{\"choices\":[]}\f");
    row("NUL outside strings", QByteArray("{\"choices\":[]\0}", 15));
    row("trailing comma in object", R"({"choices":[],})");
    row("trailing comma in array", R"({"choices":[{"index":0},]})");
    row("missing colon", R"({"choices" []})");
    row("missing comma", R"({"id":"a" "choices":[]})");
    row("unclosed object", R"({"choices":[])");
    row("second value after the object", R"({"choices":[]}{})");
    row("literal typos", R"({"choices":[],"x":nul})");
    row("literal with a tail", R"({"choices":[],"x":nulls})");
    row("capitalised literal", R"({"choices":[],"x":True})");
    row("empty object", "{}");
    row("only unrelated members", R"({"id":"x","object":"chat.completion.chunk"})");
    row("usage key without choices", R"({"usage":null})");
    for (int depth : { 10, 62, 63, 64, 65, 300 }) {
        const QByteArray deep = QByteArray(depth, '[') + QByteArray(depth, ']');
        row("nesting " + QByteArray::number(depth),
            R"({"x":)" + deep + R"(,"choices":[{"index":0,"delta":{"content":"x"}}]})");
    }
    // Usage's cost and the figures in its details objects (OpenRouter, OpenAI).
    const auto usage = [](const QByteArray &members) -> QByteArray {
        return R"({"choices":[],"usage":{"prompt_tokens":5,)" + members + "}}";
    };
    row("cost, a fraction", usage(R"("cost":0.0001234)"));
    row("cost, whole", usage(R"("cost":3)"));
    row("cost, an exponent", usage(R"("cost":1.5e-7)"));
    row("cost, underflowing", usage(R"("cost":1e-400)"));
    row("cost, too large", usage(R"("cost":1e400)"));
    row("cost, negative", usage(R"("cost":-0.5)"));
    row("cost, minus zero", usage(R"("cost":-0)"));
    row("cost, a string", usage(R"("cost":"0.5")"));
    row("cost, null", usage(R"("cost":null)"));
    row("cost, twice", usage(R"("cost":1,"cost":2)"));
    row("cost, 20 digits", usage(R"("cost":12345678901234567890)"));
    row("cached tokens", usage(R"("prompt_tokens_details":{"cached_tokens":3,"audio_tokens":0})"));
    row("reasoning tokens",
        usage(
            R"("completion_tokens_details":{"accepted_prediction_tokens":0,"reasoning_tokens":8})"));
    row("details, null", usage(R"("prompt_tokens_details":null,"completion_tokens_details":[1])"));
    row("details, a fraction", usage(R"("prompt_tokens_details":{"cached_tokens":1.5})"));
    row("details, negative", usage(R"("completion_tokens_details":{"reasoning_tokens":-1})"));
    row("details, nested", usage(R"("prompt_tokens_details":{"x":{"cached_tokens":2}})"));
    row("details, twice",
        usage(R"("prompt_tokens_details":{"cached_tokens":1},"prompt_tokens_details":{})"));
    row("details, figure twice",
        usage(R"("prompt_tokens_details":{"cached_tokens":1,"cached_tokens":2})"));
    row("details, a string figure", usage(R"("prompt_tokens_details":{"cached_tokens":"1"})"));
    row("[DONE]", "[DONE]");
    row("error event with a chunk", chunk(R"("x")"), "error");
    row("message event with a chunk", chunk(R"("x")"), "message");
    row("error event, plain text", "upstream went away", "error");
}

void TestChatStream::fastPathAgreesWithGeneral()
{
    QFETCH(QByteArray, type);
    QFETCH(QByteArray, data);
    const SseEvent event = dataEvent(data, type);
    const QString diff = differences(decodeStreamEvent(event), decodeStreamEventGeneral(event));
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

void TestChatStream::fastPathAgreesOnMutations()
{
    // Seeded, so a failure repeats: bytes deleted, inserted, replaced and slices repeated, with
    // the characters JSON cares about over-represented.
    static const QByteArray alphabet = QByteArrayLiteral(R"({}[]":,\u0123456789-+.eE tfnrlas)")
        + QByteArray("\x00\x01\x1f\x7f\x80\xbf\xc3\xe2\xed\xf0\xf4\xff", 12);
    QRandomGenerator random(20240611);
    const QByteArrayList seeds = seedChunks();
    int checked = 0;
    for (int i = 0; i < 20'000; ++i) {
        QByteArray data = seeds.at(random.bounded(int(seeds.size())));
        const int edits = 1 + random.bounded(3);
        for (int e = 0; e < edits && !data.isEmpty(); ++e) {
            const qsizetype at = random.bounded(int(data.size()));
            const char c = alphabet.at(random.bounded(int(alphabet.size())));
            switch (random.bounded(4)) {
            case 0:
                data.remove(at, 1 + random.bounded(3));
                break;
            case 1:
                data.insert(at, c);
                break;
            case 2:
                data[at] = c;
                break;
            default: {
                const qsizetype length
                    = std::min<qsizetype>(1 + random.bounded(12), data.size() - at);
                data.insert(at, data.mid(at, length));
            }
            }
        }
        const SseEvent event = dataEvent(data);
        const QString diff = differences(decodeStreamEvent(event), decodeStreamEventGeneral(event));
        QVERIFY2(diff.isEmpty(),
            qPrintable(u"%1 for %2"_s.arg(diff, QString::fromLatin1(data.toPercentEncoding()))));
        ++checked;
    }
    QCOMPARE(checked, 20'000);
}

QTEST_GUILESS_MAIN(TestChatStream)
#include "tst_chatstream.moc"
