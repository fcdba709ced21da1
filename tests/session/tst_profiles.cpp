// Provider profiles in capwatch.conf (issue 17): the round trip through the INI file, the
// migration of the single provider of before, and what a hand-edited file with a bad value gets:
// an issue naming the file, the line and the key.

#include "retry/pricetable.h"
#include "session/profiles.h"

#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

Q_DECLARE_METATYPE(capwatch::session::ProviderProfile)
Q_DECLARE_METATYPE(capwatch::retry::PolicyLimits)

using namespace capwatch;
using namespace capwatch::session;
using namespace Qt::StringLiterals;

namespace {

ProfileSet sampleSet()
{
    ProfileSet set;
    ProviderProfile demo = ProfileSet().demo();
    demo.overrides.waitCapS = 5;
    demo.overrides.budgetS = 12;
    demo.overrides.maxAttempts = 3;
    demo.fallback = u"paid"_s;
    set.profiles.append(demo);

    ProviderProfile free;
    free.id = u"free-tier"_s;
    free.name = u"Free tier"_s;
    free.endpoint = QUrl(u"https://api.example.com/v1"_s);
    free.model = u"llama-3.1-70b"_s;
    free.keyVariable = u"FREE_TIER_KEY"_s;
    free.contextWindow = 8192;
    free.overrides.waitCapS = 5;
    free.overrides.budgetS = 0;
    free.overrides.maxAttempts = 10;
    free.overrides.backoffBaseS = 60;
    free.overrides.headerTimeoutS = 10;
    free.overrides.retryTransient = false; // token_limit and rate_limit stay retried
    free.fallback = u"paid"_s;
    free.autoFallback = true;
    // In the order QSettings reads keys: sorted.
    free.extraHeaders = { { "HTTP-Referer", "https://a.example/x, y" }, { "X-Title", "capwatch" } };
    free.cachedModels = { u"llama-3.1-70b"_s, u"llama-3.1-8b"_s };
    set.profiles.append(free);

    ProviderProfile paid;
    paid.id = u"paid"_s;
    paid.name = u"Paid, with a comma"_s;
    paid.endpoint = QUrl(u"https://llm.example.org/v1/chat/completions"_s);
    paid.model = u"gpt-x"_s;
    paid.keySource = ProviderChoice::KeySource::Keychain;
    paid.keychainName = u"profile/3f0c2a1e-paid"_s;
    paid.stream = false;
    paid.cachedModels = { u"gpt-x"_s };
    set.profiles.append(paid);

    ProviderProfile local;
    local.id = u"local"_s;
    local.name = u"Local"_s;
    local.endpoint = QUrl(u"http://127.0.0.1:8080/v1"_s);
    local.keyVariable.clear(); // none
    local.overrides.retryTokenLimit = false;
    local.overrides.retryRateLimit = false;
    local.overrides.retryTransient = false;
    set.profiles.append(local);

    ProviderProfile filed;
    filed.id = u"filed"_s;
    filed.name = u"Key in a file"_s;
    filed.endpoint = QUrl(u"https://files.example.net/v1"_s);
    filed.model = u"m"_s;
    filed.keySource = ProviderChoice::KeySource::KeyFile;
    filed.keyFile = u"/home/u/.config/key"_s;
    set.profiles.append(filed);
    set.defaultProfile = u"free-tier"_s;
    return set;
}

QString writeFile(const QTemporaryDir &dir, const QByteArray &text)
{
    const QString path = dir.filePath(u"capwatch.conf"_s);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    f.write(text);
    return path;
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

ProfileSet loadFile(const QString &path)
{
    QSettings s(path, QSettings::IniFormat);
    return loadProfiles(s);
}

QStringList idsOf(const ProfileSet &set)
{
    QStringList out;
    for (const auto &p : set.profiles)
        out << p.id;
    return out;
}

QString issuesText(const ProfileSet &set)
{
    QStringList out;
    for (const auto &i : set.issues)
        out << i.text();
    return out.join(u'\n');
}

} // namespace

class TestProfiles final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTrip();
    void writtenFileIsPlainIni();
    void migration_data();
    void migration();
    void handWrittenBadValueNamesFileLineKey();
    void readErrors_data();
    void readErrors();
    void outOfRangeIsClampedWithAWarning_data();
    void outOfRangeIsClampedWithAWarning();
    void unknownKeysWarn();
    void demoCannotBeRemoved();
    void keyNeverWritten();
    void notIniStillGivesTheDemo();
    void orderAndDefault();
    void profileProblem_data();
    void profileProblem();
    void choiceCarriesTheProfile();
    void keychainEntryGivenOnce();
    void limitsAndPricesAreReadWrittenAndChecked();
};

