// The accessible tree and the keyboard: every control has a name (and the important ones a
// description), the whole flow works from the keyboard, panel changes are announced, and the
// window follows a dark palette. Settings -> Providers: every focusable control named, Tab
// through the list, its buttons and the editor, no mnemonic twice, Delete from the keyboard.

#include "demo/demoprovider.h"
#include "support/demolocalprovider.h"
#include "support/windowwidgets.h"
#include "ui/conversation/conversationview.h"
#include "ui/panel/retrypanel.h"
#include "ui/profiles/profilecontroller.h"
#include "ui/settings/settings.h"
#include "ui/settings/settingsdialog.h"
#include "ui/window/mainwindow.h"

#include <QAbstractButton>
#include <QAccessible>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMap>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace capwatch;
using namespace capwatch::ui;
using namespace Qt::StringLiterals;
using namespace capwatch::testing::widgets;

namespace {

QList<QPair<QObject *, QAccessible::Event>> g_events;

void recordEvent(QAccessibleEvent *event)
{
    g_events.append({ event->object(), event->type() });
}

bool isInteractive(QAccessible::Role role)
{
    switch (role) {
    case QAccessible::PushButton:
    case QAccessible::CheckBox:
    case QAccessible::RadioButton:
    case QAccessible::EditableText:
    case QAccessible::ComboBox:
    case QAccessible::PageTab:
    case QAccessible::ProgressBar:
    case QAccessible::SpinBox:
    case QAccessible::Table:
        return true;
    default:
        return false;
    }
}

void walk(QAccessibleInterface *iface, QStringList *unnamed, int *seen, int depth = 0)
{
    if (!iface || depth > 40)
        return;
    ++*seen;
    if (isInteractive(iface->role()) && !iface->state().invisible
        && iface->text(QAccessible::Name).trimmed().isEmpty()) {
        QObject *o = iface->object();
        unnamed->append(
            u"%1 (%2)"_s.arg(o ? QString::fromLatin1(o->metaObject()->className()) : u"?"_s)
                .arg(int(iface->role())));
    }
    for (int i = 0; i < iface->childCount(); ++i)
        walk(iface->child(i), unnamed, seen, depth + 1);
}

} // namespace

class TestAccessibility final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void tabOrderFollowsReadingOrder();
    void everyControlHasAName();
    void keyControlsAreDescribed();
    void keyboardFlow();
    void panelChangesAreAnnounced();
    void followsADarkPalette();
    void profileComboIsReachableAndNamed();
    void settingsProvidersPage();

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Settings> m_settings;
    testing::DemoHook m_demo; // outlives the window
    std::unique_ptr<MainWindow> m_window;
};

void TestAccessibility::initTestCase()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    // The offscreen platform has no assistive technology to deliver events to; the panel's
    // observer sees each event exactly as it is handed to QAccessible::updateAccessibility().
    RetryPanel::setAnnouncementObserver(recordEvent);
    m_settings = std::make_unique<Settings>(m_dir.filePath(u"s.ini"_s));
    LaunchOptions o;
    o.forceDemo = true;
    o.timeScale = 0.01;
    m_window = std::make_unique<MainWindow>(*m_settings, o, &m_demo);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get())
        || QTest::qWaitForWindowExposed(m_window.get()));
}

