#include "rulesparser.h"

#include "errortexts.h"
#include "jsonscan.h"
#include "textscan.h"

#include <algorithm>
#include <charconv>
#include <memory>
#include <utility>
#include <vector>

namespace capwatch::retry {

namespace {

constexpr std::size_t kMaxDepth = 16;
constexpr std::size_t kMaxTextBytes = 200;
constexpr std::size_t kMaxKeys = 64; ///< a rules file's objects have a handful of keys

/// A JSON value with the line it starts on: what the checks below need to name a line.
struct Member;

struct Node
{
    enum class Kind
    {
        Null,
        Bool,
        Number,
        String,
        Array,
        Object
    };
    Kind kind = Kind::Null;
    int line = 1;
    bool boolean = false;
    double number = 0;
    bool integral = false;
    std::string string;
    std::vector<Member> members; ///< in file order
    std::vector<Node> items;
};

/// An object's member. Not a std::pair: a pair of an incomplete Node inside Node's own
/// definition does not compile with clang's standard library checks (the fuzz build).
struct Member
{
    std::string key;
    Node value;
};

/// Builds Nodes from scanJson()'s events. Stops (and says why) at a duplicate key or past
/// kMaxDepth; the scan itself has no recursion, and neither has this.
class TreeBuilder final : public JsonHandler
{
public:
    TreeBuilder(std::string_view text, const std::vector<std::size_t> &lineStarts)
        : m_text(text)
        , m_lineStarts(lineStarts)
    { }

    std::optional<Node> root;
    std::string problem;
    int problemLine = 1;

    // Once something is wrong nothing more is built: the rest of a huge file costs no memory.
    void null() override
    {
        if (problem.empty())
            add(make(Node::Kind::Null));
    }
    void boolean(bool value) override
    {
        if (!problem.empty())
            return;
        Node n = make(Node::Kind::Bool);
        n.boolean = value;
        add(std::move(n));
    }
    void integer(std::string_view decimal) override
    {
        if (!problem.empty())
            return;
        Node n = make(Node::Kind::Number);
        n.integral = true;
        std::from_chars(decimal.data(), decimal.data() + decimal.size(), n.number);
        add(std::move(n));
    }
    void number() override
    {
        if (!problem.empty())
            return;
        Node n = make(Node::Kind::Number);
        // The literal starts at the token; from_chars stops at its end.
        const std::string_view rest = m_text.substr(tokenOffset());
        std::from_chars(rest.data(), rest.data() + rest.size(), n.number);
        add(std::move(n));
    }
    void string(std::string &value) override
    {
        if (!problem.empty())
            return;
        Node n = make(Node::Kind::String);
        n.string = std::move(value);
        add(std::move(n));
    }
    void key(std::string &name) override
    {
        if (!problem.empty())
            return;
        Node &object = m_stack.back();
        for (const auto &[k, v] : object.members) {
            if (problem.empty() && k == name) {
                problem = "the key \"" + name + "\" appears twice in one object";
                problemLine = lineAt(tokenOffset());
            }
        }
        if (object.members.size() >= kMaxKeys && problem.empty()) {
            problem = "more than " + std::to_string(kMaxKeys) + " keys in one object";
            problemLine = lineAt(tokenOffset());
        }
        m_key = std::move(name);
    }
    void startObject() override
    {
        if (problem.empty())
            open(Node::Kind::Object);
    }
    void startArray() override
    {
        if (problem.empty())
            open(Node::Kind::Array);
    }
    void endObject() override
    {
        if (problem.empty())
            close();
    }
    void endArray() override
    {
        if (problem.empty())
            close();
    }

    int lineAt(std::size_t offset) const
    {
        const auto it = std::upper_bound(m_lineStarts.begin(), m_lineStarts.end(), offset);
        return int(it - m_lineStarts.begin());
    }

private:
    Node make(Node::Kind kind) const
    {
        Node n;
        n.kind = kind;
        n.line = lineAt(tokenOffset());
        return n;
    }

    void open(Node::Kind kind)
    {
        if (m_stack.size() >= kMaxDepth) {
            problem = "nested more than " + std::to_string(kMaxDepth) + " levels deep";
            problemLine = lineAt(tokenOffset());
            return;
        }
        Node n = make(kind);
        m_keys.push_back(std::move(m_key));
        m_stack.push_back(std::move(n));
    }

