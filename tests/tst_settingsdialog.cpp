// The settings dialog, driven as a user would through the real window (offscreen, time-scaled):
// what it shows on opening, its validation message (readable in a light and a dark palette), the
// keychain failing and working (through a replaceable keychain backend), switching the key source
// while a retry wait runs, the key that actually reaches the provider, and Retries' parking
// choice: stored, read back, applied to the session, reached by the keyboard.

#include "demo/demoprovider.h"
#include "support/demolocalprovider.h"
#include "support/fakekeychain.h"
#include "ui/conversationview.h"
#include "ui/keychain.h"
#include "ui/mainwindow.h"
#include "ui/retrypanel.h"
#include "ui/settings.h"
#include "ui/settingsdialog.h"

#include <QAbstractButton>
#include <QAccessible>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStyle>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <cmath>
#include <map>

using namespace capwatch;
using namespace capwatch::ui;
using capwatch::testing::FakeKeychain;
using namespace Qt::StringLiterals;

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
        window->promptEditor()->setFocus();
        window->promptEditor()->setPlainText(prompt);
        QTest::keyClick(window->promptEditor(), Qt::Key_Return, Qt::ControlModifier);
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

QByteArray bearer(const QByteArray &key)
{
    return "Bearer " + key;
}

QByteArray fileText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestSettingsDialog final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void opensShowingTheCurrentState_data();
    void opensShowingTheCurrentState();
    void validationErrorIsReadable_data();
    void validationErrorIsReadable();
    void refusesBadInputThenAccepts_data();
    void refusesBadInputThenAccepts();
    void keychainFailureKeepsThePreviousSource_data();
    void keychainFailureKeepsThePreviousSource();
    void switchingSourcesDuringAWait();
    void keysNeverReachTheSettingsFile_data();
    void keysNeverReachTheSettingsFile();
    void parkingChoiceRoundTrip_data();
    void parkingChoiceRoundTrip();
    void parkingChoiceByKeyboard();
    void parkingChoiceKeepsTheSendGoing();
    void pacingAndContextRoundTrip_data();
    void pacingAndContextRoundTrip();
    void pacingAndContextByKeyboard();

private:
    /// Settings that point the window at m_provider with the key from kKeyVariable.
    QString remoteIni();
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

QString TestSettingsDialog::remoteIni()
{
    const QString path = ini();
    Settings s(path);
    ProviderSettings p;
    p.useDemo = false;
    p.endpoint = m_provider->baseUrl().toString();
    p.model = u"capwatch-demo"_s;
    p.keySource = ProviderSettings::KeySource::Environment;
    p.keyVariable = kKeyVariable;
    s.setProvider(p);
    s.sync();
    return path;
}

void TestSettingsDialog::opensShowingTheCurrentState_data()
{
    QTest::addColumn<bool>("configured");
    QTest::addColumn<bool>("savedDemo");
    QTest::addColumn<bool>("forceDemo"); // --demo
    QTest::addColumn<QString>("endpointOption"); // --endpoint
    QTest::addColumn<QString>("modelOption"); // --model
    QTest::addColumn<bool>("demoShown");
    QTest::addColumn<QString>("endpointShown");
    QTest::addColumn<QString>("modelShown");

    const QString saved = u"https://api.example.com/v1"_s;
    QTest::newRow("first run: the demo")
        << false << true << false << QString() << QString() << true << QString() << QString();
    QTest::newRow("saved demo") << true << true << false << QString() << QString() << true << saved
                                << u"saved-model"_s;
    QTest::newRow("saved provider")
        << true << false << false << QString() << QString() << false << saved << u"saved-model"_s;
    QTest::newRow("--demo over a saved provider")
        << true << false << true << QString() << QString() << true << saved << u"saved-model"_s;
    QTest::newRow("--endpoint --model over the saved demo")
        << true << true << false << u"https://other.example.org/v1"_s << u"cli-model"_s << false
        << u"https://other.example.org/v1"_s << u"cli-model"_s;
}

