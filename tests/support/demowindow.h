#pragma once

// The main window on its own embedded demo provider, for window tests: scenario switching, typing
// and sending, and the chat requests the provider received. Header-only.

#include "demo/demoprovider.h"
#include "ui/mainwindow.h"
#include "ui/settings.h"

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
        window = std::make_unique<ui::MainWindow>(settings, o);
        if (shown)
            window->show();
    }
    /// The demo answers the first request with the headline 422, then with `then`.
    void headlineOnceThen(const QString &then)
    {
        setScenario(QStringLiteral("headline"));
        QObject::connect(window->demoProvider(), &demo::DemoProvider::chatRequestReceived,
            window.get(), [this, then](int index) {
                if (index == 2)
                    setScenario(then);
            });
    }
    void setScenario(const QString &scenario)
    {
        demo::DemoOptions o = window->demoProvider()->options();
        o.scenario = scenario;
        window->demoProvider()->setOptions(o);
    }
    void send(const QString &text)
    {
        window->promptEditor()->setPlainText(text);
        window->sendPrompt();
    }
    void type(const QString &text)
    {
        window->promptEditor()->setFocus();
        window->promptEditor()->setPlainText(text);
    }
    /// No cap in the way: for tests about what is sent, not about waiting.
    void uncapped()
    {
        demo::DemoOptions o = window->demoProvider()->options();
        o.limit = 1'000'000'000;
        window->demoProvider()->setOptions(o);
    }
    /// The chat requests the demo received, in order.
    QList<demo::RecordedRequest> chats() const { return chatRequests(*window->demoProvider()); }

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
    std::unique_ptr<ui::MainWindow> window;
};

} // namespace capwatch::testing
