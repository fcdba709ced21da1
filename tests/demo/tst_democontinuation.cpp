// The demo provider's cut answers and their continuations: the `length` and `drop` scenarios
// over real HTTP on loopback with QNetworkAccessManager, and the rules of continuation.h (the
// whole text, the overlap) that clients in other layers are tested against.

#include "demo/continuation.h"
#include "demo/demoprovider.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTest>
#include <memory>

using namespace capwatch::demo;
using namespace Qt::StringLiterals;

namespace {

using ReplyPtr = std::unique_ptr<QNetworkReply>;

#define AWAIT(reply) QTRY_VERIFY_WITH_TIMEOUT((reply)->isFinished(), 15000)

const QString kPrompt = u"hi"_s;
/// The user message a client sends to continue a cut answer.
const QString kContinue
    = u"Continue exactly where your previous answer stopped. Do not repeat anything you already "
      u"wrote."_s;

/// How a request asks for a continuation of `partial`.
enum class Shape
{
    New, ///< not a continuation: the prompt alone
    ContinueMessage, ///< ..., user prompt, assistant partial, user kContinue
    Prefill, ///< ..., user prompt, assistant partial
};

QJsonObject message(const QString &role, const QString &content)
{
    return QJsonObject { { u"role"_s, role }, { u"content"_s, content } };
}

QJsonObject chatBody(
    const QString &prompt, Shape shape, const QString &partial, bool stream, qint64 maxTokens = -1)
{
    QJsonArray messages { message(u"system"_s, u"Be brief."_s), message(u"user"_s, prompt) };
    if (shape != Shape::New)
        messages.append(message(u"assistant"_s, partial));
    if (shape == Shape::ContinueMessage)
        messages.append(message(u"user"_s, kContinue));
    QJsonObject body { { u"model"_s, u"capwatch-demo"_s }, { u"messages"_s, messages } };
    if (stream) {
        body.insert(u"stream"_s, true);
        body.insert(u"stream_options"_s, QJsonObject { { u"include_usage"_s, true } });
    }
    if (maxTokens > 0)
        body.insert(u"max_tokens"_s, maxTokens);
    return body;
}

/// What a client read of one answer.
struct Answer
{
    QString content;
    QString finishReason; ///< empty: none arrived
    QJsonObject usage;
    QList<QJsonObject> errors; ///< error events of a stream
    bool done = false; ///< a stream's [DONE] arrived
    int contentEvents = 0;
};

/// The complete events of an SSE body (a cut last one is left out), or a whole JSON body.
Answer readAnswer(const QByteArray &body, bool stream)
{
    Answer a;
    if (!stream) {
        const QJsonObject root = QJsonDocument::fromJson(body).object();
        const QJsonObject choice = root.value(u"choices"_s).toArray().at(0).toObject();
        a.content = choice.value(u"message"_s).toObject().value(u"content"_s).toString();
        a.finishReason = choice.value(u"finish_reason"_s).toString();
        a.usage = root.value(u"usage"_s).toObject();
        return a;
    }
    qsizetype from = 0;
    for (qsizetype end = body.indexOf("\n\n"); end >= 0; end = body.indexOf("\n\n", from)) {
        const QByteArray event = body.sliced(from, end - from);
        from = end + 2;
        if (!event.startsWith("data: "))
            continue;
        const QByteArray data = event.sliced(6);
        if (data == "[DONE]") {
            a.done = true;
            continue;
        }
        const QJsonObject chunk = QJsonDocument::fromJson(data).object();
        if (chunk.contains(u"error"_s))
            a.errors.append(chunk.value(u"error"_s).toObject());
        if (chunk.contains(u"usage"_s))
            a.usage = chunk.value(u"usage"_s).toObject();
        const QJsonObject choice = chunk.value(u"choices"_s).toArray().at(0).toObject();
        const QString delta = choice.value(u"delta"_s).toObject().value(u"content"_s).toString();
        if (!delta.isEmpty()) {
            a.content += delta;
            ++a.contentEvents;
        }
        if (choice.value(u"finish_reason"_s).isString())
            a.finishReason = choice.value(u"finish_reason"_s).toString();
    }
    return a;
}

/// The last chat request's messages, as the provider recorded them.
QJsonArray lastMessages(const DemoProvider &provider)
{
    const QList<RecordedRequest> recorded = provider.recordedRequests();
    return recorded.isEmpty() ? QJsonArray()
                              : recorded.last().json().value(u"messages"_s).toArray();
}

} // namespace

