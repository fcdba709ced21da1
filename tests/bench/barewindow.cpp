// The startup baseline of tests/bench/startup-bench.sh: the least a Qt Widgets chat window can
// be, built with the same Qt as capwatch: a text view, a line edit and a button, nothing else.

#include "common/startupprobe.h"

#include <QApplication>
#include <QLineEdit>
#include <QMainWindow>
#include <QPushButton>
#include <QScreen>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QWidget>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QMainWindow window;
    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    layout->addWidget(new QTextBrowser);
    layout->addWidget(new QLineEdit);
    layout->addWidget(new QPushButton(QStringLiteral("Send")));
    window.setCentralWidget(central);
    // The size capwatch opens at on a first run (MainWindow's constructor): the same backing
    // store, so the same memory for the window's pixels.
    const QSize wanted(
        window.fontMetrics().averageCharWidth() * 190, window.fontMetrics().height() * 50);
    window.resize(wanted.boundedTo(window.screen()->availableGeometry().size() * 0.92));
    window.show();
    capwatch::app::armStartupProbe(&window);
    return QApplication::exec();
}
