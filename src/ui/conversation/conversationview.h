#pragma once

#include <QList>
#include <QPointer>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextFrame>
#include <QTimer>
#include <deque>

QT_BEGIN_NAMESPACE
class QMimeData;
QT_END_NAMESPACE

namespace capwatch::ui {

// The conversation pane: user turns, streamed assistant answers, provider errors and notices.
// Everything shown comes from the network, so nothing in it is ever interpreted as HTML and the
// view never loads a resource from disk or the network (see loadResource()).
class ConversationView final : public QTextBrowser
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConversationView)

public:
    /// What a link under an answer (Copy, Regenerate, Continue), in a prompt's caption (Edit) or on
    /// a failed send's card (the rest, docs/parking.md) asks for.
    enum class Action
    {
        Copy,
        Regenerate,
        /// go on with an answer that was cut off or interrupted (the last one)
        Continue,
        Edit,
        RetryNow, ///< send the failed prompt again now
        SendAt, ///< park it until its provider's reset
        SendNow, ///< send the parked prompt now
        EditParked, ///< take it out and put it in the prompt editor
        CancelPark, ///< take it out: it is a failed send again
        /// leave out the oldest turns and send the failed prompt again (a context error's card)
        TrimAndResend,
        /// send the failed prompt to the profile's fallback (issue 17; a capped send's card)
        SendToFallback,
        /// show or hide a failed card's raw failure (the view's own: never emitted)
        Details,
        /// copy a failed card's raw failure to the clipboard (the view's own: never emitted)
        CopyDetails,
        /// under a failed card's unfolded details: the rule that read the failure is wrong, make
        /// a rules file to correct it (emitted for a card added with a rule)
        AddRule,
    };
    Q_ENUM(Action)

    /// A link on a card: the words vary ("Send at 06:14 (in 16 min)").
    struct CardLink
    {
        Action action = Action::RetryNow;
        QString text;
        QString toolTip;
        bool operator==(const CardLink &) const = default;
    };
    /// What a failed send's card (addErrorTurn()) shows about parking. The default: the error
    /// alone, as before parking existed.
    struct Card
    {
        /// The parked look: its own colour and caption, `headline` in place of the error.
        bool parked = false;
        QString headline; ///< parked: "Parked until 06:14, in 15:42"
        QString line; ///< a quieter line: why it was not parked, how it was parked
        QList<CardLink> links;
        bool operator==(const Card &) const = default;
    };

    explicit ConversationView(QWidget *parent = nullptr);
    ~ConversationView() override;

    // Plain text, never interpreted as HTML or Markdown.
    int addUserTurn(const QString &text);
    // Returns the turn id for appendAssistantText() and finishAssistantTurn().
    int beginAssistantTurn();
    // Streaming: deltas are buffered and shown at most every ~30 ms.
    void appendAssistantText(int turn, const QString &delta);
    // Renders the answer as Markdown (if it is not too large) and marks it "(incomplete)" when
    // cut off.
    void finishAssistantTurn(int turn, bool incomplete);
    // The same with the line that says how it ended under it ("Cut off at the output limit ·
    // 4,096 tokens"); empty: it ended complete, nothing is said.
    void finishAssistantTurn(int turn, const QString &endLine);
    // The line under a finished answer that says how it ended (empty: none).
    [[nodiscard]] QString turnEnd(int turn) const;
    // Where continuations were joined to an answer (character offsets into its text): each is
    // shown as a thin mark in the answer, never in its text, its copy or its export. For an
    // answer not yet finished (a restored one).
    void setAnswerSeams(int turn, const QList<qsizetype> &seams);
    [[nodiscard]] QList<qsizetype> answerSeams(int turn) const;
    // Opens a finished answer again for more text (Continue): appendAssistantText() adds to it
    // after a seam, its end line and links go until finishAssistantTurn() ends it again, and its
    // Markdown is rendered again whole then. False when `turn` is no finished answer.
    bool continueAssistantTurn(int turn);
    // A provider failure: `title` is its lead sentence; the body (the raw failure) is folded
    // under the card's Details link, shown as plain text in a monospace box when unfolded, and
    // Copy details copies it. Returns its id.
    // `decidedBy`: which classification rule read the failure ("Decided by rules.d/a.json:7"),
    // shown under the details with "Wrong? Add a rule…" (AddRule) and a link to the rules' docs.
    int addErrorTurn(const QString &title, const QString &body, const QString &decidedBy = {});
    // Unfolds or folds an error turn's raw failure (its Details link does the same).
    void setErrorDetailsShown(int turn, bool shown);
    [[nodiscard]] bool errorDetailsShown(int turn) const;
    // A small, muted line such as "Cancelled".
    void addNotice(const QString &text);
    // What an error turn's card shows about parking; its error stays as added. Only the lines
    // that changed are rewritten, so a countdown can tick in a card of any size.
    void setErrorCard(int turn, const Card &card);
    [[nodiscard]] Card errorCard(int turn) const;
    // The plain text of an error turn's card as shown: caption, error or headline, line, links.
    [[nodiscard]] QString errorCardText(int turn) const;

    // The action links of a turn: Copy, Regenerate and Continue under an answer (shown once it
    // is complete), Edit in a prompt's caption. Other combinations are ignored.
    void setTurnActions(int turn, const QList<Action> &actions);
    [[nodiscard]] QList<Action> turnActions(int turn) const;
    // Removes the turn and everything after it (Regenerate, Edit and resend).
    void removeTurnsFrom(int turn);
    // The id of the last user turn and of the last assistant turn, or -1.
    [[nodiscard]] int lastUserTurn() const;
    [[nodiscard]] int lastAssistantTurn() const;
    // The id of the last item of any kind (notices too), or -1.
    [[nodiscard]] int lastItem() const;
    // The text of a user turn as typed.
    [[nodiscard]] QString userText(int turn) const;

    // What an answer cost, as the provider reported it ("120 prompt + 45 completion tokens"):
    // small and muted, on the line of its links. Empty: none. Only for assistant turns.
    void setTurnUsage(int turn, const QString &text);
    [[nodiscard]] QString turnUsage(int turn) const;

    // Turns left out of requests (or about to be, while a trim is offered): their text is
    // greyed. The turns not listed are shown as usual again.
    void setDimmedTurns(const QList<int> &turns);
    [[nodiscard]] QList<int> dimmedTurns() const;
    // One muted line after the item `afterTurn` (where the left-out turns end): "3 oldest turns
    // (~900 tokens) are left out…". An empty text, or an unknown turn, removes it.
    void setLeftOutNote(int afterTurn, const QString &text);
    [[nodiscard]] QString leftOutNote() const { return m_noteText; }
    // The item the note follows, or -1.
    [[nodiscard]] int leftOutNoteAfter() const { return m_noteText.isEmpty() ? -1 : m_noteAfter; }

    // A quiet line below the last message for what a send waits for ("Waiting for the
    // provider…"): not a turn, not exported, removed by an empty text or by the next item.
    // `links` follow the text ("Send at 14:09 (in 18 min)" while a retry waits for a reset out
    // of its budget's reach, issue 25.12); they are asked for with turn 0.
    void setStatusLine(const QString &text, const QList<CardLink> &links = {});
    [[nodiscard]] QList<CardLink> statusLinks() const { return m_statusLinks; }
    [[nodiscard]] QString statusLine() const { return m_statusText; }

    // Backslash-escapes plain text so that Markdown shows it literally, line breaks kept.
    [[nodiscard]] static QString escapeMarkdown(QStringView text);

    // The conversation for export, assistant answers as the raw Markdown received.
    [[nodiscard]] QString toMarkdown() const;
    // The raw text received so far for an assistant turn.
    [[nodiscard]] QString assistantText(int turn) const;
    /// A stored conversation is filled in between these: the view stays where it is rather than
    /// follow each piece to the bottom (each would repaint the whole view), and goes to the end
    /// once it is all in, unless the reader scrolled meanwhile.
    void beginFill();
    void endFill();
    void clearConversation();
    // User, assistant and error turns (notices are not turns).
    [[nodiscard]] int turnCount() const;

    // True once everything received is on screen (a long answer is shown a budget at a time,
    // even after it finished arriving, and a long finished answer is rendered as Markdown a piece
    // at a time); a line too long to show live is "on screen" as far as it is shown.
    [[nodiscard]] bool isSettled() const { return m_pending.isEmpty() && m_rendering.isEmpty(); }
    // For tests: how many streaming edits the document has seen.
    [[nodiscard]] int flushCount() const;

