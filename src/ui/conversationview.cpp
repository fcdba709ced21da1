#include "conversationview.h"

#include "categorycolors.h"
#include "uilogging.h"

#include <QBuffer>
#include <QElapsedTimer>
#include <QEvent>
#include <QFontDatabase>
#include <QImageReader>
#include <QMimeData>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextDocumentFragment>
#include <QTextFrame>
#include <QTextTable>
#include <algorithm>
#include <cmath>
#include <functional>

using namespace Qt::StringLiterals;

namespace capwatch::ui {

namespace {

constexpr int kFlushIntervalMs = 30;
// Rendering Markdown is one synchronous parse, copy and relayout on the GUI thread that grows with
// the answer (about 0.2 s for 250 KiB on a 2-core machine); beyond this it would stall the window
// noticeably, so larger answers stay the plain text they streamed as.
constexpr qsizetype kMarkdownLimit = 256 * 1024;
constexpr qsizetype kDataImageLimit = 1024 * 1024;
// A small PNG can still decode to gigabytes.
constexpr qint64 kImagePixelLimit = 4096 * 4096;
// QTextDocument lays a block (one line of an answer) out as a whole on every edit, so appending
// to a line costs time in proportion to its length: about 13 ms for 64 KiB of prose on a 2-core
// machine. Wrapping a run without spaces is quadratic on top: 56 ms for 32 KiB, 215 ms for
// 64 KiB. Breaking lines of our own would change the answer (and what is copied from
// it), so a line is shown live up to these lengths and the rest of such an answer waits for the
// finish (Markdown) or the export; a notice says so.
constexpr qsizetype kLineDisplayLimit = 64 * 1024;
constexpr qsizetype kRunDisplayLimit = 16 * 1024;
// Text inserted once (a prompt, an error body) is laid out once; only a run without any space
// this long, which no reader takes for a sentence, is broken for display.
constexpr qsizetype kHardLineLimit = 4096;
// Laying text out costs QTextDocument about half a microsecond per character, and every character
// shown stays laid out. One flush shows at most this much, so a burst stalls the window for a
// tick, not for seconds...
constexpr qsizetype kFlushBudget = 64 * 1024;
// ...in pieces of this many characters, and stops after the piece that crosses the time box, so
// that a tick stays well inside one frame (16 ms) on a slow machine too: the rest follows on the
// next tick.
constexpr qsizetype kFlushPiece = 4 * 1024;
constexpr qint64 kFlushTimeBoxNs = 5'000'000;
// ...and one turn shows at most this much live: some 500k tokens, far beyond any model's output
// limit, so only a runaway stream reaches it (all of a 20 MB one would take ~10 s of layout). The
// full text stays in assistantText() and the export.
constexpr qsizetype kDisplayLimit = 2 * 1024 * 1024;
// Error bodies can be whole HTML error pages; the export keeps all of it.
constexpr qsizetype kErrorBodyLimit = 64 * 1024;

// Which of our formats a block, fragment or frame carries, so restyle() can recolour it.
constexpr int kRoleProperty = QTextFormat::UserProperty + 1;
// The horizontal inset added to a root-level block or frame, so restyle() can change it.
constexpr int kPadProperty = QTextFormat::UserProperty + 2;

const QTextDocument::MarkdownFeatures kMarkdownFeatures(
    QTextDocument::MarkdownDialectGitHub | QTextDocument::MarkdownNoHTML);

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
        codeBorder;
    QFont font;
    QStringList monoFamilies;
};

qreal luminance(const QColor &c)
{
    const auto channel
        = [](float v) { return v <= 0.03928f ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

qreal contrast(const QColor &a, const QColor &b)
{
    const qreal la = luminance(a);
    const qreal lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// Custom dark palettes often keep the default blue link colour, which is unreadable on them.
QColor readable(QColor colour, const QColor &text, const QColor &base)
{
    for (int i = 0; i < 6 && contrast(colour, base) < 4.5; ++i)
        colour = blend(colour, text, 0.25);
    return colour;
}

Style styleFor(const QWidget &widget)
{
    Style s;
    const QFontMetricsF metrics(widget.font());
    s.em = metrics.height();
    s.pad = std::round(s.em * 0.6);
    s.hpad = s.pad + s.border;
    s.spacer = std::round(s.em * 0.9);
    s.gap = std::round(s.em * 0.25);

    const QPalette &palette = widget.palette();
    s.text = palette.color(QPalette::Text);
    s.base = palette.color(QPalette::Base);
    const QColor highlight = palette.color(QPalette::Highlight);
    const QColor red(0xd8, 0x3b, 0x3b);
    s.muted = blend(s.text, s.base, 0.42);
    s.link = readable(palette.color(QPalette::Link), s.text, s.base);
    s.userBg = blend(s.base, highlight, 0.10);
    s.userBorder = blend(s.base, highlight, 0.28);
    s.errorBg = blend(s.base, red, 0.09);
    s.errorBorder = blend(s.base, red, 0.45);
    s.warning = readable(blend(s.text, red, 0.75), s.text, s.errorBg);
    s.codeBg = blend(s.base, s.text, 0.05);
    s.codeBorder = blend(s.base, s.text, 0.14);
    s.font = widget.font();
    s.monoFamilies = QFontDatabase::systemFont(QFontDatabase::FixedFont).families();
    return s;
}

void setRelativeSize(QTextCharFormat &format, const QFont &font, qreal factor)
{
    if (font.pointSizeF() > 0)
        format.setFontPointSize(font.pointSizeF() * factor);
    else
        format.setProperty(QTextFormat::FontPixelSize, qRound(font.pixelSize() * factor));
}

QTextCharFormat charFormat(int role, const Style &s)
{
    QTextCharFormat f;
    f.setProperty(kRoleProperty, role);
    switch (role) {
    case CaptionChar:
    case ErrorCaptionChar:
        f.setFontWeight(QFont::Bold);
        setRelativeSize(f, s.font, 0.88);
        f.setForeground(role == CaptionChar ? s.muted : s.warning);
        break;
    case NoticeChar:
    case IncompleteChar:
    case StatusChar:
        f.setFontItalic(true);
        setRelativeSize(f, s.font, 0.92);
        f.setForeground(role == IncompleteChar ? s.warning : s.muted);
        break;
    case ActionChar:
        setRelativeSize(f, s.font, 0.88);
        f.setForeground(s.link);
        break;
    case LinkChar:
        f.setForeground(s.link);
        f.setFontUnderline(true);
        break;
    case AltTextChar:
        f.setFontItalic(true);
        f.setForeground(s.muted);
        break;
    case QuoteChar:
        f.setForeground(s.muted);
        break;
    case ErrorTitleChar:
        f.setFontWeight(QFont::DemiBold);
        break;
    case ErrorBodyChar:
        f.setFontFamilies(s.monoFamilies);
        f.setFontFixedPitch(true);
        break;
    default:
        break;
    }
    return f;
}

QTextBlockFormat blockFormat(int role, const Style &s, bool padded)
{
    QTextBlockFormat f;
    f.setProperty(kRoleProperty, role);
    if (padded) {
        f.setLeftMargin(s.hpad);
        f.setRightMargin(s.hpad);
        f.setProperty(kPadProperty, s.hpad);
    }
    switch (role) {
    case SpacerBlock:
        f.setLineHeight(s.spacer, QTextBlockFormat::FixedHeight);
        break;
    case CaptionBlock:
        f.setBottomMargin(s.gap);
        break;
    case NoticeBlock:
        f.setAlignment(Qt::AlignHCenter);
        break;
    case IncompleteBlock:
    case ActionBlock:
    case StatusBlock:
        f.setTopMargin(s.gap);
        break;
    case ErrorTitleBlock:
        f.setBottomMargin(s.gap * 2);
        break;
    case FrameEndBlock:
        // The block Qt keeps after every frame; it should not look like an empty line.
        f.setLineHeight(1, QTextBlockFormat::FixedHeight);
        break;
    default:
        break;
    }
    return f;
}

QTextFrameFormat frameFormat(int role, const Style &s)
{
    QTextFrameFormat f;
    f.setProperty(kRoleProperty, role);
    f.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
    f.setBorder(s.border);
    f.setPadding(s.pad);
    f.setMargin(0);
    switch (role) {
    case UserFrame:
        f.setBackground(s.userBg);
        f.setBorderBrush(s.userBorder);
        break;
    case ErrorFrame:
        f.setBackground(s.errorBg);
        f.setBorderBrush(s.errorBorder);
        break;
    case ErrorBodyFrame:
        f.setBackground(s.base);
        f.setBorderBrush(s.errorBorder);
        f.setPadding(s.gap * 2);
        break;
    case CodeFrame:
        f.setBackground(s.codeBg);
        f.setBorderBrush(s.codeBorder);
        f.setPadding(s.gap * 2);
        f.setTopMargin(s.gap);
        f.setBottomMargin(s.gap * 2);
        f.setLeftMargin(s.hpad);
        f.setRightMargin(s.hpad);
        f.setProperty(kPadProperty, s.hpad);
        break;
    default:
        break;
    }
    return f;
}

// Header cells carry the tint as their own format, so restyle() can update them.
void styleHeaderRow(QTextTable *table, const Style &s)
{
    for (int column = 0; column < table->columns(); ++column) {
        QTextTableCell cell = table->cellAt(0, column);
        if (cell.row() != 0 || cell.column() != column)
            continue;
        QTextCharFormat format = cell.format();
        format.setBackground(s.codeBg);
        cell.setFormat(format);
    }
}

void styleTable(QTextTableFormat &f, const Style &s)
{
    f.setProperty(kRoleProperty, TableFrame);
    f.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
    f.setBorder(s.border);
    f.setBorderBrush(s.codeBorder);
    f.setBorderCollapse(true);
    f.setCellSpacing(0);
    f.setCellPadding(s.gap * 1.5);
    f.setTopMargin(s.gap);
    f.setBottomMargin(s.gap * 2);
}

bool isLineBreak(QChar ch)
{
    return ch == u'\n' || ch == u'\r' || ch == QChar::ParagraphSeparator || ch == QChar(0xfdd0)
        || ch == QChar(0xfdd1); // QTextDocument's frame markers
}

// Text inserted once, as shown: runs of kHardLineLimit characters without a space are broken
// (see kHardLineLimit); everything else is kept as it is.
QString breakLongRuns(QStringView text)
{
    QString shown;
    qsizetype copied = 0;
    qsizetype run = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i].isSpace() || isLineBreak(text[i])) {
            run = 0;
            continue;
        }
        if (++run < kHardLineLimit || (text[i].isHighSurrogate() && i + 1 < text.size()))
            continue; // never split a surrogate pair
        shown += text.sliced(copied, i + 1 - copied);
        shown += u'\n';
        copied = i + 1;
        run = 0;
    }
    if (copied == 0)
        return text.toString();
    shown += text.sliced(copied);
    return shown;
}

// The end of what may be shown live of text[from, to): before the character that would make the
// current line longer than kLineDisplayLimit or its current run without a space longer than
// kRunDisplayLimit. lineLength and runLength carry over from the text already shown.
qsizetype displayableEnd(
    QStringView text, qsizetype from, qsizetype to, qsizetype &lineLength, qsizetype &runLength)
{
    for (qsizetype i = from; i < to; ++i) {
        const QChar ch = text[i];
        if (isLineBreak(ch)) {
            lineLength = 0;
            runLength = 0;
            continue;
        }
        if (lineLength >= kLineDisplayLimit || runLength >= kRunDisplayLimit)
            return i;
        ++lineLength;
        runLength = ch.isSpace() ? 0 : runLength + 1;
    }
    return to;
}

QStringView withoutTrailingNewlines(QStringView text)
{
    while (!text.isEmpty() && (text.back() == u'\n' || text.back() == u'\r'))
        text.chop(1);
    return text;
}

QUrl activatableUrl(const QString &href)
{
    QUrl url(href, QUrl::StrictMode);
    // GitHub-style "www." autolinks arrive without a scheme.
    if (url.scheme().isEmpty() && href.startsWith(u"www."_s, Qt::CaseInsensitive))
        url = QUrl(u"https://"_s + href, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || url.host().isEmpty() || (scheme != u"http"_s && scheme != u"https"_s))
        return {};
    return url;
}

QImage decodeDataImage(const QUrl &url, int maxWidth)
{
    // QUrl keeps everything after "data:" as the path.
    const QByteArray path = url.path(QUrl::FullyEncoded).toLatin1();
    const qsizetype comma = path.indexOf(',');
    // Base64 and percent-encoding inflate; refuse before decoding anything large.
    if (comma < 0 || path.size() - comma > kDataImageLimit * 3)
        return {};
    const QList<QByteArray> header
        = QByteArray::fromPercentEncoding(path.left(comma)).toLower().split(';');
    static const QList<QByteArray> mimeTypes { "image/png", "image/jpeg", "image/gif", "image/webp",
        "image/bmp" };
    if (!mimeTypes.contains(header.value(0).trimmed()))
        return {};
    QByteArray payload = QByteArray::fromPercentEncoding(path.mid(comma + 1));
    if (header.contains("base64")) {
        auto decoded
            = QByteArray::fromBase64Encoding(payload, QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            return {};
        payload = std::move(decoded.decoded);
    }
    if (payload.size() > kDataImageLimit)
        return {};

    QBuffer buffer(&payload);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer);
    // The content decides the decoder, so vector formats that can reference files stay out.
    static const QList<QByteArray> formats { "png", "jpeg", "jpg", "gif", "webp", "bmp" };
    const QSize size = reader.size();
    if (!formats.contains(reader.format()) || !size.isValid()
        || qint64(size.width()) * size.height() > kImagePixelLimit)
        return {};
    QImage image = reader.read();
    if (!image.isNull() && image.width() > maxWidth)
        image = image.scaledToWidth(maxWidth, Qt::SmoothTransformation);
    return image;
}

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

const QString kActionScheme = u"capwatch-action"_s;

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

QString actionName(ConversationView::Action action)
{
    switch (action) {
    case ConversationView::Action::Copy:
        return u"copy"_s;
    case ConversationView::Action::Regenerate:
        return u"regenerate"_s;
    case ConversationView::Action::Edit:
        return u"edit"_s;
    }
    return {};
}

// The document the view shows, and the scratch documents Markdown is parsed into. Only the
// loader decides about resources: QTextDocument's own fallback reads local files.
class ViewDocument final : public QTextDocument
{
    Q_DISABLE_COPY_MOVE(ViewDocument)

public:
    using Loader = std::function<QVariant(int, const QUrl &)>;