    void close()
    {
        Node n = std::move(m_stack.back());
        m_stack.pop_back();
        m_key = std::move(m_keys.back());
        m_keys.pop_back();
        add(std::move(n));
    }

    void add(Node n)
    {
        if (m_stack.empty()) {
            root = std::move(n);
            return;
        }
        Node &parent = m_stack.back();
        if (parent.kind == Node::Kind::Object)
            parent.members.push_back({ std::move(m_key), std::move(n) });
        else
            parent.items.push_back(std::move(n));
        m_key.clear();
    }

    std::string_view m_text;
    const std::vector<std::size_t> &m_lineStarts;
    std::vector<Node> m_stack;
    std::vector<std::string> m_keys;
    std::string m_key;
};

struct Problem
{
    int line;
    std::string what;
};

/// Reads the checked tree into a RuleSet; throws Problem at the first thing wrong (caught in
/// parseRules(): a file is taken whole or not at all).
class Reader
{
public:
    Reader(const std::string &fileName, RulesKind kind)
        : m_file(fileName)
        , m_kind(kind)
    { }

    RuleSet read(const Node &root)
    {
        expect(root, Node::Kind::Object, "the file");
        const Node *format = nullptr;
        for (const auto &[key, value] : root.members) {
            if (key == "format") {
                format = &value;
            } else if (key == "description") {
                expect(value, Node::Kind::String, "\"description\"");
            } else if (key == "endpoint" && m_kind == RulesKind::User) {
                expect(value, Node::Kind::String, "\"endpoint\"");
                m_fileEndpoint = endpointOf(value);
            } else if (key != "categories" && key != "words" && key != "units"
                && !(m_kind == RulesKind::Builtin && (key == "headers" || key == "numbers"))) {
                unknownKey(key, value, "the file");
            }
        }
        if (!format)
            fail(root.line, "\"format\": 1 is missing");
        if (format->kind != Node::Kind::Number || format->number != 1)
            fail(format->line, "\"format\" must be 1 (the only format there is)");
        for (const auto &[key, value] : root.members) {
            if (key == "categories")
                readCategories(value);
            else if (key == "words")
                readWords(value);
            else if (key == "units")
                readUnits(value);
            else if (key == "headers")
                readHeaders(value);
            else if (key == "numbers")
                readNumbers(value);
        }
        if (m_kind == RulesKind::Builtin) {
            if (m_set.retryAfterHeader.empty() || m_set.retryAfterMsHeader.empty()
                || m_set.rateLimitResetHeaders.empty() || m_set.contentTypeHeader.empty()
                || m_set.eventStreamType.empty())
                fail(root.line, "the built-in rules need every header name");
            if (m_set.tooLargeMinFigure <= 0 || m_set.embeddedOverloadedStatus == 0
                || m_set.embeddedDefaultStatus == 0)
                fail(root.line, "the built-in rules need every number");
        }
        return std::move(m_set);
    }

private:
    [[noreturn]] void fail(int line, std::string what) { throw Problem { line, std::move(what) }; }

    static const char *kindName(Node::Kind k)
    {
        switch (k) {
        case Node::Kind::Null:
            return "null";
        case Node::Kind::Bool:
            return "true or false";
        case Node::Kind::Number:
            return "a number";
        case Node::Kind::String:
            return "a string";
        case Node::Kind::Array:
            return "a list";
        case Node::Kind::Object:
            return "an object";
        }
        return "a value";
    }

    void expect(const Node &n, Node::Kind kind, const std::string &what)
    {
        if (n.kind != kind)
            fail(n.line, what + " must be " + kindName(kind) + ", not " + kindName(n.kind));
    }

    [[noreturn]] void unknownKey(const std::string &key, const Node &value, const std::string &in)
    {
        if (m_kind == RulesKind::User
            && (key == "statuses" || key == "headers" || key == "numbers"))
            fail(value.line,
                "\"" + key
                    + "\" cannot be changed by a user file (only additions: phrases, "
                      "codes, families, keywords, words, units)");
        fail(value.line, "unknown key \"" + key + "\" in " + in);
    }

    std::string endpointOf(const Node &n)
    {
        if (n.string.empty() || n.string.size() > 2048)
            fail(n.line, "\"endpoint\" must be a URL such as https://api.example.com/v1");
        std::string e = asciiLower(n.string);
        while (!e.empty() && e.back() == '/')
            e.pop_back();
        return e;
    }

    std::string origin(int line, const std::string &builtinName) const
    {
        if (m_kind == RulesKind::Builtin)
            return "builtin:" + builtinName;
        return m_file + ":" + std::to_string(line);
    }

