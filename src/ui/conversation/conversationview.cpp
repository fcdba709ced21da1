#include "ui/conversation/conversationview.h"

#include "ui/conversation/conversationdocument.h"
#include "ui/conversation/conversationstyle.h"
#include "ui/conversation/conversationview_p.h"
#include "ui/conversation/markdownexport.h"
#include "ui/conversation/markdownsanitizer.h"
#include "ui/conversation/transcripttext.h"
#include "ui/window/uilogging.h"

#include <QClipboard>
#include <QElapsedTimer>
#include <QEvent>
#include <QGuiApplication>
#include <QMimeData>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextDocumentFragment>
#include <QTextFrame>
#include <QTextLayout>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace capwatch::ui {

using namespace transcript;

namespace {

constexpr int kFlushIntervalMs = 30;
// Rendering Markdown is one synchronous parse, copy and relayout on the GUI thread that grows with
// the answer (about 0.2 s for 250 KiB on a 2-core machine); beyond this it would stall the window
// noticeably, so larger answers stay the plain text they streamed as.
constexpr qsizetype kMarkdownLimit = 256 * 1024;
// Laying text out costs QTextDocument about half a microsecond per character, and every character
// shown stays laid out. One flush shows at most this much, so a burst stalls the window for a
// tick, not for seconds...
constexpr qsizetype kFlushBudget = 64 * 1024;
// ...in pieces of this many characters, and stops after the piece that crosses the time box, so
// that a tick stays well inside one frame (16 ms) on a slow machine too: the rest follows on the
// next tick.
constexpr qsizetype kFlushPiece = 2 * 1024;
constexpr qint64 kFlushTimeBoxNs = 2'000'000;
// ...and while text is waiting to be shown, the next tick comes this soon: a box of 2 ms every
// 30 ms would take 15 s to fill a runaway answer's 2 MiB, every 10 ms it takes 5 s, and the
// window still has most of its time for paints and input.
constexpr int kBacklogIntervalMs = 10;
// ...and one turn shows at most this much live: some 500k tokens, far beyond any model's output
// limit, so only a runaway stream reaches it (all of a 20 MB one would take ~10 s of layout). The
// full text stays in assistantText() and the export.
constexpr qsizetype kDisplayLimit = 2 * 1024 * 1024;
// A line being streamed longer than this keeps its glyphs (keepGlyphs()).
constexpr int kKeepGlyphsFrom = 1024;

} // namespace

