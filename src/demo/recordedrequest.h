#pragma once

// A request as the demo provider kept it (DemoProvider::recordedRequests()): never the key.

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <utility>

namespace capwatch::demo {

/// One request as the demo provider received it, for tests that check what a client sent.
struct RecordedRequest
{
    QByteArray method; ///< "GET", "POST", ...
    QByteArray path; ///< the URL path, e.g. "/v1/chat/completions"
    /// In the order received. The Authorization value is masked as "Bearer ***" (or "***" for
    /// another scheme): the key itself is never kept.
    QList<std::pair<QByteArray, QByteArray>> headers;
    /// keyHash() of the Bearer key the request carried (empty: none): so that a test can tell
    /// which key reached which provider (DemoProvider::sawKey()) without the key being kept.
    QByteArray keyHash;
    QByteArray body; ///< cut at DemoProvider::kRecordedBodyLimit bytes
    bool bodyCut = false; ///< true if body was longer and was cut

    /// The body parsed; an empty object if it is not a JSON object.
    QJsonObject json() const;
    /// Content of the last {"role":"user"} message (text parts of an array content joined), or
    /// a null QString if there is none.
    QString lastUserMessage() const;
    /// The value of the first header of that name (case-insensitive), or a null QByteArray.
    QByteArray header(QByteArrayView name) const;
};

} // namespace capwatch::demo
