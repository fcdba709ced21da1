#pragma once

// The question before a send that would cross a spending limit of the profile, or a daily
// limit it declares for its provider: "Send anyway / Send when the limit resets at 00:00 /
// Cancel". Window-modal, never exec()'d: the window keeps running (a parked send may go out
// meanwhile) while it is open.

#include "session/sessiontypes.h"

#include <QCoreApplication>
#include <functional>

class QMessageBox;
class QWidget;

namespace capwatch::ui {

class LimitQuestion final
{
    Q_DECLARE_TR_FUNCTIONS(capwatch::ui::LimitQuestion)

public:
    enum class Answer
    {
        SendAnyway,
        SendAtReset, ///< parked until the limit resets
        Cancel,
    };
    /// Opens the question about `hold`; `answered` runs once with the answer (Cancel when closed
    /// or Esc). `canPark`: offer "Send when the limit resets" (a new prompt; not a Retry or a
    /// Continue, which have nothing to park). Deleted when closed.
    static QMessageBox *ask(QWidget *parent, const session::LimitHold &hold, bool canPark,
        const std::function<void(Answer)> &answered);
    /// The box's title and main text for `hold` (also the Refuse message's text).
    static QString title(const session::LimitHold &hold);
    static QString text(const session::LimitHold &hold);
};

} // namespace capwatch::ui
