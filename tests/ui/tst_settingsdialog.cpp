// The settings dialog, driven as a user would (offscreen, time-scaled): Providers (issue 17: the
// profiles added, duplicated, renamed and deleted, round-tripped through Settings; the demo that
// cannot be deleted; a profile's retry policy with its "Default (60 s)" values and bounds that
// cannot be exceeded; the models a DemoProvider lists; the fallback; a problem refusing OK), its
// validation message (readable in a light and a dark palette), the keychain failing and working
// per profile (through a replaceable keychain backend; each profile's own entry, removed with it),
// the model list never sending a key over plain HTTP unasked, and Retries' parking choice, pacing
// and trimming: stored, read back, applied to the session, reached by the keyboard.

#include "demo/demoprovider.h"
#include "net/chatrequest.h"
#include "support/demolocalprovider.h"
#include "support/fakekeychain.h"
#include "support/loopbackserver.h"
#include "support/windowwidgets.h"
#include "ui/conversation/conversationview.h"
#include "ui/panel/retrypanel.h"
#include "ui/profiles/keychain.h"
#include "ui/profiles/providerspage.h"
#include "ui/settings/settings.h"
#include "ui/settings/settingsdialog.h"
#include "ui/window/mainwindow.h"

#include <QAbstractButton>
#include <QAccessible>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMap>
#include <QMessageBox>
#include <QNetworkProxy>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QRadioButton>
#include <QScopeGuard>
#include <QScrollArea>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStyle>
#include <QTabWidget>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTranslator>
#include <cmath>
#include <map>

using namespace capwatch;
using namespace capwatch::ui;
using capwatch::testing::FakeKeychain;
using namespace Qt::StringLiterals;
using namespace capwatch::testing::widgets;
using capwatch::testing::httpResponse;
using capwatch::testing::LoopbackServer;

namespace {

constexpr double kScale = 0.05; // a 60 s wait takes 3 s: room to use the dialog while it runs
const QString kKeyVariable = u"CAPWATCH_TEST_DIALOG_KEY"_s;
const QByteArray kEnvKey = "sk-dialog-env-1111";
const QByteArray kFileKey = "sk-dialog-file-2222";

/// WCAG 2 contrast of two colours, computed here rather than taken from the widget.
double contrastRatio(QRgb a, QRgb b)
{
    const auto lum = [](QRgb c) {
        const auto ch = [](int v) {
            const double s = v / 255.0;
            return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * ch(qRed(c)) + 0.7152 * ch(qGreen(c)) + 0.0722 * ch(qBlue(c));
    };
    const double la = lum(a), lb = lum(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

/// What a reader sees of a label: the colour most of its area has (the background behind it)
/// and the pixel that stands out most from that (the core of a glyph), as rendered.
struct Seen
{
    QRgb background = 0;
    QRgb text = 0;
    double contrast = 0;
};

Seen seen(QWidget *window, QLabel *label)
{
    const QImage image = window->grab().toImage().convertToFormat(QImage::Format_RGB32);
    const QRect area(label->mapTo(window, QPoint(0, 0)), label->size());
    std::map<QRgb, int> counts;
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x)
            ++counts[image.pixel(x, y) | 0xff000000];
    Seen s;
    int most = 0;
    for (const auto &[colour, n] : counts) {
        if (n > most) {
            most = n;
            s.background = colour;
        }
    }
    for (const auto &[colour, n] : counts) {
        const double c = contrastRatio(colour, s.background);
        if (c > s.contrast) {
            s.contrast = c;
            s.text = colour;
        }
    }
    return s;
}

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2a, 0x2e, 0x32), text(0xfc, 0xfc, 0xfc), base(0x1b, 0x1e, 0x20);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x31, 0x36, 0x3b));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::Highlight, QColor(0x3d, 0xae, 0xe9));
    p.setColor(QPalette::HighlightedText, text);
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0xa1, 0xa9, 0xb1));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x6e, 0x71, 0x73));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x6e, 0x71, 0x73));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x6e, 0x71, 0x73));
    return p;
}

/// Fusion's own light palette, every role set (a palette with nothing set would leave the
/// application's current one in place).
QPalette lightPalette()
{
    const QPalette standard = QApplication::style()->standardPalette();
    QPalette p;
    for (int g = 0; g < QPalette::NColorGroups; ++g) {
        for (int r = 0; r < QPalette::NColorRoles; ++r) {
            const auto group = QPalette::ColorGroup(g);
            const auto role = QPalette::ColorRole(r);
            p.setColor(group, role, standard.color(group, role));
        }
    }
    return p;
}

QPalette paletteNamed(const QString &name)
{
    return name == u"dark" ? darkPalette() : lightPalette();
}

struct Window
{
    explicit Window(const QString &iniPath, LaunchOptions options = {})
        : settings(iniPath)
    {
        options.timeScale = kScale;
        window = std::make_unique<MainWindow>(settings, options, &demo);
        window->show();
    }

    SettingsDialog *openSettings()
    {
        QAction *action = nullptr;
        for (QAction *a : window->findChildren<QAction *>()) {
            if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_Comma))
                action = a;
        }
        if (!action)
            return nullptr;
        action->trigger();
        auto *dialog = window->findChild<SettingsDialog *>(u"settingsDialog"_s);
        return dialog && dialog->isVisible() ? dialog : nullptr;
    }
    bool dialogOpen() const
    {
        return window->findChild<SettingsDialog *>(u"settingsDialog"_s) != nullptr;
    }
    void send(const QString &prompt)
    {
        promptEditor(*window)->setFocus();
        promptEditor(*window)->setPlainText(prompt);
        QTest::keyClick(promptEditor(*window), Qt::Key_Return, Qt::ControlModifier);
    }

    Settings settings;
    testing::DemoHook demo; // outlives the window
    std::unique_ptr<MainWindow> window;
};

template<typename T> T *field(QWidget *dialog, const QString &name)
{
    auto *w = dialog->findChild<T *>(name);
    if (!w)
        qWarning("no %s named %s", T::staticMetaObject.className(), qPrintable(name));
    return w;
}

/// Replaces a line edit's text by typing, as a user would.
void retype(QLineEdit *edit, const QString &text)
{
    edit->setFocus();
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, text);
}

/// A radio button reacts to clicks on its circle and text only, not the rest of its width.
void clickRadio(QRadioButton *button)
{
    QTest::mouseClick(
        button, Qt::LeftButton, {}, QPoint(button->height() / 2, button->height() / 2));
}

void clickOk(QWidget *dialog)
{
    QTest::mouseClick(
        dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
}

/// The visible label showing exactly `text`, all its lines inside the dialog, or null.
QLabel *labelShowing(QWidget *dialog, const QString &text)
{
    for (QLabel *l : dialog->findChildren<QLabel *>()) {
        if (!l->isVisible() || l->text() != text)
            continue;
        const QRect inDialog(l->mapTo(dialog, QPoint(0, 0)), l->size());
        if (l->height() < l->heightForWidth(l->width()) || !dialog->rect().contains(inDialog)) {
            qWarning("the label is cut: %d px high for %d px of text", l->height(),
                l->heightForWidth(l->width()));
            return nullptr;
        }
        return l;
    }
    return nullptr;
}

/// The demo and "Work", a profile of `endpoint` with the key from kKeyVariable.
session::ProfileSet twoProfiles(const QUrl &endpoint)
{
    session::ProfileSet set;
    set.profiles.append(set.demo());
    session::ProviderProfile work;
    work.id = u"work"_s;
    work.name = u"Work"_s;
    work.endpoint = endpoint;
    work.model = u"capwatch-demo"_s;
    work.keyVariable = kKeyVariable;
    set.profiles.append(work);
    set.defaultProfile = set.profiles.first().id;
    return set;
}

QStringList listed(SettingsDialog *dialog)
{
    QStringList out;
    QListWidget *list = field<QListWidget>(dialog, u"profileList"_s);
    for (int i = 0; list && i < list->count(); ++i)
        out << list->item(i)->text();
    return out;
}

QPushButton *button(QWidget *dialog, const QString &name)
{
    return field<QPushButton>(dialog, name);
}

QComboBox *modelBox(QWidget *dialog)
{
    return field<QComboBox>(dialog, u"model"_s);
}

QByteArray fileText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// German for the profiles' problems, none of whose words is the English field's name.
class GermanTranslator final : public QTranslator
{
public:
    bool isEmpty() const override { return false; }
    QString translate(const char *context, const char *source, const char *, int) const override
    {
        if (QByteArrayView(context) != "capwatch::session")
            return {};
        const QByteArrayView text(source);
        if (text == "capwatch sets the header %1 itself.")
            return u"Die Kopfzeile %1 setzt capwatch selbst."_s;
        if (text == "The fallback “%1” is not a profile.")
            return u"Das Ausweichprofil „%1“ gibt es nicht."_s;
        if (text == "A profile cannot fall back to itself.")
            return u"Ein Profil kann nicht auf sich selbst ausweichen."_s;
        return {};
    }
};

} // namespace

class TestSettingsDialog final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void opensWithTheProfileInUse();
    void listsTheProfilesDemoFirst();
    void addDuplicateRenameDeleteRoundTrip();
    void demoCannotBeDeleted();
    void policyOverridesShowDefaultsAndRoundTrip();
    void outOfRangeCannotBeEntered();
    void modelsListedFromTheProvider();
    void fallbackChoiceSaved();
    void duplicateNameRefusesOk();
    void validationErrorIsReadable_data();
    void validationErrorIsReadable();
    void refusesBadInputThenAccepts_data();
    void refusesBadInputThenAccepts();
    void keychainFailureKeepsThePreviousSource_data();
    void keychainFailureKeepsThePreviousSource();
    void keychainEntryPerProfile();
    void fileIssuesShownAsWarnings();
    void mistypedKeySourceSendsNoKey();
    void deletedAndRecreatedKeepsTheNewKey();
    void leavingTheKeychainRemovesItsEntry();
    void duplicateDoesNotCarryTheTypedKey();
    void plainHttpModelListAsksFirst();
    void modelListFailureShowsItsReason();
    void problemFocusedByItsFieldInGerman_data();
    void problemFocusedByItsFieldInGerman();
    void parkingChoiceRoundTrip_data();
    void parkingChoiceRoundTrip();
    void parkingChoiceByKeyboard();
    void parkingChoiceKeepsTheSendGoing();
    void okKeepsTheRunsEndpoint();
    void theBannerOpensANewProfileAndUsesIt();
    void pacingAndContextRoundTrip_data();
    void pacingAndContextRoundTrip();
    void pacingAndContextByKeyboard();
    void fitsSmallWindows();

private:
    QString ini() { return m_dir.filePath(u"settings-%1.ini"_s.arg(++m_n)); }

    QTemporaryDir m_dir;
    int m_n = 0;
    QString m_keyFile;
    std::unique_ptr<demo::DemoProvider> m_provider; ///< "the real provider" the dialog points at
    QList<QByteArray> m_authorizations; ///< as m_provider received them, unmasked
    std::shared_ptr<FakeKeychain> m_keychain;
};

