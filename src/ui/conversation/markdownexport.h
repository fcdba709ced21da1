#pragma once

#include <QString>
#include <QStringList>
#include <QStringView>

// The conversation as a Markdown file: prompts, titles and notices escaped so that they read back
// literally, answers as the raw Markdown received.
namespace capwatch::ui {

namespace markdown {

// Backslash-escapes plain text so that Markdown shows it literally, line breaks kept.
[[nodiscard]] QString escape(QStringView text);

} // namespace markdown

class MarkdownExport
{
public:
    // The words of the export, in the UI's language.
    struct Words
    {
        QString user; // the heading of a prompt
        QString assistant; // the heading of an answer
        QString error; // the heading of a provider failure
    };

    explicit MarkdownExport(Words words);

    void addUser(QStringView text);
    // `endLine`: how the answer ended when it did not end complete ("Cut off at the output limit
    // · 4,096 tokens"), in italics under it; empty: nothing. A joined answer (Continue) is one
    // answer: its seams are not marked.
    void addAssistant(QStringView answer, const QString &endLine);
    void addError(QStringView title, QStringView body);
    void addNotice(QStringView text);

    // The turns added so far, or an empty string if none of them has any text.
    [[nodiscard]] QString toMarkdown() const;

private:
    Words m_words;
    QStringList m_sections;
};

} // namespace capwatch::ui