class TestDemoContinuation final : public QObject
{
    Q_OBJECT

private:
    QNetworkAccessManager m_nam;

    static std::unique_ptr<DemoProvider> start(
        const QString &scenario, const std::function<void(DemoOptions &)> &adjust = {})
    {
        DemoOptions options;
        options.scenario = scenario;
        options.timeScale = 0.05;
        if (adjust)
            adjust(options);
        auto provider = std::make_unique<DemoProvider>();
        provider->setOptions(options);
        if (!provider->listen())
            return {};
        return provider;
    }

    ReplyPtr post(const DemoProvider &provider, const QJsonObject &body)
    {
        QNetworkRequest r(QUrl(provider.baseUrl().toString() + u"/chat/completions"_s));
        r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        return ReplyPtr(m_nam.post(r, QJsonDocument(body).toJson(QJsonDocument::Compact)));
    }

private Q_SLOTS:
    void initTestCase() { m_nam.setProxy(QNetworkProxy::NoProxy); }

    void wholeAnswerNeedsOneContinuationByDefault_data()
    {
        QTest::addColumn<QString>("prompt");
        QTest::newRow("hi") << u"hi"_s;
        QTest::newRow("empty") << QString();
        QTest::newRow("a sentence") << u"Hello there, how are you today?"_s;
        QTest::newRow("long") << QString(5000, u'x');
        QTest::newRow("long, emoji at the cut") << (QString(39, u'x') + u"\U0001F600\U0001F600"_s);
    }

    void wholeAnswerNeedsOneContinuationByDefault()
    {
        QFETCH(QString, prompt);
        const QString whole = DemoProvider::wholeAnswer(prompt);
        QCOMPARE(whole, wholeAnswer(prompt));
        QCOMPARE(DemoProvider::wholeAnswer(prompt), whole); // deterministic
        const qsizetype perResponse = DemoOptions().maxAnswerTokens * 4;
        QVERIFY2(whole.size() > perResponse && whole.size() <= 2 * perResponse,
            qPrintable(u"%1 characters"_s.arg(whole.size())));
        QVERIFY(whole.contains(prompt.simplified().left(20)));
        // The prompt is quoted cut, never inside a surrogate pair.
        for (qsizetype i = 0; i < whole.size(); ++i) {
            if (whole.at(i).isHighSurrogate())
                QVERIFY(i + 1 < whole.size() && whole.at(i + 1).isLowSurrogate());
            if (whole.at(i).isLowSurrogate())
                QVERIFY(i > 0 && whole.at(i - 1).isHighSurrogate());
        }
    }

    void overlap_data()
    {
        QTest::addColumn<QString>("partial");
        QTest::addColumn<QString>("overlap");
        QTest::newRow("empty") << QString() << QString();
        QTest::newRow("one word") << u"Hello"_s << u"Hello"_s;
        QTest::newRow("two words") << u" Hello there"_s << u" Hello there"_s;
        QTest::newRow("three words") << u"one two three"_s << u"one two three"_s;
        QTest::newRow("four words") << u"one two three four"_s << u"two three four"_s;
        QTest::newRow("trailing space") << u"one two three four "_s << u"two three four "_s;
        QTest::newRow("mid-word cut") << u"one two three fo"_s << u"two three fo"_s;
        QTest::newRow("tabs and newlines") << u"a\nb\tc  d"_s << u"b\tc  d"_s;
        QTest::newRow("capped at 64") << (u"start "_s + QString(100, u'y')) << QString(64, u'y');
        const QString emoji = u"\U0001F600"_s;
        // 100 pairs then one letter: the last 64 code units start with a low surrogate.
        QTest::newRow("never half a pair")
            << (emoji.repeated(100) + u'a') << (emoji.repeated(31) + u'a');
        QTest::newRow("pairs aligned") << (u'a' + emoji.repeated(100)) << emoji.repeated(32);
    }

