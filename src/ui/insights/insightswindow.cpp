#include "ui/insights/insightswindow.h"

#include "history/historywriter.h"
#include "session/profiles.h"
#include "session/usagetally.h"
#include "ui/insights/chartsmodule.h"
#include "ui/insights/insightscard.h"
#include "ui/insights/insightstablemodel.h"
#include "ui/insights/spendgauges.h"

#include <QComboBox>
#include <QDateEdit>
#include <QEvent>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QShortcut>
#include <QToolButton>
#include <QVBoxLayout>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

namespace {

/// Wide enough for two columns of charts.
constexpr int kTwoColumnsWidth = 1000;
/// How long the ledger may keep changing before the view reads it again.
constexpr int kFollowMs = 1000;

/// The ranges as the settings file keeps them (Dates are not kept).
struct RangeName
{
    InsightsWindow::Range range;
    QStringView name;
};
constexpr RangeName kRangeNames[] = { { InsightsWindow::Range::Today, u"today" },
    { InsightsWindow::Range::Week, u"week" }, { InsightsWindow::Range::Month, u"month" },
    { InsightsWindow::Range::Quarter, u"quarter" }, { InsightsWindow::Range::All, u"all" } };

} // namespace

InsightsWindow::InsightsWindow(history::HistoryWriter *writer, session::UsageTally *tally,
    std::function<session::ProfileSet()> profiles, QWidget *parent, Qt::WindowFlags flags)
    : QWidget(parent, flags)
    , m_writer(writer)
    , m_tally(tally)
    , m_profiles(std::move(profiles))
{
    setObjectName(u"insightsWindow"_s);
    if (isWindow()) {
        setAttribute(Qt::WA_DeleteOnClose);
        setMinimumSize(640, 480);
    }
    // Time passes without the ledger changing: the gauges' projections, and at midnight the
    // range's days, are taken again each minute while the window shows.
    m_minute.setInterval(60'000);
    connect(&m_minute, &QTimer::timeout, this, [this] {
        refreshGauges();
        if (m_range != Range::Dates && m_shownTo.isValid() && today() != m_shownTo)
            reload();
    });
    m_follow.setSingleShot(true);
    m_follow.setInterval(kFollowMs);
    connect(&m_follow, &QTimer::timeout, this, [this] {
        if (isVisible())
            reload();
    });
    if (tally) {
        connect(tally, &session::UsageTally::changed, this, [this] {
            refreshGauges();
            if (!m_follow.isActive())
                m_follow.start();
        });
        connect(tally, &session::UsageTally::loaded, this, &InsightsWindow::refreshGauges);
    }
    buildUi();
    retranslate();

    ChartsModule *charts = ChartsModule::instance();
    if (!charts->isDone())
        connect(charts, &ChartsModule::done, this, &InsightsWindow::schedule);
    charts->load();
    reload();
    schedule(); // the cards, a turn each
}

void InsightsWindow::buildUi()
{
    m_rangeLabel = new QLabel(this);
    m_rangeBox = new QComboBox(this);
    m_rangeBox->setObjectName(u"rangeBox"_s);
    m_rangeLabel->setBuddy(m_rangeBox);
    setFocusProxy(m_rangeBox); // shown, the keyboard starts at the range
    m_fromEdit = new QDateEdit(this);
    m_fromEdit->setObjectName(u"fromEdit"_s);
    m_toEdit = new QDateEdit(this);
    m_toEdit->setObjectName(u"toEdit"_s);
    for (QDateEdit *edit : { m_fromEdit, m_toEdit }) {
        edit->setCalendarPopup(true);
        edit->setDate(today());
        edit->setMaximumDate(today());
        edit->setVisible(false);
    }
    m_filterLabel = new QLabel(this);
    m_profileBox = new QComboBox(this);
    m_profileBox->setObjectName(u"profileBox"_s);
    m_filterLabel->setBuddy(m_profileBox);
    m_modelBox = new QComboBox(this);
    m_modelBox->setObjectName(u"modelBox"_s);
    m_splitLabel = new QLabel(this);
    m_splitBox = new QComboBox(this);
    m_splitBox->setObjectName(u"splitBox"_s);
    m_splitLabel->setBuddy(m_splitBox);
    for (QComboBox *box : { m_profileBox, m_modelBox })
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);

    connect(m_rangeBox, &QComboBox::activated, this,
        [this](int index) { setRange(Range(m_rangeBox->itemData(index).toInt())); });
    const auto datesEdited = [this] { setDates(m_fromEdit->date(), m_toEdit->date()); };
    connect(m_fromEdit, &QDateEdit::editingFinished, this, datesEdited);
    connect(m_toEdit, &QDateEdit::editingFinished, this, datesEdited);
    const auto filtered = [this] {
        setFilter(m_profileBox->currentData().toString(), m_modelBox->currentData().toString());
    };
    connect(m_profileBox, &QComboBox::activated, this, filtered);
    connect(m_modelBox, &QComboBox::activated, this, filtered);
    connect(m_splitBox, &QComboBox::activated, this, [this](int index) {
        setSplit(InsightsDigest::Split(m_splitBox->itemData(index).toInt()));
    });

    // The filter and the split beside the range when they fit, else on a line of their own
    // (layOutControls()): the main window's page is as narrow as the window.
    m_filters = new QWidget(this);
    auto *filters = new QHBoxLayout(m_filters);
    filters->setContentsMargins(0, 0, 0, 0);
    filters->addWidget(m_filterLabel);
    filters->addWidget(m_profileBox);
    filters->addWidget(m_modelBox);
    filters->addSpacing(12);
    filters->addWidget(m_splitLabel);
    filters->addWidget(m_splitBox);
    auto *controls = new QHBoxLayout;
    m_controls = controls;
    controls->addWidget(m_rangeLabel);
    controls->addWidget(m_rangeBox);
    controls->addWidget(m_fromEdit);
    controls->addWidget(m_toEdit);
    controls->addSpacing(12);
    controls->addWidget(m_filters);
    m_filters->setMinimumWidth(1);
    controls->addStretch(1);
    m_secondRow = new QHBoxLayout;
    if (!isWindow()) {
        m_back = new QToolButton(this);
        m_back->setObjectName(u"backButton"_s);
        m_back->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        // The style's arrow, drawn: a standard icon would load the icon theme here, 6 to 10 ms.
        m_back->setArrowType(Qt::LeftArrow);
        connect(m_back, &QToolButton::clicked, this, &InsightsWindow::backRequested);
        controls->addWidget(m_back);
    }

    m_summary = new QLabel(this);
    m_summary->setObjectName(u"summary"_s);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *content = new QWidget;
    auto *column = new QVBoxLayout(content);
    m_limitsBox = new QGroupBox(content);
    m_gauges = new SpendGauges(m_limitsBox);
    auto *limits = new QVBoxLayout(m_limitsBox);
    limits->addWidget(m_gauges);
    column->addWidget(m_limitsBox);
    m_grid = new QGridLayout;
    column->addLayout(m_grid);
    column->addStretch(1);
    m_content = content;
    m_order = { u"tokens"_s, u"cost"_s, u"time-lost"_s, u"time-lost-by-profile"_s, u"refusals"_s,
        u"wait-sources"_s, u"outcomes"_s };
    m_scroll = new QScrollArea(this);
    m_scroll->setObjectName(u"insightsScroll"_s);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    // Its width never changes with the content's height: a scroll bar appearing when the tables
    // came in narrowed every chart, which drew itself again for the new width.
    m_scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    m_scroll->setWidget(content);
    // Shown once its cards are made (a turn each): shown with it, at once, rather than one by
    // one into a window already painted (each a show of its own, and a round trip to the
    // display server for the pointer).
    m_scroll->hide();

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addLayout(m_secondRow);
    layout->addWidget(m_summary);
    layout->addWidget(m_scroll, 1);

    if (isWindow()) { // a page leaves by the main window's Esc and Ctrl+I
        auto *close = new QShortcut(QKeySequence::Close, this);
        connect(close, &QShortcut::activated, this, &QWidget::close);
        auto *escape = new QShortcut(Qt::Key_Escape, this);
        connect(escape, &QShortcut::activated, this, &QWidget::close);
    }
    auto *refresh = new QShortcut(QKeySequence::Refresh, this);
    refresh->setContext(Qt::WidgetWithChildrenShortcut);
    connect(refresh, &QShortcut::activated, this, &InsightsWindow::reload);
}