    explicit ViewDocument(Loader loader, QObject *parent = nullptr)
        : QTextDocument(parent)
        , m_loader(std::move(loader))
    {
        setUndoRedoEnabled(false); // the undo stack would keep a second copy of every answer
    }

protected:
    QVariant loadResource(int type, const QUrl &name) override
    {
        return m_loader ? m_loader(type, name) : QVariant();
    }

private:
    Loader m_loader;
};

} // namespace

ConversationView::ConversationView(QWidget *parent)
    : QTextBrowser(parent)
{
    setDocument(new ViewDocument(
        [this](int type, const QUrl &name) { return loadResource(type, name); }, this));
    document()->setDefaultFont(font());
    setOpenLinks(false);
    setOpenExternalLinks(false);
    setFrameShape(QFrame::NoFrame);
    setAccessibleName(tr("Conversation"));
    setAccessibleDescription(
        tr("Your messages and the assistant's answers, oldest first. Text can be selected "
           "and copied."));

    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(kFlushIntervalMs);
    connect(&m_flushTimer, &QTimer::timeout, this, &ConversationView::flushPending);

    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        const QString scheme = url.scheme().toLower();
        if (scheme == u"http"_s || scheme == u"https"_s) {
            Q_EMIT externalLinkActivated(url);
        } else if (scheme == kActionScheme) {
            // capwatch-action:copy/5: set by renderActions(), never by an answer (prepareMarkdown
            // keeps only http and https links).
            const QStringList parts = url.path().split(u'/');
            bool ok = false;
            const int turn = parts.value(1).toInt(&ok);
            const QString name = parts.value(0);
            for (const Action action : { Action::Copy, Action::Regenerate, Action::Edit }) {
                const Item *target = item(turn);
                if (ok && name == actionName(action) && target && target->actions.contains(action))
                    Q_EMIT actionRequested(action, turn);
            }
        }
    });

    // Follow the stream only while the user is at the bottom; reading further up stays put.
    QScrollBar *bar = verticalScrollBar();
    connect(bar, &QScrollBar::rangeChanged, this, [this, bar](int, int maximum) {
        if (m_stickToBottom)
            bar->setValue(maximum);
    });
    connect(bar, &QScrollBar::valueChanged, this,
        [this, bar](int value) { m_stickToBottom = value >= bar->maximum(); });

    restyle();
}

