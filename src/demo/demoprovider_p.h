#pragma once

// What demoprovider.cpp and demoprovider_answers.cpp (the answers to a chat request that got
// through) share: the chat request being answered.

#include "demoexchange.h"
#include "demoprovider.h"
#include "logging.h"
#include "scenarios.h"
#include "wireformat.h"

#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QPointer>
#include <QTcpSocket>
#include <QTimer>

namespace capwatch::demo {

/// One chat request being answered: what every step of the handler needs of it.
struct DemoProvider::ChatCall
{
    DemoProvider *provider;
    const QHttpServerRequest &request;
    QHttpServerResponder &responder;
    const DemoOptions &options;
    int index = 0;
    Scenario scenario = Scenario::Capped;
    int position = 0; ///< within the scenario's cycle of three
    QByteArray authorization;
    QByteArray fingerprint; ///< flaky: hash of the request, to tell a transparent resend

    void log(const char *outcome) const
    {
        qCInfo(lcDemo, "chat #%d [%ls] -> %s", index, qUtf16Printable(options.scenario), outcome);
    }
    /// The window's x-ratelimit-* headers as they stand now; none in daily, whose responses say
    /// nothing of a limit but the words of its 429.
    wire::HeaderPairs windowHeaders() const
    {
        return scenario == Scenario::Daily ? wire::HeaderPairs {} : provider->windowHeaders();
    }
    /// The window's headers first, then `headers` (huge-headers wants its retry-after last).
    void reply(Status status, const QByteArray &body, const wire::HeaderPairs &headers = {}) const
    {
        log(QByteArray::number(int(status)).constData());
        sendJson(responder, status, body, windowHeaders() + headers);
    }
    /// The headline 422 (or the reset scenario's), with the window its body names, not the
    /// demo's own token window: reset in `resetMs` (the headline's 18 min by default).
    void replyHeadline(const QByteArray &body, const wire::HeaderPairs &headers = {},
        double resetMs = 18 * 60 * 1000) const
    {
        log(QByteArray::number(int(Status::UnprocessableEntity)).constData());
        sendJson(responder, Status::UnprocessableEntity, body,
            provider->headlineWindowHeaders(resetMs) + headers);
    }
    void startStream() const { writeStreamHeaders(responder, windowHeaders()); }
    void dropConnection(const char *why) const
    {
        log(why);
        // Not from inside the handler: QtHttpServer is still using this socket's request.
        QPointer<QTcpSocket> socket = responder.socket();
        QTimer::singleShot(0, provider, [socket] {
            if (socket)
                socket->abort();
        });
    }
};

} // namespace capwatch::demo