void TestSettingsDialog::opensShowingTheCurrentState()
{
    QFETCH(bool, configured);
    QFETCH(bool, savedDemo);
    QFETCH(bool, forceDemo);
    QFETCH(QString, endpointOption);
    QFETCH(QString, modelOption);
    QFETCH(bool, demoShown);
    QFETCH(QString, endpointShown);
    QFETCH(QString, modelShown);

    const QString path = ini();
    if (configured) {
        Settings s(path);
        ProviderSettings p;
        p.useDemo = savedDemo;
        p.endpoint = u"https://api.example.com/v1"_s;
        p.model = u"saved-model"_s;
        s.setProvider(p);
        s.sync();
    }
    LaunchOptions o;
    o.forceDemo = forceDemo;
    o.endpoint = endpointOption;
    o.model = modelOption;
    Window w(path, o);
    QCOMPARE(w.window->session()->usingDemo(), demoShown); // the premise: what is in use
    SettingsDialog *dialog = w.openSettings();
    QVERIFY(dialog);
    QCOMPARE(field<QCheckBox>(dialog, u"useDemo"_s)->isChecked(), demoShown);
    QCOMPARE(field<QLineEdit>(dialog, u"endpoint"_s)->text(), endpointShown);
    QCOMPARE(field<QLineEdit>(dialog, u"model"_s)->text(), modelShown);
    QCOMPARE(field<QLineEdit>(dialog, u"endpoint"_s)->isEnabled(), !demoShown);

    // OK on what is shown changes nothing in use.
    const QString status = w.window->statusText();
    clickOk(dialog);
    QTRY_VERIFY(!w.dialogOpen());
    QCOMPARE(w.window->session()->usingDemo(), demoShown);
    QCOMPARE(w.window->statusText(), status);
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
    QTest::mouseClick(field<QCheckBox>(dialog, u"useDemo"_s), Qt::LeftButton);
    QVERIFY(!field<QCheckBox>(dialog, u"useDemo"_s)->isChecked());
    retype(field<QLineEdit>(dialog, u"endpoint"_s), u"api.example.com"_s);
    retype(field<QLineEdit>(dialog, u"model"_s), u"gpt-4o-mini"_s);
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
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("culprit"); // the field refused, focused, then corrected
    QTest::addColumn<QString>("corrected");
    QTest::addColumn<QByteArray>("keySent");

    // {provider}: m_provider's URL; {keyfile}: the key file.
    QTest::newRow("endpoint without a scheme")
        << u"127.0.0.1/v1"_s << u"capwatch-demo"_s << u"fromEnvironment"_s << kKeyVariable
        << u"The endpoint must be an http:// or https:// URL."_s << u"endpoint"_s << u"{provider}"_s
        << kEnvKey;
    QTest::newRow("ftp endpoint") << u"ftp://127.0.0.1/v1"_s << u"capwatch-demo"_s
                                  << u"fromKeyFile"_s << u"{keyfile}"_s
                                  << u"The endpoint must be an http:// or https:// URL."_s
                                  << u"endpoint"_s << u"{provider}"_s << kFileKey;
    QTest::newRow("no model") << u"{provider}"_s << QString() << u"fromEnvironment"_s
                              << kKeyVariable << u"Name the model the provider should use."_s
                              << u"model"_s << u"capwatch-demo"_s << kEnvKey;
    QTest::newRow("no variable") << u"{provider}"_s << u"capwatch-demo"_s << u"fromEnvironment"_s
                                 << QString()
                                 << u"Name the environment variable that holds the key."_s
                                 << u"keyVariable"_s << kKeyVariable << kEnvKey;
    QTest::newRow("no key file") << u"{provider}"_s << u"capwatch-demo"_s << u"fromKeyFile"_s
                                 << QString() << u"Choose the key file."_s << u"keyFile"_s
                                 << u"{keyfile}"_s << kFileKey;
}

