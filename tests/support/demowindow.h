#pragma once

// The main window on its own embedded demo provider, for window tests: scenario switching, typing
// and sending, and the chat requests the provider received. Header-only.

#include "demo/demoprovider.h"
#include "demolocalprovider.h"
#include "ui/settings/settings.h"
#include "ui/window/mainwindow.h"
#include "windowwidgets.h"

#include <QList>
#include <QPlainTextEdit>
#include <QString>
#include <memory>

namespace capwatch::testing {

struct DemoWindow
{
    explicit DemoWindow(const QString &iniPath, double scale = 0.02, bool shown = true)
        : settings(iniPath)
    {
        ui::LaunchOptions o;
        o.forceDemo = true;
        o.timeScale = scale;
        window = std::make_unique<ui::MainWindow>(settings, o, &demo);
        if (shown)
            window->show();
    }
    /// The demo answers the first request with the headline 422, then with `then`.
    void headlineOnceThen(const QString &then)
    {
        setScenario(QStringLiteral("headline"));
        QObject::connect(demo.provider(), &demo::DemoProvider::chatRequestReceived, window.get(),
            [this, then](int index) {
                if (index == 2)
                    setScenario(then);
            });
    }
    void setScenario(const QString &scenario)
    {
        demo::DemoOptions o = demo.provider()->options();
        o.scenario = scenario;
        demo.provider()->setOptions(o);
    }
    void send(const QString &text)
    {
        widgets::promptEditor(*window)->setPlainText(text);
        window->controller()->sendPrompt();
    }
    void type(const QString &text)
    {
        widgets::promptEditor(*window)->setFocus();
        widgets::promptEditor(*window)->setPlainText(text);
    }
    /// No cap in the way: for tests about what is sent, not about waiting.
    void uncapped()
    {
        demo::DemoOptions o = demo.provider()->options();
        o.limit = 1'000'000'000;
        demo.provider()->setOptions(o);
    }
    /// The chat requests the demo received, in order.
    QList<demo::RecordedRequest> chats() const { return chatRequests(*demo.provider()); }

    static QList<demo::RecordedRequest> chatRequests(const demo::DemoProvider &provider)
    {
        QList<demo::RecordedRequest> out;
        for (const demo::RecordedRequest &r : provider.recordedRequests()) {
            if (r.method == "POST" && r.path.endsWith("/chat/completions"))
                out.append(r);
        }
        return out;
    }

    ui::Settings settings;
    DemoHook demo; ///< serves the window's demo; declared first, so it outlives the window
    std::unique_ptr<ui::MainWindow> window;
};

} // namespace capwatch::testing
