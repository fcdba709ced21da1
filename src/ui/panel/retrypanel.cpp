#include "ui/panel/retrypanel.h"

#include "retry/constants.h"
#include "session/parkingtexts.h"
#include "session/retrytexts.h"
#include "session/sendtexts.h"
#include "ui/panel/categorycolors.h"
#include "ui/panel/progressvalue.h"
#include "ui/panel/providerwindowpart.h"

#include <QAccessible>
#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>
#include <QVBoxLayout>
#include <cmath>

namespace capwatch::ui {

using namespace Qt::StringLiterals;
using retry::Millis;

namespace {

QLabel *caption(QWidget *parent)
{
    auto *l = new QLabel(parent);
    QFont f = l->font();
    f.setBold(true);
    l->setFont(f);
    l->setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    // In a narrow panel the caption wraps rather than squeezing the figure beside it.
    l->setWordWrap(true);
    return l;
}

} // namespace

RetryPanel::RetryPanel(QWidget *parent)
    : QWidget(parent)
    , m_scroll(new QScrollArea(this))
    , m_content(new QWidget(m_scroll))
    , m_title(new QLabel(m_content))
    , m_stateLabel(new QLabel(m_content))
    , m_failureCaption(caption(m_content))
    , m_failureLabel(new QLabel(m_content))
    , m_attemptCaption(caption(m_content))
    , m_attemptLabel(new QLabel(m_content))
    , m_attemptBar(newPanelBar(m_content))
    , m_tokensCaption(caption(m_content))
    , m_tokensLabel(new QLabel(m_content))
    , m_tokensBar(newPanelBar(m_content))
    , m_countdownCaption(caption(m_content))
    , m_countdownLabel(new QLabel(m_content))
    , m_countdownBar(newPanelBar(m_content))
    , m_budgetCaption(caption(m_content))
    , m_budgetLabel(new QLabel(m_content))
    , m_budgetBar(newPanelBar(m_content))
    , m_sourceCaption(caption(m_content))
    , m_sourceLabel(new QLabel(m_content))
    , m_sendNow(new QPushButton(m_content))
    , m_sendAt(new QPushButton(m_content))
{
    m_wallClock = [] { return QDateTime::currentDateTimeUtc(); };
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    m_title->setFont(titleFont);
    m_window = new ProviderWindowPart(m_content, titleFont, this);
    m_title->setWordWrap(true);
    QFont stateFont = m_stateLabel->font();
    stateFont.setPointSizeF(stateFont.pointSizeF() * 1.1);
    m_stateLabel->setFont(stateFont);
    m_stateLabel->setWordWrap(true);
    m_stateLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_sourceLabel->setWordWrap(true);
    m_sourceLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    for (QLabel *l : { m_attemptLabel, m_tokensLabel, m_countdownLabel, m_budgetLabel })
        l->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    // In the category's colour, bold: the cause at a glance, as in the timeline and the log.
    QFont failureFont = m_failureLabel->font();
    failureFont.setBold(true);
    m_failureLabel->setFont(failureFont);
    m_failureLabel->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_failureLabel->setWordWrap(true);
    m_attemptBar->setRange(0, m_limits.maxAttempts);
    setProgressValue(m_budgetBar, 1000);
    m_sendNow->setObjectName(u"sendNow"_s);
    m_tokensBar->setObjectName(u"tokensBar"_s);
    m_sendNow->hide();
    connect(m_sendNow, &QPushButton::clicked, this, &RetryPanel::sendNowRequested);
    m_sendAt->setObjectName(u"sendAt"_s);
    m_failureLabel->setObjectName(u"failureValue"_s);
    m_sendAt->hide();
    connect(m_sendAt, &QPushButton::clicked, this, &RetryPanel::sendAtRequested);
    connect(m_window, &ProviderWindowPart::changed, this, [this](QWidget *what) {
        updateGeometry();
        announce(what);
    });

    // The figures keep their size in a small window: the panel scrolls instead of squeezing
    // its labels.
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_scroll->viewport()->setAutoFillBackground(false);
    m_content->setAutoFillBackground(false);
    m_scroll->setWidget(m_content);
    outer->addWidget(m_scroll);
    // As tall as the figures when there is room, never taller; shorter (scrolling) when not.
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);

