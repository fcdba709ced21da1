#pragma once

// The API key in the system keychain (Secret Service / KWallet through QtKeychain). Never a
// plain-text fallback: if no keychain is reachable, loading fails with a clear message.

#include "net/credentials.h"

#include <QObject>
#include <functional>
#include <memory>

namespace capwatch::ui {

/// Where the keychain's reads and writes go. The default talks to QtKeychain; tests install one
/// of their own (Keychain::setBackend) to make a keychain fail or succeed without a real one.
/// Both calls answer later, on the event loop, and only while `context` lives.
class KeychainBackend
{
public:
    using ReadDone = std::function<void(const QByteArray &key, const QString &error)>;
    using WriteDone = std::function<void(const QString &error)>;

    virtual ~KeychainBackend() = default;
    virtual void read(QObject *context, ReadDone done) = 0;
    /// An empty key deletes the stored one.
    virtual void write(QObject *context, const QByteArray &key, WriteDone done) = 0;
};

class Keychain final
{
public:
    /// Reads the stored key; `done(key, error)` runs on the event loop once the keychain answers.
    static void read(QObject *context, KeychainBackend::ReadDone done);
    /// Stores the key (empty: deletes it); `done(error)` with an empty error on success.
    static void write(QObject *context, const QByteArray &key, KeychainBackend::WriteDone done);
    /// A credential provider that reads the keychain on every (re)load.
    static std::shared_ptr<net::CredentialProvider> provider(QObject *context);

    /// For tests: sends every read and write to `backend` from now on (nullptr: the system
    /// keychain again).
    static void setBackend(std::shared_ptr<KeychainBackend> backend);
};

} // namespace capwatch::ui