void TestProfiles::roundTrip()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"capwatch.conf"_s);
    const ProfileSet set = sampleSet();
    {
        QSettings s(path, QSettings::IniFormat);
        saveProfiles(s, set);
    }
    const ProfileSet back = loadFile(path);
    QVERIFY2(back.issues.isEmpty(), qPrintable(issuesText(back)));
    QCOMPARE(back.defaultProfile, set.defaultProfile);
    QCOMPARE(idsOf(back), idsOf(set));
    for (qsizetype i = 0; i < set.profiles.size(); ++i) {
        const ProviderProfile &a = back.profiles.at(i);
        const ProviderProfile &b = set.profiles.at(i);
        QCOMPARE(a.name, b.name);
        QCOMPARE(a.endpoint, b.endpoint);
        QCOMPARE(a.keyVariable, b.keyVariable);
        QCOMPARE(a.keyFile, b.keyFile);
        QCOMPARE(a.extraHeaders, b.extraHeaders);
        QCOMPARE(a.cachedModels, b.cachedModels);
        QCOMPARE(a.fallback, b.fallback);
        QVERIFY(a.overrides == b.overrides);
        QVERIFY2(a == b, qPrintable(b.id));
    }
    QCOMPARE(back.profiles.at(1).limits().waitCap, retry::Millis(5000));
    QCOMPARE(back.profiles.at(1).limits().budget, retry::Millis(0));
    QVERIFY(!back.profiles.at(1).limits().retryTransient);

    // Saved again unchanged, the file is the same bytes.
    const QByteArray first = readFile(path);
    {
        QSettings s(path, QSettings::IniFormat);
        saveProfiles(s, back);
    }
    QCOMPARE(readFile(path), first);
}

void TestProfiles::writtenFileIsPlainIni()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"capwatch.conf"_s);
    {
        QSettings s(path, QSettings::IniFormat);
        saveProfiles(s, sampleSet());
    }
    const QByteArray text = readFile(path);
    for (const QByteArray &line : { QByteArray("[profiles]"), QByteArray("default=free-tier"),
             QByteArray("order=demo, free-tier, paid, local, filed"),
             QByteArray("[profile.free-tier]"), QByteArray("name=Free tier"),
             QByteArray("endpoint=https://api.example.com/v1"), QByteArray("key=env:FREE_TIER_KEY"),
             QByteArray("max_wait=5"), QByteArray("budget=0"), QByteArray("max_attempts=10"),
             QByteArray("retry=token_limit, rate_limit"), QByteArray("fallback=paid"),
             QByteArray("fallback_auto=true"), QByteArray("header.X-Title=capwatch"),
             QByteArray("models=llama-3.1-70b, llama-3.1-8b"), QByteArray("context_window=8192"),
             QByteArray("key=keychain"), QByteArray("keychain_entry=profile/3f0c2a1e-paid"),
             QByteArray("key=none"), QByteArray("retry=none"),
             QByteArray("key=file:/home/u/.config/key"), QByteArray("stream=false") })
        QVERIFY2(text.contains(QByteArray("\n" + line + "\n"))
                || text.startsWith(QByteArray(line + "\n")),
            line.constData());
    // The demo's section holds its policy and fallback only.
    const qsizetype demoAt = text.indexOf("[profile.demo]");
    QVERIFY(demoAt >= 0);
    const QByteArray demo = text.mid(demoAt, text.indexOf("\n\n", demoAt) - demoAt);
    QCOMPARE(demo,
        QByteArray("[profile.demo]\nbudget=12\nfallback=paid\nfallback_auto=false\n"
                   "max_attempts=3\nmax_wait=5"));
}

