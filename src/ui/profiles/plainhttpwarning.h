#pragma once

// The question before a key would travel unencrypted: plain HTTP to a host that is not loopback.

#include <QCoreApplication>
#include <QUrl>
#include <functional>

class QMessageBox;
class QWidget;

namespace capwatch::ui {

class PlainHttpWarning final
{
    Q_DECLARE_TR_FUNCTIONS(capwatch::ui::PlainHttpWarning)

public:
    /// Opens (window-modal, never exec()'d) the question whether to send the key to `target`
    /// over plain HTTP; `sendAnyway` runs only if the user says so. Deleted when closed.
    static QMessageBox *ask(
        QWidget *parent, const QUrl &target, const std::function<void()> &sendAnyway);
};

} // namespace capwatch::ui