ConversationView::~ConversationView() = default;

int ConversationView::addUserTurn(const QString &text)
{
    Item &item = appendItem(Kind::User);
    item.text = text;
    const int id = item.id;

    const Style s = styleFor(*this);
    QTextCursor cursor = startItem(item);
    cursor.beginEditBlock();
    QTextFrame *frame = insertTurnFrame(cursor, UserFrame, tr("You"), CaptionChar);
    item.actionBlock = QTextCursor(document());
    item.actionBlock.setPosition(frame->firstPosition());
    item.actionBlock.setKeepPositionOnInsert(true);
    item.actionLine = true;
    cursor.insertBlock(blockFormat(BodyBlock, s, false), QTextCharFormat());
    cursor.insertText(breakLongRuns(withoutTrailingNewlines(text)), QTextCharFormat());
    finishTurnFrame(frame);
    cursor.endEditBlock();

    // Sending is a deliberate act: show it even if the user had scrolled up.
    m_stickToBottom = true;
    verticalScrollBar()->setValue(verticalScrollBar()->maximum());
    return id;
}

int ConversationView::beginAssistantTurn()
{
    Item &item = appendItem(Kind::Assistant);

    const Style s = styleFor(*this);
    QTextCursor cursor = startItem(item);
    cursor.beginEditBlock();
    cursor.insertBlock(blockFormat(CaptionBlock, s, true), charFormat(CaptionChar, s));
    cursor.insertText(tr("Assistant"), charFormat(CaptionChar, s));
    cursor.insertBlock(blockFormat(BodyBlock, s, true), QTextCharFormat());
    cursor.endEditBlock();

    // Both ends stay put when text is inserted exactly there, so neither this turn's own
    // insertions nor later items at the document's end move them; flushTurn() advances bodyEnd.
    // Only their position() is meaningful: keepPositionOnInsert does not hold the anchor.
    item.bodyStart = cursor;
    item.bodyStart.setKeepPositionOnInsert(true);
    item.bodyEnd = cursor;
    item.bodyEnd.setKeepPositionOnInsert(true);
    return item.id;
}

void ConversationView::appendAssistantText(int turn, const QString &delta)
{
    Item *item = assistantItem(turn);
    if (!item || delta.isEmpty())
        return;
    if (item->finished) {
        qCWarning(lcUi) << "text for finished assistant turn" << turn << "dropped";
        return;
    }
    item->text += delta;
    if (!m_pending.contains(turn))
        m_pending.append(turn);
    if (!m_flushTimer.isActive())
        m_flushTimer.start();
}

void ConversationView::finishAssistantTurn(int turn, bool incomplete)
{
    Item *item = assistantItem(turn);
    if (!item || item->finished)
        return;
    item->finished = true;
    item->incomplete = incomplete;

    if (!item->text.isEmpty() && item->text.size() <= kMarkdownLimit) {
        m_pending.removeAll(turn);
        if (m_pending.isEmpty())
            m_flushTimer.stop();
        renderMarkdown(*item);
        completeTurn(*item);
        return;
    }
    // A long answer that arrived faster than it can be laid out keeps being shown a budget at a
    // time, so finishing it never stalls the window; the turn completes with its last piece.
    flushTurn(*item, false);
}

