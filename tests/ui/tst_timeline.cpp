// The retry timeline: the pure layout of sends on the budget axis (retry-policy.md section 4),
// the wait labels in words, and the painted widget (offscreen).

#include "net/retrylog.h"
#include "session/retrytexts.h"
#include "support/retrynames.h"
#include "ui/panel/categorycolors.h"
#include "ui/timeline/timelinewidget.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QLocale>
#include <QPalette>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>
#include <cmath>

using namespace capwatch;
using namespace capwatch::net;
using namespace capwatch::ui;
using namespace Qt::StringLiterals;

namespace {

/// Writes the records of one send the way ChatClient does.
class Send
{
public:
    Send(QList<RetryRecord> &out, int request, QDateTime start)
        : m_out(out)
        , m_request(request)
        , m_time(std::move(start))
    { }

    /// `pacedMs`: attempt 1 after pacing, which ran this long (ChatClient logs it as wait_s).
    Send &started(int attempt, std::optional<qint64> pacedMs = {})
    {
        RetryRecord r = base(RetryRecord::Event::AttemptStarted, attempt);
        r.waitMs = pacedMs;
        m_out.append(r);
        return *this;
    }

    Send &scheduled(int attempt, std::optional<int> status, const QString &category, double waitS,
        double rawWaitS, const QString &source, const QString &error = {})
    {
        RetryRecord r = base(RetryRecord::Event::RetryScheduled, attempt);
        r.status = status;
        r.category = test::categoryNamed(category);
        r.error = error;
        r.waitMs = qint64(waitS * 1000);
        r.rawWaitMs = qint64(rawWaitS * 1000);
        r.waitSource = test::waitSourceNamed(source);
        m_waited += *r.waitMs;
        r.waitedTotalMs = m_waited;
        r.budgetLeftMs = 120'000 - m_waited;
        if (category == u"token_limit") {
            r.used = 60323;
            r.limit = 60000;
        }
        m_out.append(r);
        m_time = m_time.addMSecs(*r.waitMs + 800);
        return *this;
    }

    Send &succeeded(int attempt)
    {
        RetryRecord r = base(RetryRecord::Event::Succeeded, attempt);
        r.status = 200;
        r.category = retry::Category::Success;
        m_out.append(r);
        return *this;
    }

    Send &gaveUp(int attempt, std::optional<int> status, const QString &category,
        const QString &reason, const QString &error = {})
    {
        RetryRecord r = base(RetryRecord::Event::GaveUp, attempt);
        r.status = status;
        r.category = test::categoryNamed(category);
        r.reason = test::reasonNamed(reason);
        r.error = error;
        if (category == u"token_limit") {
            r.used = 60323;
            r.limit = 60000;
        }
        m_out.append(r);
        return *this;
    }

    /// The send, given up capped, waits for its provider's reset (ChatSession::park()).
    Send &parked(int attempt, const QDateTime &resetAt)
    {
        RetryRecord r = base(RetryRecord::Event::Parked, attempt);
        r.resetAt = resetAt;
        r.reason = retry::EndReason::BudgetExhausted;
        m_out.append(r);
        return *this;
    }

    /// It left the queue; `request` 0: this send's number.
    Send &unparked(RetryRecord::Unpark why, const QDateTime &resetAt, int request = 0)
    {
        RetryRecord r = base(RetryRecord::Event::Unparked, 0);
        r.resetAt = resetAt;
        r.unpark = why;
        if (request > 0)
            r.request = request;
        m_out.append(r);
        return *this;
    }

    /// Paced before attempt 1 (ChatClient logs it first): waited `waitS` for the window.
    Send &paced(double waitS)
    {
        RetryRecord r = base(RetryRecord::Event::Paced, 0);
        r.waitMs = qint64(std::llround(waitS * 1000));
        r.waitSource = retry::WaitSource::RateLimitReset;
        r.estimatedTokens = 1200;
        r.windowTokensLeft = 40;
        r.windowResetS = waitS;
        m_out.append(r);
        m_time = m_time.addMSecs(*r.waitMs);
        return *this;
    }

    /// `ranMs`: cancelled during a wait, this much of it had run (ChatClient logs it as wait_s).
    Send &cancelled(int attempt, std::optional<qint64> ranMs = {})
    {
        RetryRecord r = base(RetryRecord::Event::Cancelled, attempt);
        r.reason = retry::EndReason::Cancelled;
        r.waitMs = ranMs;
        m_out.append(r);
        return *this;
    }

private:
    RetryRecord base(RetryRecord::Event event, int attempt)
    {
        RetryRecord r;
        r.time = m_time;
        r.request = m_request;
        r.event = event;
        r.attempt = attempt;
        m_time = m_time.addMSecs(400);
        return r;
    }

    QList<RetryRecord> &m_out;
    int m_request;
    QDateTime m_time;
    qint64 m_waited = 0;
};

const QDateTime kStart(QDate(2026, 11, 29), QTime(20, 5, 20, 123), Qt::UTC);
const QString kHeadlineError = u"Token limit exceeded: used 60323, limit 60000. Retry in 18 min."_s;

void headline(QList<RetryRecord> &out, int request, const QDateTime &start = kStart)
{
    Send(out, request, start)
        .started(1)
        .scheduled(1, 422, u"token_limit"_s, 60, 1080, u"message"_s, kHeadlineError)
        .started(2)
        .scheduled(2, 422, u"token_limit"_s, 60, 1080, u"message"_s, kHeadlineError)
        .started(3)
        .gaveUp(3, 422, u"token_limit"_s, u"budget_exhausted"_s, kHeadlineError);
}

void backoff(QList<RetryRecord> &out, int request, bool succeeds, const QDateTime &start = kStart)
{
    Send s(out, request, start);
    const double waits[] = { 5, 10, 20, 40 };
    for (int i = 0; i < 4; ++i)
        s.started(i + 1).scheduled(
            i + 1, 503, u"transient"_s, waits[i], waits[i], u"backoff"_s, u"Service Unavailable"_s);
    s.started(5);
    if (succeeds)
        s.succeeded(5);
    else
        s.gaveUp(5, 503, u"transient"_s, u"attempts_exhausted"_s, u"Service Unavailable"_s);
}

void rateLimited(QList<RetryRecord> &out, int request, const QDateTime &start = kStart)
{
    Send(out, request, start)
        .started(1)
        .scheduled(
            1, 429, u"rate_limit"_s, 7, 7, u"retry-after"_s, u"Rate limit reached for requests"_s)
        .started(2)
        .succeeded(2);
}

struct Expected
{
    TimelineSegment::Kind kind;
    int attempt;
    double startS;
    double endS;
    QString category;
};

void compareSegments(const TimelineLane &lane, const QList<Expected> &expected)
{
    QCOMPARE(lane.segments.size(), expected.size());
    for (qsizetype i = 0; i < expected.size(); ++i) {
        const TimelineSegment &s = lane.segments.at(i);
        const Expected &e = expected.at(i);
        const QByteArray where = "segment " + QByteArray::number(i);
        QVERIFY2(s.kind == e.kind, where.constData());
        QVERIFY2(s.attempt == e.attempt, where.constData());
        QVERIFY2(qFuzzyCompare(s.startS + 1, e.startS + 1), where.constData());
        QVERIFY2(qFuzzyCompare(s.endS + 1, e.endS + 1), where.constData());
        QVERIFY2(s.categoryName() == e.category,
            qPrintable(QString::fromLatin1(where) + u": "_s + s.categoryName()));
    }
}

/// The lane's outcome in the names of the retry log: "succeeded", "cancelled", "parked",
/// "gave_up: budget_exhausted", "" while the send runs.
QString outcomeOf(const TimelineLane &lane)
{
    switch (lane.outcome) {
    case TimelineLane::Outcome::Running:
        return {};
    case TimelineLane::Outcome::Succeeded:
        return u"succeeded"_s;
    case TimelineLane::Outcome::Cancelled:
        return u"cancelled"_s;
    case TimelineLane::Outcome::Parked:
        return u"parked"_s;
    case TimelineLane::Outcome::GaveUp:
        break;
    }
    const std::string_view reason = retry::nameOf(lane.reason);
    return reason.empty()
        ? u"gave_up"_s
        : u"gave_up: "_s + QLatin1StringView(reason.data(), qsizetype(reason.size()));
}

constexpr auto A = TimelineSegment::Kind::Attempt;
constexpr auto W = TimelineSegment::Kind::Wait;
constexpr auto P = TimelineSegment::Kind::Parked;
constexpr auto Pace = TimelineSegment::Kind::Paced;

/// The headline send's reset: 18 minutes after its last failure, as its message says.
const QDateTime kReset = QDateTime(QDate(2026, 11, 29), QTime(20, 26, 0), Qt::UTC);

/// "06:14": the reset as the timeline says it, in the local time zone of the run.
QString clock(const QDateTime &utc)
{
    return utc.toLocalTime().time().toString(u"HH:mm"_s);
}

/// The x range (widget coordinates) on lane `index`'s middle line whose tooltip contains
/// `text`; empty (left > right) when none.
std::pair<int, int> spanOf(const TimelineWidget &widget, int index, const QString &text)
{
    const int y = widget.laneRect(index).center().y();
    int left = widget.width();
    int right = -1;
    for (int x = 0; x < widget.width(); ++x) {
        if (widget.toolTipAt(QPoint(x, y)).contains(text)) {
            left = std::min(left, x);
            right = std::max(right, x);
        }
    }
    return { left, right };
}

/// The x of every pixel of `colour` on lane `index`'s row, as painted.
QList<int> columnsOf(TimelineWidget &widget, int index, const QColor &colour)
{
    const QImage image = widget.grab().toImage().convertToFormat(QImage::Format_RGB32);
    const QRect lane = widget.laneRect(index);
    QList<int> xs;
    for (int y = lane.top(); y <= lane.bottom(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            if (image.pixel(x, y) == colour.rgb())
                xs << x;
        }
    }
    return xs;
}

/// How many distinct colours an image holds: a blank grab has one.
int colourCount(const QImage &image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    }
    return int(colours.size());
}

} // namespace