void TestProfiles::migration_data()
{
    QTest::addColumn<QByteArray>("file");
    QTest::addColumn<QStringList>("ids");
    QTest::addColumn<QString>("defaultProfile");
    QTest::addColumn<QString>("keychainEntry");

    QTest::newRow("nothing") << QByteArray() << QStringList { u"demo"_s } << u"demo"_s << QString();
    QTest::newRow("demo only") << QByteArray("[provider]\nconfigured=true\nuseDemo=true\n")
                               << QStringList { u"demo"_s } << u"demo"_s << QString();
    QTest::newRow("provider in use")
        << QByteArray("[provider]\nconfigured=true\nendpoint=https://llm.example.org/v1\n"
                      "model=m1\nkeySource=keychain\nuseDemo=false\nstream=false\n")
        << QStringList { u"demo"_s, u"default"_s } << u"default"_s << u"api-key"_s;
    QTest::newRow("provider set, demo chosen")
        << QByteArray("[provider]\nconfigured=true\nendpoint=https://llm.example.org/v1\n"
                      "model=m1\nkeySource=environment\nkeyVariable=MY_KEY\nuseDemo=true\n")
        << QStringList { u"demo"_s, u"default"_s } << u"demo"_s << u"api-key"_s;
}

void TestProfiles::migration()
{
    QFETCH(QByteArray, file);
    QFETCH(QStringList, ids);
    QFETCH(QString, defaultProfile);
    QFETCH(QString, keychainEntry);
    QTemporaryDir dir;
    const ProfileSet set = loadFile(writeFile(dir, file));
    QVERIFY2(set.issues.isEmpty(), qPrintable(issuesText(set)));
    QCOMPARE(idsOf(set), ids);
    QCOMPARE(set.defaultProfile, defaultProfile);
    QVERIFY(set.profiles.first().builtInDemo);
    if (ids.size() > 1) {
        const ProviderProfile &p = set.profiles.at(1);
        QCOMPARE(p.name, u"Default"_s);
        QCOMPARE(p.endpoint, QUrl(u"https://llm.example.org/v1"_s));
        QCOMPARE(p.model, u"m1"_s);
        QCOMPARE(p.keychainEntry(), keychainEntry);
        if (QTest::currentDataTag() == "provider in use"_ba) {
            QCOMPARE(p.keySource, ProviderChoice::KeySource::Keychain);
            QVERIFY(!p.stream);
        } else {
            QCOMPARE(p.keySource, ProviderChoice::KeySource::Environment);
            QCOMPARE(p.keyVariable, u"MY_KEY"_s);
        }
    }
}

void TestProfiles::handWrittenBadValueNamesFileLineKey()
{
    QTemporaryDir dir;
    const QString path = writeFile(dir,
        "[profiles]\n"
        "default=free\n"
        "\n"
        "[profile.free]\n"
        "name=Free\n"
        "endpoint=https://api.example.com/v1   ; the free tier\n"
        "max_attempts=many\n"
        "max_wait=5\n");
    const ProfileSet set = loadFile(path);
    QCOMPARE(set.issues.size(), 1);
    const ProfileIssue &i = set.issues.first();
    QCOMPARE(i.severity, ProfileIssue::Severity::Error);
    QCOMPARE(i.text(),
        path
            + u":7: [profile.free] max_attempts: 'many' is not a whole number; the default (5) is "
              "used"_s);
    QVERIFY(set.hasErrors(u"free"_s));
    QVERIFY(!set.hasErrors(u"demo"_s));
    const ProviderProfile *free = set.find(u"Free"_s);
    QVERIFY(free);
    QCOMPARE(free->limits().maxAttempts, retry::kMaxAttempts); // the default is used
    QCOMPARE(free->limits().waitCap, retry::Millis(5000)); // the rest is read
    QCOMPARE(free->endpoint, QUrl(u"https://api.example.com/v1"_s)); // the comment is not in it
    QCOMPARE(set.defaultProfile, u"free"_s);
}

void TestProfiles::readErrors_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("message");

    QTest::newRow("unknown key source") << QByteArray("key=sk-live-0123456789abcdef") << u"key"_s
                                        << u"not a key source (env:VARIABLE, file:PATH, keychain "
                                           "or none; the value is not shown, in case it is a key): "
                                           "no key is sent until it is fixed"_s;
    QTest::newRow("unknown category")
        << QByteArray("retry=token_limit, quota") << u"retry"_s
        << u"unknown category 'quota' (token_limit, rate_limit, transient or none); all three are "
           "retried"_s;
    QTest::newRow("invalid endpoint")
        << QByteArray("endpoint=ftp://files.example.com/v1") << u"endpoint"_s
        << u"'ftp://files.example.com/v1' is not an http:// or "
           "https:// URL"_s;
    QTest::newRow("fallback to nothing") << QByteArray("fallback=nowhere") << u"fallback"_s
                                         << u"'nowhere' names no profile; no fallback"_s;
    QTest::newRow("fallback to itself") << QByteArray("fallback=free") << u"fallback"_s
                                        << u"a profile cannot fall back to itself"_s;
    QTest::newRow("not a bool") << QByteArray("stream=maybe") << u"stream"_s
                                << u"'maybe' is not true or false; true is used"_s;
    QTest::newRow("budget not a number") << QByteArray("budget=12.5") << u"budget"_s
                                         << u"'12.5' is not a whole number; the default (120 s) is "
                                            "used"_s;
    QTest::newRow("context window") << QByteArray("context_window=big") << u"context_window"_s
                                    << u"'big' is not a positive whole number of tokens; the "
                                       "window stays unknown"_s;
    QTest::newRow("reserved header")
        << QByteArray("header.Authorization=Bearer x") << u"header.Authorization"_s
        << u"capwatch sets Authorization itself; not sent"_s;
}

