#include "settingsfilewriter.h"

#include <QMutexLocker>
#include <memory>

namespace capwatch::session {

SettingsFileWriter::SettingsFileWriter()
{
    m_pool.setMaxThreadCount(1); // one thread: the writes land in the order asked
    // ...kept for the program's life: a thread started again for each write (after the default
    // 30 s idle) took the window 0.6 ms of mmap and clone as a send ended.
    m_pool.setExpiryTimeout(-1);
}

SettingsFileWriter::~SettingsFileWriter()
{
    m_pool.waitForDone();
}

void SettingsFileWriter::write(
    const QString &file, QSettings::Format format, const QString &key, const QVariant &value)
{
    QMutexLocker lock(&m_mutex);
    m_pending.push_back({ file, format, key, value });
    if (m_scheduled)
        return; // the queued writePending() takes this one too
    m_scheduled = true;
    m_pool.start([this] { writePending(); });
}

void SettingsFileWriter::writePending()
{
    std::vector<Change> changes;
    {
        QMutexLocker lock(&m_mutex);
        changes.swap(m_pending);
        m_scheduled = false; // what is asked from now on needs a write of its own
    }
    // In the order asked; one QSettings (one write of the file) for each run of the same file.
    std::unique_ptr<QSettings> settings;
    const Change *opened = nullptr; // the change `settings` was opened for
    for (const Change &c : changes) {
        if (!opened || opened->file != c.file || opened->format != c.format) {
            settings.reset(); // writes the previous file first
            settings = std::make_unique<QSettings>(c.file, c.format);
            opened = &c;
            m_fileWrites.fetchAndAddRelaxed(1);
        }
        if (c.value.isValid())
            settings->setValue(c.key, c.value);
        else
            settings->remove(c.key);
    }
    // The destructor writes the file (QSettings locks it against other writers).
}

void SettingsFileWriter::waitForDone()
{
    m_pool.waitForDone();
}

} // namespace capwatch::session
