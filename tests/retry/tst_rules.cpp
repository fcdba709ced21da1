// The rules as data (issue 28, docs/rules.md) at the level of the retry library, which the
// window uses: reading a rules file (taken whole or not at all, its problem named with a line),
// the built-in rules, additions, endpoint scopes and the deciding rule of a classification.

#include "retry/classifier.h"
#include "retry/rules.h"
#include "retry/rulesparser.h"

#include <QTest>
#include <chrono>
#include <string>

using namespace capwatch::retry;
using namespace std::string_literals;

namespace {

Classification classified(
    int status, std::string_view body, const Rules &rules, std::string endpoint = {})
{
    Response r;
    r.status = status;
    r.body = body;
    r.endpoint = std::move(endpoint);
    return classify(r, 1, std::chrono::system_clock::time_point {}, rules);
}

} // namespace

class TestRules final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void builtinRulesHaveEveryList();
    void problemsNameTheirLine_data();
    void problemsNameTheirLine();
    void decidingRule_data();
    void decidingRule();
    void additionsAndTheirOrigin();
    void endpointScope_data();
    void endpointScope();
    void installedRulesAreUsedByDefault();
};

void TestRules::builtinRulesHaveEveryList()
{
    const RuleSet &set = Rules::builtinRules().set();
    for (std::size_t c = 0; c < kRuleCategoryCount; ++c)
        QVERIFY2(!set.categories[c].statuses.empty(), nameOf(RuleCategory(c)));
    for (const WordList w : { WordList::Used, WordList::Limit, WordList::Token, WordList::Requested,
             WordList::AtMost, WordList::Retry, WordList::ResetAt })
        QVERIFY2(!set.wordList(w).empty(), nameOf(w));
    for (std::size_t u = 0; u < kUnitListCount; ++u)
        QVERIFY2(!set.units[u].empty(), nameOf(UnitList(u)));
    QVERIFY(Rules::phraseCount(set) < kMaxPhrases);
    QCOMPARE(set.retryAfterHeader, "retry-after"s);
    // Every entry says where it came from.
    for (const RuleText &t : set.category(RuleCategory::TooLarge).phrases)
        QVERIFY(t.origin.starts_with("builtin:too_large.phrase \""));
}

void TestRules::problemsNameTheirLine_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("what");
    QTest::newRow("duplicate key") << QByteArray("{\"format\": 1,\n\"words\": {},\n\"words\": {}}")
                                   << 3 << u"the key \"words\" appears twice"_qs;
    QTest::newRow("wrong format") << QByteArray("{\n\"format\": 2}") << 2
                                  << u"\"format\" must be 1"_qs;
    QTest::newRow("one-byte phrase")
        << QByteArray("{\"format\": 1, \"categories\": {\"auth\": {\n\"phrases\": [\"x\"]}}}") << 2
        << u"needs at least two bytes"_qs;
    QTest::newRow("headers are built in only") << QByteArray("{\"format\": 1,\n\n\"headers\": {}}")
                                               << 3 << u"cannot be changed by a user file"_qs;
    QTest::newRow("not JSON") << QByteArray("\n\n  nope") << 3 << u"not valid JSON here"_qs;
    QTest::newRow("empty") << QByteArray() << 1 << u"the text ends too early"_qs;
    QTest::newRow("NUL") << QByteArray("{\"format\": 1}\0", 14) << 1 << u"not valid JSON"_qs;
    QTest::newRow("unknown family key")
        << QByteArray("{\"format\": 1, \"categories\": {\"billing\": {\"families\": [\n"
                      "{\"words\": [[\"a b\"]], \"status\": [403]}]}}}")
        << 2 << u"unknown key \"status\" in a family"_qs;
}

void TestRules::problemsNameTheirLine()
{
    QFETCH(QByteArray, text);
    QFETCH(int, line);
    QFETCH(QString, what);
    const ParsedRules p = parseRules(
        std::string_view(text.constData(), std::size_t(text.size())), "x.json", RulesKind::User);
    QVERIFY(!p.rules); // nothing of the file is used
    QCOMPARE(p.problem.line, line);
    QVERIFY2(QString::fromStdString(p.problem.what).contains(what), p.problem.what.c_str());
    QVERIFY(QString::fromStdString(p.problem.text()).startsWith(u"x.json:%1: "_qs.arg(line)));
}