void TestProfiles::readErrors()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, key);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = writeFile(dir,
        "[profiles]\norder=free\n\n[profile.free]\nname=Free\nendpoint=https://a.example/v1\n"
            + line + "\nmodel=m\n");
    const ProfileSet set = loadFile(path);
    QCOMPARE(set.issues.size(), 1);
    const ProfileIssue &i = set.issues.first();
    QCOMPARE(i.severity, ProfileIssue::Severity::Error);
    QCOMPARE(i.file, path);
    QCOMPARE(i.line, 7);
    QCOMPARE(i.section, u"profile.free"_s);
    QCOMPARE(i.key, key);
    QCOMPARE(i.message, message);
    QVERIFY(!i.text().contains(u"sk-live"_s));
    // The default is used, the rest of the profile is read.
    const ProviderProfile *p = set.find(u"free"_s);
    QVERIFY(p);
    QCOMPARE(p->model, u"m"_s);
    QVERIFY(p->fallback.isEmpty());
    QVERIFY(p->extraHeaders.isEmpty());
    QCOMPARE(p->limits(), retry::PolicyLimits {});
    QVERIFY(p->stream);
    if (key == u"key") {
        // As `none`: never the default variable's key (another provider's) to this endpoint.
        QCOMPARE(p->keySource, ProviderChoice::KeySource::Environment);
        QCOMPARE(p->keyVariable, QString());
        QCOMPARE(keySourceSpec(*p), u"none"_s);
    }
}

void TestProfiles::outOfRangeIsClampedWithAWarning_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("message");
    QTest::addColumn<retry::PolicyLimits>("limits");

    retry::PolicyLimits l;
    l.waitCap = retry::Millis(600'000);
    QTest::newRow("max_wait 900") << QByteArray("max_wait=900")
                                  << u"max_wait: 600 s is the most; 900 was clamped to 600 s"_s
                                  << l;
    l = {};
    l.budget = retry::Millis(0);
    QTest::newRow("budget -5") << QByteArray("budget=-5")
                               << u"budget: 0 s is the least; -5 was clamped to 0 s"_s << l;
    l = {};
    l.maxAttempts = 10;
    QTest::newRow("max_attempts 11")
        << QByteArray("max_attempts=11") << u"max_attempts: 10 is the most; 11 was clamped to 10"_s
        << l;
    l = {};
    l.backoffBase = retry::Millis(1000);
    QTest::newRow("backoff_base 0")
        << QByteArray("backoff_base=0") << u"backoff_base: 1 s is the least; 0 was clamped to 1 s"_s
        << l;
    l = {};
    l.headerTimeout = retry::Millis(300'000);
    QTest::newRow("header_timeout") << QByteArray("header_timeout=301")
                                    << u"header_timeout: 300 s is the most; 301 was clamped to "
                                       "300 s"_s
                                    << l;
}

void TestProfiles::outOfRangeIsClampedWithAWarning()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, message);
    QFETCH(retry::PolicyLimits, limits);
    QTemporaryDir dir;
    const QString path = writeFile(dir, "[profiles]\n[profile.demo]\n" + line + "\n");
    const ProfileSet set = loadFile(path);
    QCOMPARE(set.issues.size(), 1);
    QCOMPARE(set.issues.first().severity, ProfileIssue::Severity::Warning);
    QCOMPARE(set.issues.first().text(), path + u":3: [profile.demo] "_s + message);
    QVERIFY(!set.hasErrors(u"demo"_s));
    QCOMPARE(set.demo().limits(), limits);
}

