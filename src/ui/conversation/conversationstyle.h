#pragma once

#include <QColor>
#include <QFont>
#include <QStringList>
#include <QTextFormat>

QT_BEGIN_NAMESPACE
class QTextDocument;
class QWidget;
QT_END_NAMESPACE

// The look of the conversation pane. Colours and sizes are baked into a QTextDocument's formats,
// so every format the view makes carries a role, and restyle() can revisit all of them when the
// palette or the font changes.
namespace capwatch::ui::transcript {

// Which of our formats a block, fragment or frame carries, so restyle() can recolour it.
constexpr int kRoleProperty = QTextFormat::UserProperty + 1;
// The horizontal inset added to a root-level block or frame, so restyle() can change it.
constexpr int kPadProperty = QTextFormat::UserProperty + 2;
// Set on the characters of a turn left out of requests (greyed): they carry the muted colour
// until the turn is sent again, whatever their role.
constexpr int kDimProperty = QTextFormat::UserProperty + 3;

enum Role : int
{
    NoRole,
    // blocks
    SpacerBlock,
    CaptionBlock,
    BodyBlock,
    NoticeBlock,
    IncompleteBlock,
    ErrorTitleBlock,
    ErrorBodyBlock,
    FrameEndBlock,
    MarkdownBlock,
    ActionBlock,
    StatusBlock,
    // characters
    CaptionChar,
    ErrorCaptionChar,
    NoticeChar,
    IncompleteChar,
    LinkChar,
    AltTextChar,
    QuoteChar,
    ErrorTitleChar,
    ErrorBodyChar,
    ActionChar,
    StatusChar,
    // frames
    UserFrame,
    ErrorFrame,
    ErrorBodyFrame,
    CodeFrame,
    TableFrame,
    // a failed send's card about parking (docs/parking.md)
    ParkedFrame,
    CardHeadlineBlock,
    CardLineBlock,
    CardLinkBlock,
    ParkedCaptionChar,
    CardHeadlineChar,
    CardLineChar,
    // the usage of an answer, on the line of its links
    UsageChar,
    // where a continuation was joined to an answer (Continue): a thin mark, not its text
    SeamChar,
};

struct Style
{
    qreal em = 0;
    qreal pad = 0; // inside turn frames
    qreal border = 1;
    qreal hpad = 0; // root-level text lines up with the text inside turn frames
    qreal spacer = 0; // between items
    qreal gap = 0; // small vertical gaps inside an item
    QColor text, base, muted, link, userBg, userBorder, errorBg, errorBorder, warning, codeBg,
        codeBorder, parked, parkedBg, parkedBorder;
    QFont font;
    QStringList monoFamilies;
};

// The widget's palette and font as the transcript's colours and sizes.
[[nodiscard]] Style styleFor(const QWidget &widget);

[[nodiscard]] QTextCharFormat charFormat(int role, const Style &s);
[[nodiscard]] QTextBlockFormat blockFormat(int role, const Style &s, bool padded);
[[nodiscard]] QTextFrameFormat frameFormat(int role, const Style &s);

// Freshly parsed Markdown in the view's look, in two steps around the sanitizer (which gives links
// and alt texts their roles): tables first (a bold header row, Qt's stray empty first blocks
// removed), then headings, quotes and code blocks, and the inset that lines root-level text up
// with the text inside turn frames.
void styleMarkdownTables(QTextDocument &doc, const Style &s);
void styleMarkdownBlocks(QTextDocument &doc, const Style &s);

// Applies the style to everything already in the document, by the roles its formats carry.
void restyle(QTextDocument &doc, const Style &s);

} // namespace capwatch::ui::transcript
