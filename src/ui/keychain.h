#pragma once

// The API key in the system keychain (Secret Service / KWallet through QtKeychain). Never a
// plain-text fallback: if no keychain is reachable, loading fails with a clear message.

#include "net/credentials.h"

#include <QObject>

#include <functional>
#include <memory>

namespace capwatch::ui {

class Keychain final
{
public:
    /// Reads the stored key; `done(key, error)` runs on the event loop once the keychain answers.
    static void read(QObject *context, std::function<void(const QByteArray &, const QString &)> done);
    /// Stores the key (empty: deletes it); `done(error)` with an empty error on success.
    static void write(QObject *context, const QByteArray &key, std::function<void(const QString &)> done);
    /// A credential provider that reads the keychain on every (re)load.
    static std::shared_ptr<net::CredentialProvider> provider(QObject *context);
};

} // namespace capwatch::ui
