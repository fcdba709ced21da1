#include "credentials.h"

#include "chatrequest.h"

#include <QFile>
#include <algorithm>

namespace capwatch::net {

bool isHeaderSafe(const QByteArray &key)
{
    return std::all_of(key.begin(), key.end(), [](char c) { return c > 0x20 && c < 0x7f; });
}

KeyUse keyUse(const Credential &credential, const QUrl &target)
{
    if (!credential.key.isEmpty())
        return KeyUse::Key;
    return isLoopback(target) ? KeyUse::NotNeeded : KeyUse::Missing;
}

QString authSourceText(const Credential &credential, const QUrl &target)
{
    return keyUse(credential, target) == KeyUse::NotNeeded
        ? QStringLiteral("none (loopback endpoint)")
        : credential.source;
}

EnvCredentialProvider::EnvCredentialProvider(QString variable)
    : m_variable(std::move(variable))
{ }

void EnvCredentialProvider::load(Done done)
{
    Credential c;
    c.source = m_variable;
    c.key = qgetenv(m_variable.toLocal8Bit().constData()).trimmed();
    if (c.key.isEmpty())
        c.error = QStringLiteral("the environment variable %1 is not set").arg(m_variable);
    done(c);
}

FileCredentialProvider::FileCredentialProvider(QString path)
    : m_path(std::move(path))
{ }

QString FileCredentialProvider::source() const
{
    return QStringLiteral("key file ") + m_path;
}

void FileCredentialProvider::load(Done done)
{
    Credential c;
    c.source = source();
    QFile file(m_path);
    // A key file is a few dozen bytes; reading more would only ever be a mistake.
    if (!file.open(QIODevice::ReadOnly))
        c.error = QStringLiteral("cannot read the key file %1: %2").arg(m_path, file.errorString());
    else
        c.key = file.read(64 * 1024).trimmed();
    if (c.error.isEmpty() && c.key.isEmpty())
        c.error = QStringLiteral("the key file %1 is empty").arg(m_path);
    done(c);
}

CallbackCredentialProvider::CallbackCredentialProvider(
    QString source, std::function<void(Done)> loader)
    : m_source(std::move(source))
    , m_loader(std::move(loader))
{ }

} // namespace capwatch::net
