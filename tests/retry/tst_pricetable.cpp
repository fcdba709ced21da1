// The price table (issue 30): resources/prices.json compiled in, looking a model up (id, alias,
// case, provider prefix, date suffix), what tokens cost, a profile's own prices, and files that
// are refused whole.

#include "retry/price.h"
#include "retry/pricetable.h"

#include <QTest>
#include <cmath>
#include <limits>
#include <string>

using namespace capwatch::retry;

namespace {

// A small table whose names exercise the lookup rule; its prices are made up.
const std::string kSmall = R"({
  "version": 1, "currency": "USD", "source": "test", "taken": "2026-12-07",
  "models": [
    {"id": "gpt-4o-mini", "aliases": ["openai/gpt-4o-mini", "GPT-4o-Mini-Latest"],
     "input_per_mtok": 0.15, "output_per_mtok": 0.6, "cached_input_per_mtok": 0.075},
    {"id": "azure/gpt-4o-mini", "input_per_mtok": 0.165, "output_per_mtok": 0.66},
    {"id": "gpt-4o-mini-2024-07-18", "input_per_mtok": 0.2, "output_per_mtok": 0.8},
    {"id": "claude-3-5-sonnet", "input_per_mtok": 3, "output_per_mtok": 15},
    {"id": "gpt-4", "input_per_mtok": 30, "output_per_mtok": 60},
    {"id": "grok", "input_per_mtok": 1, "output_per_mtok": 2, "currency": "EUR", "extra": [1]}
  ],
  "unknown_key": {"is": "ignored"}
})";

PriceTable small()
{
    PriceTable t = PriceTable::parse(kSmall, "small.json");
    if (!t.error().empty())
        qFatal("small.json: %s", t.error().c_str());
    return t;
}

double inputOf(const PriceTable &t, std::string_view model)
{
    const std::optional<Price> p = t.find(model);
    return p ? p->inputPerMTok : -1;
}

/// `count` copies of `piece`.
std::string repeated(std::string_view piece, std::size_t count)
{
    std::string s;
    s.reserve(piece.size() * count);
    for (std::size_t i = 0; i < count; ++i)
        s += piece;
    return s;
}

} // namespace