    // Compact, so that every row shows without scrolling at the default size: each figure on
    // one line (its caption, its bar, its value), the captions in a column as wide as the
    // longest one, never wrapped (German's are long).
    auto *grid = new QGridLayout(m_content);
    const int gap = fontMetrics().height() / 2;
    grid->setVerticalSpacing(gap / 2);
    grid->setHorizontalSpacing(gap * 2);
    grid->addWidget(m_title, 0, 0, 1, 3);
    grid->addWidget(m_stateLabel, 1, 0, 1, 3);
    // Right under the state that names the wait it ends; hidden but while pacing.
    // Send now while pacing; Send at while a retry waits for a reset out of the budget's reach
    // (never both: one cell).
    grid->addWidget(m_sendNow, 2, 0, 1, 3, Qt::AlignLeft);
    grid->addWidget(m_sendAt, 2, 0, 1, 3, Qt::AlignLeft);
    // Each row with a caption has a second row below it, empty (no height, no spacing) unless
    // the panel is narrow: then every part takes the whole width, the figure or bar under its
    // caption (fitCaptions()), so that no column's minimum adds to another's.
    m_grid = grid;
    int row = 3;
    const auto pair = [&](QWidget *caption, QWidget *second, int column, Qt::Alignment align = {}) {
        m_placements.append({ caption, row, 0, 1, row, align });
        m_placements.append({ second, row, column, 3 - column, row + 1, {} });
        row += 2;
    };
    pair(m_failureCaption, m_failureLabel, 1);
    for (const auto &[cap, value, progress] :
        { std::tuple { m_attemptCaption, m_attemptLabel, m_attemptBar },
            std::tuple { m_tokensCaption, m_tokensLabel, m_tokensBar },
            std::tuple { m_countdownCaption, m_countdownLabel, m_countdownBar },
            std::tuple { m_budgetCaption, m_budgetLabel, m_budgetBar } }) {
        grid->addWidget(progress, row, 1); // hidden when narrow
        pair(cap, value, 2);
    }
    pair(m_sourceCaption, m_sourceLabel, 1, Qt::AlignTop);
    grid->setRowMinimumHeight(row++, gap / 2);
    grid->addWidget(m_window->title(), row++, 0, 1, 3);
    grid->addWidget(m_window->none(), row++, 0, 1, 3);
    pair(m_window->tokensLabel(), m_window->tokensBar(), 1);
    pair(m_window->requestsLabel(), m_window->requestsBar(), 1);
    grid->addWidget(m_window->resetLabel(), row++, 0, 1, 3);
    grid->setRowStretch(row, 1);
    grid->setColumnStretch(1, 1);
    placeRows();

    retranslate();
    refresh();
}

void RetryPanel::fitCaptions()
{
    const std::initializer_list<QLabel *> captions { m_failureCaption, m_attemptCaption,
        m_tokensCaption, m_countdownCaption, m_budgetCaption, m_sourceCaption };
    int widest = 0;
    for (const QLabel *cap : captions)
        widest = std::max(widest, cap->fontMetrics().horizontalAdvance(cap->text()));
    const int gap = fontMetrics().height();
    // The caption, a bar of a few characters and a figure such as "100.0 s of 120 s".
    const int needed = widest + fontMetrics().horizontalAdvance(m_budgetLabel->text()) + gap * 8;
    const bool wrap = m_scroll->viewport()->width() < needed;
    if (wrap == m_narrow)
        return;
    m_narrow = wrap;
    for (QLabel *cap : captions)
        cap->setWordWrap(wrap);
    placeRows();
    // Narrow, the figures say it all: their bars give way, so that no figure is cut off.
    for (QProgressBar *b : { m_attemptBar, m_countdownBar, m_budgetBar })
        b->setVisible(!wrap);
    m_tokensBar->setVisible(!wrap && !m_state.answerTokens);
}

void RetryPanel::placeRows()
{
    for (const Placement &p : std::as_const(m_placements)) {
        m_grid->removeWidget(p.widget);
        if (m_narrow)
            m_grid->addWidget(p.widget, p.narrowRow, 0, 1, 3, p.align);
        else
            m_grid->addWidget(p.widget, p.row, p.column, 1, p.columnSpan, p.align);
    }
    // Narrow, one column: no spacing for columns that hold nothing side by side.
    m_grid->setHorizontalSpacing(m_narrow ? 0 : 2 * (fontMetrics().height() / 2));
}

void RetryPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitCaptions();
}

