#include "ui/profiles/plainhttpwarning.h"

#include "net/chatrequest.h"

#include <QMessageBox>
#include <QPushButton>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

QMessageBox *PlainHttpWarning::ask(
    QWidget *parent, const QUrl &target, const std::function<void()> &sendAnyway)
{
    auto *box = new QMessageBox(parent);
    box->setObjectName(u"plainHttpWarning"_s);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    box->setIcon(QMessageBox::Warning);
    box->setTextFormat(Qt::PlainText);
    box->setWindowTitle(tr("Send the key unencrypted?"));
    box->setText(tr("%1 uses plain HTTP. Your API key would travel unencrypted, readable by anyone "
                    "on the way to %2.")
                     .arg(net::displayEndpoint(target), target.host()));
    box->setInformativeText(tr("Use an https:// endpoint to keep the key private."));
    QPushButton *send = box->addButton(tr("Send &anyway"), QMessageBox::AcceptRole);
    send->setObjectName(u"sendAnyway"_s);
    QPushButton *cancel = box->addButton(tr("Cancel"), QMessageBox::RejectRole);
    cancel->setObjectName(u"cancel"_s);
    box->setDefaultButton(cancel);
    box->setEscapeButton(cancel);
    QObject::connect(box, &QMessageBox::finished, box, [box, send, sendAnyway] {
        if (box->clickedButton() == send)
            sendAnyway(); // Cancel, Esc or closed: nothing is sent
    });
    box->open();
    return box;
}

} // namespace capwatch::ui
