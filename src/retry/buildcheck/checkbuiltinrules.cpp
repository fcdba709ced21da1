// capwatch-rules-check FILE: reads a built-in rules file as capwatch will, at build time. Prints
// `FILE:LINE: what is wrong` and exits 1 when it is malformed, so that the build stops there.

#include "retry/rules.h"
#include "retry/rulesparser.h"

#include <cstdio>
#include <fstream>
#include <iterator>
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
    if (argc != 2) {
        std::fputs("usage: capwatch-rules-check BUILTIN_RULES_JSON\n", stderr);
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "%s: cannot be read\n", argv[1]);
        return 1;
    }
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ParsedRules parsed = parseRules(text, argv[1], RulesKind::Builtin);
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