void TestProfiles::unknownKeysWarn()
{
    QTemporaryDir dir;
    const QString path = writeFile(dir,
        "[profiles]\ncolour=blue\n[profile.demo]\nendpoint=https://x.example/v1\n"
        "[profile.p]\nname=P\nendpoint=https://p.example/v1\nmax_wiat=5\n");
    const ProfileSet set = loadFile(path);
    QStringList texts;
    for (const auto &i : set.issues) {
        QCOMPARE(i.severity, ProfileIssue::Severity::Warning);
        texts << i.text();
    }
    QCOMPARE(texts,
        QStringList({ path
                + u":4: [profile.demo] endpoint: the demo's provider is built in: only its policy, "
                  "limits, prices and fallback are read; ignored"_s,
            path + u":8: [profile.p] max_wiat: unknown key; ignored"_s,
            path + u":2: [profiles] colour: unknown key; ignored"_s }));
    QVERIFY(set.demo().endpoint.isEmpty());
}

void TestProfiles::demoCannotBeRemoved()
{
    QTemporaryDir dir;
    const QString path = writeFile(dir,
        "[profiles]\norder=demo, a\n[profile.demo]\nmax_wait=7\n"
        "[profile.a]\nname=A\nendpoint=https://a.example/v1\nmodel=m\n");
    ProfileSet set = loadFile(path);
    QCOMPARE(idsOf(set), QStringList({ u"demo"_s, u"a"_s }));
    set.profiles.removeFirst(); // a save without the demo
    set.defaultProfile = u"a"_s;
    {
        QSettings s(path, QSettings::IniFormat);
        saveProfiles(s, set);
    }
    const ProfileSet back = loadFile(path);
    QVERIFY2(back.issues.isEmpty(), qPrintable(issuesText(back)));
    QCOMPARE(idsOf(back), QStringList({ u"demo"_s, u"a"_s }));
    QVERIFY(back.profiles.first().builtInDemo);
    QCOMPARE(back.demo().limits().waitCap, retry::Millis(7000)); // its section kept
    QCOMPARE(back.defaultProfile, u"a"_s);
    // A profile removed from the set leaves the file.
    ProfileSet onlyDemo = back;
    onlyDemo.profiles.removeLast();
    {
        QSettings s(path, QSettings::IniFormat);
        saveProfiles(s, onlyDemo);
    }
    QVERIFY(!readFile(path).contains("[profile.a]"));
    QCOMPARE(idsOf(loadFile(path)), QStringList({ u"demo"_s }));
    QCOMPARE(loadFile(path).defaultProfile, u"demo"_s);
}

void TestProfiles::keyNeverWritten()
{
    const QByteArray secret = "sk-never-in-the-file-4d1e0c";
    qputenv("FREE_TIER_KEY", secret);
    QTemporaryDir dir;
    const QString path = dir.filePath(u"capwatch.conf"_s);
    ProfileSet set = sampleSet();
    {
        QSettings s(path, QSettings::IniFormat);
        saveProfiles(s, set);
        saveProfiles(s, loadProfiles(s));
    }
    const QByteArray text = readFile(path);
    QVERIFY(!text.isEmpty());
    QVERIFY(!text.contains(secret));
    QVERIFY(!text.toLower().contains("authorization"));
    QVERIFY(text.contains("key=env:FREE_TIER_KEY"));
    qunsetenv("FREE_TIER_KEY");
}

void TestProfiles::notIniStillGivesTheDemo()
{
    QTemporaryDir dir;
    const QString path = writeFile(dir, "\x01\x02 not ini\n{\"json\": [1, 2]}\n[[[\n");
    const ProfileSet set = loadFile(path);
    QCOMPARE(idsOf(set), QStringList({ u"demo"_s }));
    QCOMPARE(set.defaultProfile, u"demo"_s);
    QCOMPARE(set.issues.size(), 1);
    QCOMPARE(set.issues.first().text(),
        path + u": not an INI settings file; only the built-in demo profile is used"_s);
    // A file that is not there is an empty one: the demo, nothing wrong.
    const ProfileSet none = loadFile(dir.filePath(u"missing.conf"_s));
    QCOMPARE(idsOf(none), QStringList({ u"demo"_s }));
    QVERIFY(none.issues.isEmpty());
}