void TestSettingsDialog::refusesBadInputThenAccepts()
{
    QFETCH(QString, endpoint);
    QFETCH(QString, model);
    QFETCH(QString, source);
    QFETCH(QString, sourceValue);
    QFETCH(QString, message);
    QFETCH(QString, culprit);
    QFETCH(QString, corrected);
    QFETCH(QByteArray, keySent);
    const auto fill = [this](QString s) {
        return s.replace(u"{provider}"_s, m_provider->baseUrl().toString())
            .replace(u"{keyfile}"_s, m_keyFile);
    };

    const QString path = ini();
    Window w(path);
    QVERIFY(w.window->session()->usingDemo());
    SettingsDialog *dialog = w.openSettings();
    QVERIFY(dialog);
    QTest::mouseClick(field<QCheckBox>(dialog, u"useDemo"_s), Qt::LeftButton);
    retype(field<QLineEdit>(dialog, u"endpoint"_s), fill(endpoint));
    retype(field<QLineEdit>(dialog, u"model"_s), model);
    QTest::mouseClick(field<QRadioButton>(dialog, source), Qt::LeftButton);
    QVERIFY(field<QRadioButton>(dialog, source)->isChecked());
    retype(field<QLineEdit>(dialog, source == u"fromKeyFile" ? u"keyFile"_s : u"keyVariable"_s),
        fill(sourceValue));
    QSignalSpy accepted(dialog, &QDialog::accepted);
    clickOk(dialog);

    // Refused, said, and nothing saved or changed.
    auto *shown = field<InlineMessage>(dialog, u"message"_s);
    QVERIFY(shown && shown->isVisible());
    QCOMPARE(shown->text(), message);
    QCOMPARE(shown->kind(), InlineMessage::Kind::Error);
    QTRY_VERIFY(labelShowing(dialog, message));
    QCOMPARE(accepted.count(), 0);
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->focusWidget(), field<QLineEdit>(dialog, culprit));
    QVERIFY(w.window->session()->usingDemo());
    QVERIFY(!Settings(path).isConfigured());

    retype(field<QLineEdit>(dialog, culprit), fill(corrected));
    clickOk(dialog);
    QCOMPARE(accepted.count(), 1);
    QTRY_VERIFY(!w.dialogOpen());
    QVERIFY(!w.window->session()->usingDemo());
    const Settings saved(path);
    QVERIFY(saved.isConfigured());
    QCOMPARE(saved.provider().endpoint, m_provider->baseUrl().toString());
    QCOMPARE(saved.provider().model, u"capwatch-demo"_s);
    QVERIFY(
        w.window->statusText().contains(m_provider->baseUrl().toString() + u"/chat/completions"_s));

    // The next send goes to that provider with that key.
    w.send(u"Hello provider"_s);
    QTRY_COMPARE_WITH_TIMEOUT(w.window->retryPanel()->state(), RetryPanel::State::Succeeded, 10000);
    QCOMPARE(m_authorizations, QList<QByteArray> { bearer(keySent) });
    QCOMPARE(m_provider->recordedRequests().last().lastUserMessage(), u"Hello provider"_s);
    QCOMPARE(m_provider->recordedRequests().last().json().value(u"model"_s).toString(),
        u"capwatch-demo"_s);
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

    const QString path = remoteIni();
    Window w(path);
    QVERIFY(!w.window->session()->usingDemo());
    const QString before = w.window->statusText();
    QVERIFY(before.contains(u"Key: CAPWATCH_TEST_DIALOG_KEY"_s));

    m_keychain->failure = failure;
    SettingsDialog *dialog = w.openSettings();
    QVERIFY(dialog);
    QTest::mouseClick(field<QRadioButton>(dialog, u"fromKeychain"_s), Qt::LeftButton);
    if (!typedKey.isEmpty())
        retype(field<QLineEdit>(dialog, u"keychainKey"_s), typedKey);
    const QPointer<SettingsDialog> stillOpen(dialog);
    auto *shown = field<InlineMessage>(dialog, u"message"_s);
    clickOk(dialog);

    QTRY_VERIFY(!stillOpen || shown->kind() == InlineMessage::Kind::Error);
    QVERIFY2(
        stillOpen && dialog->isVisible(), "the dialog was accepted though the keychain failed");
    QCOMPARE(shown->text(), message);
    QTRY_VERIFY(labelShowing(dialog, message));
    QVERIFY(dialog->findChild<QDialogButtonBox *>()
                ->button(QDialogButtonBox::Ok)
                ->isEnabled()); // try again
    QCOMPARE(m_keychain->writes + m_keychain->reads, 1);
    if (qEnvironmentVariableIsSet("CAPWATCH_SHOTS"))
        dialog->grab().save(
            qEnvironmentVariable("CAPWATCH_SHOTS") + u"/settings-keychain-failed.png"_s);
    // The previous source is still the one saved, shown and, after Cancel, used.
    QVERIFY(fileText(path).contains("keySource=environment"));
    QCOMPARE(w.window->statusText(), before);
    QTest::mouseClick(
        dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Cancel), Qt::LeftButton);
    QTRY_VERIFY(!w.dialogOpen());
    QCOMPARE(w.window->statusText(), before);
    w.send(u"Still the old key"_s);
    QTRY_COMPARE_WITH_TIMEOUT(w.window->retryPanel()->state(), RetryPanel::State::Succeeded, 10000);
    QCOMPARE(m_authorizations, QList<QByteArray> { bearer(kEnvKey) });

    // The keychain works again: OK stores (or finds) the key, and the next send uses it.
    const QByteArray keychainKey = "sk-keychain-good-8888";
    m_keychain->failure.clear();
    if (typedKey.isEmpty())
        m_keychain->stored = keychainKey;
    dialog = w.openSettings();
    QVERIFY(dialog);
    QTest::mouseClick(field<QRadioButton>(dialog, u"fromKeychain"_s), Qt::LeftButton);
    if (!typedKey.isEmpty())
        retype(field<QLineEdit>(dialog, u"keychainKey"_s), QString::fromLatin1(keychainKey));
    clickOk(dialog);
    QTRY_VERIFY(!w.dialogOpen());
    QCOMPARE(m_keychain->stored, keychainKey);
    QVERIFY(fileText(path).contains("keySource=keychain"));
    QVERIFY(w.window->statusText().endsWith(u"Key: system keychain"_s));
    w.send(u"Now the keychain's key"_s);
    QTRY_COMPARE_WITH_TIMEOUT(w.window->retryPanel()->state(), RetryPanel::State::Succeeded, 10000);
    QCOMPARE(m_authorizations, (QList<QByteArray> { bearer(kEnvKey), bearer(keychainKey) }));
    QVERIFY(!fileText(path).contains("sk-keychain"));
}

