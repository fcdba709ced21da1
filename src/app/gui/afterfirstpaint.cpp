#include "afterfirstpaint.h"

#include <QEvent>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <QWidget>
#include <utility>

namespace capwatch::app {

namespace {

class FirstPaintWatch final : public QObject
{
public:
    FirstPaintWatch(QWidget *window, std::function<void()> then, int fallbackMs)
        : QObject(window)
        , m_then(std::move(then))
    {
        window->installEventFilter(this);
        QTimer::singleShot(fallbackMs, this, [this] { fire(); });
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        // Queued: the paint being delivered finishes, and is flushed, before `then` runs.
        if (event->type() == QEvent::Paint)
            QTimer::singleShot(0, this, [this] { fire(); });
        return QObject::eventFilter(watched, event);
    }

private:
    void fire()
    {
        if (!m_then)
            return;
        std::function<void()> then = std::exchange(m_then, {});
        parent()->removeEventFilter(this);
        deleteLater();
        then();
    }

    std::function<void()> m_then;
};

} // namespace

void afterFirstPaint(QWidget *window, std::function<void()> then, int fallbackMs)
{
    new FirstPaintWatch(window, std::move(then), fallbackMs);
}

} // namespace capwatch::app
