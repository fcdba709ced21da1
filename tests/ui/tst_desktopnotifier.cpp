// The desktop notification offscreen, where there is no system tray: nothing is shown, nothing
// warns or breaks, and notified() still tells what would have been shown.

#include "ui/window/desktopnotifier.h"

#include <QApplication>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSystemTrayIcon>
#include <QTest>

using namespace capwatch::ui;
using namespace Qt::StringLiterals;

class TestDesktopNotifier final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void withoutATrayNothingShowsButItIsReported();
    void disabledOnlyReports();
};

void TestDesktopNotifier::init()
{
    // Any qWarning (QSystemTrayIcon's "No Icon set", "system tray not available") fails the test.
    QTest::failOnWarning(QRegularExpression(u".*"_s));
}

void TestDesktopNotifier::withoutATrayNothingShowsButItIsReported()
{
    QVERIFY2(!QSystemTrayIcon::isSystemTrayAvailable(), "the premise: offscreen has no tray");
    DesktopNotifier notifier;
    QVERIFY(notifier.isEnabled());
    QSignalSpy notified(&notifier, &DesktopNotifier::notified);
    const QString title = u"Parked send went out"_s;
    const QString text = u"“Summarise the report” was sent at the provider's reset, 06:14."_s;
    QVERIFY(!notifier.notify(title, text));
    QVERIFY(!notifier.notify(u"Second"_s, QString()));
    QCOMPARE(notified.count(), 2);
    QCOMPARE(notified.at(0).at(0).toString(), title);
    QCOMPARE(notified.at(0).at(1).toString(), text);
    QCOMPARE(notified.at(1).at(0).toString(), u"Second"_s);
    QCOMPARE(notifier.shownCount(), 0);
    QCOMPARE(notifier.trayIcon(), nullptr); // none was made
    QVERIFY(!notifier.findChild<QSystemTrayIcon *>());
}

void TestDesktopNotifier::disabledOnlyReports()
{
    DesktopNotifier notifier;
    notifier.setEnabled(false);
    QVERIFY(!notifier.isEnabled());
    QSignalSpy notified(&notifier, &DesktopNotifier::notified);
    QVERIFY(!notifier.notify(u"Title"_s, u"Text"_s));
    QCOMPARE(notified.count(), 1);
    QCOMPARE(notified.first(), (QList<QVariant> { u"Title"_s, u"Text"_s }));
    QCOMPARE(notifier.shownCount(), 0);
    QCOMPARE(notifier.trayIcon(), nullptr);
}

QTEST_MAIN(TestDesktopNotifier)
#include "tst_desktopnotifier.moc"
