#include "ui/panel/progressvalue.h"

#include <QProgressBar>

namespace capwatch::ui {

void setProgressValue(QProgressBar *bar, int value)
{
    if (bar->value() == value)
        return;
    // repaint() does nothing while updates are off; turning them on again queues an update().
    const bool enabled = bar->updatesEnabled();
    if (enabled)
        bar->setUpdatesEnabled(false);
    bar->setValue(value);
    if (enabled)
        bar->setUpdatesEnabled(true);
}

} // namespace capwatch::ui
