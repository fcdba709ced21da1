#pragma once

// The user's rules files (docs/rules.md): ~/.config/capwatch/rules.d/*.json (XDG_CONFIG_HOME
// respected), read at start by both programs and added to the built-in rules. A file with a
// problem is left out whole and reported; the built-in rules and the other files stay in force.

#include "retry/rules.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <memory>

namespace capwatch::app {

/// A rules file that was left out, and why: `FILE:LINE: what is wrong`.
struct RulesLoadError
{
    QString file; ///< as shown: `rules.d/acme.json`, or a path given on the command line
    int line = 1;
    QString what;
    QString text() const { return QStringLiteral("%1:%2: %3").arg(file).arg(line).arg(what); }
};

/// What reading the rules files gave.
struct UserRulesLoad
{
    std::shared_ptr<const retry::Rules> rules; ///< the built-in rules plus every good file
    QStringList files; ///< the files in force, as shown, in the order they were added
    QList<RulesLoadError> errors; ///< the files left out
};

/// $XDG_CONFIG_HOME/capwatch/rules.d (by default ~/.config/capwatch/rules.d).
QString userRulesDirectory();

/// Reads every `*.json` of userRulesDirectory() (in name order), then `extraFiles` (paths given
/// for one run, `explain --rules`). Never fails: what cannot be used is in `errors`.
UserRulesLoad loadUserRules(const QStringList &extraFiles = {});

/// Checks one file as a user rules file, alone and together with the built-in rules; empty
/// when it can be used. `shownAs` names it in the message (default: the path).
QList<RulesLoadError> checkRulesFile(const QString &path, const QString &shownAs = {});

/// The start-up hook of both programs: loadUserRules(), then the result is what every
/// classification of this process uses (retry::Rules::install()). Returns the files left out,
/// for the program to show once (the CLI prints them; the window shows them).
QList<RulesLoadError> installUserRules(const QStringList &extraFiles = {});

} // namespace capwatch::app
