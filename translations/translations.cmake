# Translations of both programs. Included from src/app/CMakeLists.txt, where the targets live.
# The .ts files are kept in the repository; `cmake --build <dir> --target update_translations`
# refreshes them from the sources (lupdate), every build compiles them (lrelease) into :/i18n.
find_package(Qt6 6.4 REQUIRED COMPONENTS LinguistTools)

set(CAPWATCH_TS_FILES
    "${PROJECT_SOURCE_DIR}/translations/capwatch_de.ts"
    "${PROJECT_SOURCE_DIR}/translations/capwatch_zh_CN.ts")
file(GLOB_RECURSE _capwatch_tr_sources CONFIGURE_DEPENDS
    "${PROJECT_SOURCE_DIR}/src/ui/*.cpp" "${PROJECT_SOURCE_DIR}/src/ui/*.h"
    "${PROJECT_SOURCE_DIR}/src/app/*.cpp" "${PROJECT_SOURCE_DIR}/src/app/*.h"
    "${PROJECT_SOURCE_DIR}/src/session/*.cpp" "${PROJECT_SOURCE_DIR}/src/session/*.h")

qt_add_lupdate(capwatch
    TS_FILES ${CAPWATCH_TS_FILES}
    SOURCES ${_capwatch_tr_sources}
    OPTIONS -no-obsolete -locations none)
qt_add_lrelease(capwatch
    TS_FILES ${CAPWATCH_TS_FILES}
    QM_FILES_OUTPUT_VARIABLE _capwatch_qm_files)
qt_add_resources(capwatch "capwatch_translations"
    PREFIX "/i18n" BASE "${CMAKE_CURRENT_BINARY_DIR}" FILES ${_capwatch_qm_files})
# The CLI's --help is translated too; it shares the compiled catalogues.
add_dependencies(capwatch-cli capwatch_lrelease)
qt_add_resources(capwatch-cli "capwatch_cli_translations"
    PREFIX "/i18n" BASE "${CMAKE_CURRENT_BINARY_DIR}" FILES ${_capwatch_qm_files})