    void overlap()
    {
        QFETCH(QString, partial);
        QFETCH(QString, overlap);
        QCOMPARE(DemoProvider::continuationOverlap(partial), overlap);
        QVERIFY(partial.endsWith(overlap));
    }

    void answerPartCutsAtCharacters()
    {
        const QString whole = u"abc\U0001F600defgh"_s; // the emoji is code units 3 and 4
        AnswerPart part = answerPart(whole, nullptr, 1); // 4 code units would split the pair
        QCOMPARE(part.content, u"abc"_s);
        QVERIFY(!part.complete);
        const QString partial = part.content;
        part = answerPart(whole, &partial, -1);
        QCOMPARE(part.content, whole);
        QCOMPARE(part.overlapChars, 3);
        QVERIFY(part.complete);
        QCOMPARE(commonPrefixLength(u"a\U0001F600", u"a\U0001F601"), 1);
    }

    void length_data()
    {
        QTest::addColumn<bool>("stream");
        QTest::newRow("streamed") << true;
        QTest::newRow("whole body") << false;
    }

    void length()
    {
        QFETCH(bool, stream);
        auto provider = start(u"length"_s);
        QVERIFY(provider);
        ReplyPtr reply = post(*provider, chatBody(kPrompt, Shape::New, {}, stream));
        AWAIT(reply);
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        const Answer a = readAnswer(reply->readAll(), stream);
        const QString whole = DemoProvider::wholeAnswer(kPrompt);
        QCOMPARE(a.content, whole.left(400));
        QCOMPARE(a.finishReason, u"length"_s);
        QCOMPARE(a.usage.value(u"completion_tokens"_s).toInteger(), 100);
        QCOMPARE(a.usage.value(u"total_tokens"_s).toInteger(),
            a.usage.value(u"prompt_tokens"_s).toInteger() + 100);
        QVERIFY(!a.usage.contains(u"completion_tokens_details"_s));
        if (stream)
            QVERIFY(a.done);
    }

