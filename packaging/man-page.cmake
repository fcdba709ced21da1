# Writes a program's man page: runs `PROGRAM --man-page` into OUTPUT, and gzips it to OUTPUT.gz
# when GZIP names gzip. Usage: cmake -DPROGRAM=... -DOUTPUT=... [-DGZIP=...] -P man-page.cmake
foreach(var PROGRAM OUTPUT)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "man-page.cmake: ${var} is not set")
    endif()
endforeach()

# No display needed, and none used: the programs print the page from a QCoreApplication.
set(ENV{QT_QPA_PLATFORM} offscreen)
# A sanitizer build must not fail the build over what a leak checker says at exit.
if(DEFINED ENV{ASAN_OPTIONS})
    set(ENV{ASAN_OPTIONS} "$ENV{ASAN_OPTIONS}:detect_leaks=0")
else()
    set(ENV{ASAN_OPTIONS} "detect_leaks=0")
endif()

execute_process(COMMAND "${PROGRAM}" --man-page
                OUTPUT_FILE "${OUTPUT}.tmp"
                ERROR_VARIABLE errors
                RESULT_VARIABLE result)
file(READ "${OUTPUT}.tmp" page LIMIT 4096)
if(NOT result EQUAL 0 OR NOT page MATCHES "\n\\.TH ")
    file(REMOVE "${OUTPUT}.tmp")
    message(FATAL_ERROR "'${PROGRAM} --man-page' did not print a man page (exit ${result}):\n${errors}")
endif()
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")

if(GZIP)
    # -n: no name or time stamp inside, so the package is reproducible.
    execute_process(COMMAND "${GZIP}" -9 -n -c "${OUTPUT}"
                    OUTPUT_FILE "${OUTPUT}.gz"
                    RESULT_VARIABLE result)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "gzip failed on ${OUTPUT}")
    endif()
endif()
