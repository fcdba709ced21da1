// The window side of history (issue 14): the sidebar's lazy model, its signals, rename, delete,
// search as you type, the banner for a database moved aside, --private, Export all retry logs,
// retention and Clear history. Every database is in a temporary folder.

#include "history/historywriter.h"
#include "support/damagedpage.h"
#include "support/demowindow.h"
#include "support/historyfixture.h"
#include "support/historywriting.h"
#include "support/windowwidgets.h"
#include "ui/history/conversationlistmodel.h"
#include "ui/history/historybanner.h"
#include "ui/history/historycontroller.h"
#include "ui/history/historysettingsdialog.h"
#include "ui/history/historysidebar.h"
#include "ui/history/searchresultsmodel.h"
#include "ui/panel/categorycolors.h"

#include <QAbstractItemModelTester>
#include <QDateEdit>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace capwatch;
using namespace capwatch::ui;
using namespace Qt::StringLiterals;
using namespace capwatch::testing::widgets;
using testing::flushed;

namespace {

int storedCount(const QString &path)
{
    history::HistoryStore store;
    store.open(path);
    return store.conversationCount();
}

QAbstractButton *buttonWithRole(QMessageBox *box, QMessageBox::ButtonRole role)
{
    for (QAbstractButton *b : box->buttons()) {
        if (box->buttonRole(b) == role)
            return b;
    }
    return nullptr;
}

/// Whether the row of `index` in `view`, as painted, has a pixel of `colour` in its `part`
/// (fractions of the row's width: 0-0.2 is the left fifth).
bool rowShows(
    QListView *view, const QModelIndex &index, const QColor &colour, double from = 0, double to = 1)
{
    const QImage image = view->viewport()->grab().toImage().convertToFormat(QImage::Format_RGB32);
    const qreal dpr = image.devicePixelRatio();
    const QRect row = view->visualRect(index);
    for (int y = int(row.top() * dpr); y < int((row.bottom() + 1) * dpr); ++y) {
        for (int x = int((row.left() + row.width() * from) * dpr);
             x < int((row.left() + row.width() * to) * dpr); ++x) {
            if (image.pixel(x, y) == colour.rgb())
                return true;
        }
    }
    return false;
}

} // namespace

class TestHistorySidebar : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void modelPagesLazily();
    void modelPassesTheTester();
    void modelFollowsTheSession();
    void renameInPlace();
    void deleteAsksFirst();
    void searchAsYouType();
    void latestQueryWins();
    void recoveredDatabaseBanner();
    void theWindowReadsEveryPageOnceADay();
    void privateRunKeepsNothing();
    void exportAllRetryLogs();
    void retentionAtStartUp();
    void clearHistoryAfterConfirmation();
    void sidebarOpensAndStarts();
    void unreadMark();
    void parkedMark();
    void parkedMarkFromTheStore();

private:
    QString db() { return m_dir.filePath(u"history-%1.sqlite"_s.arg(++m_n)); }
    QString ini() { return m_dir.filePath(u"settings-%1.ini"_s.arg(++m_n)); }

    QTemporaryDir m_dir;
    int m_n = 0;
};

void TestHistorySidebar::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // Whatever opens the default path by mistake writes here, never to the user's data.
    qputenv("XDG_DATA_HOME", m_dir.filePath(u"data"_s).toUtf8());
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void TestHistorySidebar::modelPagesLazily()
{
    const QString path = db();
    const QList<QUuid> ids = testing::writeFixtureDatabase(path, 500);
    history::HistoryWriter writer;
    writer.open(path);
    ConversationListModel model;
    // No QAbstractItemModelTester here: it calls fetchMore() after every change, reading all.
    model.setPageSize(100);
    model.setWriter(&writer);
    QTRY_COMPARE(model.rowCount(), 100);
    QCOMPARE(model.pagesRead(), 1); // the start reads one page, not 500 rows
    // Newest first.
    QCOMPARE(model.index(0).data(ConversationListModel::IdRole).toUuid(), ids.last());
    QCOMPARE(model.index(0).data(ConversationListModel::TitleRole).toString(),
        u"Conversation 499 about token caps"_s);
    QVERIFY(model.canFetchMore());
    model.fetchMore();
    model.fetchMore(); // ignored: never two reads in flight
    QTRY_COMPARE(model.rowCount(), 200);
    QCOMPARE(model.pagesRead(), 2);
    QCOMPARE(model.index(199).data(ConversationListModel::IdRole).toUuid(), ids.at(300));
    // Rows held: the pages read, whatever is stored.
    while (model.canFetchMore()) {
        const int before = model.rowCount();
        model.fetchMore();
        QTRY_VERIFY(model.rowCount() > before || !model.canFetchMore());
        QCOMPARE(model.rowCount(), model.pagesRead() * 100);
    }
    QCOMPARE(model.rowCount(), 500);
}

