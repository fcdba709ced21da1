#include "recordedrequest.h"

#include "demorequest.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace capwatch::demo {

QJsonObject RecordedRequest::json() const
{
    return QJsonDocument::fromJson(body).object();
}

QString RecordedRequest::lastUserMessage() const
{
    const QJsonArray messages = json().value(u"messages").toArray();
    for (qsizetype i = messages.size() - 1; i >= 0; --i) {
        const QJsonObject message = messages.at(i).toObject();
        if (message.value(u"role").toString() == u"user")
            return contentText(message.value(u"content"));
    }
    return {};
}

QByteArray RecordedRequest::header(QByteArrayView name) const
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

} // namespace capwatch::demo
