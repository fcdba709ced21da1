#include "privatefiles.h"

#include "historylogging.h"
#include "historystore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace capwatch::history {

using namespace Qt::StringLiterals;

namespace {

QString octal(unsigned mode)
{
    return u"0"_s + QString::number(mode, 8).rightJustified(3, u'0');
}

} // namespace

PrivateFiles::PrivateFiles(const QString &databasePath)
    : m_path(QFileInfo(databasePath).absoluteFilePath())
{ }

bool PrivateFiles::isDefaultFolder(const QString &folder)
{
    const QString mine = QFileInfo(folder).canonicalFilePath();
    const QString theDefault
        = QFileInfo(QFileInfo(HistoryStore::defaultPath()).absolutePath()).canonicalFilePath();
    return !mine.isEmpty() && mine == theDefault;
}

bool PrivateFiles::prepareFolder()
{
    const QString folder = QFileInfo(m_path).absolutePath();
    // The folders that are missing, the deepest last.
    QStringList missing;
    for (QString at = folder; !QFileInfo::exists(at);) {
        missing.prepend(at);
        const QString parent = QFileInfo(at).absolutePath();
        if (parent == at)
            break;
        at = parent;
    }
    bool made = false;
    for (const QString &dir : std::as_const(missing)) {
        // 0700 from the start, not made and then tightened: nobody else can look in meanwhile.
        if (::mkdir(QFile::encodeName(dir).constData(), kFolderMode) == 0) {
            made = true;
        } else if (const int error = errno; error != EEXIST) {
            qCWarning(lcHistory).noquote()
                << u"could not make the folder %1: %2"_s.arg(dir, qt_error_string(error));
            return false;
        }
    }
    // Ours: made just now (under a umask that took more away, it stays as the umask left it), or
    // capwatch's own folder in the default place. Never a folder the user named for the file.
    if (!made && isDefaultFolder(folder))
        tighten(folder, kFolderMode, true);
    return true;
}

void PrivateFiles::tightenFiles()
{
    for (const QString &suffix : { QString(), u"-wal"_s, u"-shm"_s })
        tighten(m_path + suffix, kFileMode, false);
}

void PrivateFiles::createFile()
{
    const int fd = ::open(
        QFile::encodeName(m_path).constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, kFileMode);
    if (fd >= 0)
        ::close(fd);
    // EEXIST: another process made it meanwhile (or a dangling link is there); any other error
    // is SQLite's to report when it tries the same.
}

void PrivateFiles::tighten(const QString &path, unsigned keep, bool folder)
{
    const QByteArray native = QFile::encodeName(path);
    struct stat st
    {
    };
    if (::stat(native.constData(), &st) != 0)
        return; // nothing there (yet)
    if (folder ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
        return;
    const auto mode = unsigned(st.st_mode & 07777);
    const unsigned wanted = mode & keep;
    if (wanted == mode)
        return;
    const int failed = ::chmod(native.constData(), mode_t(wanted)) == 0 ? 0 : errno;
    if (failed == 0) {
        qCInfo(lcHistory).noquote()
            << u"%1 made private: %2 to %3"_s.arg(path, octal(mode), octal(wanted));
        return;
    }
    const QString problem = u"%1 could not be made private to this user (it stays %2): %3"_s.arg(
        path, octal(mode), qt_error_string(failed));
    // Once, though the files are tightened before the open and again after it.
    if (m_problems.contains(problem))
        return;
    qCWarning(lcHistory).noquote() << problem;
    m_problems.append(problem);
}

} // namespace capwatch::history
