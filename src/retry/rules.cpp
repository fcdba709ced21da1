#include "rules.h"

#include "rulesparser.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <utility>

namespace capwatch::retry {

namespace {

template<typename T> void append(std::vector<T> &to, const std::vector<T> &from)
{
    to.insert(to.end(), from.begin(), from.end());
}

void addTo(RuleSet &to, const RuleSet &from)
{
    for (std::size_t c = 0; c < kRuleCategoryCount; ++c) {
        CategoryRules &t = to.categories[c];
        const CategoryRules &f = from.categories[c];
        append(t.statuses, f.statuses);
        append(t.codes, f.codes);
        append(t.phrases, f.phrases);
        append(t.families, f.families);
        append(t.keywords, f.keywords);
    }
    for (std::size_t w = 0; w < kWordListCount; ++w)
        append(to.words[w], from.words[w]);
    for (std::size_t u = 0; u < kUnitListCount; ++u)
        append(to.units[u], from.units[u]);
}

std::mutex &activeMutex()
{
    static std::mutex m;
    return m;
}

std::shared_ptr<const Rules> &activeSlot()
{
    static std::shared_ptr<const Rules> rules;
    return rules;
}

} // namespace

Rules::Rules(RuleSet set)
    : m_set(std::move(set))
{
    buildTable();
}

void Rules::buildTable()
{
    PhraseTable &t = m_table;
    std::vector<bool> wholeWords;
    const auto add = [&t, &wholeWords](std::string_view text, bool wholeWord) {
        // withAdditions() keeps the total within kMaxPhrases; text has two bytes or more
        // (rulesparser.cpp).
        if (t.phrases.size() >= kMaxPhrases || text.size() < 2)
            return std::uint16_t(0);
        t.phrases.push_back(text);
        wholeWords.push_back(wholeWord);
        return std::uint16_t(t.phrases.size() - 1);
    };
    const auto group = [&](PhraseGroup g, const std::vector<RuleText> &list) {
        t.groupBegin[std::size_t(g)] = t.phrases.size();
        for (const RuleText &r : list)
            add(r.text, false);
    };
    group(PhraseGroup::Keywords, m_set.category(RuleCategory::TokenLimit).keywords);
    for (std::size_t c = 0; c < kRuleCategoryCount; ++c)
        group(phraseGroupOf(RuleCategory(c)), m_set.categories[c].phrases);
    group(PhraseGroup::TokenWords, m_set.wordList(WordList::Token));
    group(PhraseGroup::Overloaded, m_set.wordList(WordList::Overloaded));
    group(PhraseGroup::Requested, m_set.wordList(WordList::Requested));
    group(PhraseGroup::UsedWords, m_set.wordList(WordList::Used));
    group(PhraseGroup::LimitWords, m_set.wordList(WordList::Limit));
    group(PhraseGroup::SlashWords, m_set.wordList(WordList::Slash));
    group(PhraseGroup::ResetLeads, m_set.wordList(WordList::ResetAt));
    group(PhraseGroup::RetryWord, m_set.wordList(WordList::Retry));
    group(PhraseGroup::AtMost, m_set.wordList(WordList::AtMost));
    t.groupBegin[std::size_t(PhraseGroup::FamilyWords)] = t.phrases.size();
    for (std::size_t c = 0; c < kRuleCategoryCount; ++c) {
        for (const RuleFamily &f : m_set.categories[c].families) {
            auto &groups = m_familyWords[c].emplace_back();
            for (const std::vector<std::string> &words : f.groups) {
                auto &indices = groups.emplace_back();
                for (const std::string &w : words)
                    indices.push_back(add(w, true));
            }
        }
    }
    t.groupBegin[std::size_t(PhraseGroup::Count)] = t.phrases.size();

    // One probe per distinct text (and boundary), grouped by the first two bytes.
    std::vector<std::vector<PhraseProbe>> buckets;
    t.bucketOf.assign(65536, 0);
    for (std::size_t i = 0; i < t.phrases.size(); ++i) {
        const std::string_view p = t.phrases[i];
        const unsigned key
            = (unsigned(static_cast<unsigned char>(p[0])) << 8) | static_cast<unsigned char>(p[1]);
        if (t.bucketOf[key] == 0) {
            buckets.emplace_back();
            t.bucketOf[key] = static_cast<std::uint16_t>(buckets.size());
        }
        std::vector<PhraseProbe> &bucket = buckets[t.bucketOf[key] - 1u];
        const auto same = std::find_if(bucket.begin(), bucket.end(), [&](const PhraseProbe &probe) {
            return probe.text == p && probe.wholeWord == wholeWords[i];
        });
        if (same != bucket.end())
            same->bits.push_back(static_cast<std::uint16_t>(i));
        else
            bucket.push_back({ p, static_cast<std::uint16_t>(i), wholeWords[i],
                { static_cast<std::uint16_t>(i) } });
    }
    t.bucketBegin.push_back(0);
    for (std::vector<PhraseProbe> &bucket : buckets) {
        for (PhraseProbe &probe : bucket)
            t.probes.push_back(std::move(probe));
        t.bucketBegin.push_back(static_cast<std::uint32_t>(t.probes.size()));
    }
}

std::size_t Rules::phraseCount(const RuleSet &set)
{
    std::size_t n = set.category(RuleCategory::TokenLimit).keywords.size();
    for (const CategoryRules &c : set.categories) {
        n += c.phrases.size();
        for (const RuleFamily &f : c.families) {
            for (const auto &g : f.groups)
                n += g.size();
        }
    }
    for (const WordList w : { WordList::Token, WordList::Overloaded, WordList::Requested,
             WordList::Used, WordList::Limit, WordList::Slash, WordList::ResetAt, WordList::Retry,
             WordList::AtMost })
        n += set.wordList(w).size();
    return n;
}

std::shared_ptr<const Rules> Rules::builtin()
{
    static const std::shared_ptr<const Rules> rules = [] {
        ParsedRules parsed
            = parseRules(builtinRulesJson(), "resources/rules/builtin.json", RulesKind::Builtin);
        if (!parsed.rules) {
            // The build checks this file (src/retry/CMakeLists.txt): only a broken build can
            // get here.
            std::fprintf(stderr, "capwatch: %s\n", parsed.problem.text().c_str());
            std::abort();
        }
        return std::make_shared<const Rules>(std::move(*parsed.rules));
    }();
    return rules;
}

const Rules &Rules::builtinRules()
{
    static const Rules &rules = *builtin();
    return rules;
}

std::shared_ptr<const Rules> Rules::withAdditions(const std::vector<const RuleSet *> &additions)
{
    const std::shared_ptr<const Rules> base = builtin();
    if (additions.empty())
        return base;
    RuleSet set = base->set();
    for (const RuleSet *a : additions)
        addTo(set, *a);
    return std::make_shared<const Rules>(std::move(set));
}

std::shared_ptr<const Rules> Rules::active()
{
    {
        const std::lock_guard lock(activeMutex());
        if (activeSlot())
            return activeSlot();
    }
    return builtin();
}

void Rules::install(std::shared_ptr<const Rules> rules)
{
    const std::lock_guard lock(activeMutex());
    activeSlot() = std::move(rules);
}

bool endpointMatches(std::string_view ruleEndpoint, std::string_view endpoint)
{
    if (ruleEndpoint.empty())
        return true;
    if (endpoint.size() < ruleEndpoint.size())
        return false;
    for (std::size_t i = 0; i < ruleEndpoint.size(); ++i) {
        char c = endpoint[i];
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
        if (c != ruleEndpoint[i])
            return false;
    }
    // https://api.acme.example must not cover https://api.acme.example.net.
    if (endpoint.size() == ruleEndpoint.size())
        return true;
    const char next = endpoint[ruleEndpoint.size()];
    return next == '/' || next == '?' || next == '#';
}

} // namespace capwatch::retry
