// Compiles nothing of its own: it hosts the precompiled headers the tests reuse
// (tests/CMakeLists.txt, capwatch_test_pch_core and capwatch_test_pch_widgets).