QSize RetryPanel::sizeHint() const
{
    const QSize content = m_content->sizeHint();
    const int scrollBar = m_scroll->verticalScrollBar()->sizeHint().width();
    return { content.width() + scrollBar, content.height() + 2 * m_scroll->frameWidth() };
}

QSize RetryPanel::minimumSizeHint() const
{
    // A few rows, then it scrolls: a small window keeps room for the conversation.
    return { m_scroll->minimumSizeHint().width(), fontMetrics().height() * 6 };
}

void RetryPanel::setSession(session::ChatSession *session)
{
    if (m_session)
        m_session->disconnect(this);
    m_session = session;
    if (!session)
        return;
    using session::ChatSession;
    // One value for every step and every tick of a wait: the panel renders it, nothing else.
    connect(session, &ChatSession::sendStateChanged, this,
        [this](const session::SendState &state) { render(state); });
    // Another conversation (new, or restored): the last send's figures belong to the old one.
    connect(session, &ChatSession::conversationChanged, this, [this] {
        m_beforePark.reset();
        render(session::SendState {});
    });
}

session::SendState RetryPanel::shown() const
{
    // Before any send, the profile's numbers as set; once a send started, its own (a
    // fallback's differ from the profile's).
    session::SendState s = m_state;
    if (s.send == 0) {
        s.limits = m_limits;
        s.budgetLeft = m_limits.budget;
    }
    return s;
}

void RetryPanel::render(const session::SendState &state)
{
    const session::SendState before = m_state;
    if (!state.isParked())
        m_beforePark.reset();
    m_state = state;
    refresh();
    const bool sameSend = before.send == state.send;
    if (!sameSend || before.phase != state.phase) {
        announce(m_stateLabel);
        Q_EMIT stateChanged(state.phase);
    }
    if (state.attempt != 0 && (!sameSend || before.attempt != state.attempt)
        && state.phase == session::SendPhase::Sending)
        announce(m_attemptLabel);
    const int failedBefore = before.lastFailure && sameSend ? before.lastFailure->attempt : 0;
    if (state.lastFailure && state.lastFailure->attempt != failedBefore)
        announce(m_failureLabel);
}

session::SendState RetryPanel::endOf(const session::SendState &state)
{
    // A parked send gave up capped: that is its end, shown again once it leaves the lot.
    session::SendState end = state;
    if (end.isParked()) {
        end.parked.reset();
        end.phase = session::SendPhase::GaveUp;
    }
    return end;
}

void RetryPanel::showParked(
    const history::ParkedSend &parked, session::ParkedState state, const QDateTime &now)
{
    if (!m_beforePark)
        m_beforePark = endOf(m_state);
    session::SendState s = *m_beforePark;
    s.parked = parked;
    s.now = now;
    s.phase = session::phaseOf(state);
    const std::optional<session::SendState> keep = m_beforePark;
    render(s);
    m_beforePark = keep;
}

void RetryPanel::clearParked()
{
    if (!m_state.isParked())
        return;
    const session::SendState back = m_beforePark.value_or(endOf(m_state));
    m_beforePark.reset();
    render(back);
}

namespace {
RetryPanel::AnnouncementObserver g_announcementObserver = nullptr;
}

void RetryPanel::setAnnouncementObserver(AnnouncementObserver observer)
{
    g_announcementObserver = observer;
}

void RetryPanel::announce(QWidget *what)
{
    // Screen readers hear panel changes without having to poll the labels.
    QAccessibleEvent event(what, QAccessible::NameChanged);
    QAccessible::updateAccessibility(&event);
    if (g_announcementObserver)
        g_announcementObserver(&event);
}

QString RetryPanel::stateText() const
{
    return session::SendTexts::phase(shown());
}

QString RetryPanel::failureText() const
{
    return session::SendTexts::failure(m_state);
}

void RetryPanel::setLimits(const retry::PolicyLimits &limits)
{
    if (m_limits == limits)
        return;
    m_limits = limits;
    retranslate();
}

retry::PolicyLimits RetryPanel::limits() const
{
    return shown().limits;
}

QString RetryPanel::attemptText() const
{
    return session::SendTexts::attemptOf(shown());
}

QString RetryPanel::tokensText() const
{
    return session::SendTexts::tokens(m_state);
}

QString RetryPanel::countdownText() const
{
    return session::SendTexts::countdown(m_state);
}

QString RetryPanel::budgetText() const
{
    return session::SendTexts::budget(shown());
}

QString RetryPanel::sourceText() const
{
    return session::SendTexts::source(m_state);
}