void ConversationView::completeTurn(Item &item)
{
    if (item.bodyEnd.isNull())
        return;
    const Style s = styleFor(*this);
    QTextCursor cursor(document());
    cursor.setPosition(item.bodyEnd.position());
    cursor.beginEditBlock();
    if (item.incomplete) {
        cursor.insertBlock(blockFormat(IncompleteBlock, s, true), charFormat(IncompleteChar, s));
        cursor.insertText(tr("(incomplete)"), charFormat(IncompleteChar, s));
    }
    // The end of the answer, after the "too long" notice if there is one: where its links go.
    // It stays there as later items are appended after it.
    item.actionBlock = QTextCursor(document());
    item.actionBlock.setPosition(item.bodyEnd.position() + int(item.noticeLength)
        + (item.incomplete ? 1 + int(tr("(incomplete)").size()) : 0));
    item.actionBlock.setKeepPositionOnInsert(true);
    cursor.endEditBlock();
    // Every live cursor is adjusted on every edit; finished turns need only the links' one.
    item.bodyStart = QTextCursor();
    item.bodyEnd = QTextCursor();
    renderActions(item);
}

void ConversationView::addErrorTurn(const QString &title, const QString &body)
{
    Item &item = appendItem(Kind::Error);
    item.title = title;
    item.text = body;

    const Style s = styleFor(*this);
    QTextCursor cursor = startItem(item);
    cursor.beginEditBlock();
    QTextFrame *frame = insertTurnFrame(cursor, ErrorFrame, tr("Error"), ErrorCaptionChar);
    if (!title.isEmpty()) {
        cursor.insertBlock(blockFormat(ErrorTitleBlock, s, false), charFormat(ErrorTitleChar, s));
        cursor.insertText(title, charFormat(ErrorTitleChar, s));
    }
    const QStringView shownBody = withoutTrailingNewlines(body);
    if (!shownBody.isEmpty()) {
        QTextFrame *box = cursor.insertFrame(frameFormat(ErrorBodyFrame, s));
        cursor.setBlockFormat(blockFormat(ErrorBodyBlock, s, false));
        cursor.insertText(
            breakLongRuns(shownBody.first(std::min(shownBody.size(), kErrorBodyLimit))),
            charFormat(ErrorBodyChar, s));
        if (shownBody.size() > kErrorBodyLimit) {
            cursor.insertBlock(blockFormat(ErrorBodyBlock, s, false), charFormat(NoticeChar, s));
            cursor.insertText(tr("… %n more characters not shown (the export has all of them)",
                                  nullptr, int(shownBody.size() - kErrorBodyLimit)),
                charFormat(NoticeChar, s));
        }
        QTextCursor after(document());
        after.setPosition(box->lastPosition() + 1);
        after.setBlockFormat(blockFormat(FrameEndBlock, s, false));
    }
    finishTurnFrame(frame);
    cursor.endEditBlock();
}

void ConversationView::addNotice(const QString &text)
{
    Item &item = appendItem(Kind::Notice);
    item.text = text;

    const Style s = styleFor(*this);
    QTextCursor cursor = startItem(item);
    cursor.beginEditBlock();
    cursor.insertBlock(blockFormat(NoticeBlock, s, true), charFormat(NoticeChar, s));
    cursor.insertText(text, charFormat(NoticeChar, s));
    cursor.endEditBlock();
}

QString ConversationView::toMarkdown() const
{
    QStringList sections;
    for (const Item &item : m_items) {
        switch (item.kind) {
        case Kind::User:
            sections << u"## "_s + tr("You") << escapeMarkdown(withoutTrailingNewlines(item.text));
            break;
        case Kind::Assistant: {
            sections << u"## "_s + tr("Assistant");
            QString text = withoutTrailingNewlines(item.text).toString();
            // An answer cut off inside a code block would swallow everything after it.
            if (const QString fence = openFence(text); !fence.isEmpty())
                text += u'\n' + fence;
            if (!text.isEmpty())
                sections << text;
            if (item.incomplete)
                sections << u'*' + escapeMarkdownLine(tr("(incomplete)")) + u'*';
            break;
        }
        case Kind::Error:
            sections << u"## "_s + tr("Error");
            if (!item.title.isEmpty())
                sections << escapeMarkdownLine(item.title);
            if (!item.text.isEmpty())
                sections << fenced(item.text);
            break;
        case Kind::Notice:
            sections << u'*' + escapeMarkdownLine(item.text) + u'*';
            break;
        }
    }
    sections.removeAll(QString());
    return sections.isEmpty() ? QString() : sections.join(u"\n\n"_s) + u'\n';
}

void ConversationView::setTurnActions(int turn, const QList<Action> &actions)
{
    Item *target = item(turn);
    if (!target || (target->kind != Kind::User && target->kind != Kind::Assistant))
        return;
    QList<Action> allowed;
    for (const Action action : actions) {
        const bool fits
            = target->kind == Kind::User ? action == Action::Edit : action != Action::Edit;
        if (fits && !allowed.contains(action))
            allowed.append(action);
    }
    if (allowed == target->actions)
        return;
    target->actions = allowed;
    renderActions(*target);
}

QList<ConversationView::Action> ConversationView::turnActions(int turn) const
{
    const Item *target = item(turn);
    return target ? target->actions : QList<Action>();
}

// The caption of a prompt ("You", then its links), or the line of links under a complete answer.
void ConversationView::renderActions(Item &item)
{
    if (item.actionBlock.isNull())
        return; // an answer still streaming: completeTurn() renders them
    const Style s = styleFor(*this);
    QTextCursor cursor(document());
    cursor.setPosition(item.actionBlock.position());
    cursor.beginEditBlock();
    if (item.kind == Kind::Assistant && !item.actionLine) {
        if (item.actions.isEmpty()) {
            cursor.endEditBlock();
            return;
        }
        // The line of links is made when there is a first one to show.
        cursor.insertBlock(blockFormat(ActionBlock, s, true), QTextCharFormat());
        item.actionBlock.setPosition(cursor.position());
        item.actionLine = true;
    } else if (item.kind == Kind::Assistant && item.actions.isEmpty()) {
        // No links left: the line goes, back to the end of the answer.
        cursor.movePosition(QTextCursor::PreviousCharacter);
        cursor.movePosition(QTextCursor::NextBlock, QTextCursor::KeepAnchor);
        cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
        item.actionBlock.setPosition(cursor.position());
        item.actionLine = false;
        cursor.endEditBlock();
        return;
    }
    cursor.movePosition(QTextCursor::StartOfBlock);
    cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
    cursor.removeSelectedText();
    const QString separator = u"  \u00b7  "_s;
    bool first = true;
    if (item.kind == Kind::User) {
        cursor.insertText(tr("You"), charFormat(CaptionChar, s));
        first = false;
    }
    for (const Action action : std::as_const(item.actions)) {
        if (!first)
            cursor.insertText(separator, charFormat(CaptionChar, s));
        first = false;
        QTextCharFormat link = charFormat(ActionChar, s);
        link.setAnchor(true);
        link.setAnchorHref(
            kActionScheme + u':' + actionName(action) + u'/' + QString::number(item.id));
        QString text;
        switch (action) {
        case Action::Copy:
            text = tr("Copy");
            link.setToolTip(tr("Copy this answer as received (Markdown)"));
            break;
        case Action::Regenerate:
            text = tr("Regenerate");
            link.setToolTip(tr("Ask again for an answer to the same conversation"));
            break;
        case Action::Edit:
            text = tr("Edit and resend");
            link.setToolTip(
                tr("Put this prompt back in the editor; sending replaces it and its answer"));
            break;
        }
        cursor.insertText(text, link);
    }
    cursor.endEditBlock();
}