class TestPriceTable : public QObject
{
    Q_OBJECT

private slots:
    void lookups_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<double>("input"); // -1: unknown
        QTest::newRow("id") << "gpt-4o-mini" << 0.15;
        QTest::newRow("alias") << "openai/gpt-4o-mini" << 0.15;
        QTest::newRow("alias given in mixed case") << "gpt-4o-mini-latest" << 0.15;
        QTest::newRow("any case") << "GPT-4o-MINI" << 0.15;
        QTest::newRow("white space around") << "  gpt-4o-mini\t" << 0.15;
        QTest::newRow("a known prefixed name wins") << "azure/gpt-4o-mini" << 0.165;
        QTest::newRow("unknown prefix") << "groq/gpt-4o-mini" << 0.15;
        QTest::newRow("two prefixes") << "openrouter/openai/gpt-4o-mini" << 0.15;
        QTest::newRow("prefixes down to a known one") << "x/azure/gpt-4o-mini" << 0.165;
        QTest::newRow("a known dated name wins") << "gpt-4o-mini-2024-07-18" << 0.2;
        QTest::newRow("-YYYY-MM-DD") << "gpt-4o-mini-2025-01-31" << 0.15;
        QTest::newRow("-YYYYMMDD") << "claude-3-5-sonnet-20241022" << 3.0;
        QTest::newRow("@YYYYMMDD") << "claude-3-5-sonnet@20241022" << 3.0;
        QTest::newRow("-MMDD") << "gpt-4-0613" << 30.0;
        QTest::newRow("prefix and date") << "azure/gpt-4o-mini-2025-01-31" << 0.165;
        QTest::newRow("prefix, date, case")
            << "OpenRouter/Anthropic/Claude-3-5-Sonnet-20240620" << 3.0;
        QTest::newRow("no month 13") << "claude-3-5-sonnet-20241322" << -1.0;
        QTest::newRow("no day 32") << "gpt-4-0132" << -1.0;
        QTest::newRow("no month 00") << "gpt-4-0012" << -1.0;
        QTest::newRow("five digits are no date") << "gpt-4-06130" << -1.0;
        QTest::newRow("only one date removed") << "gpt-4-0613-0613" << -1.0;
        QTest::newRow("the date must end the name") << "gpt-4-0613-preview" << -1.0;
        QTest::newRow("a date is never the whole name") << "-0613" << -1.0;
        QTest::newRow("unknown") << "llama-3-8b" << -1.0;
        QTest::newRow("a known name inside a longer one") << "gpt-4o-mini-tts" << -1.0;
        QTest::newRow("empty") << "" << -1.0;
        QTest::newRow("blank") << "   " << -1.0;
        QTest::newRow("only slashes") << "///" << -1.0;
        QTest::newRow("trailing slash") << "gpt-4o-mini/" << -1.0;
        QTest::newRow("too long") << QString::fromLatin1("x/").repeated(200)
                + QLatin1String("gpt-4o-mini")
                                  << -1.0;
    }

    void lookups()
    {
        QFETCH(QString, model);
        QFETCH(double, input);
        const PriceTable t = small();
        QCOMPARE(inputOf(t, model.toStdString()), input);
    }

    void lookupGivesTheWholePrice()
    {
        const PriceTable t = small();
        const std::optional<Price> p = t.find("openai/gpt-4o-mini");
        QVERIFY(p);
        QCOMPARE(p->outputPerMTok, 0.6);
        QCOMPARE(p->cachedInputPerMTok, std::optional<double>(0.075));
        QCOMPARE(p->currency, std::string("USD"));
        const std::optional<Price> none = t.find("claude-3-5-sonnet");
        QVERIFY(none);
        QVERIFY(!none->cachedInputPerMTok);
        const std::optional<Price> euro = t.find("grok");
        QVERIFY(euro);
        QCOMPARE(euro->currency, std::string("EUR"));
        QCOMPARE(t.size(), std::size_t(6));
        QCOMPARE(t.source().source, std::string("test"));
        QCOMPARE(t.source().taken, std::string("2026-12-07"));
        QCOMPARE(t.models()[0].aliases.size(), std::size_t(2));
    }

    void builtinTableLoads()
    {
        const PriceTable &t = builtinPrices();
        QVERIFY2(t.error().empty(), t.error().c_str());
        QVERIFY(t.size() > 500);
        QCOMPARE(t.source().license, std::string("MIT"));
        QCOMPARE(t.source().commit.size(), std::size_t(40));
        QCOMPARE(t.source().taken.size(), std::size_t(10));
        for (const char *model : { "gpt-4o-mini", "gpt-4o", "gpt-4.1", "o3", "claude-3-5-sonnet",
                 "claude-sonnet-4-5", "claude-3-5-haiku", "gemini-1.5-flash", "gemini-2.5-flash",
                 "gemini-2.5-pro", "deepseek-chat", "deepseek-reasoner", "mistral-large-latest",
                 "grok-4", "command-r", "llama-3.1-8b-instant" }) {
            const std::optional<Price> p = t.find(model);
            QVERIFY2(p, model);
            QVERIFY2(p->inputPerMTok > 0 && p->outputPerMTok > 0, model);
            QVERIFY2(p->outputPerMTok >= p->inputPerMTok, model);
            QCOMPARE(p->currency, std::string("USD"));
        }
    }

    void builtinLookups_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("as");
        QTest::newRow("provider prefix") << "openai/gpt-4o-mini"
                                         << "gpt-4o-mini";
        QTest::newRow("gateway prefix") << "openrouter/openai/gpt-4o-mini"
                                        << "gpt-4o-mini";
        QTest::newRow("case") << "GPT-4o-Mini"
                              << "gpt-4o-mini";
        QTest::newRow("dated") << "gpt-4o-mini-2024-07-18"
                               << "gpt-4o-mini";
        QTest::newRow("dated, unlisted date") << "gpt-4o-mini-2026-01-01"
                                              << "gpt-4o-mini";
        QTest::newRow("Anthropic's dated name") << "claude-sonnet-4-5-20250929"
                                                << "claude-sonnet-4-5";
        QTest::newRow("Vertex AI's @date") << "claude-3-5-sonnet@20241022"
                                           << "claude-3-5-sonnet";
        QTest::newRow("gemini/ prefix") << "gemini/gemini-1.5-flash"
                                        << "gemini-1.5-flash";
        QTest::newRow("deepseek/ prefix") << "deepseek/deepseek-chat"
                                          << "deepseek-chat";
    }

    void builtinLookups()
    {
        QFETCH(QString, model);
        QFETCH(QString, as);
        const std::optional<Price> p = builtinPrices().find(model.toStdString());
        const std::optional<Price> expected = builtinPrices().find(as.toStdString());
        QVERIFY(expected);
        QVERIFY(p);
        QCOMPARE(*p, *expected);
    }

    void everyNameOfTheBuiltinTableFindsItsModel()
    {
        const PriceTable &t = builtinPrices();
        for (const PricedModel &m : t.models()) {
            QVERIFY2(t.find(m.id) == m.price, m.id.c_str());
            for (const std::string &alias : m.aliases)
                QVERIFY2(t.find(alias) == m.price, alias.c_str());
            QVERIFY2(isValidPrice(m.price), m.id.c_str());
        }
    }

    void costArithmetic_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("prompt");
        QTest::addColumn<qint64>("completion");
        QTest::addColumn<qint64>("cached");
        QTest::addColumn<double>("amount");
        // Prices as resources/prices.json gives them: gpt-4o-mini 0.15 / 0.6 / cached 0.075,
        // claude-3-5-sonnet 3 / 15 / 0.3, deepseek-chat 0.27 / 1.1 / 0.07, gemini-1.5-flash
        // 0.075 / 0.3 / 0.01875.
        QTest::newRow("gpt-4o-mini") << "gpt-4o-mini" << 1000LL << 500LL << 0LL << 0.00045;
        QTest::newRow("gpt-4o-mini, cached")
            << "gpt-4o-mini" << 10000LL << 1000LL << 4000LL << 0.0018;
        QTest::newRow("claude-3-5-sonnet, a million each")
            << "claude-3-5-sonnet" << 1000000LL << 1000000LL << 0LL << 18.0;
        QTest::newRow("claude-3-5-sonnet, cached")
            << "claude-3-5-sonnet" << 200000LL << 10000LL << 100000LL << 0.48;
        QTest::newRow("deepseek-chat") << "deepseek-chat" << 2000000LL << 100000LL << 0LL << 0.65;
        QTest::newRow("gemini-1.5-flash")
            << "gemini-1.5-flash" << 80000LL << 0LL << 80000LL << 0.0015;
        QTest::newRow("nothing") << "gpt-4o-mini" << 0LL << 0LL << 0LL << 0.0;
    }

    void costArithmetic()
    {
        QFETCH(QString, model);
        QFETCH(qint64, prompt);
        QFETCH(qint64, completion);
        QFETCH(qint64, cached);
        QFETCH(double, amount);
        const std::optional<Price> p = builtinPrices().find(model.toStdString());
        QVERIFY(p);
        const Cost c = costOf(*p, { prompt, completion, cached });
        QCOMPARE(c.currency, std::string("USD"));
        // Exact: the nearest double to the decimal amount, not merely close to it.
        QVERIFY2(c.amount == amount, QByteArray::number(c.amount, 'g', 17).constData());
    }

    void costEdges()
    {
        const Price p { 2, 8, std::nullopt, "USD" };
        // No cached price: cached tokens cost as input.
        QCOMPARE(costOf(p, { 1000000, 0, 500000 }).amount, 2.0);
        // Negative counts are 0; cached is at most the prompt.
        QCOMPARE(costOf(p, { -5, -5, -5 }).amount, 0.0);
        const Price cached { 2, 8, 1, "USD" };
        QCOMPARE(costOf(cached, { 1000000, 0, 3000000 }).amount, 1.0);
        // Huge counts stay finite.
        const Cost huge = costOf(cached,
            { std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::max(),
                0 });
        QVERIFY(std::isfinite(huge.amount) && huge.amount > 0);
    }

    void overridesWin()
    {
        PriceTable t = small();
        QVERIFY(t.setOverride("GPT-4o-mini", { 1, 2, std::nullopt, {} }));
        // The override is found by the same rule as the table: prefix, date, case.
        for (const char *model : { "gpt-4o-mini", "openai/gpt-4o-mini", "gpt-4o-mini-2025-01-31",
                 "openrouter/openai/GPT-4O-MINI" }) {
            const std::optional<Price> p = t.find(model);
            QVERIFY2(p, model);
            QCOMPARE(p->inputPerMTok, 1.0);
            QCOMPARE(p->outputPerMTok, 2.0);
            QVERIFY(!p->cachedInputPerMTok);
            QCOMPARE(p->currency, std::string("USD")); // the table's
        }
        // Even over a name the table knows exactly.
        QCOMPARE(inputOf(t, "azure/gpt-4o-mini"), 1.0);
        QCOMPARE(inputOf(t, "gpt-4o-mini-2024-07-18"), 1.0);
        // A more specific override wins over a general one.
        QVERIFY(t.setOverride("azure/gpt-4o-mini", { 5, 6, std::nullopt, "EUR" }));
        QCOMPARE(inputOf(t, "azure/gpt-4o-mini"), 5.0);
        QCOMPARE(t.find("azure/gpt-4o-mini")->currency, std::string("EUR"));
        QCOMPARE(inputOf(t, "gpt-4o-mini"), 1.0);
        // A model the table does not know gets a price.
        QCOMPARE(inputOf(t, "my-local-model"), -1.0);
        QVERIFY(t.setOverride(" my-local-model ", { 0, 0, std::nullopt, {} }));
        QCOMPARE(inputOf(t, "my-local-model"), 0.0);
        // Removed, the table's price is back.
        t.removeOverride("gpt-4o-mini");
        QCOMPARE(inputOf(t, "openai/gpt-4o-mini"), 0.15);
        t.clearOverrides();
        QCOMPARE(inputOf(t, "azure/gpt-4o-mini"), 0.165);
        QCOMPARE(inputOf(t, "my-local-model"), -1.0);
    }

    void overridesOnACopyOfTheBuiltinTable()
    {
        PriceTable mine = builtinPrices();
        QVERIFY(mine.setOverride("deepseek-chat", { 0.5, 0.5, std::nullopt, {} }));
        QCOMPARE(inputOf(mine, "deepseek-chat"), 0.5);
        QCOMPARE(inputOf(builtinPrices(), "deepseek-chat"), 0.27);
    }

    void invalidOverridesAreRefused_data()
    {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double inf = std::numeric_limits<double>::infinity();
        QTest::addColumn<QString>("model");
        QTest::addColumn<double>("input");
        QTest::addColumn<double>("output");
        QTest::addColumn<double>("cached"); // -2: none
        QTest::addColumn<QString>("currency");
        QTest::newRow("NaN input") << "gpt-4o-mini" << nan << 1.0 << -2.0 << "";
        QTest::newRow("NaN cached") << "gpt-4o-mini" << 1.0 << 1.0 << nan << "";
        QTest::newRow("infinite output") << "gpt-4o-mini" << 1.0 << inf << -2.0 << "";
        QTest::newRow("negative input") << "gpt-4o-mini" << -0.01 << 1.0 << -2.0 << "";
        QTest::newRow("negative cached") << "gpt-4o-mini" << 1.0 << 1.0 << -1.0 << "";
        QTest::newRow("huge") << "gpt-4o-mini" << 1.0 << 2e6 << -2.0 << "";
        QTest::newRow("lower-case currency") << "gpt-4o-mini" << 1.0 << 1.0 << -2.0 << "usd";
        QTest::newRow("long currency") << "gpt-4o-mini" << 1.0 << 1.0 << -2.0 << "EURO";
        QTest::newRow("empty name") << "" << 1.0 << 1.0 << -2.0 << "";
        QTest::newRow("blank name") << " \t" << 1.0 << 1.0 << -2.0 << "";
        QTest::newRow("too long a name")
            << QString(300, QLatin1Char('x')) << 1.0 << 1.0 << -2.0 << "";
    }

    void invalidOverridesAreRefused()
    {
        QFETCH(QString, model);
        QFETCH(double, input);
        QFETCH(double, output);
        QFETCH(double, cached);
        QFETCH(QString, currency);
        PriceTable t = small();
        Price p { input, output, std::nullopt, currency.toStdString() };
        if (cached != -2.0)
            p.cachedInputPerMTok = cached;
        QVERIFY(!t.setOverride(model.toStdString(), p));
        QCOMPARE(inputOf(t, "gpt-4o-mini"), 0.15);
    }

    void malformedFilesAreRefused_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error");
        const QByteArray head = R"({"version":1,"currency":"USD","models":[)";
        const QByteArray tail = "]}";
        const auto model
            = [&](const QByteArray &fields) -> QByteArray { return head + fields + tail; };
        QTest::newRow("empty") << QByteArray() << "f.json:1: not valid JSON (";
        QTest::newRow("not JSON") << QByteArray("prices") << "f.json:1: not valid JSON (";
        QTest::newRow("cut short")
            << QByteArray("{\n\"version\": 1,\n\"models\": [") << "f.json:3: not valid JSON (";
        QTest::newRow("NaN") << model(R"({"id":"a","input_per_mtok":NaN,"output_per_mtok":1})")
                             << "f.json:1: not valid JSON (";
        QTest::newRow("a comment") << QByteArray("// prices\n{}") << "f.json:1: not valid JSON (";
        QTest::newRow("invalid UTF-8")
            << model("{\"id\":\"a\xff\",\"input_per_mtok\":1,\"output_per_mtok\":1}")
            << "f.json:1: not valid JSON (";
        QTest::newRow("a list") << QByteArray("[]") << "f.json: the file is not a JSON object";
        QTest::newRow("no version") << QByteArray(R"({"currency":"USD","models":[]})")
                                    << "f.json: \"version\" is missing or not a whole number";
        QTest::newRow("version as text")
            << QByteArray(R"({"version":"1","currency":"USD","models":[]})")
            << "f.json: \"version\" is missing or not a whole number";
        QTest::newRow("version 2") << QByteArray(R"({"version":2,"currency":"USD","models":[]})")
                                   << "f.json: version 2 is not one this capwatch reads (1)";
        QTest::newRow("no currency") << QByteArray(R"({"version":1,"models":[]})")
                                     << "f.json: \"currency\" is missing or not three letters A-Z";
        QTest::newRow("currency in lower case")
            << QByteArray(R"({"version":1,"currency":"usd","models":[]})")
            << "f.json: \"currency\" is missing or not three letters A-Z";
        QTest::newRow("source not text")
            << QByteArray(R"({"version":1,"currency":"USD","source":5,"models":[]})")
            << "f.json: the file: \"source\" is not a string";
        QTest::newRow("no models") << QByteArray(R"({"version":1,"currency":"USD"})")
                                   << "f.json: \"models\" is missing or not a list";
        QTest::newRow("models an object")
            << QByteArray(R"({"version":1,"currency":"USD","models":{}})")
            << "f.json: \"models\" is missing or not a list";
        QTest::newRow("a model not an object")
            << model("[]") << "f.json: models[0] is not an object";
        QTest::newRow("no id") << model(R"({"input_per_mtok":1,"output_per_mtok":1})")
                               << "f.json: models[0]: \"id\" is missing";
        QTest::newRow("id a number") << model(R"({"id":4,"input_per_mtok":1,"output_per_mtok":1})")
                                     << "f.json: models[0]: \"id\" is not a string";
        QTest::newRow("id empty") << model(R"({"id":"","input_per_mtok":1,"output_per_mtok":1})")
                                  << "f.json: models[0]: \"id\" is empty or longer than 256 bytes";
        QTest::newRow("id with spaces around")
            << model(R"({"id":" a","input_per_mtok":1,"output_per_mtok":1})")
            << "f.json: models[0]: \"id\" \" a\" starts or ends with white space";
        QTest::newRow("id with a control character")
            << model(R"({"id":"a\u0001b","input_per_mtok":1,"output_per_mtok":1})")
            << "f.json: models[0]: \"id\" has a control character";
        QTest::newRow("aliases not a list")
            << model(R"({"id":"a","aliases":"b","input_per_mtok":1,"output_per_mtok":1})")
            << "f.json: models[0] \"a\": \"aliases\" is not a list";
        QTest::newRow("an alias not text")
            << model(R"({"id":"a","aliases":[null],"input_per_mtok":1,"output_per_mtok":1})")
            << "f.json: models[0] \"a\": an alias is not a string";
        QTest::newRow("no input price") << model(R"({"id":"a","output_per_mtok":1})")
                                        << "f.json: models[0] \"a\": \"input_per_mtok\" is missing";
        QTest::newRow("a price as text")
            << model(R"({"id":"a","input_per_mtok":"0.15","output_per_mtok":1})")
            << "f.json: models[0] \"a\": \"input_per_mtok\" is not a number";
        QTest::newRow("a price as true")
            << model(R"({"id":"a","input_per_mtok":1,"output_per_mtok":true})")
            << "f.json: models[0] \"a\": \"output_per_mtok\" is not a number";
        QTest::newRow("a negative price")
            << model(R"({"id":"a","input_per_mtok":-0.5,"output_per_mtok":1})")
            << "f.json: models[0] \"a\": \"input_per_mtok\" is negative";
        QTest::newRow("a negative cached price") << model(
            R"({"id":"a","input_per_mtok":1,"output_per_mtok":1,"cached_input_per_mtok":-1})")
                                                 << "f.json: models[0] \"a\": "
                                                    "\"cached_input_per_mtok\" is negative";
        QTest::newRow("an infinite price")
            << model(R"({"id":"a","input_per_mtok":1,"output_per_mtok":1e400})")
            << "f.json: a number is too large (number overflow parsing '1e400')";
        QTest::newRow("a huge price")
            << model(R"({"id":"a","input_per_mtok":1,"output_per_mtok":2e6})")
            << "f.json: models[0] \"a\": \"output_per_mtok\" is more than 1,000,000 a million "
               "tokens";
        QTest::newRow("a model's currency")
            << model(R"({"id":"a","input_per_mtok":1,"output_per_mtok":1,"currency":"€"})")
            << "f.json: models[0] \"a\": \"currency\" is not three letters A-Z";
        QTest::newRow("a name twice")
            << model(R"({"id":"a","input_per_mtok":1,"output_per_mtok":1},)"
                     R"({"id":"b","aliases":["A"],"input_per_mtok":1,"output_per_mtok":1})")
            << "f.json: models[1] \"b\": \"A\" is already a name of models[0] \"a\"";
        QTest::newRow("nested deep")
            << QByteArray(100000, '[') << "f.json: nested more than 8 levels deep";
        QTest::newRow("nested deep and closed") << QByteArray(100000, '[') + QByteArray(100000, ']')
                                                << "f.json: nested more than 8 levels deep";
        QTest::newRow("a deep value in a model")
            << model(R"({"id":"a","input_per_mtok":1,"output_per_mtok":1,"x":[[[[[[[[1]]]]]]]]})")
            << "f.json: nested more than 8 levels deep";
    }

    void malformedFilesAreRefused()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        const PriceTable t = PriceTable::parse(
            std::string_view(json.constData(), std::size_t(json.size())), "f.json");
        QVERIFY2(QString::fromStdString(t.error()).startsWith(error), t.error().c_str());
        QVERIFY(t.isEmpty());
        QCOMPARE(t.size(), std::size_t(0));
        QVERIFY(!t.find("a"));
        QVERIFY(!t.find("b"));
        // An empty table still takes a profile's prices.
        PriceTable copy = t;
        QVERIFY(copy.setOverride("a", { 1, 1, std::nullopt, {} }));
        QCOMPARE(copy.find("a")->currency, std::string("USD"));
    }

    void bracketsInNamesAreNoNesting()
    {
        const std::string json = "{\"version\":1,\"currency\":\"USD\",\"models\":[{\"id\":"
                                 "\"[[[[[[[[[[\",\"aliases\":[\"{{{{{{{{{{\\\"[[[[\\\\\"],"
                                 "\"input_per_mtok\":1,\"output_per_mtok\":2}]}";
        const PriceTable t = PriceTable::parse(json, "f.json");
        QVERIFY2(t.error().empty(), t.error().c_str());
        QCOMPARE(inputOf(t, "[[[[[[[[[["), 1.0);
        QCOMPARE(inputOf(t, "{{{{{{{{{{\"[[[[\\"), 1.0);
    }

    void errorsArePrintable()
    {
        const std::string garbage
            = "{\"version\":1,\"currency\":\"USD\",\"models\":[\x01\x02\xfe]}";
        const PriceTable t = PriceTable::parse(garbage, "f.json");
        QVERIFY(!t.error().empty());
        for (const char c : t.error())
            QVERIFY(static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f);
    }

    void hugeInput()
    {
        // Larger than 16 MiB: refused unread.
        const std::string huge(kMaxPriceFileBytes + 1, ' ');
        const PriceTable big = PriceTable::parse(huge, "f.json");
        QCOMPARE(big.error(),
            std::string("f.json: the file is larger than 16 MiB; a price table is "
                        "a few hundred KB"));
        // A large, valid table (50,000 models, 4 MB) is read whole.
        // (Plain strings: moc misreads a raw string that starts with a quote.)
        std::string json = "{\"version\":1,\"currency\":\"USD\",\"models\":[";
        for (int i = 0; i < 50000; ++i) {
            const std::string n = std::to_string(i);
            json += (i ? ",{\"id\":\"m" : "{\"id\":\"m") + n + "\",\"aliases\":[\"p/m" + n
                + "\"],\"input_per_mtok\":1,\"output_per_mtok\":2}";
        }
        json += "]}";
        const PriceTable t = PriceTable::parse(json, "f.json");
        QVERIFY2(t.error().empty(), t.error().c_str());
        QCOMPARE(t.size(), std::size_t(50000));
        QCOMPARE(inputOf(t, "x/p/m49999"), 1.0);
        // A name longer than a model name can be, in a large file.
        const std::string longName = "{\"version\":1,\"currency\":\"USD\",\"models\":[{\"id\":\""
            + repeated("x", 100000) + "\",\"input_per_mtok\":1,\"output_per_mtok\":2}]}";
        QVERIFY(!PriceTable::parse(longName, "f.json").error().empty());
    }
};

QTEST_APPLESS_MAIN(TestPriceTable)
#include "tst_pricetable.moc"