void TestHistorySidebar::modelPassesTheTester()
{
    const QString path = db();
    testing::writeFixtureDatabase(path, 250);
    history::HistoryWriter writer;
    writer.open(path);
    ConversationListModel model;
    model.setPageSize(40);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setWriter(&writer);
    // The tester fetches more after every insert: every page, one read at a time.
    QTRY_COMPARE(model.rowCount(), 250);
    QCOMPARE(model.pagesRead(), 7);
    QVERIFY(!model.canFetchMore());
    model.reload();
    QCOMPARE(model.rowCount(), 0);
    QTRY_COMPARE(model.rowCount(), 250);
}

void TestHistorySidebar::modelFollowsTheSession()
{
    const QString path = db();
    const QList<QUuid> ids = testing::writeFixtureDatabase(path, 5);
    history::HistoryWriter writer;
    writer.open(path);
    ConversationListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setWriter(&writer);
    QTRY_COMPARE(model.rowCount(), 5);

    // A new conversation's first write: inserted at the top.
    history::Conversation fresh;
    fresh.title = u"Fresh one"_s;
    const QUuid freshId = writer.addConversation(fresh);
    model.refresh(freshId);
    QTRY_COMPARE(model.rowCount(), 6);
    QCOMPARE(model.index(0).data(ConversationListModel::IdRole).toUuid(), freshId);

    // The oldest gets a message: it moves to the top.
    history::Message m;
    m.conversation = ids.first();
    m.text = u"One more question"_s;
    writer.addMessage(m);
    model.refresh(ids.first());
    QTRY_COMPARE(model.index(0).data(ConversationListModel::IdRole).toUuid(), ids.first());
    QCOMPARE(model.rowCount(), 6);
    QCOMPARE(model.index(1).data(ConversationListModel::IdRole).toUuid(), freshId);

    // Removed: locally, and when a refresh finds it gone from the store.
    model.removeConversation(freshId);
    QCOMPARE(model.rowCount(), 5);
    writer.deleteConversation(ids.at(2));
    model.refresh(ids.at(2));
    QTRY_COMPARE(model.rowCount(), 4);
    QCOMPARE(model.rowOf(ids.at(2)), -1);

    QVERIFY(flushed(writer));
}

void TestHistorySidebar::renameInPlace()
{
    const QString path = db();
    const QList<QUuid> ids = testing::writeFixtureDatabase(path, 3);
    history::HistoryWriter writer;
    HistorySidebar sidebar;
    sidebar.resize(300, 400);
    sidebar.show();
    writer.open(path);
    sidebar.setWriter(&writer);
    QTRY_COMPARE(sidebar.model()->rowCount(), 3);
    sidebar.view()->setFocus();
    sidebar.view()->setCurrentIndex(sidebar.model()->index(0));
    QTest::keyClick(sidebar.view(), Qt::Key_F2);
    auto *editor = sidebar.view()->findChild<QLineEdit *>();
    QVERIFY(editor);
    QTRY_VERIFY(editor->isVisible());
    editor->selectAll();
    QTest::keyClicks(editor, u"Renamed by F2"_s);
    QTest::keyClick(editor, Qt::Key_Return); // the delegate commits on its next turn
    QTRY_COMPARE(sidebar.model()->index(0).data(ConversationListModel::TitleRole).toString(),
        u"Renamed by F2"_s);
    QVERIFY(flushed(writer));
    history::HistoryStore check;
    check.open(path);
    QCOMPARE(check.conversation(ids.last())->title, u"Renamed by F2"_s);
}

void TestHistorySidebar::deleteAsksFirst()
{
    const QString path = db();
    const QList<QUuid> ids = testing::writeFixtureDatabase(path, 3);
    QWidget window;
    auto *sidebar = new HistorySidebar(&window);
    window.resize(300, 400);
    window.show();
    history::HistoryWriter writer;
    writer.open(path);
    sidebar->setWriter(&writer);
    QTRY_COMPARE(sidebar->model()->rowCount(), 3);
    QSignalSpy deleted(sidebar, &HistorySidebar::conversationDeleted);

    // Cancelled: still there.
    sidebar->view()->setFocus();
    sidebar->view()->setCurrentIndex(sidebar->model()->index(1));
    QTest::keyClick(sidebar->view(), Qt::Key_Delete);
    QPointer<QMessageBox> box = sidebar->confirmation();
    QVERIFY(box);
    QTRY_VERIFY(box->isVisible());
    QCOMPARE(box->windowModality(), Qt::WindowModal);
    QVERIFY(box->text().contains(u"Conversation 1 about token caps"_s));
    box->button(QMessageBox::Cancel)->click();
    QTRY_VERIFY(!box);
    QVERIFY(flushed(writer));
    QCOMPARE(storedCount(path), 3);
    QCOMPARE(sidebar->model()->rowCount(), 3);

    // Accepted: gone from the list and the database.
    sidebar->deleteCurrent();
    box = sidebar->confirmation();
    QVERIFY(box);
    buttonWithRole(box, QMessageBox::DestructiveRole)->click();
    QCOMPARE(deleted.size(), 1);
    QCOMPARE(deleted.at(0).at(0).toUuid(), ids.at(1));
    QCOMPARE(sidebar->model()->rowCount(), 2);
    QVERIFY(flushed(writer));
    QCOMPARE(storedCount(path), 2);
    history::HistoryStore check;
    check.open(path);
    QVERIFY(!check.conversation(ids.at(1)));
}

