#include "ui/conversation/markdownexport.h"

#include "ui/conversation/transcripttext.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace capwatch::ui {

using transcript::isLineBreak;
using transcript::withoutTrailingNewlines;

namespace {

// Backslash-escapes what would otherwise turn a line of plain text into Markdown; line breaks
// become spaces.
QString escapeMarkdownLine(QStringView text)
{
    QString out;
    out.reserve(text.size());
    for (const QChar ch : text) {
        if (isLineBreak(ch)) {
            out += u' ';
            continue;
        }
        if (QStringView(u"\\`*_[]<>#|~").contains(ch))
            out += u'\\';
        out += ch;
    }
    return out;
}

QString fenced(QStringView text)
{
    qsizetype longest = 0;
    qsizetype run = 0;
    for (const QChar ch : text) {
        run = ch == u'`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const QString fence(std::max<qsizetype>(3, longest + 1), u'`');
    return fence + u'\n' + withoutTrailingNewlines(text) + u'\n' + fence;
}

// A fence left open by an answer that was cut off mid code block, so the export can close it.
QString openFence(QStringView text)
{
    QString open;
    for (QStringView line : text.tokenize(u'\n')) {
        qsizetype indent = 0;
        while (indent < line.size() && indent < 4 && line[indent] == u' ')
            ++indent;
        if (indent > 3)
            continue;
        line = line.sliced(indent);
        if (line.isEmpty() || (line.front() != u'`' && line.front() != u'~'))
            continue;
        qsizetype length = 0;
        while (length < line.size() && line[length] == line.front())
            ++length;
        if (length < 3)
            continue;
        if (open.isEmpty()) {
            if (line.front() == u'~' || !line.sliced(length).contains(u'`'))
                open = line.first(length).toString();
        } else if (line.front() == open.front() && length >= open.size()
            && line.sliced(length).trimmed().isEmpty()) {
            open.clear();
        }
    }
    return open;
}

// True at a '&' that begins an entity ("&amp;", "&#60;"), which Markdown would decode.
bool startsEntity(QStringView line, qsizetype at)
{
    if (line[at] != u'&')
        return false;
    qsizetype i = at + 1;
    while (i < line.size() && (line[i].isLetterOrNumber() || line[i] == u'#'))
        ++i;
    return i > at + 1 && i < line.size() && line[i] == u';';
}

} // namespace

QString markdown::escape(QStringView text)
{
    QString out;
    out.reserve(text.size() + text.size() / 8);
    const QList<QStringView> lines = text.split(u'\n');
    for (qsizetype n = 0; n < lines.size(); ++n) {
        QStringView line = lines[n];
        if (line.endsWith(u'\r'))
            line.chop(1);
        if (line.trimmed().isEmpty()) {
            out += u'\n'; // a paragraph break, as typed
            continue;
        }
        qsizetype i = 0;
        // Leading white space would make a code block: keep it, as non-breaking spaces.
        for (; i < line.size() && (line[i] == u' ' || line[i] == u'\t'); ++i)
            out += QString(line[i] == u'\t' ? 4 : 1, QChar::Nbsp);
        // What only means something at the start of a line: list items, setext headings.
        if (i < line.size() && QStringView(u"-+=").contains(line[i]))
            out += u'\\';
        qsizetype digits = i;
        while (digits < line.size() && line[digits].isDigit())
            ++digits;
        for (; i < line.size(); ++i) {
            const QChar ch = line[i];
            const bool orderedList = i == digits && digits > 0 && (ch == u'.' || ch == u')');
            if (orderedList || QStringView(u"\\`*_[]<>#|~").contains(ch) || startsEntity(line, i))
                out += u'\\';
            out += ch;
        }
        // A line break inside a paragraph stays one (a backslash before it is a hard break).
        const bool nextHasText = n + 1 < lines.size() && !lines[n + 1].trimmed().isEmpty();
        if (nextHasText)
            out += u'\\';
        if (n + 1 < lines.size())
            out += u'\n';
    }
    return out;
}

MarkdownExport::MarkdownExport(Words words)
    : m_words(std::move(words))
{ }

void MarkdownExport::addUser(QStringView text)
{
    m_sections << u"## "_s + m_words.user << markdown::escape(withoutTrailingNewlines(text));
}

void MarkdownExport::addAssistant(QStringView answer, const QString &endLine)
{
    m_sections << u"## "_s + m_words.assistant;
    QString text = withoutTrailingNewlines(answer).toString();
    // An answer cut off inside a code block would swallow everything after it.
    if (const QString fence = openFence(text); !fence.isEmpty())
        text += u'\n' + fence;
    if (!text.isEmpty())
        m_sections << text;
    if (!endLine.isEmpty())
        m_sections << u'*' + escapeMarkdownLine(endLine) + u'*';
}

void MarkdownExport::addError(QStringView title, QStringView body)
{
    m_sections << u"## "_s + m_words.error;
    if (!title.isEmpty())
        m_sections << escapeMarkdownLine(title);
    if (!body.isEmpty())
        m_sections << fenced(body);
}

void MarkdownExport::addNotice(QStringView text)
{
    m_sections << u'*' + escapeMarkdownLine(text) + u'*';
}

QString MarkdownExport::toMarkdown() const
{
    QStringList sections = m_sections;
    sections.removeAll(QString());
    return sections.isEmpty() ? QString() : sections.join(u"\n\n"_s) + u'\n';
}

} // namespace capwatch::ui
