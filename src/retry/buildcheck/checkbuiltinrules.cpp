// capwatch-rules-check FILE: reads a built-in rules file as capwatch will, at build time. Prints
// `FILE:LINE: what is wrong` and exits 1 when it is malformed, so that the build stops there.

#include "checkedfile.h"
#include "retry/rules.h"
#include "retry/rulesparser.h"

#include <cstdio>
#include <string>

namespace capwatch::retry {

// This program checks the file that will become builtinRulesJson(): it has none yet.
std::string_view builtinRulesJson()
{
    return {};
}

} // namespace capwatch::retry

int main(int argc, char *argv[])
{
    using namespace capwatch::retry;
    int exitCode = 0;
    const std::optional<std::string> text = buildcheck::readCheckedFile(
        argc, argv, "capwatch-rules-check BUILTIN_RULES_JSON", &exitCode);
    if (!text)
        return exitCode;
    ParsedRules parsed = parseRules(*text, argv[1], RulesKind::Builtin);
    if (!parsed.rules) {
        std::fprintf(stderr, "%s\n", parsed.problem.text().c_str());
        return 1;
    }
    if (Rules::phraseCount(*parsed.rules) > kMaxPhrases) {
        std::fprintf(stderr, "%s:1: more than %zu phrases and words\n", argv[1], kMaxPhrases);
        return 1;
    }
    return 0;
}
