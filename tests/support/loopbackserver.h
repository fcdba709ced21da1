#pragma once

// A few lines of HTTP server (or proxy) on loopback, for what the demo provider never answers:
// garbage, a hold, window headers and usage of a test's choosing, a refusal.

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QString>
#include <QTcpServer>
#include <QTcpSocket>
#include <QUrl>
#include <functional>
#include <memory>
#include <utility>

namespace capwatch::testing {

/// A whole HTTP/1.1 answer that closes its connection.
inline QByteArray httpResponse(const QByteArray &status, const QByteArray &body,
    const QByteArray &contentType = "application/json", const QByteArray &extra = {})
{
    return "HTTP/1.1 " + status + "\r\nContent-Type: " + contentType + "\r\nContent-Length: "
        + QByteArray::number(body.size()) + "\r\n" + extra + "Connection: close\r\n\r\n" + body;
}

/// Reads each request to the end of its body (its Content-Length), records its head and body,
/// and answers with what the responder makes of the body, then closes the connection. An empty
/// answer holds the request: nothing is written and the connection stays open.
class LoopbackServer final : public QObject
{
public:
    using Responder = std::function<QByteArray(const QByteArray &body)>;

    explicit LoopbackServer(Responder respond)
        : m_respond(std::move(respond))
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection())
                serve(socket);
        });
    }
    /// Every request gets `response` (empty: every request is held).
    explicit LoopbackServer(QByteArray response)
        : LoopbackServer([response = std::move(response)](const QByteArray &) { return response; })
    { }

    bool listen() { return m_server.listen(QHostAddress::LocalHost); }
    quint16 port() const { return m_server.serverPort(); }
    /// The base URL of an OpenAI-compatible endpoint here.
    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1/v1").arg(port())); }
    /// The heads (request line and headers, without the blank line) in the order they came.
    const QList<QByteArray> &heads() const { return m_heads; }
    const QList<QByteArray> &bodies() const { return m_bodies; }
    int connections() const { return m_connections; }
    /// As a proxy: what is wrong with the first request it passed on, which should be a POST to
    /// `target` (an absolute URL) with `key` as its bearer and `words` in its body; empty when
    /// nothing is (or "no request" before one came).
    QByteArray firstRequestDiffers(
        const QByteArray &target, const QByteArray &key, const QByteArray &words) const
    {
        if (m_heads.isEmpty())
            return "no request";
        const QByteArray &head = m_heads.constFirst();
        if (!head.startsWith(QByteArray("POST " + target + " HTTP/1.1\r\n")))
            return "another request line: " + head;
        if (!head.contains(QByteArray("Authorization: Bearer " + key)))
            return "not its key: " + head;
        if (!m_bodies.constFirst().contains(words))
            return "not its prompt: " + m_bodies.constFirst().left(300);
        return {};
    }

private:
    void serve(QTcpSocket *socket)
    {
        ++m_connections;
        auto buffer = std::make_shared<QByteArray>();
        connect(socket, &QIODevice::readyRead, socket, [this, socket, buffer] {
            *buffer += socket->readAll();
            const qsizetype end = buffer->indexOf("\r\n\r\n");
            if (end < 0 || socket->property("read").toBool())
                return;
            qsizetype length = 0;
            for (const QByteArray &line : buffer->left(end).split('\n')) {
                if (line.toLower().startsWith("content-length:"))
                    length = line.mid(15).trimmed().toLongLong();
            }
            if (buffer->size() < end + 4 + length)
                return;
            socket->setProperty("read", true);
            m_heads.append(buffer->left(end));
            m_bodies.append(buffer->mid(end + 4, length));
            const QByteArray answer = m_respond(m_bodies.constLast());
            if (answer.isEmpty())
                return; // held
            socket->write(answer);
            socket->disconnectFromHost();
        });
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    }

    QTcpServer m_server;
    Responder m_respond;
    QList<QByteArray> m_heads;
    QList<QByteArray> m_bodies;
    int m_connections = 0;
};

} // namespace capwatch::testing
