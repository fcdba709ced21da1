#pragma once

#include <QTextBrowser>
#include <QTextCursor>
#include <QTimer>

#include <vector>

QT_BEGIN_NAMESPACE
class QTextDocument;
class QTextFrame;
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
    explicit ConversationView(QWidget *parent = nullptr);
    ~ConversationView() override;

    // Plain text, never interpreted as HTML or Markdown.
    int addUserTurn(const QString &text);
    // Returns the turn id for appendAssistantText() and finishAssistantTurn().
    int beginAssistantTurn();
    // Streaming: deltas are buffered and shown at most every ~30 ms.
    void appendAssistantText(int turn, const QString &delta);
    // Renders the answer as Markdown (if it is not too large) and marks it when cut off.
    void finishAssistantTurn(int turn, bool incomplete);
    // A provider failure; the body is shown as plain text in a monospace box.
    void addErrorTurn(const QString &title, const QString &body);
    // A small, muted line such as "Cancelled".
    void addNotice(const QString &text);

    // The conversation for export, assistant answers as the raw Markdown received.
    [[nodiscard]] QString toMarkdown() const;
    // The raw text received so far for an assistant turn.
    [[nodiscard]] QString assistantText(int turn) const;
    void clearConversation();
    // User, assistant and error turns (notices are not turns).
    [[nodiscard]] int turnCount() const;

    // True once everything received is on screen (a long answer is shown a budget at a time,
    // even after it finished arriving).
    [[nodiscard]] bool isSettled() const { return m_pending.isEmpty(); }
    // For tests: how many streaming edits the document has seen.
    [[nodiscard]] int flushCount() const;

Q_SIGNALS:
    // Only http and https links; the window decides what to do, the view opens nothing.
    void externalLinkActivated(const QUrl &url);

protected:
    // Never loads remote or local-file resources. Only data: URLs of raster images up to 1 MiB
    // are decoded; everything else yields an empty QVariant.
    QVariant loadResource(int type, const QUrl &name) override;
    void changeEvent(QEvent *event) override;

private:
    enum class Kind : quint8 { User, Assistant, Error, Notice };

    struct Item
    {
        int id = 0;
        Kind kind = Kind::Notice;
        QString text;  // user text, raw assistant Markdown, error body or notice
        QString title; // error title
        // Assistant turns while streaming: the body's range, kept up to date by the document.
        QTextCursor bodyStart;
        QTextCursor bodyEnd;
        qsizetype flushed = 0;    // characters of text already in the document
        qsizetype lineLength = 0; // characters since the last line break shown
        bool finished = false;
        bool incomplete = false;
        bool truncated = false; // reached the display limit
    };

    [[nodiscard]] Item *assistantItem(int turn);
    [[nodiscard]] const Item *assistantItem(int turn) const;
    Item &appendItem(Kind kind);
    QTextCursor startItem();
    QTextFrame *insertTurnFrame(QTextCursor &cursor, int frameRole, const QString &caption,
                                int captionRole);
    void finishTurnFrame(QTextFrame *frame);

    void flushPending();
    void flushTurn(Item &item, bool final);
    void completeTurn(Item &item);
    void renderMarkdown(Item &item);
    void prepareMarkdown(QTextDocument &doc);
    void restyle();

    std::vector<Item> m_items;
    QList<int> m_pending; // assistant turns with text not yet shown
    QTimer m_flushTimer;
    int m_nextId = 1;
    int m_baseId = 1; // id of m_items.front(); ids are never reused
    int m_turnCount = 0;
    int m_flushCount = 0;
    int m_imageCount = 0;
    bool m_stickToBottom = true;
};

} // namespace capwatch::ui
