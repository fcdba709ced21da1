#pragma once

// The main window's widgets as a test (and the screenshot tool) finds them: by objectName, as
// a user-facing test should, not through getters on the window. A name that finds nothing, or
// more than one object, stops the run at once naming it: a renamed widget never makes a test
// pass by finding nothing. Header-only; `using namespace capwatch::testing::widgets` brings in
// only these.

#include "ui/conversation/contextgauge.h"
#include "ui/conversation/conversationpresenter.h"
#include "ui/conversation/conversationview.h"
#include "ui/conversation/promptmessage.h"
#include "ui/conversation/requestoptionsrow.h"
#include "ui/history/historybanner.h"
#include "ui/history/historysidebar.h"
#include "ui/panel/retrypanel.h"
#include "ui/timeline/timelinewidget.h"
#include "ui/window/mainwindow.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QList>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QString>
#include <QTabWidget>
#include <QToolButton>
#include <QtGlobal>

namespace capwatch::testing::widgets {

/// The one `T` named `name` in `window` (at any depth).
template<typename T> T *windowPart(const ui::MainWindow &window, const QString &name)
{
    const QList<T *> found = window.findChildren<T *>(name);
    if (found.size() != 1) {
        qFatal("The main window has %d %s named \"%s\", not one", int(found.size()),
            T::staticMetaObject.className(), qPrintable(name));
    }
    return found.constFirst();
}

// The conversation and the prompt.
inline ui::ConversationView *conversation(const ui::MainWindow &w)
{
    return windowPart<ui::ConversationView>(w, QStringLiteral("conversation"));
}
inline ui::ConversationPresenter *presenter(const ui::MainWindow &w)
{
    return windowPart<ui::ConversationPresenter>(w, QStringLiteral("conversationPresenter"));
}
inline QPlainTextEdit *promptEditor(const ui::MainWindow &w)
{
    return windowPart<QPlainTextEdit>(w, QStringLiteral("promptEditor"));
}
inline QPushButton *sendButton(const ui::MainWindow &w)
{
    return windowPart<QPushButton>(w, QStringLiteral("sendButton"));
}
inline QPushButton *stopButton(const ui::MainWindow &w)
{
    return windowPart<QPushButton>(w, QStringLiteral("stopButton"));
}
inline QPushButton *retryNowButton(const ui::MainWindow &w)
{
    return windowPart<QPushButton>(w, QStringLiteral("retryNowButton"));
}
/// The inline message above the prompt (hidden when there is none).
inline ui::PromptMessage *inlineMessage(const ui::MainWindow &w)
{
    return windowPart<ui::PromptMessage>(w, QStringLiteral("inlineMessage"));
}
inline ui::ContextGauge *contextGauge(const ui::MainWindow &w)
{
    return windowPart<ui::ContextGauge>(w, QStringLiteral("contextGauge"));
}
inline QComboBox *profileCombo(const ui::MainWindow &w)
{
    return windowPart<QComboBox>(w, QStringLiteral("profileCombo"));
}

// The request options under the prompt.
inline ui::RequestOptionsRow *requestOptions(const ui::MainWindow &w)
{
    return windowPart<ui::RequestOptionsRow>(w, QStringLiteral("requestOptions"));
}
inline QToolButton *requestOptionsButton(const ui::MainWindow &w)
{
    return windowPart<QToolButton>(w, QStringLiteral("requestOptionsToggle"));
}
inline QPlainTextEdit *systemPromptEditor(const ui::MainWindow &w)
{
    return windowPart<QPlainTextEdit>(w, QStringLiteral("systemPrompt"));
}
inline QSpinBox *maxTokensBox(const ui::MainWindow &w)
{
    return windowPart<QSpinBox>(w, QStringLiteral("maxTokens"));
}
inline QDoubleSpinBox *temperatureBox(const ui::MainWindow &w)
{
    return windowPart<QDoubleSpinBox>(w, QStringLiteral("temperature"));
}

// The right-hand column.
inline ui::RetryPanel *retryPanel(const ui::MainWindow &w)
{
    return windowPart<ui::RetryPanel>(w, QStringLiteral("retryPanel"));
}
/// Timeline, Retry log and Queue.
inline QTabWidget *tabs(const ui::MainWindow &w)
{
    return windowPart<QTabWidget>(w, QStringLiteral("retryTabs"));
}
inline ui::TimelineWidget *timeline(const ui::MainWindow &w)
{
    return windowPart<ui::TimelineWidget>(w, QStringLiteral("timeline"));
}

// History.
inline ui::HistorySidebar *historySidebar(const ui::MainWindow &w)
{
    return windowPart<ui::HistorySidebar>(w, QStringLiteral("historySidebar"));
}
inline ui::HistoryBanner *historyBanner(const ui::MainWindow &w)
{
    return windowPart<ui::HistoryBanner>(w, QStringLiteral("historyBanner"));
}

} // namespace capwatch::testing::widgets