void TestSettingsDialog::initTestCase()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QApplication::setStyle(u"Fusion"_s);
    QVERIFY(m_dir.isValid());
    m_keyFile = m_dir.filePath(u"api.key"_s);
    QFile key(m_keyFile);
    QVERIFY(key.open(QIODevice::WriteOnly));
    key.write("  " + kFileKey + "\n");
    key.close();
    qputenv(kKeyVariable.toLatin1().constData(), kEnvKey);
}

void TestSettingsDialog::init()
{
    QApplication::setPalette(lightPalette());
    m_keychain = std::make_shared<FakeKeychain>();
    Keychain::setBackend(m_keychain);
    m_provider = std::make_unique<demo::DemoProvider>();
    demo::DemoOptions o;
    o.timeScale = kScale;
    m_provider->setOptions(o);
    QVERIFY(m_provider->listen());
    m_authorizations.clear();
    connect(m_provider.get(), &demo::DemoProvider::chatRequestReceived, this,
        [this](int, const QByteArray &authorization) { m_authorizations.append(authorization); });
}

void TestSettingsDialog::cleanup()
{
    Keychain::setBackend(nullptr);
    m_provider.reset();
    m_keychain.reset();
}

void TestSettingsDialog::opensWithTheProfileInUse()
{
    // First run: the demo is in use, and selected; OK on it changes nothing in use.
    Window w(ini());
    QVERIFY(w.window->session()->provider().usingDemo());
    SettingsDialog *dialog = w.openSettings();
    QVERIFY(dialog);
    QCOMPARE(dialog->currentProfile(), QString::fromUtf16(session::kDemoProfileId));
    QVERIFY(!field<QLineEdit>(dialog, u"endpoint"_s)->isEnabled());
    QVERIFY(!button(dialog, u"deleteProfile"_s)->isEnabled());
    const QString status = w.window->statusText();
    clickOk(dialog);
    QTRY_VERIFY(!w.dialogOpen());
    QVERIFY(w.window->session()->provider().usingDemo());
    QCOMPARE(w.window->statusText(), status);
}

void TestSettingsDialog::listsTheProfilesDemoFirst()
{
    SettingsDialog dialog(
        twoProfiles(m_provider->baseUrl()), u"work"_s, session::ParkingChoice::Ask);
    dialog.show();
    QCOMPARE(listed(&dialog), (QStringList { u"Demo (built-in, default)"_s, u"Work"_s }));
    QCOMPARE(dialog.currentProfile(), u"work"_s);
    QCOMPARE(field<QLineEdit>(&dialog, u"profileName"_s)->text(), u"Work"_s);
    QCOMPARE(field<QLineEdit>(&dialog, u"endpoint"_s)->text(), m_provider->baseUrl().toString());
    QCOMPARE(modelBox(&dialog)->currentText(), u"capwatch-demo"_s);
    QVERIFY(modelBox(&dialog)->isEditable()); // free text always
    QVERIFY(field<QRadioButton>(&dialog, u"fromEnvironment"_s)->isChecked());
    QCOMPARE(field<QLineEdit>(&dialog, u"keyVariable"_s)->text(), kKeyVariable);
    QVERIFY(button(&dialog, u"deleteProfile"_s)->isEnabled());

    // Set as default: marked in the list, and what profiles() gives.
    QTest::mouseClick(button(&dialog, u"defaultProfile"_s), Qt::LeftButton);
    QCOMPARE(listed(&dialog), (QStringList { u"Demo (built-in)"_s, u"Work (default)"_s }));
    QCOMPARE(dialog.profiles().defaultProfile, u"work"_s);
    QVERIFY(!button(&dialog, u"defaultProfile"_s)->isEnabled());

    // The demo: its endpoint and key are not its to set, its policy and fallback are.
    field<QListWidget>(&dialog, u"profileList"_s)->setCurrentRow(0);
    QCOMPARE(dialog.currentProfile(), u"demo"_s);
    for (const QString &name : { u"profileName"_s, u"endpoint"_s, u"keyVariable"_s })
        QVERIFY2(!field<QWidget>(&dialog, name)->isEnabled(), qPrintable(name));
    QVERIFY(!modelBox(&dialog)->isEnabled());
    QVERIFY(field<QSpinBox>(&dialog, u"waitCap"_s)->isEnabled());
    QVERIFY(field<QComboBox>(&dialog, u"fallback"_s)->isEnabled());
    QVERIFY(field<QLabel>(&dialog, u"builtInNote"_s)->isVisible());
}

void TestSettingsDialog::addDuplicateRenameDeleteRoundTrip()
{
    const QString path = ini();
    Settings settings(path);
    SettingsDialog dialog(
        twoProfiles(m_provider->baseUrl()), u"work"_s, session::ParkingChoice::Ask);
    dialog.show();
    QVERIFY(listed(&dialog).contains(u"Work"_s));

    // Add: a new profile, selected, its name field focused and ready to be typed over.
    QTest::mouseClick(button(&dialog, u"addProfile"_s), Qt::LeftButton);
    QCOMPARE(listed(&dialog).last(), u"New provider"_s);
    auto *name = field<QLineEdit>(&dialog, u"profileName"_s);
    QCOMPARE(dialog.focusWidget(), name);
    QCOMPARE(name->selectedText(), u"New provider"_s);
    retype(name, u"Free tier"_s);
    QCOMPARE(listed(&dialog).last(), u"Free tier"_s); // renamed as typed
    retype(field<QLineEdit>(&dialog, u"endpoint"_s), m_provider->baseUrl().toString());
    modelBox(&dialog)->setEditText(u"free-model"_s);
    clickRadio(field<QRadioButton>(&dialog, u"fromKeyFile"_s));
    retype(field<QLineEdit>(&dialog, u"keyFile"_s), m_keyFile);

    // Duplicate "Work", then rename the copy.
    field<QListWidget>(&dialog, u"profileList"_s)->setCurrentRow(1);
    QCOMPARE(dialog.currentProfile(), u"work"_s);
    QTest::mouseClick(button(&dialog, u"duplicateProfile"_s), Qt::LeftButton);
    QCOMPARE(field<QLineEdit>(&dialog, u"profileName"_s)->text(), u"Work (copy)"_s);
    retype(field<QLineEdit>(&dialog, u"profileName"_s), u"Backup"_s);
    QCOMPARE(listed(&dialog),
        (QStringList { u"Demo (built-in, default)"_s, u"Work"_s, u"Backup"_s, u"Free tier"_s }));

    // Rename "Work" (its id stays), and delete "Backup" by keyboard.
    field<QListWidget>(&dialog, u"profileList"_s)->setCurrentRow(1);
    retype(field<QLineEdit>(&dialog, u"profileName"_s), u"Office"_s);
    auto *list = field<QListWidget>(&dialog, u"profileList"_s);
    list->setCurrentRow(2);
    QCOMPARE(field<QLineEdit>(&dialog, u"profileName"_s)->text(), u"Backup"_s);
    list->setFocus();
    QTest::keyClick(list, Qt::Key_Delete);
    QCOMPARE(listed(&dialog),
        (QStringList { u"Demo (built-in, default)"_s, u"Office"_s, u"Free tier"_s }));

    QSignalSpy accepted(&dialog, &QDialog::accepted);
    clickOk(&dialog);
    QCOMPARE(accepted.count(), 1);
    const session::ProfileSet chosen = dialog.profiles();
    QCOMPARE(chosen.profiles.size(), 3);
    QCOMPARE(chosen.profiles.at(1).id, u"work"_s); // renamed: the id stays
    QCOMPARE(chosen.profiles.at(1).name, u"Office"_s);
    QCOMPARE(chosen.profiles.at(2).id, u"free-tier"_s); // added: the id from its final name
    dialog.saveTo(settings);
    settings.sync();

    const session::ProfileSet back = Settings(path).profiles();
    QStringList names;
    for (const auto &p : back.profiles)
        names << p.id + u'=' + p.name;
    QCOMPARE(names, (QStringList { u"demo=Demo"_s, u"work=Office"_s, u"free-tier=Free tier"_s }));
    const session::ProviderProfile *free = back.find(u"free-tier"_s);
    QVERIFY(free);
    QCOMPARE(free->endpoint, m_provider->baseUrl());
    QCOMPARE(free->model, u"free-model"_s);
    QCOMPARE(free->keySource, session::ProviderChoice::KeySource::KeyFile);
    QCOMPARE(free->keyFile, m_keyFile);
    QVERIFY(!back.find(u"work-copy"_s) && !back.find(u"Backup"_s));
}

void TestSettingsDialog::demoCannotBeDeleted()
{
    SettingsDialog dialog(
        twoProfiles(m_provider->baseUrl()), u"demo"_s, session::ParkingChoice::Ask);
    dialog.show();
    auto *list = field<QListWidget>(&dialog, u"profileList"_s);
    QCOMPARE(list->currentRow(), 0);
    QVERIFY(!button(&dialog, u"deleteProfile"_s)->isEnabled());
    QVERIFY(!button(&dialog, u"duplicateProfile"_s)->isEnabled());
    list->setFocus();
    QTest::keyClick(list, Qt::Key_Delete);
    QCOMPARE(list->count(), 2);
    QVERIFY(dialog.profiles().find(u"demo"_s));
    // Another profile can be: then the demo is selected next to it.
    list->setCurrentRow(1);
    QVERIFY(button(&dialog, u"deleteProfile"_s)->isEnabled());
    QTest::mouseClick(button(&dialog, u"deleteProfile"_s), Qt::LeftButton);
    QCOMPARE(list->count(), 1);
    QCOMPARE(dialog.currentProfile(), u"demo"_s);
    QVERIFY(!button(&dialog, u"deleteProfile"_s)->isEnabled());
}

