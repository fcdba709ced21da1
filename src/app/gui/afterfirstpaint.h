#pragma once

// What a window does not need for its first paint comes after it: the desktop client holds its
// history database and its demo server until its main window has painted once.

#include <functional>

class QWidget;

namespace capwatch::app {

/// Calls `then` once, on the turn of the event loop after `window`'s first paint (so the paint
/// is on screen first), or after `fallbackMs` if the window has not painted by then (it may
/// start hidden or minimized). Nothing if the window is gone first.
void afterFirstPaint(QWidget *window, std::function<void()> then, int fallbackMs = 1000);

} // namespace capwatch::app