void TestHistorySidebar::searchAsYouType()
{
    const QString path = db();
    testing::writeFixtureDatabase(path, 300);
    QUuid old;
    {
        history::HistoryStore store;
        store.open(path);
        testing::FixtureConversation f;
        f.prompt = u"Tell me about the zebrafish genome"_s;
        f.when = QDateTime::currentDateTimeUtc().addDays(-400); // far beyond the first page
        old = testing::addFixtureConversation(store, f);
    }
    HistorySidebar sidebar;
    sidebar.model()->setPageSize(50);
    sidebar.resize(300, 400);
    sidebar.show();
    history::HistoryWriter writer;
    writer.open(path);
    sidebar.setWriter(&writer);
    QTRY_COMPARE(sidebar.model()->rowCount(), 50);
    QCOMPARE(sidebar.model()->rowOf(old), -1);

    QSignalSpy activated(&sidebar, &HistorySidebar::conversationActivated);
    QTest::keyClick(&sidebar, Qt::Key_F, Qt::ControlModifier);
    QTRY_VERIFY(sidebar.searchField()->hasFocus());
    QTest::keyClicks(sidebar.searchField(), u"zebr"_s); // the start of a word, as typed
    QTRY_VERIFY(sidebar.searching());
    QCOMPARE(sidebar.view()->model()->rowCount(), 1);
    const QModelIndex hit = sidebar.view()->model()->index(0, 0);
    QCOMPARE(hit.data(ConversationListModel::IdRole).toUuid(), old);
    QVERIFY2(hit.data(ConversationListModel::SnippetRole).toString().contains(u"[zebrafish]"_s),
        qPrintable(hit.data(ConversationListModel::SnippetRole).toString()));
    QCOMPARE(SearchResultsModel::snippetHtml(u"the [zebrafish] <genome>"_s),
        u"the <b>zebrafish</b> &lt;genome&gt;"_s);

    // Enter opens the hit.
    QTest::keyClick(sidebar.searchField(), Qt::Key_Return);
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated.at(0).at(0).toUuid(), old);

    // Esc: back to the full list.
    sidebar.searchField()->setFocus();
    QTest::keyClick(sidebar.searchField(), Qt::Key_Escape);
    QVERIFY(!sidebar.searching());
    QVERIFY(sidebar.searchField()->text().isEmpty());
    QCOMPARE(sidebar.view()->model(), sidebar.model());
}

void TestHistorySidebar::latestQueryWins()
{
    const QString path = db();
    {
        history::HistoryStore store;
        store.open(path);
        testing::FixtureConversation f;
        f.prompt = u"Walruses are large"_s;
        testing::addFixtureConversation(store, f);
        f.prompt = u"Penguins are not"_s;
        testing::addFixtureConversation(store, f);
    }
    history::HistoryWriter writer;
    writer.open(path);
    SearchResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setWriter(&writer);
    QSignalSpy answered(&model, &SearchResultsModel::answered);
    model.search(u"walrus"_s);
    model.search(u"penguin"_s); // typed before the first answer came
    QVERIFY(answered.wait(5000));
    QVERIFY(flushed(writer));
    QCoreApplication::processEvents();
    QCOMPARE(answered.size(), 1);
    QCOMPARE(answered.at(0).at(0).toString(), u"penguin"_s);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(
        model.index(0).data(ConversationListModel::TitleRole).toString(), u"Penguins are not"_s);

    // Typed in the field: only the last text is searched once typing pauses.
    HistorySidebar sidebar;
    sidebar.show();
    sidebar.setWriter(&writer);
    QSignalSpy sidebarAnswered(sidebar.searchModel(), &SearchResultsModel::answered);
    QTest::keyClicks(sidebar.searchField(), u"walr"_s);
    sidebar.searchField()->setText(u"pengu"_s);
    QVERIFY(sidebarAnswered.wait(5000));
    QTest::qWait(300);
    QCOMPARE(sidebarAnswered.size(), 1);
    QCOMPARE(sidebar.searchModel()->answeredQuery(), u"pengu"_s);
}

