#include "ui/window/mainmenus.h"

#include "retry/constants.h"
#include "session/chatsession.h"
#include "ui/conversation/conversationview.h"
#include "ui/profiles/profilecontroller.h"
#include "ui/settings/settings.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QSaveFile>
#include <QStatusBar>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

MainMenus::MainMenus(QMainWindow *window, Settings &settings, session::ChatSession *session,
    ConversationView *conversation)
    : QObject(window)
    , m_window(window)
    , m_settings(settings)
    , m_session(session)
    , m_conversation(conversation)
    , m_exportLogAction(new QAction(window))
    , m_copyLogAction(new QAction(window))
    , m_exportConversationAction(new QAction(window))
    , m_exportAllAction(new QAction(window))
    , m_historySettingsAction(new QAction(window))
    , m_quitAction(new QAction(window))
    , m_settingsAction(new QAction(window))
    , m_aboutAction(new QAction(window))
    , m_insightsAction(new QAction(window))
    , m_fileMenu(window->menuBar()->addMenu(QString()))
    , m_viewMenu(window->menuBar()->addMenu(QString()))
    , m_settingsMenu(window->menuBar()->addMenu(QString()))
    , m_helpMenu(window->menuBar()->addMenu(QString()))
{
    m_exportLogAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(m_exportLogAction, &QAction::triggered, this, &MainMenus::exportRetryLogInteractive);
    m_copyLogAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    connect(m_copyLogAction, &QAction::triggered, this, &MainMenus::copyRetryLog);
    m_exportConversationAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    connect(m_exportConversationAction, &QAction::triggered, this,
        &MainMenus::exportConversationInteractive);
    m_exportAllAction->setObjectName(u"exportAllAction"_s);
    connect(m_exportAllAction, &QAction::triggered, this, &MainMenus::exportAllRequested);
    m_historySettingsAction->setObjectName(u"historySettingsAction"_s);
    connect(
        m_historySettingsAction, &QAction::triggered, this, &MainMenus::historySettingsRequested);
    m_quitAction->setShortcut(QKeySequence::Quit);
    connect(m_quitAction, &QAction::triggered, window, &QWidget::close);
    m_settingsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    connect(m_settingsAction, &QAction::triggered, this, &MainMenus::settingsRequested);
    connect(m_aboutAction, &QAction::triggered, this, &MainMenus::showAbout);
    m_insightsAction->setObjectName(u"insightsAction"_s);
    m_insightsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    m_insightsAction->setCheckable(true);
    connect(m_insightsAction, &QAction::triggered, this, &MainMenus::insightsToggled);

    m_fileMenu->addAction(m_exportLogAction);
    m_fileMenu->addAction(m_copyLogAction);
    m_fileMenu->addAction(m_exportConversationAction);
    m_fileMenu->addAction(m_exportAllAction);
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(m_quitAction);
    m_viewMenu->addAction(m_insightsAction);
    m_settingsMenu->addAction(m_settingsAction);
    m_settingsMenu->addAction(m_historySettingsAction);
    m_helpMenu->addAction(m_aboutAction);
}

void MainMenus::retranslate()
{
    m_exportLogAction->setText(tr("&Export retry log…"));
    m_copyLogAction->setText(tr("&Copy retry log as text"));
    m_exportConversationAction->setText(tr("Export &conversation as Markdown…"));
    m_exportAllAction->setText(tr("Export &all retry logs…"));
    m_historySettingsAction->setText(tr("&History…"));
    m_quitAction->setText(tr("&Quit"));
    m_settingsAction->setText(tr("&Provider and retries…"));
    m_aboutAction->setText(tr("&About capwatch"));
    m_fileMenu->setTitle(tr("&File"));
    m_viewMenu->setTitle(tr("&View"));
    m_insightsAction->setText(tr("&Insights"));
    m_insightsAction->setToolTip(tr("Where the time and the money go, in charts"));
    m_settingsMenu->setTitle(tr("&Settings"));
    m_helpMenu->setTitle(tr("&Help"));
}

void MainMenus::showAbout()
{
    // The numbers of the conversation's profile (issue 17), else the policy's defaults.
    retry::PolicyLimits limits;
    if (m_profiles)
        limits = m_profiles->chosen().limits;
    auto *box = new QMessageBox(QMessageBox::Information, tr("About capwatch"),
        tr("<p><b>capwatch</b> %1</p><p>A chat client for OpenAI-compatible providers "
           "with strict token caps. It retries token-limit errors by a strict, "
           "visible policy: at most %2 attempts, waits of at most %3 s, %4 s "
           "in all.</p>")
            .arg(QApplication::applicationVersion(), QLocale().toString(limits.maxAttempts),
                QLocale().toString(qint64(limits.waitCap.count() / 1000)),
                QLocale().toString(qint64(limits.budget.count() / 1000))),
        QMessageBox::Ok, m_window);
    box->setObjectName(u"aboutBox"_s);
    box->setIconPixmap(m_window->windowIcon().pixmap(64, 64));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainMenus::showWarning(const QString &title, const QString &text)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, m_window);
    box->setObjectName(u"warningBox"_s);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