void InsightsWindow::retranslate()
{
    setWindowTitle(tr("Insights — capwatch"));
    m_rangeLabel->setText(tr("&Range:"));
    m_filterLabel->setText(tr("&Filter:"));
    m_splitLabel->setText(tr("&Tokens by:"));
    if (m_back) {
        m_back->setText(tr("Back to the chat"));
        m_back->setToolTip(tr("Back to the conversation (Esc or Ctrl+I)"));
    }
    m_limitsBox->setTitle(tr("Spending limits"));
    const auto fillRange = [this] {
        const QSignalBlocker block(m_rangeBox);
        m_rangeBox->clear();
        m_rangeBox->addItem(tr("Today"), int(Range::Today));
        m_rangeBox->addItem(tr("Last 7 days"), int(Range::Week));
        m_rangeBox->addItem(tr("Last 30 days"), int(Range::Month));
        m_rangeBox->addItem(tr("Last 90 days"), int(Range::Quarter));
        m_rangeBox->addItem(tr("All"), int(Range::All));
        m_rangeBox->addItem(tr("Dates…"), int(Range::Dates));
        m_rangeBox->setCurrentIndex(m_rangeBox->findData(int(m_range)));
    };
    fillRange();
    {
        const QSignalBlocker block(m_splitBox);
        m_splitBox->clear();
        m_splitBox->addItem(tr("Model"), int(InsightsDigest::Split::Model));
        m_splitBox->addItem(tr("Profile"), int(InsightsDigest::Split::Profile));
        m_splitBox->setCurrentIndex(m_splitBox->findData(int(m_split)));
    }
    m_fromEdit->setToolTip(tr("First day"));
    m_toEdit->setToolTip(tr("Last day"));
    fillFilters(true);
    layOutControls();
}

