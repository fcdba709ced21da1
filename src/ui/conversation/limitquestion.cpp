#include "ui/conversation/limitquestion.h"

#include "session/sendtexts.h"

#include <QMessageBox>
#include <QPushButton>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

QString LimitQuestion::title(const session::LimitHold &hold)
{
    return hold.spending ? tr("Over your spending limit?") : tr("Over the provider's daily limit?");
}

QString LimitQuestion::text(const session::LimitHold &hold)
{
    const QString line = session::SendTexts::limitHold(hold);
    return hold.spending ? tr("This send may cross a spending limit of the profile %1. %2.")
                               .arg(hold.profileName, line)
                         : tr("%1 declares a daily limit for its provider, and it is reached. %2.")
                               .arg(hold.profileName, line);
}

QMessageBox *LimitQuestion::ask(QWidget *parent, const session::LimitHold &hold, bool canPark,
    const std::function<void(Answer)> &answered)
{
    auto *box = new QMessageBox(parent);
    box->setObjectName(u"limitQuestion"_s);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    box->setIcon(QMessageBox::Question);
    box->setTextFormat(Qt::PlainText);
    box->setWindowTitle(title(hold));
    box->setText(text(hold));
    const QString resets = session::SendTexts::limitResets(hold);
    box->setInformativeText(
        tr("The limit resets at %1. Limits are set in Settings → Providers.").arg(resets));
    QPushButton *anyway = box->addButton(tr("Send &anyway"), QMessageBox::AcceptRole);
    anyway->setObjectName(u"sendAnyway"_s);
    QPushButton *atReset = nullptr;
    if (canPark) {
        atReset = box->addButton(
            tr("Send when the limit &resets at %1").arg(resets), QMessageBox::ActionRole);
        atReset->setObjectName(u"sendAtReset"_s);
    }
    QPushButton *cancel = box->addButton(tr("Cancel"), QMessageBox::RejectRole);
    cancel->setObjectName(u"cancel"_s);
    box->setDefaultButton(atReset ? atReset : cancel);
    box->setEscapeButton(cancel);
    QObject::connect(box, &QMessageBox::finished, box, [box, anyway, atReset, answered] {
        const QAbstractButton *clicked = box->clickedButton();
        answered(clicked == anyway              ? Answer::SendAnyway
                : atReset && clicked == atReset ? Answer::SendAtReset
                                                : Answer::Cancel);
    });
    box->open();
    return box;
}

} // namespace capwatch::ui