void TestSettingsDialog::policyOverridesShowDefaultsAndRoundTrip()
{
    const QString path = ini();
    SettingsDialog dialog(
        twoProfiles(m_provider->baseUrl()), u"work"_s, session::ParkingChoice::Ask);
    dialog.show();
    const QMap<QString, QString> defaults { { u"waitCap"_s, u"Default (60 s)"_s },
        { u"budget"_s, u"Default (120 s)"_s }, { u"attempts"_s, u"Default (5)"_s },
        { u"backoffBase"_s, u"Default (5 s)"_s }, { u"headerTimeout"_s, u"Default (60 s)"_s } };
    for (auto it = defaults.cbegin(); it != defaults.cend(); ++it) {
        auto *spin = field<QSpinBox>(&dialog, it.key());
        QVERIFY(spin);
        QCOMPARE(spin->text(), it.value());
        QVERIFY(!QAccessible::queryAccessibleInterface(spin)->text(QAccessible::Name).isEmpty());
    }
    for (const QString &name : { u"retryTokenLimit"_s, u"retryRateLimit"_s, u"retryTransient"_s })
        QVERIFY(field<QCheckBox>(&dialog, name)->isChecked());
    QCOMPARE(dialog.profiles().find(u"work"_s)->overrides, session::PolicyOverrides {});

    // The issue's example: a 5 s cap, a 12 s budget, 3 attempts; rate limits not retried.
    auto *cap = field<QSpinBox>(&dialog, u"waitCap"_s);
    cap->setFocus();
    cap->selectAll();
    QTest::keyClicks(cap, u"5"_s);
    QTest::keyClick(cap, Qt::Key_Tab);
    QCOMPARE(cap->value(), 5);
    QCOMPARE(cap->text(), u"5 s"_s);
    field<QSpinBox>(&dialog, u"budget"_s)->setValue(12);
    field<QSpinBox>(&dialog, u"attempts"_s)->setValue(3);
    field<QCheckBox>(&dialog, u"retryRateLimit"_s)->setFocus();
    QTest::keyClick(field<QCheckBox>(&dialog, u"retryRateLimit"_s), Qt::Key_Space);
    session::PolicyOverrides expected;
    expected.waitCapS = 5;
    expected.budgetS = 12;
    expected.maxAttempts = 3;
    expected.retryRateLimit = false;
    QCOMPARE(dialog.profiles().find(u"work"_s)->overrides, expected);
    const retry::PolicyLimits limits = dialog.profiles().find(u"work"_s)->limits();
    QCOMPARE(limits.waitCap, retry::Millis(5000));
    QCOMPARE(limits.maxAttempts, 3);
    QVERIFY(!limits.retryRateLimit && limits.retryTokenLimit);

    // A budget of 0 is a value (no retries), not the default.
    field<QListWidget>(&dialog, u"profileList"_s)->setCurrentRow(0);
    field<QSpinBox>(&dialog, u"budget"_s)->setValue(0);
    QCOMPARE(field<QSpinBox>(&dialog, u"budget"_s)->text(), u"0 s"_s);
    QCOMPARE(dialog.profiles().demo().overrides.budgetS, std::optional<int>(0));
    // Back on Work: its values, as left.
    field<QListWidget>(&dialog, u"profileList"_s)->setCurrentRow(1);
    QCOMPARE(field<QSpinBox>(&dialog, u"waitCap"_s)->text(), u"5 s"_s);
    QCOMPARE(field<QSpinBox>(&dialog, u"budget"_s)->text(), u"12 s"_s);
    QVERIFY(!field<QCheckBox>(&dialog, u"retryRateLimit"_s)->isChecked());

    clickOk(&dialog);
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    {
        Settings s(path);
        dialog.saveTo(s);
        s.sync();
    }
    const session::ProfileSet back = Settings(path).profiles();
    QVERIFY(back.find(u"work"_s));
    QCOMPARE(back.find(u"work"_s)->overrides, expected);
    QCOMPARE(back.demo().overrides.budgetS, std::optional<int>(0));
    // And shown again as saved.
    SettingsDialog again(back, u"work"_s, session::ParkingChoice::Ask);
    QCOMPARE(field<QSpinBox>(&again, u"waitCap"_s)->text(), u"5 s"_s);
    QCOMPARE(field<QSpinBox>(&again, u"attempts"_s)->text(), u"3"_s);
    QCOMPARE(field<QSpinBox>(&again, u"backoffBase"_s)->text(), u"Default (5 s)"_s);
}

void TestSettingsDialog::outOfRangeCannotBeEntered()
{
    SettingsDialog dialog(
        twoProfiles(m_provider->baseUrl()), u"work"_s, session::ParkingChoice::Ask);
    dialog.show();
    struct Case
    {
        QString name;
        QString typed;
        int most;
        int least;
    };
    for (const Case &c :
        { Case { u"waitCap"_s, u"900"_s, 600, 1 }, Case { u"budget"_s, u"5000"_s, 3600, 0 },
            Case { u"attempts"_s, u"12"_s, 10, 1 }, Case { u"backoffBase"_s, u"75"_s, 60, 1 },
            Case { u"headerTimeout"_s, u"400"_s, 300, 10 } }) {
        auto *spin = field<QSpinBox>(&dialog, c.name);
        QVERIFY(spin);
        QCOMPARE(spin->maximum(), c.most);
        QCOMPARE(spin->minimum(), c.least - 1); // "Default (...)"
        spin->setFocus();
        spin->selectAll();
        QTest::keyClicks(spin, c.typed);
        QTest::keyClick(spin, Qt::Key_Tab);
        QVERIFY2(spin->value() <= c.most, qPrintable(c.name + u' ' + spin->text()));
        QVERIFY2(!spin->text().startsWith(c.typed), qPrintable(spin->text()));
        spin->setValue(c.most + 100);
        QCOMPARE(spin->value(), c.most);
        QTest::keyClick(spin, Qt::Key_Up);
        QCOMPARE(spin->value(), c.most);
    }
    const session::PolicyOverrides o = dialog.profiles().find(u"work"_s)->overrides;
    QCOMPARE(o.waitCapS, std::optional<int>(600));
    QCOMPARE(o.maxAttempts, std::optional<int>(10));
}

void TestSettingsDialog::modelsListedFromTheProvider()
{
    // Opening a profile asks its endpoint's GET /v1/models (with its own key); the list fills
    // the model box, whose text stays free.
    session::ProfileSet set = twoProfiles(m_provider->baseUrl());
    set.profiles[1].model = u"typed-model"_s;
    SettingsDialog dialog(set, u"work"_s, session::ParkingChoice::Ask);
    dialog.show();
    QComboBox *models = modelBox(&dialog);
    QTRY_COMPARE_WITH_TIMEOUT(models->findText(u"capwatch-demo"_s) >= 0, true, 10000);
    QCOMPARE(models->currentText(), u"typed-model"_s); // what was typed stays
    QCOMPARE(field<QLabel>(&dialog, u"modelStatus"_s)->text(), u"1 model"_s);
    bool asked = false;
    for (const demo::RecordedRequest &r : m_provider->recordedRequests()) {
        if (r.path == "/v1/models") {
            asked = true;
            QCOMPARE(r.method, QByteArray("GET"));
            QCOMPARE(r.header("Authorization"), QByteArray("Bearer ***")); // a key went
        }
    }
    QVERIFY(asked);
    // Chosen from the list; cached with the profile.
    models->setCurrentIndex(models->findText(u"capwatch-demo"_s));
    QCOMPARE(dialog.profiles().find(u"work"_s)->model, u"capwatch-demo"_s);
    QCOMPARE(dialog.profiles().find(u"work"_s)->cachedModels, QStringList { u"capwatch-demo"_s });

    // A provider without a list: said, and the model is typed.
    m_provider->clearRecordedRequests();
    retype(field<QLineEdit>(&dialog, u"endpoint"_s), u"http://127.0.0.1:9/v1"_s);
    QTest::mouseClick(button(&dialog, u"refreshModels"_s), Qt::LeftButton);
    // The list it gave before stays (cached), and the status says the provider does not answer.
    QTRY_VERIFY_WITH_TIMEOUT(field<QLabel>(&dialog, u"modelStatus"_s)
                                 ->text()
                                 .startsWith(u"1 model from the last list; the provider does not "
                                             "answer now ("_s),
        20000);
    QVERIFY(field<QLabel>(&dialog, u"modelStatus"_s)->text().endsWith(u')'));
    models->setEditText(u"my-model"_s);
    QCOMPARE(dialog.profiles().find(u"work"_s)->model, u"my-model"_s);
}

void TestSettingsDialog::fallbackChoiceSaved()
{
    const QString path = ini();
    SettingsDialog dialog(
        twoProfiles(m_provider->baseUrl()), u"demo"_s, session::ParkingChoice::Ask);
    dialog.show();
    auto *fallback = field<QComboBox>(&dialog, u"fallback"_s);
    auto *automatic = field<QCheckBox>(&dialog, u"autoFallback"_s);
    QCOMPARE(fallback->currentText(), u"None"_s);
    QCOMPARE(fallback->count(), 2); // None and the other profile, never itself
    QVERIFY(!automatic->isEnabled());
    fallback->setCurrentIndex(fallback->findText(u"Work"_s));
    QVERIFY(automatic->isEnabled());
    automatic->setFocus();
    QTest::keyClick(automatic, Qt::Key_Space);
    QCOMPARE(dialog.profiles().demo().fallback, u"work"_s);
    QVERIFY(dialog.profiles().demo().autoFallback);
    clickOk(&dialog);
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    {
        Settings s(path);
        dialog.saveTo(s);
        s.sync();
    }
    const session::ProfileSet back = Settings(path).profiles();
    QCOMPARE(back.demo().fallback, u"work"_s);
    QVERIFY(back.demo().autoFallback);
    SettingsDialog again(back, u"demo"_s, session::ParkingChoice::Ask);
    again.show();
    QCOMPARE(field<QComboBox>(&again, u"fallback"_s)->currentText(), u"Work"_s);
    QVERIFY(field<QCheckBox>(&again, u"autoFallback"_s)->isChecked());

    // Deleting the fallback leaves none.
    field<QListWidget>(&again, u"profileList"_s)->setCurrentRow(1);
    QTest::mouseClick(button(&again, u"deleteProfile"_s), Qt::LeftButton);
    QCOMPARE(again.profiles().demo().fallback, QString());
    QVERIFY(!again.profiles().demo().autoFallback);
}

void TestSettingsDialog::duplicateNameRefusesOk()
{
    SettingsDialog dialog(
        twoProfiles(m_provider->baseUrl()), u"work"_s, session::ParkingChoice::Ask);
    dialog.show();
    QTest::mouseClick(button(&dialog, u"addProfile"_s), Qt::LeftButton);
    retype(field<QLineEdit>(&dialog, u"profileName"_s), u"work"_s); // case-insensitively taken
    retype(field<QLineEdit>(&dialog, u"endpoint"_s), m_provider->baseUrl().toString());
    const QString problem = session::profileProblem(
        *dialog.profiles().find(dialog.currentProfile()), dialog.profiles())
                                .message;
    // Selected elsewhere when OK is pressed: the problem's profile is shown.
    field<QListWidget>(&dialog, u"profileList"_s)->setCurrentRow(0);
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    clickOk(&dialog);
    QCOMPARE(accepted.count(), 0);
    QVERIFY(dialog.isVisible());
    auto *shown = field<InlineMessage>(&dialog, u"message"_s);
    QVERIFY(shown->isVisible());
    QCOMPARE(shown->kind(), InlineMessage::Kind::Error);
    if (!problem.isEmpty())
        QCOMPARE(shown->text(), problem);
    QVERIFY2(shown->text().contains(u"work"_s, Qt::CaseInsensitive), qPrintable(shown->text()));
    QCOMPARE(field<QListWidget>(&dialog, u"profileList"_s)->currentRow(), 2);
    QCOMPARE(dialog.focusWidget(), field<QLineEdit>(&dialog, u"profileName"_s));
    QTRY_VERIFY(labelShowing(&dialog, shown->text()));
    // Renamed: OK accepts.
    retype(field<QLineEdit>(&dialog, u"profileName"_s), u"Home"_s);
    clickOk(&dialog);
    QCOMPARE(accepted.count(), 1);
}

void TestSettingsDialog::validationErrorIsReadable_data()
{
    QTest::addColumn<QString>("first");
    QTest::addColumn<QString>("then"); // the palette changes while the message is shown
    QTest::newRow("light, then dark") << u"light"_s << u"dark"_s;
    QTest::newRow("dark, then light") << u"dark"_s << u"light"_s;
}