void TestHistorySidebar::theWindowReadsEveryPageOnceADay()
{
    // Reading every page of a year's history delays its list by one to four seconds at each
    // start: the window does it on its first start of the day, and a damaged file is moved aside
    // then; a start within the day opens at once (a damaged page shows when something reads it).
    const QString path = db();
    const QString settings = ini();
    testing::writeFixtureDatabase(path, 2);
    const auto start = [&path](testing::DemoWindow &w, history::HistoryWriter &writer) {
        QSignalSpy opened(w.window->historyController(), &HistoryController::opened);
        w.window->attachHistory(&writer, false);
        writer.open(path, w.window->historyController()->openOptions());
        return opened.wait(10000) ? opened.constFirst().at(0).value<history::OpenResult>()
                                  : history::OpenResult();
    };
    {
        history::HistoryWriter writer; // outlives the window, as in main()
        testing::DemoWindow w(settings);
        QVERIFY(w.window->historyController()->openOptions().checkIntegrity); // never yet
        const history::OpenResult first = start(w, writer);
        QCOMPARE(first.status, history::OpenResult::Status::Opened);
        QVERIFY(first.pagesChecked);
        QVERIFY(w.window->close()); // kept in the settings as the window closes
    }
    const QDateTime checked = ui::Settings(settings).historyPagesCheckedAt();
    QVERIFY(checked.isValid());
    QVERIFY(checked.secsTo(QDateTime::currentDateTimeUtc()) < 60);

    QVERIFY(testing::damageAPageNothingReads(path));
    {
        history::HistoryWriter writer;
        testing::DemoWindow w(settings);
        QVERIFY(!w.window->historyController()->openOptions().checkIntegrity);
        const history::OpenResult again = start(w, writer);
        QCOMPARE(again.status, history::OpenResult::Status::Opened); // at once, as it is
        QVERIFY(!again.pagesChecked);
        QTRY_COMPARE(historySidebar(*w.window)->model()->rowCount(), 2);
        QVERIFY(w.window->close());
    }
    QCOMPARE(ui::Settings(settings).historyPagesCheckedAt(), checked); // not read this time

    {
        ui::Settings dayLater(settings);
        dayLater.setHistoryPagesCheckedAt(QDateTime::currentDateTimeUtc().addSecs(-25 * 3600));
        dayLater.sync();
    }
    history::HistoryWriter writer;
    testing::DemoWindow w(settings);
    QVERIFY(w.window->historyController()->openOptions().checkIntegrity);
    const history::OpenResult dayAfter = start(w, writer);
    QCOMPARE(dayAfter.status, history::OpenResult::Status::Recovered); // found, moved aside
    QVERIFY(QFileInfo::exists(dayAfter.movedTo));
}

void TestHistorySidebar::recoveredDatabaseBanner()
{
    const QString path = db();
    {
        QFile garbage(path);
        QVERIFY(garbage.open(QIODevice::WriteOnly));
        garbage.write(QByteArray(8192, 'x'));
    }
    history::HistoryWriter writer;
    testing::DemoWindow w(ini());
    w.window->attachHistory(&writer, false);
    writer.open(path);
    HistoryBanner *banner = historyBanner(*w.window);
    QTRY_VERIFY(banner->isVisible());
    const QString moved = banner->movedTo();
    QVERIFY2(moved.contains(u".corrupt-"_s), qPrintable(moved));
    QVERIFY(QFileInfo::exists(moved));
    QVERIFY2(banner->shownText().contains(moved), qPrintable(banner->shownText()));
    QVERIFY(banner->shownText().startsWith(u"The history database could not be read ("_s));
    QVERIFY(banner->shownText().endsWith(u"and a new one was started."_s));
    QVERIFY(banner->copyButton()->isVisible());
    // The window still works: the new database lists what is stored in it.
    QVERIFY(historySidebar(*w.window)->isEnabled());
    history::Conversation c;
    c.title = u"After the recovery"_s;
    const QUuid id = writer.addConversation(c);
    historySidebar(*w.window)->conversationStored(id);
    QTRY_COMPARE(historySidebar(*w.window)->model()->rowCount(), 1);
    w.uncapped();
    w.send(u"Still chatting?"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!w.window->session()->busy(), 10000);
    QVERIFY(w.window->conversationMarkdown().contains(u"Still chatting?"_s));
}

void TestHistorySidebar::privateRunKeepsNothing()
{
    const QString defaultPath = history::HistoryStore::defaultPath();
    QVERIFY(defaultPath.startsWith(m_dir.path()));
    history::HistoryWriter writer;
    testing::DemoWindow w(ini());
    w.window->attachHistory(&writer, true);
    writer.openInMemory();
    QTRY_VERIFY(w.window->historyController()->isOpen());
    QLabel *label = w.window->historyController()->privateLabel();
    QVERIFY(label);
    QVERIFY(label->isVisible());
    QCOMPARE(label->text(), u"Private: nothing is kept"_s);
    QCOMPARE(w.window->windowTitle(), u"capwatch (private)"_s);
    QVERIFY(!historyBanner(*w.window)->isVisible());
    history::Conversation c;
    c.title = u"Only in memory"_s;
    writer.addConversation(c);
    QVERIFY(flushed(writer));
    QVERIFY(!QFileInfo::exists(defaultPath));
    QVERIFY(!QFileInfo::exists(QFileInfo(defaultPath).absolutePath()));
    // Settings → History has nothing to do.
    w.window->historyController()->openSettings();
    HistorySettingsDialog *dialog = w.window->historyController()->settingsDialog();
    QVERIFY(dialog);
    QVERIFY(!dialog->clearButton()->isEnabled());
    QVERIFY(!dialog->deleteOldButton()->isEnabled());
    dialog->reject();
}

