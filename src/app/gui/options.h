#pragma once

// The desktop client's command line, defined once: main() parses with it and --man-page
// prints the man page from it.

#include <QCommandLineOption>
#include <QList>
#include <QString>

namespace capwatch::app {

struct GuiOptions
{
    QCommandLineOption endpoint;
    QCommandLineOption model;
    QCommandLineOption demo;
    QCommandLineOption prompt;
    QCommandLineOption timeScale;
    QCommandLineOption lang;
    /// Nothing of this run is written to the history database.
    QCommandLineOption privateRun;
    /// Hidden: prints the man page and exits, without a display.
    QCommandLineOption manPage;

    /// Every option above, in --help order (--help and --version come from the parser).
    QList<QCommandLineOption> all() const;
};

/// The options, their descriptions translated for the current translators.
GuiOptions guiOptions();

/// One sentence on what capwatch is, for --help and the man page.
QString guiDescription();

/// The roff man page capwatch(1), built from guiOptions().
QString guiManPage();

/// True when `argv` asks for --man-page; checked before any QApplication exists.
bool wantsManPage(int argc, char *argv[]);

} // namespace capwatch::app
