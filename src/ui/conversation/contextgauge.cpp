#include "ui/conversation/contextgauge.h"

#include "ui/conversation/conversationstyle.h"
#include "ui/panel/progressvalue.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <algorithm>

namespace capwatch::ui {

ContextGauge::ContextGauge(QWidget *parent)
    : QWidget(parent)
    , m_text(new QLabel(this))
    , m_bar(new QProgressBar(this))
    , m_trim(new QPushButton(this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_text->setTextFormat(Qt::PlainText);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_text->setFont(small);
    m_text->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_text->setWordWrap(true); // at 640x480 a long line wraps rather than being cut
    m_bar->setTextVisible(false);
    m_bar->setFixedSize(fontMetrics().averageCharWidth() * 12, fontMetrics().height() / 2);
    m_trim->setFlat(true);
    m_trim->setFont(small);
    layout->addWidget(m_bar);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_trim);
    connect(m_trim, &QPushButton::clicked, this, &ContextGauge::trimRequested);
    render();
}

void ContextGauge::setGauge(const session::ContextGauge &gauge, bool canTrim)
{
    m_gauge = gauge;
    m_canTrim = canTrim;
    render();
}

QString ContextGauge::text() const
{
    return m_text->text();
}

void ContextGauge::render()
{
    const QLocale locale;
    const QString tokens = locale.toString(m_gauge.tokens);
    QString text;
    if (m_gauge.contextWindow && *m_gauge.contextWindow > 0) {
        const qint64 window = *m_gauge.contextWindow;
        text = m_gauge.fits ? tr("Context: %1 of %2 tokens").arg(tokens, locale.toString(window))
                            : tr("Context: %1 of %2 tokens: the next send does not fit")
                                  .arg(tokens, locale.toString(window));
        m_bar->setRange(0, 1000);
        setProgressValue(m_bar, int(std::min<qint64>(1000, m_gauge.tokens * 1000 / window)));
        m_bar->show();
    } else {
        text = tr("~%1 tokens (context window unknown)").arg(tokens);
        m_bar->hide();
    }
    if (m_gauge.leftOut > 0)
        text += u' '
            + (m_gauge.leftOut == 1 ? tr("(the oldest turn left out)")
                                    : tr("(%n oldest turns left out)", nullptr, m_gauge.leftOut));
    m_text->setText(text);
    m_text->setToolTip(
        tr("The estimated tokens of the next request: the system prompt, the turns sent, the "
           "prompt and the answer's maximum tokens"));
    QPalette p = palette();
    if (!m_gauge.fits)
        p.setColor(QPalette::WindowText, transcript::styleFor(*this).warning);
    m_text->setPalette(p);
    m_trim->setText(tr("Trim…"));
    const QString trimWhat = tr("Leave out the oldest turns from requests so that the next send "
                                "fits; they stay in the conversation");
    m_trim->setToolTip(trimWhat);
    m_trim->setAccessibleDescription(trimWhat);
    m_trim->setVisible(!m_gauge.fits && m_canTrim);
    setAccessibleName(tr("Context"));
    setAccessibleDescription(text);
}

void ContextGauge::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        render();
}

} // namespace capwatch::ui
