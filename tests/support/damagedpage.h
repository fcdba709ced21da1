#pragma once

// A history database with a damaged page that nothing capwatch does ever reads: a table of its
// own, added beside the schema, whose root page is overwritten. Only a check of every page
// (PRAGMA quick_check, OpenOptions::checkIntegrity) finds it. Header-only.

#include <QByteArray>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>

namespace capwatch::testing {

/// Damages the database at `path` (closed, every connection to it gone) as above; false when it
/// could not.
inline bool damageAPageNothingReads(const QString &path)
{
    const QString name = QStringLiteral("damage");
    int pageSize = 0;
    int root = 0;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery q(db);
            bool ok = q.exec(QStringLiteral("CREATE TABLE junk(x BLOB)"));
            for (int i = 0; ok && i < 64; ++i)
                ok = q.exec(QStringLiteral("INSERT INTO junk VALUES (randomblob(900))"));
            if (ok && q.exec(QStringLiteral("PRAGMA page_size")) && q.next())
                pageSize = q.value(0).toInt();
            if (ok
                && q.exec(QStringLiteral("SELECT rootpage FROM sqlite_master WHERE name = 'junk'"))
                && q.next())
                root = q.value(0).toInt();
            q.finish();
            db.close(); // the last connection: its log goes into the file
        }
    }
    QSqlDatabase::removeDatabase(name);
    if (pageSize <= 0 || root <= 1)
        return false;
    QFile file(path);
    return file.open(QIODevice::ReadWrite) && file.seek(qint64(root - 1) * pageSize)
        && file.write(QByteArray(pageSize, '\xA5')) == pageSize;
}

} // namespace capwatch::testing