void TestSettingsDialog::validationErrorIsReadable()
{
    QFETCH(QString, first);
    QFETCH(QString, then);
    QApplication::setPalette(paletteNamed(first));
    Window w(ini());
    SettingsDialog *dialog = w.openSettings();
    QVERIFY(dialog);
    QTest::mouseClick(button(dialog, u"addProfile"_s), Qt::LeftButton);
    retype(field<QLineEdit>(dialog, u"endpoint"_s), u"api.example.invalid"_s);
    modelBox(dialog)->setEditText(u"gpt-4o-mini"_s);
    clickOk(dialog);

    const QString message = u"The endpoint must be an http:// or https:// URL."_s;
    QTRY_VERIFY(labelShowing(dialog, message)); // all of it, once laid out
    QLabel *label = labelShowing(dialog, message);
    QVERIFY2(label, "the message is not shown");
    QVERIFY(dialog->isVisible()); // OK was refused
    QCOMPARE(dialog->focusWidget(), field<QLineEdit>(dialog, u"endpoint"_s));
    // An icon beside it, from the style.
    QLabel *icon = nullptr;
    for (QLabel *l : label->parentWidget()->findChildren<QLabel *>()) {
        if (l != label && l->isVisible() && !l->pixmap().isNull())
            icon = l;
    }
    QVERIFY2(icon, "no icon beside the message");
    QVERIFY(icon->pixmap().width() >= 16);

    for (const QString &palette : { first, then }) {
        if (palette != first) // on the dialog: without exec() the application's would not propagate
            dialog->setPalette(paletteNamed(palette));
        QCOMPARE(dialog->palette().color(QPalette::Window).name(),
            paletteNamed(palette).color(QPalette::Window).name());
        const Seen s = seen(dialog, label);
        qInfo("%s palette: text #%06x on #%06x, contrast %.1f", qPrintable(palette),
            s.text & 0xffffff, s.background & 0xffffff, s.contrast);
        QVERIFY2(s.contrast >= 4.5, "the message is hard to read (figures on the line above)");
        // The box is tinted, not the dialog's own background: it stands apart.
        QVERIFY(s.background != (dialog->palette().color(QPalette::Window).rgb() | 0xff000000));
        if (qEnvironmentVariableIsSet("CAPWATCH_SHOTS"))
            dialog->grab().save(qEnvironmentVariable("CAPWATCH_SHOTS")
                + u"/settings-error-%1-%2.png"_s.arg(first, palette));
    }
}

void TestSettingsDialog::refusesBadInputThenAccepts_data()
{
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("source"); // the radio button's object name
    QTest::addColumn<QString>("sourceValue"); // variable name or key file path
    QTest::addColumn<QString>("headers");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("culprit"); // the field refused, focused, then corrected
    QTest::addColumn<QString>("corrected");

    // {provider}: m_provider's URL; {keyfile}: the key file.
    QTest::newRow("endpoint without a scheme")
        << u"api.example.invalid/v1"_s << u"m"_s << u"fromEnvironment"_s << kKeyVariable
        << QString() << u"The endpoint must be an http:// or https:// URL."_s << u"endpoint"_s
        << u"{provider}"_s;
    QTest::newRow("ftp endpoint") << u"ftp://127.0.0.1/v1"_s << u"m"_s << u"fromKeyFile"_s
                                  << u"{keyfile}"_s << QString()
                                  << u"The endpoint must be an http:// or https:// URL."_s
                                  << u"endpoint"_s << u"{provider}"_s;
    QTest::newRow("no model") << u"https://api.example.invalid/v1"_s << QString()
                              << u"fromEnvironment"_s << kKeyVariable << QString()
                              << u"Name the model the provider should use."_s << u"model"_s
                              << u"gpt-4o-mini"_s;
    QTest::newRow("no variable") << u"https://api.example.invalid/v1"_s << u"m"_s
                                 << u"fromEnvironment"_s << QString() << QString()
                                 << u"Name the environment variable that holds the key."_s
                                 << u"keyVariable"_s << kKeyVariable;
    QTest::newRow("no key file") << u"{provider}"_s << u"m"_s << u"fromKeyFile"_s << QString()
                                 << QString() << u"Choose the key file."_s << u"keyFile"_s
                                 << u"{keyfile}"_s;
    QTest::newRow("a header without a colon")
        << u"{provider}"_s << u"m"_s << u"fromEnvironment"_s << kKeyVariable
        << u"X-Team: blue\nnot a header"_s
        << u"Line 2 of the extra headers is not \"Name: value\"."_s << u"extraHeaders"_s
        << u"X-Team: blue\nX-Org: 42"_s;
}

void TestSettingsDialog::refusesBadInputThenAccepts()
{
    QFETCH(QString, endpoint);
    QFETCH(QString, model);
    QFETCH(QString, source);
    QFETCH(QString, sourceValue);
    QFETCH(QString, headers);
    QFETCH(QString, message);
    QFETCH(QString, culprit);
    QFETCH(QString, corrected);
    const auto fill = [this](QString s) {
        return s.replace(u"{provider}"_s, m_provider->baseUrl().toString())
            .replace(u"{keyfile}"_s, m_keyFile);
    };

    session::ProfileSet set;
    set.profiles.append(set.demo());
    set.defaultProfile = set.demo().id;
    SettingsDialog dialog(set, set.demo().id, session::ParkingChoice::Ask);
    dialog.show();
    QTest::mouseClick(button(&dialog, u"addProfile"_s), Qt::LeftButton);
    retype(field<QLineEdit>(&dialog, u"endpoint"_s), fill(endpoint));
    modelBox(&dialog)->setEditText(model);
    QTest::mouseClick(field<QRadioButton>(&dialog, source), Qt::LeftButton);
    QVERIFY(field<QRadioButton>(&dialog, source)->isChecked());
    retype(field<QLineEdit>(&dialog, source == u"fromKeyFile" ? u"keyFile"_s : u"keyVariable"_s),
        fill(sourceValue));
    field<QPlainTextEdit>(&dialog, u"extraHeaders"_s)->setPlainText(headers);
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    clickOk(&dialog);

    // Refused, said, nothing accepted.
    auto *shown = field<InlineMessage>(&dialog, u"message"_s);
    QVERIFY(shown && shown->isVisible());
    QCOMPARE(shown->text(), message);
    QCOMPARE(shown->kind(), InlineMessage::Kind::Error);
    QTRY_VERIFY(labelShowing(&dialog, message));
    QCOMPARE(accepted.count(), 0);
    QVERIFY(dialog.isVisible());
    QWidget *wrong = field<QWidget>(&dialog, culprit);
    QVERIFY(dialog.focusWidget() == wrong || wrong->isAncestorOf(dialog.focusWidget()));

    if (auto *edit = qobject_cast<QLineEdit *>(wrong))
        retype(edit, fill(corrected));
    else if (auto *combo = qobject_cast<QComboBox *>(wrong))
        combo->setEditText(corrected);
    else if (auto *text = qobject_cast<QPlainTextEdit *>(wrong))
        text->setPlainText(corrected);
    QTRY_VERIFY(!shown->isVisible()); // corrected: the message goes
    clickOk(&dialog);
    QCOMPARE(accepted.count(), 1);
    const session::ProviderProfile *added = dialog.profiles().find(dialog.currentProfile());
    QVERIFY(added && !added->builtInDemo);
    QVERIFY(net::chatCompletionsUrl(added->endpoint).isValid());
    if (culprit == u"extraHeaders") {
        const QList<std::pair<QByteArray, QByteArray>> expected { { "X-Team", "blue" },
            { "X-Org", "42" } };
        QCOMPARE(added->extraHeaders, expected);
    }
}

void TestSettingsDialog::keychainFailureKeepsThePreviousSource_data()
{
    QTest::addColumn<QString>("typedKey"); // empty: use the key already stored
    QTest::addColumn<QString>("failure"); // what the keychain says
    QTest::addColumn<QString>("message");

    QTest::newRow("storing fails")
        << u"sk-keychain-typed-7777"_s
        << u"the system keychain is not available: No D-Bus session"_s
        << u"The key was not stored: the system keychain is not available: No D-Bus "
           "session. Your settings are unchanged: choose another key source, or try "
           "again."_s;
    QTest::newRow("nothing to read")
        << QString() << u"no key is stored in the system keychain"_s
        << u"The system keychain cannot be used: no key is stored in the system "
           "keychain. Your settings are unchanged: paste a key to store it, or choose "
           "another key source."_s;
}

void TestSettingsDialog::keychainFailureKeepsThePreviousSource()
{
    QFETCH(QString, typedKey);
    QFETCH(QString, failure);
    QFETCH(QString, message);

    const QString path = ini();
    {
        Settings s(path);
        s.setProfiles(twoProfiles(m_provider->baseUrl()));
        s.sync();
    }
    m_keychain->failure = failure;
    auto dialog = std::make_unique<SettingsDialog>(
        twoProfiles(m_provider->baseUrl()), u"work"_s, session::ParkingChoice::Ask);
    dialog->show();
    QTest::mouseClick(field<QRadioButton>(dialog.get(), u"fromKeychain"_s), Qt::LeftButton);
    if (!typedKey.isEmpty())
        retype(field<QLineEdit>(dialog.get(), u"keychainKey"_s), typedKey);
    auto *shown = field<InlineMessage>(dialog.get(), u"message"_s);
    QSignalSpy accepted(dialog.get(), &QDialog::accepted);
    clickOk(dialog.get());

    QTRY_COMPARE(shown->kind(), InlineMessage::Kind::Error);
    QCOMPARE(accepted.count(), 0);
    QVERIFY(dialog->isVisible());
    QCOMPARE(shown->text(), message);
    QTRY_VERIFY(labelShowing(dialog.get(), message));
    QVERIFY(dialog->findChild<QDialogButtonBox *>()
                ->button(QDialogButtonBox::Ok)
                ->isEnabled()); // try again
    QCOMPARE(m_keychain->writes + m_keychain->reads, 1);
    // Newly on the keychain: an entry of its own, fresh (never one an earlier profile left).
    const QString entry = dialog->profiles().find(u"work"_s)->keychainEntry();
    QVERIFY(entry.startsWith(u"profile/"_s) && entry != u"profile/work"_s);
    if (!typedKey.isEmpty())
        QVERIFY(m_keychain->entries.isEmpty());
    else
        QCOMPARE(m_keychain->readEntries, QStringList { entry });
    if (qEnvironmentVariableIsSet("CAPWATCH_SHOTS"))
        dialog->grab().save(
            qEnvironmentVariable("CAPWATCH_SHOTS") + u"/settings-keychain-failed.png"_s);
    // Nothing was saved: the file still has the environment variable.
    const session::ProfileSet saved = Settings(path).profiles();
    QVERIFY(saved.find(u"work"_s));
    QCOMPARE(saved.find(u"work"_s)->keySource, session::ProviderChoice::KeySource::Environment);

    // The keychain works again: OK stores (or finds) the key under the profile's own entry.
    const QByteArray keychainKey = "sk-keychain-good-8888";
    m_keychain->failure.clear();
    if (typedKey.isEmpty())
        m_keychain->entries.insert(entry, keychainKey);
    else
        retype(field<QLineEdit>(dialog.get(), u"keychainKey"_s), QString::fromLatin1(keychainKey));
    clickOk(dialog.get());
    QTRY_COMPARE(accepted.count(), 1);
    QCOMPARE(m_keychain->entries.value(entry), keychainKey);
    QCOMPARE(dialog->profiles().find(u"work"_s)->keychainEntry(), entry); // given once
    {
        Settings s(path);
        dialog->saveTo(s);
        s.sync();
    }
    const QByteArray text = fileText(path);
    QVERIFY2(text.contains("keychain"), text.constData());
    QVERIFY(!text.contains("sk-keychain"));
}

