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

QProgressBar *newPanelBar(QWidget *parent)
{
    auto *b = new QProgressBar(parent);
    b->setTextVisible(false);
    b->setRange(0, 1000);
    setProgressValue(b, 0);
    b->setMaximumHeight(b->fontMetrics().height() * 3 / 4);
    return b;
}

} // namespace capwatch::ui
