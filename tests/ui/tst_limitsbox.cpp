// Settings -> Providers -> a profile's limits and prices (LimitsBox, PriceOverridesBox), driven
// as a user would (offscreen): a profile's spending limits, the limits its provider states, the
// limit action and its own prices shown and read back; each edited by the keyboard and saved to
// the settings file as its key (spend_tokens_day, provider_rpm, limit_action, price.<model>, ...),
// read back by session::loadProfiles; "No limit" leaving the key out; a figure the box cannot
// show kept as it was; the demo's limits and prices saved too; a price that is not one refusing
// OK with the cell to correct focused; the price table's hint for the profile's model; and the
// page at the dialog's smallest size, in English and German, with nothing cut off.

#include "retry/pricetable.h"
#include "ui/profiles/limitsbox.h"
#include "ui/profiles/priceoverridesbox.h"
#include "ui/profiles/providerspage.h"
#include "ui/settings/settings.h"
#include "ui/settings/settingsdialog.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScopeGuard>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <map>

using namespace capwatch;
using namespace capwatch::ui;
using namespace Qt::StringLiterals;

namespace {

const QString kWork = u"work"_s;

/// The demo and "Work", a profile of a loopback endpoint that needs no key (its model list
/// request fails at once: nothing listens on port 9).
session::ProfileSet twoProfiles()
{
    session::ProfileSet set;
    set.profiles.append(set.demo());
    session::ProviderProfile work;
    work.id = kWork;
    work.name = u"Work"_s;
    work.endpoint = QUrl(u"http://127.0.0.1:9/v1"_s);
    work.model = u"gpt-4o-mini"_s;
    work.keyVariable.clear();
    set.profiles.append(work);
    set.defaultProfile = set.profiles.first().id;
    return set;
}

template<typename T> T *field(QWidget *dialog, const QString &name)
{
    const QList<T *> found = dialog->findChildren<T *>(name);
    if (found.size() != 1)
        qFatal("%d %s named %s, not one", int(found.size()), T::staticMetaObject.className(),
            qPrintable(name));
    return found.first();
}

/// Types `text` over a spin box's value, as a user would, and leaves it by Tab.
void typeInto(QAbstractSpinBox *spin, const QString &text)
{
    spin->setFocus();
    spin->selectAll();
    QTest::keyClicks(spin, text);
    QTest::keyClick(spin, Qt::Key_Tab);
}

void clickOk(QDialog *dialog)
{
    QTest::mouseClick(
        dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
}

QTableWidget *priceTable(QWidget *dialog)
{
    return field<QTableWidget>(dialog, u"priceTable"_s);
}

/// The editor of the cell being edited, or null.
QLineEdit *cellEditor(QTableWidget *table)
{
    for (QLineEdit *edit : table->viewport()->findChildren<QLineEdit *>()) {
        if (edit->isVisible())
            return edit;
    }
    return nullptr;
}

/// Leaves the cell being edited as it is (Escape).
void closeEditor(QTableWidget *table)
{
    QLineEdit *edit = cellEditor(table);
    QVERIFY(edit);
    QTest::keyClick(edit, Qt::Key_Escape);
    QVERIFY(!cellEditor(table));
}

/// Types `text` over a cell of the price table through its editor.
void typeCell(QTableWidget *table, int row, int column, const QString &text)
{
    table->setFocus();
    table->setCurrentCell(row, column);
    table->editItem(table->item(row, column));
    QLineEdit *edit = cellEditor(table);
    QVERIFY(edit);
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Delete);
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
    // The delegate commits Return's edit from the event loop.
    QTRY_COMPARE(table->item(row, column)->text(), text);
    QTRY_VERIFY(!cellEditor(table));
}

/// The profile `id` as the settings file at `path` holds it, and its raw keys.
struct Saved
{
    session::ProfileSet set;
    QStringList keys; ///< of [profile.<id>]
    QSettings raw;

    Saved(const QString &path, const QString &id)
        : raw(path, QSettings::IniFormat)
    {
        set = session::loadProfiles(raw);
        raw.beginGroup(u"profile."_s + id);
        keys = raw.allKeys();
    }
    const session::ProviderProfile &profile(const QString &id) const { return *set.find(id); }
    QString value(const QString &key) const { return raw.value(key).toString(); }
};

} // namespace

class TestLimitsBox final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void showsTheProfileAndReadsItBack();
    void editedLimitSavedAsItsKey_data();
    void editedLimitSavedAsItsKey();
    void noLimitLeavesTheKeyOut();
    void outOfBoundsCannotBeEntered();
    void limitActionSaved_data();
    void limitActionSaved();
    void figuresTheBoxCannotShowAreKept();
    void demoLimitsAndPricesSaved();
    void priceAddedEditedRemovedAndSaved();
    void invalidPriceRefusesOk_data();
    void invalidPriceRefusesOk();
    void hintSaysWhatThePriceTableKnows();
    void nothingCutAtTheSmallestSize_data();
    void nothingCutAtTheSmallestSize();