void TestProfiles::orderAndDefault()
{
    QTemporaryDir dir;
    const QString path = writeFile(dir,
        "[profiles]\ndefault=Second\norder=b, gone, demo\n"
        "[profile.a]\nname=First\nendpoint=https://a.example/v1\n"
        "[profile.b]\nname=Second\nendpoint=https://b.example/v1\n");
    const ProfileSet set = loadFile(path);
    QCOMPARE(idsOf(set), QStringList({ u"demo"_s, u"b"_s, u"a"_s }));
    QCOMPARE(set.defaultProfile, u"b"_s); // named by its name
    QCOMPARE(set.issues.size(), 1);
    QCOMPARE(set.issues.first().text(),
        path + u":3: [profiles] order: no [profile.gone] section; 'gone' left out"_s);
    QCOMPARE(set.find(u"second"_s)->id, u"b"_s);
    QCOMPARE(set.find(u"a"_s)->name, u"First"_s);

    const QString bad = writeFile(dir, "[profiles]\ndefault=nobody\n");
    const ProfileSet b = loadFile(bad);
    QCOMPARE(b.defaultProfile, u"demo"_s);
    QCOMPARE(b.issues.size(), 1);
    QCOMPARE(b.issues.first().text(),
        bad + u":2: [profiles] default: 'nobody' names no profile; the demo is the default"_s);
}

void TestProfiles::profileProblem_data()
{
    QTest::addColumn<ProviderProfile>("profile");
    QTest::addColumn<QString>("problem");
    QTest::addColumn<int>("field"); // ProfileProblem::Field: the page focuses by it
    using F = ProfileProblem::Field;

    const ProfileSet set = sampleSet();
    ProviderProfile p = set.profiles.at(1);
    QTest::newRow("fine") << p << QString() << int(F::None);
    p.name = u"  "_s;
    QTest::newRow("no name") << p << u"A profile needs a name."_s << int(F::Name);
    p.name = u"paid, WITH a comma"_s;
    QTest::newRow("taken name") << p << u"Another profile is already named “Paid, with a comma”."_s
                                << int(F::Name);
    p = set.profiles.at(1);
    p.endpoint = QUrl(u"file:///etc/passwd"_s);
    QTest::newRow("not http") << p
                              << u"The endpoint must be an http:// or https:// URL with a host."_s
                              << int(F::Endpoint);
    p = set.profiles.at(1);
    p.extraHeaders.append(std::pair<QByteArray, QByteArray>("authorization", "Bearer x"));
    QTest::newRow("authorization")
        << p << u"capwatch sets the header authorization itself."_s << int(F::Headers);
    p = set.profiles.at(1);
    p.extraHeaders.append(std::pair<QByteArray, QByteArray>("Content-Type", "text/plain"));
    QTest::newRow("content-type") << p << u"capwatch sets the header Content-Type itself."_s
                                  << int(F::Headers);
    p = set.profiles.at(1);
    p.extraHeaders.append(
        std::pair<QByteArray, QByteArray>("X-Evil", "a\r\nAuthorization: Bearer x"));
    QTest::newRow("crlf") << p << u"A header cannot contain a line break."_s << int(F::Headers);
    p = set.profiles.at(1);
    p.fallback = p.id;
    QTest::newRow("fallback to itself")
        << p << u"A profile cannot fall back to itself."_s << int(F::Fallback);
    p.fallback = u"nowhere"_s;
    QTest::newRow("unknown fallback")
        << p << u"The fallback “nowhere” is not a profile."_s << int(F::Fallback);
    QTest::newRow("demo") << set.demo() << QString() << int(F::None);
}

void TestProfiles::profileProblem()
{
    QFETCH(ProviderProfile, profile);
    QFETCH(QString, problem);
    QFETCH(int, field);
    const ProfileProblem found = session::profileProblem(profile, sampleSet());
    QCOMPARE(found.message, problem);
    QCOMPARE(int(found.field), field);
    QCOMPARE(found.isEmpty(), problem.isEmpty());
}

void TestProfiles::choiceCarriesTheProfile()
{
    const ProfileSet set = sampleSet();
    const ProviderChoice c = set.find(u"free-tier"_s)->choice();
    QCOMPARE(c.profile, u"free-tier"_s);
    QCOMPARE(c.profileName, u"Free tier"_s);
    QCOMPARE(c.limits.maxAttempts, 10);
    QCOMPARE(c.contextWindow, std::optional<qint64>(8192));
    QCOMPARE(c.extraHeaders.size(), 2);
    QCOMPARE(c.keychainEntry, u"profile/free-tier"_s);
    QCOMPARE(keySourceSpec(*set.find(u"paid"_s)), u"keychain"_s);
    QCOMPARE(keySourceSpec(*set.find(u"local"_s)), u"none"_s);
    QVERIFY(set.demo().choice().demo);
    QCOMPARE(makeProfileId(u"Free tier"_s, set), u"free-tier-2"_s);
    QCOMPARE(makeProfileId(u"Ünïcode!"_s, set), u"n-code"_s);
}