QString MainMenus::retryLogPath(
    const QFileDialog *dialog, QString path, const QString &csvFilter, bool *csv)
{
    *csv = path.endsWith(u".csv", Qt::CaseInsensitive)
        || (!path.endsWith(u".jsonl", Qt::CaseInsensitive)
            && dialog->selectedNameFilter() == csvFilter);
    const QString suffix = *csv ? u".csv"_s : u".jsonl"_s;
    if (!path.endsWith(suffix, Qt::CaseInsensitive))
        path += suffix;
    return path;
}

QFileDialog *MainMenus::saveDialog(
    const QString &title, const QString &fileName, const QStringList &filters)
{
    const QString dir = m_settings.lastExportDir();
    auto *dialog
        = new QFileDialog(m_window, title, dir.isEmpty() ? fileName : dir + u'/' + fileName);
    dialog->setObjectName(u"saveDialog"_s);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setFileMode(QFileDialog::AnyFile);
    dialog->setNameFilters(filters);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    return dialog;
}

bool MainMenus::exportRetryLog(const QString &path, net::LogFormat format, QString *error)
{
    if (!m_session->retryLog()->exportTo(path, format, error))
        return false;
    // Where it went, with the path: a file dialog's choice is easily forgotten.
    m_window->statusBar()->showMessage(
        tr("Retry log exported to %1 (%n records)", nullptr,
            int(m_session->retryLog()->records().size()))
            .arg(QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath())),
        10000);
    return true;
}

bool MainMenus::exportConversation(const QString &path, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    file.write(conversationMarkdown().toUtf8());
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    m_window->statusBar()->showMessage(
        tr("Conversation exported to %1")
            .arg(QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath())),
        10000);
    return true;
}

QString MainMenus::conversationMarkdown() const
{
    const QUrl base = m_session->provider().endpoint();
    const QString endpoint = net::displayEndpoint(net::chatCompletionsUrl(base));
    const QString model = m_session->provider().model();
    const auto fact = [](const QString &name, const QString &value) -> QString {
        return u"- "_s + name + u": "_s + ConversationView::escapeMarkdown(value) + u'\n';
    };
    QString header = u"# "_s + tr("capwatch conversation") + u"\n\n"_s;
    header
        += fact(tr("Date"), QDateTime::currentDateTimeUtc().toString(u"yyyy-MM-dd HH:mm 'UTC'"_s));
    header += fact(tr("Endpoint"), endpoint.isEmpty() ? base.toString() : endpoint);
    header += fact(tr("Model"), model.isEmpty() ? tr("not set") : model);
    const QString turns = m_conversation->toMarkdown();
    return turns.isEmpty() ? header : header + u'\n' + turns;
}

QString MainMenus::retryLogText() const
{
    return QString::fromUtf8(m_session->retryLog()->serialize(net::LogFormat::Csv));
}

void MainMenus::exportRetryLogInteractive()
{
    const QString jsonFilter = tr("JSON Lines (*.jsonl)");
    const QString csvFilter = tr("CSV (*.csv)");
    QFileDialog *dialog = saveDialog(
        tr("Export retry log"), u"capwatch-retry-log.jsonl"_s, { jsonFilter, csvFilter });
    connect(dialog, &QFileDialog::fileSelected, this, [this, dialog, csvFilter](QString path) {
        if (path.isEmpty())
            return;
        bool csv = false;
        path = retryLogPath(dialog, path, csvFilter, &csv);
        QString error;
        if (!exportRetryLog(path, csv ? net::LogFormat::Csv : net::LogFormat::JsonLines, &error))
            showWarning(tr("Export failed"), tr("The retry log was not written: %1").arg(error));
        else
            m_settings.setLastExportDir(QFileInfo(path).absolutePath());
    });
    dialog->open();
}

void MainMenus::exportConversationInteractive()
{
    QFileDialog *dialog = saveDialog(
        tr("Export conversation"), u"capwatch-conversation.md"_s, { tr("Markdown (*.md)") });
    connect(dialog, &QFileDialog::fileSelected, this, [this](QString path) {
        if (path.isEmpty())
            return;
        if (!path.endsWith(u".md", Qt::CaseInsensitive)
            && !path.endsWith(u".markdown", Qt::CaseInsensitive))
            path += u".md"_s;
        QString error;
        if (!exportConversation(path, &error))
            showWarning(tr("Export failed"), tr("The conversation was not written: %1").arg(error));
        else
            m_settings.setLastExportDir(QFileInfo(path).absolutePath());
    });
    dialog->open();
}

void MainMenus::copyRetryLog()
{
    QApplication::clipboard()->setText(retryLogText());
    m_window->statusBar()->showMessage(
        tr("Retry log copied (%n records)", nullptr, int(m_session->retryLog()->records().size())),
        4000);
}

} // namespace capwatch::ui
