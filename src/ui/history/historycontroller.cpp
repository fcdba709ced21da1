#include "ui/history/historycontroller.h"

#include "session/chatsession.h"
#include "ui/conversation/promptmessage.h"
#include "ui/history/historybanner.h"
#include "ui/history/historysettingsdialog.h"
#include "ui/history/historysidebar.h"
#include "ui/settings/settings.h"
#include "ui/window/mainmenus.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QStatusBar>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

HistoryController::HistoryController(QMainWindow *window, Settings &settings,
    session::ChatSession *session, MainMenus *menus, HistorySidebar *sidebar, HistoryBanner *banner,
    PromptMessage *message)
    : QObject(window)
    , m_window(window)
    , m_settings(settings)
    , m_session(session)
    , m_menus(menus)
    , m_sidebar(sidebar)
    , m_banner(banner)
    , m_message(message)
{
    using session::ChatSession;
    // The first send stored the window's new conversation: its row comes in highlighted.
    connect(m_session, &ChatSession::conversationStored, this, [this](const QUuid &id) {
        m_current = id;
        m_sidebar->setOpenConversation(id);
        m_sidebar->conversationStored(id);
    });
    connect(m_session, &ChatSession::conversationUpdated, m_sidebar,
        &HistorySidebar::conversationUpdated);
    connect(m_session, &ChatSession::conversationChanged, this,
        &HistoryController::onConversationChanged);
    connect(m_session, &ChatSession::restoreFailed, this,
        [this](const QUuid &id, const QString &reason) {
            if (id != m_current)
                return; // a later open or new conversation took its place
            m_message->showMessage(PromptMessage::Kind::Warning,
                tr("The conversation could not be opened: %1").arg(reason),
                PromptMessage::Action::None);
            // The sidebar's highlight goes back to what the window shows.
            m_current = m_session->conversationId();
            m_sidebar->setOpenConversation(m_current);
        });
    connect(m_sidebar, &HistorySidebar::conversationActivated, this,
        &HistoryController::openConversation);
    connect(m_sidebar, &HistorySidebar::newConversationRequested, this,
        &HistoryController::newConversation);
    connect(m_sidebar, &HistorySidebar::conversationDeleted, this, [this](const QUuid &id) {
        if (id == m_current)
            newConversation();
    });
    connect(
        m_menus, &MainMenus::exportAllRequested, this, &HistoryController::exportAllInteractive);
    connect(m_menus, &MainMenus::historySettingsRequested, this, &HistoryController::openSettings);
}

void HistoryController::attach(history::HistoryWriter *writer, bool privateRun)
{
    m_writer = writer;
    m_private = privateRun;
    m_sidebar->setVisible(writer != nullptr);
    m_session->setHistory(privateRun ? nullptr : writer);
    if (privateRun && !m_privateLabel) {
        m_privateLabel = new QLabel(m_window->statusBar());
        m_privateLabel->setObjectName(u"privateLabel"_s);
        m_window->statusBar()->addPermanentWidget(m_privateLabel);
    }
    retranslate();
    if (writer) {
        connect(writer, &history::HistoryWriter::opened, this, &HistoryController::onOpened);
        m_sidebar->setOpening(true);
    }
}

history::OpenOptions HistoryController::openOptions(const QDateTime &now) const
{
    history::OpenOptions options;
    const QDateTime last = m_settings.historyPagesCheckedAt();
    const qint64 ageS = last.isValid() ? last.secsTo(now) : -1;
    options.checkIntegrity = !(ageS >= 0 && ageS < 24 * 3600);
    return options;
}

void HistoryController::savePagesChecked()
{
    if (m_pagesCheckedAt.isValid())
        m_settings.setHistoryPagesCheckedAt(m_pagesCheckedAt);
}

void HistoryController::onOpened(const history::OpenResult &result)
{
    m_open = true;
    if (result.pagesChecked && !m_private)
        m_pagesCheckedAt = QDateTime::currentDateTimeUtc();
    // A private run is in memory by choice: the status bar says so, not a warning.
    if (!m_private)
        m_banner->showResult(result);
    // Retention is queued before the list's first read, so the list never shows what it deletes.
    if (result.persistent() && !m_private)
        applyRetention();
    m_sidebar->setWriter(m_writer);
    m_sidebar->setOpening(false);
    Q_EMIT opened(result);
}

void HistoryController::applyRetention()
{
    const int days = m_settings.historyRetentionDays();
    if (m_writer && days > 0)
        m_writer->deleteOlderThan(days);
}