void TestSettingsDialog::keychainEntryPerProfile()
{
    // Two profiles on the keychain, a key typed for each: each goes to its own entry, and
    // neither reaches the settings file.
    const QString path = ini();
    session::ProfileSet set = twoProfiles(m_provider->baseUrl());
    SettingsDialog dialog(set, u"work"_s, session::ParkingChoice::Ask);
    dialog.show();
    clickRadio(field<QRadioButton>(&dialog, u"fromKeychain"_s));
    retype(field<QLineEdit>(&dialog, u"keychainKey"_s), u"sk-work-1111"_s);
    QCOMPARE(field<QLineEdit>(&dialog, u"keychainKey"_s)->echoMode(), QLineEdit::Password);
    QTest::mouseClick(button(&dialog, u"addProfile"_s), Qt::LeftButton);
    retype(field<QLineEdit>(&dialog, u"profileName"_s), u"Home"_s);
    retype(field<QLineEdit>(&dialog, u"endpoint"_s), u"https://home.example.invalid/v1"_s);
    modelBox(&dialog)->setEditText(u"m"_s);
    QCOMPARE(field<QLineEdit>(&dialog, u"keychainKey"_s)->text(), QString()); // its own field
    clickRadio(field<QRadioButton>(&dialog, u"fromKeychain"_s));
    retype(field<QLineEdit>(&dialog, u"keychainKey"_s), u"sk-home-2222"_s);
    QCOMPARE(dialog.keychainKey(), QByteArray("sk-home-2222"));
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    clickOk(&dialog);
    QTRY_COMPARE(accepted.count(), 1);
    // Each its own fresh entry (stored with the profile), not one made from the name or id.
    const QString workEntry = dialog.profiles().find(u"work"_s)->keychainEntry();
    const QString homeEntry = dialog.profiles().find(u"home"_s)->keychainEntry();
    QVERIFY(workEntry.startsWith(u"profile/"_s) && workEntry != u"profile/work"_s);
    QVERIFY(homeEntry.startsWith(u"profile/"_s) && homeEntry != u"profile/home"_s);
    QVERIFY(workEntry != homeEntry);
    QCOMPARE(m_keychain->entries.value(workEntry), QByteArray("sk-work-1111"));
    QCOMPARE(m_keychain->entries.value(homeEntry), QByteArray("sk-home-2222"));
    QCOMPARE(m_keychain->entries.size(), 2);
    QCOMPARE(dialog.keychainKeys().size(), 2);
    Settings s(path);
    dialog.saveTo(s);
    s.sync();
    const QByteArray text = fileText(path);
    QVERIFY(!text.contains("sk-"));
    QVERIFY(text.contains(QByteArray("keychain_entry=" + workEntry.toUtf8() + "\n")));
    QVERIFY(text.contains(QByteArray("keychain_entry=" + homeEntry.toUtf8() + "\n")));
}

void TestSettingsDialog::fileIssuesShownAsWarnings()
{
    session::ProfileSet set = twoProfiles(m_provider->baseUrl());
    session::ProfileIssue issue;
    issue.severity = session::ProfileIssue::Severity::Warning;
    issue.file = u"/home/u/.config/capwatch/capwatch.conf"_s;
    issue.line = 14;
    issue.section = u"profile.work"_s;
    issue.key = u"max_wait"_s;
    issue.message = u"600 is the most; 900 was clamped to 600"_s;
    set.issues.append(issue);
    SettingsDialog dialog(set, u"work"_s, session::ParkingChoice::Ask);
    dialog.show();
    auto *issues = field<InlineMessage>(&dialog, u"profileIssues"_s);
    QVERIFY(issues->isVisible());
    QCOMPARE(issues->kind(), InlineMessage::Kind::Warning);
    QVERIFY2(issues->text().contains(issue.text()), qPrintable(issues->text()));
    field<QListWidget>(&dialog, u"profileList"_s)->setCurrentRow(0); // the demo has none
    QVERIFY(!issues->isVisible());
    clickOk(&dialog); // a warning does not refuse OK
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
}

void TestSettingsDialog::mistypedKeySourceSendsNoKey()
{
    // `key=nnone` (a typo for none): said on the page, and the profile sends no key, never the
    // default variable's (which belongs to another provider).
    const QByteArray otherKey = "sk-another-provider-7777";
    qputenv("OPENAI_COMPAT_API_KEY", otherKey);
    const auto restore = qScopeGuard([] { qunsetenv("OPENAI_COMPAT_API_KEY"); });
    const QString path = ini();
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[profiles]\ndefault=local\norder=local\n\n[profile.local]\nname=Local\nendpoint="
            + m_provider->baseUrl().toString().toUtf8() + "\nmodel=capwatch-demo\nkey=nnone\n");
    }
    QSettings settings(path, QSettings::IniFormat);
    const session::ProfileSet set = session::loadProfiles(settings);
    QVERIFY(set.hasErrors(u"local"_s));
    SettingsDialog dialog(set, u"local"_s, session::ParkingChoice::Ask);
    dialog.show();
    auto *issues = field<InlineMessage>(&dialog, u"profileIssues"_s);
    QVERIFY(issues->isVisible());
    QVERIFY2(issues->text().contains(u"[profile.local] key: not a key source"_s),
        qPrintable(issues->text()));
    QVERIFY2(
        issues->text().contains(u"no key is sent until it is fixed"_s), qPrintable(issues->text()));
    QVERIFY(!issues->text().contains(u"nnone"_s)); // a value there may be a key: never shown
    QCOMPARE(field<QRadioButton>(&dialog, u"fromEnvironment"_s)->isChecked(), true);
    QCOMPARE(field<QLineEdit>(&dialog, u"keyVariable"_s)->text(), QString());
    // The model list goes out as the profile's sends would: without a key.
    QTRY_COMPARE_WITH_TIMEOUT(modelBox(&dialog)->findText(u"capwatch-demo"_s) >= 0, true, 10000);
    bool asked = false;
    for (const demo::RecordedRequest &r : m_provider->recordedRequests()) {
        if (r.path == "/v1/models") {
            asked = true;
            QCOMPARE(r.header("Authorization"), QByteArray());
        }
    }
    QVERIFY(asked);
    // And a send of the profile, through the window.
    Window w(path); // starts with its default profile, Local
    w.send(u"hello"_s);
    QTRY_COMPARE_WITH_TIMEOUT(m_authorizations.size(), 1, 10000);
    QCOMPARE(m_authorizations.first(), QByteArray());
}

void TestSettingsDialog::deletedAndRecreatedKeepsTheNewKey()
{
    // "Work" on the keychain is deleted; a new profile named "Work" (so of the id `work` again)
    // gets a key typed: that key is stored, and the old one removed, whatever the order.
    session::ProfileSet set = twoProfiles(m_provider->baseUrl());
    set.profiles[1].keySource = session::ProviderChoice::KeySource::Keychain;
    set.profiles[1].keychainName = u"profile/work"_s;
    m_keychain->entries.insert(u"profile/work"_s, "sk-old-work-1111");
    SettingsDialog dialog(set, u"work"_s, session::ParkingChoice::Ask);
    dialog.show();
    QTest::mouseClick(button(&dialog, u"deleteProfile"_s), Qt::LeftButton);
    QVERIFY(!dialog.profiles().find(u"work"_s));
    QTest::mouseClick(button(&dialog, u"addProfile"_s), Qt::LeftButton);
    retype(field<QLineEdit>(&dialog, u"profileName"_s), u"Work"_s);
    retype(field<QLineEdit>(&dialog, u"endpoint"_s), u"https://new.example.invalid/v1"_s);
    modelBox(&dialog)->setEditText(u"m"_s);
    clickRadio(field<QRadioButton>(&dialog, u"fromKeychain"_s));
    retype(field<QLineEdit>(&dialog, u"keychainKey"_s), u"sk-new-work-2222"_s);
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    clickOk(&dialog);
    QTRY_COMPARE(accepted.count(), 1);
    const session::ProviderProfile *work = dialog.profiles().find(u"work"_s);
    QVERIFY(work);
    QCOMPARE(work->id, u"work"_s);
    QVERIFY(work->keychainEntry() != u"profile/work"_s); // a new entry, not the old profile's
    QCOMPARE(m_keychain->entries.value(work->keychainEntry()), QByteArray("sk-new-work-2222"));
    QCOMPARE(m_keychain->entries.value(u"profile/work"_s), QByteArray()); // removed
    QCOMPARE(m_keychain->lastEntry, work->keychainEntry()); // the write came last
}

void TestSettingsDialog::leavingTheKeychainRemovesItsEntry()
{
    // "Work" leaves the keychain: its entry goes. "Home", on the environment now, is deleted:
    // the entry it once had goes too. A new "Home" on the keychain without a key typed finds
    // none: it never inherits the old one, and OK says so.
    session::ProfileSet set = twoProfiles(m_provider->baseUrl());
    set.profiles[1].keySource = session::ProviderChoice::KeySource::Keychain;
    set.profiles[1].keychainName = u"profile/work"_s;
    session::ProviderProfile home = set.profiles[1];
    home.id = u"home"_s;
    home.name = u"Home"_s;
    home.keySource = session::ProviderChoice::KeySource::Environment;
    home.keychainName.clear();
    set.profiles.append(home);
    m_keychain->entries.insert(u"profile/work"_s, "sk-work-1111");
    m_keychain->entries.insert(u"profile/home"_s, "sk-stale-home-2222");
    SettingsDialog dialog(set, u"work"_s, session::ParkingChoice::Ask);
    dialog.show();
    clickRadio(field<QRadioButton>(&dialog, u"fromEnvironment"_s));
    retype(field<QLineEdit>(&dialog, u"keyVariable"_s), kKeyVariable);
    dialog.providersPage()->selectProfile(u"home"_s);
    QTest::mouseClick(button(&dialog, u"deleteProfile"_s), Qt::LeftButton);
    QTest::mouseClick(button(&dialog, u"addProfile"_s), Qt::LeftButton);
    retype(field<QLineEdit>(&dialog, u"profileName"_s), u"Home"_s);
    retype(field<QLineEdit>(&dialog, u"endpoint"_s), u"https://other.example.invalid/v1"_s);
    modelBox(&dialog)->setEditText(u"m"_s);
    clickRadio(field<QRadioButton>(&dialog, u"fromKeychain"_s));
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    clickOk(&dialog);
    auto *shown = field<InlineMessage>(&dialog, u"message"_s);
    QTRY_COMPARE(shown->kind(), InlineMessage::Kind::Error);
    QVERIFY2(shown->text().contains(u"no key is stored in the system keychain"_s),
        qPrintable(shown->text()));
    QCOMPARE(accepted.count(), 0);
    QCOMPARE(m_keychain->writes, 0); // refused before anything changed
    QCOMPARE(m_keychain->entries.value(u"profile/home"_s), QByteArray("sk-stale-home-2222"));
    QVERIFY(!m_keychain->readEntries.contains(u"profile/home"_s)); // its own, fresh entry
    // Back on the environment, the new Home is accepted: both old entries are removed.
    clickRadio(field<QRadioButton>(&dialog, u"fromEnvironment"_s));
    retype(field<QLineEdit>(&dialog, u"keyVariable"_s), kKeyVariable);
    clickOk(&dialog);
    QTRY_COMPARE(accepted.count(), 1);
    QCOMPARE(m_keychain->entries.value(u"profile/work"_s), QByteArray());
    QCOMPARE(m_keychain->entries.value(u"profile/home"_s), QByteArray());
    QCOMPARE(m_keychain->writes, 2);
}

