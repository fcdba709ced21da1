#include "chatattempt.h"

#include "chatrequest.h"
#include "logging.h"
#include "retry/constants.h"

#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QNetworkReply>

namespace capwatch::net {

using namespace Qt::StringLiterals;

namespace {

/// A non-streamed answer larger than this is refused rather than held in memory.
constexpr qint64 kMaxWholeAnswerBytes = 64LL * 1024 * 1024;
/// Bytes Qt may buffer ahead of the event loop for one reply.
constexpr qint64 kReadBufferBytes = 256 * 1024;
/// A stream is decoded this much at a time, with one textReceived per piece at most.
constexpr qsizetype kStreamPieceBytes = 32 * 1024;
constexpr qint64 kStreamTimeBoxNs = 1'000'000;

retry::NetworkFailure failureOf(QNetworkReply::NetworkError e)
{
    switch (e) {
    case QNetworkReply::ConnectionRefusedError:
        return retry::NetworkFailure::Refused;
    case QNetworkReply::HostNotFoundError:
        return retry::NetworkFailure::HostNotFound;
    case QNetworkReply::SslHandshakeFailedError:
    case QNetworkReply::UnknownNetworkError: // Qt reports some TLS failures this way
        return retry::NetworkFailure::Tls;
    case QNetworkReply::ProtocolUnknownError:
    case QNetworkReply::ProtocolInvalidOperationError:
        return retry::NetworkFailure::InvalidUrl;
    case QNetworkReply::RemoteHostClosedError:
    case QNetworkReply::TemporaryNetworkFailureError:
    case QNetworkReply::NetworkSessionFailedError:
    case QNetworkReply::ProxyConnectionClosedError:
    case QNetworkReply::UnknownServerError:
        return retry::NetworkFailure::BrokenBeforeHeaders;
    case QNetworkReply::TimeoutError:
    case QNetworkReply::ProxyTimeoutError:
        return retry::NetworkFailure::TimedOut;
    default:
        return retry::NetworkFailure::Other;
    }
}

bool isEventStream(const QNetworkReply *reply)
{
    const QByteArray type = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
    return type.trimmed().toLower().startsWith("text/event-stream");
}

} // namespace

ChatAttempt::ChatAttempt(QNetworkAccessManager *nam, QNetworkRequest request, QByteArray body,
    qint64 idleTimeoutMs, QObject *parent)
    : QObject(parent)
    , m_nam(nam)
    , m_request(std::move(request))
    , m_body(std::move(body))
    , m_idleTimeoutMs(idleTimeoutMs)
{
    m_idleTimer.setSingleShot(true);
    m_idleTimer.setTimerType(Qt::CoarseTimer);
    connect(&m_idleTimer, &QTimer::timeout, this, &ChatAttempt::onIdleCheck);
    // The next piece on a zero timer, not a queued call: queued calls queued by queued calls run
    // one after another before any timer fires (two pieces, 4 ms, with no tick of the window's
    // between them); a timer takes its turn with the others.
    m_drainTimer.setSingleShot(true);
    m_drainTimer.setInterval(0);
    m_drainTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_drainTimer, &QTimer::timeout, this, &ChatAttempt::drainNextPiece);
}

ChatAttempt::~ChatAttempt()
{
    abort();
}

void ChatAttempt::start()
{
    m_reply = m_nam->post(m_request, m_body);
    connect(m_reply, &QNetworkReply::metaDataChanged, this, &ChatAttempt::onMetaData);
    connect(m_reply, &QNetworkReply::readyRead, this, &ChatAttempt::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &ChatAttempt::onFinished);
    connect(m_reply, &QNetworkReply::redirected, this, [this] {
        // A hop that is followed: what came with it was not the answer.
        ++m_redirects;
        m_status = 0;
        m_result.status = 0;
        m_result.headers.clear();
        m_buffer.clear();
        m_bufferSeen = 0;
    });
    // Back-pressure: without a bound, Qt's HTTP thread reads a fast stream into memory whole
    // before the event loop sees any of it (one 36 MB read, 180 MiB peak). Qt 6.4 forwards the
    // bound to that thread only once post() has handed it the request, which happens in the
    // event loop: set right here the bound is dropped, and set on metaDataChanged it often comes
    // after most of the body. Queued, it runs just after the hand-over, before any answer byte.
    QMetaObject::invokeMethod(this, &ChatAttempt::boundReadBuffer, Qt::QueuedConnection);
    // TLS problems are never bypassed: the reply fails with a clear error instead.
    m_sinceActivity.start();
    armIdle();
}

