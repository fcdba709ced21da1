// SettingsFileWriter: keys land in the file in the order asked, off the calling thread, and keys
// asked for while a write is under way go to the file together (one write, one sync).

#include "session/settingsfilewriter.h"

#include <QLockFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace Qt::StringLiterals;
using capwatch::session::SettingsFileWriter;

class TestSettingsFileWriter : public QObject
{
    Q_OBJECT

private slots:
    void keysLandInTheOrderAsked()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath(u"capwatch.conf"_s);
        {
            QSettings seed(file, QSettings::IniFormat);
            seed.setValue(u"window/geometry"_s, u"kept"_s); // another writer's key stays
            seed.setValue(u"providers/a/gone"_s, 1);
        }
        SettingsFileWriter writer;
        writer.write(file, QSettings::IniFormat, u"providers/a/charsPerToken"_s, 3.5);
        writer.write(file, QSettings::IniFormat, u"providers/a/ratioSamples"_s, 2);
        writer.write(file, QSettings::IniFormat, u"providers/a/charsPerToken"_s, 3.75);
        writer.write(file, QSettings::IniFormat, u"providers/a/gone"_s, QVariant());
        writer.waitForDone();

        QSettings read(file, QSettings::IniFormat);
        QCOMPARE(read.value(u"providers/a/charsPerToken"_s).toDouble(), 3.75); // the last wins
        QCOMPARE(read.value(u"providers/a/ratioSamples"_s).toInt(), 2);
        QVERIFY(!read.contains(u"providers/a/gone"_s)); // an invalid value removes the key
        QCOMPARE(read.value(u"window/geometry"_s).toString(), u"kept"_s);
    }

    void twoFilesEachGetTheirKeys()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString one = dir.filePath(u"one.conf"_s);
        const QString two = dir.filePath(u"two.conf"_s);
        SettingsFileWriter writer;
        writer.write(one, QSettings::IniFormat, u"k/a"_s, 1);
        writer.write(two, QSettings::IniFormat, u"k/a"_s, 2);
        writer.write(one, QSettings::IniFormat, u"k/b"_s, 3);
        writer.waitForDone();
        QSettings readOne(one, QSettings::IniFormat);
        QSettings readTwo(two, QSettings::IniFormat);
        QCOMPARE(readOne.value(u"k/a"_s).toInt(), 1);
        QCOMPARE(readOne.value(u"k/b"_s).toInt(), 3);
        QCOMPARE(readTwo.value(u"k/a"_s).toInt(), 2);
        QVERIFY(!readTwo.contains(u"k/b"_s));
    }

    void keysAskedDuringAWriteGoTogether()
    {
        // While another program holds the file's lock the writer's first write waits; the twenty
        // keys asked meanwhile make one more write, not twenty.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath(u"capwatch.conf"_s);
        auto lock = std::make_unique<QLockFile>(file + u".lock"_s);
        lock->setStaleLockTime(0);
        QVERIFY(lock->lock());

        SettingsFileWriter writer;
        writer.write(file, QSettings::IniFormat, u"providers/x/first"_s, 0);
        for (int i = 0; i < 20; ++i)
            writer.write(file, QSettings::IniFormat, u"providers/x/k%1"_s.arg(i), i);
        QTest::qWait(50); // the first write is at the lock by now, or still about to be
        lock.reset(); // released

        writer.waitForDone();
        QVERIFY2(writer.fileWrites() <= 2, qPrintable(QString::number(writer.fileWrites())));
        QSettings read(file, QSettings::IniFormat);
        QCOMPARE(read.value(u"providers/x/first"_s).toInt(), 0);
        for (int i = 0; i < 20; ++i)
            QCOMPARE(read.value(u"providers/x/k%1"_s.arg(i)).toInt(), i);
    }

    void theDestructorWaitsForTheWrites()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath(u"capwatch.conf"_s);
        {
            SettingsFileWriter writer;
            for (int i = 0; i < 5; ++i)
                writer.write(file, QSettings::IniFormat, u"g/k%1"_s.arg(i), i * 10);
        }
        QSettings read(file, QSettings::IniFormat);
        for (int i = 0; i < 5; ++i)
            QCOMPARE(read.value(u"g/k%1"_s.arg(i)).toInt(), i * 10);
    }
};

QTEST_GUILESS_MAIN(TestSettingsFileWriter)
#include "tst_settingsfilewriter.moc"
