#pragma once

// Test functions whose check is a wall-clock figure (how late a timer fires after its time) run
// alone under CTest: capwatch_add_test(... TIMING_FUNCTIONS f...) in tests/CMakeLists.txt
// registers them as an entry of their own, `<test>_timing`, which is RUN_SERIAL, and the entry
// that runs the rest of the executable beside other tests sets CAPWATCH_TIMING_ELSEWHERE. Run
// by hand (no such variable), the executable runs them all.

#include <QTest>
#include <QtGlobal>

/// At the top of such a test function: skipped, with the reason, where it runs in its own entry.
#define CAPWATCH_TIMING_RUNS_ALONE()                                                               \
    do {                                                                                           \
        if (qEnvironmentVariableIsSet("CAPWATCH_TIMING_ELSEWHERE"))                                \
            QSKIP("a wall-clock figure: CTest runs it alone, in the entry <test>_timing");         \
    } while (false)