void ConversationView::removeTurnsFrom(int turn)
{
    const auto from = std::lower_bound(m_items.begin(), m_items.end(), turn,
        [](const Item &i, int value) { return i.id < value; });
    if (from == m_items.end())
        return;
    setStatusLine({});
    removeToEnd(from->start, from->spacerInserted);
    for (auto it = from; it != m_items.end(); ++it) {
        m_pending.removeAll(it->id);
        if (it->kind != Kind::Notice)
            --m_turnCount;
    }
    m_items.erase(from, m_items.end());
    if (m_pending.isEmpty())
        m_flushTimer.stop();
}

int ConversationView::lastUserTurn() const
{
    for (auto it = m_items.crbegin(); it != m_items.crend(); ++it) {
        if (it->kind == Kind::User)
            return it->id;
    }
    return -1;
}

int ConversationView::lastAssistantTurn() const
{
    for (auto it = m_items.crbegin(); it != m_items.crend(); ++it) {
        if (it->kind == Kind::Assistant)
            return it->id;
    }
    return -1;
}

QString ConversationView::userText(int turn) const
{
    const Item *found = item(turn);
    return found && found->kind == Kind::User ? found->text : QString();
}

void ConversationView::setStatusLine(const QString &text)
{
    if (text == m_statusText)
        return;
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    if (!m_statusStart.isNull()) {
        removeToEnd(m_statusStart, m_statusSpacerInserted);
        m_statusStart = QTextCursor();
    }
    m_statusText = text;
    if (!text.isEmpty()) {
        const Style s = styleFor(*this);
        cursor = endSpacer(&m_statusSpacerInserted);
        m_statusStart = cursor;
        m_statusStart.setKeepPositionOnInsert(true);
        cursor.insertBlock(blockFormat(StatusBlock, s, true), charFormat(StatusChar, s));
        cursor.insertText(text, charFormat(StatusChar, s));
    }
    cursor.endEditBlock();
}

QString ConversationView::escapeMarkdown(QStringView text)
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

QMimeData *ConversationView::createMimeDataFromSelection() const
{
    const QTextCursor selection = textCursor();
    const int from = selection.selectionStart();
    const int to = selection.selectionEnd();
    QString text;
    bool firstBlock = true;
    for (QTextBlock block = document()->findBlock(from); block.isValid() && block.position() < to;
         block = block.next()) {
        const int role = block.blockFormat().intProperty(kRoleProperty);
        if (role == CaptionBlock || role == ActionBlock || role == StatusBlock)
            continue;
        QString line;
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            const int charRole = fragment.charFormat().intProperty(kRoleProperty);
            if (charRole == CaptionChar || charRole == ErrorCaptionChar || charRole == ActionChar
                || charRole == StatusChar)
                continue;
            const int start = std::max(from, fragment.position());
            const int end = std::min(to, fragment.position() + fragment.length());
            if (start < end)
                line += fragment.text().mid(start - fragment.position(), end - start);
        }
        if (!firstBlock)
            text += u'\n';
        firstBlock = false;
        text += line;
    }
    // QTextDocument's own separators and non-breaking spaces, as toPlainText() gives them; no
    // empty lines from the spacers at either end.
    text.replace(QChar::LineSeparator, u'\n').replace(QChar::Nbsp, u' ');
    while (text.startsWith(u'\n'))
        text.remove(0, 1);
    while (text.endsWith(u'\n'))
        text.chop(1);
    text.remove(QChar(0xfdd0)).remove(QChar(0xfdd1)).remove(QChar::ObjectReplacementCharacter);
    auto *mime = new QMimeData;
    mime->setText(text);
    return mime;
}

QString ConversationView::assistantText(int turn) const
{
    const Item *item = assistantItem(turn);
    return item ? item->text : QString();
}

void ConversationView::clearConversation()
{
    m_flushTimer.stop();
    m_pending.clear();
    m_statusText.clear();
    m_statusStart = QTextCursor();
    m_items.clear(); // drops the cursors before the document they point into is cleared
    m_turnCount = 0;
    document()->clear();
    m_stickToBottom = true;
    restyle();
}

int ConversationView::turnCount() const
{
    return m_turnCount;
}

int ConversationView::flushCount() const
{
    return m_flushCount;
}

QVariant ConversationView::loadResource(int type, const QUrl &name)
{
    if (type != QTextDocument::ImageResource
        || name.scheme().compare(u"data"_s, Qt::CaseInsensitive) != 0)
        return {};
    const Style s = styleFor(*this);
    const int maxWidth = std::max(
        int(s.em * 10), viewport()->width() - int(4 * s.hpad + 2 * document()->documentMargin()));
    const QImage image = decodeDataImage(name, maxWidth);
    return image.isNull() ? QVariant() : QVariant(image);
}

void ConversationView::changeEvent(QEvent *event)
{
    QTextBrowser::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        restyle();
}

ConversationView::Item *ConversationView::item(int id)
{
    const auto it = std::lower_bound(
        m_items.begin(), m_items.end(), id, [](const Item &i, int value) { return i.id < value; });
    return it != m_items.end() && it->id == id ? &*it : nullptr;
}

const ConversationView::Item *ConversationView::item(int id) const
{
    return const_cast<ConversationView *>(this)->item(id);
}

ConversationView::Item *ConversationView::assistantItem(int turn)
{
    Item *found = item(turn);
    return found && found->kind == Kind::Assistant ? found : nullptr;
}

const ConversationView::Item *ConversationView::assistantItem(int turn) const
{
    return const_cast<ConversationView *>(this)->assistantItem(turn);
}

