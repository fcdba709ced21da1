#include "ui/history/conversationdelegate.h"

#include "ui/history/conversationlistmodel.h"
#include "ui/history/searchresultsmodel.h"
#include "ui/panel/categorycolors.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QPainter>
#include <QTextDocument>
#include <algorithm>
#include <cmath>

namespace capwatch::ui {

ConversationDelegate::ConversationDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{ }

QString ConversationDelegate::shortDate(const QDateTime &when, const QDateTime &now)
{
    const QDateTime local = when.toLocalTime();
    const QDate today = now.toLocalTime().date();
    if (local.date() == today)
        return QLocale().toString(local.time(), QLocale::ShortFormat);
    if (local.date() > today.addDays(-7))
        return QLocale().dayName(local.date().dayOfWeek(), QLocale::ShortFormat);
    return QLocale().toString(local.date(), QLocale::ShortFormat);
}

QSize ConversationDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const
{
    const int line = option.fontMetrics.height();
    return { line * 4, line * 2 + line * 3 / 4 }; // as wide as the view: the title elides
}

void ConversationDelegate::updateEditorGeometry(
    QWidget *editor, const QStyleOptionViewItem &option, const QModelIndex &) const
{
    // The title's line only: the date stays readable under the editor.
    const int line = option.fontMetrics.height();
    editor->setGeometry(option.rect.adjusted(line / 4, line / 8, -line / 4, -(line * 5 / 4)));
}

void ConversationDelegate::paint(
    QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString title = opt.text;
    opt.text.clear();
    QStyle *style = opt.widget ? opt.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);