void TestSettingsDialog::duplicateDoesNotCarryTheTypedKey()
{
    // A key typed for "Work" stays Work's: the copy (usually pointed at another provider) has
    // none, sends none to its endpoint, and must be given one of its own.
    LoopbackServer server(httpResponse("200 OK", R"({"data":[{"id":"copy-model"}]})"));
    QVERIFY(server.listen());
    session::ProfileSet set = twoProfiles(m_provider->baseUrl());
    set.profiles[1].keySource = session::ProviderChoice::KeySource::Keychain;
    set.profiles[1].keychainName = u"profile/work"_s;
    SettingsDialog dialog(set, u"work"_s, session::ParkingChoice::Ask);
    dialog.show();
    retype(field<QLineEdit>(&dialog, u"keychainKey"_s), u"sk-typed-work-3333"_s);
    QTest::mouseClick(button(&dialog, u"duplicateProfile"_s), Qt::LeftButton);
    const QString copy = dialog.currentProfile();
    QVERIFY(copy != u"work"_s);
    QCOMPARE(field<QLineEdit>(&dialog, u"keychainKey"_s)->text(), QString());
    QVERIFY(dialog.keychainKeys().contains(u"work"_s));
    QVERIFY(!dialog.keychainKeys().contains(copy));
    const session::ProviderProfile *p = dialog.profiles().find(copy);
    QVERIFY(p->keychainEntry() != u"profile/work"_s);
    QVERIFY(p->keychainEntry().startsWith(u"profile/"_s));
    retype(field<QLineEdit>(&dialog, u"endpoint"_s), server.url().toString());
    QTest::mouseClick(button(&dialog, u"refreshModels"_s), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(modelBox(&dialog)->findText(u"copy-model"_s) >= 0, true, 10000);
    QCOMPARE(server.heads().size(), 1);
    QVERIFY2(!server.heads().first().contains("sk-typed"), server.heads().first().constData());
    QVERIFY(!server.heads().first().toLower().contains("authorization"));
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    clickOk(&dialog);
    auto *shown = field<InlineMessage>(&dialog, u"message"_s);
    QTRY_COMPARE(shown->kind(), InlineMessage::Kind::Error);
    QCOMPARE(accepted.count(), 0);
    QCOMPARE(m_keychain->writes, 0);
}

void TestSettingsDialog::plainHttpModelListAsksFirst()
{
    // http:// to another machine: opening the profile or leaving its endpoint sends nothing
    // (and says why); Refresh asks first, and only "Send anyway" lets the key go. Every request
    // goes through a proxy here, which sees what would have reached the LAN host.
    LoopbackServer proxy(httpResponse("200 OK", R"({"data":[{"id":"lan-model"}]})"));
    QVERIFY(proxy.listen());
    QNetworkProxy::setApplicationProxy(
        QNetworkProxy(QNetworkProxy::HttpProxy, u"127.0.0.1"_s, proxy.port()));
    const auto restore = qScopeGuard(
        [] { QNetworkProxy::setApplicationProxy(QNetworkProxy(QNetworkProxy::NoProxy)); });
    session::ProfileSet set = twoProfiles(QUrl(u"http://lan-box.example.invalid:8000/v1"_s));
    SettingsDialog dialog(set, u"work"_s, session::ParkingChoice::Ask);
    dialog.show();
    auto *status = field<QLabel>(&dialog, u"modelStatus"_s);
    QCOMPARE(status->text(),
        u"Not asked for its models: the endpoint uses plain HTTP, and the key would travel "
        "unencrypted. Refresh asks first."_s);
    auto *endpoint = field<QLineEdit>(&dialog, u"endpoint"_s);
    endpoint->setFocus();
    field<QLineEdit>(&dialog, u"profileName"_s)->setFocus(); // leaves the endpoint field
    QTest::qWait(200);
    QCOMPARE(proxy.connections(), 0);
    ProvidersPage *page = dialog.providersPage();
    QVERIFY(!page->plainHttpWarning());

    // Refresh: asked, non-modally for the event loop; Cancel sends nothing.
    QTest::mouseClick(button(&dialog, u"refreshModels"_s), Qt::LeftButton);
    QPointer<QMessageBox> box = page->plainHttpWarning();
    QVERIFY(box && box->isVisible());
    QVERIFY(box->text().contains(u"lan-box.example.invalid"_s));
    QTest::mouseClick(box->findChild<QPushButton *>(u"cancel"_s), Qt::LeftButton);
    QTRY_VERIFY(!box);
    QCOMPARE(status->text(), u"Not asked for its models: the key stays unsent."_s);
    QTest::qWait(200);
    QCOMPARE(proxy.connections(), 0);

    // Refresh, Send anyway: the list is asked for, with the key.
    QTest::mouseClick(button(&dialog, u"refreshModels"_s), Qt::LeftButton);
    box = page->plainHttpWarning();
    QVERIFY(box);
    QTest::mouseClick(box->findChild<QPushButton *>(u"sendAnyway"_s), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(modelBox(&dialog)->findText(u"lan-model"_s) >= 0, true, 10000);
    QCOMPARE(proxy.heads().size(), 1);
    QVERIFY2(proxy.heads().first().startsWith(
                 "GET http://lan-box.example.invalid:8000/v1/models HTTP/1.1\r\n"),
        proxy.heads().first().constData());
    QVERIFY(proxy.heads().first().contains(QByteArray("Authorization: Bearer " + kEnvKey)));
    // Once allowed, this profile's endpoint is not asked about again while the dialog is open.
    QTest::mouseClick(button(&dialog, u"refreshModels"_s), Qt::LeftButton);
    QVERIFY(!page->plainHttpWarning());
    QTRY_COMPARE_WITH_TIMEOUT(proxy.heads().size(), 2, 10000);
}

void TestSettingsDialog::modelListFailureShowsItsReason()
{
    // A wrong key (401) is not "no model list": the reason is shown.
    LoopbackServer server(
        httpResponse("401 Unauthorized", R"({"error":{"message":"Incorrect API key"}})"));
    QVERIFY(server.listen());
    SettingsDialog dialog(twoProfiles(server.url()), u"work"_s, session::ParkingChoice::Ask);
    dialog.show();
    auto *status = field<QLabel>(&dialog, u"modelStatus"_s);
    QTRY_COMPARE_WITH_TIMEOUT(status->text(),
        u"No model list (HTTP 401 Unauthorized: Incorrect API key): type the model name"_s, 10000);
}

void TestSettingsDialog::problemFocusedByItsFieldInGerman_data()
{
    QTest::addColumn<QString>("problem"); // "header", "fallback to itself", "unknown fallback"
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("focused");
    QTest::newRow("header") << u"header"_s
                            << u"Die Kopfzeile Authorization setzt capwatch selbst."_s
                            << u"extraHeaders"_s;
    QTest::newRow("fallback to itself")
        << u"fallback to itself"_s << u"Ein Profil kann nicht auf sich selbst ausweichen."_s
        << u"fallback"_s;
    QTest::newRow("unknown fallback")
        << u"unknown fallback"_s << u"Das Ausweichprofil „nowhere“ gibt es nicht."_s
        << u"fallback"_s;
}

void TestSettingsDialog::problemFocusedByItsFieldInGerman()
{
    // The field to correct follows from what the problem is about, not from its words: in
    // German none of them is "header" or "fallback".
    QFETCH(QString, problem);
    QFETCH(QString, message);
    QFETCH(QString, focused);
    GermanTranslator german;
    QVERIFY(QCoreApplication::installTranslator(&german));
    const auto restore = qScopeGuard([&german] { QCoreApplication::removeTranslator(&german); });
    session::ProfileSet set = twoProfiles(m_provider->baseUrl());
    session::ProviderProfile &work = set.profiles[1];
    if (problem == u"header")
        work.extraHeaders.append(std::pair<QByteArray, QByteArray>("Authorization", "Bearer x"));
    else if (problem == u"fallback to itself")
        work.fallback = work.id;
    else
        work.fallback = u"nowhere"_s;
    SettingsDialog dialog(set, u"demo"_s, session::ParkingChoice::Ask);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    const std::optional<ProvidersPage::Problem> found = dialog.providersPage()->problem();
    QVERIFY(found);
    QCOMPARE(found->profile, u"work"_s);
    QCOMPARE(found->message, message);
    QCOMPARE(found->field, field<QWidget>(&dialog, focused));
    dialog.providersPage()->showProblem(*found);
    QCOMPARE(dialog.currentProfile(), u"work"_s);
    QCOMPARE(dialog.focusWidget(), field<QWidget>(&dialog, focused));
}

void TestSettingsDialog::parkingChoiceRoundTrip_data()
{
    QTest::addColumn<QString>("written"); // "": nothing; else the value in the file
    QTest::addColumn<int>("choice"); // session::ParkingChoice, as read back
    QTest::addColumn<bool>("viaSetter"); // written with setParkingChoice(), else by hand

    using C = session::ParkingChoice;
    QTest::newRow("default") << QString() << int(C::Ask) << false;
    QTest::newRow("ask") << u"ask"_s << int(C::Ask) << true;
    QTest::newRow("park") << u"park"_s << int(C::Automatic) << true;
    QTest::newRow("give-up") << u"give-up"_s << int(C::GiveUp) << true;
    QTest::newRow("unknown value") << u"later"_s << int(C::Ask) << false;
    QTest::newRow("wrong case") << u"Park"_s << int(C::Ask) << false;
}

void TestSettingsDialog::parkingChoiceRoundTrip()
{
    QFETCH(QString, written);
    QFETCH(int, choice);
    QFETCH(bool, viaSetter);
    const QString path = ini();
    {
        Settings s(path);
        if (viaSetter)
            s.setParkingChoice(session::ParkingChoice(choice));
        s.sync();
    }
    if (!written.isEmpty() && !viaSetter) {
        QSettings raw(path, QSettings::IniFormat);
        raw.setValue(u"retries/parking"_s, written);
        raw.sync();
    }
    if (viaSetter)
        QVERIFY2(fileText(path).contains(QByteArray("parking=" + written.toLatin1())),
            fileText(path).constData());
    QCOMPARE(int(Settings(path).parkingChoice()), choice);

    // At start-up the window's session gets it.
    Window w(path);
    QCOMPARE(int(w.window->session()->parkingChoice()), choice);
    SettingsDialog *dialog = w.openSettings();
    QVERIFY(dialog);
    QCOMPARE(int(dialog->parkingChoice()), choice);
    const QString checked = choice == int(session::ParkingChoice::Automatic) ? u"parkAutomatic"_s
        : choice == int(session::ParkingChoice::GiveUp)                      ? u"parkGiveUp"_s
                                                                             : u"parkAsk"_s;
    QVERIFY(field<QRadioButton>(dialog, checked)->isChecked());
}

void TestSettingsDialog::okKeepsTheRunsEndpoint()
{
    // Issue 25, point 3: capwatch --endpoint URL --model M, then Settings -> OK (changing
    // nothing, then only the parking choice): the window keeps talking to URL.
    LaunchOptions options;
    options.endpoint = m_provider->baseUrl().toString();
    options.model = u"capwatch-demo"_s;
    Window w(ini(), options);
    const QString url = m_provider->baseUrl().toString() + u"/chat/completions"_s;
    const auto checkRunEndpoint = [&] {
        QVERIFY(!w.window->session()->provider().usingDemo());
        QCOMPARE(w.window->session()->provider().endpoint(), m_provider->baseUrl());
        QCOMPARE(w.window->session()->provider().model(), u"capwatch-demo"_s);
        QVERIFY2(w.window->statusText().startsWith(u"Endpoint: %1 (this run) | "_s.arg(url)),
            qPrintable(w.window->statusText()));
        QVERIFY2(
            !w.window->statusText().contains(u"Profile:"_s), qPrintable(w.window->statusText()));
        QVERIFY(w.window->findChild<QWidget *>(u"demoBanner"_s)->isHidden());
    };
    checkRunEndpoint();

    SettingsDialog *dialog = w.openSettings();
    QVERIFY(dialog);
    clickOk(dialog);
    QTRY_VERIFY(!w.dialogOpen());
    checkRunEndpoint();

    dialog = w.openSettings();
    QVERIFY(dialog);
    field<QRadioButton>(dialog, u"parkAutomatic"_s)->setChecked(true);
    clickOk(dialog);
    QTRY_VERIFY(!w.dialogOpen());
    QCOMPARE(w.window->session()->parkingChoice(), session::ParkingChoice::Automatic);
    checkRunEndpoint();

    // The next prompt goes to the run's endpoint, not to the demo.
    const int before = m_provider->chatRequests();
    w.send(u"Still there?"_s);
    QTRY_COMPARE_WITH_TIMEOUT(m_provider->chatRequests(), before + 1, 10000);
}

void TestSettingsDialog::theBannerOpensANewProfileAndUsesIt()
{
    // Issue 25, point 13: "Configure a provider…" on the demo banner opens a new profile to fill
    // in (not the demo's greyed-out one), and what is configured there is used at once.
    Window w(ini());
    QVERIFY(w.window->session()->provider().usingDemo());
    auto *banner = w.window->findChild<QWidget *>(u"demoBanner"_s);
    QVERIFY(banner && banner->isVisible());
    QPushButton *configure = banner->findChild<QPushButton *>();
    QVERIFY(configure);
    QTest::mouseClick(configure, Qt::LeftButton);
    auto *dialog = w.window->findChild<SettingsDialog *>(u"settingsDialog"_s);
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->isVisible());
    QVERIFY(dialog->currentProfile() != QString::fromUtf16(session::kDemoProfileId));
    QVERIFY(field<QLineEdit>(dialog, u"endpoint"_s)->isEnabled());
    QVERIFY(field<QLineEdit>(dialog, u"endpoint"_s)->text().isEmpty());
    retype(field<QLineEdit>(dialog, u"profileName"_s), u"My server"_s);
    retype(field<QLineEdit>(dialog, u"endpoint"_s), m_provider->baseUrl().toString());
    modelBox(dialog)->setEditText(u"capwatch-demo"_s);
    clickOk(dialog);
    QTRY_VERIFY(!w.dialogOpen());
    QTRY_VERIFY(!w.window->session()->provider().usingDemo());
    QCOMPARE(w.window->session()->provider().endpoint(), m_provider->baseUrl());
    QVERIFY(banner->isHidden());
    QVERIFY2(w.window->statusText().startsWith(u"Profile: My server | "_s),
        qPrintable(w.window->statusText()));
}

namespace {

/// The mnemonics of the visible buttons and labels under `page`, by key.
QMap<QChar, QStringList> mnemonicsOf(QWidget *page)
{
    QMap<QChar, QStringList> mnemonics;
    const auto add = [&mnemonics](const QString &text) {
        const qsizetype at = text.indexOf(u'&');
        if (at >= 0 && at + 1 < text.size() && text.at(at + 1) != u'&')
            mnemonics[text.at(at + 1).toLower()] << text;
    };
    for (QAbstractButton *b : page->findChildren<QAbstractButton *>())
        add(b->text());
    for (QLabel *l : page->findChildren<QLabel *>())
        add(l->text());
    return mnemonics;
}

} // namespace

void TestSettingsDialog::parkingChoiceByKeyboard()
{
    const QString path = ini();
    Window w(path);
    QCOMPARE(w.window->session()->parkingChoice(), session::ParkingChoice::Ask);
    SettingsDialog *dialog = w.openSettings();
    QVERIFY(dialog);
    QCOMPARE(dialog->windowTitle(), u"Settings"_s);
    dialog->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(dialog));
    auto *tabs = field<QTabWidget>(dialog, u"settingsPages"_s);
    QCOMPARE(tabs->tabText(0), u"Providers"_s);
    QCOMPARE(tabs->tabText(1), u"Retries"_s);
    // Ctrl+Tab goes to the next page, as in every tabbed dialog.
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab, Qt::ControlModifier);
    QCOMPARE(tabs->currentIndex(), 1);
    auto *ask = field<QRadioButton>(dialog, u"parkAsk"_s);
    auto *automatic = field<QRadioButton>(dialog, u"parkAutomatic"_s);
    auto *giveUp = field<QRadioButton>(dialog, u"parkGiveUp"_s);
    QVERIFY(ask && automatic && giveUp);
    QVERIFY(ask->isChecked()); // the default
    if (qEnvironmentVariableIsSet("CAPWATCH_SHOTS"))
        dialog->grab().save(qEnvironmentVariable("CAPWATCH_SHOTS") + u"/settings-retries.png"_s);
    auto *box = field<QGroupBox>(dialog, u"retries"_s);
    QCOMPARE(box->title(), u"Retries"_s);
    QVERIFY(box->isAncestorOf(ask) && box->isAncestorOf(automatic) && box->isAncestorOf(giveUp));

    // Named for screen readers, the question in each description.
    for (QRadioButton *b : { ask, automatic, giveUp }) {
        QAccessibleInterface *iface = QAccessible::queryAccessibleInterface(b);
        QVERIFY(iface);
        QVERIFY(!iface->text(QAccessible::Name).isEmpty());
        QVERIFY2(iface->text(QAccessible::Description)
                     .contains(u"When the provider's reset is beyond the retry budget"_s),
            qPrintable(iface->text(QAccessible::Description)));
    }
    QCOMPARE(QAccessible::queryAccessibleInterface(automatic)->text(QAccessible::Name),
        u"Park automatically until the reset"_s);

    // Each choice has a mnemonic no other control of its page uses.
    const QMap<QChar, QStringList> mnemonics = mnemonicsOf(tabs->widget(1));
    for (QRadioButton *b : { ask, automatic, giveUp }) {
        const QChar key = b->text().at(b->text().indexOf(u'&') + 1).toLower();
        QVERIFY2(mnemonics.value(key).size() == 1, qPrintable(mnemonics.value(key).join(u", "_s)));
    }

    // Tab reaches the group (on its checked choice), the arrow keys move within it.
    QWidget *focused = nullptr;
    tabs->tabBar()->setFocus();
    for (int i = 0; i < 20 && focused != ask; ++i) {
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        focused = QApplication::focusWidget();
    }
    QCOMPARE(focused, ask);
    QTest::keyClick(ask, Qt::Key_Down);
    QVERIFY(automatic->isChecked());
    QCOMPARE(QApplication::focusWidget(), automatic);
    QTest::keyClick(automatic, Qt::Key_Down);
    QVERIFY(giveUp->isChecked());
    // The mnemonics choose too (a button's shortcut clicks it animated: released a moment later).
    QTest::keyClick(dialog, Qt::Key_A, Qt::AltModifier);
    QTRY_VERIFY(ask->isChecked());
    QTest::keyClick(dialog, Qt::Key_P, Qt::AltModifier);
    QTRY_VERIFY(automatic->isChecked());
    QCOMPARE(dialog->parkingChoice(), session::ParkingChoice::Automatic);

    // Enter accepts: stored, and the session uses it at once.
    QSignalSpy accepted(dialog, &QDialog::accepted);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
    QCOMPARE(accepted.count(), 1);
    QTRY_VERIFY(!w.dialogOpen());
    QVERIFY(fileText(path).contains("parking=park"));
    QCOMPARE(Settings(path).parkingChoice(), session::ParkingChoice::Automatic);
    QCOMPARE(w.window->session()->parkingChoice(), session::ParkingChoice::Automatic);

    // Reopened, it shows the choice; Cancel keeps it.
    dialog = w.openSettings();
    QVERIFY(dialog);
    QVERIFY(field<QRadioButton>(dialog, u"parkAutomatic"_s)->isChecked());
    field<QTabWidget>(dialog, u"settingsPages"_s)->setCurrentIndex(1);
    clickRadio(field<QRadioButton>(dialog, u"parkGiveUp"_s));
    QVERIFY(field<QRadioButton>(dialog, u"parkGiveUp"_s)->isChecked());
    QTest::mouseClick(
        dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Cancel), Qt::LeftButton);
    QTRY_VERIFY(!w.dialogOpen());
    QCOMPARE(Settings(path).parkingChoice(), session::ParkingChoice::Automatic);
    QCOMPARE(w.window->session()->parkingChoice(), session::ParkingChoice::Automatic);

    // And a new window starts with it.
    Window again(path);
    QCOMPARE(again.window->session()->parkingChoice(), session::ParkingChoice::Automatic);
}

