#include "ui/history/historyexport.h"

#include "session/storedrecords.h"

#include <QDateEdit>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QPushButton>
#include <QSaveFile>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

ExportAllResult exportStoredRetryLogs(history::HistoryStore &store, const QDateTime &since,
    const QDateTime &until, const QString &path, net::LogFormat format)
{
    ExportAllResult result;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        result.error = file.errorString();
        return result;
    }
    const QByteArray end = format == net::LogFormat::Csv ? "\r\n" : "\n";
    if (format == net::LogFormat::Csv)
        file.write(session::exportCsvHeader() + end);
    bool written = true;
    const bool read = store.forEachRetryRecord(
        since.toUTC(), until.toUTC(), [&](const history::StoredRetryRecord &record) {
            const QByteArray line = format == net::LogFormat::Csv ? session::exportCsvRow(record)
                                                                  : session::exportJsonLine(record);
            written = file.write(line + end) >= 0;
            ++result.records;
            return written;
        });
    if (!read) {
        result.error = store.lastError();
        file.cancelWriting();
        return result;
    }
    if (!written || !file.commit()) {
        result.error = file.errorString();
        return result;
    }
    result.ok = true;
    return result;
}

ExportAllDialog::ExportAllDialog(QWidget *parent, const QDate &today)
    : QDialog(parent)
    , m_from(new QDateEdit(today.addDays(-29), this))
    , m_to(new QDateEdit(today, this))
{
    setWindowTitle(tr("Export all retry logs"));
    auto *form = new QFormLayout(this);
    for (QDateEdit *edit : { m_from, m_to }) {
        edit->setCalendarPopup(true);
        edit->setDisplayFormat(QLocale().dateFormat(QLocale::ShortFormat));
    }
    m_from->setAccessibleName(tr("From"));
    m_to->setAccessibleName(tr("To"));
    form->addRow(tr("&From:"), m_from);
    form->addRow(tr("&To (included):"), m_to);
    // The range can not end before it starts.
    connect(m_from, &QDateEdit::dateChanged, this, [this](QDate date) {
        if (m_to->date() < date)
            m_to->setDate(date);
    });
    connect(m_to, &QDateEdit::dateChanged, this, [this](QDate date) {
        if (m_from->date() > date)
            m_from->setDate(date);
    });
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Choose file…"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

QDateTime ExportAllDialog::since() const
{
    return m_from->date().startOfDay();
}

QDateTime ExportAllDialog::until() const
{
    return m_to->date().addDays(1).startOfDay();
}

} // namespace capwatch::ui