    /// A text of a list: a string, or {"text": ..., "endpoint": ..., "boundary": ...}.
    /// `inTable`: it is looked for in the one-pass phrase scan, which needs two bytes.
    RuleText text(const Node &n, const std::string &list, bool inTable, bool mayScope,
        bool mayHaveBoundary, bool lowerAll)
    {
        RuleText t;
        const Node *value = &n;
        if (n.kind == Node::Kind::Object) {
            value = nullptr;
            for (const auto &[key, v] : n.members) {
                if (key == "text") {
                    value = &v;
                } else if (key == "endpoint" && mayScope) {
                    expect(v, Node::Kind::String, "\"endpoint\"");
                    t.endpoint = endpointOf(v);
                } else if (key == "boundary" && mayHaveBoundary) {
                    expect(v, Node::Kind::String, "\"boundary\"");
                    if (v.string == "none")
                        t.boundary = Boundary::None;
                    else if (v.string != "word")
                        fail(v.line, "\"boundary\" must be \"word\" or \"none\"");
                } else {
                    unknownKey(key, v, "an entry of \"" + list + "\"");
                }
            }
            if (!value)
                fail(n.line, "an entry of \"" + list + "\" needs \"text\"");
        }
        expect(*value, Node::Kind::String, "an entry of \"" + list + "\"");
        const std::string &s = value->string;
        if (s.empty())
            fail(value->line, "an entry of \"" + list + "\" is empty");
        if (s.size() > kMaxTextBytes)
            fail(value->line,
                "an entry of \"" + list + "\" is longer than " + std::to_string(kMaxTextBytes)
                    + " bytes");
        if (inTable && s.size() < 2)
            fail(value->line, "an entry of \"" + list + "\" needs at least two bytes");
        if (inTable && std::all_of(s.begin(), s.end(), [](char c) { return c == ' '; }))
            fail(value->line, "an entry of \"" + list + "\" is only spaces");
        t.text = lowerAll ? lowerCase(s) : asciiLower(s);
        if (t.endpoint.empty() && mayScope)
            t.endpoint = m_fileEndpoint;
        return t;
    }

    std::vector<int> statusList(const Node &n, const std::string &what)
    {
        expect(n, Node::Kind::Array, what);
        std::vector<int> out;
        for (const Node &s : n.items) {
            if (s.kind != Node::Kind::Number || !s.integral || s.number < 100 || s.number > 599)
                fail(s.line, what + " must hold HTTP statuses from 100 to 599");
            out.push_back(int(s.number));
        }
        return out;
    }

    void readCategories(const Node &n)
    {
        expect(n, Node::Kind::Object, "\"categories\"");
        for (const auto &[key, value] : n.members) {
            std::optional<RuleCategory> category;
            for (std::size_t c = 0; c < kRuleCategoryCount; ++c) {
                if (key == nameOf(RuleCategory(c)))
                    category = RuleCategory(c);
            }
            if (!category)
                fail(value.line,
                    "unknown category \"" + key
                        + "\" (too_large, billing, auth, token_limit, rate_limit, transient)");
            readCategory(*category, value);
        }
    }

    void readCategory(RuleCategory category, const Node &n)
    {
        const std::string name = nameOf(category);
        expect(n, Node::Kind::Object, "\"" + name + "\"");
        CategoryRules &out = m_set.category(category);
        for (const auto &[key, value] : n.members) {
            if (key == "statuses" && m_kind == RulesKind::Builtin) {
                const std::vector<int> statuses = statusList(value, "\"statuses\"");
                for (std::size_t i = 0; i < statuses.size(); ++i)
                    out.statuses.push_back({ statuses[i],
                        origin(value.items[i].line,
                            name + ".status " + std::to_string(statuses[i])) });
            } else if (key == "codes" || key == "phrases"
                || (key == "keywords" && category == RuleCategory::TokenLimit)) {
                expect(value, Node::Kind::Array, "\"" + key + "\"");
                const bool codes = key == "codes";
                const bool keywords = key == "keywords";
                for (const Node &item : value.items) {
                    RuleText t = text(item, key, !codes, !keywords, false, !codes);
                    t.origin = origin(item.line,
                        name + "." + key.substr(0, key.size() - 1) + " \"" + t.text + "\"");
                    (codes             ? out.codes
                            : keywords ? out.keywords
                                       : out.phrases)
                        .push_back(std::move(t));
                }
            } else if (key == "families" && category != RuleCategory::TokenLimit) {
                expect(value, Node::Kind::Array, "\"families\"");
                for (const Node &item : value.items)
                    out.families.push_back(family(item, name));
            } else {
                unknownKey(key, value, "\"" + name + "\"");
            }
        }
    }

