#include "profiles.h"

#include <QFileInfo>

namespace capwatch::session {

using namespace Qt::StringLiterals;

retry::PolicyLimits PolicyOverrides::limits() const
{
    retry::PolicyLimits l;
    if (maxAttempts)
        l.maxAttempts = *maxAttempts;
    if (waitCapS)
        l.waitCap = retry::Millis(qint64(*waitCapS) * 1000);
    if (budgetS)
        l.budget = retry::Millis(qint64(*budgetS) * 1000);
    if (backoffBaseS)
        l.backoffBase = retry::Millis(qint64(*backoffBaseS) * 1000);
    if (headerTimeoutS)
        l.headerTimeout = retry::Millis(qint64(*headerTimeoutS) * 1000);
    if (retryTokenLimit)
        l.retryTokenLimit = *retryTokenLimit;
    if (retryRateLimit)
        l.retryRateLimit = *retryRateLimit;
    if (retryTransient)
        l.retryTransient = *retryTransient;
    return l;
}

QString ProviderProfile::keychainEntry() const
{
    if (builtInDemo)
        return {};
    // The profile made from the single provider of before keeps the key where it was stored.
    return id == u"default"_s ? u"api-key"_s : u"profile/"_s + id;
}

ProviderChoice ProviderProfile::choice() const
{
    ProviderChoice c;
    c.demo = builtInDemo;
    c.endpoint = endpoint;
    c.model = model;
    c.stream = stream;
    c.keySource = keySource;
    c.keyVariable = keyVariable;
    c.keyFile = keyFile;
    switch (keySource) {
    case ProviderChoice::KeySource::Environment:
        c.keySourceText = keyVariable.isEmpty() ? u"none"_s : keyVariable;
        break;
    case ProviderChoice::KeySource::KeyFile:
        c.keySourceText = u"key file "_s + keyFile;
        break;
    case ProviderChoice::KeySource::Keychain:
        c.keySourceText = u"system keychain"_s;
        break;
    }
    c.profile = id;
    c.profileName = name;
    c.keychainEntry = keychainEntry();
    c.limits = limits();
    c.extraHeaders = extraHeaders;
    c.contextWindow = contextWindow;
    return c;
}

QString ProfileIssue::text() const
{
    QString where = file;
    if (line > 0)
        where += u':' + QString::number(line);
    QString out = where + u": "_s;
    if (!section.isEmpty())
        out += u'[' + section + u"] "_s;
    if (!key.isEmpty())
        out += key + u": "_s;
    return out + message;
}

const ProviderProfile *ProfileSet::find(QStringView idOrName) const
{
    for (const auto &p : profiles) {
        if (p.id == idOrName)
            return &p;
    }
    for (const auto &p : profiles) {
        if (p.name.compare(idOrName, Qt::CaseInsensitive) == 0)
            return &p;
    }
    return nullptr;
}

ProviderProfile *ProfileSet::find(QStringView idOrName)
{
    return const_cast<ProviderProfile *>(std::as_const(*this).find(idOrName));
}

const ProviderProfile &ProfileSet::demo() const
{
    for (const auto &p : profiles) {
        if (p.builtInDemo)
            return p;
    }
    static const ProviderProfile fallbackDemo = [] {
        ProviderProfile p;
        p.id = QString::fromUtf16(kDemoProfileId);
        p.name = u"Demo"_s;
        p.builtInDemo = true;
        return p;
    }();
    return fallbackDemo;
}

QList<ProfileIssue> ProfileSet::issuesOf(const QString &id) const
{
    QList<ProfileIssue> out;
    for (const auto &i : issues) {
        if (i.section == u"profile."_s + id)
            out.append(i);
    }
    return out;
}

bool ProfileSet::hasErrors(const QString &id) const
{
    for (const auto &i : issuesOf(id)) {
        if (i.severity == ProfileIssue::Severity::Error)
            return true;
    }
    return false;
}

QString makeProfileId(const QString &name, const ProfileSet &set)
{
    QString base;
    for (const QChar ch : name.toLower()) {
        if ((ch >= u'a' && ch <= u'z') || (ch >= u'0' && ch <= u'9'))
            base += ch;
        else if (!base.isEmpty() && !base.endsWith(u'-'))
            base += u'-';
    }
    while (base.endsWith(u'-'))
        base.chop(1);
    if (base.isEmpty())
        base = u"profile"_s;
    QString id = base;
    for (int n = 2; set.find(id) && set.find(id)->id == id; ++n)
        id = base + u'-' + QString::number(n);
    return id;
}

// --- contract stubs: the profiles' owner replaces these (issue 17) ---

ProfileSet loadProfiles(QSettings &)
{
    ProfileSet set;
    set.profiles.append(set.demo());
    set.defaultProfile = set.profiles.first().id;
    return set;
}

void saveProfiles(QSettings &, const ProfileSet &) { }

QString profileProblem(const ProviderProfile &, const ProfileSet &)
{
    return {};
}

} // namespace capwatch::session