void TestHistorySidebar::exportAllRetryLogs()
{
    const QString path = db();
    // Local noon: the export range is in the user's local days (any time zone).
    const QDateTime inRange = QDateTime(QDate(2025, 3, 10), QTime(12, 0));
    QUuid inside;
    {
        history::HistoryStore store;
        store.open(path);
        testing::FixtureConversation f;
        f.prompt = u"In range"_s;
        f.when = inRange;
        f.retries = true;
        inside = testing::addFixtureConversation(store, f);
        f.prompt = u"Too early"_s;
        f.when = inRange.addDays(-20);
        testing::addFixtureConversation(store, f);
        f.prompt = u"Too late"_s;
        f.when = inRange.addDays(20);
        testing::addFixtureConversation(store, f);
    }
    history::HistoryWriter writer;
    testing::DemoWindow w(ini());
    w.window->attachHistory(&writer, false);
    writer.open(path);
    QTRY_VERIFY(w.window->historyController()->isOpen());

    ExportAllDialog range(nullptr, QDate(2025, 3, 10));
    range.fromEdit()->setDate(QDate(2025, 3, 1));
    QCOMPARE(range.toEdit()->date(), QDate(2025, 3, 10));
    QCOMPARE(range.until(), QDate(2025, 3, 11).startOfDay()); // the to day included
    QCOMPARE(ExportAllDialog(nullptr, QDate(2025, 3, 10)).fromEdit()->date(), QDate(2025, 2, 9));

    const QString id = inside.toString(QUuid::WithoutBraces);
    QSignalSpy finished(w.window->historyController(), &HistoryController::exportFinished);
    const QString csvPath = m_dir.filePath(u"all.csv"_s);
    w.window->historyController()->exportAllRetryLogs(
        csvPath, net::LogFormat::Csv, range.since(), range.until());
    QVERIFY(finished.wait(5000));
    auto result = finished.takeFirst().at(0).value<ExportAllResult>();
    QVERIFY2(result.ok, qPrintable(result.error));
    QCOMPARE(result.records, 2);
    QFile csv(csvPath);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csv.readAll().split('\n');
    QCOMPARE(lines.size(), 4); // header, two records, the empty rest after the last line end
    QCOMPARE(lines.at(0),
        "time,request,event,attempt,status,category,used,limit,wait_s,raw_wait_s,wait_source,"
        "waited_total_s,budget_left_s,reason,error,reset_at,window_tokens_left,window_reset_s,"
        "estimated_tokens,profile,fallback_to,answer_end,conversation\r");
    // Exports write UTC, whatever the time zone.
    const QByteArray utc = inRange.toUTC().toString(Qt::ISODateWithMs).toUtf8();
    QVERIFY(utc.endsWith('Z'));
    QCOMPARE(lines.at(2),
        utc + ",1,retry_scheduled,1,422,token_limit,60323,60000,60,1080,message,0,120,,,,,,,,,,"
            + id.toUtf8() + '\r');

    const QString jsonPath = m_dir.filePath(u"all.jsonl"_s);
    w.window->historyController()->exportAllRetryLogs(
        jsonPath, net::LogFormat::JsonLines, range.since(), range.until());
    QVERIFY(finished.wait(5000));
    QFile json(jsonPath);
    QVERIFY(json.open(QIODevice::ReadOnly));
    const QList<QByteArray> jsonLines = json.readAll().split('\n');
    QCOMPARE(jsonLines.size(), 3);
    QCOMPARE(jsonLines.at(0),
        R"({"time":")" + utc
            + R"(","request":1,"event":"attempt_started","attempt":1,)"
              R"("status":null,"category":null,"used":null,"limit":null,"wait_s":null,)"
              R"("raw_wait_s":null,"wait_source":null,"waited_total_s":null,"budget_left_s":null,)"
              R"("reason":null,"error":null,"reset_at":null,)"
              R"("window_tokens_left":null,"window_reset_s":null,"estimated_tokens":null,"profile":null,)"
              R"("fallback_to":null,"answer_end":null,"conversation":")"
            + id.toUtf8() + "\"}");
}

