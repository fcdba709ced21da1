#include "retry/pricetable.h"

#include <algorithm>
#include <exception>
#include <nlohmann/json.hpp>

namespace capwatch::retry {

// Not an anonymous namespace: the unity build puts this file beside others whose helpers have
// the same names (trimmed, kMaxDepth, ...).
namespace pricefile {

using Json = nlohmann::json;

/// The file's own depth is 4 (the root, "models", a model, its "aliases"); anything deeper is
/// not read at all.
constexpr int kMaxDepth = 8;
constexpr std::size_t kMaxModels = 100'000;
constexpr std::size_t kMaxAliases = 1'000;
constexpr std::size_t kMaxTextBytes = 1'000; ///< source, url, commit, ...

struct Problem
{
    std::string what;
};

char lowerAscii(char c)
{
    return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
}

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), lowerAscii);
    return out;
}

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

/// The name as it is looked up: trimmed and in lower case; empty when it cannot be a name.
std::string normalName(std::string_view model)
{
    const std::string_view t = trimmed(model);
    if (t.size() > kMaxModelNameBytes)
        return {};
    return lower(t);
}

bool isDigits(std::string_view s)
{
    return !s.empty()
        && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int twoDigits(std::string_view s)
{
    return (s[0] - '0') * 10 + (s[1] - '0');
}

bool isMonthDay(std::string_view mm, std::string_view dd)
{
    const int month = twoDigits(mm);
    const int day = twoDigits(dd);
    return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

/// `s` without a date suffix ("-YYYY-MM-DD", "-YYYYMMDD", "@YYYYMMDD", "-MMDD"), or `s` itself.
std::string_view withoutDateSuffix(std::string_view s)
{
    const auto tail
        = [s](std::size_t n) { return s.size() > n ? s.substr(s.size() - n) : std::string_view(); };
    const auto cut = [s](std::size_t n) { return s.substr(0, s.size() - n); };
    if (const std::string_view t = tail(11); !t.empty() && t[0] == '-' && t[5] == '-' && t[8] == '-'
        && isDigits(t.substr(1, 4)) && isDigits(t.substr(6, 2)) && isDigits(t.substr(9, 2))
        && isMonthDay(t.substr(6, 2), t.substr(9, 2)))
        return cut(11);
    if (const std::string_view t = tail(9); !t.empty() && (t[0] == '-' || t[0] == '@')
        && isDigits(t.substr(1)) && isMonthDay(t.substr(5, 2), t.substr(7, 2)))
        return cut(9);
    if (const std::string_view t = tail(5); !t.empty() && t[0] == '-' && isDigits(t.substr(1))
        && isMonthDay(t.substr(1, 2), t.substr(3, 2)))
        return cut(5);
    return s;
}

/// Calls `known(key)` with each name the rule of pricetable.h tries for `model`, in order,
/// until it returns true; returns whether one did.
template<typename Known> bool anyCandidate(std::string_view model, Known &&known)
{
    const std::string name = normalName(model);
    std::string_view s = name;
    while (!s.empty()) {
        if (known(std::string(s)))
            return true;
        if (const std::string_view d = withoutDateSuffix(s); d.size() != s.size()) {
            if (known(std::string(d)))
                return true;
        }
        const std::size_t slash = s.find('/');
        if (slash == std::string_view::npos)
            break;
        s.remove_prefix(slash + 1);
    }
    return false;
}

/// Whether arrays and objects nest deeper than kMaxDepth anywhere in `json`, brackets inside
/// strings aside. One pass, no recursion; for text that is not JSON the answer does not matter
/// (the parser refuses it), as long as nothing deeper than kMaxDepth is ever built.
bool nestedTooDeep(std::string_view json)
{
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxDepth)
                return true;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return false;
}

/// The JSON library's message without its "[json.exception.parse_error.101] ".
std::string reasonOf(const std::exception &e)
{
    std::string reason = e.what();
    if (const std::size_t bracket = reason.find("] "); bracket != std::string::npos)
        reason.erase(0, bracket + 2);
    return reason;
}

/// Error texts show printable ASCII only: a garbage file cannot put control bytes on a terminal.
std::string printable(std::string s)
{
    for (char &c : s) {
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
            c = '?';
    }
    return s;
}

std::string clipped(const std::string &s)
{
    return s.size() <= 60 ? s : s.substr(0, 57) + "...";
}

class Reader final
{
public:
    std::vector<PricedModel> models;
    std::unordered_map<std::string, std::size_t> byName;
    PriceSource source;
    std::string currency;

    void read(const Json &root)
    {
        if (!root.is_object())
            throw Problem { "the file is not a JSON object" };
        const auto version = root.find("version");
        if (version == root.end() || !version->is_number_integer())
            throw Problem { "\"version\" is missing or not a whole number" };
        if (version->get<std::int64_t>() != 1)
            throw Problem { "version " + std::to_string(version->get<std::int64_t>())
                + " is not one this capwatch reads (1)" };
        currency = text(root, "currency", "the file");
        if (!isValidPrice({ 0, 0, {}, currency }) || currency.empty())
            throw Problem { "\"currency\" is missing or not three letters A-Z" };
        source.source = text(root, "source", "the file");
        source.url = text(root, "source_url", "the file");
        source.commit = text(root, "source_commit", "the file");
        source.taken = text(root, "taken", "the file");
        source.license = text(root, "license", "the file");

        const auto list = root.find("models");
        if (list == root.end() || !list->is_array())
            throw Problem { "\"models\" is missing or not a list" };
        if (list->size() > kMaxModels)
            throw Problem { "more than " + std::to_string(kMaxModels) + " models" };
        models.reserve(list->size());
        for (std::size_t i = 0; i < list->size(); ++i)
            readModel((*list)[i], i);
    }

private:
    static std::string text(const Json &object, const char *key, const std::string &where)
    {
        const auto it = object.find(key);
        if (it == object.end())
            return {};
        if (!it->is_string())
            throw Problem { where + ": \"" + key + "\" is not a string" };
        const std::string &s = it->get_ref<const std::string &>();
        if (s.size() > kMaxTextBytes)
            throw Problem { where + ": \"" + key + "\" is longer than "
                + std::to_string(kMaxTextBytes) + " bytes" };
        return s;
    }

    static double figure(const Json &model, const char *key, const std::string &where)
    {
        const auto it = model.find(key);
        if (it == model.end())
            throw Problem { where + ": \"" + key + "\" is missing" };
        if (!it->is_number())
            throw Problem { where + ": \"" + key + "\" is not a number" };
        const double value = it->get<double>();
        if (!(value >= 0))
            throw Problem { where + ": \"" + key + "\" is negative" };
        if (!(value <= kMaxPricePerMTok))
            throw Problem { where + ": \"" + key + "\" is more than 1,000,000 a million tokens" };
        return value;
    }

    static std::string name(const Json &value, const std::string &where)
    {
        if (!value.is_string())
            throw Problem { where + " is not a string" };
        const std::string &s = value.get_ref<const std::string &>();
        if (s.empty() || s.size() > kMaxModelNameBytes)
            throw Problem { where + " is empty or longer than " + std::to_string(kMaxModelNameBytes)
                + " bytes" };
        if (trimmed(s).size() != s.size())
            throw Problem { where + " \"" + clipped(s) + "\" starts or ends with white space" };
        if (std::any_of(s.begin(), s.end(),
                [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
            throw Problem { where + " has a control character" };
        return s;
    }

    void claim(const std::string &n, std::size_t index, const std::string &where)
    {
        const auto [it, added] = byName.emplace(lower(n), index);
        if (!added && it->second != index)
            throw Problem { where + ": \"" + clipped(n) + "\" is already a name of models["
                + std::to_string(it->second) + "] \"" + clipped(models[it->second].id) + "\"" };
    }

    void readModel(const Json &entry, std::size_t index)
    {
        std::string where = "models[" + std::to_string(index) + "]";
        if (!entry.is_object())
            throw Problem { where + " is not an object" };
        const auto id = entry.find("id");
        if (id == entry.end())
            throw Problem { where + ": \"id\" is missing" };
        PricedModel model;
        model.id = name(*id, where + ": \"id\"");
        where += " \"" + clipped(model.id) + "\"";
        if (const auto aliases = entry.find("aliases"); aliases != entry.end()) {
            if (!aliases->is_array())
                throw Problem { where + ": \"aliases\" is not a list" };
            if (aliases->size() > kMaxAliases)
                throw Problem { where + ": more than " + std::to_string(kMaxAliases) + " aliases" };
            for (const Json &alias : *aliases)
                model.aliases.push_back(name(alias, where + ": an alias"));
        }
        model.price.inputPerMTok = figure(entry, "input_per_mtok", where);
        model.price.outputPerMTok = figure(entry, "output_per_mtok", where);
        if (entry.contains("cached_input_per_mtok"))
            model.price.cachedInputPerMTok = figure(entry, "cached_input_per_mtok", where);
        model.price.currency
            = entry.contains("currency") ? text(entry, "currency", where) : currency;
        if (!isValidPrice(model.price) || model.price.currency.empty())
            throw Problem { where + ": \"currency\" is not three letters A-Z" };

        models.push_back(std::move(model));
        const PricedModel &added = models.back();
        claim(added.id, index, where);
        for (const std::string &alias : added.aliases)
            claim(alias, index, where);
    }
};

} // namespace pricefile

using pricefile::Json;

PriceTable PriceTable::parse(std::string_view json, std::string_view fileName)
{
    PriceTable table;
    const std::string file(fileName);
    if (json.size() > kMaxPriceFileBytes) {
        table.m_error
            = file + ": the file is larger than 16 MiB; a price table is a few hundred KB";
        return table;
    }
    try {
        // Refused before it is parsed: nothing deep is ever built (nor destroyed by recursion).
        if (pricefile::nestedTooDeep(json)) {
            table.m_error = file + ": nested more than " + std::to_string(pricefile::kMaxDepth)
                + " levels deep";
            return table;
        }
        Json root;
        try {
            root = Json::parse(json.begin(), json.end());
        } catch (const Json::parse_error &e) {
            const std::size_t at = std::min<std::size_t>(e.byte, json.size());
            const auto line = 1 + std::count(json.begin(), json.begin() + std::ptrdiff_t(at), '\n');
            table.m_error = pricefile::printable(file + ":" + std::to_string(line)
                + ": not valid JSON (" + pricefile::reasonOf(e) + ")");
            return table;
        } catch (const Json::out_of_range &e) {
            // 1e400: JSON, but no double holds it.
            table.m_error = pricefile::printable(
                file + ": a number is too large (" + pricefile::reasonOf(e) + ")");
            return table;
        }
        pricefile::Reader reader;
        reader.read(root);
        table.m_models = std::move(reader.models);
        table.m_byName = std::move(reader.byName);
        table.m_source = std::move(reader.source);
        table.m_currency = std::move(reader.currency);
    } catch (const pricefile::Problem &p) {
        table.m_error = pricefile::printable(file + ": " + p.what);
    } catch (const std::exception &e) {
        // Out of memory, or a surprise of the JSON library: the table stays empty all the same.
        table.m_error = pricefile::printable(file + ": cannot be read (" + e.what() + ")");
    }
    if (!table.m_error.empty()) {
        table.m_models.clear();
        table.m_byName.clear();
    }
    return table;
}

std::optional<Price> PriceTable::find(std::string_view model) const
{
    std::optional<Price> found;
    if (!m_overrides.empty()) {
        pricefile::anyCandidate(model, [&](const std::string &key) {
            const auto it = m_overrides.find(key);
            if (it == m_overrides.end())
                return false;
            found = it->second;
            return true;
        });
        if (found)
            return found;
    }
    pricefile::anyCandidate(model, [&](const std::string &key) {
        const auto it = m_byName.find(key);
        if (it == m_byName.end())
            return false;
        found = m_models[it->second].price;
        return true;
    });
    return found;
}

bool PriceTable::setOverride(std::string_view model, Price price)
{
    const std::string key = pricefile::normalName(model);
    if (key.empty() || !isValidPrice(price))
        return false;
    if (price.currency.empty())
        price.currency = m_currency;
    m_overrides[key] = std::move(price);
    return true;
}

void PriceTable::removeOverride(std::string_view model)
{
    m_overrides.erase(pricefile::normalName(model));
}

} // namespace capwatch::retry
