#pragma once

// A system keychain for tests, without a keychain: installed with ui::Keychain::setBackend.

#include "ui/keychain.h"

#include <QObject>
#include <QString>
#include <QTimer>

namespace capwatch::testing {

/// A keychain without a keychain: answers on the event loop, fails with `failure` if set.
class FakeKeychain final : public ui::KeychainBackend
{
public:
    void read(QObject *context, ReadDone done) override
    {
        ++reads;
        QTimer::singleShot(0, context, [this, done] {
            if (!failure.isEmpty())
                done({}, failure);
            else if (stored.isEmpty())
                done({}, QStringLiteral("no key is stored in the system keychain"));
            else
                done(stored, {});
        });
    }
    void write(QObject *context, const QByteArray &key, WriteDone done) override
    {
        ++writes;
        QTimer::singleShot(0, context, [this, key, done] {
            if (!failure.isEmpty()) {
                done(failure);
                return;
            }
            stored = key;
            done({});
        });
    }

    QString failure;
    QByteArray stored;
    int reads = 0;
    int writes = 0;
};

} // namespace capwatch::testing
