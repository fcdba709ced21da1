// Reading the provider profiles from the settings file: loadProfiles() of profiles.h. A value
// that cannot be read becomes a ProfileIssue with the file, the line and the key.

#include "net/chatrequest.h"
#include "profilekeys.h"
#include "profiles.h"

#include <QFile>
#include <QHash>
#include <QSettings>
#include <QUrl>
#include <algorithm>
#include <cmath>

namespace capwatch::session {

using namespace Qt::StringLiterals;
using namespace profilekeys;

namespace {

/// Where each section and key is in the file's text: QSettings reads the values but keeps no
/// lines, and a person editing the file needs the line.
struct FileLines
{
    QHash<QString, int> sections;
    QHash<QString, int> keys; ///< "section/key"

    int of(const QString &section, const QString &key) const
    {
        if (!key.isEmpty()) {
            if (const auto it = keys.constFind(section + u'/' + key); it != keys.cend())
                return *it;
        }
        return sections.value(section, 0);
    }
};

QString unescapeIni(QStringView text)
{
    // QSettings writes %XX (and %UXXXX) for what a key may not hold; profile keys rarely do.
    return QUrl::fromPercentEncoding(text.toUtf8());
}

FileLines scanLines(const QString &path)
{
    FileLines lines;
    QFile file(path);
    if (path.isEmpty() || !file.open(QIODevice::ReadOnly))
        return lines;
    QString section = u"General"_s;
    int number = 0;
    while (!file.atEnd()) {
        ++number;
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(u';') || line.startsWith(u'#'))
            continue;
        if (line.startsWith(u'[')) {
            const qsizetype end = line.indexOf(u']');
            if (end > 0) {
                section = unescapeIni(QStringView(line).mid(1, end - 1).trimmed());
                if (!lines.sections.contains(section))
                    lines.sections.insert(section, number);
            }
            continue;
        }
        const qsizetype eq = line.indexOf(u'=');
        if (eq > 0) // the last one counts, as for QSettings
            lines.keys.insert(
                section + u'/' + unescapeIni(QStringView(line).left(eq).trimmed()), number);
    }
    return lines;
}

/// A value as text: QSettings reads `a, b` as a list, which for a single value was a comma in it.
QString textOf(const QVariant &v)
{
    if (v.typeId() == QMetaType::QStringList)
        return v.toStringList().join(u", "_s);
    return v.toString();
}

QStringList listOf(const QVariant &v)
{
    QStringList out;
    for (const QString &item : textOf(v).split(u',')) {
        const QString t = item.trimmed();
        if (!t.isEmpty())
            out.append(t);
    }
    return out;
}

std::optional<bool> boolOf(const QString &text)
{
    const QString t = text.trimmed().toLower();
    if (t == u"true" || t == u"1" || t == u"yes" || t == u"on")
        return true;
    if (t == u"false" || t == u"0" || t == u"no" || t == u"off")
        return false;
    return std::nullopt;
}

QString unitOf(const NumberKey &n, qint64 v)
{
    return n.seconds ? QString::number(v) + u" s"_s : QString::number(v);
}

ProviderProfile builtInDemoProfile()
{
    return ProfileSet().demo();
}

class ProfileReader
{
public:
    explicit ProfileReader(QSettings &settings)
        : m_settings(settings)
        , m_file(settings.fileName())
        , m_lines(scanLines(m_file))
    { }

    void issue(ProfileIssue::Severity severity, const QString &section, const QString &key,
        const QString &message)
    {
        ProfileIssue i;
        i.severity = severity;
        i.file = m_file;
        i.line = m_lines.of(section, key);
        i.section = section;
        i.key = key;
        i.message = message;
        m_issues.append(i);
    }
    void error(const QString &section, const QString &key, const QString &message)
    {
        issue(ProfileIssue::Severity::Error, section, key, message);
    }
    void warning(const QString &section, const QString &key, const QString &message)
    {
        issue(ProfileIssue::Severity::Warning, section, key, message);
    }

    QVariant value(const QString &section, const QString &key) const
    {
        return m_settings.value(section + u'/' + key);
    }

