#pragma once

// The messages of a chat request the demo provider got, as "role: content" lines: what a test
// asserts of a request at the provider (a continuation's partial answer and instruction).

#include "demo/demoprovider.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

namespace capwatch::testing {

inline QStringList sentMessages(const demo::RecordedRequest &request)
{
    QStringList out;
    const QJsonArray messages = request.json().value(QStringLiteral("messages")).toArray();
    for (const QJsonValue &m : messages)
        out << m.toObject().value(QStringLiteral("role")).toString() + QStringLiteral(": ")
                + m.toObject().value(QStringLiteral("content")).toString();
    return out;
}

} // namespace capwatch::testing