ConversationView::ConversationView(QWidget *parent)
    : QTextBrowser(parent)
{
    setDocument(new GuardedDocument(
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
    // Interval 0: the next piece as soon as the event loop has painted and handled input.
    m_renderTimer.setSingleShot(true);
    m_renderTimer.setInterval(0);
    connect(&m_renderTimer, &QTimer::timeout, this, &ConversationView::renderPendingMarkdown);

    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        const QString scheme = url.scheme().toLower();
        if (scheme == u"http"_s || scheme == u"https"_s) {
            Q_EMIT externalLinkActivated(url);
        } else if (scheme == kActionScheme) {
            // capwatch-action:copy/5: set by renderActions(), never by an answer (the Markdown
            // sanitizer keeps only http and https links).
            const QStringList parts = url.path().split(u'/');
            bool ok = false;
            const int turn = parts.value(1).toInt(&ok);
            const QString name = parts.value(0);
            for (const Action action : kActions) {
                if (ok && turn == 0 && name == actionName(action)) { // the status line's
                    if (std::any_of(m_statusLinks.cbegin(), m_statusLinks.cend(),
                            [action](const CardLink &l) { return l.action == action; }))
                        Q_EMIT actionRequested(action, 0);
                    continue;
                }
                const Item *target = item(turn);
                if (!ok || name != actionName(action) || !target)
                    continue;
                if (action == Action::Details || action == Action::CopyDetails) {
                    // The card's own links: the view folds and copies, nobody else is asked.
                    if (target->kind != Kind::Error || target->text.isEmpty())
                        continue;
                    if (action == Action::Details)
                        setErrorDetailsShown(turn, !target->detailsShown);
                    else
                        QGuiApplication::clipboard()->setText(target->text);
                } else if (action == Action::AddRule) {
                    if (target->kind == Kind::Error && !target->decidedBy.isEmpty())
                        Q_EMIT actionRequested(action, turn);
                } else if (target->actions.contains(action)) {
                    Q_EMIT actionRequested(action, turn);
                }
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
    QTextFrame *frame = insertTurnFrame(cursor, s, UserFrame, tr("You"), CaptionChar);
    item.actionBlock = QTextCursor(document());
    item.actionBlock.setPosition(frame->firstPosition());
    item.actionBlock.setKeepPositionOnInsert(true);
    item.actionLine = true;
    cursor.insertBlock(blockFormat(BodyBlock, s, false), QTextCharFormat());
    cursor.insertText(breakLongRuns(withoutTrailingNewlines(text)), QTextCharFormat());
    finishTurnFrame(*document(), s, frame);
    cursor.endEditBlock();

    // Sending is a deliberate act: show it even if the user had scrolled up. A stored prompt
    // filled in is not one: endFill() decides.
    if (!m_filling) {
        m_stickToBottom = true;
        verticalScrollBar()->setValue(verticalScrollBar()->maximum());
    }
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
        m_flushTimer.start(kFlushIntervalMs);
}

void ConversationView::finishAssistantTurn(int turn, bool incomplete)
{
    finishAssistantTurn(turn, incomplete ? tr("(incomplete)") : QString());
}

void ConversationView::finishAssistantTurn(int turn, const QString &endLine)
{
    Item *item = assistantItem(turn);
    if (!item || item->finished)
        return;
    item->finished = true;
    item->endLine = endLine;
    // A seam after which nothing came is no seam.
    while (!item->seams.isEmpty() && item->seams.constLast() >= item->text.size())
        item->seams.removeLast();
    item->seamsShown = std::min(item->seamsShown, item->seams.size());

    if (item->reopened && item->reopenedWhole && item->text.size() == item->reopenedAt
        && item->flushed >= item->text.size()) {
        // Continued, and nothing came: the answer is shown as it was.
        item->reopened = false;
        m_pending.removeAll(turn);
        completeTurn(*item);
        return;
    }
    if (!item->text.isEmpty() && item->text.size() <= kMarkdownLimit) {
        m_pending.removeAll(turn);
        if (m_pending.isEmpty())
            m_flushTimer.stop();
        startMarkdown(*item);
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
    cursor.beginEditBlock(); // before the first move (see flushTurn())
    cursor.setPosition(item.bodyEnd.position());
    const QString &end = item.endLine;
    // The line that says how it ended, when it did not end complete.
    if (!end.isEmpty()) {
        cursor.setPosition(item.bodyEnd.position() + int(item.noticeLength));
        cursor.insertBlock(blockFormat(IncompleteBlock, s, true), charFormat(IncompleteChar, s));
        cursor.insertText(end, charFormat(IncompleteChar, s));
    }
    // The end of the answer, after the "too long" notice if there is one: where its links go.
    // It stays there as later items are appended after it.
    item.actionBlock = QTextCursor(document());
    item.actionBlock.setPosition(item.bodyEnd.position() + int(item.noticeLength)
        + (end.isEmpty() ? 0 : 1 + int(end.size())));
    item.actionBlock.setKeepPositionOnInsert(true);
    cursor.endEditBlock();
    keepGlyphs(item, QTextBlock());
    // Every live cursor is adjusted on every edit; finished turns need only the links' one.
    item.bodyStart = QTextCursor();
    item.bodyEnd = QTextCursor();
    item.reopened = false;
    renderActions(item);
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
    MarkdownExport out({ tr("You"), tr("Assistant"), tr("Error") });
    for (const Item &item : m_items) {
        switch (item.kind) {
        case Kind::User:
            out.addUser(item.text);
            break;
        case Kind::Assistant:
            out.addAssistant(item.text, item.finished ? item.endLine : QString());
            break;
        case Kind::Error:
            out.addError(item.title, item.text);
            break;
        case Kind::Notice:
            out.addNotice(item.text);
            break;
        }
    }
    return out.toMarkdown();
}

void ConversationView::removeTurnsFrom(int turn)
{
    const auto from = std::lower_bound(m_items.begin(), m_items.end(), turn,
        [](const Item &i, int value) { return i.id < value; });
    if (from == m_items.end())
        return;
    setStatusLine({});
    if (!m_noteStart.isNull() && m_noteStart.position() >= from->start.position()) {
        m_noteStart = QTextCursor(); // it goes with them
        m_noteText.clear();
        m_noteAfter = -1;
    }
    removeToEnd(*document(), styleFor(*this), from->start, from->spacerInserted);
    for (auto it = from; it != m_items.end(); ++it) {
        m_pending.removeAll(it->id);
        m_rendering.removeAll(it->id);
        if (it->kind != Kind::Notice)
            --m_turnCount;
    }
    m_items.erase(from, m_items.end());
    if (m_pending.isEmpty())
        m_flushTimer.stop();
    if (m_rendering.isEmpty())
        m_renderTimer.stop();
}

int ConversationView::lastUserTurn() const
{
    for (auto it = m_items.crbegin(); it != m_items.crend(); ++it) {
        if (it->kind == Kind::User)
            return it->id;
    }
    return -1;
}

int ConversationView::lastItem() const
{
    return m_items.empty() ? -1 : m_items.back().id;
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

void ConversationView::setStatusLine(const QString &text, const QList<CardLink> &links)
{
    if (text == m_statusText && links == m_statusLinks)
        return;
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    if (!m_statusStart.isNull()) {
        removeToEnd(*document(), styleFor(*this), m_statusStart, m_statusSpacerInserted);
        m_statusStart = QTextCursor();
    }
    m_statusText = text;
    m_statusLinks = text.isEmpty() ? QList<CardLink>() : links;
    if (!text.isEmpty()) {
        const Style s = styleFor(*this);
        cursor = endSpacer(*document(), s, &m_statusSpacerInserted);
        m_statusStart = cursor;
        m_statusStart.setKeepPositionOnInsert(true);
        cursor.insertBlock(blockFormat(StatusBlock, s, true), charFormat(StatusChar, s));
        cursor.insertText(text, charFormat(StatusChar, s));
        for (const CardLink &l : std::as_const(m_statusLinks)) {
            cursor.insertText(u"  \u00b7  "_s, charFormat(StatusChar, s));
            QTextCharFormat link = actionLinkFormat(s, l.action, 0); // 0: the status line
            link.setToolTip(l.toolTip);
            cursor.insertText(l.text, link);
        }
    }
    cursor.endEditBlock();
}

QString ConversationView::escapeMarkdown(QStringView text)
{
    return markdown::escape(text);
}

QMimeData *ConversationView::createMimeDataFromSelection() const
{
    const QTextCursor selection = textCursor();
    auto *mime = new QMimeData;
    mime->setText(selectedText(*document(), selection.selectionStart(), selection.selectionEnd()));
    return mime;
}

QString ConversationView::assistantText(int turn) const
{
    const Item *item = assistantItem(turn);
    return item ? item->text : QString();
}

void ConversationView::beginFill()
{
    m_filling = true;
    m_stickToBottom = false;
}

void ConversationView::endFill()
{
    if (!m_filling)
        return;
    m_filling = false;
    QScrollBar *bar = verticalScrollBar();
    if (bar->value() == bar->minimum()) { // not scrolled while it filled
        m_stickToBottom = true;
        bar->setValue(bar->maximum());
    }
}

void ConversationView::clearConversation()
{
    m_filling = false;
    m_flushTimer.stop();
    m_pending.clear();
    m_renderTimer.stop();
    m_rendering.clear();
    m_statusText.clear();
    m_statusLinks.clear();
    m_statusStart = QTextCursor();
    m_noteStart = QTextCursor();
    m_noteText.clear();
    m_noteAfter = -1;
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
    const QImage image = markdown::decodeDataImage(name, maxWidth);
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
    QTextCursor cursor = endSpacer(*document(), styleFor(*this), &item.spacerInserted);
    // Stays in front of what the item inserts there.
    item.start = cursor;
    item.start.setKeepPositionOnInsert(true);
    return cursor;
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
    qint64 pieceNs = 0; // what the last piece took: the next one on the same line takes longer
    while (!item.truncated && item.flushed < limit) {
        const qint64 pieceStart = box.nsecsElapsed();
        qsizetype end = std::min(limit, item.flushed + kFlushPiece);
        // A continuation's text begins after a thin mark, once there is text after it.
        if (item.seamsShown < item.seams.size()) {
            const qsizetype seam = item.seams.at(item.seamsShown);
            if (seam <= item.flushed) {
                QTextCursor cursor(document());
                cursor.beginEditBlock(); // see below
                cursor.setPosition(item.bodyEnd.position());
                insertSeam(cursor);
                item.bodyEnd.setPosition(cursor.position());
                cursor.endEditBlock();
                ++item.seamsShown;
                continue;
            }
            end = std::min(end, seam);
        }
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
            // In an edit block: outside one, every move and insert of a cursor works out its x on
            // screen (QTextCursorPrivate::setX), which shapes the whole line again, as long a
            // line as the view shows live; in one, the line is laid out once, at the block's end.
            QTextCursor cursor(document());
            cursor.beginEditBlock();
            cursor.setPosition(item.bodyEnd.position());
            cursor.insertText(
                QStringView(item.text).sliced(item.flushed, shown - item.flushed).toString(),
                QTextCharFormat());
            item.bodyEnd.setPosition(cursor.position());
            cursor.endEditBlock();
            keepGlyphs(item, cursor.block());
            item.flushed = shown;
            shownAny = true;
        }
        if (shown < end) {
            truncateTurn(item); // a line too long to lay out live
            break;
        }
        pieceNs = box.nsecsElapsed() - pieceStart;
        // Stop before a piece that would overrun the box, not after it.
        if (!final && box.nsecsElapsed() + pieceNs >= kFlushTimeBoxNs)
            break;
    }
    if (shownAny)
        ++m_flushCount;
    if (!item.truncated && item.flushed >= kDisplayLimit - 1 && item.text.size() > kDisplayLimit)
        truncateTurn(item);
    // Over budget: the rest follows on the next tick, a short one while there is a backlog.
    if (!item.truncated && !final && available - item.flushed > 1) {
        if (!m_pending.contains(item.id))
            m_pending.append(item.id);
        if (!m_flushTimer.isActive())
            m_flushTimer.start(kBacklogIntervalMs);
    } else if (item.finished) {
        m_pending.removeAll(item.id);
        completeTurn(item);
    }
}

// A long line being streamed keeps its glyphs: without them every paint shapes all of it again
// (a line of 16,000 characters took 1-2 ms a paint). Only that line: every line's glyphs, kept,
// would cost tens of bytes a character.
void ConversationView::keepGlyphs(Item &item, const QTextBlock &block)
{
    const bool keep = block.isValid() && block.length() > kKeepGlyphsFrom;
    const int number = keep ? block.blockNumber() : -1;
    if (number == item.glyphsKeptIn)
        return;
    if (item.glyphsKeptIn >= 0) {
        const QTextBlock old = document()->findBlockByNumber(item.glyphsKeptIn);
        if (old.isValid() && old.layout())
            old.layout()->setCacheEnabled(false);
    }
    item.glyphsKeptIn = number;
    if (keep && block.layout())
        block.layout()->setCacheEnabled(true);
}

void ConversationView::truncateTurn(Item &item)
{
    item.truncated = true;
    const Style s = styleFor(*this);
    const QString notice = tr("This answer is too long to show in full. All of it is kept: export "
                              "the conversation to read the rest.");
    QTextCursor cursor(document());
    cursor.beginEditBlock(); // the long line before it is not shaped again (see flushTurn())
    cursor.setPosition(item.bodyEnd.position());
    cursor.insertBlock(blockFormat(IncompleteBlock, s, true), charFormat(NoticeChar, s));
    cursor.insertText(notice, charFormat(NoticeChar, s));
    cursor.endEditBlock();
    item.noticeLength = 1 + notice.size();
}

// Applies the current palette and font to everything already shown: colours and sizes are baked
// into the document's formats, so a theme switch has to revisit them.
void ConversationView::restyle()
{
    transcript::restyle(*document(), styleFor(*this));
    for (const Item &item : m_items) {
        if (item.dimmed)
            applyDim(item, true); // in the new palette's muted colour
    }
}

} // namespace capwatch::ui
