#pragma once

// A desktop notification (a parked send went out, or ended, while the window is in the
// background): QSystemTrayIcon::showMessage where the desktop has a system tray, nothing where it
// has none. Every notify() is also reported by notified(), so tests (offscreen: no tray) see what
// would have been shown.

#include <QObject>
#include <QString>
#include <QTimer>

class QSystemTrayIcon;

namespace capwatch::ui {

class DesktopNotifier final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DesktopNotifier)

public:
    explicit DesktopNotifier(QObject *parent = nullptr);
    ~DesktopNotifier() override;

    /// Shows `title` and `text` as a message of the tray icon (made at the first message, with
    /// the application's window icon). Does nothing, quietly, without a system tray or while
    /// disabled. Emits notified() either way. True when a message was handed to the tray.
    bool notify(const QString &title, const QString &text);

    /// False: notify() only reports, never touches the system tray (tests on a desktop, where
    /// a real message would pop up). Enabled by default.
    void setEnabled(bool enabled) { m_enabled = enabled; }
    bool isEnabled() const { return m_enabled; }
    /// Messages handed to the tray so far (not counting those only reported).
    int shownCount() const { return m_shown; }
    /// The tray icon: null before the first message shown and without a tray; hidden between
    /// messages.
    QSystemTrayIcon *trayIcon() const { return m_tray; }

    /// How long a message stays (and with it the tray icon), in ms.
    static constexpr int kMessageMs = 10'000;

Q_SIGNALS:
    /// Every notify(): what was shown, or would have been with a tray and enabled.
    void notified(const QString &title, const QString &text);
    /// The user clicked a message: the window may raise itself.
    void messageClicked();

private:
    void hideIcon();

    QSystemTrayIcon *m_tray = nullptr;
    /// capwatch is a window, not a tray application: the icon is there only while a message
    /// shows (showMessage() needs a visible icon), then hidden again, so it never suggests that
    /// closing the window leaves capwatch running.
    QTimer m_hide;
    bool m_enabled = true;
    int m_shown = 0;
};

} // namespace capwatch::ui