class TestTimeline final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void waitLabels_data();
    void waitLabels();
    void headlineCase();
    void backoffCase();
    void successAfterRetryAfter();
    void cancelled_data();
    void cancelled();
    void running();
    void authAndTimeout();
    void lanesInOrderOfSends();
    void paintsTheBudgetLine_data();
    void paintsTheBudgetLine();
    void followsTheLog();
    void restoredLogInOnePass();
    void liveWaitAndToolTips();
    void accessibilityAndSizes();
    void everySendCanBeScrolledIntoView();
    void legendWrapsInsteadOfCuttingOff_data();
    void legendWrapsInsteadOfCuttingOff();
    void rowsStartAtTheTop();
    void categoryColours_data();
    void categoryColours();
    void newCategoriesInTheLanesAndLegend();
    void parkedLane();
    void unparkedClosesIt_data();
    void unparkedClosesIt();
    void parkedAgainAfterACancel();
    void pacedLane();
    void pacedThenCancelled();
    void pacedThenSentNow();
    void profileAxisAndTheFallbackSwitch();
    void screenshot();
};

void TestTimeline::initTestCase()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void TestTimeline::waitLabels_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<double>("waitS");
    QTest::addColumn<double>("rawWaitS");
    QTest::addColumn<QString>("label");
    QTest::addColumn<double>("ranS"); ///< -1: the whole wait ran

    QTest::newRow("retry-after") << u"retry-after"_s << 7.0 << 7.0 << u"retry-after 7 s"_s << -1.0;
    QTest::newRow("capped message")
        << u"message"_s << 60.0 << 1080.0 << u"message 18 min → 60 s"_s << -1.0;
    QTest::newRow("minutes and seconds")
        << u"message"_s << 60.0 << 90.0 << u"message 1 min 30 s → 60 s"_s << -1.0;
    QTest::newRow("hours") << u"message"_s << 60.0 << 7200.0 << u"message 2 h → 60 s"_s << -1.0;
    QTest::newRow("backoff") << u"backoff"_s << 10.0 << 10.0 << u"backoff 10 s"_s << -1.0;
    QTest::newRow("fraction") << u"message"_s << 2.5 << 2.5 << u"message 2.5 s"_s << -1.0;
    QTest::newRow("milliseconds") << u"retry-after-ms"_s << 0.644 << 0.644
                                  << u"retry-after-ms 0.644 s"_s << -1.0;
    QTest::newRow("new key") << u"credential-refresh"_s << 0.0 << 0.0 << u"new key"_s << -1.0;
    QTest::newRow("retry-delay") << u"retry-delay"_s << 7.0 << 7.0 << u"retry delay 7 s"_s << -1.0;
    QTest::newRow("ratelimit-reset")
        << u"ratelimit-reset"_s << 60.0 << 90.0 << u"rate-limit reset 1 min 30 s → 60 s"_s << -1.0;
    QTest::newRow("whole wait ran")
        << u"retry-after"_s << 42.0 << 42.0 << u"retry-after 42 s"_s << 42.0;
    // Cut short by a cancel: what ran, of what was scheduled.
    QTest::newRow("cancelled") << u"retry-after"_s << 42.0 << 42.0
                               << u"retry-after 14.7 s of 42 s"_s << 14.7;
    QTest::newRow("cancelled capped")
        << u"message"_s << 60.0 << 1080.0 << u"message 0.5 s of 60 s"_s << 0.5;
    QTest::newRow("cancelled at once")
        << u"backoff"_s << 5.0 << 5.0 << u"backoff 0 s of 5 s"_s << 0.0;
}

void TestTimeline::waitLabels()
{
    QFETCH(QString, source);
    QFETCH(double, waitS);
    QFETCH(double, rawWaitS);
    QFETCH(QString, label);
    QFETCH(double, ranS);
    QCOMPARE(session::RetryTexts::waitLabel(test::waitSourceNamed(source), waitS, rawWaitS, ranS),
        label);
}

void TestTimeline::headlineCase()
{
    QList<RetryRecord> records;
    headline(records, 1);
    const QList<TimelineLane> lanes = layoutTimeline(records);
    QCOMPARE(lanes.size(), 1);
    const TimelineLane &lane = lanes.first();
    QCOMPARE(lane.request, 1);
    QCOMPARE(outcomeOf(lane), u"gave_up: budget_exhausted"_s);
    QCOMPARE(lane.started, kStart);
    compareSegments(lane,
        { { A, 1, 0, 0, u"token_limit"_s }, { W, 1, 0, 60, u"token_limit"_s },
            { A, 2, 60, 60, u"token_limit"_s }, { W, 2, 60, 120, u"token_limit"_s },
            { A, 3, 120, 120, u"token_limit"_s } });
    for (int i : { 1, 3 }) {
        const TimelineSegment &wait = lane.segments.at(i);
        QCOMPARE(wait.waitSource, retry::WaitSource::Message);
        QCOMPARE(wait.rawWaitS, 1080.0);
        QCOMPARE(wait.label, u"message 18 min → 60 s"_s);
        QCOMPARE(wait.status, 422);
    }
    QCOMPARE(lane.segments.at(4).status, 422);
    QCOMPARE(lane.segments.at(4).row, 5); // the gave_up record
    QCOMPARE(lane.endS(), 120.0);
}

void TestTimeline::backoffCase()
{
    QList<RetryRecord> records;
    backoff(records, 1, false);
    const QList<TimelineLane> lanes = layoutTimeline(records);
    QCOMPARE(lanes.size(), 1);
    const TimelineLane &lane = lanes.first();
    QCOMPARE(outcomeOf(lane), u"gave_up: attempts_exhausted"_s);
    const QString t = u"transient"_s;
    compareSegments(lane,
        { { A, 1, 0, 0, t }, { W, 1, 0, 5, t }, { A, 2, 5, 5, t }, { W, 2, 5, 15, t },
            { A, 3, 15, 15, t }, { W, 3, 15, 35, t }, { A, 4, 35, 35, t }, { W, 4, 35, 75, t },
            { A, 5, 75, 75, t } });
    QCOMPARE(lane.segments.at(1).label, u"backoff 5 s"_s);
    QCOMPARE(lane.segments.at(7).label, u"backoff 40 s"_s);
}

void TestTimeline::successAfterRetryAfter()
{
    QList<RetryRecord> records;
    rateLimited(records, 1);
    const QList<TimelineLane> lanes = layoutTimeline(records);
    QCOMPARE(lanes.size(), 1);
    QCOMPARE(outcomeOf(lanes.first()), u"succeeded"_s);
    compareSegments(lanes.first(),
        { { A, 1, 0, 0, u"rate_limit"_s }, { W, 1, 0, 7, u"rate_limit"_s },
            { A, 2, 7, 7, u"success"_s } });
    QCOMPARE(lanes.first().segments.at(1).label, u"retry-after 7 s"_s);
    QCOMPARE(lanes.first().segments.at(2).status, 200);
}

