#pragma once

// The line above the conversation on what it cost so far, as the usage ledger counts it:
// "This conversation: $0.0123 estimated · 3,456 tokens". Hidden until it has an attempt; an
// unknown price shows tokens only. Fed by ConversationPresenter::totalChanged().

#include "history/historytypes.h"

#include <QLabel>

class QTimer;

namespace capwatch::ui {

class ConversationTotal final : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConversationTotal)

public:
    explicit ConversationTotal(QWidget *parent = nullptr);
    void setTotal(const history::CostTotal &total);
    const history::CostTotal &total() const { return m_total; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void render();
    history::CostTotal m_total;
    QTimer *m_render; ///< the next turn after setTotal()
};

} // namespace capwatch::ui