ConversationView::Item &ConversationView::appendItem(Kind kind)
{
    setStatusLine({}); // it stays below everything
    Item item;
    item.id = m_nextId++;
    item.kind = kind;
    if (kind != Kind::Notice)
        ++m_turnCount;
    m_items.push_back(std::move(item));
    return m_items.back();
}

QTextCursor ConversationView::startItem(Item &item)
{
    QTextCursor cursor = endSpacer(&item.spacerInserted);
    // Stays in front of what the item inserts there.
    item.start = cursor;
    item.start.setKeepPositionOnInsert(true);
    return cursor;
}

QTextCursor ConversationView::endSpacer(bool *inserted)
{
    const Style s = styleFor(*this);
    QTextCursor cursor(document());
    cursor.movePosition(QTextCursor::End);
    const QTextBlock last = cursor.block();
    if (inserted)
        *inserted = false;
    if (last.length() == 1 && last.blockFormat().intProperty(kRoleProperty) == SpacerBlock)
        return cursor; // left behind by the previous item's frame
    if (document()->isEmpty()) {
        cursor.setBlockFormat(blockFormat(SpacerBlock, s, false));
    } else {
        cursor.insertBlock(blockFormat(SpacerBlock, s, false), QTextCharFormat());
        if (inserted)
            *inserted = true;
    }
    return cursor;
}

