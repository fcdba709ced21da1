#pragma once

// The history database is for its user alone (issue 30): it holds every conversation and what
// every send cost. Its folder is made 0700 and the database 0600 before SQLite opens it, so the
// -wal and -shm files SQLite makes beside it are 0600 too (SQLite gives them the mode of the
// database file); an existing database, its -wal and -shm, and capwatch's own folder are
// tightened when opened. What cannot be changed (a file of another user, a read-only file
// system) never stops the open: it is said in problems().

#include <QString>
#include <QStringList>

namespace capwatch::history {

class PrivateFiles final
{
public:
    /// The modes a file and a folder are made with or tightened to (group and others lose
    /// every bit, the user keeps what they had).
    static constexpr unsigned kFileMode = 0600;
    static constexpr unsigned kFolderMode = 0700;

    explicit PrivateFiles(const QString &databasePath);

    /// Makes the database's folder, each missing folder 0700 (as the XDG base directory
    /// specification asks of a data folder). An existing folder is tightened to 0700 only when
    /// it is capwatch's own: the default location's `capwatch` folder, or one this call made. A
    /// folder the user named (`--history-database /tmp/x.sqlite`) keeps its mode. False when the
    /// folder could not be made (the open then fails as before).
    bool prepareFolder();
    /// Takes group and others' bits away from the database, its -wal and -shm where they exist
    /// as regular files (a folder in the database's place is left to the probe).
    void tightenFiles();
    /// Creates the database, empty, 0600, when nothing is at its path (SQLite takes an empty
    /// file for an empty database); another process that made it meanwhile keeps its file.
    void createFile();
    /// What could not be made private, one sentence each; empty when everything is.
    QStringList problems() const { return m_problems; }
    /// Whether `folder` is the default database's folder (`GenericDataLocation/capwatch`).
    static bool isDefaultFolder(const QString &folder);

private:
    void tighten(const QString &path, unsigned keep, bool folder);

    QString m_path;
    QStringList m_problems;
};

} // namespace capwatch::history
