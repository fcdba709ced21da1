#pragma once

// Reading one rules file (docs/rules.md): the built-in resources/rules/builtin.json or a user's
// rules.d/*.json. A file is taken whole or not at all: the first problem found is reported with
// its line, and nothing of the file is used.

#include "ruleset.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace capwatch::retry {

/// What is wrong with a rules file, and where: `FILE:LINE: what is wrong`.
struct RulesProblem
{
    std::string file;
    int line = 1;
    std::string what;
    std::string text() const { return file + ":" + std::to_string(line) + ": " + what; }
};

enum class RulesKind
{
    Builtin, ///< everything; origins read `builtin:too_large.phrase "..."`
    User, ///< additions only (phrases, codes, families, keywords, words, units); origins
          ///< `FILE:LINE`
};

struct ParsedRules
{
    std::optional<RuleSet> rules; ///< empty when the file has a problem
    RulesProblem problem;
};

/// Larger files are refused unread: a rules file is a few kilobytes.
inline constexpr std::size_t kMaxRulesFileBytes = 1024 * 1024;

/// Reads `text`, the content of the file `fileName` (as it is to be shown in messages and
/// origins, e.g. `rules.d/acme.json`). Any bytes are safe: invalid UTF-8, malformed JSON, a huge
/// or deeply nested file are problems, never a crash.
ParsedRules parseRules(std::string_view text, const std::string &fileName, RulesKind kind);

} // namespace capwatch::retry