void TestAccessibility::tabOrderFollowsReadingOrder()
{
    // From the prompt, Tab goes through its buttons and options, the right-hand column, then on
    // from the top: the demo banner's button and the conversation, and back to the prompt.
    QPlainTextEdit *prompt = promptEditor(*m_window);
    m_window->activateWindow();
    const auto tabAround = [prompt]() -> QStringList {
        prompt->setFocus();
        QStringList visited;
        for (int i = 0; i < 30; ++i) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            QWidget *focused = QApplication::focusWidget();
            if (!focused || focused == prompt)
                break;
            QAccessibleInterface *iface = QAccessible::queryAccessibleInterface(focused);
            visited << QString::fromLatin1(focused->metaObject()->className()) + u' '
                    + (iface ? iface->text(QAccessible::Name) : QString());
        }
        return visited;
    };
    QTRY_VERIFY(m_window->isActiveWindow());
    // Idle: Stop is disabled and Retry now hidden, so Tab passes them by.
    QCOMPARE(tabAround(),
        (QStringList { u"QPushButton Send"_s, u"QToolButton Request options"_s,
            u"QTabBar Timeline"_s, u"QScrollArea Retry cycle"_s,
            u"QPushButton Configure a provider…"_s,
            u"capwatch::ui::ConversationView Conversation"_s }));
    QCOMPARE(QApplication::focusWidget(), prompt); // all the way around

    // The request options, opened, come right after their button.
    QTest::mouseClick(requestOptionsButton(*m_window), Qt::LeftButton);
    QCOMPARE(tabAround(),
        (QStringList { u"QPushButton Send"_s, u"QToolButton Request options"_s,
            u"QPlainTextEdit System prompt"_s, u"QSpinBox Max tokens"_s,
            u"QDoubleSpinBox Temperature"_s, u"QTabBar Timeline"_s, u"QScrollArea Retry cycle"_s,
            u"QPushButton Configure a provider…"_s,
            u"capwatch::ui::ConversationView Conversation"_s }));
    QTest::mouseClick(requestOptionsButton(*m_window), Qt::LeftButton);
}

void TestAccessibility::everyControlHasAName()
{
    QAccessibleInterface *root = QAccessible::queryAccessibleInterface(m_window.get());
    QVERIFY(root);
    QStringList unnamed;
    int seen = 0;
    walk(root, &unnamed, &seen);
    QVERIFY2(seen > 30, "the accessible tree is suspiciously small");
    QVERIFY2(unnamed.isEmpty(),
        qPrintable(u"controls without an accessible name: "_s + unnamed.join(u", "_s)));
}

void TestAccessibility::keyControlsAreDescribed()
{
    QList<QWidget *> controls { promptEditor(*m_window), conversation(*m_window),
        retryPanel(*m_window), tabs(*m_window) };
    for (QPushButton *b : m_window->findChildren<QPushButton *>())
        controls.append(b);
    for (QWidget *w : controls) {
        QAccessibleInterface *iface = QAccessible::queryAccessibleInterface(w);
        QVERIFY(iface);
        const QString name = iface->text(QAccessible::Name);
        QVERIFY2(!name.isEmpty(), w->metaObject()->className());
        if (w != tabs(*m_window))
            QVERIFY2(!w->accessibleDescription().isEmpty(), qPrintable(name));
    }
    // The panel's live figures are named for what they are, not just their numbers.
    QStringList names;
    for (QWidget *w : retryPanel(*m_window)->findChildren<QWidget *>())
        names << w->accessibleName();
    for (const QString &expected : { u"Send state"_s, u"Attempt"_s, u"Tokens used and limit"_s,
             u"Next retry in"_s, u"Retry budget left"_s, u"Where the wait came from"_s })
        QVERIFY2(names.contains(expected), qPrintable(expected));
}