void HistoryController::openConversation(const QUuid &id)
{
    if (id.isNull())
        return;
    // Its send in flight shows as it is: read back, the conversation would lose it to a carrier.
    if (id == m_session->conversationId() && m_session->busy())
        return;
    m_current = id;
    m_sidebar->setOpenConversation(id);
    m_session->openConversation(id);
    Q_EMIT openRequested(id);
}

void HistoryController::newConversation()
{
    m_current = QUuid();
    m_sidebar->setOpenConversation({});
    m_session->newConversation();
    Q_EMIT newRequested();
}

void HistoryController::onConversationChanged(const QUuid &id)
{
    m_current = id;
    m_sidebar->setOpenConversation(id);
    // A warning about the conversation before (a failed open, an edit) is not about this one.
    if (m_message->action() != PromptMessage::Action::OpenSettings)
        m_message->dismiss();
}

void HistoryController::exportAllRetryLogs(
    const QString &path, net::LogFormat format, const QDateTime &since, const QDateTime &until)
{
    if (!m_writer) {
        ExportAllResult result;
        result.error = tr("History is off.");
        Q_EMIT exportFinished(result);
        return;
    }
    m_writer->read(
        this,
        [path, format, since, until](history::HistoryStore &store) {
            return exportStoredRetryLogs(store, since, until, path, format);
        },
        [this](ExportAllResult result) { Q_EMIT exportFinished(result); });
}

void HistoryController::exportAllInteractive()
{
    auto *range = new ExportAllDialog(m_window);
    range->setObjectName(u"exportAllDialog"_s);
    range->setAttribute(Qt::WA_DeleteOnClose);
    connect(range, &QDialog::accepted, this, [this, range] {
        const QDateTime since = range->since();
        const QDateTime until = range->until();
        const QString jsonFilter = tr("JSON Lines (*.jsonl)");
        const QString csvFilter = tr("CSV (*.csv)");
        QFileDialog *dialog = m_menus->saveDialog(tr("Export all retry logs"),
            u"capwatch-all-retry-logs.jsonl"_s, { jsonFilter, csvFilter });
        connect(dialog, &QFileDialog::fileSelected, this,
            [this, dialog, csvFilter, since, until](QString path) {
                if (path.isEmpty())
                    return;
                bool csv = false;
                path = MainMenus::retryLogPath(dialog, path, csvFilter, &csv);
                m_settings.setLastExportDir(QFileInfo(path).absolutePath());
                auto *once = new QObject(this);
                connect(this, &HistoryController::exportFinished, once,
                    [this, once](const ExportAllResult &result) {
                        once->deleteLater();
                        if (result.ok)
                            m_window->statusBar()->showMessage(
                                tr("Exported %n retry records", nullptr, int(result.records)),
                                4000);
                        else
                            m_menus->showWarning(tr("Export failed"),
                                tr("The retry logs were not written: %1").arg(result.error));
                    });
                exportAllRetryLogs(
                    path, csv ? net::LogFormat::Csv : net::LogFormat::JsonLines, since, until);
            });
        dialog->open();
    });
    range->open();
}

void HistoryController::openSettings()
{
    if (m_settingsDialog) {
        m_settingsDialog->raise();
        m_settingsDialog->activateWindow();
        return;
    }
    auto *dialog
        = new HistorySettingsDialog(m_settings.historyRetentionDays(), m_private, m_window);
    dialog->setObjectName(u"historySettingsDialog"_s);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_settingsDialog = dialog;
    connect(dialog, &HistorySettingsDialog::clearRequested, this, &HistoryController::clearHistory);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const int days = dialog->retentionDays();
        const bool changed = days != m_settings.historyRetentionDays();
        m_settings.setHistoryRetentionDays(days);
        m_settings.sync();
        if (changed && days > 0 && !m_private && m_writer) {
            applyRetention();
            m_sidebar->reload();
        }
    });
    dialog->open();
}

void HistoryController::clearHistory(bool usage)
{
    if (!m_writer || m_private)
        return;
    m_writer->clear(usage);
    m_sidebar->reload();
    newConversation(); // the open conversation is gone with the rest
    m_window->statusBar()->showMessage(tr("History cleared"), 4000);
}

void HistoryController::retranslate()
{
    if (m_privateLabel) {
        m_privateLabel->setText(tr("Private: nothing is kept"));
        m_privateLabel->setToolTip(tr("Started with --private: this run's conversations are "
                                      "kept in memory only and are gone when capwatch quits."));
        m_privateLabel->setAccessibleName(tr("Private: nothing is kept"));
    }
}

} // namespace capwatch::ui