void TestSettingsDialog::switchingSourcesDuringAWait()
{
    const QString prompt = u"Which cap applies?"_s;
    Window w(ini()); // first run: the embedded demo
    demo::DemoOptions demo = w.demo.provider()->options();
    demo.scenario = u"headline"_s; // a 60 s wait after every request
    w.demo.provider()->setOptions(demo);
    RetryPanel *panel = w.window->retryPanel();
    w.send(prompt);
    QTRY_COMPARE_WITH_TIMEOUT(panel->state(), RetryPanel::State::Waiting, 10000);

    // OK with nothing changed: the wait goes on.
    SettingsDialog *dialog = w.openSettings();
    QVERIFY(dialog);
    clickOk(dialog);
    QTRY_VERIFY(!w.dialogOpen());
    QCOMPARE(panel->state(), RetryPanel::State::Waiting);
    QVERIFY(w.window->session()->usingDemo());
    QSignalSpy demoRequests(w.demo.provider(), &demo::DemoProvider::chatRequestReceived);
    QVERIFY(demoRequests.wait(10000)); // the wait ran out and the retry went
    QCOMPARE(w.demo.provider()->chatRequests(), 2);
    QTRY_COMPARE_WITH_TIMEOUT(panel->state(), RetryPanel::State::Waiting, 10000);

    // Demo -> environment variable during the wait: its retry would go to the demo, so the send
    // stops, says why, and hands the prompt back; the next send goes to the new provider.
    const QString stopped
        = u"The provider settings changed, so the send in progress was stopped."_s;
    demo::DemoOptions remote = m_provider->options();
    remote.headlineFirst = 1; // one 60 s wait, then answers
    m_provider->setOptions(remote);
    dialog = w.openSettings();
    QVERIFY(dialog);
    QTest::mouseClick(field<QCheckBox>(dialog, u"useDemo"_s), Qt::LeftButton);
    retype(field<QLineEdit>(dialog, u"endpoint"_s), m_provider->baseUrl().toString());
    retype(field<QLineEdit>(dialog, u"model"_s), u"capwatch-demo"_s);
    QTest::mouseClick(field<QRadioButton>(dialog, u"fromEnvironment"_s), Qt::LeftButton);
    retype(field<QLineEdit>(dialog, u"keyVariable"_s), kKeyVariable);
    clickOk(dialog);
    QTRY_VERIFY(!w.dialogOpen());
    QCOMPARE(panel->state(), RetryPanel::State::Cancelled);
    QVERIFY(!w.window->session()->usingDemo());
    QCOMPARE(w.window->conversation()->toMarkdown().count(stopped), 1);
    QCOMPARE(w.window->promptEditor()->toPlainText(), prompt);

    QTest::keyClick(w.window->promptEditor(), Qt::Key_Return, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(panel->state(), RetryPanel::State::Waiting, 10000);
    QCOMPARE(m_authorizations, QList<QByteArray> { bearer(kEnvKey) });

    // Environment variable -> key file during that wait: the same, and the next request
    // carries the key from the file.
    dialog = w.openSettings();
    QVERIFY(dialog);
    QTest::mouseClick(field<QRadioButton>(dialog, u"fromKeyFile"_s), Qt::LeftButton);
    retype(field<QLineEdit>(dialog, u"keyFile"_s), m_keyFile);
    clickOk(dialog);
    QTRY_VERIFY(!w.dialogOpen());
    QCOMPARE(panel->state(), RetryPanel::State::Cancelled);
    QCOMPARE(w.window->conversation()->toMarkdown().count(stopped), 2);
    QCOMPARE(w.window->promptEditor()->toPlainText(), prompt);
    QVERIFY(w.window->statusText().endsWith(u"Key: key file "_s + m_keyFile));

    QTest::keyClick(w.window->promptEditor(), Qt::Key_Return, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(panel->state(), RetryPanel::State::Succeeded, 10000);
    // No retry with the old key ever went out: two requests, each with its own source's key.
    QCOMPARE(m_authorizations, (QList<QByteArray> { bearer(kEnvKey), bearer(kFileKey) }));
    QList<demo::RecordedRequest> chats;
    for (const demo::RecordedRequest &r : m_provider->recordedRequests()) {
        if (r.path == "/v1/chat/completions")
            chats.append(r);
    }
    QCOMPARE(chats.size(), 2);
    QCOMPARE(chats[0].lastUserMessage(), prompt);
    QCOMPARE(chats[1].lastUserMessage(), prompt);
}

void TestSettingsDialog::keysNeverReachTheSettingsFile_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<QByteArray>("keySent");
    QTest::addColumn<QByteArray>("savedSource");
    QTest::newRow("environment variable")
        << u"fromEnvironment"_s << kEnvKey << QByteArray("keySource=environment");
    QTest::newRow("key file") << u"fromKeyFile"_s << kFileKey << QByteArray("keySource=file");
}

void TestSettingsDialog::keysNeverReachTheSettingsFile()
{
    QFETCH(QString, source);
    QFETCH(QByteArray, keySent);
    QFETCH(QByteArray, savedSource);
    const QByteArray typed = "sk-typed-for-the-keychain-9999";

    const QString path = remoteIni();
    Window w(path);
    // A key typed for the keychain, stored there.
    SettingsDialog *dialog = w.openSettings();
    QVERIFY(dialog);
    QTest::mouseClick(field<QRadioButton>(dialog, u"fromKeychain"_s), Qt::LeftButton);
    retype(field<QLineEdit>(dialog, u"keychainKey"_s), QString::fromLatin1(typed));
    clickOk(dialog);
    QTRY_VERIFY(!w.dialogOpen());
    QCOMPARE(m_keychain->stored, typed);
    QByteArray text = fileText(path);
    QVERIFY(text.contains("keySource=keychain"));
    QVERIFY(!text.contains(typed));

    // Then the environment variable or the key file, used by a send.
    dialog = w.openSettings();
    QVERIFY(dialog);
    QTest::mouseClick(field<QRadioButton>(dialog, source), Qt::LeftButton);
    retype(field<QLineEdit>(dialog, source == u"fromKeyFile" ? u"keyFile"_s : u"keyVariable"_s),
        source == u"fromKeyFile" ? m_keyFile : kKeyVariable);
    clickOk(dialog);
    QTRY_VERIFY(!w.dialogOpen());
    w.send(u"hello"_s);
    QTRY_COMPARE_WITH_TIMEOUT(w.window->retryPanel()->state(), RetryPanel::State::Succeeded, 10000);
    QCOMPARE(m_authorizations, QList<QByteArray> { bearer(keySent) });
    w.window->close(); // saves the window's state too

    text = fileText(path);
    QVERIFY(text.contains(savedSource));
    QVERIFY(!text.contains(typed));
    QVERIFY(!text.contains(keySent));
    QVERIFY(!text.contains("sk-"));
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

    // Each choice has a mnemonic no other control of the dialog uses.
    QMap<QChar, QStringList> mnemonics;
    const auto add = [&mnemonics](const QString &text) {
        const qsizetype at = text.indexOf(u'&');
        if (at >= 0 && at + 1 < text.size() && text.at(at + 1) != u'&')
            mnemonics[text.at(at + 1).toLower()] << text;
    };
    for (QAbstractButton *b : dialog->findChildren<QAbstractButton *>())
        add(b->text());
    for (QLabel *l : dialog->findChildren<QLabel *>())
        add(l->text());
    for (QRadioButton *b : { ask, automatic, giveUp }) {
        const QChar key = b->text().at(b->text().indexOf(u'&') + 1).toLower();
        QVERIFY2(mnemonics.value(key).size() == 1, qPrintable(mnemonics.value(key).join(u", "_s)));
    }

    // Tab reaches the group (on its checked choice), the arrow keys move within it.
    QWidget *focused = nullptr;
    field<QCheckBox>(dialog, u"stream"_s)->setFocus();
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
    RetryPanel *panel = w.window->retryPanel();
    w.send(u"Park it later"_s);
    QTRY_COMPARE_WITH_TIMEOUT(panel->state(), RetryPanel::State::Waiting, 10000);
    SettingsDialog *dialog = w.openSettings();
    QVERIFY(dialog);
    clickRadio(field<QRadioButton>(dialog, u"parkGiveUp"_s));
    QVERIFY(field<QRadioButton>(dialog, u"parkGiveUp"_s)->isChecked());
    clickOk(dialog);
    QTRY_VERIFY(!w.dialogOpen());
    QCOMPARE(panel->state(), RetryPanel::State::Waiting);
    QCOMPARE(w.window->session()->parkingChoice(), session::ParkingChoice::GiveUp);
    QVERIFY(!w.window->conversation()->toMarkdown().contains(u"was stopped"_s));
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
    // model's context window reads back as chosen (0: unknown).
    QFETCH(bool, pacing);
    QFETCH(bool, autoTrim);
    const QString path = ini();
    {
        Settings s(path);
        QVERIFY(s.pacingEnabled()); // the defaults
        QVERIFY(!s.autoTrim());
    }
    ProviderSettings provider;
    provider.model = u"gpt-4o-mini"_s;
    {
        SettingsDialog dialog(provider, session::ParkingChoice::Ask);
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

    SettingsDialog again(provider, session::ParkingChoice::Ask);
    again.setPacing(back.pacingEnabled(), back.autoTrim());
    QCOMPARE(field<QCheckBox>(&again, u"pacing"_s)->isChecked(), pacing);
    QCOMPARE(field<QCheckBox>(&again, u"autoTrim"_s)->isChecked(), autoTrim);
    QCOMPARE(again.pacingEnabled(), pacing);
    QCOMPARE(again.autoTrim(), autoTrim);

    // The context window: what the user set, and the figure an error taught as a hint.
    auto *spin = field<QSpinBox>(&again, u"contextWindow"_s);
    again.setContextWindow(u"gpt-4o-mini"_s, 8000, 2000);
    QCOMPARE(again.contextWindow(), std::optional<qint64>(8000));
    QCOMPARE(spin->text(), u"8,000 tokens"_s);
    QCOMPARE(again.contextHint(), u"The provider named 2,000 tokens."_s);
    bool labelled = false;
    for (QLabel *l : again.findChildren<QLabel *>())
        labelled
            = labelled || (l->buddy() == spin && l->text() == u"Con&text window of gpt-4o-mini:"_s);
    QVERIFY(labelled);
    QCOMPARE(spin->accessibleName(), u"Context window of gpt-4o-mini"_s);
    QVERIFY(spin->accessibleDescription().contains(u"The provider named 2,000 tokens."_s));
    spin->setValue(0);
    QCOMPARE(again.contextWindow(), std::nullopt);
    QCOMPARE(spin->text(), u"Unknown"_s);
    QCOMPARE(again.contextModel(), u"gpt-4o-mini"_s);
    again.setContextWindow(u"other-model"_s, std::nullopt, std::nullopt);
    QCOMPARE(again.contextModel(), u"other-model"_s);
    QCOMPARE(again.contextWindow(), std::nullopt);
    QCOMPARE(again.contextHint(), QString());
    again.setContextWindow(u"other-model"_s, std::nullopt, 128000);
    QCOMPARE(again.contextWindow(), std::nullopt); // a learned window is a hint, not a choice
    QCOMPARE(again.contextHint(), u"The provider named 128,000 tokens."_s);
}

void TestSettingsDialog::pacingAndContextByKeyboard()
{
    // After the parking choice, Tab reaches pacing, automatic trimming and the context window;
    // Space toggles, digits type a window, each has a mnemonic of its own and a name.
    ProviderSettings provider;
    provider.useDemo = true;
    provider.model = u"capwatch-demo"_s;
    SettingsDialog dialog(provider, session::ParkingChoice::GiveUp);
    dialog.setPacing(true, false);
    dialog.setContextWindow(u"capwatch-demo"_s, std::nullopt, 2000);
    dialog.show();
    dialog.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    if (qEnvironmentVariableIsSet("CAPWATCH_SHOTS"))
        dialog.grab().save(qEnvironmentVariable("CAPWATCH_SHOTS") + u"/settings-pacing.png"_s);
    auto *pacing = field<QCheckBox>(&dialog, u"pacing"_s);
    auto *autoTrim = field<QCheckBox>(&dialog, u"autoTrim"_s);
    auto *spin = field<QSpinBox>(&dialog, u"contextWindow"_s);
    QVERIFY(pacing && autoTrim && spin);
    QVERIFY(labelShowing(&dialog, u"The provider named 2,000 tokens."_s));
    QVERIFY(labelShowing(&dialog, u"Con&text window of capwatch-demo:"_s));
    QVERIFY(field<QGroupBox>(&dialog, u"retries"_s)->isAncestorOf(pacing));
    for (QCheckBox *box : { pacing, autoTrim }) {
        // Whole: a check box does not wrap, so nothing of its sentence may be cut.
        QVERIFY2(box->width() >= box->sizeHint().width(), qPrintable(box->text()));
        QVERIFY(dialog.rect().contains(QRect(box->mapTo(&dialog, QPoint(0, 0)), box->size())));
    }

    QMap<QChar, QStringList> mnemonics;
    const auto add = [&mnemonics](const QString &text) {
        const qsizetype at = text.indexOf(u'&');
        if (at >= 0 && at + 1 < text.size() && text.at(at + 1) != u'&')
            mnemonics[text.at(at + 1).toLower()] << text;
    };
    for (QAbstractButton *b : dialog.findChildren<QAbstractButton *>())
        add(b->text());
    for (QLabel *l : dialog.findChildren<QLabel *>())
        add(l->text());
    for (const QString &text :
        { pacing->text(), autoTrim->text(), u"Con&text window of capwatch-demo:"_s }) {
        const QChar key = text.at(text.indexOf(u'&') + 1).toLower();
        QVERIFY2(mnemonics.value(key).size() == 1, qPrintable(mnemonics.value(key).join(u", "_s)));
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
    QTest::keyClick(autoTrim, Qt::Key_Tab);
    QCOMPARE(QApplication::focusWidget(), spin);
    spin->selectAll();
    QTest::keyClicks(spin, u"32000"_s);
    QCOMPARE(dialog.contextWindow(), std::optional<qint64>(32000));
    // The buddy's mnemonic comes back to it.
    pacing->setFocus();
    QTest::keyClick(&dialog, Qt::Key_T, Qt::AltModifier);
    QCOMPARE(QApplication::focusWidget(), spin);
}

QTEST_MAIN(TestSettingsDialog)
#include "tst_settingsdialog.moc"
