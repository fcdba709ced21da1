#include "ui/settings/settings.h"

#include "session/settingsfile.h"

#include <QCoreApplication>
#include <algorithm>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

namespace {

QString keySourceName(ProviderSettings::KeySource s)
{
    switch (s) {
    case ProviderSettings::KeySource::Environment:
        return u"environment"_s;
    case ProviderSettings::KeySource::KeyFile:
        return u"file"_s;
    case ProviderSettings::KeySource::Keychain:
        return u"keychain"_s;
    }
    return u"environment"_s;
}

ProviderSettings::KeySource keySourceFrom(const QString &name)
{
    if (name == u"file")
        return ProviderSettings::KeySource::KeyFile;
    if (name == u"keychain")
        return ProviderSettings::KeySource::Keychain;
    return ProviderSettings::KeySource::Environment;
}

QString parkingChoiceName(session::ParkingChoice choice)
{
    switch (choice) {
    case session::ParkingChoice::Ask:
        return u"ask"_s;
    case session::ParkingChoice::Automatic:
        return u"park"_s;
    case session::ParkingChoice::GiveUp:
        return u"give-up"_s;
    }
    return u"ask"_s;
}

} // namespace

session::ProviderChoice::KeySource ProviderSettings::choiceKeySource() const
{
    using ChoiceSource = session::ProviderChoice::KeySource;
    switch (keySource) {
    case KeySource::KeyFile:
        return ChoiceSource::KeyFile;
    case KeySource::Keychain:
        return ChoiceSource::Keychain;
    case KeySource::Environment:
        break;
    }
    return ChoiceSource::Environment;
}

QString ProviderSettings::keySourceText() const
{
    switch (keySource) {
    case KeySource::Environment:
        return keyVariable;
    case KeySource::KeyFile:
        return QCoreApplication::translate("capwatch::ui::Settings", "key file %1").arg(keyFile);
    case KeySource::Keychain:
        return QCoreApplication::translate("capwatch::ui::Settings", "system keychain");
    }
    return {};
}

Settings::Settings()
    : Settings(session::defaultSettingsPath())
{ }

Settings::Settings(const QString &iniPath)
    : m_settings(std::make_unique<QSettings>(iniPath, QSettings::IniFormat))
{ }

bool Settings::isConfigured() const
{
    return m_settings->value(u"provider/configured"_s, false).toBool();
}

ProviderSettings Settings::provider() const
{
    ProviderSettings p;
    m_settings->beginGroup(u"provider"_s);
    p.endpoint = m_settings->value(u"endpoint"_s).toString();
    p.model = m_settings->value(u"model"_s).toString();
    p.keySource = keySourceFrom(m_settings->value(u"keySource"_s).toString());
    p.keyVariable = m_settings->value(u"keyVariable"_s, p.keyVariable).toString();
    p.keyFile = m_settings->value(u"keyFile"_s).toString();
    p.stream = m_settings->value(u"stream"_s, true).toBool();
    p.useDemo = m_settings->value(u"useDemo"_s, true).toBool();
    m_settings->endGroup();
    return p;
}

void Settings::setProvider(const ProviderSettings &p)
{
    m_settings->beginGroup(u"provider"_s);
    m_settings->setValue(u"configured"_s, true);
    m_settings->setValue(u"endpoint"_s, p.endpoint);
    m_settings->setValue(u"model"_s, p.model);
    m_settings->setValue(u"keySource"_s, keySourceName(p.keySource));
    m_settings->setValue(u"keyVariable"_s, p.keyVariable);
    m_settings->setValue(u"keyFile"_s, p.keyFile);
    m_settings->setValue(u"stream"_s, p.stream);
    m_settings->setValue(u"useDemo"_s, p.useDemo);
    m_settings->endGroup();
}

QByteArray Settings::windowGeometry() const
{
    return m_settings->value(u"window/geometry"_s).toByteArray();
}

void Settings::setWindowGeometry(const QByteArray &geometry)
{
    m_settings->setValue(u"window/geometry"_s, geometry);
}

QByteArray Settings::windowSplitter() const
{
    return m_settings->value(u"window/splitter"_s).toByteArray();
}

void Settings::setWindowSplitter(const QByteArray &state)
{
    m_settings->setValue(u"window/splitter"_s, state);
}

QString Settings::insightsRange() const
{
    return m_settings->value(u"insights/range"_s).toString();
}