void ChatAttempt::abort()
{
    m_finished = true;
    m_idleTimer.stop();
    if (m_reply) {
        QNetworkReply *reply = m_reply;
        m_reply = nullptr;
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
}

void ChatAttempt::boundReadBuffer()
{
    if (m_reply)
        m_reply->setReadBufferSize(kReadBufferBytes);
}

void ChatAttempt::armIdle()
{
    m_idleTimer.start(int(std::min<qint64>(m_idleTimeoutMs, std::numeric_limits<int>::max())));
}

void ChatAttempt::onIdleCheck()
{
    // The timer is armed once and re-armed here for what is left, rather than restarted on
    // every chunk of a fast stream.
    const qint64 idle = m_sinceActivity.elapsed();
    if (idle < m_idleTimeoutMs) {
        m_idleTimer.start(int(m_idleTimeoutMs - idle));
        return;
    }
    m_timedOut = true;
    if (m_reply)
        m_reply->abort(); // finished() follows with OperationCanceledError
}

void ChatAttempt::onMetaData()
{
    if (m_status > 0 || !m_reply)
        return;
    const QVariant status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    if (!status.isValid())
        return;
    // A redirect's own headers are not the answer's: a hop that is followed is followed by the
    // answer's, and one that is not (a loop, another origin) is told apart in onFinished().
    const int code = status.toInt();
    if (code >= 300 && code < 400)
        return;
    if (m_reply->rawHeaderPairs().isEmpty()) {
        // Qt 6.4's HTTP client drops every header of a response with more fields than it takes
        // (100) and would then read the body until the connection closes. A provider's answer
        // always has headers, so none at all means they were lost: say so rather than misread
        // the response (its retry-after gone) or wait for a close that may never come.
        AttemptResult r = m_result;
        r.kind = AttemptResult::Kind::NetworkError;
        r.network = retry::NetworkFailure::Other;
        r.errorText = u"the provider's response (HTTP %1) came with more header fields than "
                      "can be read (at most 100); it was not used"_s.arg(code);
        finish(std::move(r));
        return;
    }
    m_status = code;
    m_isStream = m_status >= 200 && m_status < 300 && isEventStream(m_reply);
    m_result.status = m_status;
    m_result.headersAt = QDateTime::currentDateTimeUtc();
    // Again for the answer itself: Qt sends a followed redirect as a new request, which the
    // bound set in start() may not cover.
    boundReadBuffer();
    for (const auto &[name, value] : m_reply->rawHeaderPairs())
        m_result.headers.emplace_back(name.toStdString(), value.toStdString());
    m_sinceActivity.restart();
    Q_EMIT headersReceived(m_status);
}

void ChatAttempt::onReadyRead()
{
    if (!m_reply)
        return;
    if (m_status == 0)
        onMetaData();
    if (m_finished)
        return;
    m_sinceActivity.restart();
    if (m_status >= 200 && m_status < 300 && m_isStream) {
        // A piece is already queued: the new bytes wait in the reply for it. Qt delivers the
        // reply's data in queued calls, several at once when the thread was busy; decoding on
        // each of them would run box after box with nothing else in between.
        if (!m_drainQueued)
            readStream();
        return;
    }
    const QByteArray bytes = m_reply->readAll();
    if (m_status >= 200 && m_status < 300) {
        m_bufferSeen += bytes.size();
        if (m_bufferSeen > kMaxWholeAnswerBytes) {
            AttemptResult r = m_result;
            r.kind = AttemptResult::Kind::StreamError;
            r.errorText = u"the answer is larger than %1 MiB"_s.arg(kMaxWholeAnswerBytes >> 20);
            finish(std::move(r));
            return;
        }
        m_buffer += bytes;
        return;
    }
    // An error body: keep enough to classify (and one byte more, to know it was larger).
    m_bufferSeen += bytes.size();
    const qint64 room = qint64(retry::kMaxClassifiedBodyBytes) + 1 - m_buffer.size();
    if (room > 0)
        m_buffer += bytes.left(room);
}

void ChatAttempt::readStream()
{
    // Decoded in pieces, so that the events and text of one piece stay small enough for the
    // allocator to recycle them (in 256 KiB pieces a 20 MB answer cost about 9,500 page faults
    // and 250 ms of CPU, in 64 KiB pieces 1,100 and 140 ms), out of one readAll() (read(n) a
    // piece at a time copies each: capwatch-cli's 20 MB stream took 139 ms instead of 62).
    // Pieces go on in one event up to kStreamTimeBoxNs, so that decoding what Qt buffered (up
    // to kReadBufferBytes, about 8 ms in the window, which shows every piece) never holds the
    // thread at once: the rest waits for m_drainTimer, a turn of its own after whatever else is
    // due (a paint, the view's flush). A 32 KiB piece, decoded and appended to the window's
    // answer, takes about 2 ms, so in the window a box holds one piece (16 KiB pieces made
    // capwatch-cli's stream slower: 89 ms against 77-84).
    QElapsedTimer box;
    box.start();
    while (!m_finished) {
        if (m_pendingAt >= m_pending.size()) {
            if (!m_reply || m_reply->bytesAvailable() <= 0)
                break;
            m_pending = m_reply->readAll();
            m_pendingAt = 0;
        }
        const qsizetype size = std::min(kStreamPieceBytes, m_pending.size() - m_pendingAt);
        consumeStream(QByteArrayView(m_pending).sliced(m_pendingAt, size));
        m_pendingAt += size;
        if (box.nsecsElapsed() >= kStreamTimeBoxNs)
            break;
    }
    if (m_pendingAt >= m_pending.size()) {
        m_pending.clear();
        m_pendingAt = 0;
    }
    if (!m_finished && streamLeft() && !m_drainQueued) {
        m_drainQueued = true;
        m_drainTimer.start();
    }
}

bool ChatAttempt::streamLeft() const
{
    return m_pendingAt < m_pending.size() || (m_reply && m_reply->bytesAvailable() > 0);
}

void ChatAttempt::drainNextPiece()
{
    m_drainQueued = false;
    if (!m_reply || m_finished)
        return;
    if (streamLeft())
        onReadyRead();
    if (m_finishWhenDrained && !m_drainQueued)
        onFinished();
}

void ChatAttempt::consumeStream(QByteArrayView bytes)
{
    m_events.clear();
    if (!m_parser.feed(bytes, m_events)) {
        AttemptResult r = m_result;
        r.kind = AttemptResult::Kind::StreamError;
        r.errorText = u"the stream sent an event larger than the parser accepts"_s;
        finish(std::move(r));
        return;
    }
    QString text;
    for (const SseEvent &event : std::as_const(m_events)) {
        if (!m_sawDataEvent && !event.data.isEmpty()) {
            // Section 6.6: a stream whose first data event is an error is a failed attempt
            // with the error's effective status, classified and retried as such.
            m_sawDataEvent = true;
            if (const auto embedded = retry::errorInStreamEvent(
                    std::string_view(event.data.constData(), std::size_t(event.data.size())))) {
                finish(embeddedFailure(*embedded));
                return;
            }
        }
        ChatStreamUpdate u = decodeStreamEvent(event);
        if (u.error) {
            if (!text.isEmpty()) {
                m_result.answerChars += text.size();
                Q_EMIT textReceived(text);
                text.clear();
            }
            AttemptResult r = m_result;
            r.kind = AttemptResult::Kind::StreamError;
            r.errorText
                = u.error->message.isEmpty() ? QString::fromUtf8(u.error->raw) : u.error->message;
            r.body = u.error->raw;
            finish(std::move(r));
            return;
        }
        if (!u.malformed.isEmpty())
            qCWarning(lcNet) << "skipping a malformed stream event:" << u.malformed;
        text += u.text;
        if (!u.finishReason.isEmpty())
            m_result.finishReason = u.finishReason;
        if (u.usage)
            m_result.usage = u.usage;
        if (u.done)
            m_done = true;
    }
    if (!text.isEmpty()) {
        // One signal per network read, not per event: a fast stream stays cheap to display.
        m_result.answerChars += text.size();
        Q_EMIT textReceived(text);
    }
}

void ChatAttempt::onFinished()
{
    if (!m_reply || m_finished)
        return;
    if (streamLeft())
        onReadyRead();
    if (m_finished)
        return;
    if (m_drainQueued) {
        // Pieces of the stream are still to decode: the last of them finishes the attempt.
        m_finishWhenDrained = true;
        return;
    }
    if (m_status == 0)
        onMetaData();
    if (m_finished)
        return;
    const QNetworkReply::NetworkError error = m_reply->error();
    AttemptResult r = m_result;

    // A redirect as the final answer was not followed: a loop (Qt follows at most
    // maximumRedirectsAllowed() hops within the origin), or a hop to another origin.
    const int code = m_status > 0
        ? m_status
        : m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (error == QNetworkReply::TooManyRedirectsError
        || error == QNetworkReply::InsecureRedirectError || (code >= 300 && code < 400)) {
        const QUrl from = m_reply->url();
        const QByteArray location = m_reply->rawHeader("location");
        const QUrl target = from.resolved(QUrl::fromEncoded(location));
        const bool elsewhere = !location.isEmpty()
            && (target.scheme() != from.scheme() || target.host() != from.host()
                || target.port(-1) != from.port(-1));
        r.kind = AttemptResult::Kind::NetworkError;
        r.status = 0;
        r.headers.clear();
        r.network = retry::NetworkFailure::Other;
        if (elsewhere) {
            r.errorText = u"the provider redirected to %1, another origin; capwatch follows "
                          "redirects only within the endpoint's origin, so that the key goes "
                          "nowhere else"_s.arg(displayEndpoint(target));
        } else if (error == QNetworkReply::TooManyRedirectsError
            || m_redirects >= m_request.maximumRedirectsAllowed()) {
            r.errorText = u"the provider redirected more than %1 times (a redirect loop?); "
                          "capwatch stopped following"_s.arg(m_request.maximumRedirectsAllowed());
        } else {
            r.errorText = u"the provider answered with a redirect (HTTP %1) that could not be "
                          "followed"_s.arg(code);
        }
        finish(std::move(r));
        return;
    }

    if (m_status >= 200 && m_status < 300) {
        if (m_isStream) {
            const bool complete = m_done || !r.finishReason.isEmpty();
            if (complete && (error == QNetworkReply::NoError || m_done)) {
                r.kind = AttemptResult::Kind::Answered;
            } else {
                r.kind = AttemptResult::Kind::StreamBroken;
                r.errorText = m_timedOut ? u"the stream went silent and was abandoned"_s
                    : error != QNetworkReply::NoError
                    ? u"the connection closed mid-answer: %1"_s.arg(m_reply->errorString())
                    : u"the stream ended before the answer was complete"_s;
            }
        } else if (error != QNetworkReply::NoError) {
            r.kind = AttemptResult::Kind::StreamBroken;
            r.errorText = u"the connection closed mid-answer: %1"_s.arg(m_reply->errorString());
        } else if (const qint64 announced = announcedBodyBytes(); m_bufferSeen < announced) {
            // Qt 6.4 finishes a reply without an error when the connection closes with nothing
            // left to read, even short of its Content-Length (a race with the close): the body
            // was cut all the same.
            r.kind = AttemptResult::Kind::StreamBroken;
            r.errorText
                = u"the connection closed mid-answer: %1 of %2 bytes arrived"_s.arg(m_bufferSeen)
                      .arg(announced);
        } else if (const auto embedded = retry::errorInSuccessBody(
                       std::string_view(m_buffer.constData(), std::size_t(m_buffer.size())))) {
            // Section 6.6: a whole 2xx body without choices that carries an error.
            finish(embeddedFailure(*embedded));
            return;
        } else {
            QString why;
            if (const auto answer = parseChatCompletion(m_buffer, &why)) {
                r.kind = AttemptResult::Kind::Answered;
                r.finishReason = answer->finishReason;
                r.usage = answer->usage;
                r.answerChars = answer->text.size();
                if (!answer->text.isEmpty())
                    Q_EMIT textReceived(answer->text);
            } else {
                r.kind = AttemptResult::Kind::StreamError;
                r.errorText = u"the answer could not be read: %1"_s.arg(why);
                r.body = m_buffer.left(qsizetype(retry::kMaxClassifiedBodyBytes));
            }
        }
    } else if (m_status > 0) {
        r.kind = AttemptResult::Kind::HttpError;
        r.body = m_buffer;
        r.bodyBytesSeen = m_bufferSeen;
        if (error != QNetworkReply::NoError && m_bufferSeen == 0
            && failureOf(error) == retry::NetworkFailure::BrokenBeforeHeaders)
            r.errorText = m_reply->errorString();
    } else {
        r.kind = AttemptResult::Kind::NetworkError;
        if (m_timedOut) {
            r.network = retry::NetworkFailure::TimedOut;
            r.errorText = u"no response arrived in time; the attempt was abandoned"_s;
        } else {
            r.network = failureOf(error);
            r.errorText = m_reply->errorString();
        }
    }
    finish(std::move(r));
}

qint64 ChatAttempt::announcedBodyBytes() const
{
    // Only an identity body is comparable: a compressed one is announced in compressed bytes and
    // arrives inflated.
    if (!m_reply || !m_reply->rawHeader("content-encoding").isEmpty())
        return -1;
    bool ok = false;
    const qint64 length = m_reply->header(QNetworkRequest::ContentLengthHeader).toLongLong(&ok);
    return ok ? length : -1;
}

AttemptResult ChatAttempt::embeddedFailure(const retry::EmbeddedError &embedded) const
{
    AttemptResult r = m_result;
    r.kind = AttemptResult::Kind::HttpError;
    r.status = embedded.status;
    r.errorInSuccess = true;
    r.body = QByteArray::fromStdString(embedded.body);
    r.bodyBytesSeen = r.body.size();
    r.answerChars = 0;
    qCInfo(lcNet, "an error inside a %d response, taken as a %d", m_status, embedded.status);
    return r;
}

void ChatAttempt::finish(AttemptResult result)
{
    if (m_finished)
        return;
    abort();
    Q_EMIT finished(result);
}

} // namespace capwatch::net
