#pragma once

// A rules file drafted from a failure the user says was misread (docs/rules.md): written into
// the user's rules.d with the provider's error text as a phrase, for the user to trim and put
// under the category it means. capwatch reads it at its next start.

#include <QDateTime>
#include <QString>

namespace capwatch::ui {

class RulesDraft final
{
public:
    /// $XDG_CONFIG_HOME/capwatch/rules.d (by default ~/.config/capwatch/rules.d).
    static QString directory();
    /// The draft's text: a valid rules file whose one phrase is `errorText` (its first
    /// kMaxPhraseChars characters) under too_large, and whose description says what to do.
    static QByteArray text(const QString &errorText, const QString &rule);
    /// Writes a new draft into directory() (made when missing), named by `now`, never over an
    /// existing file. Returns its path; empty, with `error` saying why, when it cannot.
    static QString write(
        const QString &errorText, const QString &rule, const QDateTime &now, QString *error);

    /// A phrase matches as a substring: the start of a long message is enough.
    static constexpr qsizetype kMaxPhraseChars = 200;
};

} // namespace capwatch::ui