void TestTimeline::cancelled_data()
{
    QTest::addColumn<bool>("duringWait");
    QTest::addColumn<std::optional<qint64>>("ranMs");
    QTest::addColumn<double>("endS");
    QTest::addColumn<QString>("label");
    QTest::newRow("15 s into the wait")
        << true << std::optional<qint64>(15'000) << 15.0 << u"retry-after 15 s of 20 s"_s;
    QTest::newRow("to a tenth") << true << std::optional<qint64>(14'734) << 14.734
                                << u"retry-after 14.7 s of 20 s"_s;
    QTest::newRow("at once") << true << std::optional<qint64>(0) << 0.0
                             << u"retry-after 0 s of 20 s"_s;
    // A log written before the cancel recorded the part that ran: the wait as scheduled.
    QTest::newRow("older log") << true << std::optional<qint64>() << 20.0 << u"retry-after 20 s"_s;
    QTest::newRow("during an attempt")
        << false << std::optional<qint64>() << 20.0 << u"retry-after 20 s"_s;
}

void TestTimeline::cancelled()
{
    QFETCH(bool, duringWait);
    QFETCH(std::optional<qint64>, ranMs);
    QFETCH(double, endS);
    QFETCH(QString, label);
    QList<RetryRecord> records;
    Send s(records, 4, kStart);
    s.started(1).scheduled(1, 429, u"rate_limit"_s, 20, 20, u"retry-after"_s);
    if (!duringWait)
        s.started(2);
    s.cancelled(duringWait ? 1 : 2, ranMs);

    const QList<TimelineLane> lanes = layoutTimeline(records);
    QCOMPARE(lanes.size(), 1);
    QCOMPARE(lanes.first().request, 4);
    QCOMPARE(outcomeOf(lanes.first()), u"cancelled"_s);
    if (duringWait) {
        compareSegments(
            lanes.first(), { { A, 1, 0, 0, u"rate_limit"_s }, { W, 1, 0, endS, u"rate_limit"_s } });
    } else {
        compareSegments(lanes.first(),
            { { A, 1, 0, 0, u"rate_limit"_s }, { W, 1, 0, 20, u"rate_limit"_s },
                { A, 2, 20, 20, u"cancelled"_s } });
    }
    const TimelineSegment &wait = lanes.first().segments.at(1);
    QCOMPARE(wait.label, label);
    QCOMPARE(wait.scheduledS, 20.0);
    QCOMPARE(wait.isCut(), endS < 20.0);
    QCOMPARE(lanes.first().endS(), endS);

    // The widget says what ran: its details line and the wait's tooltip.
    RetryLog log;
    for (const RetryRecord &r : std::as_const(records))
        log.append(r);
    TimelineWidget widget;
    widget.resize(800, 300);
    widget.setLog(&log);
    const QRect lane = widget.laneRect(0);
    const QString laneTip = widget.toolTipAt(QPoint(widget.width() - 20, lane.center().y()));
    const double shownS = std::round(endS * 10) / 10;
    QVERIFY2(laneTip.contains(u"waited %1 s"_s.arg(shownS)), qPrintable(laneTip));
    if (duringWait && endS > 1) {
        const QString waitTip
            = widget.toolTipAt(QPoint(int(widget.xForSeconds(endS / 2)), lane.center().y()));
        QVERIFY2(waitTip.contains(u"after %1 s of the wait"_s.arg(shownS)) == (endS < 20),
            qPrintable(waitTip));
    }
}

void TestTimeline::running()
{
    QList<RetryRecord> records;
    Send s(records, 1, kStart);
    s.started(1);
    QList<TimelineLane> lanes = layoutTimeline(records);
    QCOMPARE(lanes.size(), 1);
    QCOMPARE(outcomeOf(lanes.first()), QString());
    compareSegments(lanes.first(), { { A, 1, 0, 0, QString() } });
    QCOMPARE(lanes.first().segments.first().row, -1);

    s.scheduled(1, 422, u"token_limit"_s, 60, 1080, u"message"_s, kHeadlineError);
    lanes = layoutTimeline(records);
    QCOMPARE(outcomeOf(lanes.first()), QString());
    compareSegments(
        lanes.first(), { { A, 1, 0, 0, u"token_limit"_s }, { W, 1, 0, 60, u"token_limit"_s } });
}

void TestTimeline::authAndTimeout()
{
    QList<RetryRecord> records;
    Send(records, 1, kStart)
        .started(1)
        .scheduled(1, 401, u"auth"_s, 0, 0, u"credential-refresh"_s)
        .started(2)
        .scheduled(2, 429, u"rate_limit"_s, 30, 30, u"retry-after"_s)
        .started(3)
        // A retry attempt without headers: the record carries attempt 2's failure.
        .gaveUp(3, 429, u"rate_limit"_s, u"timeout"_s);
    const QList<TimelineLane> lanes = layoutTimeline(records);
    compareSegments(lanes.first(),
        { { A, 1, 0, 0, u"auth"_s }, { W, 1, 0, 0, u"auth"_s }, { A, 2, 0, 0, u"rate_limit"_s },
            { W, 2, 0, 30, u"rate_limit"_s }, { A, 3, 30, 30, u"transient"_s } });
    QCOMPARE(lanes.first().segments.at(1).label, u"new key"_s);
    QVERIFY(!lanes.first().segments.at(4).status);
    QCOMPARE(outcomeOf(lanes.first()), u"gave_up: timeout"_s);
}

void TestTimeline::lanesInOrderOfSends()
{
    QList<RetryRecord> records;
    headline(records, 1);
    backoff(records, 2, true);
    rateLimited(records, 3);
    Send(records, 4, kStart).started(1).gaveUp(1, 400, u"fatal"_s, u"not_retryable"_s);
    const QList<TimelineLane> lanes = layoutTimeline(records);
    QCOMPARE(lanes.size(), 4);
    for (int i = 0; i < 4; ++i)
        QCOMPARE(lanes.at(i).request, i + 1);
    QCOMPARE(outcomeOf(lanes.at(1)), u"succeeded"_s);
    QCOMPARE(lanes.at(1).segments.constLast().startS, 75.0);
    QCOMPARE(outcomeOf(lanes.at(3)), u"gave_up: not_retryable"_s);
    compareSegments(lanes.at(3), { { A, 1, 0, 0, u"fatal"_s } });
    QVERIFY(layoutTimeline({}).isEmpty());
}

void TestTimeline::paintsTheBudgetLine_data()
{
    QTest::addColumn<bool>("withSends");
    QTest::newRow("empty log") << false;
    QTest::newRow("headline send") << true;
}

void TestTimeline::paintsTheBudgetLine()
{
    QFETCH(bool, withSends);
    RetryLog log;
    if (withSends) {
        QList<RetryRecord> records;
        headline(records, 1);
        for (const RetryRecord &r : std::as_const(records))
            log.append(r);
    }
    TimelineWidget widget;
    widget.setLog(&log);
    widget.resize(800, 300);
    const QImage image = widget.grab().toImage();
    QCOMPARE(image.size(), QSize(800, 300) * image.devicePixelRatio());
    QVERIFY(colourCount(image) > 8);

    // At the top of the lanes area, above the bars of the first lane, where only the grid and the
    // policy lines cross the plot.
    const QRect area = widget.lanesArea();
    QVERIFY(area.height() > 0);
    const int y = area.top() + 2;
    const int budgetX = int(widget.xForSeconds(120));
    const int emptyX = int(widget.xForSeconds(110));
    QVERIFY(budgetX > emptyX);
    QVERIFY(budgetX < 800);
    const QColor background = widget.palette().color(QPalette::Window);
    // The lines are dashed: some pixel of a dash period differs from the background.
    const auto drawnAt = [&](int x) {
        for (int dy = 0; dy < 8; ++dy) {
            if (image.pixelColor(x, y + dy) != background)
                return true;
        }
        return false;
    };
    QVERIFY(!drawnAt(emptyX));
    QVERIFY(drawnAt(budgetX));
    QVERIFY(drawnAt(int(widget.xForSeconds(60)))); // the per-wait cap
}

void TestTimeline::followsTheLog()
{
    RetryLog log;
    TimelineWidget widget;
    widget.setLog(&log);
    QList<RetryRecord> records;
    headline(records, 1);
    rateLimited(records, 2);
    for (const RetryRecord &r : std::as_const(records))
        log.append(r);
    // Appended one by one, the lanes equal a layout of the whole log.
    const QList<TimelineLane> whole = layoutTimeline(log.records());
    QCOMPARE(widget.lanes().size(), whole.size());
    for (qsizetype i = 0; i < whole.size(); ++i) {
        QCOMPARE(outcomeOf(widget.lanes().at(i)), outcomeOf(whole.at(i)));
        QCOMPARE(widget.lanes().at(i).segments.size(), whole.at(i).segments.size());
    }
    log.clear();
    QVERIFY(widget.lanes().isEmpty());
    {
        RetryLog other;
        other.append(records.first());
        widget.setLog(&other);
        QCOMPARE(widget.lanes().size(), 1);
    }
    QVERIFY(widget.lanes().isEmpty()); // the log went away
    QCOMPARE(widget.log(), nullptr);
}

void TestTimeline::restoredLogInOnePass()
{
    // A conversation restored from history: 2,000 records at once. RetryLog::replace() emits one
    // cleared(), and the timeline lays the whole log out once; appending them one by one (what
    // clear() and append() would do) relays out per record.
    QList<RetryRecord> records;
    for (int request = 1; records.size() < 2000; ++request) {
        if (request % 2)
            headline(records, request, kStart.addSecs(request * 300));
        else
            rateLimited(records, request, kStart.addSecs(request * 300));
    }
    RetryLog log;
    TimelineWidget widget;
    widget.resize(800, 300);
    widget.setLog(&log);
    widget.show();
    QSignalSpy cleared(&log, &RetryLog::cleared);
    QSignalSpy appended(&log, &RetryLog::recordAppended);

    QElapsedTimer timer;
    timer.start();
    for (const RetryRecord &r : std::as_const(records))
        log.append(r);
    const qint64 oneByOneNs = timer.nsecsElapsed();
    log.clear();
    timer.restart();
    log.replace(records);
    const qint64 replaceNs = timer.nsecsElapsed();
    qInfo("%lld records: appended one by one %.2f ms, replace() %.2f ms (the GUI thread's share)",
        static_cast<long long>(records.size()), double(oneByOneNs) / 1e6, double(replaceNs) / 1e6);

    QCOMPARE(cleared.count(), 2);
    QCOMPARE(appended.count(), records.size()); // only the one-by-one pass
    const QList<TimelineLane> whole = layoutTimeline(records);
    QCOMPARE(widget.lanes().size(), whole.size());
    for (qsizetype i = 0; i < whole.size(); ++i) {
        QCOMPARE(widget.lanes().at(i).request, whole.at(i).request);
        QCOMPARE(outcomeOf(widget.lanes().at(i)), outcomeOf(whole.at(i)));
        QCOMPARE(widget.lanes().at(i).segments.size(), whole.at(i).segments.size());
    }
    // Well inside a frame on a desktop; loose, for sanitizer builds.
    QVERIFY2(replaceNs < 250'000'000, qPrintable(QString::number(double(replaceNs) / 1e6)));
}

void TestTimeline::liveWaitAndToolTips()
{
    RetryLog log;
    QList<RetryRecord> records;
    headline(records, 1);
    Send(records, 2, kStart.addSecs(300))
        .started(1)
        .scheduled(1, 422, u"token_limit"_s, 60, 1080, u"message"_s, kHeadlineError);
    for (const RetryRecord &r : std::as_const(records))
        log.append(r);

    TimelineWidget widget;
    widget.setLog(&log);
    widget.resize(800, 300);
    const QImage before = widget.grab().toImage();
    widget.setLiveWait(2, 30);
    const QImage during = widget.grab().toImage();
    QVERIFY(before != during);
    widget.setLiveWait(-1, 0);
    QCOMPARE(widget.grab().toImage(), before);

    // A point on the first lane's track at 0 s is attempt 1; half-way to 60 s, the first wait.
    const QRect area = widget.lanesArea();
    QList<int> hits;
    for (int y = area.top(); y < area.bottom(); ++y) {
        if (widget.toolTipAt(QPoint(int(widget.xForSeconds(0)), y))
                .contains(u"Send 1 · attempt 1 of 5"_s))
            hits << y;
    }
    QVERIFY(!hits.isEmpty());
    const int laneY = hits.at(hits.size() / 2); // the middle of the marker
    const QString wait = widget.toolTipAt(QPoint(int(widget.xForSeconds(30)), laneY));
    QVERIFY2(wait.contains(u"wait after attempt 1"_s), qPrintable(wait));
    QVERIFY(wait.contains(u"message"_s));
    QVERIFY(wait.contains(u"18 min"_s));
    QVERIFY(wait.contains(u"capped at 60 s"_s));
    const QString attempt3 = widget.toolTipAt(QPoint(int(widget.xForSeconds(120)), laneY));
    QVERIFY2(attempt3.contains(u"422 Unprocessable Entity"_s), qPrintable(attempt3));
    QVERIFY(attempt3.contains(u"60,323"_s));
    QVERIFY(widget.toolTipAt(QPoint(2, 2)).isEmpty());
}

void TestTimeline::accessibilityAndSizes()
{
    TimelineWidget widget;
    QVERIFY(!widget.accessibleName().isEmpty());
    QVERIFY(!widget.accessibleDescription().isEmpty());
    RetryLog log;
    QList<RetryRecord> records;
    headline(records, 7);
    for (const RetryRecord &r : std::as_const(records))
        log.append(r);
    widget.setLog(&log);
    QVERIFY2(widget.accessibleDescription().contains(u"send 7"_s),
        qPrintable(widget.accessibleDescription()));
    QVERIFY(widget.accessibleDescription().contains(u"budget exhausted"_s));

    const QSize hint = widget.sizeHint();
    const QSize minimum = widget.minimumSizeHint();
    QVERIFY(minimum.width() > 0 && minimum.height() > 0);
    QVERIFY(hint.width() > minimum.width());
    QVERIFY(hint.height() > minimum.height());
    // Painting at the minimum size and smaller must not fail.
    widget.resize(minimum);
    QVERIFY(!widget.grab().isNull());
    widget.resize(60, 40);
    QVERIFY(!widget.grab().isNull());
}

void TestTimeline::everySendCanBeScrolledIntoView()
{
    // 30 sends in a widget with room for a few: the lanes scroll, the newest in view first, and
    // each of them can be brought into view with the scroll bar.
    RetryLog log;
    for (int i = 1; i <= 30; ++i) {
        QList<RetryRecord> records;
        if (i % 2)
            rateLimited(records, i, kStart.addSecs(i * 60));
        else
            headline(records, i, kStart.addSecs(i * 60));
        for (const RetryRecord &r : std::as_const(records))
            log.append(r);
    }
    TimelineWidget widget;
    widget.resize(800, 300);
    widget.setLog(&log);
    widget.show();
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
    QCOMPARE(widget.lanes().size(), 30);
    QScrollBar *bar = widget.verticalScrollBar();
    QVERIFY(bar->isVisible());
    QCOMPARE(bar->value(), bar->maximum()); // following the newest
    const QRect area = widget.lanesArea();
    const auto inView
        = [&](int index) { return widget.lanesArea().contains(widget.laneRect(index)); };
    QVERIFY(inView(29));
    QVERIFY(!inView(0));
    // Scrolled with the bar's own steps, every lane shows whole at some position, drawn where it
    // says: its title under the mouse.
    QSet<int> seen;
    for (bar->triggerAction(QAbstractSlider::SliderToMinimum);;
         bar->triggerAction(QAbstractSlider::SliderSingleStepAdd)) {
        for (int i = 0; i < 30; ++i) {
            if (!inView(i))
                continue;
            const QRect lane = widget.laneRect(i);
            const QString tip = widget.toolTipAt(QPoint(widget.width() - 30, lane.center().y()));
            QVERIFY2(tip.startsWith(u"<b>Send %1</b>"_s.arg(i + 1)), qPrintable(tip));
            seen.insert(i);
        }
        if (bar->value() == bar->maximum())
            break;
    }
    QCOMPARE(seen.size(), 30);
    QVERIFY(inView(29));
    // The wheel scrolls too.
    bar->setValue(bar->maximum());
    QWheelEvent up(QPointF(400, area.center().y()),
        widget.mapToGlobal(QPointF(400, area.center().y())), {}, QPoint(0, 120), Qt::NoButton,
        Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&widget, &up);
    QVERIFY(bar->value() < bar->maximum());
    QVERIFY(colourCount(widget.grab().toImage()) > 8);

    // A new send while the user looks at older ones: the view stays where it is.
    bar->setValue(0);
    QList<RetryRecord> more;
    rateLimited(more, 31, kStart.addSecs(31 * 60));
    for (const RetryRecord &r : std::as_const(more))
        log.append(r);
    QCOMPARE(bar->value(), 0);
    QVERIFY(inView(0));
    // When they fit again, nothing scrolls.
    widget.resize(800, 2000);
    QVERIFY(!bar->isVisible());
    for (int i = 0; i < 31; ++i)
        QVERIFY(inView(i));
}

void TestTimeline::legendWrapsInsteadOfCuttingOff_data()
{
    QTest::addColumn<int>("width");
    QTest::newRow("size hint") << 0;
    QTest::newRow("default window's timeline tab") << 420;
    QTest::newRow("narrow") << 300;
}

void TestTimeline::legendWrapsInsteadOfCuttingOff()
{
    QFETCH(int, width);
    TimelineWidget widget;
    widget.resize(width > 0 ? width : widget.sizeHint().width(), widget.sizeHint().height());
    const QList<QRect> items = widget.legendItemRects();
    QCOMPARE(items.size(), legendCategories().size());
    for (qsizetype i = 0; i < items.size(); ++i) {
        const QByteArray what = legendCategories().at(i).toUtf8() + ' '
            + QByteArray::number(items.at(i).left()) + '-'
            + QByteArray::number(items.at(i).right());
        QVERIFY2(widget.rect().contains(items.at(i)), what.constData());
        for (qsizetype j = 0; j < i; ++j)
            QVERIFY2(!items.at(i).intersects(items.at(j)), what.constData());
    }
    // Below the axis, every entry.
    for (const QRect &item : items)
        QVERIFY(item.top() > widget.lanesArea().bottom());
}

void TestTimeline::rowsStartAtTheTop()
{
    // A large window: the rows sit under the header, the axis right under them; the space left
    // over is at the bottom, not between the header and the rows.
    RetryLog log;
    QList<RetryRecord> records;
    headline(records, 1);
    rateLimited(records, 2, kStart.addSecs(200));
    for (const RetryRecord &r : std::as_const(records))
        log.append(r);
    TimelineWidget widget;
    widget.setLog(&log);
    widget.resize(1500, 1200);
    const int line = widget.fontMetrics().height();
    QVERIFY2(
        widget.laneRect(0).top() < line * 3, qPrintable(QString::number(widget.laneRect(0).top())));
    QCOMPARE(widget.laneRect(0).top(), widget.lanesArea().top());
    QCOMPARE(widget.laneRect(1).top(), widget.laneRect(0).bottom() + 1);
    QVERIFY(widget.lanesArea().bottom() - widget.laneRect(1).bottom() <= 1);
    QVERIFY(widget.lanesArea().bottom() < line * 12);
    QVERIFY(!widget.verticalScrollBar()->isVisible());
}

void TestTimeline::categoryColours_data()
{
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
}

void TestTimeline::categoryColours()
{
    // Every category a hue of its own, far enough from the others to tell apart, and readable
    // on the window: at least 3:1 against it (graphics and bold text).
    QFETCH(bool, dark);
    QPalette palette;
    if (dark) {
        palette.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x30));
        palette.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
    } else {
        palette.setColor(QPalette::Window, QColor(0xef, 0xef, 0xef));
        palette.setColor(QPalette::WindowText, QColor(0x00, 0x00, 0x00));
    }
    const auto luminance = [](const QColor &c) {
        const auto channel = [](double v) {
            return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF())
            + 0.0722 * channel(c.blueF());
    };
    const double window = luminance(palette.color(QPalette::Window));
    QStringList hued = legendCategories();
    hued.removeAll(u"running"_s);
    QVERIFY(hued.contains(u"too_large"_s));
    QVERIFY(hued.contains(u"billing"_s));
    for (qsizetype i = 0; i < hued.size(); ++i) {
        const QColor c = categoryColor(hued.at(i), palette);
        const double l = luminance(c);
        const double contrast = (std::max(l, window) + 0.05) / (std::min(l, window) + 0.05);
        QVERIFY2(contrast >= 3.0, qPrintable(u"%1: %2:1"_s.arg(hued.at(i)).arg(contrast)));
        for (qsizetype j = 0; j < i; ++j) {
            const int d = std::abs(c.hslHue() - categoryColor(hued.at(j), palette).hslHue());
            QVERIFY2(std::min(d, 360 - d) >= 20, qPrintable(hued.at(i) + u" near "_s + hued.at(j)));
        }
    }
    // Parked: as readable, a hue apart from every category's, and less saturated.
    const QColor parked = parkedColor(palette);
    QCOMPARE(categoryColor(u"parked"_s, palette), parked);
    const double l = luminance(parked);
    const double contrast = (std::max(l, window) + 0.05) / (std::min(l, window) + 0.05);
    QVERIFY2(contrast >= 3.0, qPrintable(u"parked: %1:1"_s.arg(contrast)));
    for (const QString &category : std::as_const(hued)) {
        const QColor c = categoryColor(category, palette);
        const int d = std::abs(parked.hslHue() - c.hslHue());
        QVERIFY2(std::min(d, 360 - d) >= 20, qPrintable(u"parked near "_s + category));
        QVERIFY(parked.hslSaturationF() < c.hslSaturationF());
    }
}

