#pragma once

// The Queue tab (docs/parking.md): the parked sends of every conversation as a table, with Open,
// Send now and Cancel for the selected one (also from its context menu; Enter or a double click
// opens its conversation), and a sentence in place of the table while nothing is parked.

#include <QUuid>
#include <QWidget>

class QAction;
class QLabel;
class QPushButton;
class QTableView;

namespace capwatch::ui {

class ParkedQueueModel;

class ParkedQueueView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ParkedQueueView)

public:
    explicit ParkedQueueView(ParkedQueueModel *model, QWidget *parent = nullptr);

    QTableView *table() const { return m_table; }
    QLabel *emptyLabel() const { return m_empty; }
    QPushButton *openButton() const { return m_open; }
    QPushButton *sendNowButton() const { return m_sendNow; }
    QPushButton *cancelButton() const { return m_cancel; }
    /// The selected parked send; null when none is.
    QUuid selectedSend() const;
    /// Selects the row of parked send `id`, if it is listed.
    void selectSend(const QUuid &id);

Q_SIGNALS:
    void openRequested(const QUuid &conversation);
    void sendNowRequested(const QUuid &id);
    void cancelRequested(const QUuid &id);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    void updateState();
    QModelIndex selectedRow() const;

    ParkedQueueModel *m_model;
    QLabel *m_empty;
    QTableView *m_table;
    QPushButton *m_open;
    QPushButton *m_sendNow;
    QPushButton *m_cancel;
    QAction *m_openAction;
    QAction *m_sendNowAction;
    QAction *m_cancelAction;
};

} // namespace capwatch::ui
