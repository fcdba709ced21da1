#pragma once

// Keys of a settings file written on a thread of its own, in the order asked. A QSettings on the
// GUI thread writes its whole file, and syncs it to disk, on the turn of the event loop after a
// change: 6 ms on an idle machine, 29 ms on a busy one, measured at the end of every answer a
// chars-per-token ratio was learned from. What is learned as sends go goes through here; what a
// user sets in a dialog stays with the window's own QSettings.
//
// Keys asked for while no write is under way go to the file together: the two of a learned ratio
// cost one write of the file and one sync, not two (each is a lock file, a temporary file, two
// fdatasync and a rename: 8-15 ms that capwatch-cli waited for before it could exit).

#include <QAtomicInt>
#include <QMutex>
#include <QSettings>
#include <QString>
#include <QThreadPool>
#include <QVariant>
#include <vector>

namespace capwatch::session {

class SettingsFileWriter final
{
    Q_DISABLE_COPY_MOVE(SettingsFileWriter)

public:
    SettingsFileWriter();
    /// Waits for the writes asked for: none is lost at exit.
    ~SettingsFileWriter();

    /// Sets `key` (with its group, "providers/x/charsPerToken") in the file, or removes it when
    /// `value` is invalid. Another QSettings on the same file sees it after its next sync().
    void write(
        const QString &file, QSettings::Format format, const QString &key, const QVariant &value);
    /// Returns when every write asked for so far is done.
    void waitForDone();
    /// How many times a file was written so far (one write may carry many keys).
    int fileWrites() const { return m_fileWrites.loadRelaxed(); }

private:
    struct Change
    {
        QString file;
        QSettings::Format format;
        QString key;
        QVariant value;
    };
    void writePending();

    QThreadPool m_pool;
    QMutex m_mutex;
    std::vector<Change> m_pending; // guarded by m_mutex
    bool m_scheduled = false; // guarded by m_mutex: a writePending() is queued, not yet started
    QAtomicInt m_fileWrites;
};

} // namespace capwatch::session