void TestProfiles::keychainEntryGivenOnce()
{
    // A fresh entry is random: two never meet, and neither is made from a name or an id.
    const QString a = newKeychainEntry(), b = newKeychainEntry();
    QVERIFY(a.startsWith(u"profile/"_s));
    QVERIFY(b.startsWith(u"profile/"_s));
    QVERIFY(a != b);
    QCOMPARE(a.size(), qsizetype(8 + 36)); // "profile/" and a UUID without braces

    // A file of before keychain_entry: the keychain profile keeps the entry that version used,
    // and the next save writes it down; a profile off the keychain gets none.
    QTemporaryDir dir;
    const QString path = writeFile(dir,
        "[profiles]\norder=work, home, default\n\n"
        "[profile.work]\nname=Work\nendpoint=https://w.example/v1\nkey=keychain\n\n"
        "[profile.home]\nname=Home\nendpoint=https://h.example/v1\nkey=env:HOME_KEY\n\n"
        "[profile.default]\nname=Default\nendpoint=https://d.example/v1\nkey=keychain\n\n"
        "[profile.lab]\nname=Lab\nendpoint=https://l.example/v1\nkey=keychain\n"
        "keychain_entry=profile/0d6c1f0e-lab\n");
    ProfileSet set = loadFile(path);
    QVERIFY2(set.issues.isEmpty(), qPrintable(issuesText(set)));
    QCOMPARE(set.find(u"work"_s)->keychainName, u"profile/work"_s);
    QCOMPARE(set.find(u"default"_s)->keychainName, u"api-key"_s);
    QCOMPARE(set.find(u"lab"_s)->keychainEntry(), u"profile/0d6c1f0e-lab"_s);
    QCOMPARE(set.find(u"lab"_s)->choice().keychainEntry, u"profile/0d6c1f0e-lab"_s);
    QCOMPARE(set.find(u"home"_s)->keychainName, QString());
    {
        QSettings s(path, QSettings::IniFormat);
        saveProfiles(s, set);
    }
    const QByteArray text = readFile(path);
    QVERIFY(text.contains("[profile.work]\nendpoint=https://w.example/v1\nkey=keychain\n"
                          "keychain_entry=profile/work\n"));
    QVERIFY(text.contains("keychain_entry=api-key\n"));
    QVERIFY(text.contains("keychain_entry=profile/0d6c1f0e-lab\n"));
    const qsizetype home = text.indexOf("[profile.home]");
    QVERIFY(home >= 0);
    QVERIFY(!text.mid(home, text.indexOf("\n\n", home) - home).contains("keychain_entry"));

    // Renamed, a profile keeps its entry (the id and the entry are not made from the name).
    set.find(u"lab"_s)->name = u"Laboratory"_s;
    {
        QSettings s(path, QSettings::IniFormat);
        saveProfiles(s, set);
    }
    QCOMPARE(loadFile(path).find(u"lab"_s)->keychainEntry(), u"profile/0d6c1f0e-lab"_s);

    // A section copied by hand with its entry: said, as the two would share a key.
    const QString copied = writeFile(dir,
        "[profile.a]\nname=A\nendpoint=https://a.example/v1\nkey=keychain\n"
        "keychain_entry=profile/same\n\n"
        "[profile.b]\nname=B\nendpoint=https://b.example/v1\nkey=keychain\n"
        "keychain_entry=profile/same\n");
    const ProfileSet shared = loadFile(copied);
    QCOMPARE(shared.issues.size(), 1);
    QCOMPARE(shared.issues.first().severity, ProfileIssue::Severity::Warning);
    QCOMPARE(shared.issues.first().text(),
        copied
            + u":11: [profile.b] keychain_entry: profile 'a' has the same entry: a key stored "
              "for one is the other's too"_s);

    // The demo has none, and none is read for it.
    const QString demoPath = writeFile(dir, "[profile.demo]\nkeychain_entry=profile/x\n");
    const ProfileSet demo = loadFile(demoPath);
    QCOMPARE(demo.demo().keychainEntry(), QString());
    QCOMPARE(demo.issues.size(), 1);
    QCOMPARE(demo.issues.first().severity, ProfileIssue::Severity::Warning);
}