    RuleFamily family(const Node &n, const std::string &category)
    {
        expect(n, Node::Kind::Object, "a family");
        RuleFamily f;
        f.endpoint = m_fileEndpoint;
        bool hasWords = false;
        for (const auto &[key, value] : n.members) {
            if (key == "name") {
                expect(value, Node::Kind::String, "\"name\"");
                f.name = value.string;
            } else if (key == "words") {
                expect(value, Node::Kind::Array, "\"words\" of a family");
                if (value.items.empty())
                    fail(value.line, "\"words\" of a family needs at least one list of words");
                for (const Node &group : value.items) {
                    expect(group, Node::Kind::Array, "each list of \"words\" of a family");
                    if (group.items.empty())
                        fail(group.line, "a list of \"words\" of a family is empty");
                    std::vector<std::string> words;
                    for (const Node &w : group.items)
                        words.push_back(text(w, "words", true, false, false, true).text);
                    f.groups.push_back(std::move(words));
                }
                hasWords = true;
            } else if (key == "statuses") {
                f.statuses = statusList(value, "\"statuses\" of a family");
            } else if (key == "not_statuses") {
                f.notStatuses = statusList(value, "\"not_statuses\" of a family");
            } else if (key == "endpoint") {
                expect(value, Node::Kind::String, "\"endpoint\"");
                f.endpoint = endpointOf(value);
            } else {
                unknownKey(key, value, "a family");
            }
        }
        if (!hasWords)
            fail(n.line, "a family needs \"words\"");
        if (f.name.empty())
            f.name = "family";
        f.origin = origin(n.line, category + ".family " + f.name);
        return f;
    }

    void readWords(const Node &n)
    {
        expect(n, Node::Kind::Object, "\"words\"");
        for (const auto &[key, value] : n.members) {
            std::optional<WordList> list;
            for (std::size_t w = 0; w < kWordListCount; ++w) {
                if (key == nameOf(WordList(w)))
                    list = WordList(w);
            }
            if (!list)
                fail(value.line, "unknown word list \"" + key + "\"");
            expect(value, Node::Kind::Array, "\"" + key + "\"");
            const bool separators = *list == WordList::FigureSeparators
                || *list == WordList::SlashSeparators || *list == WordList::RequestedSeparators
                || *list == WordList::LimitTails;
            const bool inTable = !separators && *list != WordList::RetryIn
                && *list != WordList::RetryAfter && *list != WordList::CompactLeads
                && *list != WordList::Context && *list != WordList::RateWindow
                && *list != WordList::Excess && *list != WordList::UsedMembers
                && *list != WordList::LimitMembers;
            for (const Node &item : value.items) {
                const bool members
                    = *list == WordList::UsedMembers || *list == WordList::LimitMembers;
                RuleText t = text(item, key, inTable, false,
                    *list == WordList::Used || *list == WordList::Limit, !separators && !members);
                t.origin = origin(item.line, std::string("words.") + key + " \"" + t.text + "\"");
                m_set.wordList(*list).push_back(std::move(t));
            }
        }
    }

    void readUnits(const Node &n)
    {
        expect(n, Node::Kind::Object, "\"units\"");
        for (const auto &[key, value] : n.members) {
            std::optional<UnitList> list;
            for (std::size_t u = 0; u < kUnitListCount; ++u) {
                if (key == nameOf(UnitList(u)))
                    list = UnitList(u);
            }
            if (!list)
                fail(value.line, "unknown unit list \"" + key + "\"");
            expect(value, Node::Kind::Array, "\"" + key + "\"");
            for (const Node &item : value.items) {
                expect(item, Node::Kind::Object, "a unit");
                RuleUnit u;
                bool hasSeconds = false;
                for (const auto &[k, v] : item.members) {
                    if (k == "word") {
                        expect(v, Node::Kind::String, "\"word\"");
                        if (v.string.empty() || v.string.size() > 32)
                            fail(v.line, "a unit's \"word\" must have 1 to 32 bytes");
                        u.word = lowerCase(v.string);
                    } else if (k == "seconds") {
                        if (v.kind != Node::Kind::Number || !(v.number > 0)
                            || v.number > 31'536'000)
                            fail(v.line, "\"seconds\" must be a number above 0 and at most a year");
                        u.seconds = v.number;
                        hasSeconds = true;
                    } else {
                        unknownKey(k, v, "a unit");
                    }
                }
                if (u.word.empty() || !hasSeconds)
                    fail(item.line, "a unit needs \"word\" and \"seconds\"");
                u.origin = origin(item.line, std::string("units.") + key + " \"" + u.word + "\"");
                m_set.unitList(*list).push_back(std::move(u));
            }
        }
    }