    painter->save();
    const bool selected = opt.state.testFlag(QStyle::State_Selected);
    const QPalette::ColorGroup group
        = opt.state.testFlag(QStyle::State_Active) ? QPalette::Active : QPalette::Inactive;
    const QColor text
        = opt.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text);
    const QColor dim = blend(
        text, opt.palette.color(group, selected ? QPalette::Highlight : QPalette::Base), 0.35);
    const QFontMetrics fm(opt.font);
    const int pad = fm.height() / 2;
    QRect area = opt.rect.adjusted(pad, pad / 2, -pad, -pad / 2);

    // The open conversation: a bar on the left edge, besides its bold title.
    if (index.data(ConversationListModel::IsOpenRole).toBool()) {
        painter->fillRect(
            QRect(opt.rect.left(), opt.rect.top() + 2, pad / 3, opt.rect.height() - 4),
            opt.palette.color(group, QPalette::Highlight).darker(selected ? 140 : 100));
    }

    // Marks, right to left on the title's line.
    const int dot = fm.height() * 5 / 8;
    int right = area.right();
    const int markY = area.top() + (fm.height() - dot) / 2;
    painter->setRenderHint(QPainter::Antialiasing);
    if (index.data(ConversationListModel::HasParkedRole).toBool()) {
        // A clock: a send waits for its provider's reset. On the selection's colour, in its text
        // colour, where the slate would barely show.
        const int size = fm.height() * 3 / 4;
        const QRectF r(right - size, area.top() + (fm.height() - size) / 2.0, size, size);
        const double width = std::max(1.5, size / 8.0);
        painter->setPen(
            QPen(selected ? text : parkedColor(opt.palette), width, Qt::SolidLine, Qt::RoundCap));
        painter->setBrush(Qt::NoBrush);
        painter->drawEllipse(r.adjusted(width / 2, width / 2, -width / 2, -width / 2));
        // Hands from a pixel's middle, so they stay crisp.
        const QPointF c(std::floor(r.center().x()) + 0.5, std::floor(r.center().y()) + 0.5);
        painter->drawLine(c, QPointF(c.x(), r.top() + size * 0.25));
        painter->drawLine(c, QPointF(c.x() + size * 0.22, c.y()));
        right -= size + pad / 2;
    }
    if (index.data(ConversationListModel::IsSendingRole).toBool()) {
        // An arrow up: a send of it goes on while another conversation is shown.
        const int size = fm.height() * 3 / 4;
        const QRectF r(right - size, area.top() + (fm.height() - size) / 2.0, size, size);
        const double width = std::max(1.5, size / 8.0);
        painter->setPen(QPen(selected ? text : opt.palette.color(group, QPalette::Highlight), width,
            Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        painter->setBrush(Qt::NoBrush);
        const double x = std::floor(r.center().x()) + 0.5;
        painter->drawLine(QPointF(x, r.bottom() - width), QPointF(x, r.top() + width));
        painter->drawPolyline(QList<QPointF> { QPointF(x - size * 0.3, r.top() + size * 0.35),
            QPointF(x, r.top() + width), QPointF(x + size * 0.3, r.top() + size * 0.35) });
        right -= size + pad / 2;
    }
    if (index.data(ConversationListModel::HasUnansweredRole).toBool()) {
        const QRect r(right - dot, markY, dot, dot);
        painter->setPen(QPen(categoryColor(retry::Category::Fatal, opt.palette), dot / 4.0));
        painter->setBrush(Qt::NoBrush);
        painter->drawEllipse(QRectF(r).adjusted(dot / 8.0, dot / 8.0, -dot / 8.0, -dot / 8.0));
        right -= dot + pad / 2;
    }
    if (index.data(ConversationListModel::HasRetriesRole).toBool()) {
        const QRect r(right - dot, markY, dot, dot);
        painter->setPen(Qt::NoPen);
        painter->setBrush(categoryColor(retry::Category::TokenLimit, opt.palette));
        painter->drawEllipse(r);
        right -= dot + pad / 2;
    }

    // Unread: a dot before the bold title, in the selection's colour, as mail clients do.
    int left = area.left();
    if (index.data(ConversationListModel::IsUnreadRole).toBool()) {
        const int size = fm.height() * 7 / 16;
        painter->setPen(Qt::NoPen);
        painter->setBrush(selected ? text : opt.palette.color(group, QPalette::Highlight));
        painter->drawEllipse(QRectF(left, area.top() + (fm.height() - size) / 2.0, size, size));
        left += size + pad / 2;
    }

    painter->setFont(opt.font);
    painter->setPen(text);
    const QRect titleRect(left, area.top(), right - left, fm.height());
    painter->drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter,
        fm.elidedText(title,
            opt.textElideMode == Qt::ElideNone ? Qt::ElideRight : opt.textElideMode,
            titleRect.width()));

    const QRect second(area.left(), area.top() + fm.height() + pad / 4, area.width(), fm.height());
    const QString snippet = index.data(ConversationListModel::SnippetRole).toString();
    if (!snippet.isEmpty()) {
        QTextDocument doc;
        doc.setDefaultFont(opt.font);
        doc.setDocumentMargin(0);
        doc.setHtml(SearchResultsModel::snippetHtml(snippet));
        doc.setTextWidth(-1);
        painter->translate(second.topLeft());
        painter->setClipRect(QRect(QPoint(0, 0), second.size()));
        QAbstractTextDocumentLayout::PaintContext context;
        context.palette.setColor(QPalette::Text, dim);
        doc.documentLayout()->draw(painter, context);
    } else {
        const QDateTime updated = index.data(ConversationListModel::UpdatedRole).toDateTime();
        QString line = shortDate(updated, QDateTime::currentDateTime());
        const QString model = index.data(ConversationListModel::ModelRole).toString();
        if (!model.isEmpty())
            line += QStringLiteral(" · ") + model;
        // Secondary: never bold, also when the title is (open or unread).
        QFont regular = opt.font;
        regular.setBold(false);
        painter->setFont(regular);
        painter->setPen(dim);
        painter->drawText(second, Qt::AlignLeft | Qt::AlignVCenter,
            QFontMetrics(regular).elidedText(line, Qt::ElideRight, second.width()));
    }
    painter->restore();
}

} // namespace capwatch::ui