private:
    QString ini() { return m_dir.filePath(u"capwatch-%1.conf"_s.arg(++m_n)); }
    /// Accepts `dialog` by OK and saves it to a new settings file; its path.
    QString acceptAndSave(SettingsDialog &dialog);

    QTemporaryDir m_dir;
    int m_n = 0;
};

void TestLimitsBox::initTestCase()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QApplication::setStyle(u"Fusion"_s);
    QVERIFY(m_dir.isValid());
    QVERIFY(retry::builtinPrices().find("gpt-4o-mini"));
}

QString TestLimitsBox::acceptAndSave(SettingsDialog &dialog)
{
    clickOk(&dialog);
    if (dialog.result() != QDialog::Accepted) {
        qWarning("OK did not accept the dialog");
        return {};
    }
    const QString path = ini();
    Settings settings(path);
    dialog.saveTo(settings);
    return path;
}

void TestLimitsBox::showsTheProfileAndReadsItBack()
{
    session::ProfileSet set = twoProfiles();
    session::ProviderProfile &work = set.profiles[1];
    work.spend.tokensDay = 50'000;
    work.spend.tokensMonth = 1'000'000;
    work.spend.costDay = 2.5;
    work.spend.costMonth = 40;
    work.declared.requestsPerMinute = 3;
    work.declared.tokensPerMinute = 40'000;
    work.declared.requestsPerDay = 200;
    work.limitAction = session::LimitAction::Park;
    work.prices
        = { { u"gpt-4o-mini"_s, { 0.2, 0.8, 0.1, {} } }, { u"my-model"_s, { 1, 2, {}, {} } } };
    set.profiles[0].spend.costMonth = 1;
    set.profiles[0].prices = { { u"capwatch-demo"_s, { 0.5, 1.5, {}, {} } } };

    SettingsDialog dialog(set, kWork, session::ParkingChoice::Ask);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    QCOMPARE(field<QSpinBox>(&dialog, u"spendTokensDay"_s)->text(), u"50,000"_s);
    QCOMPARE(field<QSpinBox>(&dialog, u"spendTokensMonth"_s)->text(), u"1,000,000"_s);
    QCOMPARE(field<QDoubleSpinBox>(&dialog, u"spendCostDay"_s)->text(), u"USD 2.50"_s);
    QCOMPARE(field<QDoubleSpinBox>(&dialog, u"spendCostMonth"_s)->text(), u"USD 40.00"_s);
    QCOMPARE(field<QComboBox>(&dialog, u"limitAction"_s)->currentText(), u"Park until it resets"_s);
    QCOMPARE(field<QSpinBox>(&dialog, u"providerRpm"_s)->text(), u"3"_s);
    QCOMPARE(field<QSpinBox>(&dialog, u"providerTpm"_s)->text(), u"40,000"_s);
    QCOMPARE(field<QSpinBox>(&dialog, u"providerRpd"_s)->text(), u"200"_s);
    QCOMPARE(field<QSpinBox>(&dialog, u"providerTpd"_s)->text(), u"No limit"_s);
    QTableWidget *table = priceTable(&dialog);
    QCOMPARE(table->rowCount(), 2);
    const auto rowText = [table](int r) {
        QStringList cells;
        for (int c = 0; c < table->columnCount(); ++c)
            cells << table->item(r, c)->text();
        return cells.join(u'|');
    };
    QCOMPARE(rowText(0), u"gpt-4o-mini|0.2|0.8|0.1"_s);
    QCOMPARE(rowText(1), u"my-model|1|2|"_s);

    // Read back untouched, then after a look at the demo and back.
    const auto same = [&dialog, &set](int row) {
        const session::ProviderProfile *p = dialog.profiles().find(set.profiles.at(row).id);
        QVERIFY(p);
        QCOMPARE(p->spend, set.profiles.at(row).spend);
        QCOMPARE(p->declared, set.profiles.at(row).declared);
        QCOMPARE(p->limitAction, set.profiles.at(row).limitAction);
        QCOMPARE(p->prices, set.profiles.at(row).prices);
    };
    same(1);
    field<QListWidget>(&dialog, u"profileList"_s)->setCurrentRow(0);
    QCOMPARE(field<QDoubleSpinBox>(&dialog, u"spendCostMonth"_s)->text(), u"USD 1.00"_s);
    QCOMPARE(field<QSpinBox>(&dialog, u"spendTokensDay"_s)->text(), u"No limit"_s);
    QCOMPARE(field<QComboBox>(&dialog, u"limitAction"_s)->currentText(), u"Ask"_s);
    QCOMPARE(table->rowCount(), 1);
    QCOMPARE(rowText(0), u"capwatch-demo|0.5|1.5|"_s);
    same(0);
    field<QListWidget>(&dialog, u"profileList"_s)->setCurrentRow(1);
    QCOMPARE(field<QSpinBox>(&dialog, u"spendTokensDay"_s)->text(), u"50,000"_s);
    same(0);
    same(1);

    // Through the file and into a new dialog: the same.
    const QString path = acceptAndSave(dialog);
    QVERIFY(!path.isEmpty());
    const Saved saved(path, kWork);
    QCOMPARE(saved.value(u"spend_tokens_day"_s), u"50000"_s);
    QCOMPARE(saved.value(u"spend_cost_day"_s), u"2.5"_s);
    QCOMPARE(saved.value(u"limit_action"_s), u"park"_s);
    QCOMPARE(saved.value(u"price.gpt-4o-mini"_s), u"0.2, 0.8, 0.1"_s);
    QVERIFY(!saved.keys.contains(u"provider_tpd"_s));
    SettingsDialog again(saved.set, kWork, session::ParkingChoice::Ask);
    QCOMPARE(field<QSpinBox>(&again, u"providerRpm"_s)->text(), u"3"_s);
    QCOMPARE(priceTable(&again)->rowCount(), 2);
    const session::ProviderProfile &back = saved.profile(kWork);
    QCOMPARE(back.spend, work.spend);
    QCOMPARE(back.declared, work.declared);
    QCOMPARE(back.prices, work.prices);
    QCOMPARE(saved.profile(u"demo"_s).prices, set.profiles.at(0).prices);
}

