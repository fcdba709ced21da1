#include "ui/insights/chartsmodule.h"

#include "ui/insights/chartfactory.h"
#include "ui/window/uilogging.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPluginLoader>
#include <QThread>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

namespace {

const QString kModuleFile = u"capwatch-charts.so"_s;

} // namespace

ChartsModule *ChartsModule::instance()
{
    static ChartsModule *module = [] {
        auto *m = new ChartsModule;
        m->setParent(QCoreApplication::instance()); // gone with the application
        return m;
    }();
    return module;
}

QStringList ChartsModule::candidates()
{
    QStringList out;
    // The environment alone when set: a test or a packager points at a module of its own.
    const QString env = qEnvironmentVariable("CAPWATCH_CHARTS_MODULE");
    if (!env.isEmpty())
        return { env };
#ifdef CAPWATCH_BUILD_MODULE_DIR
    out.append(QStringLiteral(CAPWATCH_BUILD_MODULE_DIR) + u'/' + kModuleFile);
#endif
    const QString app = QCoreApplication::applicationDirPath();
#ifdef CAPWATCH_INSTALL_MODULE_DIR
    // Relative to the program (a package moved to another prefix), then as installed.
    out.append(QDir::cleanPath(
        app + u"/../"_s + QStringLiteral(CAPWATCH_INSTALL_MODULE_DIR) + u'/' + kModuleFile));
#endif
    out.append(app + u'/' + kModuleFile);
    out.removeDuplicates();
    return out;
}

void ChartsModule::load()
{
    if (m_state != State::Idle)
        return;
    m_state = State::Loading;
    QString path;
    for (const QString &candidate : candidates()) {
        if (QFileInfo::exists(candidate)) {
            path = candidate;
            break;
        }
    }
    if (path.isEmpty()) {
        finish({}, tr("The charts module (%1) is not installed.").arg(kModuleFile));
        return;
    }
    // dlopen() and the relocations on a worker; the instance is made here, once it is loaded.
    QThread *worker = QThread::create([path] {
        QPluginLoader loader(path);
        loader.load(); // stays loaded: QPluginLoader does not unload on destruction
    });
    worker->setObjectName(u"capwatch-charts-loader"_s);
    connect(worker, &QThread::finished, this, [this, worker, path] {
        worker->deleteLater();
        finish(path, {});
    });
    worker->start();
}

void ChartsModule::finish(const QString &path, const QString &error)
{
    m_error = error;
    if (!path.isEmpty()) {
        QPluginLoader loader(path);
        QObject *plugin = loader.instance();
        m_factory = plugin ? qobject_cast<ChartFactory *>(plugin) : nullptr;
        if (!m_factory)
            m_error
                = tr("The charts module %1 could not be loaded: %2")
                      .arg(path, plugin ? tr("it is of another version") : loader.errorString());
    }
    if (!m_error.isEmpty())
        qCWarning(lcUi).noquote() << m_error;
    m_state = State::Done;
    Q_EMIT done();
}

} // namespace capwatch::ui