void TestTimeline::newCategoriesInTheLanesAndLegend()
{
    // A request too large and an account out of credit: never retried, each attempt drawn in its
    // own colour, both named in the legend.
    QList<RetryRecord> records;
    Send(records, 1, kStart).started(1).gaveUp(1, 400, u"too_large"_s, u"not_retryable"_s);
    Send(records, 2, kStart.addSecs(60))
        .started(1)
        .gaveUp(1, 402, u"billing"_s, u"not_retryable"_s);
    RetryLog log;
    for (const RetryRecord &r : std::as_const(records))
        log.append(r);
    TimelineWidget widget;
    widget.setLog(&log);
    widget.resize(900, 300);
    compareSegments(widget.lanes().at(0), { { A, 1, 0, 0, u"too_large"_s } });
    compareSegments(widget.lanes().at(1), { { A, 1, 0, 0, u"billing"_s } });
    const QImage image = widget.grab().toImage();
    for (int lane = 0; lane < 2; ++lane) {
        const QString category = lane == 0 ? u"too_large"_s : u"billing"_s;
        const QColor want = categoryColor(category, widget.palette());
        const QPoint centre(int(widget.xForSeconds(0)), widget.laneRect(lane).center().y());
        bool found = false;
        for (int dy = -6; dy <= 6 && !found; ++dy) {
            for (int dx = -6; dx <= 6 && !found; ++dx)
                found = image.pixel(centre + QPoint(dx, dy)) == want.rgb();
        }
        QVERIFY2(found, qPrintable(category));
        const QString tip = widget.toolTipAt(centre);
        QVERIFY2(
            tip.contains(lane == 0 ? u"request too large"_s : u"out of credit"_s), qPrintable(tip));
    }
    const QList<QRect> items = widget.legendItemRects();
    QCOMPARE(items.size(), legendCategories().size());
    for (const QString &category : { u"too_large"_s, u"billing"_s })
        QVERIFY(widget.rect().contains(items.at(legendCategories().indexOf(category))));
    QCOMPARE(session::RetryTexts::category(u"too_large"_s), u"request too large"_s);
    QCOMPARE(session::RetryTexts::category(u"billing"_s), u"out of credit"_s);
}