void TestAccessibility::keyboardFlow()
{
    QPlainTextEdit *prompt = promptEditor(*m_window);
    m_window->activateWindow();
    prompt->setFocus();
    QTRY_VERIFY(prompt->hasFocus());
    QTest::keyClicks(prompt, u"Hello from the keyboard"_s);
    // Tab leaves the editor (it does not insert a tab) and reaches Send.
    QTest::keyClick(prompt, Qt::Key_Tab);
    auto *focused = qobject_cast<QPushButton *>(QApplication::focusWidget());
    QVERIFY(focused);
    QVERIFY(focused->text().contains(u"Send"_s));
    QTest::keyClick(focused, Qt::Key_Backtab);
    QCOMPARE(QApplication::focusWidget(), prompt);

    // Ctrl+Enter sends; the panel takes over; Esc cancels; the prompt comes back.
    demo::DemoOptions o = m_demo.provider()->options();
    o.scenario = u"headline"_s;
    m_demo.provider()->setOptions(o);
    QTest::keyClick(prompt, Qt::Key_Return, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(retryPanel(*m_window)->state(), RetryPanel::State::Waiting, 10000);
    QTest::keyClick(m_window.get(), Qt::Key_Escape);
    QCOMPARE(retryPanel(*m_window)->state(), RetryPanel::State::Cancelled);
    QCOMPARE(prompt->toPlainText(), u"Hello from the keyboard"_s);

    // Mnemonics switch the tabs: Alt+L for the retry log, Alt+T for the timeline.
    QTest::keyClick(m_window.get(), Qt::Key_L, Qt::AltModifier);
    QCOMPARE(tabs(*m_window)->currentIndex(), 1);
    QTest::keyClick(m_window.get(), Qt::Key_T, Qt::AltModifier);
    QCOMPARE(tabs(*m_window)->currentIndex(), 0);
}

void TestAccessibility::panelChangesAreAnnounced()
{
    g_events.clear();
    demo::DemoOptions o = m_demo.provider()->options();
    o.scenario = u"capped"_s;
    o.headlineFirst = m_demo.provider()->chatRequests() + 1; // the next request meets the cap once
    m_demo.provider()->setOptions(o);
    promptEditor(*m_window)->setPlainText(u"Announce it"_s);
    m_window->controller()->sendPrompt();
    QTRY_COMPARE_WITH_TIMEOUT(retryPanel(*m_window)->state(), RetryPanel::State::Succeeded, 10000);
    QWidget *stateLabel = nullptr;
    for (QWidget *w : retryPanel(*m_window)->findChildren<QWidget *>()) {
        if (w->accessibleName() == u"Send state")
            stateLabel = w;
    }
    QVERIFY(stateLabel);
    qInfo("%d accessibility events recorded", int(g_events.size()));
    int announcements = 0;
    for (const auto &[object, type] : g_events) {
        if (object == stateLabel && type == QAccessible::NameChanged)
            ++announcements;
    }
    // Sending, waiting, sending attempt 2, streaming, answered: each change was announced.
    QVERIFY2(announcements >= 4, qPrintable(QString::number(announcements)));
}

void TestAccessibility::followsADarkPalette()
{
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x20, 0x22, 0x26));
    dark.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
    dark.setColor(QPalette::Base, QColor(0x17, 0x19, 0x1c));
    dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    dark.setColor(QPalette::Button, QColor(0x2c, 0x2f, 0x34));
    dark.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
    dark.setColor(QPalette::Highlight, QColor(0x3d, 0x7e, 0xe6));
    QApplication::setPalette(dark);
    QCoreApplication::sendPostedEvents(); // deliver the palette change before grabbing
    const QImage shot = m_window->grab().toImage();
    if (const QByteArray dir = qgetenv("CAPWATCH_SHOT_DIR"); !dir.isEmpty())
        shot.save(QString::fromLocal8Bit(dir) + u"/main-window-dark.png"_s);
    // Most of the window is dark now: sample a grid and count light pixels.
    int light = 0;
    int total = 0;
    for (int y = 0; y < shot.height(); y += 17) {
        for (int x = 0; x < shot.width(); x += 17) {
            ++total;
            if (QColor(shot.pixel(x, y)).lightness() > 160)
                ++light;
        }
    }
    QVERIFY2(light * 5 < total,
        qPrintable(u"%1 of %2 sampled pixels are light"_s.arg(light).arg(total)));
    QApplication::setPalette(QPalette());
}