void TestProfiles::limitsAndPricesAreReadWrittenAndChecked()
{
    QTemporaryDir dir;
    const QString path = writeFile(dir,
        "[profile.demo]\n"
        "spend_tokens_day=500\n"
        "provider_rpm=2\n"
        "\n"
        "[profile.p]\n"
        "name=P\n"
        "endpoint=https://api.example.com/v1\n"
        "spend_tokens_month=100000\n"
        "spend_cost_day=1.5\n"
        "spend_cost_month=20\n"
        "limit_action=park\n"
        "provider_tpm=6000\n"
        "provider_rpd=50\n"
        "provider_tpd=abc\n"
        "price.openai/gpt-4o-mini=0.1, 0.4, 0.05\n"
        "price.my-model=2,8\n"
        "price.bad=1\n");
    const ProfileSet set = loadFile(path);
    // The demo takes limits too; the bad values are named with their line and not applied.
    const ProviderProfile &demo = set.demo();
    QCOMPARE(demo.spend.tokensDay, std::optional<std::int64_t>(500));
    QCOMPARE(demo.declared.requestsPerMinute, std::optional<std::int64_t>(2));
    const ProviderProfile *p = set.find(u"p"_s);
    QVERIFY(p);
    QCOMPARE(p->spend.tokensMonth, std::optional<std::int64_t>(100000));
    QCOMPARE(p->limitAction, LimitAction::Park);
    QCOMPARE(demo.limitAction, LimitAction::Ask);
    QCOMPARE(p->spend.costDay, std::optional<double>(1.5));
    QCOMPARE(p->spend.costMonth, std::optional<double>(20));
    QCOMPARE(p->declared.tokensPerMinute, std::optional<std::int64_t>(6000));
    QCOMPARE(p->declared.requestsPerDay, std::optional<std::int64_t>(50));
    QVERIFY(!p->declared.tokensPerDay);
    QCOMPARE(p->prices.size(), 2);
    QStringList texts;
    for (const ProfileIssue &i : set.issues)
        texts << i.text();
    texts.sort(); // by line: the keys are read in the order QSettings lists them
    QCOMPARE(texts.size(), 2);
    QVERIFY2(texts.at(0).startsWith(path
                 + u":14: [profile.p] provider_tpd: 'abc' is not a whole "
                   "number from 1"_s),
        qPrintable(texts.at(0)));
    QVERIFY2(
        texts.at(1).startsWith(path + u":17: [profile.p] price.bad: '1' is not INPUT, OUTPUT"_s),
        qPrintable(texts.at(1)));

    // The profile's price wins, by the price table's rule of names; else the table's.
    const ProviderChoice choice = p->choice();
    QCOMPARE(choice.spend, p->spend);
    QCOMPARE(choice.declared, p->declared);
    const std::optional<retry::Price> own = choice.priceOf(u"openai/gpt-4o-mini-2024-07-18"_s);
    QVERIFY(own);
    QCOMPARE(own->inputPerMTok, 0.1);
    QCOMPARE(own->outputPerMTok, 0.4);
    QCOMPARE(own->cachedInputPerMTok, std::optional<double>(0.05));
    QCOMPARE(choice.priceOf(u"my-model"_s)->outputPerMTok, 8.0);
    const std::optional<retry::Price> table = choice.priceOf(u"gpt-4o"_s);
    QVERIFY(table);
    QCOMPARE(table, retry::builtinPrices().find("gpt-4o"));
    QVERIFY(!choice.priceOf(u"no-such-model-anywhere"_s));

    // Written and read back the same.
    ProfileSet clean = set;
    clean.issues.clear();
    const QString again = dir.filePath(u"again.conf"_s);
    {
        QSettings s(again, QSettings::IniFormat);
        saveProfiles(s, clean);
    }
    const ProfileSet back = loadFile(again);
    QVERIFY2(back.issues.isEmpty(), qPrintable(issuesText(back)));
    QCOMPARE(back.find(u"p"_s)->spend, p->spend);
    QCOMPARE(back.find(u"p"_s)->declared, p->declared);
    QCOMPARE(back.find(u"p"_s)->prices, p->prices);
    QCOMPARE(back.find(u"p"_s)->limitAction, LimitAction::Park);
    QCOMPARE(back.demo().spend, demo.spend);
}

QTEST_GUILESS_MAIN(TestProfiles)
#include "tst_profiles.moc"
