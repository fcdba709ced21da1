#pragma once

class QProgressBar;
class QWidget;

namespace capwatch::ui {

/// Sets a progress bar's value with the repaint queued, as every other widget change is.
/// QProgressBar::setValue() repaints at once when the bar looks different, and a repaint is a
/// paint of everything dirty in the window and its flush to the screen, inside the caller: the
/// retry panel, which sets several bars as a send ends, held the window 5-8 ms that way.
void setProgressValue(QProgressBar *bar, int value);

/// A bar as the retry panel shows its figures: no text, 0..1000, three quarters of a line high.
QProgressBar *newPanelBar(QWidget *parent);

} // namespace capwatch::ui
