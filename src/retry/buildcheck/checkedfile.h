#pragma once

// The shared part of the build-time checkers (capwatch-rules-check, capwatch-prices-check): one
// argument, the file; its whole text read, or a line on stderr and the exit code to return.

#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

namespace capwatch::retry::buildcheck {

/// The text of the one file named on the command line; nullopt with `*exitCode` set (2: usage,
/// 1: unreadable) and a line on stderr otherwise.
inline std::optional<std::string> readCheckedFile(
    int argc, char *argv[], const char *usage, int *exitCode)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s\n", usage);
        *exitCode = 2;
        return std::nullopt;
    }
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "%s: cannot be read\n", argv[1]);
        *exitCode = 1;
        return std::nullopt;
    }
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

} // namespace capwatch::retry::buildcheck
