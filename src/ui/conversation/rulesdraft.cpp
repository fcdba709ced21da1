#include "ui/conversation/rulesdraft.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

QString RulesDraft::directory()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation))
        .filePath(u"capwatch/rules.d"_s);
}

QByteArray RulesDraft::text(const QString &errorText, const QString &rule)
{
    QString phrase = errorText.simplified();
    if (phrase.size() > kMaxPhraseChars) {
        qsizetype keep = kMaxPhraseChars;
        if (phrase.at(keep - 1).isHighSurrogate()) // never half a character
            --keep;
        phrase.truncate(keep);
    }
    QJsonObject categories;
    categories.insert(u"too_large"_s, QJsonObject { { u"phrases"_s, QJsonArray { phrase } } });
    QJsonObject file;
    file.insert(u"format"_s, 1);
    file.insert(u"description"_s,
        u"Drafted by capwatch from a failure %1 read. Keep the words the provider's message is "
        "known by, put them under the category they mean (too_large, billing, auth, "
        "token_limit, rate_limit, transient), check with 'capwatch-cli rules check FILE', and "
        "start capwatch again to use it."_s.arg(rule.isEmpty() ? u"no rule"_s : rule));
    file.insert(u"categories"_s, categories);
    return QJsonDocument(file).toJson(QJsonDocument::Indented);
}

QString RulesDraft::write(
    const QString &errorText, const QString &rule, const QDateTime &now, QString *error)
{
    const QDir dir(directory());
    if (!dir.mkpath(u"."_s)) {
        if (error)
            *error = u"cannot make %1"_s.arg(dir.path());
        return {};
    }
    const QString stem = u"misread-"_s + now.toString(u"yyyyMMdd-HHmmss"_s);
    QString path = dir.filePath(stem + u".json"_s);
    for (int n = 2; QFile::exists(path); ++n)
        path = dir.filePath(u"%1-%2.json"_s.arg(stem).arg(n));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text(errorText, rule)) < 0
        || !file.commit()) {
        if (error)
            *error = file.errorString();
        return {};
    }
    return path;
}

} // namespace capwatch::ui