void TestLimitsBox::editedLimitSavedAsItsKey_data()
{
    QTest::addColumn<QString>("widget");
    QTest::addColumn<QString>("typed");
    QTest::addColumn<QString>("shown");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("saved");
    QTest::newRow("tokens a day") << u"spendTokensDay"_s << u"25000"_s << u"25,000"_s
                                  << u"spend_tokens_day"_s << u"25000"_s;
    QTest::newRow("tokens a month") << u"spendTokensMonth"_s << u"3000000"_s << u"3,000,000"_s
                                    << u"spend_tokens_month"_s << u"3000000"_s;
    QTest::newRow("cost a day") << u"spendCostDay"_s << u"2.5"_s << u"USD 2.50"_s
                                << u"spend_cost_day"_s << u"2.5"_s;
    QTest::newRow("cost a month") << u"spendCostMonth"_s << u"40"_s << u"USD 40.00"_s
                                  << u"spend_cost_month"_s << u"40"_s;
    QTest::newRow("requests a minute")
        << u"providerRpm"_s << u"3"_s << u"3"_s << u"provider_rpm"_s << u"3"_s;
    QTest::newRow("tokens a minute")
        << u"providerTpm"_s << u"40000"_s << u"40,000"_s << u"provider_tpm"_s << u"40000"_s;
    QTest::newRow("requests a day")
        << u"providerRpd"_s << u"200"_s << u"200"_s << u"provider_rpd"_s << u"200"_s;
    QTest::newRow("tokens a day (provider)")
        << u"providerTpd"_s << u"1000000"_s << u"1,000,000"_s << u"provider_tpd"_s << u"1000000"_s;
    QTest::newRow("requests at once")
        << u"providerInFlight"_s << u"2"_s << u"2"_s << u"provider_in_flight"_s << u"2"_s;
}

void TestLimitsBox::editedLimitSavedAsItsKey()
{
    QFETCH(QString, widget);
    QFETCH(QString, typed);
    QFETCH(QString, shown);
    QFETCH(QString, key);
    QFETCH(QString, saved);
    SettingsDialog dialog(twoProfiles(), kWork, session::ParkingChoice::Ask);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    auto *spin = field<QAbstractSpinBox>(&dialog, widget);
    QCOMPARE(spin->text(), u"No limit"_s);
    typeInto(spin, typed);
    QCOMPARE(spin->text(), shown);

    const QString path = acceptAndSave(dialog);
    QVERIFY(!path.isEmpty());
    const Saved file(path, kWork);
    QCOMPARE(file.value(key), saved);
    // That key alone of the limits.
    for (const QString &k : file.keys)
        QVERIFY2(k == key || !(k.startsWith(u"spend_"_s) || k.startsWith(u"provider_"_s)),
            qPrintable(k));
    const session::ProviderProfile &p = file.profile(kWork);
    const std::map<QString, std::optional<double>> read {
        { u"spend_tokens_day"_s, p.spend.tokensDay },
        { u"spend_tokens_month"_s, p.spend.tokensMonth },
        { u"spend_cost_day"_s, p.spend.costDay },
        { u"spend_cost_month"_s, p.spend.costMonth },
        { u"provider_rpm"_s, p.declared.requestsPerMinute },
        { u"provider_tpm"_s, p.declared.tokensPerMinute },
        { u"provider_rpd"_s, p.declared.requestsPerDay },
        { u"provider_tpd"_s, p.declared.tokensPerDay },
        { u"provider_in_flight"_s, p.declared.inFlight },
    };
    for (const auto &[k, v] : read)
        QCOMPARE(v, k == key ? std::optional<double>(saved.toDouble()) : std::nullopt);
    QVERIFY(file.set.issuesOf(kWork).isEmpty());
}