void ConversationView::removeToEnd(const QTextCursor &start, bool spacerInserted)
{
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    if (spacerInserted) {
        // The spacer goes too: the document ends as before it.
        cursor.setPosition(start.position() - 1);
        cursor.movePosition(QTextCursor::End, QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
    } else {
        // The spacer was the block Qt keeps after a frame: it stays, as it was.
        cursor.setPosition(start.position());
        cursor.movePosition(QTextCursor::End, QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
        cursor.setBlockFormat(blockFormat(SpacerBlock, styleFor(*this), false));
        cursor.setBlockCharFormat(QTextCharFormat());
    }
    cursor.endEditBlock();
}

QTextFrame *ConversationView::insertTurnFrame(
    QTextCursor &cursor, int frameRole, const QString &caption, int captionRole)
{
    const Style s = styleFor(*this);
    QTextFrame *frame = cursor.insertFrame(frameFormat(frameRole, s));
    cursor.setBlockFormat(blockFormat(CaptionBlock, s, false));
    cursor.setBlockCharFormat(charFormat(captionRole, s));
    cursor.insertText(caption, charFormat(captionRole, s));
    return frame;
}

void ConversationView::finishTurnFrame(QTextFrame *frame)
{
    // Qt keeps a block after every frame; it becomes the spacer before the next item.
    QTextCursor after(document());
    after.setPosition(frame->lastPosition() + 1);
    after.setBlockFormat(blockFormat(SpacerBlock, styleFor(*this), false));
    after.setBlockCharFormat(QTextCharFormat());
}

void ConversationView::flushPending()
{
    const QList<int> pending = std::exchange(m_pending, {});
    for (const int turn : pending) {
        if (Item *item = assistantItem(turn))
            flushTurn(*item, false);
    }
}

void ConversationView::flushTurn(Item &item, bool final)
{
    if (item.bodyEnd.isNull())
        return;
    const qsizetype available = std::min(item.text.size(), kDisplayLimit);
    const qsizetype limit = final ? available : std::min(available, item.flushed + kFlushBudget);
    QElapsedTimer box;
    box.start();
    bool shownAny = false;
    while (!item.truncated && item.flushed < limit) {
        qsizetype end = std::min(limit, item.flushed + kFlushPiece);
        // Never show half of a surrogate pair; its other half may still be on the way.
        if ((!(final || item.finished) || end < item.text.size())
            && item.text.at(end - 1).isHighSurrogate())
            --end;
        if (end <= item.flushed)
            break;
        // The pieces join exactly: whatever is shown is the answer itself, never a break of ours.
        qsizetype shown = displayableEnd(
            QStringView(item.text), item.flushed, end, item.lineLength, item.runLength);
        if (shown < end && shown > item.flushed && item.text.at(shown - 1).isHighSurrogate())
            --shown;
        if (shown > item.flushed) {
            QTextCursor cursor(document());
            cursor.setPosition(item.bodyEnd.position());
            cursor.insertText(
                QStringView(item.text).sliced(item.flushed, shown - item.flushed).toString(),
                QTextCharFormat());
            item.bodyEnd.setPosition(cursor.position());
            item.flushed = shown;
            shownAny = true;
        }
        if (shown < end) {
            truncateTurn(item); // a line too long to lay out live
            break;
        }
        if (!final && box.nsecsElapsed() >= kFlushTimeBoxNs)
            break;
    }
    if (shownAny)
        ++m_flushCount;
    if (!item.truncated && item.flushed >= kDisplayLimit - 1 && item.text.size() > kDisplayLimit)
        truncateTurn(item);
    // Over budget: the rest follows on the next tick.
    if (!item.truncated && !final && available - item.flushed > 1) {
        if (!m_pending.contains(item.id))
            m_pending.append(item.id);
        if (!m_flushTimer.isActive())
            m_flushTimer.start();
    } else if (item.finished) {
        m_pending.removeAll(item.id);
        completeTurn(item);
    }
}

void ConversationView::truncateTurn(Item &item)
{
    item.truncated = true;
    const Style s = styleFor(*this);
    const QString notice = tr("This answer is too long to show in full. All of it is kept: export "
                              "the conversation to read the rest.");
    QTextCursor cursor(document());
    cursor.setPosition(item.bodyEnd.position());
    cursor.insertBlock(blockFormat(IncompleteBlock, s, true), charFormat(NoticeChar, s));
    cursor.insertText(notice, charFormat(NoticeChar, s));
    item.noticeLength = 1 + notice.size();
}

void ConversationView::renderMarkdown(Item &item)
{
    if (item.bodyStart.isNull())
        return;
    ViewDocument scratch({});
    scratch.setDefaultFont(document()->defaultFont());
    // Outside an edit block, Qt 6.4's importer has its cursor recompute its x position, which
    // itemizes the whole paragraph, after every piece of text: a 256 KiB paragraph took minutes
    // instead of milliseconds. (QTextCursor::insertMarkdown has the same problem.)
    QTextCursor batch(&scratch);
    batch.beginEditBlock();
    scratch.setMarkdown(item.text, kMarkdownFeatures);
    batch.endEditBlock();
    prepareMarkdown(scratch);

    QTextCursor cursor(document());
    cursor.beginEditBlock();
    if (item.noticeLength > 0) {
        // All of it is shown now: the "too long to show" notice goes.
        cursor.setPosition(item.bodyEnd.position());
        cursor.setPosition(
            item.bodyEnd.position() + int(item.noticeLength), QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
        item.noticeLength = 0;
        item.truncated = false;
    }
    cursor.setPosition(item.bodyStart.position());
    cursor.setPosition(item.bodyEnd.position(), QTextCursor::KeepAnchor);
    cursor.removeSelectedText();
    cursor.insertFragment(QTextDocumentFragment(&scratch));
    const QTextBlock last = cursor.block();
    if (last.length() == 1 && document()->characterAt(last.position() - 1) == QChar(0xfdd1)) {
        // The answer ended with a frame (code or table): shrink the block Qt keeps after it.
        cursor.setBlockFormat(blockFormat(FrameEndBlock, styleFor(*this), true));
    }
    item.bodyEnd.setPosition(cursor.position());
    // A fragment starting with a list item goes into a block of its own, leaving the streamed
    // body's first block empty in front of it.
    QTextCursor first(document());
    first.setPosition(item.bodyStart.position());
    if (first.block().length() == 1 && first.position() < item.bodyEnd.position())
        first.deleteChar();
    cursor.endEditBlock();
    item.flushed = item.text.size();
}

// Makes freshly parsed Markdown safe and consistent with the view: images become their alt text
// (Qt would otherwise read local files named by them), only http(s) links stay links, headings,
// tables and code blocks get the view's look, and everything gets the turn's inset.
//
// Each step reads the structure first and then edits inside an edit block: outside one, every
// cursor move itemizes its whole paragraph (see renderMarkdown()), and inside one the frame tree
// (childFrames(), frame iterators) is stale until the block ends.
void ConversationView::prepareMarkdown(QTextDocument &doc)
{
    const Style s = styleFor(*this);
    QTextCursor cursor(&doc);

    // Tables.
    QList<QTextTable *> tables;
    for (QTextFrame *frame : doc.rootFrame()->childFrames()) {
        if (auto *table = qobject_cast<QTextTable *>(frame))
            tables.append(table);
    }
    cursor.beginEditBlock();
    for (QTextTable *table : std::as_const(tables)) {
        QTextTableFormat format = table->format();
        styleTable(format, s);
        table->setFormat(format);
        styleHeaderRow(table, s);
        // Back to front, so an edit leaves the cells still to visit where they were.
        for (int row = table->rows() - 1; row >= 0; --row) {
            for (int column = table->columns() - 1; column >= 0; --column) {
                const QTextTableCell cell = table->cellAt(row, column);
                if (cell.row() != row || cell.column() != column)
                    continue; // covered by a merged cell
                // Qt 6.4's importer starts a table that follows a code block with an empty
                // block in the first cell, and that cell's text then misses the header's bold.
                QTextCursor first = cell.firstCursorPosition();
                if (first.block().length() == 1 && first.position() < cell.lastPosition())
                    first.deleteChar();
                if (row == 0) { // GitHub tables always have a header row
                    QTextCursor header = table->cellAt(row, column).firstCursorPosition();
                    header.setPosition(
                        table->cellAt(row, column).lastPosition(), QTextCursor::KeepAnchor);
                    QTextCharFormat bold;
                    bold.setFontWeight(QFont::Bold);
                    header.mergeCharFormat(bold);
                }
            }
        }
    }
    cursor.endEditBlock();

    // Links and images.
    struct Span
    {
        int position;
        int length;
        QTextCharFormat format;
    };
    QList<Span> images;
    QList<Span> links;
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            const QTextCharFormat format = fragment.charFormat();
            if (format.isImageFormat())
                images.append({ fragment.position(), fragment.length(), format });
            else if (format.isAnchor() || format.hasProperty(QTextFormat::AnchorHref))
                links.append({ fragment.position(), fragment.length(), format });
        }
    }
    cursor.beginEditBlock();
    for (const Span &link : std::as_const(links)) {
        QTextCharFormat format = link.format;
        const QUrl url = activatableUrl(format.anchorHref());
        if (url.isValid()) {
            format.setAnchorHref(url.toString(QUrl::FullyEncoded));
            format.merge(charFormat(LinkChar, s));
            format.setToolTip(url.toDisplayString());
        } else {
            format.setAnchor(false);
            format.clearProperty(QTextFormat::AnchorHref);
            format.clearForeground();
            format.setToolTip(link.format.anchorHref());
        }
        cursor.setPosition(link.position);
        cursor.setPosition(link.position + link.length, QTextCursor::KeepAnchor);
        cursor.setCharFormat(format);
    }
    // Back to front, so replacing one image leaves the positions of the others valid.
    for (auto it = images.crbegin(); it != images.crend(); ++it) {
        const QTextImageFormat image = it->format.toImageFormat();
        cursor.setPosition(it->position);
        cursor.setPosition(it->position + it->length, QTextCursor::KeepAnchor);
        const QUrl source(image.name());
        if (source.scheme().compare(u"data"_s, Qt::CaseInsensitive) == 0) {
            const QVariant decoded = loadResource(QTextDocument::ImageResource, source);
            if (!decoded.isNull()) {
                // Cached under a short name of our own, so layout finds it and never looks
                // further, and the format does not carry a megabyte of URL.
                const QUrl name(u"capwatch-image:"_s + QString::number(++m_imageCount));
                document()->addResource(QTextDocument::ImageResource, name, decoded);
                QTextImageFormat kept = image;
                kept.setName(name.toString());
                cursor.setCharFormat(kept);
                continue;
            }
        }
        QTextCharFormat alt = charFormat(AltTextChar, s);
        alt.setToolTip(tr("Image not loaded: %1").arg(image.name().left(200)));
        cursor.insertText(image.stringProperty(QTextFormat::ImageAltText).simplified(), alt);
    }
    cursor.endEditBlock();

    // Headings, quotes and code blocks.
    const auto isCode = [&doc](const QTextBlock &block) {
        const QTextBlockFormat format = block.blockFormat();
        return (format.hasProperty(QTextFormat::BlockCodeLanguage)
                   || format.hasProperty(QTextFormat::BlockCodeFence))
            && QTextCursor(block).currentFrame() == doc.rootFrame();
    };
    QList<std::pair<int, QTextBlockFormat>> blockFormats;
    QList<std::pair<int, int>> codeRuns;
    QList<std::pair<int, int>> quoted; // text in block quotes, links aside
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        QTextBlockFormat format = block.blockFormat();
        if (const int level = format.headingLevel(); level > 0) {
            format.setTopMargin(std::round(s.em * (level <= 2 ? 0.8 : 0.6)));
            format.setBottomMargin(s.gap);
            blockFormats.append({ block.position(), format });
        } else if (format.hasProperty(QTextFormat::BlockQuoteLevel)) {
            format.setLeftMargin(
                std::round(s.em * 1.5) * format.intProperty(QTextFormat::BlockQuoteLevel));
            format.setRightMargin(0);
            blockFormats.append({ block.position(), format });
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                if (!it.fragment().charFormat().hasProperty(kRoleProperty))
                    quoted.append({ it.fragment().position(), it.fragment().length() });
            }
        } else if (isCode(block)) {
            const int start = block.position();
            QTextBlock last = block;
            while (last.next().isValid() && isCode(last.next()))
                last = last.next();
            codeRuns.append({ start, last.position() + last.length() - 1 });
            block = last;
        }
    }
    cursor.beginEditBlock();
    for (const auto &[position, format] : std::as_const(blockFormats)) {
        cursor.setPosition(position);
        cursor.setBlockFormat(format);
        if (const int level = format.headingLevel(); level > 0) {
            // Qt sizes H1 at 2.4 times the body text, far too loud for a chat answer.
            cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
            QTextCharFormat size;
            size.setProperty(QTextFormat::FontSizeAdjustment, level == 1 ? 2 : level == 2 ? 1 : 0);
            cursor.mergeCharFormat(size);
            cursor.mergeBlockCharFormat(size);
        }
    }
    for (const auto &[position, length] : std::as_const(quoted)) {
        cursor.setPosition(position);
        cursor.setPosition(position + length, QTextCursor::KeepAnchor);
        cursor.mergeCharFormat(charFormat(QuoteChar, s));
    }
    // Code wraps rather than widening the whole conversation, and each run is boxed in a frame.
    // Back to front, so a new frame leaves the runs still to box where they were.
    for (auto it = codeRuns.crbegin(); it != codeRuns.crend(); ++it) {
        cursor.setPosition(it->first);
        cursor.setPosition(it->second, QTextCursor::KeepAnchor);
        QTextBlockFormat wrap;
        wrap.setNonBreakableLines(false);
        cursor.mergeBlockFormat(wrap);
        cursor.insertFrame(frameFormat(CodeFrame, s));
    }
    cursor.endEditBlock();

    // The inset that lines root-level text up with the text inside turn frames.
    QList<std::pair<QTextTable *, QTextTableFormat>> tableFormats;
    blockFormats.clear();
    for (auto it = doc.rootFrame()->begin(); !it.atEnd(); ++it) {
        if (QTextFrame *frame = it.currentFrame()) {
            if (auto *table = qobject_cast<QTextTable *>(frame)) {
                QTextTableFormat format = table->format();
                format.setLeftMargin(s.hpad);
                format.setRightMargin(s.hpad);
                format.setProperty(kPadProperty, s.hpad);
                tableFormats.append({ table, format });
            }
            continue;
        }
        const QTextBlock block = it.currentBlock();
        QTextBlockFormat format = block.blockFormat();
        // Qt keeps an empty block before a frame inserted at a block's start and after every
        // frame; they should not look like blank lines.
        if (block.length() == 1
            && (doc.characterAt(block.position()) == QChar(0xfdd0)
                || doc.characterAt(block.position() - 1) == QChar(0xfdd1)))
            format = blockFormat(FrameEndBlock, s, false);
        format.setLeftMargin(format.leftMargin() + s.hpad);
        format.setRightMargin(format.rightMargin() + s.hpad);
        format.setProperty(kPadProperty, s.hpad);
        if (!format.hasProperty(kRoleProperty))
            format.setProperty(kRoleProperty, MarkdownBlock);
        blockFormats.append({ block.position(), format });
    }
    cursor.beginEditBlock();
    for (const auto &[table, format] : std::as_const(tableFormats))
        table->setFormat(format);
    for (const auto &[position, format] : std::as_const(blockFormats)) {
        cursor.setPosition(position);
        cursor.setBlockFormat(format);
    }
    cursor.endEditBlock();
}