QString Settings::insightsSplit() const
{
    return m_settings->value(u"insights/split"_s).toString();
}

void Settings::setInsightsView(const QString &range, const QString &split)
{
    if (!range.isEmpty())
        m_settings->setValue(u"insights/range"_s, range);
    m_settings->setValue(u"insights/split"_s, split);
}

QString Settings::lastExportDir() const
{
    return m_settings->value(u"export/lastDir"_s).toString();
}

void Settings::setLastExportDir(const QString &dir)
{
    m_settings->setValue(u"export/lastDir"_s, dir);
}

QDateTime Settings::historyPagesCheckedAt() const
{
    return QDateTime::fromString(
        m_settings->value(u"history/pagesCheckedAt"_s).toString(), Qt::ISODateWithMs);
}

void Settings::setHistoryPagesCheckedAt(const QDateTime &when)
{
    m_settings->setValue(u"history/pagesCheckedAt"_s, when.toUTC().toString(Qt::ISODateWithMs));
}

int Settings::historyRetentionDays() const
{
    const int days = m_settings->value(u"history/retentionDays"_s, 0).toInt();
    return days >= 1 && days <= 3650 ? days : 0;
}

void Settings::setHistoryRetentionDays(int days)
{
    m_settings->setValue(u"history/retentionDays"_s, days >= 1 && days <= 3650 ? days : 0);
}

session::ParkingChoice Settings::parkingChoice() const
{
    const QString name = m_settings->value(u"retries/parking"_s).toString();
    for (const auto choice :
        { session::ParkingChoice::Automatic, session::ParkingChoice::GiveUp }) {
        if (name == parkingChoiceName(choice))
            return choice;
    }
    return session::ParkingChoice::Ask;
}

void Settings::setParkingChoice(session::ParkingChoice choice)
{
    m_settings->setValue(u"retries/parking"_s, parkingChoiceName(choice));
}

bool Settings::pacingEnabled() const
{
    return m_settings->value(u"retries/pacing"_s, true).toBool();
}

bool Settings::askBeforeQuit() const
{
    return m_settings->value(u"window/ask_before_quit"_s, true).toBool();
}

void Settings::setAskBeforeQuit(bool ask)
{
    m_settings->setValue(u"window/ask_before_quit"_s, ask);
}

void Settings::setPacingEnabled(bool enabled)
{
    m_settings->setValue(u"retries/pacing"_s, enabled);
}

bool Settings::autoTrim() const
{
    return m_settings->value(u"context/autoTrim"_s, false).toBool();
}

void Settings::setAutoTrim(bool automatic)
{
    m_settings->setValue(u"context/autoTrim"_s, automatic);
}

int Settings::autoContinue() const
{
    return std::clamp(
        m_settings->value(u"request/autoContinue"_s, 0).toInt(), 0, session::kMaxAutoContinues);
}

void Settings::setAutoContinue(int times)
{
    m_settings->setValue(
        u"request/autoContinue"_s, std::clamp(times, 0, session::kMaxAutoContinues));
}

RequestOptions Settings::requestOptions() const
{
    RequestOptions o;
    m_settings->beginGroup(u"request"_s);
    o.systemPrompt = m_settings->value(u"systemPrompt"_s).toString();
    o.maxTokens = m_settings->value(u"maxTokens"_s, 0).toInt();
    o.temperature = m_settings->value(u"temperature"_s, -1.0).toDouble();
    o.shown = m_settings->value(u"shown"_s, false).toBool();
    m_settings->endGroup();
    return o;
}

void Settings::setRequestOptions(const RequestOptions &o)
{
    m_settings->beginGroup(u"request"_s);
    m_settings->setValue(u"systemPrompt"_s, o.systemPrompt);
    m_settings->setValue(u"maxTokens"_s, o.maxTokens);
    m_settings->setValue(u"temperature"_s, o.temperature);
    m_settings->setValue(u"shown"_s, o.shown);
    m_settings->endGroup();
}

void Settings::sync()
{
    m_settings->sync();
}

QString Settings::fileName() const
{
    return m_settings->fileName();
}

session::ProfileSet Settings::profiles() const
{
    return session::loadProfiles(*m_settings);
}

void Settings::setProfiles(const session::ProfileSet &profiles)
{
    session::saveProfiles(*m_settings, profiles);
}

} // namespace capwatch::ui
