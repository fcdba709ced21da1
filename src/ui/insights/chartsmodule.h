#pragma once

// Finds and loads the charts module (capwatch_charts, a Qt plugin: chartfactory.h) the first
// time the Insights view asks for it, on a worker thread: the dynamic loader's work for Qt
// Charts, Qt OpenGL and their relocations (tens of milliseconds on a cold cache) never runs on
// the GUI thread, and never before the main window's first paint. Where it looks, in order: the
// build tree's module directory (a program run from the build), the directory the package
// installs it to, and beside the program. Without it the view shows its tables and says why.

#include <QObject>
#include <QString>

namespace capwatch::ui {

class ChartFactory;

class ChartsModule final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChartsModule)

public:
    /// The one of the process (made on the GUI thread).
    static ChartsModule *instance();

    /// Starts loading, once; done() on this object's thread when it has loaded or failed.
    void load();
    bool isDone() const { return m_state == State::Done; }
    /// The module's factory once done; null when it could not be loaded (error() says why).
    ChartFactory *factory() const { return m_factory; }
    QString error() const { return m_error; }
    /// Where the module is looked for, in order.
    static QStringList candidates();

Q_SIGNALS:
    void done();

private:
    ChartsModule() = default;
    void finish(const QString &path, const QString &error);

    enum class State
    {
        Idle,
        Loading,
        Done
    };
    State m_state = State::Idle;
    ChartFactory *m_factory = nullptr;
    QString m_error;
};

} // namespace capwatch::ui