QString RetryPanel::pacingText() const
{
    return session::SendTexts::pacing(m_state);
}

double RetryPanel::shownCountdownS() const
{
    const bool counting = m_state.phase == session::SendPhase::Waiting
        || (m_state.phase == session::SendPhase::Pacing && m_state.pace);
    return counting ? double(m_state.waitLeft.count()) / 1000.0 : 0.0;
}

double RetryPanel::shownBudgetLeftS() const
{
    const session::SendState s = shown();
    const qint64 whole = s.limits.budget.count();
    return double(s.send != 0 ? std::min<qint64>(s.budgetLeft.count(), whole) : whole) / 1000.0;
}

void RetryPanel::refresh()
{
    const session::SendState s = shown();
    m_attemptBar->setRange(0, s.limits.maxAttempts);
    m_stateLabel->setText(stateText());
    m_failureLabel->setText(failureText());
    // Which classification rule read it (docs/rules.md); the failed card has it under Details.
    m_failureLabel->setToolTip(session::SendTexts::decidedBy(s));
    QPalette failurePalette = palette();
    if (s.lastFailure)
        failurePalette.setColor(
            QPalette::WindowText, categoryColor(s.failureCategory(), palette()));
    m_failureLabel->setPalette(failurePalette);
    m_attemptLabel->setText(attemptText());
    setProgressValue(m_attemptBar, s.attempt);
    m_tokensLabel->setText(tokensText());
    if (s.used && s.limit && *s.limit > 0)
        setProgressValue(m_tokensBar, int(std::min(1.0, *s.used / *s.limit) * 1000));
    else
        setProgressValue(m_tokensBar, 0);
    // An answer's usage is a figure, not a share of a limit: no empty bar under it.
    m_tokensBar->setVisible(!m_narrow && !s.answerTokens);
    // Over the cap, the bar takes the token-limit colour, so the cause is visible at a glance.
    QPalette tokensPalette = palette();
    if (s.used && s.limit && *s.used >= *s.limit)
        tokensPalette.setColor(QPalette::Highlight, categoryColor(u"token_limit"_s, palette()));
    m_tokensBar->setPalette(tokensPalette);
    m_countdownLabel->setText(countdownText());
    const qint64 left = qint64(shownCountdownS() * 1000.0 + 0.5);
    if (s.phase == session::SendPhase::Waiting && s.wait.count() > 0)
        setProgressValue(m_countdownBar, int(1000 - 1000 * left / s.wait.count()));
    else if (s.phase == session::SendPhase::Pacing && s.pace && s.pace->wait.count() > 0)
        setProgressValue(m_countdownBar, int(1000 - 1000 * left / s.pace->wait.count()));
    else
        setProgressValue(m_countdownBar, s.phase == session::SendPhase::Waiting ? 1000 : 0);
    m_budgetLabel->setText(budgetText());
    const qint64 whole = s.limits.budget.count();
    setProgressValue(
        m_budgetBar, whole > 0 ? int(1000 * qint64(shownBudgetLeftS() * 1000.0 + 0.5) / whole) : 0);
    m_sourceLabel->setText(sourceText());
    m_countdownBar->setAccessibleDescription(countdownText());
    m_budgetBar->setAccessibleDescription(budgetText());
    refreshParked();
    refreshPacing();
    refreshSendAt();
}

void RetryPanel::refreshParked()
{
    // Every standing of a parked send (waiting, due, going out, waiting for its provider or a
    // consent).
    const bool parked = m_state.isParked();
    // In the parked colour: not a retry counting down, a send waiting for its reset.
    QPalette statePalette = palette();
    if (parked)
        statePalette.setColor(QPalette::WindowText, parkedColor(palette()));
    m_stateLabel->setPalette(statePalette);
    m_countdownCaption->setText(parked ? tr("Provider's reset in") : tr("Next retry in"));
    m_countdownLabel->setAccessibleName(m_countdownCaption->text());
    QPalette barPalette = palette();
    if (parked)
        barPalette.setColor(QPalette::Highlight, parkedColor(palette()));
    m_countdownBar->setPalette(barPalette);
    if (!parked)
        return;
    const history::ParkedSend &p = *m_state.parked;
    const qint64 whole = std::max<qint64>(1, p.parkedAt.msecsTo(p.dueAt));
    const qint64 left = std::clamp<qint64>(m_state.now.msecsTo(p.dueAt), 0, whole);
    setProgressValue(m_countdownBar, int(1000 - 1000 * left / whole));
}

void RetryPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        fitCaptions();
    }
    QWidget::changeEvent(event);
}

void RetryPanel::retranslate()
{
    m_title->setText(tr("Retry cycle"));
    // The scroll area is a Tab stop (keyboard users scroll a panel cut short by a small window).
    m_scroll->setAccessibleName(tr("Retry cycle"));
    m_failureCaption->setText(tr("Last failure"));
    m_attemptCaption->setText(tr("Attempt"));
    m_tokensCaption->setText(tr("Tokens used / limit"));
    m_budgetCaption->setText(tr("Retry budget left"));
    m_sourceCaption->setText(tr("Wait came from"));
    setAccessibleName(tr("Retry panel"));
    setAccessibleDescription(tr("The live state of the current send's retries"));
    m_stateLabel->setAccessibleName(tr("Send state"));
    m_failureLabel->setAccessibleName(tr("Last failure"));
    m_attemptLabel->setAccessibleName(tr("Attempt"));
    m_attemptBar->setAccessibleName(tr("Attempts used"));
    m_tokensLabel->setAccessibleName(tr("Tokens used and limit"));
    m_tokensBar->setAccessibleName(tr("Tokens used of the limit"));
    m_countdownBar->setAccessibleName(tr("Wait progress"));
    m_budgetLabel->setAccessibleName(tr("Retry budget left"));
    m_budgetBar->setAccessibleName(
        tr("Retry budget left of %1 seconds")
            .arg(QLocale().toString(qint64(limits().budget.count() / 1000))));
    m_sourceLabel->setAccessibleName(tr("Where the wait came from"));
    // Alt+W: Alt+N is the sidebar's New conversation.
    m_sendNow->setText(tr("Send no&w"));
    m_sendNow->setAccessibleName(tr("Send now"));
    m_sendNow->setAccessibleDescription(
        tr("Sends without waiting for the provider's window to reset"));
    m_sendAt->setAccessibleName(tr("Send at the provider's reset"));
    m_sendAt->setAccessibleDescription(
        tr("Stops retrying and parks the send until the provider's reset, when it goes out by "
           "itself"));
    m_window->retranslate();
    refresh();
}

void RetryPanel::refreshSendAt()
{
    // Offered at once, during the cycle, when the reset is later than the budget can reach;
    // the cycle itself goes on as the policy says unless it is clicked.
    const bool offered = m_state.waiting() && m_state.earlyPark.parkable;
    if (m_sendAt->isVisibleTo(this) != offered) {
        m_sendAt->setVisible(offered);
        updateGeometry();
    }
    if (!offered)
        return;
    const QDateTime now = m_wallClock ? m_wallClock() : QDateTime::currentDateTimeUtc();
    m_sendAt->setText(session::ParkingTexts::sendAt(m_state.earlyPark.dueAt, now));
    m_sendAt->setToolTip(session::SendTexts::earlyParkWhy(m_state));
}

void RetryPanel::refreshPacing()
{
    // After refreshParked(), which gave the state and the countdown their usual look.
    const bool pacing = m_state.phase == session::SendPhase::Pacing && m_state.pace;
    if (m_sendNow->isVisibleTo(this) != pacing) {
        m_sendNow->setVisible(pacing);
        updateGeometry(); // a row more or less: the window's layout gives the panel its height
    }
    if (!pacing)
        return;
    m_sendNow->setToolTip(session::SendTexts::pacingWhy(m_state));
    // In the pacing colour: not a retry, a send held back until the window resets.
    m_countdownCaption->setText(tr("Sending in"));
    m_countdownLabel->setAccessibleName(m_countdownCaption->text());
    QPalette statePalette = palette();
    statePalette.setColor(QPalette::WindowText, pacedColor(palette()));
    m_stateLabel->setPalette(statePalette);
    QPalette barPalette = palette();
    barPalette.setColor(QPalette::Highlight, pacedColor(palette()));
    m_countdownBar->setPalette(barPalette);
}

void RetryPanel::setWallClock(std::function<QDateTime()> now)
{
    m_wallClock = now;
    m_window->setWallClock(std::move(now));
}

void RetryPanel::setProviderWindow(const std::optional<history::ProviderWindowRecord> &window)
{
    m_window->setWindow(window);
}

QString RetryPanel::providerWindowText() const
{
    return m_window->text();
}

} // namespace capwatch::ui
