#include "profiles.h"

#include "net/chatrequest.h"
#include "profilekeys.h"
#include "retry/pricetable.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QSet>
#include <QUuid>
#include <algorithm>

namespace capwatch::session {

using namespace Qt::StringLiterals;
using namespace profilekeys;

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
    if (!keychainName.isEmpty())
        return keychainName;
    // A file of before `keychain_entry`: the entry that version used. The profile made from the
    // single provider of before keeps the key where it was stored.
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
    c.spend = spend;
    c.declared = declared;
    c.limitAction = limitAction;
    c.prices = prices;
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

QString keySourceSpec(const ProviderProfile &p)
{
    switch (p.keySource) {
    case ProviderChoice::KeySource::Environment:
        return p.keyVariable.isEmpty() ? u"none"_s : u"env:"_s + p.keyVariable;
    case ProviderChoice::KeySource::KeyFile:
        return u"file:"_s + p.keyFile;
    case ProviderChoice::KeySource::Keychain:
        return u"keychain"_s;
    }
    return u"none"_s;
}

QStringList retriedCategoryNames(const retry::PolicyLimits &limits)
{
    QStringList names;
    if (limits.retryTokenLimit)
        names << u"token_limit"_s;
    if (limits.retryRateLimit)
        names << u"rate_limit"_s;
    if (limits.retryTransient)
        names << u"transient"_s;
    return names;
}

bool isReservedHeader(QByteArrayView name)
{
    return net::isReservedHeaderName(name); // the request's own list: one rule everywhere
}

namespace {

QString boolText(bool b)
{
    return b ? u"true"_s : u"false"_s;
}

void writeProfile(QSettings &settings, const ProviderProfile &p)
{
    settings.beginGroup(kProfilePrefix + p.id);
    if (!p.builtInDemo) {
        settings.setValue(u"name"_s, p.name);
        if (!p.endpoint.isEmpty())
            settings.setValue(u"endpoint"_s, p.endpoint.toString());
        if (!p.model.isEmpty())
            settings.setValue(u"model"_s, p.model);
        settings.setValue(u"key"_s, keySourceSpec(p));
        settings.setValue(u"stream"_s, boolText(p.stream));
        if (p.contextWindow)
            settings.setValue(u"context_window"_s, QString::number(*p.contextWindow));
    }
    for (const NumberKey &n : kNumberKeys) {
        if (const std::optional<int> v = p.overrides.*n.field)
            settings.setValue(QString(n.key), QString::number(*v));
    }
    const PolicyOverrides &o = p.overrides;
    if (o.retryTokenLimit || o.retryRateLimit || o.retryTransient) {
        const QStringList retried = retriedCategoryNames(o.limits());
        // A list of one reads back as text, of none QSettings would write as @Invalid().
        settings.setValue(u"retry"_s,
            retried.isEmpty()         ? QVariant(u"none"_s)
                : retried.size() == 1 ? QVariant(retried.first())
                                      : QVariant(retried));
    }
    const auto writeCount = [&](QLatin1StringView key, const std::optional<std::int64_t> &v) {
        if (v)
            settings.setValue(QString(key), QString::number(*v));
    };
    const auto writeMoney = [&](QLatin1StringView key, const std::optional<double> &v) {
        if (v)
            settings.setValue(QString(key), QString::number(*v, 'g', 12));
    };
    writeCount(QLatin1StringView("spend_tokens_day"), p.spend.tokensDay);
    writeCount(QLatin1StringView("spend_tokens_month"), p.spend.tokensMonth);
    writeMoney(QLatin1StringView("spend_cost_day"), p.spend.costDay);
    writeMoney(QLatin1StringView("spend_cost_month"), p.spend.costMonth);
    for (const DeclaredKey &d : kDeclaredKeys)
        writeCount(d.key, p.declared.*d.field);
    if (p.limitAction != LimitAction::Ask)
        settings.setValue(
            u"limit_action"_s, p.limitAction == LimitAction::Park ? u"park"_s : u"refuse"_s);
    for (const auto &[model, price] : p.prices) {
        QStringList figures { QString::number(price.inputPerMTok, 'g', 12),
            QString::number(price.outputPerMTok, 'g', 12) };
        if (price.cachedInputPerMTok)
            figures << QString::number(*price.cachedInputPerMTok, 'g', 12);
        // One text, not a QStringList: QSettings would quote a list's commas differently.
        settings.setValue(kPricePrefix + model, figures.join(u", "_s));
    }
    if (!p.fallback.isEmpty())
        settings.setValue(u"fallback"_s, p.fallback);
    if (!p.fallback.isEmpty() || p.autoFallback)
        settings.setValue(u"fallback_auto"_s, boolText(p.autoFallback));
    if (!p.builtInDemo) {
        for (const auto &[name, value] : p.extraHeaders)
            settings.setValue(kHeaderPrefix + QString::fromLatin1(name), QString::fromUtf8(value));
        if (!p.keychainName.isEmpty())
            settings.setValue(u"keychain_entry"_s, p.keychainName);
        if (!p.cachedModels.isEmpty())
            settings.setValue(u"models"_s,
                p.cachedModels.size() == 1 ? QVariant(p.cachedModels.first())
                                           : QVariant(p.cachedModels));
    }
    settings.endGroup();
}

} // namespace

void saveProfiles(QSettings &settings, const ProfileSet &set)
{
    const QString demoId = QString::fromUtf16(kDemoProfileId);
    QStringList order { demoId };
    for (const ProviderProfile &p : set.profiles) {
        if (!p.builtInDemo && p.id != demoId && !p.id.isEmpty() && !order.contains(p.id))
            order.append(p.id);
    }
    for (const QString &g : settings.childGroups()) {
        // The demo's section stays unless the set has the demo: a save without it keeps it.
        if (g.startsWith(kProfilePrefix) && g != kProfilePrefix + demoId
            && !order.contains(g.mid(kProfilePrefix.size())))
            settings.remove(g);
    }
    settings.beginGroup(kProfilesGroup);
    settings.setValue(
        u"default"_s, order.contains(set.defaultProfile) ? set.defaultProfile : demoId);
    settings.setValue(u"order"_s, order.size() == 1 ? QVariant(demoId) : QVariant(order));
    settings.endGroup();
    QSet<QString> written;
    for (const ProviderProfile &p : set.profiles) {
        const QString id = p.builtInDemo ? demoId : p.id;
        if ((!p.builtInDemo && (p.id == demoId || p.id.isEmpty())) || written.contains(id))
            continue;
        written.insert(id);
        settings.remove(kProfilePrefix + id);
        writeProfile(settings, p);
    }
    settings.sync();
}

QString newKeychainEntry()
{
    return u"profile/"_s + QUuid::createUuid().toString(QUuid::WithoutBraces);
}

ProfileProblem profileProblem(const ProviderProfile &profile, const ProfileSet &set)
{
    const auto tr
        = [](const char *text) { return QCoreApplication::translate("capwatch::session", text); };
    using Field = ProfileProblem::Field;
    if (profile.name.trimmed().isEmpty())
        return { Field::Name, tr("A profile needs a name.") };
    for (const ProviderProfile &other : set.profiles) {
        if (other.id != profile.id
            && other.name.trimmed().compare(profile.name.trimmed(), Qt::CaseInsensitive) == 0)
            return { Field::Name, tr("Another profile is already named “%1”.").arg(other.name) };
    }
    if (!profile.builtInDemo) {
        if (profile.id == QStringView(kDemoProfileId) || !isProfileId(profile.id))
            return { Field::Id,
                tr("The profile's id “%1” is taken or not letters, digits, - and _.")
                    .arg(profile.id) };
        if (!net::chatCompletionsUrl(profile.endpoint).isValid())
            return { Field::Endpoint,
                tr("The endpoint must be an http:// or https:// URL with a host.") };
        for (const auto &[name, value] : profile.extraHeaders) {
            if (name.contains('\r') || name.contains('\n') || value.contains('\r')
                || value.contains('\n'))
                return { Field::Headers, tr("A header cannot contain a line break.") };
            if (!isHeaderName(QString::fromLatin1(name)))
                return { Field::Headers,
                    tr("“%1” is not a header name.").arg(QString::fromLatin1(name)) };
            if (isReservedHeader(name))
                return { Field::Headers,
                    tr("capwatch sets the header %1 itself.").arg(QString::fromLatin1(name)) };
        }
    }
    if (!profile.fallback.isEmpty()) {
        if (profile.fallback == profile.id)
            return { Field::Fallback, tr("A profile cannot fall back to itself.") };
        const ProviderProfile *to = set.find(profile.fallback);
        if (!to || to->id != profile.fallback)
            return { Field::Fallback,
                tr("The fallback “%1” is not a profile.").arg(profile.fallback) };
    }
    return {};
}

} // namespace capwatch::session

namespace capwatch::session {

std::optional<retry::Price> ProviderChoice::priceOf(const QString &modelName) const
{
    const std::string name = modelName.trimmed().toStdString();
    if (!prices.isEmpty()) {
        // The profile's own prices by the table's rule of names (a date suffix or a "vendor/"
        // prefix of the model still finds them), before the table's.
        retry::PriceTable own;
        for (const auto &[ownModel, price] : prices)
            own.setOverride(ownModel.toStdString(), price);
        if (std::optional<retry::Price> found = own.find(name))
            return found;
    }
    return retry::builtinPrices().find(name);
}

} // namespace capwatch::session
