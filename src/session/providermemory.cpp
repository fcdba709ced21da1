#include "providermemory.h"

#include "history/historywriter.h"
#include "sessionlogging.h"

#include <QSettings>
#include <QUrl>
#include <algorithm>
#include <cmath>

namespace capwatch::session {

using namespace Qt::StringLiterals;

namespace {

constexpr QChar kKeySeparator = u'\n';

/// Wall time `ms` after `from`, scaled: invalid when the reset was not reported.
QDateTime resetAt(const QDateTime &from, const std::optional<retry::Millis> &reset, double scale)
{
    if (!reset)
        return {};
    return from.addMSecs(qint64(std::ceil(double(reset->count()) * scale)));
}

/// Policy time left until `at` for a session at `scale`; nullopt when `at` is invalid.
std::optional<retry::Millis> leftUntil(const QDateTime &at, const QDateTime &now, double scale)
{
    if (!at.isValid())
        return std::nullopt;
    const qint64 wallMs = now.msecsTo(at);
    // Bounded before the conversion: a tiny scale or a hand-edited row must not overflow it.
    constexpr double kBound = 1e15; // ms: some 30,000 years
    const double policyMs = std::ceil(double(wallMs) / (scale > 0 ? scale : 1.0));
    return retry::Millis(qint64(std::clamp(policyMs, -kBound, kBound)));
}

} // namespace

ProviderMemory::ProviderMemory(QObject *parent)
    : QObject(parent)
{
    connect(&m_tally, &UsageTally::loaded, this, &ProviderMemory::emitLoadedWhenDone);
}

ProviderMemory::~ProviderMemory() = default;

QString ProviderMemory::keyOf(const QString &provider, const QString &model)
{
    return provider + kKeySeparator + model;
}

QString ProviderMemory::groupOf(const QString &key)
{
    return u"providers/"_s + QString::fromLatin1(QUrl::toPercentEncoding(key));
}

QDateTime ProviderMemory::now() const
{
    return m_clock ? m_clock() : QDateTime::currentDateTimeUtc();
}

void ProviderMemory::setWallClock(std::function<QDateTime()> clock)
{
    m_clock = std::move(clock);
}

void ProviderMemory::setSettings(QSettings *settings)
{
    m_settings = settings;
    readSettings();
}

void ProviderMemory::readSettings()
{
    if (!m_settings)
        return;
    m_settings->beginGroup(u"providers"_s);
    const QStringList groups = m_settings->childGroups();
    m_settings->endGroup();
    for (const QString &group : groups) {
        const QString key = QUrl::fromPercentEncoding(group.toLatin1());
        if (!key.contains(kKeySeparator))
            continue; // not one of ours
        m_settings->beginGroup(u"providers/"_s + group);
        bool ratioOk = false;
        bool samplesOk = false;
        const double ratio = m_settings->value(u"charsPerToken"_s).toDouble(&ratioOk);
        const int samples = m_settings->value(u"ratioSamples"_s).toInt(&samplesOk);
        // A hand-edited or damaged value is dropped, never guessed at.
        if (ratioOk && samplesOk && samples > 0 && ratio >= retry::kMinCharsPerToken
            && ratio <= retry::kMaxCharsPerToken)
            m_ratios.insert(key, { ratio, samples });
        bool ok = false;
        const qint64 user = m_settings->value(u"contextWindow"_s).toLongLong(&ok);
        if (ok && user > 0)
            m_userContext.insert(key, user);
        const qint64 learned = m_settings->value(u"learnedContextWindow"_s).toLongLong(&ok);
        if (ok && learned > 0)
            m_learnedContext.insert(key, learned);
        m_settings->endGroup();
    }
}

void ProviderMemory::writeSetting(const QString &key, const QString &name, const QVariant &value)
{
    if (!m_settings)
        return;
    if (!m_settings->fileName().isEmpty()) {
        // Off the GUI thread (SettingsFileWriter); m_settings itself stays clean, so it has
        // nothing to write at the next turn of the event loop.
        m_fileWriter.write(
            m_settings->fileName(), m_settings->format(), groupOf(key) + u'/' + name, value);
        return;
    }
    m_settings->beginGroup(groupOf(key));
    if (value.isValid())
        m_settings->setValue(name, value);
    else
        m_settings->remove(name);
    m_settings->endGroup();
}

void ProviderMemory::setHistory(history::HistoryWriter *writer)
{
    if (m_writer)
        disconnect(m_writer, &history::HistoryWriter::opened, this, nullptr);
    m_writer = writer;
    m_tally.setHistory(writer);
    if (!writer) {
        m_loaded = true;
        return;
    }
    m_loaded = false;
    // The window attaches its history before it opens it: the stored reports are read once the
    // database is open, never from a store that has none (that read found nothing at all).
    if (writer->openQueued())
        readStored();
    else
        connect(writer, &history::HistoryWriter::opened, this, &ProviderMemory::readStored,
            Qt::SingleShotConnection);
}

void ProviderMemory::setInFlight(QObject *send, const QString &profile, bool inFlight)
{
    if (!send)
        return;
    const auto it = m_inFlight.constFind(send);
    const bool was = it != m_inFlight.constEnd();
    if (was == inFlight)
        return;
    if (inFlight) {
        m_inFlight.insert(send, profile);
        connect(send, &QObject::destroyed, this, [this, send] {
            if (const QString gone = m_inFlight.take(send); !gone.isNull())
                Q_EMIT inFlightChanged(gone);
        });
    } else {
        const QString left = m_inFlight.take(send);
        disconnect(send, &QObject::destroyed, this, nullptr);
        Q_EMIT inFlightChanged(left);
        return;
    }
    Q_EMIT inFlightChanged(profile);
}

qint64 ProviderMemory::inFlight(const QString &profile) const
{
    qint64 n = 0;
    for (const QString &p : m_inFlight)
        n += p == profile ? 1 : 0;
    return n;
}

void ProviderMemory::emitLoadedWhenDone()
{
    if (isLoaded())
        Q_EMIT loaded();
}

void ProviderMemory::readStored()
{
    if (!m_writer)
        return;
    m_writer->read(
        this, [](history::HistoryStore &store) { return store.providerWindows(); },
        [this](QList<history::ProviderWindowRecord> stored) {
            for (const history::ProviderWindowRecord &w : stored) {
                const QString key = keyOf(w.provider, w.model);
                const auto seen = m_windows.constFind(key);
                // What this process saw since is newer than what was stored.
                if (seen == m_windows.constEnd() || seen->receivedAt < w.receivedAt)
                    m_windows.insert(key, w);
            }
            m_loaded = true;
            for (const history::ProviderWindowRecord &w : stored)
                Q_EMIT windowChanged(w.provider, w.model);
            emitLoadedWhenDone();
        });
}

void ProviderMemory::report(
    const QString &provider, const QString &model, const net::ProviderReport &report)
{
    const QString key = keyOf(provider, model);
    if (!report.window.empty()) {
        const retry::WindowReport &r = report.window;
        history::ProviderWindowRecord w;
        w.provider = provider;
        w.model = model;
        w.receivedAt = report.receivedAt.isValid() ? report.receivedAt : now();
        w.timeScale = report.timeScale > 0 ? report.timeScale : 1.0;
        w.tokensResetAt = resetAt(w.receivedAt, r.resetTokens, w.timeScale);
        w.requestsResetAt = resetAt(w.receivedAt, r.resetRequests, w.timeScale);
        w.limitTokens = r.limitTokens;
        w.remainingTokens = r.remainingTokens;
        w.limitRequests = r.limitRequests;
        w.remainingRequests = r.remainingRequests;
        m_windows.insert(key, w);
        if (m_writer)
            m_writer->saveProviderWindow(w);
        Q_EMIT windowChanged(provider, model);
    }
    if (report.usage.promptTokens && report.requestChars > 0) {
        const retry::LearnedRatio before = ratio(provider, model);
        const retry::LearnedRatio after
            = retry::learnRatio(before, report.requestChars, *report.usage.promptTokens);
        if (after != before) {
            m_ratios.insert(key, after);
            writeSetting(key, u"charsPerToken"_s, after.charsPerToken);
            writeSetting(key, u"ratioSamples"_s, after.samples);
            Q_EMIT estimatesChanged(provider, model);
        }
    }
}

std::optional<history::ProviderWindowRecord> ProviderMemory::window(
    const QString &provider, const QString &model) const
{
    const auto it = m_windows.constFind(keyOf(provider, model));
    if (it == m_windows.constEnd())
        return std::nullopt;
    return *it;
}

retry::PaceInput ProviderMemory::paceInput(const QString &provider, const QString &model,
    qint64 estimatedTokens, bool enabled, double timeScale) const
{
    retry::PaceInput input;
    input.enabled = enabled;
    input.estimatedTokens = estimatedTokens;
    const std::optional<history::ProviderWindowRecord> w = window(provider, model);
    if (!w)
        return input;
    input.report.limitTokens = w->limitTokens;
    input.report.remainingTokens = w->remainingTokens;
    input.report.limitRequests = w->limitRequests;
    input.report.remainingRequests = w->remainingRequests;
    const QDateTime at = now();
    input.tokensResetLeft = leftUntil(w->tokensResetAt, at, timeScale);
    input.requestsResetLeft = leftUntil(w->requestsResetAt, at, timeScale);
    // The report's resets as it gave them, in its own policy time.
    const auto reported = [&](const QDateTime &reset) -> std::optional<retry::Millis> {
        if (!reset.isValid())
            return std::nullopt;
        constexpr double kBound = 1e15;
        const double ms = std::ceil(double(w->receivedAt.msecsTo(reset)) / w->timeScale);
        return retry::Millis(qint64(std::clamp(ms, -kBound, kBound)));
    };
    input.report.resetTokens = reported(w->tokensResetAt);
    input.report.resetRequests = reported(w->requestsResetAt);
    return input;
}

retry::LearnedRatio ProviderMemory::ratio(const QString &provider, const QString &model) const
{
    return m_ratios.value(keyOf(provider, model), retry::LearnedRatio {});
}

std::optional<qint64> ProviderMemory::contextWindow(
    const QString &provider, const QString &model) const
{
    const QString key = keyOf(provider, model);
    if (const auto user = m_userContext.constFind(key); user != m_userContext.constEnd())
        return *user;
    if (const auto learned = m_learnedContext.constFind(key);
        learned != m_learnedContext.constEnd())
        return *learned;
    return std::nullopt;
}

std::optional<qint64> ProviderMemory::userContextWindow(
    const QString &provider, const QString &model) const
{
    const auto it = m_userContext.constFind(keyOf(provider, model));
    if (it == m_userContext.constEnd())
        return std::nullopt;
    return *it;
}

void ProviderMemory::setUserContextWindow(
    const QString &provider, const QString &model, std::optional<qint64> tokens)
{
    const QString key = keyOf(provider, model);
    const std::optional<qint64> before = userContextWindow(provider, model);
    if (tokens && *tokens > 0) {
        m_userContext.insert(key, *tokens);
        writeSetting(key, u"contextWindow"_s, *tokens);
    } else {
        tokens.reset();
        m_userContext.remove(key);
        writeSetting(key, u"contextWindow"_s, QVariant());
    }
    if (before != tokens)
        Q_EMIT estimatesChanged(provider, model);
}

void ProviderMemory::learnContextWindow(
    const QString &provider, const QString &model, qint64 tokens)
{
    if (tokens <= 0)
        return;
    const QString key = keyOf(provider, model);
    if (m_learnedContext.value(key) == tokens)
        return;
    m_learnedContext.insert(key, tokens);
    writeSetting(key, u"learnedContextWindow"_s, tokens);
    qCInfo(lcSession) << "context window of" << model << "learned:" << tokens << "tokens";
    Q_EMIT estimatesChanged(provider, model);
}

} // namespace capwatch::session