    void continuationsRebuildTheWholeAnswer_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<bool>("stream");
        QTest::addColumn<int>("shape");
        QTest::addColumn<qint64>("maxAnswer");
        QTest::addColumn<int>("continuations");
        const QString whole = DemoProvider::wholeAnswer(kPrompt);
        for (const bool stream : { true, false }) {
            for (const Shape shape : { Shape::ContinueMessage, Shape::Prefill }) {
                const QString name = (stream ? u"streamed, "_s : u"whole, "_s)
                    + (shape == Shape::Prefill ? u"prefilled"_s : u"Continue message"_s);
                QTest::addRow("%s, default", qPrintable(name))
                    << u"length"_s << stream << int(shape) << qint64(100) << 1;
                QTest::addRow("%s, 5 tokens", qPrintable(name))
                    << u"length"_s << stream << int(shape) << qint64(5)
                    << int((whole.size() + 19) / 20 - 1);
            }
        }
    }

    void continuationsRebuildTheWholeAnswer()
    {
        QFETCH(QString, scenario);
        QFETCH(bool, stream);
        QFETCH(int, shape);
        QFETCH(qint64, maxAnswer);
        QFETCH(int, continuations);
        auto provider = start(scenario, [&](DemoOptions &o) { o.maxAnswerTokens = maxAnswer; });
        QVERIFY(provider);
        const QString whole = DemoProvider::wholeAnswer(kPrompt);
        QString answer;
        int sent = 0;
        for (;; ++sent) {
            QVERIFY2(sent <= continuations, "more continuations than expected");
            ReplyPtr reply = post(*provider,
                chatBody(kPrompt, sent == 0 ? Shape::New : Shape(shape), answer, stream));
            AWAIT(reply);
            QCOMPARE(reply->error(), QNetworkReply::NoError);
            const Answer a = readAnswer(reply->readAll(), stream);
            if (sent > 0) {
                // The request carried the answer so far, where the client puts it.
                const QJsonArray messages = lastMessages(*provider);
                const qsizetype at = messages.size() - (Shape(shape) == Shape::Prefill ? 1 : 2);
                QCOMPARE(messages.at(at).toObject().value(u"role"_s).toString(), u"assistant"_s);
                QCOMPARE(messages.at(at).toObject().value(u"content"_s).toString(), answer);
                // It starts with the overlap, as real models do; the client takes it out.
                const QString overlap = DemoProvider::continuationOverlap(answer);
                QVERIFY(!overlap.isEmpty());
                QVERIFY2(a.content.startsWith(overlap), qPrintable(a.content));
                QVERIFY(overlap.size() <= 64);
                answer += a.content.sliced(overlap.size());
                QCOMPARE(
                    a.usage.value(u"completion_tokens"_s).toInteger(), (a.content.size() + 3) / 4);
            } else {
                answer = a.content;
            }
            QVERIFY2(whole.startsWith(answer), qPrintable(answer));
            if (a.finishReason == u"stop")
                break;
            QCOMPARE(a.finishReason, u"length"_s);
            QCOMPARE(answer.size(), (sent + 1) * maxAnswer * 4);
        }
        QCOMPARE(sent, continuations);
        QCOMPARE(answer, whole);
    }

    void anEditedPartialGoesOnFromWhatItShares()
    {
        auto provider = start(u"length"_s);
        QVERIFY(provider);
        const QString whole = DemoProvider::wholeAnswer(kPrompt);
        const QString partial = whole.left(120) + u"XYZ then something else"_s;
        QVERIFY(whole.at(120) != u'X');
        ReplyPtr reply = post(*provider, chatBody(kPrompt, Shape::ContinueMessage, partial, false));
        AWAIT(reply);
        const Answer a = readAnswer(reply->readAll(), false);
        QCOMPARE(a.content, u"then something else"_s + whole.sliced(120, 400));
        QCOMPARE(a.finishReason, u"length"_s);
    }

    void continuationRecognition_data()
    {
        QTest::addColumn<QString>("last");
        QTest::addColumn<bool>("continuation");
        QTest::newRow("the client's words") << kContinue << true;
        QTest::newRow("surrounded by white space") << (u"\n  "_s + kContinue + u" "_s) << true;
        QTest::newRow("the prefix alone") << u"Continue exactly where"_s << true;
        QTest::newRow("lower case") << kContinue.toLower() << false;
        QTest::newRow("another question") << u"Continue, please."_s << false;
    }

    void continuationRecognition()
    {
        QFETCH(QString, last);
        QFETCH(bool, continuation);
        auto provider = start(u"length"_s);
        QVERIFY(provider);
        const QString whole = DemoProvider::wholeAnswer(kPrompt);
        const QString partial = whole.left(400);
        QJsonObject body = chatBody(kPrompt, Shape::Prefill, partial, false);
        QJsonArray messages = body.value(u"messages"_s).toArray();
        messages.append(message(u"user"_s, last));
        body.insert(u"messages"_s, messages);
        ReplyPtr reply = post(*provider, body);
        AWAIT(reply);
        const Answer a = readAnswer(reply->readAll(), false);
        if (continuation) {
            QCOMPARE(a.content,
                DemoProvider::continuationOverlap(partial) + whole.sliced(partial.size()));
            QCOMPARE(a.finishReason, u"stop"_s);
        } else {
            // A new question: the start of its own whole answer.
            QCOMPARE(a.content, DemoProvider::wholeAnswer(last).left(400));
            QCOMPARE(a.finishReason, u"length"_s);
        }
    }

    void emptyAnswerSpentOnReasoning_data()
    {
        QTest::addColumn<bool>("stream");
        QTest::addColumn<qint64>("maxTokens");
        QTest::addColumn<qint64>("reasoning");
        QTest::newRow("streamed, max_tokens 50") << true << qint64(50) << qint64(50);
        QTest::newRow("streamed, no max_tokens") << true << qint64(-1) << qint64(256);
        QTest::newRow("whole, max_tokens 700") << false << qint64(700) << qint64(700);
        QTest::newRow("whole, no max_tokens") << false << qint64(-1) << qint64(256);
    }

    void emptyAnswerSpentOnReasoning()
    {
        QFETCH(bool, stream);
        QFETCH(qint64, maxTokens);
        QFETCH(qint64, reasoning);
        auto provider = start(u"length"_s, [](DemoOptions &o) { o.maxAnswerTokens = 0; });
        QVERIFY(provider);
        for (const Shape shape : { Shape::New, Shape::ContinueMessage }) {
            ReplyPtr reply = post(*provider, chatBody(kPrompt, shape, u"You"_s, stream, maxTokens));
            AWAIT(reply);
            QCOMPARE(reply->error(), QNetworkReply::NoError);
            const QByteArray body = reply->readAll();
            const Answer a = readAnswer(body, stream);
            QCOMPARE(a.content, QString());
            QCOMPARE(a.contentEvents, 0);
            QCOMPARE(a.finishReason, u"length"_s);
            QCOMPARE(a.usage.value(u"completion_tokens"_s).toInteger(), reasoning);
            QCOMPARE(a.usage.value(u"completion_tokens_details"_s)
                         .toObject()
                         .value(u"reasoning_tokens"_s)
                         .toInteger(),
                reasoning);
            QVERIFY2(body.contains(R"("total_tokens":)"), body.constData());
        }
    }

    void dropByBytes_data()
    {
        QTest::addColumn<qint64>("dropAfter");
        QTest::addColumn<int>("wholeContentEvents");
        // The default, with the model capwatch-demo and a one-word prompt: the role chunk (197
        // bytes), two content chunks (386) and part of the third.
        QTest::newRow("default") << DemoOptions().dropAfterBytes << 2;
        QTest::newRow("1000 bytes") << qint64(1000) << 4;
        QTest::newRow("inside the role chunk") << qint64(50) << 0;
    }

    void dropByBytes()
    {
        QFETCH(qint64, dropAfter);
        QFETCH(int, wholeContentEvents);
        auto provider = start(u"drop"_s, [&](DemoOptions &o) { o.dropAfterBytes = dropAfter; });
        QVERIFY(provider);
        ReplyPtr reply = post(*provider, chatBody(kPrompt, Shape::New, {}, true));
        AWAIT(reply);
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        QCOMPARE(reply->error(), QNetworkReply::RemoteHostClosedError);
        const QByteArray body = reply->readAll();
        QCOMPARE(body.size(), dropAfter);
        QVERIFY(!body.endsWith("\n\n")); // cut inside an event
        const Answer a = readAnswer(body, true);
        QCOMPARE(a.contentEvents, wholeContentEvents);
        QVERIFY(!a.done);
        QVERIFY(a.finishReason.isEmpty());
        QVERIFY(DemoProvider::wholeAnswer(kPrompt).startsWith(a.content));
        if (wholeContentEvents > 0)
            QVERIFY(a.content.count(u' ') >= 3 * wholeContentEvents - 1); // a few words
        QTRY_COMPARE(provider->openResponses(), 0);
    }

    void dropWholeBody()
    {
        auto provider = start(u"drop"_s);
        QVERIFY(provider);
        ReplyPtr reply = post(*provider, chatBody(kPrompt, Shape::New, {}, false));
        AWAIT(reply);
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        // Announced whole, cut after the default 680 bytes (as in drop-mid-stream, Qt may or may
        // not call the close an error: what arrived is short either way).
        const qint64 announced = reply->header(QNetworkRequest::ContentLengthHeader).toLongLong();
        const QByteArray body = reply->readAll();
        QCOMPARE(body.size(), 680);
        QVERIFY(announced > 680);
        QVERIFY(!QJsonDocument::fromJson(body).isObject());
        QVERIFY(body.contains(R"("content":"You wrote \"hi\". This is)"));
        QTRY_COMPARE(provider->openResponses(), 0);
    }

    void dropWithError()
    {
        auto provider = start(u"drop"_s, [](DemoOptions &o) { o.dropWith = DropWith::Error; });
        QVERIFY(provider);
        ReplyPtr reply = post(*provider, chatBody(kPrompt, Shape::New, {}, true));
        AWAIT(reply);
        QCOMPARE(reply->error(), QNetworkReply::NoError); // the stream ends properly
        const QByteArray body = reply->readAll();
        QVERIFY2(body.endsWith("\n\n"), body.constData());
        const Answer a = readAnswer(body, true);
        QCOMPARE(a.contentEvents, 1);
        QVERIFY(!a.content.isEmpty());
        QVERIFY(DemoProvider::wholeAnswer(kPrompt).startsWith(a.content));
        QCOMPARE(a.errors.size(), 1);
        QCOMPARE(a.errors.first().value(u"type"_s).toString(), u"server_error"_s);
        QVERIFY(!a.errors.first().value(u"message"_s).toString().isEmpty());
        QVERIFY(body.endsWith(R"("type":"server_error","param":null,"code":null}})"
                              "\n\n"));
        QVERIFY(!a.done);
        QVERIFY(a.finishReason.isEmpty());
    }

    void aContinuationInDropCompletes_data()
    {
        QTest::addColumn<bool>("stream");
        QTest::addColumn<int>("dropWith");
        QTest::newRow("streamed, closed") << true << int(DropWith::Close);
        QTest::newRow("streamed, error") << true << int(DropWith::Error);
        QTest::newRow("whole, closed") << false << int(DropWith::Close);
    }

    void aContinuationInDropCompletes()
    {
        QFETCH(bool, stream);
        QFETCH(int, dropWith);
        auto provider = start(u"drop"_s, [&](DemoOptions &o) { o.dropWith = DropWith(dropWith); });
        QVERIFY(provider);
        const QString whole = DemoProvider::wholeAnswer(kPrompt);
        // What a streamed first answer left (a whole body's cut leaves nothing readable: the
        // client continues from what it showed, here the stream's words).
        ReplyPtr first = post(*provider, chatBody(kPrompt, Shape::New, {}, true));
        AWAIT(first);
        const QString partial = readAnswer(first->readAll(), true).content;
        QVERIFY(!partial.isEmpty());
        for (const Shape shape : { Shape::ContinueMessage, Shape::Prefill }) {
            ReplyPtr reply = post(*provider, chatBody(kPrompt, shape, partial, stream));
            AWAIT(reply);
            QCOMPARE(reply->error(), QNetworkReply::NoError);
            const Answer a = readAnswer(reply->readAll(), stream);
            QCOMPARE(a.finishReason, u"stop"_s);
            if (stream)
                QVERIFY(a.done);
            const QString overlap = DemoProvider::continuationOverlap(partial);
            QVERIFY(a.content.startsWith(overlap));
            QCOMPARE(partial + a.content.sliced(overlap.size()), whole);
        }
    }

    void promptIsTheUserMessageBeforeThePartial()
    {
        // An earlier exchange, then the prompt whose answer is continued.
        auto provider = start(u"length"_s);
        QVERIFY(provider);
        const QString prompt = u"Tell me about caps"_s;
        const QString whole = DemoProvider::wholeAnswer(prompt);
        QVERIFY(whole != DemoProvider::wholeAnswer(kPrompt));
        const QJsonArray messages { message(u"user"_s, kPrompt),
            message(u"assistant"_s, DemoProvider::wholeAnswer(kPrompt)), message(u"user"_s, prompt),
            message(u"assistant"_s, whole.left(400)), message(u"user"_s, kContinue) };
        ReplyPtr reply
            = post(*provider, QJsonObject { { u"model"_s, u"m"_s }, { u"messages"_s, messages } });
        AWAIT(reply);
        const Answer a = readAnswer(reply->readAll(), false);
        QCOMPARE(a.content, DemoProvider::continuationOverlap(whole.left(400)) + whole.sliced(400));
        QCOMPARE(a.finishReason, u"stop"_s);
    }

    void invalidOptions()
    {
        for (const auto &adjust :
            { std::function<void(DemoOptions &)>([](DemoOptions &o) { o.maxAnswerTokens = -1; }),
                std::function<void(DemoOptions &)>(
                    [](DemoOptions &o) { o.dropAfterBytes = -1; }) }) {
            QVERIFY(!start(u"length"_s, adjust));
        }
    }
};

QTEST_GUILESS_MAIN(TestDemoContinuation)
#include "tst_democontinuation.moc"
