#pragma once

// One HTTP attempt of a chat send: the request, its streamed or whole answer, and a typed
// result. The retry driver decides what happens next; an attempt never retries by itself.

#include "chatstream.h"
#include "retry/classifier.h"

#include <QByteArray>
#include <QDateTime>
#include <QElapsedTimer>
#include <QNetworkRequest>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <optional>

class QNetworkAccessManager;
class QNetworkReply;

namespace capwatch::net {

struct AttemptResult
{
    enum class Kind
    {
        Answered, ///< 2xx with a complete answer
        /// A non-2xx status, or an error inside a 2xx (retry policy 6.6: a JSON body without
        /// choices, or a stream whose first data event is an error) with its effective status;
        /// body holds (the start of) the error body, or the error event's JSON.
        HttpError,
        NetworkError, ///< no status: refused, reset before headers, timed out...
        StreamBroken, ///< 2xx, then the connection ended before the answer was complete
        StreamError, ///< 2xx, then the provider sent an error (or garbage) instead of an answer
    };
    Kind kind = Kind::NetworkError;
    int status = 0;
    retry::Headers headers;
    QByteArray body; ///< error body, at most kMaxClassifiedBodyBytes + 1 bytes
    qint64 bodyBytesSeen = 0; ///< the error body's full size as received
    retry::NetworkFailure network = retry::NetworkFailure::None;
    QString errorText; ///< network error, stream error message, or why the answer is unusable
    QString finishReason;
    std::optional<Usage> usage;
    qint64 answerChars = 0;
    /// HttpError from an error inside a 2xx response: `status` is the effective status, the
    /// response itself said 2xx. Nothing of it was passed on as answer text.
    bool errorInSuccess = false;
    /// When the response's headers arrived (UTC): the x-ratelimit-* resets count from then.
    QDateTime headersAt;
};

class ChatAttempt final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChatAttempt)

public:
    /// `idleTimeoutMs`: wall milliseconds without a byte before the attempt is abandoned.
    ChatAttempt(QNetworkAccessManager *nam, QNetworkRequest request, QByteArray body,
        qint64 idleTimeoutMs, QObject *parent = nullptr);
    ~ChatAttempt() override;

    void start();
    /// Stops the attempt without a finished() signal (cancel, header timeout).
    void abort();
    bool headersSeen() const { return m_status > 0; }

Q_SIGNALS:
    void headersReceived(int status);
    void textReceived(const QString &text);
    void finished(const capwatch::net::AttemptResult &result);

private:
    void onMetaData();
    void onReadyRead();
    void onFinished();
    void onIdleCheck();
    void readStream();
    void drainNextPiece();
    /// Stream bytes not decoded yet: in m_pending, or still in the reply.
    [[nodiscard]] bool streamLeft() const;
    void consumeStream(QByteArrayView bytes);
    void finish(AttemptResult result);
    /// The Content-Length of an identity-encoded body, or -1.
    qint64 announcedBodyBytes() const;
    /// The failed attempt an error inside a 2xx makes (section 6.6).
    AttemptResult embeddedFailure(const retry::EmbeddedError &embedded) const;
    void armIdle();
    void boundReadBuffer();

    QNetworkAccessManager *m_nam;
    QNetworkRequest m_request;
    QByteArray m_body;
    QPointer<QNetworkReply> m_reply;
    QTimer m_idleTimer;
    QTimer m_drainTimer; ///< the next piece of what Qt buffered, on its own turn
    QElapsedTimer m_sinceActivity;
    qint64 m_idleTimeoutMs;
    int m_status = 0;
    int m_redirects = 0; ///< hops followed so far
    bool m_isStream = false;
    bool m_timedOut = false;
    bool m_done = false; ///< [DONE] seen
    bool m_sawDataEvent = false; ///< a stream's first data event has been looked at
    bool m_finished = false;
    bool m_drainQueued = false; ///< the next piece of what Qt buffered is due on m_drainTimer
    QByteArray m_pending; ///< what Qt buffered, read at once, decoded a piece at a time
    qsizetype m_pendingAt = 0; ///< where in m_pending the next piece starts
    bool m_finishWhenDrained = false; ///< the reply finished with pieces still to decode
    SseParser m_parser;
    QList<SseEvent> m_events;
    QByteArray m_buffer; ///< error body or non-streamed answer
    qint64 m_bufferSeen = 0;
    AttemptResult m_result;
};

} // namespace capwatch::net