void TestTimeline::parkedLane()
{
    QList<RetryRecord> records;
    headline(records, 1);
    Send(records, 1, kStart.addSecs(130)).parked(3, kReset);
    const QList<TimelineLane> lanes = layoutTimeline(records);
    QCOMPARE(lanes.size(), 1);
    const TimelineLane &lane = lanes.first();
    QCOMPARE(outcomeOf(lane), u"parked"_s);
    // The send's own segments as before, then the parked one where its policy time ended.
    compareSegments(lane,
        { { A, 1, 0, 0, u"token_limit"_s }, { W, 1, 0, 60, u"token_limit"_s },
            { A, 2, 60, 60, u"token_limit"_s }, { W, 2, 60, 120, u"token_limit"_s },
            { A, 3, 120, 120, u"token_limit"_s }, { P, 3, 120, 120, u"parked"_s } });
    const TimelineSegment &parked = lane.segments.last();
    QVERIFY(parked.isParkedNow());
    QCOMPARE(lane.parked(), &parked);
    QCOMPARE(parked.resetAt, kReset);
    QCOMPARE(parked.parkedAt, kStart.addSecs(130));
    QCOMPARE(parked.label, u"parked until "_s + clock(kReset));
    QCOMPARE(parked.row, 6);
    QCOMPARE(lane.endS(), 120.0); // the hours parked are no policy time
    QCOMPARE(lane.attemptCount(), 3);
    QCOMPARE(session::RetryTexts::parkedLabel({}), u"parked"_s);

    RetryLog log;
    for (const RetryRecord &r : std::as_const(records))
        log.append(r);
    TimelineWidget widget;
    widget.setLog(&log);
    widget.resize(900, 300);
    // Its tooltip, beyond the axis' end; the lane's own say parked.
    const auto [left, right] = spanOf(widget, 0, u"Send 1 · parked"_s);
    QVERIFY2(left <= right, "no tooltip for the parked segment");
    const int budgetX = int(widget.xForSeconds(120));
    QVERIFY2(left > budgetX + 8, qPrintable(u"%1 vs the budget at %2"_s.arg(left).arg(budgetX)));
    QVERIFY(right < widget.width() - 40); // the outcome still has its gutter
    const QString tip
        = widget.toolTipAt(QPoint((left + right) / 2, widget.laneRect(0).center().y()));
    QVERIFY2(tip.contains(u"the provider's reset"_s), qPrintable(tip));
    QVERIFY(tip.contains(u"fresh retry cycle"_s));
    QVERIFY(tip.contains(u"budget exhausted"_s));
    const QString laneTip
        = widget.toolTipAt(QPoint(widget.width() - 20, widget.laneRect(0).center().y()));
    QVERIFY2(laneTip.contains(u"parked until "_s + clock(kReset)), qPrintable(laneTip));
    QVERIFY2(widget.accessibleDescription().contains(u"parked until "_s + clock(kReset)),
        qPrintable(widget.accessibleDescription()));

    // Painted in the parked colour, only there: right of the axis.
    const QList<int> xs = columnsOf(widget, 0, parkedColor(widget.palette()));
    QVERIFY2(!xs.isEmpty(), "the parked colour is nowhere on the lane");
    QVERIFY(*std::min_element(xs.cbegin(), xs.cend()) > budgetX + 4);
    QVERIFY(*std::min_element(xs.cbegin(), xs.cend()) >= left - 4);
    // The legend names it.
    QCOMPARE(widget.legendItemRects().size(), legendCategories().size() + 1);
    for (const QRect &item : widget.legendItemRects())
        QVERIFY(widget.rect().contains(item));
    QCOMPARE(session::RetryTexts::category(u"parked"_s), u"parked"_s);
}

