#include "ui/window/desktopnotifier.h"

#include <QApplication>
#include <QIcon>
#include <QStyle>
#include <QSystemTrayIcon>

namespace capwatch::ui {

DesktopNotifier::DesktopNotifier(QObject *parent)
    : QObject(parent)
{
    m_hide.setSingleShot(true);
    // A little past the message's own time: hiding the icon takes the message with it on some
    // desktops.
    m_hide.setInterval(kMessageMs + 2000);
    connect(&m_hide, &QTimer::timeout, this, &DesktopNotifier::hideIcon);
}

DesktopNotifier::~DesktopNotifier() = default;

bool DesktopNotifier::notify(const QString &title, const QString &text)
{
    Q_EMIT notified(title, text);
    // Checked before anything is made: QSystemTrayIcon warns on every call without a tray.
    if (!m_enabled || !QSystemTrayIcon::isSystemTrayAvailable())
        return false;
    if (!m_tray) {
        QIcon icon = QApplication::windowIcon();
        if (icon.isNull()) // an icon-less tray entry warns and shows nothing
            icon = QApplication::style()->standardIcon(QStyle::SP_MessageBoxInformation);
        m_tray = new QSystemTrayIcon(icon, this);
        m_tray->setToolTip(QApplication::applicationDisplayName());
        connect(m_tray, &QSystemTrayIcon::messageClicked, this, [this] {
            hideIcon();
            Q_EMIT messageClicked();
        });
    }
    m_tray->show();
    m_tray->showMessage(title, text, QSystemTrayIcon::Information, kMessageMs);
    m_hide.start();
    ++m_shown;
    return true;
}

void DesktopNotifier::hideIcon()
{
    m_hide.stop();
    if (m_tray)
        m_tray->hide();
}

} // namespace capwatch::ui