void TestSettingsDialog::parkingChoiceKeepsTheSendGoing()
{
    // Only the choice changed: a wait in progress goes on (the choice applies when a send ends).
    Window w(ini());
    demo::DemoOptions demo = w.demo.provider()->options();
    demo.scenario = u"headline"_s;
    w.demo.provider()->setOptions(demo);
    RetryPanel *panel = retryPanel(*w.window);
    w.send(u"Park it later"_s);
    QTRY_COMPARE_WITH_TIMEOUT(panel->state(), RetryPanel::State::Waiting, 10000);
    SettingsDialog *dialog = w.openSettings();
    QVERIFY(dialog);
    field<QTabWidget>(dialog, u"settingsPages"_s)->setCurrentIndex(1);
    clickRadio(field<QRadioButton>(dialog, u"parkGiveUp"_s));
    QVERIFY(field<QRadioButton>(dialog, u"parkGiveUp"_s)->isChecked());
    clickOk(dialog);
    QTRY_VERIFY(!w.dialogOpen());
    QCOMPARE(panel->state(), RetryPanel::State::Waiting);
    QCOMPARE(w.window->session()->parkingChoice(), session::ParkingChoice::GiveUp);
    QVERIFY(!conversation(*w.window)->toMarkdown().contains(u"was stopped"_s));

    // The profile in use changed (its policy): the send stops and says why.
    dialog = w.openSettings();
    QVERIFY(dialog);
    QCOMPARE(dialog->currentProfile(), u"demo"_s);
    field<QSpinBox>(dialog, u"attempts"_s)->setValue(3);
    clickOk(dialog);
    QTRY_VERIFY(!w.dialogOpen());
    QCOMPARE(panel->state(), RetryPanel::State::Cancelled);
    QCOMPARE(conversation(*w.window)->toMarkdown().count(
                 u"The provider settings changed, so the send in progress was stopped."_s),
        1);
}