void TestTimeline::unparkedClosesIt_data()
{
    QTest::addColumn<int>("why"); // RetryRecord::Unpark
    QTest::addColumn<bool>("numberedAsNext"); // the unparked record has the next send's number
    QTest::addColumn<bool>("sentAgain");
    QTest::addColumn<QString>("label");
    using U = RetryRecord::Unpark;
    QTest::newRow("reset reached")
        << int(U::ResetReached) << false << true << u"parked · reset reached"_s;
    QTest::newRow("sent now") << int(U::SentNow) << false << true << u"parked · sent now"_s;
    QTest::newRow("cancelled") << int(U::Cancelled) << false << false << u"parked · cancelled"_s;
    QTest::newRow("numbered as the next send")
        << int(U::ResetReached) << true << true << u"parked · reset reached"_s;
}

void TestTimeline::unparkedClosesIt()
{
    QFETCH(int, why);
    QFETCH(bool, numberedAsNext);
    QFETCH(bool, sentAgain);
    QFETCH(QString, label);
    QList<RetryRecord> records;
    headline(records, 1);
    const QDateTime out
        = why == int(RetryRecord::Unpark::ResetReached) ? kReset : kStart.addSecs(400);
    Send(records, 1, kStart.addSecs(130)).parked(3, kReset);
    Send(records, 1, out).unparked(RetryRecord::Unpark(why), kReset, numberedAsNext ? 2 : 0);
    QList<TimelineLane> lanes = layoutTimeline(records);
    QCOMPARE(lanes.size(), 1); // an unparked record never makes a lane
    const TimelineSegment *parked = lanes.first().parked();
    QVERIFY(parked);
    QVERIFY(!parked->isParkedNow());
    QCOMPARE(int(parked->unpark), why);
    QCOMPARE(parked->unparkedAt, out);
    QCOMPARE(parked->label, label);
    QCOMPARE(parked->resetAt, kReset);
    QCOMPARE(parked->row, 7);
    QCOMPARE(outcomeOf(lanes.first()), u"gave_up: budget_exhausted"_s);

    // What goes out then: a new send, a lane of its own, without a park.
    if (sentAgain)
        rateLimited(records, 2, out.addMSecs(5));
    RetryLog log;
    TimelineWidget widget;
    widget.setLog(&log);
    widget.resize(900, 300);
    for (const RetryRecord &r : std::as_const(records))
        log.append(r); // one by one, as they happen
    lanes = layoutTimeline(records);
    QCOMPARE(widget.lanes().size(), lanes.size());
    QCOMPARE(lanes.size(), sentAgain ? 2 : 1);
    if (sentAgain) {
        QCOMPARE(lanes.at(1).request, 2);
        QCOMPARE(lanes.at(1).started, out.addMSecs(5));
        QCOMPARE(outcomeOf(lanes.at(1)), u"succeeded"_s);
        QVERIFY(!lanes.at(1).parked());
        QCOMPARE(widget.lanes().at(1).segments.size(), lanes.at(1).segments.size());
        // Linked both ways: the park names the send it went out as, that send the park.
        QCOMPARE(lanes.first().parked()->resentAs, 2);
        QCOMPARE(lanes.at(1).resendOf, 1);
        QCOMPARE(widget.lanes().at(1).resendOf, 1);
        const QString laneTip
            = widget.toolTipAt(QPoint(widget.width() - 20, widget.laneRect(1).center().y()));
        QVERIFY2(laneTip.contains(u"Send 1 again, after it was parked"_s), qPrintable(laneTip));
        QVERIFY(widget.accessibleDescription().contains(u"It is send 1 again"_s));
    } else {
        QCOMPARE(lanes.first().parked()->resentAs, 0);
    }
    QCOMPARE(widget.lanes().at(0).parked()->label, label);

    // Still drawn beyond the axis, fainter; its tooltip says why it left the queue.
    const auto [left, right] = spanOf(widget, 0, u"Send 1 · parked"_s);
    QVERIFY(left <= right);
    QVERIFY(left > int(widget.xForSeconds(120)) + 8);
    const QString tip
        = widget.toolTipAt(QPoint((left + right) / 2, widget.laneRect(0).center().y()));
    QVERIFY2(tip.contains(
                 u"Left the queue:</b> "_s + session::RetryTexts::unpark(RetryRecord::Unpark(why))),
        qPrintable(tip));
    QCOMPARE(tip.contains(u"Sent again:</b> as send 2"_s), sentAgain);
    QVERIFY(!widget.accessibleDescription().contains(u"parked until"_s)); // nothing waits
}

void TestTimeline::parkedAgainAfterACancel()
{
    // Cancelled, then parked again before any new send: one parked segment, waiting again.
    const QDateTime later = kReset.addSecs(600);
    QList<RetryRecord> records;
    headline(records, 1);
    Send(records, 1, kStart.addSecs(130))
        .parked(3, kReset)
        .unparked(RetryRecord::Unpark::Cancelled, kReset)
        .parked(3, later);
    const QList<TimelineLane> lanes = layoutTimeline(records);
    QCOMPARE(lanes.size(), 1);
    QCOMPARE(lanes.first().segments.size(), 6);
    QVERIFY(lanes.first().parked()->isParkedNow());
    QCOMPARE(lanes.first().parked()->resetAt, later);
    QCOMPARE(lanes.first().parked()->label, u"parked until "_s + clock(later));
    QCOMPARE(outcomeOf(lanes.first()), u"parked"_s);
    // An unparked record with nothing parked changes nothing.
    QList<RetryRecord> stray;
    rateLimited(stray, 1);
    Send(stray, 1, kStart.addSecs(60)).unparked(RetryRecord::Unpark::SentNow, kReset);
    const QList<TimelineLane> plain = layoutTimeline(stray);
    QCOMPARE(plain.size(), 1);
    QCOMPARE(outcomeOf(plain.first()), u"succeeded"_s);
    QVERIFY(!plain.first().parked());
}

