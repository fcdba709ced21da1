#pragma once

// A small roff (man(7)) writer. Both programs build their man pages with it from the same
// QCommandLineOption lists their parsers use, so the pages cannot drift from the options.

#include <QCommandLineOption>
#include <QList>
#include <QString>
#include <QStringList>

namespace capwatch::app {

class ManPage final
{
public:
    /// Starts the page: `.TH NAME 1 date "capwatch version"` and the NAME section.
    ManPage(const QString &program, const QString &oneLine, const QString &version,
        const QString &date);

    /// `.SH TITLE` (upper-cased).
    void section(const QString &title);
    /// `.SS title`.
    void subsection(const QString &title);
    /// One paragraph of plain text.
    void paragraph(const QString &text);
    /// One synopsis line: `program` in bold, then `arguments` with options in bold and
    /// upper-case placeholders (URL, NAME, ...) in italics.
    void synopsis(const QString &program, const QString &arguments);
    /// A tagged paragraph whose tag is plain text set in bold.
    void item(const QString &tag, const QString &text);
    /// Every option not hidden from help, as tagged paragraphs: names, value, description and,
    /// when the description does not mention it, the default value.
    void options(const QList<QCommandLineOption> &options);
    /// A described example: `text`, then `command` set literally and indented, its lines as
    /// they are (break long commands with a backslash at the line's end).
    void example(const QString &text, const QString &command);
    /// References to other pages of section 1, as `.BR name (1)` separated by commas.
    void seeAlso(const QStringList &programs);

    QString text() const { return m_text; }

    /// Text made safe for roff: backslashes, hyphens (as \-, so options copy and paste),
    /// control characters at line starts and non-ASCII characters escaped.
    static QString escape(const QString &text);

private:
    void line(const QString &roff);

    QString m_text;
};

} // namespace capwatch::app