void TestSettingsDialog::pacingAndContextRoundTrip_data()
{
    QTest::addColumn<bool>("pacing");
    QTest::addColumn<bool>("autoTrim");
    QTest::newRow("defaults") << true << false;
    QTest::newRow("no pacing") << false << false;
    QTest::newRow("automatic trimming") << true << true;
    QTest::newRow("both changed") << false << true;
}

void TestSettingsDialog::pacingAndContextRoundTrip()
{
    // What Settings holds shows in the dialog, a change in the dialog reaches the file, and a
    // profile's context window reads back as chosen (0: unknown).
    QFETCH(bool, pacing);
    QFETCH(bool, autoTrim);
    const QString path = ini();
    {
        Settings s(path);
        QVERIFY(s.pacingEnabled()); // the defaults
        QVERIFY(!s.autoTrim());
    }
    const session::ProfileSet set = twoProfiles(m_provider->baseUrl());
    {
        SettingsDialog dialog(set, u"work"_s, session::ParkingChoice::Ask);
        QVERIFY(dialog.pacingEnabled());
        QVERIFY(!dialog.autoTrim());
        QCOMPARE(dialog.contextWindow(), std::nullopt);
        auto *spin = field<QSpinBox>(&dialog, u"contextWindow"_s);
        QVERIFY(spin);
        QCOMPARE(spin->text(), u"Unknown"_s);
        QCOMPARE(dialog.contextHint(), QString());
        field<QCheckBox>(&dialog, u"pacing"_s)->setChecked(pacing);
        field<QCheckBox>(&dialog, u"autoTrim"_s)->setChecked(autoTrim);
        Settings s(path);
        dialog.saveTo(s);
        s.sync();
    }
    QVERIFY2(fileText(path).contains(pacing ? "pacing=true" : "pacing=false"),
        fileText(path).constData());
    QVERIFY2(fileText(path).contains(autoTrim ? "autoTrim=true" : "autoTrim=false"),
        fileText(path).constData());
    Settings back(path);
    QCOMPARE(back.pacingEnabled(), pacing);
    QCOMPARE(back.autoTrim(), autoTrim);

    SettingsDialog again(set, u"work"_s, session::ParkingChoice::Ask);
    again.setPacing(back.pacingEnabled(), back.autoTrim());
    QCOMPARE(field<QCheckBox>(&again, u"pacing"_s)->isChecked(), pacing);
    QCOMPARE(field<QCheckBox>(&again, u"autoTrim"_s)->isChecked(), autoTrim);
    QCOMPARE(again.pacingEnabled(), pacing);
    QCOMPARE(again.autoTrim(), autoTrim);

    // The context window: the profile's, and the figure an error taught as a hint.
    auto *spin = field<QSpinBox>(&again, u"contextWindow"_s);
    again.setContextHint(u"work"_s, 2000);
    spin->setValue(8000);
    QCOMPARE(again.contextWindow(), std::optional<qint64>(8000));
    QCOMPARE(again.profiles().find(u"work"_s)->contextWindow, std::optional<qint64>(8000));
    QCOMPARE(spin->text(), u"8,000 tokens"_s);
    QCOMPARE(again.contextHint(), u"The provider named 2,000 tokens."_s);
    bool labelled = false;
    for (QLabel *l : again.findChildren<QLabel *>())
        labelled = labelled || (l->buddy() == spin && l->text() == u"C&ontext window:"_s);
    QVERIFY(labelled);
    QVERIFY(spin->accessibleDescription().contains(u"The provider named 2,000 tokens."_s));
    // Another profile: its own window (unknown) and no hint.
    field<QListWidget>(&again, u"profileList"_s)->setCurrentRow(0);
    QCOMPARE(again.contextWindow(), std::nullopt);
    QCOMPARE(spin->text(), u"Unknown"_s);
    QCOMPARE(again.contextHint(), QString());
    field<QListWidget>(&again, u"profileList"_s)->setCurrentRow(1);
    spin->setValue(0);
    QCOMPARE(again.contextWindow(), std::nullopt);
    QCOMPARE(spin->text(), u"Unknown"_s);
    again.setContextHint(u"work"_s, 128000);
    QCOMPARE(again.contextWindow(), std::nullopt); // a learned window is a hint, not a choice
    QCOMPARE(again.contextHint(), u"The provider named 128,000 tokens."_s);
}

void TestSettingsDialog::pacingAndContextByKeyboard()
{
    // After the parking choice, Tab reaches pacing and automatic trimming; Space toggles; on
    // Providers, digits type a context window; each has a mnemonic of its own and a name.
    session::ProfileSet set = twoProfiles(m_provider->baseUrl());
    SettingsDialog dialog(set, u"demo"_s, session::ParkingChoice::GiveUp);
    dialog.setPacing(true, false);
    dialog.setContextHint(u"demo"_s, 2000);
    dialog.show();
    dialog.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    auto *tabs = field<QTabWidget>(&dialog, u"settingsPages"_s);
    auto *pacing = field<QCheckBox>(&dialog, u"pacing"_s);
    auto *autoTrim = field<QCheckBox>(&dialog, u"autoTrim"_s);
    auto *spin = field<QSpinBox>(&dialog, u"contextWindow"_s);
    QVERIFY(pacing && autoTrim && spin);
    // In the editor's scroll area: scrolled to, then whole.
    auto *scroll = field<QScrollArea>(&dialog, u"profileEditor"_s);
    scroll->ensureWidgetVisible(field<QLabel>(&dialog, u"contextHint"_s));
    QVERIFY(labelShowing(&dialog, u"The provider named 2,000 tokens."_s));
    QVERIFY(labelShowing(&dialog, u"C&ontext window:"_s));
    tabs->setCurrentIndex(1);
    if (qEnvironmentVariableIsSet("CAPWATCH_SHOTS"))
        dialog.grab().save(qEnvironmentVariable("CAPWATCH_SHOTS") + u"/settings-pacing.png"_s);
    QVERIFY(field<QGroupBox>(&dialog, u"retries"_s)->isAncestorOf(pacing));
    for (QCheckBox *box : { pacing, autoTrim }) {
        // Whole: a check box does not wrap, so nothing of its sentence may be cut.
        QVERIFY2(box->width() >= box->sizeHint().width(), qPrintable(box->text()));
        QVERIFY(dialog.rect().contains(QRect(box->mapTo(&dialog, QPoint(0, 0)), box->size())));
    }
    const QMap<QChar, QStringList> retries = mnemonicsOf(tabs->widget(1));
    for (const QString &text : { pacing->text(), autoTrim->text() }) {
        const QChar key = text.at(text.indexOf(u'&') + 1).toLower();
        QVERIFY2(retries.value(key).size() == 1, qPrintable(retries.value(key).join(u", "_s)));
    }
    for (QWidget *w : std::initializer_list<QWidget *> { pacing, autoTrim, spin }) {
        QAccessibleInterface *iface = QAccessible::queryAccessibleInterface(w);
        QVERIFY(iface);
        QVERIFY(!iface->text(QAccessible::Name).isEmpty());
        QVERIFY(!iface->text(QAccessible::Description).isEmpty());
    }

    auto *giveUp = field<QRadioButton>(&dialog, u"parkGiveUp"_s);
    giveUp->setFocus();
    QTest::keyClick(giveUp, Qt::Key_Tab);
    QCOMPARE(QApplication::focusWidget(), pacing);
    QTest::keyClick(pacing, Qt::Key_Space);
    QVERIFY(!dialog.pacingEnabled());
    QTest::keyClick(pacing, Qt::Key_Tab);
    QCOMPARE(QApplication::focusWidget(), autoTrim);
    QTest::keyClick(autoTrim, Qt::Key_Space);
    QVERIFY(dialog.autoTrim());

    // Providers: the context window's mnemonic reaches its box; digits type a window.
    tabs->setCurrentIndex(0);
    field<QListWidget>(&dialog, u"profileList"_s)->setFocus();
    QTest::keyClick(&dialog, Qt::Key_O, Qt::AltModifier);
    QCOMPARE(QApplication::focusWidget(), spin);
    spin->selectAll();
    QTest::keyClicks(spin, u"32000"_s);
    QCOMPARE(dialog.contextWindow(), std::optional<qint64>(32000));
}

void TestSettingsDialog::fitsSmallWindows()
{
    // No wider than about 760 px at first, and usable in a 640 x 480 window.
    Window w(ini());
    w.window->resize(640, 480);
    SettingsDialog *dialog = w.openSettings();
    QVERIFY(dialog);
    QVERIFY2(dialog->width() <= 760, qPrintable(QString::number(dialog->width())));
    QVERIFY2(dialog->minimumWidth() <= 640, qPrintable(QString::number(dialog->minimumWidth())));
    QVERIFY2(dialog->minimumHeight() <= 480, qPrintable(QString::number(dialog->minimumHeight())));
    dialog->resize(dialog->minimumSize());
    QTest::mouseClick(button(dialog, u"addProfile"_s), Qt::LeftButton);
    // The buttons stay inside, the editor scrolls to what has focus.
    for (const QString &name :
        { u"addProfile"_s, u"duplicateProfile"_s, u"deleteProfile"_s, u"defaultProfile"_s }) {
        QPushButton *b = button(dialog, name);
        QVERIFY2(dialog->rect().contains(QRect(b->mapTo(dialog, QPoint(0, 0)), b->size())),
            qPrintable(name));
    }
    QDialogButtonBox *box = dialog->findChild<QDialogButtonBox *>();
    QVERIFY(dialog->rect().contains(QRect(box->mapTo(dialog, QPoint(0, 0)), box->size())));
    dialog->reject();
}

QTEST_MAIN(TestSettingsDialog)
#include "tst_settingsdialog.moc"