    void readProfile(const QString &section, ProviderProfile &p);
    QList<ProfileIssue> takeIssues() { return std::move(m_issues); }

private:
    void readNumber(const QString &section, const NumberKey &n, const QString &text,
        PolicyOverrides &overrides);
    void readKey(const QString &section, const QString &text, ProviderProfile &p);
    /// A spending limit or a declared provider limit; false when `key` is none of them.
    bool readLimit(
        const QString &section, const QString &key, const QString &text, ProviderProfile &p);
    void readPrice(
        const QString &section, const QString &key, const QVariant &raw, ProviderProfile &p);

    QSettings &m_settings;
    QString m_file;
    FileLines m_lines;
    QList<ProfileIssue> m_issues;
};

void ProfileReader::readNumber(
    const QString &section, const NumberKey &n, const QString &text, PolicyOverrides &overrides)
{
    bool ok = false;
    const qint64 v = text.trimmed().toLongLong(&ok);
    const QString key = QString(n.key);
    if (!ok) {
        error(section, key,
            u"'%1' is not a whole number; the default (%2) is used"_s.arg(
                text.trimmed(), unitOf(n, n.defaultValue)));
        return;
    }
    const qint64 clamped = n.bounds.clamp(v);
    if (clamped != v)
        warning(section, key,
            u"%1 is the %2; %3 was clamped to %1"_s.arg(unitOf(n, clamped),
                clamped == n.bounds.max ? u"most"_s : u"least"_s, QString::number(v)));
    overrides.*n.field = int(clamped);
}

void ProfileReader::readKey(const QString &section, const QString &text, ProviderProfile &p)
{
    const QString t = text.trimmed();
    if (t.startsWith(u"env:") && t.size() > 4) {
        p.keySource = ProviderChoice::KeySource::Environment;
        p.keyVariable = t.mid(4).trimmed();
    } else if (t.startsWith(u"file:") && t.size() > 5) {
        p.keySource = ProviderChoice::KeySource::KeyFile;
        p.keyFile = t.mid(5).trimmed();
    } else if (t == u"keychain") {
        p.keySource = ProviderChoice::KeySource::Keychain;
    } else if (t == u"none") {
        p.keySource = ProviderChoice::KeySource::Environment;
        p.keyVariable.clear();
    } else {
        // Read as `none`: a key source mistyped must never lend the key of another
        // (OPENAI_COMPAT_API_KEY, the default) to this profile's endpoint. Never quoted back: a
        // key pasted here by mistake must not reach a terminal or a log.
        p.keySource = ProviderChoice::KeySource::Environment;
        p.keyVariable.clear();
        error(section, u"key"_s,
            u"not a key source (env:VARIABLE, file:PATH, keychain or none; the value is not "
            "shown, in case it is a key): no key is sent until it is fixed"_s);
    }
}

bool ProfileReader::readLimit(
    const QString &section, const QString &key, const QString &text, ProviderProfile &p)
{
    struct Count
    {
        const char16_t *key;
        std::optional<std::int64_t> *field;
    };
    const Count counts[] = {
        { u"spend_tokens_day", &p.spend.tokensDay },
        { u"spend_tokens_month", &p.spend.tokensMonth },
    };
    std::optional<std::int64_t> *field = nullptr;
    for (const Count &c : counts)
        if (key == QStringView(c.key))
            field = c.field;
    for (const DeclaredKey &d : kDeclaredKeys)
        if (key == d.key)
            field = &(p.declared.*d.field);
    if (field) {
        bool ok = false;
        const qint64 v = text.trimmed().toLongLong(&ok);
        if (ok && v >= 1 && v <= kMaxLimitCount)
            *field = v;
        else
            error(section, key,
                u"'%1' is not a whole number from 1 to %2; no limit is set"_s.arg(
                    text.trimmed(), QString::number(kMaxLimitCount)));
        return true;
    }
    if (key == u"limit_action") {
        const QString t = text.trimmed().toLower();
        if (t == u"ask")
            p.limitAction = LimitAction::Ask;
        else if (t == u"park")
            p.limitAction = LimitAction::Park;
        else if (t == u"refuse")
            p.limitAction = LimitAction::Refuse;
        else
            error(section, key,
                u"'%1' is not ask, park or refuse; ask is used"_s.arg(text.trimmed()));
        return true;
    }
    std::optional<double> *money = key == u"spend_cost_day" ? &p.spend.costDay
        : key == u"spend_cost_month"                        ? &p.spend.costMonth
                                                            : nullptr;
    if (!money)
        return false;
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    if (ok && std::isfinite(v) && v > 0 && v <= retry::kMaxPricePerMTok)
        *money = v;
    else
        error(section, key,
            u"'%1' is not an amount above 0 (in the price table's currency); no limit is "
            "set"_s.arg(text.trimmed()));
    return true;
}

void ProfileReader::readPrice(
    const QString &section, const QString &key, const QVariant &raw, ProviderProfile &p)
{
    const QString model = key.mid(kPricePrefix.size()).trimmed();
    const QStringList figures = listOf(raw);
    retry::Price price;
    bool ok = !model.isEmpty() && (figures.size() == 2 || figures.size() == 3);
    for (qsizetype i = 0; ok && i < figures.size(); ++i) {
        const double v = figures.at(i).toDouble(&ok);
        if (!ok)
            break;
        if (i == 0)
            price.inputPerMTok = v;
        else if (i == 1)
            price.outputPerMTok = v;
        else
            price.cachedInputPerMTok = v;
    }
    if (!ok || !retry::isValidPrice(price)) {
        error(section, key,
            u"'%1' is not INPUT, OUTPUT[, CACHED] prices per million tokens (numbers from 0 to "
            "%2); the price table's is used"_s.arg(
                textOf(raw).trimmed(), QString::number(retry::kMaxPricePerMTok, 'f', 0)));
        return;
    }
    p.prices.append({ model, price });
}

void ProfileReader::readProfile(const QString &section, ProviderProfile &p)
{
    m_settings.beginGroup(section);
    // All keys, not only the child keys: a price's model name may hold a '/', which QSettings
    // reads as a group ("price.openai/gpt-4o-mini").
    const QStringList keys = m_settings.allKeys();
    m_settings.endGroup();
    for (const QString &key : keys) {
        const QVariant raw = value(section, key);
        const QString text = textOf(raw);
        if (const auto n = std::find_if(std::cbegin(kNumberKeys), std::cend(kNumberKeys),
                [&](const NumberKey &nk) { return key == nk.key; });
            n != std::cend(kNumberKeys)) {
            readNumber(section, *n, text, p.overrides);
            continue;
        }
        if (key == u"retry") {
            bool token = false, rate = false, transient = false, ok = true;
            const QStringList items = listOf(raw);
            for (const QString &item : items) {
                if (item == u"token_limit")
                    token = true;
                else if (item == u"rate_limit")
                    rate = true;
                else if (item == u"transient")
                    transient = true;
                else if (item != u"none" || items.size() != 1) {
                    error(section, key,
                        u"unknown category '%1' (token_limit, rate_limit, transient or none); "
                        "all three are retried"_s.arg(item));
                    ok = false;
                    break;
                }
            }
            // A category in the list is retried, as by default: only those left out are
            // overrides (so what the Providers page sets reads back the same).
            if (ok) {
                if (!token)
                    p.overrides.retryTokenLimit = false;
                if (!rate)
                    p.overrides.retryRateLimit = false;
                if (!transient)
                    p.overrides.retryTransient = false;
            }
            continue;
        }
        if (key == u"fallback") {
            p.fallback = text.trimmed();
            continue;
        }
        if (key == u"fallback_auto") {
            if (const auto b = boolOf(text))
                p.autoFallback = *b;
            else
                error(section, key, u"'%1' is not true or false; false is used"_s.arg(text));
            continue;
        }
        if (readLimit(section, key, text, p))
            continue;
        if (key.startsWith(kPricePrefix)) {
            readPrice(section, key, raw, p);
            continue;
        }
        if (p.builtInDemo) {
            warning(section, key,
                u"the demo's provider is built in: only its policy, limits, prices and fallback "
                u"are read; "
                "ignored"_s);
            continue;
        }
        if (key == u"name") {
            p.name = text.trimmed();
        } else if (key == u"endpoint") {
            const QUrl url(text.trimmed(), QUrl::StrictMode);
            if (net::chatCompletionsUrl(url).isValid())
                p.endpoint = url;
            else
                error(section, key,
                    u"'%1' is not an http:// or https:// URL"_s.arg(
                        url.isValid() ? net::displayEndpoint(url) : text.trimmed()));
        } else if (key == u"model") {
            p.model = text.trimmed();
        } else if (key == u"key") {
            readKey(section, text, p);
        } else if (key == u"stream") {
            if (const auto b = boolOf(text))
                p.stream = *b;
            else
                error(section, key, u"'%1' is not true or false; true is used"_s.arg(text));
        } else if (key == u"context_window") {
            bool ok = false;
            const qint64 v = text.trimmed().toLongLong(&ok);
            if (ok && v >= 1)
                p.contextWindow = v;
            else
                error(section, key,
                    u"'%1' is not a positive whole number of tokens; the window stays "
                    "unknown"_s.arg(text.trimmed()));
        } else if (key == u"models") {
            p.cachedModels = listOf(raw);
        } else if (key == u"keychain_entry") {
            p.keychainName = text.trimmed();
        } else if (key.startsWith(kHeaderPrefix)) {
            const QString name = key.mid(kHeaderPrefix.size());
            if (!isHeaderName(name))
                error(section, key, u"'%1' is not a header name; not sent"_s.arg(name));
            else if (isReservedHeader(name.toLatin1()))
                error(section, key, u"capwatch sets %1 itself; not sent"_s.arg(name));
            else
                p.extraHeaders.append({ name.toLatin1(), text.toUtf8() });
        } else {
            warning(section, key, u"unknown key; ignored"_s);
        }
    }
    if (p.builtInDemo)
        return;
    if (p.name.isEmpty()) {
        p.name = p.id;
        warning(section, u"name"_s, u"no name; the id '%1' is shown"_s.arg(p.id));
    }
    if (p.endpoint.isEmpty() && !value(section, u"endpoint"_s).isValid())
        error(section, u"endpoint"_s, u"no endpoint: the profile cannot send"_s);
    // A file of before `keychain_entry`: the entry that version used is this profile's from now
    // on (written with the next save).
    if (p.keySource == ProviderChoice::KeySource::Keychain && p.keychainName.isEmpty())
        p.keychainName = p.keychainEntry();
}

QString keySourceName(const QString &name)
{
    return name == u"file" ? u"file"_s : name == u"keychain" ? u"keychain"_s : u"environment"_s;
}

/// The single provider of before profiles (ui::Settings' `provider/*`), when it was configured.
void migrate(QSettings &settings, ProfileSet &set)
{
    settings.beginGroup(u"provider"_s);
    const QString endpoint = settings.value(u"endpoint"_s).toString().trimmed();
    const bool useDemo = settings.value(u"useDemo"_s, true).toBool();
    ProviderProfile p;
    p.id = u"default"_s;
    p.name = u"Default"_s;
    p.endpoint = QUrl(endpoint, QUrl::StrictMode);
    p.model = settings.value(u"model"_s).toString().trimmed();
    const QString source = keySourceName(settings.value(u"keySource"_s).toString());
    if (source == u"file")
        p.keySource = ProviderChoice::KeySource::KeyFile;
    else if (source == u"keychain")
        p.keySource = ProviderChoice::KeySource::Keychain;
    p.keyVariable = settings.value(u"keyVariable"_s, p.keyVariable).toString();
    p.keyFile = settings.value(u"keyFile"_s).toString();
    p.stream = settings.value(u"stream"_s, true).toBool();
    p.keychainName = u"api-key"_s; // where the single provider of before stored its key
    settings.endGroup();
    if (endpoint.isEmpty() || !net::chatCompletionsUrl(p.endpoint).isValid())
        return;
    set.profiles.append(p);
    if (!useDemo)
        set.defaultProfile = p.id;
}

} // namespace

