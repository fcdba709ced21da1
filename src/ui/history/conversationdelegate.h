#pragma once

// One row of the sidebar: the title (elided; bold when open or unread, an unread one with a dot
// before it) with its marks on the right (a clock for a parked send, a retry-cycle dot in the
// token_limit colour, an unanswered-send ring in the fatal colour; the words are in the tooltip
// and the accessible text), then a short date, or for a search hit its snippet with the matched
// words bold.

#include <QStyledItemDelegate>

namespace capwatch::ui {

class ConversationDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConversationDelegate)

public:
    explicit ConversationDelegate(QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
        const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    void updateEditorGeometry(QWidget *editor, const QStyleOptionViewItem &option,
        const QModelIndex &index) const override;

    /// "14:05" today, "Mon" this week, else a short date.
    static QString shortDate(const QDateTime &when, const QDateTime &now);
};

} // namespace capwatch::ui
