#pragma once

#include <QObject>

class QSocketNotifier;

namespace capwatch::cli {

/// Turns SIGINT/SIGTERM into a Qt signal on the event loop (the self-pipe trick), so Ctrl+C
/// cancels a send cleanly instead of killing the process mid-write.
class SignalWatcher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SignalWatcher)

public:
    explicit SignalWatcher(QObject *parent = nullptr);
    ~SignalWatcher() override;

Q_SIGNALS:
    void interrupted(int signal);

private:
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace capwatch::cli
