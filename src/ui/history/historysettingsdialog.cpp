#include "ui/history/historysettingsdialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

HistorySettingsDialog::HistorySettingsDialog(int retentionDays, bool privateRun, QWidget *parent)
    : QDialog(parent)
    , m_keepAll(new QRadioButton(tr("&Keep everything"), this))
    , m_deleteOld(new QRadioButton(tr("&Delete conversations older than"), this))
    , m_days(new QSpinBox(this))
    , m_clear(new QPushButton(tr("C&lear history…"), this))
    , m_note(new QLabel(this))
{
    setWindowTitle(tr("History"));
    auto *layout = new QVBoxLayout(this);
    auto *group = new QGroupBox(tr("Keep conversations"), this);
    auto *groupLayout = new QVBoxLayout(group);
    groupLayout->addWidget(m_keepAll);
    auto *row = new QHBoxLayout;
    row->addWidget(m_deleteOld);
    m_days->setRange(1, 3650);
    m_days->setSuffix(tr(" days"));
    m_days->setValue(retentionDays > 0 ? retentionDays : 90);
    m_days->setAccessibleName(tr("Days to keep conversations"));
    row->addWidget(m_days);
    row->addStretch(1);
    groupLayout->addLayout(row);
    layout->addWidget(group);
    (retentionDays > 0 ? m_deleteOld : m_keepAll)->setChecked(true);
    m_days->setEnabled(retentionDays > 0);
    connect(m_deleteOld, &QRadioButton::toggled, m_days, &QWidget::setEnabled);

    auto *clearRow = new QHBoxLayout;
    clearRow->addWidget(m_clear);
    clearRow->addStretch(1);
    layout->addLayout(clearRow);
    connect(m_clear, &QPushButton::clicked, this, &HistorySettingsDialog::confirmClear);

    m_note->setWordWrap(true);
    m_note->setText(tr("This is a private run: nothing is kept on disk, so there is nothing to "
                       "delete."));
    m_note->setVisible(privateRun);
    layout->addWidget(m_note);
    group->setEnabled(!privateRun);
    m_clear->setEnabled(!privateRun);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

int HistorySettingsDialog::retentionDays() const
{
    return m_deleteOld->isChecked() ? m_days->value() : 0;
}

void HistorySettingsDialog::confirmClear()
{
    if (m_confirm) {
        m_confirm->raise();
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Clear history"),
        tr("Delete every stored conversation with its messages and retry log? This cannot be "
           "undone."),
        QMessageBox::NoButton, this);
    box->setObjectName(u"clearHistoryBox"_s);
    box->addButton(tr("&Clear history"), QMessageBox::DestructiveRole);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    // The ledger counts sends of conversations long deleted; it goes only when asked.
    auto *usage = new QCheckBox(tr("Also clear the &usage ledger"), box);
    usage->setObjectName(u"clearUsageBox"_s);
    box->setCheckBox(usage);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    m_confirm = box;
    connect(box, &QMessageBox::buttonClicked, this, [this, box](QAbstractButton *button) {
        if (box->buttonRole(button) == QMessageBox::DestructiveRole)
            Q_EMIT clearRequested(box->checkBox() && box->checkBox()->isChecked());
    });
    box->open();
}

} // namespace capwatch::ui