void TestTimeline::pacedLane()
{
    // A paced send: its pacing wait before attempt 1, outside the budget's axis, then the
    // cycle on the axis from 0 as usual.
    QList<RetryRecord> records;
    Send(records, 1, kStart)
        .paced(12)
        .started(1)
        .scheduled(
            1, 429, u"rate_limit"_s, 7, 7, u"retry-after"_s, u"Rate limit reached for requests"_s)
        .started(2)
        .succeeded(2);
    rateLimited(records, 2, kStart.addSecs(60));
    const QList<TimelineLane> lanes = layoutTimeline(records);
    QCOMPARE(lanes.size(), 2);
    const TimelineLane &lane = lanes.first();
    QCOMPARE(outcomeOf(lane), u"succeeded"_s);
    compareSegments(lane,
        { { Pace, 0, 0, 0, u"paced"_s }, { A, 1, 0, 0, u"rate_limit"_s },
            { W, 1, 0, 7, u"rate_limit"_s }, { A, 2, 7, 7, u"success"_s } });
    const TimelineSegment &paced = lane.segments.first();
    QCOMPARE(lane.paced(), &paced);
    QCOMPARE(paced.scheduledS, 12.0);
    QCOMPARE(paced.label, u"paced 12 s"_s);
    QCOMPARE(paced.row, 0);
    QCOMPARE(lane.endS(), 7.0); // the pacing wait is not the budget's
    QCOMPARE(lane.attemptCount(), 2);
    QCOMPARE(lanes.at(1).paced(), nullptr);
    QCOMPARE(session::RetryTexts::category(u"paced"_s), u"paced"_s);

    RetryLog log;
    for (const RetryRecord &r : std::as_const(records))
        log.append(r);
    TimelineWidget widget;
    widget.setLog(&log);
    widget.resize(900, 300);
    // Its tooltip, left of the axis' 0; attempt 1 still at 0.
    const auto [left, right] = spanOf(widget, 0, u"Send 1 · paced"_s);
    QVERIFY2(left <= right, "no tooltip for the paced segment");
    const int zeroX = int(widget.xForSeconds(0));
    QVERIFY2(right < zeroX - 8, qPrintable(u"%1 vs 0 s at %2"_s.arg(right).arg(zeroX)));
    QVERIFY(left > 20); // the send's title keeps its gutter
    const QString tip
        = widget.toolTipAt(QPoint((left + right) / 2, widget.laneRect(0).center().y()));
    QVERIFY2(tip.contains(u"the provider's window to reset"_s), qPrintable(tip));
    QVERIFY(tip.contains(u"1,200"_s)); // the estimate
    QVERIFY(tip.contains(u"does not spend"_s));
    const auto [a1Left, a1Right] = spanOf(widget, 0, u"attempt 1 of"_s);
    QVERIFY(a1Left <= zeroX && zeroX <= a1Right);

    // Painted in the pacing colour, only there: left of the axis.
    const QList<int> xs = columnsOf(widget, 0, pacedColor(widget.palette()));
    QVERIFY2(!xs.isEmpty(), "the pacing colour is nowhere on the lane");
    QVERIFY(*std::max_element(xs.cbegin(), xs.cend()) < zeroX);
    QVERIFY(columnsOf(widget, 1, pacedColor(widget.palette())).isEmpty());
    QVERIFY(pacedColor(widget.palette()) != parkedColor(widget.palette()));
    for (const QString &other : legendCategories())
        QVERIFY2(categoryColor(other, widget.palette()) != pacedColor(widget.palette()),
            qPrintable(other));
    // The legend names it.
    QCOMPARE(widget.legendItemRects().size(), legendCategories().size() + 1);
    for (const QRect &item : widget.legendItemRects())
        QVERIFY(widget.rect().contains(item));

    // A screen reader hears of it when it is the latest send.
    QList<RetryRecord> later;
    rateLimited(later, 1, kStart);
    Send(later, 2, kStart.addSecs(60)).paced(12).started(1).succeeded(1);
    RetryLog laterLog;
    for (const RetryRecord &r : std::as_const(later))
        laterLog.append(r);
    TimelineWidget latest;
    latest.setLog(&laterLog);
    QVERIFY2(latest.accessibleDescription().contains(
                 u"waited 12 s for the provider's window, outside the budget"_s),
        qPrintable(latest.accessibleDescription()));
    QVERIFY(!widget.accessibleDescription().contains(u"provider's window"_s));

    // Without a paced send the axis starts where it always did.
    RetryLog plain;
    for (const RetryRecord &r : std::as_const(records)) {
        if (r.request == 2)
            plain.append(r);
    }
    TimelineWidget before;
    before.setLog(&plain);
    before.resize(900, 300);
    QVERIFY(before.xForSeconds(0) < widget.xForSeconds(0));
    QCOMPARE(before.legendItemRects().size(), legendCategories().size());
}

void TestTimeline::pacedThenCancelled()
{
    // Cancelled while it paced: no attempt, the label says how far the wait ran.
    QList<RetryRecord> records;
    Send(records, 1, kStart).paced(12).cancelled(0, 4200);
    const QList<TimelineLane> lanes = layoutTimeline(records);
    QCOMPARE(lanes.size(), 1);
    QCOMPARE(outcomeOf(lanes.first()), u"cancelled"_s);
    compareSegments(lanes.first(), { { Pace, 0, 0, 0, u"paced"_s } });
    QCOMPARE(lanes.first().segments.first().label, u"paced 4.2 s of 12 s"_s);
    QCOMPARE(lanes.first().attemptCount(), 0);
}

void TestTimeline::pacedThenSentNow()
{
    // issue 25.9: Send now cut the pacing short; the label says what ran, not the plan.
    QList<RetryRecord> records;
    Send(records, 1, kStart).paced(58.251).started(1, 4200).succeeded(1);
    QList<TimelineLane> lanes = layoutTimeline(records);
    QCOMPARE(lanes.size(), 1);
    QCOMPARE(lanes.first().segments.first().label, u"paced 4.2 s of 58.251 s"_s);
    QCOMPARE(lanes.first().segments.first().ranS, 4.2); // the short figure, where room is short
    // Paced in full: the plan's figure alone.
    records.clear();
    Send(records, 1, kStart).paced(12).started(1, 12000).succeeded(1);
    lanes = layoutTimeline(records);
    QCOMPARE(lanes.first().segments.first().label, u"paced 12 s"_s);
}

void TestTimeline::profileAxisAndTheFallbackSwitch()
{
    // A profile of 3 attempts, 5 s per wait and 12 s in all (issue 17): its axis ends at 12 s.
    retry::PolicyLimits limits;
    limits.maxAttempts = 3;
    limits.waitCap = retry::Millis(5000);
    limits.budget = retry::Millis(12000);
    QList<RetryRecord> records;
    Send(records, 1, kStart)
        .started(1)
        .scheduled(1, 422, u"token_limit"_s, 5, 1080, u"message"_s)
        .started(2)
        .scheduled(2, 422, u"token_limit"_s, 5, 1080, u"message"_s)
        .started(3)
        .gaveUp(3, 422, u"token_limit"_s, u"attempts_exhausted"_s);
    for (RetryRecord &r : records) {
        r.profile = u"Free tier"_s;
        if (r.budgetLeftMs)
            r.budgetLeftMs = 12'000 - *r.waitedTotalMs;
    }
    RetryRecord fallback = records.constLast();
    fallback.event = RetryRecord::Event::Fallback;
    fallback.fallbackTo = u"Paid key"_s;
    records.append(fallback);
    Send(records, 2, kStart.addSecs(20)).started(1).succeeded(1);
    records[records.size() - 2].profile = records.last().profile = u"Paid key"_s;

    RetryLog log;
    for (const RetryRecord &r : std::as_const(records))
        log.append(r);
    TimelineWidget widget;
    widget.setLimits(limits);
    widget.setLog(&log);
    widget.resize(800, 300);
    QCOMPARE(widget.budgetS(), 12.0);
    QCOMPARE(widget.capS(), 5.0);
    QCOMPARE(widget.xForSeconds(12), widget.xForSeconds(120)); // the axis' end
    QVERIFY(widget.xForSeconds(5) < widget.xForSeconds(10));
    QCOMPARE(widget.lanes().size(), 2);
    const TimelineLane &capped = widget.lanes().at(0);
    QCOMPARE(capped.outcome, TimelineLane::Outcome::GaveUp);
    QCOMPARE(capped.reason, retry::EndReason::AttemptsExhausted);
    QCOMPARE(capped.endS(), 10.0);
    QCOMPARE(capped.profile, u"Free tier"_s);
    QCOMPARE(capped.fallbackTo, u"Paid key"_s);
    QVERIFY(capped.budgetS && qFuzzyCompare(*capped.budgetS, 12.0));
    QCOMPARE(widget.lanes().at(1).profile, u"Paid key"_s);
    QVERIFY(widget.lanes().at(1).fallbackTo.isEmpty());
    QCOMPARE(widget.lanes().at(1).outcome, TimelineLane::Outcome::Succeeded);
    // The switch is told: drawn after the capped lane's outcome, and to screen readers.
    QVERIFY2(widget.accessibleDescription().contains(
                 u"Send 1 was capped and went to Paid key instead."_s),
        qPrintable(widget.accessibleDescription()));
    QVERIFY2(widget.accessibleDescription().contains(u"of the 12 s budget"_s),
        qPrintable(widget.accessibleDescription()));
    // The budget line at 12 s and the cap at 5 s are drawn.
    const QImage image = widget.grab().toImage();
    const QRect area = widget.lanesArea();
    const QColor background = widget.palette().color(QPalette::Window);
    const auto drawnAt = [&](int x) {
        for (int dy = 0; dy < 8; ++dy) {
            if (image.pixelColor(x, area.top() + 2 + dy) != background)
                return true;
        }
        return false;
    };
    QVERIFY(drawnAt(int(widget.xForSeconds(12))));
    QVERIFY(drawnAt(int(widget.xForSeconds(5))));
}