QDate InsightsWindow::today() const
{
    return m_tally ? m_tally->now().date() : QDate::currentDate();
}

QDate InsightsWindow::from() const
{
    const QDate t = today();
    switch (m_range) {
    case Range::Today:
        return t;
    case Range::Week:
        return t.addDays(-6);
    case Range::Month:
        return t.addDays(-29);
    case Range::Quarter:
        return t.addDays(-89);
    case Range::All:
        return m_insights.firstDay.isValid() && m_insights.firstDay < t ? m_insights.firstDay : t;
    case Range::Dates:
        return m_datesFrom;
    }
    return t;
}

QDate InsightsWindow::to() const
{
    return m_range == Range::Dates ? m_datesTo : today();
}

void InsightsWindow::setRange(Range range)
{
    m_range = range;
    if (range == Range::Dates && !m_datesFrom.isValid()) {
        m_datesTo = today();
        m_datesFrom = m_datesTo.addDays(-6);
    }
    {
        const QSignalBlocker block(m_rangeBox);
        m_rangeBox->setCurrentIndex(m_rangeBox->findData(int(range)));
    }
    m_fromEdit->setVisible(range == Range::Dates);
    m_toEdit->setVisible(range == Range::Dates);
    layOutControls();
    if (range == Range::Dates) {
        m_fromEdit->setDate(m_datesFrom);
        m_toEdit->setDate(m_datesTo);
    }
    reload();
}

void InsightsWindow::setDates(QDate from, QDate to)
{
    if (to < from)
        std::swap(from, to);
    m_datesFrom = from;
    m_datesTo = to;
    if (m_range != Range::Dates)
        setRange(Range::Dates); // reloads
    else
        reload();
}

void InsightsWindow::setFilter(const QString &profile, const QString &model)
{
    m_profile = profile;
    m_model = model;
    fillFilters();
    reload();
}

QString InsightsWindow::rangeName() const
{
    for (const RangeName &r : kRangeNames)
        if (r.range == m_range)
            return r.name.toString();
    return {};
}

QString InsightsWindow::splitName() const
{
    return m_split == InsightsDigest::Split::Profile ? u"profile"_s : u"model"_s;
}

void InsightsWindow::restoreView(const QString &range, const QString &split)
{
    if (split == u"profile"_s || split == u"model"_s) {
        const auto wanted
            = split == u"profile"_s ? InsightsDigest::Split::Profile : InsightsDigest::Split::Model;
        if (wanted != m_split)
            setSplit(wanted);
    }
    for (const RangeName &r : kRangeNames) {
        if (r.name == range && r.range != m_range)
            setRange(r.range);
    }
}

void InsightsWindow::setSplit(InsightsDigest::Split split)
{
    m_split = split;
    {
        const QSignalBlocker block(m_splitBox);
        m_splitBox->setCurrentIndex(m_splitBox->findData(int(split)));
    }
    applyInsights(); // the same numbers, stacked the other way
}