void TestHistorySidebar::retentionAtStartUp()
{
    const QString path = db();
    QUuid recent;
    {
        history::HistoryStore store;
        store.open(path);
        testing::FixtureConversation f;
        f.prompt = u"Ten days old"_s;
        f.when = QDateTime::currentDateTimeUtc().addDays(-10);
        recent = testing::addFixtureConversation(store, f);
        f.prompt = u"A hundred days old"_s;
        f.when = QDateTime::currentDateTimeUtc().addDays(-100);
        testing::addFixtureConversation(store, f);
    }
    history::HistoryWriter writer;
    testing::DemoWindow w(ini());
    w.settings.setHistoryRetentionDays(30);
    w.window->attachHistory(&writer, false);
    writer.open(path);
    ConversationListModel *model = historySidebar(*w.window)->model();
    QTRY_COMPARE(model->pagesRead(), 1);
    QCOMPARE(model->rowCount(), 1); // never listed, then removed: deleted before the first read
    QCOMPARE(model->index(0).data(ConversationListModel::IdRole).toUuid(), recent);
    QVERIFY(flushed(writer));
    QCOMPARE(storedCount(path), 1);

    // Changed in Settings → History: applied at once.
    w.window->historyController()->openSettings();
    HistorySettingsDialog *dialog = w.window->historyController()->settingsDialog();
    QVERIFY(dialog);
    QVERIFY(dialog->deleteOldButton()->isChecked());
    QCOMPARE(dialog->daysBox()->value(), 30);
    dialog->daysBox()->setValue(5);
    dialog->accept();
    QCOMPARE(w.settings.historyRetentionDays(), 5);
    QTRY_COMPARE(model->rowCount(), 0);
    QVERIFY(flushed(writer));
    QCOMPARE(storedCount(path), 0);
}

void TestHistorySidebar::clearHistoryAfterConfirmation()
{
    const QString path = db();
    testing::writeFixtureDatabase(path, 20);
    history::HistoryWriter writer;
    testing::DemoWindow w(ini());
    w.window->attachHistory(&writer, false);
    writer.open(path);
    QTRY_COMPARE(historySidebar(*w.window)->model()->rowCount(), 20);
    w.window->historyController()->openSettings();
    HistorySettingsDialog *dialog = w.window->historyController()->settingsDialog();
    QVERIFY(dialog);
    QVERIFY(dialog->keepAllButton()->isChecked());

    dialog->clearButton()->click();
    QPointer<QMessageBox> box = dialog->clearConfirmation();
    QVERIFY(box);
    box->button(QMessageBox::Cancel)->click();
    QVERIFY(flushed(writer));
    QCOMPARE(storedCount(path), 20);

    dialog->clearButton()->click();
    box = dialog->clearConfirmation();
    QVERIFY(box);
    buttonWithRole(box, QMessageBox::DestructiveRole)->click();
    QTRY_COMPARE(historySidebar(*w.window)->model()->rowCount(), 0);
    QVERIFY(flushed(writer));
    QCOMPARE(storedCount(path), 0);
    dialog->reject();
}

void TestHistorySidebar::sidebarOpensAndStarts()
{
    const QString path = db();
    const QList<QUuid> ids = testing::writeFixtureDatabase(path, 4);
    history::HistoryWriter writer;
    testing::DemoWindow w(ini());
    // Held, as main() holds it until the first paint: a large file takes a second or more to
    // open, and meanwhile the list says so rather than "History is off.".
    writer.hold();
    w.window->attachHistory(&writer, false);
    writer.open(path);
    HistorySidebar *sidebar = historySidebar(*w.window);
    QVERIFY(sidebar->isVisible());
    QCOMPARE(sidebar->placeholderText(), u"Opening the history…"_s);
    writer.release();
    QTRY_COMPARE(sidebar->model()->rowCount(), 4);
    QCOMPARE(sidebar->placeholderText(), QString());
    QSignalSpy open(w.window->historyController(), &HistoryController::openRequested);
    QSignalSpy fresh(w.window->historyController(), &HistoryController::newRequested);
    sidebar->view()->setFocus();
    sidebar->view()->setCurrentIndex(sidebar->model()->index(2));
    QTest::keyClick(sidebar->view(), Qt::Key_Return);
    QCOMPARE(open.size(), 1);
    QCOMPARE(open.at(0).at(0).toUuid(), ids.at(1));
    QCOMPARE(w.window->historyController()->currentConversation(), ids.at(1));
    QVERIFY(sidebar->model()->index(2).data(ConversationListModel::IsOpenRole).toBool());
    QTest::keyClick(w.window.get(), Qt::Key_N, Qt::ControlModifier);
    QCOMPARE(fresh.size(), 1);
    QVERIFY(w.window->historyController()->currentConversation().isNull());
    QVERIFY(!sidebar->model()->index(2).data(ConversationListModel::IsOpenRole).toBool());
    // The marks' words, for the tooltip and screen readers.
    QCOMPARE(ConversationListModel::marksText(true, true), u"had retries, unanswered send"_s);
}

