#include "settingsfilewriter.h"

namespace capwatch::session {

SettingsFileWriter::SettingsFileWriter()
{
    m_pool.setMaxThreadCount(1); // one thread: the writes land in the order asked
}

SettingsFileWriter::~SettingsFileWriter()
{
    m_pool.waitForDone();
}

void SettingsFileWriter::write(
    const QString &file, QSettings::Format format, const QString &key, const QVariant &value)
{
    m_pool.start([file, format, key, value] {
        QSettings settings(file, format);
        if (value.isValid())
            settings.setValue(key, value);
        else
            settings.remove(key);
        // The destructor writes the file (QSettings locks it against other writers).
    });
}

void SettingsFileWriter::waitForDone()
{
    m_pool.waitForDone();
}

} // namespace capwatch::session