Q_SIGNALS:
    // Only http and https links; the window decides what to do, the view opens nothing.
    void externalLinkActivated(const QUrl &url);
    // An action link was activated (click, or Enter on the focused link).
    void actionRequested(capwatch::ui::ConversationView::Action action, int turn);

protected:
    // Never loads remote or local-file resources. Only data: URLs of raster images up to 1 MiB
    // are decoded; everything else yields an empty QVariant.
    QVariant loadResource(int type, const QUrl &name) override;
    void changeEvent(QEvent *event) override;
    // Plain text without the "You"/"Assistant" captions, action links and the status line.
    QMimeData *createMimeDataFromSelection() const override;

private:
    enum class Kind : quint8
    {
        User,
        Assistant,
        Error,
        Notice
    };

    struct Item
    {
        int id = 0;
        Kind kind = Kind::Notice;
        QString text; // user text, raw assistant Markdown, error body or notice
        QString title; // error title
        // Where the item begins (its spacer block), for removeTurnsFrom().
        QTextCursor start;
        bool spacerInserted = false;
        // Assistant turns while streaming: the body's range, kept up to date by the document.
        QTextCursor bodyStart;
        QTextCursor bodyEnd;
        // The start of the block holding the action links (actionLine): the caption of a user
        // turn, the line under a complete answer; without such a line, the end of the answer.
        QTextCursor actionBlock;
        QList<Action> actions;
        bool actionLine = false;
        QString usage; // assistant turns: shown after the links
        bool dimmed = false; // left out of requests: greyed
        // Error turns: their frame, and what it shows about parking.
        QPointer<QTextFrame> frame;
        Card card;
        bool detailsShown = false; // error turns: the raw failure unfolded
        QString decidedBy; // error turns: the rule that read the failure
        qsizetype flushed = 0; // characters of text already in the document
        qsizetype lineLength = 0; // characters since the last line break shown
        qsizetype runLength = 0; // characters since the last space shown
        int glyphsKeptIn = -1; // the block whose layout keeps its glyphs (keepGlyphs())
        qsizetype noticeLength = 0; // characters of the "too long" notice after the body
        bool finished = false;
        QString endLine; // how it ended, under it; empty: complete (or still streaming)
        // Where continuations were joined (offsets into text), and how many are in the
        // document as plain text streamed (the rendered Markdown marks them itself).
        QList<qsizetype> seams;
        qsizetype seamsShown = 0;
        // Opened again by continueAssistantTurn(): its body is rendered again whole at its end,
        // unless nothing came (`reopenedAt`: the text's size then) and it was shown whole.
        bool reopened = false;
        bool reopenedWhole = false;
        qsizetype reopenedAt = 0;
        bool truncated = false; // reached a display limit: nothing more is shown live
        // A finished answer rendered as Markdown a piece at a time: the characters of text
        // rendered so far (-1: none pending), and where the plain text still to replace begins.
        qsizetype rendered = -1;
        QTextCursor renderEdge;
    };

    [[nodiscard]] Item *item(int id);
    [[nodiscard]] const Item *item(int id) const;
    [[nodiscard]] Item *assistantItem(int turn);
    [[nodiscard]] const Item *assistantItem(int turn) const;
    Item &appendItem(Kind kind);
    void truncateTurn(Item &item);
    void renderActions(Item &item);
    // An error turn's frame below its caption: the error (or the parked headline), the card's
    // line and links. `cursor` is at the end of the caption.
    void fillErrorCard(QTextCursor &cursor, const Item &item);
    void rebuildErrorCard(Item &item);
    void updateErrorCard(const Item &item, const Card &before);
    void insertCardLinks(QTextCursor &cursor, const Item &item);
    // endSpacer(), remembered as where the item begins.
    QTextCursor startItem(Item &item);

    // Left-out turns (conversationview_leftout.cpp).
    // The item's part of the document: its spacer to the next item (or the status line).
    [[nodiscard]] std::pair<int, int> itemRange(const Item &item) const;
    void applyDim(const Item &item, bool dimmed);
    void removeNote();

    void flushPending();
    void flushTurn(Item &item, bool final);
    void completeTurn(Item &item);
    // A finished answer's Markdown: at once when short, else a piece at a time.
    void startMarkdown(Item &item);
    // The next piece of a finished answer's Markdown; the last one completes the turn.
    void renderMarkdownPiece(Item &item);
    void renderPendingMarkdown();
    // Puts what `scratch` holds at `cursor` (in place of its selection) with the fix-ups a
    // rendered fragment needs; `cursor` ends after it.
    void insertRendered(QTextCursor &cursor, const QTextDocument &scratch, int pieceStart);
    void removeTooLongNotice(Item &item, QTextCursor &cursor);
    // A continued answer's body again as the plain text it streamed as, for startMarkdown().
    void resetReopenedBody(Item &item);
    // The thin mark where a continuation was joined, at `cursor` (plain text streamed).
    void keepGlyphs(Item &item, const QTextBlock &block);
    void insertSeam(QTextCursor &cursor);
    // An image of an answer, decoded and cached under a short name of ours: that name.
    QString cachedImage(const QUrl &source);
    void restyle();

    // A deque: an item is never copied or moved once made. A vector copied all of them each
    // time it grew (QTextCursor has no move constructor, so neither has Item a noexcept one):
    // 2,000 items at once, 3 ms of one fill piece, opening a long conversation.
    std::deque<Item> m_items;
    QList<int> m_pending; // assistant turns with text not yet shown
    QTimer m_flushTimer;
    QList<int> m_rendering; // finished answers with Markdown pieces still to render
    QTimer m_renderTimer;
    int m_nextId = 1; // ids are never reused, and grow along m_items
    int m_turnCount = 0;
    int m_flushCount = 0;
    int m_imageCount = 0;
    bool m_stickToBottom = true;
    bool m_filling = false;
    QString m_statusText;
    QList<CardLink> m_statusLinks;
    QTextCursor m_statusStart; // the status line's spacer block, while it is shown
    bool m_statusSpacerInserted = false;
    QString m_noteText;
    int m_noteAfter = -1;
    QTextCursor m_noteStart; // the note's first position, while it is shown
    int m_noteLength = 0;
};

} // namespace capwatch::ui