void TestRules::decidingRule_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("category");
    QTest::addColumn<QString>("rule");
    QTest::newRow("status") << 401 << QByteArray("{}") << u"auth"_qs
                            << u"builtin:auth.status 401"_qs;
    QTest::newRow("phrase") << 400
                            << QByteArray(
                                   R"({"error":"prompt is too long: 210000 tokens > 200000"})")
                            << u"too_large"_qs
                            << u"builtin:too_large.phrase \"prompt is too long\""_qs;
    QTest::newRow("rule 4") << 429
                            << QByteArray(R"({"error":{"message":"Limit 6000, Requested 10338"}})")
                            << u"too_large"_qs << u"builtin:too_large.requested-over-limit"_qs;
    QTest::newRow("family") << 400
                            << QByteArray(R"({"error":"Input is too long for requested model."})")
                            << u"too_large"_qs << u"builtin:too_large.family input-too-long"_qs;
    QTest::newRow("key at 400") << 400
                                << QByteArray(R"({"error":{"message":"API key not valid."}})")
                                << u"auth"_qs << u"builtin:auth.family key-not-valid"_qs;
    QTest::newRow("money at 403") << 403
                                  << QByteArray(
                                         R"({"error":{"message":"quota exceeded, check billing"}})")
                                  << u"billing"_qs
                                  << u"builtin:billing.family forbidden-for-money"_qs;
    QTest::newRow("token limit") << 422
                                 << QByteArray(
                                        R"({"error":"Token limit exceeded: used 2, limit 1"})")
                                 << u"token_limit"_qs
                                 << u"builtin:token_limit.keyword \"limit\""_qs;
    QTest::newRow("nothing") << 404 << QByteArray("{}") << u"fatal"_qs << u"builtin:fatal"_qs;
    QTest::newRow("a family never takes a 429")
        << 429 << QByteArray(R"({"error":"input length exceeds the maximum"})") << u"rate_limit"_qs
        << u"builtin:rate_limit.status 429"_qs;
}

void TestRules::decidingRule()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(QString, category);
    QFETCH(QString, rule);
    const Classification c = classified(status,
        std::string_view(body.constData(), std::size_t(body.size())), Rules::builtinRules());
    QCOMPARE(QString::fromLatin1(nameOf(c.category)), category);
    QCOMPARE(QString::fromStdString(c.rule), rule);
}

void TestRules::additionsAndTheirOrigin()
{
    const std::string text = "{\"format\": 1,\n"
                             "\"categories\": {\"billing\": {\"codes\": [\"ACME_BROKE\"],\n"
                             "  \"phrases\": [\"wallet is empty\"]}},\n"
                             "\"units\": {\"chinese\": [{\"word\": \"天\", \"seconds\": 86400}]}}";
    const ParsedRules p = parseRules(text, "rules.d/acme.json", RulesKind::User);
    QVERIFY2(p.rules, p.problem.text().c_str());
    const auto rules = Rules::withAdditions({ &*p.rules });
    Classification c = classified(400, R"({"error":{"code":"acme_broke"}})", *rules);
    QCOMPARE(c.category, Category::Billing);
    QCOMPARE(c.rule, "rules.d/acme.json:2"s);
    c = classified(400, R"({"error":"Your wallet is empty"})", *rules);
    QCOMPARE(c.category, Category::Billing);
    QCOMPARE(c.rule, "rules.d/acme.json:3"s);
    // A unit added: a 429 that says "1天" waits a day (capped as ever).
    c = classified(429, R"({"error":"请1天后重试"})", *rules);
    QCOMPARE(c.rawWait.value_or(Millis(0)), Millis(86'400'000));
    // The built-in rules are untouched.
    QCOMPARE(classified(400, R"({"error":"Your wallet is empty"})", Rules::builtinRules()).category,
        Category::Fatal);
}

void TestRules::endpointScope_data()
{
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<bool>("applies");
    QTest::newRow("same") << u"https://llm.acme.example/v1"_qs << true;
    QTest::newRow("case and path") << u"HTTPS://LLM.acme.example/v1/chat/completions"_qs << true;
    QTest::newRow("another host") << u"https://llm.acme.example.net/v1"_qs << false;
    QTest::newRow("another path") << u"https://llm.acme.example/v2"_qs << false;
    QTest::newRow("unknown") << QString() << false;
}

void TestRules::endpointScope()
{
    QFETCH(QString, endpoint);
    QFETCH(bool, applies);
    const ParsedRules p = parseRules(
        R"({"format": 1, "categories": {"too_large": {"phrases": [
            {"text": "widget stack is full", "endpoint": "https://llm.acme.example/v1/"}]}}})",
        "scoped.json", RulesKind::User);
    QVERIFY2(p.rules, p.problem.text().c_str());
    const auto rules = Rules::withAdditions({ &*p.rules });
    const Classification c = classified(
        400, R"({"error":"the widget stack is full"})", *rules, endpoint.toStdString());
    QCOMPARE(c.category == Category::TooLarge, applies);
}

void TestRules::installedRulesAreUsedByDefault()
{
    const ParsedRules p = parseRules(
        R"({"format": 1, "categories": {"too_large": {"phrases": ["widget stack is full"]}}})",
        "acme.json", RulesKind::User);
    QVERIFY(p.rules);
    Response r;
    r.status = 400;
    r.body = R"({"error":"the widget stack is full"})";
    QCOMPARE(classify(r, 1, {}).category, Category::Fatal);
    Rules::install(Rules::withAdditions({ &*p.rules }));
    QCOMPARE(classify(r, 1, {}).category, Category::TooLarge);
    Rules::install(nullptr); // back to the built-in rules
    QCOMPARE(classify(r, 1, {}).category, Category::Fatal);
}

QTEST_GUILESS_MAIN(TestRules)
#include "tst_rules.moc"
