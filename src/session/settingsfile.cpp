#include "settingsfile.h"

#include "sessionlogging.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace capwatch::session {

using namespace Qt::StringLiterals;

namespace {

constexpr auto kMergedKey = "capwatch/merged_legacy";

} // namespace

QString settingsFilePath()
{
    // What QSettings(NativeFormat, UserScope, "capwatch", "capwatch") names on Linux, spelled
    // out so that both programs read it as INI whatever their organization name.
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation))
        .filePath(u"capwatch/capwatch.conf"_s);
}

QString defaultSettingsPath()
{
    const QString path = settingsFilePath();
    const QString legacy = QFileInfo(path).dir().filePath(u"capwatch.ini"_s);
    QString error;
    if (!mergeLegacySettings(path, legacy, &error))
        qCWarning(lcSession).noquote() << error;
    return path;
}

bool mergeLegacySettings(const QString &path, const QString &legacyPath, QString *error)
{
    if (!QFileInfo(legacyPath).isFile())
        return true;
    QSettings target(path, QSettings::IniFormat);
    if (target.value(QString::fromLatin1(kMergedKey)).toString() == legacyPath)
        return true;
    const QSettings legacy(legacyPath, QSettings::IniFormat);
    if (legacy.status() != QSettings::NoError) {
        if (error)
            *error = u"%1: not read (%2 is used as it is)"_s.arg(legacyPath, path);
        return true; // a broken old file never stops a start, and nothing is lost by waiting
    }
    int copied = 0;
    const QStringList keys = legacy.allKeys();
    for (const QString &key : keys) {
        if (!target.contains(key)) {
            target.setValue(key, legacy.value(key));
            ++copied;
        }
    }
    target.setValue(QString::fromLatin1(kMergedKey), legacyPath);
    target.sync();
    if (target.status() != QSettings::NoError) {
        if (error)
            *error = u"%1: could not be written; %2 is merged into it at the next start"_s.arg(
                path, legacyPath);
        return false;
    }
    qCInfo(lcSession).noquote() << u"merged %1 setting(s) of %2 into %3"_s.arg(copied).arg(
        legacyPath, path);
    return true;
}

} // namespace capwatch::session
