#include "ui/history/historybanner.h"

#include "ui/panel/categorycolors.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>

namespace capwatch::ui {

using namespace Qt::StringLiterals;
using Status = history::OpenResult::Status;

HistoryBanner::HistoryBanner(QWidget *parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_text(new QLabel(this))
    , m_copy(new QPushButton(this))
    , m_close(new QToolButton(this))
{
    setObjectName(u"historyBanner"_s);
    setAutoFillBackground(true);
    setFrameShape(QFrame::NoFrame);
    auto *layout = new QHBoxLayout(this);
    const int pad = fontMetrics().height() / 2;
    layout->setContentsMargins(pad * 2, pad, pad, pad);
    m_text->setObjectName(u"historyBannerText"_s);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    // The path is for copying into a file manager or a bug report.
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_close->setAutoRaise(true);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_copy, 0, Qt::AlignVCenter);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    connect(m_copy, &QPushButton::clicked, this,
        [this] { QApplication::clipboard()->setText(QDir::toNativeSeparators(m_result.movedTo)); });
    connect(m_close, &QToolButton::clicked, this, &QWidget::hide);
    retranslate();
    hide();
}

QString HistoryBanner::textFor(const history::OpenResult &result)
{
    const QString reason = result.reason.isEmpty() ? tr("unknown error") : result.reason;
    switch (result.status) {
    case Status::Opened:
    case Status::Created:
        return {};
    case Status::Recovered:
        return tr("The history database could not be read (%1). It was moved to %2 and a new one "
                  "was started.")
            .arg(reason, QDir::toNativeSeparators(result.movedTo));
    case Status::NewerVersion:
        return tr("The history database %1 was made by a newer capwatch; history is off for this "
                  "run (nothing is written to it).")
            .arg(QDir::toNativeSeparators(result.path));
    case Status::Unavailable:
        return tr("The history database %1 could not be opened (%2); history is off for this "
                  "run: nothing is kept.")
            .arg(QDir::toNativeSeparators(result.path), reason);
    }
    return {};
}

void HistoryBanner::showResult(const history::OpenResult &result)
{
    m_result = result;
    const QString text = textFor(result);
    m_text->setText(text);
    m_copy->setVisible(result.status == Status::Recovered && !result.movedTo.isEmpty());
    restyle(window()->palette());
    setVisible(!text.isEmpty());
}

QString HistoryBanner::shownText() const
{
    return isHidden() ? QString() : m_text->text();
}

void HistoryBanner::restyle(const QPalette &window)
{
    QPalette p = palette();
    p.setColor(
        QPalette::Window, blend(window.color(QPalette::Window), QColor(0xe0, 0x8a, 0x1e), 0.16));
    p.setColor(QPalette::WindowText, window.color(QPalette::WindowText));
    setPalette(p);
}

void HistoryBanner::showEvent(QShowEvent *event)
{
    // Its icons when it is first shown, which is seldom: looking them up in the icon theme was
    // 6 % of the window's start.
    if (m_close->icon().isNull()) {
        m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
        const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
        m_icon->setPixmap(
            style()->standardIcon(QStyle::SP_MessageBoxWarning, nullptr, this).pixmap(size, size));
    }
    QFrame::showEvent(event);
}

void HistoryBanner::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        if (!isHidden())
            m_text->setText(textFor(m_result));
    }
    QFrame::changeEvent(event);
}

void HistoryBanner::retranslate()
{
    setAccessibleName(tr("History notice"));
    m_copy->setText(tr("Copy &path"));
    m_copy->setAccessibleDescription(tr("Copy the path of the moved database"));
    m_close->setToolTip(tr("Close the notice"));
    m_close->setAccessibleName(tr("Close the notice"));
}

} // namespace capwatch::ui