    std::string headerName(const Node &n)
    {
        expect(n, Node::Kind::String, "a header name");
        if (n.string.empty())
            fail(n.line, "a header name is empty");
        return asciiLower(n.string);
    }

    void readHeaders(const Node &n)
    {
        expect(n, Node::Kind::Object, "\"headers\"");
        for (const auto &[key, value] : n.members) {
            if (key == "retry_after")
                m_set.retryAfterHeader = headerName(value);
            else if (key == "retry_after_ms")
                m_set.retryAfterMsHeader = headerName(value);
            else if (key == "content_type")
                m_set.contentTypeHeader = headerName(value);
            else if (key == "event_stream")
                m_set.eventStreamType = headerName(value);
            else if (key == "ratelimit_reset") {
                expect(value, Node::Kind::Array, "\"ratelimit_reset\"");
                for (const Node &h : value.items)
                    m_set.rateLimitResetHeaders.push_back(headerName(h));
            } else {
                unknownKey(key, value, "\"headers\"");
            }
        }
    }

    void readNumbers(const Node &n)
    {
        expect(n, Node::Kind::Object, "\"numbers\"");
        for (const auto &[key, value] : n.members) {
            expect(value, Node::Kind::Number, "\"" + key + "\"");
            if (key == "too_large_min_figure")
                m_set.tooLargeMinFigure = value.number;
            else if (key == "embedded_overloaded_status")
                m_set.embeddedOverloadedStatus = int(value.number);
            else if (key == "embedded_default_status")
                m_set.embeddedDefaultStatus = int(value.number);
            else
                unknownKey(key, value, "\"numbers\"");
        }
    }

    const std::string &m_file;
    RulesKind m_kind;
    RuleSet m_set;
    std::string m_fileEndpoint;
};

std::vector<std::size_t> lineStartsOf(std::string_view text)
{
    std::vector<std::size_t> starts { 0 };
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n')
            starts.push_back(i + 1);
    }
    return starts;
}

/// The offset of the first byte that is not valid UTF-8.
std::size_t firstInvalidUtf8(std::string_view text)
{
    // One sequence at a time, its length taken from its first byte.
    std::size_t i = 0;
    while (i < text.size()) {
        std::size_t len = 1;
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0xF0)
            len = 4;
        else if (c >= 0xE0)
            len = 3;
        else if (c >= 0xC0)
            len = 2;
        if (!isValidUtf8(text.substr(i, len)))
            return i;
        i += len;
    }
    return text.size();
}

} // namespace

ParsedRules parseRules(std::string_view text, const std::string &fileName, RulesKind kind)
{
    ParsedRules out;
    out.problem.file = fileName;
    if (text.size() > kMaxRulesFileBytes) {
        out.problem.what = "the file is larger than 1 MiB; a rules file is a few kilobytes";
        return out;
    }
    const std::vector<std::size_t> lineStarts = lineStartsOf(text);
    TreeBuilder tree(text, lineStarts);
    if (!isValidUtf8(text)) {
        out.problem.line = tree.lineAt(firstInvalidUtf8(text));
        out.problem.what = "not valid UTF-8";
        return out;
    }
    std::size_t stop = 0;
    const bool parsed = scanJson(text, tree, &stop);
    if (!tree.problem.empty()) {
        out.problem.line = tree.problemLine;
        out.problem.what = tree.problem;
        return out;
    }
    if (!parsed || !tree.root) {
        out.problem.line = tree.lineAt(stop);
        out.problem.what = stop >= text.size() ? "not valid JSON: the text ends too early"
                                               : "not valid JSON here";
        return out;
    }
    try {
        out.rules = Reader(fileName, kind).read(*tree.root);
    } catch (const Problem &p) {
        out.problem.line = p.line;
        out.problem.what = p.what;
    }
    return out;
}

} // namespace capwatch::retry
