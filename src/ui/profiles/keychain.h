#pragma once

// The API keys in the system keychain (Secret Service / KWallet through QtKeychain), one entry
// per provider profile (session::ProviderProfile::keychainEntry()). Never a plain-text
// fallback: if no keychain is reachable, loading fails with a clear message.

#include "net/credentials.h"

#include <QObject>
#include <functional>
#include <memory>

namespace capwatch::ui {

/// Where the keychain's reads and writes go. The default talks to QtKeychain; tests install one
/// of their own (Keychain::setBackend) to make a keychain fail or succeed without a real one.
/// Both calls answer later, on the event loop, and only while `context` lives. `entry` is the
/// profile's keychain entry; never empty here (Keychain maps an empty one to the entry of
/// before profiles, `api-key`).
class KeychainBackend
{
public:
    using ReadDone = std::function<void(const QByteArray &key, const QString &error)>;
    using WriteDone = std::function<void(const QString &error)>;

    virtual ~KeychainBackend() = default;
    virtual void read(QObject *context, const QString &entry, ReadDone done) = 0;
    /// An empty key deletes the stored one.
    virtual void write(
        QObject *context, const QString &entry, const QByteArray &key, WriteDone done)
        = 0;
};

class Keychain final
{
public:
    /// The entry of the single provider of before profiles (and of an empty `entry`).
    static QString defaultEntry();
    /// Reads the key stored under `entry`; `done(key, error)` runs on the event loop once the
    /// keychain answers.
    static void read(QObject *context, const QString &entry, KeychainBackend::ReadDone done);
    /// Stores the key under `entry` (empty key: deletes it); `done(error)` with an empty error on
    /// success.
    static void write(QObject *context, const QString &entry, const QByteArray &key,
        KeychainBackend::WriteDone done);
    /// A credential provider that reads `entry` of the keychain on every (re)load (empty: the
    /// entry of before profiles).
    static std::shared_ptr<net::CredentialProvider> provider(
        QObject *context, const QString &entry = {});

    /// For tests: sends every read and write to `backend` from now on (nullptr: the system
    /// keychain again).
    static void setBackend(std::shared_ptr<KeychainBackend> backend);
};

} // namespace capwatch::ui