ProfileSet loadProfiles(QSettings &settings)
{
    ProfileSet set;
    set.profiles.append(builtInDemoProfile());
    set.defaultProfile = set.profiles.first().id;
    settings.sync(); // the lines are the file's: anything still pending is written first
    ProfileReader reader(settings);
    if (settings.status() == QSettings::FormatError) {
        reader.error(QString(), QString(),
            u"not an INI settings file; only the built-in demo profile is used"_s);
        set.issues = reader.takeIssues();
        return set;
    }

    const QStringList groups = settings.childGroups();
    QStringList sections;
    for (const QString &g : groups) {
        if (g.startsWith(kProfilePrefix))
            sections.append(g);
    }
    if (!groups.contains(kProfilesGroup) && sections.isEmpty()) {
        migrate(settings, set);
        return set;
    }

    const QString demoSection = kProfilePrefix + QString::fromUtf16(kDemoProfileId);
    if (sections.contains(demoSection))
        reader.readProfile(demoSection, set.profiles.first());

    // The file's order first, then any section it does not name (QSettings sorts them).
    QStringList ids;
    for (const QString &id : listOf(reader.value(kProfilesGroup, u"order"_s))) {
        if (id == set.profiles.first().id || ids.contains(id))
            continue;
        if (!sections.contains(kProfilePrefix + id)) {
            reader.warning(
                kProfilesGroup, u"order"_s, u"no [profile.%1] section; '%1' left out"_s.arg(id));
            continue;
        }
        ids.append(id);
    }
    for (const QString &section : std::as_const(sections)) {
        const QString id = section.mid(kProfilePrefix.size());
        if (section != demoSection && !ids.contains(id))
            ids.append(id);
    }
    for (const QString &id : std::as_const(ids)) {
        const QString section = kProfilePrefix + id;
        ProviderProfile p;
        p.id = id;
        if (!isProfileId(id))
            reader.warning(section, QString(),
                u"an id is letters, digits, '-' and '_'; a new profile would be named "
                "differently"_s);
        reader.readProfile(section, p);
        for (const ProviderProfile &other : std::as_const(set.profiles)) {
            if (!other.builtInDemo && other.name.compare(p.name, Qt::CaseInsensitive) == 0) {
                reader.warning(section, u"name"_s,
                    u"profile '%1' has the same name; --profile '%2' finds that one"_s.arg(
                        other.id, p.name));
                break;
            }
        }
        set.profiles.append(p);
    }

    // A section copied by hand keeps its keychain_entry: the two would share one key.
    for (qsizetype i = 0; i < set.profiles.size(); ++i) {
        const ProviderProfile &p = set.profiles.at(i);
        if (p.keychainName.isEmpty())
            continue;
        for (qsizetype j = 0; j < i; ++j) {
            if (set.profiles.at(j).keychainName == p.keychainName) {
                reader.warning(kProfilePrefix + p.id, u"keychain_entry"_s,
                    u"profile '%1' has the same entry: a key stored for one is the other's "
                    "too"_s.arg(set.profiles.at(j).id));
                break;
            }
        }
    }

    // Fallbacks name ids; every profile is known now.
    for (ProviderProfile &p : set.profiles) {
        if (p.fallback.isEmpty())
            continue;
        const QString section = kProfilePrefix + p.id;
        const ProviderProfile *to = set.find(p.fallback);
        if (!to) {
            reader.error(
                section, u"fallback"_s, u"'%1' names no profile; no fallback"_s.arg(p.fallback));
            p.fallback.clear();
        } else if (to->id == p.id) {
            reader.error(section, u"fallback"_s, u"a profile cannot fall back to itself"_s);
            p.fallback.clear();
        } else {
            p.fallback = to->id;
        }
    }

    const QString wanted = textOf(reader.value(kProfilesGroup, u"default"_s)).trimmed();
    if (!wanted.isEmpty()) {
        if (const ProviderProfile *d = set.find(wanted))
            set.defaultProfile = d->id;
        else
            reader.error(kProfilesGroup, u"default"_s,
                u"'%1' names no profile; the demo is the default"_s.arg(wanted));
    }
    settings.beginGroup(kProfilesGroup);
    for (const QString &key : settings.childKeys()) {
        if (key != u"default" && key != u"order")
            reader.warning(kProfilesGroup, key, u"unknown key; ignored"_s);
    }
    settings.endGroup();
    set.issues = reader.takeIssues();
    return set;
}

} // namespace capwatch::session
