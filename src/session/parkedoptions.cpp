#include "parkedoptions.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>

namespace capwatch::session {

using namespace Qt::StringLiterals;

QString ParkedOptions::toJson() const
{
    QJsonObject o;
    if (send.systemPrompt)
        o[u"system"_s] = *send.systemPrompt;
    if (send.maxTokens)
        o[u"max_tokens"_s] = *send.maxTokens;
    if (send.temperature)
        o[u"temperature"_s] = *send.temperature;
    o[u"request"_s] = qint64(request);
    o[u"attempt"_s] = attempt;
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

ParkedOptions ParkedOptions::fromJson(const QString &json)
{
    ParkedOptions p;
    const QJsonObject o = QJsonDocument::fromJson(json.toUtf8()).object();
    if (const QJsonValue v = o.value(u"system"_s); v.isString())
        p.send.systemPrompt = v.toString();
    if (const QJsonValue v = o.value(u"max_tokens"_s); v.isDouble() && v.toDouble() >= 1
        && v.toDouble() <= 1e9 && v.toDouble() == std::floor(v.toDouble()))
        p.send.maxTokens = v.toInt();
    if (const QJsonValue v = o.value(u"temperature"_s);
        v.isDouble() && v.toDouble() >= 0 && v.toDouble() <= 2)
        p.send.temperature = v.toDouble();
    if (const QJsonValue v = o.value(u"request"_s); v.isDouble() && v.toDouble() >= 0)
        p.request = quint64(v.toDouble());
    if (const QJsonValue v = o.value(u"attempt"_s); v.isDouble() && v.toDouble() >= 0)
        p.attempt = v.toInt();
    return p;
}

net::RetryRecord unparkedRecord(
    const history::ParkedSend &parked, net::RetryRecord::Unpark why, const QDateTime &now)
{
    const ParkedOptions o = ParkedOptions::fromJson(parked.options);
    net::RetryRecord r;
    r.time = now;
    r.request = int(o.request);
    r.attempt = o.attempt;
    r.event = net::RetryRecord::Event::Unparked;
    r.rawWaitMs = std::max<qint64>(0, parked.parkedAt.msecsTo(parked.resetAt));
    r.resetAt = parked.dueAt;
    r.unpark = why;
    return r;
}

} // namespace capwatch::session
