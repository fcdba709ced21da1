// The words of the retry cycle (session/retrytexts.h): one wording of durations, sources and
// reasons for the panel, the timeline and the log table; policy numbers from retry/constants.h. And
// the one colour-mixing helper they are drawn with.

#include "session/retrytexts.h"
#include "ui/panel/categorycolors.h"

#include <QGuiApplication>
#include <QLocale>
#include <QPalette>
#include <QTest>
#include <cmath>

using namespace capwatch;
using namespace capwatch::ui;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

class TestRetryTexts final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void durations_data();
    void durations();
    void timelineAndPanelAgree();
    void reasons();
    void categoriesByName();
    void pacingWords();
    void pacedColourApartAndReadable();
    void blendWeighsTowardsTheSecondColour();
};

void TestRetryTexts::initTestCase()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void TestRetryTexts::durations_data()
{
    QTest::addColumn<qint64>("ms");
    QTest::addColumn<QString>("words");
    QTest::newRow("fraction") << qint64(2500) << u"2.5 s"_s;
    QTest::newRow("milliseconds") << qint64(644) << u"0.644 s"_s;
    QTest::newRow("cap") << qint64(60'000) << u"60 s"_s;
    QTest::newRow("over a minute with a fraction") << qint64(61'500) << u"61.5 s"_s;
    QTest::newRow("minutes and seconds") << qint64(90'000) << u"1 min 30 s"_s;
    QTest::newRow("minutes") << qint64(1'080'000) << u"18 min"_s;
    QTest::newRow("hours") << qint64(7'200'000) << u"2 h"_s;
    QTest::newRow("hours and minutes") << qint64(5'400'000) << u"1 h 30 min"_s;
    QTest::newRow("hours, minutes and seconds") << qint64(3'723'000) << u"1 h 2 min 3 s"_s;
}

void TestRetryTexts::durations()
{
    QFETCH(qint64, ms);
    QFETCH(QString, words);
    QCOMPARE(session::RetryTexts::duration(retry::Millis(ms)), words);
    QCOMPARE(session::RetryTexts::duration(double(ms) / 1000.0), words);
}

void TestRetryTexts::timelineAndPanelAgree()
{
    // What the provider asked, in the panel's sentence and on the timeline's bar: the same words.
    const QString sentence
        = session::RetryTexts::waitSourceSentence(retry::WaitSource::Message, 60s, 61'500ms);
    const QString label = session::RetryTexts::waitLabel(retry::WaitSource::Message, 60, 61.5);
    QCOMPARE(sentence, u"provider asked 61.5 s; capped to 60 s"_s);
    QCOMPARE(label, u"message 61.5 s → 60 s"_s);
    // A cut wait to the tenth, as the countdown showed it.
    QCOMPARE(session::RetryTexts::tenths(14.734), 14.7);
    QCOMPARE(session::RetryTexts::waitLabel(retry::WaitSource::RetryAfter, 42, 42, 14.734),
        u"retry-after 14.7 s of 42 s"_s);
}

void TestRetryTexts::reasons()
{
    QCOMPARE(session::RetryTexts::reason(retry::EndReason::BudgetExhausted), u"budget exhausted"_s);
    QCOMPARE(session::RetryTexts::reasonSentence(retry::EndReason::BudgetExhausted),
        u"budget exhausted (the %1 s of waiting are used up)"_s.arg(
            retry::kRetryBudget.count() / 1000));
    QCOMPARE(session::RetryTexts::reasonSentence(retry::EndReason::AttemptsExhausted),
        u"all %1 attempts failed"_s.arg(retry::kMaxAttempts));
    // A profile's numbers (issue 17): 3 attempts, 12 s of waiting.
    retry::PolicyLimits limits;
    limits.maxAttempts = 3;
    limits.budget = retry::Millis(12000);
    QCOMPARE(session::RetryTexts::reasonSentence(retry::EndReason::AttemptsExhausted, limits),
        u"all 3 attempts failed"_s);
    QCOMPARE(session::RetryTexts::reasonSentence(retry::EndReason::BudgetExhausted, limits),
        u"budget exhausted (the 12 s of waiting are used up)"_s);
    // A token or rate limit the profile does not retry says so; any other not_retryable, or
    // one whose category is retried, keeps the general sentence.
    retry::PolicyLimits noWaiting;
    noWaiting.retryRateLimit = false;
    noWaiting.retryTokenLimit = false;
    QCOMPARE(session::RetryTexts::reasonSentence(
                 retry::EndReason::NotRetryable, noWaiting, u"rate_limit"_s),
        u"this profile does not retry rate limits"_s);
    QCOMPARE(session::RetryTexts::reasonSentence(
                 retry::EndReason::NotRetryable, noWaiting, u"token_limit"_s),
        u"this profile does not retry token limits"_s);
    QCOMPARE(
        session::RetryTexts::reasonSentence(retry::EndReason::NotRetryable, noWaiting, u"fatal"_s),
        u"the error is not one that waiting can fix"_s);
    QCOMPARE(session::RetryTexts::reasonSentence(
                 retry::EndReason::NotRetryable, limits, u"rate_limit"_s),
        u"the error is not one that waiting can fix"_s);
    QVERIFY(session::RetryTexts::reason(retry::EndReason::None).isEmpty());
    QVERIFY(session::RetryTexts::reasonSentence(retry::EndReason::None).isEmpty());
    QVERIFY(session::RetryTexts::waitSource(retry::WaitSource::None).isEmpty());
}

void TestRetryTexts::categoriesByName()
{
    QCOMPARE(session::RetryTexts::category(u"too_large"_s),
        session::RetryTexts::category(retry::Category::TooLarge));
    QCOMPARE(session::RetryTexts::category(u"running"_s), u"running"_s);
    QCOMPARE(session::RetryTexts::category(QString()), u"running"_s);
    QCOMPARE(session::RetryTexts::category(u"cancelled"_s), u"cancelled"_s);
    QCOMPARE(session::RetryTexts::category(u"something_else"_s), u"something_else"_s);
    QCOMPARE(session::RetryTexts::status(422), u"422 Unprocessable Entity"_s);
    QCOMPARE(session::RetryTexts::status(599), u"599"_s);
}

void TestRetryTexts::pacingWords()
{
    // The pacing wait names the header it came from, says it is outside the budget, and reads
    // the same on the timeline as in the panel.
    QCOMPARE(session::RetryTexts::paceSentence(12s, true),
        u"x-ratelimit-reset-tokens header: 12 s (pacing, outside the retry budget)"_s);
    QCOMPARE(session::RetryTexts::paceSentence(1500ms, false),
        u"x-ratelimit-reset-requests header: 1.5 s (pacing, outside the retry budget)"_s);
    QCOMPARE(session::RetryTexts::pacedLabel(12), u"paced 12 s"_s);
    QCOMPARE(session::RetryTexts::pacedLabel(0.5), u"paced 0.5 s"_s);
    QCOMPARE(session::RetryTexts::pacedLabel(12, 4.23), u"paced 4.2 s of 12 s"_s);
    QCOMPARE(session::RetryTexts::pacedLabel(12, 12), u"paced 12 s"_s); // ran in full: not cut
    QCOMPARE(session::RetryTexts::category(u"paced"_s), u"paced"_s);
    QCOMPARE(session::RetryTexts::event(net::RetryRecord::Event::Paced), u"Paced"_s);
}

void TestRetryTexts::pacedColourApartAndReadable()
{
    // Its own colour on light and dark palettes: none of the categories', not parked's, and
    // readable on the window (the panel's pacing line is written in it).
    for (const bool dark : { false, true }) {
        QPalette palette;
        palette.setColor(
            QPalette::Window, dark ? QColor(0x2b, 0x2d, 0x30) : QColor(0xef, 0xef, 0xef));
        palette.setColor(QPalette::WindowText, dark ? QColor(0xe6, 0xe6, 0xe6) : QColor(Qt::black));
        const QColor paced = pacedColor(palette);
        QCOMPARE(categoryColor(u"paced"_s, palette), paced);
        QVERIFY(paced != parkedColor(palette));
        for (const QString &name : legendCategories())
            QVERIFY2(categoryColor(name, palette) != paced, qPrintable(name));
        const auto luminance = [](const QColor &c) {
            const auto ch = [](double v) {
                return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
            };
            return 0.2126 * ch(c.redF()) + 0.7152 * ch(c.greenF()) + 0.0722 * ch(c.blueF());
        };
        const double a = luminance(paced);
        const double b = luminance(palette.color(QPalette::Window));
        const double contrast = (std::max(a, b) + 0.05) / (std::min(a, b) + 0.05);
        QVERIFY2(contrast >= 4.5, qPrintable(QString::number(contrast)));
    }
}

void TestRetryTexts::blendWeighsTowardsTheSecondColour()
{
    const QColor a(0x20, 0x40, 0x60);
    const QColor b(0xe0, 0xc0, 0xa0);
    QCOMPARE(blend(a, b, 0.0).rgb(), a.rgb());
    QCOMPARE(blend(a, b, 1.0).rgb(), b.rgb());
    const QColor quarter = blend(a, b, 0.25);
    QCOMPARE(quarter.red(), 0x20 + (0xe0 - 0x20) / 4);
    QCOMPARE(quarter.blue(), 0x60 + (0xa0 - 0x60) / 4);
    // The neutral category colour: two fifths of the way from the text to the window, as the
    // 3:2 mix it replaces, on every channel value.
    for (int t = 0; t < 256; ++t) {
        for (int w = 0; w < 256; w += 5) {
            QPalette palette;
            palette.setColor(QPalette::WindowText, QColor(t, t, t));
            palette.setColor(QPalette::Window, QColor(w, w, w));
            const float old = (QColor(t, t, t).redF() * 3 + QColor(w, w, w).redF() * 2) / 5;
            QCOMPARE(
                neutralCategoryColor(palette).rgba64(), QColor::fromRgbF(old, old, old).rgba64());
        }
    }
}

QTEST_MAIN(TestRetryTexts)
#include "tst_retrytexts.moc"
