#include "ui/profiles/extraheaders.h"

#include <QStringList>

namespace capwatch::ui::extraheaders {

using namespace Qt::StringLiterals;

QString toText(const QList<std::pair<QByteArray, QByteArray>> &headers)
{
    QStringList lines;
    for (const auto &[name, value] : headers)
        lines << QString::fromUtf8(name) + u": "_s + QString::fromUtf8(value);
    return lines.join(u'\n');
}

QList<std::pair<QByteArray, QByteArray>> parse(const QString &text, int *badLine)
{
    QList<std::pair<QByteArray, QByteArray>> out;
    *badLine = 0;
    const QStringList lines = text.split(u'\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines.at(i).trimmed();
        if (line.isEmpty())
            continue;
        const qsizetype colon = line.indexOf(u':');
        const QString name = colon > 0 ? line.left(colon).trimmed() : QString();
        bool token = !name.isEmpty();
        for (const QChar ch : name)
            token = token && ch.unicode() > 32 && ch.unicode() < 127 && ch != u'(' && ch != u')'
                && ch != u',' && ch != u'/' && ch != u'"';
        if (!token) {
            if (*badLine == 0)
                *badLine = int(i + 1);
            continue;
        }
        out.append({ name.toLatin1(), line.mid(colon + 1).trimmed().toUtf8() });
    }
    return out;
}

} // namespace capwatch::ui::extraheaders