void TestLimitsBox::noLimitLeavesTheKeyOut()
{
    // Every limit set in the file, then each taken back to "No limit" by the keyboard.
    const QString before = ini();
    {
        session::ProfileSet set = twoProfiles();
        session::ProviderProfile &work = set.profiles[1];
        work.spend = { 1000, 20000, 1.5, 30.0 };
        work.declared = { 2, 3000, 50, 100000, 3 };
        Settings settings(before);
        settings.setProfiles(set);
    }
    SettingsDialog dialog(Settings(before).profiles(), kWork, session::ParkingChoice::Ask);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    const QStringList names { u"spendTokensDay"_s, u"spendTokensMonth"_s, u"spendCostDay"_s,
        u"spendCostMonth"_s, u"providerRpm"_s, u"providerTpm"_s, u"providerRpd"_s, u"providerTpd"_s,
        u"providerInFlight"_s };
    for (const QString &name : names) {
        auto *spin = field<QAbstractSpinBox>(&dialog, name);
        QVERIFY2(spin->text() != u"No limit"_s, qPrintable(name));
        spin->setFocus();
        // Down past the lowest value stops at it: "No limit".
        for (int i = 0; i < 12; ++i)
            QTest::keyClick(spin, Qt::Key_PageDown);
        QCOMPARE(spin->text(), u"No limit"_s);
    }
    const QString path = acceptAndSave(dialog);
    QVERIFY(!path.isEmpty());
    const Saved file(path, kWork);
    for (const QString &k : file.keys)
        QVERIFY2(!k.startsWith(u"spend_"_s) && !k.startsWith(u"provider_"_s), qPrintable(k));
    QVERIFY(file.profile(kWork).spend.empty());
    QVERIFY(file.profile(kWork).declared.empty());
    QVERIFY(file.keys.contains(u"endpoint"_s)); // the rest of the profile is there
}