// Applies the current palette and font to everything already shown: colours and sizes are baked
// into the document's formats, so a theme switch has to revisit them.
void ConversationView::restyle()
{
    const Style s = styleFor(*this);
    QTextDocument *doc = document();
    doc->setDefaultFont(font());
    doc->setDocumentMargin(std::round(s.em * 0.5));
    doc->setIndentWidth(std::round(s.em * 1.6));

    // The frame tree is stale inside an edit block: collect it first.
    QList<QTextFrame *> frames;
    for (QList<QTextFrame *> pending = doc->rootFrame()->childFrames(); !pending.isEmpty();) {
        QTextFrame *frame = pending.takeLast();
        pending += frame->childFrames();
        frames.append(frame);
    }
    QTextCursor cursor(doc);
    cursor.beginEditBlock();
    for (QTextFrame *frame : std::as_const(frames)) {
        const int role = frame->frameFormat().intProperty(kRoleProperty);
        if (auto *table = qobject_cast<QTextTable *>(frame); table && role == TableFrame) {
            QTextTableFormat format = table->format();
            const qreal oldPad = format.doubleProperty(kPadProperty);
            styleTable(format, s);
            if (format.hasProperty(kPadProperty)) {
                format.setLeftMargin(format.leftMargin() - oldPad + s.hpad);
                format.setRightMargin(format.rightMargin() - oldPad + s.hpad);
                format.setProperty(kPadProperty, s.hpad);
            }
            table->setFormat(format);
            styleHeaderRow(table, s);
        } else if (role != NoRole) {
            frame->setFrameFormat(frameFormat(role, s));
        }
    }

    struct Change
    {
        int position;
        int length;
        int role;
    };
    QList<Change> chars;
    QList<std::pair<int, QTextBlockFormat>> blocks;
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        const QTextBlockFormat format = block.blockFormat();
        const int role = format.intProperty(kRoleProperty);
        const bool padded = format.hasProperty(kPadProperty);
        if (role == MarkdownBlock) {
            const qreal oldPad = format.doubleProperty(kPadProperty);
            if (oldPad != s.hpad) {
                QTextBlockFormat updated = format;
                updated.setLeftMargin(format.leftMargin() - oldPad + s.hpad);
                updated.setRightMargin(format.rightMargin() - oldPad + s.hpad);
                updated.setProperty(kPadProperty, s.hpad);
                blocks.append({ block.position(), updated });
            }
        } else if (role != NoRole) {
            blocks.append({ block.position(), blockFormat(role, s, padded) });
        }
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (const int charRole = fragment.charFormat().intProperty(kRoleProperty))
                chars.append({ fragment.position(), fragment.length(), charRole });
        }
    }
    for (const auto &[position, format] : std::as_const(blocks)) {
        cursor.setPosition(position);
        cursor.setBlockFormat(format);
    }
    for (const Change &change : std::as_const(chars)) {
        cursor.setPosition(change.position);
        cursor.setPosition(change.position + change.length, QTextCursor::KeepAnchor);
        cursor.mergeCharFormat(charFormat(change.role, s));
    }
    cursor.endEditBlock();
}

} // namespace capwatch::ui
