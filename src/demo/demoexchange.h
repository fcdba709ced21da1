#pragma once

// One response of the demo provider that outlives its route handler: a timed stream, the
// firehose, or a held (`hang`) request. It owns the responder, and ends when the response is
// complete, when the client goes away, or with the provider. Plus the two ways every response
// starts (a JSON answer, the headers of an event stream).

#include "wireformat.h"

#include <QByteArray>
#include <QHttpServerResponder>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <functional>
#include <memory>

class QTcpSocket;

namespace capwatch::demo {

using Status = QHttpServerResponder::StatusCode;

/// A whole JSON response: status line, Content-Type, Content-Length, extra headers, body.
void sendJson(QHttpServerResponder &responder, Status status, const QByteArray &body,
    const wire::HeaderPairs &extraHeaders = {});
/// 200, text/event-stream, chunked, extra headers: what the streamed answers start with.
void writeStreamHeaders(
    QHttpServerResponder &responder, const wire::HeaderPairs &extraHeaders = {});

class DemoExchange final : public QObject
{
    Q_DISABLE_COPY_MOVE(DemoExchange)

public:
    /// Called once when the exchange is over (`why` null when the response is complete); the
    /// owner then stops and deletes it.
    using Finished = std::function<void(const char *why)>;

    struct Firehose
    {
        wire::ChunkFormat format;
        qint64 totalBytes = 0;
        int totalChunks = 0;
        int nextChunk = 0;
        qint64 textOffset = 0;
        QByteArray loop; ///< the source text, repeated so any chunk is one slice of it
        qsizetype textLength = 0;
        QByteArray tail; ///< events after the last content chunk
    };

    DemoExchange(QHttpServerResponder &&responder, Finished finished, QObject *parent);

    /// Writes pieces (already framed body bytes) one per interval, the first at once. With
    /// dropAfter >= 0 the connection is aborted instead of writing piece dropAfter.
    void playTimed(QList<QByteArray> pieces, int intervalMs, qsizetype dropAfter);
    /// Writes the firehose as fast as the client reads, never more than about 1 MiB queued.
    void playFirehose(Firehose firehose);
    void stop();

private:
    bool connected() const;
    void writeNextPiece();
    void pumpFirehose();

    Finished m_finished;
    QPointer<QTcpSocket> m_socket;
    QHttpServerResponder m_responder;
    QTimer m_timer;
    QList<QByteArray> m_pieces;
    qsizetype m_next = 0;
    qsizetype m_dropAfter = -1;
    std::unique_ptr<Firehose> m_firehose;
    bool m_stopped = false;
};

} // namespace capwatch::demo
