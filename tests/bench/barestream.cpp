// The Qt yardstick of tests/bench/stream-bench.sh: the least a Qt program can do to take in a
// streamed answer, built with the same Qt and flags as capwatch-cli. It posts the bench's
// request, reads the reply's raw bytes as they come and drops them (as `curl -o /dev/null`
// does), and prints how many bytes it read. No parsing, no output, no history: what is left
// between it and curl is Qt itself (its libraries' load, QCoreApplication, the HTTP thread of
// QNetworkAccessManager), a floor no capwatch-cli run can go under.
//
//   bench_barestream URL [READ_BUFFER_BYTES]
//
// URL is the full .../chat/completions address. READ_BUFFER_BYTES, when given, bounds the
// reply's read buffer as capwatch does (QNetworkReply::setReadBufferSize).

#include <QCoreApplication>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QUrl>
#include <cstdio>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() < 2) {
        std::fputs("usage: bench_barestream URL [READ_BUFFER_BYTES]\n", stderr);
        return 2;
    }
    QNetworkAccessManager manager;
    QNetworkRequest request(QUrl(args.at(1)));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *reply = manager.post(request,
        QByteArrayLiteral(R"({"model":"capwatch-demo","stream":true,)"
                          R"("messages":[{"role":"user","content":"bench"}]})"));
    if (args.size() > 2) {
        // Qt 6.4 forwards the bound to its HTTP thread only once post() has handed the request
        // over, in the event loop: queued, it lands just after that (as in ChatAttempt).
        const qint64 bound = args.at(2).toLongLong();
        QMetaObject::invokeMethod(
            reply, [reply, bound] { reply->setReadBufferSize(bound); }, Qt::QueuedConnection);
    }

    // readAll(), not read(buffer, n): it hands over what Qt buffered without a copy when it can.
    qint64 bytes = 0;
    QObject::connect(
        reply, &QIODevice::readyRead, reply, [&] { bytes += reply->readAll().size(); });
    QObject::connect(reply, &QNetworkReply::finished, &app, [&] {
        bytes += reply->readAll().size();
        const bool ok = reply->error() == QNetworkReply::NoError;
        if (!ok)
            std::fprintf(stderr, "bench_barestream: %s\n", qPrintable(reply->errorString()));
        std::printf("%lld\n", static_cast<long long>(bytes));
        QCoreApplication::exit(ok ? 0 : 1);
    });
    return QCoreApplication::exec();
}
