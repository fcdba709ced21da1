#pragma once

// Settings → History: keep everything, or delete conversations older than N days; and
// "Clear history…", confirmed in a box that is opened, never exec()'d. In a private run nothing is
// kept anyway, so both are disabled and the dialog says why.

#include <QDialog>
#include <QPointer>

class QLabel;
#include <QMessageBox>
class QPushButton;
class QRadioButton;
class QSpinBox;

namespace capwatch::ui {

class HistorySettingsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistorySettingsDialog)

public:
    /// `retentionDays` 0: keep everything.
    HistorySettingsDialog(int retentionDays, bool privateRun, QWidget *parent = nullptr);

    /// 0: keep everything; else 1-3650.
    int retentionDays() const;
    QRadioButton *keepAllButton() const { return m_keepAll; }
    QRadioButton *deleteOldButton() const { return m_deleteOld; }
    QSpinBox *daysBox() const { return m_days; }
    QPushButton *clearButton() const { return m_clear; }
    QMessageBox *clearConfirmation() const { return m_confirm; }

Q_SIGNALS:
    /// The user confirmed "Clear history".
    /// `usage`: the usage ledger goes too (the confirmation's check box).
    void clearRequested(bool usage);

private:
    void confirmClear();

    QRadioButton *m_keepAll;
    QRadioButton *m_deleteOld;
    QSpinBox *m_days;
    QPushButton *m_clear;
    QLabel *m_note;
    QPointer<QMessageBox> m_confirm;
};

} // namespace capwatch::ui
