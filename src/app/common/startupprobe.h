#pragma once

// Startup measurement (tests/bench/startup-bench.sh): with CAPWATCH_STARTUP_PROBE set in the
// environment, the process prints its resident set and the shared objects it has loaded, and
// exits at once, when `window` has painted for the first time, so that an outside timer
// (hyperfine) measures exec to a visible window, and tst_startup sees what loaded before it.
// Without the variable it does nothing. Shared by capwatch and the bare-window baseline.

class QWidget;

namespace capwatch::app {

void armStartupProbe(QWidget *window);

} // namespace capwatch::app
