# Writes INPUT (a JSON file of resources/, already checked) into OUTPUT as a C++ function
# `std::string_view FUNCTION()` in capwatch::retry, declared in HEADER, returning its text as a raw
# string delimited by TAG. Used for the built-in rules and the price table.
file(READ "${INPUT}" text)
string(FIND "${text}" ")${TAG}\"" clash)
if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${INPUT} holds the raw-string delimiter )${TAG}\"")
endif()
get_filename_component(name "${INPUT}" NAME)
set(content "// Generated from ${name} by embedjson.cmake. Do not edit.\n\n#include \"${HEADER}\"\n\n// A table may be longer than the 65,536 characters a string literal must be allowed to have;\n// GCC and Clang take any length.\n#pragma GCC diagnostic ignored \"-Woverlength-strings\"\n\nnamespace capwatch::retry {\n\nstd::string_view ${FUNCTION}()\n{\n    return R\"${TAG}(${text})${TAG}\";\n}\n\n} // namespace capwatch::retry\n")
file(WRITE "${OUTPUT}.tmp" "${content}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
