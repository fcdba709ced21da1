#pragma once

// Insights (docs/insights.md): where the time and the money go, in charts, over a range (today,
// 7, 30 or 90 days, all, or dates) and a filter (profile, model). The numbers are summed in SQL on
// the history's worker (HistoryStore::insights()), never from rows loaded here; the charts come
// from the charts module, loaded on a worker the first time the view opens (ChartsModule); the
// spending limits' gauges from the ledger's tally. Every chart has its table and its exports
// (InsightsCard). Follows the ledger live: another attempt, here or by capwatch-cli, updates it.

#include "history/historytypes.h"
#include "ui/insights/insightsdigest.h"

#include <QDate>
#include <QElapsedTimer>
#include <QHash>
#include <QPointer>
#include <QSet>
#include <QTimer>
#include <QWidget>
#include <functional>

class QComboBox;
class QDateEdit;
class QGridLayout;
class QHBoxLayout;
class QGroupBox;
class QLabel;
class QScrollArea;
class QToolButton;

namespace capwatch::history {
class HistoryWriter;
}
namespace capwatch::session {
struct ProfileSet;
class UsageTally;
} // namespace capwatch::session

namespace capwatch::ui {

class InsightsCard;
class SpendGauges;

class InsightsWindow final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InsightsWindow)

public:
    enum class Range
    {
        Today,
        Week,
        Month,
        Quarter,
        All,
        Dates
    };
    Q_ENUM(Range)

    /// `writer`: the history (null: a run that keeps none, said so); `tally`: the ledger's
    /// counts for the gauges; `profiles`: their limits, read when shown. None owned. A window of
    /// its own (Esc and Ctrl+W close it) with Qt::Window; the main window's page with
    /// Qt::Widget, where a "Back to the chat" button asks for the chat (backRequested()).
    InsightsWindow(history::HistoryWriter *writer, session::UsageTally *tally,
        std::function<session::ProfileSet()> profiles, QWidget *parent = nullptr,
        Qt::WindowFlags flags = Qt::Window);

    void setRange(Range range);
    /// Range::Dates from `from` to `to`, both included.
    void setDates(QDate from, QDate to);
    /// Empty: all.
    void setFilter(const QString &profile, const QString &model);
    void setSplit(InsightsDigest::Split split);
    Range range() const { return m_range; }
    InsightsDigest::Split split() const { return m_split; }
    /// The range and split as the settings file keeps them (`week`, `profile`); the range is
    /// empty for Dates, which are not kept.
    QString rangeName() const;
    QString splitName() const;
    /// Takes them back from those names; an unknown name changes nothing.
    void restoreView(const QString &range, const QString &split);
    /// The days shown (for All, from the ledger's first day, once known).
    QDate from() const;
    QDate to() const;

    /// A card by id; null until made (a card a turn after the window is).
    InsightsCard *card(const QString &id) const { return m_cards.value(id); }
    QStringList cardIds() const { return m_order; }
    SpendGauges *gauges() const { return m_gauges; }
    const history::Insights &insights() const { return m_insights; }
    QString summaryText() const;
    /// Reads the range again.
    void reload();

Q_SIGNALS:
    /// The charts show the range and filter last asked for: `ms` after the ask.
    void loaded(qint64 ms);
    /// A page: its "Back to the chat" button was pressed.
    void backRequested();

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void buildUi();
    /// The filter and the split beside the range, or below it when the row would not fit.
    void layOutControls();
    void retranslate();
    /// Lays m_insights out as the cards' tables, which the cards take a turn each.
    void applyInsights();
    /// pump() at the next turn, once.
    void schedule();
    void pump();
    /// The filters' lists from the ledger's names; `force`: also when they did not change.
    void fillFilters(bool force = false);
    void layOutCards();
    void refreshGauges();
    QDate today() const;

    QPointer<history::HistoryWriter> m_writer;
    QPointer<session::UsageTally> m_tally;
    std::function<session::ProfileSet()> m_profiles;
    Range m_range = Range::Month;
    QDate m_datesFrom;
    QDate m_datesTo;
    QString m_profile;
    QString m_model;
    InsightsDigest::Split m_split = InsightsDigest::Split::Model;
    history::Insights m_insights;
    QDate m_shownFrom; ///< of the tables shown
    QDate m_shownTo;
    QHash<QString, InsightsTable> m_tables; ///< the latest of each card, by id
    int m_insightsGeneration = -1; ///< the ask m_insights answers
    int m_layout = 0; ///< counts applyInsights(): the tables of m_tables
    QHash<QString, int> m_applied; ///< the m_layout of the table each card shows
    bool m_pumpPosted = false;
    bool m_loadedSent = false;
    int m_generation = 0;
    QElapsedTimer m_asked;
    QTimer m_follow; ///< the ledger changed: read again, at most once a second
    QTimer m_minute; ///< while shown: the gauges again, and a new day's range
    QStringList m_offered; ///< what the filters were filled with
    QString m_exportDirectory;

    QComboBox *m_rangeBox = nullptr;
    QDateEdit *m_fromEdit = nullptr;
    QDateEdit *m_toEdit = nullptr;
    QComboBox *m_profileBox = nullptr;
    QComboBox *m_modelBox = nullptr;
    QComboBox *m_splitBox = nullptr;
    QLabel *m_rangeLabel = nullptr;
    QLabel *m_filterLabel = nullptr;
    QLabel *m_splitLabel = nullptr;
    QLabel *m_summary = nullptr;
    QToolButton *m_back = nullptr; ///< a page's way back to the chat
    QWidget *m_filters = nullptr; ///< the filter and the split, in the first row or the second
    QHBoxLayout *m_controls = nullptr; ///< the first row: the range, ..., the back button
    QHBoxLayout *m_secondRow = nullptr;
    bool m_chartsPrepared = false; ///< ChartFactory::prepare() had its step
    QGroupBox *m_limitsBox = nullptr;
    SpendGauges *m_gauges = nullptr;
    QScrollArea *m_scroll = nullptr;
    QWidget *m_content = nullptr; ///< the scrolled page: the limits, then the cards
    QGridLayout *m_grid = nullptr;
    QHash<QString, InsightsCard *> m_cards;
    QStringList m_order;
    int m_columns = 0;
};

} // namespace capwatch::ui