void TestHistorySidebar::unreadMark()
{
    const QString path = db();
    const QList<QUuid> ids = testing::writeFixtureDatabase(path, 3);
    history::HistoryWriter writer;
    HistorySidebar sidebar;
    sidebar.resize(300, 400);
    sidebar.show();
    writer.open(path);
    ConversationListModel *model = sidebar.model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    // Marked before its row is read: shown once it is.
    sidebar.markUnread(ids.at(0));
    sidebar.setWriter(&writer);
    QTRY_COMPARE(model->rowCount(), 3);
    const auto row = [&](const QUuid &id) { return model->index(model->rowOf(id)); };
    QVERIFY(row(ids.at(0)).data(ConversationListModel::IsUnreadRole).toBool());
    QVERIFY(!row(ids.at(1)).data(ConversationListModel::IsUnreadRole).toBool());

    // Bold, a dot in the selection colour at the left, "unread" in its words.
    QSignalSpy changed(model, &QAbstractItemModel::dataChanged);
    sidebar.markUnread(ids.at(1));
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.at(0).at(0).toModelIndex(), row(ids.at(1)));
    QVERIFY(model->isUnread(ids.at(1)));
    const QModelIndex unread = row(ids.at(1));
    QVERIFY(unread.data(Qt::FontRole).value<QFont>().bold());
    QVERIFY(!row(ids.at(2)).data(Qt::FontRole).value<QFont>().bold());
    QVERIFY2(unread.data(Qt::AccessibleTextRole).toString().contains(u", unread"_s),
        qPrintable(unread.data(Qt::AccessibleTextRole).toString()));
    QVERIFY(unread.data(Qt::ToolTipRole).toString().endsWith(u"\nunread"_s));
    QVERIFY(!row(ids.at(2)).data(Qt::AccessibleTextRole).toString().contains(u"unread"_s));
    const QColor dot = sidebar.view()->palette().color(QPalette::Active, QPalette::Highlight);
    QVERIFY(rowShows(sidebar.view(), unread, dot, 0, 0.2));
    QVERIFY(!rowShows(sidebar.view(), row(ids.at(2)), dot, 0, 0.2));
    sidebar.markUnread(ids.at(1)); // already: nothing changes
    QCOMPARE(changed.size(), 1);

    // Kept by id: the row moves to the top with a new message and is still unread.
    history::Message m;
    m.conversation = ids.at(1);
    m.text = u"A parked send went out"_s;
    writer.addMessage(m);
    sidebar.conversationUpdated(ids.at(1));
    QTRY_COMPARE(model->index(0).data(ConversationListModel::IdRole).toUuid(), ids.at(1));
    QVERIFY(model->index(0).data(ConversationListModel::IsUnreadRole).toBool());

    // Selected (the arrow keys, a click): read.
    sidebar.view()->setFocus();
    sidebar.view()->setCurrentIndex(row(ids.at(2)));
    QTest::keyClick(sidebar.view(), Qt::Key_Up); // onto the unread one at the top
    QCOMPARE(sidebar.view()->currentIndex(), row(ids.at(1)));
    QVERIFY(!model->isUnread(ids.at(1)));
    QVERIFY(!row(ids.at(1)).data(Qt::AccessibleTextRole).toString().contains(u"unread"_s));
    sidebar.view()->setCurrentIndex(row(ids.at(2))); // the selection is in the dot's colour
    QVERIFY(!rowShows(sidebar.view(), row(ids.at(1)), dot, 0, 0.2));
    QVERIFY(!row(ids.at(1)).data(Qt::FontRole).value<QFont>().bold());

    // Opened: read; markRead(): read; the open one is never marked.
    QVERIFY(model->isUnread(ids.at(0)));
    sidebar.setOpenConversation(ids.at(0));
    QVERIFY(!model->isUnread(ids.at(0)));
    sidebar.markUnread(ids.at(0));
    QVERIFY(!model->isUnread(ids.at(0)));
    sidebar.markUnread(ids.at(2));
    QVERIFY(model->isUnread(ids.at(2)));
    sidebar.markRead(ids.at(2));
    QVERIFY(!model->isUnread(ids.at(2)));
    QVERIFY(!row(ids.at(2)).data(Qt::FontRole).value<QFont>().bold());
    // Deleted: forgotten.
    sidebar.setOpenConversation({});
    sidebar.markUnread(ids.at(0));
    model->removeConversation(ids.at(0));
    QVERIFY(!model->isUnread(ids.at(0)));
    QVERIFY(flushed(writer));
}

