#pragma once

// Where the API key comes from. The key itself never leaves this type except into the
// Authorization header; everything else speaks of `source`.

#include <QByteArray>
#include <QString>
#include <QUrl>
#include <functional>
#include <memory>

namespace capwatch::net {

struct Credential
{
    QByteArray key; ///< empty: no key (fine for a loopback endpoint)
    QString source; ///< where it came from, for display: "OPENAI_COMPAT_API_KEY", "key file ~/k"
    QString error; ///< non-empty when loading failed; says why, never quotes the key
};

/// Whether a key can travel in a header: printable ASCII without spaces.
bool isHeaderSafe(const QByteArray &key);

/// What a send to `target` authenticates with, given the credential loaded for it.
enum class KeyUse
{
    Key, ///< the key is sent
    NotNeeded, ///< no key, and none needed: a loopback endpoint
    Missing, ///< no key for an endpoint that needs one: the send cannot go out
};

/// The one decision behind the final error text's "auth:" line and the window's key status.
KeyUse keyUse(const Credential &credential, const QUrl &target);

/// The "auth:" value of the final error text: the key's source, or "none (loopback endpoint)".
QString authSourceText(const Credential &credential, const QUrl &target);

/// Loads (and on 401/403 reloads) the key. Loading may finish later (a keychain is
/// asynchronous): `done` is called exactly once, possibly before load() returns.
class CredentialProvider
{
public:
    virtual ~CredentialProvider() = default;
    using Done = std::function<void(const Credential &)>;
    virtual void load(Done done) = 0;
    /// Where keys come from, for the status line and the final error text.
    virtual QString source() const = 0;
};

/// The key from an environment variable, read anew on every load.
class EnvCredentialProvider final : public CredentialProvider
{
public:
    explicit EnvCredentialProvider(QString variable);
    void load(Done done) override;
    QString source() const override { return m_variable; }

private:
    QString m_variable;
};

/// The key from a file, trimmed of surrounding white space, read anew on every load.
class FileCredentialProvider final : public CredentialProvider
{
public:
    explicit FileCredentialProvider(QString path);
    void load(Done done) override;
    QString source() const override;

private:
    QString m_path;
};

/// No key at all (loopback endpoints).
class NoCredentialProvider final : public CredentialProvider
{
public:
    void load(Done done) override { done({ {}, source(), {} }); }
    QString source() const override { return QStringLiteral("none"); }
};

/// Adapts any loader: the GUI's keychain uses this.
class CallbackCredentialProvider final : public CredentialProvider
{
public:
    CallbackCredentialProvider(QString source, std::function<void(Done)> loader);
    void load(Done done) override { m_loader(std::move(done)); }
    QString source() const override { return m_source; }

private:
    QString m_source;
    std::function<void(Done)> m_loader;
};

} // namespace capwatch::net