void InsightsWindow::reload()
{
    refreshGauges();
    m_fromEdit->setMaximumDate(today());
    m_toEdit->setMaximumDate(today());
    const int generation = ++m_generation;
    m_asked.start();
    if (!m_writer) {
        m_insights = {};
        m_insightsGeneration = generation;
        applyInsights();
        return;
    }
    history::InsightsQuery query;
    query.from = m_range == Range::All ? QDate() : from();
    query.to = to();
    query.profile = m_profile;
    query.model = m_model;
    // Sums only, on the history's worker; the latest ask wins.
    m_writer->read(
        this, [query](history::HistoryStore &store) { return store.insights(query); },
        [this, generation](history::Insights result) {
            if (generation != m_generation)
                return;
            m_insights = std::move(result);
            m_insightsGeneration = generation;
            fillFilters();
            applyInsights();
        });
}

void InsightsWindow::applyInsights()
{
    m_shownFrom = from();
    m_shownTo = to();
    const InsightsDigest digest(m_insights, m_shownFrom, m_shownTo, palette());
    for (InsightsTable t :
        { digest.tokens(m_split), digest.cost(), digest.timeLost(), digest.timeLostByProvider(),
            digest.refusals(), digest.waitSources(), digest.outcomes() })
        m_tables.insert(t.id, std::move(t));
    ++m_layout; // every card takes its table again (or sees it is the same)
    m_loadedSent = false;
    m_summary->setText(summaryText());
    schedule();
}

void InsightsWindow::schedule()
{
    if (m_pumpPosted)
        return;
    m_pumpPosted = true;
    // A 1 ms timer, not a posted call: what a step caused (a chart's layout request, the paint)
    // is delivered in a pass of posted events of its own, not beside the next step.
    QTimer::singleShot(1, Qt::PreciseTimer, this, &InsightsWindow::pump);
}

void InsightsWindow::pump()
{
    // One step a turn (a card made, a table handed over, a chart made), each a few
    // milliseconds: all of them at once would be a stall. A step schedules the next one, which
    // waits for a later turn of the event loop.
    m_pumpPosted = false;
    for (const QString &id : std::as_const(m_order)) {
        if (!m_cards.contains(id)) {
            auto *card = new InsightsCard(id, m_content);
            card->setExportDirectory(&m_exportDirectory);
            m_cards.insert(id, card);
            m_columns = 0; // lay them out again, with this one
            layOutCards();
            schedule();
            return;
        }
    }
    if (m_scroll->isHidden()) {
        m_scroll->show();
        schedule();
        return;
    }
    for (const QString &id : std::as_const(m_order)) {
        if (m_applied.value(id, -1) != m_layout && m_tables.contains(id)) {
            m_applied.insert(id, m_layout);
            InsightsCard *card = m_cards.value(id);
            // The same numbers (the ledger followed, nothing in range changed): the card keeps
            // its selection, its scroll position and its chart.
            if (card->model()->table() == m_tables.value(id))
                continue;
            card->setTable(m_tables.value(id));
            schedule();
            return;
        }
    }
    ChartsModule *charts = ChartsModule::instance();
    if (charts->isDone()) {
        if (charts->factory() && !m_chartsPrepared) {
            m_chartsPrepared = true;
            charts->factory()->prepare();
            schedule();
            return;
        }
        for (const QString &id : std::as_const(m_order)) {
            if (m_cards.value(id)->stepChart(charts->factory(), charts->error())) {
                schedule();
                return;
            }
        }
    }
    // Loaded: the sums of the last ask, in every card, drawn once the module is there (or
    // known missing).
    if (m_insightsGeneration == m_generation && !m_loadedSent && m_tables.size() == m_order.size()
        && charts->isDone()) {
        m_loadedSent = true;
        Q_EMIT loaded(m_asked.elapsed());
    }
}

QString InsightsWindow::summaryText() const
{
    if (!m_writer)
        return tr("This run keeps no history (--private): there is nothing to sum.");
    qint64 tokens = 0;
    qint64 attempts = 0;
    double billed = 0;
    double estimated = 0;
    qint64 lostMs = 0;
    for (const history::InsightsDay &d : m_insights.days) {
        if (d.day < m_shownFrom || d.day > m_shownTo)
            continue;
        tokens += d.promptTokens + d.completionTokens;
        attempts += d.attempts;
        billed += d.billed;
        estimated += d.estimated;
        lostMs += d.waitedMs + d.pacedMs + d.parkedMs;
    }
    const qint64 sends = m_insights.firstTime + m_insights.afterRetries
        + m_insights.parkedThenAnswered + m_insights.notAnswered;
    if (attempts == 0)
        return tr("Nothing was sent in this range. capwatch counts every attempt, of this window "
                  "and of capwatch-cli, in its history.");
    const QLocale locale;
    QStringList parts;
    parts.append(tr("Sends: %1").arg(locale.toString(sends)));
    parts.append(tr("tokens: %1").arg(locale.toString(tokens)));
    const auto money = [](double amount, const QString &currency) {
        return InsightsTableModel::format(amount, InsightsTable::Unit::Money, currency);
    };
    if (billed > 0)
        parts.append(tr("billed: %1").arg(money(billed, {})));
    if (estimated > 0)
        parts.append(tr("estimated: %1").arg(money(estimated, u"USD"_s)));
    parts.append(tr("lost to caps: %1")
                     .arg(InsightsTableModel::format(
                         double(lostMs) / 60000.0, InsightsTable::Unit::Minutes, {})));
    return parts.join(u" · "_s);
}