void TestAccessibility::profileComboIsReachableAndNamed()
{
    // A window of the profiles (no --demo): the combo above the prompt (issue 17).
    Settings settings(m_dir.filePath(u"profiles.ini"_s));
    testing::DemoHook demo;
    LaunchOptions o;
    o.timeScale = 0.01;
    MainWindow window(settings, o, &demo);
    session::ProviderProfile paid;
    paid.id = u"paid"_s;
    paid.name = u"Paid key"_s;
    paid.endpoint = QUrl(u"http://127.0.0.1:9/v1"_s);
    paid.model = u"m"_s;
    session::ProfileSet set;
    set.profiles = { session::ProfileSet().demo(), paid };
    set.defaultProfile = set.profiles.first().id;
    window.profileController()->setProfiles(set);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.activateWindow();
    QTRY_VERIFY(window.isActiveWindow());

    QComboBox *combo = profileCombo(window);
    QAccessibleInterface *iface = QAccessible::queryAccessibleInterface(combo);
    QVERIFY(iface);
    // Qt's combo box reports its current item as the name; the widget's is ours, and so is the
    // description, which says where the next send goes.
    QCOMPARE(combo->accessibleName(), u"Provider profile"_s);
    QVERIFY(!iface->text(QAccessible::Name).isEmpty());
    QVERIFY2(iface->text(QAccessible::Description).contains(u"next send"_s),
        qPrintable(iface->text(QAccessible::Description)));
    QLabel *label = window.profileController()->label();
    QCOMPARE(label->buddy(), combo);
    QVERIFY(label->text().contains(u'&')); // its mnemonic

    // Tab from the prompt: Send, then the profile.
    promptEditor(window)->setFocus();
    QTest::keyClick(promptEditor(window), Qt::Key_Tab);
    QCOMPARE(QApplication::focusWidget(), sendButton(window));
    QTest::keyClick(sendButton(window), Qt::Key_Tab);
    QCOMPARE(QApplication::focusWidget(), combo);
    // Ctrl+Shift+P from anywhere.
    promptEditor(window)->setFocus();
    QTest::keyClick(promptEditor(window), Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_COMPARE(QApplication::focusWidget(), combo);
    // The keyboard switches it.
    QTest::keyClick(combo, Qt::Key_Down);
    QCOMPARE(window.profileController()->currentId(), u"paid"_s);
    QVERIFY(window.statusText().startsWith(u"Profile: Paid key | "_s));
}

void TestAccessibility::settingsProvidersPage()
{
    session::ProfileSet set;
    set.profiles.append(set.demo());
    session::ProviderProfile work;
    work.id = u"work"_s;
    work.name = u"Work"_s;
    work.endpoint = QUrl(u"https://api.example.invalid/v1"_s);
    work.model = u"m-1"_s;
    work.keySource = session::ProviderChoice::KeySource::Keychain;
    set.profiles.append(work);
    set.defaultProfile = set.demo().id;
    SettingsDialog dialog(set, u"work"_s, session::ParkingChoice::Ask);
    dialog.show();
    dialog.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&dialog) || QTest::qWaitForWindowExposed(&dialog));
    auto *page = dialog.findChild<QWidget *>(u"providersPage"_s);
    QVERIFY(page);

    // The accessible tree has a name for every control.
    QStringList unnamed;
    int seen = 0;
    walk(QAccessible::queryAccessibleInterface(page), &unnamed, &seen);
    QVERIFY2(seen > 30, "the accessible tree is suspiciously small");
    QVERIFY2(unnamed.isEmpty(),
        qPrintable(u"controls without an accessible name: "_s + unnamed.join(u", "_s)));
    // And so has every widget Tab can reach, by itself.
    QList<QWidget *> focusable;
    for (QWidget *w : page->findChildren<QWidget *>()) {
        // The line edit inside a spin box or a combo box is the box's.
        const bool inner = qobject_cast<QLineEdit *>(w)
            && (qobject_cast<QComboBox *>(w->parentWidget())
                || qobject_cast<QAbstractSpinBox *>(w->parentWidget()));
        if ((w->focusPolicy() & Qt::TabFocus) && w->isVisibleTo(page) && w->isEnabled() && !inner)
            focusable << w;
    }
    QVERIFY(focusable.size() > 15);
    for (QWidget *w : focusable) {
        QAccessibleInterface *iface = QAccessible::queryAccessibleInterface(w);
        QVERIFY(iface);
        QVERIFY2(!iface->text(QAccessible::Name).trimmed().isEmpty(),
            qPrintable(w->objectName() + u" ("_s + QString::fromLatin1(w->metaObject()->className())
                + u')'));
    }

    // Tab from the list: its buttons, then the editor's fields in reading order.
    auto *list = page->findChild<QListWidget *>(u"profileList"_s);
    list->setFocus();
    QStringList visited;
    for (int i = 0; i < 60; ++i) {
        QWidget *f = QApplication::focusWidget();
        while (f && (f->objectName().isEmpty() || f->objectName().startsWith(u"qt_"_s)))
            f = f->parentWidget();
        // The key source's radio buttons are one stop (Tab enters the group, arrows move in it).
        const QString name = f && f->objectName().startsWith(u"from"_s) ? u"keySource"_s
            : f                                                         ? f->objectName()
                                                                        : QString();
        if (f && (visited.isEmpty() || visited.last() != name))
            visited << name;
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
    }
    const QStringList order { u"profileList"_s, u"addProfile"_s, u"duplicateProfile"_s,
        u"deleteProfile"_s, u"defaultProfile"_s, u"profileName"_s, u"endpoint"_s, u"model"_s,
        u"refreshModels"_s, u"keySource"_s, u"keychainKey"_s, u"stream"_s, u"extraHeaders"_s,
        u"contextWindow"_s, u"waitCap"_s, u"budget"_s, u"attempts"_s, u"backoffBase"_s,
        u"headerTimeout"_s, u"retryTokenLimit"_s, u"retryRateLimit"_s, u"retryTransient"_s,
        u"fallback"_s, u"spendTokensDay"_s, u"spendTokensMonth"_s, u"spendCostDay"_s,
        u"spendCostMonth"_s, u"limitAction"_s, u"providerRpm"_s, u"providerTpm"_s, u"providerRpd"_s,
        u"providerTpd"_s, u"priceTable"_s, u"addPrice"_s };
    qsizetype at = 0;
    for (const QString &name : visited) {
        if (at < order.size() && name == order.at(at))
            ++at;
    }
    QVERIFY2(at == order.size(),
        qPrintable(u"Tab visited "_s + visited.join(u", "_s) + u"; missing "_s + order.value(at)));

    // No mnemonic twice on the page.
    QMap<QChar, QStringList> mnemonics;
    const auto add = [&mnemonics](const QString &text) {
        const qsizetype amp = text.indexOf(u'&');
        if (amp >= 0 && amp + 1 < text.size() && text.at(amp + 1) != u'&')
            mnemonics[text.at(amp + 1).toLower()] << text;
    };
    for (QAbstractButton *b : page->findChildren<QAbstractButton *>())
        add(b->text());
    for (QLabel *l : page->findChildren<QLabel *>())
        add(l->text());
    QVERIFY(mnemonics.size() > 15);
    for (auto it = mnemonics.cbegin(); it != mnemonics.cend(); ++it)
        QVERIFY2(it.value().size() == 1, qPrintable(it.value().join(u", "_s)));
    // A mnemonic reaches its field.
    QTest::keyClick(&dialog, Qt::Key_W, Qt::AltModifier);
    QCOMPARE(QApplication::focusWidget(), page->findChild<QWidget *>(u"waitCap"_s));

    // Delete from the keyboard, on the list.
    list->setFocus();
    list->setCurrentRow(1);
    QTest::keyClick(list, Qt::Key_Delete);
    QCOMPARE(list->count(), 1);
    QTest::keyClick(list, Qt::Key_Delete); // the demo stays
    QCOMPARE(list->count(), 1);
    dialog.reject();
}

QTEST_MAIN(TestAccessibility)
#include "tst_accessibility.moc"
