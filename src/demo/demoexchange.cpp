#include "demoexchange.h"

#include <QTcpSocket>
#include <utility>

namespace capwatch::demo {

namespace {

// The firehose keeps at most this much queued in the socket, so memory stays bounded however
// slowly the client reads; it refills in batches of about kFirehoseBatch.
constexpr qint64 kFirehoseHighWater = 1024 * 1024;
constexpr qsizetype kFirehoseBatch = 64 * 1024;

} // namespace

void sendJson(QHttpServerResponder &responder, Status status, const QByteArray &body,
    const wire::HeaderPairs &extraHeaders)
{
    responder.writeStatusLine(status);
    responder.writeHeader(QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json"));
    responder.writeHeader(QByteArrayLiteral("Content-Length"), QByteArray::number(body.size()));
    for (const auto &[name, value] : extraHeaders)
        responder.writeHeader(name, value);
    responder.writeBody(body);
}

void writeStreamHeaders(QHttpServerResponder &responder, const wire::HeaderPairs &extraHeaders)
{
    responder.writeStatusLine(Status::Ok);
    responder.writeHeader(
        QByteArrayLiteral("Content-Type"), QByteArrayLiteral("text/event-stream"));
    responder.writeHeader(QByteArrayLiteral("Cache-Control"), QByteArrayLiteral("no-cache"));
    responder.writeHeader(QByteArrayLiteral("Transfer-Encoding"), QByteArrayLiteral("chunked"));
    for (const auto &[name, value] : extraHeaders)
        responder.writeHeader(name, value);
}

DemoExchange::DemoExchange(QHttpServerResponder &&responder, Finished finished, QObject *parent)
    : QObject(parent)
    , m_finished(std::move(finished))
    , m_socket(responder.socket())
    , m_responder(std::move(responder))
{
    m_timer.setTimerType(Qt::PreciseTimer);
    if (m_socket) {
        connect(m_socket.data(), &QAbstractSocket::disconnected, this,
            [this] { m_finished("client went away"); });
        connect(m_socket.data(), &QObject::destroyed, this,
            [this] { m_finished("connection closed"); });
    }
}

bool DemoExchange::connected() const
{
    return m_socket && m_socket->state() == QAbstractSocket::ConnectedState;
}

void DemoExchange::playTimed(QList<QByteArray> pieces, int intervalMs, qsizetype dropAfter)
{
    m_pieces = std::move(pieces);
    m_dropAfter = dropAfter;
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, [this] { writeNextPiece(); });
    writeNextPiece();
    if (!m_stopped)
        m_timer.start();
}

void DemoExchange::playFirehose(Firehose firehose)
{
    m_firehose = std::make_unique<Firehose>(std::move(firehose));
    if (!m_socket)
        return;
    connect(m_socket.data(), &QIODevice::bytesWritten, this, [this] { pumpFirehose(); });
    pumpFirehose();
}

void DemoExchange::stop()
{
    m_stopped = true;
    m_timer.stop();
    if (m_socket)
        disconnect(m_socket.data(), nullptr, this, nullptr);
}

void DemoExchange::writeNextPiece()
{
    if (!connected())
        return;
    if (m_next == m_dropAfter) {
        m_timer.stop();
        // Deliberately cut the connection: what was written so far goes out first, then the
        // socket dies without the end of the body.
        QPointer<QTcpSocket> socket = m_socket;
        socket->flush();
        m_finished("dropped mid-stream");
        if (socket)
            socket->abort();
        return;
    }
    if (m_next >= m_pieces.size())
        return;
    m_responder.writeBody(m_pieces.at(m_next++));
    if (m_next == m_pieces.size() && m_dropAfter < 0) {
        m_timer.stop();
        m_finished(nullptr);
    }
}

void DemoExchange::pumpFirehose()
{
    Firehose &f = *m_firehose;
    if (!connected() || f.nextChunk > f.totalChunks)
        return;
    const QByteArray prefix = f.format.contentPrefix() + '"';
    const QByteArray suffix = '"' + wire::ChunkFormat::contentSuffix();
    const qint64 base = f.totalBytes / f.totalChunks;
    const qint64 extra = f.totalBytes % f.totalChunks;
    while (connected() && m_socket->bytesToWrite() < kFirehoseHighWater) {
        QByteArray batch;
        batch.reserve(kFirehoseBatch + 4096);
        while (batch.size() < kFirehoseBatch && f.nextChunk < f.totalChunks) {
            const qint64 size = base + (f.nextChunk < extra ? 1 : 0);
            batch += prefix;
            batch += QByteArrayView(f.loop).sliced(f.textOffset, size);
            batch += suffix;
            f.textOffset = (f.textOffset + size) % f.textLength;
            ++f.nextChunk;
        }
        const bool last = f.nextChunk == f.totalChunks;
        if (last)
            batch += f.tail;
        m_responder.writeBody(wire::httpChunk(batch));
        if (last) {
            ++f.nextChunk; // past the end: nothing more to pump
            m_responder.writeBody(wire::lastHttpChunk());
            m_finished(nullptr);
            return;
        }
    }
}

} // namespace capwatch::demo
