#pragma once

// A system keychain for tests, without a keychain: installed with ui::Keychain::setBackend.

#include "ui/profiles/keychain.h"

#include <QHash>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

namespace capwatch::testing {

/// A keychain without a keychain: answers on the event loop, fails with `failure` if set. Keys
/// are kept per entry (one per provider profile); an entry never written reads as `stored`.
class FakeKeychain final : public ui::KeychainBackend
{
public:
    void read(QObject *context, const QString &entry, ReadDone done) override
    {
        ++reads;
        readEntries.append(entry);
        QTimer::singleShot(0, context, [this, entry, done] {
            const QByteArray key = entries.value(entry, stored);
            if (!failure.isEmpty())
                done({}, failure);
            else if (key.isEmpty())
                done({}, QStringLiteral("no key is stored in the system keychain"));
            else
                done(key, {});
        });
    }
    void write(
        QObject *context, const QString &entry, const QByteArray &key, WriteDone done) override
    {
        ++writes;
        QTimer::singleShot(0, context, [this, entry, key, done] {
            if (!failure.isEmpty()) {
                done(failure);
                return;
            }
            entries.insert(entry, key);
            stored = key;
            lastEntry = entry;
            done({});
        });
    }

    QString failure;
    QByteArray stored; ///< the key of the last write (and of an entry never written)
    QString lastEntry; ///< the entry of the last write
    QHash<QString, QByteArray> entries;
    QStringList readEntries;
    int reads = 0;
    int writes = 0;
};

} // namespace capwatch::testing
