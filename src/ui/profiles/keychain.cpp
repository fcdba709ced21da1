#include "ui/profiles/keychain.h"

#include <QCoreApplication>
#include <QPointer>
#include <qt6keychain/keychain.h>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

namespace {

const QString kService = u"capwatch"_s;

QString tr(const char *s)
{
    return QCoreApplication::translate("capwatch::ui::Keychain", s);
}

class SystemKeychain final : public KeychainBackend
{
public:
    void read(QObject *context, const QString &entry, ReadDone done) override
    {
        auto *job = new QKeychain::ReadPasswordJob(kService, context);
        job->setAutoDelete(true);
        job->setInsecureFallback(false);
        job->setKey(entry);
        QObject::connect(job, &QKeychain::Job::finished, context, [done](QKeychain::Job *j) {
            auto *read = static_cast<QKeychain::ReadPasswordJob *>(j);
            if (read->error() == QKeychain::NoError)
                done(read->binaryData().trimmed(), QString());
            else if (read->error() == QKeychain::EntryNotFound)
                done({}, tr("no key is stored in the system keychain"));
            else
                done({}, tr("the system keychain is not available: %1").arg(read->errorString()));
        });
        job->start();
    }

    void write(
        QObject *context, const QString &entry, const QByteArray &key, WriteDone done) override
    {
        QKeychain::Job *job = nullptr;
        if (key.isEmpty()) {
            job = new QKeychain::DeletePasswordJob(kService, context);
        } else {
            auto *w = new QKeychain::WritePasswordJob(kService, context);
            w->setBinaryData(key);
            job = w;
        }
        job->setAutoDelete(true);
        job->setInsecureFallback(false);
        job->setKey(entry);
        QObject::connect(job, &QKeychain::Job::finished, context, [done](QKeychain::Job *j) {
            if (j->error() == QKeychain::NoError || j->error() == QKeychain::EntryNotFound)
                done(QString());
            else
                done(tr("the system keychain is not available: %1").arg(j->errorString()));
        });
        job->start();
    }
};

// Only the GUI thread uses the keychain, so the test hook needs no lock.
std::shared_ptr<KeychainBackend> &backend()
{
    static std::shared_ptr<KeychainBackend> b = std::make_shared<SystemKeychain>();
    return b;
}

} // namespace

QString Keychain::defaultEntry()
{
    return u"api-key"_s;
}

void Keychain::read(QObject *context, const QString &entry, KeychainBackend::ReadDone done)
{
    backend()->read(context, entry.isEmpty() ? defaultEntry() : entry, std::move(done));
}

void Keychain::write(
    QObject *context, const QString &entry, const QByteArray &key, KeychainBackend::WriteDone done)
{
    backend()->write(context, entry.isEmpty() ? defaultEntry() : entry, key, std::move(done));
}

void Keychain::setBackend(std::shared_ptr<KeychainBackend> b)
{
    backend() = b ? std::move(b) : std::make_shared<SystemKeychain>();
}

std::shared_ptr<net::CredentialProvider> Keychain::provider(QObject *context, const QString &entry)
{
    QPointer<QObject> guard(context);
    return std::make_shared<net::CallbackCredentialProvider>(
        tr("system keychain"), [guard, entry](net::CredentialProvider::Done done) {
            if (!guard) {
                done({ {}, tr("system keychain"), tr("the window is closing") });
                return;
            }
            read(guard, entry, [done](const QByteArray &key, const QString &error) {
                done({ key, tr("system keychain"), error });
            });
        });
}

} // namespace capwatch::ui