void InsightsWindow::fillFilters(bool force)
{
    // Filled again only when what they offer changed: the ledger followed every second would
    // close an open list.
    const QStringList offered = m_insights.profiles + QStringList { QString() } + m_insights.models
        + QStringList { QString(), m_profile, m_model };
    if (!force && offered == m_offered)
        return;
    m_offered = offered;
    const auto fill
        = [](QComboBox *box, const QString &all, const QStringList &names, const QString &current) {
              const QSignalBlocker block(box);
              box->clear();
              box->addItem(all, QString());
              for (const QString &name : names)
                  box->addItem(name.isEmpty() ? tr("(none)") : name, name);
              // A filter the ledger no longer names stays chosen: its (empty) numbers are the
              // answer.
              if (!current.isEmpty() && box->findData(current) < 0)
                  box->addItem(current, current);
              box->setCurrentIndex(std::max(0, box->findData(current)));
          };
    fill(m_profileBox, tr("All profiles"), m_insights.profiles, m_profile);
    fill(m_modelBox, tr("All models"), m_insights.models, m_model);
}

void InsightsWindow::layOutCards()
{
    const int columns = width() >= kTwoColumnsWidth ? 2 : 1;
    if (columns == m_columns)
        return;
    m_columns = columns;
    for (InsightsCard *card : std::as_const(m_cards))
        m_grid->removeWidget(card);
    for (int i = 0; i < m_order.size(); ++i) {
        if (InsightsCard *card = m_cards.value(m_order.at(i)))
            m_grid->addWidget(card, i / columns, i % columns);
    }
    for (int c = 0; c < 2; ++c)
        m_grid->setColumnStretch(c, c < columns ? 1 : 0);
}

void InsightsWindow::refreshGauges()
{
    if (m_tally && m_profiles && isVisible())
        m_gauges->refresh(m_profiles(), *m_tally);
}

void InsightsWindow::changeEvent(QEvent *event)
{
    if (!m_summary) { // not built yet
        QWidget::changeEvent(event);
        return;
    }
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        applyInsights();
    } else if (event->type() == QEvent::PaletteChange) {
        applyInsights(); // the categories' colours for the new palette
    }
    QWidget::changeEvent(event);
}

void InsightsWindow::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    layOutControls();
    layOutCards();
}

void InsightsWindow::layOutControls()
{
    const auto hint
        = [](QWidget *w) { return w->isVisibleTo(w->parentWidget()) ? w->sizeHint().width() : 0; };
    const int spacing = m_controls->spacing() > 0 ? m_controls->spacing() : 6;
    const int oneRow = hint(m_rangeLabel) + hint(m_rangeBox) + hint(m_fromEdit) + hint(m_toEdit)
        + m_filters->sizeHint().width() + (m_back ? m_back->sizeHint().width() : 0) + 12
        + 8 * spacing + contentsMargins().left() + contentsMargins().right();
    const bool inFirst = m_controls->indexOf(m_filters) >= 0;
    const bool fits = width() >= oneRow;
    if (fits == inFirst)
        return;
    // Beside the range they never hold the page wider than two rows would (an explicit minimum
    // of 1): a narrower page is resized, and puts them below.
    if (fits) {
        m_secondRow->removeWidget(m_filters);
        m_controls->insertWidget(m_controls->indexOf(m_toEdit) + 2, m_filters);
        m_filters->setMinimumWidth(1);
    } else {
        m_controls->removeWidget(m_filters);
        m_secondRow->insertWidget(0, m_filters);
        m_secondRow->addStretch(1);
        m_filters->setMinimumWidth(0);
    }
    // The second row's stretch goes with its widget.
    if (fits) {
        while (QLayoutItem *item = m_secondRow->takeAt(0))
            delete item;
    }
}

void InsightsWindow::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refreshGauges();
    m_minute.start();
}

void InsightsWindow::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_minute.stop();
}

} // namespace capwatch::ui