void TestLimitsBox::outOfBoundsCannotBeEntered()
{
    SettingsDialog dialog(twoProfiles(), kWork, session::ParkingChoice::Ask);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    for (auto *spin : dialog.findChild<LimitsBox *>()->findChildren<QSpinBox *>()) {
        QCOMPARE(spin->minimum(), 0); // "No limit"
        QCOMPARE(spin->maximum(), 2'000'000'000);
        typeInto(spin, u"99999999999"_s);
        QVERIFY2(spin->value() <= spin->maximum() && !spin->text().startsWith(u"99,999,999,999"_s),
            qPrintable(spin->text()));
        spin->setValue(spin->maximum());
        spin->setFocus();
        QTest::keyClick(spin, Qt::Key_Up);
        QCOMPARE(spin->value(), spin->maximum());
    }
    for (auto *spin : dialog.findChild<LimitsBox *>()->findChildren<QDoubleSpinBox *>()) {
        QCOMPARE(spin->minimum(), 0.0);
        QCOMPARE(spin->maximum(), 1'000'000.0);
        typeInto(spin, u"5000000"_s);
        QVERIFY2(spin->value() <= spin->maximum(), qPrintable(spin->text()));
        spin->setValue(-3);
        QCOMPARE(spin->text(), u"No limit"_s);
    }
    const session::ProviderProfile *p = dialog.profiles().find(kWork);
    QVERIFY(p->spend.tokensDay <= 2'000'000'000 && p->spend.costDay <= 1'000'000.0);
}

void TestLimitsBox::limitActionSaved_data()
{
    QTest::addColumn<int>("downs");
    QTest::addColumn<QString>("shown");
    QTest::addColumn<QString>("saved"); ///< empty: no key
    QTest::addColumn<int>("action");
    QTest::newRow("ask") << 0 << u"Ask"_s << QString() << int(session::LimitAction::Ask);
    QTest::newRow("park") << 1 << u"Park until it resets"_s << u"park"_s
                          << int(session::LimitAction::Park);
    QTest::newRow("refuse") << 2 << u"Refuse"_s << u"refuse"_s << int(session::LimitAction::Refuse);
}

void TestLimitsBox::limitActionSaved()
{
    QFETCH(int, downs);
    QFETCH(QString, shown);
    QFETCH(QString, saved);
    QFETCH(int, action);
    SettingsDialog dialog(twoProfiles(), kWork, session::ParkingChoice::Ask);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    auto *combo = field<QComboBox>(&dialog, u"limitAction"_s);
    combo->setFocus();
    for (int i = 0; i < downs; ++i)
        QTest::keyClick(combo, Qt::Key_Down);
    QCOMPARE(combo->currentText(), shown);
    QCOMPARE(int(dialog.profiles().find(kWork)->limitAction), action);
    const QString path = acceptAndSave(dialog);
    QVERIFY(!path.isEmpty());
    const Saved file(path, kWork);
    QCOMPARE(file.keys.contains(u"limit_action"_s), !saved.isEmpty());
    QCOMPARE(file.value(u"limit_action"_s), saved);
    QCOMPARE(int(file.profile(kWork).limitAction), action);
}

void TestLimitsBox::figuresTheBoxCannotShowAreKept()
{
    // The file takes up to 10^12 tokens and any amount above 0: the boxes show what they can,
    // and the figure stays as it was unless its own box is changed.
    session::ProfileSet set = twoProfiles();
    set.profiles[1].spend.tokensMonth = 500'000'000'000;
    set.profiles[1].spend.costDay = 0.004;
    set.profiles[1].declared.tokensPerDay = 7'000'000'000;
    SettingsDialog dialog(set, kWork, session::ParkingChoice::Ask);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    QCOMPARE(field<QSpinBox>(&dialog, u"spendTokensMonth"_s)->text(), u"2,000,000,000"_s);
    QCOMPARE(field<QDoubleSpinBox>(&dialog, u"spendCostDay"_s)->text(), u"USD 0.01"_s);
    typeInto(field<QSpinBox>(&dialog, u"providerRpm"_s), u"5"_s);
    session::ProviderProfile p = *dialog.profiles().find(kWork);
    QCOMPARE(p.spend.tokensMonth, std::optional<std::int64_t>(500'000'000'000));
    QCOMPARE(p.spend.costDay, std::optional<double>(0.004));
    QCOMPARE(p.declared.tokensPerDay, std::optional<std::int64_t>(7'000'000'000));
    QCOMPARE(p.declared.requestsPerMinute, std::optional<std::int64_t>(5));
    // Changed: the box's figure.
    typeInto(field<QDoubleSpinBox>(&dialog, u"spendCostDay"_s), u"3"_s);
    typeInto(field<QSpinBox>(&dialog, u"spendTokensMonth"_s), u"1000"_s);
    p = *dialog.profiles().find(kWork);
    QCOMPARE(p.spend.costDay, std::optional<double>(3));
    QCOMPARE(p.spend.tokensMonth, std::optional<std::int64_t>(1000));
    QCOMPARE(p.declared.tokensPerDay, std::optional<std::int64_t>(7'000'000'000));
}

void TestLimitsBox::demoLimitsAndPricesSaved()
{
    SettingsDialog dialog(twoProfiles(), u"demo"_s, session::ParkingChoice::Ask);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    QCOMPARE(dialog.currentProfile(), u"demo"_s);
    for (const QString &name :
        { u"spendCostDay"_s, u"providerRpm"_s, u"limitAction"_s, u"priceTable"_s, u"addPrice"_s })
        QVERIFY2(field<QWidget>(&dialog, name)->isEnabled(), qPrintable(name));
    typeInto(field<QDoubleSpinBox>(&dialog, u"spendCostDay"_s), u"0.5"_s);
    typeInto(field<QSpinBox>(&dialog, u"providerRpm"_s), u"2"_s);
    auto *combo = field<QComboBox>(&dialog, u"limitAction"_s);
    combo->setFocus();
    QTest::keyClick(combo, Qt::Key_End);
    QCOMPARE(combo->currentText(), u"Refuse"_s);
    // Add starts a row for the demo's model, which the price table does not know.
    QTest::mouseClick(field<QPushButton>(&dialog, u"addPrice"_s), Qt::LeftButton);
    QTableWidget *table = priceTable(&dialog);
    QCOMPARE(table->rowCount(), 1);
    QCOMPARE(table->item(0, 0)->text(), u"capwatch-demo"_s);
    QCOMPARE(table->item(0, 1)->text(), QString());
    typeCell(table, 0, 1, u"1.25"_s);
    typeCell(table, 0, 2, u"5"_s);

    const QString path = acceptAndSave(dialog);
    QVERIFY(!path.isEmpty());
    const Saved file(path, u"demo"_s);
    QCOMPARE(file.value(u"spend_cost_day"_s), u"0.5"_s);
    QCOMPARE(file.value(u"provider_rpm"_s), u"2"_s);
    QCOMPARE(file.value(u"limit_action"_s), u"refuse"_s);
    QCOMPARE(file.value(u"price.capwatch-demo"_s), u"1.25, 5"_s);
    const session::ProviderProfile &demo = file.set.demo();
    QCOMPARE(demo.spend.costDay, std::optional<double>(0.5));
    QCOMPARE(demo.declared.requestsPerMinute, std::optional<std::int64_t>(2));
    QCOMPARE(demo.limitAction, session::LimitAction::Refuse);
    QCOMPARE(demo.prices.size(), 1);
    QCOMPARE(demo.prices.first().first, u"capwatch-demo"_s);
    QCOMPARE(demo.prices.first().second, (retry::Price { 1.25, 5, {}, {} }));
    QVERIFY(file.set.issuesOf(u"demo"_s).isEmpty());
}

void TestLimitsBox::priceAddedEditedRemovedAndSaved()
{
    SettingsDialog dialog(twoProfiles(), kWork, session::ParkingChoice::Ask);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    QTableWidget *table = priceTable(&dialog);
    auto *add = field<QPushButton>(&dialog, u"addPrice"_s);
    auto *remove = field<QPushButton>(&dialog, u"removePrice"_s);
    QCOMPARE(table->rowCount(), 0);
    QVERIFY(!remove->isEnabled());

    // Add: the profile's model with the price table's figures, the input price being edited.
    const retry::Price known = *retry::builtinPrices().find("gpt-4o-mini");
    QTest::mouseClick(add, Qt::LeftButton);
    QCOMPARE(table->rowCount(), 1);
    QCOMPARE(table->item(0, 0)->text(), u"gpt-4o-mini"_s);
    QCOMPARE(table->item(0, 1)->text().toDouble(), known.inputPerMTok);
    QCOMPARE(table->item(0, 2)->text().toDouble(), known.outputPerMTok);
    QVERIFY(cellEditor(table)); // being edited
    QCOMPARE(table->currentColumn(), 1);
    closeEditor(table);
    typeCell(table, 0, 1, u"0.2"_s);
    typeCell(table, 0, 3, QString());
    // Add again: the model has its row, so a blank one, its model being edited.
    QTest::mouseClick(add, Qt::LeftButton);
    QCOMPARE(table->rowCount(), 2);
    QCOMPARE(table->item(1, 0)->text(), QString());
    QCOMPARE(table->currentColumn(), 0);
    closeEditor(table);
    typeCell(table, 1, 0, u"openai/o1"_s);
    typeCell(table, 1, 1, u"15"_s);
    typeCell(table, 1, 2, u"60"_s);
    typeCell(table, 1, 3, u"7.5"_s);
    // A third, removed again; a blank row left is not a price (nor a problem).
    QTest::mouseClick(add, Qt::LeftButton);
    closeEditor(table);
    typeCell(table, 2, 0, u"gone"_s);
    QVERIFY(remove->isEnabled());
    table->setCurrentCell(2, 0);
    QTest::mouseClick(remove, Qt::LeftButton);
    QCOMPARE(table->rowCount(), 2);
    QTest::mouseClick(add, Qt::LeftButton);
    closeEditor(table);
    QCOMPARE(table->rowCount(), 3);

    const QList<std::pair<QString, retry::Price>> expected {
        { u"gpt-4o-mini"_s, { 0.2, known.outputPerMTok, {}, {} } },
        { u"openai/o1"_s, { 15, 60, 7.5, {} } },
    };
    QCOMPARE(dialog.profiles().find(kWork)->prices, expected);
    const QString path = acceptAndSave(dialog);
    QVERIFY(!path.isEmpty());
    const Saved file(path, kWork);
    QCOMPARE(file.value(u"price.gpt-4o-mini"_s),
        u"0.2, "_s + QString::number(known.outputPerMTok, 'g', 12));
    QCOMPARE(file.value(u"price.openai/o1"_s), u"15, 60, 7.5"_s);
    QVERIFY(!file.keys.contains(u"price.gone"_s));
    QCOMPARE(file.profile(kWork).prices, expected);
    QVERIFY(file.set.issuesOf(kWork).isEmpty());
    // The session's price of a send: the profile's own.
    QCOMPARE(file.profile(kWork).choice().priceOf(u"gpt-4o-mini"_s)->inputPerMTok, 0.2);
}

void TestLimitsBox::invalidPriceRefusesOk_data()
{
    QTest::addColumn<QStringList>("row"); ///< model, input, output, cached
    QTest::addColumn<int>("column"); ///< the cell focused
    QTest::addColumn<QString>("message");
    QTest::newRow("negative") << QStringList { u"m"_s, u"-1"_s, u"2"_s, QString() } << 1
                              << u"Row 2 of the prices: “-1” is not a price from 0 to "
                                 "1,000,000 per million tokens."_s;
    QTest::newRow("not a number") << QStringList { u"m"_s, u"1"_s, u"cheap"_s, QString() } << 2
                                  << u"Row 2 of the prices: “cheap” is not a price from 0 to "
                                     "1,000,000 per million tokens."_s;
    QTest::newRow("too much") << QStringList { u"m"_s, u"1"_s, u"2"_s, u"2000000"_s } << 3
                              << u"Row 2 of the prices: “2000000” is not a price from 0 to "
                                 "1,000,000 per million tokens."_s;
    QTest::newRow("no output") << QStringList { u"m"_s, u"1"_s, QString(), QString() } << 2
                               << u"Row 2 of the prices needs an output price."_s;
    QTest::newRow("no model") << QStringList { QString(), u"1"_s, u"2"_s, QString() } << 0
                              << u"Row 2 of the prices names no model."_s;
    QTest::newRow("twice") << QStringList { u"GPT-4o-mini"_s, u"1"_s, u"2"_s, QString() } << 0
                           << u"Row 2 of the prices: “GPT-4o-mini” has a price already."_s;
}

void TestLimitsBox::invalidPriceRefusesOk()
{
    QFETCH(QStringList, row);
    QFETCH(int, column);
    QFETCH(QString, message);
    session::ProfileSet set = twoProfiles();
    set.profiles[1].prices = { { u"gpt-4o-mini"_s, { 0.2, 0.8, {}, {} } } };
    SettingsDialog dialog(set, kWork, session::ParkingChoice::Ask);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    QTableWidget *table = priceTable(&dialog);
    QTest::mouseClick(field<QPushButton>(&dialog, u"addPrice"_s), Qt::LeftButton);
    closeEditor(table);
    QCOMPARE(table->rowCount(), 2);
    for (int c = 0; c < row.size(); ++c) {
        table->item(1, c)->setText(row.at(c));
        QCOMPARE(table->item(1, c)->text(), row.at(c));
    }
    // Not taken: only the valid row is the profile's.
    QCOMPARE(dialog.profiles().find(kWork)->prices, set.profiles[1].prices);

    // From another profile: OK says what is wrong and shows the cell.
    field<QListWidget>(&dialog, u"profileList"_s)->setCurrentRow(0);
    clickOk(&dialog);
    QVERIFY(dialog.isVisible());
    QVERIFY(dialog.result() != QDialog::Accepted);
    QCOMPARE(dialog.currentProfile(), kWork);
    const std::optional<ProvidersPage::Problem> problem = dialog.providersPage()->problem();
    QVERIFY(problem);
    QCOMPARE(problem->message, message);
    bool shown = false;
    for (QLabel *l : dialog.findChildren<QLabel *>())
        shown = shown || (l->isVisible() && l->text() == message);
    QVERIFY2(shown, "the message is not shown");
    QCOMPARE(dialog.focusWidget(), table);
    QCOMPARE(table->currentRow(), 1);
    QCOMPARE(table->currentColumn(), column);

    // Corrected: accepted, and saved.
    const QStringList good { u"my-model"_s, u"1"_s, u"2"_s, QString() };
    for (int c = 0; c < good.size(); ++c)
        table->item(1, c)->setText(good.at(c));
    QVERIFY(!dialog.providersPage()->problem());
    const QString path = acceptAndSave(dialog);
    QVERIFY(!path.isEmpty());
    QCOMPARE(Saved(path, kWork).value(u"price.my-model"_s), u"1, 2"_s);
}

void TestLimitsBox::hintSaysWhatThePriceTableKnows()
{
    SettingsDialog dialog(twoProfiles(), kWork, session::ParkingChoice::Ask);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    auto *hint = field<QLabel>(&dialog, u"priceHint"_s);
    const retry::Price known = *retry::builtinPrices().find("gpt-4o-mini");
    QVERIFY(hint->isVisible());
    QVERIFY2(
        hint->text().startsWith(u"Price table for “gpt-4o-mini”: $"_s), qPrintable(hint->text()));
    QVERIFY2(hint->text().contains(QLocale().toCurrencyString(known.outputPerMTok, u"$"_s, 2)),
        qPrintable(hint->text()));
    QVERIFY(hint->text().contains(u"per million tokens"_s));

    // Follows the model as it is typed.
    auto *model = field<QComboBox>(&dialog, u"model"_s);
    model->setEditText(u"no-such-model-xyz"_s);
    QCOMPARE(hint->text(),
        u"“no-such-model-xyz” is not in the price table: without a price here, its costs show as "
        "tokens only."_s);
    // The demo's model is in no price table.
    field<QListWidget>(&dialog, u"profileList"_s)->setCurrentRow(0);
    QVERIFY(hint->text().startsWith(u"“capwatch-demo” is not in the price table"_s));
    // A screen reader hears it with the table.
    QVERIFY(priceTable(&dialog)->accessibleDescription().contains(hint->text()));
}

void TestLimitsBox::nothingCutAtTheSmallestSize_data()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("en") << u"en"_s;
    QTest::newRow("de") << u"de"_s;
}

void TestLimitsBox::nothingCutAtTheSmallestSize()
{
    QFETCH(QString, language);
    QTranslator translator;
    if (language != u"en") {
        QVERIFY(
            translator.load(QStringLiteral(CAPWATCH_QM_DIR "/capwatch_") + language + u".qm"_s));
        QApplication::installTranslator(&translator);
    }
    const auto uninstall
        = qScopeGuard([&translator] { QApplication::removeTranslator(&translator); });
    session::ProfileSet set = twoProfiles();
    set.profiles[1].spend.tokensMonth = 2'000'000'000;
    set.profiles[1].spend.costMonth = 999'999;
    set.profiles[1].prices
        = { { u"openrouter/anthropic/claude-3.5-sonnet"_s, { 3, 15, 0.3, {} } } };
    SettingsDialog dialog(set, kWork, session::ParkingChoice::Ask);
    dialog.resize(dialog.minimumSize());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    auto *scroll = field<QScrollArea>(&dialog, u"profileEditor"_s);
    QVERIFY2(dialog.minimumWidth() <= 640, qPrintable(QString::number(dialog.minimumWidth())));
    if (language == u"en") {
        // The list's lines whole too (German's longer built-in line is cut at 28 characters,
        // or the dialog would not fit 640 px).
        auto *list = field<QListWidget>(&dialog, u"profileList"_s);
        QVERIFY(list->viewport()->width() >= list->sizeHintForColumn(0));
    }
    for (const QString &profile : { kWork, u"demo"_s }) {
        dialog.providersPage()->selectProfile(profile);
        QApplication::processEvents();
        // The editor scrolls down, never sideways.
        QVERIFY2(scroll->horizontalScrollBar()->maximum() == 0,
            qPrintable(
                u"%1 px to scroll sideways"_s.arg(scroll->horizontalScrollBar()->maximum())));
        QList<QWidget *> parts;
        for (const QString &name : { u"limits"_s, u"prices"_s }) {
            // As wide as the editor, and never what makes it scroll sideways.
            auto *box = field<QWidget>(&dialog, name);
            QCOMPARE(box->width(), scroll->widget()->width());
            QVERIFY2(box->minimumSizeHint().width() <= scroll->viewport()->width(),
                qPrintable(u"%1 needs %2 px of %3"_s.arg(name)
                               .arg(box->minimumSizeHint().width())
                               .arg(scroll->viewport()->width())));
            parts << box->findChildren<QWidget *>();
        }
        for (QWidget *w : std::as_const(parts)) {
            if (!w->isVisible() || w->objectName().startsWith(u"qt_"_s)
                || !(qobject_cast<QLabel *>(w) || qobject_cast<QAbstractSpinBox *>(w)
                    || qobject_cast<QComboBox *>(w) || qobject_cast<QPushButton *>(w)
                    || qobject_cast<QGroupBox *>(w) || qobject_cast<QTableWidget *>(w)))
                continue;
            const QString what = u"%1 %2 “%3”"_s.arg(
                QString::fromLatin1(w->metaObject()->className()), w->objectName(),
                qobject_cast<QLabel *>(w) ? qobject_cast<QLabel *>(w)->text() : QString());
            // Inside the editor, and shown whole once scrolled to.
            const QRect inEditor(w->mapTo(scroll->widget(), QPoint(0, 0)), w->size());
            QVERIFY2(scroll->widget()->rect().contains(inEditor), qPrintable(what));
            scroll->ensureWidgetVisible(w, 0, 0);
            const QRect inViewport(w->mapTo(scroll->viewport(), QPoint(0, 0)), w->size());
            QVERIFY2(inViewport.top() >= 0 && inViewport.bottom() < scroll->viewport()->height(),
                qPrintable(what + u" cannot be scrolled to"_s));
            if (auto *label = qobject_cast<QLabel *>(w)) {
                if (label->wordWrap())
                    QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                        qPrintable(what + u" is cut at the bottom"_s));
                else
                    QVERIFY2(label->width() >= label->sizeHint().width(), qPrintable(what));
            } else if (!qobject_cast<QTableWidget *>(w)) {
                // Its text whole: "No limit", "USD 999,999.00", "Park until it resets", a
                // group's title.
                QVERIFY2(w->width() >= w->minimumSizeHint().width(), qPrintable(what));
            }
        }
    }
    dialog.reject();
}

QTEST_MAIN(TestLimitsBox)
#include "tst_limitsbox.moc"