void TestTimeline::screenshot()
{
    const QString dir = qEnvironmentVariable("CAPWATCH_SHOT_DIR");
    if (dir.isEmpty())
        QSKIP("set CAPWATCH_SHOT_DIR to write screenshots");

    RetryLog log;
    QList<RetryRecord> records;
    headline(records, 1);
    backoff(records, 2, true, kStart.addSecs(150));
    rateLimited(records, 3, kStart.addSecs(260));
    Send(records, 4, kStart.addSecs(300))
        .started(1)
        .scheduled(1, 422, u"token_limit"_s, 60, 1080, u"message"_s, kHeadlineError);
    for (const RetryRecord &r : std::as_const(records))
        log.append(r);

    TimelineWidget widget;
    widget.setLog(&log);
    widget.setLiveWait(4, 23.4);
    widget.resize(qEnvironmentVariableIntValue("CAPWATCH_SHOT_WIDTH") > 0
            ? qEnvironmentVariableIntValue("CAPWATCH_SHOT_WIDTH")
            : 800,
        qEnvironmentVariableIntValue("CAPWATCH_SHOT_HEIGHT") > 0
            ? qEnvironmentVariableIntValue("CAPWATCH_SHOT_HEIGHT")
            : 300);
    QVERIFY(widget.grab().save(QDir(dir).filePath(u"timeline.png"_s)));

    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x30));
    dark.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
    dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    widget.setPalette(dark);
    QVERIFY(widget.grab().save(QDir(dir).filePath(u"timeline-dark.png"_s)));
    widget.setPalette(QPalette());

    // The other outcomes: a new key then a timeout, cancelled, not retryable; and nothing.
    RetryLog variety;
    QList<RetryRecord> other;
    Send(other, 5, kStart)
        .started(1)
        .scheduled(1, 401, u"auth"_s, 0, 0, u"credential-refresh"_s)
        .started(2)
        .scheduled(2, 429, u"rate_limit"_s, 0.644, 0.644, u"retry-after-ms"_s)
        .started(3)
        .scheduled(3, 429, u"rate_limit"_s, 30, 30, u"message"_s)
        .started(4)
        .gaveUp(4, 429, u"rate_limit"_s, u"timeout"_s);
    Send(other, 6, kStart.addSecs(100))
        .started(1)
        .scheduled(1, 503, u"transient"_s, 5, 5, u"backoff"_s)
        .started(2)
        .cancelled(2);
    Send(other, 7, kStart.addSecs(200)).started(1).gaveUp(1, 400, u"fatal"_s, u"not_retryable"_s);
    Send(other, 8, kStart.addSecs(300)).started(1);
    for (const RetryRecord &r : std::as_const(other))
        variety.append(r);
    TimelineWidget second;
    second.resize(widget.size());
    QVERIFY(second.grab().save(QDir(dir).filePath(u"timeline-empty.png"_s)));
    second.setLog(&variety);
    QVERIFY(second.grab().save(QDir(dir).filePath(u"timeline-variety.png"_s)));

    // Parked: a send waiting for its reset, one that went out at it (and the send after it),
    // one cancelled; light, dark and narrow.
    RetryLog parkedLog;
    QList<RetryRecord> parked;
    headline(parked, 1);
    Send(parked, 1, kStart.addSecs(130))
        .parked(3, kReset)
        .unparked(RetryRecord::Unpark::ResetReached, kReset);
    rateLimited(parked, 2, kReset.addMSecs(5));
    backoff(parked, 3, false, kReset.addSecs(300));
    Send(parked, 3, kReset.addSecs(400)).parked(5, kReset.addSecs(3 * 3600 + 240));
    headline(parked, 4, kReset.addSecs(600));
    Send(parked, 4, kReset.addSecs(730))
        .parked(3, kReset.addSecs(3600))
        .unparked(RetryRecord::Unpark::Cancelled, kReset.addSecs(3600));
    headline(parked, 5, kReset.addSecs(900));
    Send(parked, 5, kReset.addSecs(1030)).parked(3, kReset.addSecs(1080 + 1030));
    for (const RetryRecord &r : std::as_const(parked))
        parkedLog.append(r);
    TimelineWidget parkedWidget;
    parkedWidget.setLog(&parkedLog);
    parkedWidget.resize(widget.size());
    QVERIFY(parkedWidget.grab().save(QDir(dir).filePath(u"timeline-parked.png"_s)));
    parkedWidget.setPalette(dark);
    QVERIFY(parkedWidget.grab().save(QDir(dir).filePath(u"timeline-parked-dark.png"_s)));
    parkedWidget.setPalette(QPalette());
    parkedWidget.resize(460, 260);
    QVERIFY(parkedWidget.grab().save(QDir(dir).filePath(u"timeline-parked-narrow.png"_s)));
    parkedWidget.resize(parkedWidget.minimumSizeHint());
    QVERIFY(parkedWidget.grab().save(QDir(dir).filePath(u"timeline-parked-min.png"_s)));

    // Crowded and narrow.
    for (int i = 5; i < 25; ++i) {
        QList<RetryRecord> more;
        if (i % 3 == 0)
            headline(more, i, kStart.addSecs(400 + i * 30));
        else if (i % 3 == 1)
            backoff(more, i, true, kStart.addSecs(400 + i * 30));
        else
            rateLimited(more, i, kStart.addSecs(400 + i * 30));
        for (const RetryRecord &r : std::as_const(more))
            log.append(r);
    }
    QVERIFY(widget.grab().save(QDir(dir).filePath(u"timeline-many.png"_s)));
    widget.resize(widget.minimumSizeHint());
    QVERIFY(widget.grab().save(QDir(dir).filePath(u"timeline-min.png"_s)));
    widget.resize(460, 220);
    QVERIFY(widget.grab().save(QDir(dir).filePath(u"timeline-narrow.png"_s)));

    // Paced: two sends held back for the provider's window, one cut short by Send now's cancel.
    RetryLog pacedLog;
    QList<RetryRecord> paced;
    rateLimited(paced, 1, kStart);
    Send(paced, 2, kStart.addSecs(20)).paced(12).started(1).succeeded(1);
    Send(paced, 3, kStart.addSecs(40))
        .paced(34)
        .started(1)
        .scheduled(1, 429, u"rate_limit"_s, 7, 7, u"retry-after"_s)
        .started(2)
        .succeeded(2);
    Send(paced, 4, kStart.addSecs(90)).paced(30).cancelled(0, 4200);
    for (const RetryRecord &r : std::as_const(paced))
        pacedLog.append(r);
    TimelineWidget pacedWidget;
    pacedWidget.setLog(&pacedLog);
    pacedWidget.resize(800, 300);
    QVERIFY(pacedWidget.grab().save(QDir(dir).filePath(u"timeline-paced.png"_s)));
    pacedWidget.setPalette(dark);
    QVERIFY(pacedWidget.grab().save(QDir(dir).filePath(u"timeline-paced-dark.png"_s)));
    pacedWidget.setPalette(QPalette());
    pacedWidget.resize(460, 260);
    QVERIFY(pacedWidget.grab().save(QDir(dir).filePath(u"timeline-paced-narrow.png"_s)));
}

QTEST_MAIN(TestTimeline)
#include "tst_timeline.moc"