void TestHistorySidebar::parkedMark()
{
    const QString path = db();
    const QList<QUuid> ids = testing::writeFixtureDatabase(path, 3);
    history::HistoryWriter writer;
    HistorySidebar sidebar;
    sidebar.resize(300, 400);
    sidebar.show();
    writer.open(path);
    sidebar.setWriter(&writer);
    ConversationListModel *model = sidebar.model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_COMPARE(model->rowCount(), 3);
    const auto row = [&](const QUuid &id) { return model->index(model->rowOf(id)); };
    const QColor clock = parkedColor(sidebar.view()->palette());
    QVERIFY(!rowShows(sidebar.view(), row(ids.at(1)), clock, 0.6, 1));

    QSignalSpy changed(model, &QAbstractItemModel::dataChanged);
    sidebar.setParked(ids.at(1), true);
    QCOMPARE(changed.size(), 1);
    QVERIFY(model->isParked(ids.at(1)));
    QVERIFY(row(ids.at(1)).data(ConversationListModel::HasParkedRole).toBool());
    QVERIFY(!row(ids.at(0)).data(ConversationListModel::HasParkedRole).toBool());
    QVERIFY2(row(ids.at(1)).data(Qt::AccessibleTextRole).toString().endsWith(u", parked send"_s),
        qPrintable(row(ids.at(1)).data(Qt::AccessibleTextRole).toString()));
    QVERIFY(row(ids.at(1)).data(Qt::ToolTipRole).toString().contains(u"parked send"_s));
    // The clock at the right of the title's line, in the parked colour; not on the others.
    QVERIFY(rowShows(sidebar.view(), row(ids.at(1)), clock, 0.6, 1));
    QVERIFY(!rowShows(sidebar.view(), row(ids.at(0)), clock, 0.6, 1));
    // Not bold: parked is not unread.
    QVERIFY(!row(ids.at(1)).data(Qt::FontRole).value<QFont>().bold());
    sidebar.setParked(ids.at(1), true);
    QCOMPARE(changed.size(), 1);

    // Both marks, in that order, before the stored ones.
    sidebar.markUnread(ids.at(1));
    QVERIFY(row(ids.at(1))
                .data(Qt::AccessibleTextRole)
                .toString()
                .endsWith(u", unread, parked send"_s));
    QCOMPARE(ConversationListModel::marksText(true, true, true, true),
        u"unread, parked send, had retries, unanswered send"_s);
    if (const QString dir = qEnvironmentVariable("CAPWATCH_SHOT_DIR"); !dir.isEmpty()) {
        sidebar.markUnread(ids.at(2));
        sidebar.view()->setCurrentIndex(row(ids.at(0)));
        QVERIFY(sidebar.grab().save(dir + u"/sidebar-marks.png"_s));
        sidebar.markRead(ids.at(2));
    }

    sidebar.setParked(ids.at(1), false);
    QVERIFY(!model->isParked(ids.at(1)));
    QVERIFY(!row(ids.at(1)).data(Qt::AccessibleTextRole).toString().contains(u"parked"_s));
    QVERIFY(!rowShows(sidebar.view(), row(ids.at(1)), clock, 0.6, 1));
    QVERIFY(flushed(writer));
}

void TestHistorySidebar::parkedMarkFromTheStore()
{
    // A parked send stored in an earlier run: marked from the first read, no setParked() needed;
    // setParked(false) is ahead of the store until the row is read again.
    const QString path = db();
    const QList<QUuid> ids = testing::writeFixtureDatabase(path, 2);
    QUuid parkedConversation;
    {
        history::HistoryStore store;
        store.open(path);
        testing::FixtureConversation f;
        f.prompt = u"Parked until the reset"_s;
        f.unanswered = true;
        parkedConversation = testing::addFixtureConversation(store, f);
        history::Message prompt;
        prompt.conversation = parkedConversation;
        prompt.text = f.prompt;
        QVERIFY(store.addMessage(prompt));
        history::ParkedSend parked;
        parked.conversation = parkedConversation;
        parked.message = prompt.id;
        parked.provider = u"demo"_s;
        parked.dueAt = QDateTime::currentDateTimeUtc().addSecs(3600);
        parked.resetAt = parked.dueAt;
        QVERIFY(store.addParkedSend(parked));
    }
    history::HistoryWriter writer;
    HistorySidebar sidebar;
    sidebar.resize(300, 400);
    sidebar.show();
    writer.open(path);
    sidebar.setWriter(&writer);
    ConversationListModel *model = sidebar.model();
    QTRY_COMPARE(model->rowCount(), 3);
    const auto row = [&](const QUuid &id) { return model->index(model->rowOf(id)); };
    QVERIFY(model->isParked(parkedConversation));
    QVERIFY(!model->isParked(ids.at(0)));
    QVERIFY(row(parkedConversation).data(ConversationListModel::HasParkedRole).toBool());
    QVERIFY(
        row(parkedConversation).data(Qt::AccessibleTextRole).toString().contains(u"parked send"_s));
    QVERIFY(rowShows(
        sidebar.view(), row(parkedConversation), parkedColor(sidebar.view()->palette()), 0.6, 1));

    sidebar.setParked(parkedConversation, false); // it went out; the store does not know yet
    QVERIFY(!model->isParked(parkedConversation));
    sidebar.conversationUpdated(parkedConversation); // read again: still stored as parked
    QTRY_VERIFY(model->isParked(parkedConversation));
    QVERIFY(flushed(writer));
}

QTEST_MAIN(TestHistorySidebar)
#include "tst_historysidebar.moc"
